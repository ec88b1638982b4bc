/* The event loop: one epoll, level-triggered, one thread. */
#ifndef LIMIT_LOOP_H
#define LIMIT_LOOP_H

/* Run until SIGTERM/SIGINT (read from sigfd) has closed every session or
 * STOP_DEADLINE_S has passed. */
void loop_run(int sigfd);

double monotonic_s(void);

/* Register the listener and the signal descriptor with epoll; 0 or -1. */
int loop_watch(int listen_fd, int sigfd);

#endif
