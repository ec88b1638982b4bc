// The 200 ms saturation threshold on an RTT chart: a shaded band above the
// line (flot grid markings, drawn under the data) and a text label, an HTML
// element positioned on the line so tests and screen readers can find it.
(function (root) {
  'use strict';

  const { THRESHOLD_LINE, THRESHOLD_BAND } = root.Sockbench.palette;

  /** flot `grid.markings` for a threshold at `thresholdMs` on the first y axis. */
  function thresholdMarkings(thresholdMs) {
    return [
      { yaxis: { from: thresholdMs, to: Number.POSITIVE_INFINITY }, color: THRESHOLD_BAND },
      { yaxis: { from: thresholdMs, to: thresholdMs }, color: THRESHOLD_LINE, lineWidth: 2 },
    ];
  }

  /** Adds the label above the line, right-aligned inside the plot area. */
  function addThresholdLabel(plot, thresholdMs, text) {
    const offset = plot.getPlotOffset();
    const y = offset.top + plot.getAxes().yaxis.p2c(thresholdMs);
    const label = document.createElement('div');
    label.className = 'threshold-label';
    label.textContent = text;
    label.dataset.thresholdMs = String(thresholdMs);
    label.dataset.canvasY = String(Math.round(y));
    label.style.top = `${Math.round(y) - 20}px`;
    label.style.right = `${offset.right + 6}px`;
    plot.getPlaceholder()[0].appendChild(label);
    return label;
  }

  root.Sockbench.thresholdMarker = { thresholdMarkings, addThresholdLabel };
})(self);
