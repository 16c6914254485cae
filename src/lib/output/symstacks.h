/* SPDX-License-Identifier: MIT */
/*
 * The stacks of a profile with names, for the formats that carry them
 * (pprof's profile.proto, folded stacks): each PC of each stack becomes a
 * location, a (mapping, address) pair in the address space of its own
 * process, with no rewriting of addresses (those formats need no single
 * address space, unlike layout.h's), and each location is named once by
 * the shared symbolizer (symbols.h): its functions, innermost inlined one
 * first.  PCs are looked up as they are: perf names the return addresses
 * of a callchain without subtracting 1, and pprof subtracts nothing from
 * the addresses of a profile.proto location either.  Frames that DWARF
 * unwinding found are the exception: perf's unwinders (unwind-libdw.c,
 * unwind-libunwind-local.c) take 1 from the return address of every
 * frame but the first, and so the location is at that address.
 */
#ifndef P2G_SYMSTACKS_H
#define P2G_SYMSTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "aggregate.h"
#include "buildids.h"
#include "error.h"
#include "perfdata.h"
#include "stacktab.h"
#include "symbols.h"

/* A mapping of the profile: one per distinct mapped range of a file. */
struct ss_mapping {
	uint64_t start, end, pgoff;
	const char *path;		/* the mapping's, as recorded */
	const char *dso;		/* the file perf script names,
					   when not PATH: the kernel's
					   vmlinux path that its build ID
					   was recorded under; else NULL */
	const uint8_t *build_id;	/* NULL if none */
	uint8_t build_id_size;
	bool kernel;			/* the kernel's text */
	int32_t pid;			/* of anonymous memory (JIT code):
					   its process; else -1 */
	bool has_functions, has_filenames, has_lines, has_inline;
};

/* A function: a name and its source file (NULL if not known). */
struct ss_function {
	const char *name, *file;
};

/* One function at a location, and its line (0: not known). */
struct ss_line {
	uint32_t func;		/* index into functions */
	uint32_t line;
};

/* An address of a mapping (map 0: in none; else index + 1), with its
 * lines[line..line + nlines): innermost function first. */
struct ss_location {
	uint64_t addr;
	uint32_t map;
	uint32_t line, nlines;
	bool unwound;		/* a user frame of a DWARF-unwound stack
				   (named by its functions' DWARF names,
				   as perf names it) */
};

/* A stack: pool[off..off + n) are its locations, leaf first. */
struct ss_sample {
	size_t off;
	uint32_t n;
	int32_t pid, tid;	/* tid -1: not known */
	const char *comm;	/* of the thread (else the process), as
				   long as the address spaces live */
	uint64_t count, period;
	bool preempted;		/* off-CPU: its thread was preempted */
	uint32_t ev;		/* its event (stack_entry.ev) */
};

struct symstacks {
	struct ss_mapping *maps;
	size_t nmaps;
	struct ss_function *funcs;
	size_t nfuncs;
	struct ss_line *lines;
	size_t nlines;
	struct ss_location *locs;
	size_t nlocs;
	struct ss_sample *samples;
	size_t nsamples;
	uint32_t *pool;		/* location indexes */
	size_t npool;
	/* Private: the indexes used while building. */
	void *priv;
};

/* What symstacks_build() needs besides the stacks. */
struct symstacks_in {
	struct addrspace *as;
	const struct aggregate *ag;	/* the stacks' contexts */
	struct stacktab *tab;	/* unpacked */
	const struct buildids *bids;	/* the header's build ids */
	struct symbols *sym;
	unsigned pid_bits;	/* 0, or: pids carry an input's number
				   above their low PID_BITS bits (the
				   pipeline's convert.h): take it off */
	bool unwound;		/* the user frames after the first were
				   found by DWARF unwinding */
};

/*
 * Fill SS (zeroed by the caller) with the N stacks E of IN->tab: their
 * locations, named through IN->sym, in the order of E.  The strings
 * stay valid as long as IN->as and IN->sym.  0, or -1 with ERR set
 * (memory).
 */
int symstacks_build(const struct symstacks_in *in, struct stack_entry **e,
		    size_t n, struct symstacks *ss, struct p2g_error *err);

/* Free what SS holds (a zeroed SS is accepted). */
void symstacks_release(struct symstacks *ss);

#endif
