// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB debugging (Linux 5.15 semantics): the slub_debug= boot parameter,
 * red zones, poisoning, owner tracking, consistency checks on the slow
 * allocation and free paths, and validate_slab_cache().
 *
 * Nothing here runs unless slub_debug= (or CONFIG_SLUB_DEBUG_ON) gave some
 * cache a debug flag: debug caches never take the lockless fast paths, so
 * every object they hand out or take back comes through
 * alloc_debug_processing() or free_debug_processing().
 *
 * Reports keep Linux's shape so that existing log parsers and human eyes
 * read them unchanged:
 *
 *   =============================================================================
 *   BUG kmalloc-64 (Not tainted): Right Redzone overwritten
 *   -----------------------------------------------------------------------------
 *
 *   0x...-0x... @offset=1088. First byte 0x0 instead of 0xcc
 *   Allocated in test_fn+0x1c/0x80 age=3 cpu=0 pid=12
 *   ...
 *   FIX kmalloc-64: Restoring Right Redzone 0x...-0x...=0xcc
 *
 * irqlab has no taint flags; the "(Not tainted)" field becomes
 * "(Tainted: B)" once this file has reported a corruption, which is what
 * Linux's TAINT_BAD_PAGE shows.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/kallsyms.h>
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <asm/stacktrace.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include "slub.h"

/* ------------------------------------------------------------ settings */

#ifdef CONFIG_SLUB_DEBUG_ON
slab_flags_t slub_debug = DEBUG_DEFAULT_FLAGS;
bool slub_debug_enabled = true;
#else
slab_flags_t slub_debug;
bool slub_debug_enabled;
#endif

/* The per-cache part of slub_debug= (blocks with a cache list), or NULL. */
char *slub_debug_string;

/* Option 'O': no debug metadata for caches it would push to a higher order. */
int disable_higher_order_debug;

/* ----------------------------------------------------- error accounting */

static bool slub_bad_page_seen;		/* irqlab's TAINT_BAD_PAGE */

/*
 * validate_slab_cache() counts the problems it runs into.  Only reports
 * made by the validating task are counted, so a corruption found at the
 * same time by an allocation on another CPU does not change the result.
 */
static DEFINE_MUTEX(validate_mutex);
static struct task_struct *validate_task;
static long validate_errors;
/* Every report, by any task: what a soak asserts is zero. */
static atomic_long_t slab_bug_count;

unsigned long slab_bug_reports(void)
{
	return atomic_long_read(&slab_bug_count);
}

static void slab_add_error(void)
{
	atomic_long_inc(&slab_bug_count);
	if (READ_ONCE(validate_task) == current)
		validate_errors++;
}

static const char *print_tainted(void)
{
	return READ_ONCE(slub_bad_page_seen) ? "Tainted: B" : "Not tainted";
}

static void add_taint_bad_page(void)
{
	WRITE_ONCE(slub_bad_page_seen, true);
}

/* ------------------------------------------------------- small helpers */

/* The first byte of [start, start + bytes) that is not @c, or NULL. */
static u8 *memchr_inv(u8 *start, u8 c, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		if (start[i] != c)
			return start + i;
	return NULL;
}

/* The in-use map of one slab: the bits of objects on page->freelist. */
static unsigned long
object_map[BITS_TO_LONGS(MAX_OBJS_PER_PAGE)];
static DEFINE_RAW_SPINLOCK(object_map_lock);

static void __fill_map(unsigned long *bits, struct kmem_cache *cache,
		       struct page *pg)
{
	void *base = page_address(pg);
	void *obj = pg->freelist;

	for (unsigned int i = 0; i < BITS_TO_LONGS(pg->objects); i++)
		bits[i] = 0;
	while (obj) {
		set_bit(__obj_to_index(cache, base, obj), bits);
		obj = get_freepointer(cache, obj);
	}
}

/*
 * The free-object map of @pg in the one static buffer.  The caller keeps
 * the page from going away (list_lock or slab_lock) and has interrupts
 * off, so an interrupt cannot ask for the buffer while we hold it.
 */
static unsigned long *get_map(struct kmem_cache *cache, struct page *pg)
{
	WARN_ON_ONCE(!irqs_disabled());
	raw_spin_lock(&object_map_lock);
	__fill_map(object_map, cache, pg);
	return object_map;
}

static void put_map(unsigned long *map)
{
	WARN_ON_ONCE(map != object_map);
	raw_spin_unlock(&object_map_lock);
}

unsigned int size_from_object(struct kmem_cache *s)
{
	if (s->flags & SLAB_RED_ZONE)
		return s->size - s->red_left_pad;
	return s->size;
}

/* Slot start from object start: the inverse of fixup_red_left(). */
static void *restore_red_left(struct kmem_cache *s, void *p)
{
	if (s->flags & SLAB_RED_ZONE)
		p -= s->red_left_pad;
	return p;
}

/*
 * calculate_sizes() moves the free pointer behind the object (to s->inuse)
 * when the object must stay intact while free: poisoning, a constructor,
 * RCU.  Otherwise it lives inside the object.
 */
static bool freeptr_outside_object(struct kmem_cache *s)
{
	return s->offset >= s->inuse;
}

/* Where the tracking records start: after the free pointer if it is outside. */
unsigned int get_info_end(struct kmem_cache *s)
{
	if (freeptr_outside_object(s))
		return s->inuse + sizeof(void *);
	return s->inuse;
}

/* Is @object NULL or the start of an object slot of @page? */
static int check_valid_pointer(struct kmem_cache *s, struct page *page,
			       void *object)
{
	unsigned long offset;
	void *base;

	if (!object)
		return 1;

	base = page_address(page);
	object = restore_red_left(s, object);
	if (object < base)
		return 0;
	offset = object - base;
	if (offset >= page->objects * s->size)
		return 0;
	return offset % s->size == 0;
}

/*
 * The hex dump runs in instrumented code and reads red zones and freed
 * objects: KASAN is told this is SLUB looking at its own metadata.
 */
static inline void metadata_access_enable(void) { kasan_disable_current(); }
static inline void metadata_access_disable(void) { kasan_enable_current(); }

static void print_section(const char *level, const char *text, u8 *addr,
			  unsigned int length)
{
	metadata_access_enable();
	print_hex_dump(level, text, DUMP_PREFIX_ADDRESS, 16, 1, addr, length,
		       true);
	metadata_access_disable();
}

/* ------------------------------------------------------------ tracking */

static struct track *get_track(struct kmem_cache *cache, void *obj,
			       enum track_item which)
{
	struct track *first = obj + get_info_end(cache);

	return first + which;
}

/*
 * noinline keeps the number of our own frames known, so the saved chain
 * starts at the caller of alloc/free_debug_processing().
 */
static noinline void set_track(struct kmem_cache *s, void *object,
			       enum track_item alloc, unsigned long addr)
{
	struct track *p = get_track(s, object, alloc);
	unsigned int nr;

	if (!addr) {
		memset(p, 0, sizeof(*p));
		return;
	}
	nr = save_stack_trace(p->addrs, TRACK_ADDRS_COUNT, 2);
	if (nr < TRACK_ADDRS_COUNT)
		p->addrs[nr] = 0;
	p->addr = addr;
	p->cpu = smp_processor_id();
	p->pid = current->pid;
	p->when = jiffies;
}

static void init_tracking(struct kmem_cache *cache, void *obj)
{
	if (!(cache->flags & SLAB_STORE_USER))
		return;
	set_track(cache, obj, TRACK_FREE, 0UL);
	set_track(cache, obj, TRACK_ALLOC, 0UL);
}

static void print_track(const char *label, struct track *tr,
			unsigned long now)
{
	char sym[KSYM_SYMBOL_LEN];

	if (!tr->addr)
		return;

	sprint_symbol(sym, tr->addr);
	pr_err("%s in %s age=%lu cpu=%u pid=%d\n", label, sym,
	       now - tr->when, tr->cpu, tr->pid);
	for (int i = 0; i < TRACK_ADDRS_COUNT && tr->addrs[i]; i++) {
		sprint_backtrace(sym, tr->addrs[i]);
		pr_err("\t%s\n", sym);
	}
}

void print_tracking(struct kmem_cache *cache, void *obj)
{
	unsigned long now = jiffies;
	struct track *alloc_tr, *free_tr;

	if (!(cache->flags & SLAB_STORE_USER))
		return;

	alloc_tr = get_track(cache, obj, TRACK_ALLOC);
	free_tr = get_track(cache, obj, TRACK_FREE);
	print_track("Allocated", alloc_tr, now);
	print_track("Freed", free_tr, now);
}

/* ------------------------------------------------------------- reports */

static void print_page_info(struct page *pg)
{
	char flags[160];

	format_page_flags(flags, sizeof(flags), pg->flags);
	pr_err("Slab %p objects=%u used=%u fp=%p flags=%#lx(%s)\n",
	       pg, pg->objects, pg->inuse, pg->freelist,
	       pg->flags, flags);
}

static void slab_bug(struct kmem_cache *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void slab_bug(struct kmem_cache *s, const char *fmt, ...)
{
	char msg[128];
	va_list args;

	va_start(args, fmt);
	vsniprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	slab_add_error();
	pr_err("=============================================================================\n");
	pr_err("BUG %s (%s): %s\n", s->name, print_tainted(), msg);
	pr_err("-----------------------------------------------------------------------------\n");
	pr_err("\n");
}

static void slab_fix(struct kmem_cache *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void slab_fix(struct kmem_cache *s, const char *fmt, ...)
{
	char msg[128];
	va_list args;

	va_start(args, fmt);
	vsniprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_err("FIX %s: %s\n", s->name, msg);
}

/*
 * Everything known about the object at @obj: its owners, its slab, and
 * dumps of the left red zone, the object, the right red zone and the
 * padding behind the metadata.
 */
static void print_trailer(struct kmem_cache *cache, struct page *pg,
			  u8 *obj)
{
	u8 *base = page_address(pg);
	unsigned int obj_len = cache->object_size;
	unsigned int right_len = cache->inuse - cache->object_size;
	unsigned int meta_end;	/* end of the metadata */
	bool redzoned = cache->flags & SLAB_RED_ZONE;

	print_tracking(cache, obj);
	print_page_info(pg);

	pr_err("Object %p @offset=%lu fp=%p\n", obj,
	       (unsigned long)(obj - base), get_freepointer(cache, obj));
	pr_err("\n");

	if (redzoned)
		print_section(KERN_ERR, "Redzone  ",
			      obj - cache->red_left_pad, cache->red_left_pad);
	else if (obj > base + 16)
		print_section(KERN_ERR, "Bytes b4 ", obj - 16, 16);

	if (obj_len > PAGE_SIZE)
		obj_len = PAGE_SIZE;
	print_section(KERN_ERR, "Object   ", obj, obj_len);
	if (redzoned)
		print_section(KERN_ERR, "Redzone  ", obj + cache->object_size,
			      right_len);

	meta_end = get_info_end(cache);
	if (cache->flags & SLAB_STORE_USER)
		meta_end += 2 * sizeof(struct track);
	meta_end += kasan_metadata_size(cache);
	if (meta_end != size_from_object(cache))
		/* The free pointer, when outside, is the first word here. */
		print_section(KERN_ERR, "Padding  ", obj + meta_end,
			      size_from_object(cache) - meta_end);

	dump_stack();
}

void object_err(struct kmem_cache *s, struct page *page, u8 *object,
		char *reason)
{
	slab_bug(s, "%s", reason);
	print_trailer(s, page, object);
	add_taint_bad_page();
}

void slab_err(struct kmem_cache *s, struct page *page, const char *fmt, ...)
{
	char buf[100];
	va_list args;

	va_start(args, fmt);
	vsniprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	slab_bug(s, "%s", buf);
	print_page_info(page);
	dump_stack();
	add_taint_bad_page();
}

/*
 * A free pointer read from @chain's object points outside the slab:
 * cut the chain there, keeping what was before it.
 */
bool freelist_corrupted(struct kmem_cache *s, struct page *page,
			void **chain, void *next)
{
	if (!(s->flags & SLAB_CONSISTENCY_CHECKS) || !chain)
		return false;
	if (!check_valid_pointer(s, page, next)) {
		object_err(s, page, *chain, "Freechain corrupt");
		*chain = NULL;
		slab_fix(s, "Freechain cut before the corrupt pointer");
		return true;
	}
	return false;
}

/* ------------------------------------------------------ object checks */

/*
 * Fill the red zones with @val (SLUB_RED_ACTIVE or SLUB_RED_INACTIVE)
 * and, for poisoned caches, the object with POISON_FREE ending in
 * POISON_END.
 */
void init_object(struct kmem_cache *s, void *object, u8 val)
{
	u8 *obj = object;
	unsigned int len = s->object_size;
	unsigned int left = s->red_left_pad;

	if (s->flags & SLAB_RED_ZONE)
		memset(obj - left, val, left);

	if (s->flags & __OBJECT_POISON) {
		memset(obj, POISON_FREE, len - 1);
		obj[len - 1] = POISON_END;
	}

	if (s->flags & SLAB_RED_ZONE)
		memset(obj + len, val, s->inuse - len);
}

static void restore_bytes(struct kmem_cache *s, const char *message, u8 data,
			  void *from, void *to)
{
	slab_fix(s, "Restoring %s %p-%p=0x%x", message, from, to - 1, data);
	memset(from, data, to - from);
}

/*
 * The damaged part of [@start, @start + @bytes), which should hold @value
 * only: returns its first wrong byte (NULL if there is none) and sets
 * *@end just past its last wrong byte.
 */
static u8 *find_damage(u8 *start, u8 value, unsigned int bytes, u8 **end)
{
	u8 *first = memchr_inv(start, value, bytes);
	u8 *last = start + bytes - 1;

	if (!first)
		return NULL;
	while (last > first && *last == value)
		last--;
	*end = last + 1;
	return first;
}

/*
 * @bytes at @start, part of @object's slot, should all be @value.  If not:
 * report the damaged range, dump the object, and rewrite the range so
 * the same damage is reported only once.  Returns 1 if all was well.
 */
static int check_bytes_and_report(struct kmem_cache *cache, struct page *pg,
				  u8 *object, const char *what, u8 *start,
				  unsigned int value, unsigned int bytes)
{
	u8 *fault, *end;

	fault = find_damage(start, value, bytes, &end);
	if (!fault)
		return 1;

	slab_bug(cache, "%s overwritten", what);
	pr_err("%p-%p @offset=%lu. First byte 0x%x instead of 0x%x\n",
	       fault, end - 1, (unsigned long)(fault - (u8 *)page_address(pg)),
	       fault[0], value);
	print_trailer(cache, pg, object);
	add_taint_bad_page();

	restore_bytes(cache, what, value, fault, end);
	return 0;
}

/*
 * Slot layout (see also mm/slub.h):
 *
 *   object - red_left_pad   left red zone (SLAB_RED_ZONE)
 *   object                  object_size bytes; POISON_FREE..POISON_END
 *                           while free in a poisoned cache.  The free
 *                           pointer is in the middle of it unless the
 *                           object must stay intact while free.
 *   object + object_size    right red zone up to s->inuse: SLUB_RED_ACTIVE
 *                           while allocated, SLUB_RED_INACTIVE while free.
 *                           Without red zoning, alignment padding that
 *                           holds POISON_INUSE.
 *   object + inuse          free pointer (when outside the object), then
 *                           two struct track (SLAB_STORE_USER), then
 *                           padding filled with POISON_INUSE.
 *   object + size           the next slot.
 */
static int check_pad_bytes(struct kmem_cache *cache, struct page *pg, u8 *obj)
{
	unsigned int meta_end = get_info_end(cache);
	unsigned int slot_end = size_from_object(cache);

	if (cache->flags & SLAB_STORE_USER)
		meta_end += 2 * sizeof(struct track);
	/* KASAN's metadata follows the tracks; its red zone is padding. */
	meta_end += kasan_metadata_size(cache);
	if (meta_end == slot_end)
		return 1;

	return check_bytes_and_report(cache, pg, obj, "Object padding",
				      obj + meta_end, POISON_INUSE,
				      slot_end - meta_end);
}

/* The tail of a poisoned slab that no slot covers must be POISON_INUSE. */
int slab_pad_check(struct kmem_cache *s, struct page *page)
{
	u8 *start = page_address(page);
	unsigned int length = page_size(page);
	unsigned int leftover = length % s->size;
	u8 *tail = start + length - leftover;
	u8 *bad, *bad_end;

	if (!(s->flags & SLAB_POISON) || !leftover)
		return 1;

	bad = find_damage(tail, POISON_INUSE, leftover, &bad_end);
	if (!bad)
		return 1;

	slab_err(s, page, "Padding overwritten. %p-%p @offset=%lu",
		 bad, bad_end - 1, (unsigned long)(bad - start));
	print_section(KERN_ERR, "Padding ", tail, leftover);
	restore_bytes(s, "slab padding", POISON_INUSE, bad, bad_end);
	return 0;
}

/*
 * Check @object's slot.  @val is the red zone byte it must have:
 * SLUB_RED_ACTIVE for an allocated object, SLUB_RED_INACTIVE for a free
 * one.  Returns 0 if the object must not be used; damage that does not
 * make it unusable (padding) is reported and repaired, and returns 1.
 */
int check_object(struct kmem_cache *cache, struct page *pg, void *object,
		 u8 val)
{
	u8 *obj = object;
	u8 *obj_end = obj + cache->object_size;
	unsigned int right = cache->inuse - cache->object_size;

	if (cache->flags & SLAB_RED_ZONE) {
		if (!check_bytes_and_report(cache, pg, obj, "Left Redzone",
					    obj - cache->red_left_pad, val,
					    cache->red_left_pad))
			return 0;
		if (!check_bytes_and_report(cache, pg, obj, "Right Redzone",
					    obj_end, val, right))
			return 0;
	} else if ((cache->flags & SLAB_POISON) && right) {
		/* No red zone: the alignment gap keeps its POISON_INUSE. */
		check_bytes_and_report(cache, pg, obj, "Alignment padding",
				       obj_end, POISON_INUSE, right);
	}

	if (cache->flags & SLAB_POISON) {
		/* Free objects of a poisoned cache: 0x6b...0x6b 0xa5. */
		if (val != SLUB_RED_ACTIVE && (cache->flags & __OBJECT_POISON)) {
			if (!check_bytes_and_report(cache, pg, obj, "Poison",
						    obj, POISON_FREE,
						    cache->object_size - 1))
				return 0;
			if (!check_bytes_and_report(cache, pg, obj, "End Poison",
						    obj_end - 1, POISON_END, 1))
				return 0;
		}
		check_pad_bytes(cache, pg, obj);
	}

	/*
	 * While the object is allocated its owner may use the word the free
	 * pointer occupies when it lives inside the object.
	 */
	if (val == SLUB_RED_ACTIVE && !freeptr_outside_object(cache))
		return 1;

	if (check_valid_pointer(cache, pg, get_freepointer(cache, obj)))
		return 1;

	object_err(cache, pg, obj, "Freepointer corrupt");
	/*
	 * Terminate the chain here: the free objects after this one are
	 * lost, and the slab's counts may be reported as wrong next.
	 */
	set_freepointer(cache, obj, NULL);
	return 0;
}

/* Is @page a slab whose counters make sense for @s? */
int check_slab(struct kmem_cache *s, struct page *page)
{
	unsigned int order;
	int maxobj;

	if (!PageSlab(page)) {
		slab_err(s, page, "Page is not a valid slab");
		return 0;
	}

	order = compound_order(page);
	maxobj = order_objects(order, s->size);
	if (page->objects > maxobj) {
		slab_err(s, page, "objects %u > max %u", page->objects, maxobj);
		return 0;
	}
	if (page->inuse > page->objects) {
		slab_err(s, page, "inuse %u > max %u", page->inuse,
			 page->objects);
		return 0;
	}
	/* Damaged tail padding is repaired; the slab stays usable. */
	slab_pad_check(s, page);
	return 1;
}

/*
 * Is @search on @page's freelist?  The caller holds slab_lock, so the
 * chain cannot change while we walk it.  A bad pointer in the chain is
 * reported and the chain cut there.  Once the walk is over, the slab's
 * object count and in-use count are checked against what was found and
 * corrected.  With @search NULL, returns 1 unless the list head itself
 * was bad.
 */
int on_freelist(struct kmem_cache *s, struct page *page, void *search)
{
	void *prev = NULL, *fp = page->freelist;
	int max_objects, nr_free;

	for (nr_free = 0; fp && nr_free <= page->objects; nr_free++) {
		if (fp == search)
			return 1;
		if (!check_valid_pointer(s, page, fp)) {
			if (!prev) {
				/* Nothing on the list can be trusted. */
				slab_err(s, page, "Freepointer corrupt");
				page->freelist = NULL;
				page->inuse = page->objects;
				slab_fix(s, "Freelist emptied");
				return 0;
			}
			object_err(s, page, prev, "Freechain corrupt");
			set_freepointer(s, prev, NULL);
			break;
		}
		prev = fp;
		fp = get_freepointer(s, fp);
	}

	max_objects = min_t(int, order_objects(compound_order(page), s->size),
			    MAX_OBJS_PER_PAGE);
	if (page->objects != max_objects) {
		slab_err(s, page, "Wrong number of objects: page says %d, its order holds %d",
			 page->objects, max_objects);
		page->objects = max_objects;
		slab_fix(s, "Number of objects corrected");
	}
	if (page->inuse != page->objects - nr_free) {
		slab_err(s, page, "Wrong object count: counter is %d, %d counted",
			 page->inuse, page->objects - nr_free);
		page->inuse = page->objects - nr_free;
		slab_fix(s, "Object count corrected");
	}
	return search == NULL;
}

/* SLAB_TRACE: one line per allocation and free, the freed contents, a trace. */
static void trace(struct kmem_cache *cache, struct page *pg, void *obj,
		  int alloc)
{
	if (!(cache->flags & SLAB_TRACE))
		return;

	pr_info("TRACE %s %s %p inuse=%d fp=%p\n", cache->name,
		alloc ? "alloc" : "free", obj, pg->inuse,
		pg->freelist);
	if (!alloc)
		print_section(KERN_INFO, "Object ", obj, cache->object_size);
	dump_stack();
}

/* ------------------------------------------------------------ full list */

/*
 * Slabs without a free object are on no list normally; with
 * SLAB_STORE_USER they are kept on n->full so that validation and the
 * shutdown report can find them.
 */
void add_full(struct kmem_cache *s, struct kmem_cache_node *n,
	      struct page *page)
{
	if (!(s->flags & SLAB_STORE_USER))
		return;

	lockdep_assert_held(&n->list_lock);
	list_add(&page->slab_list, &n->full);
}

void remove_full(struct kmem_cache *s, struct kmem_cache_node *n,
		 struct page *page)
{
	if (!(s->flags & SLAB_STORE_USER))
		return;

	lockdep_assert_held(&n->list_lock);
	list_del(&page->slab_list);
}

/* --------------------------------------------------- alloc/free checks */

/* A new slot in a new slab: red zones inactive, object poisoned. */
void setup_object_debug(struct kmem_cache *s, struct page *page, void *object)
{
	if (!kmem_cache_debug_flags(s, SLAB_STORE_USER | SLAB_RED_ZONE |
					__OBJECT_POISON))
		return;

	init_object(s, object, SLUB_RED_INACTIVE);
	init_tracking(s, object);
}

/* A new slab: everything POISON_INUSE, so the slab's tail padding is too. */
void setup_page_debug(struct kmem_cache *cache, struct page *pg, void *base)
{
	if (!kmem_cache_debug_flags(cache, SLAB_POISON))
		return;

	memset(base, POISON_INUSE, page_size(pg));
}

static int alloc_consistency_checks(struct kmem_cache *cache, struct page *pg,
				    void *obj)
{
	if (!check_slab(cache, pg))
		return 0;

	if (!check_valid_pointer(cache, pg, obj)) {
		object_err(cache, pg, obj, "Freelist Pointer check fails");
		return 0;
	}

	if (!check_object(cache, pg, obj, SLUB_RED_INACTIVE))
		return 0;

	return 1;
}

/*
 * @object is about to be handed out from @page (called with the object
 * already taken off the slab's freelist).  Returns 0 if it must not be.
 */
noinline int alloc_debug_processing(struct kmem_cache *s, struct page *page,
				    void *object, unsigned long addr)
{
	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (!alloc_consistency_checks(s, page, object))
			goto bad;
	}

	if (s->flags & SLAB_STORE_USER)
		set_track(s, object, TRACK_ALLOC, addr);
	trace(s, page, object, 1);
	init_object(s, object, SLUB_RED_ACTIVE);
	return 1;

bad:
	if (PageSlab(page)) {
		/*
		 * Nothing in this slab can be trusted any more: pretend it is
		 * full so that no other object is handed out from it.
		 */
		slab_fix(s, "Marking all objects used");
		page->inuse = page->objects;
		page->freelist = NULL;
	}
	return 0;
}

static int free_consistency_checks(struct kmem_cache *cache, struct page *pg,
				   void *obj, unsigned long addr)
{
	if (!check_valid_pointer(cache, pg, obj)) {
		slab_err(cache, pg, "Invalid object pointer %p", obj);
		return 0;
	}

	if (on_freelist(cache, pg, obj)) {
		object_err(cache, pg, obj, "Object already free");
		return 0;
	}

	if (!check_object(cache, pg, obj, SLUB_RED_ACTIVE))
		return 0;

	if (unlikely(cache != pg->slab_cache)) {
		if (!PageSlab(pg)) {
			slab_err(cache, pg,
				 "Free of object(%p) that is in no slab", obj);
		} else if (!pg->slab_cache) {
			pr_err("SLUB <none>: object %p belongs to no cache\n",
			       obj);
			dump_stack();
		} else {
			object_err(cache, pg, obj,
				   "Slab cache pointer of the page corrupt");
		}
		return 0;
	}
	return 1;
}

/*
 * The chain head..tail (@bulk_cnt objects linked through their free
 * pointers, as slab_free() builds it) is going back to @page.  5.15 takes
 * the node's list_lock and the slab lock here, so the checks see the slab
 * as no other CPU is changing it.  Returns 0 if the objects must not be
 * freed (they are leaked, as in Linux).
 */
noinline int free_debug_processing(struct kmem_cache *s, struct page *page,
				   void *head, void *tail, int bulk_cnt,
				   unsigned long addr)
{
	int nid = page_to_nid(page);
	struct kmem_cache_node *n = get_node(s, nid);
	unsigned long flags, flags2 = 0;
	void *cur = head;
	int cnt = 0;
	int ret = 0;

	list_lock_irqsave(&n->list_lock, flags);
	slab_lock(page, &flags2);

	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (!check_slab(s, page))
			goto out;
	}

	for (;;) {
		cnt++;

		if (s->flags & SLAB_CONSISTENCY_CHECKS) {
			if (!free_consistency_checks(s, page, cur, addr))
				goto out;
		}

		if (s->flags & SLAB_STORE_USER)
			set_track(s, cur, TRACK_FREE, addr);
		trace(s, page, cur, 0);
		/* Leaves the free pointer alone: it is outside when poisoning. */
		init_object(s, cur, SLUB_RED_INACTIVE);

		if (cur == tail)
			break;
		cur = get_freepointer(s, cur);
	}
	ret = 1;

out:
	if (cnt != bulk_cnt)
		slab_err(s, page, "Bulk free count(%d) differs from chain length(%d)",
			 bulk_cnt, cnt);

	slab_unlock(page, &flags2);
	list_unlock_irqrestore(&n->list_lock, flags);
	if (!ret)
		slab_fix(s, "Object at %p not freed", cur);
	return ret;
}

/* The end of the string at @s, or its first @c. */
static char *strchrnul_local(const char *s, int c)
{
	while (*s && *s != (char)c)
		s++;
	return (char *)s;
}

/* --------------------------------------------------------- slub_debug= */

/* The option letters and what they switch on ('O' and '-' are special). */
static const struct {
	char letter;
	slab_flags_t flags;
} slub_debug_letters[] = {
	{ 'f', SLAB_CONSISTENCY_CHECKS },
	{ 'z', SLAB_RED_ZONE },
	{ 'p', SLAB_POISON },
	{ 'u', SLAB_STORE_USER },
	{ 't', SLAB_TRACE },
	{ 'a', SLAB_FAILSLAB },
};

/* Skip to the character after the current block's ';' run, or the end. */
static char *slub_debug_next_block(char *str)
{
	str = strchrnul_local(str, ';');
	while (*str == ';')
		str++;
	return str;
}

/*
 * Parse one block of slub_debug=, "<letters>[,<cache>[,<cache>...]]".
 * *flags gets the block's flags; a block that starts with ',' (caches but
 * no letters) means DEBUG_DEFAULT_FLAGS for those caches.  *slabs points
 * at the first cache name, or is NULL when the block names none.  @init
 * is set for the boot-time parse only: unknown letters are reported and
 * 'O' is recorded then, not again for every cache created.
 * Returns the next block, or NULL if this was the last.
 */
static char *parse_slub_debug_flags(char *str, slab_flags_t *flags,
				    char **slabs, bool init)
{
	while (*str == ';')
		str++;

	*flags = *str == ',' ? DEBUG_DEFAULT_FLAGS : 0;
	for (; *str && *str != ',' && *str != ';'; str++) {
		char c = tolower((unsigned char)*str);
		bool known = true;
		unsigned int i;

		if (c == '-') {
			*flags = 0;
		} else if (c == 'o') {
			if (init)
				disable_higher_order_debug = 1;
		} else {
			for (i = 0; i < ARRAY_SIZE(slub_debug_letters); i++)
				if (slub_debug_letters[i].letter == c)
					break;
			known = i < ARRAY_SIZE(slub_debug_letters);
			if (known)
				*flags |= slub_debug_letters[i].flags;
		}
		if (!known && init)
			pr_err("slub_debug: option '%c' is unknown, skipped (valid: F Z P U T A O -)\n",
			       *str);
	}

	*slabs = *str == ',' ? str + 1 : NULL;
	str = slub_debug_next_block(str);
	return *str ? str : NULL;
}

/*
 * slub_debug[=<block>[;<block>...]], parsed with the rest of the command
 * line before mm_init() creates the first cache.
 *
 * Blocks without a cache list set the flags every cache gets (the last
 * such block wins).  Blocks with a list are kept as text in
 * slub_debug_string and read again by kmem_cache_flags() for each new
 * cache; the command line buffer lives for the whole run, so pointing
 * into it is safe.  If only cache lists are given, the global flags keep
 * their default (none, or DEBUG_DEFAULT_FLAGS with CONFIG_SLUB_DEBUG_ON):
 * "slub_debug=F,dentry" touches the dentry cache alone.
 */
static int setup_slub_debug(const char *val, const struct kernel_param *kp)
{
	slab_flags_t global = DEBUG_DEFAULT_FLAGS;
	bool global_given = false, list_given = false;
	char *block = (char *)val;

	/* A bare "slub_debug" switches on full debugging everywhere. */
	while (block && *block) {
		slab_flags_t flags;
		char *list;

		block = parse_slub_debug_flags(block, &flags, &list, true);
		if (list) {
			list_given = true;
		} else {
			global = flags;
			global_given = true;
		}
	}

	if (list_given) {
		slub_debug_string = (char *)val;
		if (!global_given)
			global = slub_debug;
	}
	slub_debug = global;
	slub_debug_enabled = slub_debug || slub_debug_string;
	return 0;
}

static const struct kernel_param_ops slub_debug_ops = {
	.set = setup_slub_debug,
	.type = "SLUB debug options ([-FZPUTAO][,<cache>[*]...][;...])",
	.noarg = true,
};
core_param_cb("slub_debug", &slub_debug_ops, NULL,
	      "SLUB debugging: F checks, Z red zones, P poisoning, "
	      "U owner tracking, T trace, A failslab, "
	      "O skip caches whose order would grow, - none; "
	      ",<cache>[,...] limits a block to those caches");

/*
 * Does @name match one entry of the cache list [@list, @end) (entries
 * separated by ',')?  An entry ending in '*' matches every name that
 * starts with what comes before the '*'.
 */
static bool slub_debug_list_match(const char *name, const char *list,
				  const char *end)
{
	size_t len = strlen(name);

	while (list < end) {
		const char *stop = strchrnul_local(list, ',');
		const char *star;
		size_t n;

		if (stop > end)
			stop = end;
		n = stop - list;
		star = memchr(list, '*', n);
		if (star) {
			if (!strncmp(name, list, star - list))
				return true;
		} else if (n == len && !strncmp(name, list, n)) {
			return true;
		}
		list = stop + 1;
	}
	return false;
}

/*
 * The flags a new cache called @name gets: those of the first
 * slub_debug= block whose cache list names it, which replace the global
 * ones; otherwise the global flags.
 */
slab_flags_t kmem_cache_flags(unsigned int object_size, slab_flags_t flags,
			      const char *name)
{
	slab_flags_t global = slub_debug;
	char *block = slub_debug_string;

	/* Debugging tools' own caches record no owners unless named. */
	if (flags & SLAB_NOLEAKTRACE)
		global &= ~SLAB_STORE_USER;

	while (block) {
		slab_flags_t block_flags;
		char *list, *next;

		next = parse_slub_debug_flags(block, &block_flags, &list, false);
		if (list && slub_debug_list_match(name, list,
						  strchrnul_local(list, ';')))
			return flags | block_flags;
		block = next;
	}
	return flags | global;
}

/* ------------------------------------------------- shutdown, validation */

/*
 * __kmem_cache_shutdown() found objects still allocated in @page: say so
 * (@text is a format with one %s, the cache name) and list each of them
 * with its owner.  Called with n->list_lock held and interrupts off.
 */
void list_slab_objects(struct kmem_cache *s, struct page *page,
		       const char *text)
{
	void *base = page_address(page);
	unsigned long flags = 0;
	unsigned long *map;
	void *obj;

	slab_err(s, page, text, s->name);
	slab_lock(page, &flags);

	map = get_map(s, page);
	for_each_object(obj, s, base, page->objects) {
		if (!test_bit(__obj_to_index(s, base, obj), map)) {
			pr_err("Object %p @offset=%lu\n", obj,
			       (unsigned long)(obj - base));
			print_tracking(s, obj);
		}
	}
	put_map(map);
	slab_unlock(page, &flags);
}

static void validate_slab(struct kmem_cache *cache, struct page *pg,
			  unsigned long *obj_map)
{
	void *base = page_address(pg);
	unsigned long flags = 0;
	void *obj;

	slab_lock(pg, &flags);

	if (!check_slab(cache, pg) || !on_freelist(cache, pg, NULL))
		goto unlock;

	/* The freelist is sound now: check each object as free or in use. */
	__fill_map(obj_map, cache, pg);
	for_each_object(obj, cache, base, pg->objects) {
		u8 val = test_bit(__obj_to_index(cache, base, obj), obj_map) ?
			 SLUB_RED_INACTIVE : SLUB_RED_ACTIVE;

		if (!check_object(cache, pg, obj, val))
			break;
	}
unlock:
	slab_unlock(pg, &flags);
}

/* Validate each slab on @list; returns how many there were. */
static unsigned long validate_slab_list(struct kmem_cache *s,
					struct list_head *list,
					unsigned long *obj_map)
{
	unsigned long nr = 0;
	struct page *page;

	list_for_each_entry(page, list, slab_list) {
		validate_slab(s, page, obj_map);
		nr++;
	}
	return nr;
}

/*
 * One node: its partial slabs, and with SLAB_STORE_USER its full ones,
 * the list lengths checked against the node's counters.
 */
static void validate_slab_node(struct kmem_cache *s,
			       struct kmem_cache_node *n,
			       unsigned long *obj_map)
{
	unsigned long nr_partial, nr_full;
	unsigned long flags;
	long nr_slabs;

	list_lock_irqsave(&n->list_lock, flags);

	nr_partial = validate_slab_list(s, &n->partial, obj_map);
	if (nr_partial != n->nr_partial) {
		pr_err("SLUB %s: %ld partial slabs counted but counter=%ld\n", s->name,
		       nr_partial, n->nr_partial);
		slab_add_error();
	}

	/* Full slabs are on a list only when owners are tracked. */
	if (s->flags & SLAB_STORE_USER) {
		nr_full = validate_slab_list(s, &n->full, obj_map);
		nr_slabs = atomic_long_read(&n->nr_slabs);
		if (nr_partial + nr_full != nr_slabs) {
			pr_err("SLUB: %s %ld slabs counted but counter=%ld\n", s->name,
			       nr_partial + nr_full, nr_slabs);
			slab_add_error();
		}
	}

	list_unlock_irqrestore(&n->list_lock, flags);
}

/*
 * Check every slab of @s on the node lists (after flushing the CPU slabs
 * to them) and every object in them.  Problems are reported and repaired
 * as on the debug paths.
 *
 * Returns the number of problems found: 0 for a sound cache, -ENOMEM if
 * the object map could not be allocated.  This departs from Linux 5.15,
 * which returns the number of slabs walked; a count of problems is what
 * irqlab's tests assert on.  Each "BUG" report and each counter mismatch
 * counts once; the "FIX" lines that follow them do not.
 */
long validate_slab_cache(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	unsigned long *obj_map;
	long errors;
	int node;

	/* s->max: the largest slab this cache has ever had. */
	obj_map = kmalloc(BITS_TO_LONGS(oo_objects(s->max)) * sizeof(long),
			  GFP_KERNEL);
	if (!obj_map)
		return -ENOMEM;

	mutex_lock(&validate_mutex);
	validate_errors = 0;
	WRITE_ONCE(validate_task, current);

	flush_all(s);
	for_each_kmem_cache_node(s, node, n)
		validate_slab_node(s, n, obj_map);

	WRITE_ONCE(validate_task, NULL);
	errors = validate_errors;
	mutex_unlock(&validate_mutex);

	kfree(obj_map);
	return errors;
}
