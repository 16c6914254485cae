/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the time-order queue: records come back sorted by time,
 * file order on a tie, at the moments perf gives them back (rounds, the
 * bound, the end), including a record that arrives after the one queued
 * before it was given back; copied and lasting records alike, each with
 * its event.  A random stream is checked against a plain model: pending
 * records in an array, the earliest taken each time.
 */
#include "config.h"

#include <string.h>

#include "order.h"
#include "unit.h"

#define NREC 6000
#define RSIZE 16

static unsigned char data[NREC][RSIZE];
/* The records' events: record I's is attrs[I % 4], none for I % 4 == 3. */
static struct perf_attr attrs[3];
static uint64_t times[NREC];
static size_t got[NREC], ngot;

static int
collect(void *ctx, const struct perf_record *rec, struct p2g_error *err)
{
	uint32_t i;

	(void)ctx;
	(void)err;
	memcpy(&i, rec->data + 8, sizeof(i));
	CHECK(rec->offset == (uint64_t)i * RSIZE);
	CHECK(rec->size == RSIZE);
	CHECK(rec->type == 9);
	CHECK(rec->attr == (i % 4 == 3 ? NULL : &attrs[i % 4]));
	if (ngot < NREC)
		got[ngot++] = i;
	return 0;
}

/* Record I (its index in its bytes, its offset I * RSIZE). */
static struct perf_record
record(uint32_t i, bool lasting)
{
	struct perf_record rec;

	memset(&rec, 0, sizeof(rec));
	memset(data[i], 0, RSIZE);
	data[i][0] = 9;		/* a sample */
	data[i][6] = RSIZE;
	memcpy(data[i] + 8, &i, sizeof(i));
	rec.type = 9;
	rec.size = RSIZE;
	rec.offset = (uint64_t)i * RSIZE;
	rec.data = data[i];
	rec.lasting = lasting;
	rec.attr = i % 4 == 3 ? NULL : &attrs[i % 4];
	return rec;
}

static void
push(struct order *q, uint32_t i, uint64_t t,
     bool lasting)
{
	struct perf_record rec = record(i, lasting);
	struct p2g_error err;

	times[i] = t;
	CHECK(order_push(q, &rec, t, collect, NULL, &err) == 0);
}

/* Records FROM .. TO-1, record I at time T0 + I. */
static void
push_range(struct order *q, uint32_t from, uint32_t to,
	   uint64_t t0, bool lasting)
{
	uint32_t i;

	for (i = from; i < to; i++)
		push(q, i, t0 + i, lasting);
}

/* Record I, without a time: not held back. */
static void
pass(struct order *q, uint32_t i, bool lasting)
{
	struct perf_record rec = record(i, lasting);
	struct p2g_error err;

	CHECK(order_pass(q, &rec, collect, NULL, &err) == 0);
}

/* Records 0 .. N-1 were given back, in that order, and no others. */
static void
check_all_in_order(uint32_t n)
{
	uint32_t i;

	CHECK_EQ_U64(ngot, n);
	for (i = 0; i < n && i < ngot; i++)
		if (got[i] != i) {
			CHECK_EQ_U64(got[i], i);
			break;
		}
}

/* The model: pending records, the earliest (time, index) taken first. */
static size_t model[NREC], nmodel, want[NREC], nwant;

static void
model_pop(void)
{
	size_t k, best = 0;

	for (k = 1; k < nmodel; k++)
		if (times[model[k]] < times[model[best]] ||
		    (times[model[k]] == times[model[best]] &&
		     model[k] < model[best]))
			best = k;
	want[nwant++] = model[best];
	model[best] = model[--nmodel];
}

static void
model_upto(uint64_t limit)
{
	size_t k, best;

	while (nmodel > 0) {
		for (best = 0, k = 1; k < nmodel; k++)
			if (times[model[k]] < times[model[best]])
				best = k;
		if (times[model[best]] > limit)
			break;
		model_pop();
	}
}

static void
random_stream(bool lasting, size_t max_bytes, unsigned seed)
{
	struct order *q;
	struct order_state os;
	struct p2g_error err;
	uint64_t base = 1000, round_max = 0, flush_upto = 0;
	uint32_t i;
	unsigned x = seed;

	q = order_new(max_bytes, false);
	CHECK(q != NULL);
	ngot = nmodel = nwant = 0;
	for (i = 0; i < NREC; i++) {
		uint64_t t;

		x = x * 1103515245u + 12345u;
		/* two CPUs' buffers in turn, with now and then a late one */
		if ((x >> 16) % 97 == 0)
			t = base / 2;
		else
			t = base + ((i / 50) % 2 ? 0 : 400) + (x >> 16) % 300;
		base += 7;
		order_inspect(q, &os);
		if (os.bytes + RSIZE > max_bytes && nmodel > 0) {
			size_t half = (nmodel + 1) / 2;

			while (half-- > 0)
				model_pop();
		}
		push(q, i, t, lasting);
		model[nmodel++] = i;
		if (t > round_max)
			round_max = t;
		if (i % 200 == 199) {
			uint64_t limit = flush_upto;

			flush_upto = round_max;
			if (limit != 0)
				model_upto(limit);
			CHECK(order_round(q, &err) == 0);
			/* what the round gives back is handed on over the
			 * next records, before anything else */
			order_inspect(q, &os);
			CHECK(ngot + os.due == nwant);
		}
		CHECK(ngot <= nwant);
	}
	CHECK(order_flush(q, collect, NULL, &err) == 0);
	while (nmodel > 0)
		model_pop();
	CHECK_EQ_U64(ngot, NREC);
	CHECK_EQ_U64(nwant, NREC);
	for (i = 0; i < NREC; i++)
		if (got[i] != want[i]) {
			CHECK_EQ_U64(got[i], want[i]);
			break;
		}
	order_free(q);
}

int
main(void)
{
	struct order *q;
	struct order_state os;
	struct p2g_error err;
	int lasting;
	uint32_t i, j, k;

	for (k = 0; k < 3; k++)
		attrs[k].index = k;
	for (lasting = 0; lasting < 2; lasting++) {
		/* W(20); round; X(50) Y(15); round gives Y W and leaves X;
		 * then V without a time goes on at once, after them; then
		 * Z(12), queued after Y was given back, still goes before
		 * X, as perf's queue puts it. */
		q = order_new(1 << 20, false);
		CHECK(q != NULL);
		ngot = 0;
		push(q, 0, 20, lasting);
		CHECK(order_round(q, &err) == 0);
		CHECK_EQ_U64(ngot, 0);
		push(q, 1, 50, lasting);
		push(q, 2, 15, lasting);
		CHECK(order_round(q, &err) == 0);
		/* given back, not handed on yet: their pages are held */
		CHECK_EQ_U64(ngot, 0);
		CHECK_EQ_U64(order_oldest(q, 99), 0);
		/* a record without a time goes on after them */
		pass(q, 4, lasting);
		CHECK_EQ_U64(ngot, 3);
		CHECK_EQ_U64(got[0], 2);
		CHECK_EQ_U64(got[1], 0);
		CHECK_EQ_U64(got[2], 4);
		CHECK_EQ_U64(order_late(q), 0);
		push(q, 3, 12, lasting);
		CHECK_EQ_U64(order_late(q), 1);	/* after W(20) was given */
		CHECK_EQ_U64(order_oldest(q, 99), 1 * RSIZE);
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		CHECK_EQ_U64(ngot, 5);
		CHECK_EQ_U64(got[3], 3);
		CHECK_EQ_U64(got[4], 1);
		CHECK_EQ_U64(order_oldest(q, 99), 99);
		order_free(q);

		/* Late as perf counts it: against what was given back
		 * before the record came, not what its own coming gives
		 * back.  Room for 3 records: A(10) B(20) C(30), then D(5)
		 * gives back A and B and is not late; E(7) is. */
		q = order_new(3 * RSIZE, false);
		CHECK(q != NULL);
		ngot = 0;
		push(q, 0, 10, lasting);
		push(q, 1, 20, lasting);
		push(q, 2, 30, lasting);
		push(q, 3, 5, lasting);
		CHECK_EQ_U64(ngot, 2);
		CHECK_EQ_U64(order_late(q), 0);
		push(q, 4, 7, lasting);
		CHECK_EQ_U64(order_late(q), 1);
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		order_free(q);

		/* A round's records are handed on with the next round's:
		 * A(10) B(11) C(12) D(13); round; E(20) F(21) G(22) H(23);
		 * round gives back A..D, handed on over about as many
		 * records as a round has (4): 1.25 a record. */
		q = order_new(1 << 20, false);
		CHECK(q != NULL);
		ngot = 0;
		push_range(q, 0, 4, 10, lasting);
		CHECK(order_round(q, &err) == 0);
		push_range(q, 4, 8, 16, lasting);
		CHECK_EQ_U64(ngot, 0);
		CHECK(order_round(q, &err) == 0);
		CHECK_EQ_U64(ngot, 0);
		push(q, 8, 30, lasting);
		CHECK_EQ_U64(ngot, 1);
		push(q, 9, 31, lasting);
		CHECK_EQ_U64(ngot, 2);
		push(q, 10, 32, lasting);
		CHECK_EQ_U64(ngot, 3);
		/* D, still due, goes before E..H; a late record goes
		 * after all of them */
		CHECK(order_round(q, &err) == 0);
		push(q, 11, 5, lasting);
		CHECK_EQ_U64(order_late(q), 1);
		CHECK_EQ_U64(ngot, 4);
		CHECK_EQ_U64(got[3], 3);
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		CHECK_EQ_U64(ngot, 12);
		for (i = 0; i < 8; i++)
			CHECK_EQ_U64(got[i], i);
		CHECK_EQ_U64(got[8], 11);
		order_free(q);

		/* Due records that fill their array while some have been
		 * handed on: those left move to its front (4096 due, half
		 * of them handed on, then 10 more). */
		q = order_new(1 << 20, false);
		CHECK(q != NULL);
		ngot = 0;
		push_range(q, 0, 4096, 100, lasting);
		CHECK(order_round(q, &err) == 0);
		push_range(q, 4096, 4106, 100, lasting);
		CHECK(order_round(q, &err) == 0);
		push_range(q, 4106, 5206, 100, lasting);
		order_inspect(q, &os);
		CHECK(os.due_head >= os.due_cap / 2);
		CHECK(order_round(q, &err) == 0);
		order_inspect(q, &os);
		CHECK(os.due_head == 0);
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		check_all_in_order(5206);
		order_free(q);

		/* Rounds closer together than the pace (set by 5000
		 * records read without a round) pile up due records: no
		 * more than the bound's bytes stay due. */
		q = order_new(100 * RSIZE, false);
		CHECK(q != NULL);
		ngot = 0;
		push_range(q, 0, 5000, 100, lasting);
		i = 5000;
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		for (k = 0; k < 9; k++) {
			CHECK(order_round(q, &err) == 0);
			for (j = 0; j < 40; j++, i++) {
				push(q, i, 100 + i, lasting);
				order_inspect(q, &os);
				CHECK(os.due_bytes <= 100 * RSIZE);
			}
		}
		order_inspect(q, &os);
		CHECK(os.due >= 90);
		CHECK(order_flush(q, collect, NULL, &err) == 0);
		check_all_in_order(5360);
		order_free(q);

		random_stream(lasting, 1 << 20, 1);
		random_stream(lasting, 40 * RSIZE, 2);	/* the bound */
		random_stream(lasting, 1 << 20, 3);
	}
	return unit_exit();
}
