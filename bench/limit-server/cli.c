/* The command line: every flag, its range, and the usage text. Errors name the
 * flag and exit 2 before any socket exists (docs/protocol.md section 1). Both
 * `--flag value` and `--flag=value` are read, as the other servers do. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: limit-server [--host HOST] [--port PORT] [--heartbeat SECONDS] [--log-level LEVEL]\n"
            "                    [--naive] [--max-sessions N] [--max-session-buffer BYTES] [--sessions N] [--help]\n"
            "\n"
            "The machine's limit for the /broadcast websocket contract (docs/protocol.md): epoll, one process.\n"
            "\n"
            "  --host HOST                 address to listen on (default 127.0.0.1)\n"
            "  --port PORT                 TCP port 0-65535, 0 = any free port (default 8080)\n"
            "  --heartbeat SECONDS         SockJS heartbeat interval, > 0 (default 25)\n"
            "  --log-level LEVEL           debug, info, warning or error (default warning); stderr only\n"
            "  --naive                     one send() per message per recipient (default: fast, one frame\n"
            "                              per session per loop turn)\n"
            "  --max-sessions N            websocket sessions held at once, 1-%d (default %d)\n"
            "  --max-session-buffer BYTES  unsent output one session may hold before it is closed,\n"
            "                              %u-%u (default %u)\n"
            "  --sessions N                sessions this run is to hold, 1-%d: refuse to start (exit 2)\n"
            "                              when the open-files limit cannot hold them; without\n"
            "                              --max-sessions the budget becomes N + N/4 (never below the default)\n"
            "  --help                      this text\n",
            MAX_MAX_SESSIONS, DEFAULT_MAX_SESSIONS, MIN_MAX_SESSION_BUFFER, MAX_MAX_SESSION_BUFFER,
            DEFAULT_MAX_SESSION_BUFFER, MAX_SESSIONS_ASKED);
}

static int fail(const char *flag, const char *what, const char *value)
{
    if (value)
        fprintf(stderr, "limit-server: %s: %s, got '%s'\n", flag, what, value);
    else
        fprintf(stderr, "limit-server: %s: %s\n", flag, what);
    usage(stderr);
    return 2;
}

/* A whole-string decimal integer in [lo, hi]. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    if (!*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_parse(int argc, char **argv, struct options *o)
{
    o->host = "127.0.0.1";
    o->port = 8080;
    o->heartbeat_s = 25;
    o->log_level = LOG_WARNING;
    o->naive = 0;
    o->max_sessions = DEFAULT_MAX_SESSIONS;
    o->max_sessions_given = 0;
    o->sessions = 0;
    o->max_session_buffer = DEFAULT_MAX_SESSION_BUFFER;

    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *arg = argv[i];
        const char *value = NULL;
        const char *eq = strchr(arg, '=');
        if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof flag) {
            memcpy(flag, arg, (size_t)(eq - arg));
            flag[eq - arg] = 0;
            value = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", arg);
        }

        if (strcmp(flag, "--help") == 0 && !value) {
            usage(stdout);
            return 0;
        }
        if (strcmp(flag, "--naive") == 0 && !value) {
            o->naive = 1;
            continue;
        }
        int takes_value = !strcmp(flag, "--host") || !strcmp(flag, "--port") || !strcmp(flag, "--heartbeat") ||
                          !strcmp(flag, "--log-level") || !strcmp(flag, "--max-sessions") ||
                          !strcmp(flag, "--max-session-buffer") || !strcmp(flag, "--sessions");
        if (!takes_value)
            return fail(arg, "unknown flag", NULL);
        if (!value) {
            if (i + 1 >= argc)
                return fail(flag, "missing value", NULL);
            value = argv[++i];
        }

        long n;
        if (!strcmp(flag, "--host")) {
            if (!*value)
                return fail(flag, "expected an address or host name", value);
            o->host = value;
        } else if (!strcmp(flag, "--port")) {
            if (parse_long(value, 0, 65535, &n) < 0)
                return fail(flag, "expected an integer 0-65535", value);
            o->port = (int)n;
        } else if (!strcmp(flag, "--heartbeat")) {
            char *end;
            errno = 0;
            double s = strtod(value, &end);
            /* A year at most: beyond that the interval is meaningless and the
             * scan period arithmetic would lose precision. */
            if (!*value || *end || errno || !isfinite(s) || s <= 0 || s > 31536000)
                return fail(flag, "expected seconds > 0 (fractions allowed)", value);
            o->heartbeat_s = s;
        } else if (!strcmp(flag, "--log-level")) {
            if (log_level_parse(value, &o->log_level) < 0)
                return fail(flag, "expected debug, info, warning or error", value);
        } else if (!strcmp(flag, "--max-sessions")) {
            if (parse_long(value, 1, MAX_MAX_SESSIONS, &n) < 0)
                return fail(flag, "expected an integer 1-1000000", value);
            o->max_sessions = n;
            o->max_sessions_given = 1;
        } else if (!strcmp(flag, "--sessions")) {
            if (parse_long(value, 1, MAX_SESSIONS_ASKED, &n) < 0)
                return fail(flag, "expected an integer 1-10000000", value);
            o->sessions = n;
        } else if (!strcmp(flag, "--max-session-buffer")) {
            if (parse_long(value, MIN_MAX_SESSION_BUFFER, MAX_MAX_SESSION_BUFFER, &n) < 0)
                return fail(flag, "expected bytes 1024-1073741824", value);
            o->max_session_buffer = (size_t)n;
        }
    }
    /* The budget must not turn away the sessions asked for (an uneven level or the previous one
     * still closing gets a quarter more), as the other servers' --sessions does. */
    if (o->sessions && !o->max_sessions_given) {
        long grown = o->sessions + o->sessions / 4;
        if (grown > o->max_sessions)
            o->max_sessions = grown > MAX_MAX_SESSIONS ? MAX_MAX_SESSIONS : grown;
    }
    return -1;
}
