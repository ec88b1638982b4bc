#!/usr/bin/env node
'use strict';
// The sockbench broadcast server on sockjs-node. The contract it keeps (flags,
// READY line, shutdown, SockJS apps) is docs/protocol.md; see README.md here.
//
// One process by default. With --workers N > 1 this script runs as the
// node:cluster primary (src/cluster-primary.js) and again as each worker;
// with --broker every process joins the broadcast domain of that Redis
// (src/relay.js).

const cluster = require('node:cluster');
const { parseCommandLine, refusal, UsageError, USAGE } = require('./src/cli');
const { createLogger } = require('./src/log');
const { CURRENT_RUNTIME, clusterRefusal } = require('./src/runtime');
const { WORKER_INDEX_ENV, STANDBY_ENV } = require('./src/cluster-primary');

// The contract allows 2 s from signal to exit; the rest is margin for a busy
// machine. With workers, each gets STOP_DEADLINE_MS for its goodbyes and the
// primary kills whatever is left at KILL_DEADLINE_MS.
const STOP_DEADLINE_MS = 1500;
const KILL_DEADLINE_MS = 1800;

function main(argv) {
  let settings;
  try {
    settings = parseCommandLine(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`broadcast.js: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (settings.help) {
    process.stdout.write(USAGE);
    return;
  }
  const refused = refusal(settings) ?? clusterRefusal(CURRENT_RUNTIME, settings.workers);
  if (refused !== null) {
    process.stderr.write(`broadcast.js: ${refused}\n`);
    process.exit(2);
  }
  if (settings.sessions !== null) checkOpenFiles(settings.sessions, settings.workers);

  // Loaded only now, so --help and usage errors work before `make setup`
  // has installed node_modules.
  const { assertSupportedSockjs, UnsupportedSockjsError } = require('./src/sockjs-internals');
  try {
    assertSupportedSockjs();
  } catch (err) {
    if (!(err instanceof UnsupportedSockjsError)) throw err;
    process.stderr.write(`broadcast.js: ${err.message}\n`);
    process.exit(1);
  }
  if (cluster.isPrimary && settings.workers > 1) runClusterPrimary(settings);
  else if (cluster.isWorker && process.env[STANDBY_ENV] === '1') runStandby(settings);
  else runServingProcess(settings);
}

// --sessions N: before anything listens or forks, one line and exit 2 when one
// serving process's share does not fit the open-files limit (src/open-files.js).
function checkOpenFiles(sessions, workers) {
  const { ownSoftLimit, refusalLine } = require('./src/open-files');
  const { limit, unreadable } = ownSoftLimit();
  if (unreadable !== undefined) {
    process.stderr.write(`broadcast.js: cannot read the open-files limit here (${unreadable}); ` +
      `--sessions ${sessions} taken as is\n`);
    return;
  }
  const refused = refusalLine('broadcast.js', sessions, workers, limit);
  if (refused !== null) {
    process.stderr.write(`${refused}\n`);
    process.exit(2);
  }
}

// A standby worker (src/cluster-primary.js): everything a worker needs
// loaded, then nothing until the primary names the worker it replaces.
function runStandby(settings) {
  require('./src/server');
  require('./src/ready-line');
  if (settings.broker !== null) require('./src/relay');
  const worker = cluster.worker;
  const quit = () => process.exit(0);
  process.on('SIGTERM', quit);
  process.on('SIGINT', quit);
  worker.on('disconnect', quit); // the primary is gone
  worker.on('message', (message) => {
    if (!message || message.type !== 'sockbench-serve') return;
    process.off('SIGTERM', quit);
    process.off('SIGINT', quit);
    worker.off('disconnect', quit);
    process.env[WORKER_INDEX_ENV] = String(message.index);
    runServingProcess(settings);
  });
  process.send({ type: 'sockbench-standby' });
}

// The primary checks the broker once before forking, so an unreachable Redis
// is one line and exit 1, not one line per worker.
async function runClusterPrimary(settings) {
  const logger = createLogger(settings.logLevel);
  await checkBroker(settings.broker, logger);
  const { runPrimary } = require('./src/cluster-primary');
  const { readyLine } = require('./src/ready-line');
  const { createStatusFile } = require('./src/status-file');
  runPrimary(settings, logger, {
    killDeadlineMs: KILL_DEADLINE_MS,
    statusFile: createStatusFile(settings.statusFile),
    onReady: ({ port, broadcastOptions, workerPids }) => {
      process.stdout.write(readyLine({ ...settings, port, broadcastOptions, workerPids }) + '\n');
    },
  });
}

async function checkBroker(broker, logger) {
  const { RedisRelay, BrokerUnreachableError } = require('./src/relay');
  const probe = new RedisRelay({ broker, logger });
  try {
    await probe.start();
  } catch (err) {
    if (!(err instanceof BrokerUnreachableError)) throw err;
    process.stderr.write(`broadcast.js: ${err.message}\n`);
    process.exit(1);
  }
  probe.stop();
}

// A single server process, or one worker of the cluster: the apps, the
// relay when there is a broker, and the stop sequence.
async function runServingProcess(settings) {
  const worker = cluster.isWorker ? cluster.worker : null;
  const tag = worker ? `worker ${process.env[WORKER_INDEX_ENV]}/${settings.workers} pid ${process.pid}: ` : '';
  const logger = createLogger(settings.logLevel, undefined, tag);
  let relay = null;
  if (settings.broker !== null) {
    const { RedisRelay, BrokerUnreachableError } = require('./src/relay');
    relay = new RedisRelay({ broker: settings.broker, logger });
    try {
      await relay.start();
    } catch (err) {
      if (!(err instanceof BrokerUnreachableError)) throw err;
      process.stderr.write(`broadcast.js: ${tag}${err.message}\n`);
      process.exit(1);
    }
  }
  const { startServer } = require('./src/server');
  let running;
  try {
    running = await startServer(settings, logger, relay);
  } catch (err) {
    process.stderr.write(`broadcast.js: ${tag}cannot listen on ${settings.host}:${settings.port}: ${err.message}\n`);
    process.exit(1);
  }
  const broadcastOptions = running.apps.find((app) => app.prefix === '/broadcast').server.options;
  // Handlers first: whoever reads READY may send SIGTERM at once.
  stopOnSignal(running, logger);
  if (worker) {
    // The primary prints READY once every worker has said this.
    process.send({
      type: 'sockbench-ready', port: running.port, broadcastOptions, pid: process.pid,
      index: Number(process.env[WORKER_INDEX_ENV]),
    });
    // The primary is gone (killed): do not outlive it.
    worker.on('disconnect', () => running.stop(STOP_DEADLINE_MS).then(() => process.exit(0)));
    return;
  }
  // --status-file with one process: its own pid, once, before READY.
  const statusFile = require('./src/status-file').createStatusFile(settings.statusFile);
  statusFile.write({ supervisorPid: process.pid, workerPids: [process.pid], restarts: 0 });
  process.on('exit', () => statusFile.remove());
  const { readyLine } = require('./src/ready-line');
  // Writes to a pipe or file are synchronous in Node on Linux: the line is
  // out before anything else can happen.
  process.stdout.write(readyLine({ ...settings, port: running.port, broadcastOptions }) + '\n');
}

function stopOnSignal(running, logger) {
  let stopping = false;
  const onSignal = (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    running.stop(STOP_DEADLINE_MS).then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main(process.argv.slice(2));
