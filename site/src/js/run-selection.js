// Which runs the summary overlays, and its y-axis scale. Kept in the URL
// hash (#runs=id,id&y=linear) so a chosen comparison can be linked; no
// "runs" in the hash means the default pick (like for like). The result set
// shown (#set=name, index-page.js) is kept in front of them.
(function (root) {
  'use strict';

  function parseHash(hash) {
    return new URLSearchParams(hash.replace(/^#/, ''));
  }

  /**
   * @param {string[]} allIds every run id, in display order
   * @param {string[]} defaultIds what is overlaid when the URL names nothing
   * @param {(selected: Set<string>) => void} onChange called after every change
   * @param {Object<string, string>} [fixed] hash parameters written first on every
   *   change and never changed here (e.g. {set: 'reference-runtimes'})
   */
  function createRunSelection(allIds, defaultIds, onChange, fixed = {}) {
    const params = parseHash(root.location.hash);
    let selected = params.has('runs')
      ? new Set(allIds.filter((id) => params.get('runs').split(',').includes(id)))
      : new Set(defaultIds);
    let yScale = params.get('y') === 'linear' ? 'linear' : 'log';

    const sameAsDefault = () => selected.size === defaultIds.length && defaultIds.every((id) => selected.has(id));

    function commit() {
      const next = new URLSearchParams(fixed);
      if (!sameAsDefault()) next.set('runs', allIds.filter((id) => selected.has(id)).join(','));
      if (yScale !== 'log') next.set('y', yScale);
      const hash = next.toString();
      root.history.replaceState(null, '', hash ? `#${hash}` : root.location.pathname + root.location.search);
      onChange(selected);
    }

    return {
      isSelected: (id) => selected.has(id),
      selected: () => new Set(selected),
      set(id, on) {
        const next = new Set(selected);
        if (on) next.add(id); else next.delete(id);
        selected = next;
        commit();
      },
      only(ids) { selected = new Set(ids); commit(); },
      add(ids) { selected = new Set([...selected, ...ids]); commit(); },
      yScale: () => yScale,
      setYScale(scale) { yScale = scale === 'linear' ? 'linear' : 'log'; commit(); },
    };
  }

  root.Sockbench.runSelection = { createRunSelection };
})(self);
