// Series colours and markers. Colours are the Okabe–Ito set (distinguishable
// with the common colour-vision deficiencies; its light yellow is left out,
// it vanishes on white) and every series also gets its own marker shape, so
// two lines stay apart in greyscale prints too. Red is reserved for the
// 200 ms threshold, black for client-bound marks (on the summary, for every
// saturation figure that is only a floor: floors.js); dashes mean the same.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).palette = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  // Okabe & Ito, "Color Universal Design" (2002): blue, orange, bluish green,
  // reddish purple, sky blue, vermillion, and grey for the seventh.
  const SERIES_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7f7f7f'];
  // flot's symbol plugin shapes; "cross" is kept for client-bound and floor marks.
  const SERIES_MARKERS = ['circle', 'square', 'diamond', 'triangle'];
  const THRESHOLD_LINE = '#c0392b';
  const THRESHOLD_BAND = 'rgba(192, 57, 43, 0.07)';
  const CLIENT_BOUND_MARK = '#111111';
  // Client-bound (summary: floor) segments: on, off in CSS pixels (flot lines.dashes).
  const CLIENT_BOUND_DASHES = [5, 4];

  /** Colour of the i-th series (0-based); repeats after seven. */
  function seriesColor(index) {
    return SERIES_COLORS[index % SERIES_COLORS.length];
  }

  /**
   * Marker of the i-th series. Seven colours and four markers are coprime
   * counts, so (colour, marker) stays unique for the first 28 series.
   */
  function seriesMarker(index) {
    return SERIES_MARKERS[index % SERIES_MARKERS.length];
  }

  /** A colour with alpha, for bands: "#0072B2" → "rgba(0, 114, 178, a)". */
  function withAlpha(color, alpha) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  }

  return {
    seriesColor, seriesMarker, withAlpha, SERIES_COLORS,
    THRESHOLD_LINE, THRESHOLD_BAND, CLIENT_BOUND_MARK, CLIENT_BOUND_DASHES,
  };
});
