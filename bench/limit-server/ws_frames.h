/* RFC 6455 frames: reading a client's (masked) frames, writing ours (unmasked). */
#ifndef LIMIT_WS_FRAMES_H
#define LIMIT_WS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

enum { WS_CONT = 0x0, WS_TEXT = 0x1, WS_BINARY = 0x2, WS_CLOSE = 0x8, WS_PING = 0x9, WS_PONG = 0xA };

/* Longest frame header we write: 2 bytes, 8 of extended length. */
#define WS_MAX_HEADER 10

struct ws_frame {
    int fin;
    int opcode;
    unsigned char *payload; /* unmasked in place, inside the caller's buffer */
    size_t len;
};

/* Parse one frame at p[0..n). Returns the bytes it spans (> 0), 0 when more
 * bytes are needed, or minus a websocket close code: -1002 (protocol error:
 * unmasked, reserved bits or opcodes, a bad control frame) or -1009 (payload
 * over max_payload). The payload is unmasked in place. */
long ws_parse_frame(unsigned char *p, size_t n, size_t max_payload, struct ws_frame *f);

/* Write a final frame's header for a payload of len bytes; returns its size. */
size_t ws_write_header(unsigned char *out, int opcode, size_t len);

/* Header size ws_write_header() takes for len bytes. */
size_t ws_header_size(size_t len);

/* Whether p[0..n) is valid UTF-8 (RFC 6455: text frames must be; overlongs,
 * surrogates and code points past U+10FFFF are not). */
int utf8_valid(const unsigned char *p, size_t n);

#endif
