// Lists the result files the build could not use (unparsable, failing the
// schema, duplicate run id), so a bad file is visible rather than silently
// missing, while every good run still renders.
(function (root) {
  'use strict';

  function renderErrorsPanel(container, errors) {
    container.textContent = '';
    container.hidden = errors.length === 0;
    if (errors.length === 0) return;
    const title = document.createElement('h2');
    title.textContent = `${errors.length} result file(s) could not be used`;
    container.appendChild(title);
    const list = document.createElement('ul');
    for (const error of errors) {
      const item = document.createElement('li');
      item.className = 'result-error';
      item.dataset.source = error.source;
      const file = document.createElement('a');
      file.href = error.raw_href;
      file.textContent = error.source;
      const problem = document.createElement('span');
      problem.textContent = `: ${error.problem}`;
      const details = document.createElement('ul');
      for (const detail of error.details) {
        const line = document.createElement('li');
        line.textContent = detail;
        details.appendChild(line);
      }
      item.append(file, problem, details);
      list.appendChild(item);
    }
    container.appendChild(list);
  }

  root.Sockbench.errorsPanel = { renderErrorsPanel };
})(self);
