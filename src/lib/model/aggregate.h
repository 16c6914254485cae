/* SPDX-License-Identifier: MIT */
/*
 * Samples to counted stacks: the frames of a callchain as perf shows
 * them (context markers and zero addresses out, capped, one side kept
 * with --user-only or --kernel-only), and the stack table fed through a
 * cache of recent stacks.  Most samples repeat a stack seen a moment
 * before; the cache finds it without hashing the stack whole, and a new
 * stack's slot in the table is fetched while the next sample is read.
 * The table's entries come in the order of the stacks' first samples,
 * as they would without the cache.
 *
 * Each entry's context (stack_entry.ctx) says where its samples were
 * taken.  By default it is the address space itself (addrspace.h), and
 * the threads of a process share its stacks; made with BY_THREAD, it is
 * the index of a (space, thread) pair in a small table kept here, so
 * that an output can keep the threads apart (a pprof tid label, --split
 * by thread).  Either way aggregate_space() and aggregate_tid() read it:
 * the entry stays 24 bytes and the default costs nothing more.
 */
#ifndef P2G_AGGREGATE_H
#define P2G_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "stacktab.h"

/* What the frames of a callchain are cut to. */
struct chain_opts {
	bool user_only;		/* drop kernel frames */
	bool kernel_only;	/* drop user frames */
	size_t max_stack;	/* frames kept at most */
	bool keep_zero;		/* keep address-0 frames (perf shows
				   them as [unknown]; the gperftools
				   format cannot hold them) */
};

/* Counts over the frames of all callchains. */
struct chain_counts {
	uint64_t markers;	/* context markers removed */
	uint64_t zero_frames;	/* address-0 frames dropped */
	uint64_t kernel_frames;
	uint64_t frames_dropped;	/* by user_only / kernel_only */
	uint64_t frames_capped;	/* stacks cut at max_stack */
};

/*
 * The frames of callchain CHAIN[0..NR) (NR entries of 8 bytes, in the
 * file's byte order BIG) into F (room for NR), leaf first, kernel text
 * told by KT.  Returns how many F holds; *NRAW gets the number of
 * addresses in the chain before user_only / kernel_only (the capped one
 * included).
 */
size_t aggregate_chain(const struct kernel_text *kt,
		       const struct chain_opts *o,
		       const unsigned char *chain, uint64_t nr, bool big,
		       uint64_t *f, uint64_t *nraw, struct chain_counts *c);

/*
 * The index of the PERF_CONTEXT_USER marker among the first max_stack
 * entries of callchain CHAIN[0..NR), or NR when there is none there.
 */
uint64_t aggregate_user_marker(const struct chain_opts *o,
			       const unsigned char *chain, uint64_t nr,
			       bool big);

/*
 * The frames of a --call-graph lbr sample (branch_sample_type
 * CALL_STACK), as perf stitches them (tools/perf/util/machine.c,
 * resolve_lbr_callchain_sample(), callee order, without --stitch-lbr):
 * the kernel part of callchain CHAIN, up to its PERF_CONTEXT_USER
 * marker at UMARK (aggregate_user_marker(), < NR), then, when the branch
 * stack BR[0..NBR) (entries of 24 bytes: from, to, flags) is not empty,
 * the target of its newest call (the entry of the function sampled) and
 * the source of every call, newest first, each plus 1: a call site read
 * as a return address, so that pprof's own minus 1 lands on the call.
 * The user part of the callchain is not used.  F needs room for UMARK +
 * NBR + 1 frames; the rest as aggregate_chain().
 */
size_t aggregate_lbr(const struct kernel_text *kt, const struct chain_opts *o,
		     const unsigned char *chain, uint64_t umark,
		     const unsigned char *br, uint64_t nbr, bool big,
		     uint64_t *f, uint64_t *nraw, struct chain_counts *c);

struct aggregate;

/* An empty aggregate over a packed stack table (stacktab_pack()),
 * keeping periods if WITH_PERIODS, stacks of different threads apart if
 * BY_THREAD; NULL when out of memory. */
struct aggregate *aggregate_new(bool with_periods, bool by_thread);

/* Free AG and its table; NULL is accepted. */
void aggregate_free(struct aggregate *ag);

/* The buffer of the next stack, with room for N frames; NULL when out of
 * memory.  aggregate_add() may hand it on to the table: ask again for
 * each stack. */
uint64_t *aggregate_frames(struct aggregate *ag, size_t n);

/*
 * Count one sample of period PERIOD of the first N frames (N > 0) of
 * aggregate_frames(), of event EV in space SID, on thread TID.  0, or -1
 * when out of memory.
 */
int aggregate_add(struct aggregate *ag, uint32_t ev, uint32_t sid,
		  int32_t tid, uint32_t n, uint64_t period);

/* As aggregate_add(), past the cache: for a sample counted for several
 * events, once for each. */
int aggregate_add_direct(struct aggregate *ag, uint32_t ev, uint32_t sid,
			 int32_t tid, uint32_t n, uint64_t period);

/* Put the stack still waiting into the table: call before reading it.
 * 0, or -1 when out of memory. */
int aggregate_flush(struct aggregate *ag);

/* The stack table (after aggregate_flush()). */
struct stacktab *aggregate_table(struct aggregate *ag);

/* Whether the entries' contexts tell threads apart (BY_THREAD). */
bool aggregate_by_thread(const struct aggregate *ag);

/* The address space of context CTX (an entry's ctx); its process is
 * that space's (addrspace_space_pid()). */
uint32_t aggregate_space(const struct aggregate *ag, uint32_t ctx);

/* The thread of context CTX, as aggregate_add() was given it; 0 unless
 * made BY_THREAD. */
int32_t aggregate_tid(const struct aggregate *ag, uint32_t ctx);

/*
 * The name of thread TID of space SID now, and into *ERA a number that
 * changes with each name the thread is given (addrspace_thread_name()).
 * The string must last until the next call.
 */
typedef const char *(*aggregate_namer)(void *ctx, uint32_t sid, int32_t tid,
				       uint32_t *era);

/*
 * With BY_THREAD: each stack added is named by FN(CTX, ...) for its
 * thread when added (the name copied), and the samples of one thread
 * under two names get two contexts.  Without a namer, contexts have no
 * name ("").
 */
void aggregate_set_namer(struct aggregate *ag, aggregate_namer fn, void *ctx);

/* The name of the thread of context CTX when its samples were taken
 * (aggregate_set_namer()); "" unless made BY_THREAD. */
const char *aggregate_comm(const struct aggregate *ag, uint32_t ctx);

#endif
