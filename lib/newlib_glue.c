// SPDX-License-Identifier: GPL-2.0
/*
 * What newlib needs from the kernel (DESIGN 5): the system-call shims its
 * reentrant wrappers call, the reentrancy pointer (__DYNAMIC_REENT__ makes
 * _REENT call __getreent()), and the retargetable locks.
 *
 * Heap: _sbrk hands out a fixed arena taken from memblock at boot.  It
 * stays that way now that kmalloc exists: newlib allocates for its own
 * purposes (dtoa buffers in float formatting) from before
 * kmem_cache_init(), and kernel code uses kmalloc, never malloc, so slab
 * figures are not disturbed by libc.
 * newlib's malloc must not be called from interrupt context: its lock is a
 * recursive lock owned by the running context, not an IRQ-safe one.
 */
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/start_kernel.h>
#include <linux/sched.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <reent.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/lock.h>

#define NEWLIB_HEAP_SIZE	(4UL << 20)

static char *heap_start, *heap_end, *heap_brk;
static struct _reent boot_reent;

void newlib_init(void)
{
	heap_start = memblock_alloc(NEWLIB_HEAP_SIZE, PAGE_SIZE);
	heap_brk = heap_start;
	heap_end = heap_start + NEWLIB_HEAP_SIZE;
}

/* One reentrancy struct per task (errno, dtoa state); the boot's before that. */
struct _reent *__getreent(void)
{
	static bool ready;
	struct task_struct *p = current;

	if (p && p->reent)
		return p->reent;
	if (!ready) {
		_REENT_INIT_PTR(&boot_reent);
		ready = true;
	}
	return &boot_reent;
}

/*
 * newlib is built with REENTRANT_SYSCALLS_PROVIDED: it calls the _r forms
 * directly and expects errno to be set in the reentrancy struct.
 */
void *_sbrk_r(struct _reent *r, ptrdiff_t incr)
{
	char *old = heap_brk;

	if (!heap_start || heap_brk + incr > heap_end || heap_brk + incr < heap_start) {
		r->_errno = ENOMEM;
		return (void *)-1;
	}
	heap_brk += incr;
	return old;
}

_ssize_t _write_r(struct _reent *r, int fd, const void *buf, size_t n)
{
	if (fd != 1 && fd != 2) {
		r->_errno = EBADF;
		return -1;
	}
	printk(KERN_INFO "%.*s", (int)n, (const char *)buf);
	return n;
}

_ssize_t _read_r(struct _reent *r, int fd, void *buf, size_t n)
{
	r->_errno = EBADF;
	return -1;
}

int _close_r(struct _reent *r, int fd)
{
	r->_errno = EBADF;
	return -1;
}

int _fstat_r(struct _reent *r, int fd, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFCHR;	/* a console: line buffered, no seeking */
	return 0;
}

int _isatty_r(struct _reent *r, int fd)
{
	return fd <= 2;
}

_off_t _lseek_r(struct _reent *r, int fd, _off_t off, int whence)
{
	r->_errno = ESPIPE;
	return -1;
}

int _getpid_r(struct _reent *r)
{
	return 1;
}

int _kill_r(struct _reent *r, int pid, int sig)
{
	panic("newlib raised signal %d (abort() or assert())", sig);
}

/* dtoa and friends assert; newlib's own version would drag in FILE stdio. */
__noreturn void __assert_func(const char *file, int line, const char *func,
			      const char *expr)
{
	panic("newlib assertion \"%s\" failed at %s:%d (%s)", expr, file, line,
	      func ? func : "?");
}

__noreturn void _exit(int status)
{
	panic("newlib called _exit(%d)", status);
}

/*
 * Retargetable locks, owned by tasks.  Interrupts are not disabled:
 * newlib is not used from interrupt context.
 */
struct __lock {
	int locked;
	long owner;
	unsigned int depth;
};

struct __lock __lock___sinit_recursive_mutex;
struct __lock __lock___sfp_recursive_mutex;
struct __lock __lock___atexit_recursive_mutex;
struct __lock __lock___at_quick_exit_mutex;
struct __lock __lock___malloc_recursive_mutex;
struct __lock __lock___env_recursive_mutex;
struct __lock __lock___tz_mutex;
struct __lock __lock___dd_hash_mutex;
struct __lock __lock___arc4random_mutex;

/* Owned by a task: a recursive lock nests within one task, on any CPU. */
static long lock_owner_id(void)
{
	return (long)current;
}

static struct __lock dynamic_locks[32];
static unsigned int nr_dynamic_locks;

static struct __lock *lock_alloc(void)
{
	unsigned int i = __atomic_fetch_add(&nr_dynamic_locks, 1, __ATOMIC_RELAXED);

	if (i >= ARRAY_SIZE(dynamic_locks))
		panic("newlib: more than %zu dynamic locks", ARRAY_SIZE(dynamic_locks));
	return &dynamic_locks[i];
}

void __retarget_lock_init(_LOCK_T *lock)
{
	*lock = lock_alloc();
}

void __retarget_lock_init_recursive(_LOCK_T *lock)
{
	*lock = lock_alloc();
}

void __retarget_lock_close(_LOCK_T lock)
{
}

void __retarget_lock_close_recursive(_LOCK_T lock)
{
}

/*
 * Spinning locks, so the holder must not be preempted by a waiter on its
 * own CPU: preemption stays off while one is held.
 */
int __retarget_lock_try_acquire(_LOCK_T lock)
{
	preempt_disable();
	if (!__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		return 1;
	preempt_enable();
	return 0;
}

void __retarget_lock_acquire(_LOCK_T lock)
{
	while (!__retarget_lock_try_acquire(lock))
		cpu_relax();
	lock->owner = lock_owner_id();
}

void __retarget_lock_release(_LOCK_T lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	preempt_enable();
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock)
{
	if (READ_ONCE(lock->locked) && lock->owner == lock_owner_id()) {
		lock->depth++;
		return 1;
	}
	if (!__retarget_lock_try_acquire(lock))
		return 0;
	lock->owner = lock_owner_id();
	lock->depth = 1;
	return 1;
}

void __retarget_lock_acquire_recursive(_LOCK_T lock)
{
	while (!__retarget_lock_try_acquire_recursive(lock))
		cpu_relax();
}

void __retarget_lock_release_recursive(_LOCK_T lock)
{
	if (--lock->depth == 0) {
		lock->owner = -1;
		__retarget_lock_release(lock);
	}
}
