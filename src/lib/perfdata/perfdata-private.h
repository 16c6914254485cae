/* SPDX-License-Identifier: MIT */
/*
 * The inside of the perfdata handle, shared by the files that make up the
 * reader and by no others: perfdata.c (the handle, its attrs and ids, and
 * the records of a file in file order), header.c (the file header, the
 * attrs section and the feature sections, also as pipe-mode records) and
 * directory.c (the files of a perf.data directory, merged by time).
 */
#ifndef P2G_PERFDATA_PRIVATE_H
#define P2G_PERFDATA_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "hashtab.h"
#include "input.h"
#include "perfdata.h"
#include "tracefmt.h"

struct zstream;

/*
 * One file of the input: the file itself, or one of a perf.data
 * directory's ("data", which holds the header, and data.0, data.1, ...).
 * A directory's files are all open at once and merged by time as they
 * are read (perfdata_next()).
 */
struct perf_part {
	struct input *in;
	struct zstream *z;	/* perf record -z data, once seen */
	uint64_t data_end;	/* UINT64_MAX: up to end of file */
	bool salvage;		/* data.size was 0: read what is there */
	struct perf_record head;	/* its next record (directory) */
	bool has_head;
	uint64_t next_release;	/* where its pages are given back next */
	char name[24];		/* "data", "data.0", ...; "" for a file */
	/* Its input's bytes, when mapped (input_map()), once looked up. */
	bool map_known;
	const unsigned char *map;
	uint64_t map_size;
};

/*
 * In a directory, the offset of a record carries the number of its file
 * (0 for "data", N + 1 for data.N) above PERFDATA_PART_SHIFT;
 * perfdata_where() takes it apart, and perfdata_locate() does for an
 * error.
 */
#define PERFDATA_PART_SHIFT 48

struct perfdata {
	struct input *in;	/* the file with the header: parts[0].in */
	struct perfdata_format f;
	bool done;

	/* The attrs, each allocated on its own: a record keeps a pointer
	 * to its attr while more attrs come (pipe mode). */
	struct perf_attr **attrs;
	size_t nr_attrs;
	/* id -> attr index: the ids met, found by id_index (hashtab.h) */
	struct perf_id {
		uint64_t id;
		uint32_t attr;
	} *ids;			/* in the order met */
	size_t nids, cap_ids;
	struct hashtab id_index;

	struct perf_header_info info;
	struct perfdata_counts counts;
	/* The files read: one, or a directory's (DIR is then its path);
	 * CUR is the one being read.  HEAP orders the directory's files
	 * not yet at their end by the time of their head (or of their last
	 * head that had one), the earliest first. */
	struct perf_part *parts, *cur;
	size_t nparts;
	struct part_key {
		uint64_t time;
		uint32_t part;
	} *heap;
	size_t nheap;
	char *dir;

	perfdata_warn_fn warn;
	void *warn_ctx;
	uint64_t max_inflate;	/* perfdata_open_limited() */
	bool opened;		/* perfdata_open() is done: warnings name
				   the part being read */
	struct tracefmt tf;	/* the tracepoints' formats */
};

/* perfdata.c */

/* A warning at offset OFF of the file being read, to PD's warn function. */
void perfdata_warnf(struct perfdata *pd, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add an attr decoded by the caller (ownership of its name and ids moves
 * into PD, also on failure); OFF is where it was read.  0, or -1 with
 * ERR set. */
int perfdata_add_attr(struct perfdata *pd, struct perf_attr *a, uint64_t off,
		      struct p2g_error *err);

/* The attr that a sample body (the bytes after the record header) belongs
 * to, or NULL if its id matches none. */
struct perf_attr *perfdata_sample_attr(struct perfdata *pd,
				       const unsigned char *body, size_t len);

/* The attr of event id ID, or NULL. */
struct perf_attr *perfdata_find_id(const struct perfdata *pd, uint64_t id);

/* The next record of the file being read (pd->cur), in file order: the
 * return of perfdata_next() for a single file. */
int perfdata_next_in_file(struct perfdata *pd, struct perf_record *rec,
			  struct p2g_error *err);

/* The tracing data BUF[0..LEN), at offset OFF: the formats of the
 * tracepoints kept, and their events named.  Data that cannot be read
 * are a warning.  0, or -1 when out of memory. */
int perfdata_tracing(struct perfdata *pd, const unsigned char *buf,
		     size_t len, uint64_t off);

/* header.c */

/* Read the header of PD's input, at its start: its magic and byte order,
 * and in a file (not pipe mode) the attrs section and the feature
 * sections, leaving the input at the data section.  0, or -1 with ERR
 * set. */
int header_read(struct perfdata *pd, struct p2g_error *err);

/* PERF_RECORD_HEADER_ATTR (pipe mode): an attr followed by its ids, the
 * record REC of SIZE bytes at OFF.  0, or -1 with ERR set. */
int header_attr_record(struct perfdata *pd, const unsigned char *rec,
		       size_t size, uint64_t off, struct p2g_error *err);

/* PERF_RECORD_HEADER_FEATURE (pipe mode): a feature section in a record;
 * problems are warnings. */
void header_feature_record(struct perfdata *pd, const unsigned char *rec,
			   size_t size, uint64_t off);

/* HEADER_BUILD_ID's build_id_event records, from C (the feature section,
 * or a PERF_RECORD_HEADER_BUILD_ID); problems are warnings. */
void header_build_ids(struct perfdata *pd, struct cursor *c);

/* directory.c */

/* Open file NAME of the directory pd->dir, or return NULL with ERR clear
 * if there is no such file (or with ERR set if it cannot be opened). */
struct input *directory_open_file(struct perfdata *pd, const char *name,
				  struct p2g_error *err);

/* After the header of a directory's "data": open data.0, data.1, ...
 * and make ready to merge them.  0, or -1 with ERR set. */
int directory_open(struct perfdata *pd, struct p2g_error *err);

/* The file being read is at its end: give back its pages and read on
 * from the file with the earliest head. */
void directory_part_end(struct perfdata *pd);

/* perfdata_next() of a directory. */
int directory_next(struct perfdata *pd, struct perf_record *rec,
		   struct p2g_error *err);

#endif
