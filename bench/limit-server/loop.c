/* The event loop (loop.h). One turn: epoll_wait, then for each ready
 * descriptor accept, read once or flush; then the fast-mode batch goes out
 * (bc_end_turn: one frame per session per turn), the periodic scan runs when
 * due (heartbeats, timeouts), and connections dropped this turn are freed.
 *
 * Level-triggered on purpose: one read per ready session per turn keeps turns
 * short and fair between sessions, and whatever is left is reported again. */
#include "loop.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "broadcast.h"
#include "conn.h"
#include "http_upgrade.h"
#include "log.h"
#include "ws_session.h"

/* epoll data.ptr values that are not connections. */
static char LISTENER_TAG, SIGNAL_TAG;

static unsigned char readbuf[READ_CHUNK];

/* Accept failures for lack of descriptors: the listener is paused until the
 * next scan (level-triggered epoll would otherwise spin on it). */
static int listener_paused;
static double fd_shortage_logged_at = -1e9;

double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_listener(int on)
{
    if (srv.listen_fd < 0 || listener_paused == on)
        return;
    if (on) {
        epoll_ctl(srv.epfd, EPOLL_CTL_DEL, srv.listen_fd, NULL);
    } else {
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &LISTENER_TAG};
        epoll_ctl(srv.epfd, EPOLL_CTL_ADD, srv.listen_fd, &ev);
    }
    listener_paused = on;
}

static void accept_some(void)
{
    /* A bounded batch: a connection storm must not starve open sessions. */
    for (int i = 0; i < 64; i++) {
        int fd = accept4(srv.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                if (srv.now - fd_shortage_logged_at >= REFUSAL_LOG_PERIOD_S) {
                    log_line(LOG_WARNING, "accept: %s (%ld sessions open): new connections wait; raise ulimit -n",
                             strerror(errno), srv.sessions);
                    fd_shortage_logged_at = srv.now;
                }
                pause_listener(1);
            }
            return;
        }
        /* Frames are written whole; Nagle would hold the small ones back
         * waiting for an ACK and add its delay to every latency. */
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (!conn_new(fd)) {
            log_line(LOG_ERROR, "out of memory for a new connection; closed");
            close(fd);
        }
    }
}

static void on_readable(struct conn *c)
{
    ssize_t n = recv(c->fd, readbuf, sizeof readbuf, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        conn_kill(c);
        return;
    }
    if (n < 0)
        return;
    switch (c->state) {
    case CONN_HTTP:
        http_input(c, (const char *)readbuf, (size_t)n);
        break;
    case CONN_OPEN:
        ws_input(c, readbuf, (size_t)n);
        break;
    case CONN_CLOSING: /* waiting for the client to go: what it sends is dropped */
    case CONN_DEAD:
        break;
    }
}

/* Heartbeats, header and close timeouts; the listener back after a pause. */
static void scan(void)
{
    pause_listener(0);
    for (size_t i = 0; i < srv.nall; i++) {
        struct conn *c = srv.all[i];
        if (c->state == CONN_OPEN) {
            if (c->framed && srv.now - c->last_out >= srv.heartbeat_s)
                ws_heartbeat(c);
        } else if ((c->state == CONN_HTTP || c->state == CONN_CLOSING) && srv.now >= c->deadline) {
            log_line(LOG_DEBUG, "fd %d dropped: %s", c->fd,
                     c->state == CONN_HTTP ? "no request head in time" : "no close from the client in time");
            conn_kill(c);
        }
    }
}

static void begin_stop(void)
{
    srv.stopping = 1;
    if (srv.listen_fd >= 0) {
        pause_listener(1);
        close(srv.listen_fd);
        srv.listen_fd = -1;
    }
    for (size_t i = 0; i < srv.nall; i++) {
        struct conn *c = srv.all[i];
        if (c->state == CONN_OPEN)
            ws_go_away(c);
        else if (c->state == CONN_HTTP)
            conn_kill(c);
    }
}

void loop_run(int sigfd)
{
    static struct epoll_event events[MAX_EVENTS];
    double period = srv.heartbeat_s / 4;
    if (period > MAX_SCAN_PERIOD_S)
        period = MAX_SCAN_PERIOD_S;
    if (period < MIN_SCAN_PERIOD_S)
        period = MIN_SCAN_PERIOD_S;
    srv.now = monotonic_s();
    double next_scan = srv.now + period;
    double stop_by = 0;

    for (;;) {
        int timeout_ms = (int)((next_scan - srv.now) * 1000) + 1;
        if (timeout_ms < 0)
            timeout_ms = 0;
        int n = epoll_wait(srv.epfd, events, MAX_EVENTS, timeout_ms);
        if (n < 0 && errno != EINTR) {
            log_line(LOG_ERROR, "epoll_wait: %s", strerror(errno));
            return;
        }
        srv.now = monotonic_s();
        for (int i = 0; i < n; i++) {
            void *tag = events[i].data.ptr;
            if (tag == &LISTENER_TAG) {
                if (srv.listen_fd >= 0)
                    accept_some();
                continue;
            }
            if (tag == &SIGNAL_TAG) {
                struct signalfd_siginfo si;
                if (read(sigfd, &si, sizeof si) == sizeof si && !srv.stopping) {
                    log_line(LOG_INFO, "signal %u: closing every session", si.ssi_signo);
                    begin_stop();
                    stop_by = srv.now + STOP_DEADLINE_S;
                }
                continue;
            }
            struct conn *c = tag;
            uint32_t ev = events[i].events;
            if (c->state != CONN_DEAD && (ev & EPOLLOUT))
                conn_flush(c);
            if (c->state != CONN_DEAD && (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                on_readable(c);
        }
        bc_end_turn();
        if (srv.now >= next_scan) {
            scan();
            next_scan = srv.now + period;
        }
        conn_reap();
        if (srv.stopping && (srv.nall == 0 || srv.now >= stop_by))
            return;
    }
}

/* Register the listener and the signal descriptor; called once by main. */
int loop_watch(int listen_fd, int sigfd)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &LISTENER_TAG};
    if (epoll_ctl(srv.epfd, EPOLL_CTL_ADD, listen_fd, &ev) < 0)
        return -1;
    struct epoll_event sev = {.events = EPOLLIN, .data.ptr = &SIGNAL_TAG};
    return epoll_ctl(srv.epfd, EPOLL_CTL_ADD, sigfd, &sev);
}
