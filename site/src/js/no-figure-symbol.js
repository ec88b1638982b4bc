// A flot marker of our own, "no-figure": a downward open triangle (▽) that
// stands at the foot of a chart where a level ran but has no figure to plot
// (no ok point; no point at the fixed rate), so a missing figure is a mark
// the reader sees and can hover, not a gap that reads like a level not run.
// Registered beside the shapes of flot's symbol plugin (loaded before this).
(function (root) {
  'use strict';

  const $ = root.jQuery;

  /** The marker's name in `points.symbol`. */
  const NO_FIGURE = 'no-figure';

  // Same area as flot's triangle of this radius, pointing down.
  function downTriangle(ctx, x, y, radius) {
    const size = radius * Math.sqrt(2 * Math.PI / Math.sin(Math.PI / 3));
    const height = size * Math.sin(Math.PI / 3);
    ctx.moveTo(x - size / 2, y - height / 2);
    ctx.lineTo(x + size / 2, y - height / 2);
    ctx.lineTo(x, y + height / 2);
    ctx.lineTo(x - size / 2, y - height / 2);
    ctx.lineTo(x + size / 2, y - height / 2);
  }
  downTriangle.fill = true;

  $.plot.plugins.push({
    name: 'sockbench-no-figure-symbol',
    version: '1.0',
    init(plot) {
      plot.drawSymbol = { ...(plot.drawSymbol || {}), [NO_FIGURE]: downTriangle };
    },
  });

  (root.Sockbench = root.Sockbench || {}).noFigureSymbol = { NO_FIGURE };
})(self);
