/* The websocket handshake's Sec-WebSocket-Accept value (RFC 6455 section 4.2.2). */
#ifndef LIMIT_WS_ACCEPT_H
#define LIMIT_WS_ACCEPT_H

#include <stddef.h>

/* base64 of n bytes: 4 * ceil(n / 3) characters, written to out with a NUL. */
void base64_encode(const unsigned char *in, size_t n, char *out);

/* base64(SHA-1(key + GUID)) into out (29 bytes: 28 characters and a NUL).
 * key: the client's Sec-WebSocket-Key, keylen bytes (at most 128). 0, or -1
 * when the key is too long. */
int ws_accept_value(const char *key, size_t keylen, char out[29]);

#endif
