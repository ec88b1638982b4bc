'use strict';
// When restarting a dead worker stops making sense (docs/protocol.md §6.2):
// the 5th death within 10 s of the first of those 5. A worker that dies that
// often dies of something a restart does not fix (a broken install, a broker
// that refuses it, a bug hit by every connection), and restarting it forever
// would hide that behind a server that looks up.

/** Deaths that make a crash loop, and the window they must fall in. */
const CRASH_LOOP_DEATHS = 5;
const CRASH_LOOP_WINDOW_MS = 10000;

class CrashLoopWatch {
  /**
   * @param {number} [limit] deaths that make a crash loop (>= 1)
   * @param {number} [windowMs] window, ms (> 0), from the first of those deaths to the last
   */
  constructor(limit = CRASH_LOOP_DEATHS, windowMs = CRASH_LOOP_WINDOW_MS) {
    this.limit = limit;
    this.windowMs = windowMs;
    this._recent = []; // times of the last `limit` deaths, ms
  }

  /**
   * Record a death at `nowMs` (a monotonic or wall clock, ms, never going back).
   * @returns {number | null} the deaths within the window when this one makes a crash loop, else null
   */
  death(nowMs) {
    this._recent.push(nowMs);
    if (this._recent.length > this.limit) this._recent.shift();
    if (this._recent.length < this.limit || nowMs - this._recent[0] > this.windowMs) return null;
    return this._recent.length;
  }
}

module.exports = { CrashLoopWatch, CRASH_LOOP_DEATHS, CRASH_LOOP_WINDOW_MS };
