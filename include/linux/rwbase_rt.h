/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RWBASE_RT_H
#define _LINUX_RWBASE_RT_H

/*
 * The reader/writer lock behind PREEMPT_RT's rwlock_t and rw_semaphore:
 * an rt_mutex that writers take (and readers only when a writer is in)
 * plus a reader count.  With no writer, readers is READER_BIAS plus the
 * number of readers and a read lock is one cmpxchg; a writer subtracts
 * READER_BIAS, sending new readers to the slow path, waits for the count
 * to drain to zero and then sets WRITER_BIAS.
 */
#include <linux/rtmutex.h>
#include <linux/atomic.h>

#define READER_BIAS		(1U << 31)
#define WRITER_BIAS		(1U << 30)

struct rwbase_rt {
	atomic_t readers;
	struct rt_mutex_base rtmutex;
};

#define __RWBASE_INITIALIZER(name)					\
{									\
	.readers = ATOMIC_INIT(READER_BIAS),				\
	.rtmutex = __RT_MUTEX_BASE_INITIALIZER(name.rtmutex),		\
}

#define init_rwbase_rt(rwbase)						\
	do {								\
		rt_mutex_base_init(&(rwbase)->rtmutex);			\
		atomic_set(&(rwbase)->readers, READER_BIAS);		\
	} while (0)

static __always_inline bool rw_base_is_locked(struct rwbase_rt *rwb)
{
	return atomic_read(&rwb->readers) != (int)READER_BIAS;
}

static __always_inline bool rw_base_is_contended(struct rwbase_rt *rwb)
{
	return atomic_read(&rwb->readers) > 0;
}

#endif
