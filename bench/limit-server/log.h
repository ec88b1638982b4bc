/* Levelled log lines on stderr (docs/protocol.md: logs go to stderr only;
 * stdout carries the READY line and nothing else). */
#ifndef LIMIT_LOG_H
#define LIMIT_LOG_H

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARNING, LOG_ERROR };

extern enum log_level log_threshold;

/* 0 and the level for "debug", "info", "warning", "error"; -1 otherwise. */
int log_level_parse(const char *name, enum log_level *out);
void log_line(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
