'use strict';
// The benchmark app, /broadcast, against a real server process: every message
// reaches every open session (the sender included), in each sender's order,
// over both endpoints the load generator uses (docs/protocol.md §4.2), in
// both broadcast modes (fast, the default, and --naive).

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { startServer } = require('./support/server-process');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { RawClient } = require('./support/raw-client');
const { fetchText } = require('./support/http-client');
const { randomUUID } = require('node:crypto');

const MESSAGES_PER_SENDER = 25;

/** Each client sends its own numbered messages, all interleaved; return what each received. */
async function exchange(clients) {
  const expectedTotal = clients.length * MESSAGES_PER_SENDER;
  const received = clients.map((client) => client.take(expectedTotal));
  for (let seq = 0; seq < MESSAGES_PER_SENDER; seq += 1) {
    clients.forEach((client, sender) => client.send(`sender${sender}:${seq}`));
  }
  return Promise.all(received);
}

function assertEveryoneGotEverythingInOrder(receivedPerClient, senderCount) {
  for (const [recipient, messages] of receivedPerClient.entries()) {
    for (let sender = 0; sender < senderCount; sender += 1) {
      const fromSender = messages.filter((m) => m.startsWith(`sender${sender}:`));
      const expected = Array.from({ length: MESSAGES_PER_SENDER }, (_, seq) => `sender${sender}:${seq}`);
      assert.deepEqual(fromSender, expected, `recipient ${recipient}, messages of sender ${sender}`);
    }
  }
}

for (const mode of ['fast', 'naive']) describe(`/broadcast, ${mode} mode`, () => {
  let server;
  const clients = [];
  before(async () => {
    server = await startServer(['--heartbeat', '25', ...(mode === 'naive' ? ['--naive'] : [])]);
    assert.equal(server.fields.mode, mode);
  });
  after(async () => {
    for (const client of clients.splice(0)) client.ws.destroy();
    if (server) await server.kill();
  });
  const connect = async (Kind) => {
    const client = await Kind.connect(`${server.wsUrl}/broadcast`);
    clients.push(client);
    return client;
  };

  it('framed websocket: every session gets every message, the sender included, in order', async () => {
    const group = [await connect(SockjsFramedClient), await connect(SockjsFramedClient), await connect(SockjsFramedClient)];
    assertEveryoneGotEverythingInOrder(await exchange(group), group.length);
    await Promise.all(group.map((c) => c.close()));
  });

  it('raw websocket: every session gets every message, the sender included, in order', async () => {
    const group = [await connect(RawClient), await connect(RawClient), await connect(RawClient)];
    assertEveryoneGotEverythingInOrder(await exchange(group), group.length);
    await Promise.all(group.map((c) => c.close()));
  });

  it('framed and raw sessions share one broadcast', async () => {
    const group = [await connect(SockjsFramedClient), await connect(RawClient)];
    assertEveryoneGotEverythingInOrder(await exchange(group), group.length);
    await Promise.all(group.map((c) => c.close()));
  });

  it('delivers several messages sent in one frame, each as sent', async () => {
    const [sender, listener] = [await connect(SockjsFramedClient), await connect(RawClient)];
    sender.send('one', 'two', 'three');
    assert.deepEqual(await listener.take(3), ['one', 'two', 'three']);
    assert.deepEqual(await sender.take(3), ['one', 'two', 'three']);
    await Promise.all([sender.close(), listener.close()]);
  });

  it('passes payloads through untouched (quotes, escapes, non-ASCII, JSON-looking text)', async () => {
    const [sender, framedListener, rawListener] = [
      await connect(SockjsFramedClient), await connect(SockjsFramedClient), await connect(RawClient)];
    const payloads = ['{"id":7,"seq":1,"t":1.5}', 'quote " backslash \\ tab \t', 'ünïcødé ✓ 😀', ' ', '[1,2]'];
    sender.send(...payloads);
    assert.deepEqual(await framedListener.take(payloads.length), payloads);
    assert.deepEqual(await rawListener.take(payloads.length), payloads);
    await Promise.all([sender.close(), framedListener.close(), rawListener.close()]);
  });

  it('stops delivering to a session once it closed, and keeps serving the others', async () => {
    const [leaver, stayer] = [await connect(SockjsFramedClient), await connect(SockjsFramedClient)];
    await leaver.close();
    stayer.send('after the leaver left');
    assert.equal(await stayer.next(), 'after the leaver left');
    await stayer.close();
  });

  it('broken JSON on the framed websocket closes that session only; the server keeps serving', async () => {
    const [offender, bystander, rawBystander] = [
      await connect(SockjsFramedClient), await connect(SockjsFramedClient), await connect(RawClient)];
    offender.ws.send('["unterminated');
    // sockjs-node's own answer to broken framing (the suite only asks for a close).
    assert.deepEqual(await offender.ws.waitClosed(), { code: 3000, reason: 'Broken framing.' });

    bystander.send('still here');
    assert.equal(await bystander.next(), 'still here');
    assert.equal(await rawBystander.next(), 'still here');

    const newcomer = await connect(SockjsFramedClient);
    newcomer.send('new session works');
    assert.equal(await newcomer.next(), 'new session works');
    assert.equal(await bystander.next(), 'new session works');
    await Promise.all([bystander.close(), rawBystander.close(), newcomer.close()]);
  });

  it('a payload that is not a string closes that session only, with a warning on stderr', async () => {
    const [bystander] = [await connect(SockjsFramedClient)];
    // [1,2] and [1,"after"]: sockjs-node crashes if a session closes in the
    // middle of a multi-message frame, so these also prove the server survives.
    for (const frame of ['[1]', '{"a":1}', '[null]', '42', '[1,2]', '[1,"after"]', '["ok", 2]']) {
      const offender = await connect(SockjsFramedClient);
      offender.ws.send(frame);
      if (frame === '["ok", 2]') {
        // sockjs-node hands over one message at a time: the ones before the
        // bad one in the same frame are already delivered (README).
        assert.equal(await bystander.next(), 'ok');
      }
      let goodbye = await offender.ws.next();
      if (goodbye === 'a["ok"]') goodbye = await offender.ws.next();
      assert.equal(goodbye, 'c[3000,"Broken framing."]', frame);
      await offender.ws.waitClosed();
    }
    const rawOffender = await connect(RawClient);
    rawOffender.ws._socket.send(Buffer.from('binary'));
    assert.equal((await rawOffender.ws.waitClosed()).code, 3000);

    // Nothing after a refused message gets through ("after" above), and the
    // server still serves: the next message the bystander sees is its own.
    bystander.send('after the offenders');
    assert.equal(await bystander.next(), 'after the offenders');
    const warnings = await server.stderrLines(/ WARNING \/broadcast: session .* payload, not a string; closing it/, 8);
    assert.equal(warnings.length, 8, server.stderr);
    await bystander.close();
  });

  it('over xhr_send a non-string is dropped with a warning and the session goes on', async () => {
    const listener = await connect(RawClient);
    const session = `${server.url}/broadcast/000/${randomUUID()}`;
    assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'o\n');
    // sockjs-node itself answers 204: it only checks that the body is an array.
    assert.equal((await fetchText('POST', `${session}/xhr_send`, { body: '["a",1,"b"]' })).status, 204);
    assert.deepEqual(await listener.take(2), ['a', 'b']);
    assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'a["a","b"]\n');
    const dropped = await server.stderrLines(/ WARNING \/broadcast: session .* a number payload, not a string; dropped it/, 1);
    assert.equal(dropped.length, 1, server.stderr);
    await listener.close();
  });
});
