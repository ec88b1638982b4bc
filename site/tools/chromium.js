'use strict';
// Debian's chromium, driven by playwright-core (which never downloads a
// browser of its own): for the browser tests and for make charts.

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const MISSING = 'chromium not found on PATH: run "make setup-site" (installs Debian\'s chromium)';

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

function launchChromium() {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, timeout: 120000 });
}

module.exports = { chromiumPath, findChromium, launchChromium, MISSING };
