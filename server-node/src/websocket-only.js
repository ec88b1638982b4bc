'use strict';
// With --workers > 1 the SockJS HTTP transports cannot work: a polling or
// streaming session is a series of HTTP requests (xhr_streaming + xhr_send,
// one xhr poll after another), and node:cluster hands each new connection to
// the next worker, so the requests of one session land on different workers,
// each of which knows only its own sessions. Session affinity needs a proxy
// that routes on the session path segment in front of one-worker processes:
// `make serve-node WORKERS=N PROXY=haproxy` (docs/scaling-out.md, "HTTP
// transports through a proxy"); without one, this refusal is the truth.
//
// So with several workers this server serves websocket transports only, and
// answers every HTTP transport request with the SockJS close frame
// c[3010,"..."] in that transport's own framing - what a SockJS client
// understands as "the server closed this session, and why" - instead of a
// session that would break on its second request. The sends (xhr_send,
// jsonp_send) answer 404, as for a session the server does not know.
// /info, /iframe*.html and the websocket URLs are untouched.

const WEBSOCKET_ONLY_CLOSE = Object.freeze({
  code: 3010,
  reason: 'Only websocket transports: this server runs several worker processes',
});

// /<prefix>/<server>/<session>/<transport>, as sockjs-node routes them
// (server and session: no '/' and no '.').
const HTTP_TRANSPORT = /^(\/[^?#]*)\/[^/.?#]+\/[^/.?#]+\/(xhr|xhr_streaming|eventsource|htmlfile|jsonp|xhr_send|jsonp_send)\/?(?:[?#].*)?$/;

// A JavaScript identifier path, as SockJS 0.3.3 servers accept for `c=`.
const CALLBACK = /^[a-zA-Z0-9_.]+$/;

function closeFrame() {
  return `c${JSON.stringify([WEBSOCKET_ONLY_CLOSE.code, WEBSOCKET_ONLY_CLOSE.reason])}`;
}

/**
 * Put the refusal in front of the request listeners already on `httpServer`
 * (sockjs-node's handlers): call after every app's installHandlers().
 * @param {import('http').Server} httpServer
 * @param {string[]} prefixes the apps' prefixes, e.g. ['/broadcast', '/echo']
 */
function refuseHttpTransports(httpServer, prefixes) {
  const earlier = httpServer.listeners('request');
  httpServer.removeAllListeners('request');
  const known = new Set(prefixes);
  httpServer.on('request', (req, res) => {
    const match = req.method !== 'OPTIONS' ? HTTP_TRANSPORT.exec(req.url) : null;
    if (match === null || !known.has(match[1])) {
      for (const listener of earlier) listener.call(httpServer, req, res);
      return;
    }
    // Drain any request body (xhr_send), then answer.
    req.resume();
    req.on('end', () => answer(match[2], req, res));
  });
}

function answer(transport, req, res) {
  const frame = closeFrame();
  const headers = {
    'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0',
    'Access-Control-Allow-Origin': req.headers.origin || '*',
    'Access-Control-Allow-Credentials': 'true',
  };
  const callback = new URL(req.url, 'http://x').searchParams.get('c');
  switch (transport) {
    case 'xhr':
      return send(res, 200, { ...headers, 'Content-Type': 'application/javascript; charset=UTF-8' }, `${frame}\n`);
    case 'xhr_streaming':
      // The 2 KiB prelude the SockJS protocol puts before the first frame.
      return send(res, 200, { ...headers, 'Content-Type': 'application/javascript; charset=UTF-8' },
        `${'h'.repeat(2048)}\n${frame}\n`);
    case 'eventsource':
      return send(res, 200, { ...headers, 'Content-Type': 'text/event-stream; charset=UTF-8' },
        `\r\ndata: ${frame}\r\n\r\n`);
    case 'jsonp':
      if (!callback || !CALLBACK.test(callback)) return send(res, 500, headers, '"callback" parameter required');
      return send(res, 200, { ...headers, 'Content-Type': 'application/javascript; charset=UTF-8' },
        `${callback}(${JSON.stringify(frame)});\r\n`);
    case 'htmlfile':
      if (!callback || !CALLBACK.test(callback)) return send(res, 500, headers, '"callback" parameter required');
      return send(res, 200, { ...headers, 'Content-Type': 'text/html; charset=UTF-8' }, htmlfile(callback, frame));
    default: // xhr_send, jsonp_send
      return send(res, 404, { 'Content-Type': 'text/plain; charset=UTF-8' }, 'Not found');
  }
}

// The htmlfile transport's page: a script that hands frames to the parent's
// callback, padded past 1 KiB so that browsers start rendering, then the frame.
function htmlfile(callback, frame) {
  const head = '<!doctype html>\n<html><head>\n' +
    '  <meta http-equiv="X-UA-Compatible" content="IE=edge" />\n' +
    '  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />\n' +
    `</head><body><h2>Don't panic!</h2>\n  <script>\n    document.domain = document.domain;\n` +
    `    var c = parent.${callback};\n    c.start();\n    function p(d) {c.message(d);};\n` +
    '    window.onload = function() {c.stop();};\n  </script>\n';
  return `${head}${' '.repeat(Math.max(0, 1024 - head.length + 14))}\r\n<script>\np(${JSON.stringify(frame)});\n</script>\r\n`;
}

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}

module.exports = { refuseHttpTransports, WEBSOCKET_ONLY_CLOSE, closeFrame };
