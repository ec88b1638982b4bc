'use strict';
// Which files are result files, and which set each belongs to: every *.json
// directly in a set folder `reference/` or `reference-<name>/` of the results
// directory (committed reference runs, one folder per session: reference-runtimes/,
// ...) and directly in the results directory itself (runs made here, the set
// SCRATCH_SET), except the schema itself. Other subdirectories (e.g. scratch/) are
// not read: results/README.md says only those places hold runs.

const fs = require('fs');
const path = require('path');

const SCHEMA_FILE_NAME = 'schema.json';
// A set folder's name: `reference` (the default set, results/reference/) or `reference-<name>`.
const SET_FOLDER = /^reference(-[A-Za-z0-9._-]+)?$/;
// The set of the files directly in the results directory (scratch, git-ignored).
const SCRATCH_SET = 'results';
// The set the summary shows first when it has runs.
const DEFAULT_SET = 'reference';

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
 * The result sets of a results directory, in the order the site lists them:
 * `reference`, then the other `reference-*` folders alphabetically, then SCRATCH_SET.
 * @param {string} resultsDir (must exist)
 * @returns {{name: string, dir: string}[]} dir: relative to resultsDir, '' for SCRATCH_SET
 */
function findResultSets(resultsDir) {
  const folders = fs.readdirSync(resultsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && SET_FOLDER.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => (a === DEFAULT_SET ? -1 : b === DEFAULT_SET ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return [...folders.map((name) => ({ name, dir: name })), { name: SCRATCH_SET, dir: '' }];
}

/**
 * @param {string} resultsDir directory to scan (must exist)
 * @returns {{absolute: string, relative: string, set: string}[]} files in a
 *   stable order: set by set (findResultSets's order), each alphabetically;
 *   `relative` uses forward slashes and is relative to resultsDir; `set` is
 *   the set's name (its folder's, or SCRATCH_SET).
 */
function findResultFiles(resultsDir) {
  if (!fs.existsSync(resultsDir) || !fs.statSync(resultsDir).isDirectory()) {
    throw new Error(`results directory not found: ${resultsDir}`);
  }
  return findResultSets(resultsDir).flatMap(({ name, dir }) => jsonFilesIn(path.join(resultsDir, dir))
    .filter((file) => file !== SCHEMA_FILE_NAME)
    .map((file) => {
      const relative = dir ? `${dir}/${file}` : file;
      return { absolute: path.join(resultsDir, ...relative.split('/')), relative, set: name };
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

module.exports = { SCRATCH_SET, DEFAULT_SET, findResultSets, findResultFiles, findHistoricFiles };
