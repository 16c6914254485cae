/* SPDX-License-Identifier: MIT */
/* Processes and address spaces: see addrspace.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "hashtab.h"

#define PROT_READ_ 1
#define PROT_WRITE_ 2
#define PROT_EXEC_ 4

struct thread {
	int32_t tid;
	int32_t pid;
	char comm[32];
};

struct addrspace {
	struct process *procs;
	size_t nprocs, cap_procs;
	struct hashtab proc_index;	/* of procs, by pid */
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct hashtab thread_index;	/* of threads, by tid */
	struct mapping *maps;	/* every mapping ever seen */
	size_t nmaps, cap_maps;
	struct space *spaces;
	size_t nspaces, cap_spaces;
	struct mapping kernel;	/* the kernel's text mapping */
	bool have_kernel;
	struct kernel_text text;	/* of KERNEL, for the hot paths */
	uint64_t prio_state;	/* for the priorities of tree nodes */
};

/* ---- the mappings of a space, by address --------------------------------- */

/*
 * The mappings of a space are in a treap (a search tree that random
 * priorities keep balanced), so that an MMAP finds the mappings it
 * replaces in logarithmic time: a scan of the whole space for each one
 * made many mappings quadratic.  The mappings of a space never overlap
 * (each new one drops those it overlaps), which lets a search look at
 * most at one mapping below the new one's start.  The key is (start,
 * not empty, index): an empty mapping (start == end) overlaps none that
 * starts where it does, so several can share a start with one that is
 * not empty; that one comes last.
 */
#define NIL UINT32_MAX

struct space_node {
	uint64_t start;
	uint32_t map;		/* index into addrspace.maps */
	uint32_t left, right;	/* nodes, or NIL; a free node's next free
				   one is its LEFT */
	uint32_t prio;
};

struct key {
	uint64_t start;
	uint32_t full;		/* 1: the mapping is not empty */
	uint32_t map;
};

/* Node N's key below K. */
static inline bool
key_below(const struct addrspace *as, const struct space_node *n,
	  const struct key *k)
{
	uint32_t full;

	if (n->start != k->start)
		return n->start < k->start;
	full = as->maps[n->map].end > n->start;
	if (full != k->full)
		return full < k->full;
	return n->map < k->map;
}

/* Subtree T split into the keys below K (*L) and the others (*R). */
static void
tree_split(const struct addrspace *as, struct space_node *nd, uint32_t t,
	   const struct key *k, uint32_t *l, uint32_t *r)
{
	if (t == NIL) {
		*l = *r = NIL;
	} else if (key_below(as, &nd[t], k)) {
		*l = t;
		tree_split(as, nd, nd[t].right, k, &nd[t].right, r);
	} else {
		*r = t;
		tree_split(as, nd, nd[t].left, k, l, &nd[t].left);
	}
}

/* Subtrees A and B (every key of A below every key of B) as one. */
static uint32_t
tree_merge(struct space_node *nd, uint32_t a, uint32_t b)
{
	if (a == NIL)
		return b;
	if (b == NIL)
		return a;
	if (nd[a].prio >= nd[b].prio) {
		nd[a].right = tree_merge(nd, nd[a].right, b);
		return a;
	}
	nd[b].left = tree_merge(nd, a, nd[b].left);
	return b;
}

/* The nodes of subtree T onto the free list of SP; how many. */
static size_t
tree_release(struct space *sp, uint32_t t)
{
	size_t n;

	if (t == NIL)
		return 0;
	n = 1 + tree_release(sp, sp->nodes[t].left) +
	    tree_release(sp, sp->nodes[t].right);
	sp->nodes[t].left = sp->free;
	sp->free = t;
	return n;
}

/* The node of SP with the greatest key below K, or NIL. */
static uint32_t
tree_below(const struct addrspace *as, const struct space *sp,
	   const struct key *k)
{
	uint32_t t = sp->root, best = NIL;

	while (t != NIL) {
		if (key_below(as, &sp->nodes[t], k)) {
			best = t;
			t = sp->nodes[t].right;
		} else {
			t = sp->nodes[t].left;
		}
	}
	return best;
}

/* The node of SP with the least key not below K, or NIL. */
static uint32_t
tree_from(const struct addrspace *as, const struct space *sp,
	  const struct key *k)
{
	uint32_t t = sp->root, best = NIL;

	while (t != NIL) {
		if (key_below(as, &sp->nodes[t], k)) {
			t = sp->nodes[t].right;
		} else {
			best = t;
			t = sp->nodes[t].left;
		}
	}
	return best;
}

/* Drop the mappings of SP with keys from LO to below HI. */
static void
tree_drop(const struct addrspace *as, struct space *sp, const struct key *lo,
	  const struct key *hi)
{
	uint32_t a, b, mid, c;

	tree_split(as, sp->nodes, sp->root, lo, &a, &b);
	tree_split(as, sp->nodes, b, hi, &mid, &c);
	sp->n -= tree_release(sp, mid);
	sp->root = tree_merge(sp->nodes, a, c);
	sp->stale = true;
}

/* Room in SP for one more mapping: a node and a place in MAPS.  0, or -1
 * when out of memory. */
static int
space_reserve(struct space *sp)
{
	if (sp->free == NIL && sp->nnodes == sp->cap_nodes) {
		uint32_t nc = sp->cap_nodes ? sp->cap_nodes * 2 : 16;
		struct space_node *nn;

		if (sp->cap_nodes > UINT32_MAX / 4)
			return -1;
		nn = realloc(sp->nodes, (size_t)nc * sizeof(*nn));
		if (nn == NULL)
			return -1;
		sp->nodes = nn;
		sp->cap_nodes = nc;
	}
	if (sp->n == sp->cap) {
		size_t nc = sp->cap ? sp->cap * 2 : 16;
		uint32_t *nm = realloc(sp->maps, nc * sizeof(*nm));

		if (nm == NULL)
			return -1;
		sp->maps = nm;
		sp->cap = nc;
	}
	return 0;
}

/* Add mapping MAP to SP, which has room (space_reserve()). */
static void
tree_insert(struct addrspace *as, struct space *sp, uint32_t map)
{
	const struct mapping *m = &as->maps[map];
	struct key k = { m->start, m->end > m->start, map };
	uint32_t t, l, r;
	uint64_t x;

	if (sp->free != NIL) {
		t = sp->free;
		sp->free = sp->nodes[t].left;
	} else {
		t = sp->nnodes++;
	}
	/* xorshift64* */
	x = as->prio_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	as->prio_state = x;
	sp->nodes[t].start = m->start;
	sp->nodes[t].map = map;
	sp->nodes[t].left = sp->nodes[t].right = NIL;
	sp->nodes[t].prio = (uint32_t)((x * 0x2545f4914f6cdd1dULL) >> 32);
	tree_split(as, sp->nodes, sp->root, &k, &l, &r);
	sp->root = tree_merge(sp->nodes, tree_merge(sp->nodes, l, t), r);
	sp->n++;
	sp->stale = true;
}

/* The mappings of subtree T in key order, those indexed below MARK (or,
 * unless LOW, the others), into SP's MAPS from *K on. */
static void
tree_list(struct space *sp, uint32_t t, size_t mark, bool low, size_t *k)
{
	if (t == NIL)
		return;
	tree_list(sp, sp->nodes[t].left, mark, low, k);
	if ((sp->nodes[t].map < mark) == low)
		sp->maps[(*k)++] = sp->nodes[t].map;
	tree_list(sp, sp->nodes[t].right, mark, low, k);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * SP's MAPS made from its tree.  A space's list is what it would be had
 * each mapping been appended to it, the ones a new mapping overlaps
 * taken out, and the list sorted by start (a stable sort) when it was
 * looked up: the mappings indexed below SORT_MARK (the number of
 * mappings at the last lookup) by start, then the later ones in the
 * order they came.  At one start, the list has the mappings in the order
 * they came too, where the tree has the one that is not empty last.
 */
static void
space_list(const struct addrspace *as, struct space *sp)
{
	uint32_t *v = sp->maps;
	size_t i, j, k = 0, nlow;

	tree_list(sp, sp->root, sp->sort_mark, true, &k);
	for (i = 1; i < k; i++) {
		uint32_t x = v[i];
		uint64_t start = as->maps[x].start;

		for (j = i; j > 0 && v[j - 1] > x &&
			    as->maps[v[j - 1]].start == start; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	nlow = k;
	tree_list(sp, sp->root, sp->sort_mark, false, &k);
	if (k - nlow > 1)
		qsort(v + nlow, k - nlow, sizeof(*v), cmp_u32);
	sp->sorted = nlow == k;
	sp->stale = false;
}

/* SP emptied. */
static void
space_clear(struct space *sp)
{
	sp->n = 0;
	sp->root = sp->free = NIL;
	sp->nnodes = 0;
	sp->stale = true;
}

/* ---- processes and threads ---------------------------------------------- */

static void
addrspace_init(struct addrspace *as)
{
	memset(as, 0, sizeof(*as));
	as->prio_state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)as;
}

static void
addrspace_release(struct addrspace *as)
{
	size_t i;

	for (i = 0; i < as->nmaps; i++)
		free(as->maps[i].path);
	free(as->maps);
	for (i = 0; i < as->nspaces; i++) {
		free(as->spaces[i].maps);
		free(as->spaces[i].nodes);
	}
	free(as->spaces);
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

/* A new empty space for PID (copying space FROM unless UINT32_MAX);
 * its index, or UINT32_MAX when out of memory. */
static uint32_t
new_space(struct addrspace *as, int32_t pid, uint32_t from)
{
	struct space *sp;

	if (as->nspaces == as->cap_spaces) {
		size_t nc = as->cap_spaces ? as->cap_spaces * 2 : 64;
		struct space *ns = realloc(as->spaces, nc * sizeof(*ns));

		if (ns == NULL || nc > UINT32_MAX - 1) {
			free(ns == as->spaces ? NULL : ns);
			return UINT32_MAX;
		}
		as->spaces = ns;
		as->cap_spaces = nc;
	}
	sp = &as->spaces[as->nspaces];
	memset(sp, 0, sizeof(*sp));
	sp->pid = pid;
	space_clear(sp);
	if (from != UINT32_MAX && as->spaces[from].n > 0) {
		const struct space *f = &as->spaces[from];

		sp->maps = malloc(f->n * sizeof(*sp->maps));
		sp->nodes = malloc(f->nnodes * sizeof(*sp->nodes));
		if (sp->maps == NULL || sp->nodes == NULL) {
			free(sp->maps);
			free(sp->nodes);
			return UINT32_MAX;
		}
		memcpy(sp->nodes, f->nodes, f->nnodes * sizeof(*sp->nodes));
		sp->nnodes = sp->cap_nodes = f->nnodes;
		sp->root = f->root;
		sp->free = f->free;
		sp->sort_mark = f->sort_mark;
		sp->n = sp->cap = f->n;
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
		size_t nc = as->cap_procs ? as->cap_procs * 2 : 64;
		struct process *np = realloc(as->procs, nc * sizeof(*np));

		if (np == NULL)
			return NULL;
		as->procs = np;
		as->cap_procs = nc;
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
		size_t nc = as->cap_threads ? as->cap_threads * 2 : 64;
		struct thread *nt = realloc(as->threads, nc * sizeof(*nt));

		if (nt == NULL)
			return NULL;
		as->threads = nt;
		as->cap_threads = nc;
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

/* The current space of P, ready to change: a used space is first copied
 * (or, with EMPTY, replaced by an empty one).  NULL when out of memory. */
static struct space *
space_to_change(struct addrspace *as, struct process *p, bool empty)
{
	struct space *sp = &as->spaces[p->space];
	uint32_t sid;

	if (!sp->used) {
		if (empty)
			space_clear(sp);
		return sp;
	}
	sid = new_space(as, p->pid, empty ? UINT32_MAX : p->space);
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
		size_t nc = as->cap_maps ? as->cap_maps * 2 : 64;
		struct mapping *nm = realloc(as->maps, nc * sizeof(*nm));

		if (nm == NULL || nc > UINT32_MAX - 1)
			return -1;
		as->maps = nm;
		as->cap_maps = nc;
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

int
addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m)
{
	struct process *p;
	struct space *sp;
	struct key lo = { m->start, 1, 0 }, hi = { m->end, 0, 0 }, at;
	uint32_t below, from;
	bool crossed, inside;

	if (pid == -1 && is_kernel_path(m->path)) {
		/* perf names the kernel's text "[kernel.kallsyms]_text" (or
		 * "_stext"); the first one is the kernel proper, later ones
		 * with that prefix are modules. */
		if (as->have_kernel)
			return 0;
		as->kernel = *m;
		/* Old perf (3.x) wrote the kernel's mapping from 0, with the
		 * address of _stext as pgoff: the text starts there. */
		if (m->start < m->pgoff && m->pgoff < m->end)
			as->kernel.start = m->pgoff;
		/* ...and to the end of a 64-bit address space, also for a
		 * 32-bit kernel. */
		if (as->kernel.start < (1ULL << 32) &&
		    as->kernel.end > (1ULL << 32))
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
	p = addrspace_process(as, pid);
	if (p == NULL)
		return -1;
	sp = &as->spaces[p->space];
	/* What the new mapping overlaps: the one below its start that
	 * reaches past it (the last one there, if any, as the mappings do
	 * not overlap; not empty, as it reaches past its start), and those
	 * that start inside it, but for empty ones at its very start. */
	at.start = m->start;
	at.full = at.map = 0;
	below = tree_below(as, sp, &at);
	crossed = below != NIL && as->maps[sp->nodes[below].map].end > m->start;
	from = tree_from(as, sp, &lo);
	inside = from != NIL && sp->nodes[from].start < m->end;
	if (crossed || inside) {
		if (crossed) {
			at.start = sp->nodes[below].start;
			at.full = 1;
			at.map = sp->nodes[below].map;
		}
		sp = space_to_change(as, p, false);
		if (sp == NULL)
			return -1;
		/* Drop what the new mapping covers. */
		if (crossed) {
			struct key next = at;

			next.map++;
			tree_drop(as, sp, &at, &next);
		}
		if (inside)
			tree_drop(as, sp, &lo, &hi);
	}
	if (space_reserve(sp) < 0 || add_mapping(as, m, pid) < 0)
		return -1;
	tree_insert(as, sp, (uint32_t)(as->nmaps - 1));
	sp->sorted = false;
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
	if (pid == tid || p->comm[0] == '\0')
		memcpy(p->comm, t->comm, len + 1);
	if (exec && space_to_change(as, p, true) == NULL)
		return -1;
	return 0;
}

int
addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
	       int32_t tid, int32_t ptid)
{
	struct thread *pt, *t;
	struct process *parent, *child;
	char comm[32] = "";
	uint32_t sid;

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
	 * perf does not send again. */
	sid = new_space(as, pid, parent->space);
	if (sid == UINT32_MAX)
		return -1;
	addrspace_find(as, pid)->space = sid;
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

const struct mapping *
addrspace_resolve(struct addrspace *as, uint32_t sid, uint64_t addr)
{
	struct space *sp = &as->spaces[sid];
	size_t lo = 0, hi;

	if (!sp->sorted || sp->stale) {
		/* The list sorted by start, as it is from now on. */
		sp->sort_mark = as->nmaps;
		space_list(as, sp);
	}
	/* The last mapping that starts at or below ADDR (they do not
	 * overlap). */
	hi = sp->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (as->maps[sp->maps[mid]].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	if (addr < as->maps[sp->maps[lo - 1]].end)
		return &as->maps[sp->maps[lo - 1]];
	return NULL;
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

const struct space *
addrspace_space(struct addrspace *as, uint32_t sid)
{
	struct space *sp = &as->spaces[sid];

	if (sp->stale)
		space_list(as, sp);
	return sp;
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
