'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { EVERY_PAGE, PAGE_MODULES, SCRIPTS_PLACEHOLDER, pageScripts, withPageScripts } = require('./page-scripts');
const { VENDOR_SCRIPTS } = require('./vendor-files');

const SOURCE_DIR = path.join(__dirname, '..', 'src');

test('the table names every page module under src/js/ once, and no file that is not there', () => {
  const modules = fs.readdirSync(path.join(SOURCE_DIR, 'js')).filter((n) => n.endsWith('.js') && !n.endsWith('.test.js'));
  const listed = PAGE_MODULES.map(([file]) => file);
  assert.deepEqual([...listed].sort(), modules.sort());
  assert.equal(new Set(listed).size, listed.length);
  for (const [file, pages] of PAGE_MODULES) {
    assert.ok(pages.length > 0 && pages.every((p) => EVERY_PAGE.includes(p)), `${file}: ${pages}`);
  }
});

test('every page under src/ has the placeholder once and is in the table', () => {
  const pages = fs.readdirSync(SOURCE_DIR).filter((n) => n.endsWith('.html'));
  assert.deepEqual(pages.sort(), [...EVERY_PAGE].sort());
  for (const page of pages) {
    const html = fs.readFileSync(path.join(SOURCE_DIR, page), 'utf8');
    assert.equal(html.split(SCRIPTS_PLACEHOLDER).length, 2, page);
    assert.ok(!/<script\b/.test(html), `${page} lists a script itself instead of in tools/page-scripts.js`);
  }
});

test('a page loads flot in its order, then the run data, then its modules, its own entry point last', () => {
  for (const page of EVERY_PAGE) {
    const scripts = pageScripts(page);
    assert.deepEqual(scripts.slice(0, VENDOR_SCRIPTS.length), VENDOR_SCRIPTS.map(([, target]) => `vendor/${target}`));
    assert.equal(scripts[VENDOR_SCRIPTS.length], 'data/runs.js');
    assert.equal(scripts.at(-1), `js/${page.replace('.html', '')}-page.js`);
    assert.equal(scripts.filter((s) => s.endsWith('-page.js')).length, 1, `${page} loads one entry point`);
  }
});

test('the placeholder becomes one <script> tag per script, indented as the page is', () => {
  const html = withPageScripts('run.html', `<body>\n  ${SCRIPTS_PLACEHOLDER}\n</body>\n`);
  const tags = [...html.matchAll(/^ {2}<script src="([^"]+)"><\/script>$/gm)].map((m) => m[1]);
  assert.deepEqual(tags, pageScripts('run.html'));
  assert.throws(() => withPageScripts('run.html', '<body></body>'), /lacks <!-- sockbench:scripts -->/);
  assert.throws(() => pageScripts('other.html'), /not a page/);
});
