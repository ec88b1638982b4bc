'use strict';
// The command line of docs/protocol.md §1, parsed with Node's own util.parseArgs.
// parseCommandLine() never exits or prints: it returns the settings or throws a
// UsageError, so broadcast.js decides what reaches stdout/stderr and the exit code.

const { parseArgs } = require('node:util');
const { parseBrokerUrl, BrokerUrlError } = require('./broker-url');
const { statusFileProblem } = require('./status-file');
const {
  DEFAULT_MAX_SESSIONS, MIN_SESSIONS, MAX_SESSIONS, maxSessionsForShare,
} = require('./session-budget-default');
const { MIN_EXPECTED_SESSIONS, MAX_EXPECTED_SESSIONS, SPARE, share } = require('./open-files');

const LOG_LEVELS = ['debug', 'info', 'warning', 'error'];

// setTimeout() silently turns delays above 2^31-1 ms into 1 ms, so a larger
// heartbeat would make sockjs-node heartbeat continuously instead of rarely.
const MAX_HEARTBEAT_S = Math.floor((2 ** 31 - 1) / 1000);

// Same range as server-python's --max-session-buffer.
const MIN_SESSION_BUFFER = 1024;
const MAX_SESSION_BUFFER = 2 ** 40;

// Same range as server-python's --header-timeout: a timeout of hours protects nothing.
const MAX_HEADER_TIMEOUT_S = 3600;

// What sockjs-node 0.3.24 puts in /iframe.html when not told otherwise.
const SOCKJS_NODE_DEFAULT_URL = 'https://cdn.jsdelivr.net/npm/sockjs-client@1/dist/sockjs.min.js';

// sockjs-node writes the URL into <script src="..."> unescaped: allow only
// what needs no escaping there.
const SOCKJS_URL_RE = /^(https?:\/\/[^\s"<>]+|\/[^\s"<>]*)$/;
const MAX_SOCKJS_URL_CHARS = 2048;

// Websocket compression (docs/compression.md): RFC 7692 permessage-deflate, or none.
const COMPRESSIONS = ['none', 'permessage-deflate'];

// Worker processes: one per core is the useful maximum; 64 bounds a typo.
const MAX_WORKERS = 64;

const USAGE = `usage: node server-node/broadcast.js [--host HOST] [--port PORT]
                                    [--heartbeat SECONDS] [--log-level LEVEL]
                                    [--naive] [--compression none|permessage-deflate]
                                    [--max-session-buffer BYTES]
                                    [--max-sessions N] [--sessions N]
                                    [--header-timeout SECONDS] [--workers N]
                                    [--broker redis://HOST:PORT/DB] [--status-file PATH]
                                    [--sockjs-url URL] [--help]

The sockbench broadcast app (and the SockJS conformance apps) on sockjs-node.
Prints one line "READY http://HOST:PORT key=value ..." on stdout once it accepts
connections; SIGTERM/SIGINT closes every session and exits 0 (docs/protocol.md).

  --host HOST          address to listen on (IPv4/IPv6 literal or name; default 127.0.0.1)
  --port PORT          TCP port, integer 0-65535; 0 lets the OS pick (default 8080)
  --heartbeat SECONDS  SockJS heartbeat interval in seconds, number in (0, ${MAX_HEARTBEAT_S}]
                       (default 25)
  --log-level LEVEL    ${LOG_LEVELS.join(', ')} (default warning); logs go to stderr
  --naive              straightforward broadcast: one conn.write per message per
                       recipient, as sockjs-node's own test server does (the
                       baseline); default is fast: one a[...] frame per loop turn,
                       encoded once and handed to every session
  --compression none|permessage-deflate
                       websocket compression: permessage-deflate (RFC 7692, the
                       npm permessage-deflate extension in faye-websocket) is
                       accepted when a client offers it, and every message to
                       that session is then compressed with its own zlib context
                       (docs/compression.md; default none)
  --max-session-buffer BYTES
                       unsent output one session may hold (its socket's unsent
                       bytes plus sockjs-node's queue) before it is closed as a
                       client that does not read (c[1008,...]); integer
                       ${MIN_SESSION_BUFFER} to 2^40 (default 1048576 = 1 MiB)
  --max-sessions N     sessions one process may hold, every app and transport
                       together (websockets too); a request that would create one
                       more is answered HTTP 503; integer ${MIN_SESSIONS}-${MAX_SESSIONS}
                       (default ${DEFAULT_MAX_SESSIONS}, per worker: README "Session budget")
  --sessions N         sessions the server (every worker together) is expected to
                       hold, integer ${MIN_EXPECTED_SESSIONS}-${MAX_EXPECTED_SESSIONS}: refuses to start (one line, exit 2)
                       when one process's share, ceil(N / workers) + ${SPARE}, exceeds the
                       open-files limit; without --max-sessions the session budget
                       grows to hold that share (default: none, no check)
  --header-timeout SECONDS
                       a connection must send its complete request headers, and a
                       websocket client complete its handshake, within this time or
                       is cut off (slow clients); number in (0, ${MAX_HEADER_TIMEOUT_S}] (default 10)
  --workers N          worker processes sharing the port (node:cluster), integer
                       1-${MAX_WORKERS} (default 1); more than 1 needs --broker and serves
                       websocket transports only (docs/scaling-out.md)
  --broker URL         redis://HOST[:PORT][/DB] (port 6379, db 0 by default): every
                       process given the same Redis and DB is one broadcast domain
                       (default: none, this process only)
  --status-file PATH   keep {"supervisor_pid", "worker_pids", "restarts"} (JSON) in PATH,
                       replaced atomically whenever a worker is replaced (its directory
                       must exist and be writable; removed at exit; default: none)
  --sockjs-url URL     where every app's /iframe.html loads sockjs-client from (the
                       iframe transports need the version the page runs): an http(s)
                       URL or a path starting with /, at most 2048 characters
                       (default: sockjs-node's, ${SOCKJS_NODE_DEFAULT_URL})
  --help               print this help and exit
`;

const DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  port: 8080,
  heartbeatSeconds: 25,
  logLevel: 'warning',
  mode: 'fast',
  compression: 'none',
  maxSessionBufferBytes: 1024 * 1024,
  workers: 1,
  broker: null,
  maxSessions: DEFAULT_MAX_SESSIONS,
  sessions: null,
  headerTimeoutSeconds: 10,
  statusFile: null,
  sockjsUrl: SOCKJS_NODE_DEFAULT_URL,
});

/** A command line that cannot be run: the message names the offending flag. */
class UsageError extends Error {}

/**
 * @param {string[]} argv arguments after the script name (process.argv.slice(2))
 * @returns {{help: true} | {help: false, host: string, port: number,
 *           heartbeatSeconds: number, logLevel: string, mode: 'fast'|'naive',
 *           compression: 'none'|'permessage-deflate',
 *           maxSessionBufferBytes: number, workers: number,
 *           broker: import('./broker-url').BrokerAddress | null,
 *           maxSessions: number, sessions: number | null, headerTimeoutSeconds: number,
 *           statusFile: string | null}}
 * @throws {UsageError} on an unknown flag, a missing value, a positional
 *         argument or a value out of range
 */
function parseCommandLine(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        heartbeat: { type: 'string' },
        'log-level': { type: 'string' },
        naive: { type: 'boolean' },
        compression: { type: 'string' },
        'max-session-buffer': { type: 'string' },
        workers: { type: 'string' },
        broker: { type: 'string' },
        'max-sessions': { type: 'string' },
        sessions: { type: 'string' },
        'header-timeout': { type: 'string' },
        'status-file': { type: 'string' },
        'sockjs-url': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    // parseArgs' own messages already name the flag ("Unknown option '--prot'").
    throw new UsageError(err.message);
  }
  if (values.help) return { help: true };

  const workers = parseWorkers(values.workers);
  const sessions = parseSessions(values.sessions);
  return {
    help: false,
    host: parseHost(values.host),
    port: parsePort(values.port),
    heartbeatSeconds: parseHeartbeat(values.heartbeat),
    logLevel: parseLogLevel(values['log-level']),
    mode: values.naive ? 'naive' : DEFAULTS.mode,
    compression: parseCompression(values.compression),
    maxSessionBufferBytes: parseSessionBuffer(values['max-session-buffer']),
    workers,
    broker: parseBroker(values.broker),
    maxSessions: parseMaxSessions(values['max-sessions'], sessions, workers),
    sessions,
    headerTimeoutSeconds: parseHeaderTimeout(values['header-timeout']),
    statusFile: parseStatusFile(values['status-file']),
    sockjsUrl: parseSockjsUrl(values['sockjs-url']),
  };
}

/**
 * A combination of valid flags this server will not run, as one line; null if fine.
 * Kept apart from parseCommandLine so broadcast.js can say it in one line
 * (not a usage error: each flag on its own is well-formed).
 */
function refusal({ workers, broker }) {
  if (workers > 1 && broker === null) {
    return `--workers ${workers} needs --broker redis://HOST:PORT/DB: without a broker each worker ` +
      `would broadcast to its own sessions only`;
  }
  return null;
}

function parseCompression(text) {
  if (text === undefined) return DEFAULTS.compression;
  if (!COMPRESSIONS.includes(text)) {
    throw new UsageError(`--compression: expected one of ${COMPRESSIONS.join(', ')}, got ${JSON.stringify(text)}`);
  }
  return text;
}

function parseWorkers(text) {
  if (text === undefined) return DEFAULTS.workers;
  const workers = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(workers >= 1 && workers <= MAX_WORKERS)) {
    throw new UsageError(`--workers: expected an integer 1-${MAX_WORKERS}, got ${JSON.stringify(text)}`);
  }
  return workers;
}

// Without --max-sessions, --sessions N sizes the budget to this process's share.
function parseMaxSessions(text, expectedSessions, workers) {
  if (text === undefined) {
    return expectedSessions === null ? DEFAULTS.maxSessions : maxSessionsForShare(share(expectedSessions, workers));
  }
  const sessions = /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(sessions >= MIN_SESSIONS && sessions <= MAX_SESSIONS)) {
    throw new UsageError(`--max-sessions: expected an integer ${MIN_SESSIONS}-${MAX_SESSIONS} (sessions), ` +
      `got ${JSON.stringify(text)}`);
  }
  return sessions;
}

function parseSessions(text) {
  if (text === undefined) return DEFAULTS.sessions;
  const sessions = /^[0-9]{1,8}$/.test(text) ? Number(text) : NaN;
  if (!(sessions >= MIN_EXPECTED_SESSIONS && sessions <= MAX_EXPECTED_SESSIONS)) {
    throw new UsageError(`--sessions: expected an integer ${MIN_EXPECTED_SESSIONS}-${MAX_EXPECTED_SESSIONS} ` +
      `(sessions of all workers together), got ${JSON.stringify(text)}`);
  }
  return sessions;
}

function parseStatusFile(text) {
  if (text === undefined) return DEFAULTS.statusFile;
  const problem = text === '' ? 'empty path' : statusFileProblem(text);
  if (problem !== null) throw new UsageError(`--status-file: ${problem}`);
  return text;
}

function parseSockjsUrl(text) {
  if (text === undefined) return DEFAULTS.sockjsUrl;
  if (text.length > MAX_SOCKJS_URL_CHARS || !SOCKJS_URL_RE.test(text)) {
    throw new UsageError(`--sockjs-url: expected an http:// or https:// URL or a path starting with / ` +
      `(at most ${MAX_SOCKJS_URL_CHARS} characters; no spaces, quotes or angle brackets), got ${JSON.stringify(text)}`);
  }
  return text;
}

function parseBroker(text) {
  if (text === undefined) return DEFAULTS.broker;
  try {
    return parseBrokerUrl(text);
  } catch (err) {
    if (err instanceof BrokerUrlError) throw new UsageError(`--broker: ${err.message}`);
    throw err;
  }
}

function parseSessionBuffer(text) {
  if (text === undefined) return DEFAULTS.maxSessionBufferBytes;
  const bytes = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(bytes >= MIN_SESSION_BUFFER && bytes <= MAX_SESSION_BUFFER)) {
    throw new UsageError(`--max-session-buffer: expected an integer ${MIN_SESSION_BUFFER}-${MAX_SESSION_BUFFER} ` +
      `(bytes), got ${JSON.stringify(text)}`);
  }
  return bytes;
}

function parseHost(text) {
  if (text === undefined) return DEFAULTS.host;
  if (text === '' || /\s/.test(text)) {
    throw new UsageError(`--host: expected an address or host name, got ${JSON.stringify(text)}`);
  }
  return text;
}

function parsePort(text) {
  if (text === undefined) return DEFAULTS.port;
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`--port: expected an integer 0-65535, got ${JSON.stringify(text)}`);
  }
  return port;
}

function parseHeaderTimeout(text) {
  if (text === undefined) return DEFAULTS.headerTimeoutSeconds;
  const seconds = plainDecimal(text);
  if (!(seconds > 0 && seconds <= MAX_HEADER_TIMEOUT_S)) {
    throw new UsageError(
      `--header-timeout: expected seconds, a number in (0, ${MAX_HEADER_TIMEOUT_S}], got ${JSON.stringify(text)}`);
  }
  return seconds;
}

// Number('') is 0 and Number('0x10') is 16: accept plain decimals only.
function plainDecimal(text) {
  return /^[0-9]*\.?[0-9]+$|^[0-9]+\.$/.test(text) ? Number(text) : NaN;
}

function parseHeartbeat(text) {
  if (text === undefined) return DEFAULTS.heartbeatSeconds;
  const seconds = plainDecimal(text);
  if (!(seconds > 0 && seconds <= MAX_HEARTBEAT_S)) {
    throw new UsageError(
      `--heartbeat: expected seconds, a number in (0, ${MAX_HEARTBEAT_S}], got ${JSON.stringify(text)}`);
  }
  return seconds;
}

function parseLogLevel(text) {
  if (text === undefined) return DEFAULTS.logLevel;
  if (!LOG_LEVELS.includes(text)) {
    throw new UsageError(`--log-level: expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(text)}`);
  }
  return text;
}

module.exports = {
  parseCommandLine, refusal, UsageError, USAGE, DEFAULTS, LOG_LEVELS, MAX_HEARTBEAT_S,
  MIN_SESSION_BUFFER, MAX_SESSION_BUFFER, MAX_WORKERS, MAX_HEADER_TIMEOUT_S,
};
