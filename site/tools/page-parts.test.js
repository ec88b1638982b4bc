'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { PAGE_PARTS, partsUsed, withPageParts } = require('./page-parts');

const SOURCE_DIR = path.join(__dirname, '..', 'src');
const pages = fs.readdirSync(SOURCE_DIR).filter((n) => n.endsWith('.html'));

test('every part is shown more than once across the pages, and every part a page names exists', () => {
  const uses = pages.flatMap((page) => partsUsed(fs.readFileSync(path.join(SOURCE_DIR, page), 'utf8')));
  for (const name of Object.keys(PAGE_PARTS)) {
    assert.ok(uses.filter((u) => u === name).length > 1, `${name} is used once: it belongs in its page`);
  }
  for (const name of uses) assert.ok(Object.hasOwn(PAGE_PARTS, name), name);
});

test('a part line becomes the part, each line indented as the part line was', () => {
  const html = withPageParts('x.html', '<select>\n    <!-- sockbench:part axis-scale-options -->\n</select>\n');
  assert.equal(html, '<select>\n    <option value="log">logarithmic</option>\n'
    + '    <option value="linear">linear</option>\n</select>\n');
  assert.throws(() => withPageParts('x.html', '  <!-- sockbench:part nothing -->\n'), /x\.html names nothing/);
});

test('the built pages keep no part line', () => {
  for (const page of pages) {
    const html = withPageParts(page, fs.readFileSync(path.join(SOURCE_DIR, page), 'utf8'));
    assert.ok(!html.includes('sockbench:part'), page);
  }
});
