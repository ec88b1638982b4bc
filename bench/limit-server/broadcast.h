/* /broadcast: the set of open sessions and the two fan-out algorithms.
 *   naive: each message is framed once and written to every session with its
 *          own send(): one syscall per copy, the cost the naive group measures.
 *   fast:  the messages of one loop turn are collected and every session gets
 *          one frame (a[m1,m2,...]; raw sessions their frames back to back)
 *          with one send() per session per turn. */
#ifndef LIMIT_BROADCAST_H
#define LIMIT_BROADCAST_H

#include <stddef.h>

struct conn;

void bc_add(struct conn *c);
void bc_remove(struct conn *c);
long bc_count(void);
/* One message (UTF-8 bytes) from any session: naive writes it out now, fast
 * queues it for bc_end_turn(). */
void bc_message(const char *s, size_t n);
/* End of a loop turn: fast mode writes the turn's batch. */
void bc_end_turn(void);

#endif
