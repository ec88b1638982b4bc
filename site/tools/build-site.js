#!/usr/bin/env node
'use strict';
// Builds the static results site: validates result files, copies the page,
// its vendor libraries and every raw result file into one self-contained
// directory, and writes the run manifest. Usage: see USAGE below.

const fs = require('fs');
const path = require('path');
const { readResults } = require('./read-results');
const { VENDOR_SCRIPTS, VENDOR_OTHER_FILES, vendorSource } = require('./vendor-files');
const { withPageScripts } = require('./page-scripts');
const { withPageParts } = require('./page-parts');
const { methodologyPage } = require('./methodology-page');
const { readRegistry, registryFields, limitServers } = require('./server-registry');
const { findResultSets, DEFAULT_SET } = require('./find-result-files');
const { describeSet } = require('./result-sets');
// A run's transports name it in every label (src/js/transports.js, the pages' own module).
const transports = require('../src/js/transports');

const SITE_DIR = path.join(__dirname, '..');
const REPO_DIR = path.join(SITE_DIR, '..');
const PAGE_SOURCE_DIR = path.join(SITE_DIR, 'src');
// Marks a directory this script made, so a mistyped --out never wipes anything else.
const OUTPUT_MARKER = '.sockbench-site';
// The format of manifest.json (and of data/runs.js, the same index plus each run's data);
// its fields are listed in site/README.md.
const MANIFEST_SCHEMA = 'sockbench.manifest/1';

// The one source of methodology.html's text.
const METHODOLOGY_PATH = path.join(REPO_DIR, 'docs', 'methodology.md');

const USAGE = `usage: node tools/build-site.js [--results DIR] [--out DIR] [--schema FILE] [--historic-schema FILE]
  --results DIR   result files to read: DIR/*.json and the result sets DIR/reference/*.json and
                  DIR/reference-<name>/*.json (each titled by its README.md), and the historic
                  run sets DIR/historic/<set>/*.json (default: <repo>/results)
  --out DIR       output directory, replaced on every build (default: site/dist)
  --schema FILE   JSON Schema the result files must match (default: <repo>/results/schema.json)
  --historic-schema FILE  JSON Schema of the historic files (default: <repo>/results/historic/schema.json)`;

function parseArgs(argv) {
  const options = {
    results: path.join(REPO_DIR, 'results'),
    out: path.join(SITE_DIR, 'dist'),
    schema: path.join(REPO_DIR, 'results', 'schema.json'),
    historicSchema: path.join(REPO_DIR, 'results', 'historic', 'schema.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help') return { help: true };
    const key = { '--results': 'results', '--out': 'out', '--schema': 'schema', '--historic-schema': 'historicSchema' }[flag];
    if (!key) throw new UsageError(`unknown argument: ${flag}`);
    const value = argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    options[key] = path.resolve(value);
  }
  return options;
}

class UsageError extends Error {}

function prepareOutputDir(outDir) {
  if (fs.existsSync(outDir)) {
    const entries = fs.readdirSync(outDir);
    if (entries.length > 0 && !entries.includes(OUTPUT_MARKER)) {
      throw new Error(`refusing to replace ${outDir}: it is not empty and was not made by this script`);
    }
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, OUTPUT_MARKER), 'built by site/tools/build-site.js; replaced on every build\n');
}

function copyFile(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

function copyVendorFiles(outDir) {
  for (const [source, target] of [...VENDOR_SCRIPTS, ...VENDOR_OTHER_FILES]) {
    copyFile(vendorSource(source), path.join(outDir, 'vendor', target));
  }
}

// Copies the page (HTML, CSS, scripts) minus the unit tests that sit beside it.
function copyPageSources(outDir) {
  const walk = (relativeDir) => {
    for (const entry of fs.readdirSync(path.join(PAGE_SOURCE_DIR, relativeDir), { withFileTypes: true })) {
      const relative = path.join(relativeDir, entry.name);
      if (entry.isDirectory()) {
        walk(relative);
      } else if (entry.name.endsWith('.test.js')) {
        continue;
      } else if (entry.name.endsWith('.html')) {
        const html = fs.readFileSync(path.join(PAGE_SOURCE_DIR, relative), 'utf8');
        fs.writeFileSync(path.join(outDir, relative), withPageScripts(relative, withPageParts(relative, html)));
      } else {
        copyFile(path.join(PAGE_SOURCE_DIR, relative), path.join(outDir, relative));
      }
    }
  };
  walk('.');
}

function rawHref(source) {
  return `raw/${source.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Builds the site. Returns what was built, for the CLI summary and for tests.
 * @param {{results: string, out: string, schema: string, historicSchema?: string}} options
 *   absolute paths; historicSchema defaults to results/historic/schema.json
 */
function buildSite(options) {
  const historicSchema = options.historicSchema || path.join(REPO_DIR, 'results', 'historic', 'schema.json');
  const { runs, historic, errors } = readResults(options.results, options.schema, historicSchema);
  prepareOutputDir(options.out);
  copyVendorFiles(options.out);
  copyPageSources(options.out);
  fs.writeFileSync(path.join(options.out, 'methodology.html'), methodologyPage(METHODOLOGY_PATH));

  // Raw files are copied byte for byte (broken ones too, so readers can see why they failed).
  for (const { source } of [...runs, ...historic, ...errors]) {
    copyFile(path.join(options.results, ...source.split('/')), path.join(options.out, 'raw', ...source.split('/')));
  }
  // The result sets that hold runs, each described by its folder's README.md (published beside its files).
  const sets = findResultSets(options.results).map((set) => describeSet(options.results, set))
    .map((set) => ({ ...set, runs: runs.filter((run) => run.set === set.name).length }))
    .filter((set) => set.runs > 0)
    .map(({ readme, ...set }) => {
      if (readme) copyFile(path.join(options.results, ...readme.split('/')), path.join(options.out, 'raw', ...readme.split('/')));
      return { ...set, readme_href: readme ? rawHref(readme) : null };
    });
  // The summary opens on results/reference/ as it always has; without it, on the first set there is.
  const defaultSet = sets.some((set) => set.name === DEFAULT_SET) ? DEFAULT_SET : (sets.length ? sets[0].name : null);

  const builtAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const registry = readRegistry();
  const runEntries = runs.map(({ source, set, result }) => ({
    run_id: result.run_id,
    // A peer is not our code, and a run's transports are part of its setup:
    // say both wherever its name is drawn (legends, titles, tables).
    label: transports.labelWith(result.server.peer ? `${result.label} (peer)` : result.label, result),
    started_at: result.started_at,
    server: result.server.name,
    runtime: result.server.runtime,
    runtime_version: result.server.runtime_version,
    codec: result.server.codec,
    mode: result.server.mode,
    // Which SockJS transports its sessions used (canonical spec; older files: websocket).
    transports: transports.specOf(result),
    // Its registry entry and named groups (docs/contract/server-registry.json), for the quick picks.
    ...registryFields(registry, result.server),
    hostname: result.machine.hostname,
    source,
    // The result set (folder) it belongs to: the summary shows one set at a time.
    set,
    raw_href: rawHref(source),
  }));
  // Published data of earlier benchmarks (results/historic/): their own
  // shape, listed apart from sockbench's runs so nothing counts them as one.
  const historicEntries = historic.map(({ source, result }) => ({
    run_id: result.run_id,
    kind: 'historic',
    label: result.label,
    started_at: `${result.published_at}T00:00:00Z`,
    server: result.server.name,
    runtime: result.server.runtime,
    runtime_version: result.server.runtime_version,
    codec: result.server.codec,
    mode: null,
    hostname: result.machine.cpu_model,
    source,
    raw_href: rawHref(source),
  }));
  const errorEntries = errors.map((error) => ({ ...error, raw_href: rawHref(error.source) }));

  // manifest.json is the machine-readable index; data/runs.js carries the
  // same plus every run's data as a script, so the page also works when
  // opened straight from disk (file:// forbids fetch()). The manifest is an
  // index of results, not a result, so it names its own format (MANIFEST_SCHEMA).
  const manifest = {
    schema: MANIFEST_SCHEMA,
    built_at: builtAt,
    sets,
    default_set: defaultSet,
    // The registry's limit servers (its `limit` group), so the page can give each figure as a share of its set's limit
    // and the verdict can name the limit as the machine's ceiling instead of ranking it.
    limit_servers: limitServers(registry),
    runs: runEntries,
    historic: historicEntries,
    errors: errorEntries,
  };
  fs.writeFileSync(path.join(options.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  const pageData = {
    ...manifest,
    runs: runEntries.map((entry, i) => ({ ...entry, result: runs[i].result })),
    historic: historicEntries.map((entry, i) => ({ ...entry, result: historic[i].result })),
  };
  fs.mkdirSync(path.join(options.out, 'data'), { recursive: true });
  fs.writeFileSync(path.join(options.out, 'data', 'runs.js'),
    `// Generated by site/tools/build-site.js at ${builtAt}. Do not edit.\n` +
    `window.SOCKBENCH_DATA = ${JSON.stringify(pageData)};\n`);

  return { index: path.join(options.out, 'index.html'), sets, runs: runEntries, historic: historicEntries, errors: errorEntries };
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`build-site: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  try {
    const built = buildSite(options);
    for (const error of built.errors) {
      process.stderr.write(`build-site: ${error.source}: ${error.problem}: ${error.details[0]}\n`);
    }
    process.stdout.write(`site: ${built.runs.length} run(s), ${built.historic.length} historic, ` +
      `${built.errors.length} file(s) with errors\n`);
    process.stdout.write(`${built.index}\n`);
  } catch (err) {
    process.stderr.write(`build-site: ${err.message}\n`);
    process.exit(1);
  }
}

if (require.main === module) main();

module.exports = { buildSite };
