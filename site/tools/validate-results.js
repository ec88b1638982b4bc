'use strict';
// Validates result files against results/schema.json, the one definition of
// the format. The schema is read from disk at build time (never copied here)
// so a schema change reaches the site without touching it.

const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

// A broken file can fail in hundreds of places; the page lists the first few.
const MAX_MESSAGES_PER_FILE = 8;

/**
 * @param {string} schemaPath path of results/schema.json
 * @returns {(data: unknown) => string[]} returns [] for a valid result,
 *   otherwise readable messages such as "/levels/0/points/3/state: must be
 *   equal to one of the allowed values (ok, saturated, overloaded)" or
 *   "(top level): missing required properties machine, client".
 */
function createResultValidator(schemaPath) {
  const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv); // "format": "date-time" is asserted, not just annotated
  const validate = ajv.compile(schema);
  return (data) => {
    if (validate(data)) return [];
    return describeErrors(validate.errors);
  };
}

function describeErrors(errors) {
  // Missing properties of one object become one line rather than one each,
  // and oneOf failures repeat every branch's complaint: keep distinct lines.
  const missingByPath = new Map();
  const messages = [];
  for (const error of errors) {
    const where = error.instancePath || '(top level)';
    if (error.keyword === 'required') {
      if (!missingByPath.has(where)) {
        missingByPath.set(where, []);
        messages.push({ where, missing: missingByPath.get(where) });
      }
      missingByPath.get(where).push(error.params.missingProperty);
      continue;
    }
    let text = `${where}: ${error.message}`;
    if (error.keyword === 'enum') text += ` (${error.params.allowedValues.join(', ')})`;
    if (error.keyword === 'const') text += ` (${JSON.stringify(error.params.allowedValue)})`;
    if (!messages.includes(text)) messages.push(text);
  }
  const lines = messages.map((m) => (typeof m === 'string'
    ? m
    : `${m.where}: missing required ${m.missing.length > 1 ? 'properties' : 'property'} ${m.missing.join(', ')}`));
  if (lines.length > MAX_MESSAGES_PER_FILE) {
    const hidden = lines.length - MAX_MESSAGES_PER_FILE;
    return [...lines.slice(0, MAX_MESSAGES_PER_FILE), `… and ${hidden} more`];
  }
  return lines;
}

module.exports = { createResultValidator };
