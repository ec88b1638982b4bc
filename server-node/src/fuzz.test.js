'use strict';
// server-node's own parsing code under fast-check: random and mutated input
// into every parser a client, an operator or the broker can reach. Each
// property says what must hold for ANY input: a result of the right shape, or
// the module's own error (which the caller turns into a usage line, a log
// line or a dropped envelope) - never any other exception. Seeded and bounded:
// FUZZ_SEED=<n> replays a run, FUZZ_RUNS=<n> sets the cases per property.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { parseCommandLine, UsageError } = require('./cli');
const { parseBrokerUrl, BrokerUrlError } = require('./broker-url');
const { readyLine, parseReadyLine } = require('./ready-line');
const { openEnvelope, frameMessages, batchEnvelope, messageEnvelope, newOrigin, EnvelopeError } =
  require('./relay-envelope');
const { messageFrame } = require('./sockjs-internals');
const { creatingSessionId, isWebsocketSession } = require('./session-budget');

const SEED = Number(process.env.FUZZ_SEED || 27);
const RUNS = Number(process.env.FUZZ_RUNS || 500);
const settings = { seed: SEED, numRuns: RUNS };

/** Strings of every kind: ASCII, any code unit (lone surrogates too), flags and URLs. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '-', '--', '--port', '--port=', '=', '\u0000', '\ud800', '%', '/', '..', 'redis://'),
);

/** Only `errorClass` may be thrown by `run`; returns its result or null. */
function onlyThrows(errorClass, run) {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof errorClass)) throw err;
    return null;
  }
}

const FLAGS = ['--host', '--port', '--heartbeat', '--log-level', '--naive', '--max-session-buffer', '--workers',
  '--broker', '--max-sessions', '--header-timeout', '--help'];

describe(`fuzz (fast-check, seed ${SEED}, ${RUNS} cases per property)`, () => {
  it('command line: any argv gives settings or a UsageError naming a flag, nothing else', () => {
    const token = fc.oneof(
      anyString,
      fc.constantFrom(...FLAGS),
      fc.tuple(fc.constantFrom(...FLAGS), anyString).map(([flag, value]) => `${flag}=${value}`),
      fc.integer({ min: -1, max: 2 ** 40 }).map(String),
    );
    fc.assert(fc.property(fc.array(token, { maxLength: 8 }), (argv) => {
      const settings = onlyThrows(UsageError, () => parseCommandLine(argv));
      if (settings === null || settings.help) return;
      assert.ok(settings.port >= 0 && settings.port <= 65535);
      assert.ok(settings.heartbeatSeconds > 0);
      assert.ok(Number.isInteger(settings.maxSessions) && settings.maxSessions >= 1);
      assert.ok(settings.headerTimeoutSeconds > 0);
      assert.ok(Number.isInteger(settings.workers) && settings.workers >= 1);
    }), settings);
  });

  it('broker URL: any text gives a redis address or a BrokerUrlError', () => {
    const url = fc.oneof(anyString, fc.webUrl(), fc.tuple(fc.constantFrom('redis://', 'redis://[', 'redis://h:'), anyString)
      .map(([a, b]) => a + b));
    fc.assert(fc.property(url, (text) => {
      const broker = onlyThrows(BrokerUrlError, () => parseBrokerUrl(text));
      if (broker === null) return;
      assert.ok(broker.port >= 1 && broker.port <= 65535, JSON.stringify(broker));
      assert.ok(Number.isInteger(broker.db) && broker.db >= 0);
      assert.deepEqual(parseBrokerUrl(broker.url), broker, 'the canonical URL parses to itself');
    }), settings);
  });

  it('READY line: any line parses to null or a URL and fields; any values print and parse back', () => {
    fc.assert(fc.property(anyString, (line) => {
      const parsed = parseReadyLine(line);
      if (parsed !== null) assert.match(parsed.url, /^http:\/\/[^/\s]+:\d+$/);
    }), settings);
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((s) => !/\s/.test(s)), fc.integer({ min: 1, max: 1e6 }),
      (host, maxSessions) => {
        const line = readyLine({
          host, port: 1, heartbeatSeconds: 25, mode: 'fast', maxSessionBufferBytes: 1024, maxSessions,
          broadcastOptions: { disconnect_delay: 5000, response_limit: 131072 },
        });
        const parsed = parseReadyLine(line);
        if (!/[/]/.test(host)) assert.ok(parsed !== null, line);
        if (parsed !== null) assert.equal(parsed.fields.max_sessions, String(maxSessions));
      }), settings);
  });

  it('relay envelopes: anything on the channel opens or is an EnvelopeError; own envelopes round-trip', () => {
    const envelope = fc.oneof(
      anyString,
      fc.tuple(fc.constantFrom(newOrigin(), '0123456789abcdef', 'xyz'), fc.constantFrom('a', 'm', 'b', ''), anyString)
        .map(([origin, kind, body]) => origin + kind + body),
      fc.tuple(fc.constant(newOrigin()), fc.json()).map(([origin, json]) => `${origin}a${json}`),
    );
    fc.assert(fc.property(envelope, (text) => {
      const opened = onlyThrows(EnvelopeError, () => openEnvelope(text));
      if (opened === null || opened.kind !== 'a') return;
      const messages = onlyThrows(EnvelopeError, () => frameMessages(opened.body));
      if (messages !== null) assert.ok(messages.every((m) => typeof m === 'string'));
    }), settings);
    const origin = newOrigin();
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), (messages) => {
      const batch = openEnvelope(batchEnvelope(origin, messageFrame(messages)));
      assert.deepEqual(frameMessages(batch.body), messages);
      for (const message of messages) assert.equal(openEnvelope(messageEnvelope(origin, message)).body, message);
    }), settings);
  });

  it('a[...] frames: any messages, lone surrogates and control characters included, decode to themselves', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 50 }), (messages) => {
      const frame = messageFrame(messages);
      assert.equal(frame[0], 'a');
      assert.deepEqual(JSON.parse(frame.slice(1)), messages);
    }), settings);
  });

  it('session budget: any request line is classified without throwing; only creating URLs count', () => {
    const prefixes = new Set(['/broadcast', '/echo']);
    const segment = fc.oneof(fc.stringMatching(/^[a-z0-9]{1,8}$/), anyString);
    const url = fc.oneof(
      anyString.map((s) => `/${s}`),
      fc.tuple(fc.constantFrom('/broadcast', '/echo', '/nope', ''), segment, segment,
        fc.constantFrom('xhr', 'xhr_send', 'xhr_streaming', 'eventsource', 'htmlfile', 'jsonp', 'websocket', 'info'),
        fc.constantFrom('', '/', '?c=x', '#x', '/extra'))
        .map(([prefix, server, session, transport, tail]) => `${prefix}/${server}/${session}/${transport}${tail}`),
    );
    const method = fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT', 'get');
    fc.assert(fc.property(url, method, (path, verb) => {
      const id = creatingSessionId({ url: path, method: verb }, prefixes);
      if (id !== null) {
        assert.match(path, /\/(xhr|xhr_streaming|eventsource|htmlfile|jsonp)\/?([?#].*)?$/);
        assert.ok(!id.includes('/') && !id.includes('.'));
      }
      const websocket = isWebsocketSession({ url: path, method: verb }, prefixes);
      if (websocket) assert.match(path, /\/websocket\/?([?#].*)?$/);
    }), settings);
  });
});
