'use strict';
// What one Redis PUBLISH carries between server processes of one broadcast
// domain. The format is the cross-runtime contract of docs/protocol.md §6
// (server-python speaks it too, so Node and Python processes can share one
// Redis); this module is its only encoder/decoder on the Node side.
//
//   <origin><kind><body>
//
//   origin  16 lowercase hex characters, random per process: a process skips
//           its own publishes when Redis echoes them back (it already
//           delivered them to its own sessions, directly)
//   kind    'a': body is the inside of a SockJS message frame, so kind+body is
//                the whole `a[...]` frame, ready to hand to every session
//                (fast mode: one publish per flush, the batch encoded once)
//           'm': body is one message, the raw string (naive mode: one publish
//                per message)

const { randomBytes } = require('node:crypto');

const ORIGIN_LENGTH = 16;
const ORIGIN_PATTERN = /^[0-9a-f]{16}$/;

/** A fresh origin id for this process. */
function newOrigin() {
  return randomBytes(ORIGIN_LENGTH / 2).toString('hex');
}

/** The envelope of a batch whose SockJS frame is `frame` (`a[...]`). */
function batchEnvelope(origin, frame) {
  return origin + frame;
}

/** The envelope of one message (naive mode). */
function messageEnvelope(origin, message) {
  return origin + 'm' + message;
}

/** Something on the channel that is not an envelope of this format. */
class EnvelopeError extends Error {}

/**
 * @param {string} envelope as received from Redis
 * @returns {{origin: string, kind: 'a'|'m', body: string}} for 'a', body is
 *          the whole `a[...]` frame; for 'm', the message
 * @throws {EnvelopeError}
 */
function openEnvelope(envelope) {
  const origin = envelope.slice(0, ORIGIN_LENGTH);
  const kind = envelope[ORIGIN_LENGTH];
  if (!ORIGIN_PATTERN.test(origin) || (kind !== 'a' && kind !== 'm')) {
    throw new EnvelopeError(`not a sockbench relay envelope: ${JSON.stringify(envelope.slice(0, 40))}`);
  }
  if (kind === 'a') {
    if (envelope[ORIGIN_LENGTH + 1] !== '[' || envelope[envelope.length - 1] !== ']') {
      throw new EnvelopeError(`batch envelope without an a[...] frame: ${JSON.stringify(envelope.slice(0, 40))}`);
    }
    return { origin, kind, body: envelope.slice(ORIGIN_LENGTH) };
  }
  return { origin, kind, body: envelope.slice(ORIGIN_LENGTH + 1) };
}

/**
 * The messages of an `a[...]` frame (only needed for sessions that cannot
 * take the frame as is: raw websockets, sessions between two polls).
 * @throws {EnvelopeError} if the frame is not a JSON array of strings
 */
function frameMessages(frame) {
  let messages;
  try {
    messages = JSON.parse(frame.slice(1));
  } catch (err) {
    throw new EnvelopeError(`batch frame is not JSON: ${err.message}`);
  }
  if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string')) {
    throw new EnvelopeError('batch frame is not an array of strings');
  }
  return messages;
}

module.exports = {
  ORIGIN_LENGTH, newOrigin, batchEnvelope, messageEnvelope, openEnvelope, frameMessages, EnvelopeError,
};
