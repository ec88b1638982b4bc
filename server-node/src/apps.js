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
    HANDLERS[prefix](server, sessions, refuseNonString(prefix, logger));
    return { prefix, server, sessions };
  });
}

// docs/protocol.md §4.4: a payload that is not a string closes that session.
// sockjs-node itself only rejects broken JSON: any other JSON value reaches
// 'data' as parsed ([1] as the number 1, {"a":1} as an object) and a raw
// websocket binary frame as a Buffer, so the apps check the type themselves.
function refuseNonString(prefix, logger) {
  return (conn, payload) => {
    const kind = Buffer.isBuffer(payload) ? 'binary' : payload === null ? 'null' : typeof payload;
    logger.warning(`${prefix}: session ${conn.id} sent a ${kind} payload, not a string; closing it`);
    conn.close(3000, 'Broken framing.');
  };
}

// Every message goes to every open session, the sender included. sockjs-node
// emits 'data' in arrival order and conn.write queues in call order, so each
// recipient sees one sender's messages in the order they were sent.
function broadcastToAll(server, sessions, refuse) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      if (typeof message !== 'string') return refuse(conn, message);
      for (const recipient of sessions.values()) recipient.write(message);
    });
  });
}

function echoToSender(server, sessions, refuse) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      if (typeof message !== 'string') return refuse(conn, message);
      conn.write(message);
    });
  });
}

function closeRightAway(server) {
  server.on('connection', (conn) => conn.close(3000, 'Go away!'));
}

module.exports = { createApps, APP_OPTIONS };
