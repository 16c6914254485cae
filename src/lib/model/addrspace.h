/* SPDX-License-Identifier: MIT */
/*
 * Processes, threads and their address spaces, as the MMAP, MMAP2, COMM,
 * FORK and EXIT records describe them.  FORK of a new process copies its
 * parent's mappings (perf sends no MMAP for inherited ones); COMM with the
 * exec bit starts an empty address space.
 */
#ifndef P2G_ADDRSPACE_H
#define P2G_ADDRSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


struct mapping {
	uint64_t start, end, pgoff;
	uint32_t maj, min;
	uint64_t ino;
	uint32_t prot, flags;	/* PROT_* and MAP_* as in MMAP2 */
	bool exec;
	uint8_t build_id_size;
	uint8_t build_id[20];
	char *path;		/* owned */
	int32_t pid;		/* the process that mapped it (-1: kernel) */
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
	/* Indexes into addrspace.maps: the mappings there were at the last
	 * lookup (addrspace_resolve()) by start address, then those added
	 * since, in the order they came. */
	uint32_t *maps;
	size_t n, cap;
	bool used;		/* samples refer to it: copy on change */
	bool sorted;		/* maps sorted by start (for lookups) */
	/* The rest is addrspace.c's.  The mappings are kept in a search
	 * tree by start address; MAPS is the list made from it when asked
	 * for (addrspace_space(), addrspace_resolve()). */
	struct space_node *nodes;
	uint32_t root, free, nnodes, cap_nodes;
	size_t sort_mark;	/* the mappings indexed below it come
				   first in MAPS, by start */
	bool stale;		/* MAPS does not list the tree yet */
};

struct process {
	int32_t pid;
	char comm[32];
	uint32_t space;		/* the current space */
	uint64_t samples;	/* samples attributed to the process */
	bool used;
};

struct addrspace;

/* The kernel's text, as addrspace_text_has() reads it. */
struct kernel_text {
	uint64_t start, end;
	bool known;		/* the file maps the kernel */
};

/* Empty address spaces; NULL when out of memory.  Free them with
 * addrspace_free() (NULL is accepted). */
struct addrspace *addrspace_new(void);
void addrspace_free(struct addrspace *as);

/* The process PID, created (with an empty space) if unknown; NULL when
 * out of memory. */
struct process *addrspace_process(struct addrspace *as, int32_t pid);

/* The process PID, or NULL if never seen. */
struct process *addrspace_find(const struct addrspace *as, int32_t pid);

/* The current space of process PID into *SID, marked used: a sample is
 * about to refer to it.  0, or -1 when out of memory. */
int addrspace_sample_space(struct addrspace *as, int32_t pid, uint32_t *sid);

/* Add mapping M (whose path is copied) to process PID; pid -1 with a
 * kernel path sets the kernel mapping.  Mappings it overlaps are dropped.
 * Returns 0, or -1 when out of memory. */
int addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m);

/* A COMM record; EXEC starts a new address space.  0 or -1 (memory). */
int addrspace_comm(struct addrspace *as, int32_t pid, int32_t tid,
		   const char *comm, size_t len, bool exec);

/* A FORK record: a new process starts with a copy of its parent's
 * mappings.  0 or -1 (memory). */
int addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
		   int32_t tid, int32_t ptid);

/* The command name of thread TID (or of process PID), or "". */
const char *addrspace_comm_of(const struct addrspace *as, int32_t pid,
			      int32_t tid);

/* The processes with samples, the most first (then by pid), in an array
 * the caller frees, of *N entries; NULL when out of memory. */
struct process **addrspace_by_samples(const struct addrspace *as, size_t *n);

/* The mapping of space SID that holds ADDR, or NULL. */
const struct mapping *addrspace_resolve(struct addrspace *as, uint32_t sid,
					uint64_t addr);

/* Counts of the samples in each process: set to 0 for each. */
void addrspace_clear_samples(struct addrspace *as);

/* The address spaces, by number (a sample's SID), with their mappings
 * listed in MAPS; the mappings, by index (struct space.maps); the
 * kernel's text mapping, or NULL. */
size_t addrspace_nspaces(const struct addrspace *as);
const struct space *addrspace_space(struct addrspace *as, uint32_t sid);
size_t addrspace_nmaps(const struct addrspace *as);
const struct mapping *addrspace_map(const struct addrspace *as, size_t i);
const struct mapping *addrspace_kernel(const struct addrspace *as);

/* The kernel's text of AS, which stays at this address while AS lives
 * (its bounds change when a record maps the kernel). */
const struct kernel_text *addrspace_kernel_text(const struct addrspace *as);

/* True if ADDR is kernel text: in the kernel mapping, or in the upper
 * half of the address space when the file has no kernel mapping.
 * Inline: it is asked of every frame of every sample. */
static inline bool
addrspace_text_has(const struct kernel_text *k, uint64_t addr)
{
	if (addr >= 0xffff800000000000ULL)
		return true;
	return k->known && addr >= k->start && addr < k->end;
}

/* addrspace_text_has() of AS's kernel text. */
bool addrspace_is_kernel(const struct addrspace *as, uint64_t addr);

#endif
