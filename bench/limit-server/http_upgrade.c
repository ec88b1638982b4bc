/* HTTP request heads and the websocket upgrade (http_upgrade.h).
 *
 * Only the websocket endpoints and the two URLs tools poll (/info, the
 * greeting) are served; every HTTP transport (xhr, eventsource, ...) answers
 * 404, since the benchmark never uses them and a C copy of them would measure
 * nothing. Every answer but the upgrade closes the connection (no keep-alive):
 * these requests are a handful per run. */
#include "http_upgrade.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bounds.h"
#include "log.h"
#include "ws_accept.h"
#include "ws_session.h"

/* Session-budget refusals since the last log line, and when that was. */
static long refused_since_log;
static double refusal_logged_at = -1e9;

static void answer(struct conn *c, const char *status, const char *headers, const char *body)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "HTTP/1.1 %s\r\n%sContent-Length: %zu\r\nConnection: close\r\n\r\n%s", status,
                     headers, strlen(body), body);
    buf_consume(&c->in, buf_pending(&c->in));
    conn_begin_close(c, text, (size_t)n);
}

#define TEXT_PLAIN "Content-Type: text/plain; charset=UTF-8\r\n"
#define NO_CACHE "Cache-Control: no-store, no-cache, no-transform, must-revalidate, max-age=0\r\n"

static void not_found(struct conn *c)
{
    answer(c, "404 Not Found", TEXT_PLAIN, "Not found.");
}

/* A header's value from the head (case-insensitive name), or NULL; *len set. */
static const char *header(const char *head, size_t headlen, const char *name, size_t *len)
{
    size_t nl = strlen(name);
    const char *p = memchr(head, '\n', headlen); /* skip the request line */
    const char *end = head + headlen;
    while (p && p + 1 < end) {
        const char *line = p + 1;
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            break;
        if ((size_t)(eol - line) > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            const char *ve = eol;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            *len = (size_t)(ve - v);
            return v;
        }
        p = eol;
    }
    return NULL;
}

/* Whether a comma-separated header value holds `token` (case-insensitive):
 * Firefox sends "Connection: keep-alive, Upgrade". */
static int has_token(const char *v, size_t len, const char *token)
{
    size_t tl = strlen(token);
    const char *end = v + len;
    while (v < end) {
        while (v < end && (*v == ' ' || *v == ','))
            v++;
        const char *t = v;
        while (v < end && *v != ',')
            v++;
        const char *te = v;
        while (te > t && te[-1] == ' ')
            te--;
        if ((size_t)(te - t) == tl && strncasecmp(t, token, tl) == 0)
            return 1;
    }
    return 0;
}

static int session_budget_left(void)
{
    if (srv.sessions < srv.max_sessions)
        return 1;
    refused_since_log++;
    if (srv.now - refusal_logged_at >= REFUSAL_LOG_PERIOD_S) {
        log_line(LOG_WARNING, "session limit reached: %ld sessions open (--max-sessions %ld); %ld requests refused",
                 srv.sessions, srv.max_sessions, refused_since_log);
        refused_since_log = 0;
        refusal_logged_at = srv.now;
    }
    return 0;
}

static void upgrade(struct conn *c, const char *head, size_t headlen, const char *method, enum mount mount,
                    int framed)
{
    size_t ul = 0, cl = 0, kl = 0, vl = 0;
    if (strcmp(method, "GET") != 0) {
        answer(c, "405 Method Not Allowed", "Allow: GET\r\n", "");
        return;
    }
    const char *up = header(head, headlen, "Upgrade", &ul);
    if (!up || ul != 9 || strncasecmp(up, "websocket", 9) != 0) {
        answer(c, "400 Bad Request", TEXT_PLAIN, "Can \"Upgrade\" only to \"WebSocket\".");
        return;
    }
    const char *conn_h = header(head, headlen, "Connection", &cl);
    if (!conn_h || !has_token(conn_h, cl, "upgrade")) {
        answer(c, "400 Bad Request", TEXT_PLAIN, "\"Connection\" must be \"Upgrade\".");
        return;
    }
    /* The budget comes before the handshake's details: a request beyond it
     * gets 503 whatever websocket flavour it speaks (docs/protocol.md section 7). */
    if (!session_budget_left()) {
        answer(c, "503 Service Unavailable", TEXT_PLAIN "Retry-After: 5\r\n", "Session limit reached.");
        return;
    }
    const char *key = header(head, headlen, "Sec-WebSocket-Key", &kl);
    const char *ver = header(head, headlen, "Sec-WebSocket-Version", &vl);
    /* hybi-07 and -08 handshakes are RFC 6455's in all we use; hixie-76 (no
     * key) is not spoken. */
    int version_ok = ver && ((vl == 2 && !strncmp(ver, "13", 2)) || (vl == 1 && (*ver == '7' || *ver == '8')));
    char accept[29];
    if (!key || !version_ok || ws_accept_value(key, kl, accept) < 0) {
        answer(c, "400 Bad Request", TEXT_PLAIN, "Only RFC 6455 websocket handshakes (Sec-WebSocket-Version 13).");
        return;
    }
    char text[256];
    int n = snprintf(text, sizeof text,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     accept);
    buf_consume(&c->in, headlen);
    if (conn_write(c, text, (size_t)n) < 0)
        return;
    ws_open(c, mount, framed);
    /* A client may send its first frame right behind the request head. */
    if (c->state == CONN_OPEN && buf_pending(&c->in))
        ws_input(c, NULL, 0);
}

static void info(struct conn *c)
{
    char body[160];
    snprintf(body, sizeof body,
             "{\"websocket\":true,\"cookie_needed\":false,\"origins\":[\"*:*\"],\"entropy\":%u}",
             (unsigned)random());
    answer(c, "200 OK", "Content-Type: application/json; charset=UTF-8\r\n" NO_CACHE
                        "Access-Control-Allow-Origin: *\r\n",
           body);
}

/* Route a whole request head. */
static void route(struct conn *c, const char *head, size_t headlen)
{
    char method[16], target[2048];
    if (sscanf(head, "%15s %2047s", method, target) != 2) {
        answer(c, "400 Bad Request", TEXT_PLAIN, "Bad request line.");
        return;
    }
    char *q = strchr(target, '?');
    if (q)
        *q = 0;
    static const struct {
        const char *prefix;
        enum mount mount;
    } MOUNTS[] = {{"/broadcast", MOUNT_BROADCAST}, {"/echo", MOUNT_ECHO}, {"/close", MOUNT_CLOSE}};
    for (size_t i = 0; i < sizeof MOUNTS / sizeof MOUNTS[0]; i++) {
        size_t pl = strlen(MOUNTS[i].prefix);
        if (strncmp(target, MOUNTS[i].prefix, pl) != 0 || (target[pl] && target[pl] != '/'))
            continue;
        const char *rest = target + pl;
        if (!*rest || !strcmp(rest, "/")) {
            answer(c, "200 OK", TEXT_PLAIN, "Welcome to SockJS!\n");
            return;
        }
        if (!strcmp(rest, "/info")) {
            info(c);
            return;
        }
        if (!strcmp(rest, "/websocket")) {
            upgrade(c, head, headlen, method, MOUNTS[i].mount, 0);
            return;
        }
        /* /<server>/<session>/websocket: both non-empty, without dots or
         * slashes (the SockJS rule for session URLs). */
        const char *s1 = rest + 1;
        const char *e1 = strchr(s1, '/');
        if (e1 && e1 > s1) {
            const char *s2 = e1 + 1;
            const char *e2 = strchr(s2, '/');
            if (e2 && e2 > s2 && !strcmp(e2, "/websocket") && !memchr(s1, '.', (size_t)(e2 - s1))) {
                upgrade(c, head, headlen, method, MOUNTS[i].mount, 1);
                return;
            }
        }
        break;
    }
    not_found(c);
}

void http_input(struct conn *c, const char *p, size_t n)
{
    if (buf_append(&c->in, p, n) < 0) {
        conn_kill(c);
        return;
    }
    const char *data = buf_head(&c->in);
    size_t len = buf_pending(&c->in);
    const char *end = NULL;
    for (size_t i = 3; i < len; i++) {
        if (data[i] == '\n' && data[i - 1] == '\r' && data[i - 2] == '\n' && data[i - 3] == '\r') {
            end = data + i + 1;
            break;
        }
    }
    if (!end) {
        if (len > MAX_REQUEST_HEAD)
            answer(c, "431 Request Header Fields Too Large", TEXT_PLAIN, "Request head over 8 KiB.");
        return;
    }
    size_t headlen = (size_t)(end - data);
    if (headlen > MAX_REQUEST_HEAD) {
        answer(c, "431 Request Header Fields Too Large", TEXT_PLAIN, "Request head over 8 KiB.");
        return;
    }
    /* NUL-terminate a copy for sscanf and friends. */
    char *head = malloc(headlen + 1);
    if (!head) {
        conn_kill(c);
        return;
    }
    memcpy(head, data, headlen);
    head[headlen] = 0;
    route(c, head, headlen);
    free(head);
}
