'use strict';
// --sessions arithmetic: one serving process's share, the open files it needs,
// the workers a refusal suggests, the limit read from /proc/self/limits, and
// the session budget that holds the share.
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { filesNeeded, workersThatFit, softLimit, ownSoftLimit, refusalLine } = require('./open-files');
const { parseCommandLine } = require('./cli');
const { DEFAULT_MAX_SESSIONS, maxSessionsForShare } = require('./session-budget-default');

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63432                63432                processes
Max open files            20000                20000                files
Max locked memory         8388608              8388608              bytes
`;

describe('open files for --sessions', () => {
  it('a process needs its share rounded up plus 64', () => {
    assert.equal(filesNeeded(50000, 1), 50064);
    assert.equal(filesNeeded(50000, 3), 16667 + 64);
    assert.equal(filesNeeded(1, 64), 65);
  });

  it('suggests the fewest workers whose share fits, none beyond 64', () => {
    assert.equal(workersThatFit(50000, 20000), 3);
    assert.equal(workersThatFit(1000, 200), 8); // 1000 / 7 = 143 > 136; 1000 / 8 = 125
    assert.equal(workersThatFit(19936, 20000), 1);
    assert.equal(workersThatFit(100000, 200), null);
    assert.equal(workersThatFit(10, 64), null);
  });

  it('refuses in one line naming need, limit and workers; a share that fits exactly passes', () => {
    assert.equal(refusalLine('broadcast.js', 50000, 1, 20000),
      'broadcast.js: 50000 sessions need 50064 open files per process but the limit is 20000 (ulimit -n); ' +
      'use --workers 3 or raise ulimit -n');
    assert.match(refusalLine('broadcast.js', 100000, 1, 200), /\(ulimit -n\); raise ulimit -n$/);
    assert.equal(refusalLine('broadcast.js', 19936, 1, 20000), null);
    assert.notEqual(refusalLine('broadcast.js', 19937, 1, 20000), null);
    assert.equal(refusalLine('broadcast.js', 50000, 3, 20000), null);
  });

  it('reads the soft limit from /proc/self/limits, null when there is none', () => {
    assert.equal(softLimit(LIMITS), 20000);
    assert.equal(softLimit(LIMITS.replace('20000                20000', '1024                 4096')), 1024);
    assert.equal(softLimit(LIMITS.replace(/20000 {16}20000/, 'unlimited            unlimited')), null);
    assert.equal(softLimit('Max processes 5 5 processes\n'), null);
    assert.equal(typeof ownSoftLimit().limit, 'number', 'this Linux process has a limit');
  });

  it('without --max-sessions the budget holds the share and a quarter more, never below the default', () => {
    assert.equal(maxSessionsForShare(10000), 12500);
    assert.equal(maxSessionsForShare(10), DEFAULT_MAX_SESSIONS);
    assert.equal(maxSessionsForShare(10000000), 1000000);
    assert.equal(parseCommandLine(['--sessions', '30000', '--workers', '2']).maxSessions, 18750);
    assert.equal(parseCommandLine(['--sessions', '30000', '--max-sessions', '7']).maxSessions, 7);
    assert.equal(parseCommandLine([]).maxSessions, DEFAULT_MAX_SESSIONS);
  });
});
