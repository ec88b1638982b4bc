/* One client connection, from accept() to close(): its state, its buffers,
 * and the output path every writer goes through (a bounded per-session queue
 * behind a non-blocking send()). */
#ifndef LIMIT_CONN_H
#define LIMIT_CONN_H

#include <stddef.h>

#include "buffers.h"

enum conn_state {
    CONN_HTTP,    /* reading the request head */
    CONN_OPEN,    /* an upgraded websocket session */
    CONN_CLOSING, /* our close frame is queued: reading only to see the client go */
    CONN_DEAD     /* freed at the end of the loop turn */
};

/* The SockJS applications a websocket may belong to (docs/protocol.md
 * section 4): /broadcast is the benchmark's; /echo and /close exist so the
 * conformance suite's websocket cases, written against them, can run. */
enum mount { MOUNT_BROADCAST, MOUNT_ECHO, MOUNT_CLOSE };

struct conn {
    int fd;
    enum conn_state state;
    enum mount mount;
    int framed;         /* 1: SockJS framing (o, h, a[...], c[...]); 0: raw websocket */
    int want_write;     /* EPOLLOUT is registered */
    int is_session;     /* counts against --max-sessions */
    int shut;           /* shutdown(SHUT_WR) done */
    size_t all_index;   /* position in the table of every connection */
    long bc_index;      /* position in the broadcast set, -1 when not in it */
    double deadline;    /* HTTP: head must be in by then; CLOSING: dropped then */
    double last_out;    /* loop time of the last output, for heartbeats */
    struct buf in;      /* bytes read and not yet parsed */
    struct buf msg;     /* fragments of a message being assembled */
    int msg_opcode;     /* opcode of the message in msg, 0 when none */
    struct buf out;     /* unsent output, bounded by --max-session-buffer */
};

/* The process-wide state the connection code shares. */
struct server {
    int epfd;
    int listen_fd;
    double now;                /* monotonic seconds, read once per loop turn */
    size_t max_session_buffer;
    long max_sessions;
    long sessions;             /* websocket sessions that exist (open or closing) */
    double heartbeat_s;
    int naive;
    int stopping;
    struct conn **all;         /* every connection */
    size_t nall, capall;
    struct conn **dead;        /* marked CONN_DEAD this turn, freed at its end */
    size_t ndead, capdead;
};

extern struct server srv;

struct conn *conn_new(int fd);
/* Queue or send n bytes to c (one send() when nothing is queued). Past
 * --max-session-buffer the session is dropped with a log line: -1. */
int conn_write(struct conn *c, const void *p, size_t n);
/* EPOLLOUT: write what is queued. */
void conn_flush(struct conn *c);
/* Start the closing handshake: queue the frames in `frames` (a SockJS close
 * and/or a websocket close frame), stop taking messages, shut down our side
 * once they are written, drop the connection when the client closes or after
 * CLOSE_TIMEOUT_S. */
void conn_begin_close(struct conn *c, const void *frames, size_t n);
/* Drop now (error, timeout, EOF): freed at the end of the loop turn. */
void conn_kill(struct conn *c);
/* Free every connection killed this turn. */
void conn_reap(void);

#endif
