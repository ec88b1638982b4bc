// The summary's choice of SockJS transport (#transport= in the URL), shown
// only when the result set holds runs of more than one. Comparing servers is
// fair only on one transport, as it is only within one algorithm, so the
// summary opens on plain websocket (what it always showed) and the reader
// switches to another transport, or to all of them, here. Like the result
// set, a choice reloads the page: groups, picks, verdict and colours are made
// for the runs of one transport. The rule is transports.js's; this is the select.
(function (root) {
  'use strict';

  const { transports } = root.Sockbench;

  const hashParams = () => new URLSearchParams(root.location.hash.replace(/^#/, ''));

  /**
   * @param {object[]} runs the set's runs on the summary (2011 apart)
   * @returns {{groups: object[], filter: string, defaultFilter: string}} the
   *   set's transports (transports.groupsOf), the filter the URL names (or the
   *   default), and the default
   */
  function chooseFilter(runs) {
    const groups = transports.groupsOf(runs);
    return {
      groups,
      filter: transports.chosenFilter(groups, hashParams().get('transport')),
      defaultFilter: transports.chosenFilter(groups, null),
    };
  }

  /** The hash parameter that keeps a chosen filter ({} for the default), for run-selection's fixed part. */
  function hashPart(choice) {
    return choice.filter === choice.defaultFilter ? {} : { transport: choice.filter };
  }

  /**
   * Fills the select in `box` (shown only with two or more transports).
   * @param {{box: HTMLElement, select: HTMLSelectElement}} elements
   * @param {object} choice chooseFilter's answer
   * @param {Object<string, string>} kept hash parameters the reload keeps in front (the result set)
   */
  function renderTransportFilter(elements, choice, kept) {
    if (choice.groups.length < 2) return;
    elements.box.hidden = false;
    const { select } = elements;
    const runs = (n) => `${n} run${n === 1 ? '' : 's'}`;
    for (const group of choice.groups) {
      select.appendChild(new Option(`${group.text} (${runs(group.ids.length)})`, group.key, false, group.key === choice.filter));
    }
    const total = choice.groups.reduce((n, g) => n + g.ids.length, 0);
    select.appendChild(new Option(`every transport (${runs(total)}): not like for like`, transports.ALL, false,
      choice.filter === transports.ALL));
    select.addEventListener('change', () => {
      const next = new URLSearchParams(kept);
      if (select.value !== choice.defaultFilter) next.set('transport', select.value);
      const hash = next.toString();
      root.history.replaceState(null, '', hash ? `#${hash}` : root.location.pathname + root.location.search);
      root.location.reload();
    });
  }

  /** For the chart stamps: which transport the charts show, '' when the set has one. */
  function stampText(choice) {
    if (choice.groups.length < 2) return '';
    if (choice.filter === transports.ALL) return ' · every transport — not like for like';
    return ` · transports ${transports.describe(choice.filter)}`;
  }

  root.Sockbench.transportFilter = { chooseFilter, hashPart, renderTransportFilter, stampText };
})(self);
