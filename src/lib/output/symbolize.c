/* SPDX-License-Identifier: MIT */
/* Symbols for profile PCs: see symbolize.h.  Each line of the maps text
 * becomes a mapping of the library's symbolizer (symbols.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firstrange.h"
#include "grow.h"
#include "strset.h"
#include "symbolize.h"
#include "symbols.h"

struct map {
	struct sym_dso dso;
	uint8_t bid[64];
};

struct symbolizer {
	struct symbols *sym;
	struct map *maps;
	size_t nmaps, cap_maps;
	struct firstrange ranges;	/* the first map at each address */
	bool *first_of_path;		/* map i is its file's first */
	char **kept;			/* symbolizer_keep()'s names */
	size_t nkept, cap_kept;
};

/* A build ID in hex at P (up to its end or a space) into M; false if
 * there is none. */
static bool
parse_build_id(const char *p, struct map *m)
{
	size_t n = 0;

	while (*p == ' ')
		p++;
	while (n < sizeof(m->bid) && p[0] != '\0' && p[1] != '\0') {
		unsigned hi, lo;

		if (sscanf(p, "%1x%1x", &hi, &lo) != 2)
			break;
		m->bid[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	if (n < 2 || (*p != '\0' && *p != ' ' && *p != '\n'))
		return false;
	/* dso.build_id is pointed at bid once the array stops moving
	 * (symbolizer_new()) */
	m->dso.build_id_size = n;
	return true;
}

/* One maps line: "start-end perms offset dev inode path", "start-end
 * perms path (@offset) id" or "start-end: path". */
static int
add_line(struct symbolizer *s, const char *line)
{
	unsigned long long a, b, off = 0;
	char perms[16], dev[32];
	unsigned long long ino;
	int n = 0, k;
	const char *path = NULL, *end, *at = NULL;
	struct map *nm, *m;
	char *copy;

	k = sscanf(line, "%llx-%llx %15s %llx %31s %llu %n", &a, &b, perms,
		   &off, dev, &ino, &n);
	if (k == 6 && n > 0 && strchr(dev, ':') != NULL) {
		path = line + n;
	} else if (sscanf(line, "%llx-%llx: %n", &a, &b, &n) == 2 && n > 0 &&
		   strchr(line, ':') != NULL && line[n] != '\0') {
		path = line + n;
		off = 0;
	} else if (sscanf(line, "%llx-%llx %15s %n", &a, &b, perms, &n) == 3 &&
		   n > 0) {
		at = strstr(line + n, " (@");
		if (at == NULL)
			return 0;
		path = line + n;
		if (sscanf(at, " (@%llx)", &off) != 1)
			return 0;
	} else {
		return 0;
	}
	end = at != NULL ? at : path + strlen(path);
	while (end > path && (end[-1] == ' ' || end[-1] == '\n'))
		end--;
	if (end == path || path[0] == '[' || b <= a)
		return 0;
	if (s->nmaps == s->cap_maps) {
		nm = grow(s->maps, &s->cap_maps, s->nmaps + 1, sizeof(*nm),
			  64);
		if (nm == NULL)
			return -1;
		s->maps = nm;
	}
	nm = s->maps;
	copy = malloc((size_t)(end - path) + 1);
	if (copy == NULL)
		return -1;
	memcpy(copy, path, (size_t)(end - path));
	copy[end - path] = '\0';
	m = &nm[s->nmaps++];
	memset(m, 0, sizeof(*m));
	m->dso.path = copy;
	m->dso.start = a;
	m->dso.end = b;
	m->dso.pgoff = off;
	m->dso.pid = 0;
	/* the brief form's build ID follows the offset */
	if (at != NULL) {
		const char *close = strchr(at, ')');

		if (close != NULL)
			(void)parse_build_id(close + 1, m);
	}
	return 0;
}

/* S's index of its maps: the first at each address, and the first of
 * each file; a scan of every map for each PC (and of the maps before
 * for each map) was quadratic in the lines.  0, or -1 when out of
 * memory. */
static int
index_maps(struct symbolizer *s)
{
	uint64_t *lo = malloc((s->nmaps + 1) * sizeof(*lo));
	uint64_t *hi = malloc((s->nmaps + 1) * sizeof(*hi));
	struct strset paths;
	size_t i;
	int r, ret = -1;

	memset(&paths, 0, sizeof(paths));
	s->first_of_path = malloc((s->nmaps + 1) * sizeof(bool));
	if (lo == NULL || hi == NULL || s->first_of_path == NULL)
		goto out;
	for (i = 0; i < s->nmaps; i++) {
		lo[i] = s->maps[i].dso.start;
		hi[i] = s->maps[i].dso.end;
		r = strset_add(&paths, s->maps[i].dso.path);
		if (r < 0)
			goto out;
		s->first_of_path[i] = r == 1;
	}
	ret = firstrange_build(&s->ranges, lo, hi, s->nmaps);
out:
	strset_free(&paths);
	free(lo);
	free(hi);
	return ret;
}

struct symbolizer *
symbolizer_new(const char *maps, size_t len, const char *const *binaries,
	       size_t nbinaries, struct dbgfetch *fetch)
{
	struct symbolizer *s = calloc(1, sizeof(*s));
	struct sym_opts o;
	char line[4096];
	size_t i = 0;

	if (s == NULL)
		return NULL;
	memset(&o, 0, sizeof(o));
	o.binaries = binaries;
	o.nbinaries = nbinaries;
	o.fetch = fetch;
	s->sym = symbols_new(&o);
	if (s->sym == NULL) {
		free(s);
		return NULL;
	}
	while (maps != NULL && i < len) {
		const char *nl = memchr(maps + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (maps + i)) : len - i;

		if (ll < sizeof(line)) {
			memcpy(line, maps + i, ll);
			line[ll] = '\0';
			if (add_line(s, line) < 0) {
				symbolizer_free(s);
				return NULL;
			}
		}
		i += ll + 1;
	}
	for (i = 0; i < s->nmaps; i++)
		if (s->maps[i].dso.build_id_size > 0)
			s->maps[i].dso.build_id = s->maps[i].bid;
	if (index_maps(s) < 0) {
		symbolizer_free(s);
		return NULL;
	}
	return s;
}

void
symbolizer_free(struct symbolizer *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nmaps; i++)
		free((char *)s->maps[i].dso.path);
	free(s->maps);
	firstrange_free(&s->ranges);
	free(s->first_of_path);
	for (i = 0; i < s->nkept; i++)
		free(s->kept[i]);
	free(s->kept);
	symbols_free(s->sym);
	free(s);
}

int
symbolizer_keep(struct symbolizer *s, char *name)
{
	if (s->nkept == s->cap_kept) {
		char **v = grow(s->kept, &s->cap_kept, s->nkept + 1,
				sizeof(*v), 8);

		if (v == NULL) {
			free(name);
			return -1;
		}
		s->kept = v;
	}
	s->kept[s->nkept++] = name;
	return 0;
}

bool
symbolizer_no_fds(const struct symbolizer *s)
{
	return symbols_no_fds(s->sym);
}

const char *
symbolizer_lookup(struct symbolizer *s, uint64_t addr, const char **path)
{
	const struct sym_frame *f;
	const struct map *m;
	size_t i;
	int n;

	if (path != NULL)
		*path = NULL;
	i = firstrange_find(&s->ranges, addr);
	if (i == FIRSTRANGE_NONE)
		return NULL;
	m = &s->maps[i];
	if (path != NULL)
		*path = m->dso.path;
	n = symbols_lookup(s->sym, &m->dso, addr, &f);
	/* the symbol's own function comes last, after inlined ones */
	return n > 0 ? f[n - 1].function : NULL;
}

int
symbolizer_each_name(struct symbolizer *s, bool paths,
		     int (*fn)(void *ctx, const char *name), void *ctx)
{
	size_t i;
	int r;

	for (i = 0; i < s->nmaps; i++) {
		const struct sym_dso *d = &s->maps[i].dso;

		/* a file mapped several times, once */
		if (!s->first_of_path[i])
			continue;
		r = paths ? fn(ctx, d->path)
			  : symbols_each_name(s->sym, d, fn, ctx);
		if (r != 0)
			return r;
	}
	return 0;
}
