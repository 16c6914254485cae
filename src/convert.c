/* SPDX-License-Identifier: MIT */
/* The conversion pipeline: see convert.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "cpuprof.h"
#include "cursor.h"
#include "fixup.h"
#include "perf_abi.h"
#include "sample.h"

#ifdef WORDS_BIGENDIAN
#define WORDS_BIGENDIAN_P true
#else
#define WORDS_BIGENDIAN_P false
#endif
#define KERNEL_START 0xffff800000000000ULL
#define PROGRESS_STEP (64u << 20)

struct conv {
	struct perfdata *pd;
	const struct convert_opts *o;
	struct convert_stats *st;
	struct addrspace as;
	struct stacktab tab;
	uint64_t *frames;
	size_t frames_cap;
	uint64_t undecodable;	/* samples of events we cannot lay out */
	struct delivery {	/* the events a sample counts for */
		struct perf_attr *attr;
		uint64_t period;
	} *deliv;
	size_t ndeliv, deliv_cap;
};

static bool
in_list(const int32_t *v, size_t n, int32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static int
grow_frames(struct conv *cv, uint64_t n)
{
	uint64_t *nf;

	if (n <= cv->frames_cap)
		return 0;
	nf = realloc(cv->frames, (size_t)n * sizeof(*nf));
	if (nf == NULL)
		return -1;
	cv->frames = nf;
	cv->frames_cap = (size_t)n;
	return 0;
}

/*
 * The events a sample counts for, with its period for each, into
 * cv->deliv.  A sample counts for its own event, except with
 * PERF_SAMPLE_READ, where perf hands it to each counter read with it (all
 * members of a group with FORMAT_GROUP, else the event itself) whose value
 * grew since that counter's last read, with the growth as its period; a
 * counter that did not grow, or whose id is unknown, gets nothing.
 */
static int
deliveries(struct conv *cv, const struct perf_record *rec,
	   const struct perf_sample *s)
{
	const struct perf_attr *a = rec->attr;
	uint64_t i, value, id, delta;
	struct perf_attr *to;

	cv->ndeliv = 0;
	if (cv->deliv_cap == 0) {
		cv->deliv = malloc(sizeof(*cv->deliv));
		if (cv->deliv == NULL)
			return -1;
		cv->deliv_cap = 1;
	}
	if (!(a->sample_type & PERF_SAMPLE_READ)) {
		cv->deliv[0].attr = rec->attr;
		cv->deliv[0].period = s->period;
		cv->ndeliv = 1;
		return 0;
	}
	if (s->read_nr > cv->deliv_cap) {
		struct delivery *nd = realloc(cv->deliv, (size_t)s->read_nr *
							       sizeof(*nd));

		if (nd == NULL)
			return -1;
		cv->deliv = nd;
		cv->deliv_cap = (size_t)s->read_nr;
	}
	for (i = 0; i < s->read_nr; i++) {
		const unsigned char *v = s->read_values +
					 i * s->read_value_size;

		value = load64(v, s->big_endian);
		if (!(a->read_format & PERF_FORMAT_GROUP))
			id = s->read_one_id;
		else if (a->read_format & PERF_FORMAT_ID)
			id = load64(v + 8, s->big_endian);
		else
			id = 0;
		to = perfdata_read_delta(cv->pd, id, value, &delta);
		if (to == NULL) {
			cv->st->read_unknown_id++;
			continue;
		}
		if (delta == 0) {
			cv->st->read_unchanged++;
			continue;
		}
		if (to != a && to->sample_period == 0)
			to->sampled_by = (int32_t)(a - cv->pd->attrs);
		cv->deliv[cv->ndeliv].attr = to;
		cv->deliv[cv->ndeliv].period = delta;
		cv->ndeliv++;
	}
	return 0;
}

static int
on_sample(struct conv *cv, const struct perf_record *rec,
	  struct p2g_error *err)
{
	struct convert_stats *st = cv->st;
	const struct convert_opts *o = cv->o;
	struct perf_sample s;
	uint64_t i, n = 0, v;
	size_t k;

	st->samples++;
	if (rec->attr->unknown_bits) {
		rec->attr->nr_samples++;
		cv->undecodable++;
		return 0;	/* an error only if this event is chosen */
	}
	if (sample_decode(rec->attr, rec->data + 8, rec->size - 8u,
			  rec->offset + 8, cv->pd->big_endian, &s, err) < 0)
		return -1;
	if (deliveries(cv, rec, &s) < 0)
		goto nomem;
	for (k = 0; k < cv->ndeliv; k++)
		cv->deliv[k].attr->nr_samples++;
	if (cv->ndeliv == 0)
		return 0;
	if ((o->npids && !in_list(o->pids, o->npids, (int32_t)s.pid)) ||
	    (o->ntids && !in_list(o->tids, o->ntids, (int32_t)s.tid)) ||
	    (o->comm && strcmp(addrspace_comm_of(&cv->as, (int32_t)s.pid,
						 (int32_t)s.tid),
			       o->comm) != 0)) {
		st->samples_filtered++;
		return 0;
	}

	if (grow_frames(cv, s.callchain_nr + 1) < 0)
		goto nomem;
	for (i = 0; i < s.callchain_nr; i++) {
		v = sample_callchain(&s, i);
		if (v >= PERF_CONTEXT_MAX) {
			st->markers++;
			/* A deferred user callchain marker is followed by
			 * a cookie, not an address. */
			if (v == PERF_CONTEXT_USER_DEFERRED)
				i++;
			continue;
		}
		if (v == 0) {
			st->zero_frames++;
			continue;
		}
		if (v >= KERNEL_START)
			st->kernel_frames++;
		cv->frames[n++] = v;
	}
	if (n == 0) {
		if (s.ip == 0) {
			st->samples_empty++;
			return 0;
		}
		cv->frames[n++] = s.ip;
		if (s.ip >= KERNEL_START)
			st->kernel_frames++;
	}
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	for (k = 0; k < cv->ndeliv; k++)
		if (stacktab_add(&cv->tab,
				 (uint32_t)(cv->deliv[k].attr - cv->pd->attrs),
				 s.pid, cv->frames, (uint32_t)n, 1,
				 cv->deliv[k].period) < 0)
			goto nomem;
	if (addrspace_process(&cv->as, (int32_t)s.pid) == NULL)
		goto nomem;
	return 0;
nomem:
	return p2g_fail(err, P2G_NOMEM, rec->offset,
			"out of memory after %llu distinct stacks",
			(unsigned long long)cv->tab.nr);
}

/* MMAP and MMAP2 (see perf_event.h for both layouts). */
static int
on_mmap(struct conv *cv, const struct perf_record *rec,
	struct p2g_error *err)
{
	struct mapping m;
	struct cursor c;
	int32_t pid;
	uint64_t len;
	const unsigned char *name;
	size_t namelen, maxlen;
	char *path;
	int ret;

	memset(&m, 0, sizeof(m));
	cursor_init(&c, rec->data, rec->size, rec->offset,
		    cv->pd->big_endian);
	cursor_skip(&c, 8);
	pid = (int32_t)cursor_u32(&c);
	(void)cursor_u32(&c);	/* tid */
	m.start = cursor_u64(&c);
	len = cursor_u64(&c);
	m.pgoff = cursor_u64(&c);
	if (rec->type == PERF_RECORD_MMAP2) {
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t sz = cursor_u8(&c);
			const unsigned char *id;

			cursor_skip(&c, 3);
			id = cursor_bytes(&c, 20);
			if (id != NULL) {
				m.build_id_size = sz <= 20 ? sz : 20;
				memcpy(m.build_id, id, 20);
			}
		} else {
			m.maj = cursor_u32(&c);
			m.min = cursor_u32(&c);
			m.ino = cursor_u64(&c);
			(void)cursor_u64(&c);	/* ino_generation */
		}
		m.prot = cursor_u32(&c);
		m.flags = cursor_u32(&c);
		m.exec = (m.prot & 4) != 0;
	} else {
		m.prot = 5;	/* r-x: MMAP records without the data bit
				   describe executable mappings */
		m.flags = 2;
		m.exec = !(rec->misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	if (!cursor_ok(&c))
		return p2g_fail(err, P2G_INVALID, cursor_err_offset(&c),
				"mmap record is truncated");
	/* The file name runs to a NUL within the record, before the
	 * sample_id_all trailer. */
	maxlen = cursor_left(&c);
	name = c.base + c.pos;
	namelen = strnlen((const char *)name, maxlen);
	if (len > UINT64_MAX - m.start)
		len = UINT64_MAX - m.start;
	m.end = m.start + len;
	path = malloc(namelen + 1);
	if (path == NULL)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	memcpy(path, name, namelen);
	path[namelen] = '\0';
	m.path = path;
	ret = addrspace_mmap(&cv->as, pid, &m);
	free(path);
	if (ret < 0)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	return 0;
}

static int
on_record(struct conv *cv, const struct perf_record *rec,
	  struct p2g_error *err)
{
	struct cursor c;
	bool big = cv->pd->big_endian;
	int32_t pid, tid, ppid, ptid;

	cursor_init(&c, rec->data, rec->size, rec->offset, big);
	cursor_skip(&c, 8);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(cv, rec, err);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(cv, rec, err);
	case PERF_RECORD_COMM: {
		size_t n;

		pid = (int32_t)cursor_u32(&c);
		tid = (int32_t)cursor_u32(&c);
		if (!cursor_ok(&c))
			break;
		n = strnlen((const char *)c.base + c.pos, cursor_left(&c));
		if (addrspace_comm(&cv->as, pid, tid,
				   (const char *)c.base + c.pos, n,
				   (rec->misc & PERF_RECORD_MISC_COMM_EXEC) !=
					   0) < 0)
			goto nomem;
		return 0;
	}
	case PERF_RECORD_FORK:
		pid = (int32_t)cursor_u32(&c);
		ppid = (int32_t)cursor_u32(&c);
		tid = (int32_t)cursor_u32(&c);
		ptid = (int32_t)cursor_u32(&c);
		if (!cursor_ok(&c))
			break;
		if (addrspace_fork(&cv->as, pid, ppid, tid, ptid) < 0)
			goto nomem;
		return 0;
	default:
		return 0;
	}
	return p2g_fail(err, P2G_INVALID, cursor_err_offset(&c),
			"record of type %u is truncated", rec->type);
nomem:
	return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
}

static int
read_all(struct conv *cv, struct p2g_error *err)
{
	struct perf_record rec;
	uint64_t next_progress = PROGRESS_STEP;
	int r;

	while ((r = perfdata_next(cv->pd, &rec, err)) > 0) {
		if (on_record(cv, &rec, err) < 0)
			return -1;
		if (cv->o && cv->o->progress && rec.offset >= next_progress) {
			cv->o->progress(cv->o->progress_ctx, rec.offset,
					input_size(cv->pd->in));
			next_progress = rec.offset + PROGRESS_STEP;
		}
	}
	return r;
}

static int
cmp_entry_order(const void *a, const void *b)
{
	const struct stack_entry *x = *(const struct stack_entry *const *)a;
	const struct stack_entry *y = *(const struct stack_entry *const *)b;

	/* Most samples first, then first seen, for a stable output. */
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The event to convert: the one --event names (its name as perf prints
 * it, with or without the modifiers), else the first sampling event in
 * the file's order that has samples (if the filters then leave none of
 * them, the caller says so rather than quietly taking another event).
 */
static int
pick_event(struct conv *cv, uint32_t *ev, struct p2g_error *err)
{
	struct perfdata *pd = cv->pd;
	uint64_t *used;
	size_t i;
	int ret = 0;

	if (pd->nr_attrs == 0)
		return p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
				"the file describes no events");
	used = calloc(pd->nr_attrs, sizeof(*used));
	if (used == NULL)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	for (i = 0; i < cv->tab.nr; i++)
		used[cv->tab.entries[i].ev] += cv->tab.entries[i].count;
	for (i = 0; i < pd->nr_attrs; i++) {
		if (cv->o->event != NULL) {
			if (attr_matches(&pd->attrs[i], cv->o->event))
				break;
		} else if (pd->attrs[i].sample_period != 0 &&
			   (used[i] > 0 || pd->attrs[i].nr_samples > 0)) {
			break;
		}
	}
	if (i == pd->nr_attrs) {
		if (cv->o->event != NULL) {
			char names[256] = "";
			size_t k, len = 0;

			for (k = 0; k < pd->nr_attrs && len < sizeof(names);
			     k++)
				len += (size_t)snprintf(
					names + len, sizeof(names) - len,
					"%s%s", k ? ", " : "",
					pd->attrs[k].name);
			ret = p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
				       "no event named \"%s\" (the file has: "
				       "%s)", cv->o->event, names);
		} else {
			ret = p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
				       "no samples in the file");
		}
	} else if (pd->attrs[i].unknown_bits) {
		ret = p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
			       "event %s has sample_type bits 0x%llx that "
			       "this version cannot lay out",
			       pd->attrs[i].name,
			       (unsigned long long)(pd->attrs[i].sample_type &
						    ~PERF_SAMPLE_KNOWN_MASK));
	}
	*ev = (uint32_t)i;
	free(used);
	return ret;
}

int
convert_run(struct perfdata *pd, const struct convert_opts *o,
	    struct profile *out, struct convert_stats *st,
	    struct p2g_error *err)
{
	struct conv cv;
	const struct process *best = NULL;
	struct stack_entry **order = NULL;
	struct profile truth;
	unsigned char *extra = NULL;
	struct fixup_result fr;
	const struct perf_attr *event;
	bool with_kernel = false;
	uint64_t total = 0;
	uint32_t ev = 0;
	size_t i, n;
	int ret = -1;

	memset(&cv, 0, sizeof(cv));
	memset(st, 0, sizeof(*st));
	profile_init(&truth);
	cv.pd = pd;
	cv.o = o;
	cv.st = st;

	addrspace_init(&cv.as);
	stacktab_init(&cv.tab);

	if (read_all(&cv, err) < 0)
		goto out;
	st->records = pd->counts.records;
	st->lost = pd->counts.lost;
	st->unknown_id = pd->counts.unknown_id;
	for (i = 0; i < pd->nr_attrs; i++)
		st->nr_sampling_events += pd->attrs[i].sample_period != 0;
	if (pick_event(&cv, &ev, err) < 0)
		goto out;
	event = &pd->attrs[ev];
	st->event = event;
	st->samples_event = event->nr_samples;

	/* The process to write: the one with the most samples that passed
	 * the filters. */
	for (i = 0; i < cv.as.nprocs; i++)
		cv.as.procs[i].samples = 0;
	for (i = 0; i < cv.tab.nr; i++) {
		const struct stack_entry *e = &cv.tab.entries[i];
		struct process *p;

		if (e->ev != ev)
			continue;
		p = addrspace_find(&cv.as, (int32_t)e->pid);
		if (p != NULL)
			p->samples += e->count;
		total += e->count;
	}
	for (i = 0; i < cv.as.nprocs; i++) {
		const struct process *p = &cv.as.procs[i];

		if (p->samples == 0)
			continue;
		st->processes++;
		if (best == NULL || p->samples > best->samples ||
		    (p->samples == best->samples && p->pid < best->pid))
			best = p;
	}
	if (best == NULL) {
		p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
			 "no samples of event %s%s", event->name,
			 event->nr_samples ? " pass the filters" : "");
		goto out;
	}
	st->pid = best->pid;
	memcpy(st->comm, best->comm, sizeof(st->comm));
	st->samples_used = best->samples;
	st->samples_other_process = total - best->samples;

	/* Records of that process, most samples first. */
	order = malloc((cv.tab.nr ? cv.tab.nr : 1) * sizeof(*order));
	if (order == NULL)
		goto nomem;
	for (i = n = 0; i < cv.tab.nr; i++)
		if (cv.tab.entries[i].ev == ev &&
		    (int32_t)cv.tab.entries[i].pid == best->pid)
			order[n++] = &cv.tab.entries[i];
	qsort(order, n, sizeof(*order), cmp_entry_order);
	for (i = 0; i < n; i++) {
		const struct stack_entry *e = order[i];
		const uint64_t *pcs = stacktab_pcs(&cv.tab, e);

		if (profile_add(&truth, e->count, pcs, e->n) < 0)
			goto nomem;
		if (e->n > st->max_depth)
			st->max_depth = e->n;
		if (!with_kernel) {
			uint32_t k;

			for (k = 0; k < e->n; k++)
				if (pcs[k] >= KERNEL_START) {
					with_kernel = true;
					break;
				}
		}
	}
	st->stacks = n;

	st->period_us = o->period_us ? o->period_us
		: attr_period_us(event->sampled_by >= 0
					 ? &pd->attrs[event->sampled_by]
					 : event);
	if (st->period_us == 0) {
		st->period_us = 1;
		st->period_guessed = true;
	}
	if (st->period_us > CPUPROF_MAX_PERIOD) {
		p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
			 "the period of event %s is %llu us, more than "
			 "google-pprof reads; set one with --period-us",
			 event->name, (unsigned long long)st->period_us);
		goto out;
	}
	/* perf record --call-graph dwarf stores registers and stack copies
	 * for unwinding; without an unwinder only the kernel's callchain
	 * (kernel frames and the user IP) is there. */
	st->dwarf_unwound = false;
	st->dwarf_recording =
		(event->sample_type & PERF_SAMPLE_STACK_USER) != 0 &&
		(event->sample_type & PERF_SAMPLE_REGS_USER) != 0;

	/* Leaf copies against Go pprof's rewriting (fixup.h). */
	extra = calloc(truth.nrecs ? truth.nrecs : 1, 1);
	if (extra == NULL)
		goto nomem;
	if (!o->no_fixup) {
		if (fixup_plan(&truth, extra, &fr) < 0)
			goto nomem;
		st->fixup_records = fr.records_changed;
		st->fixup_copies = fr.copies;
		st->fixup_converged = fr.converged;
	} else {
		st->fixup_converged = true;
	}
	out->slot_bytes = 8;
	switch (o->byte_order) {
	case CONVERT_ORDER_LITTLE: out->big_endian = false; break;
	case CONVERT_ORDER_BIG: out->big_endian = true; break;
	case CONVERT_ORDER_NATIVE: out->big_endian = WORDS_BIGENDIAN_P; break;
	default: out->big_endian = pd->big_endian; break;
	}
	out->period_us = st->period_us;
	for (i = 0; i < truth.nrecs; i++) {
		const struct profile_record *r = &truth.recs[i];

		if (profile_add_extra(out, r->count, truth.pcs + r->off, r->n,
				      extra[i]) < 0)
			goto nomem;
	}
	st->perl_strips = fixup_perl_strips(out);
	if (addrspace_maps_text(&cv.as, best->pid, with_kernel, &out->maps,
				&out->maps_len) < 0)
		goto nomem;
	ret = 0;
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	free(extra);
	free(order);
	profile_release(&truth);
	free(cv.frames);
	free(cv.deliv);
	stacktab_release(&cv.tab);
	addrspace_release(&cv.as);
	return ret;
}

int
convert_scan(struct perfdata *pd, struct addrspace *as,
	     struct p2g_error *err)
{
	struct perf_record rec;
	struct perf_sample s;
	struct convert_stats scratch;
	struct conv cv;
	size_t k;
	int r;

	memset(&cv, 0, sizeof(cv));
	memset(&scratch, 0, sizeof(scratch));
	cv.pd = pd;
	cv.st = &scratch;
	while ((r = perfdata_next(pd, &rec, err)) > 0) {
		struct process *p;

		if (rec.type == PERF_RECORD_COMM) {
			struct cursor c;
			int32_t pid, tid;

			cursor_init(&c, rec.data, rec.size, rec.offset,
				    pd->big_endian);
			cursor_skip(&c, 8);
			pid = (int32_t)cursor_u32(&c);
			tid = (int32_t)cursor_u32(&c);
			if (cursor_ok(&c) &&
			    addrspace_comm(as, pid, tid,
					   (const char *)c.base + c.pos,
					   strnlen((const char *)c.base + c.pos,
						   cursor_left(&c)),
					   false) < 0)
				goto nomem;
			continue;
		}
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		if (rec.attr->unknown_bits) {
			rec.attr->nr_samples++;
			continue;
		}
		if (sample_decode(rec.attr, rec.data + 8, rec.size - 8u,
				  rec.offset + 8, pd->big_endian, &s,
				  err) < 0)
			goto out;
		if (deliveries(&cv, &rec, &s) < 0)
			goto nomem;
		for (k = 0; k < cv.ndeliv; k++)
			cv.deliv[k].attr->nr_samples++;
		p = addrspace_process(as, (int32_t)s.pid);
		if (p == NULL)
			goto nomem;
		p->samples += cv.ndeliv;
	}
	goto out;
nomem:
	r = p2g_fail(err, P2G_NOMEM, rec.offset, "out of memory");
out:
	free(cv.deliv);
	return r;
}
