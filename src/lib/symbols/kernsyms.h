/* SPDX-License-Identifier: MIT */
/*
 * The kernel's symbols, for the symbolizer (symbols.c), found as perf
 * 6.1 finds them: shared by the kernel's mapping and its modules'.
 */
#ifndef P2G_KERNSYMS_H
#define P2G_KERNSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dsofind.h"
#include "symbols.h"
#include "symtab.h"

/* A zeroed struct is one not loaded yet. */
struct kernsyms {
	bool tried;		/* kernsyms_load() was called */
	struct symtab syms;
	uint64_t reloc;		/* added to a vmlinux's addresses */
	uint8_t bid[DSOFIND_MAX_BUILD_ID];	/* the recorded build ID, */
	size_t nbid;				/* 0 if not known */
	const char *why;	/* why none were read, or NULL */
	char *source;		/* the file they were read from */
	bool no_fds;		/* a vmlinux could not be opened: EMFILE */
};

void kernsyms_free(struct kernsyms *k);

/*
 * Read the kernel's symbols into K, with the options O and the finder
 * FIND: from a --kallsyms file, else the --vmlinux file
 * (with the recorded build ID), each of them and only it when given, as
 * perf 6.1 (dso__load_kernel_sym: "use it and only it"; a vmlinux of
 * another build ID names nothing, and MISSING hears of it), else a
 * vmlinux where perf looks for one
 * (./vmlinux, /boot, /usr/lib/debug/boot, /lib/modules/RELEASE/build,
 * /usr/lib/debug/lib/modules/RELEASE, for this machine's release; only
 * one with the recorded build ID, and none when none was recorded), the
 * kallsyms copy in perf's cache for the recorded build ID, or in a perf
 * archive tree unpacked into a --binaries directory, or /proc/kallsyms
 * when the running kernel is the recorded one (or nothing tells which
 * kernel was recorded).  D is the kernel's mapping (whose start is where
 * the kernel was relocated to), or NULL for a module's.  0 (K->why says
 * why none were read), or -1 when out of memory or of descriptors
 * (K->no_fds).
 */
int kernsyms_load(struct kernsyms *k, const struct sym_opts *o,
		  struct dsofind *find, const struct sym_dso *d);

#endif
