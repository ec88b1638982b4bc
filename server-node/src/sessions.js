'use strict';
// sockjs-node does not keep a list of open connections, yet both the broadcast
// app (to fan out) and shutdown (to say goodbye) need one. trackSessions keeps
// one Map per SockJS app: id -> SockJSConnection, from 'connection' until 'close'.

const { closeRawWebsocket } = require('./sockjs-internals');

// docs/protocol.md §3: what every session hears when the server stops.
const GOING_AWAY = Object.freeze({ sockjsCode: 3000, rawCode: 1001, reason: 'Go away!' });

/**
 * Register the tracker first, so every later 'connection' listener (the app)
 * already finds the new session in the map.
 * @param {import('events').EventEmitter} sockjsServer from sockjs.createServer()
 * @returns {Map<string, object>} live view of the app's open sessions
 */
function trackSessions(sockjsServer) {
  const sessions = new Map();
  sockjsServer.on('connection', (conn) => {
    sessions.set(conn.id, conn);
    conn.on('close', () => sessions.delete(conn.id));
  });
  return sessions;
}

/**
 * Close every session with the contract's goodbye: SockJS sessions get the
 * close frame c[3000,"Go away!"], raw websocket sessions a WebSocket close
 * frame with code 1001 (going away).
 * @returns {number} how many sessions were asked to close
 */
function closeAllSessions(sessions) {
  let count = 0;
  for (const conn of [...sessions.values()]) {
    if (conn.protocol === 'websocket-raw') closeRawWebsocketGoingAway(conn);
    else conn.close(GOING_AWAY.sockjsCode, GOING_AWAY.reason);
    count += 1;
  }
  return count;
}

// faye-websocket's public close() only accepts 1000 and 3000-4999 (the browser
// API's rule), so sockjs-node's conn.close(1001) would throw; the fence
// (src/sockjs-internals.js) closes through the websocket-driver underneath.
function closeRawWebsocketGoingAway(conn) {
  closeRawWebsocket(conn, GOING_AWAY.rawCode, GOING_AWAY.reason);
}

module.exports = { trackSessions, closeAllSessions, GOING_AWAY };
