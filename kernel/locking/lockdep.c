// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-lite: runtime locking correctness validator (CONFIG_PROVE_LOCKING),
 * after the semantics of Linux 5.15's kernel/locking/lockdep.c.
 *
 * Locks are grouped into classes (one per lock_class_key, i.e. per init
 * site, or per static lock).  Every acquisition records "prev -> next"
 * edges from the locks the task already holds, and a new edge is first
 * proven not to close a cycle in the class graph (a possible AB-BA
 * deadlock, even if the two orders never ran at the same time).  Each
 * class also remembers whether it was used in hard/soft interrupt context
 * and whether it was taken with those interrupts enabled; both on one
 * class, or a path from an IRQ-safe class to an IRQ-unsafe one, is a
 * possible deadlock against an interrupt.
 *
 * The graph lives in static pools (no allocator: it must work from the
 * first lock at boot) under one arch spinlock taken with interrupts off;
 * the per-task lockdep_recursion count keeps lockdep from tracking its own
 * work.  Edges and usage bits are only ever added (tests may zap classes),
 * so the common "already known" checks read them without the lock.
 * The first report turns checking off (debug_locks = 0), as in Linux:
 * after one bug the graph can no longer be trusted.  Held-lock stacks are
 * still maintained afterwards so re-arming (tests) starts from the truth.
 */
#include "lockdep_internals.h"
#include "lock_key.h"
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <asm/sections.h>
#include <asm/spinlock.h>
#include <asm/stacktrace.h>

/* newlib's <sys/lock.h> claims these names for its own lock hooks. */
#undef __lock_acquire
#undef __lock_release

int debug_locks = 1;
atomic_t lockdep_bug_count;

struct lock_class lock_classes[MAX_LOCKDEP_KEYS];	/* allocated in order */
static unsigned int nr_lock_classes;
static struct lock_class *classhash_table[CLASSHASH_SIZE];

static struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];	/* dependency links */
static unsigned int nr_list_entries;

unsigned long stack_trace[MAX_STACK_TRACE_ENTRIES];
static unsigned int nr_stack_trace_entries;

static arch_spinlock_t lockdep_lock = __ARCH_SPIN_LOCK_UNLOCKED;

/* The return address into lock_acquire()'s caller: saved traces start there. */
static DEFINE_PER_CPU(unsigned long, lockdep_caller);

/* ------------------------------------------------------------ graph lock */

/* Callers run with IRQs off and current->lockdep_recursion raised. */
static bool graph_lock(void)
{
	arch_spin_lock(&lockdep_lock);
	if (!READ_ONCE(debug_locks)) {
		arch_spin_unlock(&lockdep_lock);
		return false;
	}
	return true;
}

static void graph_unlock(void)
{
	arch_spin_unlock(&lockdep_lock);
}

/*
 * A bug was found with the graph lock held: stop checking, drop the lock
 * and let the caller print.  The graph is frozen from here on (every
 * writer rechecks debug_locks under the lock), so the report may walk it
 * without the lock and without holding other CPUs up while it prints.
 */
static bool debug_locks_off_graph_unlock(void)
{
	bool first = READ_ONCE(debug_locks);

	WRITE_ONCE(debug_locks, 0);
	graph_unlock();
	if (first)
		atomic_inc(&lockdep_bug_count);
	return first;
}

/* Out of a pool, or a search too big: lockdep gives up, loudly. */
static void lockdep_give_up(const char *why)
{
	if (debug_locks_off_graph_unlock())
		print_lockdep_off(why);
}

/* --------------------------------------------------------- stack traces */

unsigned int lockdep_save_current(unsigned long *entries, unsigned int max)
{
	unsigned long buf[48];
	unsigned long caller = this_cpu_read(lockdep_caller);
	unsigned int n = save_stack_trace(buf, ARRAY_SIZE(buf), 0), i;

	/* Drop lockdep's own frames: start at the lock call site. */
	for (i = 0; i < n && buf[i] != caller; i++)
		;
	if (i == n)
		i = 0;
	n -= i;
	if (n > max)
		n = max;
	memcpy(entries, buf + i, n * sizeof(*entries));
	return n;
}

/* Graph lock held; on failure it has been dropped. */
static bool save_trace(struct lock_trace *trace)
{
	unsigned long buf[LOCK_TRACE_DEPTH];
	unsigned int n = lockdep_save_current(buf, LOCK_TRACE_DEPTH);

	if (nr_stack_trace_entries + n > MAX_STACK_TRACE_ENTRIES) {
		lockdep_give_up("BUG: MAX_STACK_TRACE_ENTRIES too low!");
		return false;
	}
	memcpy(stack_trace + nr_stack_trace_entries, buf, n * sizeof(*buf));
	trace->start = nr_stack_trace_entries;
	trace->nr = n;
	nr_stack_trace_entries += n;
	return true;
}

/* -------------------------------------------------------------- classes */

static unsigned int classhash(const void *key, unsigned int subclass)
{
	u64 h = ((unsigned long)key + subclass) * 0x9e3779b97f4a7c15ULL;

	return h >> (64 - CLASSHASH_BITS);
}

static struct lock_class *look_up_lock_class(const void *key, unsigned int subclass)
{
	struct lock_class *class;

	class = __atomic_load_n(&classhash_table[classhash(key, subclass)],
				__ATOMIC_ACQUIRE);
	for (; class; class = __atomic_load_n(&class->hash_next, __ATOMIC_ACQUIRE))
		if (READ_ONCE(class->key) == key && class->subclass == subclass)
			return class;
	return NULL;
}

/* Graph lock held; NULL (lock dropped) when the pool is exhausted. */
static struct lock_class *new_lock_class(const struct lockdep_map *lock,
					 const void *key, unsigned int subclass)
{
	struct lock_class **bucket = &classhash_table[classhash(key, subclass)];
	struct lock_class *class;

	if (nr_lock_classes >= MAX_LOCKDEP_KEYS) {
		lockdep_give_up("BUG: MAX_LOCKDEP_KEYS too low!");
		return NULL;
	}
	class = &lock_classes[nr_lock_classes++];
	INIT_LIST_HEAD(&class->locks_after);
	INIT_LIST_HEAD(&class->locks_before);
	class->name = lock->name;
	class->subclass = subclass;
	class->wait_type_inner = lock->wait_type_inner;
	class->wait_type_outer = lock->wait_type_outer;
	class->key = key;
	class->hash_next = *bucket;
	/* Lock-free lookups must see a complete class. */
	__atomic_store_n(bucket, class, __ATOMIC_RELEASE);
	return class;
}

static struct lock_class *register_lock_class(struct lockdep_map *lock,
					      unsigned int subclass)
{
	const void *key = lock_key(lock);
	struct lock_class *class = READ_ONCE(lock->class_cache);

	if (!subclass && class && READ_ONCE(class->key) == key)
		return class;
	class = look_up_lock_class(key, subclass);
	if (!class) {
		if (!graph_lock())
			return NULL;
		class = look_up_lock_class(key, subclass);
		if (!class) {
			class = new_lock_class(lock, key, subclass);
			if (!class)
				return NULL;
		}
		graph_unlock();
	}
	if (!subclass)
		WRITE_ONCE(lock->class_cache, class);
	return class;
}

/* -------------------------------------------------------- the dep graph */

/* Graph lock held.  Readers walk forward only, so publish ->next last. */
static bool add_lock_to_list(struct lock_class *this, struct lock_class *links_to,
			     struct list_head *head, u16 distance, u8 dep,
			     const struct lock_trace *trace)
{
	struct lock_list *e;

	if (nr_list_entries >= MAX_LOCKDEP_ENTRIES) {
		lockdep_give_up("BUG: MAX_LOCKDEP_ENTRIES too low!");
		return false;
	}
	e = &list_entries[nr_list_entries++];
	e->class = this;
	e->links_to = links_to;
	e->distance = distance;
	e->dep = dep;
	e->trace = *trace;
	e->entry.next = head;
	e->entry.prev = head->prev;
	barrier();
	__atomic_store_n(&head->prev->next, &e->entry, __ATOMIC_RELEASE);
	head->prev = &e->entry;
	return true;
}

static struct lock_list *find_entry(struct list_head *head, struct lock_class *class)
{
	struct lock_list *e;

	list_for_each_entry(e, head, entry)
		if (e->class == class)
			return e;
	return NULL;
}

/* Kind of the edge prev -> next (see DEP_*). */
static u8 calc_dep(const struct held_lock *prev, const struct held_lock *next)
{
	unsigned int shift = (prev->read == 2 ? 0 : 1) + (next->read == 2 ? 0 : 2);

	return 1U << shift;
}

#define BFS_QUEUE_SIZE	4096U
static struct lock_list *bfs_queue[BFS_QUEUE_SIZE];
static u32 bfs_gen_id;

enum bfs_result { BFS_MATCH, BFS_NOMATCH, BFS_QFULL };

typedef bool (*bfs_match_fn)(struct lock_list *entry, void *data);

/*
 * Breadth-first search from @root along forward (locks_after) or backward
 * (locks_before) edges for an entry that satisfies @match; the shortest
 * such path is left in the ->parent links.  Going forward, a class reached
 * only through -(xR)-> edges may not be left through an -(Sx)-> edge: that
 * pair is two recursive readers, which cannot block each other.
 * Graph lock held.
 */
static enum bfs_result lockdep_bfs(struct lock_list *root, bool forwards,
				   bool check_root, bfs_match_fn match,
				   void *data, struct lock_list **found)
{
	unsigned int head = 0, tail = 0;
	u32 gen = ++bfs_gen_id;

	root->parent = NULL;
	if (check_root && match(root, data)) {
		*found = root;
		return BFS_MATCH;
	}
	root->class->bfs_gen[root->only_xr] = gen;
	bfs_queue[tail++] = root;
	while (head != tail) {
		struct lock_list *node = bfs_queue[head++ % BFS_QUEUE_SIZE];
		struct list_head *list = forwards ? &node->class->locks_after :
						    &node->class->locks_before;
		struct lock_list *e;

		list_for_each_entry(e, list, entry) {
			u8 dep = e->dep;
			bool xr;

			if (forwards && node->only_xr)
				dep &= DEP_EX;
			if (!dep)
				continue;
			xr = forwards && !(dep & DEP_XN);
			/* A strong visit covers everything a weaker one could reach. */
			if (e->class->bfs_gen[0] == gen ||
			    (xr && e->class->bfs_gen[1] == gen))
				continue;
			e->class->bfs_gen[xr] = gen;
			e->parent = node;
			e->only_xr = xr;
			if (match(e, data)) {
				*found = e;
				return BFS_MATCH;
			}
			if (tail - head >= BFS_QUEUE_SIZE)
				return BFS_QFULL;
			bfs_queue[tail++ % BFS_QUEUE_SIZE] = e;
		}
	}
	return BFS_NOMATCH;
}

/*
 * The cycle closes at @prev through the new edge, which leaves prev as a
 * recursive reader if prev is held that way: then arriving at prev only
 * through -(xR)-> is not a deadlock.
 */
static bool match_circular(struct lock_list *e, void *data)
{
	struct held_lock *prev = data;

	return e->class == prev->class && (prev->read != 2 || !e->only_xr);
}

static bool match_irq_safe(struct lock_list *e, void *data)
{
	int kind = (long)data;

	return READ_ONCE(e->class->usage_mask) &
	       (LOCKF(kind * 4 + LOCK_USED_IN_HARDIRQ) |
		LOCKF(kind * 4 + LOCK_USED_IN_HARDIRQ_READ));
}

/* A recursive reader is only unsafe if something takes it non-recursively. */
static bool match_irq_unsafe(struct lock_list *e, void *data)
{
	int kind = (long)data;
	unsigned long mask = READ_ONCE(e->class->usage_mask);

	if (mask & LOCKF(kind * 4 + LOCK_ENABLED_HARDIRQ))
		return true;
	return (mask & LOCKF(kind * 4 + LOCK_ENABLED_HARDIRQ_READ)) && !e->only_xr;
}

/*
 * A new edge prev -> next must not connect a class used in interrupts
 * (reachable backwards from prev) to one taken with those interrupts on
 * (reachable forwards from next).  Graph lock held; false if it reported.
 */
static bool check_irq_usage(struct held_lock *prev, struct held_lock *next, u8 dep)
{
	for (long kind = 0; kind < LOCK_IRQ_KINDS; kind++) {
		struct lock_list back = { .class = prev->class };
		struct lock_list fwd = { .class = next->class, .dep = dep,
					 .only_xr = !(dep & DEP_XN) };
		struct lock_list *safe, *unsafe;
		enum bfs_result r;

		r = lockdep_bfs(&back, false, true, match_irq_safe, (void *)kind, &safe);
		if (r == BFS_NOMATCH)
			continue;
		if (r == BFS_MATCH)
			r = lockdep_bfs(&fwd, true, true, match_irq_unsafe,
					(void *)kind, &unsafe);
		if (r == BFS_NOMATCH)
			continue;
		if (r == BFS_QFULL) {
			lockdep_give_up("BUG: lockdep search queue overflow!");
			return false;
		}
		if (debug_locks_off_graph_unlock())
			print_bad_irq_dependency(prev, next, safe, unsafe, kind);
		return false;
	}
	return true;
}

/* Lock-free: is prev -> next already recorded with (at least) these kinds? */
static bool edge_known(struct lock_class *prev, struct lock_class *next, u8 dep)
{
	struct lock_list *e;

	for (e = list_entry(__atomic_load_n(&prev->locks_after.next, __ATOMIC_ACQUIRE),
			    struct lock_list, entry);
	     &e->entry != &prev->locks_after;
	     e = list_entry(__atomic_load_n(&e->entry.next, __ATOMIC_ACQUIRE),
			    struct lock_list, entry))
		if (e->class == next)
			return (READ_ONCE(e->dep) & dep) == dep;
	return false;
}

/*
 * Record prev -> next after proving it closes no cycle and breaks no IRQ
 * rule.  Graph lock held; false if it was dropped (a report, or a pool ran
 * out).
 */
static bool check_prev_add(struct held_lock *prev, struct held_lock *next, u16 distance)
{
	struct lock_class *pc = prev->class, *nc = next->class;
	u8 dep = calc_dep(prev, next);
	struct lock_list root = { .class = nc, .dep = dep, .only_xr = !(dep & DEP_XN) };
	struct lock_list *fwd, *back, *found;
	struct lock_trace trace;
	enum bfs_result r;

	if (pc == nc)
		return true;	/* same-class recursive read: check_deadlock allowed it */
	fwd = find_entry(&pc->locks_after, nc);
	if (fwd && (fwd->dep & dep) == dep)
		return true;	/* raced with another CPU adding it */

	r = lockdep_bfs(&root, true, false, match_circular, prev, &found);
	if (r == BFS_QFULL) {
		lockdep_give_up("BUG: lockdep search queue overflow!");
		return false;
	}
	if (r == BFS_MATCH) {
		if (debug_locks_off_graph_unlock())
			print_circular_bug(found, prev, next);
		return false;
	}
	if (!check_irq_usage(prev, next, dep))
		return false;

	if (fwd) {		/* a known edge, taken in a new read/write way */
		back = find_entry(&nc->locks_before, pc);
		WRITE_ONCE(fwd->dep, fwd->dep | dep);
		if (back)
			back->dep |= dep;
		return true;
	}
	if (!save_trace(&trace))
		return false;
	return add_lock_to_list(nc, pc, &pc->locks_after, distance, dep, &trace) &&
	       add_lock_to_list(pc, nc, &nc->locks_before, distance, dep, &trace);
}

/*
 * Edges from the held locks of the same IRQ context: the top one, and
 * below it as long as the locks are trylocks (a trylock cannot wait, so
 * what was held before it still orders against @next).
 */
static void check_prevs_add(struct task_struct *curr, struct held_lock *next)
{
	u16 distance = 1;

	for (int i = curr->lockdep_depth - 1; i >= 0; i--, distance++) {
		struct held_lock *prev = &curr->held_locks[i];

		if (prev->irq_context != next->irq_context)
			break;
		if (!prev->check || !prev->class)
			continue;
		if (!edge_known(prev->class, next->class, calc_dep(prev, next))) {
			if (!graph_lock())
				return;
			if (!check_prev_add(prev, next, distance))
				return;
			graph_unlock();
		}
		if (!prev->trylock)
			break;
	}
}

/* 0: reported; 1: fine; 2: nested under its nest_lock, no edges. */
static int check_deadlock(struct task_struct *curr, struct held_lock *next)
{
	for (int i = 0; i < curr->lockdep_depth; i++) {
		struct held_lock *prev = &curr->held_locks[i];

		if (prev->class != next->class)
			continue;
		if (next->read == 2 && prev->read)
			continue;	/* recursive readers */
		if (next->nest_lock && lock_is_held(next->nest_lock))
			return 2;
		if (!graph_lock())
			return 0;
		if (debug_locks_off_graph_unlock())
			print_deadlock_bug(prev, next);
		return 0;
	}
	return 1;
}

/* ----------------------------------------------------------- IRQ usage */

/*
 * A new usage bit on a class: it must not contradict the opposite
 * direction on the same class, nor on a class it already orders with.
 * Graph lock held; false if it was dropped.
 */
static bool mark_lock_irq(struct held_lock *this, enum lock_usage_bit bit)
{
	struct lock_class *class = this->class;
	bool read = bit & LOCK_USAGE_READ_MASK;
	unsigned int opp = (bit ^ LOCK_USAGE_DIR_MASK) & ~LOCK_USAGE_READ_MASK;
	unsigned long conflict = LOCKF(opp) | (read ? 0 : LOCKF(opp + 1));
	struct lock_list root = { .class = class };
	struct lock_list *other;
	long kind = bit / 4;
	enum bfs_result r;

	if (class->usage_mask & conflict) {
		enum lock_usage_bit prev_bit = class->usage_mask & LOCKF(opp) ? opp : opp + 1;

		if (debug_locks_off_graph_unlock())
			print_usage_bug(this, prev_bit, bit);
		return false;
	}
	/*
	 * Dependencies recorded before this usage appeared.  A new read-side
	 * "IRQs on" usage is left to the checks made when edges are added.
	 */
	if (!(bit & LOCK_USAGE_DIR_MASK))
		r = lockdep_bfs(&root, true, false, match_irq_unsafe, (void *)kind, &other);
	else if (!read)
		r = lockdep_bfs(&root, false, false, match_irq_safe, (void *)kind, &other);
	else
		return true;
	if (r == BFS_NOMATCH)
		return true;
	if (r == BFS_QFULL) {
		lockdep_give_up("BUG: lockdep search queue overflow!");
		return false;
	}
	if (debug_locks_off_graph_unlock())
		print_irq_inversion_bug(this, other, !(bit & LOCK_USAGE_DIR_MASK), bit);
	return false;
}

static bool mark_lock(struct held_lock *this, enum lock_usage_bit bit)
{
	struct lock_class *class = this->class;

	if (likely(READ_ONCE(class->usage_mask) & LOCKF(bit)))
		return true;
	if (!graph_lock())
		return false;
	if (!(class->usage_mask & LOCKF(bit))) {
		if (!save_trace(&class->usage_traces[bit]))
			return false;
		WRITE_ONCE(class->usage_mask, class->usage_mask | LOCKF(bit));
		if (bit < LOCK_USED && !mark_lock_irq(this, bit))
			return false;
	}
	graph_unlock();
	return true;
}

/*
 * What this acquisition says about the class.  A trylock in an interrupt
 * cannot deadlock by itself, so it does not make the class IRQ-safe; with
 * hard IRQs off, soft IRQs cannot run either.
 */
static bool mark_usage(struct held_lock *hl)
{
	int r = hl->read ? 1 : 0;

	if (!hl->trylock) {
		if ((hl->irq_context & LOCKDEP_CTX_HARDIRQ) &&
		    !mark_lock(hl, LOCK_USED_IN_HARDIRQ + r))
			return false;
		if ((hl->irq_context & LOCKDEP_CTX_SOFTIRQ) &&
		    !mark_lock(hl, LOCK_USED_IN_SOFTIRQ + r))
			return false;
	}
	if (!hl->hardirqs_off) {
		if (!mark_lock(hl, LOCK_ENABLED_HARDIRQ + r))
			return false;
		if (!softirq_count() && !mark_lock(hl, LOCK_ENABLED_SOFTIRQ + r))
			return false;
	}
	return mark_lock(hl, LOCK_USED + r);
}

/* -------------------------------------------------------- wait context */

static int effective_wait(int w)
{
#ifndef CONFIG_PROVE_RAW_LOCK_NESTING
	/* spinlock_t only sleeps on PREEMPT_RT: judge it as a raw lock. */
	if (w == LD_WAIT_CONFIG)
		return LD_WAIT_SPIN;
#endif
	return w;
}

/*
 * A lock must not wait in a "bigger" way than what the context allows:
 * no sleeping lock inside a spinning one, no spinlock_t (a sleeping lock
 * on RT) inside a raw_spinlock_t or a hard interrupt.
 */
static bool check_wait_context(struct task_struct *curr, struct held_lock *next)
{
	int next_inner = next->class->wait_type_inner;
	int next_outer = next->class->wait_type_outer ?: next_inner;
	int curr_inner, depth;

	if (!next_inner || next->trylock)
		return true;
	if (next->irq_context & LOCKDEP_CTX_HARDIRQ)
		curr_inner = LD_WAIT_SPIN;
	else if (next->irq_context & LOCKDEP_CTX_SOFTIRQ)
		curr_inner = LD_WAIT_CONFIG;
	else
		curr_inner = LD_WAIT_MAX;
	for (depth = curr->lockdep_depth; depth > 0; depth--)
		if (curr->held_locks[depth - 1].irq_context != next->irq_context)
			break;
	for (; depth < curr->lockdep_depth; depth++) {
		struct lock_class *c = curr->held_locks[depth].class;
		int w = c ? c->wait_type_inner : 0;

		if (w && w < curr_inner)
			curr_inner = w;
	}
	if (effective_wait(next_outer) <= effective_wait(curr_inner))
		return true;
	if (!graph_lock())
		return false;
	if (debug_locks_off_graph_unlock())
		print_lock_invalid_wait_context(next, curr_inner);
	return false;
}

/* ------------------------------------------------------ acquire/release */

static u8 irq_context_now(void)
{
	return (in_hardirq() ? LOCKDEP_CTX_HARDIRQ : 0) |
	       (in_serving_softirq() ? LOCKDEP_CTX_SOFTIRQ : 0);
}

static void __lock_acquire(struct lockdep_map *lock, unsigned int subclass,
			   int trylock, int read, int check,
			   struct lockdep_map *nest_lock,
			   unsigned long ip, bool hardirqs_off)
{
	struct task_struct *curr = current;
	int depth = curr->lockdep_depth;
	struct lock_class *class = NULL;
	struct held_lock *hl;

	if (READ_ONCE(debug_locks))
		class = register_lock_class(lock, subclass);
	if (depth >= (int)MAX_LOCK_DEPTH) {
		if (graph_lock())
			lockdep_give_up("BUG: MAX_LOCK_DEPTH too low!");
		return;
	}
	hl = &curr->held_locks[depth];
	*hl = (struct held_lock){
		.acquire_ip = ip, .instance = lock, .nest_lock = nest_lock,
		.class = class, .subclass = subclass, .read = read,
		.trylock = trylock, .check = check,
		.irq_context = irq_context_now(),
		.hardirqs_off = hardirqs_off,
	};
	/*
	 * Validate with the new lock not yet on the stack (reports list what
	 * was already held), then push it whatever the verdict.
	 */
	if (class && check && READ_ONCE(debug_locks) && mark_usage(hl) &&
	    check_wait_context(curr, hl) && !trylock) {
		int ret = check_deadlock(curr, hl);

		if (ret == 1)
			check_prevs_add(curr, hl);
	}
	curr->lockdep_depth = depth + 1;
}

static void __lock_release(struct lockdep_map *lock, unsigned long ip)
{
	struct task_struct *curr = current;
	int depth = curr->lockdep_depth, i;

	for (i = depth - 1; i >= 0; i--)
		if (curr->held_locks[i].instance == lock)
			break;
	if (i < 0) {
		if (graph_lock() && debug_locks_off_graph_unlock())
			print_unlock_imbalance_bug(lock, ip);
		return;
	}
	/* Unlock order is free: close the gap. */
	memmove(&curr->held_locks[i], &curr->held_locks[i + 1],
		(depth - 1 - i) * sizeof(struct held_lock));
	curr->lockdep_depth = depth - 1;
}

/* NMIs are not tracked: their locks are trylocks or arch locks here. */
static bool lockdep_enter(unsigned long *flags, unsigned long caller)
{
	struct task_struct *curr = current;

	if (unlikely(in_nmi() || curr->lockdep_recursion))
		return false;
	raw_local_irq_save(*flags);
	this_cpu_write(lockdep_caller, caller);
	curr->lockdep_recursion++;
	return true;
}

static void lockdep_exit(unsigned long flags)
{
	current->lockdep_recursion--;
	raw_local_irq_restore(flags);
}

void lock_acquire(struct lockdep_map *lock, unsigned int subclass, int trylock,
		  int read, int check, struct lockdep_map *nest_lock,
		  unsigned long ip)
{
	unsigned long flags;

#ifdef CONFIG_LOCK_STAT
	lockstat_acquire(lock, read);
#endif
	if (!lockdep_enter(&flags, (unsigned long)__builtin_return_address(0)))
		return;
	/* The caller's IRQ state, from before lockdep_enter() disabled them. */
	__lock_acquire(lock, subclass, trylock, read, check, nest_lock, ip,
		       arch_irqs_disabled_flags(flags));
	lockdep_exit(flags);
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	unsigned long flags;

#ifdef CONFIG_LOCK_STAT
	lockstat_release(map);
#endif
	if (!lockdep_enter(&flags, (unsigned long)__builtin_return_address(0)))
		return;
	__lock_release(map, ip);
	lockdep_exit(flags);
}

int lock_is_held_type(const struct lockdep_map *lock, int read)
{
	struct task_struct *curr = current;

	for (int i = 0; i < curr->lockdep_depth; i++) {
		struct held_lock *hl = &curr->held_locks[i];

		if (hl->instance == lock)
			return read == -1 || !!hl->read == read;
	}
	return 0;
}

void lockdep_init_map_type(struct lockdep_map *map, const char *name,
			   struct lock_class_key *key, int subclass,
			   u8 inner, u8 outer)
{
	map->name = name ? name : "NULL";
	map->key = key;
	map->class_cache = NULL;
	map->wait_type_inner = inner;
	map->wait_type_outer = outer;
#ifdef CONFIG_LOCK_STAT
	lockstat_init_map(map);
#endif
}

/* ---------------------------------------------------- forgetting (tests) */

/* Unlink without poisoning: a lock-free reader may be standing on it. */
static void unlink_entry(struct lock_list *e)
{
	e->entry.prev->next = e->entry.next;
	e->entry.next->prev = e->entry.prev;
}

static void unlink_twin(struct list_head *head, struct lock_class *class)
{
	struct lock_list *e = find_entry(head, class);

	if (e)
		unlink_entry(e);
}

/* lockdep_lock held.  Pool slots are not reused: tests zap only a few. */
static void zap_class(struct lock_class *class)
{
	struct lock_list *e;

	list_for_each_entry(e, &class->locks_after, entry)
		unlink_twin(&e->class->locks_before, class);
	list_for_each_entry(e, &class->locks_before, entry)
		unlink_twin(&e->class->locks_after, class);
	INIT_LIST_HEAD(&class->locks_after);
	INIT_LIST_HEAD(&class->locks_before);
	class->usage_mask = 0;
	WRITE_ONCE(class->key, NULL);
}

static struct lock_class *noted_classes[16];
static unsigned int nr_noted_classes;

/* A report names @class: lockdep_reset_after_report() will forget it. */
void lockdep_note_class(struct lock_class *class)
{
	if (class && nr_noted_classes < ARRAY_SIZE(noted_classes))
		noted_classes[nr_noted_classes++] = class;
}

void lockdep_reset_lock(struct lockdep_map *map)
{
	const void *key = lock_key(map);
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&lockdep_lock);
	for (unsigned int i = 0; i < nr_lock_classes; i++)
		if (lock_classes[i].key == key)
			zap_class(&lock_classes[i]);
	map->class_cache = NULL;
	arch_spin_unlock(&lockdep_lock);
	raw_local_irq_restore(flags);
}

void lockdep_reset_after_report(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&lockdep_lock);
	for (unsigned int i = 0; i < nr_noted_classes; i++)
		if (noted_classes[i]->key)
			zap_class(noted_classes[i]);
	nr_noted_classes = 0;
	WRITE_ONCE(debug_locks, 1);
	arch_spin_unlock(&lockdep_lock);
	raw_local_irq_restore(flags);
}

void lockdep_stats(unsigned int *classes, unsigned int *deps, unsigned int *traces)
{
	*classes = READ_ONCE(nr_lock_classes);
	*deps = READ_ONCE(nr_list_entries) / 2;
	*traces = READ_ONCE(nr_stack_trace_entries);
}
