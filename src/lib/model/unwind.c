/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding with libdw: see unwind.h.  The model is perf's own
 * tools/perf/util/unwind-libdw.c, with the Dwfl kept per address space
 * instead of made anew per sample (the cost of a Dwfl is reading the
 * ELF files and their CFI, which every sample of a process shares).
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildids.h"
#include "cursor.h"
#include "dsofind.h"
#include "grow.h"
#include "hashtab.h"
#include "input.h"
#include "mapkind.h"
#include "perf_abi.h"
#include "unwind.h"

/* Dwfls kept at once; the least recently used goes beyond this. */
#define MAX_LIVE 64

/* Modules a Dwfl takes before it is made anew: libdwfl looks through
 * its modules for each one reported, and lists them all again for the
 * next lookup, so a Dwfl of N modules took time N * N. */
#define MAX_MODULES 512

enum arch { ARCH_OTHER, ARCH_X86_64, ARCH_AARCH64 };

/* A binary as the recording names it (path and build id), and the file
 * found for it. */
struct bin {
	char *path;		/* as recorded */
	uint8_t bid[20];
	uint8_t bid_size;	/* 0: the recording gives no build id */
	int state;		/* 0 not looked for, 1 found, -1 not found */
	char *file;		/* the file found */
	int fd;			/* open on it, or -1 (not yet or no
				   longer: see unwinder.open) */
	size_t open_at;		/* its index in unwinder.open */
	uint64_t last_use;
	struct dsofind *find;	/* the unwinder's, for its debug file */
	struct bin_load {	/* its PT_LOAD segments */
		uint64_t offset, vaddr, filesz, align;
	} *load;
	size_t nload;
	dev_t dev;		/* the file found, */
	ino_t ino;
	struct bin *same;	/* or the bin that found it first (under
				   another spelling of its path), whose
				   descriptor and segments serve */
};

/* A Dwfl and what the callbacks need while one sample is unwound. */
struct uspace {
	struct unwinder *uw;
	Dwfl *dwfl;
	uint32_t sid;
	bool attached;
	size_t nmodules;	/* reported */
	size_t live;		/* its index in unwinder.live */
	uint64_t last_use;
	/* The sample being unwound. */
	struct addrspace *as;
	const struct perf_attr *attr;
	const struct perf_sample *s;
	int32_t tid;
	uint64_t sp;
	uint64_t *out;
	size_t max, n;
	bool zero_end;		/* a return address of 0 ended the stack */
	bool copy_end;		/* a read past the stack copy failed */
};

struct unwinder {
	struct unwind_opts o;
	const struct perf_header_info *info;
	bool big_endian;
	enum arch arch;
	char *debuginfo_path;
	struct sym_opts find_opts;	/* the finder's: symfs, home,
					   --binaries */
	struct dsofind *find;
	Dwfl_Callbacks cbs;
	struct bin **bins;
	size_t nbins, cap_bins;
	struct hashtab bin_index;	/* of bins, by bin_hash() */
	struct hashtab ident_index;	/* of bins found, by device and
					   inode */
	struct buildids bids;	/* of info */
	struct uspace **spaces;	/* by sid */
	size_t cap_spaces;
	struct uspace *live[MAX_LIVE];	/* the spaces with a Dwfl */
	size_t nlive;
	uint64_t clock;
	/* Each module of a Dwfl holds a descriptor of its file, the
	 * copy libdwfl keeps: the live spaces hold HELD, at most
	 * FD_BUDGET (half the limit on open files) while the space
	 * used least recently can give its own back. */
	size_t held, fd_budget;
	/* The bins open on their files, at most BIN_BUDGET (a quarter of
	 * the limit on open files): the one used least recently is closed
	 * before another is opened, and opened again when next used. */
	struct bin **open;
	size_t nopen, cap_open, bin_budget;
	bool no_fds;		/* an open() or dup() failed with EMFILE
				   or ENFILE */
};

/* ---- registers ---------------------------------------------------------- */

/*
 * perf's register numbers (arch/<arch>/include/uapi/asm/perf_regs.h) for
 * each DWARF register number, -1 where perf has none.  x86_64: DWARF
 * 0..16 are AX DX CX BX SI DI BP SP R8..R15 RIP; perf's are AX BX CX DX
 * SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15.  aarch64: both number
 * X0..X30 and SP alike; perf's 32 is the PC.
 */
static const int x86_64_regs[17] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};
#define X86_64_PERF_IP 8
#define X86_64_PERF_SP 7
#define AARCH64_PERF_SP 31
#define AARCH64_PERF_PC 32

/* perf register R of sample S, if recorded. */
static bool
perf_reg(const struct uspace *us, unsigned r, uint64_t *v)
{
	uint64_t mask = us->attr->sample_regs_user;
	unsigned i;

	if (r >= 64 || !(mask & (1ULL << r)) || us->s->user_regs == NULL)
		return false;
	i = (unsigned)__builtin_popcountll(mask & ((1ULL << r) - 1));
	if (i >= us->attr->regs_user_n)
		return false;
	*v = load64(us->s->user_regs + (size_t)i * 8,
		    us->uw->big_endian);
	return true;
}

static bool
user_ip_sp(const struct uspace *us, uint64_t *ip, uint64_t *sp)
{
	switch (us->uw->arch) {
	case ARCH_X86_64:
		return perf_reg(us, X86_64_PERF_IP, ip) &&
		       perf_reg(us, X86_64_PERF_SP, sp);
	case ARCH_AARCH64:
		return perf_reg(us, AARCH64_PERF_PC, ip) &&
		       perf_reg(us, AARCH64_PERF_SP, sp);
	default:
		return false;
	}
}

/* ---- finding binaries --------------------------------------------------- */

static void
bin_free(struct bin *b)
{
	if (b == NULL)
		return;
	free(b->path);
	free(b->file);
	if (b->fd >= 0)
		close(b->fd);
	free(b->load);
	free(b);
}

/* The key of a bin: FNV-1a of its path and build id. */
static uint64_t
bin_hash(const char *path, const uint8_t *id, uint8_t size)
{
	uint64_t h = hashtab_hash_str(path);
	uint8_t i;

	for (i = 0; i < size; i++)
		h = (h ^ id[i]) * 1099511628211ULL;
	return h;
}

/* The build id the recording gives for mapping M: its own (MMAP2 with
 * the build id bit), else the header's entry for its path. */
static void
expected_build_id(const struct unwinder *uw, const struct mapping *m,
		  const uint8_t **id, uint8_t *size)
{
	if (m->build_id_size > 0) {
		*size = m->build_id_size;
		*id = m->build_id;
		return;
	}
	buildids_find(&uw->bids, m->path, size, id);
}

/*
 * Look for B's file with the symbolizer's finder (dsofind.h): the file
 * read is the one checked.  Fills in B's segments, and tells the
 * missing callback why none was usable.
 */
static void
bin_find(const struct unwinder *uw, struct bin *b)
{
	struct dsofind_file file;
	enum dsofind_why w;
	size_t i, n;

	b->state = -1;
	w = dsofind_binary(uw->find, b->path, b->bid_size ? b->bid : NULL,
			   b->bid_size, &file);
	if (w != DSOFIND_FOUND) {
		if (w != DSOFIND_NOMEM && w != DSOFIND_NO_FDS &&
		    uw->o.missing != NULL &&
		    dsofind_reportable(b->path))
			uw->o.missing(uw->o.missing_ctx, b->path,
				      dsofind_why_text(w));
		return;
	}
	if (elf_getphdrnum(file.elf, &n) != 0)
		goto out;
	b->load = calloc(n ? n : 1, sizeof(*b->load));
	if (b->load == NULL)
		goto out;
	b->nload = 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(file.elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD)
			continue;
		b->load[b->nload].offset = ph.p_offset;
		b->load[b->nload].vaddr = ph.p_vaddr;
		b->load[b->nload].filesz = ph.p_filesz;
		b->load[b->nload].align = ph.p_align;
		b->nload++;
	}
	/* The file stays open: the one checked is the one read. */
	b->file = file.path;
	file.path = NULL;
	b->fd = file.fd;
	file.fd = -1;
	b->state = 1;
out:
	dsofind_close(&file);
}

/* The bin whose descriptor and segments serve B. */
static struct bin *
canonical(struct bin *b)
{
	return b->same != NULL ? b->same : b;
}

/* Close B's descriptor, which UW's open list holds. */
static void
bin_close(struct unwinder *uw, struct bin *b)
{
	struct bin *last = uw->open[--uw->nopen];

	uw->open[b->open_at] = last;
	last->open_at = b->open_at;
	close(b->fd);
	b->fd = -1;
}

/* Put B, just opened, in UW's open list, closing the bin used least
 * recently first if the list is full.  Out of memory, B is closed. */
static void
bin_opened(struct unwinder *uw, struct bin *b)
{
	size_t i, lru = 0;

	if (uw->nopen >= uw->bin_budget && uw->nopen > 0) {
		for (i = 1; i < uw->nopen; i++)
			if (uw->open[i]->last_use < uw->open[lru]->last_use)
				lru = i;
		bin_close(uw, uw->open[lru]);
	}
	if (uw->nopen == uw->cap_open) {
		struct bin **v = grow(uw->open, &uw->cap_open, uw->nopen + 1,
				      sizeof(*v), 16);

		if (v == NULL) {
			close(b->fd);
			b->fd = -1;
			return;
		}
		uw->open = v;
	}
	b->open_at = uw->nopen;
	uw->open[uw->nopen++] = b;
}

/* B's descriptor, B opened again if its descriptor was closed: the file
 * must be the one found (its device and inode).  -1 if it cannot be. */
static int
bin_fd(struct unwinder *uw, struct bin *b)
{
	struct stat st;
	int fd;

	b->last_use = ++uw->clock;
	if (b->fd >= 0)
		return b->fd;
	fd = input_regular_fd(b->file, NULL);
	if (fd < 0) {
		uw->no_fds |= errno == EMFILE || errno == ENFILE;
		return -1;
	}
	if (fstat(fd, &st) != 0 || st.st_dev != b->dev ||
	    st.st_ino != b->ino) {
		/* another file there now: the one found is gone */
		close(fd);
		return -1;
	}
	b->fd = fd;
	bin_opened(uw, b);
	return b->fd;
}

/*
 * B (index I), just found: if another bin found the same file (another
 * spelling of its path: /usr/lib/./x, /usr//lib/x), B closes its copy
 * and is served by that one's; else B is indexed by its file's device
 * and inode.  Out of memory, B keeps its own.
 */
static void
same_file(struct unwinder *uw, struct bin *b, uint32_t i)
{
	struct hashtab_iter it;
	struct stat st;
	uint64_t h;
	uint32_t k;

	if (fstat(b->fd, &st) != 0 ||
	    hashtab_reserve(&uw->ident_index, uw->ident_index.n + 1) < 0) {
		/* B keeps its own descriptor, closed with it */
		b->dev = 0;
		b->ino = 0;
		return;
	}
	b->dev = st.st_dev;
	b->ino = st.st_ino;
	h = hashtab_hash64((uint64_t)st.st_dev * 0x100000001b3ULL ^
			   (uint64_t)st.st_ino);
	for (k = hashtab_probe(&uw->ident_index, h, &it); k != HASHTAB_NONE;
	     k = hashtab_next(&uw->ident_index, &it))
		if (uw->bins[k]->dev == st.st_dev &&
		    uw->bins[k]->ino == st.st_ino) {
			b->same = uw->bins[k];
			close(b->fd);
			b->fd = -1;
			return;
		}
	hashtab_insert(&uw->ident_index, &it, i);
	b->last_use = ++uw->clock;
	bin_opened(uw, b);
}

/* The binary of mapping M, looked for the first time it is asked for;
 * NULL if none is usable (or out of memory). */
static struct bin *
bin_of(struct unwinder *uw, const struct mapping *m)
{
	const uint8_t *id;
	uint8_t size;
	struct bin *b;
	struct hashtab_iter it;
	uint32_t i;

	if (m->path == NULL)
		return NULL;
	expected_build_id(uw, m, &id, &size);
	if (uw->nbins >= HASHTAB_NONE - 1 ||
	    hashtab_reserve(&uw->bin_index, uw->nbins + 1) < 0)
		return NULL;
	for (i = hashtab_probe(&uw->bin_index, bin_hash(m->path, id, size),
			       &it);
	     i != HASHTAB_NONE; i = hashtab_next(&uw->bin_index, &it)) {
		b = uw->bins[i];
		if (b->bid_size == size &&
		    (size == 0 || memcmp(b->bid, id, size) == 0) &&
		    strcmp(b->path, m->path) == 0)
			return b->state > 0 && canonical(b)->state > 0
				       ? canonical(b) : NULL;
	}
	if (uw->nbins == uw->cap_bins) {
		struct bin **nb = grow(uw->bins, &uw->cap_bins, uw->nbins + 1,
				       sizeof(*nb), 16);

		if (nb == NULL)
			return NULL;
		uw->bins = nb;
	}
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return NULL;
	b->fd = -1;
	b->path = strdup(m->path);
	if (b->path == NULL) {
		free(b);
		return NULL;
	}
	b->bid_size = size;
	if (size > 0)
		memcpy(b->bid, id, size);
	b->find = uw->find;
	hashtab_insert(&uw->bin_index, &it, (uint32_t)uw->nbins);
	uw->bins[uw->nbins++] = b;
	bin_find(uw, b);
	if (b->state > 0)
		same_file(uw, b, (uint32_t)(uw->nbins - 1));
	return b->state > 0 && canonical(b)->state > 0 ? canonical(b) : NULL;
}

/*
 * The load bias of B mapped by M: the PT_LOAD segment that holds M's
 * file offset says which virtual address M's start stands for.  (start
 * - pgoff is right only when offsets and addresses agree, which the
 * linker does not promise.)
 */
static uint64_t
bin_bias(const struct bin *b, const struct mapping *m)
{
	size_t i;

	for (i = 0; i < b->nload; i++) {
		const struct bin_load *l = &b->load[i];
		/* The segment is mapped from the start of its page, which
		 * its alignment bounds (64 KiB pages on some aarch64). */
		uint64_t page = l->align > 1 && !(l->align & (l->align - 1))
					? l->align : 0x1000;
		uint64_t lo = l->offset & ~(page - 1);

		if (m->pgoff >= lo && m->pgoff < l->offset + l->filesz)
			return m->start - m->pgoff + l->offset - l->vaddr;
	}
	return m->start - m->pgoff;
}

/* ---- the Dwfl of a space ------------------------------------------------ */

static bool forget_lru(struct unwinder *uw, const struct uspace *keep);

/* The module at PC, reported from the space's mapping there if it is not
 * yet; NULL if there is no usable binary. */
static Dwfl_Module *
report_module(struct uspace *us, uint64_t pc)
{
	const struct mapping *m;
	Dwfl_Module *mod;
	struct bin *b;
	int fd;

	mod = dwfl_addrmodule(us->dwfl, pc);
	if (mod != NULL)
		return mod;
	m = addrspace_resolve(us->as, us->sid, pc);
	if (m == NULL)
		return NULL;
	b = bin_of(us->uw, m);
	if (b == NULL)
		return NULL;
	/* The file opened when it was found (libdwfl takes the copy of
	 * the descriptor, and closes it with the module).  Every live
	 * space holds a copy for each of its modules: with many processes
	 * of one binary the copies, not the files, would take the
	 * descriptors (MAX_LIVE spaces against a limit of 30, say); the
	 * spaces used least recently give theirs back first. */
	while (us->uw->held >= us->uw->fd_budget && forget_lru(us->uw, us))
		;
	fd = bin_fd(us->uw, b);
	if (fd >= 0)
		fd = dup(fd);
	if (fd < 0) {
		us->uw->no_fds |= errno == EMFILE || errno == ENFILE;
		return NULL;
	}
	dwfl_report_begin_add(us->dwfl);
	mod = dwfl_report_elf(us->dwfl, m->path, b->file, fd,
			      bin_bias(b, m), true);
	dwfl_report_end(us->dwfl, NULL, NULL);
	/* A file libdwfl refuses once it refuses always: do not open it
	 * again for every frame that lands in it. */
	if (mod == NULL) {
		close(fd);
		b->state = -1;
		return NULL;
	}
	us->nmodules++;
	us->uw->held++;
	/* The module's user data names its binary, for find_debug(). */
	{
		void **ud;

		if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL,
				     NULL) != NULL)
			*ud = b;
	}
	return mod;
}

static pid_t
cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uspace *us = arg;

	(void)dwfl;
	if (*thread_argp != NULL)
		return 0;
	*thread_argp = us;
	return us->tid;
}

static bool
cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* Memory: the stack copy from the sampled SP on, else the mapped files. */
static bool
cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uspace *us = arg;
	const struct perf_sample *s = us->s;
	uint64_t len = s->user_stack_dyn_size;
	const struct mapping *m;
	unsigned char buf[8];
	struct bin *b;
	ssize_t got;

	(void)dwfl;
	if (len > s->user_stack_size)
		len = s->user_stack_size;
	if (addr >= us->sp && len >= 8 && addr - us->sp <= len - 8) {
		*result = load64(s->user_stack + (addr - us->sp),
				 us->uw->big_endian);
		return true;
	}
	m = addrspace_resolve(us->as, us->sid, addr);
	/* Above the sampled SP, past the copy, and in no file: the stack
	 * the kernel did not copy.  libdw takes the failed read for the
	 * end of the stack; it is not. */
	b = m != NULL && m->path != NULL &&
		    mapping_kind(m->path) == MAPKIND_FILE
		    ? bin_of(us->uw, m) : NULL;
	if (b == NULL && addr >= us->sp)
		us->copy_end = true;
	if (m == NULL || addr - m->start > UINT64_MAX - m->pgoff)
		return false;
	/* Rare: the registers and return addresses CFI asks for are on
	 * the stack. */
	if (b == NULL)
		return false;
	got = pread(b->fd, buf, 8, (off_t)(addr - m->start + m->pgoff));
	if (got != 8)
		return false;
	*result = load64(buf, us->uw->big_endian);
	return true;
}

static bool
cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uspace *us = arg;
	Dwarf_Word v;
	uint64_t ip, sp;
	unsigned i;

	if (!user_ip_sp(us, &ip, &sp))
		return false;
	switch (us->uw->arch) {
	case ARCH_X86_64:
		for (i = 0; i < 17; i++)
			if (perf_reg(us, (unsigned)x86_64_regs[i], &v) &&
			    !dwfl_thread_state_registers(thread, (int)i, 1, &v))
				return false;
		break;
	case ARCH_AARCH64:
		for (i = 0; i < 32; i++)
			if (perf_reg(us, i, &v) &&
			    !dwfl_thread_state_registers(thread, (int)i, 1, &v))
				return false;
		break;
	default:
		return false;
	}
	dwfl_thread_state_register_pc(thread, ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

static int
frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uspace *us = arg;
	Dwarf_Addr pc;
	bool act;

	/* Report the module first: whether the frame is an activation
	 * depends on its CFI. */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(us, pc);
	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	/* A return address of 0 marks the bottom of a stack (threads,
	 * clone()'s among them, end their stacks so).  libdw's CFI
	 * unwinder stops there by itself, but its frame-pointer fallback
	 * (for code without CFI) hands it on as a frame; a profile cannot
	 * hold PC 0. */
	if (pc == 0) {
		us->zero_end = true;
		return DWARF_CB_ABORT;
	}
	us->out[us->n++] = pc;
	return us->n < us->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static void
uspace_free(struct uspace *us)
{
	if (us == NULL)
		return;
	if (us->dwfl != NULL)
		dwfl_end(us->dwfl);
	free(us);
}

/* Release the Dwfl of the live space used least recently but KEEP;
 * false if there is none. */
static bool
forget_lru(struct unwinder *uw, const struct uspace *keep)
{
	size_t i, lru = MAX_LIVE;

	/* The live ones only: a scan of every space for each new Dwfl
	 * made many spaces quadratic. */
	for (i = 0; i < uw->nlive; i++)
		if (uw->live[i] != keep &&
		    (lru == MAX_LIVE ||
		     uw->live[i]->last_use < uw->live[lru]->last_use))
			lru = i;
	if (lru == MAX_LIVE)
		return false;
	unwind_forget(uw, uw->live[lru]->sid);
	return true;
}

/* The Dwfl of space SID, made if new. */
static struct uspace *
uspace_get(struct unwinder *uw, uint32_t sid)
{
	struct uspace *us;

	if (sid >= uw->cap_spaces) {
		size_t nc = grow_cap(uw->cap_spaces, (size_t)sid + 1,
				     sizeof(struct uspace *), 64);
		struct uspace **ns;

		if (nc == 0 ||
		    (ns = grow_realloc(uw->spaces, nc, sizeof(*ns))) == NULL)
			return NULL;
		memset(ns + uw->cap_spaces, 0,
		       (nc - uw->cap_spaces) * sizeof(*ns));
		uw->spaces = ns;
		uw->cap_spaces = nc;
	}
	us = uw->spaces[sid];
	if (us != NULL && us->nmodules > MAX_MODULES)
		unwind_forget(uw, sid);	/* made anew, below */
	else if (us != NULL)
		goto done;
	if (uw->nlive >= MAX_LIVE)
		forget_lru(uw, NULL);
	us = calloc(1, sizeof(*us));
	if (us == NULL)
		return NULL;
	us->uw = uw;
	us->sid = sid;
	us->dwfl = dwfl_begin(&uw->cbs);
	if (us->dwfl == NULL) {
		free(us);
		return NULL;
	}
	uw->spaces[sid] = us;
	us->live = uw->nlive;
	uw->live[uw->nlive++] = us;
done:
	us->last_use = ++uw->clock;
	return us;
}

/* ---- the interface ------------------------------------------------------ */

/*
 * libdw looks for separate debug information when a frame's address is
 * not covered by the binary's own CFI (.eh_frame, or .debug_frame in the
 * binary itself): ld.so's entry code, say.  Reading a debug file is slow
 * (its sections are compressed) and is done again for every process, and
 * perf's own unwinding never looks there; so only when asked.
 */
static int
no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
	     Dwarf_Addr base, const char *file_name,
	     const char *debuglink_file, GElf_Word debuglink_crc,
	     char **debuginfo_file_name)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	(void)debuginfo_file_name;
	return -1;
}

/*
 * With a debuginfod handle, the debug file is found as the symbolizer
 * finds it (dsofind_debug(): on disk, then from the servers through the
 * handle, which asks each build ID once), not by libdwfl's standard
 * search, whose own client would ask the servers again.
 */
static int
find_debug(Dwfl_Module *mod, void **userdata, const char *modname,
	   Dwarf_Addr base, const char *file_name, const char *debuglink_file,
	   GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct bin *b = *userdata;
	struct dsofind_file file, dbg;
	int fd = -1;

	(void)mod;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	if (b == NULL || b->file == NULL ||
	    dsofind_open(b->file, NULL, 0, &file) != DSOFIND_FOUND)
		return -1;
	if (dsofind_debug(b->find, b->path, &file, &dbg)) {
		fd = dbg.fd;
		dbg.fd = -1;
		*debuginfo_file_name = dbg.path;
		dbg.path = NULL;
		dsofind_close(&dbg);
	}
	dsofind_close(&file);
	return fd;
}

struct unwinder *
unwind_open(const struct unwind_opts *o, const struct perf_header_info *info,
	    bool big_endian)
{
	struct unwinder *uw;
	const char *arch = info ? info->arch : NULL;
	struct rlimit rl;

	uw = calloc(1, sizeof(*uw));
	if (uw == NULL)
		return NULL;
	/* Half the limit on open files (the front end raised it to the
	 * hard limit) for the modules of the live Dwfls, a quarter for
	 * the binaries open, the rest for the input, the outputs and the
	 * debug files looked for. */
	uw->fd_budget = SIZE_MAX;
	uw->bin_budget = SIZE_MAX;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < SIZE_MAX) {
		uw->fd_budget = rl.rlim_cur >= 2 ? (size_t)(rl.rlim_cur / 2)
						 : 1;
		uw->bin_budget = rl.rlim_cur >= 4 ? (size_t)(rl.rlim_cur / 4)
						  : 1;
	}
	uw->o = *o;
	uw->info = info;
	uw->big_endian = big_endian;
	uw->find_opts.symfs = o->symfs;
	uw->find_opts.home = o->home;
	uw->find_opts.binaries = o->binaries;
	uw->find_opts.nbinaries = o->nbinaries;
	uw->find_opts.fetch = o->fetch;
	uw->find = dsofind_new(&uw->find_opts);
	if (uw->find == NULL || buildids_init(&uw->bids, info) < 0) {
		buildids_free(&uw->bids);
		dsofind_free(uw->find);
		free(uw);
		return NULL;
	}
	if (arch == NULL) {
#if defined(__x86_64__)
		arch = "x86_64";
#elif defined(__aarch64__)
		arch = "aarch64";
#else
		arch = "";
#endif
	}
	if (strcmp(arch, "x86_64") == 0)
		uw->arch = ARCH_X86_64;
	else if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0)
		uw->arch = ARCH_AARCH64;
	else
		uw->arch = ARCH_OTHER;
	/* Separate debug files: beside the binary, in .debug, and in the
	 * system's debug directory (under --symfs when given). */
	if (o->symfs != NULL) {
		size_t n = strlen(o->symfs) + sizeof(":.debug:/usr/lib/debug");

		uw->debuginfo_path = malloc(n);
		if (uw->debuginfo_path == NULL) {
			buildids_free(&uw->bids);
			dsofind_free(uw->find);
			free(uw);
			return NULL;
		}
		snprintf(uw->debuginfo_path, n, ":.debug:%s/usr/lib/debug",
			 o->symfs);
	}
	uw->cbs.find_elf = dwfl_build_id_find_elf;
	uw->cbs.find_debuginfo = o->fetch != NULL ? find_debug
				 : o->debuginfo ? dwfl_standard_find_debuginfo
						: no_debuginfo;
	uw->cbs.debuginfo_path = uw->debuginfo_path ? &uw->debuginfo_path
						    : NULL;
	elf_version(EV_CURRENT);
	return uw;
}

void
unwind_close(struct unwinder *uw)
{
	size_t i;

	if (uw == NULL)
		return;
	for (i = 0; i < uw->cap_spaces; i++)
		uspace_free(uw->spaces[i]);
	for (i = 0; i < uw->nbins; i++)
		bin_free(uw->bins[i]);
	free(uw->spaces);
	free(uw->bins);
	free(uw->open);
	hashtab_free(&uw->bin_index);
	hashtab_free(&uw->ident_index);
	buildids_free(&uw->bids);
	free(uw->debuginfo_path);
	dsofind_free(uw->find);
	free(uw);
}

bool
unwind_arch_supported(const struct unwinder *uw)
{
	return uw->arch != ARCH_OTHER;
}

bool
unwind_no_fds(const struct unwinder *uw)
{
	return uw->no_fds || (uw->find != NULL && dsofind_no_fds(uw->find));
}

void
unwind_forget(struct unwinder *uw, uint32_t sid)
{
	struct uspace *us;

	if (uw == NULL || sid >= uw->cap_spaces || uw->spaces[sid] == NULL)
		return;
	us = uw->spaces[sid];
	uw->held -= us->nmodules;
	uw->live[us->live] = uw->live[--uw->nlive];
	uw->live[us->live]->live = us->live;
	uspace_free(us);
	uw->spaces[sid] = NULL;
}

int
unwind_sample(struct unwinder *uw, struct addrspace *as, uint32_t sid,
	      int32_t pid, int32_t tid, const struct perf_attr *a,
	      const struct perf_sample *s, uint64_t *out, size_t max,
	      size_t *n, enum unwind_result *res)
{
	struct uspace *us, probe;
	uint64_t ip, sp;
	int r;

	*n = 0;
	*res = UNWIND_NONE;
	/* No stack copied (dyn_size 0: the kernel could read none, as at
	 * exit) is nothing to unwind: no user frame, as perf shows it
	 * (util/machine.c bails out when nothing was captured). */
	if (s->user_regs == NULL ||
	    s->user_regs_abi == PERF_SAMPLE_REGS_ABI_NONE ||
	    s->user_stack_size == 0 || s->user_stack_dyn_size == 0 ||
	    max == 0)
		return 0;
	*res = UNWIND_UNSUPPORTED;
	if (s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64)
		return 0;
	memset(&probe, 0, sizeof(probe));
	probe.uw = uw;
	probe.attr = a;
	probe.s = s;
	if (!user_ip_sp(&probe, &ip, &sp))
		return 0;

	/* The sampled IP is the leaf whatever happens next, as perf shows
	 * it. */
	out[0] = ip;
	*n = 1;
	*res = UNWIND_NO_BINARY;
	us = uspace_get(uw, sid);
	if (us == NULL)
		return -1;
	us->as = as;
	us->attr = a;
	us->s = s;
	us->tid = tid;
	us->sp = sp;
	us->out = out;
	us->max = max;
	us->n = 0;
	if (report_module(us, ip) == NULL)
		goto out;
	if (!us->attached) {
		if (!dwfl_attach_state(us->dwfl, NULL, pid, &thread_cbs, us))
			goto out;
		us->attached = true;
	}
	us->zero_end = false;
	us->copy_end = false;
	r = dwfl_getthread_frames(us->dwfl, tid, frame_cb, us);
	if (us->zero_end)
		r = 0;
	if (us->copy_end && us->n < us->max) {
		*n = us->n;
		*res = UNWIND_COPY_END;
		goto out;
	}
	if (us->n == 0) {
		*res = UNWIND_PARTIAL;
		goto out;
	}
	*n = us->n;
	*res = r == 0 || (r > 0 && us->n >= us->max) ? UNWIND_DONE
						      : UNWIND_PARTIAL;
out:
	us->as = NULL;
	us->s = NULL;
	us->out = NULL;
	return 0;
}
