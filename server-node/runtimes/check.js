'use strict';
// `node server-node/runtimes/check.js [NAME...]`: does each pinned runtime
// (all, or those named) run here? Silent and exit 0 when all do; otherwise one
// line per runtime that does not, saying what and how to fix it, and exit 1.
// The install rule runs it after npm ci, so a stamp is only written for
// binaries that really run.

const { pinnedRuntimes, runnableProblem } = require('./runtimes');

function main(names) {
  const runtimes = pinnedRuntimes();
  const unknown = names.filter((name) => !runtimes.some((r) => r.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`check.js: unknown runtime(s) ${unknown.join(', ')}; pinned: ` +
      `${runtimes.map((r) => r.name).join(', ')}\n`);
    return 2;
  }
  let status = 0;
  for (const runtime of runtimes.filter((r) => names.length === 0 || names.includes(r.name))) {
    const problem = runnableProblem(runtime);
    if (problem !== null) {
      process.stderr.write(`server-node/runtimes: ${problem}\n`);
      status = 1;
    }
  }
  return status;
}

process.exitCode = main(process.argv.slice(2));
