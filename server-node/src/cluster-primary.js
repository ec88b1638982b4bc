'use strict';
// --workers N (> 1): this process becomes the node:cluster primary. It serves
// no sessions itself: it forks N workers running this same script, which
// listen on one shared port, and in round-robin scheduling (set explicitly
// here; node's default on Linux, but the spread over workers is part of what
// the tests check) the primary accepts each connection and hands the socket
// to the next worker. The workers meet through the broker (src/relay.js).
//
// The primary keeps the contract for the whole group (docs/protocol.md §2-§3,
// §6.2): one READY line, once every worker accepts connections; on
// SIGTERM/SIGINT every worker says goodbye to its sessions and all processes
// are gone within 2 s. A worker that dies while the group serves is replaced
// by a new one of the same index, as every process manager does: its own
// sessions are lost (SockJS clients reconnect), nobody else's notice, since
// the primary keeps the listening socket and hands new connections to the
// workers alive. A worker that keeps dying (crash loop) would make restarting
// pointless, so that stops the whole server. A worker that dies before the
// first READY stops the server too: that is a start failure (port, broker),
// and the worker has said why.
//
// The replacement must accept connections within 1 s of the death. A freshly
// forked Node process needs 0.3-0.7 s just to start and load sockjs-node and
// ioredis on a busy 2-core machine, so once the group serves the primary
// keeps one standby worker: forked, modules loaded, no socket, no broker
// connection, no sessions. A death promotes it (it connects to the broker
// and listens: tens of ms) and a new standby is forked once the promoted
// worker accepts connections. The standby is not a serving process: it is in
// neither worker_pids nor the status file.

const cluster = require('node:cluster');
const os = require('node:os');
const { CrashLoopWatch } = require('./crash-loop');

/** Environment variable that tells a forked worker its index (1..N). */
const WORKER_INDEX_ENV = 'SOCKBENCH_WORKER_INDEX';
/** Environment variable that makes a forked worker a standby (value '1'). */
const STANDBY_ENV = 'SOCKBENCH_WORKER_STANDBY';

/**
 * @param {object} settings parsed command line (workers > 1, broker set)
 * @param {ReturnType<import('./log').createLogger>} logger
 * @param {object} hooks
 * @param {(ready: {port: number, broadcastOptions: object, workerPids: number[]}) => void} hooks.onReady
 *        called once, when every worker listens
 * @param {number} hooks.killDeadlineMs after this long the primary SIGKILLs what is left and exits, ms
 * @param {ReturnType<import('./status-file').createStatusFile>} hooks.statusFile
 *        rewritten whenever the set of accepting workers changes, removed at exit
 */
function runPrimary(settings, logger, { onReady, killDeadlineMs, statusFile }) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ args: process.argv.slice(2) });
  const indexOf = new Map(); // worker.id -> index 1..N
  const accepting = new Map(); // index -> ready message of the worker serving it now
  const crashLoop = new CrashLoopWatch();
  let standby = null; // {worker, loaded}: the next replacement, or null
  let restarts = 0;
  let announced = false;
  let stopping = false;

  const label = (index) => `worker ${index}/${settings.workers}`;
  const fork = (index) => indexOf.set(cluster.fork({ [WORKER_INDEX_ENV]: String(index) }).id, index);
  const forkStandby = () => { standby = { worker: cluster.fork({ [STANDBY_ENV]: '1' }), loaded: false }; };
  // The worker of `index` is dead: the standby takes its place if it is
  // ready to, else a new worker starts from scratch.
  const replace = (index) => {
    if (standby !== null && standby.loaded) {
      indexOf.set(standby.worker.id, index);
      standby.worker.send({ type: 'sockbench-serve', index });
      standby = null;
    } else {
      fork(index);
    }
  };
  const writeStatus = () => statusFile.write({
    supervisorPid: process.pid,
    workerPids: [...accepting.keys()].sort((a, b) => a - b).map((index) => accepting.get(index).pid),
    restarts,
  });
  process.on('exit', () => statusFile.remove());

  const stopAll = (exitCode) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers);
    for (const worker of workers) worker.process.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGKILL');
      logger.info(`stop: workers still running after ${killDeadlineMs} ms were killed`);
      process.exit(exitCode);
    }, killDeadlineMs);
    const checkDone = () => {
      if (Object.keys(cluster.workers).length === 0) {
        clearTimeout(killer);
        process.exit(exitCode);
      }
    };
    cluster.on('exit', checkDone);
    checkDone();
  };

  cluster.on('message', (worker, message) => {
    if (!message || stopping) return;
    if (message.type === 'sockbench-standby' && standby !== null && standby.worker === worker) {
      standby.loaded = true;
      return;
    }
    if (message.type !== 'sockbench-ready') return;
    accepting.set(indexOf.get(worker.id), message);
    if (announced) {
      writeStatus();
      if (standby === null) forkStandby();
      return;
    }
    if (accepting.size === settings.workers) {
      announced = true;
      const first = accepting.get(1);
      writeStatus();
      forkStandby();
      onReady({
        port: first.port,
        broadcastOptions: first.broadcastOptions,
        workerPids: [...accepting.keys()].sort((a, b) => a - b).map((index) => accepting.get(index).pid),
      });
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const pid = worker.process.pid;
    const cause = signal ? `signal ${os.constants.signals[signal] ?? signal}` : `exit status ${code}`;
    if (standby !== null && standby.worker === worker) {
      // A standby serves nobody, but one that keeps dying is a crash loop all the same.
      standby = null;
      const deaths = crashLoop.death(Date.now());
      if (deaths !== null) {
        process.stderr.write(`broadcast.js: ${deaths} worker deaths within ${crashLoop.windowMs / 1000} s ` +
          `(last: standby worker pid ${pid}, ${cause}); stopping the server\n`);
        stopAll(1);
        return;
      }
      process.stderr.write(`broadcast.js: standby worker pid ${pid} ended (${cause}); starting another\n`);
      forkStandby();
      return;
    }
    const index = indexOf.get(worker.id);
    indexOf.delete(worker.id);
    if (!announced) {
      // A worker that failed at start has said why on stderr already.
      process.stderr.write(`broadcast.js: ${label(index)} pid ${pid} ended (${cause}) ` +
        'before accepting connections; stopping all workers\n');
      stopAll(1);
      return;
    }
    if (accepting.get(index)?.pid === pid) {
      accepting.delete(index);
      writeStatus();
    }
    const deaths = crashLoop.death(Date.now());
    if (deaths !== null) {
      process.stderr.write(`broadcast.js: ${deaths} worker deaths within ${crashLoop.windowMs / 1000} s ` +
        `(last: ${label(index)} pid ${pid}, ${cause}); stopping the server\n`);
      stopAll(1);
      return;
    }
    restarts += 1;
    process.stderr.write(`broadcast.js: ${label(index)} pid ${pid} ended (${cause}); ` +
      `restarting it (restarts so far: ${restarts})\n`);
    writeStatus();
    replace(index);
  });

  const onSignal = (signal) => {
    logger.info(`${signal}: stopping ${settings.workers} workers`);
    stopAll(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  for (let index = 1; index <= settings.workers; index += 1) fork(index);
}

module.exports = { runPrimary, WORKER_INDEX_ENV, STANDBY_ENV };
