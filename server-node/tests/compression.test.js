'use strict';
// --compression permessage-deflate (docs/compression.md): sockjs-node's faye
// websockets get the permessage-deflate extension, so an upgrade that offers it
// is accepted and every message to that session comes compressed (RSV1) with
// the session's own zlib context; an upgrade without the offer, or a server
// without the flag, gets plain frames; READY says which.

const test = require('node:test');
const assert = require('node:assert');
const zlib = require('node:zlib');
const { startServer } = require('./support/server-process');
const { WireClient } = require('./support/ws-wire');

const OFFER = 'permessage-deflate; client_max_window_bits';
const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** The extensions header of a 101 response head, '' when it has none. */
function extensionsOf(head) {
  const line = head.split('\r\n').find((l) => /^sec-websocket-extensions:/i.test(l));
  return line === undefined ? '' : line.slice(line.indexOf(':') + 1).trim();
}

/** Text frames inflated with one context for the session, as a client keeps it. */
function inflateAll(frames) {
  // One raw deflate stream, messages separated by sync flushes: inflating the
  // whole stream so far and keeping the new bytes reads each message with the
  // window of those before it.
  const out = [];
  let stream = Buffer.alloc(0);
  let seen = 0;
  for (const f of frames) {
    if (f.opcode !== 1) continue;
    if (f.rsv !== 4) {
      out.push(f.payload.toString('utf8'));
      continue;
    }
    stream = Buffer.concat([stream, f.payload, TAIL]);
    const all = zlib.inflateRawSync(stream, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    out.push(all.subarray(seen).toString('utf8'));
    seen = all.length;
  }
  return out;
}

test('an offer is accepted and every message comes compressed, with context takeover', async () => {
  const server = await startServer(['--compression', 'permessage-deflate']);
  try {
    assert.strictEqual(server.fields.compression, 'permessage-deflate');
    const port = Number(new URL(server.url).port);
    const client = await WireClient.open(port, '/broadcast/000/deflate1/websocket', { extensions: OFFER });
    try {
      assert.match(extensionsOf(client.responseHead), /^permessage-deflate\b/);
      await client.until(() => client.frames.length >= 1, 5000, 'the o frame');
      const message = `1:0:1:2:${'x'.repeat(200)}`;
      client.sendText(JSON.stringify([message]));
      await client.until(() => client.frames.length >= 2, 5000, 'the broadcast');
      client.sendText(JSON.stringify([message]));
      await client.until(() => client.frames.length >= 3, 5000, 'the second broadcast');
      const frames = client.frames.slice(0, 3);
      assert.deepStrictEqual(frames.map((f) => f.rsv), [4, 4, 4], 'RSV1 on every message');
      assert.deepStrictEqual(inflateAll(frames), ['o', `a${JSON.stringify([message])}`, `a${JSON.stringify([message])}`]);
      assert.ok(frames[2].payload.length < frames[1].payload.length / 2,
        `the repeat refers back into the session's window: ${frames[2].payload.length} vs ${frames[1].payload.length} bytes`);
    } finally {
      client.destroy();
    }
    const plain = await WireClient.open(port, '/broadcast/000/plain1/websocket');
    try {
      assert.strictEqual(extensionsOf(plain.responseHead), '');
      await plain.until(() => plain.frames.length >= 1, 5000, 'the o frame');
      assert.strictEqual(plain.frames[0].rsv, 0);
      assert.deepStrictEqual(plain.texts(), ['o']);
    } finally {
      plain.destroy();
    }
  } finally {
    await server.stop();
  }
});

test('without --compression the offer is declined and READY says none', async () => {
  const server = await startServer([]);
  try {
    assert.strictEqual(server.fields.compression, 'none');
    const port = Number(new URL(server.url).port);
    const client = await WireClient.open(port, '/broadcast/000/plain2/websocket', { extensions: OFFER });
    try {
      assert.strictEqual(extensionsOf(client.responseHead), '');
      await client.until(() => client.frames.length >= 1, 5000, 'the o frame');
      assert.strictEqual(client.frames[0].rsv, 0);
    } finally {
      client.destroy();
    }
  } finally {
    await server.stop();
  }
});
