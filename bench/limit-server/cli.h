/* The command line (docs/protocol.md section 1, plus --naive, --max-sessions
 * --max-session-buffer and --sessions). */
#ifndef LIMIT_CLI_H
#define LIMIT_CLI_H

#include <stddef.h>

#include "log.h"

struct options {
    const char *host;
    int port;
    double heartbeat_s;
    enum log_level log_level;
    int naive;
    long max_sessions;
    int max_sessions_given; /* --max-sessions was on the command line */
    long sessions;          /* --sessions N, the sessions this run is to hold; 0 = not given */
    size_t max_session_buffer;
};

/* Fill `o` from argv. Returns -1 to go on, or an exit status: 0 after --help
 * (usage on stdout), 2 after a usage error (a line naming the flag and the
 * usage on stderr; nothing else has happened). */
int cli_parse(int argc, char **argv, struct options *o);

#endif
