/* SPDX-License-Identifier: MIT */
/*
 * The stack table: sums samples with identical (event, process, stack)
 * into one entry.  Its memory grows with the number of distinct stacks,
 * never with the number of samples.
 */
#ifndef P2G_STACKTAB_H
#define P2G_STACKTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

/* The most PCs of one stack, and of all stacks together. */
#define STACKTAB_MAX_PCS ((1u << 24) - 1)
#define STACKTAB_MAX_POOL ((uint64_t)1 << 40)

struct stack_entry {		/* 24 bytes */
	uint64_t count;		/* samples */
	uint64_t off : 40;	/* index of the first PC in the pool (while
				   packed: of its first word in packed) */
	uint64_t n : 24;	/* number of PCs, leaf first */
	uint32_t space;		/* the address space (addrspace.h) */
	uint32_t ev;		/* index of the event */
};

struct stacktab {
	struct stack_entry *entries;
	size_t nr, cap_entries;
	uint64_t *pool;		/* PCs of all entries, back to back */
	size_t pool_len, pool_cap;
	struct hashtab index;	/* of the entries, by stacktab_hash() */
	uint64_t *periods;	/* sum of each entry's sample periods, */
	bool with_periods;	/* kept only when asked for */
	/* Packed (stacktab_pack()): the PCs are kept in PACKED instead of
	 * POOL, most as one 32-bit word, the difference from the PC before
	 * (stacktab.c).  Frames of one binary lie close together, so that
	 * a PC takes about 4 bytes instead of 8. */
	bool packed_mode;
	uint32_t *packed;
	size_t packed_len, packed_cap;	/* in words */
	uint64_t npcs;		/* PCs held in PACKED */
};

/* Initialise an empty table. */
void stacktab_init(struct stacktab *t);

/* Keep the sum of the periods of each entry's samples (8 bytes more per
 * entry); call before the first add.  Without it the periods given are
 * dropped and stacktab_period() is 0. */
void stacktab_keep_periods(struct stacktab *t);

/* Keep the PCs packed (see struct stacktab) until stacktab_unpack():
 * call before the first add (after, it does nothing).  While packed, the
 * table is added to and searched as usual, but its pool must not be read
 * (stacktab_pcs()); stacktab_merge() and stacktab_take_pool() unpack it
 * first. */
void stacktab_pack(struct stacktab *t);

/* The PCs unpacked into the pool, for reading; the table then goes on
 * unpacked.  The pool is made in the packed PCs' memory where it can be,
 * so that the two are not held at once.  0, or -1 when out of memory (T
 * is then as it was). */
int stacktab_unpack(struct stacktab *t);

/* Free what T owns; T itself may then be reused after stacktab_init(). */
void stacktab_release(struct stacktab *t);

/* Add COUNT samples with total PERIOD of stack PCS[0..N) (leaf first) of
 * event EV in address space SPACE.  Returns 0, or -1 when out of memory
 * (or past STACKTAB_MAX_PCS or STACKTAB_MAX_POOL). */
int stacktab_add(struct stacktab *t, uint32_t ev, uint32_t space,
		 const uint64_t *pcs, uint32_t n, uint64_t count,
		 uint64_t period);

/* For a caller that knows where a stack may already be, or fetches its
 * slot ahead of adding it.  stacktab_add_if(): if entry HINT (an index
 * returned before) holds the stack, add to it and return HINT; else -1,
 * nothing added.  A thread's stack often repeats its previous one, and
 * then neither hash nor probe is needed.  stacktab_add_hashed(): as
 * stacktab_add(), with H = stacktab_hash() of the stack; returns the
 * entry's index, or -1 when out of memory. */
int64_t stacktab_add_if(struct stacktab *t, uint32_t hint, uint32_t ev,
			uint32_t space, const uint64_t *pcs, uint32_t n,
			uint64_t count, uint64_t period);
int64_t stacktab_add_hashed(struct stacktab *t, uint64_t h, uint32_t ev,
			    uint32_t space, const uint64_t *pcs, uint32_t n,
			    uint64_t count, uint64_t period);
uint64_t stacktab_hash(uint32_t ev, uint32_t space, const uint64_t *pcs,
		       uint32_t n);

/* Start fetching the slot where a stack of hash H is looked for first. */
static inline void
stacktab_prefetch(const struct stacktab *t, uint64_t h)
{
	hashtab_prefetch(&t->index, h);
}

/* The entry of stack PCS[0..N) of event EV in SPACE, or NULL. */
const struct stack_entry *stacktab_find(const struct stacktab *t,
					uint32_t ev, uint32_t space,
					const uint64_t *pcs, uint32_t n);

/* Free the hash index, to save its memory once every stack is in: T can
 * no longer be added to or searched, only its entries read (and merged,
 * below).  */
void stacktab_drop_index(struct stacktab *t);

/*
 * The caller has rewritten the PCs of the N entries E (of T) in place,
 * and some may now be identical: sum the counts and periods of each set
 * of identical stacks (event and space are not compared) into the first
 * of them in E, and drop the others from E, keeping E's order.  Returns
 * the number of entries left in E, or SIZE_MAX when out of memory.
 */
size_t stacktab_merge(struct stacktab *t, struct stack_entry **e, size_t n);

/* Hand T's pool of PCs to the caller, who must free() it; its length
 * and room go to *LEN and *CAP.  T must then only be released.  NULL
 * when a packed T cannot be unpacked (out of memory). */
uint64_t *stacktab_take_pool(struct stacktab *t, size_t *len, size_t *cap);

/* The sum of the periods of entry E's samples (stacktab_keep_periods()). */
static inline uint64_t
stacktab_period(const struct stacktab *t, const struct stack_entry *e)
{
	return t->with_periods ? t->periods[e - t->entries] : 0;
}

/* The PCs of entry E. */
static inline const uint64_t *
stacktab_pcs(const struct stacktab *t, const struct stack_entry *e)
{
	return t->pool + e->off;
}

#endif
