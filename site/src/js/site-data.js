// Data loading: the build writes every valid run, plus the list of files that
// failed, into data/runs.js (window.SOCKBENCH_DATA). A script rather than a
// fetched JSON file, so the pages also work when opened from disk.
(function (root) {
  'use strict';

  /**
   * @returns {{built_at: string, runs: object[], historic: object[], errors: object[]}}
   *   runs: sockbench result files; historic: published data of earlier
   *   benchmarks (kind "historic", results/historic/)
   */
  function loadSiteData() {
    const data = root.SOCKBENCH_DATA;
    if (!data || !Array.isArray(data.runs) || !Array.isArray(data.errors)) {
      throw new Error('data/runs.js is missing or incomplete: rebuild the site with "make site"');
    }
    if (!Array.isArray(data.historic)) data.historic = [];
    return data;
  }

  /** A run or a historic run by id (ids are unique across both). */
  function runById(data, runId) {
    return data.runs.find((run) => run.run_id === runId)
      || data.historic.find((run) => run.run_id === runId) || null;
  }

  /** Link to a run's chart page (run ids are plain text; encode for the URL). */
  function runPageHref(runId) {
    return `run.html?run=${encodeURIComponent(runId)}`;
  }

  (root.Sockbench = root.Sockbench || {}).siteData = { loadSiteData, runById, runPageHref };
})(self);
