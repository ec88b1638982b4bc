/* Every limit of the limit server, in one place, each with why it is that size.
 * The README's "Limits" table repeats these; a test reads the READY line's
 * max_session_buffer and max_sessions, the two a user can change. */
#ifndef LIMIT_BOUNDS_H
#define LIMIT_BOUNDS_H

/* Unsent output one session may hold (its queue in this process; the kernel's
 * socket buffer is on top). 1 MiB, as server-python and server-node, so every
 * server closes a client that stops reading at the same point. Changed with
 * --max-session-buffer. */
#define DEFAULT_MAX_SESSION_BUFFER (1024u * 1024u)
#define MIN_MAX_SESSION_BUFFER 1024u
#define MAX_MAX_SESSION_BUFFER (1024u * 1024u * 1024u)

/* Websocket sessions one process holds (docs/protocol.md section 7). The
 * bench's largest level is 2,000 clients; 10,000 leaves room for hand-run
 * tests. Memory a session can pin is bounded by the three per-session limits
 * here (output, one message being read, one frame being read), so the budget
 * bounds memory too. Changed with --max-sessions. */
#define DEFAULT_MAX_SESSIONS 10000
#define MAX_MAX_SESSIONS 1000000
/* --sessions N: at most this many asked for (the other servers' range). */
#define MAX_SESSIONS_ASKED 10000000

/* File descriptors besides sessions: stdio, the listener, epoll, signalfd,
 * and HTTP connections still in their handshake. */
#define RESERVED_FDS 64

/* Largest websocket message (one frame, or the fragments of one message)
 * taken from a client. The bench sends payloads of a few hundred bytes; 1 MiB
 * leaves room for the conformance suite's large cases and still bounds what
 * one session can make us hold. Larger: close 1009. */
#define MAX_MESSAGE_BYTES (1024u * 1024u)

/* Largest HTTP request head (request line and headers). Browsers and the
 * bench send well under 1 KiB; 8 KiB is what common servers allow. Larger:
 * 431 and close. */
#define MAX_REQUEST_HEAD 8192u

/* Seconds an HTTP connection may take to send its request head, and a closing
 * websocket to answer our close frame, before we drop it: a client that
 * connects and says nothing must not hold a descriptor for ever. */
#define HEADER_TIMEOUT_S 10.0
#define CLOSE_TIMEOUT_S 1.0

/* Seconds between SIGTERM and exit at most: the contract allows 2 s; we
 * leave 0.5 s for the process to end after the loop stops. */
#define STOP_DEADLINE_S 1.5

/* Bytes one recv() takes. 64 KiB is far more than one loop turn brings a
 * bench session (a few frames), so a read almost never needs a second call;
 * level-triggered epoll reports the rest next turn if there is more. */
#define READ_CHUNK (64u * 1024u)

/* Ready descriptors one epoll_wait() returns. A fast-mode loop turn coalesces
 * what these bring, so this bounds one frame's batch too: 1024 covers the
 * bench's levels up to 1,000 clients in one turn. */
#define MAX_EVENTS 1024

/* How often (at most) the heartbeat and timeout scan runs, in seconds: a
 * quarter of the heartbeat, so an `h` goes out between 1 and 1.25 heartbeats
 * after the last output, and never less often than this for the timeouts. */
#define MAX_SCAN_PERIOD_S 0.25
#define MIN_SCAN_PERIOD_S 0.01

/* Session-budget refusals are logged at most this often (docs/protocol.md
 * section 7). */
#define REFUSAL_LOG_PERIOD_S 10.0

#endif
