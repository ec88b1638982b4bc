'use strict';
// Logging to stderr only (stdout carries nothing but the READY line), filtered
// by --log-level. sockjs-node calls its `log` option with its own severities:
// 'debug' (startup), 'info' (one line per HTTP request) and 'error' (an
// exception inside a request handler). At the default level `warning` the
// per-request lines are dropped, so the benchmark runs with sockjs-node's
// logging off; only its 'error' lines, which mean a bug, still reach stderr.

const RANK = { debug: 0, info: 1, warning: 2, error: 3 };

/**
 * @param {'debug'|'info'|'warning'|'error'} level lowest severity written
 * @param {(line: string) => void} [write] sink for finished lines (stderr by default)
 * @param {string} [tag] put before every message, e.g. "worker 2/4 pid 123: "
 */
function createLogger(level, write = (line) => process.stderr.write(line + '\n'), tag = '') {
  if (!(level in RANK)) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);
  const threshold = RANK[level];
  const emit = (severity, text) => {
    if (RANK[severity] >= threshold) write(`${new Date().toISOString()} ${severity.toUpperCase()} ${tag}${text}`);
  };
  return {
    debug: (text) => emit('debug', text),
    info: (text) => emit('info', text),
    warning: (text) => emit('warning', text),
    error: (text) => emit('error', text),
    // The function given to sockjs-node as its `log` option.
    sockjs: (severity, line) => emit(severity in RANK ? severity : 'error', `sockjs: ${line}`),
  };
}

module.exports = { createLogger };
