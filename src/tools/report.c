/* SPDX-License-Identifier: MIT */
/* perf2gperf's words about its inputs and their conversion: see report.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "message.h"
#include "signals.h"
#include "report.h"

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
report_init(struct report *rp, char *const *names)
{
	memset(rp, 0, sizeof(*rp));
	rp->names = names;
	rp->hints = true;
	rp->start = seconds();
	rp->phase = rp->start;
}

const char *
report_hint(const struct report *rp, const char *text)
{
	return rp->hints ? text : "";
}

void
report_free(struct report *rp)
{
	strset_free(&rp->missing);
}

/* Remember PATH as reported; false if it was already (or there is no
 * memory to remember it: then it is reported again). */
static bool
missing_first(struct report *rp, const char *path)
{
	return strset_add(&rp->missing, path) != 0;
}

void
report_missing(void *ctx, const char *path, const char *why)
{
	struct report *rp = ctx;
	const struct convert_opts *o = rp->o;
	const char *symfs = o != NULL && o->symfs != NULL ? o->symfs : "";
	size_t i;

	if (!missing_first(rp, path))
		return;
	if (strcmp(path, "[kernel.kallsyms]") == 0) {
		message_warning(rp->name, P2G_NO_OFFSET, "kernel frames are "
				"not named: %s%s", why,
				report_hint(rp, " (see --vmlinux, --kallsyms)"));
		return;
	}
	/* a --vmlinux is not looked for: perf takes it or nothing */
	if (o != NULL && o->vmlinux != NULL && strcmp(path, o->vmlinux) == 0) {
		message_warning(rp->name, P2G_NO_OFFSET,
				"--vmlinux %s: %s: no kernel frame is named",
				path, why);
		return;
	}
	message_warning(rp->name, P2G_NO_OFFSET,
			"%s: no usable file (%s): its frames are not unwound "
			"or named%s", path, why,
			rp->verbose ? "" : report_hint(rp, " (-v says where it "
						       "was looked for)"));
	if (!rp->verbose || o == NULL)
		return;
	message_note(rp->name, "%s: looked for at %s%s, in %s/.debug, in "
		     "%s/usr/lib/debug/.build-id%s", path, symfs, path,
		     o->home != NULL ? o->home : "$HOME", symfs,
		     o->nbinaries ? ", and in:" : " (see --binaries)");
	for (i = 0; i < o->nbinaries; i++)
		message_note(rp->name, "%s:   --binaries %s (by name, by build "
			     "ID, DIR/.build-id)", path, o->binaries[i]);
	if (o->fetch != NULL)
		message_note(rp->name, "%s:   and asked of the debuginfod "
			     "servers by build ID", path);
}

void
report_input(struct report *rp, size_t n)
{
	rp->name = rp->names[n];
	if (strcmp(rp->name, "-") == 0)
		rp->name = "(standard input)";
	signals_input(rp->name);
}

const char *
report_where(struct report *rp, const char *part)
{
	if (part == NULL || part[0] == '\0')
		return rp->name;
	snprintf(rp->where, sizeof(rp->where), "%s/%s", rp->name, part);
	return rp->where;
}

void
report_input_start(void *ctx, size_t n)
{
	struct report *rp = ctx;

	report_input(rp, n);
	rp->phase = seconds();
	rp->spooling = false;
}

void
report_warn(void *ctx, const char *part, uint64_t off, const char *msg)
{
	message_warning(report_where(ctx, part), off, "%s", msg);
}

/* BYTES for a person: "93 KiB", "446 MiB", "12.3 GiB". */
static const char *
size_text(char *buf, size_t len, uint64_t bytes)
{
	if (bytes < (10u << 20))
		snprintf(buf, len, "%llu KiB",
			 (unsigned long long)((bytes + 1023) >> 10));
	else if (bytes < (10ull << 30))
		snprintf(buf, len, "%llu MiB",
			 (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%.1f GiB", (double)bytes / (1 << 30));
	return buf;
}

/* Whether to show a line now, at NOW: at most once a second, with
 * --progress from the start, else (on a terminal) after two seconds.  A
 * line not shown is kept for report_progress_end(). */
static bool
due(struct report *rp, double now)
{
	if (rp->progress == 0)
		return false;
	if ((rp->progress == 1 && now - rp->start < 2) ||
	    (rp->shown != 0 && now - rp->shown < 1)) {
		rp->pending = true;
		return false;
	}
	rp->shown = now;
	rp->pending = false;
	return true;
}

/* The line of WHAT (" spooling" or ""): DONE bytes of TOTAL (UINT64_MAX
 * when not known) since rp->phase, and TAIL (", N samples" or ""). */
static void
show(struct report *rp, double now, const char *what, uint64_t done,
     uint64_t total, const char *tail)
{
	char sz[32];
	double left;

	if (total == UINT64_MAX || total == 0 || done > total) {
		message_status("%s: %s:%s %s%s", progname, rp->name, what,
			       size_text(sz, sizeof(sz), done), tail);
		return;
	}
	if (done == 0 || done == total || now - rp->phase < 1) {
		message_status("%s: %s:%s %3d%% of %s%s", progname, rp->name,
			       what,
			       (int)((double)done * 100 / (double)total),
			       size_text(sz, sizeof(sz), total), tail);
		return;
	}
	left = (now - rp->phase) * (double)(total - done) / (double)done;
	message_status("%s: %s:%s %3d%% of %s%s, %d:%02d left", progname,
		       rp->name, what,
		       (int)((double)done * 100 / (double)total),
		       size_text(sz, sizeof(sz), total), tail,
		       (int)(left / 60), (int)left % 60);
}

/* Show the line of the last call of report_progress() or
 * report_spool(), as kept in RP. */
static void
show_last(struct report *rp, double now)
{
	char tail[48] = "";

	if (rp->spooling) {
		show(rp, now, " copying to a temporary file:", rp->done,
		     rp->total, "");
		return;
	}
	snprintf(tail, sizeof(tail), ", %llu samples",
		 (unsigned long long)rp->samples);
	show(rp, now, "", rp->done, rp->total, tail);
}

void
report_progress(void *ctx, uint64_t done, uint64_t total,
		uint64_t samples)
{
	struct report *rp = ctx;
	double now = seconds();

	rp->done = done;
	rp->total = total;
	rp->samples = samples;
	if (due(rp, now))
		show_last(rp, now);
}

void
report_fetch(void *ctx, const char *hex, enum dbgfetch_kind kind,
	     const struct dbgfetch_counts *c)
{
	struct report *rp = ctx;
	size_t fetched = c->fetched[0] + c->fetched[1];

	/* a fetch may take long: shown as soon as the line may be, and
	 * the reading's line again after it */
	if (!due(rp, seconds()))
		return;
	rp->pending = true;
	message_status("%s: %s: debuginfod: fetching the %s of %s "
		       "(%zu fetched)", progname, rp->name,
		       dbgfetch_kind_name(kind), hex, fetched);
}

void
report_spool(void *ctx, uint64_t done, uint64_t total)
{
	struct report *rp = ctx;
	double now = seconds();

	if (!rp->spooling) {
		rp->spooling = true;
		rp->phase = now;
	}
	rp->done = done;
	rp->total = total;
	if (due(rp, now))
		show_last(rp, now);
}

void
report_progress_end(struct report *rp, const uint64_t *samples)
{
	if (rp->shown != 0) {
		/* what the line showed was done to its end */
		if (samples != NULL)
			rp->samples = *samples;
		if (rp->total != UINT64_MAX && rp->total != 0)
			rp->done = rp->total;
		rp->pending = true;
	}
	if (rp->pending && rp->shown != 0 && !message_status_overwrites())
		show_last(rp, seconds());
	rp->pending = false;
	message_status_end();
}

void
report_notes(const struct report *rp, const struct convert_stats *st,
	     const struct convert_opts *o, const struct perfdata *pd)
{
	const char *name = rp->name;
	const char *arch = perfdata_header(pd)->arch;

	if (st->left_out && o->split == CONVERT_SPLIT_NONE)
		message_note(name, "%zu process%s with fewer than %" PRIu64
			     " samples left out (%" PRIu64 " samples)",
			     st->left_out, st->left_out == 1 ? "" : "es",
			     o->min_samples, st->samples_left_out);
	if (st->other_events)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " samples of the other inputs are "
				"of events the first input does not have; "
				"left out", st->other_events);
	if (st->nr_sampling_events > 1 && o->event == NULL)
		message_note(name, "%zu sampling events; converting %s%s",
			     st->nr_sampling_events, st->event->name,
			     report_hint(rp, " (choose with --event)"));
	if (st->dwarf_unsupported)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " samples with user stacks of a "
				"machine or ABI this version cannot unwind "
				"(%s): they hold only the sampled IP",
				st->dwarf_unsupported,
				arch ? arch : "unknown");
	if (st->dwarf_no_binary + st->dwarf_partial > 0 &&
	    st->dwarf_samples > 0) {
		char end[64] = "";

		if (st->dwarf_copy_end)
			snprintf(end, sizeof(end), ", %" PRIu64 " at the end "
				 "of the stack copy", st->dwarf_copy_end);
		message_note(name,
			     "%" PRIu64 " of %" PRIu64 " user stacks "
			     "unwound only in part (%" PRIu64 " without a "
			     "binary%s%s)%s",
			     st->dwarf_no_binary + st->dwarf_partial,
			     st->dwarf_samples, st->dwarf_no_binary, end,
			     o->symfs || o->nbinaries
				     ? "" : report_hint(rp, "; see --symfs, "
							"--binaries"),
			     report_hint(rp, "; --stats tells more"));
	}
	/* perf report's "Total Lost Samples", and its "lost N chunks" */
	if (st->lost_samples)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " sample%s lost: the kernel could "
				"not record %s", st->lost_samples,
				st->lost_samples == 1 ? "" : "s",
				st->lost_samples == 1 ? "it" : "them");
	if (st->lost)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " event%s lost: perf's buffer was "
				"full", st->lost, st->lost == 1 ? "" : "s");
	if (st->samples_zero)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " sample%s at address 0 (perf's "
				"[unknown]) left out: the gperftools format "
				"cannot hold address 0%s", st->samples_zero,
				st->samples_zero == 1 ? "" : "s",
				report_hint(rp, " (--format=pprof or folded "
					    "keeps them)"));
	if (st->late)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " record%s came after later ones "
				"had been used, and %s used out of time "
				"order", st->late, st->late == 1 ? "" : "s",
				st->late == 1 ? "was" : "were");
	if (st->period_guessed)
		message_warning(name, P2G_NO_OFFSET,
				"event %s has a fixed period of %" PRIu64
				" that is not time; the profile says 1 us per "
				"sample%s", st->event->name,
				st->event->sample_period,
				report_hint(rp, " (set it with --period-us)"));
}

void
report_stats(const struct report *rp, const struct convert_stats *st)
{
	char event[256];

	message_status_end();
	fprintf(stderr,
		"%s: %s: statistics:\n"
		"  records                  %12" PRIu64 "\n"
		"  samples                  %12" PRIu64 "\n"
		"  samples of %-13s %12" PRIu64 "\n"
		"  samples filtered out     %12" PRIu64 "\n"
		"  samples with no frame    %12" PRIu64 "\n"
		"  samples at address 0     %12" PRIu64 "\n"
		"  samples written          %12" PRIu64 "\n"
		"  processes written        %12zu\n"
		"  kernel frames            %12" PRIu64 "\n"
		"  frames left out          %12" PRIu64 "\n"
		"  context markers removed  %12" PRIu64 "\n"
		"  zero addresses dropped   %12" PRIu64 "\n"
		"  events lost by kernel    %12" PRIu64 "\n"
		"  samples lost by kernel   %12" PRIu64 "\n"
		"  samples of unknown id    %12" PRIu64 "\n"
		"  period (us)              %12" PRIu64 "\n"
		"  slot width (bits)        %12u\n",
		progname, rp->name, st->records, st->samples,
		st->event ? message_escape(event, sizeof(event),
					   st->event->name) : "?",
		st->samples_event,
		st->samples_filtered, st->samples_empty, st->samples_zero,
		st->samples_used,
		st->processes, st->kernel_frames, st->frames_dropped,
		st->markers, st->zero_frames, st->lost, st->lost_samples,
		st->unknown_id,
		st->period_us, st->slot_bits);
	if (st->left_out)
		fprintf(stderr,
			"  left out (min-samples)   %12zu\n"
			"  samples left out         %12" PRIu64 "\n",
			st->left_out, st->samples_left_out);
	if (st->undecodable)
		fprintf(stderr, "  samples not decodable    %12" PRIu64 "\n",
			st->undecodable);
	if (st->other_events)
		fprintf(stderr, "  samples of other events  %12" PRIu64 "\n",
			st->other_events);
	if (st->late)
		fprintf(stderr, "  records out of order     %12" PRIu64 "\n",
			st->late);
	if (st->frames_capped)
		fprintf(stderr, "  stacks cut at max-stack  %12" PRIu64 "\n",
			st->frames_capped);
	if (st->lbr_samples)
		fprintf(stderr, "  stacks from LBR          %12" PRIu64 "\n",
			st->lbr_samples);
	if (st->offcpu_outs || st->offcpu_preempted_left_out)
		fprintf(stderr,
			"  off-CPU switch-outs      %12" PRIu64 "\n"
			"  waiting at the end       %12" PRIu64 "\n"
			"  switch-ins lost          %12" PRIu64 "\n"
			"  preempted left out       %12" PRIu64 "\n",
			st->offcpu_outs, st->offcpu_at_end, st->offcpu_lost_in,
			st->offcpu_preempted_left_out);
	if (st->dwarf_samples)
		fprintf(stderr,
			"  dwarf samples            %12" PRIu64 "\n"
			"  dwarf unwound            %12" PRIu64 "\n"
			"  dwarf stopped early      %12" PRIu64 "\n"
			"  dwarf without binary     %12" PRIu64 "\n",
			st->dwarf_samples, st->dwarf_done, st->dwarf_partial,
			st->dwarf_no_binary);
	if (st->dwarf_copy_end)
		fprintf(stderr, "  dwarf copy ended early   %12" PRIu64 "\n",
			st->dwarf_copy_end);
	if (st->dwarf_unsupported)
		fprintf(stderr, "  dwarf not unwindable     %12" PRIu64 "\n",
			st->dwarf_unsupported);
	if (st->read_unchanged || st->read_unknown_id)
		fprintf(stderr,
			"  counter reads unchanged  %12" PRIu64 "\n"
			"  counter reads, no event  %12" PRIu64 "\n",
			st->read_unchanged, st->read_unknown_id);
}

void
report_result_stats(const char *output, const struct convert_result *r)
{
	char name[1024];

	message_status_end();
	fprintf(stderr,
		"%s: %s: profile statistics:\n"
		"  samples                  %12" PRIu64 "\n"
		"  processes                %12zu\n"
		"  distinct stacks          %12" PRIu64 "\n"
		"  deepest stack            %12" PRIu64 "\n"
		"  mapped places            %12zu\n"
		"  places relocated         %12zu\n"
		"  places overlapping       %12zu\n"
		"  frames in no mapping     %12" PRIu64 "\n"
		"  records with leaf copies %12zu\n"
		"  leaf copies added        %12" PRIu64 "\n",
		progname, message_escape(name, sizeof(name), output),
		r->samples, r->processes, r->stacks,
		r->max_depth, r->places, r->relocated, r->collisions,
		r->unmapped,
		r->fixup_records, r->fixup_copies);
}
