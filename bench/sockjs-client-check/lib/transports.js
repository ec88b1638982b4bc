'use strict';
// The sockjs-client 1.x transports a desktop Chromium can use, in
// sockjs-client's own order of preference. Left out: xdr-streaming and
// xdr-polling (Internet Explorer's XDomainRequest only) and htmlfile (needs
// the page and the server on one origin; iframe-htmlfile covers it).
const TRANSPORTS = Object.freeze([
  'websocket', 'xhr-streaming', 'eventsource', 'iframe-eventsource', 'iframe-htmlfile',
  'xhr-polling', 'iframe-xhr-polling', 'jsonp-polling',
]);

module.exports = { TRANSPORTS };
