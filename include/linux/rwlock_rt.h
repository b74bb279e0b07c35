/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_RWLOCK_RT_H
#define __LINUX_RWLOCK_RT_H

/*
 * rwlock_t on PREEMPT_RT: the rwbase_rt reader/writer lock in its rtlock
 * flavour (kernel/locking/spinlock_rt.c).  Like spinlock_t it sleeps,
 * keeps the holder migrate-disabled and leaves interrupts alone.  Readers
 * are not fair to writers: a reader gets in while a writer waits for the
 * readers already inside, so recursive read locking keeps working.
 */
#ifndef __LINUX_SPINLOCK_RT_H
# error "include <linux/spinlock.h>"
#endif

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __rt_rwlock_init(rwlock_t *rwlock, const char *name, struct lock_class_key *key);
#else
static inline void __rt_rwlock_init(rwlock_t *rwlock, const char *name,
				    struct lock_class_key *key)
{
}
#endif

#define rwlock_init(rwl)						\
do {									\
	static struct lock_class_key __key;				\
	init_rwbase_rt(&(rwl)->rwbase);					\
	__rt_rwlock_init(rwl, #rwl, &__key);				\
} while (0)

void rt_read_lock(rwlock_t *rwlock);
int rt_read_trylock(rwlock_t *rwlock);
void rt_read_unlock(rwlock_t *rwlock);
void rt_write_lock(rwlock_t *rwlock);
int rt_write_trylock(rwlock_t *rwlock);
void rt_write_unlock(rwlock_t *rwlock);

#define read_trylock(lock)		rt_read_trylock(lock)
#define read_lock(lock)			rt_read_lock(lock)
#define read_lock_bh(lock)		do { local_bh_disable(); rt_read_lock(lock); } while (0)
#define read_lock_irq(lock)		rt_read_lock(lock)
#define read_lock_irqsave(lock, flags)					\
	do { (flags) = 0; rt_read_lock(lock); } while (0)
#define read_unlock(lock)		rt_read_unlock(lock)
#define read_unlock_bh(lock)		do { rt_read_unlock(lock); local_bh_enable(); } while (0)
#define read_unlock_irq(lock)		rt_read_unlock(lock)
#define read_unlock_irqrestore(lock, flags)				\
	do { (void)(flags); rt_read_unlock(lock); } while (0)

#define write_trylock(lock)		rt_write_trylock(lock)
#define write_trylock_irqsave(lock, flags)				\
	({ (flags) = 0; rt_write_trylock(lock); })
#define write_lock(lock)		rt_write_lock(lock)
#define write_lock_nested(lock, sub)	rt_write_lock(lock)
#define write_lock_bh(lock)		do { local_bh_disable(); rt_write_lock(lock); } while (0)
#define write_lock_irq(lock)		rt_write_lock(lock)
#define write_lock_irqsave(lock, flags)					\
	do { (flags) = 0; rt_write_lock(lock); } while (0)
#define write_unlock(lock)		rt_write_unlock(lock)
#define write_unlock_bh(lock)		do { rt_write_unlock(lock); local_bh_enable(); } while (0)
#define write_unlock_irq(lock)		rt_write_unlock(lock)
#define write_unlock_irqrestore(lock, flags)				\
	do { (void)(flags); rt_write_unlock(lock); } while (0)

#define rwlock_is_contended(lock)	rw_base_is_contended(&(lock)->rwbase)

#endif
