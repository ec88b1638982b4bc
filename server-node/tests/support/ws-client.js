'use strict';
// A small promise-based WebSocket client for tests, on faye-websocket's client
// (the same websocket stack sockjs-node uses, pinned in package-lock.json).

const FayeWebSocket = require('faye-websocket');

const DEFAULT_TIMEOUT_MS = 10000;

class WsClient {
  /**
   * @param {string} url ws:// URL
   * @param {number} [timeoutMs] how long the handshake may take, ms
   * @returns {Promise<WsClient>} once open
   */
  static connect(url, timeoutMs = DEFAULT_TIMEOUT_MS) {
    const client = new WsClient(url);
    return client._opened(timeoutMs).then(() => client);
  }

  constructor(url) {
    this.url = url;
    this._socket = new FayeWebSocket.Client(url);
    this._queue = [];
    this._waiters = [];
    this.closeEvent = null;
    this._socket.on('message', (event) => {
      const waiter = this._waiters.shift();
      if (waiter) waiter.resolve(event.data);
      else this._queue.push(event.data);
    });
    this.closed = new Promise((resolve) => {
      this._socket.on('close', (event) => {
        this.closeEvent = { code: event.code, reason: event.reason };
        for (const waiter of this._waiters.splice(0)) {
          waiter.reject(new Error(`connection closed (${event.code} ${event.reason}) while waiting for a message`));
        }
        resolve(this.closeEvent);
      });
    });
  }

  _opened(timeoutMs) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.url}: not open after ${timeoutMs} ms`)), timeoutMs);
      this._socket.on('open', () => { clearTimeout(timer); resolve(); });
      this.closed.then((event) => {
        clearTimeout(timer);
        reject(new Error(`${this.url}: closed during handshake (${event.code})`));
      });
    });
  }

  send(text) {
    this._socket.send(text);
  }

  /** Next message received, in order; rejects on close or after `timeoutMs`. */
  next(timeoutMs = DEFAULT_TIMEOUT_MS) {
    if (this._queue.length > 0) return Promise.resolve(this._queue.shift());
    if (this.closeEvent) return Promise.reject(new Error(`connection already closed (${this.closeEvent.code})`));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (data) => { clearTimeout(timer); resolve(data); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      };
      const timer = setTimeout(() => {
        this._waiters.splice(this._waiters.indexOf(waiter), 1);
        reject(new Error(`${this.url}: no message within ${timeoutMs} ms`));
      }, timeoutMs);
      this._waiters.push(waiter);
    });
  }

  /** Resolves with {code, reason} once closed; rejects after `timeoutMs`. */
  waitClosed(timeoutMs = DEFAULT_TIMEOUT_MS) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.url}: still open after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([this.closed, timeout]).finally(() => clearTimeout(timer));
  }

  close() {
    if (!this.closeEvent) this._socket.close();
    return this.waitClosed();
  }

  /**
   * Stop reading the socket (a client that stalls): the kernel buffers fill and
   * the server is left holding what it writes. Reaches into faye-websocket's
   * client (`_stream`: its net.Socket), test-side only; pinned by package-lock.json.
   */
  pauseReading() {
    this._socket._stream.pause();
  }

  resumeReading() {
    this._socket._stream.resume();
  }

  /** The client end's local TCP port (to find, from outside, which server process holds the other end). */
  localPort() {
    return this._socket._stream.localPort;
  }

  /** Drop the TCP connection without a close handshake (cleanup after failures). */
  destroy() {
    if (this._socket._stream) this._socket._stream.destroy();
  }
}

module.exports = { WsClient };
