'use strict';
// What one case's outcome means: pass, an expected failure (listed in
// expected-failures.json with its reason, and failing for that very cause),
// or a failure. Strict both ways: a listed case that passes fails the run, so
// an entry never outlives the limitation it records - but for a race (`race:
// true`), a failure that comes in some runs only: its pass is a pass.

const fs = require('node:fs');
const path = require('node:path');

const EXPECTED_PATH = path.join(__dirname, '..', 'expected-failures.json');

/** expected-failures.json, checked: {server: {transport: {reason, cause: RegExp}}}. */
function loadExpected(file = EXPECTED_PATH, transports = null) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = {};
  for (const [server, byTransport] of Object.entries(doc)) {
    if (server === '$comment') continue;
    out[server] = {};
    for (const [transport, entry] of Object.entries(byTransport)) {
      const where = `${path.basename(file)}: ${server}.${transport}`;
      if (transports && !transports.includes(transport)) throw new Error(`${where}: unknown transport`);
      if (!entry || typeof entry.reason !== 'string' || !entry.reason || typeof entry.cause !== 'string') {
        throw new Error(`${where}: needs a "reason" and a "cause" (a regular expression)`);
      }
      if (entry.race !== undefined && typeof entry.race !== 'boolean') {
        throw new Error(`${where}: "race" must be true or false`);
      }
      out[server][transport] = { reason: entry.reason, cause: new RegExp(entry.cause), race: entry.race === true };
    }
  }
  return out;
}

/**
 * @param {string|null} failure null when the case passed, else what went wrong
 * @param {{reason: string, cause: RegExp, race: boolean}|undefined} expected the listed expected failure, if any
 * @returns {{status: 'pass'|'xfail'|'FAIL', note: string|null}}
 */
function verdict(failure, expected) {
  if (!expected) return failure === null ? { status: 'pass', note: null } : { status: 'FAIL', note: failure };
  if (failure === null) {
    if (expected.race) return { status: 'pass', note: null };
    return { status: 'FAIL', note: `listed as an expected failure but passed: remove it from expected-failures.json (${expected.reason})` };
  }
  if (!expected.cause.test(failure)) {
    return { status: 'FAIL', note: `expected to fail because ${expected.reason}, but failed otherwise: ${failure}` };
  }
  return { status: 'xfail', note: expected.reason };
}

module.exports = { loadExpected, verdict, EXPECTED_PATH };
