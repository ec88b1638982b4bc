/*
 * read-floor: what one read per copy costs a receiver on this host.
 *
 * A naive SockJS server sends every broadcast copy with its own send(); at
 * 1,000+ sessions each socket then holds one small frame whenever it is
 * read, so the load generator pays one read() per copy however it batches
 * readiness. This program measures the cheapest such receiver the host
 * allows: a sender process (standing in for the server, one send() per
 * copy, round robin over N loopback connections, paced on a schedule) on
 * one core, and on the other core an epoll loop that reads each ready
 * socket once per round into a 256 KiB buffer and, after a busy round,
 * sleeps COALESCE microseconds so more sockets are ready at the next
 * epoll_wait (the Java client's --read-coalesce-us, default 100). No
 * parsing, no clock reads per message, no histogram: anything a real
 * client does costs more than this.
 *
 * It prints the receiver's CPU (user and system, from getrusage over the
 * measured window) per message and as a share of its core. Trap: on
 * loopback the ACK the receiver's read sends is processed, for the
 * server's socket, on the receiver's core inside that read; on two
 * machines the server's host would process it. That work is part of the
 * figure, as it is of the Java client's (bench/read-floor/README.md).
 *
 * Usage: read-floor --connections N --rate MSGS_PER_S [--seconds S]
 *                   [--coalesce-us US] [--payload-bytes B]
 *                   [--sender-cpu C] [--receiver-cpu C] [--json]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Bounds of the options: each documented in usage(). */
#define MAX_CONNECTIONS 9000       /* both ends live in this process: 2 files each, under 20,000 */
#define MAX_RATE 5000000.0         /* copies/s */
#define MAX_SECONDS 60.0
#define MAX_COALESCE_US 10000
#define MAX_PAYLOAD 4096
#define READ_BUFFER_BYTES (256 * 1024) /* the Java client's read buffer */
#define WARMUP_S 1.0                   /* unmeasured: connections and caches settle */
#define DRAIN_S 2.0                    /* after the sender stops: the last copies arrive */

static void usage(FILE *to)
{
    fprintf(to,
            "usage: read-floor --connections N --rate MSGS_PER_S [--seconds S] [--coalesce-us US]\n"
            "                  [--payload-bytes B] [--sender-cpu C] [--receiver-cpu C] [--json]\n"
            "  --connections N    loopback connections, 1..%d (each holds two open files here)\n"
            "  --rate R           copies sent per second over all connections, > 0 and <= %.0f\n"
            "  --seconds S        measured window in seconds, 0.5..%.0f (default 5)\n"
            "  --coalesce-us US   receiver's pause after a busy round, microseconds, 0..%d (default 100)\n"
            "  --payload-bytes B  bytes per copy, 1..%d (default 71: the websocket frame of a SockJS a[\"...\"] carrying the\n"
            "                     bench's default 64-byte message)\n"
            "  --sender-cpu C     core of the sender (the server's stand-in), default 0\n"
            "  --receiver-cpu C   core of the receiver (the client's), default 1\n"
            "  --json             one JSON object on stdout instead of a text line\n",
            MAX_CONNECTIONS, MAX_RATE, MAX_SECONDS, MAX_COALESCE_US, MAX_PAYLOAD);
}

static void die_usage(const char *what)
{
    fprintf(stderr, "read-floor: %s\n", what);
    usage(stderr);
    exit(2);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

static double parse_num(const char *s, const char *flag)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: not a number: %s", flag, s);
        die_usage(msg);
    }
    return v;
}

static double cpu_us(const struct rusage *a, const struct rusage *b, int user)
{
    const struct timeval *x = user ? &a->ru_utime : &a->ru_stime;
    const struct timeval *y = user ? &b->ru_utime : &b->ru_stime;
    return (y->tv_sec - x->tv_sec) * 1e6 + (y->tv_usec - x->tv_usec);
}

/* The sender: one send() per copy, round robin, each copy due at start + k / rate
 * (a late copy is sent at once, never skipped). Writes how many it sent to `report`. */
static void run_sender(const int *socks, int n, double rate, double start, double seconds,
                       int payload, int report)
{
    char *msg = malloc(payload);
    memset(msg, 'x', payload);
    long k = 0, blocked = 0;
    double end = start + seconds;
    for (;;) {
        double t = now_s();
        if (t >= end)
            break;
        double due = start + k / rate;
        if (due > t) {
            if (due - t > 200e-6) {
                struct timespec ts = {0, (long)((due - t - 100e-6) * 1e9)};
                nanosleep(&ts, NULL);
            }
            continue;
        }
        ssize_t w = send(socks[k % n], msg, payload, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (w == payload) {
            k++;
        } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
            blocked++; /* the receiver is behind: try the same copy again */
            if (blocked > 100000000L)
                break;
        } else {
            perror("read-floor: sender: send");
            break;
        }
    }
    long out[2] = {k, blocked};
    if (write(report, out, sizeof out) != sizeof out)
        perror("read-floor: sender: report");
    free(msg);
}

int main(int argc, char **argv)
{
    int n = 0, coalesce_us = 100, payload = 71, sender_cpu = 0, receiver_cpu = 1, json = 0;
    double rate = 0, seconds = 5;
    static struct option opts[] = {
        {"connections", required_argument, 0, 'n'}, {"rate", required_argument, 0, 'r'},
        {"seconds", required_argument, 0, 's'},     {"coalesce-us", required_argument, 0, 'c'},
        {"payload-bytes", required_argument, 0, 'p'}, {"sender-cpu", required_argument, 0, 'S'},
        {"receiver-cpu", required_argument, 0, 'R'}, {"json", no_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},               {0, 0, 0, 0}};
    int o;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'n': n = (int)parse_num(optarg, "--connections"); break;
        case 'r': rate = parse_num(optarg, "--rate"); break;
        case 's': seconds = parse_num(optarg, "--seconds"); break;
        case 'c': coalesce_us = (int)parse_num(optarg, "--coalesce-us"); break;
        case 'p': payload = (int)parse_num(optarg, "--payload-bytes"); break;
        case 'S': sender_cpu = (int)parse_num(optarg, "--sender-cpu"); break;
        case 'R': receiver_cpu = (int)parse_num(optarg, "--receiver-cpu"); break;
        case 'j': json = 1; break;
        case 'h': usage(stdout); return 0;
        default: {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown or incomplete option: %s", argv[optind - 1]);
            die_usage(msg);
        }
        }
    }
    if (optind < argc)
        die_usage("unexpected argument");
    if (n < 1 || n > MAX_CONNECTIONS)
        die_usage("--connections must be 1..9000");
    if (!(rate > 0) || rate > MAX_RATE)
        die_usage("--rate must be > 0 and <= 5000000");
    if (!(seconds >= 0.5) || seconds > MAX_SECONDS)
        die_usage("--seconds must be 0.5..60");
    if (coalesce_us < 0 || coalesce_us > MAX_COALESCE_US)
        die_usage("--coalesce-us must be 0..10000");
    if (payload < 1 || payload > MAX_PAYLOAD)
        die_usage("--payload-bytes must be 1..4096");
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (sender_cpu < 0 || sender_cpu >= ncpu || receiver_cpu < 0 || receiver_cpu >= ncpu)
        die_usage("--sender-cpu and --receiver-cpu must be cores of this machine");

    struct rlimit nofile;
    getrlimit(RLIMIT_NOFILE, &nofile);
    if ((rlim_t)(2 * n + 16) > nofile.rlim_cur) {
        fprintf(stderr, "read-floor: %d connections need %d open files; this process may hold %llu "
                        "(ulimit -n): use fewer connections\n",
                n, 2 * n + 16, (unsigned long long)nofile.rlim_cur);
        return 2;
    }

    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof addr;
    if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof addr) || listen(ls, 4096) ||
        getsockname(ls, (struct sockaddr *)&addr, &alen)) {
        perror("read-floor: listen on 127.0.0.1");
        return 1;
    }
    int *client = calloc(n, sizeof(int)), *server = calloc(n, sizeof(int));
    int one = 1;
    for (int i = 0; i < n; i++) {
        client[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (client[i] < 0 || connect(client[i], (struct sockaddr *)&addr, sizeof addr)) {
            fprintf(stderr, "read-floor: connection %d of %d failed: %s (out of loopback ports or files?)\n",
                    i + 1, n, strerror(errno));
            return 1;
        }
        server[i] = accept(ls, NULL, NULL);
        if (server[i] < 0) {
            perror("read-floor: accept");
            return 1;
        }
        /* As every server in the bench: each copy leaves at once. */
        setsockopt(server[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }

    int report[2];
    if (pipe(report)) {
        perror("read-floor: pipe");
        return 1;
    }
    double start = now_s() + 0.2; /* both sides pinned before the first copy is due */
    pid_t sender = fork();
    if (sender < 0) {
        perror("read-floor: fork");
        return 1;
    }
    if (sender == 0) {
        if (pin(sender_cpu))
            perror("read-floor: pin sender");
        run_sender(server, n, rate, start, WARMUP_S + seconds, payload, report[1]);
        _exit(0);
    }
    for (int i = 0; i < n; i++)
        close(server[i]); /* the sender's copies are the only writers */
    if (pin(receiver_cpu))
        perror("read-floor: pin receiver");

    int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        fcntl(client[i], F_SETFL, O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.fd = client[i]};
        epoll_ctl(ep, EPOLL_CTL_ADD, client[i], &e);
    }
    static char buf[READ_BUFFER_BYTES];
    struct epoll_event ev[1024];
    long long bytes = 0, reads = 0, waits = 0, m_bytes = 0, m_reads = 0, m_waits = 0;
    struct rusage r0, r1;
    double measure_from = start + WARMUP_S, measure_to = measure_from + seconds;
    double stop = measure_to + DRAIN_S;
    int measuring = 0, done = 0;
    while (!done) {
        double t = now_s();
        if (!measuring && t >= measure_from) {
            getrusage(RUSAGE_SELF, &r0);
            m_bytes = bytes, m_reads = reads, m_waits = waits;
            measuring = 1;
        }
        if (measuring == 1 && t >= measure_to) {
            getrusage(RUSAGE_SELF, &r1);
            m_bytes = bytes - m_bytes, m_reads = reads - m_reads, m_waits = waits - m_waits;
            measuring = 2;
        }
        if (t >= stop)
            done = 1;
        int k = epoll_wait(ep, ev, 1024, 10);
        waits++;
        for (int i = 0; i < k; i++) {
            ssize_t m = read(ev[i].data.fd, buf, sizeof buf);
            if (m > 0) {
                bytes += m;
                reads++;
            }
        }
        if (k > 0 && coalesce_us > 0) {
            struct timespec ts = {0, coalesce_us * 1000L};
            nanosleep(&ts, NULL);
        }
    }
    long sent[2] = {0, 0};
    int status = 0;
    if (read(report[0], sent, sizeof sent) != sizeof sent)
        fprintf(stderr, "read-floor: the sender reported nothing\n");
    waitpid(sender, &status, 0);

    double user = cpu_us(&r0, &r1, 1), sys = cpu_us(&r0, &r1, 0);
    double msgs = (double)m_bytes / payload;
    double received_per_s = msgs / seconds;
    double sent_per_s = sent[0] / (WARMUP_S + seconds);
    long long lost = (long long)sent[0] - bytes / payload;
    /* The sender runs the window and the warm-up; below 98 % of the rate it
     * was the limit (its core could not send that fast), and the figure is
     * not this rate's. */
    int sender_kept_rate = sent_per_s >= 0.98 * rate;
    if (json) {
        printf("{\"connections\": %d, \"rate\": %.0f, \"seconds\": %g, \"coalesce_us\": %d, "
               "\"payload_bytes\": %d, \"sender_cpu\": %d, \"receiver_cpu\": %d, "
               "\"sent\": %ld, \"received\": %lld, \"lost\": %lld, \"sent_per_s\": %.1f, "
               "\"received_per_s\": %.1f, \"sender_kept_rate\": %s, \"messages_per_read\": %.3f, "
               "\"reads_per_wait\": %.2f, \"receiver_cpu_pct\": %.1f, \"user_us_per_message\": %.3f, "
               "\"system_us_per_message\": %.3f, \"us_per_message\": %.3f}\n",
               n, rate, seconds, coalesce_us, payload, sender_cpu, receiver_cpu, sent[0],
               bytes / payload, lost, sent_per_s, received_per_s, sender_kept_rate ? "true" : "false",
               m_reads ? msgs / m_reads : 0.0, m_waits ? (double)m_reads / m_waits : 0.0,
               (user + sys) / seconds / 1e4, msgs ? user / msgs : 0.0, msgs ? sys / msgs : 0.0,
               msgs ? (user + sys) / msgs : 0.0);
    } else {
        printf("N=%d rate=%.0f/s coalesce=%dus: received %.0f/s, %.2f msgs/read, receiver CPU %.1f %% "
               "(%.2f us/msg: user %.2f, system %.2f)%s%s\n",
               n, rate, coalesce_us, received_per_s, m_reads ? msgs / m_reads : 0.0,
               (user + sys) / seconds / 1e4, msgs ? (user + sys) / msgs : 0.0, msgs ? user / msgs : 0.0,
               msgs ? sys / msgs : 0.0, sender_kept_rate ? "" : " [sender below the rate: its core was the limit]",
               lost ? " [copies missing]" : "");
    }
    return lost ? 1 : 0;
}
