/* SPDX-License-Identifier: MIT */
/*
 * The stack table: sums samples with identical (event, context, stack)
 * into one entry.  A context is the caller's key of where the samples
 * were taken: the aggregate's is an address space, or a thread in one
 * (aggregate.h); the table only compares it.  Its memory grows with the number of distinct stacks,
 * never with the number of samples.
 */
#ifndef P2G_STACKTAB_H
#define P2G_STACKTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most PCs of one stack, and of all stacks together. */
#define STACKTAB_MAX_PCS ((1u << 24) - 1)
#define STACKTAB_MAX_POOL ((uint64_t)1 << 40)

struct stack_entry {		/* 24 bytes */
	uint64_t count;		/* samples */
	uint64_t off : 40;	/* index of the first PC in the pool (while
				   packed: of its first word in packed) */
	uint64_t n : 24;	/* number of PCs, leaf first */
	uint32_t ctx;		/* the context (aggregate_space(),
				   aggregate_tid()) */
	uint32_t ev;		/* index of the event */
};

struct stacktab;

/* An empty table; NULL when out of memory.  Free it with stacktab_free()
 * (NULL is accepted). */
struct stacktab *stacktab_new(void);
void stacktab_free(struct stacktab *t);

/* Keep the sum of the periods of each entry's samples (8 bytes more per
 * entry); call before the first add.  Without it the periods given are
 * dropped and stacktab_period() is 0. */
void stacktab_keep_periods(struct stacktab *t);

/* Keep the PCs packed until stacktab_unpack(): most as one 32-bit word,
 * the difference from the PC before (stacktab.c), as the frames of one
 * binary lie close together.  Call before the first add (after, it does
 * nothing).  While packed, the table is added to and searched as usual,
 * but its pool must not be read (stacktab_pcs()); stacktab_merge() and
 * stacktab_take_pool() unpack it first. */
void stacktab_pack(struct stacktab *t);

/* The PCs unpacked into the pool, for reading; the table then goes on
 * unpacked.  The pool is made in the packed PCs' memory where it can be,
 * so that the two are not held at once.  0, or -1 when out of memory (T
 * is then as it was). */
int stacktab_unpack(struct stacktab *t);

/* Free what T holds, leaving an empty table (to give back its memory
 * early). */
void stacktab_clear(struct stacktab *t);

/* Add COUNT samples with total PERIOD of stack PCS[0..N) (leaf first) of
 * event EV in context CTX.  Returns 0, or -1 when out of memory
 * (or past STACKTAB_MAX_PCS or STACKTAB_MAX_POOL). */
int stacktab_add(struct stacktab *t, uint32_t ev, uint32_t ctx,
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
			uint32_t ctx, const uint64_t *pcs, uint32_t n,
			uint64_t count, uint64_t period);
int64_t stacktab_add_hashed(struct stacktab *t, uint64_t h, uint32_t ev,
			    uint32_t ctx, const uint64_t *pcs, uint32_t n,
			    uint64_t count, uint64_t period);
uint64_t stacktab_hash(uint32_t ev, uint32_t ctx, const uint64_t *pcs,
		       uint32_t n);

/* Start fetching the slot where a stack of hash H is looked for first. */
void stacktab_prefetch(const struct stacktab *t, uint64_t h);

/* The entry of stack PCS[0..N) of event EV in context CTX, or NULL. */
const struct stack_entry *stacktab_find(const struct stacktab *t,
					uint32_t ev, uint32_t ctx,
					const uint64_t *pcs, uint32_t n);

/* Free the hash index, to save its memory once every stack is in: T can
 * no longer be added to or searched, only its entries read (and merged,
 * below).  */
void stacktab_drop_index(struct stacktab *t);

/*
 * The caller has rewritten the PCs of the N entries E (of T) in place,
 * and some may now be identical: sum the counts and periods of each set
 * of identical stacks (event and context are not compared) into the first
 * of them in E, and drop the others from E, keeping E's order; *N
 * becomes the number left.  0, or -1 when out of memory (E and *N are
 * then as they were).
 */
int stacktab_merge(struct stacktab *t, struct stack_entry **e, size_t *n);

/* Hand T's pool of PCs to the caller, who must free() it; its length
 * and room go to *LEN and *CAP.  T must then only be released.  NULL
 * when a packed T cannot be unpacked (out of memory). */
uint64_t *stacktab_take_pool(struct stacktab *t, size_t *len, size_t *cap);

/* The entries, stacktab_nr() of them, in the order their stacks were
 * first added. */
size_t stacktab_nr(const struct stacktab *t);
struct stack_entry *stacktab_entries(const struct stacktab *t);

/* The sum of the periods of entry E's samples (stacktab_keep_periods()). */
uint64_t stacktab_period(const struct stacktab *t, const struct stack_entry *e);

/* The PCs of entry E (of an unpacked T), which the caller may rewrite in
 * place. */
uint64_t *stacktab_pcs(const struct stacktab *t, const struct stack_entry *e);

/* What T holds, for the tests. */
struct stacktab_state {
	size_t pool_len;	/* PCs in the pool */
	size_t packed_len;	/* words of packed PCs */
	bool packed;		/* the packed PCs are there */
};
void stacktab_inspect(const struct stacktab *t, struct stacktab_state *s);

#endif
