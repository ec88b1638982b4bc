/* Levelled log lines on stderr (log.h). One fprintf per line, so a line is
 * written whole even when stderr is a pipe shared with other processes. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum log_level log_threshold = LOG_WARNING;

static const char *const NAMES[] = {"debug", "info", "warning", "error"};

int log_level_parse(const char *name, enum log_level *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, NAMES[i]) == 0) {
            *out = (enum log_level)i;
            return 0;
        }
    }
    return -1;
}

void log_line(enum log_level level, const char *fmt, ...)
{
    if (level < log_threshold)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "limit-server %s: %s\n", NAMES[level], text);
}
