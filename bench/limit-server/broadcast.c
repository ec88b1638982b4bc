/* /broadcast (broadcast.h). Messages are encoded once, never per recipient:
 * the limit is what the kernel's send() path allows, so nothing above it may
 * cost per copy but the loop step and the syscall.
 *
 * The fan-out walks the set from its end: a session dropped by its own write
 * (full queue, broken pipe) is swap-removed, and the element moved into its
 * place has been visited already, so no session is skipped or written twice. */
#include "broadcast.h"

#include <stdlib.h>

#include "conn.h"
#include "log.h"
#include "sockjs_frames.h"
#include "ws_frames.h"

static struct conn **set;
static size_t nset, capset;
static size_t nraw; /* raw websocket sessions in the set: their frames are made only when there are some */

/* Fast mode: the turn's framed body (WS_MAX_HEADER bytes kept in front for the
 * header, then a[...]), how many messages it holds, and the raw frames. */
static struct buf turn_framed, turn_raw;
static size_t turn_count;
/* Naive mode: one message's two frames. */
static struct buf one_framed, one_raw;

void bc_add(struct conn *c)
{
    if (nset == capset) {
        size_t cap = capset ? capset * 2 : 1024;
        struct conn **p = realloc(set, cap * sizeof *p);
        if (!p) {
            log_line(LOG_ERROR, "out of memory for the broadcast set; session dropped");
            conn_kill(c);
            return;
        }
        set = p;
        capset = cap;
    }
    c->bc_index = (long)nset;
    set[nset++] = c;
    if (!c->framed)
        nraw++;
}

void bc_remove(struct conn *c)
{
    if (c->bc_index < 0)
        return;
    size_t i = (size_t)c->bc_index;
    set[i] = set[--nset];
    set[i]->bc_index = (long)i;
    c->bc_index = -1;
    if (!c->framed)
        nraw--;
}

long bc_count(void)
{
    return (long)nset;
}

/* Put a frame's header right before a body built at WS_MAX_HEADER; returns
 * the frame's start and sets *len. */
static const char *finish_frame(struct buf *b, size_t *len)
{
    size_t body = b->len - WS_MAX_HEADER;
    size_t h = ws_header_size(body);
    unsigned char *start = (unsigned char *)b->data + WS_MAX_HEADER - h;
    ws_write_header(start, WS_TEXT, body);
    *len = body + h;
    return (const char *)start;
}

static int start_frame(struct buf *b)
{
    buf_clear(b);
    if (buf_reserve(b, WS_MAX_HEADER) < 0)
        return -1;
    b->len = WS_MAX_HEADER;
    return 0;
}

static int append_raw_frame(struct buf *b, const char *s, size_t n)
{
    unsigned char h[WS_MAX_HEADER];
    size_t hl = ws_write_header(h, WS_TEXT, n);
    if (buf_append(b, h, hl) < 0 || buf_append(b, s, n) < 0)
        return -1;
    return 0;
}

static void fan_out(const char *framed, size_t flen, const char *raw, size_t rlen)
{
    for (size_t i = nset; i-- > 0;) {
        struct conn *c = set[i];
        if (c->framed)
            conn_write(c, framed, flen);
        else
            conn_write(c, raw, rlen);
    }
}

void bc_message(const char *s, size_t n)
{
    if (!srv.naive) {
        if (turn_count == 0 && start_frame(&turn_framed) < 0)
            goto oom;
        if (buf_append(&turn_framed, turn_count ? "," : "a[", turn_count ? 1 : 2) < 0 ||
            sockjs_encode_string(&turn_framed, s, n) < 0)
            goto oom;
        if (nraw && append_raw_frame(&turn_raw, s, n) < 0)
            goto oom;
        turn_count++;
        return;
    }
    if (start_frame(&one_framed) < 0 || buf_append(&one_framed, "a[", 2) < 0 ||
        sockjs_encode_string(&one_framed, s, n) < 0 || buf_append(&one_framed, "]", 1) < 0)
        goto oom;
    size_t flen;
    const char *f = finish_frame(&one_framed, &flen);
    buf_clear(&one_raw);
    if (nraw && append_raw_frame(&one_raw, s, n) < 0)
        goto oom;
    fan_out(f, flen, one_raw.data, one_raw.len);
    return;
oom:
    log_line(LOG_ERROR, "out of memory encoding a message of %zu bytes; message dropped", n);
}

void bc_end_turn(void)
{
    if (turn_count == 0)
        return;
    if (buf_append(&turn_framed, "]", 1) < 0) {
        log_line(LOG_ERROR, "out of memory closing a batch of %zu messages; batch dropped", turn_count);
    } else {
        size_t flen;
        const char *f = finish_frame(&turn_framed, &flen);
        fan_out(f, flen, turn_raw.data, turn_raw.len);
    }
    turn_count = 0;
    buf_clear(&turn_raw);
    /* A burst's batch may have grown large; do not keep it. */
    if (turn_framed.cap > 1024 * 1024)
        buf_free(&turn_framed);
    if (turn_raw.cap > 1024 * 1024)
        buf_free(&turn_raw);
}
