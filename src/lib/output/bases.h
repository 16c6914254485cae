/* SPDX-License-Identifier: MIT */
/*
 * Where the places of the profile go.  A place is a mapped file (by path
 * and build id) or an anonymous region, with the segments of it that
 * the spaces converted map.  Its base is chosen here: its native
 * addresses when they collide with no other place (most samples first),
 * else the lowest free multiple of a step above a fixed address where
 * all of it fits, else, with no room, its native addresses anyway.
 */
#ifndef P2G_BASES_H
#define P2G_BASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"

struct segment {
	uint64_t pgoff, len;
	const struct mapping *m;	/* for dev, inode and prot */
};

struct place {
	char *key;
	const struct mapping *m;	/* a mapping of it: path */
	uint8_t build_id_size;
	const uint8_t *build_id;
	uint64_t lo, hi;		/* file offsets it covers */
	uint64_t pref;			/* native base: start - pgoff */
	uint64_t base;
	uint64_t samples;
	struct segment *segs;
	size_t nsegs, cap_segs;
	bool relocated;
};

/* The number of segments of the NPLACES PLACES. */
size_t bases_nsegs(const struct place *places, size_t nplaces);

/*
 * Set the base (and relocated) of each of the NPLACES PLACES, none
 * overlapping the NKERNEL mappings KERNEL (the kernel's, its modules')
 * nor going past
 * what a slot of SLOT_BYTES (4 or 8) holds.  Adds to *RELOCATED the
 * places moved and to *COLLISIONS those left at their native addresses
 * for want of room.  Returns 0, or -1 when out of memory.
 */
int bases_assign(struct place *places, size_t nplaces,
		 const struct mapping *const *kernel, size_t nkernel,
		 unsigned slot_bytes,
		 size_t *relocated, size_t *collisions);

#endif
