'use strict';
// --max-sessions: its range and its default (docs/protocol.md §7), apart from
// src/session-budget.js so the command line can be parsed (and --help shown)
// before node_modules is installed.

// The default: sessions may take at most this much memory together, the same
// budget server-python gives all output by default (--max-total-buffer).
const SESSION_MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;
// What one session costs at most, idle, with its connection: a framed
// websocket session (the dearest kind) measured at ~7.5 KiB of RSS per session
// on Node 20 with sockjs 0.3.24 (README "Session budget"), rounded up.
const SESSION_BYTES = 8 * 1024;
const MIN_SESSIONS = 1;
const MAX_SESSIONS = 1000000;
/** Sessions per process (per worker with --workers): 64 MiB / 8 KiB = 8,192. */
const DEFAULT_MAX_SESSIONS = SESSION_MEMORY_BUDGET_BYTES / SESSION_BYTES;

module.exports = { DEFAULT_MAX_SESSIONS, MIN_SESSIONS, MAX_SESSIONS, SESSION_BYTES, SESSION_MEMORY_BUDGET_BYTES };
