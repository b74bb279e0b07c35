/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_LOCKING_LOCKDEP_INTERNALS_H
#define _KERNEL_LOCKING_LOCKDEP_INTERNALS_H

/*
 * lockdep-lite internals shared by the checker (lockdep.c) and the report
 * printer (lockdep_report.c).  Everything lives in fixed pools in .bss so
 * the first lock taken at boot can be tracked before any allocator exists.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

#define MAX_LOCKDEP_KEYS	1024U	/* lock classes */
#define MAX_LOCKDEP_ENTRIES	8192U	/* list entries; two per dependency */
#define MAX_STACK_TRACE_ENTRIES	32768U	/* saved return addresses */
#define LOCK_TRACE_DEPTH	16U	/* frames kept per saved trace */
#define CLASSHASH_BITS		9
#define CLASSHASH_SIZE		(1U << CLASSHASH_BITS)

/* irq_context of a held lock: edges never cross an interrupt boundary. */
#define LOCKDEP_CTX_SOFTIRQ	1
#define LOCKDEP_CTX_HARDIRQ	2

/*
 * Usage bits: for each IRQ kind, "taken in that kind of interrupt" and
 * "taken while that kind of interrupt was enabled", each for write and
 * read.  bit = kind * 4 + direction * 2 + read, so flipping
 * LOCK_USAGE_DIR_MASK turns a usage into the one it conflicts with.
 */
enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,
	LOCK_USED_IN_HARDIRQ_READ,
	LOCK_ENABLED_HARDIRQ,
	LOCK_ENABLED_HARDIRQ_READ,
	LOCK_USED_IN_SOFTIRQ,
	LOCK_USED_IN_SOFTIRQ_READ,
	LOCK_ENABLED_SOFTIRQ,
	LOCK_ENABLED_SOFTIRQ_READ,
	LOCK_USED,
	LOCK_USED_READ,
	LOCK_USAGE_STATES,
};

#define LOCK_USAGE_READ_MASK	1
#define LOCK_USAGE_DIR_MASK	2
#define LOCKF(bit)		(1UL << (bit))
#define LOCK_IRQ_KINDS		2	/* hardirq, softirq */

/*
 * Dependency kinds of an edge prev -> next, after Linux's recursive-read
 * model: S/E is whether prev was held shared-recursive or not, R/N whether
 * next was taken shared-recursive or not.  A cycle only deadlocks if no
 * -(xR)-> edge is directly followed by an -(Sx)-> edge.
 */
#define DEP_SR	1U
#define DEP_ER	2U
#define DEP_SN	4U
#define DEP_EN	8U
#define DEP_XR	(DEP_SR | DEP_ER)
#define DEP_XN	(DEP_SN | DEP_EN)
#define DEP_EX	(DEP_ER | DEP_EN)

/* A slice of the shared stack-trace pool. */
struct lock_trace {
	u32 start;
	u32 nr;
};

struct lock_class {
	struct lock_class *hash_next;	/* bucket chain, lock-free readers */
	/* The lock_list entries of dependencies after and before this class. */
	struct list_head locks_after, locks_before;
	const void *key;		/* NULL once zapped */
	const char *name;
	unsigned int subclass;
	unsigned long usage_mask;
	struct lock_trace usage_traces[LOCK_USAGE_STATES];
	u8 wait_type_inner, wait_type_outer;
	u32 bfs_gen[2];			/* visited by the current search (strong, xr) */
};

/* One direction of one dependency: an entry on links_to's after/before list. */
struct lock_list {
	struct list_head entry;
	struct lock_class *class;	/* the class at the other end */
	struct lock_class *links_to;	/* the class whose list this is on */
	struct lock_trace trace;	/* where the dependency was first made */
	u16 distance;
	u8 dep;				/* DEP_* kinds seen */
	u8 only_xr;			/* search state: reached through -(xR)-> only */
	struct lock_list *parent;	/* search state: previous hop */
};

extern struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
extern unsigned long stack_trace[MAX_STACK_TRACE_ENTRIES];

/* lockdep.c */
bool lockdep_off_bug(void);
const char *usage_str(enum lock_usage_bit bit);
unsigned int lockdep_save_current(unsigned long *entries, unsigned int max);

/* lockdep_report.c: each is called after the checker turned itself off. */
void print_lock_trace(const struct lock_trace *trace, int spaces);
void print_circular_bug(struct lock_list *target, struct held_lock *prev,
			struct held_lock *next);
void print_deadlock_bug(struct held_lock *prev, struct held_lock *next);
void print_usage_bug(struct held_lock *this, enum lock_usage_bit prev_bit,
		     enum lock_usage_bit new_bit);
void print_bad_irq_dependency(struct held_lock *prev, struct held_lock *next,
			      struct lock_list *safe, struct lock_list *unsafe,
			      int kind);
void print_irq_inversion_bug(struct held_lock *this, struct lock_list *other,
			     bool forwards, enum lock_usage_bit bit);
void print_unlock_imbalance_bug(struct lockdep_map *lock, unsigned long ip);
void print_lock_invalid_wait_context(struct held_lock *next, int curr_inner);
void print_lockdep_off(const char *why);
void lockdep_note_class(struct lock_class *class);

#endif
