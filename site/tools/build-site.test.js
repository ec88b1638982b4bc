'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { spawnSync } = require('child_process');
const { buildSite } = require('./build-site');
const { VENDOR_SCRIPTS, VENDOR_OTHER_FILES } = require('./vendor-files');
const { EVERY_PAGE, SCRIPTS_PLACEHOLDER, pageScripts } = require('./page-scripts');
const { SCHEMA_PATH, FIXTURES_DIR, tempDir, realFixtureNames, copyFixture } = require('./test-helpers');

const BUILD_SCRIPT = path.join(__dirname, 'build-site.js');

function buildFrom(t, fixtureNames) {
  const results = tempDir(t);
  for (const name of fixtureNames) copyFixture(name, results);
  const out = path.join(tempDir(t), 'dist');
  return { results, out, built: buildSite({ results, out, schema: SCHEMA_PATH }) };
}

function listFiles(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`)
    : [`${prefix}${e.name}`]));
}

test('the build is self-contained: pages, vendor libraries, raw files, manifest', (t) => {
  const real = realFixtureNames();
  const { out, built } = buildFrom(t, [...real, 'invalid-not-json.json']);
  assert.equal(built.index, path.join(out, 'index.html'));

  for (const [, target] of [...VENDOR_SCRIPTS, ...VENDOR_OTHER_FILES]) {
    assert.ok(fs.existsSync(path.join(out, 'vendor', target)), `vendor/${target}`);
  }
  for (const page of EVERY_PAGE) {
    const html = fs.readFileSync(path.join(out, page), 'utf8');
    assert.ok(!html.includes(SCRIPTS_PLACEHOLDER), `${page}: placeholder left`);
    // Every script and stylesheet the page loads is in the build; the scripts in tools/page-scripts.js's order.
    const refs = [...html.matchAll(/(?:src|href)="([^"#?:]+)"/g)].map((m) => m[1]);
    for (const ref of refs) assert.ok(fs.existsSync(path.join(out, ref)), `${page} loads missing ${ref}`);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(scripts, pageScripts(page));
    assert.ok(!/https?:\/\//.test(html.replace(/http:\/\/www\.w3\.org[^"]*/g, '')), `${page} refers to the network`);
  }
  assert.ok(!listFiles(out).some((f) => f.endsWith('.test.js')), 'unit tests are not published');

  for (const name of [...real, 'invalid-not-json.json']) {
    assert.ok(fs.readFileSync(path.join(out, 'raw', name)).equals(fs.readFileSync(path.join(FIXTURES_DIR, name))), name);
  }

  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  assert.equal(manifest.schema, 'sockbench.manifest/1', 'the manifest is an index of results, not a result');
  assert.deepEqual(manifest.runs.map((r) => r.source).sort(), [...real].sort());
  assert.ok(manifest.runs.every((r) => r.raw_href === `raw/${r.source}` && !('result' in r)));
  assert.deepEqual(manifest.errors.map((e) => e.source), ['invalid-not-json.json']);

  const sandbox = { window: {} };
  vm.runInNewContext(fs.readFileSync(path.join(out, 'data', 'runs.js'), 'utf8'), sandbox);
  const data = sandbox.window.SOCKBENCH_DATA;
  assert.equal(data.runs.length, real.length);
  for (const run of data.runs) {
    // JSON round trip: objects made in the vm context have that context's prototypes.
    assert.deepEqual(JSON.parse(JSON.stringify(run.result)), JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, run.source), 'utf8')));
  }
});

test('rebuilding replaces its own output but never a directory it did not make', (t) => {
  const { results, out } = buildFrom(t, []);
  fs.writeFileSync(path.join(out, 'stale.txt'), 'old');
  buildSite({ results, out, schema: SCHEMA_PATH });
  assert.ok(!fs.existsSync(path.join(out, 'stale.txt')));

  const foreign = tempDir(t);
  fs.writeFileSync(path.join(foreign, 'precious.txt'), 'keep me');
  assert.throws(() => buildSite({ results, out: foreign, schema: SCHEMA_PATH }), /refusing to replace/);
  assert.equal(fs.readFileSync(path.join(foreign, 'precious.txt'), 'utf8'), 'keep me');
});

test('CLI: prints the index path; usage errors exit 2; a missing results dir exits 1', (t) => {
  const results = tempDir(t);
  const out = path.join(tempDir(t), 'dist');
  const ok = spawnSync(process.execPath, [BUILD_SCRIPT, '--results', results, '--out', out], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, `site: 0 run(s), 0 historic, 0 file(s) with errors\n${path.join(out, 'index.html')}\n`);

  const typo = spawnSync(process.execPath, [BUILD_SCRIPT, '--result', results], { encoding: 'utf8' });
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /unknown argument: --result\nusage:/);
  const missingValue = spawnSync(process.execPath, [BUILD_SCRIPT, '--out'], { encoding: 'utf8' });
  assert.equal(missingValue.status, 2);
  assert.match(missingValue.stderr, /--out needs a value/);

  const missing = spawnSync(process.execPath, [BUILD_SCRIPT, '--results', path.join(results, 'nope'), '--out', out], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /results directory not found/);

  const help = spawnSync(process.execPath, [BUILD_SCRIPT, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: /);
});

const HISTORIC_DIR = path.join(__dirname, '..', '..', 'results', 'historic');

test('historic run sets (results/historic/<set>/) are validated, published raw and listed apart from runs', (t) => {
  const results = tempDir(t);
  copyFixture(realFixtureNames()[0], results);
  const sets = fs.readdirSync(HISTORIC_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.ok(sets.includes('2011'), 'results/historic/2011 is committed');
  const names = fs.readdirSync(path.join(HISTORIC_DIR, '2011')).filter((n) => n.endsWith('.json'));
  fs.mkdirSync(path.join(results, 'historic', '2011'), { recursive: true });
  for (const name of names) fs.copyFileSync(path.join(HISTORIC_DIR, '2011', name), path.join(results, 'historic', '2011', name));
  // A broken historic file is listed as an error, like a broken result file.
  fs.writeFileSync(path.join(results, 'historic', '2011', 'broken.json'), JSON.stringify({ schema: 'sockbench.historic/1' }));
  const out = path.join(tempDir(t), 'dist');
  const built = buildSite({ results, out, schema: SCHEMA_PATH });

  assert.equal(built.runs.length, 1);
  assert.deepEqual(built.historic.map((h) => h.source).sort(), names.map((n) => `historic/2011/${n}`).sort());
  assert.ok(built.historic.every((h) => h.kind === 'historic'));
  assert.deepEqual(built.errors.map((e) => e.source), ['historic/2011/broken.json']);
  assert.match(built.errors[0].problem, /results\/historic\/schema.json/);
  for (const name of names) {
    assert.ok(fs.readFileSync(path.join(out, 'raw', 'historic', '2011', name)).equals(fs.readFileSync(path.join(HISTORIC_DIR, '2011', name))), name);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  assert.equal(manifest.historic.length, names.length);
  assert.equal(manifest.runs.length, 1, 'historic runs are not sockbench runs');
});

test('methodology.html is docs/methodology.md, with the anchor the summary links to and GitHub\'s id on each section', (t) => {
  const out = path.join(tempDir(t), 'dist');
  buildSite({ results: tempDir(t), out, schema: SCHEMA_PATH });
  const html = fs.readFileSync(path.join(out, 'methodology.html'), 'utf8');
  assert.match(html, /<h1 id="methodology">Methodology<\/h1>/);
  const source = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'methodology.md'), 'utf8');
  const { splitTitle } = require('./methodology-page');
  const firstWords = splitTitle(source).body.split('\n')[0].slice(0, 30);
  assert.ok(html.replace(/<[^>]+>/g, '').includes(firstWords), 'the page carries the docs text');
  const sections = source.split('\n').filter((line) => line.startsWith('## ')).map((line) => line.slice(3));
  assert.ok(sections.includes('A figure is the server\'s limit, or a floor'), 'the floors section the site and docs link to');
  assert.match(html, /<h2 id="a-figure-is-the-servers-limit-or-a-floor">A figure is the server's limit, or a floor<\/h2>/);
  assert.equal((html.match(/<h2 id="/g) || []).length, sections.length, 'every section is a heading on the page');
  assert.ok(!/href="[^"]*\.md/.test(html), 'links into the repository become their text');
  assert.ok(!/https?:\/\//.test(html), 'no network references');
  assert.ok(!/<script/.test(html));
});

test('methodology page: headings get GitHub\'s ids, links become text, a file without a title is a clear error', (t) => {
  const { headingId, markdownBlocksToHtml, methodologyPage } = require('./methodology-page');
  assert.equal(headingId('6. Scale-out: `--workers` and `--broker`'), '6-scale-out---workers-and---broker');
  assert.equal(headingId('Latency, honestly'), 'latency-honestly');
  assert.equal(headingId('**Bold** _it_ snake_case'), 'bold-it-snake_case');
  assert.equal(markdownBlocksToHtml('See [`results/README.md`](../results/README.md) and [the charts](x.md#a).'),
    '<p>See <code>results/README.md</code> and the charts.</p>');
  const file = path.join(tempDir(t), 'untitled.md');
  fs.writeFileSync(file, 'no title heading here\n');
  assert.throws(() => methodologyPage(file), /untitled\.md has no "# " title heading/);
});

test('every reference*/ folder is a named result set: runs carry their set, the manifest lists the sets, reference/ first and default', (t) => {
  const [first, second, third] = realFixtureNames();
  const results = tempDir(t);
  copyFixture(first, path.join(results, 'reference'));
  copyFixture(second, path.join(results, 'reference-runtimes'));
  copyFixture(third, results);
  fs.writeFileSync(path.join(results, 'reference-runtimes', 'README.md'), '# Runtimes\n\nNewer runtimes beside ours.\n');
  fs.mkdirSync(path.join(results, 'reference-empty'));
  const out = path.join(tempDir(t), 'dist');
  buildSite({ results, out, schema: SCHEMA_PATH });

  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.sets.map((s) => [s.name, s.title, s.runs]), [
    ['reference', 'reference', 1], ['reference-runtimes', 'Runtimes', 1], ['results', manifest.sets[2].title, 1]]);
  assert.equal(manifest.default_set, 'reference', 'the summary opens on results/reference/ as before');
  assert.equal(manifest.sets[1].description, 'Newer runtimes beside ours.');
  assert.equal(manifest.sets[1].readme_href, 'raw/reference-runtimes/README.md');
  assert.ok(fs.existsSync(path.join(out, 'raw', 'reference-runtimes', 'README.md')), 'the set\'s README is published beside its files');
  assert.deepEqual(manifest.runs.map((r) => [r.set, r.source]), [
    ['reference', `reference/${first}`], ['reference-runtimes', `reference-runtimes/${second}`], ['results', third]]);
  // The registry's limit servers, for the share of the limit: read from it, one per mode.
  assert.deepEqual(manifest.limit_servers.map((l) => [l.entry, l.mode]), [['limit-naive', 'naive'], ['limit-fast', 'fast']]);
});

test('without results/reference/ the first set with runs is the default', (t) => {
  const results = tempDir(t);
  copyFixture(realFixtureNames()[0], path.join(results, 'reference-runtimes'));
  copyFixture(realFixtureNames()[1], results);
  const out = path.join(tempDir(t), 'dist');
  const built = buildSite({ results, out, schema: SCHEMA_PATH });
  assert.deepEqual(built.sets.map((s) => s.name), ['reference-runtimes', 'results']);
  assert.equal(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).default_set, 'reference-runtimes');
});
