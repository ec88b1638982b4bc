'use strict';
// Functions evaluated inside the page (via page.evaluate) to read what a flot
// chart actually drew: its canvas pixels, its series and axis labels.

/** Everything a test wants to know about the chart in placeholder #id. */
function probeChart(id) {
  const placeholder = document.getElementById(id);
  const plot = window.jQuery(placeholder).data('plot');
  if (!plot) return null;
  const canvas = plot.getCanvas();
  const ratio = canvas.width / plot.getPlaceholder().width();
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const hex = (color) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const seriesColors = [...new Set(plot.getData().map((s) => s.color))];
  const colorPixels = Object.fromEntries(seriesColors.map((c) => [c, 0]));
  const targets = seriesColors.map((c) => [c, hex(c)]);
  let inked = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i]; const g = pixels[i + 1]; const b = pixels[i + 2];
    if (pixels[i + 3] === 0 || (r > 245 && g > 245 && b > 245)) continue;
    inked++;
    for (const [color, [cr, cg, cb]] of targets) {
      if (Math.abs(r - cr) + Math.abs(g - cg) + Math.abs(b - cb) < 40) colorPixels[color]++;
    }
  }
  return {
    inked,
    ratio,
    colorPixels,
    series: plot.getData().map((s) => ({
      color: s.color,
      role: s.sockbenchRole || null,
      run: s.sockbenchRun || null,
      level: s.sockbenchLevel == null ? null : s.sockbenchLevel,
      dashes: s.lines.dashes || null,
      hollow: s.points.show && s.points.fillColor === '#ffffff',
      symbol: s.points.show ? s.points.symbol : null,
      data: s.data,
      // where each point lands on the canvas, in CSS pixels
      // (null entries break a line into segments: see series.splitSegments)
      pixels: s.data.map((p) => (p ? [s.xaxis.p2c(p[0]), s.yaxis.p2c(p[1])] : null)),
    })),
    yaxis: { mode: plot.getAxes().yaxis.options.mode || 'linear', min: plot.getAxes().yaxis.min, max: plot.getAxes().yaxis.max },
    axisLabels: [...placeholder.querySelectorAll('.axisLabels')].map((n) => n.textContent),
    thresholdLabel: placeholder.querySelector('.threshold-label')?.textContent ?? null,
  };
}

/**
 * Counts threshold-red pixels along the canvas rows where y = thresholdMs is
 * drawn (independently of the label: from the plot's own axis).
 * @returns {{redInRow: number, plotWidth: number}}
 */
function probeThresholdLine([id, thresholdMs]) {
  const plot = window.jQuery(document.getElementById(id)).data('plot');
  const canvas = plot.getCanvas();
  const ratio = canvas.width / plot.getPlaceholder().width();
  const offset = plot.getPlotOffset();
  const y = offset.top + plot.getAxes().yaxis.p2c(thresholdMs);
  const context = canvas.getContext('2d');
  let best = 0;
  for (const dy of [-1.5, -0.5, 0, 0.5, 1.5]) {
    const row = Math.round((y + dy) * ratio);
    const x0 = Math.round(offset.left * ratio);
    const width = Math.round(plot.width() * ratio);
    const data = context.getImageData(x0, row, width, 1).data;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] > 150 && data[i + 1] < 110 && data[i + 2] < 100) red++;
    }
    best = Math.max(best, red / width);
  }
  return { redShare: best };
}

/**
 * Viewport coordinates of data point (x, y) on chart #id (for mouse.move),
 * and the data x flot will report for that pixel.
 */
function pointOnPage([id, x, y]) {
  const plot = window.jQuery(document.getElementById(id)).data('plot');
  const axes = plot.getAxes();
  const offset = plot.offset();
  const pageX = Math.round(offset.left + axes.xaxis.p2c(x));
  const pageY = Math.round(offset.top + axes.yaxis.p2c(y));
  return { clientX: pageX - window.scrollX, clientY: pageY - window.scrollY, dataX: axes.xaxis.c2p(pageX - offset.left) };
}

module.exports = { probeChart, probeThresholdLine, pointOnPage };
