// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator's checks and reports: bad page state on the way in
 * and out of the free lists, page poisoning, allocation failure warnings,
 * and the free-memory report (console and machine records).
 *
 * Report formats follow Linux's so existing tooling and eyes parse them:
 *   BUG: Bad page state in process swapper/0  pfn:1a2b3
 *   page:ffffea000068acc0 refcount:0 mapcount:0 mapping:0000000000000000 index:0x0 pfn:0x1a2b3
 *   flags: 0x400000000001000(reserved|node=0|zone=1)
 *   raw: ... (the descriptor's eight words)
 *   page dumped because: nonzero _refcount
 * irqlab has no processes yet: the context is named swapper/<cpu>, what
 * Linux prints for a CPU's idle task, and the CPU is printed as well.
 */
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/kasan.h>
#include <linux/ktime.h>
#include <linux/record.h>
#include <linux/memblock.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <asm/hardirq.h>
#include <asm/stacktrace.h>
#include "internal.h"
#include "slab.h"

const char *current_comm(char *buf, size_t size)
{
	snprintf(buf, size, "swapper/%d", smp_processor_id());
	return buf;
}

/* ------------------------------------------------------------ decoding */

static const char *const pageflag_names[NR_PAGEFLAGS] = {
	"locked", "referenced", "uptodate", "dirty", "lru", "active",
	"workingset", "waiters", "error", "slab", "owner_priv_1", "arch_1",
	"reserved", "private", "private_2", "writeback", "head",
	"mappedtodisk", "reclaim", "swapbacked", "unevictable", "mlocked",
};

void format_page_flags(char *buf, size_t size, unsigned long flags)
{
	size_t n = 0;

	for (int i = 0; i < NR_PAGEFLAGS && n < size; i++)
		if (flags & (1UL << i))
			n += snprintf(buf + n, size - n, "%s|", pageflag_names[i]);
	if (n < size)
		snprintf(buf + n, size - n, "node=%lu|zone=%lu",
			 (flags >> NODES_PGSHIFT) & NODES_MASK,
			 (flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

/* Composite masks first, so GFP_KERNEL prints as one name. */
static const struct {
	gfp_t mask;
	const char *name;
} gfp_names[] = {
	{ GFP_KERNEL_ACCOUNT, "GFP_KERNEL_ACCOUNT" },
	{ GFP_USER, "GFP_USER" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOIO, "GFP_NOIO" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ __GFP_DMA, "GFP_DMA" },
	{ __GFP_HIGHMEM, "__GFP_HIGHMEM" },
	{ __GFP_DMA32, "GFP_DMA32" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_ATOMIC, "__GFP_ATOMIC" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_HARDWALL, "__GFP_HARDWALL" },
	{ __GFP_THISNODE, "__GFP_THISNODE" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
};

char *format_gfp_flags(char *buf, size_t size, gfp_t gfp)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(gfp_names) && n < size; i++) {
		if ((gfp & gfp_names[i].mask) != gfp_names[i].mask)
			continue;
		n += snprintf(buf + n, size - n, "%s%s", n ? "|" : "", gfp_names[i].name);
		gfp &= ~gfp_names[i].mask;
	}
	if (gfp && n < size)
		n += snprintf(buf + n, size - n, "%s%#x", n ? "|" : "", gfp);
	if (!n)
		snprintf(buf, size, "0");
	return buf;
}

/* ------------------------------------------------------------ bad pages */

void dump_page(struct page *page, const char *reason)
{
	unsigned long *raw = (unsigned long *)page;
	char flags[160];

	format_page_flags(flags, sizeof(flags), page->flags);
	pr_warn("page:%016lx refcount:%d mapcount:%d mapping:%016lx index:0x%lx pfn:0x%lx\n",
		(unsigned long)page, page_ref_count(page),
		PageBuddy(page) ? 0 : page_mapcount(page),
		(unsigned long)page->mapping, page->index, page_to_pfn(page));
	if (PageBuddy(page))
		pr_warn("page_type: 0x%x(buddy) order:%lu\n", page->page_type, page_private(page));
	if (PageTail(page))
		pr_warn("head:%016lx order:%u compound_mapcount:%d\n", (unsigned long)compound_head(page),
			compound_order(compound_head(page)),
			atomic_read(&compound_head(page)[1].compound_mapcount) + 1);
	pr_warn("flags: 0x%lx(%s)\n", page->flags, flags);
	pr_warn("raw: %016lx %016lx %016lx %016lx\n", raw[0], raw[1], raw[2], raw[3]);
	pr_warn("raw: %016lx %016lx %016lx %016lx\n", raw[4], raw[5], raw[6], raw[7]);
	if (reason)
		pr_warn("page dumped because: %s\n", reason);
}

/*
 * Report only: the caller decides what becomes of the page (Linux also
 * resets _mapcount here; irqlab's callers do it where the page is being
 * leaked, so a double-freed page on a free list keeps its PageBuddy).
 * At most 60 reports per minute, as in Linux.
 */
void bad_page(struct page *page, const char *reason)
{
	static u64 resume_ns;
	static unsigned long nr_shown, nr_unshown;
	char comm[24];
	const char *who;
	u64 now = ktime_get_ns();

	if (nr_shown == 60) {
		if (now < resume_ns) {
			nr_unshown++;
			return;
		}
		if (nr_unshown) {
			pr_alert("BUG: Bad page state: %lu messages suppressed\n", nr_unshown);
			nr_unshown = 0;
		}
		nr_shown = 0;
	}
	if (nr_shown++ == 0)
		resume_ns = now + 60 * NSEC_PER_SEC;
	who = current_comm(comm, sizeof(comm));
	pr_alert("BUG: Bad page state in process %s  pfn:%05lx\n", who, page_to_pfn(page));
	dump_page(page, reason);
	pr_alert("CPU: %d\n", smp_processor_id());
	dump_stack();
}

static const char *page_bad_reason(struct page *page, unsigned long chk)
{
	int mapcount = atomic_read(&page->_mapcount);
	const char *reason = NULL;

	if (unlikely(mapcount != -1))
		reason = "nonzero mapcount";
	if (unlikely(page->mapping != NULL))
		reason = "non-NULL mapping";
	if (unlikely(page_ref_count(page) != 0))
		reason = "nonzero _refcount";
	if (unlikely(page->flags & chk))
		reason = chk == PAGE_FLAGS_CHECK_AT_PREP ?
			 "PAGE_FLAGS_CHECK_AT_PREP flag(s) set" :
			 "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
	if (unlikely(page->memcg_data))
		reason = "page still charged to cgroup";
	return reason;
}

/* free_page_is_bad() failed: report; the page is leaked. */
bool free_page_is_bad_report(struct page *page)
{
	bad_page(page, page_bad_reason(page, PAGE_FLAGS_CHECK_AT_FREE));
	page_mapcount_reset(page);
	return true;
}

/* A tail of a compound block being freed: is it still the head's? */
int free_tail_pages_check(struct page *head_page, struct page *tail)
{
	int ret = 1;

	if (tail - head_page == 1) {
		/* first tail: ->mapping holds compound_nr */
		if (unlikely(atomic_read(&tail->compound_mapcount) != -1)) {
			bad_page(tail, "nonzero compound_mapcount");
			goto out;
		}
	} else if (tail->mapping != TAIL_MAPPING) {
		bad_page(tail, "corrupted mapping in tail page");
		goto out;
	}
	if (unlikely(!PageTail(tail))) {
		bad_page(tail, "PageTail not set");
		goto out;
	}
	if (unlikely(compound_head(tail) != head_page)) {
		bad_page(tail, "compound_head not consistent");
		goto out;
	}
	ret = 0;
out:
	tail->mapping = NULL;
	clear_compound_head(tail);
	return ret;
}

/* check_new_page() failed: report; the page is taken out of circulation. */
bool check_new_page_bad(struct page *page)
{
	bad_page(page, page_bad_reason(page, PAGE_FLAGS_CHECK_AT_PREP));
	page_mapcount_reset(page);
	return true;
}

/* ------------------------------------------------- allocation failures */

/* A burst of @burst reports per @interval (Linux's struct ratelimit_state). */
struct pa_ratelimit {
	spinlock_t lock;
	u64 begin_ns;
	unsigned int printed, missed;
};

static bool pa_ratelimit(struct pa_ratelimit *rs, const char *who, unsigned int burst,
			 u64 interval_ns)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&rs->lock, flags);
	if (!rs->begin_ns || now - rs->begin_ns > interval_ns) {
		if (rs->missed)
			pr_warn("%s: %u callbacks suppressed\n", who, rs->missed);
		rs->begin_ns = now;
		rs->printed = rs->missed = 0;
	}
	ok = rs->printed < burst;
	if (ok)
		rs->printed++;
	else
		rs->missed++;
	spin_unlock_irqrestore(&rs->lock, flags);
	return ok;
}

/* Linux's default: a burst of 10 per 5 seconds. */
bool page_alloc_ratelimit(void)
{
	static struct pa_ratelimit rs = { .lock = __SPIN_LOCK_UNLOCKED(rs.lock) };

	return pa_ratelimit(&rs, "warn_alloc", 10, 5 * NSEC_PER_SEC);
}

/* ------------------------------------------------------------ poisoning */

#define PAGE_POISON	0xaa

bool _page_poisoning_enabled;
#ifdef CONFIG_PAGE_POISONING
core_param("page_poison", _page_poisoning_enabled, bool,
	   "fill freed pages with 0xaa and check them on allocation");
#endif

bool page_poisoning_enabled(void)
{
	return _page_poisoning_enabled;
}

void kernel_poison_pages(struct page *page, int numpages)
{
	for (int i = 0; i < numpages; i++)
		memset(page_address(page + i), PAGE_POISON, PAGE_SIZE);
}

static void print_hex_line(const u8 *p, size_t len)
{
	char line[3 * 16 + 1];
	size_t n = 0;

	for (size_t i = 0; i < len && i < 16; i++)
		n += snprintf(line + n, sizeof(line) - n, "%02x ", p[i]);
	pr_err("%016lx: %s\n", (unsigned long)p, line);
}

static bool poison_ratelimit(void)
{
	static struct pa_ratelimit rs = { .lock = __SPIN_LOCK_UNLOCKED(rs.lock) };

	return pa_ratelimit(&rs, "check_poison_mem", 10, 5 * NSEC_PER_SEC);
}

static void check_poison_mem(struct page *page, u8 *mem, size_t bytes)
{
	u8 *start = NULL, *end = NULL;

	for (size_t i = 0; i < bytes; i++) {
		if (mem[i] != PAGE_POISON) {
			if (!start)
				start = mem + i;
			end = mem + i;
		}
	}
	if (!start || !poison_ratelimit())
		return;
	if (start == end && __builtin_popcount(*start ^ PAGE_POISON) == 1)
		pr_err("pagealloc: single bit error\n");
	else
		pr_err("pagealloc: memory corruption\n");
	pr_err("pagealloc: %zu byte(s) from offset %#lx of pfn %#lx differ from 0x%02x\n",
	       (size_t)(end - start + 1), (unsigned long)(start - mem),
	       page_to_pfn(page), PAGE_POISON);
	for (u8 *p = start; p <= end && p < start + 64; p += 16)
		print_hex_line(p, min((size_t)16, (size_t)(end - p + 1)));
	dump_page(page, "pagealloc: corrupted page details");
	dump_stack();
}

void kernel_unpoison_pages(struct page *page, int numpages)
{
	/* The pages are still free to KASAN: reading their pattern is no bug. */
	kasan_disable_current();
	for (int i = 0; i < numpages; i++)
		check_poison_mem(page + i, page_address(page + i), PAGE_SIZE);
	kasan_enable_current();
}

void warn_alloc(gfp_t gfp_mask, const char *fmt, ...)
{
	char msg[96], gfp[160], comm[24];
	va_list args;

	if ((gfp_mask & __GFP_NOWARN) || !page_alloc_ratelimit())
		return;
	va_start(args, fmt);
	vsniprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_warn("%s: %s, mode:%#x(%s), nodemask=(null)\n", current_comm(comm, sizeof(comm)),
		msg, gfp_mask, format_gfp_flags(gfp, sizeof(gfp), gfp_mask));
	pr_warn("CPU: %d\n", smp_processor_id());
	dump_stack();
	show_free_areas();
}

/* --------------------------------------------------------- free memory */

#define K(pages)	((pages) << (PAGE_SHIFT - 10))

static unsigned long zone_pcp_pages(struct zone *zone)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += pcp_count(zone, cpu);
	return sum;
}

/* Free blocks per order of one zone, read under its lock. */
static void zone_free_counts(struct zone *zone, unsigned long nr[MAX_ORDER])
{
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	for (int o = 0; o < MAX_ORDER; o++)
		nr[o] = zone->free_area[o].nr_free;
	spin_unlock_irqrestore(&zone->lock, flags);
}

void show_free_areas(void)
{
	struct zone *zone;

	pr_info("Mem-Info:\n");
	for_each_populated_zone(zone) {
		unsigned long nr[MAX_ORDER], total = 0;
		char line[200];
		size_t n;

		pr_info("Node %d %s free:%lukB min:%lukB low:%lukB high:%lukB present:%lukB managed:%lukB free_pcp:%lukB\n",
			zone_to_nid(zone), zone->name, K(zone_page_state(zone, NR_FREE_PAGES)),
			K(min_wmark_pages(zone)), K(low_wmark_pages(zone)),
			K(high_wmark_pages(zone)), K(zone->present_pages),
			K(zone_managed_pages(zone)), K(zone_pcp_pages(zone)));
		pr_info("lowmem_reserve[]: %ld %ld\n", zone->lowmem_reserve[ZONE_DMA32],
			zone->lowmem_reserve[ZONE_NORMAL]);
		zone_free_counts(zone, nr);
		n = snprintf(line, sizeof(line), "Node %d %s:", zone_to_nid(zone), zone->name);
		for (int o = 0; o < MAX_ORDER && n < sizeof(line); o++) {
			n += snprintf(line + n, sizeof(line) - n, " %lu*%lukB", nr[o], K(1UL << o));
			total += nr[o] << o;
		}
		pr_info("%s = %lukB\n", line, K(total));
	}
	pr_info("%lu pages RAM\n", totalram_pages());
	pr_info("%lu pages free\n", nr_free_pages());
}

/*
 * One record per populated zone (DESIGN 8), page counts:
 * {"type":"meminfo","node":0,"zone":"DMA32","free":..,"min":..,"low":..,
 *  "high":..,"managed":..,"pcp":..,"nr_free":[order 0 .. order 10]}
 */
void meminfo_records(void)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long nr[MAX_ORDER];
		char json[RECORD_MAX_JSON + 1];
		size_t n;

		zone_free_counts(zone, nr);
		n = snprintf(json, sizeof(json),
			     "{\"type\":\"meminfo\",\"node\":%d,\"zone\":\"%s\",\"free\":%lu,"
			     "\"min\":%lu,\"low\":%lu,\"high\":%lu,\"managed\":%lu,\"pcp\":%lu,"
			     "\"nr_free\":[",
			     zone_to_nid(zone), zone->name, zone_page_state(zone, NR_FREE_PAGES),
			     min_wmark_pages(zone), low_wmark_pages(zone),
			     high_wmark_pages(zone), zone_managed_pages(zone),
			     zone_pcp_pages(zone));
		for (int o = 0; o < MAX_ORDER && n < sizeof(json); o++)
			n += snprintf(json + n, sizeof(json) - n, "%s%lu", o ? "," : "", nr[o]);
		if (n < sizeof(json))
			n += snprintf(json + n, sizeof(json) - n, "]}");
		if (n >= sizeof(json) || record_emit(json) < 0)
			pr_warn("meminfo: record for node %d %s does not fit\n",
				zone_to_nid(zone), zone->name);
	}
}

/*
 * Reschedule and function-call IPIs every CPU took so far: boot's cross-CPU
 * handshakes, a count that host speed hardly moves (unlike their time under
 * TCG).
 */
static unsigned long boot_ipis(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(irq_stat, cpu).irq_resched_count +
		     per_cpu(irq_stat, cpu).irq_call_count;
	return n;
}

/*
 * {"type":"mem_used","cpus":..,"ram_kb":..,"used_kb":..,"memmap_kb":..,
 *  "percpu_kb":..,"pgtable_kb":..,"slab_kb":..,"boot_ns":..,"ipis":..}
 * used_kb is RAM not free in the buddy lists or on the per-CPU lists:
 * everything the kernel holds, the parts named and the rest (image, stacks,
 * memblock leftovers).  boot_ns is ktime_get_ns() when it was taken (guest
 * instructions under icount).  ipis: boot_ipis().
 */
void mem_used_report(void)
{
	unsigned long long ram_kb = memblock_phys_mem_size() >> 10;
	unsigned long free = 0, named_kb, used_kb;
	unsigned long memmap_kb = (memmap_pages() * sizeof(struct page)) >> 10;
	unsigned long percpu_kb = K(pcpu_nr_pages());
	unsigned long pgtable_kb = K(kernel_pgtable_pages());
	unsigned long slab_kb = K((unsigned long)atomic_long_read(&slab_nr_pages));
	u64 now = ktime_get_ns();
	struct zone *zone;

	for_each_populated_zone(zone)
		free += zone_page_state(zone, NR_FREE_PAGES) + zone_pcp_pages(zone);
	used_kb = ram_kb - K(free);
	named_kb = memmap_kb + percpu_kb + pgtable_kb + slab_kb;
	pr_info("mm: kernel holds %luK of %lluK RAM with %u CPUs: memory map %luK, per-CPU %luK, page tables %luK, slab %luK, other %luK\n",
		used_kb, ram_kb, num_possible_cpus(), memmap_kb, percpu_kb, pgtable_kb,
		slab_kb, used_kb > named_kb ? used_kb - named_kb : 0);
	if (record_emitf("{\"type\":\"mem_used\",\"cpus\":%u,\"ram_kb\":%llu,\"used_kb\":%lu,"
			 "\"memmap_kb\":%lu,\"percpu_kb\":%lu,\"pgtable_kb\":%lu,"
			 "\"slab_kb\":%lu,\"boot_ns\":%llu,\"ipis\":%lu}",
			 num_possible_cpus(), ram_kb, used_kb, memmap_kb, percpu_kb,
			 pgtable_kb, slab_kb, (unsigned long long)now, boot_ipis()) < 0)
		pr_warn("mm: the mem_used record does not fit\n");
}
