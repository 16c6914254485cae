/* SPDX-License-Identifier: MIT */
/*
 * The conversion pipeline (convert.h): pull each input's events from its
 * reader, keep the address spaces up to date with the side-band records,
 * count each sample's stack for the events it counts for, then choose
 * the event and make its profiles.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "convert.h"
#include "cpuprof.h"
#include "delivery.h"
#include "offcpu.h"
#include "perf_abi.h"
#include "profiles.h"
#include "reader.h"
#include "records.h"
#include "sample.h"
#include "unwind.h"

/* perf's default depth for unwound stacks (and the kernel's default
 * sysctl kernel.perf_event_max_stack). */
#define DEFAULT_MAX_STACK 127
#define DWARF_BITS (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

struct conv {
	struct perfdata *pd;	/* the input being read */
	bool big_endian;	/* pd's byte order */
	const struct perfdata *first;	/* the first input: events, build
					   ids, arch */
	unsigned input;		/* index of pd among the inputs */
	const struct convert_opts *o;
	bool count_only;	/* convert_count(): samples per process */
	struct convert_stats *st;
	struct addrspace *as;
	const struct kernel_text *kt;	/* as's */
	struct aggregate *ag;
	struct deliveries dl;
	struct chain_opts co;
	struct chain_counts cc;
	size_t max_unwind;	/* frames per stack, with unwound ones */
	struct unwinder *uw;	/* for the current input; NULL: no
				   unwinding */
	uint64_t *uframes;	/* max_unwind unwound user frames */
	char name[16];		/* ":TID", a thread not named yet */
	/* The spaces of the two processes sampled last, the latest first
	 * (the CPUs' samples come interleaved), kept until a record that
	 * may change spaces comes; nspaces of them are set. */
	struct {
		int32_t pid;
		uint32_t sid;
	} spaces[2];
	unsigned nspaces;
	struct offcpu *oc;	/* --off-cpu: the switch-outs waiting */
};

/* Whether X is among the N ids V, sorted (convert.h): a binary search,
 * as the lists may be long and each sample looks. */
static bool
in_list(const int32_t *v, size_t n, int32_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] == x)
			return true;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int32_t
ns(const struct conv *cv, int32_t pid)
{
	if (cv->input == 0 || pid < 0)
		return pid;
	return (int32_t)((uint32_t)pid |
			 (uint32_t)cv->input << CONVERT_PID_BITS);
}

/* Count frame V and say whether --user-only/--kernel-only keep it. */
static bool
keep_frame(struct conv *cv, uint64_t v)
{
	bool kernel = addrspace_is_kernel(cv->as, v);

	if (kernel)
		cv->cc.kernel_frames++;
	if ((kernel && cv->o->user_only) || (!kernel && cv->o->kernel_only)) {
		cv->cc.frames_dropped++;
		return false;
	}
	return true;
}

/* Whether the samples of A carry the user part of their call stack in
 * the branch stack (perf record --call-graph lbr). */
static bool
is_lbr(const struct perf_attr *a)
{
	return (a->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	       (a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
}

/* addrspace_sample_space(), remembered from the samples before.  0, or
 * -1 when out of memory. */
static int
sample_space(struct conv *cv, int32_t pid, uint32_t *sid)
{
	if (cv->nspaces > 0 && cv->spaces[0].pid == pid) {
		*sid = cv->spaces[0].sid;
		return 0;
	}
	if (cv->nspaces > 1 && cv->spaces[1].pid == pid)
		*sid = cv->spaces[1].sid;
	else if (addrspace_sample_space(cv->as, pid, sid) < 0)
		return -1;
	else if (cv->nspaces < 2)
		cv->nspaces++;
	cv->spaces[1] = cv->spaces[0];
	cv->spaces[0].pid = pid;
	cv->spaces[0].sid = *sid;
	return 0;
}

/*
 * The user part of a --call-graph dwarf sample: unwind its stack copy and
 * put the frames after the kernel frames of its callchain (*N frames in
 * F), as perf does.  When nothing could be unwound, the callchain stays
 * as it is.  0, or -1 with ERR set.
 */
static int
unwind_user(struct conv *cv, const struct perf_record *rec,
	    const struct perf_sample *s, uint32_t sid, uint64_t *f,
	    uint64_t *n, struct p2g_error *err)
{
	struct convert_stats *st = cv->st;
	enum unwind_result res;
	size_t k, nu, keep = 0;

	if (cv->o->kernel_only)
		return 0;
	if (unwind_sample(cv->uw, cv->as, sid, ns(cv, (int32_t)s->pid),
			  (int32_t)s->tid, rec->attr, s, cv->uframes,
			  cv->max_unwind, &nu, &res) < 0)
		return p2g_fail(err, P2G_NOMEM, rec->offset,
				"out of memory while unwinding");
	if (unwind_no_fds(cv->uw))
		return p2g_fail(err, P2G_IO, rec->offset,
				"too many open files to read the binaries "
				"(see ulimit -n)");
	switch (res) {
	case UNWIND_NONE: return 0;
	case UNWIND_DONE: st->dwarf_done++; break;
	case UNWIND_PARTIAL: st->dwarf_partial++; break;
	case UNWIND_COPY_END:
		st->dwarf_partial++;
		st->dwarf_copy_end++;
		break;
	case UNWIND_NO_BINARY: st->dwarf_no_binary++; break;
	case UNWIND_UNSUPPORTED: st->dwarf_unsupported++; break;
	}
	st->dwarf_samples++;
	if (nu == 0)
		return 0;
	/* Kernel frames first (the callchain's user part, if the kernel
	 * recorded one, gives way to the unwound frames). */
	for (k = 0; k < *n; k++)
		if (addrspace_is_kernel(cv->as, f[k]))
			f[keep++] = f[k];
	for (k = 0; k < nu; k++) {
		/* Zeros are dropped, as from callchains, where a profile
		 * cannot hold PC 0 (gperftools). */
		if (cv->uframes[k] == 0 && !cv->co.keep_zero) {
			cv->cc.zero_frames++;
			continue;
		}
		if (keep == cv->max_unwind) {
			cv->cc.frames_capped++;
			break;
		}
		if (keep_frame(cv, cv->uframes[k]))
			f[keep++] = cv->uframes[k];
	}
	*n = keep;
	return 0;
}

/*
 * The name of thread TID of space SID as perf names it now
 * (tools/perf/util/thread.c, thread__new(), and its idle thread): its
 * COMM, "swapper" for the idle task, ":TID" until it is named, and for
 * good when it never is (aggregate_namer).
 */
static const char *
name_thread(void *ctx, uint32_t sid, int32_t tid, uint32_t *era)
{
	struct conv *cv = ctx;
	const char *comm;
	int32_t real;

	/* an off-CPU stack's thread carries a flag (offcpu.h) */
	if (tid >= 0)
		tid &= ~OFFCPU_PREEMPTED;
	comm = addrspace_thread_name(cv->as, tid, era);
	if (comm != NULL)
		return comm;
	real = tid >= 0 ? (int32_t)((uint32_t)tid &
				    ((1U << CONVERT_PID_BITS) - 1))
			: tid;
	if (real == 0 && addrspace_space_pid(cv->as, sid) ==
				 ns(cv, 0))
		return "swapper";
	snprintf(cv->name, sizeof(cv->name), ":%d", (int)real);
	return cv->name;
}

/* A sample. */
static int
on_sample(struct conv *cv, const struct perf_record *rec,
	  struct p2g_error *err)
{
	struct convert_stats *st = cv->st;
	const struct convert_opts *o = cv->o;
	struct perf_sample full;
	const struct perf_sample *s = &full;
	struct offcpu_switch sw;
	uint64_t n, nraw, umark, *f, zeros;
	uint32_t sid;
	size_t k;

	st->samples++;
	if (rec->attr->unknown_bits) {
		st->undecodable++;
		/* an error only if this event is chosen */
		return deliveries_undecodable(&cv->dl, rec) < 0 ? -1 : 0;
	}
	if (sample_decode(rec->attr, rec->data + 8, rec->size - 8u,
			  rec->offset + 8, cv->big_endian, &full, err) < 0)
		return -1;
	if (deliveries_of(&cv->dl, rec, s, s->period) < 0)
		goto nomem;
	if (cv->oc != NULL && offcpu_is_switch(rec->attr)) {
		offcpu_decode(cv->pd, rec->attr, s, &sw);
		if (sw.next_pid > 0 &&
		    offcpu_in(cv->oc, cv->ag, ns(cv, sw.next_pid), s->time) < 0)
			goto nomem;
		/* The idle task's waits, and a thread's last switch, which
		 * does not come back, are no one's. */
		if (sw.prev_pid <= 0 ||
		    (sw.have_state && offcpu_dead(sw.prev_state)))
			return 0;
	}
	if (cv->dl.n == 0)
		return 0;
	if (cv->count_only) {
		struct process *p = addrspace_process(cv->as,
						      ns(cv, (int32_t)s->pid));

		if (p == NULL)
			goto nomem;
		p->samples += cv->dl.n;
		return 0;
	}
	if ((o->npids && !in_list(o->pids, o->npids, (int32_t)s->pid)) ||
	    (o->ntids && !in_list(o->tids, o->ntids, (int32_t)s->tid)) ||
	    (o->comm &&
	     strcmp(addrspace_comm_of(cv->as, ns(cv, (int32_t)s->pid),
				      ns(cv, (int32_t)s->tid)),
		    o->comm) != 0)) {
		st->samples_filtered++;
		return 0;
	}

	zeros = cv->cc.zero_frames;
	f = aggregate_frames(cv->ag, s->callchain_nr + cv->max_unwind + 1 +
					     s->branch_nr);
	if (f == NULL)
		goto nomem;
	if (is_lbr(rec->attr) &&
	    (umark = aggregate_user_marker(&cv->co, s->callchain,
					   s->callchain_nr, cv->big_endian)) <
		    s->callchain_nr) {
		n = aggregate_lbr(cv->kt, &cv->co, s->callchain, umark,
				  s->branches, s->branch_nr,
				  cv->big_endian, f, &nraw, &cv->cc);
		st->lbr_samples++;
	} else {
		n = aggregate_chain(cv->kt, &cv->co, s->callchain,
				    s->callchain_nr, cv->big_endian, f, &nraw,
				    &cv->cc);
	}
	if (sample_space(cv, ns(cv, (int32_t)s->pid), &sid) < 0)
		goto nomem;
	if (cv->uw != NULL && (rec->attr->sample_type & DWARF_BITS) ==
				      DWARF_BITS) {
		if (unwind_user(cv, rec, s, sid, f, &n, err) < 0)
			return -1;
		if (n > 0)
			nraw = n;
	}
	/* No address in the callchain: the sample's ip, as perf shows it
	 * (0 too, which perf counts as [unknown], where a profile can hold
	 * it). */
	if (nraw == 0 && (s->ip != 0 || cv->co.keep_zero) &&
	    keep_frame(cv, s->ip))
		f[n++] = s->ip;
	if (n == 0) {
		if (cv->cc.zero_frames != zeros || (nraw == 0 && s->ip == 0))
			st->samples_zero++;
		else
			st->samples_empty++;
		return 0;
	}
	if (n > STACKTAB_MAX_PCS) {
		n = STACKTAB_MAX_PCS;
		cv->cc.frames_capped++;
	}
	if (cv->oc != NULL && offcpu_is_switch(rec->attr)) {
		if (offcpu_out(cv->oc, ns(cv, sw.prev_pid), sid,
			       cv->dl.v[0].ev, s->time,
			       sw.have_state &&
				       offcpu_preempted(sw.prev_state),
			       f, (uint32_t)n) < 0)
			goto nomem;
		return 0;
	}
	if (cv->dl.n == 1) {
		if (aggregate_add(cv->ag, cv->dl.v[0].ev, sid,
				  ns(cv, (int32_t)s->tid), (uint32_t)n,
				  cv->dl.v[0].period) < 0)
			goto nomem;
		return 0;
	}
	for (k = 0; k < cv->dl.n; k++)
		if (aggregate_add_direct(cv->ag, cv->dl.v[k].ev, sid,
					 ns(cv, (int32_t)s->tid), (uint32_t)n,
					 cv->dl.v[k].period) < 0)
			goto nomem;
	return 0;
nomem:
	return p2g_fail(err, P2G_NOMEM, rec->offset,
			"out of memory after %llu distinct stacks",
			(unsigned long long)stacktab_nr(
				aggregate_table(cv->ag)));
}

/* Process PID of the current input leaves its address space (it exits
 * or execs): the space takes no more samples, so its Dwfl can go. */
static void
forget_space(struct conv *cv, int32_t pid)
{
	const struct process *p;

	if (cv->uw == NULL)
		return;
	p = addrspace_find(cv->as, ns(cv, pid));
	if (p != NULL)
		unwind_forget(cv->uw, p->space);
}

/* A mapping of the current input's process PID. */
static int
add_mapping(struct conv *cv, int32_t pid, const struct sideband *sb)
{
	struct mapping m;
	char *path;
	int ret;

	memset(&m, 0, sizeof(m));
	m.start = sb->map.start;
	m.end = sb->map.end;
	m.pgoff = sb->map.pgoff;
	m.maj = sb->map.maj;
	m.min = sb->map.min;
	m.ino = sb->map.ino;
	m.prot = sb->map.prot;
	m.flags = sb->map.flags;
	m.exec = sb->map.exec;
	m.build_id_size = sb->map.build_id_size;
	memcpy(m.build_id, sb->map.build_id, sizeof(m.build_id));
	path = malloc(sb->namelen + 1);
	if (path == NULL)
		return -1;
	memcpy(path, sb->name, sb->namelen);
	path[sb->namelen] = '\0';
	m.path = path;
	ret = addrspace_mmap(cv->as, ns(cv, pid), &m);
	free(path);
	return ret;
}

/* --off-cpu: a record that says a thread runs again, or exits
 * (offcpu_record()).  0, or -1 when out of memory. */
static int
switch_record(struct conv *cv, const struct perf_record *rec)
{
	uint64_t time;
	int32_t tid;

	switch (offcpu_record(rec, cv->big_endian, &tid, &time)) {
	case OFFCPU_IN:
		return offcpu_in(cv->oc, cv->ag, ns(cv, tid), time);
	case OFFCPU_EXIT:
		return offcpu_exit(cv->oc, cv->ag, ns(cv, tid), time);
	default:
		return 0;
	}
}

/* A record that is not a sample: what it says of the processes and
 * their address spaces. */
static int
on_record(struct conv *cv, const struct perf_record *rec,
	  struct p2g_error *err)
{
	struct sideband sb;
	int ret = 0;

	cv->nspaces = 0;	/* the record may change a space */
	if (cv->oc != NULL && switch_record(cv, rec) < 0)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	if (!records_is_sideband(rec->type))
		return 0;
	if (records_decode(rec, cv->big_endian, &sb, err) < 0)
		return -1;
	switch (sb.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ret = add_mapping(cv, sb.pid, &sb);
		break;
	case PERF_RECORD_COMM:
		if (sb.exec)
			forget_space(cv, sb.pid);
		ret = addrspace_comm(cv->as, ns(cv, sb.pid), ns(cv, sb.tid),
				     sb.name, sb.namelen, sb.exec);
		break;
	case PERF_RECORD_EXIT:
		/* The process is gone: its unwinding state goes too. */
		if (sb.pid == sb.tid)
			forget_space(cv, sb.pid);
		break;
	case PERF_RECORD_FORK:
		ret = addrspace_fork(cv->as, ns(cv, sb.pid), ns(cv, sb.ppid),
				     ns(cv, sb.tid), ns(cv, sb.ptid));
		break;
	}
	if (ret < 0)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	return 0;
}

/* One event of the reader. */
static inline int
on_event(struct conv *cv, const struct reader_event *it,
	 struct p2g_error *err)
{
	const struct convert_opts *o = cv->o;

	switch (it->kind) {
	case READER_RECORD:
		if (it->rec.type == PERF_RECORD_SAMPLE)
			return on_sample(cv, &it->rec, err);
		return on_record(cv, &it->rec, err);
	case READER_WARNING:
		if (o->warn != NULL)
			o->warn(o->progress_ctx, it->note.part,
				it->note.offset, it->note.msg);
		return 0;
	case READER_PROGRESS:
		if (o->progress != NULL)
			o->progress(o->progress_ctx, it->note.offset,
				    perfdata_format(cv->pd)->total_size,
				    cv->st->samples);
		return 0;
	}
	return 0;
}

/* Read every record of the current input into the stack table. */
static int
read_input(struct conv *cv, struct p2g_error *err)
{
	const struct convert_opts *o = cv->o;
	struct reader_opts ro;
	struct reader *rd;
	const struct reader_event *v;
	size_t i, n;
	int k;

	ro.order_bytes = o->order_bytes;
	ro.progress = o->progress != NULL;
	rd = reader_open(cv->pd, &ro);
	if (rd == NULL)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	while ((k = reader_next(rd, &v, &n, err)) > 0)
		for (i = 0; i < n; i++)
			if (on_event(cv, &v[i], err) < 0) {
				k = -1;
				goto out;
			}
out:
	cv->st->late += reader_late(rd);
	reader_close(rd);
	/* The threads that have not come back wait to the end. */
	if (k == 0 && cv->oc != NULL &&
	    offcpu_finish(cv->oc, cv->ag,
			  perfdata_header(cv->pd)->last_sample_time) < 0)
		k = p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
	if (k == 0 && aggregate_flush(cv->ag) < 0)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory after %llu distinct stacks",
				(unsigned long long)stacktab_nr(
				aggregate_table(cv->ag)));
	return k;
}

/* Start the conversion: CV empty, its first input FIRST. */
static int
conv_init(struct conv *cv, const struct perfdata *first,
	  const struct convert_opts *o, struct convert_stats *st)
{
	memset(cv, 0, sizeof(*cv));
	cv->first = first;
	cv->o = o;
	cv->st = st;
	cv->as = addrspace_new();
	deliveries_init(&cv->dl, first);
	/* The kernel caps the callchains it records (at 127 frames by
	 * default, as perf's own reading does): they are written whole
	 * unless --max-stack asks for less.  Unwinding is capped the same
	 * way perf caps it. */
	cv->co.user_only = o->user_only;
	cv->co.kernel_only = o->kernel_only;
	cv->co.keep_zero = o->format != CONVERT_FORMAT_GPERFTOOLS;
	cv->co.max_stack = o->max_stack ? o->max_stack : SIZE_MAX;
	cv->max_unwind = o->max_stack ? o->max_stack : DEFAULT_MAX_STACK;
	cv->uframes = malloc(cv->max_unwind * sizeof(*cv->uframes));
	/* pprof's profiles carry the periods besides the counts; they
	 * and the folded stacks name each stack's thread. */
	cv->ag = aggregate_new(o->weight == CONVERT_WEIGHT_PERIOD ||
				       o->format == CONVERT_FORMAT_PPROF ||
				       o->off_cpu,
			       o->by_thread || o->split == CONVERT_SPLIT_TID ||
				       o->format != CONVERT_FORMAT_GPERFTOOLS);
	if (cv->as == NULL || cv->uframes == NULL || cv->ag == NULL)
		return -1;
	aggregate_set_namer(cv->ag, name_thread, cv);
	cv->kt = addrspace_kernel_text(cv->as);
	if (o->off_cpu && (cv->oc = offcpu_new(o->off_cpu_blocked)) == NULL)
		return -1;
	return 0;
}

static void
conv_release(struct conv *cv)
{
	free(cv->uframes);
	offcpu_free(cv->oc);
	aggregate_free(cv->ag);
	deliveries_release(&cv->dl);
	addrspace_free(cv->as);
}

/* Read input K (PD) into the stack table.  0, or -1 with ERR set. */
static int
convert_input(struct conv *cv, struct perfdata *pd, size_t k,
	      struct p2g_error *err)
{
	const struct convert_opts *o = cv->o;
	struct convert_stats *st = cv->st;
	int ret;

	cv->pd = pd;
	cv->big_endian = perfdata_format(pd)->big_endian;
	cv->input = (unsigned)k;
	cv->nspaces = 0;
	deliveries_input(&cv->dl, pd);
	if (o->input_start)
		o->input_start(o->progress_ctx, k);
	if (!o->no_unwind && !cv->count_only) {
		struct unwind_opts uo;

		memset(&uo, 0, sizeof(uo));
		uo.symfs = o->symfs;
		uo.home = o->home;
		uo.binaries = o->binaries;
		uo.nbinaries = o->nbinaries;
		uo.missing = o->missing;
		uo.missing_ctx = o->progress_ctx;
		uo.debuginfo = o->debuginfo;
		uo.fetch = o->fetch;
		cv->uw = unwind_open(&uo, perfdata_header(pd), cv->big_endian);
		if (cv->uw == NULL)
			return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					"out of memory");
	}
	ret = read_input(cv, err);
	/* Every record is used: the pages of the file stay out of the
	 * resident set while the profile is made (they come back from the
	 * page cache if read again). */
	perfdata_release(pd, UINT64_MAX);
	unwind_close(cv->uw);
	cv->uw = NULL;
	if (ret < 0)
		return -1;
	st->records += perfdata_counts(pd)->records;
	st->lost += perfdata_counts(pd)->lost;
	st->lost_samples += perfdata_counts(pd)->lost_samples;
	st->unknown_id += perfdata_counts(pd)->unknown_id;
	return 0;
}

/* The counts of the reading, into the caller's stats. */
static void
finish_stats(struct conv *cv)
{
	struct convert_stats *st = cv->st;

	st->markers = cv->cc.markers;
	st->zero_frames = cv->cc.zero_frames;
	st->kernel_frames = cv->cc.kernel_frames;
	st->frames_dropped = cv->cc.frames_dropped;
	st->frames_capped = cv->cc.frames_capped;
	st->other_events = cv->dl.other_events;
	st->read_unchanged = cv->dl.read_unchanged;
	st->read_unknown_id = cv->dl.read_unknown_id;
	if (cv->oc != NULL) {
		const struct offcpu_counts *c = offcpu_counts(cv->oc);

		st->offcpu_outs = c->outs;
		st->offcpu_at_end = c->at_end;
		st->offcpu_lost_in = c->lost_in;
		st->offcpu_preempted_left_out = c->preempted_left_out;
	}
}

int
convert_run(struct perfdata *const *pds, size_t npds,
	    const struct convert_opts *o, convert_sink sink, void *sink_ctx,
	    struct convert_stats *st, struct p2g_error *err)
{
	const struct perfdata *pd = pds[0];
	struct profiles_in in;
	struct conv cv;
	size_t k;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (conv_init(&cv, pd, o, st) < 0)
		goto nomem;
	for (k = 0; k < npds; k++)
		if (convert_input(&cv, pds[k], k, err) < 0) {
			perfdata_locate(pds[k], err);
			st->failed_input = k;
			finish_stats(&cv);
			goto out;
		}
	finish_stats(&cv);
	perfdata_facts(pd, &in.first);
	in.as = cv.as;
	in.ag = cv.ag;
	in.tab = aggregate_table(cv.ag);
	in.dl = &cv.dl;
	in.o = o;
	in.npds = npds;
	ret = profiles_make(&in, sink, sink_ctx, st, err);
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	conv_release(&cv);
	return ret;
}

int
convert_write(const struct convert_result *r, int fd, struct p2g_error *err)
{
	switch (r->format) {
	case CONVERT_FORMAT_PPROF:
		return pprof_write(r->names, r->pprof, fd, err);
	case CONVERT_FORMAT_FOLDED:
		return folded_write(r->names, r->folded, fd, err);
	default:
		return cpuprof_write(r->profile, fd, err);
	}
}

int
convert_count(struct perfdata *pd, const struct convert_opts *o,
	      struct convert_counts *c, struct p2g_error *err)
{
	struct convert_stats st;
	struct process **procs = NULL;
	struct conv cv;
	size_t i;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	memset(&st, 0, sizeof(st));
	if (conv_init(&cv, pd, o, &st) < 0)
		goto nomem;
	cv.count_only = true;
	ret = convert_input(&cv, pd, 0, err);
	if (ret < 0)
		perfdata_locate(pd, err);
	/* What was counted, even when the reading failed partway. */
	c->nevents = perfdata_nattrs(pd);
	c->samples = calloc(c->nevents + 1, sizeof(*c->samples));
	procs = addrspace_by_samples(cv.as, &c->nprocs);
	c->procs = malloc((c->nprocs + 1) * sizeof(*c->procs));
	if (c->samples == NULL || procs == NULL || c->procs == NULL) {
		convert_counts_release(c);
		if (ret == 0)
			goto nomem;
		goto out;
	}
	for (i = 0; i < c->nevents; i++)
		c->samples[i] = deliveries_samples(&cv.dl, i);
	for (i = 0; i < c->nprocs; i++) {
		c->procs[i].pid = procs[i]->pid;
		memcpy(c->procs[i].comm, procs[i]->comm,
		       sizeof(c->procs[i].comm));
		c->procs[i].samples = procs[i]->samples;
	}
	goto out;
nomem:
	ret = p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	free(procs);
	conv_release(&cv);
	return ret;
}

void
convert_counts_release(struct convert_counts *c)
{
	free(c->samples);
	free(c->procs);
	memset(c, 0, sizeof(*c));
}
