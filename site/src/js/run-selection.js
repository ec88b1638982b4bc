// Which runs the summary overlays. Kept in the URL hash (#runs=id,id) so a
// chosen comparison, e.g. this machine's PyPy vs CPython vs Node, can be
// linked; no hash means every run.
(function (root) {
  'use strict';

  const HASH_PREFIX = '#runs=';

  function idsFromHash(hash, allIds) {
    if (!hash.startsWith(HASH_PREFIX)) return new Set(allIds);
    const wanted = hash.slice(HASH_PREFIX.length).split(',').map(decodeURIComponent);
    return new Set(allIds.filter((id) => wanted.includes(id)));
  }

  /**
   * @param {string[]} allIds every run id, in display order
   * @param {(selected: Set<string>) => void} onChange called after every change
   */
  function createRunSelection(allIds, onChange) {
    let selected = idsFromHash(root.location.hash, allIds);

    function commit(next) {
      selected = next;
      const hash = selected.size === allIds.length
        ? ''
        : HASH_PREFIX + allIds.filter((id) => selected.has(id)).map(encodeURIComponent).join(',');
      root.history.replaceState(null, '', hash || root.location.pathname + root.location.search);
      onChange(selected);
    }

    return {
      isSelected: (id) => selected.has(id),
      selected: () => new Set(selected),
      set(id, on) {
        const next = new Set(selected);
        if (on) next.add(id); else next.delete(id);
        commit(next);
      },
      only(ids) { commit(new Set(ids)); },
    };
  }

  root.Sockbench.runSelection = { createRunSelection };
})(self);
