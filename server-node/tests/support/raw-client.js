'use strict';
// A raw websocket session (/<app>/websocket) with the same next()/send()/take()
// as the framed client, so broadcast tests can mix both kinds.

const { WsClient } = require('./ws-client');

class RawClient {
  static async connect(appWsUrl) {
    return new RawClient(await WsClient.connect(`${appWsUrl}/websocket`));
  }
  constructor(ws) { this.ws = ws; }
  send(...messages) { for (const m of messages) this.ws.send(m); }
  next(timeoutMs) { return this.ws.next(timeoutMs); }
  async take(count, timeoutMs) {
    const out = [];
    while (out.length < count) out.push(await this.next(timeoutMs));
    return out;
  }
  close() { return this.ws.close(); }
}

module.exports = { RawClient };
