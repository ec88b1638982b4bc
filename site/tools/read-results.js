'use strict';
// Reads every result file, sorting them into valid runs and errors. One bad
// file never stops the build: it becomes an entry in `errors`, which the page
// lists while the other runs render.

const fs = require('fs');
const { findResultFiles, findHistoricFiles } = require('./find-result-files');
const { createResultValidator } = require('./validate-results');

/**
 * @param {string} resultsDir directory holding result files (see find-result-files.js)
 * @param {string} schemaPath results/schema.json
 * @param {string} [historicSchemaPath] results/historic/schema.json; when
 *   given, DIR/historic/<set>/*.json are read too and returned as `historic`
 * @returns {{runs: {source: string, set: string, result: object}[],
 *            historic: {source: string, result: object}[],
 *            errors: {source: string, problem: string, details: string[]}[]}}
 */
function readResults(resultsDir, schemaPath, historicSchemaPath) {
  const errors = [];
  const sourceOfRunId = new Map();
  const runs = readKind(findResultFiles(resultsDir), createResultValidator(schemaPath),
    'does not match results/schema.json', errors, sourceOfRunId);
  const historic = historicSchemaPath
    ? readKind(findHistoricFiles(resultsDir), createResultValidator(historicSchemaPath),
      'does not match results/historic/schema.json (sockbench.historic/1)', errors, sourceOfRunId)
    : [];
  return { runs, historic, errors };
}

// Reads one kind of file; run ids are unique across kinds (they name pages).
function readKind(files, validate, schemaProblem, errors, sourceOfRunId) {
  const runs = [];
  for (const file of files) {
    let data;
    try {
      data = JSON.parse(fs.readFileSync(file.absolute, 'utf8'));
    } catch (err) {
      const problem = err instanceof SyntaxError ? 'not valid JSON' : 'could not be read';
      errors.push({ source: file.relative, problem, details: [err.message] });
      continue;
    }
    const messages = validate(data);
    if (messages.length > 0) {
      errors.push({
        source: file.relative,
        problem: schemaProblem,
        details: messages,
      });
      continue;
    }
    // run_id names the run's page, so two files with one id cannot both be shown.
    const earlier = sourceOfRunId.get(data.run_id);
    if (earlier !== undefined) {
      errors.push({
        source: file.relative,
        problem: 'duplicate run_id',
        details: [`run_id ${data.run_id} is already used by ${earlier}; this copy is not shown`],
      });
      continue;
    }
    sourceOfRunId.set(data.run_id, file.relative);
    runs.push({ source: file.relative, set: file.set, result: data });
  }
  return runs;
}

module.exports = { readResults };
