'use strict';
// methodology.html: docs/methodology.md, published beside the charts so the
// pages can link to it (the site is self-contained and names no network
// address). That Markdown file stays the one source of the text; this turns
// the small subset it uses (## headings, paragraphs, **bold**, *emphasis*,
// `code`, "- " lists, [links](...)) into HTML, escaping everything else.
// Links become their text: they point into the repository, which the
// published site does not carry.

const fs = require('fs');

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** [text](target) -> text; the text may itself hold `code`. */
function dropLinks(text) {
  return text.replace(/!?\[((?:[^[\]]|\[[^\]]*\])*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1');
}

/** Inline Markdown: `code` first (its content is literal), then **bold** and *emphasis*. */
function inline(text) {
  return dropLinks(text).split(/(`[^`]*`)/).map((part) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
    return escapeHtml(part)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>');
  }).join('');
}

/**
 * The id GitHub gives a heading (its github-slugger rule), so a link to
 * docs/methodology.md#x on GitHub and to methodology.html#x on the site name
 * the same section: lower case, code/link/emphasis markup gone, every
 * character that is not a letter, digit, mark, space, hyphen or underscore
 * dropped, each space a hyphen. docs/linkcheck/check_links.py applies the same rule.
 */
function headingId(markdown) {
  const text = dropLinks(markdown).replace(/`([^`]*)`/g, '$1').replace(/(?<![\p{L}\p{N}_])[*_]+|[*_]+(?![\p{L}\p{N}_])/gu, '');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/**
 * The page's title (its "# " heading) and the Markdown after it.
 * @returns {{title: string, body: string}|null} null when the file has no "# " heading
 */
function splitTitle(markdown) {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => /^# \S/.test(line));
  if (at < 0) return null;
  return { title: lines[at].slice(2).trim(), body: lines.slice(at + 1).join('\n').trim() };
}

function markdownBlocksToHtml(markdown) {
  return markdown.split(/\n\s*\n/).map((block) => {
    const heading = /^(#{2,3}) (.+)$/.exec(block.trim());
    if (heading && !block.trim().includes('\n')) {
      const tag = `h${heading[1].length}`;
      return `<${tag} id="${escapeHtml(headingId(heading[2]))}">${inline(heading[2])}</${tag}>`;
    }
    const lines = block.split('\n');
    if (lines.every((line) => /^\s*- /.test(line) || /^\s{2,}\S/.test(line))) {
      const items = block.split(/\n(?=\s*- )/).map((item) => `<li>${inline(item.replace(/^\s*- /, '').replace(/\s*\n\s*/g, ' '))}</li>`);
      return `<ul>${items.join('')}</ul>`;
    }
    return `<p>${inline(block.replace(/\s*\n\s*/g, ' '))}</p>`;
  }).join('\n');
}

/**
 * @param {string} markdownPath docs/methodology.md
 * @returns {string} the page's HTML; its <h1> keeps id="methodology", which the summary page links to
 */
function methodologyPage(markdownPath) {
  const page = splitTitle(fs.readFileSync(markdownPath, 'utf8'));
  if (page === null) throw new Error(`${markdownPath} has no "# " title heading (the summary page links to its page)`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(page.title)} — sockbench</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <header class="site-header"><a class="site-name" href="index.html">sockbench results</a></header>
  <main class="prose">
    <h1 id="methodology">${inline(page.title)}</h1>
    <p class="meta">From the project's docs/methodology.md.</p>
${markdownBlocksToHtml(page.body)}
  </main>
</body>
</html>
`;
}

module.exports = { methodologyPage, splitTitle, headingId, markdownBlocksToHtml };
