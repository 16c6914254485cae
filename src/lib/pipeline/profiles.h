/* SPDX-License-Identifier: MIT */
/*
 * The profiles of the stacks read: the choice of the event, its period,
 * and one profile of all its processes (or one per process with
 * --split), each laid out in one address space (layout.h), given the
 * leaf copies against pprof's rewriting (fixup.h) and handed to the
 * caller's sink.
 */
#ifndef P2G_PROFILES_H
#define P2G_PROFILES_H

#include <stddef.h>

#include "addrspace.h"
#include "aggregate.h"
#include "convert.h"
#include "delivery.h"
#include "error.h"
#include "perfdata.h"
#include "stacktab.h"

/* What the reading of the inputs made. */
struct profiles_in {
	struct perfdata_facts first;	/* of the first input: its events
					   and header stand for all */
	struct addrspace *as;
	const struct aggregate *ag;	/* the stacks' contexts */
	struct stacktab *tab;		/* the stacks, of every event (of
					   AG) */
	const struct deliveries *dl;	/* samples per event */
	const struct convert_opts *o;
	size_t npds;			/* inputs read */
};

/*
 * Choose the event (o->event, else the first sampling event with
 * samples), fill in the rest of ST, and hand its profiles to SINK (with
 * SINK_CTX).  The stack table is used up: the last profile takes its
 * PCs.  0, or -1 with ERR set.
 */
int profiles_make(const struct profiles_in *in, convert_sink sink,
		  void *sink_ctx, struct convert_stats *st,
		  struct p2g_error *err);

#endif
