/* SPDX-License-Identifier: MIT */
/* Processes and address spaces: see addrspace.h. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "grow.h"
#include "hashtab.h"
#include "maptree.h"

#define PROT_READ_ 1
#define PROT_WRITE_ 2
#define PROT_EXEC_ 4

struct thread {
	int32_t tid;
	int32_t pid;
	char comm[32];
	uint32_t era;	/* changes with each name it is given; 0: none */
};

/*
 * An address space: the set of mappings of one process over a stretch of
 * time in which no mapping went away.  A process starts a new one when it
 * execs, and when a mapping replaces another after samples were taken in
 * the old one; so a sample's addresses resolve against the mappings in
 * force when it was taken.  Mappings only ever added to the current
 * space keep it.
 */
struct space {
	int32_t pid;
	uint32_t root;		/* its tree of mappings (maptree.h) */
	uint32_t owner;		/* of the nodes it may change */
	uint32_t sort_mark;	/* addrspace_walk_space()'s order */
	bool used;		/* samples refer to it: copy on change */
	char comm[32];		/* the process's name while the space was
				   its own (the last one then) */
};

struct addrspace {
	struct process *procs;
	size_t nprocs, cap_procs;
	struct hashtab proc_index;	/* of procs, by pid */
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct hashtab thread_index;	/* of threads, by tid */
	uint32_t eras;			/* the last thread name era given */
	struct mapping *maps;	/* every mapping ever seen */
	size_t nmaps, cap_maps;
	struct space *spaces;
	size_t nspaces, cap_spaces;
	struct maptree tree;	/* the nodes of every space's tree */
	struct mapping kernel;	/* the kernel's text mapping */
	bool have_kernel;
	struct kernel_text text;	/* of KERNEL, for the hot paths */
};

/* A new owner number for SP: the nodes it has are shared from now on.
 * 0, or -1 when the numbers have run out. */
static int
space_share(struct addrspace *as, struct space *sp)
{
	return maptree_owner_new(&as->tree, &sp->owner);
}

/* The node of SP with the greatest key below K, or MAPTREE_NIL. */
static uint32_t
space_below(const struct addrspace *as, const struct space *sp,
	    const struct maptree_key *k)
{
	return maptree_below(&as->tree, as->maps, sp->root, k);
}

/* The node of SP with the least key not below K, or MAPTREE_NIL. */
static uint32_t
space_from(const struct addrspace *as, const struct space *sp,
	   const struct maptree_key *k)
{
	return maptree_from(&as->tree, as->maps, sp->root, k);
}

/* Drop the mappings of SP with keys from LO to below HI.  0, or -1 when
 * out of memory (SP is as it was). */
static int
space_drop(struct addrspace *as, struct space *sp,
	   const struct maptree_key *lo, const struct maptree_key *hi)
{
	return maptree_drop(&as->tree, as->maps, &sp->root, sp->owner, lo, hi);
}

/* Add mapping MAP to SP.  0, or -1 when out of memory. */
static int
space_insert(struct addrspace *as, struct space *sp, uint32_t map)
{
	return maptree_insert(&as->tree, as->maps, &sp->root, sp->owner, map);
}

/* The mapping of node T of a space's tree. */
static inline const struct mapping *
node_mapping(const struct addrspace *as, uint32_t t)
{
	return &as->maps[maptree_map(&as->tree, t)];
}

/* ---- processes and threads ---------------------------------------------- */

static void
addrspace_init(struct addrspace *as)
{
	memset(as, 0, sizeof(*as));
	maptree_init(&as->tree);
}

static void
addrspace_release(struct addrspace *as)
{
	size_t i;

	for (i = 0; i < as->nmaps; i++)
		free(as->maps[i].path);
	free(as->maps);
	free(as->spaces);
	maptree_release(&as->tree);
	free(as->procs);
	hashtab_free(&as->proc_index);
	free(as->threads);
	hashtab_free(&as->thread_index);
	free(as->kernel.path);
	memset(as, 0, sizeof(*as));
}

/* The element of a pid/tid table T over BASE (of elements of ELSIZE bytes
 * that start with the key) whose key is KEY, or HASHTAB_NONE with IT where
 * it would go. */
static inline uint32_t
lookup(const struct hashtab *t, const void *base, size_t elsize,
       int32_t key, struct hashtab_iter *it)
{
	uint32_t i;

	for (i = hashtab_probe(t, hashtab_hash64((uint32_t)key), it);
	     i != HASHTAB_NONE; i = hashtab_next(t, it))
		if (*(const int32_t *)((const char *)base + i * elsize) == key)
			break;
	return i;
}

struct process *
addrspace_find(const struct addrspace *as, int32_t pid)
{
	struct hashtab_iter it;
	uint32_t i = lookup(&as->proc_index, as->procs, sizeof(struct process),
			    pid, &it);

	return i != HASHTAB_NONE ? &as->procs[i] : NULL;
}

/* A new space for PID, with the mappings of space FROM unless it is
 * UINT32_MAX (the two share them: FROM must not change them from then on,
 * space_share()); its index, or UINT32_MAX when out of memory. */
static uint32_t
new_space(struct addrspace *as, int32_t pid, uint32_t from)
{
	struct space *sp;

	if (as->nspaces == as->cap_spaces) {
		struct space *ns;

		if (as->nspaces >= UINT32_MAX - 1)
			return UINT32_MAX;
		ns = grow(as->spaces, &as->cap_spaces, as->nspaces + 1,
			  sizeof(*ns), 64);
		if (ns == NULL)
			return UINT32_MAX;
		as->spaces = ns;
	}
	sp = &as->spaces[as->nspaces];
	memset(sp, 0, sizeof(*sp));
	sp->pid = pid;
	sp->root = MAPTREE_NIL;
	if (space_share(as, sp) < 0)
		return UINT32_MAX;
	if (from != UINT32_MAX) {
		sp->root = as->spaces[from].root;
		sp->sort_mark = as->spaces[from].sort_mark;
		memcpy(sp->comm, as->spaces[from].comm, sizeof(sp->comm));
	}
	return (uint32_t)as->nspaces++;
}

struct process *
addrspace_process(struct addrspace *as, int32_t pid)
{
	struct process *p = addrspace_find(as, pid);
	struct hashtab_iter it;
	uint32_t sid;

	if (p != NULL)
		return p;
	sid = new_space(as, pid, UINT32_MAX);
	if (sid == UINT32_MAX)
		return NULL;
	if (as->nprocs == as->cap_procs) {
		struct process *np = grow(as->procs, &as->cap_procs,
					  as->nprocs + 1, sizeof(*np), 64);

		if (np == NULL)
			return NULL;
		as->procs = np;
	}
	if (hashtab_reserve(&as->proc_index, as->nprocs + 1) < 0)
		return NULL;
	p = &as->procs[as->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->space = sid;
	lookup(&as->proc_index, as->procs, sizeof(struct process), pid, &it);
	hashtab_insert(&as->proc_index, &it, (uint32_t)as->nprocs++);
	return p;
}

static struct thread *
get_thread(struct addrspace *as, int32_t tid, bool create)
{
	struct hashtab_iter it;
	uint32_t i = lookup(&as->thread_index, as->threads,
			    sizeof(struct thread), tid, &it);
	struct thread *t;

	if (i != HASHTAB_NONE)
		return &as->threads[i];
	if (!create)
		return NULL;
	if (as->nthreads == as->cap_threads) {
		struct thread *nt = grow(as->threads, &as->cap_threads,
					 as->nthreads + 1, sizeof(*nt), 64);

		if (nt == NULL)
			return NULL;
		as->threads = nt;
	}
	if (hashtab_reserve(&as->thread_index, as->nthreads + 1) < 0)
		return NULL;
	t = &as->threads[as->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	lookup(&as->thread_index, as->threads, sizeof(struct thread), tid,
	       &it);
	hashtab_insert(&as->thread_index, &it, (uint32_t)as->nthreads++);
	return t;
}

static bool
is_kernel_path(const char *path)
{
	return strncmp(path, "[kernel.kallsyms]", 17) == 0;
}

int
addrspace_sample_space(struct addrspace *as, int32_t pid, uint32_t *sid)
{
	struct process *p = addrspace_process(as, pid);

	if (p == NULL)
		return -1;
	as->spaces[p->space].used = true;
	*sid = p->space;
	return 0;
}

/* The current space of P, ready to change: a used space gives way to a
 * new one that shares its mappings.  NULL when out of memory. */
static struct space *
space_to_change(struct addrspace *as, struct process *p)
{
	struct space *sp = &as->spaces[p->space];
	uint32_t sid;

	if (!sp->used)
		return sp;
	sid = new_space(as, p->pid, p->space);
	if (sid == UINT32_MAX)
		return NULL;
	p->space = sid;
	return &as->spaces[sid];
}

static int
add_mapping(struct addrspace *as, const struct mapping *m, int32_t pid)
{
	struct mapping *dst;

	if (as->nmaps == as->cap_maps) {
		struct mapping *nm;

		if (as->nmaps >= MAPTREE_NIL - 1)
			return -1;
		nm = grow(as->maps, &as->cap_maps, as->nmaps + 1, sizeof(*nm),
			  64);
		if (nm == NULL)
			return -1;
		as->maps = nm;
	}
	dst = &as->maps[as->nmaps];
	*dst = *m;
	dst->pid = pid;
	dst->path = strdup(m->path);
	if (dst->path == NULL)
		return -1;
	as->nmaps++;
	return 0;
}

/* Add to SP the part of mapping OLD from START to END (a part it keeps
 * of OLD, which a new mapping overlaps), its file offset moved along.
 * 0, or -1 when out of memory. */
static int
add_part(struct addrspace *as, struct space *sp, const struct mapping *old,
	 uint64_t start, uint64_t end)
{
	struct mapping part = *old;
	int32_t pid = old->pid;

	part.pgoff += start - old->start;
	part.start = start;
	part.end = end;
	if (add_mapping(as, &part, pid) < 0)
		return -1;
	return space_insert(as, sp, (uint32_t)(as->nmaps - 1));
}

/* M, a mapping of the kernel's text, as the kernel's mapping unless
 * there is one.  0, or -1 when out of memory. */
static int
set_kernel(struct addrspace *as, const struct mapping *m)
{
	/* perf names the kernel's text "[kernel.kallsyms]_text" (or
	 * "_stext"); the first one is the kernel proper, later ones with
	 * that prefix are modules. */
	if (as->have_kernel)
		return 0;
	as->kernel = *m;
	/* Old perf (3.x) wrote the kernel's mapping from 0, with the
	 * address of _stext as pgoff: the text starts there. */
	if (m->start < m->pgoff && m->pgoff < m->end)
		as->kernel.start = m->pgoff;
	/* ...and to the end of a 64-bit address space, also for a 32-bit
	 * kernel. */
	if (as->kernel.start < (1ULL << 32) && as->kernel.end > (1ULL << 32))
		as->kernel.end = 1ULL << 32;
	as->kernel.path = strdup("[kernel.kallsyms]");
	if (as->kernel.path == NULL)
		return -1;
	as->kernel.exec = true;
	as->kernel.pid = -1;
	as->have_kernel = true;
	as->text.start = as->kernel.start;
	as->text.end = as->kernel.end;
	as->text.known = true;
	return 0;
}

/* Drop what mapping M covers from the current space of P, which it
 * overlaps: node BELOW (unless MAPTREE_NIL), which starts below M and
 * reaches past its start, and, with INSIDE, those that start inside M.
 * The space changed (space_to_change()), or NULL when out of memory. */
static struct space *
drop_covered(struct addrspace *as, struct process *p,
	     const struct mapping *m, uint32_t below, bool inside)
{
	struct maptree_key lo = { m->start, 1, 0 }, hi = { m->end, 0, 0 };
	struct maptree_key at = { 0, 1, 0 }, next;
	struct space *sp;

	if (below != MAPTREE_NIL) {
		at.start = maptree_start(&as->tree, below);
		at.map = maptree_map(&as->tree, below);
	}
	sp = space_to_change(as, p);
	if (sp == NULL)
		return NULL;
	if (below != MAPTREE_NIL) {
		next = at;
		next.map++;
		if (space_drop(as, sp, &at, &next) < 0)
			return NULL;
	}
	if (inside && space_drop(as, sp, &lo, &hi) < 0)
		return NULL;
	return sp;
}

int
addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m)
{
	struct process *p;
	struct space *sp;
	struct maptree_key lo = { m->start, 1, 0 }, hi = { m->end, 0, 0 };
	struct maptree_key at = { m->start, 0, 0 };
	struct mapping before, after;
	uint32_t below, from, last;
	bool crossed, inside, beyond;

	if (pid == -1 && is_kernel_path(m->path))
		return set_kernel(as, m);
	p = addrspace_process(as, pid);
	if (p == NULL)
		return -1;
	sp = &as->spaces[p->space];
	/* What the new mapping overlaps: the one below its start that
	 * reaches past it (the last one there, if any, as the mappings do
	 * not overlap; not empty, as it reaches past its start), and those
	 * that start inside it, but for empty ones at its very start.  The
	 * last one that starts below its end may reach past that. */
	below = space_below(as, sp, &at);
	crossed = below != MAPTREE_NIL &&
		  node_mapping(as, below)->end > m->start;
	from = space_from(as, sp, &lo);
	inside = from != MAPTREE_NIL &&
		 maptree_start(&as->tree, from) < m->end;
	last = space_below(as, sp, &hi);
	beyond = last != MAPTREE_NIL && node_mapping(as, last)->end > m->end &&
		 (crossed || inside);
	if (crossed || inside) {
		/* As perf does, the mappings overlapped keep the parts the
		 * new one does not cover: the part below it and the part
		 * above it, each a mapping of its own. */
		if (crossed)
			before = *node_mapping(as, below);
		if (beyond)
			after = *node_mapping(as, last);
		sp = drop_covered(as, p, m, crossed ? below : MAPTREE_NIL,
				  inside);
		if (sp == NULL)
			return -1;
	}
	if (add_mapping(as, m, pid) < 0 ||
	    space_insert(as, sp, (uint32_t)(as->nmaps - 1)) < 0)
		return -1;
	if (crossed && add_part(as, sp, &before, before.start, m->start) < 0)
		return -1;
	if (beyond && add_part(as, sp, &after, m->end, after.end) < 0)
		return -1;
	return 0;
}

int
addrspace_comm(struct addrspace *as, int32_t pid, int32_t tid,
	       const char *comm, size_t len, bool exec)
{
	struct process *p = addrspace_process(as, pid);
	struct thread *t = get_thread(as, tid, true);

	if (p == NULL || t == NULL)
		return -1;
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	t->pid = pid;
	memcpy(t->comm, comm, len);
	t->comm[len] = '\0';
	t->era = ++as->eras;
	if (pid == tid || p->comm[0] == '\0')
		memcpy(p->comm, t->comm, len + 1);
	/* The old mappings stay until MMAPs replace them (addrspace.h) */
	if (exec && space_to_change(as, p) == NULL)
		return -1;
	memcpy(as->spaces[p->space].comm, p->comm, sizeof(p->comm));
	return 0;
}

int
addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
	       int32_t tid, int32_t ptid)
{
	struct thread *pt, *t;
	struct process *parent, *child;
	char comm[32] = "";
	uint32_t sid, psid;

	pt = get_thread(as, ptid, false);
	if (pt != NULL)
		memcpy(comm, pt->comm, sizeof(comm));
	else if ((parent = addrspace_find(as, ppid)) != NULL)
		memcpy(comm, parent->comm, sizeof(comm));
	t = get_thread(as, tid, true);
	if (t == NULL)
		return -1;
	t->pid = pid;
	memcpy(t->comm, comm, sizeof(comm));
	t->era = comm[0] != '\0' ? ++as->eras : 0;
	if (pid == ppid)
		return 0;	/* a new thread in the same process */
	child = addrspace_process(as, pid);
	if (child == NULL)
		return -1;
	memcpy(child->comm, comm, sizeof(comm));
	parent = addrspace_find(as, ppid);	/* after a possible realloc */
	if (parent == NULL)
		return 0;
	/* A new process (or a reused pid): the parent's mappings, which
	 * perf does not send again, shared with the parent. */
	psid = parent->space;
	sid = new_space(as, pid, psid);
	if (sid == UINT32_MAX || space_share(as, &as->spaces[psid]) < 0)
		return -1;
	addrspace_find(as, pid)->space = sid;
	memcpy(as->spaces[sid].comm, comm, sizeof(comm));
	return 0;
}

const char *
addrspace_comm_of(const struct addrspace *as, int32_t pid, int32_t tid)
{
	struct addrspace *mas = (struct addrspace *)as;
	struct thread *t = get_thread(mas, tid, false);
	struct process *p;

	if (t != NULL && t->comm[0] != '\0')
		return t->comm;
	p = addrspace_find(as, pid);
	return p ? p->comm : "";
}

const char *
addrspace_thread_name(const struct addrspace *as, int32_t tid, uint32_t *era)
{
	struct thread *t = get_thread((struct addrspace *)as, tid, false);

	if (t == NULL || t->era == 0) {
		*era = 0;
		return NULL;
	}
	*era = t->era;
	return t->comm;
}

const char *
addrspace_space_comm(const struct addrspace *as, uint32_t sid)
{
	return as->spaces[sid].comm;
}

const struct mapping *
addrspace_resolve(struct addrspace *as, uint32_t sid, uint64_t addr)
{
	struct space *sp = &as->spaces[sid];
	struct maptree_key k = { addr, 1, UINT32_MAX };
	uint32_t t, e;
	const struct mapping *m;

	/* The mappings there are now come in start order in the walks. */
	sp->sort_mark = (uint32_t)as->nmaps;
	/* The last mapping that starts at or below ADDR (they do not
	 * overlap), the one that is not empty if any. */
	t = space_below(as, sp, &k);
	if (t == MAPTREE_NIL)
		return NULL;
	m = node_mapping(as, t);
	/* ...unless an empty one at its start came after it: the answer
	 * is the last mapping to come at that start, as it has always
	 * been. */
	k.start = m->start;
	k.map = 0;
	e = space_below(as, sp, &k);
	if (e != MAPTREE_NIL && maptree_start(&as->tree, e) == m->start &&
	    maptree_map(&as->tree, e) > maptree_map(&as->tree, t))
		return NULL;
	return addr < m->end ? m : NULL;
}

static int
cmp_samples(const void *a, const void *b)
{
	const struct process *x = *(const struct process *const *)a;
	const struct process *y = *(const struct process *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

struct process **
addrspace_by_samples(const struct addrspace *as, size_t *n)
{
	struct process **v = malloc((as->nprocs + 1) * sizeof(*v));
	size_t i, k = 0;

	if (v == NULL)
		return NULL;
	for (i = 0; i < as->nprocs; i++)
		if (as->procs[i].samples > 0)
			v[k++] = &as->procs[i];
	qsort(v, k, sizeof(*v), cmp_samples);
	*n = k;
	return v;
}

struct addrspace *
addrspace_new(void)
{
	struct addrspace *as = malloc(sizeof(*as));

	if (as != NULL)
		addrspace_init(as);
	return as;
}

void
addrspace_free(struct addrspace *as)
{
	if (as == NULL)
		return;
	addrspace_release(as);
	free(as);
}

void
addrspace_clear_samples(struct addrspace *as)
{
	size_t i;

	for (i = 0; i < as->nprocs; i++)
		as->procs[i].samples = 0;
}

size_t
addrspace_nspaces(const struct addrspace *as)
{
	return as->nspaces;
}

/* ---- walks ------------------------------------------------------------- */

int
addrspace_walk_begin(struct addrspace *as)
{
	return maptree_walk_begin(&as->tree);
}

int
addrspace_walk_space(struct addrspace *as, uint32_t sid,
		     bool (*every)(const struct mapping *),
		     const uint32_t **maps, size_t *n)
{
	const struct space *sp = &as->spaces[sid];

	return maptree_walk(&as->tree, as->maps, sp->root, sp->sort_mark,
			    every, maps, n);
}

int32_t
addrspace_space_pid(const struct addrspace *as, uint32_t sid)
{
	return as->spaces[sid].pid;
}

size_t
addrspace_nmaps(const struct addrspace *as)
{
	return as->nmaps;
}

const struct mapping *
addrspace_map(const struct addrspace *as, size_t i)
{
	return &as->maps[i];
}

const struct mapping *
addrspace_kernel(const struct addrspace *as)
{
	return as->have_kernel ? &as->kernel : NULL;
}

const struct kernel_text *
addrspace_kernel_text(const struct addrspace *as)
{
	return &as->text;
}

bool
addrspace_is_kernel(const struct addrspace *as, uint64_t addr)
{
	return addrspace_text_has(&as->text, addr);
}
