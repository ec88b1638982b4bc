'use strict';
// The official sockjs-client, in headless Chromium, against every server of
// the registry that is installed here: for each transport Chromium can use, a
// session opens with that very transport, a message round-trips on /echo, a
// broadcast reaches its sender on /broadcast, the client's close is clean and
// /close's server close arrives as 3000 "Go away!". Prints a server x
// transport table; exit 1 if any case failed (README.md).
//
//   node check.js [--servers NAME,...] [--transports NAME,...] [--timeout-ms MS] [--proxy haproxy]
//
// --proxy haproxy: each server that has workers runs as two one-worker processes
// behind haproxy (docs/contract/sockbench_contract/proxy_front.py, as PROXY=haproxy
// runs it), so every transport is checked through the proxy's session routing.

const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { parseArgs } = require('node:util');
// The site's chromium launcher (the harness may use the site; never the other way).
const { launchChromium } = require('../../site/tools/chromium');
const { startServer } = require('./lib/server-process');
const { startStaticServer } = require('./lib/static-server');
const { TRANSPORTS } = require('./lib/transports');
const { loadExpected, verdict } = require('./lib/verdict');

// On top of the launcher's flags: the browser resolves no host but 127.0.0.1
// and uses no proxy, so the check runs offline and a page that reaches for a
// CDN fails visibly, not by luck.
const OFFLINE_ARGS = ['--no-proxy-server', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

const USAGE = 'usage: node bench/sockjs-client-check/check.js [--servers NAME,...] [--transports NAME,...] ' +
  '[--timeout-ms MS] [--proxy haproxy]\n  --servers      registry entry names (default: every entry)\n' +
  `  --transports   some of ${TRANSPORTS.join(', ')} (default: all)\n` +
  '  --timeout-ms   time one SockJS session may take, ms, 1000-60000 (default 5000)\n' +
  '  --proxy        run each server with workers as 2 one-worker processes behind this proxy (haproxy)';

function usage(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseCommandLine(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: {
      servers: { type: 'string' }, transports: { type: 'string' }, 'timeout-ms': { type: 'string' },
      proxy: { type: 'string' },
    } }));
  } catch (err) {
    usage(err.message);
  }
  const list = (text) => (text || '').split(',').map((s) => s.trim()).filter(Boolean);
  const transports = values.transports ? list(values.transports) : TRANSPORTS;
  const unknown = transports.filter((t) => !TRANSPORTS.includes(t));
  if (unknown.length) usage(`--transports: unknown ${unknown.join(', ')}`);
  const timeoutMs = values['timeout-ms'] === undefined ? 5000 : Number(values['timeout-ms']);
  if (!(Number.isInteger(timeoutMs) && timeoutMs >= 1000 && timeoutMs <= 60000)) {
    usage(`--timeout-ms: expected an integer 1000-60000, got ${JSON.stringify(values['timeout-ms'])}`);
  }
  // The proxy's name is checked by registry_servers.py (proxy_front.py's one list): exit 2 there.
  return { servers: list(values.servers), transports, timeoutMs, proxy: values.proxy };
}

/** The registry's servers through registry_servers.py (docs/contract/sockbench_contract/registry.py is the one reader). */
function registryServers(sockjsUrl, wanted, proxy) {
  const args = [path.join(__dirname, 'registry_servers.py'), '--sockjs-url', sockjsUrl];
  if (proxy !== undefined) args.push('--proxy', proxy);
  let out;
  try {
    out = execFileSync('python3', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if (err.status === 2) usage(String(err.stderr).trim());
    throw err;
  }
  const all = out.trim().split('\n').map((line) => JSON.parse(line));
  const unknown = wanted.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length) usage(`--servers: not in docs/contract/server-registry.json: ${unknown.join(', ')}`);
  return wanted.length ? all.filter((s) => wanted.includes(s.name)) : all;
}

const isLocal = (url) => /^(https?|wss?):\/\/127\.0\.0\.1[:/]/.test(url) || /^(data|about|blob):/.test(url);

/**
 * One page per transport, each in its own browser context (its own
 * connections: a context allows 6 per host, and the streaming and polling
 * transports each hold one open), loaded once and reused for every server.
 */
async function openPages(browser, origin, transports, timeoutMs) {
  return Promise.all(transports.map(async (transport) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const events = [];
    page.on('requestfailed', (request) => {
      if (!isLocal(request.url())) events.push(`not reached: ${request.url()}`);
    });
    page.on('pageerror', (error) => events.push(`uncaught: ${error.message}`));
    // Chromium says here why a websocket handshake or a script load failed.
    page.on('console', (message) => {
      if (message.type() === 'error') events.push(`console: ${message.text()}`);
    });
    await page.goto(`${origin}/`, { timeout: 30000 });
    return { transport, page, events, close: () => context.close() };
  }));
}

/** One transport against one server: null or what failed. */
async function runCase(tab, base, timeoutMs) {
  tab.events.length = 0;
  try {
    // Three sessions run one after the other, each bounded in the page.
    const failure = await tab.page.evaluate((args) => window.sockjsCase(args),
      { base, transport: tab.transport, timeoutMs });
    if (failure === null) return null;
    const extra = [...new Set(tab.events)];
    return extra.length ? `${failure} (${extra.join('; ')})` : failure;
  } catch (err) {
    return `the browser: ${err.message.split('\n')[0]}`;
  }
}

/** Every transport against one server entry, in parallel pages. */
async function checkServer(tabs, entry, expected, timeoutMs) {
  const transports = tabs.map((tab) => tab.transport);
  const started = Date.now();
  let server;
  try {
    server = await startServer(entry.argv);
  } catch (err) {
    return { cells: Object.fromEntries(transports.map((t) => [t, { status: 'FAIL', note: `start: ${err.message}` }])) };
  }
  const listed = expected[server.fields.server] || {};
  const cells = {};
  try {
    await Promise.all(tabs.map(async (tab) => {
      const failure = await runCase(tab, server.url, timeoutMs);
      cells[tab.transport] = verdict(failure, listed[tab.transport]);
    }));
  } finally {
    const exit = await server.stop();
    if (exit !== 0) {
      for (const t of transports) {
        if (cells[t].status !== 'FAIL') cells[t] = { status: 'FAIL', note: `server exit ${exit} on SIGTERM` };
      }
    }
  }
  return { cells, ready: server.fields, seconds: (Date.now() - started) / 1000 };
}

function printTable(rows, transports) {
  const notes = [];
  const noteNumber = (text) => {
    let i = notes.indexOf(text);
    if (i < 0) i = notes.push(text) - 1;
    return i + 1;
  };
  const nameWidth = Math.max(6, ...rows.map((r) => r.name.length));
  const widths = transports.map((t) => Math.max(t.length, 9));
  const line = (first, cells) => `${first.padEnd(nameWidth)} | ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')}`;
  console.log(line('server', transports));
  console.log(`${'-'.repeat(nameWidth)}-|-${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const row of rows) {
    if (row.skip) {
      console.log(`${row.name.padEnd(nameWidth)} | skipped: ${row.skip}`);
      continue;
    }
    console.log(line(row.name, transports.map((t) => {
      const cell = row.cells[t];
      return cell.note ? `${cell.status} [${noteNumber(cell.note)}]` : cell.status;
    })));
  }
  notes.forEach((text, i) => console.log(`[${i + 1}] ${text}`));
}

async function main() {
  const options = parseCommandLine(process.argv.slice(2));
  const expected = loadExpected(undefined, TRANSPORTS);
  const staticServer = await startStaticServer();
  let browser;
  const rows = [];
  try {
    const entries = registryServers(`${staticServer.origin}/sockjs.min.js`, options.servers, options.proxy);
    if (options.proxy) console.log(`[proxy] every server with workers runs as 2 processes behind ${options.proxy}`);
    browser = await launchChromium(OFFLINE_ARGS);
    const tabs = await openPages(browser, staticServer.origin, options.transports);
    for (const entry of entries) {
      if (entry.skip) {
        console.log(`[skip] ${entry.name}: ${entry.skip}`);
        rows.push({ name: entry.name, skip: entry.skip });
        continue;
      }
      const result = await checkServer(tabs, entry, expected, options.timeoutMs);
      const counts = Object.values(result.cells).reduce((n, c) => ({ ...n, [c.status]: (n[c.status] || 0) + 1 }), {});
      console.log(`[done] ${entry.name}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}` +
        (result.seconds ? ` in ${result.seconds.toFixed(1)} s` : ''));
      rows.push({ name: entry.name, cells: result.cells });
    }
  } finally {
    if (browser) await browser.close();
    await staticServer.close();
  }
  console.log('');
  printTable(rows, options.transports);
  const failed = rows.filter((r) => r.cells && Object.values(r.cells).some((c) => c.status === 'FAIL'));
  if (failed.length) {
    console.error(`sockjs-client check FAILED for: ${failed.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`sockjs-client check: ${err.message}`);
  process.exitCode = 1;
});
