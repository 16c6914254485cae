/* SPDX-License-Identifier: MIT */
/*
 * The stack table: sums samples with identical (event, process, stack)
 * into one entry.  Its memory grows with the number of distinct stacks,
 * never with the number of samples.
 */
#ifndef P2G_STACKTAB_H
#define P2G_STACKTAB_H

#include <stddef.h>
#include <stdint.h>

struct stack_entry {
	uint64_t count;		/* samples */
	uint64_t period;	/* sum of their periods */
	size_t off;		/* index of the first PC in the pool */
	uint32_t space;		/* the address space (addrspace.h) */
	uint32_t ev;		/* index of the event */
	uint32_t n;		/* number of PCs, leaf first */
};

struct stacktab {
	struct stack_entry *entries;
	size_t nr, cap_entries;
	uint64_t *pool;		/* PCs of all entries, back to back */
	size_t pool_len, pool_cap;
	uint64_t *slots;	/* open addressing: the upper 32 bits of the
				   hash, then entry index + 1 (0: free) */
	size_t nslots;
};

/* Initialise an empty table. */
void stacktab_init(struct stacktab *t);

/* Free what T owns; T itself may then be reused after stacktab_init(). */
void stacktab_release(struct stacktab *t);

/* Add COUNT samples with total PERIOD of stack PCS[0..N) (leaf first) of
 * event EV in address space SPACE.  Returns 0, or -1 when out of memory. */
int stacktab_add(struct stacktab *t, uint32_t ev, uint32_t space,
		 const uint64_t *pcs, uint32_t n, uint64_t count,
		 uint64_t period);

/* As stacktab_add(), but trying entry HINT first (an index this function
 * returned before, or any larger value for none): a thread's stack
 * often repeats its previous one, and then neither hash nor probe is
 * needed.  Returns the entry's index, or -1 when out of memory. */
int64_t stacktab_add_hint(struct stacktab *t, uint32_t hint, uint32_t ev,
			  uint32_t space, const uint64_t *pcs, uint32_t n,
			  uint64_t count, uint64_t period);

/* The entry of stack PCS[0..N) of event EV in SPACE, or NULL. */
const struct stack_entry *stacktab_find(const struct stacktab *t,
					uint32_t ev, uint32_t space,
					const uint64_t *pcs, uint32_t n);

/* The PCs of entry E. */
static inline const uint64_t *
stacktab_pcs(const struct stacktab *t, const struct stack_entry *e)
{
	return t->pool + e->off;
}

#endif
