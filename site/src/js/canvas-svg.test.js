'use strict';
// The canvas → SVG recorder: each stroke and fill becomes one SVG element in
// device pixels, with the context's transform, colour, width, dashes and alpha.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { createRecorder, paintOf } = require('./canvas-svg');

/** A recorder with a fixed state, standing in for what a real context reports. */
function recorder(state = {}) {
  const style = { strokeStyle: '#0072b2', fillStyle: '#ffffff', lineWidth: 2, lineCap: 'butt', lineJoin: 'miter',
    globalAlpha: 1, lineDash: [], font: '10px sans-serif', textAlign: 'start', ...state.style };
  const transform = state.transform || { a: 2, b: 0, c: 0, d: 2, e: 10, f: 20 };
  return createRecorder({ width: 400, height: 300 }, () => transform, () => style);
}

test('a stroked polyline is one path, transformed, its width scaled with it', () => {
  const r = recorder();
  r.call('beginPath', []);
  r.call('moveTo', [0, 0]);
  r.call('lineTo', [5, 5]);
  r.call('stroke', []);
  assert.equal(r.svg(), '<path d="M10 20 L20 30" fill="none" stroke="#0072b2" stroke-width="4" stroke-linecap="butt" stroke-linejoin="miter"/>');
});

test('dashes scale with the transform; rgba colours become a paint and an opacity', () => {
  const r = recorder({ style: { lineDash: [3, 2], strokeStyle: 'rgba(0, 114, 178, 0.2)' } });
  r.call('beginPath', []);
  r.call('moveTo', [0, 0]);
  r.call('lineTo', [1, 0]);
  r.call('stroke', []);
  assert.match(r.svg(), /stroke="rgb\(0,114,178\)" .*stroke-opacity="0\.2" stroke-dasharray="6 4"/);
  assert.deepEqual(paintOf('#abcdef'), { paint: '#abcdef', opacity: 1 });
});

test('a full circle becomes two arcs back to its start; a filled rectangle a closed path', () => {
  const r = recorder({ transform: { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 } });
  r.call('beginPath', []);
  r.call('arc', [50, 50, 5, 0, Math.PI * 2, false]);
  r.call('fill', []);
  r.call('fillRect', [0, 0, 10, 10]);
  assert.equal(r.svg().split('\n')[0], '<path d="M55 50 A5 5 0 0 1 45 50 A5 5 0 0 1 55 50" fill="#ffffff" stroke="none"/>');
  assert.equal(r.svg().split('\n')[1], '<path d="M0 0 L10 0 L10 10 L0 10 Z" fill="#ffffff" stroke="none"/>');
});

test('clearing the whole canvas starts the picture again; clearing a corner does not', () => {
  const r = recorder({ transform: { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 } });
  r.call('fillRect', [0, 0, 10, 10]);
  r.call('clearRect', [0, 0, 5, 5]);
  assert.notEqual(r.svg(), '');
  r.call('clearRect', [0, 0, 400, 300]);
  assert.equal(r.svg(), '');
});
