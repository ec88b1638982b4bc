'use strict';
// WebSocket at the byte level, for the fuzz and slow-client tests: a client
// that sends any frame at all (bad opcodes, RSV bits, invalid UTF-8, unmasked
// frames) over a plain TCP socket, and reads the server's frames back. The
// faye-websocket client (ws-client.js) cannot send malformed frames.

const net = require('node:net');
const { randomBytes } = require('node:crypto');

/**
 * One client-to-server frame, masked unless `masked` is false.
 * @param {object} frame
 * @param {number} frame.opcode 0-15
 * @param {Buffer} frame.payload
 * @param {boolean} [frame.fin] default true
 * @param {number} [frame.rsv] RSV1-3 bits, 0-7 (default 0)
 * @param {boolean} [frame.masked] default true (RFC 6455 requires it of clients)
 */
function encodeFrame({ opcode, payload, fin = true, rsv = 0, masked = true }) {
  const length = payload.length;
  const head = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127, 0, 0, 0, 0);
    head.push((length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i += 1) body[i] ^= mask[i % 4];
  return Buffer.concat([Buffer.from(head), mask, body]);
}

/** Server frames in `buffer` (unmasked); returns the frames and the bytes left over. */
function decodeFrames(buffer) {
  const frames = [];
  let offset = 0;
  for (;;) {
    if (buffer.length - offset < 2) break;
    const opcode = buffer[offset] & 0x0f;
    const rsv = (buffer[offset] >> 4) & 0x07; // RSV1 = 4: a compressed message (RFC 7692)
    let length = buffer[offset + 1] & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (buffer.length < start + 2) break;
      length = buffer.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (buffer.length < start + 8) break;
      length = Number(buffer.readBigUInt64BE(start));
      start += 8;
    }
    if (buffer.length < start + length) break;
    frames.push({ opcode, rsv, payload: buffer.subarray(start, start + length) });
    offset = start + length;
  }
  return { frames, rest: buffer.subarray(offset) };
}

class WireClient {
  /**
   * Open a TCP connection and send an RFC 6455 upgrade request for `path`, with
   * `extensions` as its Sec-WebSocket-Extensions (none when null).
   * @returns {Promise<WireClient>} once the 101 response has arrived
   * @throws if the server answers anything else (the error carries the status line)
   */
  static async open(port, path, { timeoutMs = 5000, extensions = null } = {}) {
    const client = new WireClient(net.connect({ host: '127.0.0.1', port }));
    client.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
      (extensions === null ? '' : `Sec-WebSocket-Extensions: ${extensions}\r\n`) +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`);
    await client._handshake(timeoutMs);
    return client;
  }

  constructor(socket) {
    this.socket = socket;
    this.frames = [];
    this.ended = false;
    this._buffer = Buffer.alloc(0);
    this._waiters = [];
    this._handshakeDone = false;
    socket.on('error', () => {}); // a reset is an ending like any other
    socket.on('data', (data) => {
      this._buffer = Buffer.concat([this._buffer, data]);
      if (this._handshakeDone) this._decode();
      this._wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this._wake();
    });
  }

  _handshake(timeoutMs) {
    return this.until(() => {
      const end = this._buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.ended) throw new Error('connection closed during the handshake');
        return false;
      }
      const head = this._buffer.subarray(0, end).toString('latin1');
      if (!head.startsWith('HTTP/1.1 101')) throw new Error(`no upgrade: ${head.split('\r\n')[0]}`);
      this.responseHead = head; // the 101's status line and headers
      this._buffer = this._buffer.subarray(end + 4);
      this._handshakeDone = true;
      this._decode();
      return true;
    }, timeoutMs, 'the 101 response');
  }

  _decode() {
    const { frames, rest } = decodeFrames(this._buffer);
    this.frames.push(...frames);
    this._buffer = rest;
  }

  _wake() {
    for (const wake of this._waiters.splice(0)) wake();
  }

  /** Resolves with check()'s first truthy value; rejects after `timeoutMs`. */
  async until(check, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this._waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  send(frame) {
    if (!this.socket.destroyed) this.socket.write(encodeFrame(frame));
  }

  sendText(text) {
    this.send({ opcode: 1, payload: Buffer.from(text) });
  }

  /** Text of every text frame so far. */
  texts() {
    return this.frames.filter((f) => f.opcode === 1).map((f) => f.payload.toString('utf8'));
  }

  /** Whether the server sent a WebSocket close frame. */
  get closeFrame() {
    return this.frames.find((f) => f.opcode === 8) || null;
  }

  destroy() {
    this.socket.destroy();
  }
}

module.exports = { WireClient, encodeFrame, decodeFrames };
