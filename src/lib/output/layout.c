/* SPDX-License-Identifier: MIT */
/* The address space of the profile: see layout.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildids.h"
#include "guards.h"
#include "hashtab.h"
#include "layout.h"

#define PROT_READ_ 1
#define PROT_WRITE_ 2

/* Relocated places go from here up, each at a multiple of the step. */
#define RELOC_BASE64 0x100000000000ULL
#define RELOC_STEP64 (1ULL << 30)
#define RELOC_BASE32 0x40000000ULL
#define RELOC_STEP32 (1ULL << 24)

struct segment {
	uint64_t pgoff, len;
	const struct mapping *m;	/* for dev, inode and prot */
};

struct place {
	char *key;
	const struct mapping *m;	/* a mapping of it: path */
	uint8_t build_id_size;
	const uint8_t *build_id;
	uint64_t lo, hi;		/* file offsets it covers */
	uint64_t pref;			/* native base: start - pgoff */
	uint64_t base;
	uint64_t samples;
	struct segment *segs;
	size_t nsegs, cap_segs;
	bool relocated;
};

struct lay {
	struct addrspace *as;
	const struct layout_opts *o;
	struct place *places;
	size_t nplaces, cap_places;
	struct hashtab index;		/* of places, by key */
	struct buildids bids;		/* of o->info */
	uint32_t *map_place;		/* mapping index -> place + 1 */
	const struct mapping *last;	/* the last mapping resolved, */
	uint32_t last_sid;		/* in this space */
	uint64_t *unmapped;		/* user frames in no mapping, as
					   pprof looks them up (guards.h) */
	size_t nunmapped, cap_unmapped;
	uint32_t ksid;			/* the kernel's space (pid -1), */
	bool have_ksid;			/* if the file has one */
	bool *module;			/* mapping index -> a module (a
					   mapping of pid -1) with frames */
	size_t nmodules;
};

/* Anonymous memory, JIT code and the kernel's special mappings: these
 * belong to their process, whatever their name. */
static bool
is_anon(const char *path)
{
	return path[0] == '\0' || path[0] == '[' ||
	       strncmp(path, "//anon", 6) == 0 ||
	       strncmp(path, "/anon_hugepage", 14) == 0 ||
	       strncmp(path, "/memfd:", 7) == 0 ||
	       strncmp(path, "/tmp/perf-", 10) == 0;
}

static bool
is_anon_mapping(const struct mapping *m)
{
	return is_anon(m->path);
}

/* The build id of M: its own (MMAP2), else the file's in the header. */
static void
build_id_of(const struct lay *l, const struct mapping *m, uint8_t *size,
	    const uint8_t **id)
{
	if (m->build_id_size > 0) {
		*size = m->build_id_size;
		*id = m->build_id;
		return;
	}
	buildids_find(&l->bids, m->path, size, id);
}

/* The place of mapping M seen in space SID, created if new; NULL when
 * out of memory. */
static struct place *
place_of(struct lay *l, const struct mapping *m, uint32_t sid)
{
	size_t mi = (size_t)(m - addrspace_map(l->as, 0));
	uint8_t bsize;
	const uint8_t *bid;
	char *key;
	size_t klen, k;
	struct hashtab_iter it;
	struct place *p;
	uint32_t i;
	bool anon;

	if (l->map_place[mi] != 0)
		return &l->places[l->map_place[mi] - 1];
	anon = is_anon(m->path);
	build_id_of(l, m, &bsize, &bid);
	klen = strlen(m->path) + 2 * 20 + 40;
	key = malloc(klen);
	if (key == NULL)
		return NULL;
	if (anon) {
		snprintf(key, klen, "A%d:%llx:",
			 addrspace_space_pid(l->as, sid),
			 (unsigned long long)(m->start - m->pgoff));
	} else {
		key[0] = 'F';
		for (k = 0; k < bsize; k++)
			snprintf(key + 1 + 2 * k, 3, "%02x", bid[k]);
		key[1 + 2 * bsize] = ':';
		key[2 + 2 * bsize] = '\0';
		/* One process: the file where it was mapped, so each of the
		 * process's address spaces keeps its own addresses. */
		if (l->o->per_space)
			snprintf(key + 2 + 2 * bsize, klen - 2 - 2 * bsize,
				 "%llx:",
				 (unsigned long long)(m->start - m->pgoff));
	}
	strcat(key, m->path);
	if (hashtab_reserve(&l->index, l->nplaces + 1) < 0)
		goto nomem;
	for (i = hashtab_probe(&l->index, hashtab_hash_str(key), &it);
	     i != HASHTAB_NONE; i = hashtab_next(&l->index, &it)) {
		p = &l->places[i];
		if (strcmp(p->key, key) == 0) {
			free(key);
			if (!anon)
				l->map_place[mi] = i + 1;
			return p;
		}
	}
	if (l->nplaces == l->cap_places) {
		size_t nc = l->cap_places ? l->cap_places * 2 : 64;
		struct place *np = realloc(l->places, nc * sizeof(*np));

		if (np == NULL)
			goto nomem;
		l->places = np;
		l->cap_places = nc;
	}
	p = &l->places[l->nplaces];
	memset(p, 0, sizeof(*p));
	p->key = key;
	p->m = m;
	p->build_id_size = bsize;
	p->build_id = bid;
	p->pref = m->start - m->pgoff;
	p->lo = UINT64_MAX;
	hashtab_insert(&l->index, &it, (uint32_t)l->nplaces++);
	if (!anon)
		l->map_place[mi] = (uint32_t)l->nplaces;
	return p;
nomem:
	free(key);
	return NULL;
}

/* Record that place P holds mapping M (one segment of its file). */
static int
add_segment(struct place *p, const struct mapping *m)
{
	uint64_t len = m->end - m->start;
	size_t i;

	for (i = 0; i < p->nsegs; i++)
		if (p->segs[i].pgoff == m->pgoff) {
			if (len > p->segs[i].len)
				p->segs[i].len = len;
			goto extent;
		}
	if (p->nsegs == p->cap_segs) {
		size_t nc = p->cap_segs ? p->cap_segs * 2 : 4;
		struct segment *ns = realloc(p->segs, nc * sizeof(*ns));

		if (ns == NULL)
			return -1;
		p->segs = ns;
		p->cap_segs = nc;
	}
	p->segs[p->nsegs].pgoff = m->pgoff;
	p->segs[p->nsegs].len = len;
	p->segs[p->nsegs].m = m;
	p->nsegs++;
extent:
	if (m->pgoff < p->lo)
		p->lo = m->pgoff;
	if (m->pgoff + len > p->hi)
		p->hi = m->pgoff + len;
	return 0;
}

/* Note the user frame at ADDR, DEPTH in its stack, in no mapping: pprof
 * looks a return address up less 1, and a leaf may get copies below it
 * (fixup.h).  0, or -1 when out of memory. */
static int
note_unmapped(struct lay *l, uint64_t addr, uint32_t depth)
{
	uint64_t a = addr - 1;
	int i;

	for (i = depth == 0 ? 0 : 1; i < 2; i++, a++) {
		if (l->nunmapped > 0 && l->unmapped[l->nunmapped - 1] == a)
			continue;
		if (l->nunmapped == l->cap_unmapped) {
			size_t nc = l->cap_unmapped ? 2 * l->cap_unmapped : 64;
			uint64_t *nv = realloc(l->unmapped, nc * sizeof(*nv));

			if (nv == NULL)
				return -1;
			l->unmapped = nv;
			l->cap_unmapped = nc;
		}
		l->unmapped[l->nunmapped++] = a;
	}
	return 0;
}

/* The search, remembering its answer for resolve(). */
static const struct mapping *
resolve_slow(struct lay *l, uint32_t sid, uint64_t addr)
{
	const struct mapping *m = addrspace_resolve(l->as, sid, addr);

	if (m != NULL) {
		l->last = m;
		l->last_sid = sid;
	}
	return m;
}

/* The mapping of space SID that holds ADDR, or NULL.  The frames of a
 * stack mostly fall in one file, so the last answer is tried first
 * (the mappings of a space do not overlap), inline: it is asked twice
 * for every frame of every stack. */
static inline const struct mapping *
resolve(struct lay *l, uint32_t sid, uint64_t addr)
{
	const struct mapping *m = l->last;

	if (m != NULL && l->last_sid == sid && addr >= m->start &&
	    addr < m->end)
		return m;
	return resolve_slow(l, sid, addr);
}

/* Note the kernel module (a mapping of pid -1 other than the kernel's
 * text, which the kernel's line covers) that holds kernel frame ADDR, if
 * any, as one with frames: it gets a line of its own. */
static void
note_module(struct lay *l, uint64_t addr)
{
	const struct mapping *km = addrspace_kernel(l->as);
	const struct mapping *m;
	size_t mi;

	if (!l->have_ksid ||
	    (km != NULL && addr >= km->start && addr < km->end))
		return;
	m = resolve(l, l->ksid, addr);
	if (m == NULL)
		return;
	mi = (size_t)(m - addrspace_map(l->as, 0));
	if (!l->module[mi]) {
		l->module[mi] = true;
		l->nmodules++;
	}
}

/* ---- choosing the bases ------------------------------------------------ */

struct range {
	uint64_t lo, hi;
};

/*
 * The address ranges taken, kept disjoint and sorted (touching or
 * overlapping ones merged), in a treap (a search tree that random
 * priorities keep balanced), so that a lookup and a new range take
 * logarithmic time: a scan of every range for every candidate made the
 * layout quadratic in places, and so did a sorted array, whose every
 * insertion moved the ranges above it.  As the ranges are disjoint,
 * their ends are in the order of their starts too.
 */
#define NIL UINT32_MAX

struct range_node {
	struct range r;
	uint32_t left, right, prio;
};

struct ranges {
	struct range_node *v;	/* room for every range ever taken */
	uint32_t root, n;
	uint64_t state;		/* for the priorities */
};

/* Subtree T split into the ranges that end at or below KEY (*L; with
 * BY_LO, those that start at or below it) and the others (*R). */
static void
ranges_split(struct range_node *v, uint32_t t, uint64_t key, bool by_lo,
	     uint32_t *l, uint32_t *r)
{
	if (t == NIL) {
		*l = *r = NIL;
	} else if ((by_lo ? v[t].r.lo : v[t].r.hi) <= key) {
		*l = t;
		ranges_split(v, v[t].right, key, by_lo, &v[t].right, r);
	} else {
		*r = t;
		ranges_split(v, v[t].left, key, by_lo, l, &v[t].left);
	}
}

static uint32_t
ranges_merge(struct range_node *v, uint32_t a, uint32_t b)
{
	if (a == NIL)
		return b;
	if (b == NIL)
		return a;
	if (v[a].prio >= v[b].prio) {
		v[a].right = ranges_merge(v, v[a].right, b);
		return a;
	}
	v[b].left = ranges_merge(v, a, v[b].left);
	return b;
}

/* The first range that ends after LO, or NULL. */
static const struct range *
ranges_after(const struct ranges *u, uint64_t lo)
{
	uint32_t t = u->root, best = NIL;

	while (t != NIL) {
		if (u->v[t].r.hi > lo) {
			best = t;
			t = u->v[t].left;
		} else {
			t = u->v[t].right;
		}
	}
	return best != NIL ? &u->v[best].r : NULL;
}

/* A range taken that overlaps [LO, HI), or NULL. */
static const struct range *
overlapping(const struct ranges *u, uint64_t lo, uint64_t hi)
{
	const struct range *r = ranges_after(u, lo);

	return r != NULL && r->lo < hi ? r : NULL;
}

/* Take [LO, HI) (room for one more range must be there). */
static void
ranges_take(struct ranges *u, uint64_t lo, uint64_t hi)
{
	uint32_t a, b, mid, c, t;
	uint64_t x;

	if (lo >= hi)
		return;
	/* The ranges in MID touch or overlap [lo, hi): they become one.
	 * Their nodes are not used again: each range taken makes at most
	 * one node. */
	if (lo > 0)
		ranges_split(u->v, u->root, lo - 1, false, &a, &b);
	else
		a = NIL, b = u->root;
	ranges_split(u->v, b, hi, true, &mid, &c);
	if (mid != NIL) {
		for (t = mid; u->v[t].left != NIL; t = u->v[t].left)
			;
		if (u->v[t].r.lo < lo)
			lo = u->v[t].r.lo;
		for (t = mid; u->v[t].right != NIL; t = u->v[t].right)
			;
		if (u->v[t].r.hi > hi)
			hi = u->v[t].r.hi;
	}
	/* xorshift64* */
	x = u->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	u->state = x;
	t = u->n++;
	u->v[t].r.lo = lo;
	u->v[t].r.hi = hi;
	u->v[t].left = u->v[t].right = NIL;
	u->v[t].prio = (uint32_t)((x * 0x2545f4914f6cdd1dULL) >> 32);
	u->root = ranges_merge(u->v, ranges_merge(u->v, a, t), c);
}

static int
cmp_place_samples(const void *a, const void *b)
{
	const struct place *x = *(const struct place *const *)a;
	const struct place *y = *(const struct place *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pref < y->pref ? -1 : x->pref > y->pref;
}

static size_t
nsegs_total(const struct lay *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nplaces; i++)
		n += l->places[i].nsegs;
	return n;
}

static int
assign_bases(struct lay *l, struct layout_stats *st, struct p2g_error *err)
{
	struct place **order;
	struct ranges used;
	size_t i, n = 0, nranges;
	uint64_t limit = l->o->slot_bytes == 4 ? (1ULL << 32) : UINT64_MAX;
	uint64_t rbase = l->o->slot_bytes == 4 ? RELOC_BASE32 : RELOC_BASE64;
	uint64_t rstep = l->o->slot_bytes == 4 ? RELOC_STEP32 : RELOC_STEP64;
	uint64_t first[2] = { rbase, rbase };
	unsigned w;
	int ret = 0;

	order = malloc((l->nplaces + 1) * sizeof(*order));
	used.n = 0;
	used.root = NIL;
	used.state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&used;
	nranges = nsegs_total(l) + l->nplaces + l->nmodules + 2;
	used.v = nranges < UINT32_MAX ? malloc(nranges * sizeof(*used.v))
				      : NULL;
	if (order == NULL || used.v == NULL) {
		ret = p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto out;
	}
	if (addrspace_kernel(l->as) != NULL)
		ranges_take(&used, addrspace_kernel(l->as)->start,
			    addrspace_kernel(l->as)->end);
	for (i = 0; i < addrspace_nmaps(l->as) && l->nmodules > 0; i++)
		if (l->module[i])
			ranges_take(&used, addrspace_map(l->as, i)->start,
				    addrspace_map(l->as, i)->end);
	for (i = 0; i < l->nplaces; i++)
		order[n++] = &l->places[i];
	qsort(order, n, sizeof(*order), cmp_place_samples);
	/* Native addresses first, most samples first (a place fits when
	 * each of its segments does: other mappings may sit in the gaps
	 * between them)... */
	for (i = 0; i < n; i++) {
		struct place *p = order[i];
		size_t k;
		bool fits = true;

		for (k = 0; k < p->nsegs && fits; k++) {
			uint64_t lo = p->pref + p->segs[k].pgoff;
			uint64_t hi = lo + p->segs[k].len;

			fits = hi >= lo && hi <= limit &&
			       overlapping(&used, lo, hi) == NULL;
		}
		if (!fits) {
			p->relocated = true;
			continue;
		}
		p->base = p->pref;
		for (k = 0; k < p->nsegs; k++) {
			uint64_t lo = p->pref + p->segs[k].pgoff;

			ranges_take(&used, lo, lo + p->segs[k].len);
		}
	}
	/* ...then the places that collided, where there is room: at the
	 * lowest step from RBASE on where each fits. */
	for (i = 0; i < n; i++) {
		struct place *p = order[i];
		uint64_t cand, size = p->hi - p->lo;

		if (!p->relocated)
			continue;
		/* The steps below FIRST[1] are in a range taken, where no
		 * place of some size can start, and stay so: ranges only
		 * grow.  (An empty place can start where a range does: the
		 * steps below FIRST[0] are inside one.)  Moving FIRST up,
		 * rather than searching from RBASE each time, makes
		 * relocating many places linear, not quadratic. */
		w = size > 0;
		for (;;) {
			const struct range *r = overlapping(&used, first[w],
							    first[w] + w);

			if (r == NULL)
				break;
			first[w] = (r->hi + rstep - 1) / rstep * rstep;
			if (first[w] < r->hi)
				first[w] = UINT64_MAX;	/* overflow */
		}
		cand = first[w];
		/* Past each range in the way, to the next step. */
		for (;;) {
			const struct range *r = NULL;

			if (cand + size < cand || cand + size > limit)
				break;
			r = overlapping(&used, cand, cand + size);
			if (r == NULL)
				break;
			cand = (r->hi + rstep - 1) / rstep * rstep;
			if (cand < r->hi)
				cand = UINT64_MAX;	/* overflow: no room */
		}
		if (cand + size < cand || cand + size > limit) {
			/* Nowhere to go: keep its own addresses, where pprof
			 * may take some frames for another place's. */
			p->base = p->pref;
			p->relocated = false;
			st->collisions++;
			continue;
		}
		p->base = cand - p->lo;
		ranges_take(&used, cand, cand + size);
		st->relocated++;
	}
out:
	free(order);
	free(used.v);
	return ret;
}

/* ---- the maps text ------------------------------------------------------ */

/* The path as the kernel prints it in /proc/PID/maps: a newline, which a
 * file name may hold, becomes "\012" so that the line stays one line. */
static size_t
escaped_path(const char *path, char *out)
{
	size_t n = 0;

	for (; *path != '\0'; path++) {
		if (*path == '\n') {
			if (out)
				memcpy(out + n, "\\012", 4);
			n += 4;
		} else {
			if (out)
				out[n] = *path;
			n++;
		}
	}
	if (out)
		out[n] = '\0';
	return n;
}

/* The maps text as it grows: its size doubles, so that a text of many
 * lines costs time linear in its length. */
struct text {
	char *buf;
	size_t len, cap;
};

static int
append(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (t->cap - t->len <= (size_t)n) {
		size_t nc = t->cap > 4096 ? t->cap : 4096;
		char *nb;

		while (nc - t->len <= (size_t)n)
			nc *= 2;
		nb = realloc(t->buf, nc);
		if (nb == NULL)
			return -1;
		t->buf = nb;
		t->cap = nc;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
	return 0;
}

/*
 * One mapping: with a build id, first the form Go pprof takes it from
 * ("start-end perms path (@offset) buildid", which google-pprof skips),
 * then always the /proc/PID/maps line, which both read (Go pprof uses
 * the first line that covers an address).
 */
static int
append_mapping(struct text *t, uint64_t start, uint64_t end,
	       uint64_t off, const struct mapping *m, const char *name,
	       uint8_t bsize, const uint8_t *bid)
{
	char perms[5], hex[41], *path;
	size_t k;
	int ret = 0;

	perms[0] = (m->prot & PROT_READ_) ? 'r' : '-';
	perms[1] = (m->prot & PROT_WRITE_) ? 'w' : '-';
	perms[2] = 'x';
	/* Always 'p': Go pprof's maps pattern has no 's' and would drop the
	 * path of a shared executable mapping. */
	perms[3] = 'p';
	perms[4] = '\0';
	path = malloc(escaped_path(name, NULL) + 1);
	if (path == NULL)
		return -1;
	escaped_path(name, path);
	/* Go pprof's brief form cuts the path at a space: then only the
	 * full line. */
	if (bsize > 0 && strchr(path, ' ') == NULL) {
		for (k = 0; k < bsize; k++)
			snprintf(hex + 2 * k, 3, "%02x", bid[k]);
		ret = append(t, "%08llx-%08llx %s %s (@%llx) %s\n",
			     (unsigned long long)start,
			     (unsigned long long)end, perms, path,
			     (unsigned long long)off, hex);
	}
	if (ret == 0)
		ret = append(t, "%08llx-%08llx %s %08llx %02x:%02x %llu "
			     "%s\n", (unsigned long long)start,
			     (unsigned long long)end, perms,
			     (unsigned long long)off, m->maj, m->min,
			     (unsigned long long)m->ino, path);
	free(path);
	return ret;
}

static int
cmp_seg(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return x->pgoff < y->pgoff ? -1 : x->pgoff > y->pgoff;
}

static int
cmp_place_base(const void *a, const void *b)
{
	const struct place *x = *(const struct place *const *)a;
	const struct place *y = *(const struct place *const *)b;
	uint64_t xa = x->base + x->lo, ya = y->base + y->lo;

	return xa < ya ? -1 : xa > ya;
}

/* Add the range of a line written to LINES (room for all made). */
static void
line_add(struct guard_range *lines, size_t *n, uint64_t start, uint64_t end,
	 uint64_t off)
{
	lines[*n].start = start;
	lines[*n].end = end;
	lines[*n].off = off;
	(*n)++;
}

/* The guard lines for L's frames in no mapping (guards.h), given the
 * NLINES lines LINES written. */
static int
guard_lines(struct lay *l, struct guard_range *lines, size_t nlines,
	    struct text *text)
{
	struct guard_range *g;
	size_t i, ng;
	int ret = 0;

	if (guards_find(lines, nlines, l->unmapped, l->nunmapped, &g,
			&ng) < 0)
		return -1;
	for (i = 0; i < ng && ret == 0; i++)
		ret = append(text, "%08llx-%08llx r-xp 00000000 00:00 0 %s\n",
			     (unsigned long long)g[i].start,
			     (unsigned long long)g[i].end, GUARDS_NAME);
	free(g);
	return ret;
}

static int
cmp_map_start(const void *a, const void *b)
{
	const struct mapping *x = *(const struct mapping *const *)a;
	const struct mapping *y = *(const struct mapping *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * A line per kernel module with frames, by address, each as perf names
 * it ("[e1000]", or the .ko's path) and with offset 0, as the kernel's
 * own line (see maps_text()): Go pprof widens no line of offset 0, and
 * treats a name in brackets as one it cannot symbolize; google-pprof
 * reads no line without a library's name.
 */
static int
module_lines(struct lay *l, struct guard_range *lines, size_t *nlines,
	     struct text *text)
{
	const struct mapping **mods;
	size_t i, n = 0;
	int ret = 0;

	if (l->nmodules == 0)
		return 0;
	mods = malloc(l->nmodules * sizeof(*mods));
	if (mods == NULL)
		return -1;
	for (i = 0; i < addrspace_nmaps(l->as); i++)
		if (l->module[i])
			mods[n++] = addrspace_map(l->as, i);
	qsort(mods, n, sizeof(*mods), cmp_map_start);
	for (i = 0; i < n && ret == 0; i++) {
		uint8_t bsize;
		const uint8_t *bid;

		build_id_of(l, mods[i], &bsize, &bid);
		ret = append_mapping(text, mods[i]->start, mods[i]->end, 0,
				     mods[i], mods[i]->path, bsize, bid);
		line_add(lines, nlines, mods[i]->start, mods[i]->end, 0);
	}
	free(mods);
	return ret;
}

static int
maps_text(struct lay *l, bool with_kernel, struct profile *out)
{
	struct place **order;
	struct guard_range *lines;
	struct text text = { out->maps, out->maps_len, out->maps_len };
	size_t i, k, nlines = 0;
	int ret = 0;

	order = malloc((l->nplaces + 1) * sizeof(*order));
	lines = malloc((nsegs_total(l) + l->nmodules + 1) * sizeof(*lines));
	if (order == NULL || lines == NULL) {
		free(order);
		free(lines);
		return -1;
	}
	for (i = 0; i < l->nplaces; i++)
		order[i] = &l->places[i];
	qsort(order, l->nplaces, sizeof(*order), cmp_place_base);
	for (i = 0; i < l->nplaces && ret == 0; i++) {
		struct place *p = order[i];

		qsort(p->segs, p->nsegs, sizeof(*p->segs), cmp_seg);
		for (k = 0; k < p->nsegs && ret == 0; k++) {
			const struct segment *s = &p->segs[k];
			uint64_t start = p->base + s->pgoff;

			ret = append_mapping(&text, start, start + s->len,
					     s->pgoff, s->m, s->m->path,
					     p->build_id_size, p->build_id);
			line_add(lines, &nlines, start, start + s->len,
				 s->pgoff);
		}
	}
	if (ret == 0 && with_kernel && addrspace_kernel(l->as) != NULL) {
		const struct mapping *km = addrspace_kernel(l->as);
		uint8_t bsize;
		const uint8_t *bid;

		/* Offset 0, not perf's pgoff (the address of _text): Go
		 * pprof gives an address in no mapping to any mapping with
		 * a nonzero offset that has it in [start - offset, start),
		 * lowering that mapping's start, so an offset equal to the
		 * start took every unmapped user frame for the kernel's.
		 * Its symbolizer takes offset 0 for a kernel at its start
		 * (elfexec.go, kernelBase); google-pprof skips the line. */
		build_id_of(l, km, &bsize, &bid);
		ret = append_mapping(&text, km->start,
				     km->end, 0, km,
				     l->o->kernel_path ? l->o->kernel_path
						       : km->path,
				     bsize, bid);
		line_add(lines, &nlines, km->start, km->end, 0);
	}
	if (ret == 0)
		ret = module_lines(l, lines, &nlines, &text);
	if (ret == 0)
		ret = guard_lines(l, lines, nlines, &text);
	out->maps = text.buf;
	out->maps_len = text.len;
	free(order);
	free(lines);
	return ret;
}

/* ---- translating the stacks -------------------------------------------- */

/* Whether each mapping with a place is at its place's base, so that
 * translating its addresses changes none. */
static bool
native_everywhere(const struct lay *l)
{
	size_t mi;

	for (mi = 0; mi < addrspace_nmaps(l->as); mi++) {
		const struct mapping *m = addrspace_map(l->as, mi);

		if (l->map_place[mi] != 0 &&
		    l->places[l->map_place[mi] - 1].base != m->start - m->pgoff)
			return false;
	}
	return true;
}

static int
cmp_entry_order(const void *a, const void *b)
{
	const struct stack_entry *x = *(const struct stack_entry *const *)a;
	const struct stack_entry *y = *(const struct stack_entry *const *)b;

	/* Most samples first, then first seen, for a stable output. */
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * E sorted as cmp_entry_order() sorts it.  E usually comes in the order
 * the stacks were first seen (the pool's): then a stable sort by count
 * alone gives that order, and a radix sort on the count's bytes (only
 * the bytes that differ; with counts under 256, one pass) does it in
 * linear time, where qsort() took a tenth of the layout of 700k stacks.
 * 0, or -1 when out of memory.
 */
static int
sort_entries(struct stack_entry **e, size_t n)
{
	size_t (*hist)[256], i, b, sum;
	struct stack_entry **tmp, **src = e, **dst, **t;
	uint64_t key0;

	for (i = 1; i < n; i++)
		if (e[i - 1]->off > e[i]->off)
			break;
	if (i < n || n < 2) {
		qsort(e, n, sizeof(*e), cmp_entry_order);
		return 0;
	}
	hist = calloc(8, sizeof(*hist));
	tmp = malloc(n * sizeof(*tmp));
	if (hist == NULL || tmp == NULL) {
		free(hist);
		free(tmp);
		return -1;
	}
	/* Keys ~count: ascending keys are descending counts. */
	for (i = 0; i < n; i++) {
		uint64_t k = ~e[i]->count;

		for (b = 0; b < 8; b++)
			hist[b][(k >> (8 * b)) & 0xff]++;
	}
	key0 = ~e[0]->count;
	dst = tmp;
	for (b = 0; b < 8; b++) {
		size_t *h = hist[b];

		if (h[(key0 >> (8 * b)) & 0xff] == n)
			continue;	/* one value: nothing to sort */
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = h[i];

			h[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[h[(~src[i]->count >> (8 * b)) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != e)
		memcpy(e, src, n * sizeof(*e));
	free(tmp);
	free(hist);
	return 0;
}

int
layout_build(struct addrspace *as, const struct aggregate *ag,
	     struct stacktab *tab,
	     struct stack_entry **e, size_t n,
	     const struct layout_opts *o, struct profile *out,
	     struct layout_stats *st, struct p2g_error *err)
{
	const struct kernel_text *kt = addrspace_kernel_text(as);
	const struct process *kproc;
	struct lay l;
	size_t i, k;
	bool *seen = NULL;
	const struct mapping *last_m = NULL;	/* a frame's mapping, */
	uint32_t last_sid = 0;			/* its space */
	struct place *last_p = NULL;		/* and place */
	bool identity, one_ctx = true;		/* and one event */
	int ret = -1;

	memset(&l, 0, sizeof(l));
	memset(st, 0, sizeof(*st));
	l.as = as;
	l.o = o;
	if (stacktab_unpack(tab) < 0 || buildids_init(&l.bids, o->info) < 0 ||
	    addrspace_walk_begin(as) < 0)
		goto nomem;
	l.map_place = calloc(addrspace_nmaps(as) + 1, sizeof(*l.map_place));
	seen = calloc(addrspace_nspaces(as) + 1, sizeof(*seen));
	l.module = calloc(addrspace_nmaps(as) + 1, sizeof(*l.module));
	if (l.map_place == NULL || seen == NULL || l.module == NULL)
		goto nomem;
	kproc = addrspace_find(as, -1);
	if (kproc != NULL) {
		l.ksid = kproc->space;
		l.have_ksid = true;
	}

	/* Every executable mapping of the spaces written, and the places
	 * their frames fall in, with their samples. */
	for (i = 0; i < n; i++) {
		uint32_t sid = aggregate_space(ag, e[i]->ctx);
		const uint64_t *v = stacktab_pcs(tab, e[i]);

		one_ctx = one_ctx && e[i]->ctx == e[0]->ctx &&
			  e[i]->ev == e[0]->ev;
		if (!seen[sid]) {
			const uint32_t *maps;
			size_t nmaps;

			/* A mapping listed before (of a space before) adds
			 * nothing but for an anonymous one, whose place is
			 * its process's. */
			seen[sid] = true;
			if (addrspace_walk_space(as, sid, is_anon_mapping,
						 &maps, &nmaps) < 0)
				goto nomem;
			for (k = 0; k < nmaps; k++) {
				const struct mapping *m =
					addrspace_map(as, maps[k]);
				struct place *p;

				p = place_of(&l, m, sid);
				if (p == NULL || add_segment(p, m) < 0)
					goto nomem;
			}
			/* New places may have moved the array: the place
			 * of the frame before is looked up again. */
			last_m = NULL;
		}
		for (k = 0; k < e[i]->n; k++) {
			const struct mapping *m;
			struct place *p;

			if (addrspace_text_has(kt, v[k])) {
				st->with_kernel = true;
				note_module(&l, v[k]);
				continue;
			}
			m = resolve(&l, sid, v[k]);
			if (m == NULL) {
				st->unmapped += e[i]->count;
				if (note_unmapped(&l, v[k], (uint32_t)k) < 0)
					goto nomem;
				continue;
			}
			/* The place of the frame before, most of the time:
			 * its segment is in already. */
			if (m != last_m || sid != last_sid) {
				p = place_of(&l, m, sid);
				if (p == NULL || add_segment(p, m) < 0)
					goto nomem;
				last_m = m;
				last_sid = sid;
				last_p = p;
			}
			last_p->samples += e[i]->count;
		}
	}
	st->places = l.nplaces;
	if (assign_bases(&l, st, err) < 0)
		goto out;
	last_m = NULL;

	/* The stacks at their new addresses, in place; then identical ones
	 * summed, most samples first.  When every place kept its native
	 * base (one process, the usual case), the new addresses are the old
	 * ones: every frame's mapping has a place (the loop above). */
	identity = native_everywhere(&l);
	for (i = 0; i < n && !identity; i++) {
		uint32_t sid = aggregate_space(ag, e[i]->ctx);
		uint64_t *v = stacktab_pcs(tab, e[i]);

		for (k = 0; k < e[i]->n; k++) {
			const struct mapping *m = NULL;

			if (!addrspace_text_has(kt, v[k]))
				m = resolve(&l, sid, v[k]);
			if (m != NULL) {
				if (m != last_m || sid != last_sid) {
					last_p = place_of(&l, m, sid);
					if (last_p == NULL)
						goto nomem;
					last_m = m;
					last_sid = sid;
				}
				v[k] = last_p->base + (v[k] - m->start + m->pgoff);
			}
		}
	}
	/* The table holds each stack once per event and context: with one
	 * of each and nothing moved, no two can have become identical. */
	if (!identity || !one_ctx) {
		if (stacktab_merge(tab, e, &n) < 0)
			goto nomem;
	}
	if (o->period_unit != 0) {
		/* Each stack counts its periods in whole units, rounded to
		 * the nearest, and at least 1. */
		for (i = 0; i < n; i++) {
			uint64_t p = stacktab_period(tab, e[i]);
			uint64_t u = o->period_unit;
			uint64_t c = p / u + (p % u >= u - p % u ? 1 : 0);

			e[i]->count = c ? c : 1;
		}
	}
	if (sort_entries(e, n) < 0)
		goto nomem;
	if (o->take_pool) {
		/* The profile's records point into the table's pool, in
		 * their order: no copy of the stacks. */
		out->pcs = stacktab_take_pool(tab, &out->npcs, &out->cap_pcs);
		for (i = 0; i < n; i++)
			if (profile_add_at(out, e[i]->count, e[i]->off,
					   e[i]->n) < 0)
				goto nomem;
	} else {
		for (i = 0; i < n; i++)
			if (profile_add(out, e[i]->count, stacktab_pcs(tab, e[i]),
					e[i]->n) < 0)
				goto nomem;
	}
	if (maps_text(&l, st->with_kernel, out) < 0)
		goto nomem;
	ret = 0;
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	for (i = 0; i < l.nplaces; i++) {
		free(l.places[i].key);
		free(l.places[i].segs);
	}
	free(l.places);
	hashtab_free(&l.index);
	buildids_free(&l.bids);
	free(l.map_place);
	free(l.unmapped);
	free(l.module);
	free(seen);
	return ret;
}
