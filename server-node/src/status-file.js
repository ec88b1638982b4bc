'use strict';
// --status-file PATH (docs/protocol.md §6.2): the current worker pids, for
// whoever needs them after READY (worker_pids in READY names the first
// workers only). Written to a temporary file in the same directory and
// renamed over PATH, so a reader never sees a partly written file; removed
// when the server exits.

const fs = require('node:fs');
const path = require('node:path');

/**
 * @param {string | null} filePath where to keep the status; null: a writer that does nothing
 * @returns {{write: (status: {supervisorPid: number, workerPids: number[], restarts: number}) => void,
 *            remove: () => void}}
 */
function createStatusFile(filePath) {
  if (filePath === null) return { write: () => {}, remove: () => {} };
  const temporary = path.join(path.dirname(filePath), `.${path.basename(filePath)}.${process.pid}.tmp`);
  return {
    write({ supervisorPid, workerPids, restarts }) {
      const body = JSON.stringify({ supervisor_pid: supervisorPid, worker_pids: workerPids, restarts });
      fs.writeFileSync(temporary, body + '\n');
      fs.renameSync(temporary, filePath);
    },
    remove() {
      for (const file of [temporary, filePath]) fs.rmSync(file, { force: true });
    },
  };
}

/**
 * Whether `filePath` can be a status file: its directory exists and is writable.
 * @returns {string | null} why not, or null when it can
 */
function statusFileProblem(filePath) {
  const dir = path.dirname(path.resolve(filePath));
  try {
    if (!fs.statSync(dir).isDirectory()) return `${dir} is not a directory`;
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    return `directory ${dir}: ${err.code === 'ENOENT' ? 'does not exist' : 'not writable'}`;
  }
  if (fs.existsSync(filePath) && fs.statSync(filePath).isDirectory()) return `${filePath} is a directory`;
  return null;
}

module.exports = { createStatusFile, statusFileProblem };
