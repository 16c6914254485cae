/* SPDX-License-Identifier: MIT */
/*
 * The maps text of the profile: the /proc/PID/maps lines pprof reads to
 * tell which file an address belongs to.  One line per segment of each
 * place at its base (with a build id, first a line in the brief form Go
 * pprof takes it from), in the order of the addresses; then the
 * kernel's line; then the guard lines for the frames in no mapping
 * (guards.h).
 */
#ifndef P2G_MAPSTEXT_H
#define P2G_MAPSTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "bases.h"
#include "profile.h"

struct mapstext_kernel {
	const struct mapping *m;	/* the kernel's mapping */
	const char *name;		/* the path written for it */
	uint8_t build_id_size;
	const uint8_t *build_id;
};

/*
 * Append to OUT's maps text the lines of the NPLACES PLACES (each at
 * its base; their segments are sorted by offset), of the NKERNEL
 * mappings KERNEL (the kernel's text, then its modules with frames, each
 * as perf names it: "[e1000]" or the .ko's path) with offset 0, and the
 * guard lines for the NUNMAPPED addresses UNMAPPED (sorted
 * here) of user frames in no mapping, as pprof looks them up.  Returns
 * 0, or -1 when out of memory; OUT's maps text holds what was written.
 */
int mapstext_write(struct place *places, size_t nplaces,
		   const struct mapstext_kernel *kernel, size_t nkernel,
		   uint64_t *unmapped, size_t nunmapped,
		   struct profile *out);

#endif
