#!/usr/bin/env node
'use strict';
// Converts the published chart data of the 2011 SockJS broadcast benchmark
// ("SockJS benchmark", 15 Dec 2011; repository mrjoes/mrjoes.github.com,
// files shared/posts/sockjs-bench/<server>_{sent,recv}.json) into one
// sockbench.historic/1 file per server under results/historic/2011/, so the
// site can draw 2011 beside today. Run once; the output is committed.
//
//   node results/historic/convert-2011.js SOURCE_DIR [OUT_DIR]
//
// SOURCE_DIR holds the original files unchanged (node_sent.json, …). The
// series are copied as published (x = msgs/s sent or received by all
// clients together, y = mean RTT in ms); nothing is rescaled or smoothed.
// The only figure computed here is each level's saturation point, by
// sockbench's own rule (results/README.md): the point with the highest
// received msgs/s whose mean RTT was under 200 ms.

const fs = require('node:fs');
const path = require('node:path');

const OK_MEAN_MS = 200;

// What the original post says about each server (see the source's README).
const SERVERS = [
  { key: 'node', name: 'sockjs-node', runtime: 'node', runtime_version: '0.6.5', codec: null, sockjs: true },
  { key: 'cpython', name: 'sockjs-tornado', runtime: 'cpython', runtime_version: '2.6.6', codec: 'simplejson', sockjs: true },
  { key: 'pypy', name: 'sockjs-tornado', runtime: 'pypy', runtime_version: '1.7', codec: 'json', sockjs: true },
  { key: 'socketio', name: 'socket.io 0.8.7', runtime: 'node', runtime_version: '0.6.5', codec: null, sockjs: false },
];

const SOURCE = {
  publication: 'SockJS benchmark, blog post of 15 Dec 2011',
  repository: 'mrjoes/mrjoes.github.com',
  directory: 'shared/posts/sockjs-bench/',
  converted_by: 'results/historic/convert-2011.js',
};

const MACHINE = {
  cpu_model: 'Intel Core i7-2600K @ 3.4 GHz',
  cores: 4,
  memory: '16 GB',
  os: 'Linux 2.6.32 amd64',
  pinning: 'server on one core; the Java client on three (never above 170 % CPU)',
};

const METHOD = {
  statistic: 'mean',
  rtt_clock: 'milliseconds, from the actual send time (payload "id:epochMillis")',
  ramp: 'start 1 msg/s, step max(1, 1000/N) msgs/s, 3 s per step, 1 s pause',
  dropped_points: 'a point whose copies were not all back within 5 s is missing from the series',
  level_end: 'mean RTT >= 1,500 ms or a lost connection',
  algorithm: 'one frame per message',
  saturation_rule: `highest received msgs/s of a published point with mean RTT < ${OK_MEAN_MS} ms (computed by the converter)`,
  ok_mean_ms: OK_MEAN_MS,
};

/** The level's saturation point by sockbench's rule, or null when no point was under the threshold. */
function saturationOf(sent, received) {
  let best = null;
  received.forEach(([receivedPerS, meanMs], i) => {
    if (meanMs < OK_MEAN_MS && (best === null || receivedPerS > best.received_per_s)) {
      best = { received_per_s: receivedPerS, sent_per_s: sent[i][0], rtt_mean_ms: meanMs };
    }
  });
  return best;
}

function readSeries(sourceDir, file) {
  const data = JSON.parse(fs.readFileSync(path.join(sourceDir, file), 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file}: expected [[level, [[x, y], ...]], ...]`);
  return data;
}

/** One server's historic document from its _sent and _recv files. */
function convertServer(sourceDir, server) {
  const sent = readSeries(sourceDir, `${server.key}_sent.json`);
  const received = readSeries(sourceDir, `${server.key}_recv.json`);
  if (sent.length !== received.length) throw new Error(`${server.key}: sent and recv files have different levels`);
  const levels = sent.map(([level, sentPoints], i) => {
    const [receivedLevel, receivedPoints] = received[i];
    if (receivedLevel !== level || receivedPoints.length !== sentPoints.length) {
      throw new Error(`${server.key}: level ${level} differs between the sent and recv files`);
    }
    return {
      concurrency: level,
      sent: sentPoints,
      received: receivedPoints,
      saturation: saturationOf(sentPoints, receivedPoints),
    };
  });
  const runtimeName = { node: 'node', cpython: 'CPython', pypy: 'PyPy' }[server.runtime];
  return {
    schema: 'sockbench.historic/1',
    run_id: `2011-${server.key}`,
    label: `2011 · ${server.name} · ${runtimeName} ${server.runtime_version}`,
    published_at: '2011-12-15',
    source: { ...SOURCE, files: [`${server.key}_sent.json`, `${server.key}_recv.json`] },
    machine: MACHINE,
    server: {
      name: server.name,
      runtime: server.runtime,
      runtime_version: server.runtime_version,
      codec: server.codec,
      sockjs: server.sockjs,
    },
    method: METHOD,
    levels,
  };
}

/** Indented JSON with each [x, y] pair on one line, so a reader can scan a series. */
function toJson(document) {
  return JSON.stringify(document, null, 1)
    .replace(/\[\n\s*(-?[\d.eE+-]+),\n\s*(-?[\d.eE+-]+)\n\s*\]/g, '[$1, $2]');
}

function main(argv) {
  if (argv.length < 1 || argv.length > 2 || argv[0] === '--help') {
    process.stderr.write('usage: node results/historic/convert-2011.js SOURCE_DIR [OUT_DIR]\n');
    process.exit(argv[0] === '--help' ? 0 : 2);
  }
  const sourceDir = path.resolve(argv[0]);
  const outDir = path.resolve(argv[1] || path.join(__dirname, '2011'));
  fs.mkdirSync(outDir, { recursive: true });
  for (const server of SERVERS) {
    const file = path.join(outDir, `2011-${server.key}.json`);
    fs.writeFileSync(file, `${toJson(convertServer(sourceDir, server))}\n`);
    process.stdout.write(`${file}\n`);
  }
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`convert-2011: ${err.message}\n`);
    process.exit(1);
  }
}

module.exports = { convertServer, saturationOf, toJson, SERVERS, OK_MEAN_MS };
