'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { readyLine, parseReadyLine, baseUrl } = require('./ready-line');

describe('READY line', () => {
  it('brackets IPv6 literals in the base URL and leaves names alone', () => {
    assert.equal(baseUrl('::1', 8080), 'http://[::1]:8080');
    assert.equal(baseUrl('127.0.0.1', 0), 'http://127.0.0.1:0');
    assert.equal(baseUrl('localhost', 1), 'http://localhost:1');
  });

  it('is "READY <url>" then key=value tokens with contract-shaped keys and no spaces', () => {
    const line = readyLine({
      host: '127.0.0.1', port: 4321, heartbeatSeconds: 2.5, mode: 'naive', maxSessionBufferBytes: 4096,
      maxSessions: 300, broadcastOptions: { disconnect_delay: 5000, response_limit: 131072 },
    });
    const [ready, url, ...tokens] = line.split(' ');
    assert.equal(ready, 'READY');
    assert.equal(url, 'http://127.0.0.1:4321');
    for (const token of tokens) assert.match(token, /^[a-z0-9_.-]+=\S+$/);
    const fields = Object.fromEntries(tokens.map((t) => t.split('=')));
    assert.equal(fields.heartbeat, '2.5');
    assert.equal(fields.disconnect_delay_ms, '5000');
    assert.equal(fields.response_limit, '131072');
    assert.equal(fields.mode, 'naive');
    assert.equal(fields.max_session_buffer, '4096');
    assert.equal(fields.max_sessions, '300');
    assert.match(fields.sockjs, /^\d+\.\d+\.\d+$/);
    assert.match(fields['faye-websocket'], /^\d+\.\d+\.\d+$/);
  });

  it('says workers=, broker= and worker_pids= (defaults: 1, none, this process)', () => {
    const base = {
      host: '127.0.0.1', port: 1, heartbeatSeconds: 25, mode: 'fast', maxSessionBufferBytes: 4096,
      broadcastOptions: { disconnect_delay: 5000, response_limit: 131072 },
    };
    const fieldsOf = (line) => Object.fromEntries(line.split(' ').slice(2).map((t) => t.split('=')));
    const single = fieldsOf(readyLine(base));
    assert.equal(single.workers, '1');
    assert.equal(single.broker, 'none');
    assert.equal(single.worker_pids, String(process.pid));
    const scaled = fieldsOf(readyLine({
      ...base, workers: 2, broker: { url: 'redis://127.0.0.1:6379/0' }, workerPids: [11, 12],
    }));
    assert.equal(scaled.workers, '2');
    assert.equal(scaled.broker, 'redis://127.0.0.1:6379/0');
    assert.equal(scaled.worker_pids, '11,12');
  });

  it('parses what it prints back into the same URL and fields', () => {
    const line = readyLine({
      host: '::1', port: 4321, heartbeatSeconds: 25, mode: 'fast', maxSessionBufferBytes: 4096,
      broadcastOptions: { disconnect_delay: 5000, response_limit: 131072 }, workerPids: [7, 8],
    });
    const parsed = parseReadyLine(`${line}\n`);
    assert.equal(parsed.url, 'http://[::1]:4321');
    assert.equal(parsed.fields.server, 'sockjs-node');
    assert.equal(parsed.fields.mode, 'fast');
    assert.equal(parsed.fields.worker_pids, '7,8');
    assert.deepEqual(parseReadyLine('READY http://127.0.0.1:1'), { url: 'http://127.0.0.1:1', fields: {} });
  });

  it('rejects lines that break the contract instead of guessing', () => {
    for (const line of ['', 'READY', 'ready http://127.0.0.1:1', 'READY http://127.0.0.1', 'READY http://127.0.0.1:1/',
      'READY http://127.0.0.1:1 novalue', 'READY http://127.0.0.1:1 k=', 'READY http://127.0.0.1:1  k=v',
      'READY http://127.0.0.1:1 Key=v', 'listening on 8080']) {
      assert.equal(parseReadyLine(line), null, line);
    }
  });
});
