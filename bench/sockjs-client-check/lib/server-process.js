'use strict';
// One server of the registry as a child process: started with --port 0, its
// URL and facts read from the READY line (docs/protocol.md §2), stopped with
// SIGTERM (§3) and killed if it outlives the contract's 2 s by far.

const { spawn } = require('node:child_process');

const READY_TIMEOUT_MS = 30000; // PyPy and Deno start in seconds on a loaded 2-core machine
const STOP_GRACE_MS = 5000;
const STDERR_KEPT_CHARS = 4000;

/** `READY <base-url> key=value ...` -> {url, fields}; throws on anything else. */
function parseReady(line) {
  const [word, url, ...pairs] = line.split(' ');
  if (word !== 'READY' || !/^http:\/\/\S+:\d+$/.test(url || '')) {
    throw new Error(`not a READY line: ${JSON.stringify(line)}`);
  }
  const fields = {};
  for (const pair of pairs) {
    const m = /^([a-z0-9_.-]+)=(\S*)$/.exec(pair);
    if (!m) throw new Error(`READY token ${JSON.stringify(pair)} is not key=value`);
    fields[m[1]] = m[2];
  }
  return { url, fields };
}

/**
 * Start argv and wait for its READY line.
 * @returns {Promise<{url: string, fields: object, stderr: () => string, stop: () => Promise<number|string>}>}
 */
function startServer(argv) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS); });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal || code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    const fail = async (why) => {
      clearTimeout(timer);
      await stop();
      reject(new Error(`${why}; stderr: ${stderr.trim().split('\n').slice(-5).join(' | ') || '(empty)'}`));
    };
    const timer = setTimeout(() => fail(`no READY line within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    child.on('error', (err) => fail(`cannot run ${argv[0]}: ${err.message}`));
    const exitedEarly = (code, signal) => fail(`exited (${signal || code}) before its READY line`);
    child.on('exit', exitedEarly);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.removeListener('exit', exitedEarly);
      try {
        const { url, fields } = parseReady(stdout.slice(0, end));
        resolve({ url, fields, stderr: () => stderr, stop });
      } catch (err) {
        fail(err.message);
      }
    });
  });
}

module.exports = { startServer, parseReady };
