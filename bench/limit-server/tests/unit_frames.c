/* Unit tests of the limit server's pure parts, no sockets: the handshake's
 * accept value (RFC 6455's own example), the websocket frame reader, UTF-8
 * validation, and the SockJS reader and string encoder. Built and run by
 * tests/test_units.py; prints one line per failure and exits 1 if any. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../buffers.h"
#include "../sockjs_frames.h"
#include "../ws_accept.h"
#include "../ws_frames.h"

static int failures;

#define CHECK(cond, what)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                                                      \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static void accept_value_is_rfc6455s_example(void)
{
    char out[29];
    const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
    CHECK(ws_accept_value(key, strlen(key), out) == 0, "accept value computed");
    CHECK(strcmp(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") == 0, "RFC 6455 section 1.3 example");
    char b[9];
    base64_encode((const unsigned char *)"ab", 2, b);
    CHECK(strcmp(b, "YWI=") == 0, "base64 pads two bytes with one =");
    base64_encode((const unsigned char *)"a", 1, b);
    CHECK(strcmp(b, "YQ==") == 0, "base64 pads one byte with two =");
}

/* A masked client frame of `text` into out; returns its length. */
static size_t client_frame(unsigned char *out, int opcode, int fin, const char *text, size_t n)
{
    static const unsigned char MASK[4] = {0x11, 0x22, 0x33, 0x44};
    size_t h = ws_write_header(out, opcode, n);
    if (!fin)
        out[0] &= 0x7F;
    out[1] |= 0x80;
    memcpy(out + h, MASK, 4);
    for (size_t i = 0; i < n; i++)
        out[h + 4 + i] = (unsigned char)text[i] ^ MASK[i & 3];
    return h + 4 + n;
}

static void frames_are_read_whole_or_not_at_all(void)
{
    unsigned char b[70000];
    struct ws_frame f;
    size_t n = client_frame(b, WS_TEXT, 1, "[\"hello\"]", 9);
    CHECK(ws_parse_frame(b, n - 1, 1 << 20, &f) == 0, "a partial frame needs more bytes");
    CHECK(ws_parse_frame(b, n, 1 << 20, &f) == (long)n, "a whole frame spans its bytes");
    CHECK(f.fin && f.opcode == WS_TEXT && f.len == 9 && !memcmp(f.payload, "[\"hello\"]", 9), "payload unmasked");

    static char big[66000];
    memset(big, 'x', sizeof big);
    n = client_frame(b, WS_TEXT, 1, big, sizeof big);
    CHECK(ws_parse_frame(b, n, 1 << 20, &f) == (long)n && f.len == sizeof big, "64-bit length form");
    CHECK(ws_parse_frame(b, n, 1000, &f) == -1009, "over the bound: 1009");

    n = client_frame(b, WS_TEXT, 1, "x", 1);
    b[1] &= 0x7F;
    CHECK(ws_parse_frame(b, n, 1 << 20, &f) == -1002, "an unmasked client frame is a protocol error");
    n = client_frame(b, WS_PING, 0, "x", 1);
    CHECK(ws_parse_frame(b, n, 1 << 20, &f) == -1002, "a fragmented control frame is a protocol error");
    n = client_frame(b, 0x3, 1, "x", 1);
    CHECK(ws_parse_frame(b, n, 1 << 20, &f) == -1002, "a reserved opcode is a protocol error");
}

static void utf8_is_checked(void)
{
    CHECK(utf8_valid((const unsigned char *)"z\xc5\xbc\xe2\x80\xa8\xf0\x9f\x98\x80", 10), "valid multi-byte");
    CHECK(!utf8_valid((const unsigned char *)"\xc0\xaf", 2), "overlong refused");
    CHECK(!utf8_valid((const unsigned char *)"\xed\xa0\x80", 3), "surrogate refused");
    CHECK(!utf8_valid((const unsigned char *)"\xe2\x80", 2), "truncated refused");
    CHECK(!utf8_valid((const unsigned char *)"\xf4\x90\x80\x80", 4), "past U+10FFFF refused");
}

static int decode(const char *text, const char **want, size_t nwant)
{
    struct buf r = {0};
    size_t count;
    const char *why;
    int ok = sockjs_decode_client(text, strlen(text), &r, &count, &why) == 0 && count == nwant;
    size_t pos = 0;
    uint32_t len;
    for (size_t i = 0; ok && i < nwant; i++) {
        const char *s = sockjs_next_record(&r, &pos, &len);
        ok = s && len == strlen(want[i]) && !memcmp(s, want[i], len);
    }
    buf_free(&r);
    return ok;
}

static int refused(const char *text)
{
    struct buf r = {0};
    size_t count;
    const char *why;
    int bad = sockjs_decode_client(text, strlen(text), &r, &count, &why) < 0 && r.len == 0;
    buf_free(&r);
    return bad;
}

static void sockjs_client_messages_are_read(void)
{
    const char *two[] = {"a1", "a2"};
    CHECK(decode("[\"a1\",\"a2\"]", two, 2), "array of strings");
    CHECK(decode(" [ \"a1\" , \"a2\" ] ", two, 2), "whitespace around");
    const char *one[] = {"single"};
    CHECK(decode("\"single\"", one, 1), "single JSON string");
    CHECK(decode("", NULL, 0) && decode("[]", NULL, 0), "empty message and [] carry nothing");
    const char *esc[] = {"q\" b\\ s/ \n \xc5\xbc \xf0\x9f\x98\x80"};
    CHECK(decode("[\"q\\\" b\\\\ s\\/ \\n \\u017c \\ud83d\\ude00\"]", esc, 1), "escapes and surrogate pairs decoded");
    CHECK(refused("[\"a"), "broken JSON");
    CHECK(refused("{}"), "an object");
    CHECK(refused("[1,2]"), "numbers");
    CHECK(refused("[\"ok\", null]"), "null in the array");
    CHECK(refused("42"), "a number");
    CHECK(refused("[\"\\ud800\"]"), "a lone surrogate");
    CHECK(refused("[\"a\"] x"), "text after the value");
    CHECK(refused("[\"a\"\"b\"]"), "missing comma");
}

static void strings_are_encoded_as_sockjs_asks(void)
{
    struct buf b = {0};
    const char in[] = "a\"b\\c\n\x01 \xe2\x80\xa8 \xe2\x80\x8c \xef\xbf\xbf \xc5\xbc \xe2\x82\xac";
    sockjs_encode_string(&b, in, sizeof in - 1);
    const char want[] = "\"a\\\"b\\\\c\\u000a\\u0001 \\u2028 \\u200c \\uffff \xc5\xbc \xe2\x82\xac\"";
    CHECK(b.len == sizeof want - 1 && !memcmp(b.data, want, b.len), "escapes what SockJS escapes, nothing else");
    buf_free(&b);
}

int main(void)
{
    accept_value_is_rfc6455s_example();
    frames_are_read_whole_or_not_at_all();
    utf8_is_checked();
    sockjs_client_messages_are_read();
    strings_are_encoded_as_sockjs_asks();
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all unit checks passed\n");
    return 0;
}
