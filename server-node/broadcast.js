#!/usr/bin/env node
'use strict';
// The sockbench broadcast server on sockjs-node. The contract it keeps (flags,
// READY line, shutdown, SockJS apps) is docs/protocol.md; see README.md here.

const { parseCommandLine, UsageError, USAGE } = require('./src/cli');
const { createLogger } = require('./src/log');

// The contract allows 2 s from signal to exit; the rest is margin for a busy machine.
const STOP_DEADLINE_MS = 1500;

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
  const { startServer } = require('./src/server');
  const { readyLine } = require('./src/ready-line');
  const logger = createLogger(settings.logLevel);
  startServer(settings, logger).then(
    (running) => {
      const broadcastOptions = running.apps.find((app) => app.prefix === '/broadcast').server.options;
      // Handlers first: whoever reads READY may send SIGTERM at once.
      stopOnSignal(running, logger);
      // Writes to a pipe or file are synchronous in Node on Linux: the line is
      // out before anything else can happen.
      process.stdout.write(readyLine({ ...settings, port: running.port, broadcastOptions }) + '\n');
    },
    (err) => {
      process.stderr.write(`broadcast.js: cannot listen on ${settings.host}:${settings.port}: ${err.message}\n`);
      process.exit(1);
    },
  );
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
