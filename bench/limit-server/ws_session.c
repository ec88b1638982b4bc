/* Websocket sessions (ws_session.h): the frame loop and the apps' behaviour.
 *
 * Bad input closes that session only, with one warning line: a SockJS message
 * that is not a JSON string or array of strings gets a websocket close 1002
 * "Broken framing." and no SockJS c[...] frame before it, as sockjs-node does
 * and the conformance suite expects (its broken-JSON cases want the
 * connection to end right after); websocket protocol errors get 1002, invalid
 * UTF-8 1007, binary frames 1003, messages over MAX_MESSAGE_BYTES 1009. */
#include "ws_session.h"

#include <string.h>

#include "bounds.h"
#include "broadcast.h"
#include "log.h"
#include "sockjs_frames.h"
#include "ws_frames.h"

static const char *const MOUNT_NAMES[] = {"/broadcast", "/echo", "/close"};

/* Scratch for one message's decoded strings and for frames built here. */
static struct buf records, scratch;

/* Append a websocket frame (opcode, payload) to b. */
static int frame_into(struct buf *b, int opcode, const void *p, size_t n)
{
    unsigned char h[WS_MAX_HEADER];
    size_t hl = ws_write_header(h, opcode, n);
    return buf_append(b, h, hl) < 0 || buf_append(b, p, n) < 0 ? -1 : 0;
}

static int close_frame_into(struct buf *b, int code, const char *reason)
{
    char payload[125];
    size_t rl = strlen(reason);
    if (rl > sizeof payload - 2)
        rl = sizeof payload - 2;
    payload[0] = (char)(code >> 8);
    payload[1] = (char)code;
    memcpy(payload + 2, reason, rl);
    return frame_into(b, WS_CLOSE, payload, rl + 2);
}

/* Close with an optional SockJS close frame (sockjs_code > 0, framed sessions
 * only) and then a websocket close frame. */
static void close_session(struct conn *c, int sockjs_code, const char *sockjs_reason, int ws_code,
                          const char *ws_reason)
{
    buf_clear(&scratch);
    if (sockjs_code > 0 && c->framed) {
        struct buf text = {0};
        if (sockjs_close_frame(&text, sockjs_code, sockjs_reason) == 0)
            frame_into(&scratch, WS_TEXT, text.data, text.len);
        buf_free(&text);
    }
    close_frame_into(&scratch, ws_code, ws_reason);
    conn_begin_close(c, scratch.data, scratch.len);
}

static void refuse(struct conn *c, int ws_code, const char *why)
{
    log_line(LOG_WARNING, "session fd %d on %s closed (websocket %d): %s", c->fd, MOUNT_NAMES[c->mount], ws_code,
             why);
    close_session(c, 0, NULL, ws_code, ws_code == 1002 && c->framed ? "Broken framing." : why);
}

void ws_open(struct conn *c, enum mount mount, int framed)
{
    c->state = CONN_OPEN;
    c->mount = mount;
    c->framed = framed;
    c->is_session = 1;
    srv.sessions++;
    log_line(LOG_DEBUG, "session fd %d opened on %s (%s)", c->fd, MOUNT_NAMES[mount], framed ? "framed" : "raw");
    if (framed) {
        buf_clear(&scratch);
        frame_into(&scratch, WS_TEXT, "o", 1);
        if (conn_write(c, scratch.data, scratch.len) < 0)
            return;
    }
    if (mount == MOUNT_CLOSE)
        close_session(c, 3000, "Go away!", 3000, "Go away!");
    else if (mount == MOUNT_BROADCAST)
        bc_add(c);
}

void ws_go_away(struct conn *c)
{
    if (c->framed)
        close_session(c, 3000, "Go away!", 1000, "Go away!");
    else
        close_session(c, 0, NULL, 1001, "Go away!");
}

void ws_heartbeat(struct conn *c)
{
    static const unsigned char H[] = {0x81, 0x01, 'h'};
    conn_write(c, H, sizeof H);
}

/* /echo: the message back to its own session. */
static void echo(struct conn *c, const char *s, size_t n)
{
    buf_clear(&scratch);
    if (c->framed) {
        struct buf body = {0};
        if (buf_append(&body, "a[", 2) == 0 && sockjs_encode_string(&body, s, n) == 0 &&
            buf_append(&body, "]", 1) == 0)
            frame_into(&scratch, WS_TEXT, body.data, body.len);
        buf_free(&body);
    } else {
        frame_into(&scratch, WS_TEXT, s, n);
    }
    conn_write(c, scratch.data, scratch.len);
}

static void hand_over(struct conn *c, const char *s, size_t n)
{
    if (c->mount == MOUNT_BROADCAST)
        bc_message(s, n);
    else if (c->mount == MOUNT_ECHO)
        echo(c, s, n);
    /* /close sessions are closing already; nothing reaches them. */
}

/* One whole text message from the client. */
static void deliver(struct conn *c, const char *p, size_t n)
{
    if (!utf8_valid((const unsigned char *)p, n)) {
        refuse(c, 1007, "text message is not valid UTF-8");
        return;
    }
    if (!c->framed) {
        hand_over(c, p, n);
        return;
    }
    size_t count;
    const char *why;
    buf_clear(&records);
    if (sockjs_decode_client(p, n, &records, &count, &why) < 0) {
        log_line(LOG_WARNING, "session fd %d on %s closed: broken SockJS framing (%s)", c->fd, MOUNT_NAMES[c->mount],
                 why);
        close_session(c, 0, NULL, 1002, "Broken framing.");
        return;
    }
    size_t pos = 0;
    uint32_t len;
    const char *s;
    while (c->state == CONN_OPEN && (s = sockjs_next_record(&records, &pos, &len)))
        hand_over(c, s, len);
}

static void on_frame(struct conn *c, struct ws_frame *f)
{
    switch (f->opcode) {
    case WS_TEXT:
    case WS_BINARY:
        if (c->msg_opcode) {
            refuse(c, 1002, "new message before the fragmented one ended");
            return;
        }
        if (f->opcode == WS_BINARY) {
            refuse(c, 1003, "binary frames are not taken");
            return;
        }
        if (f->fin) {
            deliver(c, (const char *)f->payload, f->len);
            return;
        }
        c->msg_opcode = f->opcode;
        if (buf_append(&c->msg, f->payload, f->len) < 0)
            conn_kill(c);
        return;
    case WS_CONT:
        if (!c->msg_opcode) {
            refuse(c, 1002, "continuation frame without a message");
            return;
        }
        if (buf_pending(&c->msg) + f->len > MAX_MESSAGE_BYTES) {
            refuse(c, 1009, "message over 1 MiB");
            return;
        }
        if (buf_append(&c->msg, f->payload, f->len) < 0) {
            conn_kill(c);
            return;
        }
        if (f->fin) {
            c->msg_opcode = 0;
            deliver(c, buf_head(&c->msg), buf_pending(&c->msg));
            buf_clear(&c->msg);
            buf_shrink_if_empty(&c->msg, 4096);
        }
        return;
    case WS_PING:
        buf_clear(&scratch);
        if (frame_into(&scratch, WS_PONG, f->payload, f->len) == 0)
            conn_write(c, scratch.data, scratch.len);
        return;
    case WS_PONG:
        return;
    case WS_CLOSE: {
        /* Answer with the client's code (RFC 6455 section 5.5.1), then wait
         * for it to close the TCP connection. */
        int code = f->len >= 2 ? (f->payload[0] << 8 | f->payload[1]) : 1000;
        log_line(LOG_DEBUG, "session fd %d: client closed (%d)", c->fd, code);
        buf_clear(&scratch);
        close_frame_into(&scratch, code, "");
        conn_begin_close(c, scratch.data, scratch.len);
        return;
    }
    }
}

void ws_input(struct conn *c, unsigned char *p, size_t n)
{
    unsigned char *data = p;
    size_t len = n;
    int from_in = buf_pending(&c->in) > 0;
    if (from_in) {
        if (buf_append(&c->in, p, n) < 0) {
            conn_kill(c);
            return;
        }
        data = (unsigned char *)buf_head(&c->in);
        len = buf_pending(&c->in);
    }
    size_t used = 0;
    while (c->state == CONN_OPEN && used < len) {
        struct ws_frame f;
        long r = ws_parse_frame(data + used, len - used, MAX_MESSAGE_BYTES, &f);
        if (r == 0)
            break;
        if (r < 0) {
            refuse(c, (int)-r, r == -1009 ? "frame over 1 MiB" : "websocket protocol error");
            return;
        }
        used += (size_t)r;
        on_frame(c, &f);
    }
    if (c->state != CONN_OPEN)
        return; /* what is left is of no use now */
    if (from_in) {
        buf_consume(&c->in, used);
        buf_shrink_if_empty(&c->in, 4096);
    } else if (used < len && buf_append(&c->in, data + used, len - used) < 0) {
        conn_kill(c);
    }
}
