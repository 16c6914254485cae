/* SPDX-License-Identifier: MIT */
/*
 * The feature sections that describe the recording machine, decoded for
 * perf2gperf --info: CPU, NUMA, memory and hybrid topology, PMU mappings
 * and capabilities, event groups, caches, the directory format and BPF's
 * BTF objects (the layouts of perf's util/header.c write_* functions).
 * The strings point into the sections that the perf.data handle keeps
 * (NUL-terminated there), and live as long as it does.  A section that
 * stops parsing keeps what came before the point where it stopped, and
 * says where that is.
 */
#ifndef P2G_FEATURE_H
#define P2G_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"

/* Whether a section is there, and where it stopped parsing, if it did. */
struct feat_section {
	bool present;
	bool bad;
	uint64_t bad_at;	/* the file offset */
};

/* Two strings: a name and its value (a capability, a hybrid PMU's CPU
 * list). */
struct feat_pair {
	const char *name, *value;
};

struct feat_numa_node {
	uint32_t node;
	uint64_t total_kb, free_kb;
	const char *cpus;
};

struct feat_pmu_mapping {
	uint32_t type;
	const char *name;
};

/* A group of two or more events whose leader is an event of the file. */
struct feat_group {
	const char *name;	/* "{anon_group}" for a group with none */
	uint32_t leader;	/* the leader's attr */
	uint32_t members;	/* attrs from the leader on */
};

struct feat_cache {
	uint32_t level;
	const char *type, *size, *map;
};

/* A memory node: its blocks, a bitmap of BITS bits (feature_mem_run()
 * lists its runs), and the bytes they hold. */
struct feat_mem_node {
	uint64_t node;
	uint64_t size;		/* set bits times the block size */
	const unsigned char *bitmap;
	uint64_t bits;
};

/* A PMU with capabilities: caps[cap .. cap + ncaps) of pmu_caps. */
struct feat_pmu {
	const char *name;
	size_t cap, ncaps;
};

struct perf_features {
	bool big_endian;	/* of the sections */
	/* features present that carry no data of their own */
	bool nrcpus, branch_stack, auxtrace, stat, compressed;
	/* features below HEADER_LAST_FEATURE the file lacks: bit B for
	 * feature B */
	uint64_t missing;
	struct {
		struct feat_section sec;
		/* the sibling lists, as many as parse before a bad one */
		const char **sockets, **dies, **threads;
		size_t nsockets, ndies, nthreads;	/* dies: only with
							   their ids */
		uint32_t ncpus;
		/* the core, socket and (with dies) die of each of NCPUS
		 * CPUs, when the section has them; else NULL */
		uint32_t *core, *socket, *die;
	} cpu;
	struct {
		struct feat_section sec;
		struct feat_numa_node *v;
		size_t n;
	} numa;
	struct {
		struct feat_section sec;
		uint32_t nr;		/* mappings the section says it has */
		struct feat_pmu_mapping *v;
		size_t n;
	} pmu_mappings;
	struct {
		struct feat_section sec;
		struct feat_group *v;
		size_t n;
	} groups;
	struct {
		struct feat_section sec;
		struct feat_cache *v;
		size_t n;
	} cache;
	struct {
		struct feat_section sec;
		bool have_nodes;	/* the count and block size parse */
		uint64_t nr, block_size;
		struct feat_mem_node *v;
		size_t n;
	} mem;
	bool have_dir_version;
	uint64_t dir_version;
	struct {
		struct feat_section sec;
		uint32_t *ids;
		size_t n;
	} btf;
	struct {
		struct feat_section sec;
		uint32_t nr;		/* capabilities the section says */
		struct feat_pair *v;
		size_t n;
	} cpu_pmu_caps;
	struct {
		struct feat_section sec;
		struct feat_pair *v;	/* PMU name, CPU list */
		size_t n;
	} hybrid;
	struct {
		struct feat_section sec;
		struct feat_pmu *v;
		size_t n;
		struct feat_pair *caps;
		size_t ncaps;
	} pmu_caps;
};

/*
 * Decode the feature sections of PD into F, which the caller releases
 * with feature_release() (also after a failure).  Returns 0, or -1 when
 * out of memory.
 */
int feature_read(const struct perfdata *pd, struct perf_features *f);
void feature_release(struct perf_features *f);

/*
 * The next run of set bits of memory node N of F from bit *POS on: its
 * first and last bit into *FROM and *TO, and *POS moved past it.  False
 * when there is none.  Start with *POS 0.
 */
bool feature_mem_run(const struct perf_features *f,
		      const struct feat_mem_node *n, uint64_t *pos,
		      uint64_t *from, uint64_t *to);

#endif
