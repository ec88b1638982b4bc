'use strict';
// Debian's chromium (on PATH, or $CHROMIUM) through playwright-core, which
// never downloads a browser. The flags follow site/tools/chromium.js; on top,
// the browser resolves no host but 127.0.0.1 and uses no proxy, so the check
// runs offline and a page that reaches for a CDN fails visibly, not by luck.

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-proxy-server', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir, 'chromium');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error('chromium not found on PATH: run "make setup-site" (installs Debian\'s chromium) or set CHROMIUM');
}

function launchChromium() {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, timeout: 60000 });
}

module.exports = { launchChromium };
