'use strict';
// Debian's chromium, driven by playwright-core (which never downloads a
// browser of its own): the one launcher, for the browser tests, make charts
// and the harness's sockjs-client check (bench/sockjs-client-check).

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const MISSING = 'chromium not found on PATH: run "make setup-site" (installs Debian\'s chromium) or set CHROMIUM';

/** The chromium on PATH (or $CHROMIUM), as `command -v chromium` would find it; null if none. */
function chromiumPath() {
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
  return null;
}

function findChromium() {
  const found = chromiumPath();
  if (!found) throw new Error(MISSING);
  return found;
}

/** Launches headless chromium with CHROMIUM_ARGS plus `extraArgs` (command-line flags a caller needs on top). */
function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: findChromium(), args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 120000 });
}

module.exports = { chromiumPath, findChromium, launchChromium, MISSING };
