'use strict';
// --workers N (> 1): this process becomes the node:cluster primary. It serves
// no sessions itself: it forks N workers running this same script, which
// listen on one shared port, and in round-robin scheduling (set explicitly
// here; node's default on Linux, but the spread over workers is part of what
// the tests check) the primary accepts each connection and hands the socket
// to the next worker. The workers meet through the broker (src/relay.js).
//
// The primary keeps the contract for the whole group (docs/protocol.md §2-§3):
// one READY line, once every worker accepts connections; on SIGTERM/SIGINT
// every worker says goodbye to its sessions and all processes are gone within
// 2 s; a worker that dies takes the group down (exit 1) rather than leaving a
// server that silently serves a part of its clients.

const cluster = require('node:cluster');

/** Environment variable that tells a forked worker its index (1..N). */
const WORKER_INDEX_ENV = 'SOCKBENCH_WORKER_INDEX';

/**
 * @param {object} settings parsed command line (workers > 1, broker set)
 * @param {ReturnType<import('./log').createLogger>} logger
 * @param {object} hooks
 * @param {(ready: {port: number, broadcastOptions: object, workerPids: number[]}) => void} hooks.onReady
 *        called once, when every worker listens
 * @param {number} hooks.killDeadlineMs after this long the primary SIGKILLs what is left and exits, ms
 */
function runPrimary(settings, logger, { onReady, killDeadlineMs }) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ args: process.argv.slice(2) });
  const ready = new Map(); // worker.id -> message
  let announced = false;
  let stopping = false;

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
    if (!message || message.type !== 'sockbench-ready' || stopping) return;
    ready.set(worker.id, message);
    if (!announced && ready.size === settings.workers) {
      announced = true;
      const first = [...ready.values()][0];
      onReady({
        port: first.port,
        broadcastOptions: first.broadcastOptions,
        workerPids: [...ready.values()].sort((a, b) => a.index - b.index).map((m) => m.pid),
      });
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `exit status ${code}`;
    // A worker that failed at start has said why on stderr already.
    process.stderr.write(`broadcast.js: worker pid ${worker.process.pid} ended (${how}) ` +
      `${announced ? 'while serving' : 'before accepting connections'}; stopping all workers\n`);
    stopAll(1);
  });

  const onSignal = (signal) => {
    logger.info(`${signal}: stopping ${settings.workers} workers`);
    stopAll(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  for (let index = 1; index <= settings.workers; index += 1) {
    cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
  }
}

module.exports = { runPrimary, WORKER_INDEX_ENV };
