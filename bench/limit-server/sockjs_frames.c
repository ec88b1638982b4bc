/* SockJS framing (sockjs_frames.h): a small JSON reader that takes exactly
 * what a SockJS client may send, and the string encoder for our a[...] frames.
 * A full JSON library would be the only other dependency; strings and arrays
 * of strings are all the protocol carries. */
#include "sockjs_frames.h"

#include <stdio.h>
#include <string.h>

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static int hex4(const char *p, const char *end, unsigned *out)
{
    if (end - p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static int put_utf8(struct buf *out, unsigned cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 63));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 63));
        b[2] = (unsigned char)(0x80 | (cp & 63));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | cp >> 18);
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 63));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 63));
        b[3] = (unsigned char)(0x80 | (cp & 63));
        n = 4;
    }
    return buf_append(out, b, n);
}

/* One JSON string starting at *pp (at its opening quote), decoded into out as
 * a record. */
static int read_string(const char **pp, const char *end, struct buf *out, const char **why)
{
    const char *p = *pp + 1;
    size_t at = out->len;
    uint32_t len = 0;
    if (buf_append(out, &len, sizeof len) < 0) {
        *why = "out of memory";
        return -1;
    }
    for (;;) {
        /* Copy the run up to the next quote, backslash or control character
         * in one go: bench payloads are one such run. */
        const char *run = p;
        while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
            p++;
        if (buf_append(out, run, (size_t)(p - run)) < 0) {
            *why = "out of memory";
            return -1;
        }
        if (p >= end) {
            *why = "unterminated string";
            return -1;
        }
        if (*p == '"') {
            p++;
            break;
        }
        if ((unsigned char)*p < 0x20) {
            *why = "control character inside a string";
            return -1;
        }
        /* A backslash escape. */
        if (end - p < 2) {
            *why = "unterminated escape";
            return -1;
        }
        char e = p[1];
        p += 2;
        char c;
        switch (e) {
        case '"': c = '"'; break;
        case '\\': c = '\\'; break;
        case '/': c = '/'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u': {
            unsigned cp;
            if (hex4(p, end, &cp) < 0) {
                *why = "bad \\u escape";
                return -1;
            }
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, end, &lo) < 0 || lo < 0xDC00 ||
                    lo > 0xDFFF) {
                    /* A lone surrogate has no UTF-8 form, and every recipient
                     * gets UTF-8 (raw websockets) or JSON made from it. */
                    *why = "lone surrogate in \\u escape";
                    return -1;
                }
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                *why = "lone surrogate in \\u escape";
                return -1;
            }
            if (put_utf8(out, cp) < 0) {
                *why = "out of memory";
                return -1;
            }
            continue;
        }
        default:
            *why = "bad escape";
            return -1;
        }
        if (buf_append(out, &c, 1) < 0) {
            *why = "out of memory";
            return -1;
        }
    }
    len = (uint32_t)(out->len - at - sizeof len);
    memcpy(out->data + at, &len, sizeof len);
    *pp = p;
    return 0;
}

int sockjs_decode_client(const char *p, size_t n, struct buf *out, size_t *count, const char **why)
{
    const char *end = p + n;
    size_t mark = out->len;
    size_t got = 0;
    p = skip_ws(p, end);
    if (p == end) {
        /* SockJS: an empty message is ignored, not an error. */
        *count = 0;
        return 0;
    }
    if (*p == '"') {
        if (read_string(&p, end, out, why) < 0)
            goto bad;
        got = 1;
    } else if (*p == '[') {
        p = skip_ws(p + 1, end);
        if (p < end && *p == ']') {
            p++;
        } else {
            for (;;) {
                if (p >= end || *p != '"') {
                    *why = "array item is not a string";
                    goto bad;
                }
                if (read_string(&p, end, out, why) < 0)
                    goto bad;
                got++;
                p = skip_ws(p, end);
                if (p < end && *p == ',') {
                    p = skip_ws(p + 1, end);
                    continue;
                }
                if (p < end && *p == ']') {
                    p++;
                    break;
                }
                *why = "expected , or ] in array";
                goto bad;
            }
        }
    } else {
        *why = "not a JSON string or array of strings";
        goto bad;
    }
    if (skip_ws(p, end) != end) {
        *why = "text after the JSON value";
        goto bad;
    }
    *count = got;
    return 0;
bad:
    out->len = mark;
    return -1;
}

const char *sockjs_next_record(const struct buf *records, size_t *pos, uint32_t *len)
{
    if (*pos + sizeof *len > records->len)
        return NULL;
    memcpy(len, records->data + *pos, sizeof *len);
    const char *s = records->data + *pos + sizeof *len;
    *pos += sizeof *len + *len;
    return s;
}

int sockjs_encode_string(struct buf *out, const char *s, size_t n)
{
    static const char HEX[] = "0123456789abcdef";
    /* Worst case: every byte becomes \u00XX (6 bytes), plus the quotes. */
    if (buf_reserve(out, n * 6 + 2) < 0)
        return -1;
    char *w = out->data + out->len;
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + n;
    *w++ = '"';
    while (p < end) {
        unsigned c = *p;
        /* 0xE2 and 0xEF lead the three-byte forms of the ranges SockJS
         * escapes; everything else at or above 0x20 passes as is. */
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0xE2 && c != 0xEF) {
            *w++ = (char)c;
            p++;
            continue;
        }
        if (c == '"' || c == '\\') {
            *w++ = '\\';
            *w++ = (char)c;
            p++;
            continue;
        }
        unsigned cp;
        size_t used;
        if (c < 0x20) {
            cp = c;
            used = 1;
        } else if (end - p >= 3) {
            cp = (c & 0x0F) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
            used = 3;
            int escape = (cp >= 0x200C && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
                         (cp >= 0x2060 && cp <= 0x206F) || cp >= 0xFFF0;
            if (!escape) {
                memcpy(w, p, 3);
                w += 3;
                p += 3;
                continue;
            }
        } else {
            /* Cannot happen with valid UTF-8; pass the byte on. */
            *w++ = (char)c;
            p++;
            continue;
        }
        *w++ = '\\';
        *w++ = 'u';
        *w++ = HEX[cp >> 12];
        *w++ = HEX[(cp >> 8) & 15];
        *w++ = HEX[(cp >> 4) & 15];
        *w++ = HEX[cp & 15];
        p += used;
    }
    *w++ = '"';
    out->len = (size_t)(w - out->data);
    return 0;
}

int sockjs_close_frame(struct buf *out, int code, const char *reason)
{
    char text[256];
    int n = snprintf(text, sizeof text, "c[%d,\"%s\"]", code, reason);
    return buf_append(out, text, (size_t)n);
}
