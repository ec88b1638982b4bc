'use strict';
// The READY line of docs/protocol.md §2: the real base URL, then key=value
// tokens that record what is running. Library versions are read from the
// installed packages (the ones sockjs-node really loads), never hard-coded.

const path = require('node:path');
const { CURRENT_RUNTIME } = require('./runtime');

/** Version of `name` as resolved from `fromDir`, i.e. the copy that directory's code loads. */
function installedVersion(name, fromDir) {
  const manifest = require.resolve(`${name}/package.json`, { paths: [fromDir] });
  return { version: require(manifest).version, dir: path.dirname(manifest) };
}

/** Versions of the three packages that carry the protocol: sockjs, and the websocket stack under it. */
function protocolLibraryVersions() {
  const sockjs = installedVersion('sockjs', __dirname);
  const faye = installedVersion('faye-websocket', sockjs.dir);
  const driver = installedVersion('websocket-driver', faye.dir);
  return { sockjs: sockjs.version, 'faye-websocket': faye.version, 'websocket-driver': driver.version };
}

/** http://host:port with IPv6 literals bracketed, no trailing slash. */
function baseUrl(host, port) {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * @param {object} running
 * @param {string} running.host as given on the command line
 * @param {number} running.port the port actually bound (after --port 0)
 * @param {number} running.heartbeatSeconds as configured
 * @param {'fast'|'naive'} running.mode broadcast algorithm of /broadcast
 * @param {'none'|'permessage-deflate'} [running.compression] websocket compression (docs/compression.md)
 * @param {number} running.maxSessionBufferBytes output cap per session, bytes
 * @param {number} running.maxSessions session budget per process (per worker), sessions
 * @param {object} running.broadcastOptions the merged options of the /broadcast sockjs server
 * @param {number} [running.workers] worker processes (1: this process serves)
 * @param {{url: string} | null} [running.broker] the broker joined, or null
 * @param {number[]} [running.workerPids] pids of the processes serving sessions
 *        (the workers; this process when there is one)
 * @param {{name: string, version: string}} [running.runtime] the JavaScript runtime
 *        (src/runtime.js; default: the one running this process)
 */
function readyLine({
  host, port, heartbeatSeconds, mode, maxSessionBufferBytes, maxSessions, broadcastOptions,
  workers = 1, broker = null, workerPids = [process.pid], runtime = CURRENT_RUNTIME, compression = 'none',
}) {
  const fields = {
    server: 'sockjs-node',
    runtime: runtime.name,
    runtime_version: runtime.version,
    ...protocolLibraryVersions(),
    mode,
    compression,
    heartbeat: String(heartbeatSeconds),
    disconnect_delay_ms: String(broadcastOptions.disconnect_delay),
    response_limit: String(broadcastOptions.response_limit),
    max_session_buffer: String(maxSessionBufferBytes),
    max_sessions: String(maxSessions),
    workers: String(workers),
    broker: broker === null ? 'none' : broker.url,
    worker_pids: workerPids.join(','),
  };
  const tokens = Object.entries(fields).map(([key, value]) => `${key}=${encodeValue(value)}`);
  return `READY ${baseUrl(host, port)} ${tokens.join(' ')}`;
}

// Values must not contain spaces (the contract percent-encodes them).
function encodeValue(value) {
  return String(value).replace(/%/g, '%25').replace(/ /g, '%20');
}

// docs/protocol.md §2 as a pattern: the base URL, then single-space-separated
// key=value tokens with contract-shaped keys and non-empty values.
const READY_PATTERN = /^READY (http:\/\/[^/\s]+:\d+)((?: [a-z0-9_.-]+=\S+)*)$/;

/**
 * The one Node parser of a READY line (this package's tests and tools read
 * servers through it; the bench and the conformance suite use
 * docs/contract/sockbench_contract/ready_line.py, the client ReadyLine.java).
 * @param {string} line one stdout line, without or with its newline
 * @returns {{url: string, fields: Object<string, string>} | null} null if the line breaks the contract's shape
 */
function parseReadyLine(line) {
  const match = READY_PATTERN.exec(line.replace(/\r?\n$/, ''));
  if (!match) return null;
  const fields = {};
  for (const token of match[2].split(' ').slice(1)) {
    const eq = token.indexOf('=');
    fields[token.slice(0, eq)] = token.slice(eq + 1);
  }
  return { url: match[1], fields };
}

module.exports = { readyLine, parseReadyLine, baseUrl, protocolLibraryVersions };
