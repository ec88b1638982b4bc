/* SockJS framing over a websocket: what a client sends (a JSON string or an
 * array of strings) and the frames we send (o, h, a[...], c[code,"reason"]). */
#ifndef LIMIT_SOCKJS_FRAMES_H
#define LIMIT_SOCKJS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "buffers.h"

/* Decode one client message: a JSON string or a JSON array of strings,
 * whitespace around allowed; an empty message or [] carries none. The strings
 * are appended to `out` as records (a uint32_t length, then the UTF-8 bytes)
 * and *count says how many. Returns 0, or -1 when the message is malformed
 * (*why says how); then `out` is left as it was. p must be valid UTF-8. */
int sockjs_decode_client(const char *p, size_t n, struct buf *out, size_t *count, const char **why);

/* Walk the records sockjs_decode_client() wrote: returns the next string's
 * start and sets *len, or NULL at the end. *pos starts at 0. */
const char *sockjs_next_record(const struct buf *records, size_t *pos, uint32_t *len);

/* Append s[0..n) as a JSON string literal, escaping what the SockJS protocol
 * asks servers to escape (control characters, U+200C-U+200F, U+2028-U+202F,
 * U+2060-U+206F, U+FFF0-U+FFFF; browsers mangle them otherwise). -1 when out
 * of memory. */
int sockjs_encode_string(struct buf *out, const char *s, size_t n);

/* The close frame c[code,"reason"] into out (reason: plain ASCII). */
int sockjs_close_frame(struct buf *out, int code, const char *reason);

#endif
