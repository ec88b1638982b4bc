'use strict';
// The fast broadcast path (src/broadcasters.js) against a real server process:
// messages of one event-loop turn go out as one a[...] frame, and every
// session - websocket and HTTP streaming transports alike - gets the very
// same frames, each sender's messages in order, the sender included. The
// naive mode is the control: one frame per message.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { WsClient } = require('./support/ws-client');
const { SockjsFramedClient } = require('./support/sockjs-framed');
const { openStream, fetchText } = require('./support/http-client');

/** Message frames (no heartbeats) of one session, whatever its transport. */
class FrameReader {
  /** Framed websocket. */
  static async websocket(server) {
    const ws = await WsClient.connect(`${server.wsUrl}/broadcast/000/${randomUUID()}/websocket`);
    assert.equal(await ws.next(), 'o');
    return new FrameReader(async () => ws.next(), () => ws.destroy(), (text) => ws.send(text));
  }

  /** xhr_streaming: one frame per "\n"-terminated line after a 2 KiB prelude. */
  static async xhrStreaming(server) {
    const stream = openStream('POST', `${server.url}/broadcast/000/${randomUUID()}/xhr_streaming`);
    assert.match(await stream.nextLine(), /^h{2048}\n$/);
    assert.equal(await stream.nextLine(), 'o\n');
    return new FrameReader(async () => (await stream.nextLine()).slice(0, -1), () => stream.abort());
  }

  /** eventsource: one frame per "data: <frame>\r\n\r\n" event. */
  static async eventsource(server) {
    const stream = openStream('GET', `${server.url}/broadcast/000/${randomUUID()}/eventsource`);
    assert.equal(await stream.nextUntil('\r\n'), '\r\n');
    const next = async () => {
      const event = await stream.nextUntil('\r\n\r\n');
      assert.match(event, /^data: .*\r\n\r\n$/s);
      return event.slice('data: '.length, -4);
    };
    assert.equal(await next(), 'o');
    return new FrameReader(next, () => stream.abort());
  }

  constructor(nextFrame, destroy, send) {
    this._nextFrame = nextFrame;
    this.destroy = destroy;
    this.sendRaw = send;
  }

  /** Message frames until `count` messages arrived: [frame text, ...]. */
  async framesFor(count) {
    const frames = [];
    let messages = 0;
    while (messages < count) {
      const frame = await this._nextFrame();
      if (frame === 'h') continue;
      assert.equal(frame[0], 'a', `expected a message frame, got ${JSON.stringify(frame)}`);
      frames.push(frame);
      messages += JSON.parse(frame.slice(1)).length;
    }
    assert.equal(messages, count, 'no more messages than were sent');
    return frames;
  }
}

const messagesOf = (frames) => frames.flatMap((frame) => JSON.parse(frame.slice(1)));

function assertSendersInOrder(messages, senders, perSender, label) {
  for (let sender = 0; sender < senders; sender += 1) {
    const mine = messages.filter((m) => m.startsWith(`s${sender}:`));
    assert.deepEqual(mine, Array.from({ length: perSender }, (_, seq) => `s${sender}:${seq}`),
      `${label}: messages of sender ${sender}`);
  }
}

for (const mode of ['fast', 'naive']) {
  describe(`broadcast frames, ${mode} mode`, () => {
    let server;
    const readers = [];
    before(async () => { server = await startServer(mode === 'naive' ? ['--naive'] : []); });
    after(async () => {
      for (const r of readers.splice(0)) r.destroy();
      if (server) await server.kill();
    });

    it(mode === 'fast'
      ? 'a burst read in one loop turn reaches every transport as one and the same a[...] frame'
      : 'a burst goes out as one a[...] frame per message on every transport', async () => {
      const sender = await FrameReader.websocket(server);
      const others = [await FrameReader.xhrStreaming(server), await FrameReader.eventsource(server)];
      readers.push(sender, ...others);
      const burst = Array.from({ length: 50 }, (_, i) => `burst ${i} "quoted" ✓`);
      sender.sendRaw(JSON.stringify(burst));
      const expected = mode === 'fast'
        ? ['a' + JSON.stringify(burst)]
        : burst.map((m) => 'a' + JSON.stringify([m]));
      for (const [i, reader] of [sender, ...others].entries()) {
        assert.deepEqual(await reader.framesFor(burst.length), expected, `session ${i}`);
      }
    });

    it('several senders at once: every transport sees identical frames, each sender in order, senders included', async () => {
      const SENDERS = 3;
      const PER_SENDER = 40;
      const senders = [];
      for (let i = 0; i < SENDERS; i += 1) senders.push(await FrameReader.websocket(server));
      const streaming = await FrameReader.xhrStreaming(server);
      const eventsource = await FrameReader.eventsource(server);
      readers.push(...senders, streaming, eventsource);
      const total = SENDERS * PER_SENDER;
      const received = [...senders, streaming, eventsource].map((r) => r.framesFor(total));
      // Interleaved, several messages per SockJS frame, so that one loop turn
      // sees messages of more than one sender.
      for (let seq = 0; seq < PER_SENDER; seq += 4) {
        senders.forEach((s, i) => s.sendRaw(JSON.stringify([0, 1, 2, 3].map((k) => `s${i}:${seq + k}`))));
      }
      const frames = await Promise.all(received);
      for (const [i, sessionFrames] of frames.entries()) {
        assertSendersInOrder(messagesOf(sessionFrames), SENDERS, PER_SENDER, `session ${i}`);
        // One flush writes the same frame to every session, so the frame
        // sequences are identical whatever the transport.
        assert.deepEqual(sessionFrames, frames[0], `session ${i} frames equal session 0's`);
      }
      if (mode === 'naive') assert.equal(frames[0].length, total, 'naive: one frame per message');
    });

    it('an xhr-polling session gets every message in order between its polls', async () => {
      const sender = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      readers.push({ destroy: () => sender.ws.destroy() });
      const session = `${server.url}/broadcast/000/${randomUUID()}`;
      assert.equal((await fetchText('POST', `${session}/xhr`)).body, 'o\n');
      const sent = Array.from({ length: 30 }, (_, i) => `s0:${i}`);
      for (let i = 0; i < sent.length; i += 3) sender.send(...sent.slice(i, i + 3));
      assert.deepEqual(await sender.take(sent.length), sent);
      const got = [];
      while (got.length < sent.length) {
        const { body } = await fetchText('POST', `${session}/xhr`);
        assert.match(body, /^a\[.*\]\n$/);
        got.push(...JSON.parse(body.slice(1)));
      }
      assert.deepEqual(got, sent);
    });
  });
}
