'use strict';
// What the site says about each result set (find-result-files.js finds them):
// a title and a one-paragraph description, read from the set folder's own
// README.md, the one place that describes the set (GitHub shows it beside the
// files, the site shows it above the charts). Its first "# " heading is the
// title, the first paragraph after it the description; Markdown marks are
// dropped (the page prints text). A set folder without a README.md is titled
// by its name and has no description. The results directory's own README.md
// documents the file format, not a set, so SCRATCH_SET has a fixed text.

const fs = require('fs');
const path = require('path');
const { SCRATCH_SET } = require('./find-result-files');

const README = 'README.md';

const SCRATCH_DESCRIPTION = {
  title: 'Runs made here (results/*.json, not committed)',
  description: 'Every result file directly in results/: what make bench and its kin wrote on this machine. ' +
    'They are scratch (git-ignored), from any session, so they are not one like-for-like set.',
};

/** Markdown inline marks to plain text: `code`, **bold**, _em_, [text](link) -> text. */
function plainText(markdown) {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * @param {string} text a README.md
 * @returns {{title: string|null, description: string}} the first "# " heading
 *   and the first paragraph after it (lines up to a blank line, a heading, a
 *   list, a table or a code fence), as plain text
 */
function describeReadme(text) {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => /^# \S/.test(line));
  if (at < 0) return { title: null, description: '' };
  const paragraph = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') {
      if (paragraph.length) break;
      continue;
    }
    if (/^(#|\s*[-*+] |\s*\d+\. |\||```|>)/.test(line)) break;
    paragraph.push(line);
  }
  return { title: plainText(lines[at].slice(2)), description: plainText(paragraph.join(' ')) };
}

/**
 * @param {string} resultsDir the results directory
 * @param {{name: string, dir: string}} set from findResultSets
 * @returns {{name: string, title: string, description: string, readme: string|null}}
 *   readme: the README's path relative to resultsDir (null without one)
 */
function describeSet(resultsDir, set) {
  const base = { name: set.name };
  if (set.name === SCRATCH_SET) return { ...base, ...SCRATCH_DESCRIPTION, readme: null };
  const file = path.join(resultsDir, set.dir, README);
  if (!fs.existsSync(file)) return { ...base, title: set.name, description: '', readme: null };
  const { title, description } = describeReadme(fs.readFileSync(file, 'utf8'));
  return { ...base, title: title || set.name, description, readme: `${set.dir}/${README}` };
}

module.exports = { describeReadme, describeSet, plainText };
