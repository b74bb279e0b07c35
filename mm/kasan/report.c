// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN reports, in Linux 5.15's format (mm/kasan/report.c) so that the
 * same eyes and scripts read them:
 *
 *   ==================================================================
 *   BUG: KASAN: use-after-free in f+0x4f/0x120
 *   Read of size 8 at addr ffff888001234560 by task init/1
 *   <CPU line, backtrace>
 *   <what the address belongs to: a slab object, a page, a variable>
 *   Memory state around the buggy address:
 *   <five rows of shadow, the buggy one marked '>' and '^'>
 *   ==================================================================
 *
 * Only the first report is printed unless kasan_multi_shot is on the
 * command line (or a test asked for kasan_save_enable_multi_shot()); each
 * printed report counts against the run's verdict (init/main.c) unless a
 * test expected it and took it back.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slub_def.h>
#include <linux/spinlock.h>
#include <asm/sections.h>
#include <asm/stacktrace.h>
#include "kasan.h"

static bool kasan_multi_shot;
core_param("kasan_multi_shot", kasan_multi_shot, bool,
	   "print every KASAN report, not only the first one");

/* Set once the single report of the default mode has been printed. */
static unsigned long kasan_reported;
unsigned long kasan_reports;

static DEFINE_RAW_SPINLOCK(report_lock);

unsigned long kasan_report_count(void)
{
	return READ_ONCE(kasan_reports);
}

bool kasan_save_enable_multi_shot(void)
{
	bool old = kasan_multi_shot;

	WRITE_ONCE(kasan_multi_shot, true);
	return old;
}

void kasan_restore_multi_shot(bool enabled)
{
	WRITE_ONCE(kasan_multi_shot, enabled);
}

void kasan_disable_current(void)
{
	current->kasan_depth++;
}

void kasan_enable_current(void)
{
	current->kasan_depth--;
}

static bool report_enabled(void)
{
	if (current->kasan_depth)
		return false;
	if (READ_ONCE(kasan_multi_shot))
		return true;
	return !test_and_set_bit(0, &kasan_reported);
}

static void start_report(unsigned long *flags)
{
	/* The report's own accesses (printk, the unwinder) must not recurse. */
	kasan_disable_current();
	raw_spin_lock_irqsave(&report_lock, *flags);
	pr_err("==================================================================\n");
}

static void end_report(unsigned long *flags)
{
	pr_err("==================================================================\n");
	kasan_reports++;
	raw_spin_unlock_irqrestore(&report_lock, *flags);
	kasan_enable_current();
}

static void print_error_description(struct kasan_access_info *info)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, info->ip);
	pr_err("BUG: KASAN: %s in %s\n", kasan_get_bug_type(info), sym);
	/* irqlab's printk has no %px: the same 16 hex digits. */
	pr_err("%s of size %zu at addr %016lx by task %s/%d\n",
	       info->is_write ? "Write" : "Read", info->access_size,
	       (unsigned long)info->access_addr, current->comm, current->pid);
}

/* Linux's dump_stack_lvl() header, then irqlab's backtrace. */
static void print_stack(void)
{
	pr_err("CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(), current->pid,
	       current->comm);
	dump_stack();
}

static bool kernel_image_addr(const void *addr)
{
	return addr >= (void *)_text && addr < (void *)_end;
}

static bool boot_stack_addr(const void *addr)
{
	extern char boot_stack_bottom[], boot_stack_top[];

	return addr >= (void *)boot_stack_bottom && addr < (void *)boot_stack_top;
}

struct page *kasan_addr_to_page(const void *addr)
{
	if (virt_addr_valid(addr))
		return virt_to_head_page(addr);
	return NULL;
}

static void print_address_description(const void *addr)
{
	struct page *page = kasan_addr_to_page(addr);

	print_stack();
	pr_err("\n");
	if (page && PageSlab(page)) {
		struct kmem_cache *cache = page->slab_cache;
		/* The object whose slot holds @addr (the last one for the tail). */
		void *object = nearest_obj(cache, page, (void *)addr);

		kasan_print_slab_object(cache, object, addr);
		pr_err("\n");
	}
	/* Not the boot stack, CPU 0's idle stack (Linux's init_task_stack_addr()). */
	if (kernel_image_addr(addr) && !boot_stack_addr(addr)) {
		char sym[KSYM_SYMBOL_LEN];

		sprint_symbol(sym, (unsigned long)addr);
		pr_err("The buggy address belongs to the variable:\n");
		pr_err(" %s\n", sym);
	}
	if (page) {
		pr_err("The buggy address belongs to the page:\n");
		dump_page(page, "kasan: bad access detected");
	}
	kasan_print_address_stack_frame(addr);
}

/* Column of the caret under the shadow byte of @addr in its row. */
static int meta_pointer_offset(const void *row, const void *addr)
{
	/* ">" or " ", 16 hex digits, ": ", then 3 characters per byte. */
	return 1 + 16 + 2 + ((addr - row) / KASAN_GRANULE_SIZE) * 3 + 1;
}

static void print_memory_metadata(const void *addr)
{
	const void *row = (void *)(ALIGN_DOWN((unsigned long)addr, META_MEM_BYTES_PER_ROW) -
				   META_ROWS_AROUND_ADDR * META_MEM_BYTES_PER_ROW);

	pr_err("Memory state around the buggy address:\n");
	for (int i = -META_ROWS_AROUND_ADDR; i <= META_ROWS_AROUND_ADDR; i++) {
		const u8 *shadow = kasan_mem_to_shadow(row);
		char line[1 + 16 + 2 + META_BYTES_PER_ROW * 3 + 1];
		int n;

		n = snprintf(line, sizeof(line), "%s%016lx:", i == 0 ? ">" : " ",
			     (unsigned long)row);
		for (int b = 0; b < META_BYTES_PER_ROW; b++)
			n += snprintf(line + n, sizeof(line) - n, " %02x", shadow[b]);
		pr_err("%s\n", line);
		if (i == 0)
			pr_err("%*c\n", meta_pointer_offset(row, addr), '^');
		row += META_MEM_BYTES_PER_ROW;
	}
}

static void __kasan_report(unsigned long addr, size_t size, bool is_write,
			   unsigned long ip)
{
	struct kasan_access_info info = {
		.access_addr = (void *)addr,
		.access_size = size,
		.is_write = is_write,
		.ip = ip,
	};
	unsigned long flags;

	info.first_bad_addr = addr_has_metadata((void *)addr) ?
			      kasan_find_first_bad_addr((void *)addr, size) : (void *)addr;
	start_report(&flags);
	print_error_description(&info);
	pr_err("\n");
	if (addr_has_metadata((void *)addr)) {
		print_address_description((void *)addr);
		pr_err("\n");
		print_memory_metadata(info.first_bad_addr);
	} else {
		print_stack();
	}
	end_report(&flags);
}

bool kasan_report(unsigned long addr, size_t size, bool is_write, unsigned long ip)
{
	if (!report_enabled())
		return false;
	__kasan_report(addr, size, is_write, ip);
	return true;
}

void kasan_report_invalid_free(void *object, unsigned long ip)
{
	unsigned long flags;
	char sym[KSYM_SYMBOL_LEN];

	if (!report_enabled())
		return;
	sprint_symbol(sym, ip);
	start_report(&flags);
	pr_err("BUG: KASAN: double-free or invalid-free in %s\n", sym);
	pr_err("\n");
	print_address_description(object);
	pr_err("\n");
	print_memory_metadata(object);
	end_report(&flags);
}
