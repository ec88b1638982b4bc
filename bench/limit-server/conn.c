/* Connections (conn.h): the table of every connection, the output path and the
 * end of a connection. Every write goes through conn_write(): send() at once
 * when nothing is queued, otherwise (or for what send() did not take) into the
 * session's queue, flushed on EPOLLOUT. The queue is bounded: a client that
 * does not read is dropped, never allowed to grow the process. */
#include "conn.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bounds.h"
#include "broadcast.h"
#include "log.h"

struct server srv;

/* A drained queue keeps at most this much memory: a session that queued once
 * will likely queue again, but a burst's megabyte should go back. */
#define KEEP_OUT_BYTES (64u * 1024u)

static int grow(struct conn ***arr, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap * 2 : 1024;
    while (cap2 < need)
        cap2 *= 2;
    struct conn **p = realloc(*arr, cap2 * sizeof *p);
    if (!p)
        return -1;
    *arr = p;
    *cap = cap2;
    return 0;
}

struct conn *conn_new(int fd)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c || grow(&srv.all, &srv.capall, srv.nall + 1) < 0 || grow(&srv.dead, &srv.capdead, srv.nall + 1) < 0) {
        free(c);
        return NULL;
    }
    c->fd = fd;
    c->state = CONN_HTTP;
    c->bc_index = -1;
    c->deadline = srv.now + HEADER_TIMEOUT_S;
    c->last_out = srv.now;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(srv.epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        free(c);
        return NULL;
    }
    c->all_index = srv.nall;
    srv.all[srv.nall++] = c;
    return c;
}

static void set_want_write(struct conn *c, int on)
{
    if (c->want_write == on || c->fd < 0)
        return;
    struct epoll_event ev = {.events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(srv.epfd, EPOLL_CTL_MOD, c->fd, &ev);
    c->want_write = on;
}

static void shut_our_side(struct conn *c)
{
    if (!c->shut) {
        shutdown(c->fd, SHUT_WR);
        c->shut = 1;
    }
}

/* bounded: the session's --max-session-buffer applies (close frames are
 * queued past it: they are a few bytes and end the growth). */
static int queue(struct conn *c, const void *p, size_t n, int bounded)
{
    if (c->state == CONN_DEAD)
        return -1;
    if (n == 0)
        return 0;
    c->last_out = srv.now;
    if (buf_pending(&c->out) == 0) {
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                log_line(LOG_DEBUG, "fd %d: send: %s; connection dropped", c->fd, strerror(errno));
                conn_kill(c);
                return -1;
            }
            w = 0;
        }
        if ((size_t)w == n)
            return 0;
        p = (const char *)p + w;
        n -= (size_t)w;
    }
    if (bounded && buf_pending(&c->out) + n > srv.max_session_buffer) {
        log_line(LOG_WARNING,
                 "session fd %d closed: the client is not reading (%zu bytes unsent, over --max-session-buffer %zu)",
                 c->fd, buf_pending(&c->out) + n, srv.max_session_buffer);
        conn_kill(c);
        return -1;
    }
    if (buf_append(&c->out, p, n) < 0) {
        log_line(LOG_ERROR, "session fd %d closed: out of memory queueing %zu bytes", c->fd, n);
        conn_kill(c);
        return -1;
    }
    set_want_write(c, 1);
    return 0;
}

int conn_write(struct conn *c, const void *p, size_t n)
{
    return queue(c, p, n, 1);
}

void conn_flush(struct conn *c)
{
    while (buf_pending(&c->out)) {
        ssize_t w = send(c->fd, buf_head(&c->out), buf_pending(&c->out), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                return;
            conn_kill(c);
            return;
        }
        buf_consume(&c->out, (size_t)w);
    }
    buf_shrink_if_empty(&c->out, KEEP_OUT_BYTES);
    set_want_write(c, 0);
    if (c->state == CONN_CLOSING)
        shut_our_side(c);
}

void conn_begin_close(struct conn *c, const void *frames, size_t n)
{
    if (c->state == CONN_DEAD || c->state == CONN_CLOSING)
        return;
    bc_remove(c);
    c->state = CONN_CLOSING;
    c->deadline = srv.now + CLOSE_TIMEOUT_S;
    if (queue(c, frames, n, 0) < 0)
        return;
    if (buf_pending(&c->out) == 0)
        shut_our_side(c);
}

void conn_kill(struct conn *c)
{
    if (c->state == CONN_DEAD)
        return;
    bc_remove(c);
    c->state = CONN_DEAD;
    if (c->is_session) {
        /* The place is free at once (docs/protocol.md section 7). */
        srv.sessions--;
        c->is_session = 0;
    }
    /* close() takes the descriptor out of epoll; events already returned this
     * turn still point at c, which lives until conn_reap(). */
    close(c->fd);
    c->fd = -1;
    srv.dead[srv.ndead++] = c;
}

void conn_reap(void)
{
    for (size_t i = 0; i < srv.ndead; i++) {
        struct conn *c = srv.dead[i];
        size_t at = c->all_index;
        srv.all[at] = srv.all[--srv.nall];
        srv.all[at]->all_index = at;
        buf_free(&c->in);
        buf_free(&c->msg);
        buf_free(&c->out);
        free(c);
    }
    srv.ndead = 0;
}
