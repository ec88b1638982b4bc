// An HTML legend beside a flot chart: one row per series with a checkbox that
// hides/shows it and a cell that shows the series' value under the crosshair.
// (flot's own legend is drawn as an inert SVG, so it cannot hold inputs.)
(function (root) {
  'use strict';

  // The legend's picture of each flot marker shape.
  const GLYPHS = { circle: '●', square: '■', diamond: '◆', triangle: '▲' };
  const HOLLOW_GLYPHS = { circle: '○', square: '□', diamond: '◇', triangle: '△' };

  /**
   * @param {HTMLElement} container emptied and filled with the legend
   * @param {{key: string, label: string, color: string, visible: boolean,
   *          marker?: string, hollow?: boolean, disabledReason?: string}[]} entries
   *   one per series; marker: the flot symbol its points use (circle,
   *   square, diamond, triangle), shown on the swatch; hollow: unfilled
   * @param {{onToggle: (key: string, visible: boolean) => void,
   *          extraRows?: HTMLElement[]}} options extraRows: static key rows
   *   (threshold, markers) appended after the series
   * @returns {{showValues: (caption: string, valueByKey: Map<string,string>) => void,
   *            clearValues: () => void}}
   */
  function renderSeriesLegend(container, entries, options) {
    container.textContent = '';
    container.classList.add('series-legend');
    const caption = document.createElement('div');
    caption.className = 'legend-caption';
    container.appendChild(caption);

    const list = document.createElement('ul');
    const valueCells = new Map();
    for (const entry of entries) {
      const item = document.createElement('li');
      item.className = 'legend-series';
      item.dataset.key = entry.key;
      const label = document.createElement('label');
      const checkbox = document.createElement('input');
      checkbox.type = 'checkbox';
      checkbox.checked = entry.visible;
      checkbox.dataset.key = entry.key;
      checkbox.disabled = Boolean(entry.disabledReason);
      checkbox.addEventListener('change', () => options.onToggle(entry.key, checkbox.checked));
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = entry.color;
      if (entry.marker) {
        const glyph = document.createElement('span');
        glyph.className = 'swatch-marker';
        glyph.textContent = (entry.hollow ? HOLLOW_GLYPHS : GLYPHS)[entry.marker] || '';
        glyph.style.color = entry.color;
        swatch.appendChild(glyph);
        swatch.classList.add('with-marker');
        swatch.dataset.marker = entry.marker;
      }
      const text = document.createElement('span');
      text.className = 'legend-label';
      text.textContent = entry.label;
      label.append(checkbox, swatch, text);
      if (entry.disabledReason) {
        label.title = entry.disabledReason;
        item.classList.add('disabled');
      }
      const value = document.createElement('span');
      value.className = 'legend-value';
      valueCells.set(entry.key, value);
      item.append(label, value);
      list.appendChild(item);
    }
    for (const row of options.extraRows || []) list.appendChild(row);
    container.appendChild(list);

    const clearValues = () => {
      caption.textContent = 'Hover over the chart to read values';
      for (const cell of valueCells.values()) cell.textContent = '';
    };
    clearValues();
    return {
      showValues(captionText, valueByKey) {
        caption.textContent = captionText;
        for (const [key, cell] of valueCells) cell.textContent = valueByKey.get(key) || '';
      },
      clearValues,
    };
  }

  /** A static legend row explaining a marker (swatch drawn by CSS class). */
  function legendKeyRow(markerClass, text) {
    const item = document.createElement('li');
    item.className = 'legend-key';
    const marker = document.createElement('span');
    marker.className = `marker ${markerClass}`;
    const label = document.createElement('span');
    label.textContent = text;
    item.append(marker, label);
    return item;
  }

  (root.Sockbench = root.Sockbench || {}).seriesLegend = { renderSeriesLegend, legendKeyRow };
})(self);
