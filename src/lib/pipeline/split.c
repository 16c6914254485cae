/* SPDX-License-Identifier: MIT */
/* The groups of a split: see split.h. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "offcpu.h"
#include "split.h"

/* An entry of SEL with what groups it: the command of its process (by
 * command), then its pid and thread; IDX keeps the table's order. */
struct member {
	const char *comm;	/* by command; else NULL */
	int32_t pid, tid;	/* tid -1 unless by thread */
	size_t idx;
};

static int
cmp_int(int32_t a, int32_t b)
{
	return a < b ? -1 : a > b;
}

/* The member's group, then its process (by command: the processes of
 * one group counted as runs), then the table's order. */
static int
cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c;

	if (x->comm != NULL && (c = strcmp(x->comm, y->comm)) != 0)
		return c;
	if ((c = cmp_int(x->pid, y->pid)) != 0 ||
	    (c = cmp_int(x->tid, y->tid)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
cmp_idx(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Whether X and Y are of one group. */
static bool
same_group(const struct member *x, const struct member *y)
{
	if (x->comm != NULL)
		return strcmp(x->comm, y->comm) == 0;
	return x->pid == y->pid && x->tid == y->tid;
}

/* The most samples first, then by pid, thread and command. */
static int
cmp_group(const void *a, const void *b)
{
	const struct split_group *x = a, *y = b;
	int c;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = cmp_int(x->pid, y->pid)) != 0)
		return c;
	if ((c = cmp_int(x->tid, y->tid)) != 0)
		return c;
	return strcmp(x->comm, y->comm);
}

int
split_groups(struct addrspace *as, const struct aggregate *ag,
	     enum convert_split mode, struct stack_entry **sel, size_t n,
	     struct split_group **groups, size_t *ng)
{
	struct member *m;
	struct split_group *g = NULL;
	size_t i, j, k = 0;

	*groups = NULL;
	*ng = 0;
	m = malloc((n ? n : 1) * sizeof(*m));
	if (m == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t sid = aggregate_space(ag, sel[i]->ctx);
		const struct process *p;
		bool preempted;

		m[i].pid = addrspace_space_pid(as, sid);
		m[i].tid = mode == CONVERT_SPLIT_TID
				   ? offcpu_tid(aggregate_tid(ag, sel[i]->ctx),
						&preempted)
				   : -1;
		m[i].comm = NULL;
		if (mode == CONVERT_SPLIT_COMM) {
			p = addrspace_find(as, m[i].pid);
			m[i].comm = p != NULL ? p->comm : "";
		}
		m[i].idx = i;
	}
	qsort(m, n, sizeof(*m), cmp_member);
	/* At most one group per entry. */
	g = malloc((n ? n : 1) * sizeof(*g));
	if (g == NULL) {
		free(m);
		return -1;
	}
	for (i = 0; i < n; i = j) {
		struct split_group *x = &g[k++];
		const struct process *p;

		x->start = i;
		x->samples = 0;
		x->processes = 0;
		x->pid = m[i].pid;
		x->tid = m[i].tid;
		for (j = i; j < n && same_group(&m[i], &m[j]); j++) {
			x->samples = count_add(x->samples,
					       sel[m[j].idx]->count);
			if (j == i || m[j].pid != m[j - 1].pid)
				x->processes++;
		}
		x->n = j - i;
		if (x->processes > 1)
			x->pid = -1;
		if (mode == CONVERT_SPLIT_COMM)
			x->comm = m[i].comm;
		else if (mode == CONVERT_SPLIT_TID)
			x->comm = addrspace_comm_of(as, m[i].pid, m[i].tid);
		else if ((p = addrspace_find(as, m[i].pid)) != NULL)
			x->comm = p->comm;
		else
			x->comm = "";
		/* the group's entries in the table's order */
		qsort(m + i, j - i, sizeof(*m), cmp_idx);
	}
	/* SEL in the members' order. */
	{
		struct stack_entry **tmp = malloc((n ? n : 1) * sizeof(*tmp));

		if (tmp == NULL) {
			free(m);
			free(g);
			return -1;
		}
		for (i = 0; i < n; i++)
			tmp[i] = sel[m[i].idx];
		memcpy(sel, tmp, n * sizeof(*sel));
		free(tmp);
	}
	free(m);
	qsort(g, k, sizeof(*g), cmp_group);
	*groups = g;
	*ng = k;
	return 0;
}
