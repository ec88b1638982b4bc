'use strict';
// A tiny static file server for the browser tests: serves a directory on
// 127.0.0.1 at an OS-chosen port, like any static host would serve site/dist.

const http = require('http');
const fs = require('fs');
const path = require('path');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

/**
 * @param {Record<string, string>} mounts URL prefix (e.g. "/fixtures/") → directory
 * @returns {Promise<{origin: string, close: () => Promise<void>}>}
 */
function startStaticServer(mounts) {
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const prefix = Object.keys(mounts).find((p) => urlPath.startsWith(p));
    if (!prefix || request.method !== 'GET') {
      response.writeHead(404).end('not found');
      return;
    }
    const root = path.resolve(mounts[prefix]);
    let file = path.resolve(root, `.${path.sep}${urlPath.slice(prefix.length)}`);
    if (file !== root && !file.startsWith(root + path.sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'Content-Type': CONTENT_TYPES[path.extname(file)] || 'application/octet-stream' });
      response.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

module.exports = { startStaticServer };
