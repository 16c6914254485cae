/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint names from perf's tracing data (HEADER_TRACING_DATA: the
 * tracefs format files that perf record copies, read by perf's
 * tools/perf/util/trace-event-read.c): the "name:" and "ID:" of each
 * event format of each system, so that a tracepoint event of a recording
 * that does not name its events (pipe mode) gets the name perf gives it,
 * "system:name", and the fields of its raw data are known
 * (tracefmt.h).
 */
#ifndef P2G_TRACING_H
#define P2G_TRACING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Called for each event format: its ID, its system SYS (SYSLEN bytes),
 * its name NAME (NAMELEN bytes) and the whole format TEXT (TEXTLEN
 * bytes), none NUL-terminated.  Returns false to stop the walk (out of
 * memory). */
typedef bool (*tracing_name_fn)(void *arg, uint64_t id, const char *sys,
				size_t syslen, const char *name,
				size_t namelen, const char *text,
				size_t textlen);

/*
 * Walk the tracing data P[0..LEN), calling FN for each event format
 * that has a name and an ID.  Returns 0; 1 when FN stopped the walk; -1
 * when the data are not tracing data or end early, with *BAD_AT the
 * offset within P where they went wrong (the formats met before were
 * reported).
 */
int tracing_names(const unsigned char *p, size_t len, tracing_name_fn fn,
		  void *arg, size_t *bad_at);

#endif
