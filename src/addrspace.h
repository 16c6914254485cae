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
};

struct process {
	int32_t pid;
	char comm[32];
	struct mapping *maps;
	size_t nmaps, cap;
	uint64_t samples;	/* samples attributed to the process */
	bool used;
};

struct thread {
	int32_t tid;
	int32_t pid;
	char comm[32];
};

struct addrspace {
	struct process *procs;
	size_t nprocs, cap_procs;
	uint32_t *proc_slots;	/* pid -> index + 1 */
	size_t proc_nslots;
	struct thread *threads;
	size_t nthreads, cap_threads;
	uint32_t *thread_slots;
	size_t thread_nslots;
	struct mapping kernel;	/* the kernel's text mapping */
	bool have_kernel;
};

void addrspace_init(struct addrspace *as);
void addrspace_release(struct addrspace *as);

/* The process PID, created (empty) if unknown; NULL when out of memory. */
struct process *addrspace_process(struct addrspace *as, int32_t pid);

/* The process PID, or NULL if never seen. */
struct process *addrspace_find(const struct addrspace *as, int32_t pid);

/* Add mapping M (whose path is copied) to process PID; pid -1 with a
 * kernel path sets the kernel mapping.  Mappings it overlaps are dropped.
 * Returns 0, or -1 when out of memory. */
int addrspace_mmap(struct addrspace *as, int32_t pid, const struct mapping *m);

/* A COMM record; EXEC starts a new address space.  0 or -1 (memory). */
int addrspace_comm(struct addrspace *as, int32_t pid, int32_t tid,
		   const char *comm, size_t len, bool exec);

/* A FORK record.  0 or -1 (memory). */
int addrspace_fork(struct addrspace *as, int32_t pid, int32_t ppid,
		   int32_t tid, int32_t ptid);

/* The command name of thread TID (or of process PID), or "". */
const char *addrspace_comm_of(const struct addrspace *as, int32_t pid,
			      int32_t tid);

/*
 * Append to *BUF (of *LEN bytes, malloc'd) one /proc/maps line for each
 * executable mapping of process PID, and for the kernel text when
 * WITH_KERNEL.  Returns 0, or -1 when out of memory.
 */
int addrspace_maps_text(const struct addrspace *as, int32_t pid,
			bool with_kernel, char **buf, size_t *len);

#endif
