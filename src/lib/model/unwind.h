/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of the user stacks that perf record --call-graph dwarf
 * copies (PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER), with libdw.
 * One Dwfl per address space, kept for the space's life, so that the
 * ELF files and their CFI are read once per process rather than once per
 * sample; modules are reported lazily, as frames reach them, from the
 * space's mappings; memory is read from the stack copy and, beyond it,
 * from the mapped files.  On x86_64 the CFI rules libdw finds are kept
 * per binary and address, and frames whose rules are of the usual
 * simple kinds are stepped with them, as libdw would step them, without
 * libdw's per-frame work; everything else goes to libdw's unwinder.
 * The binaries are found as the symbolizer finds them (dsofind.h): by
 * path, under a --symfs directory, by build id in perf's cache
 * (~/.debug) and in /usr/lib/debug, in the --binaries directories, and
 * from debuginfod servers when asked; a file whose build id differs from the recording's is never used.
 */
#ifndef P2G_UNWIND_H
#define P2G_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "attr.h"
#include "perfdata.h"
#include "sample.h"

struct unwinder;
struct dbgfetch;

struct unwind_opts {
	const char *symfs;	/* look for binaries under this, or NULL */
	const char *home;	/* for ~/.debug; NULL: $HOME */
	const char *const *binaries;	/* --binaries directories */
	size_t nbinaries;
	/* Told once per recorded file (a path dsofind_reportable() takes)
	 * that no usable file was found for it, and WHY (dsofind_why_text());
	 * may be NULL. */
	void (*missing)(void *ctx, const char *path, const char *why);
	void *missing_ctx;
	bool debuginfo;		/* let libdw look for separate debug files
				   when a binary's own CFI does not cover
				   an address */
	/* Ask the debuginfod servers through this handle (not owned) for
	 * the binaries and debug files not found on disk (dbgfetch.h);
	 * NULL: never. */
	struct dbgfetch *fetch;
};

/* How the unwinding of one sample went. */
enum unwind_result {
	UNWIND_NONE,		/* nothing to unwind (no registers/stack) */
	UNWIND_DONE,		/* to the end of the stack or the depth cap */
	UNWIND_PARTIAL,		/* stopped partway: the frames found */
	UNWIND_COPY_END,	/* stopped at the end of the stack copy
				   (perf record --call-graph dwarf,SIZE
				   copied less than the frames take) */
	UNWIND_NO_BINARY,	/* no usable binary at the leaf: leaf only */
	UNWIND_UNSUPPORTED,	/* registers of an ABI or arch not handled */
};

/*
 * A new unwinder for the recording described by INFO (its arch and build
 * ids; the struct must outlive the unwinder) in byte order BIG_ENDIAN.
 * NULL when out of memory.
 */
struct unwinder *unwind_open(const struct unwind_opts *o,
			     const struct perf_header_info *info,
			     bool big_endian);

/* Release everything.  Accepts NULL. */
void unwind_close(struct unwinder *uw);

/* True if the recording's machine is one whose registers we know. */
bool unwind_arch_supported(const struct unwinder *uw);

/* True once a binary could not be opened for want of descriptors
 * (EMFILE, ENFILE): its frames were not unwound, though it may be
 * there. */
bool unwind_no_fds(const struct unwinder *uw);

/*
 * Unwind the user stack of sample S (of event A, thread TID of process
 * PID) in address space SID of AS.  Writes at most MAX user frames, leaf
 * first, to OUT: the sampled user IP, then return addresses as they are
 * on the stack (not minus one).  *N is the number written (0 with
 * UNWIND_NONE and UNWIND_UNSUPPORTED; with UNWIND_NO_BINARY just the IP).
 * Returns the result; -1 when out of memory.
 */
int unwind_sample(struct unwinder *uw, struct addrspace *as, uint32_t sid,
		  int32_t pid, int32_t tid, const struct perf_attr *a,
		  const struct perf_sample *s, uint64_t *out, size_t max,
		  size_t *n, enum unwind_result *res);

/* Space SID will take no more samples (its process exited or exec'd):
 * release its Dwfl. */
void unwind_forget(struct unwinder *uw, uint32_t sid);

#endif
