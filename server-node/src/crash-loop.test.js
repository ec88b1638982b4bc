'use strict';
// The crash-loop rule of docs/protocol.md §6.2 on a clock the test drives.

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { CrashLoopWatch } = require('./crash-loop');

describe('CrashLoopWatch', () => {
  it('the 5th death within 10 s of the first of those 5 is a crash loop', () => {
    const watch = new CrashLoopWatch();
    for (const t of [0, 1000, 2000, 3000]) assert.equal(watch.death(t), null);
    assert.equal(watch.death(10000), 5);
  });

  it('5 deaths spread over more than 10 s are not, and the window slides', () => {
    const watch = new CrashLoopWatch();
    for (const t of [0, 3000, 6000, 9000]) assert.equal(watch.death(t), null);
    assert.equal(watch.death(10001), null, '5th death 10.001 s after the 1st');
    assert.equal(watch.death(13000), 5, 'deaths at 3, 6, 9, 10.001, 13 s: within 10 s');
  });

  it('takes its limit and window as given', () => {
    const watch = new CrashLoopWatch(2, 100);
    assert.equal(watch.death(0), null);
    assert.equal(watch.death(101), null);
    assert.equal(watch.death(150), 2);
  });
});
