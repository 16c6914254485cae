/* SPDX-License-Identifier: MIT */
/*
 * The stacks of the profiles of a split: the entries of one event put in
 * groups, one per process, thread or command (convert_split), each group
 * one profile.  A group's entries keep the order they have in the stack
 * table (that of their first samples), so that a profile's ties come out
 * as they would in a profile of that process alone.
 */
#ifndef P2G_SPLIT_H
#define P2G_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "aggregate.h"
#include "convert.h"
#include "stacktab.h"

struct split_group {
	size_t start, n;	/* its entries: SEL[start .. start + n) */
	uint64_t samples;
	int32_t pid;		/* its process, or -1 for several */
	int32_t tid;		/* by thread: its thread; else -1 */
	size_t processes;	/* processes in it */
	const char *comm;	/* the command of its process, thread or
				   processes (in AS), or "" */
};

/*
 * Reorder the N entries SEL (of AG's table, from its first entry on, in
 * table order) so that each group of MODE (not CONVERT_SPLIT_NONE; by
 * thread needs AG made by thread) is together, and list the groups in
 * *GROUPS (an array the caller frees, *NG of them), the most samples
 * first, then by pid, thread or command.  0, or -1 when out of memory.
 */
int split_groups(struct addrspace *as, const struct aggregate *ag,
		 enum convert_split mode, struct stack_entry **sel, size_t n,
		 struct split_group **groups, size_t *ng);

#endif
