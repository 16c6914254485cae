/* SPDX-License-Identifier: MIT */
/* The kernel's symbols: see kernsyms.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "elfsyms.h"
#include "kallsyms.h"
#include "kernsyms.h"
#include "symtext.h"

static const char why_no_kernel_bid[] =
	"no vmlinux or kallsyms with the recorded build ID";
static const char why_other_host[] =
	"recorded on another machine or kernel, with no kernel build ID";
static const char why_no_symbols[] = "no symbols";

void
kernsyms_free(struct kernsyms *k)
{
	symtab_free(&k->syms);
	free(k->source);
	memset(k, 0, sizeof(*k));
}

/* The running kernel's build ID matches the recorded one BID. */
static bool
running_kernel_is(const uint8_t *bid, size_t nbid)
{
	uint8_t run[DSOFIND_MAX_BUILD_ID];
	size_t nrun;
	char *buf;
	size_t len;

	if (symtext_slurp("/sys/kernel/notes", 1 << 20, &buf, &len) < 0)
		return false;
	nrun = kallsyms_notes_build_id((const unsigned char *)buf, len, run,
				       sizeof(run));
	free(buf);
	return dsofind_same_build_id(run, nrun, bid, nbid);
}

/* The kernel's symbol address of "_text" or "_stext" in a vmlinux
 * table, for its relocation. */
static bool
vmlinux_symbol(const struct symtab *t, const char *name, uint64_t *addr)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(symtab_name(t, &t->syms[i]), name) == 0) {
			*addr = t->syms[i].start;
			return true;
		}
	return false;
}

/* Whether the recording, which has no kernel build ID, was made on this
 * machine's running kernel: its host name and release are this
 * machine's (or O does not check them). */
static bool
running_kernel_here(const struct sym_opts *o)
{
	struct utsname u;

	if (!o->check_host)
		return true;
	return o->hostname != NULL && o->osrelease != NULL &&
	       uname(&u) == 0 && strcmp(u.nodename, o->hostname) == 0 &&
	       strcmp(u.release, o->osrelease) == 0;
}

/* The kernel's symbols came from PATH.  0, or -1 when out of memory. */
static int
kernel_from(struct kernsyms *k, const char *path)
{
	k->why = NULL;
	k->source = strdup(path);
	return k->source != NULL ? 0 : -1;
}

/* The kernel's symbols from the vmlinux PATH if it has the build ID BID
 * (if not NULL): 1 if so, 0 if not, -1 when out of memory.  D is the
 * kernel's mapping, whose start is where the kernel was relocated to. */
static int
try_vmlinux(struct kernsyms *k, const struct sym_dso *d, const char *path,
	    const uint8_t *bid)
{
	struct dsofind_file v;
	enum dsofind_why w;
	uint64_t a;
	long r;

	w = dsofind_open(path, bid, k->nbid, &v);
	k->no_fds |= w == DSOFIND_NO_FDS;
	if (w == DSOFIND_NOMEM || w == DSOFIND_NO_FDS)
		return -1;
	if (w == DSOFIND_BUILD_ID_DIFFERS)
		k->why = dsofind_why_text(DSOFIND_BUILD_ID_DIFFERS);
	if (w != DSOFIND_FOUND)
		return 0;
	r = elfsyms_read(v.elf, false, false, &k->syms);
	dsofind_close(&v);
	if (r <= 0) {
		symtab_free(&k->syms);
		k->why = why_no_symbols;
		return r < 0 ? -1 : 0;
	}
	/* a relocated kernel: perf's reference symbol is where the
	 * recording's kernel map starts (looked for before another symbol
	 * at its address wins it) */
	if (d != NULL && d->pgoff != 0 &&
	    (vmlinux_symbol(&k->syms, "_text", &a) ||
	     vmlinux_symbol(&k->syms, "_stext", &a)))
		k->reloc = d->pgoff - a;
	symtab_finish(&k->syms, SYMTAB_ELF);
	return kernel_from(k, path) < 0 ? -1 : 1;
}

/* The kernel's symbols from the kallsyms copy DIR SUB/[kernel.kallsyms]/
 * HEX/kallsyms (perf's cache layout): 1 if read, 0 if not (none there,
 * or not readable), -1 when out of memory. */
static int
cached_kallsyms(struct kernsyms *k, const char *dir, const char *sub,
		const char *hex)
{
	size_t n = strlen(dir) + strlen(sub) + strlen(hex) + 32;
	char *path = malloc(n);
	long r;

	if (path == NULL)
		return -1;
	snprintf(path, n, "%s%s/[kernel.kallsyms]/%s/kallsyms", dir, sub,
		 hex);
	r = kallsyms_read(path, &k->syms);
	if (r > 0) {
		r = kernel_from(k, path);
		free(path);
		return r < 0 ? -1 : 1;
	}
	free(path);
	symtab_free(&k->syms);
	return 0;
}

int
kernsyms_load(struct kernsyms *k, const struct sym_opts *o,
	      struct dsofind *find, const struct sym_dso *d)
{
	const uint8_t *bid = k->nbid ? k->bid : NULL;
	char hex[2 * DSOFIND_MAX_BUILD_ID + 1];
	const char *home = dsofind_home(find);
	size_t i;
	long r;

	k->tried = true;
	k->why = dsofind_why_text(DSOFIND_NOT_FOUND);
	if (o->kallsyms != NULL) {
		r = kallsyms_read(o->kallsyms, &k->syms);
		if (r > 0)
			return kernel_from(k, o->kallsyms);
		symtab_free(&k->syms);
		return 0;
	}
	if (o->vmlinux != NULL) {
		r = try_vmlinux(k, d, o->vmlinux, bid);
		if (r == 0 && o->missing != NULL)
			o->missing(o->missing_ctx, o->vmlinux,
				     k->why);
		return r < 0 ? -1 : 0;
	}
	if (bid != NULL) {
		/* where perf looks for one, with the build ID checked */
		/* before the release, and after it ("" for none) */
		static const char *const where[][2] = {
			{ "vmlinux", NULL }, { "/boot/vmlinux", NULL },
			{ "/boot/vmlinux-", "" },
			{ "/usr/lib/debug/boot/vmlinux-", "" },
			{ "/lib/modules/", "/build/vmlinux" },
			{ "/usr/lib/debug/lib/modules/", "/vmlinux" },
			{ "/usr/lib/debug/boot/vmlinux-", ".debug" },
		};
		struct utsname u;
		char p[512];

		if (uname(&u) != 0)
			u.release[0] = '\0';
		for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
			if (where[i][1] != NULL && u.release[0] == '\0')
				continue;
			snprintf(p, sizeof(p), "%s%s%s", where[i][0],
				 where[i][1] != NULL ? u.release : "",
				 where[i][1] != NULL ? where[i][1] : "");
			r = try_vmlinux(k, d, p, bid);
			if (r != 0)
				return r < 0 ? -1 : 0;
		}
		k->why = dsofind_why_text(DSOFIND_NOT_FOUND);
	}
	if (bid != NULL) {
		dsofind_hex(bid, k->nbid, hex);
		if (home != NULL &&
		    (r = cached_kallsyms(k, home, "/.debug", hex)) != 0)
			return r < 0 ? -1 : 0;
		/* perf archive's tree, unpacked into a --binaries
		 * directory */
		for (i = 0; i < o->nbinaries; i++)
			if ((r = cached_kallsyms(k, o->binaries[i], "",
						 hex)) != 0)
				return r < 0 ? -1 : 0;
	}
	if (bid != NULL ? running_kernel_is(bid, k->nbid)
			: running_kernel_here(o)) {
		r = kallsyms_read("/proc/kallsyms", &k->syms);
		if (r > 0)
			return kernel_from(k, "/proc/kallsyms");
		symtab_free(&k->syms);
	} else if (o->missing != NULL) {
		/* said once: the kernel's frames and its modules' stay
		 * unnamed, as perf leaves them ([unknown]) */
		if (bid == NULL)
			k->why = why_other_host;
		else if (k->why != dsofind_why_text(DSOFIND_BUILD_ID_DIFFERS))
			k->why = why_no_kernel_bid;
		o->missing(o->missing_ctx, "[kernel.kallsyms]",
			     k->why);
	}
	return 0;
}
