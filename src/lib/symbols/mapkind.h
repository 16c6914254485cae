/* SPDX-License-Identifier: MIT */
/*
 * What a recorded mapping's name says it is: a file, or one of the names
 * the kernel and perf give to memory that is no file (anonymous memory,
 * the vDSO, the heap and stack, a memfd, a perf map for JIT code).  The
 * library decides it here only, from perf's own rules (tools/perf/util/
 * map.h: is_anon_memory(), is_no_dso_memory()), so that the layout, the
 * symbolizer and the warnings about missing files agree on every name.
 */
#ifndef P2G_MAPKIND_H
#define P2G_MAPKIND_H

#include <stdbool.h>

enum mapkind {
	MAPKIND_FILE,		/* a file: a program, a library, a .ko */
	MAPKIND_NONE,		/* no name at all ("") */
	MAPKIND_ANON,		/* anonymous memory, "//anon" (JIT code
				   lives here, named by the perf map) */
	MAPKIND_ANON_SHARED,	/* anonymous memory that the kernel names
				   by its pseudo-file: "/dev/zero...",
				   "/anon_hugepage..." (perf names its
				   code from the perf map too) */
	MAPKIND_ANON_NAMED,	/* anonymous memory a program named,
				   "[anon:NAME]" */
	MAPKIND_PERFMAP,	/* a perf map itself, /tmp/perf-PID.map */
	MAPKIND_MEMFD,		/* a memfd, "/memfd:NAME" */
	MAPKIND_SYSV,		/* SysV shared memory, "/SYSV..." */
	MAPKIND_DEVICE,		/* a device, "/dev/..." (not /dev/zero) */
	MAPKIND_VDSO,		/* the vDSO, "[vdso]", an ELF image */
	MAPKIND_KERNEL,		/* the kernel, "[kernel.kallsyms]...",
				   "[guest.kernel.kallsyms..." */
	MAPKIND_SPECIAL		/* the kernel's other names: "[heap]",
				   "[stack]", "[vsyscall]", "[vvar]", a
				   module's "[name]", "/[aio]"... */
};

/* The kind of the mapping named PATH (never NULL). */
enum mapkind mapping_kind(const char *path);

/* True if memory of kind K belongs to the process that maps it, whatever
 * its name: anonymous and special memory, JIT code and its perf map, a
 * memfd (no other process sees the same thing under that name). */
bool mapkind_is_own(enum mapkind k);

#endif
