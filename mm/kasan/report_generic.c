// SPDX-License-Identifier: GPL-2.0
/*
 * The generic mode's part of a report: where in an access the first
 * poisoned byte is, and what the shadow value there says the bug is.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include "kasan.h"

/*
 * The first granule of the access whose shadow is not zero, as Linux
 * does: a partial granule counts, get_shadow_bug_type() then looks past
 * it.
 */
void *kasan_find_first_bad_addr(void *addr, size_t size)
{
	void *p = addr;

	while (p < addr + size && !*(u8 *)kasan_mem_to_shadow(p))
		p += KASAN_GRANULE_SIZE;
	return p;
}

static const char *get_shadow_bug_type(struct kasan_access_info *info)
{
	u8 *shadow = kasan_mem_to_shadow(info->first_bad_addr);

	/*
	 * A partial granule's value counts valid bytes, it names no bug: the
	 * bad byte is past them, so the next granule's value says what lies
	 * there.
	 */
	if (*shadow > 0 && *shadow <= KASAN_GRANULE_SIZE - 1)
		shadow++;

	switch (*shadow) {
	case 0 ... KASAN_GRANULE_SIZE - 1:
		/* Accessible memory after a partial granule: out of bounds. */
		return "out-of-bounds";
	case KASAN_PAGE_REDZONE:
	case KASAN_KMALLOC_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case KASAN_STACK_LEFT:
	case KASAN_STACK_MID:
	case KASAN_STACK_RIGHT:
	case KASAN_STACK_PARTIAL:
		return "stack-out-of-bounds";
	case KASAN_FREE_PAGE:
	case KASAN_KMALLOC_FREE:
	case KASAN_KMALLOC_FREETRACK:
		return "use-after-free";
	case KASAN_VMALLOC_INVALID:
		return "vmalloc-out-of-bounds";
	case KASAN_ALLOCA_LEFT:
	case KASAN_ALLOCA_RIGHT:
		return "alloca-out-of-bounds";
	}
	return "unknown-crash";
}

/* Addresses without a shadow: the user half, or NULL plus a small offset. */
static const char *get_wild_bug_type(struct kasan_access_info *info)
{
	unsigned long addr = (unsigned long)info->access_addr;

	if (addr < PAGE_SIZE)
		return "null-ptr-deref";
	if (addr < 0x00007ffffffff000UL)
		return "user-memory-access";
	return "wild-memory-access";
}

const char *kasan_get_bug_type(struct kasan_access_info *info)
{
	/* An access that wraps around the address space is out of bounds. */
	if ((unsigned long)info->access_addr + info->access_size <
	    (unsigned long)info->access_addr)
		return "out-of-bounds";
	if (addr_has_metadata(info->first_bad_addr))
		return get_shadow_bug_type(info);
	return get_wild_bug_type(info);
}

#ifdef CONFIG_KASAN_STACK
/*
 * The frame description the compiler leaves for each instrumented frame:
 *	"<n> <offset> <size> <name length> <name>[:<line>] ..."
 * one quadruple per variable, offsets from the frame's base.  Reads a
 * decimal number and the space after it; false if there is none.
 */
static bool frame_descr_number(const char **p, unsigned long *v)
{
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	for (*v = 0; *s >= '0' && *s <= '9'; s++)
		*v = *v * 10 + (*s - '0');
	if (*s == ' ')
		s++;
	*p = s;
	return true;
}

static void print_frame_descr(const char *descr)
{
	unsigned long n, off, size, len;

	if (!frame_descr_number(&descr, &n))
		return;
	pr_err("\n");
	pr_err("this frame has %lu %s:\n", n, n == 1 ? "object" : "objects");
	while (n--) {
		char name[64];
		unsigned long i;

		if (!frame_descr_number(&descr, &off) || !frame_descr_number(&descr, &size) ||
		    !frame_descr_number(&descr, &len)) {
			pr_err("KASAN internal error: bad frame description\n");
			return;
		}
		/* The name, without the line number the compiler appends. */
		for (i = 0; i < len && descr[i] && descr[i] != ':' && i < sizeof(name) - 1; i++)
			name[i] = descr[i];
		name[i] = '\0';
		for (i = 0; i < len && descr[i]; i++)
			;
		descr += i;
		if (*descr == ' ')
			descr++;
		pr_err(" [%lu, %lu) '%s'\n", off, off + size, name);
	}
}

/*
 * A bad address on the current task's stack: walk the shadow down from
 * it to the left red zone of its frame (KASAN_STACK_LEFT, the lowest
 * granules of every instrumented frame); the frame's base, just above,
 * holds the magic, the description and the function's address.
 */
void kasan_print_address_stack_frame(const void *addr)
{
	struct task_struct *task = current;
	unsigned long bottom, granule;
	const unsigned long *frame;
	const u8 *shadow;

	if (!task || !task->stack)
		return;
	bottom = (unsigned long)task->stack;
	if ((unsigned long)addr < bottom || (unsigned long)addr >= bottom + task->stack_size)
		return;
	granule = round_down((unsigned long)addr, KASAN_GRANULE_SIZE);
	shadow = kasan_mem_to_shadow((void *)granule);
	while (granule >= bottom && *shadow != KASAN_STACK_LEFT) {
		shadow--;
		granule -= KASAN_GRANULE_SIZE;
	}
	while (granule >= bottom && *shadow == KASAN_STACK_LEFT) {
		shadow--;
		granule -= KASAN_GRANULE_SIZE;
	}
	if (granule < bottom)
		return;
	frame = (const unsigned long *)(granule + KASAN_GRANULE_SIZE);
	if (frame[0] != KASAN_CURRENT_STACK_FRAME_MAGIC) {
		pr_err("KASAN internal error: no frame marker below the address (%lx)\n", frame[0]);
		return;
	}
	pr_err("\n");
	pr_err("addr %016lx is located in stack of task %s/%d at offset %lu in frame:\n",
	       (unsigned long)addr, task->comm, task->pid,
	       (unsigned long)addr - (unsigned long)frame);
	{
		char sym[KSYM_SYMBOL_LEN];

		sprint_symbol(sym, frame[2]);
		pr_err(" %s\n", sym);
	}
	if (frame[1])
		print_frame_descr((const char *)frame[1]);
}
#endif
