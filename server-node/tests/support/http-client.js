'use strict';
// HTTP helpers for the SockJS HTTP transports: one-shot requests with the whole
// body, and streaming responses read frame by frame (xhr_streaming frames end in "\n").

const http = require('node:http');

const DEFAULT_TIMEOUT_MS = 10000;

// No keep-alive pooling: each request gets its own connection, so an aborted
// long poll never poisons the next request.
const agent = new http.Agent({ keepAlive: false });

function send(method, url, { headers = {}, body } = {}) {
  const request = http.request(url, { method, headers, agent });
  request.end(body);
  return request;
}

/**
 * One request, whole response.
 * @returns {Promise<{status: number, headers: object, body: string}>}
 */
function fetchText(method, url, { headers, body, timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const request = send(method, url, { headers, body });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`${method} ${url}: no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('error', (err) => { clearTimeout(timer); reject(err); });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode, headers: response.headers, body: text });
      });
    });
  });
}

/**
 * Start a request whose response we read piece by piece (xhr_streaming), or
 * whose response we never read at all (a long poll left hanging).
 * @returns {StreamingResponse}
 */
function openStream(method, url, { headers, body } = {}) {
  return new StreamingResponse(send(method, url, { headers, body }), `${method} ${url}`);
}

class StreamingResponse {
  constructor(request, label) {
    this.label = label;
    this._request = request;
    this._buffer = '';
    this._ended = false;
    this._wake = null;
    this.response = new Promise((resolve, reject) => {
      request.on('error', (err) => { this._ended = true; this._notify(); reject(err); });
      request.on('response', (response) => {
        response.setEncoding('utf8');
        response.on('data', (chunk) => { this._buffer += chunk; this._notify(); });
        response.on('end', () => { this._ended = true; this._notify(); });
        response.on('error', () => { this._ended = true; this._notify(); });
        resolve(response);
      });
    });
    // A request we abort on purpose must not fail the test as unhandled.
    this.response.catch(() => {});
  }

  _notify() {
    if (this._wake) this._wake();
  }

  async _waitFor(predicate, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.label}: ${what} not within ${timeoutMs} ms (buffered ${JSON.stringify(this._buffer.slice(0, 200))})`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this._wake = () => { clearTimeout(timer); resolve(); };
      });
      this._wake = null;
    }
  }

  /** Status and headers, once they arrived. */
  async head(timeoutMs = DEFAULT_TIMEOUT_MS) {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.label}: no response head within ${timeoutMs} ms`)), timeoutMs);
    });
    const response = await Promise.race([this.response, timeout]).finally(() => clearTimeout(timer));
    return { status: response.statusCode, headers: response.headers };
  }

  /** The next "\n"-terminated frame, newline included; null once the response ended. */
  nextLine(timeoutMs = DEFAULT_TIMEOUT_MS) {
    return this.nextUntil('\n', timeoutMs);
  }

  /**
   * Everything up to and including the next `delimiter`; the rest of the body
   * if it ends first; null once the response ended with nothing left.
   */
  async nextUntil(delimiter, timeoutMs = DEFAULT_TIMEOUT_MS) {
    await this._waitFor(() => this._buffer.includes(delimiter) || this._ended, timeoutMs, `${JSON.stringify(delimiter)}`);
    const at = this._buffer.indexOf(delimiter);
    if (at === -1) return this._buffer.length > 0 ? this._takeAll() : null;
    const piece = this._buffer.slice(0, at + delimiter.length);
    this._buffer = this._buffer.slice(at + delimiter.length);
    return piece;
  }

  _takeAll() {
    const rest = this._buffer;
    this._buffer = '';
    return rest;
  }

  /** Resolves true once the server ended the response (after any unread frames). */
  async ended(timeoutMs = DEFAULT_TIMEOUT_MS) {
    await this._waitFor(() => this._ended, timeoutMs, 'the end of the response');
    return true;
  }

  /** Abort from the client side, like a browser dropping the connection. */
  abort() {
    this._request.destroy();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { fetchText, openStream, sleep };
