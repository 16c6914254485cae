/* SPDX-License-Identifier: MIT */
/*
 * The formats of the tracepoints of a recording, from its tracing data
 * (tracing.h): for each tracepoint ID its name "system:name" and the
 * fields of its raw data (PERF_SAMPLE_RAW), each with the offset, size
 * and signedness that the format's "field:" lines give, as tracefs
 * writes them (Documentation/trace/events.rst, "Event formats"):
 *   field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
 * so that a sample's fields are read by name (prev_pid, next_pid).
 */
#ifndef P2G_TRACEFMT_H
#define P2G_TRACEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracefmt_field {
	char *name;		/* owned */
	uint32_t offset, size;	/* in the raw data */
	bool is_signed;
};

struct tracefmt_event {
	uint64_t id;
	char *name;		/* "system:name"; owned */
	struct tracefmt_field *fields;	/* owned */
	size_t nfields;
};

/* The formats read; zeroed is empty. */
struct tracefmt {
	struct tracefmt_event *ev;
	size_t n, cap;
};

/* Add the format TEXT[0..TEXTLEN) of tracepoint ID, SYS:NAME (neither
 * NUL-terminated); a second format of one ID replaces the first.  Lines
 * that are not fields as above are passed over.  0, or -1 when out of
 * memory. */
int tracefmt_add(struct tracefmt *t, uint64_t id, const char *sys,
		 size_t syslen, const char *name, size_t namelen,
		 const char *text, size_t textlen);

/* Free what T holds and leave it empty. */
void tracefmt_release(struct tracefmt *t);

/* The format of tracepoint ID, or NULL. */
const struct tracefmt_event *tracefmt_find(const struct tracefmt *t,
					   uint64_t id);

/* Field NAME of E, or NULL (E may be NULL). */
const struct tracefmt_field *tracefmt_field(const struct tracefmt_event *e,
					    const char *name);

/* The value of field F (of 1, 2, 4 or 8 bytes; sign-extended if signed)
 * in the raw data RAW[0..LEN) in byte order BIG into *V.  False when F
 * is NULL, of another size, or lies past LEN. */
bool tracefmt_read(const struct tracefmt_field *f, const unsigned char *raw,
		   size_t len, bool big, uint64_t *v);

#endif
