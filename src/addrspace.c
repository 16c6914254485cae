/* SPDX-License-Identifier: MIT */
/* Processes and address spaces: see addrspace.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"

#define PROT_READ_ 1
#define PROT_WRITE_ 2
#define PROT_EXEC_ 4

static size_t
slot_of(int32_t key, size_t n)
{
	uint64_t h = (uint32_t)key * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 17) & (n - 1);
}

void
addrspace_init(struct addrspace *as)
{
	memset(as, 0, sizeof(*as));
}

static void
free_maps(struct process *p)
{
	size_t i;

	for (i = 0; i < p->nmaps; i++)
		free(p->maps[i].path);
	p->nmaps = 0;
}

void
addrspace_release(struct addrspace *as)
{
	size_t i;

	for (i = 0; i < as->nprocs; i++) {
		free_maps(&as->procs[i]);
		free(as->procs[i].maps);
	}
	free(as->procs);
	free(as->proc_slots);
	free(as->threads);
	free(as->thread_slots);
	free(as->kernel.path);
	memset(as, 0, sizeof(*as));
}

/* Generic lookup in a pid/tid table whose elements start with the key. */
static uint32_t *
lookup(uint32_t *slots, size_t nslots, const void *base, size_t elsize,
       int32_t key)
{
	size_t j;

	if (nslots == 0)
		return NULL;
	j = slot_of(key, nslots);
	while (slots[j] != 0) {
		const int32_t *k = (const int32_t *)((const char *)base +
						     (slots[j] - 1) * elsize);
		if (*k == key)
			return &slots[j];
		j = (j + 1) & (nslots - 1);
	}
	return &slots[j];
}

static int
rehash(uint32_t **slotsp, size_t *nslotsp, const void *base, size_t elsize,
       size_t count)
{
	size_t n = *nslotsp ? *nslotsp * 2 : 256, i, j;
	uint32_t *s = calloc(n, sizeof(*s));

	if (s == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		int32_t key = *(const int32_t *)((const char *)base +
						 i * elsize);
		j = slot_of(key, n);
		while (s[j] != 0)
			j = (j + 1) & (n - 1);
		s[j] = (uint32_t)(i + 1);
	}
	free(*slotsp);
	*slotsp = s;
	*nslotsp = n;
	return 0;
}

struct process *
addrspace_find(const struct addrspace *as, int32_t pid)
{
	uint32_t *s = lookup(as->proc_slots, as->proc_nslots, as->procs,
			     sizeof(struct process), pid);

	return s && *s ? &as->procs[*s - 1] : NULL;
}

struct process *
addrspace_process(struct addrspace *as, int32_t pid)
{
	struct process *p = addrspace_find(as, pid);
	uint32_t *s;

	if (p != NULL)
		return p;
	if (as->nprocs == as->cap_procs) {
		size_t nc = as->cap_procs ? as->cap_procs * 2 : 64;
		struct process *np = realloc(as->procs, nc * sizeof(*np));

		if (np == NULL)
			return NULL;
		as->procs = np;
		as->cap_procs = nc;
	}
	if ((as->nprocs + 1) * 2 > as->proc_nslots &&
	    rehash(&as->proc_slots, &as->proc_nslots, as->procs,
		   sizeof(struct process), as->nprocs) < 0)
		return NULL;
	p = &as->procs[as->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	s = lookup(as->proc_slots, as->proc_nslots, as->procs,
		   sizeof(struct process), pid);
	*s = (uint32_t)(++as->nprocs);
	return p;
}

static struct thread *
get_thread(struct addrspace *as, int32_t tid, bool create)
{
	uint32_t *s = lookup(as->thread_slots, as->thread_nslots, as->threads,
			     sizeof(struct thread), tid);
	struct thread *t;

	if (s && *s)
		return &as->threads[*s - 1];
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
	if ((as->nthreads + 1) * 2 > as->thread_nslots &&
	    rehash(&as->thread_slots, &as->thread_nslots, as->threads,
		   sizeof(struct thread), as->nthreads) < 0)
		return NULL;
	t = &as->threads[as->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	s = lookup(as->thread_slots, as->thread_nslots, as->threads,
		   sizeof(struct thread), tid);
	*s = (uint32_t)(++as->nthreads);
	return t;
}

static bool
is_kernel_path(const char *path)
{
	return strncmp(path, "[kernel.kallsyms]", 17) == 0;
}

int
addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m)
{
	struct process *p;
	struct mapping *dst;
	size_t i, j;

	if (pid == -1 && is_kernel_path(m->path)) {
		/* perf names the kernel's text "[kernel.kallsyms]_text" (or
		 * "_stext"); the first one is the kernel proper, later ones
		 * with that prefix are modules. */
		if (as->have_kernel)
			return 0;
		as->kernel = *m;
		as->kernel.path = strdup("[kernel.kallsyms]");
		if (as->kernel.path == NULL)
			return -1;
		as->kernel.exec = true;
		as->have_kernel = true;
		return 0;
	}
	p = addrspace_process(as, pid);
	if (p == NULL)
		return -1;
	/* Drop what the new mapping covers. */
	for (i = j = 0; i < p->nmaps; i++) {
		if (p->maps[i].start < m->end && m->start < p->maps[i].end) {
			free(p->maps[i].path);
			continue;
		}
		p->maps[j++] = p->maps[i];
	}
	p->nmaps = j;
	if (p->nmaps == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 16;
		struct mapping *nm = realloc(p->maps, nc * sizeof(*nm));

		if (nm == NULL)
			return -1;
		p->maps = nm;
		p->cap = nc;
	}
	dst = &p->maps[p->nmaps];
	*dst = *m;
	dst->path = strdup(m->path);
	if (dst->path == NULL)
		return -1;
	p->nmaps++;
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
	if (exec)
		free_maps(p);
	return 0;
}

int
addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
	       int32_t tid, int32_t ptid)
{
	struct thread *pt, *t;
	struct process *parent, *child;
	char comm[32] = "";
	size_t i;

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
	parent = addrspace_find(as, ppid);	/* after a possible realloc */
	if (child->comm[0] == '\0')
		memcpy(child->comm, comm, sizeof(comm));
	if (parent == NULL || child->nmaps > 0)
		return 0;
	for (i = 0; i < parent->nmaps; i++) {
		if (addrspace_mmap(as, pid, &parent->maps[i]) < 0)
			return -1;
		parent = addrspace_find(as, ppid);
	}
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

/* One /proc/PID/maps line: start-end perms offset dev inode path. */
#define MAPS_LINE "%08llx-%08llx %s %08llx %02x:%02x %llu %s\n"

static int
append_line(char **buf, size_t *len, const struct mapping *m)
{
	char perms[5], *path, *nb;
	int n;

	perms[0] = (m->prot & PROT_READ_) ? 'r' : '-';
	perms[1] = (m->prot & PROT_WRITE_) ? 'w' : '-';
	perms[2] = 'x';
	/* Always 'p': Go pprof's maps pattern has no 's' and would drop the
	 * path of a shared executable mapping. */
	perms[3] = 'p';
	perms[4] = '\0';
	path = malloc(escaped_path(m->path, NULL) + 1);
	if (path == NULL)
		return -1;
	escaped_path(m->path, path);
	n = snprintf(NULL, 0, MAPS_LINE,
		     (unsigned long long)m->start,
		     (unsigned long long)m->end, perms,
		     (unsigned long long)m->pgoff, m->maj, m->min,
		     (unsigned long long)m->ino, path);
	nb = n < 0 ? NULL : realloc(*buf, *len + (size_t)n + 1);
	if (nb == NULL) {
		free(path);
		return -1;
	}
	*buf = nb;
	snprintf(nb + *len, (size_t)n + 1, MAPS_LINE,
		 (unsigned long long)m->start, (unsigned long long)m->end,
		 perms, (unsigned long long)m->pgoff, m->maj, m->min,
		 (unsigned long long)m->ino, path);
	*len += (size_t)n;
	free(path);
	return 0;
}

static int
cmp_start(const void *a, const void *b)
{
	const struct mapping *x = *(const struct mapping *const *)a;
	const struct mapping *y = *(const struct mapping *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int
addrspace_maps_text(const struct addrspace *as, int32_t pid,
		    bool with_kernel, char **buf, size_t *len)
{
	const struct process *p = addrspace_find(as, pid);
	const struct mapping **v = NULL;
	size_t i, n = 0;
	int ret = 0;

	if (p != NULL && p->nmaps > 0) {
		v = malloc(p->nmaps * sizeof(*v));
		if (v == NULL)
			return -1;
		for (i = 0; i < p->nmaps; i++)
			if (p->maps[i].exec)
				v[n++] = &p->maps[i];
		qsort(v, n, sizeof(*v), cmp_start);
		for (i = 0; i < n && ret == 0; i++)
			ret = append_line(buf, len, v[i]);
		free(v);
	}
	if (ret == 0 && with_kernel && as->have_kernel)
		ret = append_line(buf, len, &as->kernel);
	return ret;
}
