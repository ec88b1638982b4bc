/* The HTTP side: read a request head, answer /info and the greeting, refuse
 * what is not served, and upgrade the websocket URLs of /broadcast, /echo and
 * /close (docs/protocol.md section 4). */
#ifndef LIMIT_HTTP_UPGRADE_H
#define LIMIT_HTTP_UPGRADE_H

#include <stddef.h>

#include "conn.h"

/* Bytes read from a connection still in its request head. */
void http_input(struct conn *c, const char *p, size_t n);

#endif
