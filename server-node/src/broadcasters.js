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
//
// With a broker (--broker, src/relay.js) the process's own sessions are still
// written directly; what they sent is also published for the other processes
// - fast: one publish per flush carrying the flush's `a[...]` frame as is,
// naive: one publish per message - and what the other processes published
// reaches this process's sessions through relayed(): fast mode adds the
// relayed frame's messages (already quoted) to the turn's batch, so a
// session still gets one frame per turn however many processes sent.

const { encodeFrame, quoteMessage, writeMessages } = require('./sockjs-internals');
const { frameMessages } = require('./relay-envelope');

const MODES = Object.freeze(['fast', 'naive']);

/**
 * @typedef {object} Publisher where this process's messages go for the other processes
 * @property {(frame: string, count: number) => void} publishBatch one flush: its `a[...]` frame, its message count
 * @property {(message: string) => void} publishMessage one message (naive mode)
 */

/**
 * @param {'fast'|'naive'} mode
 * @param {Map<string, object>} sessions the app's open sessions (src/sessions.js), live
 * @param {{check: (conn: object) => boolean}} cap the output cap (src/output-cap.js)
 * @param {Publisher | null} [publisher] the relay, or null for a single process
 * @returns {{broadcast: (message: string) => void, joined: (conn: object) => void,
 *            relayed: (kind: 'a'|'m', body: string) => void, flush: () => void}}
 *   broadcast: deliver one message from one of this process's sessions to
 *   every open session (and publish it); joined: call on each new session (so
 *   fast mode does not hand it messages that arrived before it opened);
 *   relayed: deliver what another process published (kind 'a': an `a[...]`
 *   frame, 'm': one message; never published again); flush: write what fast
 *   mode holds now (before a close), no-op in naive
 */
function createBroadcaster(mode, sessions, cap, publisher = null) {
  if (mode === 'naive') return naiveBroadcaster(sessions, cap, publisher);
  if (mode === 'fast') return new FastBroadcaster(sessions, cap, publisher);
  throw new RangeError(`unknown broadcast mode ${JSON.stringify(mode)}; expected ${MODES.join(' or ')}`);
}

function naiveBroadcaster(sessions, cap, publisher) {
  const deliver = (message) => {
    for (const recipient of sessions.values()) {
      recipient.write(message);
      cap.check(recipient);
    }
  };
  return {
    broadcast(message) {
      deliver(message);
      if (publisher !== null) publisher.publishMessage(message);
    },
    relayed(kind, body) {
      if (kind === 'm') deliver(body);
      else for (const message of frameMessages(body)) deliver(message);
    },
    joined() {},
    flush() {},
  };
}

class FastBroadcaster {
  constructor(sessions, cap, publisher) {
    this.sessions = sessions;
    this.cap = cap;
    this.publisher = publisher;
    /** Messages of this process's sessions in the current turn, in arrival order. */
    this.pending = [];
    /**
     * Messages relayed from other processes in the current turn, already
     * quoted (the inside of their frames), each process's in its order; and
     * the same as received (a frame string, or [message]), parsed only if some
     * session needs them one by one.
     */
    this.relayedQuoted = [];
    this.relayedRaw = [];
    /** Sessions that opened during the current turn -> index of the first pending message they get. */
    this.joinedAt = new Map();
    this.scheduled = false;
    this.flushSoon = () => {
      this.scheduled = false;
      this.flush();
    };
  }

  _schedule() {
    if (!this.scheduled) {
      this.scheduled = true;
      // setImmediate runs after the I/O callbacks of this loop turn: every
      // message read from every socket in this turn is in the batch.
      setImmediate(this.flushSoon);
    }
  }

  broadcast(message) {
    this._schedule();
    this.pending.push(message);
  }

  relayed(kind, body) {
    this._schedule();
    if (kind === 'm') {
      this.relayedQuoted.push(quoteMessage(body));
      this.relayedRaw.push([body]);
    } else {
      // `a[...]` -> its inside: the messages stay quoted as the sender encoded them.
      this.relayedQuoted.push(body.slice(2, -1));
      this.relayedRaw.push(body);
    }
  }

  joined(conn) {
    if (this.pending.length > 0) this.joinedAt.set(conn, this.pending.length);
  }

  flush() {
    const messages = this.pending;
    const relayedQuoted = this.relayedQuoted;
    if (messages.length === 0 && relayedQuoted.length === 0) return;
    const relayedRaw = this.relayedRaw;
    this.pending = [];
    this.relayedQuoted = [];
    this.relayedRaw = [];
    const late = this.joinedAt;
    if (late.size > 0) this.joinedAt = new Map();
    // One JSON encode per message and one frame string per flush, whatever
    // the number of recipients (and of processes).
    const quoted = messages.map(quoteMessage);
    const localFrame = encodeFrame(quoted);
    if (this.publisher !== null && messages.length > 0) this.publisher.publishBatch(localFrame, messages.length);
    const relayedInside = relayedQuoted.filter((inside) => inside.length > 0).join(',');
    const frame = relayedInside === '' ? localFrame
      : messages.length === 0 ? `a[${relayedInside}]` : `a[${relayedInside},${quoted.join(',')}]`;
    // Relayed messages one by one, for the sessions that need them so (raw
    // websockets, sessions between polls): parsed at most once per flush.
    let relayedMessages = null;
    const relayedList = () => {
      if (relayedMessages === null) {
        relayedMessages = [];
        // A string is a relayed `a[...]` frame; an array holds one relayed message.
        for (const item of relayedRaw) {
          const list = typeof item === 'string' ? frameMessages(item) : item;
          for (let i = 0; i < list.length; i += 1) relayedMessages.push(list[i]);
        }
      }
      return relayedMessages;
    };
    const all = relayedQuoted.length === 0 ? messages : () => relayedList().concat(messages);
    const cap = this.cap;
    for (const conn of this.sessions.values()) {
      const from = late.size > 0 ? late.get(conn) : undefined;
      let written;
      if (from === undefined) {
        written = writeMessages(conn, frame, all);
      } else {
        // Opened during this turn: the relayed messages and this process's
        // messages from the moment it joined.
        const mine = quoted.slice(from);
        const inside = [relayedInside, ...mine].filter((part) => part.length > 0);
        written = inside.length > 0 &&
          writeMessages(conn, `a[${inside.join(',')}]`, () => relayedList().concat(messages.slice(from)));
      }
      if (written) cap.check(conn);
    }
  }
}

module.exports = { createBroadcaster, MODES };
