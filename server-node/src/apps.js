'use strict';
// The SockJS applications of docs/protocol.md §4: one sockjs server per app
// and a map of open connections. /broadcast fans out with the algorithm
// --naive selects (src/broadcasters.js); the echo apps write the way
// sockjs-node's own test server does, conn.write(message) on each 'data' event.

const sockjs = require('sockjs');
const deflate = require('permessage-deflate');
const { trackSessions } = require('./sessions');
const { createBroadcaster } = require('./broadcasters');
const { createOutputCap } = require('./output-cap');
const { guardSendFilters } = require('./sockjs-internals');

// Only the options the benchmark or the conformance suite needs differ from
// sockjs-node's defaults; everything else stays as shipped and the READY line
// records it (disconnect_delay, response_limit).
const APP_OPTIONS = {
  '/broadcast': {},
  '/echo': { response_limit: 4096 }, // the conformance suite's streaming GC cases expect 4 KiB
  '/close': {},
  '/disabled_websocket_echo': { websocket: false },
  '/cookie_needed_echo': { jsessionid: true },
};

const HANDLERS = {
  '/broadcast': broadcastToAll,
  '/echo': echoToSender,
  '/close': closeRightAway,
  '/disabled_websocket_echo': echoToSender,
  '/cookie_needed_echo': echoToSender,
};

/**
 * @param {object} settings
 * @param {number} settings.heartbeatMs SockJS heartbeat interval, ms (> 0, < 2^31)
 * @param {'fast'|'naive'} settings.mode the broadcast algorithm of /broadcast
 * @param {'none'|'permessage-deflate'} [settings.compression] whether websocket upgrades that offer
 *        permessage-deflate get it (docs/compression.md)
 * @param {number} settings.maxSessionBufferBytes output cap per session, bytes (>= 1024)
 * @param {ReturnType<import('./log').createLogger>} settings.logger
 * @param {string} settings.sockjsUrl where every app's /iframe.html loads sockjs-client from (--sockjs-url)
 * @param {import('./relay').RedisRelay | null} [settings.relay] joins /broadcast to the
 *        other processes of its broadcast domain (--broker); null: this process only
 * @returns {{prefix: string, server: object, sessions: Map<string, object>, flush: () => void}[]}
 *   flush: write out whatever the app still holds for this loop turn (before closing sessions)
 */
function createApps({
  heartbeatMs, mode, maxSessionBufferBytes, sockjsUrl, logger, relay = null, compression = 'none',
}) {
  return Object.keys(APP_OPTIONS).map((prefix) => {
    const server = sockjs.createServer({
      prefix,
      heartbeat_delay: heartbeatMs,
      log: logger.sockjs,
      sockjs_url: sockjsUrl,
      ...fayeOptions(compression),
      ...APP_OPTIONS[prefix],
    });
    guardSendFilters(server);
    const sessions = trackSessions(server);
    const cap = createOutputCap({ limitBytes: maxSessionBufferBytes, prefix, logger });
    const app = { prefix, server, sessions, flush: () => {} };
    const context = { server, sessions, cap, mode, app, relay };
    context.acceptable = stringsOnly(prefix, logger, () => app.flush());
    HANDLERS[prefix](context);
    return app;
  });
}

/**
 * sockjs-node hands faye_server_options to every faye-websocket it creates
 * (sockjs 0.3.24, lib/trans-websocket.js), and faye-websocket adds each of
 * `extensions` to its websocket-driver: the permessage-deflate extension then
 * answers a client's offer and compresses every message to that session with
 * the session's own zlib context (the extension's defaults: zlib's default
 * level and memLevel 8, a 32 KiB window, context takeover), as Tornado's
 * compression_options {} does for server-python.
 */
function fayeOptions(compression) {
  return compression === 'permessage-deflate' ? { faye_server_options: { extensions: [deflate] } } : {};
}

/**
 * docs/protocol.md §4.4: a payload that is not a string is bad input.
 * sockjs-node itself only rejects broken JSON: any other JSON value reaches
 * 'data' as parsed ([1] as the number 1, {"a":1} as an object) and a raw
 * websocket binary frame as a Buffer, so the apps check the type themselves.
 *
 * A websocket session that sends one is closed, as the spec does for broken
 * framing. On the HTTP transports the spec answers bad sends with a 500 and
 * keeps the session; sockjs-node has already answered 204 by the time the
 * app sees the value, so the best left is to drop it and keep the session.
 * Either way one warning line is logged.
 *
 * The websocket close waits for the next tick: sockjs-node hands the messages
 * of one frame to 'data' in a loop that dereferences the session each time,
 * and a session closed mid-frame makes that loop throw and kill the process
 * (a frame like [1,2]). Until then the session's remaining messages are dropped.
 * Right before the close, `flushApp` writes out what the app holds, so the
 * sender gets its own earlier messages before the close frame in fast mode too.
 *
 * @returns {(conn: object, message: unknown) => boolean} true when `message`
 *          may be used; false when it, or an earlier one, was refused
 */
function stringsOnly(prefix, logger, flushApp) {
  const refused = new WeakSet();
  return (conn, message) => {
    if (refused.has(conn)) return false;
    if (typeof message === 'string') return true;
    const kind = Buffer.isBuffer(message) ? 'binary' : message === null ? 'null' : typeof message;
    if (!WEBSOCKET_PROTOCOLS.has(conn.protocol)) {
      logger.warning(`${prefix}: session ${conn.id} sent a ${kind} payload, not a string; dropped it`);
      return false;
    }
    refused.add(conn);
    logger.warning(`${prefix}: session ${conn.id} sent a ${kind} payload, not a string; closing it`);
    process.nextTick(() => {
      flushApp();
      conn.close(3000, 'Broken framing.');
    });
    return false;
  };
}

// conn.protocol as sockjs-node sets it for the framed and the raw endpoint.
const WEBSOCKET_PROTOCOLS = new Set(['websocket', 'websocket-raw']);

// Every message goes to every open session, the sender included, in the
// order sockjs-node emits 'data' (arrival order); see src/broadcasters.js.
// With a relay, also every message of the other processes of the domain.
function broadcastToAll({ server, sessions, cap, mode, app, acceptable, relay }) {
  const broadcaster = createBroadcaster(mode, sessions, cap, relay);
  if (relay !== null) relay.setReceiver((kind, body) => broadcaster.relayed(kind, body));
  app.flush = () => broadcaster.flush();
  server.on('connection', (conn) => {
    broadcaster.joined(conn);
    conn.on('data', (message) => {
      if (acceptable(conn, message)) broadcaster.broadcast(message);
    });
  });
}

function echoToSender({ server, cap, acceptable }) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      if (!acceptable(conn, message)) return;
      conn.write(message);
      cap.check(conn);
    });
  });
}

function closeRightAway({ server }) {
  server.on('connection', (conn) => conn.close(3000, 'Go away!'));
}

module.exports = { createApps, APP_OPTIONS };
