// Entry point of index.html: the summary across runs. Shows the friendly
// "how to produce results" page when there are none, lists broken result
// files, shows one result set at a time (a folder of results/, picked by the
// reader, kept in the URL as #set=), explains the two broadcast algorithms and
// groups runs by them, shows one SockJS transport at a time when the set has
// several (#transport=, transport-filter.js), gives each figure as a share of
// the set's limit server, and lets the reader choose which runs the charts
// overlay (like for like first).
(function (root) {
  'use strict';

  const {
    siteData, summaryFigures, summaryCharts, summaryTable, errorsPanel, runSelection, quickPicks, pageShell, algorithm, format,
    verdictPanel, chartFiles, limitShare, sessionsFigures, transports, transportFilter,
  } = root.Sockbench;

  /**
   * The result set the URL names (#set=), else the build's default. Switching
   * sets reloads the page on the new hash: every part of the summary (groups,
   * picks, verdict, colours) is made for one set.
   */
  function chosenSet(data) {
    const named = new URLSearchParams(root.location.hash.replace(/^#/, '')).get('set');
    return data.sets.some((set) => set.name === named) ? named : data.default_set;
  }

  function renderSetPicker(data, chosen) {
    const box = document.getElementById('result-set');
    if (data.sets.length < 2) return;
    box.hidden = false;
    const select = document.getElementById('set-selector');
    for (const set of data.sets) {
      const title = set.title === set.name ? set.name : `${set.title} (${set.name})`;
      select.appendChild(new Option(`${title}: ${set.runs} run${set.runs === 1 ? '' : 's'}`, set.name, false, set.name === chosen));
    }
    select.addEventListener('change', () => {
      const hash = select.value === data.default_set ? '' : `#set=${encodeURIComponent(select.value)}`;
      root.history.replaceState(null, '', hash || root.location.pathname + root.location.search);
      root.location.reload();
    });
    const set = data.sets.find((s) => s.name === chosen);
    const description = document.getElementById('set-description');
    description.textContent = set.description ? `${set.description} ` : '';
    if (set.readme_href) {
      const link = document.createElement('a');
      link.href = set.readme_href;
      link.textContent = 'The set\'s README';
      description.appendChild(link);
    }
  }

  /** How many of the set's runs are the sessions profile's, left to the Sessions page. */
  function renderSessionsNote(count) {
    const note = document.getElementById('sessions-note');
    if (count === 0) return;
    note.hidden = false;
    document.getElementById('sessions-note-count').textContent =
      `${count} run${count === 1 ? '' : 's'} of the sessions profile in this set ${count === 1 ? 'is' : 'are'}`;
  }

  /** Why some figures of the set have no share of the limit, once each. */
  function renderShareNotes(runs, shares) {
    const hasLimit = runs.some((run) => shares.limitOf(run.run_id));
    document.getElementById('limit-share-note').hidden = !hasLimit;
    const list = document.getElementById('limit-share-notes');
    list.textContent = '';
    for (const note of shares.notes) {
      const item = document.createElement('li');
      item.textContent = note;
      list.appendChild(item);
    }
  }

  function button(text, onClick, dataset) {
    const node = document.createElement('button');
    node.type = 'button';
    node.textContent = text;
    Object.assign(node.dataset, dataset || {});
    node.addEventListener('click', onClick);
    return node;
  }

  /** One card per algorithm group present: what it is, how many runs, a button to show them. */
  function renderGroupCards(container, groupIds, selection) {
    container.textContent = '';
    for (const group of [...algorithm.GROUPS, algorithm.OTHER_GROUP]) {
      const ids = groupIds.get(group.key);
      if (!ids) continue;
      const card = document.createElement('section');
      card.className = 'algorithm-group';
      card.dataset.group = group.key;
      const title = document.createElement('h3');
      title.textContent = `${group.title} (${ids.length} run${ids.length === 1 ? '' : 's'})`;
      const text = document.createElement('p');
      text.className = 'group-explanation';
      text.textContent = `${group.explanation} `;
      const link = document.createElement('a');
      link.href = algorithm.METHODOLOGY_HREF;
      link.textContent = 'How it is measured';
      text.appendChild(link);
      card.append(title, text);
      container.appendChild(card);
    }
  }

  /**
   * The group picks: like for like (the default), coalesced, like for like
   * with 2011 overlaid, 2011 alone. Returns the default ids.
   */
  function groupPicks(groupIds) {
    const perMessage = groupIds.get('per-message') || [];
    const coalesced = groupIds.get('coalesced') || [];
    const old = groupIds.get('historic-2011') || [];
    const picks = [];
    if (perMessage.length) picks.push({ key: 'per-message', text: 'Like for like: one frame per message', ids: perMessage });
    if (coalesced.length) picks.push({ key: 'coalesced', text: 'Coalesced (fast modes)', ids: coalesced });
    if (old.length && perMessage.length) picks.push({ key: 'per-message+2011', text: 'One frame per message, today and 2011', ids: [...perMessage, ...old] });
    if (old.length) picks.push({ key: 'historic-2011', text: '2011 only (i7-2600K, mean RTT)', ids: old });
    for (const [key, ids] of groupIds) {
      if (key === 'other') picks.push({ key, text: 'Other modes', ids });
    }
    return picks;
  }

  function markActivePick(container, selection) {
    const selected = selection.selected();
    for (const node of container.querySelectorAll('button')) {
      const ids = node.dataset.ids.split(',').filter(Boolean);
      const active = ids.length === selected.size && ids.every((id) => selected.has(id));
      node.classList.toggle('active', active);
      node.setAttribute('aria-pressed', String(active));
    }
  }

  /** Which groups the selection holds, for the chart stamps ("one frame per message · 5 runs"). */
  function selectionStamp(runs, selection, builtAt, set, transportText) {
    const chosen = runs.filter((run) => selection.isSelected(run.run_id));
    const groups = [...new Set(chosen.map((run) => algorithm.groupByKey(algorithm.algorithmOf(run)).short))];
    const mixed = groups.length > 1 && groups.some((g) => /coalesced/.test(g)) ? ' — MIXED ALGORITHMS, not like for like' : '';
    const from = set ? ` · set ${set}` : '';
    return `${chosen.length} run(s): ${groups.join(' + ') || 'none'}${mixed}${transportText}${from} · y ${selection.yScale()} · ` +
      `built ${format.utcMinute(builtAt)}`;
  }

  function start() {
    const data = siteData.loadSiteData();
    pageShell.showBuildInfo(data);
    errorsPanel.renderErrorsPanel(document.getElementById('result-errors'), data.errors);

    if (data.runs.length === 0) {
      document.getElementById('empty-state').hidden = false;
      document.getElementById('summary').hidden = true;
      if (data.errors.length > 0) document.getElementById('empty-state-errors').hidden = false;
      return;
    }

    // One result set at a time; a build without sets (older data) shows every run.
    const sets = Array.isArray(data.sets) ? data.sets : [];
    const set = sets.length ? chosenSet(data) : null;
    const setRuns = set ? data.runs.filter((run) => run.set === set) : data.runs;
    // Sessions runs are judged on every copy's p99, not the mean own-copy RTT
    // ranked here: they are compared on sessions.html only, and the page says so.
    const summaryRuns = setRuns.filter((run) => !sessionsFigures.isSessionsRun(run));
    renderSessionsNote(setRuns.length - summaryRuns.length);
    if (set) renderSetPicker(data, set);
    // One transport at a time, as one algorithm at a time (websocket by default: the pages as they were).
    const transportChoice = transportFilter.chooseFilter(summaryRuns);
    const kept = set && set !== data.default_set ? { set } : {};
    transportFilter.renderTransportFilter({
      box: document.getElementById('transport-filter'), select: document.getElementById('transport-selector'),
    }, transportChoice, kept);
    const runs = transports.filterRuns(summaryRuns, transportChoice.filter);
    // 2011's files name no transport and read as websocket, as every file before v6: offered beside websocket runs only.
    const historicRuns = transports.filterRuns(data.historic, transportChoice.filter);
    const shares = limitShare.limitShares(runs, data.limit_servers || []);
    renderShareNotes(runs, shares);
    const allRuns = [...runs, ...historicRuns];
    const labels = [...summaryFigures.distinctLabels(runs), ...historicRuns.map((run) => run.label)];
    const groupIds = algorithm.idsByGroup(allRuns);
    const picks = groupPicks(groupIds);
    // Like for like by default; with no per-message run, the first group there is.
    const defaultIds = picks.length ? picks[0].ids : runs.map((run) => run.run_id);

    const groupPickBox = document.getElementById('group-picks');
    const yScaleSelect = document.getElementById('y-scale-selector');
    const render = () => {
      const view = {
        runs: allRuns,
        labels,
        isSelected: selection.isSelected,
        onToggleRun: (id, on) => selection.set(id, on),
        yScale: selection.yScale(),
        shares,
      };
      summaryCharts.drawSummaryChart('saturation', {
        chart: document.getElementById('chart-saturation'),
        legend: document.getElementById('legend-saturation'),
        details: document.getElementById('details-saturation'),
      }, view);
      summaryCharts.drawSummaryChart('rss', {
        chart: document.getElementById('chart-rss'),
        legend: document.getElementById('legend-rss'),
      }, view);
      summaryTable.renderSummaryTable(document.getElementById('summary-table'), allRuns, labels, selection, shares);
      document.getElementById('selection-count').textContent =
        `${selection.selected().size} of ${allRuns.length} run(s) overlaid`;
      const stamp = selectionStamp(allRuns, selection, data.built_at, sets.length > 1 ? set : null,
        transportFilter.stampText(transportChoice));
      document.getElementById('stamp-saturation').textContent = stamp;
      document.getElementById('stamp-rss').textContent = stamp;
      yScaleSelect.value = selection.yScale();
      markActivePick(groupPickBox, selection);
    };
    const selection = runSelection.createRunSelection(allRuns.map((r) => r.run_id), defaultIds, render,
      { ...kept, ...transportFilter.hashPart(transportChoice) });

    renderGroupCards(document.getElementById('algorithm-groups'), groupIds, selection);
    // Under each chart, its published images, one per algorithm group (make charts); they show the
    // default transport only (chart-files.js), so another transport's view links none.
    const imagesShown = transportChoice.filter === transportChoice.defaultFilter;
    for (const kind of imagesShown ? ['saturation', 'rss'] : []) {
      const images = chartFiles.chartList(data).filter((c) => c.kind === 'summary' && c.chart === kind && (c.set || null) === set)
        .map((c) => ({ ...c, caption: algorithm.groupByKey(c.group).short }));
      const links = chartFiles.imageLinks(document, data, images);
      if (links) document.getElementById(`legend-${kind}`).after(links);
    }
    verdictPanel.renderVerdictPanel({ select: document.getElementById('verdict-level'), list: document.getElementById('verdict-sentences') }, allRuns,
      data.limit_servers || []);
    for (const pick of picks) {
      groupPickBox.appendChild(button(pick.text, () => selection.only(pick.ids), { group: pick.key, ids: pick.ids.join(',') }));
    }
    const quickBox = document.getElementById('quick-picks');
    const mixesTransports = transportChoice.filter === transports.ALL && transportChoice.groups.length > 1;
    quickBox.appendChild(button(`All runs (mixes algorithms${mixesTransports ? ' and transports' : ''})`, () => selection.only(allRuns.map((r) => r.run_id)), { ids: allRuns.map((r) => r.run_id).join(',') }));
    quickBox.appendChild(button('None', () => selection.only([]), { ids: '' }));
    for (const pick of quickPicks.quickPicks(runs).slice(2)) {
      quickBox.appendChild(button(pick.text, () => selection.only(pick.ids), { ids: pick.ids.join(',') }));
    }
    yScaleSelect.addEventListener('change', () => selection.setYScale(yScaleSelect.value));
    render();
  }

  pageShell.runPage(start);
})(self);
