/* SPDX-License-Identifier: MIT */
/*
 * Names for addresses, as perf report and perf script give them: the
 * mapped file found where perf finds it (the recorded path under a
 * symfs, perf's build-ID cache, /usr/lib/debug, .gnu_debuglink, the
 * --binaries directories, then when asked the debuginfod servers), never
 * a file whose build ID differs from the recording's; its ELF symbols chosen among as perf chooses; the kernel's
 * from a kallsyms copy or a vmlinux; JIT code's from /tmp/perf-PID.map;
 * inlined functions from DWARF.  Each address of a file is looked up
 * once.  doc/symbols.md states the rules.
 */
#ifndef P2G_SYMBOLS_H
#define P2G_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A mapped file as the recording names it. */
struct sym_dso {
	const char *path;	/* recorded path: a file, "[kernel.kallsyms]"
				   (or perf's "[kernel.kallsyms]_text"), a
				   module's, "[vdso]", "//anon", ... */
	const uint8_t *build_id;	/* as recorded; NULL if none */
	size_t build_id_size;
	uint64_t start, end, pgoff;	/* where it was mapped */
	int32_t pid;		/* the process (for perf-PID.map); -1 for
				   the kernel and its modules */
};

/* One function at an address.  The strings live as long as the
 * symbolizer. */
struct sym_frame {
	const char *function;	/* NULL: not known */
	const char *file;	/* source file, or NULL */
	uint32_t line;		/* 0: not known */
	/* Of the last frame (the symbol's function): the function's name
	 * as addr2line gives it to perf, from DWARF (doc/symbols.md),
	 * where that differs from the symbol's, as for a clone
	 * "work.constprop.0"; NULL if the same or not known.  perf names
	 * the frames of DWARF-unwound callchains so. */
	const char *dwarf_function;
};

struct dbgfetch;

struct sym_opts {
	const char *symfs;	/* look for recorded paths under it */
	const char *home;	/* for ~/.debug; NULL: $HOME */
	const char *vmlinux;	/* the kernel's ELF, or NULL */
	const char *kallsyms;	/* a kallsyms file, or NULL */
	const char *const *binaries;	/* --binaries directories */
	size_t nbinaries;
	/* Ask the debuginfod servers through this handle (not owned; it
	 * must outlive the symbolizer) for the files not found on disk
	 * (dbgfetch.h); NULL: never. */
	struct dbgfetch *fetch;
	bool lines;		/* read DWARF: files, lines, inlined */
	/* Told once per recorded file (a path dsofind_reportable() takes)
	 * that no usable file was found for it, and WHY ("not found",
	 * "build ID differs"), and of a VMLINUX given that names nothing
	 * (PATH is VMLINUX; WHY also "no symbols"); may be NULL. */
	void (*missing)(void *ctx, const char *path, const char *why);
	void *missing_ctx;
	/* The recording's kernel build ID, which picks the kernel's
	 * symbols for its modules too; NULL: the build ID of the first
	 * "[kernel.kallsyms]" mapping looked up (a module's address looked
	 * up before then, with neither vmlinux nor kallsyms given, has no
	 * name, and is not remembered as such). */
	const uint8_t *kernel_build_id;
	size_t kernel_build_id_size;
	/* With CHECK_HOST, a recording without a kernel build ID has its
	 * kernel named by /proc/kallsyms only if HOSTNAME and OSRELEASE
	 * (the recording's, NULL when not known) are this machine's. */
	bool check_host;
	const char *hostname, *osrelease;
};

struct symbols;

/* A symbolizer with options O (copied, strings and all: they need not
 * outlive the call); NULL when out of memory.  Files are found and read
 * when first needed. */
struct symbols *symbols_new(const struct sym_opts *o);

/* Accepts NULL. */
void symbols_free(struct symbols *s);

/*
 * The functions at ADDR (an address as mapped, in DSO's range; perf
 * script and perf report look a callchain's return addresses up as
 * they are, not less 1) into
 * *OUT: innermost inlined function first, the symbol's function last.
 * Returns their number (0: no name is known), or -1 when out of memory
 * or of descriptors (symbols_no_fds()).
 * *OUT stays valid as long as S.
 */
int symbols_lookup(struct symbols *s, const struct sym_dso *dso,
		   uint64_t addr, const struct sym_frame **out);

/* True once a file could not be opened for want of descriptors (EMFILE,
 * ENFILE): the lookup that met it returned -1, and the names are no
 * longer complete. */
bool symbols_no_fds(const struct symbols *s);

/*
 * The file read for DSO, or NULL with *WHY (if WHY is not NULL) saying
 * why none was: not found, or a build ID that differs.  The string
 * lives as long as S.
 */
const char *symbols_file(struct symbols *s, const struct sym_dso *dso,
			 const char **why);

/*
 * Call FN(CTX, NAME) for each symbol of the file read for DSO (an ELF
 * file or a perf map; none for the kernel), reading it first if need
 * be, until FN returns nonzero.  Returns what FN last returned, or -1
 * when out of memory.  NAME is valid during its call only: names are
 * demangled for it, and not kept.
 */
int symbols_each_name(struct symbols *s, const struct sym_dso *dso,
		      int (*fn)(void *ctx, const char *name), void *ctx);

/* True if C++ names are demangled as perf demangles them (configure
 * found libiberty); else they stay mangled. */
bool symbols_demangles(void);

#endif
