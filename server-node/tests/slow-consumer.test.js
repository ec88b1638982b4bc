'use strict';
// The output cap (--max-session-buffer, src/output-cap.js) against a real
// server process and real sockets: a session whose client never reads is
// closed once its unsent bytes pass the cap, the server's resident memory
// (read from outside, /proc/<pid>/status) stays bounded, and the sessions that
// do read keep receiving everything. In both broadcast modes.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const { startServer } = require('./support/server-process');
const { residentBytes } = require('./support/rss');
const { WsClient } = require('./support/ws-client');
const { SockjsFramedClient } = require('./support/sockjs-framed');

const MESSAGE_BYTES = 16 * 1024;
const MESSAGES_PER_FRAME = 4;
// 1 MiB per batch: the reading clients read each batch before the next is
// sent, so they never hold more than the cap (a burst larger than the cap
// could close a client that merely had not read yet).
const MESSAGES_PER_BATCH = 64;
// 120 batches = 120 MiB owed to every session. Without the cap the server
// holds all of it for the stalled client but the ~4-6 MiB the kernel takes.
const BATCHES = 120;
const MIB_PER_BATCH = (MESSAGES_PER_BATCH * MESSAGE_BYTES) / 2 ** 20;
// The traffic itself grows the heap for a while (about +50 MiB here, with or
// without a stalled client, then flat), so boundedness is judged on the
// second half of the run: with the cap RSS is flat there (measured: +0-6 MiB);
// without it, it grows by most of the 60 MiB owed in that half (measured +50).
const SECOND_HALF_GROWTH_LIMIT_MIB = 20;
const SLOW_LOG = /client not reading \(\d+ bytes unsent, limit 1048576\)/;

const residentMiB = (pid) => residentBytes(pid) / 2 ** 20;

const payload = (seq) => `${String(seq).padStart(8, '0')}:${'x'.repeat(MESSAGE_BYTES - 9)}`;

/** Send one batch of numbered messages, MESSAGES_PER_FRAME per SockJS frame. */
async function sendBatch(sender, nextSeq) {
  for (let i = 0; i < MESSAGES_PER_BATCH; i += MESSAGES_PER_FRAME) {
    sender.send(...Array.from({ length: MESSAGES_PER_FRAME }, () => payload(nextSeq())));
  }
}

/**
 * Broadcast batches from `sender` until the server logs one more "client not
 * reading" line (or BATCHES run out), and check that it did.
 * @returns {Promise<number>} how many messages were sent
 */
async function broadcastUntilSlowLogged(server, sender) {
  const logged = server.stderr.split('\n').filter((l) => SLOW_LOG.test(l)).length;
  let seq = 0;
  for (let batch = 0; batch < BATCHES; batch += 1) {
    await sendBatch(sender, () => seq++);
    await sender.take(MESSAGES_PER_BATCH, 20000);
    if ((await server.stderrLines(SLOW_LOG, logged + 1, 0)).length > logged) break;
  }
  assert.equal((await server.stderrLines(SLOW_LOG, logged + 1, 5000)).length, logged + 1, server.stderr);
  return seq;
}

/** A framed session that reads the open frame, then never reads again. */
async function openStalledFramed(server) {
  const ws = await WsClient.connect(`${server.wsUrl}/broadcast/000/${randomUUID()}/websocket`);
  assert.equal(await ws.next(), 'o');
  ws.pauseReading();
  return ws;
}

for (const mode of ['fast', 'naive']) {
  describe(`output cap, ${mode} mode`, () => {
    let server;
    const sockets = [];
    before(async () => {
      server = await startServer(mode === 'naive' ? ['--naive'] : []);
    });
    after(async () => {
      for (const s of sockets.splice(0)) (s.ws || s).destroy();
      if (server) await server.kill();
    });

    it('a client that never reads is closed with a log line; RSS stays bounded; the others get everything', async () => {
      const sender = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      const reader = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      const stalled = await openStalledFramed(server);
      sockets.push(sender, reader, stalled);
      const pid = server.child.pid;
      let halfway = null;
      let peak = 0;
      let closedAtBatch = null;
      let seq = 0;
      for (let batch = 0; batch < BATCHES; batch += 1) {
        const first = seq;
        await sendBatch(sender, () => seq++);
        // Both reading sessions get the whole batch, in order, while the
        // stalled one holds (or held) the server's memory.
        for (const client of [sender, reader]) {
          const got = await client.take(MESSAGES_PER_BATCH, 20000);
          assert.deepEqual(got.map((m) => Number(m.slice(0, 8))),
            Array.from({ length: MESSAGES_PER_BATCH }, (_, i) => first + i));
        }
        const rss = residentMiB(pid);
        if (batch === BATCHES / 2) halfway = rss;
        peak = Math.max(peak, rss);
        if (closedAtBatch === null && SLOW_LOG.test(server.stderr)) closedAtBatch = batch;
      }
      assert.notEqual(closedAtBatch, null, `no slow-consumer log line; stderr: ${server.stderr}`);
      assert.ok(closedAtBatch < BATCHES / 4,
        `the stalled session was closed only after batch ${closedAtBatch} of ${BATCHES}`);
      assert.equal(server.stderr.split('\n').filter((l) => SLOW_LOG.test(l)).length, 1, server.stderr);
      assert.ok(peak - halfway < SECOND_HALF_GROWTH_LIMIT_MIB,
        `server RSS grew ${(peak - halfway).toFixed(1)} MiB in the second half (${halfway.toFixed(1)} -> ` +
        `${peak.toFixed(1)} MiB; limit ${SECOND_HALF_GROWTH_LIMIT_MIB}) while ` +
        `${(MIB_PER_BATCH * BATCHES / 2).toFixed(0)} MiB were owed to the stalled session`);
      assert.equal(server.child.exitCode, null, 'server still running');
    });

    it('a client that stops reading, then reads again, finds the backlog and then c[1008,"Client not reading"]', async () => {
      const sender = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      const slow = await openStalledFramed(server);
      sockets.push(sender, slow);
      const seq = await broadcastUntilSlowLogged(server, sender);
      slow.resumeReading();
      let frame;
      let expected = 0;
      for (;;) {
        frame = await slow.next(10000);
        if (frame[0] !== 'a') break;
        for (const message of JSON.parse(frame.slice(1))) {
          assert.equal(message.slice(0, 8), String(expected).padStart(8, '0'), 'backlog in order, nothing skipped');
          expected += 1;
        }
      }
      assert.equal(frame, 'c[1008,"Client not reading"]');
      assert.ok(expected > 0 && expected <= seq, `got ${expected} of ${seq} messages before the close`);
      await slow.waitClosed(10000);
    });

    it('a raw websocket that stops reading is closed with WebSocket close code 1008', async () => {
      const sender = await SockjsFramedClient.connect(`${server.wsUrl}/broadcast`);
      const raw = await WsClient.connect(`${server.wsUrl}/broadcast/websocket`);
      raw.pauseReading();
      sockets.push(sender, raw);
      await broadcastUntilSlowLogged(server, sender);
      raw.resumeReading();
      const closed = await raw.waitClosed(10000);
      assert.deepEqual(closed, { code: 1008, reason: 'Client not reading' });
    });
  });
}
