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
 *   equal to one of the allowed values (ok, saturated, overloaded)".
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
  // oneOf failures repeat every branch's complaint; keep the distinct ones.
  const messages = [];
  for (const error of errors) {
    const where = error.instancePath || '(top level)';
    let text = `${where}: ${error.message}`;
    if (error.keyword === 'enum') text += ` (${error.params.allowedValues.join(', ')})`;
    if (error.keyword === 'const') text += ` (${JSON.stringify(error.params.allowedValue)})`;
    if (!messages.includes(text)) messages.push(text);
  }
  if (messages.length > MAX_MESSAGES_PER_FILE) {
    const hidden = messages.length - MAX_MESSAGES_PER_FILE;
    return [...messages.slice(0, MAX_MESSAGES_PER_FILE), `… and ${hidden} more`];
  }
  return messages;
}

module.exports = { createResultValidator };
