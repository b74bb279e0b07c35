// SPDX-License-Identifier: GPL-2.0
/*
 * The allocator-independent half of the slab layer (Linux 5.15's
 * mm/slab_common.c, SLUB parts): the list of caches and its mutex, cache
 * creation with merging of compatible caches, destruction, the kmalloc
 * size classes and their caches, kmalloc's page-allocator path for big
 * sizes, krealloc/ksize, and the slabinfo report.
 *
 * mm/slub.c supplies the allocator itself: __kmem_cache_create() lays out
 * a new cache, __kmem_cache_alias() decides whether an existing one can
 * be reused, get_slabinfo() counts a cache's objects and slabs.
 *
 * Locking: slab_mutex serialises every change to slab_caches and every
 * walk of it that may sleep (creation, destruction, the reports).
 */
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/string.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/preempt.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/shrinker.h>
#include <linux/rcupdate.h>
#include <asm/stacktrace.h>
#include "slab.h"

enum slab_state slab_state;
LIST_HEAD(slab_caches);
unsigned int nr_slab_caches;
DEFINE_MUTEX(slab_mutex);
struct kmem_cache *kmem_cache;

/* x86_64's L1 line (Linux's L1_CACHE_BYTES), for SLAB_HWCACHE_ALIGN. */
#ifndef cache_line_size
#define cache_line_size()	64
#endif

/* ------------------------------------------------------------ merging */

/*
 * Merging lets a new cache share an existing one whose objects are big
 * enough and whose flags match, which saves memory and partial slabs.
 * On by default as in Linux; slab_nomerge (or slub_nomerge) turns it off
 * so every cache shows up separately in slabinfo, slab_merge turns it
 * back on.  The last one on the command line wins.
 */
static bool slab_nomerge;

static int param_set_slab_nomerge(const char *val,
				  const struct kernel_param *kp)
{
	if (val) {
		pr_err("irqlab: parameter '%s' takes no value\n", kp->name);
		return -EINVAL;
	}
	slab_nomerge = true;
	return 0;
}

static int param_set_slab_merge(const char *val,
				const struct kernel_param *kp)
{
	if (val) {
		pr_err("irqlab: parameter '%s' takes no value\n", kp->name);
		return -EINVAL;
	}
	slab_nomerge = false;
	return 0;
}

static const struct kernel_param_ops param_ops_slab_nomerge = {
	.set = param_set_slab_nomerge, .type = "a bare flag", .noarg = true,
};
static const struct kernel_param_ops param_ops_slab_merge = {
	.set = param_set_slab_merge, .type = "a bare flag", .noarg = true,
};
core_param_cb("slab_nomerge", &param_ops_slab_nomerge, NULL,
	      "never let a new slab cache share an existing one");
core_param_cb("slub_nomerge", &param_ops_slab_nomerge, NULL,
	      "the same as slab_nomerge");
core_param_cb("slab_merge", &param_ops_slab_merge, NULL,
	      "let compatible slab caches share (the default)");
core_param_cb("slub_merge", &param_ops_slab_merge, NULL,
	      "the same as slab_merge");

/* The size a caller asked for, without SLUB's metadata. */
unsigned int kmem_cache_size(struct kmem_cache *cachep)
{
	return cachep->object_size;
}

const char *kmem_cache_name(struct kmem_cache *s)
{
	return s->name;
}

/*
 * Arguments no cache can be built from.  Linux checks these only with
 * CONFIG_DEBUG_VM; irqlab always does (a size of 0 would also leave SLUB
 * dividing by zero).  A space would break the columns of slabinfo.
 */
static int kmem_cache_sanity_check(const char *cname, unsigned int objsize)
{
	if (!cname || in_interrupt() || !objsize ||
	    objsize > KMALLOC_MAX_SIZE) {
		pr_err("kmem_cache_create(%s) integrity check failed\n",
		       cname ? cname : "(null)");
		return -EINVAL;
	}
	WARN_ON(strchr(cname, ' '));
	return 0;
}

/*
 * The object alignment for a cache: the caller's, raised to the cache
 * line with SLAB_HWCACHE_ALIGN - but for small objects only to the
 * smallest power-of-two fraction of a line they fit in, so several still
 * share a line without straddling one - and never below the
 * architecture's minimum or a pointer.
 */
static unsigned int
calculate_alignment(slab_flags_t sflags, unsigned int align,
		    unsigned int objsize)
{
	if (sflags & SLAB_HWCACHE_ALIGN) {
		unsigned int line = cache_line_size();

		while (line / 2 >= objsize)
			line /= 2;
		if (line > align)
			align = line;
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return ALIGN(align, sizeof(void *));
}

/* Whether @s must keep its objects to itself. */
int slab_unmergeable(struct kmem_cache *s)
{
	if (slab_nomerge)
		return 1;
	if (s->flags & SLAB_NEVER_MERGE)
		return 1;
	/* A constructor or a usercopy window is specific to its creator. */
	if (s->ctor || s->usersize)
		return 1;
	/* Boot caches are marked with a negative refcount until ready. */
	if (s->refcount < 0)
		return 1;
	return 0;
}

/*
 * An existing cache that could serve objects of @objsize with @align and
 * @sflags, or NULL.  The candidate's object size may exceed @objsize by less
 * than a pointer, its size must be a multiple of the alignment, and the
 * flags that split memory by kind (SLAB_MERGE_SAME) must agree.  Newest
 * caches are tried first.  Called by SLUB's __kmem_cache_alias() with
 * slab_mutex held.
 */
struct kmem_cache *
find_mergeable(unsigned int objsize, unsigned int align, slab_flags_t sflags,
	       const char *cname, void (*ctor)(void *))
{
	struct kmem_cache *cand;
	slab_flags_t kind;

	if (slab_nomerge || ctor)
		return NULL;

	objsize = ALIGN(objsize, sizeof(void *));
	align = calculate_alignment(sflags, align, objsize);
	objsize = ALIGN(objsize, align);
	/* Apply slub_debug= first: debugging makes a cache unmergeable. */
	sflags = kmem_cache_flags(objsize, sflags, cname);
	if (sflags & SLAB_NEVER_MERGE)
		return NULL;
	kind = sflags & SLAB_MERGE_SAME;

	list_for_each_entry_reverse(cand, &slab_caches, list) {
		if (slab_unmergeable(cand))
			continue;
		if (objsize > cand->size)
			continue;
		if ((cand->flags & SLAB_MERGE_SAME) != kind)
			continue;
		if (cand->size & (align - 1))
			continue;
		if (cand->size - objsize >= sizeof(void *))
			continue;
		return cand;
	}
	return NULL;
}

/* ----------------------------------------------------- create, destroy */

/* Build a new cache and put it on slab_caches (slab_mutex held). */
static struct kmem_cache *
create_cache(const char *cname, unsigned int objsize, unsigned int align,
	     slab_flags_t flags, unsigned int uoffset, unsigned int ulen,
	     void (*ctor)(void *))
{
	struct kmem_cache *s;
	int err;

	if (WARN_ON(uoffset + ulen > objsize))
		uoffset = ulen = 0;

	s = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);

	s->name = cname;
	s->size = s->object_size = objsize;
	s->align = align;
	s->ctor = ctor;
	s->useroffset = uoffset;
	s->usersize = ulen;

	err = __kmem_cache_create(s, flags);
	if (err) {
		kmem_cache_free(kmem_cache, s);
		return ERR_PTR(err);
	}

	s->refcount = 1;
	list_add(&s->list, &slab_caches);
	WRITE_ONCE(nr_slab_caches, nr_slab_caches + 1);
	return s;
}

/*
 * Create a cache of @objsize-byte objects named @name, or return a
 * compatible existing one (then @name only lives on as an alias).
 * [@uoffset, @uoffset + @ulen) is the part of an object that
 * may be copied to or from user space (Linux's hardened usercopy);
 * irqlab keeps it only because a non-empty window forbids merging.
 * Returns NULL on failure, or panics with SLAB_PANIC.  May sleep.
 */
struct kmem_cache *kmem_cache_create_usercopy(const char *name,
					      unsigned int objsize,
					      unsigned int align,
					      slab_flags_t flags,
					      unsigned int uoffset,
					      unsigned int ulen,
					      void (*ctor)(void *))
{
	struct kmem_cache *s = NULL;
	const char *cache_name;
	int err;

#ifdef CONFIG_SLUB_DEBUG
	/* A debug cache from now on: let SLUB's debug checks run. */
	if (flags & SLAB_DEBUG_FLAGS)
		WRITE_ONCE(slub_debug_enabled, true);
#endif

	mutex_lock(&slab_mutex);

	err = kmem_cache_sanity_check(name, objsize);
	if (err)
		goto out_unlock;

	/* Internal or unknown bits are the caller's mistake. */
	if (flags & ~SLAB_FLAGS_PERMITTED) {
		err = -EINVAL;
		goto out_unlock;
	}
	/* Permitted but meaningless to SLUB: dropped, as in Linux. */
	flags &= CACHE_CREATE_MASK;

	/* A window that does not fit in the object means no window. */
	if (WARN_ON(!ulen && uoffset) ||
	    WARN_ON(objsize < ulen || objsize - ulen < uoffset))
		ulen = uoffset = 0;

	if (!ulen)
		s = __kmem_cache_alias(name, objsize, align, flags, ctor);
	if (s)
		goto out_unlock;

	cache_name = kstrdup_const(name, GFP_KERNEL);
	if (!cache_name) {
		err = -ENOMEM;
		goto out_unlock;
	}

	s = create_cache(cache_name, objsize,
			 calculate_alignment(flags, align, objsize),
			 flags, uoffset, ulen, ctor);
	if (IS_ERR(s)) {
		err = PTR_ERR(s);
		kfree_const(cache_name);
	}

out_unlock:
	mutex_unlock(&slab_mutex);

	if (err) {
		const char *shown = name ? name : "(null)";

		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: cannot create slab cache '%s': error %d\n",
			      shown, err);
		pr_warn("kmem_cache_create(%s) failed with error %d\n",
			shown, err);
		dump_stack();
		return NULL;
	}
	return s;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int objsize,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	/* No usercopy window: offset 0, length 0. */
	return kmem_cache_create_usercopy(name, objsize, align, flags,
					  0, 0, ctor);
}

/* Free the descriptor of a cache that SLUB has emptied. */
void
slab_kmem_cache_release(struct kmem_cache *s)
{
	__kmem_cache_release(s);
	kfree_const(s->name);
	kmem_cache_free(kmem_cache, s);
}

/*
 * Tear down a cache whose last user is gone (slab_mutex held).  The
 * empty slabs of a SLAB_TYPESAFE_BY_RCU cache went to call_rcu() and
 * rcu_free_slab() will still read @s through page->slab_cache, so such a
 * cache is only unlinked here; kmem_cache_destroy() releases it after
 * rcu_barrier().
 */
static int shutdown_cache(struct kmem_cache *s)
{
	/* Quarantined objects would keep the cache from being empty. */
	kasan_cache_shutdown(s);

	if (__kmem_cache_shutdown(s) != 0)
		return -EBUSY;

	list_del(&s->list);
	WRITE_ONCE(nr_slab_caches, nr_slab_caches - 1);
	if (!(s->flags & SLAB_TYPESAFE_BY_RCU))
		slab_kmem_cache_release(s);
	return 0;
}

/*
 * Drop one reference (a merged cache has one per creator); the last one
 * destroys the cache.  A cache that still has objects is reported and
 * left in place, so the leaked objects stay valid memory.
 *
 * Linux 5.15 hands a SLAB_TYPESAFE_BY_RCU cache to a work item that
 * batches the rcu_barrier() of several destroys.  irqlab waits in the
 * caller instead, outside slab_mutex: the same order (every pending
 * rcu_free_slab() has run before the descriptor is freed), and when
 * kmem_cache_destroy() returns the cache's pages are all back.
 */
void kmem_cache_destroy(struct kmem_cache *s)
{
	bool release_after_gp = false;

	if (unlikely(!s))
		return;

	/*
	 * The hotplug lock before slab_mutex, as slub_cpu_dead() nests them
	 * (it runs under the hotplug writer); the shutdown then flushes the
	 * CPUs without taking the lock again.
	 */
	cpus_read_lock();
	mutex_lock(&slab_mutex);
	s->refcount--;
	if (!s->refcount) {
		bool rcu_set = s->flags & SLAB_TYPESAFE_BY_RCU;

		if (shutdown_cache(s)) {
			pr_err("kmem_cache_destroy %s: Slab cache still has objects\n",
			       s->name);
			dump_stack();
		} else {
			release_after_gp = rcu_set;
		}
	}
	mutex_unlock(&slab_mutex);
	cpus_read_unlock();

	if (release_after_gp) {
		rcu_barrier();
		slab_kmem_cache_release(s);
	}
}

/*
 * Give back to the page allocator every slab of @s that holds no
 * objects.  Returns 0 when the cache is now empty.
 */
int kmem_cache_shrink(struct kmem_cache *s)
{
	kasan_cache_shrink(s);
	return __kmem_cache_shrink(s);
}

/*
 * irqlab's own "slab" shrinker (Linux has none: its caches' users register
 * their own): the objects it counts are the caches on slab_caches, and
 * scanning one means kmem_cache_shrink() on it, so reclaim's shrink_slab()
 * hands every cache's empty slabs back to the page allocator (kswapd and
 * direct reclaim count them through __free_slab()'s reclaim_state).
 * Registered at boot (kswapd_init()).  Caches are shrunk under slab_mutex,
 * as Linux's memory-offline path shrinks them; but reclaim may run inside
 * an allocation made under slab_mutex (kmem_cache_create()), so it only
 * trylocks it and the count reads a counter instead of walking the list.
 */
static unsigned long slab_caches_count(struct shrinker *sh, struct shrink_control *sc)
{
	return READ_ONCE(nr_slab_caches);
}

static unsigned long slab_caches_scan(struct shrinker *sh, struct shrink_control *sc)
{
	struct kmem_cache *s;
	unsigned long n = 0;

	/*
	 * Same order as kmem_cache_destroy(): the hotplug lock, then
	 * slab_mutex, both only tried (reclaim may run under either).
	 */
	if (!cpus_read_trylock())
		return SHRINK_STOP;
	if (!mutex_trylock(&slab_mutex)) {
		cpus_read_unlock();
		return SHRINK_STOP;
	}
	list_for_each_entry(s, &slab_caches, list) {
		if (n >= sc->nr_to_scan)
			break;
		kasan_cache_shrink(s);	/* as kmem_cache_shrink() */
		__kmem_cache_shrink_cpus_locked(s);
		n++;
	}
	mutex_unlock(&slab_mutex);
	cpus_read_unlock();
	sc->nr_scanned = n;
	return n;
}

static struct shrinker slab_caches_shrinker = {
	.count_objects = slab_caches_count,
	.scan_objects = slab_caches_scan,
	.seeks = DEFAULT_SEEKS,
};

/* -EBUSY if it is registered already (the boot registers it). */
int kmem_cache_shrinker_register(void)
{
	if (slab_caches_shrinker.flags & SHRINKER_REGISTERED)
		return -EBUSY;
	return register_shrinker(&slab_caches_shrinker);
}

void kmem_cache_shrinker_unregister(void)
{
	unregister_shrinker(&slab_caches_shrinker);
}

/* -------------------------------------------------------- kmalloc caches */

/*
 * Set up @s in static storage, for the caches SLUB needs before it can
 * allocate descriptors (kmem_cache, kmem_cache_node).  Power-of-two
 * sizes get natural alignment, which kmalloc users rely on.  refcount
 * -1 keeps the cache out of merging.
 */
void create_boot_cache(struct kmem_cache *s, const char *name,
		       unsigned int size, slab_flags_t flags,
		       unsigned int uoffset, unsigned int ulen)
{
	unsigned int align = ARCH_KMALLOC_MINALIGN;
	int err;

	s->name = name;
	s->size = s->object_size = size;
	if (is_power_of_2(size) && size > align)
		align = size;
	s->align = calculate_alignment(flags, align, s->object_size);
	s->useroffset = uoffset;
	s->usersize = ulen;

	err = __kmem_cache_create(s, flags);
	if (err)
		panic("Creation of kmalloc slab %s size=%u failed. "
		      "Reason %d\n", name, size, err);
	s->refcount = -1;
}

/* A boot-time cache whose descriptor already comes from kmem_cache. */
struct kmem_cache *
create_kmalloc_cache(const char *cname, unsigned int objsize,
		     slab_flags_t flags, unsigned int uoffset,
		     unsigned int ulen)
{
	struct kmem_cache *kc;

	kc = kmem_cache_zalloc(kmem_cache, GFP_NOWAIT);
	if (!kc)
		panic("Out of memory when creating slab %s\n", cname);
	create_boot_cache(kc, cname, objsize, flags, uoffset, ulen);
	list_add(&kc->list, &slab_caches);
	kasan_cache_create_kmalloc(kc);
	WRITE_ONCE(nr_slab_caches, nr_slab_caches + 1);
	kc->refcount = 1;
	return kc;
}

struct kmem_cache *
kmalloc_caches[NR_KMALLOC_TYPES][KMALLOC_SHIFT_HIGH + 1];

/*
 * Cache index for sizes 1..192, one entry per 8 bytes (entry (n - 1) / 8
 * for size n).  Above 64 the 96 and 192 byte caches (indices 1 and 2)
 * take the sizes that would otherwise waste up to half a power of two.
 */
static u8 size_index[24] = {
	3, 4, 5, 5, 6, 6, 6, 6,		/*   8 ..  64 */
	1, 1, 1, 1, 7, 7, 7, 7,		/*  72 .. 128 */
	2, 2, 2, 2, 2, 2, 2, 2,		/* 136 .. 192 */
};

static inline unsigned int size_index_elem(unsigned int nbytes)
{
	return (nbytes - 1) / 8;
}

/*
 * The kmalloc cache for a variable @bytes: ZERO_SIZE_PTR for 0, NULL
 * (with a warning) beyond KMALLOC_MAX_CACHE_SIZE.
 */
struct kmem_cache *kmalloc_slab(size_t bytes, gfp_t gfp)
{
	enum kmalloc_cache_type type = kmalloc_type(gfp);
	unsigned int index;

	if (bytes <= 192) {
		if (!bytes)
			return ZERO_SIZE_PTR;
		index = size_index[size_index_elem(bytes)];
	} else {
		if (WARN_ON_ONCE(bytes > KMALLOC_MAX_CACHE_SIZE))
			return NULL;
		/* The power of two at or above bytes. */
		index = fls64(bytes - 1);
	}
	return kmalloc_caches[type][index];
}

#define INIT_KMALLOC_INFO(__bytes, __label)			\
{									\
	.size = __bytes,						\
	.name[KMALLOC_NORMAL]  = "kmalloc-" #__label,			\
	.name[KMALLOC_RECLAIM] = "kmalloc-rcl-" #__label,		\
}

/* Names and sizes by cache index (see __kmalloc_index()). */
const struct kmalloc_info_struct kmalloc_info[] = {
	INIT_KMALLOC_INFO(0, 0),
	INIT_KMALLOC_INFO(96, 96),
	INIT_KMALLOC_INFO(192, 192),
	INIT_KMALLOC_INFO(8, 8),
	INIT_KMALLOC_INFO(16, 16),
	INIT_KMALLOC_INFO(32, 32),
	INIT_KMALLOC_INFO(64, 64),
	INIT_KMALLOC_INFO(128, 128),
	INIT_KMALLOC_INFO(256, 256),
	INIT_KMALLOC_INFO(512, 512),
	INIT_KMALLOC_INFO(1024, 1k),
	INIT_KMALLOC_INFO(2048, 2k),
	INIT_KMALLOC_INFO(4096, 4k),
	INIT_KMALLOC_INFO(8192, 8k),
};
BUILD_BUG_ON(ARRAY_SIZE(kmalloc_info) != KMALLOC_SHIFT_HIGH + 1);

/*
 * Fit size_index to KMALLOC_MIN_SIZE: sizes below the minimum use the
 * smallest cache, and when the minimum is 64 or 128 the 96 and 192 byte
 * caches are not built, so their sizes move up to the next power of two.
 * With x86_64's minimum of 8 the table stays as it is.
 */
void setup_kmalloc_cache_index_table(void)
{
	unsigned int i;

	BUILD_BUG_ON(KMALLOC_MIN_SIZE > 256 ||
		     (KMALLOC_MIN_SIZE & (KMALLOC_MIN_SIZE - 1)));

	for (i = 8; i < KMALLOC_MIN_SIZE; i += 8) {
		unsigned int elem = size_index_elem(i);

		if (elem >= ARRAY_SIZE(size_index))
			break;
		size_index[elem] = KMALLOC_SHIFT_LOW;
	}
	if (KMALLOC_MIN_SIZE >= 64)
		for (i = 64 + 8; i <= 96; i += 8)
			size_index[size_index_elem(i)] = 7;
	if (KMALLOC_MIN_SIZE >= 128)
		for (i = 128 + 8; i <= 192; i += 8)
			size_index[size_index_elem(i)] = 8;
}

static void new_kmalloc_cache(int idx, enum kmalloc_cache_type type,
			      slab_flags_t flags)
{
	const struct kmalloc_info_struct *info = &kmalloc_info[idx];
	struct kmem_cache *kc;

	if (type == KMALLOC_RECLAIM)
		flags |= SLAB_RECLAIM_ACCOUNT;

	/* usersize = size: kmalloc caches are never merged into. */
	kc = create_kmalloc_cache(info->name[type], info->size, flags,
				  0, info->size);
	kmalloc_caches[type][idx] = kc;
}

/*
 * Build every kmalloc cache not built yet (SLUB's bring-up may have made
 * some already), both families, then declare kmalloc usable.  The 96
 * and 192 byte caches come right after 64 and 128 so slabinfo lists
 * them in size order.
 */
void create_kmalloc_caches(slab_flags_t flags)
{
	enum kmalloc_cache_type kt;
	int idx;

	for (kt = KMALLOC_NORMAL; kt <= KMALLOC_RECLAIM; kt++) {
		for (idx = KMALLOC_SHIFT_LOW; idx <= KMALLOC_SHIFT_HIGH;
		     idx++) {
			if (!kmalloc_caches[kt][idx])
				new_kmalloc_cache(idx, kt, flags);
			if (KMALLOC_MIN_SIZE <= 32 && idx == 6 &&
			    !kmalloc_caches[kt][1])
				new_kmalloc_cache(1, kt, flags);
			if (KMALLOC_MIN_SIZE <= 64 && idx == 7 &&
			    !kmalloc_caches[kt][2])
				new_kmalloc_cache(2, kt, flags);
		}
	}

	slab_state = UP;
}

/* ------------------------------------------------ kmalloc beyond caches */

/* Strip zone bits kmalloc cannot honour, loudly. */
static gfp_t kmalloc_fix_flags(gfp_t flags)
{
	gfp_t invalid_mask = flags & GFP_SLAB_BUG_MASK;
	char bad[128], fixed[128];

	flags &= ~GFP_SLAB_BUG_MASK;
	pr_warn("Unexpected gfp: %#x (%s). Fixing up to gfp: %#x (%s). Fix your code!\n",
		invalid_mask, format_gfp_flags(bad, sizeof(bad), invalid_mask),
		flags, format_gfp_flags(fixed, sizeof(fixed), flags));
	dump_stack();
	return flags;
}

/*
 * kmalloc() above KMALLOC_MAX_CACHE_SIZE: whole pages, as one compound
 * page so that kfree() and ksize() find the order in the head page.
 */
void *kmalloc_order(size_t bytes, gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (unlikely(gfp & GFP_SLAB_BUG_MASK))
		gfp = kmalloc_fix_flags(gfp);

	page = alloc_pages(gfp | __GFP_COMP, order);
	return kasan_kmalloc_large(page ? page_address(page) : NULL, bytes, gfp);
}

/* irqlab has no kmem tracepoints: the same as kmalloc_order(). */
void *kmalloc_order_trace(size_t bytes, gfp_t gfp, unsigned int order)
{
	return kmalloc_order(bytes, gfp, order);
}

/* ------------------------------------------------------------ krealloc */

/*
 * The object @p grown or shrunk to @want bytes: @p itself when it already
 * has room (ksize), else a new object holding @p's old bytes.  @p is not
 * freed here.
 */
static __always_inline void *
__do_krealloc(const void *p, size_t want, gfp_t gfp)
{
	size_t ks;
	void *ret;

	/* A freed @p is reported here, not copied from. */
	if (!ZERO_OR_NULL_PTR(p) && !kasan_check_byte(p))
		return NULL;
	ks = ZERO_OR_NULL_PTR(p) ? 0 : __ksize(p);

	/* Still fits: KASAN moves the red zone to the new end. */
	if (ks >= want)
		return kasan_krealloc((void *)p, want, gfp);

	ret = kmalloc_track_caller(want, gfp);
	if (ret && ks) {
		/* The old bytes past the old size are red zone: copy quietly. */
		kasan_disable_current();
		memcpy(ret, p, ks);
		kasan_enable_current();
	}
	return ret;
}

/*
 * Resize @p (NULL: a plain kmalloc).  A @want of 0 frees @p and
 * returns ZERO_SIZE_PTR.  On failure NULL comes back and @p is untouched.
 */
void *krealloc(const void *p, size_t want, gfp_t gfp)
{
	void *ret;

	if (unlikely(!want)) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}

	ret = __do_krealloc(p, want, gfp);
	if (ret && ret != p)
		kfree(p);
	return ret;
}

/* kfree() after wiping the whole object, slack included. */
void kfree_sensitive(const void *p)
{
	void *mem = (void *)p;
	size_t ks = ksize(mem);

	if (ks)
		memzero_explicit(mem, ks);
	kfree(mem);
}

/*
 * The usable size of a kmalloc'd object, which may exceed the size
 * asked for (the whole size class); 0 for NULL and ZERO_SIZE_PTR.
 */
size_t ksize(const void *objp)
{
	size_t size;

	/* ksize() of a freed object is reported (and answers 0). */
	if (unlikely(ZERO_OR_NULL_PTR(objp)))
		return 0;
	if (!kasan_check_byte(objp))
		return 0;
	size = __ksize(objp);
	/* The caller may use all of it now: no red zone inside. */
	kasan_unpoison_range(objp, size);
	return size;
}

/* ------------------------------------------------------------ slabinfo */

/* Linux's /sys/kernel/slab/<cache>/ file names, by stat_item. */
const char *const slub_stat_names[NR_SLUB_STAT_ITEMS] = {
	[ALLOC_FASTPATH]		= "alloc_fastpath",
	[ALLOC_SLOWPATH]		= "alloc_slowpath",
	[FREE_FASTPATH]			= "free_fastpath",
	[FREE_SLOWPATH]			= "free_slowpath",
	[FREE_FROZEN]			= "free_frozen",
	[FREE_ADD_PARTIAL]		= "free_add_partial",
	[FREE_REMOVE_PARTIAL]		= "free_remove_partial",
	[ALLOC_FROM_PARTIAL]		= "alloc_from_partial",
	[ALLOC_SLAB]			= "alloc_slab",
	[ALLOC_REFILL]			= "alloc_refill",
	[ALLOC_NODE_MISMATCH]		= "alloc_node_mismatch",
	[FREE_SLAB]			= "free_slab",
	[CPUSLAB_FLUSH]			= "cpuslab_flush",
	[DEACTIVATE_FULL]		= "deactivate_full",
	[DEACTIVATE_EMPTY]		= "deactivate_empty",
	[DEACTIVATE_TO_HEAD]		= "deactivate_to_head",
	[DEACTIVATE_TO_TAIL]		= "deactivate_to_tail",
	[DEACTIVATE_REMOTE_FREES]	= "deactivate_remote_frees",
	[DEACTIVATE_BYPASS]		= "deactivate_bypass",
	[ORDER_FALLBACK]		= "order_fallback",
	[CMPXCHG_DOUBLE_CPU_FAIL]	= "cmpxchg_double_cpu_fail",
	[CMPXCHG_DOUBLE_FAIL]		= "cmpxchg_double_fail",
	[CPU_PARTIAL_ALLOC]		= "cpu_partial_alloc",
	[CPU_PARTIAL_FREE]		= "cpu_partial_free",
	[CPU_PARTIAL_NODE]		= "cpu_partial_node",
	[CPU_PARTIAL_DRAIN]		= "cpu_partial_drain",
};

static void cache_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo)
{
	memset(sinfo, 0, sizeof(*sinfo));
	get_slabinfo(s, sinfo);
}

#ifdef CONFIG_SLUB_STATS
/* The non-zero counters of @s, several to a console line. */
static void slabinfo_show_stats(struct kmem_cache *s)
{
	char line[160];
	size_t n = 0;

	for (int i = 0; i < NR_SLUB_STAT_ITEMS; i++) {
		unsigned long v = slub_stat_sum(s, i);
		char item[48];
		int len;

		if (!v)
			continue;
		len = snprintf(item, sizeof(item), " %s=%lu",
			       slub_stat_names[i], v);
		if (n && n + len >= sizeof(line)) {
			pr_info("  %s:%s\n", s->name, line);
			n = 0;
		}
		n += snprintf(line + n, sizeof(line) - n, "%s", item);
	}
	if (n)
		pr_info("  %s:%s\n", s->name, line);
}
#else
static inline void slabinfo_show_stats(struct kmem_cache *s) { }
#endif

/*
 * Print every cache in /proc/slabinfo's format (version 2.1, so slabtop
 * style parsers read it), with irqlab's own columns appended after
 * " : irqlab ": the slab order, partial slabs on the node lists and
 * slabs held by CPUs.  SLUB has no tunables; those columns are 0.
 */
void slabinfo_show(void)
{
	struct kmem_cache *s;
	struct slabinfo info;

	mutex_lock(&slab_mutex);
	pr_info("slabinfo - version: 2.1\n");
	pr_info("# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
		" : tunables <limit> <batchcount> <sharedfactor>"
		" : slabdata <active_slabs> <num_slabs> <sharedavail>"
		" : irqlab <order> <partial> <cpu_slabs>\n");
	list_for_each_entry(s, &slab_caches, list) {
		cache_slabinfo(s, &info);
		pr_info("%-17s %6lu %6lu %6u %4u %4d : tunables %4u %4u %4u : slabdata %6lu %6lu %6lu : irqlab %2u %6lu %6lu\n",
			s->name, info.active_objs, info.num_objs, s->size,
			info.objects_per_slab, 1 << info.cache_order,
			info.limit, info.batchcount, info.shared,
			info.active_slabs, info.num_slabs,
			info.shared_avail, info.cache_order,
			info.nr_partial, info.cpu_slabs);
		slabinfo_show_stats(s);
	}
	mutex_unlock(&slab_mutex);
}

/* @name as a JSON string body: quotes, backslashes, controls -> '?'. */
static void json_name(char *buf, size_t size, const char *name)
{
	size_t n = 0;

	for (; *name && n + 1 < size; name++)
		buf[n++] = (*name == '"' || *name == '\\' ||
			    (unsigned char)*name < 0x20) ? '?' : *name;
	buf[n] = '\0';
}

static void slabinfo_emit(const char *json, int len, const char *name)
{
	if (len >= RECORD_MAX_JSON + 1 || record_emit(json) < 0)
		pr_warn("slabinfo: record for %s does not fit\n", name);
}

#ifdef CONFIG_SLUB_STATS
/*
 * The counters do not fit in the cache's own record (RECORD_MAX_JSON),
 * so they follow it as "slabinfo_stats" records, each with as many
 * non-zero counters as fit; a cache with none gets one empty "stats".
 */
static void slabinfo_records_stats(struct kmem_cache *s, const char *name)
{
	char json[RECORD_MAX_JSON + 1];
	int head, n, count = 0;

	head = snprintf(json, sizeof(json),
			"{\"type\":\"slabinfo_stats\",\"name\":\"%s\",\"stats\":{",
			name);
	n = head;
	for (int i = 0; i < NR_SLUB_STAT_ITEMS; i++) {
		unsigned long v = slub_stat_sum(s, i);
		char item[48];
		int len;

		if (!v)
			continue;
		len = snprintf(item, sizeof(item), "%s\"%s\":%lu",
			       n > head ? "," : "", slub_stat_names[i], v);
		/* Room for this item and the closing "}}". */
		if (n > head && n + len + 2 > RECORD_MAX_JSON) {
			n += snprintf(json + n, sizeof(json) - n, "}}");
			slabinfo_emit(json, n, name);
			count++;
			n = head;
			len = snprintf(item, sizeof(item), "\"%s\":%lu",
				       slub_stat_names[i], v);
		}
		if (n + len < (int)sizeof(json))
			n += snprintf(json + n, sizeof(json) - n, "%s", item);
	}
	if (n > head || !count) {
		n += snprintf(json + n, sizeof(json) - n, "}}");
		slabinfo_emit(json, n, name);
	}
}
#else
static inline void slabinfo_records_stats(struct kmem_cache *s,
					  const char *name) { }
#endif

/*
 * One "slabinfo" record per cache with the columns of slabinfo_show()
 * (SLUB's always-zero tunables left out), plus "slabinfo_stats"
 * records with CONFIG_SLUB_STATS.
 */
void slabinfo_records(void)
{
	char json[RECORD_MAX_JSON + 1], name[64];
	struct kmem_cache *s;
	struct slabinfo sinfo;
	int n;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		cache_slabinfo(s, &sinfo);
		json_name(name, sizeof(name), s->name);
		n = snprintf(json, sizeof(json),
			     "{\"type\":\"slabinfo\",\"name\":\"%s\",\"active_objs\":%lu,"
			     "\"num_objs\":%lu,\"objsize\":%u,\"objperslab\":%u,"
			     "\"pagesperslab\":%u,\"order\":%u,\"partial\":%lu,"
			     "\"cpu_slabs\":%lu}",
			     name, sinfo.active_objs, sinfo.num_objs, s->size,
			     sinfo.objects_per_slab, 1U << sinfo.cache_order,
			     sinfo.cache_order, sinfo.nr_partial,
			     sinfo.cpu_slabs);
		slabinfo_emit(json, n, name);
		slabinfo_records_stats(s, name);
	}
	mutex_unlock(&slab_mutex);
}

/*
 * slabinfo=1: the report (console table and records) once the workloads
 * are done, for the host tools.  Off by default to keep test logs short.
 */
static bool slabinfo_at_end;
core_param("slabinfo", slabinfo_at_end, bool,
	   "print the slabinfo table and records at the end of the run");

void slabinfo_report_at_end(void)
{
	if (!slabinfo_at_end || slab_state < UP)
		return;
	slabinfo_show();
	slabinfo_records();
}
