'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { createLogger } = require('./log');

describe('createLogger', () => {
  const capture = (level) => {
    const lines = [];
    return { lines, logger: createLogger(level, (line) => lines.push(line)) };
  };

  it('at the default level drops sockjs-node debug and per-request lines, keeps its errors', () => {
    const { lines, logger } = capture('warning');
    logger.sockjs('debug', 'SockJS v0.3.24 bound to "/echo"');
    logger.sockjs('info', 'GET /echo/info 1ms 200');
    logger.sockjs('error', 'Exception on "GET /echo"');
    logger.warning('slow');
    logger.info('not shown');
    assert.equal(lines.length, 2);
    assert.match(lines[0], / ERROR sockjs: Exception on "GET \/echo"$/);
    assert.match(lines[1], / WARNING slow$/);
  });

  it('at debug writes everything, with an ISO timestamp', () => {
    const { lines, logger } = capture('debug');
    logger.sockjs('info', 'GET /echo/info 1ms 200');
    logger.debug('detail');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO sockjs: GET/);
  });

  it('treats a severity it does not know as an error rather than dropping it', () => {
    const { lines, logger } = capture('error');
    logger.sockjs('fatal', 'odd');
    assert.equal(lines.length, 1);
  });

  it('refuses an unknown level', () => {
    assert.throws(() => createLogger('verbose'), RangeError);
  });
});
