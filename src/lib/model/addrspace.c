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
	uint32_t root;		/* its tree of mappings (below) */
	uint32_t owner;		/* of the nodes it may change */
	uint32_t sort_mark;	/* addrspace_walk_space()'s order */
	bool used;		/* samples refer to it: copy on change */
	char comm[32];		/* the process's name while the space was
				   its own (the last one then) */
};

/* What addrspace_walk_space() lists, with its place in the order. */
struct walk_item {
	uint64_t start;
	uint32_t map;
	uint32_t late;		/* 1: not below the space's sort_mark */
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
	struct node *nodes;	/* the nodes of every space's tree */
	size_t nnodes, cap_nodes, nfree;
	uint32_t free;		/* the first free node, or NIL */
	uint32_t owners;	/* the last owner number given */
	uint64_t seed;		/* of the nodes' priorities */
	/* addrspace_walk_space()'s: the walk's number and, for each node,
	 * the walk that saw it last (shifted left by one) and whether its
	 * subtree holds a mapping that is listed every time (bit 0). */
	uint32_t walk;
	uint32_t *seen;
	size_t cap_seen;
	struct walk_item *items;
	uint32_t *listed;
	size_t cap_items;
	struct mapping kernel;	/* the kernel's text mapping */
	bool have_kernel;
	struct kernel_text text;	/* of KERNEL, for the hot paths */
};

/* ---- the mappings of a space, by address --------------------------------- */

/*
 * The mappings of a space are in a treap (a search tree that random
 * priorities keep balanced), so that an MMAP finds the mappings it
 * replaces, and a lookup its mapping, in logarithmic time.  The mappings
 * of a space never overlap (each new one drops what it covers of those
 * it overlaps, which keep the rest as new mappings), so that a search
 * looks at most at one mapping below an address.  The key
 * is (start, not empty, index): an empty mapping (start == end) overlaps
 * none that starts where it does, so several can share a start with one
 * that is not empty; that one comes last.  A node's priority is a hash of
 * its mapping's index, seeded per addrspace.
 *
 * The trees are persistent: a space made from another (a forked process,
 * or a used space that changes) starts with the other's root, and the two
 * share every node.  A node belongs to one owner number, that of the
 * space that made it; a space changes its own nodes in place and copies
 * the others on the way to a change (path copying), so that a fork costs
 * no copy, and a change of a shared tree a path of it.  A space whose
 * tree another space comes to share takes a new owner number: its nodes
 * stay as they are from then on.  The nodes a space drops that are its
 * own go to a free list; shared ones stay (the memory is that of the
 * nodes ever made: a few per record).
 */
#define NIL UINT32_MAX

struct node {
	uint64_t start;
	uint32_t map;		/* index into addrspace.maps */
	uint32_t left, right;	/* nodes, or NIL; a free node's next free
				   one is its LEFT */
	uint32_t owner;		/* the space that may change it */
};

struct key {
	uint64_t start;
	uint32_t full;		/* 1: the mapping is not empty */
	uint32_t map;
};

/* The priority of node T: a hash (splitmix64's) of its mapping's index
 * and the seed, so that the copies of a node agree. */
static inline uint64_t
prio(const struct addrspace *as, uint32_t t)
{
	uint64_t x = as->seed + as->nodes[t].map * 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Node T's key below K. */
static inline bool
key_below(const struct addrspace *as, uint32_t t, const struct key *k)
{
	const struct node *n = &as->nodes[t];
	uint32_t full;

	if (n->start != k->start)
		return n->start < k->start;
	full = as->maps[n->map].end > n->start;
	if (full != k->full)
		return full < k->full;
	return n->map < k->map;
}

/* Room for N new nodes, so that the tree operations that follow cannot
 * fail half done.  0, or -1 when out of memory. */
static int
nodes_reserve(struct addrspace *as, size_t n)
{
	size_t nc;
	struct node *nn;

	if (as->nfree + (as->cap_nodes - as->nnodes) >= n)
		return 0;
	nc = as->cap_nodes ? as->cap_nodes : 64;
	while (as->nfree + (nc - as->nnodes) < n)
		nc *= 2;
	if (nc >= NIL)
		return -1;
	nn = realloc(as->nodes, nc * sizeof(*nn));
	if (nn == NULL)
		return -1;
	as->nodes = nn;
	as->cap_nodes = nc;
	return 0;
}

/* A node from the room reserved. */
static uint32_t
node_new(struct addrspace *as)
{
	uint32_t t = as->free;

	if (t != NIL) {
		as->free = as->nodes[t].left;
		as->nfree--;
		return t;
	}
	return (uint32_t)as->nnodes++;
}

/* Node T as OWNER may change it: T if it is OWNER's, else a copy. */
static uint32_t
node_own(struct addrspace *as, uint32_t t, uint32_t owner)
{
	uint32_t c;

	if (as->nodes[t].owner == owner)
		return t;
	c = node_new(as);
	as->nodes[c] = as->nodes[t];
	as->nodes[c].owner = owner;
	return c;
}

/* The nodes on the way from T down to where key K is or would go: the
 * most that splitting T at K copies. */
static size_t
tree_path(const struct addrspace *as, uint32_t t, const struct key *k)
{
	size_t n = 0;

	for (; t != NIL; n++)
		t = key_below(as, t, k) ? as->nodes[t].right
					: as->nodes[t].left;
	return n;
}

/* Subtree T split, for OWNER, into the keys below K (*L) and the others
 * (*R); room for tree_path() nodes must be there. */
static void
tree_split(struct addrspace *as, uint32_t owner, uint32_t t,
	   const struct key *k, uint32_t *l, uint32_t *r)
{
	uint32_t a, b;

	if (t == NIL) {
		*l = *r = NIL;
		return;
	}
	t = node_own(as, t, owner);
	if (key_below(as, t, k)) {
		tree_split(as, owner, as->nodes[t].right, k, &a, &b);
		as->nodes[t].right = a;
		*l = t;
		*r = b;
	} else {
		tree_split(as, owner, as->nodes[t].left, k, &a, &b);
		as->nodes[t].left = b;
		*l = a;
		*r = t;
	}
}

/* Subtrees A and B (every key of A below every key of B) as one, for
 * OWNER.  The nodes it changes are the right edge of A and the left edge
 * of B, which are OWNER's after a split (tree_split() made them so). */
static uint32_t
tree_merge(struct addrspace *as, uint32_t owner, uint32_t a, uint32_t b)
{
	uint32_t t;

	if (a == NIL)
		return b;
	if (b == NIL)
		return a;
	if (prio(as, a) >= prio(as, b)) {
		a = node_own(as, a, owner);
		t = tree_merge(as, owner, as->nodes[a].right, b);
		as->nodes[a].right = t;
		return a;
	}
	b = node_own(as, b, owner);
	t = tree_merge(as, owner, a, as->nodes[b].left);
	as->nodes[b].left = t;
	return b;
}

/* The nodes of subtree T that OWNER owns onto the free list.  Below a
 * node of another owner, none is OWNER's: a node is copied before its
 * links change. */
static void
tree_release(struct addrspace *as, uint32_t owner, uint32_t t)
{
	if (t == NIL || as->nodes[t].owner != owner)
		return;
	tree_release(as, owner, as->nodes[t].left);
	tree_release(as, owner, as->nodes[t].right);
	as->nodes[t].left = as->free;
	as->free = t;
	as->nfree++;
}

/* The node of SP with the greatest key below K, or NIL. */
static uint32_t
tree_below(const struct addrspace *as, const struct space *sp,
	   const struct key *k)
{
	uint32_t t = sp->root, best = NIL;

	while (t != NIL) {
		if (key_below(as, t, k)) {
			best = t;
			t = as->nodes[t].right;
		} else {
			t = as->nodes[t].left;
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
		if (key_below(as, t, k)) {
			t = as->nodes[t].right;
		} else {
			best = t;
			t = as->nodes[t].left;
		}
	}
	return best;
}

/* Drop the mappings of SP with keys from LO to below HI.  0, or -1 when
 * out of memory (SP is as it was). */
static int
tree_drop(struct addrspace *as, struct space *sp, const struct key *lo,
	  const struct key *hi)
{
	uint32_t a, b, mid, c;

	/* Each split copies at most its path (the second one's, in B, is
	 * part of HI's in the whole tree); the merges join edges the
	 * splits copied.  Twice that, to be safe. */
	if (nodes_reserve(as, 2 * (tree_path(as, sp->root, lo) +
				   tree_path(as, sp->root, hi))) < 0)
		return -1;
	tree_split(as, sp->owner, sp->root, lo, &a, &b);
	tree_split(as, sp->owner, b, hi, &mid, &c);
	tree_release(as, sp->owner, mid);
	sp->root = tree_merge(as, sp->owner, a, c);
	return 0;
}

/* Add mapping MAP to SP.  0, or -1 when out of memory. */
static int
tree_insert(struct addrspace *as, struct space *sp, uint32_t map)
{
	const struct mapping *m = &as->maps[map];
	struct key k = { m->start, m->end > m->start, map };
	uint32_t t, l, r;

	if (nodes_reserve(as, 2 * tree_path(as, sp->root, &k) + 1) < 0)
		return -1;
	t = node_new(as);
	as->nodes[t].start = m->start;
	as->nodes[t].map = map;
	as->nodes[t].left = as->nodes[t].right = NIL;
	as->nodes[t].owner = sp->owner;
	tree_split(as, sp->owner, sp->root, &k, &l, &r);
	sp->root = tree_merge(as, sp->owner,
			      tree_merge(as, sp->owner, l, t), r);
	return 0;
}

/* A new owner number for SP: the nodes it has are shared from now on.
 * 0, or -1 when the numbers have run out. */
static int
space_share(struct addrspace *as, struct space *sp)
{
	if (as->owners == UINT32_MAX)
		return -1;
	sp->owner = ++as->owners;
	return 0;
}

/* SP emptied. */
static void
space_clear(struct addrspace *as, struct space *sp)
{
	tree_release(as, sp->owner, sp->root);
	sp->root = NIL;
}

/* ---- processes and threads ---------------------------------------------- */

static void
addrspace_init(struct addrspace *as)
{
	memset(as, 0, sizeof(*as));
	as->free = NIL;
	/* Priorities no input can foresee: a tree that inputs could make
	 * deep would make the work quadratic (and the recursion deep). */
	as->seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)as;
}

static void
addrspace_release(struct addrspace *as)
{
	size_t i;

	for (i = 0; i < as->nmaps; i++)
		free(as->maps[i].path);
	free(as->maps);
	free(as->spaces);
	free(as->nodes);
	free(as->seen);
	free(as->items);
	free(as->listed);
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
		size_t nc = as->cap_spaces ? as->cap_spaces * 2 : 64;
		struct space *ns;

		if (nc > UINT32_MAX - 1)
			return UINT32_MAX;
		ns = realloc(as->spaces, nc * sizeof(*ns));
		if (ns == NULL)
			return UINT32_MAX;
		as->spaces = ns;
		as->cap_spaces = nc;
	}
	sp = &as->spaces[as->nspaces];
	memset(sp, 0, sizeof(*sp));
	sp->pid = pid;
	sp->root = NIL;
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

/* The current space of P, ready to change: a used space gives way to a
 * new one that shares its mappings (or, with EMPTY, to an empty one).
 * NULL when out of memory. */
static struct space *
space_to_change(struct addrspace *as, struct process *p, bool empty)
{
	struct space *sp = &as->spaces[p->space];
	uint32_t sid;

	if (!sp->used) {
		if (empty)
			space_clear(as, sp);
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
		struct mapping *nm;

		if (nc >= NIL)
			return -1;
		nm = realloc(as->maps, nc * sizeof(*nm));

		if (nm == NULL)
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
	return tree_insert(as, sp, (uint32_t)(as->nmaps - 1));
}

int
addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m)
{
	struct process *p;
	struct space *sp;
	struct key lo = { m->start, 1, 0 }, hi = { m->end, 0, 0 }, at;
	struct mapping before, after;
	uint32_t below, from, last;
	bool crossed, inside, beyond;

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
	 * that start inside it, but for empty ones at its very start.  The
	 * last one that starts below its end may reach past that. */
	at.start = m->start;
	at.full = at.map = 0;
	below = tree_below(as, sp, &at);
	crossed = below != NIL && as->maps[as->nodes[below].map].end > m->start;
	from = tree_from(as, sp, &lo);
	inside = from != NIL && as->nodes[from].start < m->end;
	last = tree_below(as, sp, &hi);
	beyond = last != NIL && as->maps[as->nodes[last].map].end > m->end &&
		 (crossed || inside);
	if (crossed || inside) {
		/* As perf does, the mappings overlapped keep the parts the
		 * new one does not cover: the part below it and the part
		 * above it, each a mapping of its own. */
		if (crossed)
			before = as->maps[as->nodes[below].map];
		if (beyond)
			after = as->maps[as->nodes[last].map];
		if (crossed) {
			at.start = as->nodes[below].start;
			at.full = 1;
			at.map = as->nodes[below].map;
		}
		sp = space_to_change(as, p, false);
		if (sp == NULL)
			return -1;
		/* Drop what the new mapping covers. */
		if (crossed) {
			struct key next = at;

			next.map++;
			if (tree_drop(as, sp, &at, &next) < 0)
				return -1;
		}
		if (inside && tree_drop(as, sp, &lo, &hi) < 0)
			return -1;
	}
	if (add_mapping(as, m, pid) < 0 ||
	    tree_insert(as, sp, (uint32_t)(as->nmaps - 1)) < 0)
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
	if (pid == tid || p->comm[0] == '\0')
		memcpy(p->comm, t->comm, len + 1);
	/* The old mappings stay until MMAPs replace them (addrspace.h) */
	if (exec && space_to_change(as, p, false) == NULL)
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
addrspace_space_comm(const struct addrspace *as, uint32_t sid)
{
	return as->spaces[sid].comm;
}

const struct mapping *
addrspace_resolve(struct addrspace *as, uint32_t sid, uint64_t addr)
{
	struct space *sp = &as->spaces[sid];
	struct key k = { addr, 1, UINT32_MAX };
	uint32_t t, e;
	const struct mapping *m;

	/* The mappings there are now come in start order in the walks. */
	sp->sort_mark = (uint32_t)as->nmaps;
	/* The last mapping that starts at or below ADDR (they do not
	 * overlap), the one that is not empty if any. */
	t = tree_below(as, sp, &k);
	if (t == NIL)
		return NULL;
	m = &as->maps[as->nodes[t].map];
	/* ...unless an empty one at its start came after it: the answer
	 * is the last mapping to come at that start, as it has always
	 * been. */
	k.start = m->start;
	k.map = 0;
	e = tree_below(as, sp, &k);
	if (e != NIL && as->nodes[e].start == m->start &&
	    as->nodes[e].map > as->nodes[t].map)
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

/*
 * A walk lists the mappings of the spaces it is asked for, each once:
 * the layout of a profile wants every executable mapping of every space
 * with samples, and spaces share most of their mappings (the forks of a
 * process; the spaces of one process, one for each change after a
 * sample), so that listing each in full would take time (and a list of
 * each space, memory) of the spaces times their mappings.  A subtree
 * seen before in the walk is the same (the trees change no more while it
 * lasts) and is skipped, but for the mappings the caller wants every
 * time, which the marks say where to find.
 */

int
addrspace_walk_begin(struct addrspace *as)
{
	if (as->cap_seen < as->nnodes) {
		uint32_t *ns = realloc(as->seen, as->nnodes * sizeof(*ns));

		if (ns == NULL)
			return -1;
		memset(ns + as->cap_seen, 0,
		       (as->nnodes - as->cap_seen) * sizeof(*ns));
		as->seen = ns;
		as->cap_seen = as->nnodes;
	}
	if (as->walk == UINT32_MAX >> 1) {
		memset(as->seen, 0, as->cap_seen * sizeof(*as->seen));
		as->walk = 0;
	}
	as->walk++;
	return 0;
}

/* Room for one more item in AS's list.  0, or -1 when out of memory. */
static int
walk_reserve(struct addrspace *as, size_t n)
{
	size_t nc;
	struct walk_item *ni;
	uint32_t *nl;

	if (n < as->cap_items)
		return 0;
	nc = as->cap_items ? 2 * as->cap_items : 64;
	ni = realloc(as->items, nc * sizeof(*ni));
	if (ni == NULL)
		return -1;
	as->items = ni;
	nl = realloc(as->listed, nc * sizeof(*nl));
	if (nl == NULL)
		return -1;
	as->listed = nl;
	as->cap_items = nc;
	return 0;
}

/* The executable mappings of subtree T onto the list from *N on: those
 * first seen in this walk and those that EVERY says to list always.  1
 * if the subtree holds one of the latter, 0 if not, -1 when out of
 * memory. */
static int
walk_tree(struct addrspace *as, uint32_t t, uint32_t mark,
	  bool (*every)(const struct mapping *), size_t *n)
{
	const struct mapping *m;
	bool seen, always;
	int l, r;

	if (t == NIL)
		return 0;
	seen = t < as->cap_seen && as->seen[t] >> 1 == as->walk;
	if (seen && !(as->seen[t] & 1))
		return 0;
	m = &as->maps[as->nodes[t].map];
	always = m->exec && every(m);
	l = walk_tree(as, as->nodes[t].left, mark, every, n);
	if (l < 0)
		return -1;
	if (m->exec && (!seen || always)) {
		if (walk_reserve(as, *n) < 0)
			return -1;
		as->items[*n].start = m->start;
		as->items[*n].map = as->nodes[t].map;
		as->items[*n].late = as->nodes[t].map >= mark;
		(*n)++;
	}
	r = walk_tree(as, as->nodes[t].right, mark, every, n);
	if (r < 0)
		return -1;
	if (t < as->cap_seen)
		as->seen[t] = as->walk << 1 | (l || r || always);
	return l || r || always;
}

/* The order of a space's list: the mappings below its sort mark by start
 * (then as they came), then the others as they came. */
static int
cmp_items(const void *a, const void *b)
{
	const struct walk_item *x = a, *y = b;

	if (x->late != y->late)
		return x->late < y->late ? -1 : 1;
	if (!x->late && x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->map < y->map ? -1 : x->map > y->map;
}

int
addrspace_walk_space(struct addrspace *as, uint32_t sid,
		     bool (*every)(const struct mapping *),
		     const uint32_t **maps, size_t *n)
{
	const struct space *sp = &as->spaces[sid];
	size_t i, k = 0;

	*maps = NULL;
	*n = 0;
	if (walk_tree(as, sp->root, sp->sort_mark, every, &k) < 0)
		return -1;
	if (k == 0)
		return 0;
	qsort(as->items, k, sizeof(*as->items), cmp_items);
	for (i = 0; i < k; i++)
		as->listed[i] = as->items[i].map;
	*maps = as->listed;
	*n = k;
	return 0;
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
