/* SPDX-License-Identifier: MIT */
/* The profiles of the stacks read: see profiles.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "cpuprof.h"
#include "fixup.h"
#include "layout.h"
#include "perf_abi.h"
#include "profcheck.h"
#include "profiles.h"
#include "split.h"
#include "symbols.h"

#ifdef WORDS_BIGENDIAN
#define WORDS_BIGENDIAN_P true
#else
#define WORDS_BIGENDIAN_P false
#endif
#define DWARF_BITS (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

struct prof {
	const struct profiles_in *in;
	struct convert_stats *st;
	uint64_t period_unit;	/* --weight period: one header period */
	uint64_t mean_period;	/* of the event's samples */
	struct symbols *sym;	/* for the formats with names */
	struct buildids bids;	/* the header's, for every profile */
	int64_t on_cpu_ev;	/* --off-cpu to pprof: the on-CPU event
				   whose samples go with it, or -1 */
};

static int32_t
real_pid(int32_t pid)
{
	return pid < 0 ? pid : pid & ((1 << CONVERT_PID_BITS) - 1);
}

/* The process of entry E. */
static int32_t
entry_pid(const struct profiles_in *in, const struct stack_entry *e)
{
	return addrspace_space_pid(in->as, aggregate_space(in->ag, e->ctx));
}

/*
 * The event to convert: the one --event names (its name as perf prints
 * it, with or without the modifiers), else the first sampling event in
 * the file's order that has samples (if the filters then leave none of
 * them, the caller says so rather than quietly taking another event).
 */
static int
pick_event(struct prof *pf, uint32_t *ev, struct p2g_error *err)
{
	const struct perfdata_facts *f = &pf->in->first;
	const struct stacktab *tab = pf->in->tab;
	uint64_t *used;
	size_t i;
	int ret = 0;

	if (f->nattrs == 0)
		return p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
				"the file describes no events");
	used = calloc(f->nattrs, sizeof(*used));
	if (used == NULL)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	for (i = 0; i < stacktab_nr(tab); i++)
		used[stacktab_entries(tab)[i].ev] +=
			stacktab_entries(tab)[i].count;
	for (i = 0; i < f->nattrs; i++) {
		if (pf->in->o->event != NULL) {
			if (attr_matches(f->attrs[i],
					 pf->in->o->event))
				break;
		} else if (f->attrs[i]->sample_period != 0 &&
			   (used[i] > 0 ||
			    deliveries_samples(pf->in->dl, i) > 0)) {
			break;
		}
	}
	if (i == f->nattrs) {
		if (pf->in->o->event != NULL) {
			char names[256] = "";
			size_t k, len = 0;

			for (k = 0;
			     k < f->nattrs && len < sizeof(names);
			     k++)
				len += (size_t)snprintf(
					names + len, sizeof(names) - len,
					"%s%s", k ? ", " : "",
					f->attrs[k]->name);
			ret = p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
				       "no event named \"%s\" (the file has: "
				       "%s)", pf->in->o->event, names);
		} else {
			ret = p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
				       "no samples in the file");
		}
	} else if (f->attrs[i]->unknown_bits) {
		const struct perf_attr *a = f->attrs[i];

		ret = p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
			       "event %s has sample_type bits 0x%llx that "
			       "this version cannot lay out", a->name,
			       (unsigned long long)(a->sample_type &
						    ~PERF_SAMPLE_KNOWN_MASK));
	}
	*ev = (uint32_t)i;
	free(used);
	return ret;
}

static int emit_named(struct prof *pf, struct stack_entry **e, size_t n,
		      bool last, struct convert_result *r,
		      convert_sink sink, void *ctx, struct p2g_error *err);

/*
 * Make the profile of the N entries E (of event EV's samples) and hand it
 * to the sink: translate into the profile's address space, weight, add
 * the leaf copies against Go pprof's rewriting (fixup.h).  LAST: no other
 * profile follows, so the stack table is released once translated, and
 * each copy of the stacks once the next is made, to keep the peak low.
 * The formats with names go to emit_named() instead.
 */
static int
emit(struct prof *pf, struct stack_entry **e, size_t n,
     bool last, struct convert_result *r, convert_sink sink, void *ctx,
     struct p2g_error *err)
{
	const struct convert_opts *o = pf->in->o;
	struct convert_stats *st = pf->st;
	struct profile out;
	struct layout_opts lo;
	struct layout_stats ls;
	struct fixup_result fr;
	struct stacktab *tab = pf->in->tab;
	unsigned char *extra = NULL;
	char kpath[300];
	size_t i;
	int ret = -1;

	if (pf->sym != NULL)
		return emit_named(pf, e, n, last, r, sink, ctx, err);
	profile_init(&out);
	memset(&lo, 0, sizeof(lo));
	lo.slot_bytes = st->slot_bits / 8;
	lo.bids = &pf->bids;
	lo.period_unit = o->weight == CONVERT_WEIGHT_PERIOD ? pf->period_unit
							    : 0;
	/* The kernel's mapping is named where Debian's debug package puts
	 * vmlinux (and perf looks for it), so that pprof finds it there, by
	 * build id or by name in PPROF_BINARY_PATH. */
	if (pf->in->first.header->osrelease != NULL) {
		snprintf(kpath, sizeof(kpath), "/usr/lib/debug/boot/vmlinux-%s",
			 pf->in->first.header->osrelease);
		lo.kernel_path = kpath;
	} else {
		lo.kernel_path = "vmlinux";
	}
	/* One process keeps its own addresses, each of its address spaces
	 * (before and after exec) apart; several share their files. */
	lo.per_space = r->processes == 1;
	r->samples = 0;
	for (i = 0; i < n; i++)
		r->samples += e[i]->count;
	/* The last profile takes the table's PCs as they are, translated in
	 * place: the stacks are never held twice. */
	lo.take_pool = last;
	/* Nothing is added once the profiles are made: the index goes
	 * before the layout unpacks the stacks (layout.h). */
	stacktab_drop_index(tab);
	if (layout_build(pf->in->as, pf->in->ag, tab, e, n, &lo, &out, &ls,
			 err) < 0)
		goto out;
	r->places = ls.places;
	r->relocated = ls.relocated;
	r->collisions = ls.collisions;
	r->unmapped = ls.unmapped;
	r->with_kernel = ls.with_kernel;
	r->stacks = out.nrecs;
	r->max_depth = 0;
	if (last)
		stacktab_clear(tab);	/* E points there */
	for (i = 0; i < out.nrecs; i++)
		if (out.recs[i].n > r->max_depth)
			r->max_depth = out.recs[i].n;
	extra = calloc(out.nrecs ? out.nrecs : 1, 1);
	if (extra == NULL)
		goto nomem;
	r->fixup_converged = true;
	if (!o->no_fixup) {
		if (fixup_plan(&out, extra, &fr) < 0)
			goto nomem;
		r->fixup_records = fr.records_changed;
		r->fixup_copies = fr.copies;
		r->fixup_converged = fr.converged;
	}
	out.slot_bytes = st->slot_bits / 8;
	switch (o->byte_order) {
	case CONVERT_ORDER_LITTLE: out.big_endian = false; break;
	case CONVERT_ORDER_BIG: out.big_endian = true; break;
	case CONVERT_ORDER_NATIVE: out.big_endian = WORDS_BIGENDIAN_P; break;
	default:
		out.big_endian = pf->in->first.format->big_endian;
		break;
	}
	out.period_us = st->period_us;
	for (i = 0; i < out.nrecs; i++)
		if (extra[i] > 0 && profile_repeat_leaf(&out, i, extra[i]) < 0)
			goto nomem;
	r->perl_strips = fixup_perl_strips(&out);
	r->space_paths = profcheck_space_paths(out.maps);
	r->profile = &out;
	ret = sink(ctx, r, err);
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	free(extra);
	profile_release(&out);
	return ret;
}

/* The time of the first sample since the epoch, from the recording's
 * clock data (perf record -k), which ties its clock to the time of day.
 * 0 when not known. */
static int64_t
start_time(const struct perf_header_info *hi)
{
	uint64_t tod = hi->clock_tod_ns, clk = hi->clock_ref_ns, first;

	if (!hi->have_clock_data || !hi->have_sample_time || tod == 0 ||
	    tod > INT64_MAX)
		return 0;
	/* the time of day at the first sample, the clock's time there
	 * after (or before) its time at the reference */
	first = hi->first_sample_time;
	if (first >= clk)
		return first - clk > (uint64_t)INT64_MAX - tod
			       ? 0 : (int64_t)(tod + (first - clk));
	return clk - first > tod ? 0 : (int64_t)(tod - (clk - first));
}

/* What the pprof profile of event EV says besides its stacks, into M
 * (its comments in M->owned, for the caller to free).  0, or -1 when
 * out of memory. */
static int
pprof_meta(const struct prof *pf, const struct perf_attr *ev,
	   struct pprof_meta *m)
{
	const struct perf_header_info *hi = pf->in->first.header;
	const char *prefix[3] = { "perf version ", "hostname ", "cmdline " };
	const char *value[3] = { hi->version, hi->hostname, hi->cmdline };
	size_t i, n = 0, len = 0;
	char *p;

	memset(m, 0, sizeof(*m));
	/* perf's cpu-clock and task-clock count nanoseconds */
	if (pf->in->o->off_cpu) {
		m->measure = "off-cpu";
		m->unit = "nanoseconds";
		m->off_cpu = true;
		if (pf->on_cpu_ev >= 0) {
			m->on_cpu_measure = "cpu";
			m->on_cpu_ev = (uint32_t)pf->on_cpu_ev;
		}
	} else if (ev->type == PERF_TYPE_SOFTWARE &&
	    (ev->config == PERF_COUNT_SW_CPU_CLOCK ||
	     ev->config == PERF_COUNT_SW_TASK_CLOCK)) {
		m->measure = "cpu";
		m->unit = "nanoseconds";
	} else {
		m->measure = ev->name;
		m->unit = "count";
	}
	m->period = m->off_cpu ? 1 : (int64_t)(!ev->freq && ev->sample_period != 0 &&
					  ev->sample_period <= INT64_MAX
				      ? ev->sample_period
				      : pf->mean_period);
	m->time_nanos = start_time(pf->in->first.header);
	if (hi->have_sample_time &&
	    hi->last_sample_time >= hi->first_sample_time &&
	    hi->last_sample_time - hi->first_sample_time <= INT64_MAX)
		m->duration_nanos = (int64_t)(hi->last_sample_time -
					      hi->first_sample_time);
	/* the comments: perf's version, the host, perf's command line */
	for (i = 0; i < 3; i++)
		if (value[i] != NULL)
			len += strlen(prefix[i]) + strlen(value[i]) + 1;
	m->owned = p = malloc(len ? len : 1);
	if (p == NULL)
		return -1;
	for (i = 0; i < 3; i++) {
		if (value[i] == NULL)
			continue;
		m->comments[n++] = p;
		p += sprintf(p, "%s%s", prefix[i], value[i]) + 1;
	}
	m->comments[n] = NULL;
	return 0;
}

/*
 * emit() for the formats with names (symstacks.h): the stacks as they
 * are, each PC named in its own process's mappings.
 */
static int
emit_named(struct prof *pf, struct stack_entry **e, size_t n, bool last,
	   struct convert_result *r, convert_sink sink, void *ctx,
	   struct p2g_error *err)
{
	const struct convert_opts *o = pf->in->o;
	struct stacktab *tab = pf->in->tab;
	struct symstacks ss;
	struct symstacks_in si;
	struct pprof_meta meta;
	struct folded_opts fo;
	size_t i;
	int ret = -1;

	memset(&ss, 0, sizeof(ss));
	memset(&meta, 0, sizeof(meta));
	stacktab_drop_index(tab);
	if (stacktab_unpack(tab) < 0)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	si.as = pf->in->as;
	si.ag = pf->in->ag;
	si.tab = tab;
	si.bids = &pf->bids;
	si.sym = pf->sym;
	si.pid_bits = pf->in->npds > 1 ? CONVERT_PID_BITS : 0;
	si.unwound = pf->st->dwarf_unwound;
	if (symstacks_build(&si, e, n, &ss, err) < 0)
		goto out;
	if (last)
		stacktab_clear(tab);	/* E points there */
	r->format = o->format;
	r->names = &ss;
	r->samples = 0;
	r->max_depth = 0;
	for (i = 0; i < ss.nsamples; i++) {
		r->samples += ss.samples[i].count;
		if (ss.samples[i].n > r->max_depth)
			r->max_depth = ss.samples[i].n;
	}
	r->stacks = ss.nsamples;
	r->places = ss.nmaps;
	r->fixup_converged = true;
	if (pprof_meta(pf, pf->st->event, &meta) < 0) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto out;
	}
	r->pprof = &meta;
	fo = o->folded;
	fo.periods = o->weight == CONVERT_WEIGHT_PERIOD || o->off_cpu;
	fo.divisor = o->off_cpu ? 1000 : 1;	/* off-CPU ns to us */
	fo.comm_only = !(pf->st->event->sample_type & PERF_SAMPLE_CALLCHAIN);
	r->folded = &fo;
	ret = sink(ctx, r, err);
out:
	free(meta.owned);
	symstacks_release(&ss);
	return ret;
}

/*
 * The period of event EV in the header (--period-us, or the event's: of
 * the event whose samples read it, for a counter read with another's
 * samples), and with --weight period the period a header period stands
 * for: a time event's period is in ns, so a header period is period_us *
 * 1000 of them; for other events the mean period PSUM / PN of its
 * samples.  0, or -1 with ERR set.
 */
static int
set_period(struct prof *pf, uint32_t ev, uint64_t psum, uint64_t pn,
	   struct p2g_error *err)
{
	const struct perf_attr *event = pf->in->first.attrs[ev];
	struct convert_stats *st = pf->st;
	int32_t by = deliveries_sampled_by(pf->in->dl, ev);

	st->period_us = pf->in->o->period_us ? pf->in->o->period_us
		: attr_period_us(by >= 0 ? pf->in->first.attrs[by]
					 : event);
	if (st->period_us == 0) {
		st->period_us = 1;
		st->period_guessed = true;
	}
	pf->mean_period = pn ? (psum + pn / 2) / pn : 0;
	if (pf->in->o->off_cpu) {
		/* off-CPU time in ns; the profile counts microseconds */
		st->period_us = 1;
		st->period_guessed = false;
		pf->period_unit = 1000;
		return 0;
	}
	if (st->period_us > CPUPROF_MAX_PERIOD &&
	    pf->in->o->format == CONVERT_FORMAT_GPERFTOOLS)
		return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
				"the period of event %s is %llu us, more than "
				"google-pprof reads; set one with --period-us",
				event->name,
				(unsigned long long)st->period_us);
	if (event->type == PERF_TYPE_SOFTWARE &&
	    (event->config == PERF_COUNT_SW_CPU_CLOCK ||
	     event->config == PERF_COUNT_SW_TASK_CLOCK) && !st->period_guessed)
		pf->period_unit = st->period_us * 1000;
	else
		pf->period_unit = pn ? (psum + pn / 2) / pn : 1;
	if (pf->period_unit == 0)
		pf->period_unit = 1;
	return 0;
}

/* The event of the on-CPU samples that an off-CPU pprof profile carries
 * besides (perf's cpu-clock or task-clock, in ns), or -1: the first
 * such event with samples. */
static int64_t
on_cpu_event(const struct profiles_in *in)
{
	size_t i;

	for (i = 0; i < in->first.nattrs; i++) {
		const struct perf_attr *a = in->first.attrs[i];

		if (a->type == PERF_TYPE_SOFTWARE &&
		    (a->config == PERF_COUNT_SW_CPU_CLOCK ||
		     a->config == PERF_COUNT_SW_TASK_CLOCK) &&
		    deliveries_samples(in->dl, i) > 0)
			return (int64_t)i;
	}
	return -1;
}

/* A profile left out for having fewer than o->min_samples: SAMPLES of
 * them. */
static void
left_out(struct convert_stats *st, uint64_t samples)
{
	st->left_out++;
	st->samples_left_out = count_add(st->samples_left_out, samples);
	st->samples_used -= samples;
	if (samples > st->most_left_out)
		st->most_left_out = samples;
}

/* With o->split: the profiles of event EV's N stacks SEL, one per
 * process, thread or command, most samples first, those under
 * o->min_samples left out.  0, or -1 with ERR set. */
static int
split_profiles(struct prof *pf, struct stack_entry **sel, size_t n,
	       convert_sink sink, void *ctx, struct p2g_error *err)
{
	const struct convert_opts *o = pf->in->o;
	struct split_group *g;
	struct convert_result r;
	size_t i, ng, kept = 0;
	int ret = 0;

	if (split_groups(pf->in->as, pf->in->ag, o->split, sel, n, &g,
			 &ng) < 0)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	for (i = 0; i < ng; i++) {
		if (g[i].samples < o->min_samples) {
			left_out(pf->st, g[i].samples);
			continue;
		}
		kept++;
	}
	if (kept == 0) {
		ret = p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
			       "no profile has --min-samples %llu samples "
			       "(the most has %llu)",
			       (unsigned long long)o->min_samples,
			       (unsigned long long)pf->st->most_left_out);
		goto out;
	}
	for (i = 0; i < ng; i++) {
		if (g[i].samples < o->min_samples)
			continue;
		memset(&r, 0, sizeof(r));
		r.processes = g[i].processes;
		r.pid = pf->in->npds > 1 ? real_pid(g[i].pid) : g[i].pid;
		r.tid = g[i].tid < 0 || pf->in->npds == 1 ? g[i].tid
							   : real_pid(g[i].tid);
		snprintf(r.comm, sizeof(r.comm), "%s", g[i].comm);
		ret = emit(pf, sel + g[i].start, g[i].n, false, &r, sink, ctx,
			   err);
		if (ret < 0)
			break;
	}
out:
	free(g);
	return ret;
}

/*
 * The profiles of event EV's N stacks SEL, of processes PROCS[0..NP):
 * one of them all, or with o->split one per process, thread or command.
 * 0, or -1 with ERR set.
 */
static int
make_profiles(struct prof *pf, struct stack_entry **sel, size_t n,
	      struct process **procs, size_t np, convert_sink sink,
	      void *ctx, struct p2g_error *err)
{
	const struct convert_opts *o = pf->in->o;
	struct convert_result r;
	size_t i, m;

	if (o->split != CONVERT_SPLIT_NONE)
		return split_profiles(pf, sel, n, sink, ctx, err);
	/* The processes under o->min_samples, and their stacks, left out
	 * (PROCS holds the most first). */
	while (np > 0 && procs[np - 1]->samples < o->min_samples)
		left_out(pf->st, procs[--np]->samples);
	if (np == 0)
		return p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
				"no process has --min-samples %llu samples "
				"(the most has %llu)",
				(unsigned long long)o->min_samples,
				(unsigned long long)pf->st->most_left_out);
	if (pf->st->left_out > 0) {
		for (i = 0, m = 0; i < n; i++) {
			const struct process *p =
				addrspace_find(pf->in->as,
					       entry_pid(pf->in, sel[i]));

			if (p == NULL || p->samples >= o->min_samples)
				sel[m++] = sel[i];
		}
		n = m;
	}
	memset(&r, 0, sizeof(r));
	r.processes = np;
	r.tid = -1;
	r.pid = np == 1 ? (pf->in->npds > 1 ? real_pid(procs[0]->pid)
				    : procs[0]->pid)
			: -1;
	if (np == 1)
		memcpy(r.comm, procs[0]->comm, sizeof(r.comm));
	return emit(pf, sel, n, true, &r, sink, ctx, err);
}

int
profiles_make(const struct profiles_in *in, convert_sink sink,
	      void *sink_ctx, struct convert_stats *st, struct p2g_error *err)
{
	struct prof pf;
	struct stack_entry **sel = NULL;
	struct process **procs = NULL;
	const struct perf_attr *event;
	const struct stacktab *tab;
	uint64_t psum = 0, pn = 0;
	uint32_t ev = 0;
	size_t i, n = 0, np = 0;
	int ret = -1;

	pf.in = in;
	pf.st = st;
	pf.period_unit = 0;
	pf.mean_period = 0;
	pf.sym = NULL;
	pf.on_cpu_ev = -1;
	if (buildids_init(&pf.bids, in->first.header) < 0) {
		buildids_free(&pf.bids);
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	}
	/* Events that sample but have no sample, as perf's tracking
	 * event dummy:HG of perf record -a, leave no choice to make. */
	for (i = 0; i < in->first.nattrs; i++)
		st->nr_sampling_events +=
			in->first.attrs[i]->sample_period != 0 &&
			deliveries_samples(in->dl, (uint32_t)i) > 0;
	if (pick_event(&pf, &ev, err) < 0)
		goto out;
	event = in->first.attrs[ev];
	st->event = event;
	if (in->o->off_cpu && in->o->format == CONVERT_FORMAT_PPROF)
		pf.on_cpu_ev = on_cpu_event(in);
	st->samples_event = deliveries_samples(in->dl, ev);
	st->slot_bits = in->o->slot_bits
				? in->o->slot_bits
				: cpuprof_slot_bits(
					  in->first.header->arch);

	/* The stacks of the event, and their processes. */
	tab = in->tab;
	sel = malloc((stacktab_nr(tab) + 1) * sizeof(*sel));
	if (sel == NULL)
		goto nomem;
	addrspace_clear_samples(in->as);
	for (i = 0; i < stacktab_nr(tab); i++) {
		struct stack_entry *e = &stacktab_entries(tab)[i];
		struct process *p;

		if (e->ev != ev && (int64_t)e->ev != pf.on_cpu_ev)
			continue;
		sel[n++] = e;
		psum = count_add(psum, stacktab_period(tab, e));
		pn += e->count;
		p = addrspace_find(in->as, entry_pid(in, e));
		if (p != NULL)
			p->samples += e->count;
		st->samples_used += e->count;
	}
	if (n == 0) {
		p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
			 "no samples of event %s%s", event->name,
			 st->samples_event ? " pass the filters" : "");
		goto out;
	}
	procs = addrspace_by_samples(in->as, &np);
	if (procs == NULL)
		goto nomem;
	st->processes = np;
	if (set_period(&pf, ev, psum, pn, err) < 0)
		goto out;
	/* perf record --call-graph dwarf stores registers and stack copies
	 * for unwinding; without unwinding only the kernel's callchain
	 * (kernel frames and the user IP) is there. */
	st->dwarf_recording = (event->sample_type & DWARF_BITS) == DWARF_BITS;
	st->dwarf_unwound = st->dwarf_recording && !in->o->no_unwind;
	if (in->o->format != CONVERT_FORMAT_GPERFTOOLS) {
		struct sym_opts so;

		memset(&so, 0, sizeof(so));
		so.symfs = in->o->symfs;
		so.home = in->o->home;
		so.binaries = in->o->binaries;
		so.nbinaries = in->o->nbinaries;
		so.vmlinux = in->o->vmlinux;
		so.kallsyms = in->o->kallsyms;
		so.check_host = true;
		so.hostname = in->first.header->hostname;
		so.osrelease = in->first.header->osrelease;
		so.fetch = in->o->fetch;
		so.missing = in->o->missing;
		so.missing_ctx = in->o->progress_ctx;
		/* inlined functions and lines, as perf: pprof has them for
		 * every location, the folded stacks only for the frames
		 * perf unwinds with DWARF (folded.c); the DWARF is not read
		 * for the others */
		so.lines = in->o->format == CONVERT_FORMAT_PPROF ||
			   st->dwarf_unwound;
		/* one symbolizer for every profile: each address is
		 * looked up once */
		pf.sym = symbols_new(&so);
		if (pf.sym == NULL)
			goto nomem;
	}
	ret = make_profiles(&pf, sel, n, procs, np, sink, sink_ctx, err);
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	symbols_free(pf.sym);
	buildids_free(&pf.bids);
	free(sel);
	free(procs);
	return ret;
}
