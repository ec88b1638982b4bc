// What every page does around its content: start once the DOM is ready,
// show the build stamp, and turn a failure into a visible message (and a
// console error, which the browser tests watch for) instead of a blank page.
(function (root) {
  'use strict';

  function showNotice(text, kind) {
    const notice = document.getElementById('page-notice');
    notice.textContent = text;
    notice.className = `notice ${kind || 'info'}`;
    notice.hidden = false;
  }

  function showBuildInfo(data) {
    const stamp = document.getElementById('build-info');
    if (stamp) stamp.textContent = `Built ${data.built_at.replace('T', ' ').replace('Z', ' UTC')} from ${data.runs.length} run(s).`;
  }

  function runPage(start) {
    const go = () => {
      try {
        start();
      } catch (err) {
        showNotice(`This page failed to render: ${err.message}`, 'error');
        console.error(err);
      }
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go);
    else go();
  }

  (root.Sockbench = root.Sockbench || {}).pageShell = { runPage, showNotice, showBuildInfo };
})(self);
