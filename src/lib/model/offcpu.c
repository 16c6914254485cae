/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU time (see offcpu.h): the last switch-out of each thread, held
 * in a table by thread id until the thread comes back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "offcpu.h"
#include "perf_abi.h"
#include "tracefmt.h"

/* The states of a task that sched_switch reports (prev_state): the
 * kernel's TASK_REPORT bits, all 0 for a running (preempted) task, and
 * EXIT_DEAD / EXIT_ZOMBIE for one that exits (include/linux/sched.h,
 * and include/trace/events/sched.h, which prints them as "R", "X",
 * "Z").  Bits above the low byte only mark a preemption ("R+"). */
#define STATE_REPORT_MASK 0xffu
#define STATE_EXITED 0x30u	/* EXIT_DEAD | EXIT_ZOMBIE */

struct thread {
	int32_t tid;
	uint32_t sid, ev;
	uint32_t n, cap;	/* frames held, room */
	bool waiting;		/* a switch-out waits for its switch-in */
	bool preempted;
	uint64_t since;		/* the time of the switch-out */
	uint64_t *frames;
};

struct offcpu {
	bool blocked;
	struct thread *t;
	size_t n, cap;
	struct hashtab index;
	uint64_t latest;	/* the latest time met */
	struct offcpu_counts c;
};

struct offcpu *
offcpu_new(bool blocked)
{
	struct offcpu *oc = calloc(1, sizeof(*oc));

	if (oc != NULL)
		oc->blocked = blocked;
	return oc;
}

void
offcpu_free(struct offcpu *oc)
{
	size_t i;

	if (oc == NULL)
		return;
	for (i = 0; i < oc->n; i++)
		free(oc->t[i].frames);
	free(oc->t);
	hashtab_free(&oc->index);
	free(oc);
}

bool
offcpu_is_switch(const struct perf_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT && a->name != NULL &&
	       strcmp(a->name, "sched:sched_switch") == 0;
}

/* perf_event_attr's context_switch bit (include/uapi/linux/
 * perf_event.h): perf record --switch-events. */
#define ATTR_CONTEXT_SWITCH (1ULL << 26)

bool
offcpu_possible(const struct perfdata *pd, const char **missing)
{
	bool sw = false, chain = false, switches = false;
	size_t i;

	for (i = 0; i < perfdata_nattrs(pd); i++) {
		const struct perf_attr *a = perfdata_attr(pd, i);

		if (a->flags & ATTR_CONTEXT_SWITCH)
			switches = true;
		if (offcpu_is_switch(a)) {
			sw = true;
			if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
				chain = true;
		}
	}
	if (!sw)
		*missing = switches ? "-e sched:sched_switch"
				    : "-e sched:sched_switch --switch-events";
	else if (!chain)
		*missing = switches ? "-g" : "-g --switch-events";
	else if (!switches)
		*missing = "--switch-events";
	else
		return true;
	return false;
}

void
offcpu_decode(const struct perfdata *pd, const struct perf_attr *a,
	      const struct perf_sample *s, struct offcpu_switch *w)
{
	const struct tracefmt_event *e =
		tracefmt_find(perfdata_tracefmt(pd), a->config);
	uint64_t v;

	w->prev_pid = (int32_t)s->tid;
	w->next_pid = -1;
	w->prev_state = 0;
	w->have_state = false;
	if (s->raw == NULL)
		return;
	if (tracefmt_read(tracefmt_field(e, "prev_pid"), s->raw, s->raw_size,
			  s->big_endian, &v))
		w->prev_pid = (int32_t)v;
	if (tracefmt_read(tracefmt_field(e, "next_pid"), s->raw, s->raw_size,
			  s->big_endian, &v))
		w->next_pid = (int32_t)v;
	w->have_state = tracefmt_read(tracefmt_field(e, "prev_state"),
				      s->raw, s->raw_size, s->big_endian,
				      &w->prev_state);
}

enum offcpu_news
offcpu_record(const struct perf_record *rec, bool big, int32_t *tid,
	      uint64_t *time)
{
	const struct perf_attr *a = rec->attr;

	/* perf_event.h: EXIT is pid, ppid, tid, ptid, time; SWITCH_CPU_WIDE
	 * next_prev_pid, next_prev_tid; SWITCH has no body.  A time means
	 * an attr with a sample_id_all trailer, whose first field is then
	 * pid, tid when the attr samples TID. */
	if (!perfdata_record_time(rec, time))
		return OFFCPU_NONE;
	switch (rec->type) {
	case PERF_RECORD_EXIT:
		if (rec->size < 20)
			return OFFCPU_NONE;
		*tid = (int32_t)load32(rec->data + 16, big);
		return OFFCPU_EXIT;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT) {
			if (rec->size < 16)
				return OFFCPU_NONE;
			*tid = (int32_t)load32(rec->data + 12, big);
			return OFFCPU_IN;
		}
		/* fall through */
	case PERF_RECORD_SWITCH:
		if ((rec->misc & PERF_RECORD_MISC_SWITCH_OUT) ||
		    !(a->sample_type & PERF_SAMPLE_TID))
			return OFFCPU_NONE;
		*tid = (int32_t)load32(rec->data + rec->size - a->trailer_size +
					       4, big);
		return OFFCPU_IN;
	}
	return OFFCPU_NONE;
}

bool
offcpu_preempted(uint64_t prev_state)
{
	return (prev_state & STATE_REPORT_MASK) == 0;
}

bool
offcpu_dead(uint64_t prev_state)
{
	return (prev_state & STATE_EXITED) != 0;
}

/* The thread TID, added if new (when ADD); NULL if not there, or when
 * out of memory (*NOMEM then set). */
static struct thread *
thread_of(struct offcpu *oc, int32_t tid, bool add, bool *nomem)
{
	struct hashtab_iter it;
	uint64_t h = hashtab_hash64((uint64_t)(uint32_t)tid);
	uint32_t i;
	struct thread *nt;

	*nomem = false;
	if (add && hashtab_reserve(&oc->index, oc->n + 1) < 0)
		goto nomem;
	for (i = hashtab_probe(&oc->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&oc->index, &it))
		if (oc->t[i].tid == tid)
			return &oc->t[i];
	if (!add)
		return NULL;
	if (oc->n == oc->cap) {
		size_t cap = oc->cap ? oc->cap * 2 : 64;

		nt = realloc(oc->t, cap * sizeof(*nt));
		if (nt == NULL)
			goto nomem;
		oc->t = nt;
		oc->cap = cap;
	}
	memset(&oc->t[oc->n], 0, sizeof(oc->t[oc->n]));
	oc->t[oc->n].tid = tid;
	hashtab_insert(&oc->index, &it, (uint32_t)oc->n);
	return &oc->t[oc->n++];
nomem:
	*nomem = true;
	return NULL;
}

static void
seen(struct offcpu *oc, uint64_t time)
{
	if (time > oc->latest)
		oc->latest = time;
}

int
offcpu_out(struct offcpu *oc, int32_t tid, uint32_t sid, uint32_t ev,
	   uint64_t time, bool preempted, const uint64_t *f, uint32_t n)
{
	struct thread *t;
	bool nomem;

	seen(oc, time);
	if (preempted && oc->blocked) {
		oc->c.preempted_left_out++;
		t = thread_of(oc, tid, false, &nomem);
		if (t != NULL && t->waiting) {
			t->waiting = false;
			oc->c.lost_in++;
		}
		return 0;
	}
	t = thread_of(oc, tid, true, &nomem);
	if (t == NULL)
		return -1;
	if (t->waiting)
		oc->c.lost_in++;
	if (n > t->cap) {
		uint64_t *nf = realloc(t->frames, n * sizeof(*nf));

		if (nf == NULL)
			return -1;
		t->frames = nf;
		t->cap = n;
	}
	memcpy(t->frames, f, n * sizeof(*f));
	t->n = n;
	t->sid = sid;
	t->ev = ev;
	t->since = time;
	t->preempted = preempted;
	t->waiting = true;
	oc->c.outs++;
	return 0;
}

/* Count thread T's switch-out up to TIME in AG. */
static int
count(struct aggregate *ag, struct thread *t, uint64_t time)
{
	uint64_t *f;

	t->waiting = false;
	if (t->n == 0)
		return 0;
	f = aggregate_frames(ag, t->n);
	if (f == NULL)
		return -1;
	memcpy(f, t->frames, t->n * sizeof(*f));
	return aggregate_add(ag, t->ev, t->sid,
			     t->preempted ? t->tid | OFFCPU_PREEMPTED : t->tid,
			     t->n, time > t->since ? time - t->since : 0);
}

int
offcpu_in(struct offcpu *oc, struct aggregate *ag, int32_t tid,
	  uint64_t time)
{
	struct thread *t;
	bool nomem;

	seen(oc, time);
	t = thread_of(oc, tid, false, &nomem);
	if (t == NULL || !t->waiting)
		return 0;
	oc->c.counted++;
	return count(ag, t, time);
}

int
offcpu_exit(struct offcpu *oc, struct aggregate *ag, int32_t tid,
	    uint64_t time)
{
	struct thread *t;
	bool nomem;

	if (offcpu_in(oc, ag, tid, time) < 0)
		return -1;
	t = thread_of(oc, tid, false, &nomem);
	if (t != NULL) {
		free(t->frames);
		t->frames = NULL;
		t->n = t->cap = 0;
	}
	return 0;
}

int
offcpu_finish(struct offcpu *oc, struct aggregate *ag, uint64_t end)
{
	size_t i;

	if (oc->latest > end)
		end = oc->latest;
	for (i = 0; i < oc->n; i++)
		if (oc->t[i].waiting) {
			oc->c.at_end++;
			if (count(ag, &oc->t[i], end) < 0)
				return -1;
		}
	return 0;
}

const struct offcpu_counts *
offcpu_counts(const struct offcpu *oc)
{
	return &oc->c;
}
