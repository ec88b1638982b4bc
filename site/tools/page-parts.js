'use strict';
// Markup more than one page shows, kept once. A page names a part on a line of
// its own, `<!-- sockbench:part NAME -->`; the build puts the part's lines
// there, each indented as that line is, so the built page reads as if written
// out by hand.

const PAGE_PARTS = {
  // The line under every results page; page-shell.js fills #build-info.
  footer: ['<footer class="site-footer"><span id="build-info"></span> Charts drawn with flot.</footer>'],
  // The scales a chart axis offers, the default first.
  'axis-scale-options': ['<option value="log">logarithmic</option>', '<option value="linear">linear</option>'],
};

const PART_LINE = /^([ \t]*)<!-- sockbench:part ([a-z-]+) -->$/gm;

/** The part names `html` uses, in order, repeats included. */
function partsUsed(html) {
  return [...html.matchAll(PART_LINE)].map((m) => m[2]);
}

/** `html` (the page `page`, named in errors) with each part line replaced by the part. */
function withPageParts(page, html) {
  return html.replace(PART_LINE, (line, indent, name) => {
    if (!Object.hasOwn(PAGE_PARTS, name)) throw new Error(`${page} names ${name}, not a part of tools/page-parts.js`);
    return PAGE_PARTS[name].map((partLine) => indent + partLine).join('\n');
  });
}

module.exports = { PAGE_PARTS, partsUsed, withPageParts };
