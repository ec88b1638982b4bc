'use strict';
// The fence: every use of sockjs-node's (and faye-websocket's) private names
// lives in this one module, each with a comment saying what it is and why we
// need it. sockjs-node has no public way to write a pre-built frame, to see a
// session's unsent bytes, or to close a websocket with a code outside
// 1000/3000-4999, and the fast broadcast and the output cap need all three.
//
// The names were read from sockjs 0.3.24 (lib/transport.js, lib/utils.js,
// lib/trans-websocket.js) and faye-websocket 0.11.4 (lib/faye/websocket/api.js).
// package.json pins sockjs exactly and package-lock.json pins faye-websocket;
// assertSupportedSockjs() refuses to start on any other sockjs version, and
// src/sockjs-internals.test.js fails if any name below is missing from the
// installed code or from live sessions of every transport.

const path = require('node:path');

/** The sockjs version whose internals this module was written against. */
const PINNED_SOCKJS_VERSION = '0.3.24';

// SockJS readyState of an open session (sockjs' Transport.OPEN, also what the
// public conn.readyState getter returns).
const OPEN = 1;

const sockjsDir = path.dirname(require.resolve('sockjs/package.json'));
// lib/transport.js: the Session and receiver classes (exported by the file,
// but not by the package's public entry point).
const transport = require(path.join(sockjsDir, 'lib', 'transport.js'));
// lib/utils.js: `quote(string)`, the JSON string escaping sockjs-node applies
// to every message of an `a[...]` frame (JSON.stringify plus \uXXXX escapes
// for the code points SockJS clients mishandle). Used so fast mode's frames
// are byte for byte what conn.write would have produced.
const utils = require(path.join(sockjsDir, 'lib', 'utils.js'));

/** The installed sockjs doesn't match what this module was written against. */
class UnsupportedSockjsError extends Error {}

/**
 * Names checked without a live session: the version, and the prototypes and
 * functions used below. Live-only names (instance fields) are checked by the
 * test against real sessions of every transport.
 * @throws {UnsupportedSockjsError} naming the version or the missing name and the fix
 */
function assertSupportedSockjs() {
  const { version } = require(path.join(sockjsDir, 'package.json'));
  if (version !== PINNED_SOCKJS_VERSION) {
    throw new UnsupportedSockjsError(
      `sockjs ${version} is installed, but src/sockjs-internals.js is written against sockjs ` +
      `${PINNED_SOCKJS_VERSION} internals; run \`make setup-node\` (npm ci) to install the pinned version`);
  }
  const missing = staticNamesMissing();
  if (missing.length > 0) {
    throw new UnsupportedSockjsError(
      `sockjs ${version} lacks internals src/sockjs-internals.js relies on: ${missing.join(', ')}`);
  }
}

/** @returns {string[]} the statically checkable names that are missing */
function staticNamesMissing() {
  // (The websocket receiver's doSendFrame lives on a class lib/trans-websocket.js
  // does not export; the test checks it on a live session.)
  const expected = {
    'transport.Session.prototype.send': transport.Session && transport.Session.prototype.send,
    'transport.ResponseReceiver.prototype.doSendFrame':
      transport.ResponseReceiver && transport.ResponseReceiver.prototype.doSendFrame,
    'utils.quote': utils.quote,
    'transport.Session.bySessionId': transport.Session && transport.Session.bySessionId,
    'Server.prototype.listener': Object.getPrototypeOf(require('sockjs').createServer({ log: () => {} })).listener,
  };
  return Object.keys(expected).filter((name) => typeof expected[name] !== 'function');
}

/** The `a[...]` frame of `messages`, each escaped exactly as sockjs-node does. */
function messageFrame(messages) {
  return encodeFrame(messages.map(utils.quote));
}

/** The `a[...]` frame of messages already passed through quoteMessage(). */
function encodeFrame(quotedMessages) {
  return 'a[' + quotedMessages.join(',') + ']';
}

/** One message as it appears inside an `a[...]` frame (a JSON string literal). */
function quoteMessage(message) {
  return utils.quote(message);
}

/**
 * Deliver `messages`, whose frame is `frame`, to one connection as one frame
 * when the transport allows, in order after anything already queued.
 *
 * @param {object} conn a SockJSConnection of an open or closed session
 * @param {string} frame `a[...]` frame of `messages` (from encodeFrame)
 * @param {string[] | (() => string[])} messages the same messages, for the
 *        per-message fallback; a function is called only when needed (a frame
 *        relayed from another process must be parsed to get them)
 * @returns {boolean} false when the session is not open (nothing written)
 */
function writeMessages(conn, frame, messages) {
  // conn._session: the sockjs Session behind a SockJSConnection (for a raw
  // websocket: the RawWebsocketSessionReceiver, which acts as its session).
  const session = conn._session;
  // session.readyState: Transport.OPEN .. CLOSED (public as conn.readyState,
  // read here from the session to save a getter call in the hot loop).
  if (session.readyState !== OPEN) return false;
  // session.recv: the receiver currently attached (websocket, streaming
  // response, or waiting poll); null between polls.
  const recv = session.recv;
  // session.send_buffer: messages waiting for a receiver; a raw websocket
  // session has none (undefined). sockjs-node flushes it in send() as soon as
  // a receiver is attached, so it is only non-empty when recv is null.
  const queue = session.send_buffer;
  if (recv !== null && recv !== undefined && queue !== undefined && queue.length === 0) {
    // recv.doSendFrame(frame): write one SockJS frame through the receiver,
    // which wraps it for its transport (websocket message, `frame\n` on
    // xhr-streaming, `data: ` on eventsource, <script> on htmlfile, jsonp
    // callback) and ends a polling response. Exactly what Session.send ->
    // tryFlush -> doSendBulk does, minus building the frame per session.
    recv.doSendFrame(frame);
    return true;
  }
  // Raw websocket (no frames: one message per websocket message), or no
  // receiver right now: the public API, which queues or writes in order.
  const list = typeof messages === 'function' ? messages() : messages;
  for (let i = 0; i < list.length; i += 1) conn.write(list[i]);
  return true;
}

/**
 * The socket carrying `conn` right now, or null (between polls, after close).
 * @returns {import('net').Socket | null}
 */
function socketOf(conn) {
  const session = conn._session; // see writeMessages
  const recv = session ? session.recv : null; // see writeMessages
  if (!recv) return null;
  // recv.response: the http.ServerResponse of an HTTP receiver
  // (ResponseReceiver); its .socket is public Node API.
  if (recv.response) return recv.response.socket || null;
  // recv.connection: the net.Socket of a framed websocket receiver
  // (WebSocketReceiver), and of a raw websocket session (whose `recv` is a
  // plain {connection, protocol} object).
  return recv.connection || null;
}

/**
 * Bytes the server still holds for `conn`: the socket's unsent bytes (Node's
 * writable buffer, i.e. what the kernel has not taken yet; faye-websocket and
 * HTTP responses write straight into it) plus the messages sockjs-node queues
 * while no receiver is attached (counted in UTF-16 code units, ~bytes for
 * ASCII payloads).
 * @returns {number} >= 0
 */
function unsentBytes(conn) {
  const session = conn._session; // see writeMessages
  if (!session) return 0;
  let unsent = 0;
  const queue = session.send_buffer; // see writeMessages
  if (queue !== undefined && queue.length > 0) {
    for (let i = 0; i < queue.length; i += 1) unsent += queue[i].length;
  }
  const socket = socketOf(conn);
  if (socket) unsent += socket.writableLength;
  return unsent;
}

/**
 * Close a raw websocket session with a WebSocket close code that
 * faye-websocket's browser-style close() refuses (it only takes 1000 and
 * 3000-4999): 1001 going away, 1008 policy violation. Falls back to 1000.
 * @param {object} conn a SockJSConnection whose protocol is 'websocket-raw'
 * @param {number} code RFC 6455 close code
 * @param {string} reason close reason (<= 123 bytes)
 */
function closeRawWebsocket(conn, code, reason) {
  // conn._session.ws: the faye-websocket object of a raw websocket session
  // (RawWebsocketSessionReceiver); ws._driver: faye-websocket's
  // websocket-driver instance, whose close(reason, code) speaks plain RFC 6455.
  const ws = conn._session && conn._session.ws;
  const driver = ws && ws._driver;
  if (driver && typeof driver.close === 'function') {
    driver.close(reason, code);
  } else {
    conn.close(1000, reason);
  }
}

/**
 * Whether sockjs-node holds an HTTP session with this id now (open, or closed
 * and not yet expired). The session budget asks before letting a request
 * through that would create one.
 * @param {string} sessionId the <session> segment of a transport URL
 */
function sessionExists(sessionId) {
  // transport.Session.bySessionId(id): sockjs-node's lookup in its registry
  // of HTTP sessions (one registry for every sockjs server of the process:
  // ids are process-wide), which it makes for each transport request itself.
  return transport.Session.bySessionId(sessionId) !== null;
}

/**
 * The id an HTTP session's requests carry (the <session> URL segment), or
 * null for websocket sessions, which sockjs-node registers under none.
 * @param {object} conn a SockJSConnection, at its 'connection' event
 * @returns {string | null}
 */
function sessionIdOf(conn) {
  // conn._session: see writeMessages. session.session_id: the registry key
  // (undefined for framed websocket sessions; a raw websocket's receiver has
  // no such field); sockjs-node clears it once the session has expired.
  const id = conn._session ? conn._session.session_id : undefined;
  return typeof id === 'string' ? id : null;
}

/**
 * sockjs-node 0.3.24's xhr_send and jsonp_send test the parsed payload with
 * `d.__proto__.constructor !== Array`, which throws a TypeError when the
 * payload is a JSON object whose own "__proto__" is null
 * (`{"__proto__":null}`): the client gets "500 - Internal Server Error" and
 * the log a stack trace, where every other payload that is not an array gets
 * the SockJS answer `500 Payload expected.`. This puts a check in front of
 * both filters that gives such payloads that same answer; everything else
 * goes to sockjs-node untouched. Call before installHandlers().
 * @param {object} sockjsServer from sockjs.createServer()
 */
function guardSendFilters(sockjsServer) {
  // server.listener(options): what installHandlers() calls to build the
  // Listener serving the prefix; listener.app: the App object whose methods
  // are the request filters, which sockjs-node's dispatcher looks up by name
  // (app[name]), so an own property on this one App takes precedence.
  const makeListener = sockjsServer.listener;
  sockjsServer.listener = function listenerWithGuardedSends(options) {
    const listener = makeListener.call(this, options);
    const app = listener.app;
    for (const name of ['xhr_send', 'jsonp_send']) {
      const filter = app[name];
      app[name] = function guardedSend(req, res, data, next) {
        // A thrown {status, message} is how filters answer an HTTP error.
        if (payloadTripsSockjs(data)) throw { status: 500, message: 'Payload expected.' }; // eslint-disable-line no-throw-literal
        return filter.call(this, req, res, data, next);
      };
    }
    return listener;
  };
}

/**
 * Whether sockjs-node's send filters would throw on `data`: the body (a
 * string), or for a form-encoded jsonp_send the parsed form, whose `d` field
 * holds the payload. Like sockjs-node, a JSON string is parsed once more.
 */
function payloadTripsSockjs(data) {
  let payload = data !== null && typeof data === 'object' ? data.d : data;
  for (let depth = 0; depth < 2 && typeof payload === 'string'; depth += 1) {
    if (!payload.includes('__proto__')) return false; // cheap: no JSON.parse for ordinary sends
    try {
      payload = JSON.parse(payload);
    } catch {
      return false; // sockjs-node answers "Broken JSON encoding." itself
    }
  }
  if (payload === null || typeof payload !== 'object') return false;
  const own = Object.getOwnPropertyDescriptor(payload, '__proto__');
  return own !== undefined && own.value === null;
}

/**
 * For the internals test: which live-session names `conn` lacks.
 * @returns {string[]} empty when every name the fence uses is there
 */
function liveNamesMissing(conn) {
  const missing = [];
  const session = conn._session;
  if (!session) return ['conn._session'];
  if (typeof session.readyState !== 'number') missing.push('session.readyState');
  if (!('recv' in session)) missing.push('session.recv');
  const raw = conn.protocol === 'websocket-raw';
  if (raw) {
    if (!session.recv || !session.recv.connection) missing.push('session.recv.connection (raw)');
    if (!session.ws || !session.ws._driver || typeof session.ws._driver.close !== 'function') {
      missing.push('session.ws._driver.close');
    }
    return missing;
  }
  if (!Array.isArray(session.send_buffer)) missing.push('session.send_buffer');
  if (!('session_id' in session)) missing.push('session.session_id');
  const recv = session.recv;
  if (recv) {
    if (typeof recv.doSendFrame !== 'function') missing.push('recv.doSendFrame');
    if (!recv.response && !recv.connection) missing.push('recv.response / recv.connection');
    if (!socketOf(conn)) missing.push('socket of the receiver');
  }
  return missing;
}

module.exports = {
  PINNED_SOCKJS_VERSION,
  UnsupportedSockjsError,
  assertSupportedSockjs,
  staticNamesMissing,
  liveNamesMissing,
  messageFrame,
  encodeFrame,
  quoteMessage,
  writeMessages,
  socketOf,
  unsentBytes,
  closeRawWebsocket,
  sessionExists,
  sessionIdOf,
  guardSendFilters,
};
