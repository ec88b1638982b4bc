'use strict';
// The one reader of a server's resident memory for this component's tests and
// tools: read from outside the process (/proc/<pid>/status, VmRSS), as the
// bench samples every server, never from inside it.

const fs = require('node:fs');

/** Resident set size of `pid` in bytes; throws if the process is gone. */
function residentBytes(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

module.exports = { residentBytes };
