/* Sec-WebSocket-Accept: SHA-1 from libcrypto (the one library besides libc),
 * base64 by hand because libcrypto's BIO chain is far more than 20 bytes need. */
#include "ws_accept.h"

#include <openssl/sha.h>
#include <string.h>

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        *out++ = B64[v >> 18];
        *out++ = B64[(v >> 12) & 63];
        *out++ = B64[(v >> 6) & 63];
        *out++ = B64[v & 63];
    }
    if (n - i == 1) {
        unsigned v = (unsigned)in[i] << 16;
        *out++ = B64[v >> 18];
        *out++ = B64[(v >> 12) & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (n - i == 2) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8;
        *out++ = B64[v >> 18];
        *out++ = B64[(v >> 12) & 63];
        *out++ = B64[(v >> 6) & 63];
        *out++ = '=';
    }
    *out = 0;
}

int ws_accept_value(const char *key, size_t keylen, char out[29])
{
    /* RFC 6455's fixed GUID, appended to the client's key before hashing. */
    static const char GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    char joined[128 + sizeof GUID];
    if (keylen > 128)
        return -1;
    memcpy(joined, key, keylen);
    memcpy(joined + keylen, GUID, sizeof GUID - 1);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)joined, keylen + sizeof GUID - 1, digest);
    base64_encode(digest, SHA_DIGEST_LENGTH, out);
    return 0;
}
