'use strict';
// The two broadcast algorithms of /broadcast, the same two as server-python's
// (fast by default, --naive for the baseline), so a comparison between
// runtimes holds the algorithm fixed.
//
// naive: what sockjs-node's own test server does - for every message, one
//   conn.write per open session; sockjs-node builds and writes one `a["m"]`
//   frame per message per recipient.
// fast:  messages arriving within one event-loop turn are collected; once the
//   turn's I/O callbacks are done (setImmediate) the `a[m1,m2,...]` frame is
//   JSON-encoded once and the same string is handed to every open session's
//   receiver (websocket and HTTP transports alike; each wraps it its way).
//   This reaches into sockjs-node's sessions: see src/sockjs-internals.js.
//
// Both keep each sender's order at every recipient (messages are delivered in
// arrival order, and one session's frames are written in flush order), and
// both send the sender its own copy. Both check every recipient against the
// output cap after writing to it.

const { encodeFrame, quoteMessage, writeMessages } = require('./sockjs-internals');

const MODES = Object.freeze(['fast', 'naive']);

/**
 * @param {'fast'|'naive'} mode
 * @param {Map<string, object>} sessions the app's open sessions (src/sessions.js), live
 * @param {{check: (conn: object) => boolean}} cap the output cap (src/output-cap.js)
 * @returns {{broadcast: (message: string) => void, joined: (conn: object) => void, flush: () => void}}
 *   broadcast: deliver one message to every open session; joined: call on each
 *   new session (so fast mode does not hand it messages that arrived before it
 *   opened); flush: write what fast mode holds now (before a close), no-op in naive
 */
function createBroadcaster(mode, sessions, cap) {
  if (mode === 'naive') return naiveBroadcaster(sessions, cap);
  if (mode === 'fast') return new FastBroadcaster(sessions, cap);
  throw new RangeError(`unknown broadcast mode ${JSON.stringify(mode)}; expected ${MODES.join(' or ')}`);
}

function naiveBroadcaster(sessions, cap) {
  return {
    broadcast(message) {
      for (const recipient of sessions.values()) {
        recipient.write(message);
        cap.check(recipient);
      }
    },
    joined() {},
    flush() {},
  };
}

class FastBroadcaster {
  constructor(sessions, cap) {
    this.sessions = sessions;
    this.cap = cap;
    /** Messages of the current turn, in arrival order. */
    this.pending = [];
    /** Sessions that opened during the current turn -> index of the first pending message they get. */
    this.joinedAt = new Map();
    this.scheduled = false;
    this.flushSoon = () => {
      this.scheduled = false;
      this.flush();
    };
  }

  broadcast(message) {
    if (!this.scheduled) {
      this.scheduled = true;
      // setImmediate runs after the I/O callbacks of this loop turn: every
      // message read from every socket in this turn is in the batch.
      setImmediate(this.flushSoon);
    }
    this.pending.push(message);
  }

  joined(conn) {
    if (this.pending.length > 0) this.joinedAt.set(conn, this.pending.length);
  }

  flush() {
    const messages = this.pending;
    if (messages.length === 0) return;
    this.pending = [];
    const late = this.joinedAt;
    if (late.size > 0) this.joinedAt = new Map();
    // One JSON encode per message and one frame string per flush, whatever
    // the number of recipients.
    const quoted = messages.map(quoteMessage);
    const frame = encodeFrame(quoted);
    const cap = this.cap;
    for (const conn of this.sessions.values()) {
      const from = late.size > 0 ? late.get(conn) : undefined;
      let written;
      if (from === undefined) {
        written = writeMessages(conn, frame, messages);
      } else {
        written = from < messages.length &&
          writeMessages(conn, encodeFrame(quoted.slice(from)), messages.slice(from));
      }
      if (written) cap.check(conn);
    }
  }
}

module.exports = { createBroadcaster, MODES };
