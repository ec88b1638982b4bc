'use strict';
// The fence (src/sockjs-internals.js): fails if the installed sockjs is not
// the pinned version, or if any private name the fence uses is missing - in
// the library's code, or on live sessions of every transport. The server runs
// in this process (a real HTTP server on 127.0.0.1, real client sockets) so
// the test can look at the very session objects the fence looks at.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const internals = require('./sockjs-internals');
const { startServer } = require('./server');
const { createLogger } = require('./log');
const { WsClient } = require('../tests/support/ws-client');
const { openStream, fetchText } = require('../tests/support/http-client');

const packageJson = require(path.join(__dirname, '..', 'package.json'));

describe('sockjs internals fence: code', () => {
  it('package.json pins sockjs exactly, to the version the fence was written against', () => {
    assert.equal(packageJson.dependencies.sockjs, internals.PINNED_SOCKJS_VERSION);
    assert.equal(require('sockjs/package.json').version, internals.PINNED_SOCKJS_VERSION);
    assert.doesNotThrow(() => internals.assertSupportedSockjs());
  });

  it('every statically checkable name exists', () => {
    assert.deepEqual(internals.staticNamesMissing(), []);
  });

  it('frames are byte for byte what sockjs-node builds for conn.write', () => {
    const { GenericReceiver } = require(path.join(path.dirname(require.resolve('sockjs/package.json')), 'lib', 'transport.js'));
    const messages = ['plain', 'quote " backslash \\', 'ünïcødé \u2028 \ud83d\ude00', '\u0000\u001f', ''];
    let built = null;
    const receiver = Object.create(GenericReceiver.prototype);
    receiver.doSendFrame = (frame) => { built = frame; };
    receiver.doSendBulk(messages);
    assert.equal(internals.messageFrame(messages), built);
    assert.equal(internals.encodeFrame(messages.map(internals.quoteMessage)), built);
  });
});

describe('sockjs internals fence: live sessions of every transport', () => {
  let running;
  let base;
  const cleanups = [];
  const broadcast = () => running.apps.find((app) => app.prefix === '/broadcast');
  before(async () => {
    running = await startServer({
      host: '127.0.0.1', port: 0, heartbeatSeconds: 25, mode: 'fast', maxSessionBufferBytes: 1 << 20,
    }, createLogger('error'));
    base = `http://127.0.0.1:${running.port}/broadcast`;
  });
  after(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    if (running) await running.stop(1000);
  });

  /** The session the server created for the client that `open()` starts. */
  async function sessionOpenedBy(open) {
    const before = new Set(broadcast().sessions.keys());
    await open();
    for (let i = 0; i < 100; i += 1) {
      const added = [...broadcast().sessions.entries()].filter(([id]) => !before.has(id));
      if (added.length === 1) return added[0][1];
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no new session on /broadcast');
  }

  const transports = {
    'framed websocket': async () => {
      const ws = await WsClient.connect(`${base.replace('http:', 'ws:')}/000/${randomUUID()}/websocket`);
      cleanups.push(() => ws.destroy());
      assert.equal(await ws.next(), 'o');
    },
    'raw websocket': async () => {
      const ws = await WsClient.connect(`${base.replace('http:', 'ws:')}/websocket`);
      cleanups.push(() => ws.destroy());
    },
    'xhr-streaming': async () => {
      const stream = openStream('POST', `${base}/000/${randomUUID()}/xhr_streaming`);
      cleanups.push(() => stream.abort());
      await stream.nextLine();
      assert.equal(await stream.nextLine(), 'o\n');
    },
    eventsource: async () => {
      const stream = openStream('GET', `${base}/000/${randomUUID()}/eventsource`);
      cleanups.push(() => stream.abort());
      await stream.nextUntil('data: o\r\n\r\n');
    },
    htmlfile: async () => {
      const stream = openStream('GET', `${base}/000/${randomUUID()}/htmlfile?c=cb`);
      cleanups.push(() => stream.abort());
      await stream.nextUntil('p("o");');
    },
    'xhr-polling, a poll waiting': async () => {
      const session = `${base}/000/${randomUUID()}`;
      assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'o\n');
      const poll = openStream('POST', `${session}/xhr`);
      cleanups.push(() => poll.abort());
    },
    'jsonp-polling, a poll waiting': async () => {
      const session = `${base}/000/${randomUUID()}`;
      assert.match((await fetchText('GET', `${session}/jsonp?c=cb`)).body, /cb\("o"\)/);
      const poll = openStream('GET', `${session}/jsonp?c=cb`);
      cleanups.push(() => poll.abort());
    },
    'xhr-polling, between polls': async () => {
      const session = `${base}/000/${randomUUID()}`;
      assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'o\n');
    },
  };

  for (const [name, open] of Object.entries(transports)) {
    it(`${name}: every name the fence uses is there`, async () => {
      const conn = await sessionOpenedBy(open);
      if (name.includes('poll waiting')) {
        // The second poll has been sent, not necessarily received yet (Node
        // sends no response head before the first frame): wait until it is
        // the session's receiver.
        for (let i = 0; i < 100 && !internals.socketOf(conn); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      assert.deepEqual(internals.liveNamesMissing(conn), []);
      const attached = !name.includes('between polls');
      assert.equal(internals.socketOf(conn) !== null, attached, 'a socket exactly when a receiver is attached');
      assert.equal(internals.unsentBytes(conn), 0, 'nothing unsent on an idle session');
    });
  }

  it('a session between polls: what is queued for it counts as unsent', async () => {
    const conn = await sessionOpenedBy(transports['xhr-polling, between polls']);
    conn.write('x'.repeat(1000));
    conn.write('y'.repeat(24));
    assert.equal(internals.unsentBytes(conn), 1024);
  });

  it('an HTTP session\'s id is its URL segment, and sockjs-node knows it until it expires', async () => {
    const id = randomUUID();
    assert.equal(internals.sessionExists(id), false);
    const conn = await sessionOpenedBy(() => fetchText('POST', `${base}/000/${id}/xhr`));
    assert.equal(internals.sessionIdOf(conn), id);
    assert.equal(internals.sessionExists(id), true);
    const ws = await sessionOpenedBy(transports['framed websocket']);
    assert.equal(internals.sessionIdOf(ws), null, 'websocket sessions have no registry id');
  });

  it('sends whose payload is an object with "__proto__": null get "500 Payload expected.", like other non-arrays', async () => {
    const session = `${base}/000/${randomUUID()}`;
    assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'o\n');
    const plain = { 'Content-Type': 'text/plain' };
    for (const body of ['{"__proto__":null}', '"{\\"__proto__\\":null}"', '{"a":1}']) {
      const sent = await fetchText('POST', `${session}/xhr_send`, { headers: plain, body });
      assert.deepEqual([sent.status, sent.body], [500, 'Payload expected.'], `xhr_send ${body}`);
    }
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const sent = await fetchText('POST', `${session}/jsonp_send`,
      { headers: form, body: `d=${encodeURIComponent('{"__proto__":null}')}` });
    assert.deepEqual([sent.status, sent.body], [500, 'Payload expected.'], 'jsonp_send');
    const good = await fetchText('POST', `${session}/xhr_send`, { headers: plain, body: '["still fine"]' });
    assert.equal(good.status, 204);
  });
});
