/* SPDX-License-Identifier: MIT */
/*
 * Processes, threads and their address spaces, as the MMAP, MMAP2, COMM,
 * FORK and EXIT records describe them.  FORK of a new process gives it
 * its parent's mappings (perf sends no MMAP for inherited ones); COMM with
 * the exec bit starts a new address space that keeps the old mappings
 * until the new program's MMAPs replace them, as perf keeps them: a sample
 * taken inside execve, after the exec record and before the new
 * program's mappings, still has its user frames in the old program's
 * libraries.  A process's address space
 * (a numbered space) changes when a mapping replaces another after a
 * sample was taken in it: the sample's space stays as it was.  Spaces
 * share the mappings they have in common, so that forks and changes take
 * memory and time of the records, not of the mappings they carry over.
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
 * kernel path sets the kernel mapping.  Mappings it overlaps keep, as in
 * perf, the parts it does not cover, each a mapping of its own (the part
 * above with its file offset moved along).  Returns 0, or -1 when out of
 * memory. */
int addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m);

/* A COMM record; EXEC starts a new address space.  0 or -1 (memory). */
int addrspace_comm(struct addrspace *as, int32_t pid, int32_t tid,
		   const char *comm, size_t len, bool exec);

/* A FORK record: a new process starts with its parent's mappings.  0 or
 * -1 (memory). */
int addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
		   int32_t tid, int32_t ptid);

/* The command name of thread TID (or of process PID), or "". */
const char *addrspace_comm_of(const struct addrspace *as, int32_t pid,
			      int32_t tid);

/*
 * The name thread TID has now from a COMM record, or inherited by FORK;
 * *ERA gets a number that changes with each name a thread is given.
 * NULL (and *ERA 0) for a thread not named yet.
 */
const char *addrspace_thread_name(const struct addrspace *as, int32_t tid,
				  uint32_t *era);

/* The command name of process PID while space SID was its own (an
 * exec gives a process a new space and name): the last it had then, or
 * "".  perf names a sample by the name at the time. */
const char *addrspace_space_comm(const struct addrspace *as, uint32_t sid);

/* The processes with samples, the most first (then by pid), in an array
 * the caller frees, of *N entries; NULL when out of memory. */
struct process **addrspace_by_samples(const struct addrspace *as, size_t *n);

/* The mapping of space SID that holds ADDR, or NULL. */
const struct mapping *addrspace_resolve(struct addrspace *as, uint32_t sid,
					uint64_t addr);

/* Counts of the samples in each process: set to 0 for each. */
void addrspace_clear_samples(struct addrspace *as);

/* The number of address spaces (a sample's SID is below it); the pid of
 * space SID. */
size_t addrspace_nspaces(const struct addrspace *as);
int32_t addrspace_space_pid(const struct addrspace *as, uint32_t sid);

/* The number of mappings; mapping I (the indexes addrspace_walk_space()
 * gives); the kernel's text mapping, or NULL. */
size_t addrspace_nmaps(const struct addrspace *as);
const struct mapping *addrspace_map(const struct addrspace *as, size_t i);
const struct mapping *addrspace_kernel(const struct addrspace *as);

/*
 * A walk over the executable mappings of several spaces, each mapping
 * listed once.  addrspace_walk_begin() starts one (0, or -1 when out of
 * memory); no mapping may be added while it lasts.  Then
 * addrspace_walk_space() gives the indexes of the executable mappings of
 * space SID that no space before it in the walk had, and of those for
 * which EVERY is true, each time, in *MAPS (*N of them; valid until the
 * next call); 0, or -1 when out of memory.  The order is that of the
 * space's mappings by start address, but for those mapped since the
 * space's last lookup (addrspace_resolve()), which come last, in the
 * order they came.  A mapping of two spaces may be listed again, after
 * a change of the space near it; a caller must take that as nothing new.
 */
int addrspace_walk_begin(struct addrspace *as);
int addrspace_walk_space(struct addrspace *as, uint32_t sid,
			 bool (*every)(const struct mapping *),
			 const uint32_t **maps, size_t *n);

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
