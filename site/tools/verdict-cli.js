#!/usr/bin/env node
'use strict';
// The verdict sentences (src/js/verdict.js) of result files, for `make compare`
// (bench/verdict.py runs this): one line per algorithm group, or --json for
// the full structure. The page computes the same sentences from the same
// module, so there is one implementation of the rule; the registry's limit
// servers (docs/contract/server-registry.json, its `limit` group) are read as
// the site build reads them, so both name the same runs as the yardstick.
//
//   node tools/verdict-cli.js [--level N] [--json] FILE.json...
//
// --level N: judge every group at N concurrent clients (an integer >= 1);
// default: per group, the highest level where every run has a figure.
// A usage error exits 2; an unreadable file exits 1 with its name.

const fs = require('fs');
const path = require('path');
const { verdicts } = require('../src/js/verdict');
const { readRegistry, registryFields, limitServers } = require('./server-registry');

const USAGE = 'usage: node tools/verdict-cli.js [--level N] [--json] FILE.json...';

function parseArgs(argv) {
  const options = { level: null, json: false, files: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--level') {
      const value = argv[i + 1];
      if (!/^[1-9]\d*$/.test(value || '')) return null;
      options.level = Number(value);
      i += 1;
    } else if (arg.startsWith('-')) return null;
    else options.files.push(arg);
  }
  return options.files.length ? options : null;
}

/** A result file as the site's run entry (the shape verdict.js reads, its registry entry included). */
function runEntry(file, registry) {
  let result;
  try {
    result = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read JSON: ${error.message}`);
  }
  if (!result || !Array.isArray(result.levels) || !result.server) {
    throw new Error(`${file}: not a sockbench result file (no server or levels)`);
  }
  return {
    run_id: result.run_id || path.basename(file), label: result.label, started_at: result.started_at,
    ...registryFields(registry, result.server), result,
  };
}

function main(argv) {
  const options = parseArgs(argv);
  if (!options) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let runs;
  const registry = readRegistry();
  try {
    runs = options.files.map((file) => runEntry(file, registry));
  } catch (error) {
    process.stderr.write(`verdict: ${error.message}\n`);
    return 1;
  }
  const out = verdicts(runs, { level: options.level, limitServers: limitServers(registry) });
  process.stdout.write(options.json ? `${JSON.stringify(out, null, 1)}\n` : out.map((v) => `${v.sentence}\n`).join(''));
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main, parseArgs };
