/* SPDX-License-Identifier: MIT */
/*
 * The in-memory gperftools CPU profile: where the converter's output and
 * the reverse reader's input meet.  Records keep their PCs leaf first in
 * one pool; the maps text is kept as it is written.
 */
#ifndef P2G_PROFILE_H
#define P2G_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct profile_record {
	uint64_t count;
	uint64_t off;		/* first PC in the pool */
	uint64_t n;		/* number of PCs */
};

struct profile {
	unsigned slot_bytes;	/* 4 or 8 */
	bool big_endian;
	uint64_t period_us;
	struct profile_record *recs;
	size_t nrecs, cap_recs;
	uint64_t *pcs;
	size_t npcs, cap_pcs;
	char *maps;		/* text after the trailer, NUL-terminated */
	size_t maps_len;
	uint64_t maps_off;	/* file offset of the maps text (reader) */
	bool has_trailer;
};

void profile_init(struct profile *p);
void profile_release(struct profile *p);

/* Append a record.  0, or -1 when out of memory. */
int profile_add(struct profile *p, uint64_t count, const uint64_t *pcs,
		uint64_t n);

/* Append a record with the leaf repeated EXTRA more times in front of
 * PCS[1..]. */
int profile_add_extra(struct profile *p, uint64_t count, const uint64_t *pcs,
		      uint64_t n, unsigned extra);

/* Append a record whose N PCs are already in the pool at OFF (a pool
 * the caller gave P: records may then share or skip PCs).  0 or -1. */
int profile_add_at(struct profile *p, uint64_t count, uint64_t off,
		   uint64_t n);

/* Give record I EXTRA more copies of its leaf, after the leaf (its PCs
 * are copied to the end of the pool).  0, or -1 when out of memory. */
int profile_repeat_leaf(struct profile *p, size_t i, unsigned extra);

/* Append a record of N PCs and return where to store them (NULL when out
 * of memory). */
uint64_t *profile_new_record(struct profile *p, uint64_t count, uint64_t n);

/* Replace the maps text with a copy of TEXT[0..LEN).  0 or -1. */
int profile_set_maps(struct profile *p, const char *text, size_t len);

/* Total samples (sum of record counts). */
uint64_t profile_samples(const struct profile *p);

#endif
