/* The growable byte buffer (buffers.h). Doubling growth: appends are amortised
 * O(1), and a session's output queue never needs more than two copies of its
 * bound. */
#include "buffers.h"

#include <stdlib.h>
#include <string.h>

int buf_reserve(struct buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    /* Slide what is left to the front before growing: a queue that is drained
     * from the front would otherwise creep towards the end. */
    if (b->off > 0) {
        memmove(b->data, b->data + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
        if (b->len + more <= b->cap)
            return 0;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

int buf_append(struct buf *b, const void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (buf_reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

void buf_consume(struct buf *b, size_t n)
{
    b->off += n;
    if (b->off >= b->len)
        b->off = b->len = 0;
}

void buf_clear(struct buf *b)
{
    b->off = b->len = 0;
}

void buf_shrink_if_empty(struct buf *b, size_t keep)
{
    if (b->len == b->off && b->cap > keep) {
        free(b->data);
        b->data = NULL;
        b->off = b->len = b->cap = 0;
    }
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->off = b->len = b->cap = 0;
}
