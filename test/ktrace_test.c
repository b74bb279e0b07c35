// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace (kernel/trace/ktrace.c): a hand-written sequence of known length
 * is counted exactly, with its IRQ-off steps, its callee and a pushf/popf
 * that keeps TF; a popf that clears TF and a buffer too small are
 * reported, not hidden; under icount the trace agrees with the TSC to the
 * instruction.  Then SLUB's alloc+free pair: its path is counted, agrees
 * with icount, and stays within ktrace.pair_max (the entries pass issue
 * 21's targets, default 70 and legacy 78, and rt 316: its 250 needs more
 * than Linux's structure allows, see test/unittests.cfg).
 */
#include <linux/ktest.h>
#include <linux/ktrace.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/moduleparam.h>
#include <linux/irqflags.h>
#include <asm/processor.h>

static unsigned int ktrace_pair_max;
core_param_range("ktrace.pair_max", ktrace_pair_max, uint, 0, 100000,
		 "ktrace suite: most instructions an alloc+free pair may take (0: not checked)");

/*
 * 21 instructions: 1 + 4 * 3 (loop) + call + 2 (callee) + pushf + popf
 * + cli + sti + ret.  The step about to run sti is the only one with IRQs
 * off; the ret after sti runs in sti's interrupt shadow, where no step
 * trap is delivered, and must be counted all the same.  Called with IRQs
 * on.
 */
#define KT_SEQ_STEPS	21
#define KT_SEQ_CALLEE	2
void kt_seq(void *arg);
void kt_seq_callee(void);
/* Clears TF with popf half-way: the trace must come back lost. */
void kt_drop_tf(void *arg);
asm(
"	.pushsection .text\n"
"	.globl	kt_seq\n"
"	.type	kt_seq, @function\n"
"kt_seq:\n"
"	movl	$4, %ecx\n"
"1:	nop\n"
"	decl	%ecx\n"
"	jnz	1b\n"
"	call	kt_seq_callee\n"
"	pushfq\n"
"	popfq\n"
"	cli\n"
"	sti\n"
"	ret\n"
"	.size	kt_seq, . - kt_seq\n"
"	.globl	kt_seq_callee\n"
"	.type	kt_seq_callee, @function\n"
"kt_seq_callee:\n"
"	xorl	%eax, %eax\n"
"	ret\n"
"	.size	kt_seq_callee, . - kt_seq_callee\n"
"	.globl	kt_drop_tf\n"
"	.type	kt_drop_tf, @function\n"
"kt_drop_tf:\n"
"	pushfq\n"
"	andq	$~0x100, (%rsp)\n"
"	popfq\n"
"	nop\n"
"	ret\n"
"	.size	kt_drop_tf, . - kt_drop_tf\n"
"	.popsection\n");

static void ktrace_known_sequence(struct ktest *t)
{
	struct ktrace *kt = ktrace_alloc(64);
	unsigned int off = 0;

	KTEST_ASSERT_TRUE(t, kt);
	KTEST_ASSERT_TRUE(t, !irqs_disabled());
	KTEST_EXPECT_EQ(t, ktrace_call(kt, kt_seq, NULL), 0);
	KTEST_EXPECT_EQ(t, ktrace_total(kt), KT_SEQ_STEPS);
	KTEST_EXPECT_EQ(t, kt->overflow, 0);
	KTEST_EXPECT_FALSE(t, kt->lost);
	KTEST_EXPECT_EQ(t, kt->foreign, 0);
	KTEST_EXPECT_EQ(t, ktrace_count_fn(kt, "kt_seq_callee"), KT_SEQ_CALLEE);
	KTEST_EXPECT_EQ(t, ktrace_count_fn(kt, "kt_seq"), KT_SEQ_STEPS - KT_SEQ_CALLEE);
	KTEST_EXPECT_EQ(t, kt->ip[0], (unsigned long)kt_seq);
	for (unsigned int i = 0; i < kt->nr; i++)
		off += !!(kt->state[i] & KTRACE_IRQS_OFF);
	KTEST_EXPECT_EQ(t, off, 1);
	KTEST_EXPECT_EQ(t, kt->irqs_off, 1);
	KTEST_EXPECT_EQ(t, kt->preempt_off, 0);
	/* IF is back on and TF did not leak into the caller. */
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_EQ(t, native_save_fl() & X86_EFLAGS_TF, 0);
	ktrace_report(kt, "known_sequence");
	ktrace_free(kt);
}

static void ktrace_overflow_counted(struct ktest *t)
{
	struct ktrace *kt = ktrace_alloc(5);

	KTEST_ASSERT_TRUE(t, kt);
	KTEST_EXPECT_EQ(t, ktrace_call(kt, kt_seq, NULL), -EIO);
	KTEST_EXPECT_EQ(t, kt->nr, 5);
	KTEST_EXPECT_EQ(t, kt->overflow, KT_SEQ_STEPS - 5);
	KTEST_EXPECT_EQ(t, ktrace_total(kt), KT_SEQ_STEPS);
	ktrace_free(kt);
}

static void ktrace_lost_tf_reported(struct ktest *t)
{
	struct ktrace *kt = ktrace_alloc(64);

	KTEST_ASSERT_TRUE(t, kt);
	KTEST_EXPECT_EQ(t, ktrace_call(kt, kt_drop_tf, NULL), -EIO);
	KTEST_EXPECT_TRUE(t, kt->lost);
	/*
	 * pushf, andq, popf and nop were stored (the step after the popf
	 * that cleared TF is still taken); the ret ran untraced.
	 */
	KTEST_EXPECT_EQ(t, kt->nr, 4);
	ktrace_free(kt);
}

struct kt_nested {
	struct ktrace *inner;
	int ret;
};

static noinline void kt_nested_op(void *arg)
{
	struct kt_nested *n = arg;

	n->ret = ktrace_call(n->inner, kt_seq, NULL);
}

/* One trace at a time: a trace started inside a trace is refused. */
static void ktrace_busy(struct ktest *t)
{
	struct ktrace *kt = ktrace_alloc(4096);
	struct kt_nested n = { .inner = ktrace_alloc(64), .ret = 1 };

	KTEST_ASSERT_TRUE(t, kt && n.inner);
	KTEST_EXPECT_EQ(t, ktrace_call(kt, kt_nested_op, &n), 0);
	KTEST_EXPECT_EQ(t, n.ret, -EBUSY);
	KTEST_EXPECT_EQ(t, ktrace_count_fn(kt, "kt_seq"), 0);
	ktrace_free(kt);
	ktrace_free(n.inner);
}

/* Under icount the TSC counts instructions: the same count, untraced. */
static void ktrace_matches_icount(struct ktest *t)
{
	if (!ktest_exact_time)
		ktest_skip(t, "needs icount (ktest.exact_time=1)");
	KTEST_EXPECT_EQ(t, ktrace_clock(kt_seq, NULL, 4), KT_SEQ_STEPS);
}

struct kt_pair {
	struct kmem_cache *s;
	void *obj;
};

/* The traced operation: one alloc+free pair, nothing else. */
static noinline void kt_pair_op(void *arg)
{
	struct kt_pair *p = arg;

	p->obj = kmem_cache_alloc(p->s, GFP_KERNEL);
	kmem_cache_free(p->s, p->obj);
}

static void ktrace_slab_pair(struct ktest *t)
{
	struct kt_pair p = { };
	unsigned long total, own, pair;
	struct ktrace *kt;

	if (IS_ENABLED(CONFIG_KASAN))
		ktest_skip(t, "KASAN's hooks and checks are not in the instruction budget");
	kt = ktrace_alloc(8192);

	KTEST_ASSERT_TRUE(t, kt);
	p.s = kmem_cache_create("ktrace_test", 256, 0, 0, NULL);
	KTEST_ASSERT_TRUE(t, p.s);
	/* Warm up: the CPU slab and its freelist are in place. */
	for (int i = 0; i < 100; i++)
		kt_pair_op(&p);
	KTEST_EXPECT_EQ(t, ktrace_call(kt, kt_pair_op, &p), 0);
	KTEST_EXPECT_TRUE(t, p.obj);
	total = ktrace_total(kt);
	own = ktrace_count_fn(kt, "kt_pair_op");
	pair = total - own;
	ktrace_report(kt, "ktrace_test_pair");
	ktest_info(t, "alloc+free pair %lu instructions (+%lu in the caller), limit %u",
		   pair, own, ktrace_pair_max);
	KTEST_EXPECT_GT(t, ktrace_count_fn(kt, "kmem_cache_alloc"), 0);
	KTEST_EXPECT_GT(t, ktrace_count_fn(kt, "kmem_cache_free"), 0);
	if (ktrace_pair_max)
		KTEST_EXPECT_LE(t, pair, ktrace_pair_max);
	if (ktest_exact_time)
		KTEST_EXPECT_EQ(t, ktrace_clock(kt_pair_op, &p, 8), total);
	ktrace_free(kt);
	kmem_cache_destroy(p.s);
}

static struct ktest_case ktrace_cases[] = {
	KTEST_CASE(ktrace_known_sequence),
	KTEST_CASE(ktrace_overflow_counted),
	KTEST_CASE(ktrace_lost_tf_reported),
	KTEST_CASE(ktrace_busy),
	KTEST_CASE(ktrace_matches_icount),
	KTEST_CASE(ktrace_slab_pair),
	{}
};

static struct ktest_suite ktrace_suite = { .name = "ktrace", .cases = ktrace_cases };
ktest_register_suite(ktrace_suite);
