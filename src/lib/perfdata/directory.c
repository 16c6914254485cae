/* SPDX-License-Identifier: MIT */
/*
 * The files of a perf.data directory (perf record --threads): "data",
 * which holds the header and the first records, and data.0, data.1, ...,
 * all open at once and merged by time as they are read; and the offsets
 * that name a file of the directory (perfdata_where()).  See
 * perfdata-private.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfdata-private.h"

/* OFF, an offset in the file being read, as perfdata_where() takes it. */
static uint64_t
tag_offset(const struct perfdata *pd, uint64_t off)
{
	if (pd->dir == NULL || off == P2G_NO_OFFSET)
		return off;
	return off | (uint64_t)(pd->cur - pd->parts) << PERFDATA_PART_SHIFT;
}

struct input *
directory_open_file(struct perfdata *pd, const char *name,
		    struct p2g_error *err)
{
	struct input *in;
	struct stat st;
	char *path;

	path = malloc(strlen(pd->dir) + strlen(name) + 2);
	if (path == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		return NULL;
	}
	sprintf(path, "%s/%s", pd->dir, name);
	if (stat(path, &st) != 0 && errno == ENOENT) {
		free(path);
		p2g_error_clear(err);
		return NULL;
	}
	in = input_open_regular(path, err);
	free(path);
	if (in == NULL) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		p2g_fail(err, err->status, err->offset, "%s: %s", name, msg);
	}
	return in;
}

/*
 * After the header of a directory's "data": open data.0, data.1, ... up
 * to the first that is missing, all to be read side by side, and set up
 * the heap of files by frontier (all at 0: in the order of the files).
 * 0, or -1 with ERR set.
 */
int
directory_open(struct perfdata *pd, struct p2g_error *err)
{
	struct perf_part *np;
	struct input *in;
	char name[24];
	size_t i;

	for (;;) {
		snprintf(name, sizeof(name), "data.%zu", pd->nparts - 1);
		in = directory_open_file(pd, name, err);
		if (in == NULL) {
			if (err->status != P2G_OK)
				return -1;
			break;
		}
		/* the number of the file must fit above an offset */
		if (pd->nparts >> (64 - PERFDATA_PART_SHIFT) != 0) {
			input_close(in);
			return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
					"more than %u data.N files in the "
					"directory",
					(1u << (64 - PERFDATA_PART_SHIFT)) - 1);
		}
		np = realloc(pd->parts, (pd->nparts + 1) * sizeof(*np));
		if (np == NULL) {
			input_close(in);
			return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					"out of memory");
		}
		pd->parts = np;
		memset(&np[pd->nparts], 0, sizeof(*np));
		np[pd->nparts].in = in;
		np[pd->nparts].data_end = UINT64_MAX;
		/* perf did not finish the header: it may have left any
		 * file cut inside a record */
		np[pd->nparts].salvage = np[0].salvage;
		memcpy(np[pd->nparts].name, name, sizeof(name));
		pd->nparts++;
	}
	pd->cur = pd->parts;
	if (pd->nparts == 1)
		perfdata_warnf(pd, P2G_NO_OFFSET, "the directory has no "
			       "data.0 file: only its header file was read");
	pd->heap = malloc(pd->nparts * sizeof(*pd->heap));
	if (pd->heap == NULL)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	pd->f.total_size = 0;
	for (i = 0; i < pd->nparts; i++) {
		uint64_t size = input_size(pd->parts[i].in);

		pd->heap[i].time = 0;
		pd->heap[i].part = (uint32_t)i;
		if (size == UINT64_MAX || pd->f.total_size == UINT64_MAX)
			pd->f.total_size = UINT64_MAX;
		else
			pd->f.total_size += size;
	}
	pd->nheap = pd->nparts;
	return 0;
}

/* Whether heap entry A goes before B: the earlier time, then the earlier
 * file. */
static inline bool
key_before(const struct part_key *a, const struct part_key *b)
{
	return a->time < b->time || (a->time == b->time && a->part < b->part);
}

/* Put the file at the top of the heap in its place, and read on from the
 * file that is then at the top. */
static void
part_sift(struct perfdata *pd)
{
	struct part_key *h = pd->heap, x = h[0];
	size_t i = 0, c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= pd->nheap)
			break;
		if (c + 1 < pd->nheap && key_before(&h[c + 1], &h[c]))
			c++;
		if (!key_before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
	pd->cur = &pd->parts[h[0].part];
}

void
directory_part_end(struct perfdata *pd)
{
	input_release(pd->cur->in, UINT64_MAX);
	if (--pd->nheap > 0) {
		pd->heap[0] = pd->heap[pd->nheap];
		part_sift(pd);
	}
}

/*
 * A directory's files, each in time order (one per CPU, or per group of
 * CPUs with their rounds), are merged by time as they are read: each
 * holds its next record (its head), and the earliest head goes first
 * (on a tie, the earlier file's).  A head without a time keeps its file
 * where it was; one of time 0, which perf delivers at once, goes first.
 * The files are read only at the top of the heap, so a record read stays
 * valid until the next call, as perfdata_next() promises.  (perf reads
 * the files in turns of a few megabytes and holds every record until the
 * end instead.)
 */
int
directory_next(struct perfdata *pd, struct perf_record *rec,
	       struct p2g_error *err)
{
	struct perf_part *pt;
	uint64_t t;
	int r;

	while (pd->nheap > 0) {
		pt = pd->cur;
		if (pt->has_head) {
			pt->has_head = false;
			*rec = pt->head;
			return 1;
		}
		r = perfdata_next_in_file(pd, &pt->head, err);
		if (r < 0) {
			if (err->part[0] == '\0')
				snprintf(err->part, sizeof(err->part), "%s",
					 pt->name);
			return r;
		}
		if (r == 0)
			continue;	/* the file is off the heap */
		pt->head.offset = tag_offset(pd, pt->head.offset);
		pt->has_head = true;
		if (perfdata_record_time(&pt->head, &t) &&
		    t != UINT64_MAX) {
			struct part_key *h = pd->heap;

			h[0].time = t;
			/* most often it stays on top */
			if ((pd->nheap > 1 && key_before(&h[1], &h[0])) ||
			    (pd->nheap > 2 && key_before(&h[2], &h[0])))
				part_sift(pd);
		}
	}
	return 0;
}

const char *
perfdata_where(const struct perfdata *pd, uint64_t off, uint64_t *file_off)
{
	uint64_t k = off >> PERFDATA_PART_SHIFT;

	if (pd->dir == NULL || off == P2G_NO_OFFSET || k >= pd->nparts) {
		*file_off = off;
		return pd->parts[0].name;
	}
	*file_off = off & (((uint64_t)1 << PERFDATA_PART_SHIFT) - 1);
	return pd->parts[k].name;
}

void
perfdata_locate(const struct perfdata *pd, struct p2g_error *err)
{
	const char *part;

	if (pd->dir == NULL || err->part[0] != '\0' ||
	    err->offset == P2G_NO_OFFSET)
		return;
	part = perfdata_where(pd, err->offset, &err->offset);
	snprintf(err->part, sizeof(err->part), "%s", part);
}
