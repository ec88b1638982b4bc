'use strict';
// Open files for --sessions N: every websocket session holds one socket, so a
// process expected to hold N sessions needs N descriptors and some to spare,
// and the soft RLIMIT_NOFILE is the first wall it hits. Node raises its soft
// limit to the hard one itself at startup (PlatformInit), so this only reads
// the limit (/proc/self/limits) and refuses, before listening, when one
// serving process's share does not fit: a run that would fail at connect time
// with EMFILE fails at once and says what to change.

const fs = require('node:fs');

// Descriptors a serving process needs besides its sessions' sockets: the
// listening socket, libuv's epoll and signal pipes, stdio, the Redis
// connections, the cluster IPC channel, a connection being accepted.
const SPARE = 64;
// Range of --sessions (sessions of the whole process group).
const MIN_EXPECTED_SESSIONS = 1;
const MAX_EXPECTED_SESSIONS = 10000000;
// Most workers a refusal suggests (--workers' maximum, src/cli.js).
const SUGGESTED_WORKERS_MAX = 64;

/** Sessions one of `workers` serving processes holds: ceil(sessions / workers). */
function share(sessions, workers) {
  return Math.ceil(sessions / workers);
}

/** Open files one serving process needs for its share of `sessions`. */
function filesNeeded(sessions, workers) {
  return share(sessions, workers) + SPARE;
}

/** The fewest workers whose share of `sessions` fits `limit` open files each; null when none up to 64 does. */
function workersThatFit(sessions, limit) {
  const room = limit - SPARE;
  if (room <= 0) return null;
  const workers = Math.ceil(sessions / room);
  return workers <= SUGGESTED_WORKERS_MAX ? workers : null;
}

/**
 * The soft "Max open files" of a /proc/<pid>/limits text; null when the text
 * has none or it is unlimited.
 */
function softLimit(limitsText) {
  const line = limitsText.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line ? line.slice('Max open files'.length).trim().split(/\s+/)[0] : undefined;
  return soft !== undefined && /^[0-9]+$/.test(soft) ? Number(soft) : null;
}

/**
 * This process's soft open-files limit: {limit} or, where /proc/self/limits
 * cannot be read (not Linux; Deno without read permission for it), {unreadable: why}.
 */
function ownSoftLimit() {
  let text;
  try {
    text = fs.readFileSync('/proc/self/limits', 'utf8');
  } catch (err) {
    return { unreadable: `/proc/self/limits: ${err.code ?? err.name}` };
  }
  const limit = softLimit(text);
  return limit === null ? { unreadable: '/proc/self/limits has no finite "Max open files"' } : { limit };
}

/**
 * The one line a server prints instead of starting when one serving process's
 * share of `sessions` does not fit `limit` open files; null when it fits.
 */
function refusalLine(program, sessions, workers, limit) {
  const needed = filesNeeded(sessions, workers);
  if (needed <= limit) return null;
  const fit = workersThatFit(sessions, limit);
  const advice = fit !== null ? `use --workers ${fit} or raise ulimit -n` : 'raise ulimit -n';
  return `${program}: ${sessions} sessions need ${needed} open files per process but the limit is ` +
    `${limit} (ulimit -n); ${advice}`;
}

module.exports = {
  SPARE, MIN_EXPECTED_SESSIONS, MAX_EXPECTED_SESSIONS, share, filesNeeded, workersThatFit, softLimit,
  ownSoftLimit, refusalLine,
};
