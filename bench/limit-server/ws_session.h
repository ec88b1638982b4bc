/* An upgraded websocket connection: opening it in its app, reading its frames,
 * handing its messages to the app, closing it. */
#ifndef LIMIT_WS_SESSION_H
#define LIMIT_WS_SESSION_H

#include <stddef.h>

#include "conn.h"

/* The handshake is done: count the session, join its app, send `o` when framed. */
void ws_open(struct conn *c, enum mount mount, int framed);
/* Bytes read from an open session (n may be 0 to parse what c->in holds). */
void ws_input(struct conn *c, unsigned char *p, size_t n);
/* SIGTERM: c[3000,"Go away!"] on framed sessions, close 1001 on raw ones. */
void ws_go_away(struct conn *c);
/* The heartbeat frame `h` (framed sessions). */
void ws_heartbeat(struct conn *c);

#endif
