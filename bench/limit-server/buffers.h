/* A growable byte buffer with a read offset: a session's unsent output, its
 * unparsed input, a message being assembled, a loop turn's batch. */
#ifndef LIMIT_BUFFERS_H
#define LIMIT_BUFFERS_H

#include <stddef.h>

struct buf {
    char *data;
    size_t off; /* bytes before off are consumed */
    size_t len; /* bytes in use, from data (so off..len is what is left) */
    size_t cap;
};

static inline size_t buf_pending(const struct buf *b) { return b->len - b->off; }
static inline const char *buf_head(const struct buf *b) { return b->data + b->off; }

/* Make room for `more` bytes after len; 0 on success, -1 when out of memory. */
int buf_reserve(struct buf *b, size_t more);
/* Append; 0 or -1 (out of memory). */
int buf_append(struct buf *b, const void *p, size_t n);
/* Drop n bytes from the front; an emptied buffer rewinds to its start. */
void buf_consume(struct buf *b, size_t n);
/* Forget the content, keep the memory (for per-turn scratch). */
void buf_clear(struct buf *b);
/* Give back memory beyond `keep` bytes once the buffer is empty, so a session
 * that once queued a burst does not pin it for ever. */
void buf_shrink_if_empty(struct buf *b, size_t keep);
void buf_free(struct buf *b);

#endif
