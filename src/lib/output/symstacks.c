/* SPDX-License-Identifier: MIT */
/* The stacks of a profile with names: see symstacks.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hashtab.h"
#include "mapkind.h"
#include "offcpu.h"
#include "symstacks.h"

/* The indexes of a build. */
struct build {
	const struct symstacks_in *in;
	struct symstacks *ss;
	struct hashtab by_ptr;		/* of met[], by mapping pointer */
	struct met {
		const struct mapping *m;	/* a mapping met */
		uint32_t map;			/* its ss->maps index */
	} *met;
	size_t nmet, cap_met;
	struct hashtab by_content;	/* of ss->maps */
	struct hashtab by_addr;		/* of ss->locs */
	struct hashtab by_name;		/* of ss->funcs */
	size_t cap_maps, cap_locs, cap_funcs, cap_lines;
	const struct mapping *last;	/* the last mapping resolved */
	uint32_t last_sid, last_map;
	uint32_t kernel_sid;		/* the modules' space, if any */
	bool have_kernel_sid;
};

static uint64_t
hash_str(uint64_t h, const char *s)
{
	if (s == NULL)
		return h * 31;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* A pid or tid without the input's number above it. */
static int32_t
real_id(const struct symstacks_in *in, int32_t id)
{
	return in->pid_bits && id >= 0 ? id & ((1 << in->pid_bits) - 1) : id;
}

/* Grow *V (of elements SIZE, room *CAP) to hold N.  0, or -1. */
static int
room(void *v, size_t *cap, size_t n, size_t size)
{
	void **pv = v;
	void *nv;

	if (n <= *cap)
		return 0;
	nv = grow(*pv, cap, n, size, 64);
	if (nv == NULL)
		return -1;
	*pv = nv;
	return 0;
}

/* The build id of M: its own (MMAP2), else the header's for its file. */
static void
build_id_of(const struct build *b, const struct mapping *m,
	    const uint8_t **id, uint8_t *size)
{
	if (m->build_id_size > 0) {
		*id = m->build_id;
		*size = m->build_id_size;
		return;
	}
	if (!buildids_find(b->in->bids, m->path, size, id) &&
	    strcmp(m->path, "[kernel.kallsyms]") == 0) {
		const struct perf_build_id *k =
			perfdata_kernel_build_id(b->in->bids->hi);

		if (k != NULL) {
			*id = k->id;
			*size = k->size;
		}
	}
}

static uint64_t
map_hash(const struct ss_mapping *m)
{
	return hash_str(hashtab_hash64(m->start ^ m->pgoff * 31 ^ m->end * 7),
			m->path);
}

/* The index in ss->maps of mapping M, new or not: one per distinct
 * range of a file, whatever the processes that map it.  0, or -1. */
static int
map_index(struct build *b, const struct mapping *m, bool kernel,
	  uint32_t *out)
{
	struct symstacks *ss = b->ss;
	struct hashtab_iter it;
	struct ss_mapping k;
	uint64_t h;
	uint32_t i;

	h = hashtab_hash64((uint64_t)(uintptr_t)m);
	for (i = hashtab_probe(&b->by_ptr, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&b->by_ptr, &it))
		if (b->met[i].m == m) {
			*out = b->met[i].map;
			return 0;
		}
	memset(&k, 0, sizeof(k));
	k.start = m->start;
	k.end = m->end;
	k.pgoff = m->pgoff;
	k.path = m->path;
	k.kernel = kernel;
	/* Anonymous memory is the process's own: JIT code is named from
	 * its /tmp/perf-PID.map. */
	k.pid = -1;
	if (!kernel && m->pid >= 0 && mapkind_is_own(mapping_kind(m->path)))
		k.pid = real_id(b->in, m->pid);
	build_id_of(b, m, &k.build_id, &k.build_id_size);
	if (kernel) {
		const struct perf_build_id *kb =
			perfdata_kernel_build_id(b->in->bids->hi);

		if (kb != NULL &&
		    strcmp(kb->filename, "[kernel.kallsyms]") != 0)
			k.dso = kb->filename;
	}
	h = map_hash(&k);
	if (hashtab_reserve(&b->by_content, ss->nmaps + 1) < 0)
		return -1;
	for (i = hashtab_probe(&b->by_content, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&b->by_content, &it)) {
		const struct ss_mapping *o = &ss->maps[i];

		if (o->start == k.start && o->end == k.end &&
		    o->pgoff == k.pgoff && o->kernel == k.kernel &&
		    o->pid == k.pid &&
		    strcmp(o->path, k.path) == 0 &&
		    o->build_id_size == k.build_id_size &&
		    (k.build_id_size == 0 ||
		     memcmp(o->build_id, k.build_id, k.build_id_size) == 0))
			break;
	}
	if (i == HASHTAB_NONE) {
		if (ss->nmaps >= HASHTAB_NONE - 1 ||
		    room(&ss->maps, &b->cap_maps, ss->nmaps + 1,
			 sizeof(*ss->maps)) < 0)
			return -1;
		i = (uint32_t)ss->nmaps;
		ss->maps[ss->nmaps++] = k;
		hashtab_insert(&b->by_content, &it, i);
	}
	if (b->nmet >= HASHTAB_NONE - 1 ||
	    room(&b->met, &b->cap_met, b->nmet + 1, sizeof(*b->met)) < 0)
		return -1;
	b->met[b->nmet].m = m;
	b->met[b->nmet].map = i;
	if (hashtab_add(&b->by_ptr, hashtab_hash64((uint64_t)(uintptr_t)m),
			(uint32_t)b->nmet) < 0)
		return -1;
	b->nmet++;
	*out = i;
	return 0;
}

/*
 * The mapping (ss->maps index + 1, or 0) of PC, a frame of a stack of
 * space SID: kernel text in the kernel's mapping, other kernel addresses
 * in the modules', the rest in the process's own.  0, or -1.
 */
static int
place(struct build *b, uint32_t sid, uint64_t pc, uint32_t *map)
{
	const struct kernel_text *kt = addrspace_kernel_text(b->in->as);
	const struct mapping *m;
	bool kernel = false;

	*map = 0;
	if (addrspace_text_has(kt, pc)) {
		m = addrspace_kernel(b->in->as);
		if (m != NULL && pc >= m->start && pc < m->end) {
			kernel = true;
		} else if (b->have_kernel_sid) {
			sid = b->kernel_sid;
			m = NULL;
		} else {
			return 0;
		}
	} else {
		m = NULL;
	}
	if (m == NULL) {
		m = b->last;
		if (m == NULL || b->last_sid != sid || pc < m->start ||
		    pc >= m->end) {
			m = addrspace_resolve(b->in->as, sid, pc);
			if (m == NULL)
				return 0;
			b->last = m;
			b->last_sid = sid;
			if (map_index(b, m, false, &b->last_map) < 0)
				return -1;
		}
		*map = b->last_map + 1;
		return 0;
	}
	if (map_index(b, m, kernel, map) < 0)
		return -1;
	(*map)++;
	return 0;
}

/* The location of PC in mapping MAP (index + 1, or 0), new or not,
 * UNWOUND as symstacks.h says.  0, or -1. */
static int
location(struct build *b, uint32_t map, uint64_t pc, bool unwound,
	 uint32_t *out)
{
	struct symstacks *ss = b->ss;
	struct hashtab_iter it;
	uint64_t h = hashtab_hash64(pc ^ (uint64_t)map << 48 ^ map);
	uint32_t i;

	if (hashtab_reserve(&b->by_addr, ss->nlocs + 1) < 0)
		return -1;
	for (i = hashtab_probe(&b->by_addr, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&b->by_addr, &it))
		if (ss->locs[i].addr == pc && ss->locs[i].map == map &&
		    ss->locs[i].unwound == unwound) {
			*out = i;
			return 0;
		}
	if (ss->nlocs >= HASHTAB_NONE - 1 ||
	    room(&ss->locs, &b->cap_locs, ss->nlocs + 1,
		 sizeof(*ss->locs)) < 0)
		return -1;
	i = (uint32_t)ss->nlocs++;
	ss->locs[i].addr = pc;
	ss->locs[i].map = map;
	ss->locs[i].line = 0;
	ss->locs[i].nlines = 0;
	ss->locs[i].unwound = unwound;
	hashtab_insert(&b->by_addr, &it, i);
	*out = i;
	return 0;
}

static bool
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

/* The function NAME of FILE, new or not.  0, or -1. */
static int
function(struct build *b, const char *name, const char *file,
	 uint32_t *out)
{
	struct symstacks *ss = b->ss;
	struct hashtab_iter it;
	uint64_t h = hash_str(hash_str(1469598103934665603ULL, name), file);
	uint32_t i;

	if (hashtab_reserve(&b->by_name, ss->nfuncs + 1) < 0)
		return -1;
	for (i = hashtab_probe(&b->by_name, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&b->by_name, &it))
		if (same_str(ss->funcs[i].name, name) &&
		    same_str(ss->funcs[i].file, file)) {
			*out = i;
			return 0;
		}
	if (ss->nfuncs >= HASHTAB_NONE - 1 ||
	    room(&ss->funcs, &b->cap_funcs, ss->nfuncs + 1,
		 sizeof(*ss->funcs)) < 0)
		return -1;
	i = (uint32_t)ss->nfuncs++;
	ss->funcs[i].name = name;
	ss->funcs[i].file = file;
	hashtab_insert(&b->by_name, &it, i);
	*out = i;
	return 0;
}

/* Name location L through the symbolizer.  0, or -1. */
static int
name_location(struct build *b, struct ss_location *l)
{
	struct symstacks *ss = b->ss;
	struct ss_mapping *m;
	const struct sym_frame *fr;
	struct sym_dso dso;
	int i, nf;
	uint32_t f;

	if (l->map == 0)
		return 0;
	m = &ss->maps[l->map - 1];
	memset(&dso, 0, sizeof(dso));
	dso.path = m->path;
	dso.build_id = m->build_id;
	dso.build_id_size = m->build_id_size;
	dso.start = m->start;
	dso.end = m->end;
	dso.pgoff = m->pgoff;
	dso.pid = m->pid;
	nf = symbols_lookup(b->in->sym, &dso, l->addr, &fr);
	if (nf < 0)
		return -1;
	l->line = (uint32_t)ss->nlines;
	for (i = 0; i < nf; i++) {
		/* perf names the frames it unwinds with DWARF by the
		 * functions' DWARF names */
		const char *name = l->unwound && fr[i].dwarf_function != NULL
					   ? fr[i].dwarf_function
					   : fr[i].function;

		if (name == NULL)
			continue;
		if (function(b, name, fr[i].file, &f) < 0 ||
		    room(&ss->lines, &b->cap_lines, ss->nlines + 1,
			 sizeof(*ss->lines)) < 0)
			return -1;
		ss->lines[ss->nlines].func = f;
		ss->lines[ss->nlines].line = fr[i].line;
		ss->nlines++;
		l->nlines++;
		m->has_functions = true;
		if (fr[i].file != NULL)
			m->has_filenames = true;
		if (fr[i].line != 0)
			m->has_lines = true;
	}
	if (l->nlines > 1)
		m->has_inline = true;
	return 0;
}

/*
 * pprof calls the file of the first mapping the profile's (its "File:"
 * line) and looks for the main binary there: put first the first
 * mapping met of a file that is not a shared library, the kernel or a
 * special mapping ("[vdso]", "//anon").
 */
static void
main_first(struct symstacks *ss)
{
	struct ss_mapping t;
	size_t i, k;

	for (i = 0; i < ss->nmaps; i++) {
		const char *p = ss->maps[i].path;
		const char *base = strrchr(p, '/');

		if (p[0] == '/' && mapping_kind(p) == MAPKIND_FILE &&
		    !ss->maps[i].kernel && strstr(base, ".so") == NULL)
			break;
	}
	if (i == 0 || i == ss->nmaps)
		return;
	t = ss->maps[i];
	memmove(&ss->maps[1], &ss->maps[0], i * sizeof(*ss->maps));
	ss->maps[0] = t;
	for (k = 0; k < ss->nlocs; k++) {
		uint32_t m = ss->locs[k].map;

		if (m == i + 1)
			ss->locs[k].map = 1;
		else if (m != 0 && m <= i)
			ss->locs[k].map = m + 1;
	}
}

static void
build_release(struct build *b)
{
	hashtab_free(&b->by_ptr);
	hashtab_free(&b->by_content);
	hashtab_free(&b->by_addr);
	hashtab_free(&b->by_name);
	free(b->met);
}

int
symstacks_build(const struct symstacks_in *in, struct stack_entry **e,
		size_t n, struct symstacks *ss, struct p2g_error *err)
{
	const struct process *kp = addrspace_find(in->as, -1);
	const struct kernel_text *kt = addrspace_kernel_text(in->as);
	struct build b;
	size_t i, k, total = 0;
	uint32_t map;
	bool user;

	memset(&b, 0, sizeof(b));
	b.in = in;
	b.ss = ss;
	if (kp != NULL) {
		b.kernel_sid = kp->space;
		b.have_kernel_sid = true;
	}
	for (i = 0; i < n; i++)
		total += e[i]->n;
	ss->samples = calloc(n ? n : 1, sizeof(*ss->samples));
	ss->pool = malloc((total ? total : 1) * sizeof(*ss->pool));
	if (ss->samples == NULL || ss->pool == NULL)
		goto nomem;
	for (i = 0; i < n; i++) {
		const uint64_t *pcs = stacktab_pcs(in->tab, e[i]);
		struct ss_sample *s = &ss->samples[ss->nsamples++];
		uint32_t sid = aggregate_space(in->ag, e[i]->ctx);
		int32_t pid = addrspace_space_pid(in->as, sid);
		int32_t tid = aggregate_by_thread(in->ag)
				      ? aggregate_tid(in->ag, e[i]->ctx) : -1;
		const char *sc;

		s->off = ss->npool;
		s->n = e[i]->n;
		s->pid = real_id(in, pid);
		tid = offcpu_tid(tid, &s->preempted);
		s->tid = real_id(in, tid);
		s->comm = addrspace_comm_of(in->as, pid, tid >= 0 ? tid : pid);
		/* a space the process left by exec had its name then */
		sc = addrspace_space_comm(in->as, sid);
		if (sc[0] != '\0' &&
		    strcmp(sc, addrspace_comm_of(in->as, pid, pid)) != 0)
			s->comm = sc;
		/* the thread's name when the samples were taken */
		if (tid >= 0)
			s->comm = aggregate_comm(in->ag, e[i]->ctx);
		s->count = e[i]->count;
		s->ev = e[i]->ev;
		s->period = stacktab_period(in->tab, e[i]);
		user = false;
		for (k = 0; k < e[i]->n; k++) {
			uint64_t pc = pcs[k];

			bool unwound = in->unwound &&
				       !addrspace_text_has(kt, pc);

			if (unwound) {
				if (user && pc > 0)
					pc--;
				user = true;
			}
			if (place(&b, sid, pc, &map) < 0 ||
			    location(&b, map, pc, unwound,
				     &ss->pool[ss->npool++]) < 0)
				goto nomem;
		}
	}
	main_first(ss);
	/* Each location is named once, once all are known. */
	for (i = 0; i < ss->nlocs; i++)
		if (name_location(&b, &ss->locs[i]) < 0)
			goto nomem;
	build_release(&b);
	return 0;
nomem:
	build_release(&b);
	if (in->sym != NULL && symbols_no_fds(in->sym))
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
				"too many open files to read the binaries "
				"(see ulimit -n)");
	return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
}

void
symstacks_release(struct symstacks *ss)
{
	free(ss->maps);
	free(ss->funcs);
	free(ss->lines);
	free(ss->locs);
	free(ss->samples);
	free(ss->pool);
	memset(ss, 0, sizeof(*ss));
}
