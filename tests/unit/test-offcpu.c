/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint formats (tracefmt.h): the fields of sched_switch's format as
 * tracefs writes it, read from raw data of either byte order; and the
 * off-CPU arithmetic (offcpu.h): a switch-out counted until the thread's
 * switch-in, its exit or the end, the preempted kept apart or left out.
 */
#include "config.h"

#include <string.h>

#include "aggregate.h"
#include "offcpu.h"
#include "stacktab.h"
#include "tracefmt.h"
#include "unit.h"

/* The format of sched:sched_switch on Linux 6.x
 * (/sys/kernel/tracing/events/sched/sched_switch/format), and a field
 * with array bounds and a __data_loc one besides. */
static const char sched_switch[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:64;\tsize:4;\tsigned:0;\n"
	"\tfield:s8 tiny;\toffset:68;\tsize:1;\tsigned:1;\n"
	"\tfield:bogus line without offset;\n"
	"\n"
	"print fmt: \"prev_comm=%s ...\", REC->prev_comm\n";

static void
put32(unsigned char *p, uint32_t v, bool big)
{
	int i;

	for (i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

static void
test_format(bool big)
{
	struct tracefmt t;
	const struct tracefmt_event *e;
	unsigned char raw[69];
	uint64_t v = 0;

	memset(&t, 0, sizeof(t));
	CHECK(tracefmt_add(&t, 372, "sched", 5, "sched_switch", 12,
			   sched_switch, sizeof(sched_switch) - 1) == 0);
	e = tracefmt_find(&t, 372);
	CHECK(e != NULL && strcmp(e->name, "sched:sched_switch") == 0);
	CHECK(tracefmt_find(&t, 373) == NULL);
	CHECK_EQ_U64(e->nfields, 13);
	CHECK(tracefmt_field(e, "prev_comm") != NULL);
	CHECK_EQ_U64(tracefmt_field(e, "prev_comm")->size, 16);
	CHECK_EQ_U64(tracefmt_field(e, "msg")->offset, 64);
	CHECK(tracefmt_field(e, "bogus") == NULL);
	CHECK(tracefmt_field(NULL, "prev_pid") == NULL);

	memset(raw, 0, sizeof(raw));
	put32(raw + 24, 4242, big);
	put32(raw + big * 4 + 32, 0x100, big);	/* R+: preempted */
	put32(raw + 56, 0xffffffffu, big);	/* -1 */
	raw[68] = 0x80;
	CHECK(tracefmt_read(tracefmt_field(e, "prev_pid"), raw, sizeof(raw),
			    big, &v) && v == 4242);
	CHECK(tracefmt_read(tracefmt_field(e, "prev_state"), raw,
			    sizeof(raw), big, &v) && v == 0x100);
	CHECK(offcpu_preempted(v) && !offcpu_dead(v));
	CHECK(!offcpu_preempted(1) && offcpu_dead(0x10) && offcpu_dead(0x20));
	CHECK(tracefmt_read(tracefmt_field(e, "next_pid"), raw, sizeof(raw),
			    big, &v) && (int64_t)v == -1);
	CHECK(tracefmt_read(tracefmt_field(e, "tiny"), raw, sizeof(raw), big,
			    &v) && (int64_t)v == -128);
	/* past the raw data, or of a size that is no number */
	CHECK(!tracefmt_read(tracefmt_field(e, "next_pid"), raw, 59, big,
			     &v));
	CHECK(!tracefmt_read(tracefmt_field(e, "prev_comm"), raw,
			     sizeof(raw), big, &v));
	/* a second format of one ID replaces the first */
	CHECK(tracefmt_add(&t, 372, "x", 1, "y", 1, "", 0) == 0);
	CHECK_EQ_U64(t.n, 1);
	CHECK(strcmp(tracefmt_find(&t, 372)->name, "x:y") == 0);
	tracefmt_release(&t);
	CHECK(t.n == 0 && t.ev == NULL);
}

/* The off-CPU ns of thread TID (with the preempted bit or not) in AG. */
static uint64_t
period_of(struct aggregate *ag, int32_t tid, uint64_t *count)
{
	struct stacktab *t = aggregate_table(ag);
	uint64_t sum = 0;
	size_t i;

	*count = 0;
	for (i = 0; i < stacktab_nr(t); i++) {
		const struct stack_entry *e = &stacktab_entries(t)[i];

		if (aggregate_tid(ag, e->ctx) == tid) {
			sum += stacktab_period(t, e);
			*count += e->count;
		}
	}
	return sum;
}

static void
test_offcpu(bool blocked)
{
	static const uint64_t f[2] = { 0x401000, 0x402000 };
	struct aggregate *ag = aggregate_new(true, true);
	struct offcpu *oc = offcpu_new(blocked);
	uint64_t n;
	bool pre;

	CHECK(ag != NULL && oc != NULL);
	/* thread 10: 100 ns, then 50 ns (a switch-in with none waiting
	 * counts nothing) */
	CHECK(offcpu_out(oc, 10, 0, 1, 1000, false, f, 2) == 0);
	CHECK(offcpu_in(oc, ag, 10, 1100) == 0);
	CHECK(offcpu_in(oc, ag, 10, 1150) == 0);
	CHECK(offcpu_out(oc, 10, 0, 1, 1200, false, f, 2) == 0);
	CHECK(offcpu_in(oc, ag, 10, 1250) == 0);
	/* thread 11: preempted 30 ns; then a lost switch-in (the second
	 * switch-out drops the first), then its exit after 7 ns */
	CHECK(offcpu_out(oc, 11, 0, 1, 1000, true, f, 1) == 0);
	CHECK(offcpu_in(oc, ag, 11, 1030) == 0);
	CHECK(offcpu_out(oc, 11, 0, 1, 1100, false, f, 2) == 0);
	CHECK(offcpu_out(oc, 11, 0, 1, 1300, false, f, 2) == 0);
	CHECK(offcpu_exit(oc, ag, 11, 1307) == 0);
	CHECK(offcpu_in(oc, ag, 11, 1400) == 0);
	/* thread 12: never back, until the end (the latest time met, later
	 * than the END given) */
	CHECK(offcpu_out(oc, 12, 0, 1, 1000, false, f, 2) == 0);
	CHECK(offcpu_in(oc, ag, 99, 1500) == 0);
	CHECK(offcpu_finish(oc, ag, 1400) == 0);
	CHECK(aggregate_flush(ag) == 0);

	CHECK_EQ_U64(period_of(ag, 10, &n), 150);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(period_of(ag, 11, &n), 7);
	CHECK_EQ_U64(n, 1);
	CHECK_EQ_U64(period_of(ag, 11 | OFFCPU_PREEMPTED, &n),
		     blocked ? 0 : 30);
	CHECK_EQ_U64(offcpu_tid(11 | OFFCPU_PREEMPTED, &pre), 11);
	CHECK(pre);
	CHECK_EQ_U64(offcpu_tid(11, &pre), 11);
	CHECK(!pre);
	CHECK_EQ_U64(period_of(ag, 12, &n), 500);
	CHECK_EQ_U64(offcpu_counts(oc)->lost_in, 1);
	CHECK_EQ_U64(offcpu_counts(oc)->at_end, 1);
	CHECK_EQ_U64(offcpu_counts(oc)->preempted_left_out, blocked);
	offcpu_free(oc);
	offcpu_free(NULL);
	aggregate_free(ag);
}

int
main(void)
{
	test_format(false);
	test_format(true);
	test_offcpu(false);
	test_offcpu(true);
	return unit_exit();
}
