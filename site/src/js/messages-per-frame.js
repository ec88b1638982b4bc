// How many messages the server put in each frame the clients received at a
// point (the point's optional `messages_per_frame`, results/README.md), as one
// short text beside the point's rate: a coalescing server's batches
// ("12.4 msgs/frame (p50 11, p99 40)") against a naive server's one message
// per frame ("1 msg/frame"). It tells whether two rates were measured like for
// like; it judges nothing. Pure functions (tested in node).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).messagesPerFrame = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /** Said once for a run none of whose points carry the field (older files). */
  const NOT_RECORDED = 'Messages per frame: not recorded in this run’s file.';

  /** What the short text means, for a tooltip. */
  const EXPLANATION = 'messages per frame the clients received at this point: mean (median, 99th percentile)';

  // Three significant digits with the trailing zeros kept, so a batch mean
  // just over one ("1.00") never reads as the naive "1".
  const mean = (value) => (value >= 100 ? String(Math.round(value)) : value.toPrecision(3));

  /**
   * @param {object|null|undefined} stats a point's `messages_per_frame`
   * @returns {string|null} "1 msg/frame" when every frame held one message,
   *   "12.4 msgs/frame (p50 11, p99 40)" otherwise; null when not recorded
   */
  function describe(stats) {
    if (stats == null) return null;
    if (stats.max === 1) return '1 msg/frame';
    return `${mean(stats.mean)} msgs/frame (p50 ${stats.p50}, p99 ${stats.p99})`;
  }

  /** Whether any point of `result` (a result file or the historic shape) recorded messages per frame. */
  function runRecords(result) {
    return result.levels.some((level) => level.points.some((p) => p.messages_per_frame != null));
  }

  return { describe, runRecords, NOT_RECORDED, EXPLANATION };
});
