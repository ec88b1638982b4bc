'use strict';
// Preloaded into a server under test (NODE_OPTIONS=--require this file; see
// heapProbeEnv): on SIGUSR2 it runs two full garbage collections and writes
// one line "heap-probe used=<bytes>" on stderr - the live JS heap. RSS alone
// cannot tell a leak from the heap V8 keeps after a peak, and an idle server
// collects no garbage on its own. Test-side instrument only: the server's
// code is unchanged.

const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

process.on('SIGUSR2', () => {
  gc();
  gc();
  process.stderr.write(`heap-probe used=${process.memoryUsage().heapUsed}\n`);
});
