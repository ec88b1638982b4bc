'use strict';
// A real, private redis-server (Debian's, installed by `make setup-redis`) on
// a free loopback port, for the scale-out tests: started, killed (SIGKILL, as
// a crash), frozen (SIGSTOP) and thawed, restarted on the same port, and always stopped.

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

/** A port the OS just gave out: free now, and unlikely to be handed out again at once. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Send PING over a plain socket; resolves true on +PONG. */
function ping(port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok) => { socket.destroy(); clearTimeout(timer); resolve(ok); };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

class RedisServer {
  /** @returns {Promise<RedisServer>} once it answers PING */
  static async start() {
    if (spawnSync('redis-server', ['--version']).error) {
      throw new Error('redis-server not found: run `make setup-redis` (Debian package redis-server)');
    }
    const server = new RedisServer(await freePort());
    await server.run();
    return server;
  }

  constructor(port) {
    this.port = port;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sockbench-redis-test-'));
    this.child = null;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Start (or restart) on this.port; resolves when it answers PING (at most 5 s). */
  async run() {
    this.child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '',
      '--appendonly', 'no', '--dir', this.dir, '--logfile', path.join(this.dir, 'redis.log')],
    { stdio: 'ignore' });
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.exited = exited;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) break;
      if (await ping(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.child.kill('SIGKILL');
    const log = fs.existsSync(path.join(this.dir, 'redis.log')) ? fs.readFileSync(path.join(this.dir, 'redis.log'), 'utf8') : '';
    throw new Error(`redis-server on port ${this.port} did not answer PING within 5 s: ${log.slice(-300)}`);
  }

  /** SIGKILL, as a crash: no goodbye to its clients. Resolves once it is gone. */
  async crash() {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** SIGSTOP: Redis stays connected but answers nothing (a stalled broker). */
  freeze() {
    this.child.kill('SIGSTOP');
  }

  /** SIGCONT after freeze(): Redis answers what it was sent meanwhile. */
  thaw() {
    this.child.kill('SIGCONT');
  }

  async stop() {
    await this.crash();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

module.exports = { RedisServer };
