'use strict';
// The session budget of docs/protocol.md §7: how many sessions this process
// holds, every app and transport together. Without it one keep-alive
// connection posting /broadcast/000/<random>/xhr creates thousands of
// sessions a second, each kept for disconnect_delay (5 s), and memory is
// bounded only by request rate x 5 s.
//
// A session counts from its creation until sockjs-node has dropped it: from
// its 'connection' event to its 'close' (which sockjs-node emits when an HTTP
// session expires, disconnect_delay after its last request, and when a
// websocket ends). Between a request that creates a session and that
// 'connection' (one tick for HTTP, the rest of the handshake for websockets)
// the request is counted as pending, so a burst of requests in one tick
// cannot overshoot the budget. A websocket handshake that does not finish
// (a hixie-76 client that never sends its key, a client gone silent after
// its upgrade request) is cut off after the handshake timeout, so pending
// handshakes cannot hold places (or sockets) for ever.

const { sessionExists, sessionIdOf, socketOf } = require('./sockjs-internals');
const { DEFAULT_MAX_SESSIONS, MIN_SESSIONS, MAX_SESSIONS } = require('./session-budget-default');

// Refusals are logged at most once per this many ms (the contract's 10 s).
const REFUSAL_LOG_INTERVAL_MS = 10000;

// The answer to a request beyond the budget (docs/protocol.md §7).
const REFUSAL = Object.freeze({
  status: 503,
  headers: Object.freeze({ 'Content-Type': 'text/plain; charset=UTF-8', 'Retry-After': '5' }),
  body: 'Session limit reached.',
});

// /<prefix>/<server>/<session>/<transport>, as sockjs-node routes them, for
// the transports whose first request creates the session, with the method
// sockjs-node serves each on; and the two websocket URLs.
const CREATING = /^(\/[^?#]*?)\/[^/.?#]+\/([^/.?#]+)\/(xhr|xhr_streaming|eventsource|htmlfile|jsonp)\/?(?:[?#].*)?$/;
const CREATING_METHOD = { xhr: 'POST', xhr_streaming: 'POST', eventsource: 'GET', htmlfile: 'GET', jsonp: 'GET' };
const FRAMED_WEBSOCKET = /^(\/[^?#]*?)\/[^/.?#]+\/[^/.?#]+\/websocket\/?(?:[?#].*)?$/;
const RAW_WEBSOCKET = /^(\/[^?#]*?)\/websocket\/?(?:[?#].*)?$/;

class SessionBudget {
  /**
   * @param {object} options
   * @param {number} options.limit sessions this process may hold (MIN_SESSIONS..MAX_SESSIONS)
   * @param {ReturnType<import('./log').createLogger>} options.logger
   * @param {number} [options.handshakeTimeoutMs] how long an admitted websocket handshake may take, ms (> 0)
   * @param {() => number} [options.now] clock for the refusal lines, ms
   */
  constructor({ limit, logger, handshakeTimeoutMs = 10000, now = Date.now }) {
    this.limit = limit;
    this.handshakeTimeoutMs = handshakeTimeoutMs;
    this.logger = logger;
    this.now = now;
    /** Sessions between 'connection' and 'close'. */
    this.held = 0;
    /** Refused requests since start. */
    this.refused = 0;
    this._pendingHttp = new Set(); // session ids whose creating request is in sockjs-node's hands
    this._pendingUpgrades = new Set(); // sockets of admitted websocket handshakes not yet open
    this._lastLineAt = -Infinity;
    this._refusedSinceLine = 0;
    this._lineTimer = null;
  }

  /** Sessions that exist or are being created right now. */
  get count() {
    return this.held + this._pendingHttp.size + this._pendingUpgrades.size;
  }

  /** Count the sessions of one sockjs-node server (call once per app). */
  watch(sockjsServer) {
    sockjsServer.on('connection', (conn) => {
      this.held += 1;
      const id = sessionIdOf(conn);
      if (id !== null) this._pendingHttp.delete(id);
      const socket = socketOf(conn);
      if (socket !== null) this._pendingUpgrades.delete(socket);
      conn.once('close', () => { this.held -= 1; });
    });
  }

  /**
   * Put the gate in front of the request and upgrade listeners already on
   * `httpServer` (sockjs-node's): call after every app's installHandlers().
   * @param {import('http').Server} httpServer
   * @param {{prefix: string, websocket: boolean}[]} apps each app's prefix and whether it serves websockets
   */
  install(httpServer, apps) {
    const prefixes = new Set(apps.map((app) => app.prefix));
    const websocketPrefixes = new Set(apps.filter((app) => app.websocket).map((app) => app.prefix));
    const requestListeners = httpServer.listeners('request');
    httpServer.removeAllListeners('request');
    httpServer.on('request', (req, res) => {
      const id = creatingSessionId(req, prefixes);
      if (id !== null) {
        if (this.count >= this.limit) {
          this._refuse();
          req.resume(); // the request body, if any, is not needed
          res.writeHead(REFUSAL.status, REFUSAL.headers);
          res.end(REFUSAL.body);
          return;
        }
        this._pendingHttp.add(id);
        // A request that ends without creating the session (a bad callback,
        // a client gone first) frees its place; one that created it is
        // counted by 'connection' instead.
        res.once('close', () => { if (!sessionExists(id)) this._pendingHttp.delete(id); });
      }
      for (const listener of requestListeners) listener.call(httpServer, req, res);
    });
    const upgradeListeners = httpServer.listeners('upgrade');
    httpServer.removeAllListeners('upgrade');
    httpServer.on('upgrade', (req, socket, head) => {
      if (isWebsocketSession(req, websocketPrefixes)) {
        if (this.count >= this.limit) {
          this._refuse();
          refuseUpgrade(socket);
          return;
        }
        this._pendingUpgrades.add(socket);
        const timer = setTimeout(() => {
          if (this._pendingUpgrades.has(socket)) socket.destroy();
        }, this.handshakeTimeoutMs);
        timer.unref();
        socket.once('close', () => {
          clearTimeout(timer);
          this._pendingUpgrades.delete(socket);
        });
      }
      for (const listener of upgradeListeners) listener.call(httpServer, req, socket, head);
    });
  }

  // One warning line at most every REFUSAL_LOG_INTERVAL_MS: the first refusal
  // after a quiet interval at once, the ones after it summed up when the
  // interval ends.
  _refuse() {
    this.refused += 1;
    this._refusedSinceLine += 1;
    if (this._lineTimer !== null) return;
    const wait = this._lastLineAt + REFUSAL_LOG_INTERVAL_MS - this.now();
    if (wait <= 0) {
      this._writeLine();
      return;
    }
    this._lineTimer = setTimeout(() => {
      this._lineTimer = null;
      this._writeLine();
    }, wait);
    this._lineTimer.unref();
  }

  _writeLine() {
    this._lastLineAt = this.now();
    this.logger.warning(`session limit reached: ${this.count} sessions (--max-sessions ${this.limit}); ` +
      `${this._refusedSinceLine} new sessions refused with 503 since the previous line ` +
      `(${this.refused} since start)`);
    this._refusedSinceLine = 0;
  }
}

/** The session id a request would create, or null when it creates none. */
function creatingSessionId(req, prefixes) {
  const match = CREATING.exec(req.url);
  if (match === null || !prefixes.has(match[1]) || req.method !== CREATING_METHOD[match[3]]) return null;
  const id = match[2];
  return sessionExists(id) ? null : id;
}

function isWebsocketSession(req, websocketPrefixes) {
  if (req.method !== 'GET') return false;
  const match = FRAMED_WEBSOCKET.exec(req.url) || RAW_WEBSOCKET.exec(req.url);
  return match !== null && websocketPrefixes.has(match[1]);
}

// The 503 written on the raw socket of an upgrade request, instead of the 101.
function refuseUpgrade(socket) {
  socket.on('error', () => {}); // a client gone meanwhile is nothing to report
  const headers = Object.entries({ ...REFUSAL.headers, 'Content-Length': String(Buffer.byteLength(REFUSAL.body)) })
    .map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 503 Service Unavailable\r\n${headers}Connection: close\r\n\r\n${REFUSAL.body}`);
}

module.exports = {
  SessionBudget, REFUSAL, REFUSAL_LOG_INTERVAL_MS, creatingSessionId, isWebsocketSession, DEFAULT_MAX_SESSIONS, MIN_SESSIONS, MAX_SESSIONS,
};
