/* SPDX-License-Identifier: MIT */
/*
 * The address space of the profile.  A gperftools profile describes one
 * address space; the stacks converted may come from several (processes,
 * and a process before and after exec or remapping).  Each mapped file
 * (by path and build id) gets one place: the addresses of every space
 * that maps it are relocated there, so pprof resolves a shared library's
 * frames from every process to the same functions.  A place keeps its
 * native addresses when they collide with no other place (so a profile
 * of one process has exactly its own addresses); anonymous and JIT
 * memory stays per space; kernel addresses stay as they are.
 */
#ifndef P2G_LAYOUT_H
#define P2G_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "aggregate.h"
#include "buildids.h"
#include "error.h"
#include "perfdata.h"
#include "profile.h"
#include "stacktab.h"

struct layout_opts {
	unsigned slot_bytes;		/* 4 or 8: where relocation may go */
	const char *kernel_path;	/* name of the kernel's mapping */
	const struct buildids *bids;	/* the header's build ids (made
					   once for every profile) */
	bool per_space;		/* a place per file and load address, not
				   per file: one process's own addresses */
	uint64_t period_unit;	/* 0: count samples; else each stack
				   counts its periods in these units */
	bool take_pool;		/* OUT takes TAB's pool of PCs rather
				   than a copy of the stacks */
};

struct layout_stats {
	size_t places;		/* mapped files and anonymous regions */
	size_t relocated;	/* places moved off their native addresses */
	size_t collisions;	/* places left overlapping another: no room */
	uint64_t unmapped;	/* user frames in no mapping (kept as is) */
	bool with_kernel;	/* kernel frames are written */
};

/*
 * Translate the stacks of the N entries E (of TAB, the table of AG, whose
 * contexts name spaces of AS: aggregate_space()) into OUT (initialised, empty): identical translated
 * stacks summed, most samples (or periods) first, and the maps text
 * describing the places.  The entries are used up: their PCs are
 * translated in place, identical ones summed into one entry, and E is
 * reordered; with O->take_pool, TAB must then only be released.  A
 * packed TAB is unpacked first (stacktab_unpack()): drop its index
 * before, if it is no longer needed, to keep the peak low.
 * Returns 0, or -1 with ERR set (memory).
 */
int layout_build(struct addrspace *as, const struct aggregate *ag,
		 struct stacktab *tab,
		 struct stack_entry **e, size_t n,
		 const struct layout_opts *o, struct profile *out,
		 struct layout_stats *st, struct p2g_error *err);

#endif
