'use strict';
// The SockJS applications of docs/protocol.md §4, written the way sockjs-node's
// own test server writes them: one sockjs server per app, a map of open
// connections, conn.write(message) to each on every 'data' event.

const sockjs = require('sockjs');
const { trackSessions } = require('./sessions');

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
 * @param {ReturnType<import('./log').createLogger>} settings.logger
 * @returns {{prefix: string, server: object, sessions: Map<string, object>}[]}
 */
function createApps({ heartbeatMs, logger }) {
  return Object.keys(APP_OPTIONS).map((prefix) => {
    const server = sockjs.createServer({
      prefix,
      heartbeat_delay: heartbeatMs,
      log: logger.sockjs,
      ...APP_OPTIONS[prefix],
    });
    const sessions = trackSessions(server);
    HANDLERS[prefix](server, sessions, stringsOnly(prefix, logger));
    return { prefix, server, sessions };
  });
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
 *
 * @returns {(conn: object, message: unknown) => boolean} true when `message`
 *          may be used; false when it, or an earlier one, was refused
 */
function stringsOnly(prefix, logger) {
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
    process.nextTick(() => conn.close(3000, 'Broken framing.'));
    return false;
  };
}

// conn.protocol as sockjs-node sets it for the framed and the raw endpoint.
const WEBSOCKET_PROTOCOLS = new Set(['websocket', 'websocket-raw']);

// Every message goes to every open session, the sender included. sockjs-node
// emits 'data' in arrival order and conn.write queues in call order, so each
// recipient sees one sender's messages in the order they were sent.
function broadcastToAll(server, sessions, acceptable) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      if (!acceptable(conn, message)) return;
      for (const recipient of sessions.values()) recipient.write(message);
    });
  });
}

function echoToSender(server, sessions, acceptable) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      if (acceptable(conn, message)) conn.write(message);
    });
  });
}

function closeRightAway(server) {
  server.on('connection', (conn) => conn.close(3000, 'Go away!'));
}

module.exports = { createApps, APP_OPTIONS };
