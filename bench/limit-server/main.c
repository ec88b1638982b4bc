/* limit-server: start, READY, run, stop (docs/protocol.md sections 1-3).
 *
 * The server every runtime is measured against: the /broadcast websocket
 * contract in C on one epoll loop, with nothing between the messages and
 * send() but the framing. What it reaches on this host is the ceiling any
 * runtime's server could reach with the same algorithm. */
#include <errno.h>
#include <gnu/libc-version.h>
#include <netdb.h>
#include <openssl/crypto.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "cli.h"
#include "conn.h"
#include "log.h"
#include "loop.h"

/* Listen backlog: the bench opens up to 2,000 sessions at once; the kernel
 * caps this at net.core.somaxconn. */
#define BACKLOG 4096

/* Each session is a descriptor: make the soft limit fit --max-sessions, up to
 * the hard limit, and say in one line when even that is short. */
static void fit_fd_limit(long max_sessions)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return;
    rlim_t need = (rlim_t)max_sessions + RESERVED_FDS;
    if (rl.rlim_cur >= need)
        return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < need)
        log_line(LOG_WARNING,
                 "ulimit -n is %llu (hard limit %llu), below the %llu that --max-sessions %ld needs: at most about "
                 "%llu sessions can open; raise it with ulimit -Hn/-n %llu",
                 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max, (unsigned long long)need,
                 max_sessions, (unsigned long long)(rl.rlim_cur > RESERVED_FDS ? rl.rlim_cur - RESERVED_FDS : 0),
                 (unsigned long long)need);
}

/* --sessions N: the soft limit raised to the hard one where needed, and one line + exit 2 when
 * N sessions cannot fit, before anything listens (no workers here: one process holds them all). */
static int refuse_unless_sessions_fit(long sessions)
{
    struct rlimit rl;
    if (!sessions || getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return 0;
    rlim_t need = (rlim_t)sessions + RESERVED_FDS;
    if (rl.rlim_cur < need && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur >= need)
        return 0;
    fprintf(stderr, "limit-server: %ld sessions need %llu open files per process but the limit is %llu (ulimit -n); "
                    "raise ulimit -n\n",
            sessions, (unsigned long long)need, (unsigned long long)rl.rlim_cur);
    return 2;
}

/* Bind and listen; the descriptor, or -1 after one line on stderr. */
static int listen_on(const char *host, int port, int *bound_port)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res;
    char portstr[8];
    snprintf(portstr, sizeof portstr, "%d", port);
    int rc = getaddrinfo(host, portstr, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "limit-server: cannot listen on %s:%d: %s\n", host, port, gai_strerror(rc));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    /* A restart right after a run must not wait out TIME_WAIT. */
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, BACKLOG) < 0) {
        fprintf(stderr, "limit-server: cannot listen on %s:%d: %s\n", host, port, strerror(errno));
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    *bound_port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                 : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

static void print_ready(const struct options *o, int port)
{
    const char *br = strchr(o->host, ':') ? "[" : "";
    const char *ke = strchr(o->host, ':') ? "]" : "";
    char hb[32];
    snprintf(hb, sizeof hb, "%g", o->heartbeat_s);
    /* runtime_version: the compiler that built us; the C library and
     * libcrypto versions are keys of their own. */
    printf("READY http://%s%s%s:%d server=limit runtime=c runtime_version=gcc-%s glibc=%s libcrypto=%s mode=%s "
           "heartbeat=%s max_sessions=%ld max_session_buffer=%zu max_message_bytes=%u transports=websocket\n",
           br, o->host, ke, port, __VERSION__, gnu_get_libc_version(), OpenSSL_version(OPENSSL_VERSION_STRING),
           o->naive ? "naive" : "fast", hb, o->max_sessions, o->max_session_buffer, MAX_MESSAGE_BYTES);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    struct options o;
    int rc = cli_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    log_threshold = o.log_level;

    /* SIGTERM/SIGINT arrive as events on the loop (signalfd), so stopping is
     * one more step of the loop rather than a handler racing it. */
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    signal(SIGPIPE, SIG_IGN);
    int sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

    if (refuse_unless_sessions_fit(o.sessions))
        return 2;
    /* With --sessions the budget has a quarter's slack the descriptors need not cover. */
    fit_fd_limit(o.sessions ? o.sessions : o.max_sessions);
    srandom((unsigned)time(NULL) ^ (unsigned)getpid());

    srv.heartbeat_s = o.heartbeat_s;
    srv.naive = o.naive;
    srv.max_sessions = o.max_sessions;
    srv.max_session_buffer = o.max_session_buffer;
    srv.epfd = epoll_create1(EPOLL_CLOEXEC);
    int port;
    srv.listen_fd = listen_on(o.host, o.port, &port);
    if (srv.listen_fd < 0)
        return 1;
    if (sigfd < 0 || srv.epfd < 0 || loop_watch(srv.listen_fd, sigfd) < 0) {
        fprintf(stderr, "limit-server: cannot set up epoll or signalfd: %s\n", strerror(errno));
        return 1;
    }
    print_ready(&o, port);
    loop_run(sigfd);
    return 0;
}
