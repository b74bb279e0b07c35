/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SEMAPHORE_H
#define _LINUX_SEMAPHORE_H

/*
 * Counting semaphores (kernel/locking/semaphore.c): up to @count holders
 * at once, sleepers queued FIFO.  No owner, so no priority inheritance
 * and no lockdep; the same on every preemption model.  New code should
 * prefer a mutex or a completion; the semaphore stays for the places that
 * need a count or an up() from another task or an interrupt.
 */
#include <linux/list.h>
#include <linux/spinlock.h>

#ifndef __must_check
#define __must_check	__attribute__((__warn_unused_result__))
#endif

struct semaphore {
	raw_spinlock_t		lock;
	unsigned int		count;
	struct list_head	wait_list;
};

#define __SEMAPHORE_INITIALIZER(name, n)				\
{									\
	.lock		= __RAW_SPIN_LOCK_UNLOCKED((name).lock),	\
	.count		= n,						\
	.wait_list	= LIST_HEAD_INIT((name).wait_list),		\
}

/* A binary semaphore, initially free (Linux 5.15's one-argument form). */
#define DEFINE_SEMAPHORE(name)						\
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)

static inline void sema_init(struct semaphore *sem, int val)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	/* Every semaphore's inner lock shares one class. */
	static struct lock_class_key __key;
#endif

	*sem = (struct semaphore) __SEMAPHORE_INITIALIZER(*sem, val);
	lockdep_init_map(&sem->lock.dep_map, "semaphore->lock", &__key, 0);
}

void down(struct semaphore *sem);
/* irqlab has no signals: these never return -EINTR, but keep the types. */
int __must_check down_interruptible(struct semaphore *sem);
int __must_check down_killable(struct semaphore *sem);
/* 0 when taken, 1 when not: the opposite of the spin_trylock() family. */
int __must_check down_trylock(struct semaphore *sem);
/* 0 when taken within @jiffies, -ETIME otherwise. */
int __must_check down_timeout(struct semaphore *sem, long jiffies);
void up(struct semaphore *sem);

#endif
