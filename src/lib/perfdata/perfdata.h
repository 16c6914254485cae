/* SPDX-License-Identifier: MIT */
/*
 * The perf.data reader: file mode (PERFILE2, either byte order) and pipe
 * mode.  perfdata_open() reads the header, the attrs and their ids and the
 * feature sections; perfdata_next() then streams the records of the data
 * section one at a time.  Records that perf synthesizes to describe the
 * file (HEADER_ATTR, HEADER_FEATURE, tracing data, build ids, ...) are
 * consumed here and folded into the handle; kernel records are handed to
 * the caller.
 */
#ifndef P2G_PERFDATA_H
#define P2G_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attr.h"
#include "error.h"
#include "perf_abi.h"

struct perf_build_id {
	int32_t pid;
	uint8_t size;		/* bytes of id used */
	uint8_t id[20];
	char *filename;		/* owned */
};

/* What the feature sections say (each field NULL or 0 when absent). */
struct perf_header_info {
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	char *cmdline;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	uint64_t first_sample_time, last_sample_time;
	bool have_sample_time;
	uint64_t clockid_res_ns;
	/* The clock data of perf record -k: the time of day and the
	 * recording clock's time, both in ns, taken at one moment. */
	uint64_t clock_tod_ns, clock_ref_ns;
	bool have_clock_data;
	uint32_t compression_type, compression_level;
	uint32_t compression_mmap_len;
	struct perf_build_id *build_ids;
	size_t nr_build_ids;
	uint64_t features[4];	/* bitmap of features present */
	uint32_t compression_ratio;
	/* The bytes of each feature section below HEADER_LAST_FEATURE
	 * (not tracing data and build ids), for --info; owned. */
	struct perf_feature_raw {
		unsigned char *data;
		size_t len;
		uint64_t off;
	} raw[HEADER_LAST_FEATURE];
};

/* One record of the data section. */
struct perf_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* bytes, header included */
	uint64_t offset;	/* its position (perfdata_where()) */
	const unsigned char *data;	/* the whole record; valid until the
					   next perfdata_next(), or until
					   perfdata_close() if lasting */
	struct perf_attr *attr;	/* the record's event, if known */
	bool lasting;		/* data is in the mapped file itself */
};

/* Counts the reader keeps while streaming. */
struct perfdata_counts {
	uint64_t records;
	uint64_t by_type[128];	/* types >= 128 are counted in by_type[0] */
	uint64_t unknown_id;	/* samples whose id matches no attr */
	uint64_t lost;		/* events the kernel reported lost */
	uint64_t lost_samples;	/* samples it reported lost (perf
				   report's "Total Lost Samples") */
};

/* Hears a problem that does not stop the reading, at OFFSET of PART: ""
 * for the file itself (and the header of a perf.data directory), else
 * the name of the directory's file ("data.1"). */
typedef void (*perfdata_warn_fn)(void *ctx, const char *part,
				 uint64_t offset, const char *msg);

/* The handle of one perf.data input (perfdata.c); opaque. */
struct perfdata;
struct input;

/* What the header of an input says, and how it is read: fixed once
 * perfdata_open() has returned. */
struct perfdata_format {
	bool pipe_mode;
	bool gzip;		/* read through gzip: offsets are of the
				   decompressed data */
	bool big_endian;
	bool directory;		/* a perf.data directory */
	uint64_t header_size;
	uint64_t attr_size;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t total_size;	/* of all the files; UINT64_MAX if unknown */
};

/*
 * Open a perf.data file at PATH ("-" for standard input) and read
 * everything up to the data section.  WARN, if not NULL, hears about
 * problems that do not stop the reading.  Returns NULL on failure with
 * ERR filled in.  The caller owns the handle and frees it with
 * perfdata_close().
 */
struct perfdata *perfdata_open(const char *path, perfdata_warn_fn warn,
			       void *warn_ctx, struct p2g_error *err);

/*
 * perfdata_open() with a bound on decompression other than
 * INFLATE_RATIO_DEFAULT (zstream.h): the data of a .gz file and the zstd
 * stream of perf record -z may inflate to at most MAX_INFLATE times their
 * compressed size (0: no bound), which the message of the refusal names
 * as perf2gperf's --max-inflate.
 */
struct perfdata *perfdata_open_limited(const char *path, uint64_t max_inflate,
				       perfdata_warn_fn warn, void *warn_ctx,
				       struct p2g_error *err);

/* How perfdata_open_with() opens an input. */
struct perfdata_open_opts {
	uint64_t max_inflate;	/* as perfdata_open_limited() takes it */
	perfdata_warn_fn warn;	/* as perfdata_open() takes it */
	void *warn_ctx;
	/* If not NULL, hears how the copy of the input to a temporary file
	 * goes (a file-mode perf.data on a pipe, a gzip input): DONE bytes
	 * of TOTAL (UINT64_MAX when not known), as input_progress_fn. */
	void (*spool_progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* perfdata_open() as O says. */
struct perfdata *perfdata_open_with(const char *path,
				    const struct perfdata_open_opts *o,
				    struct p2g_error *err);

/* Close PD and free everything it owns; NULL is accepted. */
void perfdata_close(struct perfdata *pd);

/*
 * Fetch the next record of the data section into REC: a kernel record,
 * or a FINISHED_ROUND (other records that perf itself writes are read
 * here and not returned).  Returns 1 for a record, 0 at the end of the
 * data, -1 on error.
 */
int perfdata_next(struct perfdata *pd, struct perf_record *rec,
		  struct p2g_error *err);

/* The function that hears PD's warnings, and its context. */
void perfdata_get_warn(const struct perfdata *pd, perfdata_warn_fn *fn,
		       void **ctx);
void perfdata_set_warn(struct perfdata *pd, perfdata_warn_fn fn, void *ctx);

/* The time of REC if it has one (a sample with PERF_SAMPLE_TIME, or
 * another kernel record with a sample_id_all trailer holding TIME).
 * Inline: the reading asks it of every record. */
static inline int
perfdata_record_time(const struct perf_record *rec, uint64_t *time)
{
	const struct perf_attr *a = rec->attr;
	uint64_t st;
	size_t pos;

	if (a == NULL || !(a->sample_type & PERF_SAMPLE_TIME))
		return 0;
	st = a->sample_type;
	if (rec->type == PERF_RECORD_SAMPLE) {
		/* IDENTIFIER, IP, TID, then TIME: all 8 bytes (attr.h) */
		pos = 8 + 8 * (size_t)a->w_time;
	} else {
		if (!a->sample_id_all || rec->type >= PERF_RECORD_USER_TYPE_START ||
		    a->trailer_size + 8u > rec->size)
			return 0;
		/* the trailer starts with TID, then TIME */
		pos = rec->size - a->trailer_size +
		      ((st & PERF_SAMPLE_TID) ? 8 : 0);
	}
	if (pos + 8 > rec->size)
		return 0;
	*time = load64(rec->data + pos, a->big_endian);
	return 1;
}

/* The file that offset OFF (of a record, a warning or an error) is in:
 * "" for a plain file, else the name of the directory's file, with the
 * offset in it in *FILE_OFF. */
const char *perfdata_where(const struct perfdata *pd, uint64_t off,
			   uint64_t *file_off);

/* An error ERR at the offset of a record of PD (or in it): in a perf.data
 * directory, its offset becomes one in the file it names in err->part.
 * Errors that name a part already, or no offset, are left as they are. */
void perfdata_locate(const struct perfdata *pd, struct p2g_error *err);

/* How many bytes of the files have been read. */
uint64_t perfdata_done(const struct perfdata *pd);

/* Give back the pages of a mapped file before offset UPTO (of a record
 * returned; UINT64_MAX: all): see input_release(). */
void perfdata_release(struct perfdata *pd, uint64_t upto);

/* What the header of PD says (perfdata_format above). */
const struct perfdata_format *perfdata_format(const struct perfdata *pd);

/* What PD's feature sections say. */
const struct perf_header_info *perfdata_header(const struct perfdata *pd);

/* The build-id table's entry of the kernel's text: the one perf names
 * "[kernel.kallsyms]", else (perf 4.x, when it found a vmlinux at
 * record time) one of the host (pid -1) with a vmlinux path, such as
 * /lib/modules/RELEASE/build/vmlinux; NULL if there is none with a
 * size.  HI may be NULL. */
const struct perf_build_id *
perfdata_kernel_build_id(const struct perf_header_info *hi);

/* The counts of the records read so far. */
const struct perfdata_counts *perfdata_counts(const struct perfdata *pd);

/* The formats of PD's tracepoints, from its tracing data (empty without
 * them); they stay while PD lives, and more may come in pipe mode. */
struct tracefmt;
const struct tracefmt *perfdata_tracefmt(const struct perfdata *pd);

/* The number of PD's attrs, and attr I of them (I < perfdata_nattrs();
 * its index field is I).  An attr stays where it is while PD lives; more
 * may come with the records in pipe mode. */
size_t perfdata_nattrs(const struct perfdata *pd);
const struct perf_attr *perfdata_attr(const struct perfdata *pd, size_t i);

/* What a recording says of itself, for the layers above the reading,
 * which need no handle: its format, header and events (attrs[i] is
 * perfdata_attr(PD, i)).  Taken once the data is read, it stays valid
 * while PD lives. */
struct perfdata_facts {
	const struct perfdata_format *format;
	const struct perf_header_info *header;
	const struct perf_attr *const *attrs;
	size_t nattrs;
};

/* PD's facts as they stand. */
void perfdata_facts(const struct perfdata *pd, struct perfdata_facts *f);

/* The files PD reads (one, or a perf.data directory's: "data", data.0,
 * ...), file I of them, and its name in the directory (NULL when PD is
 * not a directory). */
size_t perfdata_nparts(const struct perfdata *pd);
const struct input *perfdata_part_input(const struct perfdata *pd, size_t i);
const char *perfdata_part_name(const struct perfdata *pd, size_t i);

/*
 * The attr of event id ID (as PERF_SAMPLE_READ names a counter), and in
 * *SEQ the number of ID among the ids of PD, counted from 0 in the order
 * they were met: it stays the same while PD lives, so that a caller can
 * keep what it needs per id in an array.  NULL if ID is unknown.
 */
const struct perf_attr *perfdata_id_attr(const struct perfdata *pd,
					 uint64_t id, size_t *seq);

/* Name of header feature BIT, or NULL if unknown. */
const char *perfdata_feature_name(unsigned bit);

#endif
