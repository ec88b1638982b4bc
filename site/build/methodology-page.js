'use strict';
// methodology.html: the README's "Methodology" section, published beside the
// charts so the pages can link to it (the site is self-contained and names no
// network address). The README stays the one source of that text; this turns
// the small Markdown subset that section uses (paragraphs, **bold**, `code`,
// "- " lists) into HTML, escaping everything else.

const fs = require('fs');

const SECTION = 'Methodology';

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inline Markdown: `code` first (its content is literal), then **bold** and *emphasis*. */
function inline(text) {
  return text.split(/(`[^`]*`)/).map((part) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
    return escapeHtml(part)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>');
  }).join('');
}

/**
 * The body of "## <title>" up to the next "## " heading.
 * @returns {string|null} null when the README has no such section
 */
function sectionOf(markdown, title) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start < 0) return null;
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n').trim();
}

function markdownBlocksToHtml(markdown) {
  return markdown.split(/\n\s*\n/).map((block) => {
    const lines = block.split('\n');
    if (lines.every((line) => /^\s*- /.test(line) || /^\s{2,}\S/.test(line))) {
      const items = block.split(/\n(?=\s*- )/).map((item) => `<li>${inline(item.replace(/^\s*- /, '').replace(/\s*\n\s*/g, ' '))}</li>`);
      return `<ul>${items.join('')}</ul>`;
    }
    return `<p>${inline(block.replace(/\s*\n\s*/g, ' '))}</p>`;
  }).join('\n');
}

/**
 * @param {string} readmePath the repository's README.md
 * @returns {string} the page's HTML
 */
function methodologyPage(readmePath) {
  const section = sectionOf(fs.readFileSync(readmePath, 'utf8'), SECTION);
  if (section === null) throw new Error(`${readmePath} has no "## ${SECTION}" section (the summary page links to it)`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Methodology — sockbench</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <header class="site-header"><a class="site-name" href="index.html">sockbench results</a></header>
  <main class="prose">
    <h1 id="methodology">Methodology</h1>
    <p class="meta">From the project's README.md, section “${SECTION}”.</p>
${markdownBlocksToHtml(section)}
  </main>
</body>
</html>
`;
}

module.exports = { methodologyPage, sectionOf, markdownBlocksToHtml };
