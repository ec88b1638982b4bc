'use strict';
// Start broadcast.js as a real child process on --port 0, wait for its READY
// line, and always stop it again. Every test file goes through here.

const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { parseReadyLine } = require('../../src/ready-line');

const BROADCAST_JS = path.join(__dirname, '..', '..', 'broadcast.js');

/**
 * The command broadcast.js runs under: this test run's own node, or the argv
 * prefix in SOCKBENCH_TEST_RUNTIME (a JSON array, e.g. ["/path/to/bun"] or
 * ["/path/to/deno", "run", "--allow-net", ...]) to hold another runtime to the same tests.
 */
const RUNTIME_COMMAND = process.env.SOCKBENCH_TEST_RUNTIME
  ? JSON.parse(process.env.SOCKBENCH_TEST_RUNTIME) : [process.execPath];

/** argv (program first) that runs broadcast.js with `args` on `runtime`. */
function serverArgv(args, runtime = RUNTIME_COMMAND) {
  return [...runtime, BROADCAST_JS, ...args];
}

/**
 * @param {string[]} [extraArgs] flags after `--port 0`
 * @param {object} [options]
 * @param {number} [options.readyTimeoutMs] how long to wait for READY, ms (generous: the machine is shared)
 * @param {string[]} [options.runtime] argv prefix of the runtime (default: RUNTIME_COMMAND)
 * @returns {Promise<RunningServer>}
 */
async function startServer(extraArgs = [], { readyTimeoutMs = 20000, runtime = RUNTIME_COMMAND } = {}) {
  return startCommand(serverArgv(['--port', '0', ...extraArgs], runtime), { readyTimeoutMs });
}

/**
 * Start any server command line (program first, e.g. a registry entry's launch
 * plus `--port 0`) and wait for its READY line.
 * @param {string[]} argv
 * @param {object} [options]
 * @param {number} [options.readyTimeoutMs] how long to wait for READY, ms
 * @returns {Promise<RunningServer>}
 */
async function startCommand(argv, { readyTimeoutMs = 20000 } = {}) {
  const [program, ...args] = argv;
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const server = new RunningServer(child);
  try {
    await server.waitForReady(readyTimeoutMs);
  } catch (err) {
    await server.kill();
    throw err;
  }
  return server;
}

class RunningServer {
  constructor(child) {
    this.child = child;
    this.stdoutLines = [];
    this.stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => { this.stderr += text; });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    });
    this._lines = readline.createInterface({ input: child.stdout });
    this._lines.on('line', (line) => this.stdoutLines.push(line));
  }

  waitForReady(timeoutMs) {
    return new Promise((resolve, reject) => {
      const fail = (why) => {
        clearTimeout(timer);
        reject(new Error(`${why}; stdout=${JSON.stringify(this.stdoutLines)} stderr=${JSON.stringify(this.stderr)}`));
      };
      const timer = setTimeout(() => fail(`no READY line within ${timeoutMs} ms`), timeoutMs);
      this.child.once('exit', (code) => fail(`server exited with ${code} before READY`));
      this._lines.once('line', (line) => {
        clearTimeout(timer);
        const ready = parseReadyLine(line);
        if (!ready) return fail(`first stdout line is not a READY line: ${JSON.stringify(line)}`);
        this.readyLine = line;
        this.url = ready.url;
        this.fields = ready.fields;
        resolve();
      });
    });
  }

  /**
   * Wait until at least `count` stderr lines match `pattern`; stderr arrives
   * through its own pipe, so it may trail what the sockets already showed.
   * @returns {Promise<string[]>} the matching lines
   */
  async stderrLines(pattern, count, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = this.stderr.split('\n').filter((line) => pattern.test(line));
      if (lines.length >= count || Date.now() > deadline) return lines;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** ws://host:port form of the base URL. */
  get wsUrl() {
    return this.url.replace(/^http:/, 'ws:');
  }

  /** Send `signal` and wait for the exit (SIGKILL after `timeoutMs`). */
  async stop(signal = 'SIGTERM', timeoutMs = 10000) {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.exited;
    const sentAt = Date.now();
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return { ...exit, elapsedMs: exit.at - sentAt };
  }

  kill() {
    return this.stop('SIGKILL');
  }
}

module.exports = { startServer, startCommand, serverArgv, RUNTIME_COMMAND, BROADCAST_JS };
