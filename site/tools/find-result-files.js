'use strict';
// Which files are result files: every *.json directly in the results
// directory and in its reference/ subdirectory (the committed reference
// runs), except the schema itself. Other subdirectories (e.g. scratch/) are
// not read: results/README.md says only those two places hold runs.

const fs = require('fs');
const path = require('path');

const SCHEMA_FILE_NAME = 'schema.json';

function jsonFilesIn(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name)
    .sort();
}

/**
 * @param {string} resultsDir directory to scan (must exist)
 * @returns {{absolute: string, relative: string}[]} files in a stable order:
 *   reference runs first, then the rest, each alphabetically; `relative` uses
 *   forward slashes and is relative to resultsDir.
 */
function findResultFiles(resultsDir) {
  if (!fs.existsSync(resultsDir) || !fs.statSync(resultsDir).isDirectory()) {
    throw new Error(`results directory not found: ${resultsDir}`);
  }
  const reference = jsonFilesIn(path.join(resultsDir, 'reference'))
    .map((name) => `reference/${name}`);
  const scratch = jsonFilesIn(resultsDir).filter((name) => name !== SCHEMA_FILE_NAME);
  return [...reference, ...scratch].map((relative) => ({
    absolute: path.join(resultsDir, ...relative.split('/')),
    relative,
  }));
}

/**
 * Historic run sets: every *.json in each subdirectory of DIR/historic/
 * (e.g. historic/2011/), published charts of earlier benchmarks in their
 * own shape (results/historic/schema.json), never sockbench result files.
 * @param {string} resultsDir
 * @returns {{absolute: string, relative: string}[]} by set, then name
 */
function findHistoricFiles(resultsDir) {
  const historicDir = path.join(resultsDir, 'historic');
  let sets;
  try {
    sets = fs.readdirSync(historicDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  return sets.flatMap((set) => jsonFilesIn(path.join(historicDir, set))
    .filter((name) => name !== SCHEMA_FILE_NAME)
    .map((name) => ({ absolute: path.join(historicDir, set, name), relative: `historic/${set}/${name}` })));
}

module.exports = { findResultFiles, findHistoricFiles };
