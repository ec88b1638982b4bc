'use strict';
// Assertions on what a page drew, shared by the browser tests.

const assert = require('node:assert/strict');
const http = require('node:http');

/** GET over plain HTTP, as a static host would answer a link. */
function httpGet(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** "1,234 ms" → 1234; null when the text holds no milliseconds. */
function msFromText(text) {
  const match = /([\d,.]+) ms/.exec(text);
  return match ? Number(match[1].replace(/,/g, '')) : null;
}

/**
 * The chart has drawn: its canvas has ink, and every line series shows its
 * own colour (unless a later line lies on top of it).
 * @param {object} chart what page-probes.js probeChart returned
 */
function assertDrawn(chart, what) {
  assert.ok(chart, `${what}: no flot plot`);
  assert.ok(chart.inked > 1000, `${what}: canvas is blank (${chart.inked} inked pixels)`);
  const lines = chart.series.filter((s) => s.lines);
  lines.forEach((series, i) => {
    // Two runs can measure (nearly) the same figures, e.g. saturation at the
    // offered rate; a line drawn later then covers this one on the canvas.
    const near = (a, b) => (a === null || b === null ? a === b
      : Math.abs(a[0] - b[0]) <= 3 && Math.abs(a[1] - b[1]) <= 3);
    const coveredLater = lines.slice(i + 1).some((later) => later.pixels.length === series.pixels.length &&
      series.pixels.every((p, k) => near(p, later.pixels[k])));
    if (coveredLater) return;
    assert.ok(chart.colorPixels[series.color] > 20,
      `${what}: series ${series.color} has ${chart.colorPixels[series.color]} pixels of its colour`);
  });
}

module.exports = { httpGet, msFromText, assertDrawn };
