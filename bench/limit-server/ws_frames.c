/* RFC 6455 frames (ws_frames.h). Only what a server needs: client frames are
 * always masked (section 5.1) and ours never are; we never fragment, since our
 * frames are built whole in memory before the first byte is written. */
#include "ws_frames.h"

#include <string.h>

long ws_parse_frame(unsigned char *p, size_t n, size_t max_payload, struct ws_frame *f)
{
    if (n < 2)
        return 0;
    int fin = p[0] >> 7;
    int rsv = (p[0] >> 4) & 7;
    int opcode = p[0] & 15;
    int masked = p[1] >> 7;
    uint64_t len = p[1] & 127;
    size_t head = 2;
    /* No extension is negotiated, so reserved bits must be clear; a client
     * must mask (section 5.1: the server MUST close otherwise). */
    if (rsv || !masked)
        return -1002;
    if (opcode != WS_CONT && opcode != WS_TEXT && opcode != WS_BINARY && opcode != WS_CLOSE && opcode != WS_PING &&
        opcode != WS_PONG)
        return -1002;
    if (len == 126) {
        if (n < 4)
            return 0;
        len = (uint64_t)p[2] << 8 | p[3];
        head = 4;
    } else if (len == 127) {
        if (n < 10)
            return 0;
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | p[i];
        head = 10;
    }
    /* Control frames are short and whole (section 5.5). */
    if (opcode >= 8 && (len > 125 || !fin))
        return -1002;
    if (len > max_payload)
        return -1009;
    if (n < head + 4 + len)
        return 0;
    unsigned char *mask = p + head;
    unsigned char *data = mask + 4;
    /* Unmask four bytes at a time where we can: this runs on every byte the
     * clients send. */
    size_t i = 0;
    uint32_t m32;
    memcpy(&m32, mask, 4);
    for (; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, data + i, 4);
        w ^= m32;
        memcpy(data + i, &w, 4);
    }
    for (; i < len; i++)
        data[i] ^= mask[i & 3];
    f->fin = fin;
    f->opcode = opcode;
    f->payload = data;
    f->len = (size_t)len;
    return (long)(head + 4 + len);
}

size_t ws_header_size(size_t len)
{
    return len < 126 ? 2 : len <= 0xFFFF ? 4 : 10;
}

size_t ws_write_header(unsigned char *out, int opcode, size_t len)
{
    out[0] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        out[1] = (unsigned char)len;
        return 2;
    }
    if (len <= 0xFFFF) {
        out[1] = 126;
        out[2] = (unsigned char)(len >> 8);
        out[3] = (unsigned char)len;
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; i++)
        out[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
    return 10;
}

int utf8_valid(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i <= need)
            return 0;
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += need + 1;
    }
    return 1;
}
