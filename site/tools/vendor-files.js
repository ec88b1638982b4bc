'use strict';
// The third-party browser files the page needs, in the order they must load.
// flot 4 is split into many files that register on jQuery.plot one after the
// other (the core needs canvaswrapper/colorhelpers; saturated, browser,
// drawSeries and uiConstants before the first plot; plugins last). The order
// follows flot's own build list (gulpfile.js), trimmed to what we use.
// One list serves both the copy step and the <script> tags, so they cannot drift.

const path = require('path');

const NODE_MODULES = path.join(__dirname, '..', 'node_modules');

// [package-relative source, name under dist/vendor/]
const VENDOR_SCRIPTS = [
  ['jquery/dist/jquery.min.js', 'jquery.min.js'],
  ['flot/source/jquery.canvaswrapper.js', 'flot/jquery.canvaswrapper.js'],
  ['flot/source/jquery.colorhelpers.js', 'flot/jquery.colorhelpers.js'],
  ['flot/source/jquery.flot.js', 'flot/jquery.flot.js'],
  ['flot/source/jquery.flot.saturated.js', 'flot/jquery.flot.saturated.js'],
  ['flot/source/jquery.flot.browser.js', 'flot/jquery.flot.browser.js'],
  ['flot/source/jquery.flot.drawSeries.js', 'flot/jquery.flot.drawSeries.js'],
  ['flot/source/jquery.flot.uiConstants.js', 'flot/jquery.flot.uiConstants.js'],
  // log y axis: RTT spans 1 ms .. 5 s, a linear axis hides the knee.
  ['flot/source/jquery.flot.logaxis.js', 'flot/jquery.flot.logaxis.js'],
  // "cross" marker for client-bound points and floor figures.
  ['flot/source/jquery.flot.symbol.js', 'flot/jquery.flot.symbol.js'],
  ['flot/source/jquery.flot.hover.js', 'flot/jquery.flot.hover.js'],
  ['flot/source/jquery.flot.axislabels.js', 'flot/jquery.flot.axislabels.js'],
  ['flot/source/jquery.flot.crosshair.js', 'flot/jquery.flot.crosshair.js'],
];

// Copied but not loaded: licences travel with the code, and the source map
// that jquery.min.js names (so browser dev tools find it).
const VENDOR_OTHER_FILES = [
  ['jquery/LICENSE.txt', 'LICENSE.jquery.txt'],
  ['flot/LICENSE.txt', 'LICENSE.flot.txt'],
  ['jquery/dist/jquery.min.map', 'jquery.min.map'],
];

function vendorSource(relative) {
  return path.join(NODE_MODULES, relative);
}

module.exports = { VENDOR_SCRIPTS, VENDOR_OTHER_FILES, vendorSource };
