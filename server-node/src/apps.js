'use strict';
// The SockJS applications of docs/protocol.md §4, written the way sockjs-node's
// own test server writes them: one sockjs server per app, conn.write(message)
// to every open connection on each 'data' event.

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
 * @param {(severity: string, line: string) => void} settings.log sockjs-node's log sink
 * @returns {{prefix: string, server: object, sessions: Map<string, object>}[]}
 */
function createApps({ heartbeatMs, log }) {
  return Object.keys(APP_OPTIONS).map((prefix) => {
    const server = sockjs.createServer({
      prefix,
      heartbeat_delay: heartbeatMs,
      log,
      ...APP_OPTIONS[prefix],
    });
    const sessions = trackSessions(server);
    HANDLERS[prefix](server, sessions);
    return { prefix, server, sessions };
  });
}

// Every message goes to every open session, the sender included. sockjs-node
// emits 'data' in arrival order and conn.write queues in call order, so each
// recipient sees one sender's messages in the order they were sent.
function broadcastToAll(server, sessions) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => {
      for (const recipient of sessions.values()) recipient.write(message);
    });
  });
}

function echoToSender(server) {
  server.on('connection', (conn) => {
    conn.on('data', (message) => conn.write(message));
  });
}

function closeRightAway(server) {
  server.on('connection', (conn) => conn.close(3000, 'Go away!'));
}

module.exports = { createApps, APP_OPTIONS };
