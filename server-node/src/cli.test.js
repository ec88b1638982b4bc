'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const {
  parseCommandLine, refusal, UsageError, DEFAULTS, MAX_HEARTBEAT_S, MIN_SESSION_BUFFER, MAX_SESSION_BUFFER,
  MAX_WORKERS,
} = require('./cli');
const { DEFAULT_MAX_SESSIONS, MAX_SESSIONS } = require('./session-budget-default');

describe('parseCommandLine', () => {
  it('gives the contract defaults for an empty command line', () => {
    assert.deepEqual(parseCommandLine([]), { help: false, ...DEFAULTS });
    assert.deepEqual(DEFAULTS, {
      host: '127.0.0.1', port: 8080, heartbeatSeconds: 25, logLevel: 'warning',
      mode: 'fast', compression: 'none', maxSessionBufferBytes: 1048576, workers: 1, broker: null,
      maxSessions: DEFAULT_MAX_SESSIONS, sessions: null, headerTimeoutSeconds: 10, statusFile: null,
      sockjsUrl: 'https://cdn.jsdelivr.net/npm/sockjs-client@1/dist/sockjs.min.js',
    });
    assert.equal(DEFAULT_MAX_SESSIONS, 4096, '128 MiB / 32 KiB per session (README "Session budget")');
  });

  it('reads every flag, in both --flag value and --flag=value form', () => {
    assert.deepEqual(
      parseCommandLine(['--host', '::1', '--port=0', '--heartbeat', '0.25', '--log-level=debug',
        '--naive', '--compression=permessage-deflate', '--max-session-buffer=4096', '--workers', '3', '--broker=redis://[::1]:7000/2',
        '--max-sessions', '7', '--sessions=20000', '--header-timeout=1.5', '--status-file', `${require('node:os').tmpdir()}/status.json`,
        '--sockjs-url', 'http://127.0.0.1:9/sockjs.min.js']),
      {
        help: false, host: '::1', port: 0, heartbeatSeconds: 0.25, logLevel: 'debug',
        mode: 'naive', compression: 'permessage-deflate', maxSessionBufferBytes: 4096, workers: 3,
        broker: { host: '::1', port: 7000, db: 2, url: 'redis://[::1]:7000/2' },
        maxSessions: 7, sessions: 20000, headerTimeoutSeconds: 1.5, statusFile: `${require('node:os').tmpdir()}/status.json`,
        sockjsUrl: 'http://127.0.0.1:9/sockjs.min.js',
      });
    assert.equal(parseCommandLine(['--sockjs-url=/vendor/sockjs.js']).sockjsUrl, '/vendor/sockjs.js');
  });

  it('accepts the edges of each range', () => {
    assert.equal(parseCommandLine(['--port', '65535']).port, 65535);
    assert.equal(parseCommandLine(['--heartbeat', String(MAX_HEARTBEAT_S)]).heartbeatSeconds, MAX_HEARTBEAT_S);
    assert.equal(parseCommandLine(['--heartbeat', '.5']).heartbeatSeconds, 0.5);
    assert.equal(parseCommandLine(['--max-session-buffer', String(MIN_SESSION_BUFFER)]).maxSessionBufferBytes,
      MIN_SESSION_BUFFER);
    assert.equal(parseCommandLine(['--max-session-buffer', String(MAX_SESSION_BUFFER)]).maxSessionBufferBytes,
      MAX_SESSION_BUFFER);
  });

  it('--help wins over everything else', () => {
    assert.deepEqual(parseCommandLine(['--port', '1', '--help']), { help: true });
  });

  const rejected = {
    'unknown flag': [['--verbose'], /--verbose/],
    'missing value': [['--heartbeat'], /--heartbeat/],
    'positional argument': [['serve'], /serve/],
    'port too large': [['--port', '65536'], /--port/],
    'port not decimal': [['--port', '0x50'], /--port/],
    'port empty': [['--port='], /--port/],
    'heartbeat zero': [['--heartbeat', '0'], /--heartbeat/],
    'heartbeat negative': [['--heartbeat=-1'], /--heartbeat/],
    'heartbeat beyond setTimeout': [['--heartbeat', String(MAX_HEARTBEAT_S + 1)], /--heartbeat/],
    'heartbeat not a number': [['--heartbeat', '1e3'], /--heartbeat/],
    'log level unknown': [['--log-level', 'warn'], /--log-level/],
    'host with a space': [['--host', 'a b'], /--host/],
    'boolean flag given a value': [['--help=yes'], /--help/],
    'naive given a value': [['--naive=1'], /--naive/],
    'compression unknown': [['--compression', 'gzip'], /--compression/],
    'compression missing its value': [['--compression'], /--compression/],
    'session buffer below 1 KiB': [['--max-session-buffer', '1023'], /--max-session-buffer/],
    'session buffer above 2^40': [['--max-session-buffer', String(MAX_SESSION_BUFFER + 1)], /--max-session-buffer/],
    'session buffer with a unit': [['--max-session-buffer', '1M'], /--max-session-buffer/],
    'header timeout zero': [['--header-timeout', '0'], /--header-timeout/],
    'header timeout above an hour': [['--header-timeout', '3601'], /--header-timeout/],
    'max sessions zero': [['--max-sessions', '0'], /--max-sessions/],
    'max sessions above the range': [['--max-sessions', String(MAX_SESSIONS + 1)], /--max-sessions/],
    'max sessions not an integer': [['--max-sessions', '1e3'], /--max-sessions/],
    'sessions zero': [['--sessions', '0'], /--sessions/],
    'sessions above the range': [['--sessions', '10000001'], /--sessions/],
    'sessions not an integer': [['--sessions', '1e3'], /--sessions/],
    'sessions negative': [['--sessions=-5'], /--sessions/],
    'status file in a missing directory': [['--status-file', '/nonexistent-dir/status.json'], /--status-file: .*does not exist/],
    'status file empty': [['--status-file='], /--status-file/],
    'session buffer missing value': [['--max-session-buffer'], /--max-session-buffer/],
    'workers zero': [['--workers', '0'], /--workers/],
    'workers above the maximum': [['--workers', String(MAX_WORKERS + 1)], /--workers/],
    'workers not an integer': [['--workers', '2.5'], /--workers/],
    'broker not redis': [['--broker', 'http://127.0.0.1/0'], /--broker: only redis/],
    'broker not a URL': [['--broker', '127.0.0.1:6379'], /--broker/],
    'broker database out of range': [['--broker', 'redis://127.0.0.1/16'], /--broker: database/],
    'broker database not a number': [['--broker', 'redis://127.0.0.1/x'], /--broker: database/],
    'broker port zero': [['--broker', 'redis://127.0.0.1:0/0'], /--broker: port/],
    'sockjs url empty': [['--sockjs-url='], /--sockjs-url/],
    'sockjs url without a scheme': [['--sockjs-url', 'cdn.example/sockjs.js'], /--sockjs-url/],
    'sockjs url of another scheme': [['--sockjs-url', 'javascript:alert(1)'], /--sockjs-url/],
    'sockjs url breaking out of the attribute': [['--sockjs-url', 'http://x/"><script>'], /--sockjs-url/],
    'sockjs url with a space': [['--sockjs-url', 'http://x/a b'], /--sockjs-url/],
    'broker with credentials': [['--broker', 'redis://u:p@127.0.0.1/0'], /--broker: credentials/],
  };
  for (const [name, [args, message]] of Object.entries(rejected)) {
    it(`rejects: ${name}`, () => {
      assert.throws(() => parseCommandLine(args), (err) => err instanceof UsageError && message.test(err.message));
    });
  }
});

describe('refusal', () => {
  it('refuses several workers without a broker, in one line naming both flags', () => {
    const line = refusal(parseCommandLine(['--workers', '2']));
    assert.match(line, /^--workers 2 needs --broker redis:\/\/HOST:PORT\/DB/);
    assert.ok(!line.includes('\n'));
  });

  it('accepts one worker with or without a broker, and several with one', () => {
    assert.equal(refusal(parseCommandLine([])), null);
    assert.equal(refusal(parseCommandLine(['--broker', 'redis://127.0.0.1'])), null);
    assert.equal(refusal(parseCommandLine(['--workers', '2', '--broker', 'redis://127.0.0.1'])), null);
  });

  it('fills in the broker defaults (port 6379, db 0)', () => {
    assert.equal(parseCommandLine(['--broker', 'redis://localhost']).broker.url, 'redis://localhost:6379/0');
    assert.equal(parseCommandLine(['--broker', 'redis://localhost/']).broker.db, 0);
  });
});
