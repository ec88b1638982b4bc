// The verdict at the top of the summary: one sentence per algorithm group
// (verdict.js has the rule), at the level the reader picks; by default each
// group's highest level where every one of its runs has a figure. The set's
// limit server is named as each sentence's yardstick, not ranked.
(function (root) {
  'use strict';

  const { verdict } = root.Sockbench;

  /**
   * @param {{select: HTMLSelectElement, list: HTMLElement}} elements
   * @param {object[]} runs every run entry, today's and historic
   * @param {{entry: string}[]} limitServers the registry's limit servers (data.limit_servers)
   */
  function renderVerdictPanel(elements, runs, limitServers) {
    const initial = verdict.verdicts(runs, { limitServers });
    const levels = [...new Set(initial.flatMap((v) => v.levels))].sort((a, b) => a - b);
    elements.select.textContent = '';
    const defaults = initial.map((v) => `${v.title.split(',')[0]}: ${v.defaultLevel}`).join(', ');
    elements.select.appendChild(new Option(`default: highest level all measured (${defaults})`, ''));
    for (const level of levels) elements.select.appendChild(new Option(`${level} clients`, String(level)));

    const show = () => {
      const value = elements.select.value;
      const results = verdict.verdicts(runs, { level: value === '' ? null : Number(value), limitServers });
      elements.list.textContent = '';
      for (const v of results) {
        const item = document.createElement('li');
        item.className = 'verdict-sentence';
        item.dataset.group = v.group;
        item.dataset.level = v.level == null ? '' : String(v.level);
        item.textContent = v.sentence;
        elements.list.appendChild(item);
      }
    };
    elements.select.addEventListener('change', show);
    show();
  }

  root.Sockbench.verdictPanel = { renderVerdictPanel };
})(self);
