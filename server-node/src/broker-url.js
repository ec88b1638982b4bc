'use strict';
// --broker redis://HOST[:PORT][/DB]: parsed and checked here, once, so the
// command line can refuse a typo with exit 2 before anything connects, and
// the relay, the READY line and the Redis channel name all read one value.

/** A --broker value that is not a usable redis:// URL. */
class BrokerUrlError extends Error {}

const DEFAULT_PORT = 6379;
// Redis' default `databases 16`; a larger DB would only fail at connect time.
const MAX_DB = 15;

/**
 * @typedef {object} BrokerAddress
 * @property {string} host  name or IP literal (IPv6 without brackets)
 * @property {number} port  TCP port 1-65535
 * @property {number} db    Redis database 0-15; also names the broadcast channel
 *                          (Redis pub/sub ignores SELECT, so the DB number is
 *                          made part of the channel to keep domains apart)
 * @property {string} url   canonical form, redis://host:port/db (what READY prints)
 */

/**
 * @param {string} text e.g. redis://127.0.0.1:6379/0
 * @returns {BrokerAddress}
 * @throws {BrokerUrlError} naming what is wrong
 */
function parseBrokerUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new BrokerUrlError(`expected redis://HOST[:PORT][/DB], got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'redis:') {
    throw new BrokerUrlError(`only redis:// brokers are supported, got ${JSON.stringify(text)}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new BrokerUrlError(`credentials, query and fragment are not supported, got ${JSON.stringify(text)}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new BrokerUrlError(`no host in ${JSON.stringify(text)}`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  if (port === 0) throw new BrokerUrlError(`port must be 1-65535, got 0 in ${JSON.stringify(text)}`);
  const path = url.pathname === '' || url.pathname === '/' ? '0' : url.pathname.slice(1);
  const db = /^[0-9]{1,2}$/.test(path) ? Number(path) : NaN;
  if (!(db >= 0 && db <= MAX_DB)) {
    throw new BrokerUrlError(`database must be an integer 0-${MAX_DB}, got ${JSON.stringify(path)} in ${JSON.stringify(text)}`);
  }
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return { host, port, db, url: `redis://${hostInUrl}:${port}/${db}` };
}

module.exports = { parseBrokerUrl, BrokerUrlError, DEFAULT_PORT, MAX_DB };
