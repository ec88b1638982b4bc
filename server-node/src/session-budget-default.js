'use strict';
// --max-sessions: its range and its default (docs/protocol.md §7), apart from
// src/session-budget.js so the command line can be parsed (and --help shown)
// before node_modules is installed.

// What one session costs at most, idle, with its connection: a websocket
// session (framed or raw, the dearest kinds) measured at 25-26 KiB of RSS
// each on Node 20 with sockjs 0.3.24, an xhr session at ~9 KiB
// (tools/session-cost.js; README "Session budget"), rounded up.
const SESSION_BYTES = 32 * 1024;
// What sessions may take together. server-node has no total output budget to
// derive it from (server-python's is --max-total-buffer, 64 MiB); 128 MiB
// makes room for the largest benchmark level (2,000 sessions) while the
// previous level's 1,500 may still be closing, and is about twice what a
// fresh server holds (~56 MiB RSS).
const SESSION_MEMORY_BUDGET_BYTES = 128 * 1024 * 1024;
const MIN_SESSIONS = 1;
const MAX_SESSIONS = 1000000;
/** Sessions per process (per worker with --workers): 128 MiB / 32 KiB = 4,096. */
const DEFAULT_MAX_SESSIONS = SESSION_MEMORY_BUDGET_BYTES / SESSION_BYTES;

/**
 * The default budget of a process told (--sessions) that it will hold `share`
 * sessions: room for them and a quarter more - the primary hands connections
 * round-robin, but a benchmark level's sessions may still be closing when the
 * next level's open - never below DEFAULT_MAX_SESSIONS.
 */
function maxSessionsForShare(share) {
  return Math.max(DEFAULT_MAX_SESSIONS, Math.min(MAX_SESSIONS, share + Math.ceil(share / 4)));
}

module.exports = {
  DEFAULT_MAX_SESSIONS, MIN_SESSIONS, MAX_SESSIONS, SESSION_BYTES, SESSION_MEMORY_BUDGET_BYTES, maxSessionsForShare,
};
