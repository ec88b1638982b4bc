'use strict';
// A SockJS client over the framed websocket endpoint (/<server>/<session>/websocket):
// checks the open frame, unpacks "a[...]" arrays into single messages and skips
// heartbeats, so broadcast tests can reason about messages instead of frames.

const { randomUUID } = require('node:crypto');
const { WsClient } = require('./ws-client');

class SockjsFramedClient {
  /**
   * @param {string} appWsUrl e.g. ws://127.0.0.1:PORT/broadcast
   * @returns {Promise<SockjsFramedClient>} after the "o" frame arrived
   */
  static async connect(appWsUrl) {
    const ws = await WsClient.connect(`${appWsUrl}/000/${randomUUID()}/websocket`);
    const first = await ws.next();
    if (first !== 'o') {
      ws.destroy();
      throw new Error(`expected the open frame "o", got ${JSON.stringify(first)}`);
    }
    return new SockjsFramedClient(ws);
  }

  constructor(ws) {
    this.ws = ws;
    this._pending = [];
  }

  /** Send messages as one SockJS frame (a JSON array of strings). */
  send(...messages) {
    this.ws.send(JSON.stringify(messages));
  }

  /** Next application message; throws on a close frame or anything unexpected. */
  async next(timeoutMs) {
    while (this._pending.length === 0) {
      const frame = await this.ws.next(timeoutMs);
      if (frame === 'h') continue;
      if (frame.startsWith('a')) this._pending.push(...JSON.parse(frame.slice(1)));
      else throw new Error(`expected a message frame, got ${JSON.stringify(frame)}`);
    }
    return this._pending.shift();
  }

  /** Collect exactly `count` messages. */
  async take(count, timeoutMs) {
    const messages = [];
    while (messages.length < count) messages.push(await this.next(timeoutMs));
    return messages;
  }

  close() {
    return this.ws.close();
  }
}

module.exports = { SockjsFramedClient };
