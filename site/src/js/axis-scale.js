// Axis ranges and tick positions the charts share. Pure functions (tested in
// node). Log axes get ticks at 1-2-5 steps so every label is a round number.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).axisScale = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const STEPS = [1, 2, 5];

  /** 1-2-5 values v with low <= v <= high (low > 0). */
  function logTicks(low, high) {
    const ticks = [];
    for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent++) {
      for (const step of STEPS) {
        const value = Number((step * Math.pow(10, exponent)).toPrecision(12));
        if (value >= low && value <= high) ticks.push(value);
      }
    }
    return ticks;
  }

  /** Largest 1-2-5 value <= v (v > 0). */
  function floor125(value) {
    const exponent = Math.floor(Math.log10(value));
    const candidates = [...STEPS, 10].map((s) => Number((s * Math.pow(10, exponent)).toPrecision(12)));
    return candidates.filter((c) => c <= value).pop();
  }

  /** Smallest 1-2-5 value >= v (v > 0). */
  function ceil125(value) {
    const exponent = Math.floor(Math.log10(value));
    const candidates = [...STEPS, 10].map((s) => Number((s * Math.pow(10, exponent)).toPrecision(12)));
    return candidates.find((c) => c >= value);
  }

  /**
   * Range of a y axis that must show `values` and the threshold line.
   * @param {number[]} values data values (ms); non-positive ones are ignored on log
   * @param {number} threshold always inside the range, with headroom above it
   * @param {'log'|'linear'} scale
   * @returns {{min: number, max: number, ticks: number[]|null}} ticks null = flot's own
   */
  function rttRange(values, threshold, scale) {
    const positive = values.filter((v) => v > 0);
    const top = Math.max(threshold * 1.5, ...positive);
    if (scale === 'linear') return { min: 0, max: top * 1.05, ticks: null };
    // Room below the fastest point so it does not sit on the frame.
    const bottom = Math.min(threshold, ...positive) * 0.8;
    const min = floor125(bottom);
    const max = ceil125(top);
    return { min, max, ticks: logTicks(min, max) };
  }

  /**
   * Range of a message-rate x axis (msgs/s). Linear starts at 0; log spans
   * the positive rates (a rate of 0 cannot be placed on it).
   * @returns {{min: number, max: number, ticks: number[]|null}}
   */
  function rateRange(values, scale) {
    const positive = values.filter((v) => v > 0);
    const top = Math.max(1, ...positive);
    if (scale !== 'log') return { min: 0, max: top * 1.03, ticks: null };
    const min = floor125(Math.min(top, ...positive));
    const max = ceil125(top);
    return { min, max, ticks: logTicks(min, max) };
  }

  /**
   * Whether values are best read on a log axis: they span a decade or more
   * (largest ÷ smallest >= 10) and all of them can be placed on one (> 0).
   * Otherwise a linear axis shows their differences better.
   */
  function spansDecades(values) {
    const present = values.filter((v) => v != null);
    if (present.length < 2 || present.some((v) => !(v > 0))) return false;
    return Math.max(...present) / Math.min(...present) >= 10;
  }

  /**
   * Range of a y axis over `values` (none need be positive on linear): log
   * with 1-2-5 ticks round the positive values, or linear from 0 with
   * headroom (ticks null = flot's own).
   * @returns {{min: number, max: number, ticks: number[]|null}}
   */
  function valueRange(values, scale) {
    const positive = values.filter((v) => v > 0);
    if (scale === 'log' && positive.length) {
      const min = floor125(Math.min(...positive) * 0.8);
      const max = ceil125(Math.max(...positive) * 1.1);
      return { min, max, ticks: logTicks(min, max) };
    }
    return { min: Math.min(0, ...values), max: Math.max(1, ...values) * 1.08, ticks: null };
  }

  return { logTicks, floor125, ceil125, rttRange, rateRange, spansDecades, valueRange };
});
