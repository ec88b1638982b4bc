// Series colours: distinguishable for common colour-vision deficiencies
// (Tableau 10 without its red, which is reserved for the 200 ms threshold).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).palette = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const SERIES_COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2',
    '#edc948', '#9c755f', '#ff9da7', '#1f3b5a', '#bab0ac'];
  const THRESHOLD_LINE = '#c0392b';
  const THRESHOLD_BAND = 'rgba(192, 57, 43, 0.07)';
  const CLIENT_BOUND_MARK = '#111111';

  /** Colour of the i-th series (0-based); repeats after ten. */
  function seriesColor(index) {
    return SERIES_COLORS[index % SERIES_COLORS.length];
  }

  return { seriesColor, THRESHOLD_LINE, THRESHOLD_BAND, CLIENT_BOUND_MARK };
});
