/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's handle: one entry per distinct recorded file (its
 * kind, the file found for it, its symbols, read when first needed) and
 * a cache of the frames of each (file, address) looked up, so that each
 * distinct address is symbolized once.  See symbols.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demangle.h"
#include "dsofind.h"
#include "dwlines.h"
#include "elfsyms.h"
#include "grow.h"
#include "hashtab.h"
#include "kernsyms.h"
#include "mapkind.h"
#include "perfmap.h"
#include "symbols.h"
#include "symtab.h"

enum file_kind {
	FILE_ELF,	/* a mapped ELF file */
	FILE_KERNEL,	/* the kernel */
	FILE_MODULE,	/* a kernel module */
	FILE_PERFMAP,	/* JIT code named by a perf map */
	FILE_NONE,	/* nothing to read: [heap], [stack], ... */
};

struct sfile {
	char *key;		/* kind, path, build ID, pid: see file_key() */
	size_t keylen;
	uint64_t hash;
	enum file_kind kind;
	char *path;		/* as recorded */
	char *module;		/* FILE_MODULE: "[name]" as kallsyms has it */
	char *source;		/* FILE_PERFMAP: the perf map read */
	bool loaded;
	const char *why;	/* why no file was read, or NULL */
	struct dsofind_file bin, dbg;
	struct elfsyms_loads loads;
	struct symtab syms;
	struct symtab plt;	/* FILE_ELF: its PLT entries */
	struct dwlines *lines;	/* NULL: none, or not wanted */
	/* FILE_ELF: the file opened, by device and inode; SAME: the
	 * index + 1 of the entry that read that file first (under
	 * another spelling of its path), whose symbols this one uses */
	dev_t dev;
	ino_t ino;
	uint32_t same;
};

/* The frames of one (file, address), cached. */
struct entry {
	uint32_t file;
	uint32_t n;		/* frames */
	uint64_t addr;
	const struct sym_frame *frames;
};

/* Frames live in blocks that never move, so that what symbols_lookup()
 * hands out stays valid. */
#define FRAME_BLOCK 4096
struct frame_block {
	struct frame_block *next;
	size_t used;
	struct sym_frame v[FRAME_BLOCK];
};

struct symbols {
	struct sym_opts o;
	struct dsofind *find;
	struct sfile *files;
	size_t nfiles, cap_files;
	struct hashtab file_index;
	struct hashtab ident_index;	/* of the ELF files read, by device
					   and inode */
	struct entry *entries;
	size_t nentries, cap_entries;
	struct hashtab entry_index;
	struct frame_block *blocks;
	/* the kernel's symbols, shared by the kernel and its modules */
	struct kernsyms kern;
	/* the strings of o, copied */
	char *symfs, *home, *vmlinux, *kallsyms, *hostname, *osrelease;
	char **binaries;
};

static const char why_not_found[] = "not found";
static const char why_differs[] = "build ID differs";
static const char why_no_kernel[] = "kernel build ID not known yet";

struct symbols *
symbols_new(const struct sym_opts *o)
{
	struct symbols *s = calloc(1, sizeof(*s));
	size_t i;

	if (s == NULL)
		return NULL;
	s->o = *o;
	/* the caller's strings need not outlive the call */
#define COPY(field)							\
	do {								\
		if (o->field != NULL &&					\
		    (s->field = strdup(o->field)) == NULL)		\
			goto fail;					\
		s->o.field = s->field;					\
	} while (0)
	COPY(symfs);
	COPY(home);
	COPY(vmlinux);
	COPY(kallsyms);
	COPY(hostname);
	COPY(osrelease);
#undef COPY
	s->o.binaries = NULL;
	s->o.nbinaries = 0;
	if (o->nbinaries > 0 && o->binaries != NULL) {
		s->binaries = calloc(o->nbinaries, sizeof(*s->binaries));
		if (s->binaries == NULL)
			goto fail;
		s->o.binaries = (const char *const *)s->binaries;
		s->o.nbinaries = o->nbinaries;
		for (i = 0; i < o->nbinaries; i++)
			if ((s->binaries[i] = strdup(o->binaries[i])) == NULL)
				goto fail;
	}
	s->o.kernel_build_id = NULL;
	s->o.kernel_build_id_size = 0;
	if (o->kernel_build_id != NULL && o->kernel_build_id_size > 0 &&
	    o->kernel_build_id_size <= DSOFIND_MAX_BUILD_ID) {
		memcpy(s->kern.bid, o->kernel_build_id,
		       o->kernel_build_id_size);
		s->kern.nbid = o->kernel_build_id_size;
	}
	(void)elf_version(EV_CURRENT);
	s->find = dsofind_new(&s->o);
	if (s->find == NULL)
		goto fail;
	return s;
fail:
	symbols_free(s);
	return NULL;
}

static void
sfile_release(struct sfile *f)
{
	free(f->key);
	free(f->path);
	free(f->module);
	free(f->source);
	dsofind_close(&f->bin);
	dsofind_close(&f->dbg);
	elfsyms_loads_free(&f->loads);
	symtab_free(&f->syms);
	symtab_free(&f->plt);
	dwlines_free(f->lines);
}

void
symbols_free(struct symbols *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nfiles; i++)
		sfile_release(&s->files[i]);
	free(s->files);
	hashtab_free(&s->file_index);
	hashtab_free(&s->ident_index);
	free(s->entries);
	hashtab_free(&s->entry_index);
	while (s->blocks != NULL) {
		struct frame_block *b = s->blocks;

		s->blocks = b->next;
		free(b);
	}
	kernsyms_free(&s->kern);
	dsofind_free(s->find);
	free(s->symfs);
	free(s->home);
	free(s->vmlinux);
	free(s->kallsyms);
	free(s->hostname);
	free(s->osrelease);
	for (i = 0; s->binaries != NULL && i < s->o.nbinaries; i++)
		free(s->binaries[i]);
	free(s->binaries);
	free(s);
}

/* What kind of thing the recording maps at DSO. */
static enum file_kind
dso_kind(const struct sym_dso *d)
{
	const char *p = d->path;
	size_t n = strlen(p);
	enum mapkind k = mapping_kind(p);

	if (k == MAPKIND_KERNEL)
		return FILE_KERNEL;
	/* the kernel's other mappings are its modules: "[name]" or the
	 * module's file */
	if (d->pid < 0 && (p[0] == '[' ? n > 2 && p[n - 1] == ']'
				       : strstr(p, ".ko") != NULL))
		return FILE_MODULE;
	/* perf names anonymous memory's code from the process's perf map */
	if (k == MAPKIND_PERFMAP ||
	    (d->pid >= 0 && (k == MAPKIND_ANON || k == MAPKIND_ANON_SHARED ||
			     k == MAPKIND_ANON_NAMED)))
		return FILE_PERFMAP;
	if (k == MAPKIND_NONE || k == MAPKIND_SPECIAL ||
	    k == MAPKIND_ANON_NAMED)
		return FILE_NONE;
	return FILE_ELF;
}

/* FNV-1a over BUF. */
static uint64_t
hash_bytes(const void *buf, size_t n, uint64_t h)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* The identity of DSO's file: its kind, path, build ID and (for a perf
 * map) pid, in BUF (SIZE bytes); the length used, or 0 if it does not
 * fit. */
static size_t
file_key(const struct sym_dso *d, enum file_kind kind, char *buf,
	 size_t size)
{
	size_t pl = strlen(d->path), nbid = d->build_id ? d->build_id_size : 0;
	size_t n = 1 + sizeof(int32_t) + pl + 1 + nbid;

	if (n > size)
		return 0;
	buf[0] = (char)kind;
	memset(buf + 1, 0, sizeof(int32_t));
	if (kind == FILE_PERFMAP)
		memcpy(buf + 1, &d->pid, sizeof(int32_t));
	memcpy(buf + 1 + sizeof(int32_t), d->path, pl + 1);
	if (nbid > 0)
		memcpy(buf + 1 + sizeof(int32_t) + pl + 1, d->build_id, nbid);
	return n;
}

/* The module name of a module's path as kallsyms shows it: the base
 * name without ".ko..." and with '-' as '_', in brackets. */
static char *
module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n, i;
	char *m;

	if (path[0] == '[')
		return strdup(path);
	base = base != NULL ? base + 1 : path;
	n = strcspn(base, ".");
	m = malloc(n + 3);
	if (m == NULL)
		return NULL;
	m[0] = '[';
	for (i = 0; i < n; i++)
		m[i + 1] = base[i] == '-' ? '_' : base[i];
	m[n + 1] = ']';
	m[n + 2] = '\0';
	return m;
}

/* The file entry of DSO, added if new; NULL when out of memory. */
static struct sfile *
file_of(struct symbols *s, const struct sym_dso *d)
{
	char stack[512];
	char *key = stack;
	enum file_kind kind = dso_kind(d);
	size_t n = file_key(d, kind, stack, sizeof(stack));
	struct hashtab_iter it;
	struct sfile *f;
	uint64_t h;
	uint32_t i;

	if (n == 0) {
		size_t need = strlen(d->path) + 8 + (d->build_id ?
						     d->build_id_size : 0);

		key = malloc(need);
		if (key == NULL)
			return NULL;
		n = file_key(d, kind, key, need);
	}
	h = hash_bytes(key, n, 0xcbf29ce484222325ULL);
	f = NULL;
	for (i = hashtab_probe(&s->file_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&s->file_index, &it))
		if (s->files[i].keylen == n &&
		    memcmp(s->files[i].key, key, n) == 0) {
			f = &s->files[i];
			goto out;
		}
	if (s->nfiles >= HASHTAB_NONE - 1)
		goto out;
	if (s->nfiles == s->cap_files) {
		struct sfile *nf = grow(s->files, &s->cap_files, s->nfiles + 1,
					sizeof(*nf), 16);

		if (nf == NULL)
			goto out;
		s->files = nf;
	}
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->bin.fd = -1;
	f->dbg.fd = -1;
	f->kind = kind;
	f->key = malloc(n);
	f->path = strdup(d->path);
	if (kind == FILE_MODULE)
		f->module = module_name(d->path);
	if (f->key == NULL || f->path == NULL ||
	    (kind == FILE_MODULE && f->module == NULL) ||
	    hashtab_add(&s->file_index, h, (uint32_t)s->nfiles) < 0) {
		sfile_release(f);
		f = NULL;
		goto out;
	}
	memcpy(f->key, key, n);
	f->keylen = n;
	f->hash = h;
	s->nfiles++;
out:
	if (key != stack)
		free(key);
	return f;
}

/* Close FILE's ELF handle and descriptor, keeping its path: what is
 * needed of it is read (so that a recording of thousands of files does
 * not run out of descriptors). */
static void
file_done(struct dsofind_file *file)
{
	if (file->elf != NULL)
		elf_end(file->elf);
	if (file->fd >= 0)
		close(file->fd);
	file->elf = NULL;
	file->fd = -1;
}

/* Close F's ELF files, keeping their paths. */
static void
elf_done(struct sfile *f)
{
	file_done(&f->bin);
	file_done(&f->dbg);
}

/* True if ELF has DWARF (a .debug_info section with contents). */
static bool
has_dwarf(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name != NULL && strcmp(name, ".debug_info") == 0)
			return true;
	}
	return false;
}

static uint64_t
ident_hash(dev_t dev, ino_t ino)
{
	return hashtab_hash64((uint64_t)dev * 0x100000001b3ULL ^ (uint64_t)ino);
}

/*
 * Whether F's ELF file, just opened, is one an entry before read: a path
 * has many spellings (/usr/lib/./x, /usr//lib/x, symbolic links), and
 * each read the file anew and kept its tables (400 spellings of
 * libLLVM: 2 GB).  Then F is closed and points at that entry: 1.
 * Else F's identity is indexed: 0.  -1 when out of memory.
 */
static int
same_file(struct symbols *s, struct sfile *f)
{
	struct hashtab_iter it;
	struct stat st;
	uint32_t i, fi = (uint32_t)(f - s->files);
	uint64_t h;

	if (fstat(f->bin.fd, &st) != 0)
		return 0;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	h = ident_hash(st.st_dev, st.st_ino);
	if (hashtab_reserve(&s->ident_index, s->ident_index.n + 1) < 0)
		return -1;
	for (i = hashtab_probe(&s->ident_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&s->ident_index, &it))
		if (s->files[i].dev == st.st_dev &&
		    s->files[i].ino == st.st_ino) {
			dsofind_close(&f->bin);
			f->same = i + 1;
			return 1;
		}
	hashtab_insert(&s->ident_index, &it, fi);
	return 0;
}

/* The entry whose tables F uses: F, or the one that read its file. */
static struct sfile *
content_of(struct symbols *s, struct sfile *f)
{
	return f->same != 0 ? &s->files[f->same - 1] : f;
}

/* Read F's ELF file, its debug file and its symbols (and keep its DWARF
 * open if lines are wanted). */
static int
load_elf(struct symbols *s, struct sfile *f, const struct sym_dso *d)
{
	enum dsofind_why w;
	Elf *syms;
	long r;

	w = dsofind_binary(s->find, f->path, d->build_id, d->build_id_size,
			   &f->bin);
	if (w == DSOFIND_NOMEM || w == DSOFIND_NO_FDS)
		return -1;
	if (w != DSOFIND_FOUND) {
		f->why = w == DSOFIND_BUILD_ID_DIFFERS ? why_differs
						       : why_not_found;
		if (s->o.missing != NULL && dsofind_reportable(f->path))
			s->o.missing(s->o.missing_ctx, f->path, f->why);
		return 0;
	}
	/* the same file under another spelling of its path is read once */
	r = same_file(s, f);
	if (r != 0)
		return r < 0 ? -1 : 0;
	/* without program headers no address can be placed: no names */
	if (elfsyms_loads(f->bin.elf, &f->loads) < 0) {
		elf_done(f);
		return 0;
	}
	syms = f->bin.elf;
	/* the debug file: for the symbols of a stripped file, or for the
	 * DWARF of one without it */
	if ((!elfsyms_has_symtab(syms) ||
	     (s->o.lines && !has_dwarf(syms))) &&
	    dsofind_debug(s->find, f->path, &f->bin, &f->dbg) &&
	    !elfsyms_has_symtab(syms))
		syms = f->dbg.elf;
	if (dsofind_no_fds(s->find))
		return -1;
	r = elfsyms_read(syms, true, true, &f->syms);
	if (r < 0)
		return -1;
	symtab_finish(&f->syms, SYMTAB_ELF);
	/* perf makes up PLT entries from the mapped file, when it found
	 * symbols at all */
	if (r > 0 && elfsyms_plt(f->bin.elf, true, &f->plt) < 0)
		return -1;
	symtab_finish(&f->plt, SYMTAB_PERFMAP);
	if (s->o.lines)
		f->lines = dwlines_open(f->dbg.elf != NULL ? f->dbg.elf
							   : f->bin.elf);
	if (f->lines == NULL) {
		elf_done(f);
		return 0;
	}
	/* the DWARF is read: no descriptor kept (a system-wide recording
	 * names thousands of files), the other ELF file closed */
	if (f->dbg.elf != NULL) {
		dsofind_drop_fd(&f->dbg);
		file_done(&f->bin);
	} else {
		dsofind_drop_fd(&f->bin);
	}
	return 0;
}

static int
load(struct symbols *s, struct sfile *f, const struct sym_dso *d)
{
	f->loaded = true;
	switch (f->kind) {
	case FILE_ELF:
		return load_elf(s, f, d);
	case FILE_KERNEL:
		if (s->kern.nbid == 0 && d->build_id != NULL &&
		    d->build_id_size > 0 &&
		    d->build_id_size <= DSOFIND_MAX_BUILD_ID) {
			memcpy(s->kern.bid, d->build_id, d->build_id_size);
			s->kern.nbid = d->build_id_size;
		}
		if (!s->kern.tried && kernsyms_load(&s->kern, &s->o, s->find, d) < 0)
			return -1;
		f->why = s->kern.why;
		return 0;
	case FILE_MODULE:
		/* which kernel's symbols would name a module is not known
		 * yet: not loaded, so asked again */
		if (!s->kern.tried && s->kern.nbid == 0 &&
		    s->o.kallsyms == NULL && s->o.vmlinux == NULL) {
			f->loaded = false;
			f->why = why_no_kernel;
			return 0;
		}
		if (!s->kern.tried && kernsyms_load(&s->kern, &s->o, s->find, NULL) < 0)
			return -1;
		f->why = s->kern.why;
		return 0;
	case FILE_PERFMAP: {
		char p[64];

		if (mapping_kind(f->path) == MAPKIND_PERFMAP)
			snprintf(p, sizeof(p), "%s", f->path);
		else
			snprintf(p, sizeof(p), "/tmp/perf-%d.map", (int)d->pid);
		if (perfmap_read(p, &f->syms) < 0) {
			symtab_free(&f->syms);
			f->why = why_not_found;
			return 0;
		}
		f->source = strdup(p);
		return f->source != NULL ? 0 : -1;
	}
	case FILE_NONE:
		f->why = why_not_found;
		return 0;
	}
	return 0;
}

/* Room for N frames in one block; NULL when out of memory. */
static struct sym_frame *
frames_alloc(void *ctx, size_t n)
{
	struct symbols *s = ctx;
	struct frame_block *b = s->blocks;
	struct sym_frame *v;

	if (n > FRAME_BLOCK)
		return NULL;
	if (b == NULL || FRAME_BLOCK - b->used < n) {
		b = malloc(sizeof(*b));
		if (b == NULL)
			return NULL;
		b->next = s->blocks;
		b->used = 0;
		s->blocks = b;
	}
	v = &b->v[b->used];
	b->used += n;
	return v;
}

/* The symbol of F holding ADDR (as mapped by D), or NULL; *VA gets the
 * address in F's own terms. */
static const char *
find_symbol(struct symbols *s, struct sfile *f, const struct sym_dso *d,
	    uint64_t addr, uint64_t *va, bool *nomem)
{
	const struct symtab_sym *sym;
	struct symtab *t = &f->syms;
	const char *name;

	*va = addr;
	switch (f->kind) {
	case FILE_ELF:
		if (addr < d->start ||
		    !elfsyms_vaddr(&f->loads, addr - d->start + d->pgoff, va))
			return NULL;
		break;
	case FILE_KERNEL:
	case FILE_MODULE:
		t = &s->kern.syms;
		/* a vmlinux has none of the modules' symbols */
		if (t->kind == SYMTAB_ELF && f->kind == FILE_MODULE)
			return NULL;
		if (t->kind == SYMTAB_ELF)
			*va = addr - s->kern.reloc;
		break;
	case FILE_PERFMAP:
		break;
	case FILE_NONE:
		return NULL;
	}
	/* perf's PLT entries overlap what a symbol before .plt may reach
	 * with its end fixed up; perf's tree finds the entry first */
	if (f->kind == FILE_ELF && (sym = symtab_find(&f->plt, *va)) != NULL)
		t = &f->plt;
	else
		sym = symtab_find(t, *va);
	if (sym == NULL)
		return NULL;
	if (t->kind == SYMTAB_KALLSYMS) {
		const char *m = symtab_module(t, sym);

		/* the kernel's symbols name the kernel, a module's it */
		if (f->kind == FILE_KERNEL ? m != NULL
					   : m == NULL || f->module == NULL ||
						     strcmp(m, f->module) != 0)
			return NULL;
	}
	name = symtab_show(t, sym);
	*nomem = name == NULL;
	return name;
}

int
symbols_lookup(struct symbols *s, const struct sym_dso *dso, uint64_t addr,
	       const struct sym_frame **out)
{
	struct sfile *f = file_of(s, dso), *c;
	struct hashtab_iter it;
	struct sym_frame *v;
	struct entry *e;
	const char *name;
	uint64_t h, va;
	uint32_t i, fi;
	bool nomem = false;
	int n;

	*out = NULL;
	if (f == NULL)
		return -1;
	fi = (uint32_t)(f - s->files);
	h = hashtab_hash64(addr ^ ((uint64_t)fi << 48 | (uint64_t)fi >> 16)) ^
	    f->hash;
	for (i = hashtab_probe(&s->entry_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&s->entry_index, &it))
		if (s->entries[i].file == fi && s->entries[i].addr == addr) {
			*out = s->entries[i].frames;
			return (int)s->entries[i].n;
		}
	if (!f->loaded && load(s, f, dso) < 0)
		return -1;
	if (!f->loaded)
		return 0;	/* not known yet: not remembered */
	c = content_of(s, f);
	name = find_symbol(s, c, dso, addr, &va, &nomem);
	if (nomem)
		return -1;
	n = 0;
	v = NULL;
	if (c->lines != NULL && name != NULL) {
		n = dwlines_frames(c->lines, va, name, s, frames_alloc, &v);
		if (n < 0)
			return -1;
	}
	if (n == 0 && name != NULL) {
		v = frames_alloc(s, 1);
		if (v == NULL)
			return -1;
		v->function = name;
		v->file = NULL;
		v->line = 0;
		v->dwarf_function = NULL;
		n = 1;
	}
	if (s->nentries >= HASHTAB_NONE - 1)
		goto done;	/* no room to remember more: not cached */
	if (s->nentries == s->cap_entries) {
		e = grow(s->entries, &s->cap_entries, s->nentries + 1,
			 sizeof(*e), 256);
		if (e == NULL)
			return -1;
		s->entries = e;
	}
	if (hashtab_add(&s->entry_index, h, (uint32_t)s->nentries) < 0)
		return -1;
	e = &s->entries[s->nentries++];
	e->file = fi;
	e->addr = addr;
	e->n = (uint32_t)n;
	e->frames = v;
done:
	*out = v;
	return n;
}

bool
symbols_demangles(void)
{
	return demangle_available();
}

bool
symbols_no_fds(const struct symbols *s)
{
	return s->kern.no_fds || dsofind_no_fds(s->find);
}

const char *
symbols_file(struct symbols *s, const struct sym_dso *dso, const char **why)
{
	struct sfile *f = file_of(s, dso);

	if (why != NULL)
		*why = NULL;
	if (f == NULL) {
		if (why != NULL)
			*why = "out of memory";
		return NULL;
	}
	if (!f->loaded && load(s, f, dso) < 0) {
		if (why != NULL)
			*why = "out of memory";
		return NULL;
	}
	if (f->kind == FILE_ELF && content_of(s, f)->bin.path != NULL)
		return content_of(s, f)->bin.path;
	if (f->kind == FILE_PERFMAP && f->source != NULL)
		return f->source;
	if ((f->kind == FILE_KERNEL || f->kind == FILE_MODULE) &&
	    s->kern.source != NULL)
		return s->kern.source;
	if (f->why != NULL) {
		if (why != NULL)
			*why = f->why;
		return NULL;
	}
	if (why != NULL)
		*why = why_not_found;
	return NULL;
}

int
symbols_each_name(struct symbols *s, const struct sym_dso *dso,
		  int (*fn)(void *ctx, const char *name), void *ctx)
{
	struct sfile *f = file_of(s, dso);
	int r;

	if (f == NULL || (!f->loaded && load(s, f, dso) < 0))
		return -1;
	f = content_of(s, f);
	/* the kernel's tables are shared and long: not walked */
	if (f->kind != FILE_ELF && f->kind != FILE_PERFMAP)
		return 0;
	r = symtab_each_shown(&f->syms, fn, ctx);
	return r != 0 ? r : symtab_each_shown(&f->plt, fn, ctx);
}
