'use strict';
// The per-session output cap (--max-session-buffer): sockjs-node queues
// without limit for a client that stops reading (README: +290-490 MiB in under
// a minute), so the app checks each session's unsent bytes after writing to
// it and closes a session over the limit, as server-python does: c[1008,...]
// on SockJS sessions, a WebSocket close frame 1008 on raw websockets, and one
// warning line.

const { unsentBytes, socketOf, closeRawWebsocket } = require('./sockjs-internals');

/** Close code and reason for a client that does not read (RFC 6455 1008: policy violation). */
const SLOW_CONSUMER_CLOSE = Object.freeze({ code: 1008, reason: 'Client not reading' });

// A client that does not read will not read the close frame either: after
// this long its socket is destroyed, which frees the queued bytes (the same
// grace Tornado gives a websocket close handshake). A client that was merely
// behind reads what was queued, then the close frame, within the grace.
const CLOSE_GRACE_MS = 5000;

/**
 * @param {object} options
 * @param {number} options.limitBytes unsent bytes one session may hold (>= 1024)
 * @param {string} options.prefix the app's prefix, for the log line
 * @param {ReturnType<import('./log').createLogger>} options.logger
 * @returns {{check: (conn: object) => boolean}} check() returns false when it
 *          closed (or is closing) `conn` because of the cap
 */
function createOutputCap({ limitBytes, prefix, logger }) {
  if (!(Number.isInteger(limitBytes) && limitBytes >= 1024)) {
    throw new RangeError(`limitBytes must be an integer >= 1024, got ${limitBytes}`);
  }
  const closing = new WeakSet();
  const check = (conn) => {
    if (closing.has(conn)) return false;
    const unsent = unsentBytes(conn);
    if (unsent <= limitBytes) return true;
    closing.add(conn);
    logger.warning(`${prefix}: closing session ${conn.id}: client not reading ` +
      `(${unsent} bytes unsent, limit ${limitBytes})`);
    // Next tick, not now: the check may run inside sockjs-node's delivery of
    // a multi-message frame, which crashes on a session closed under it
    // (see stringsOnly in apps.js).
    process.nextTick(() => closeSlowConsumer(conn));
    return false;
  };
  return { check };
}

function closeSlowConsumer(conn) {
  const socket = socketOf(conn);
  const { code, reason } = SLOW_CONSUMER_CLOSE;
  if (conn.protocol === 'websocket-raw') closeRawWebsocket(conn, code, reason);
  else conn.close(code, reason);
  if (socket && !socket.destroyed) {
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  }
}

module.exports = { createOutputCap, SLOW_CONSUMER_CLOSE, CLOSE_GRACE_MS };
