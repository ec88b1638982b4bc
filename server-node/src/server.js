'use strict';
// One HTTP server carrying every SockJS app, and the stop sequence of
// docs/protocol.md §3: stop accepting, say goodbye to every session, let the
// goodbyes drain, and report when all sockets are gone (or the deadline hits).

const http = require('node:http');
const { createApps } = require('./apps');
const { DEFAULTS } = require('./cli');
const { closeAllSessions } = require('./sessions');
const { refuseHttpTransports } = require('./websocket-only');
const { SessionBudget } = require('./session-budget');
const { DEFAULT_MAX_SESSIONS } = require('./session-budget-default');

/**
 * Listen and mount the apps. Resolves once the socket accepts connections.
 * @param {object} settings
 * @param {string} settings.host address to listen on
 * @param {number} settings.port TCP port 0-65535 (0: the OS picks)
 * @param {number} settings.heartbeatSeconds SockJS heartbeat, seconds (> 0)
 * @param {'fast'|'naive'} settings.mode broadcast algorithm of /broadcast
 * @param {'none'|'permessage-deflate'} [settings.compression] websocket compression (docs/compression.md)
 * @param {number} settings.maxSessionBufferBytes output cap per session, bytes (>= 1024)
 * @param {number} settings.workers worker processes of this server (> 1: websocket transports only)
 * @param {number} settings.maxSessions sessions this process may hold, all apps and transports (>= 1)
 * @param {number} settings.headerTimeoutSeconds time a connection has for its request headers, and a
 *        websocket client for its handshake, seconds (> 0)
 * @param {string} [settings.sockjsUrl] where /iframe.html loads sockjs-client from (default: sockjs-node's)
 * @param {ReturnType<import('./log').createLogger>} logger
 * @param {import('./relay').RedisRelay | null} [relay] the started broker relay, or null
 * @returns {Promise<{port: number, apps: object[], budget: SessionBudget,
 *           stop: (deadlineMs: number) => Promise<void>}>}
 * @throws on listen failure (port in use, unknown host), with the system's error
 */
async function startServer({
  host, port, heartbeatSeconds, mode, maxSessionBufferBytes, workers = 1, maxSessions = DEFAULT_MAX_SESSIONS,
  headerTimeoutSeconds = 10, sockjsUrl = DEFAULTS.sockjsUrl, compression = DEFAULTS.compression,
}, logger, relay = null) {
  const apps = createApps({
    heartbeatMs: Math.round(heartbeatSeconds * 1000), mode, maxSessionBufferBytes, sockjsUrl, logger, relay, compression,
  });
  const headerTimeoutMs = Math.round(headerTimeoutSeconds * 1000);
  // Slow clients: Node cuts off a connection whose request headers are not
  // complete after headersTimeout (from its first byte, or from the
  // connection's start if it sends nothing), checked every
  // connectionsCheckingInterval (Node's default, 30 s, would let a one byte
  // per second client hold its socket three times the timeout).
  const httpServer = http.createServer({
    headersTimeout: headerTimeoutMs,
    requestTimeout: Math.max(headerTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
    connectionsCheckingInterval: Math.min(1000, headerTimeoutMs),
  });
  // sockjs-node hands anything outside its prefixes to the listeners that were
  // there before it, so these two answer every URL no app claims.
  httpServer.on('request', answerNotFound);
  httpServer.on('upgrade', refuseUpgrade);
  const budget = new SessionBudget({ limit: maxSessions, logger, handshakeTimeoutMs: headerTimeoutMs });
  for (const app of apps) {
    app.server.installHandlers(httpServer);
    budget.watch(app.server);
  }
  // In front of sockjs-node, behind the websocket-only refusal (which creates no sessions).
  budget.install(httpServer, apps.map((app) => ({ prefix: app.prefix, websocket: app.server.options.websocket })));
  if (workers > 1) refuseHttpTransports(httpServer, apps.map((app) => app.prefix));

  await new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen({ host, port }, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });

  const stop = (deadlineMs) => stopServer(httpServer, apps, deadlineMs, logger)
    .finally(() => { if (relay !== null) relay.stop(); });
  return { port: httpServer.address().port, apps, budget, stop };
}

/**
 * @param {number} deadlineMs longest wait, ms, for clients to finish the close
 *        handshakes before the caller exits anyway (> 0)
 * @returns {Promise<void>} resolves when every socket closed or at the deadline
 */
function stopServer(httpServer, apps, deadlineMs, logger) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.info('stop: deadline reached with connections still open');
      resolve();
    }, deadlineMs);
    httpServer.close(() => {
      clearTimeout(timer);
      resolve();
    });
    let closed = 0;
    for (const app of apps) {
      // Broadcasts that arrived before the signal go out before the goodbye.
      app.flush();
      closed += closeAllSessions(app.sessions);
    }
    // Keep-alive connections with no request in flight would hold close() open.
    httpServer.closeIdleConnections();
    logger.info(`stop: closed ${closed} sessions`);
  });
}

// Node's own default for a whole request (headers and body), kept.
const DEFAULT_REQUEST_TIMEOUT_MS = 300000;

function answerNotFound(req, res) {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' });
  res.end('404 Error: Page not found\n');
}

function refuseUpgrade(req, socket) {
  socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
}

module.exports = { startServer };
