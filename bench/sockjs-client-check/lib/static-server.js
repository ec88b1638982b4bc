'use strict';
// The page's own origin: the test page, its script and sockjs-client's dist
// file from node_modules (no CDN), on a free loopback port. Our servers'
// /iframe.html loads the same file (--sockjs-url), as the iframe transports
// require the very version the page runs.

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const HERE = path.join(__dirname, '..');
const FILES = {
  '/': ['page/index.html', 'text/html; charset=utf-8'],
  '/case.js': ['page/case.js', 'text/javascript; charset=utf-8'],
  '/sockjs.min.js': [path.relative(HERE, require.resolve('sockjs-client/dist/sockjs.min.js')),
    'text/javascript; charset=utf-8'],
};

/** @returns {Promise<{origin: string, close: () => Promise<void>}>} */
function startStaticServer() {
  const server = http.createServer((req, res) => {
    const file = FILES[new URL(req.url, 'http://x').pathname];
    if (!file || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file[1], 'Cache-Control': 'no-store' });
    fs.createReadStream(path.join(HERE, file[0])).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

module.exports = { startStaticServer };
