/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU time: how long each thread waited off the CPU, counted on the
 * stack it left the CPU with.  A recording made with
 *   perf record -g -e sched:sched_switch --switch-events
 * has a sched:sched_switch sample, with its callchain, each time a
 * thread leaves the CPU (the sample is taken in the leaving thread), and
 * a PERF_RECORD_SWITCH (per task) or PERF_RECORD_SWITCH_CPU_WIDE
 * (system-wide) record each time one comes back; a sched_switch sample
 * also says which thread comes in (next_pid).  A switch-out weighs the
 * time until its thread's next switch-in; a thread that does not come
 * back counts until its exit or the end of the recording.
 *
 * Only the last switch-out of each thread is held: memory grows with
 * the threads, not with the switches.  The weights go to the aggregate
 * as periods in nanoseconds, one count per switch-out.
 */
#ifndef P2G_OFFCPU_H
#define P2G_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "perfdata.h"
#include "sample.h"

/* A preempted thread's stacks are counted for its thread id with this bit
 * set (aggregate_add()'s TID), which keeps them apart from its sleeps;
 * offcpu_tid() takes it off again. */
#define OFFCPU_PREEMPTED 0x40000000

/* The thread of a stack's context, and whether it was preempted. */
static inline int32_t
offcpu_tid(int32_t tid, bool *preempted)
{
	*preempted = tid >= 0 && (tid & OFFCPU_PREEMPTED);
	return *preempted ? tid & ~OFFCPU_PREEMPTED : tid;
}

/* What a sched:sched_switch sample says. */
struct offcpu_switch {
	int32_t prev_pid, next_pid;	/* -1 when not known */
	uint64_t prev_state;
	bool have_state;
};

struct offcpu;

/* An empty tracker: with BLOCKED, preempted switch-outs (prev_state R)
 * are not counted.  NULL when out of memory. */
struct offcpu *offcpu_new(bool blocked);

/* Free OC; NULL is accepted. */
void offcpu_free(struct offcpu *oc);

/* Whether A is sched:sched_switch. */
bool offcpu_is_switch(const struct perf_attr *a);

/*
 * Whether the events of PD can give off-CPU time: sched:sched_switch
 * sampled with callchains, and switch records asked for (perf record
 * --switch-events).  When not, *MISSING names the perf record options
 * that are missing ("-e sched:sched_switch", "-g", "--switch-events").
 */
bool offcpu_possible(const struct perfdata *pd, const char **missing);

/* The fields of the sched_switch sample S of event A of PD into W, by
 * the names of its format (prev_pid, prev_state, next_pid); without a
 * format, the thread sampled is the one leaving. */
void offcpu_decode(const struct perfdata *pd, const struct perf_attr *a,
		   const struct perf_sample *s, struct offcpu_switch *w);

/* What a record other than a sample says (offcpu_record()). */
enum offcpu_news {
	OFFCPU_NONE,
	OFFCPU_IN,		/* the thread runs again */
	OFFCPU_EXIT,		/* the thread exits */
};

/*
 * Whether REC (in byte order BIG) says that a thread runs again: a
 * PERF_RECORD_SWITCH or PERF_RECORD_SWITCH_CPU_WIDE switch-in (of the
 * thread its sample_id_all trailer names), or a SWITCH_CPU_WIDE
 * switch-out naming the thread that comes in (next_prev_tid); or that
 * it exits (PERF_RECORD_EXIT).  The thread in *TID, the record's time
 * in *TIME; records without a time say nothing.
 */
enum offcpu_news offcpu_record(const struct perf_record *rec, bool big,
			       int32_t *tid, uint64_t *time);

/* Whether a switch-out in PREV_STATE is a preemption (state R: the
 * thread could run on; perf script prints "R" or "R+"). */
bool offcpu_preempted(uint64_t prev_state);

/* Whether a thread leaving in PREV_STATE has exited (X or Z): it does
 * not come back. */
bool offcpu_dead(uint64_t prev_state);

/*
 * Thread TID leaves the CPU at TIME with the N frames F (its stack, leaf
 * first) in space SID, a sample of event EV, preempted or not.  A
 * switch-out still waiting for TID is dropped: its switch-in was lost.
 * 0, or -1 when out of memory.
 */
int offcpu_out(struct offcpu *oc, int32_t tid, uint32_t sid, uint32_t ev,
	       uint64_t time, bool preempted, const uint64_t *f, uint32_t n);

/* Thread TID runs again at TIME: its switch-out, if one waits, is
 * counted in AG with the time between.  0, or -1 when out of memory. */
int offcpu_in(struct offcpu *oc, struct aggregate *ag, int32_t tid,
	      uint64_t time);

/* Thread TID exits at TIME: as offcpu_in(), and its stack is freed. */
int offcpu_exit(struct offcpu *oc, struct aggregate *ag, int32_t tid,
		uint64_t time);

/* The recording ends at END (or at the latest time met, if later):
 * every switch-out still waiting is counted up to there, and forgotten.
 * 0, or -1 when out of memory. */
int offcpu_finish(struct offcpu *oc, struct aggregate *ag, uint64_t end);

/* Counts so far. */
struct offcpu_counts {
	uint64_t outs;		/* switch-outs held */
	uint64_t counted;	/* counted at a switch-in or exit */
	uint64_t at_end;	/* counted up to the end */
	uint64_t lost_in;	/* dropped: no switch-in before the next
				   switch-out */
	uint64_t preempted_left_out;	/* with BLOCKED */
};
const struct offcpu_counts *offcpu_counts(const struct offcpu *oc);

#endif
