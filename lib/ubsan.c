// SPDX-License-Identifier: GPL-2.0
/*
 * UBSAN's report handlers: the functions GCC's -fsanitize= checks call
 * when a check fails.  Each prints Linux's report (a rule of '=', "UBSAN:
 * <kind> in <file>:<line>:<column>", what was wrong, the task and a
 * backtrace, a closing rule) the first time a site fails and never again
 * for that site, and counts it: init fails a run with reports nobody
 * expected (include/linux/ubsan.h).
 *
 * Built without the checks itself (lib/Kbuild), and a report that runs
 * into undefined behaviour on its way (printk, the backtrace) is dropped
 * rather than nested: current->in_ubsan.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/ubsan.h>
#include <asm/bitops.h>
#include <asm/stacktrace.h>
#include <stdio.h>

#include "ubsan.h"

/* What the access was, indexed by type_mismatch_data_v1.type_check_kind. */
static const char * const type_check_kinds[] = {
	"load of", "store to", "reference binding to", "member access within",
	"member call on", "constructor call on", "downcast of", "downcast of",
};

/* The bit of source_location.reported that is line's top bit. */
#define UBSAN_REPORTED_BIT	31
#define UBSAN_LINE(loc)		((loc)->line & ~(1U << UBSAN_REPORTED_BIT))

/* Room for any value a check passes, 128-bit ones in hex included. */
#define UBSAN_VALUE_LEN		40

/*
 * True when this report must not be printed: the task is already inside
 * one, or this site has reported before.  The task test comes first so
 * that a nested failure leaves its site free to report later.
 */
static bool suppress_report(struct source_location *loc)
{
	if (current->in_ubsan)
		return true;
	return test_and_set_bit(UBSAN_REPORTED_BIT, &loc->reported);
}

static bool type_is_int(const struct type_descriptor *type)
{
	return type->type_kind == type_kind_int;
}

static bool type_is_signed(const struct type_descriptor *type)
{
	WARN_ON(!type_is_int(type));
	return type->type_info & 1;
}

static unsigned int type_bit_width(const struct type_descriptor *type)
{
	return 1U << (type->type_info >> 1);
}

/*
 * Values up to a long's width travel in the pointer argument itself;
 * wider ones (__int128) are passed by address.
 */
static bool is_inline_int(const struct type_descriptor *type)
{
	WARN_ON(!type_is_int(type));
	return type_bit_width(type) <= BITS_PER_LONG;
}

static s_max get_signed_val(const struct type_descriptor *type, void *val)
{
	if (is_inline_int(type)) {
		/* Sign-extend from the type's width through a shift pair. */
		unsigned int unused = sizeof(s_max) * 8 - type_bit_width(type);
		u_max bits = (u_max)(unsigned long)val << unused;

		return (s_max)bits >> unused;
	}
	return *(s_max *)val;
}

static u_max get_unsigned_val(const struct type_descriptor *type, void *val)
{
	if (is_inline_int(type))
		return (unsigned long)val;
	return *(u_max *)val;
}

static bool val_is_negative(const struct type_descriptor *type, void *val)
{
	return type_is_signed(type) && get_signed_val(type, val) < 0;
}

/* @str gets the value in decimal, or in hex for 128-bit types. */
static void val_to_string(char *str, size_t size, const struct type_descriptor *type,
			  void *value)
{
	u_max v;

	str[0] = '\0';
	if (!type_is_int(type))
		return;		/* floats: Linux prints nothing either */
	if (type_bit_width(type) == 128) {
		v = get_unsigned_val(type, value);
		snprintf(str, size, "0x%08x%08x%08x%08x", (u32)(v >> 96),
			 (u32)(v >> 64), (u32)(v >> 32), (u32)v);
	} else if (type_is_signed(type)) {
		snprintf(str, size, "%lld", (long long)get_signed_val(type, value));
	} else {
		snprintf(str, size, "%llu",
			 (unsigned long long)get_unsigned_val(type, value));
	}
}

#define UBSAN_RULE "================================================================================\n"

static void ubsan_prologue(struct source_location *loc, const char *kind)
{
	current->in_ubsan++;
	atomic_inc(&ubsan_report_count);
	pr_err(UBSAN_RULE);
	pr_err("UBSAN: %s in %s:%u:%u\n", kind, loc->file_name, UBSAN_LINE(loc),
	       loc->column);
}

/* Linux's dump_stack() starts with this line; irqlab's prints the trace only. */
static void ubsan_epilogue(void)
{
	pr_err("CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current->pid, current->comm);
	dump_stack();
	pr_err(UBSAN_RULE);
	current->in_ubsan--;
}

void __ubsan_handle_divrem_overflow(void *_data, void *lhs, void *rhs)
{
	struct overflow_data *data = _data;
	char lhs_str[UBSAN_VALUE_LEN];

	if (suppress_report(&data->location))
		return;
	ubsan_prologue(&data->location, "division-overflow");
	if (type_is_signed(data->type) && get_signed_val(data->type, rhs) == -1) {
		val_to_string(lhs_str, sizeof(lhs_str), data->type, lhs);
		pr_err("division of %s by -1 cannot be represented in type %s\n",
		       lhs_str, data->type->type_name);
	} else {
		pr_err("division by zero\n");
	}
	ubsan_epilogue();
}

static void handle_null_ptr_deref(struct type_mismatch_data_common *data)
{
	if (suppress_report(data->location))
		return;
	ubsan_prologue(data->location, "null-ptr-deref");
	pr_err("%s null pointer of type %s\n",
	       type_check_kinds[data->type_check_kind], data->type->type_name);
	ubsan_epilogue();
}

static void handle_misaligned_access(struct type_mismatch_data_common *data,
				     unsigned long ptr)
{
	if (suppress_report(data->location))
		return;
	ubsan_prologue(data->location, "misaligned-access");
	pr_err("%s misaligned address %p for type %s\n",
	       type_check_kinds[data->type_check_kind], (void *)ptr,
	       data->type->type_name);
	pr_err("which requires %lu byte alignment\n", data->alignment);
	ubsan_epilogue();
}

static void handle_object_size_mismatch(struct type_mismatch_data_common *data,
					unsigned long ptr)
{
	if (suppress_report(data->location))
		return;
	ubsan_prologue(data->location, "object-size-mismatch");
	pr_err("%s address %p with insufficient space\n",
	       type_check_kinds[data->type_check_kind], (void *)ptr);
	pr_err("for an object of type %s\n", data->type->type_name);
	ubsan_epilogue();
}

/* One entry for the null, alignment and object-size checks: which failed? */
void __ubsan_handle_type_mismatch_v1(void *_data, void *ptr)
{
	struct type_mismatch_data_v1 *data = _data;
	struct type_mismatch_data_common common = {
		.location = &data->location,
		.type = data->type,
		.alignment = 1UL << data->log_alignment,
		.type_check_kind = data->type_check_kind,
	};
	unsigned long addr = (unsigned long)ptr;

	if (!addr)
		handle_null_ptr_deref(&common);
	else if (common.alignment && !IS_ALIGNED(addr, common.alignment))
		handle_misaligned_access(&common, addr);
	else
		handle_object_size_mismatch(&common, addr);
}

void __ubsan_handle_out_of_bounds(void *_data, void *index)
{
	struct out_of_bounds_data *data = _data;
	char index_str[UBSAN_VALUE_LEN];

	if (suppress_report(&data->location))
		return;
	ubsan_prologue(&data->location, "array-index-out-of-bounds");
	val_to_string(index_str, sizeof(index_str), data->index_type, index);
	pr_err("index %s is out of range for type %s\n", index_str,
	       data->array_type->type_name);
	ubsan_epilogue();
}

/* The four ways a shift goes wrong, tested in the order C's rules list them. */
void __ubsan_handle_shift_out_of_bounds(void *_data, void *lhs, void *rhs)
{
	struct shift_out_of_bounds_data *data = _data;
	struct type_descriptor *lt = data->lhs_type, *rt = data->rhs_type;
	char lhs_str[UBSAN_VALUE_LEN], rhs_str[UBSAN_VALUE_LEN];

	if (suppress_report(&data->location))
		return;
	ubsan_prologue(&data->location, "shift-out-of-bounds");
	val_to_string(lhs_str, sizeof(lhs_str), lt, lhs);
	val_to_string(rhs_str, sizeof(rhs_str), rt, rhs);
	if (val_is_negative(rt, rhs))
		pr_err("shift exponent %s is negative\n", rhs_str);
	else if (get_unsigned_val(rt, rhs) >= type_bit_width(lt))
		pr_err("shift exponent %s is too large for %u-bit type %s\n",
		       rhs_str, type_bit_width(lt), lt->type_name);
	else if (val_is_negative(lt, lhs))
		pr_err("left shift of negative value %s\n", lhs_str);
	else
		pr_err("left shift of %s by %s places cannot be represented in type %s\n",
		       lhs_str, rhs_str, lt->type_name);
	ubsan_epilogue();
}

/*
 * Control went where the compiler was promised it never would: what
 * follows in the object code is garbage, so the report is printed every
 * time (there is no second time) and the kernel stops.
 */
void __ubsan_handle_builtin_unreachable(void *_data)
{
	struct unreachable_data *data = _data;

	ubsan_prologue(&data->location, "unreachable");
	pr_err("calling __builtin_unreachable()\n");
	ubsan_epilogue();
	panic("can't return from __builtin_unreachable()");
}

/* A bool that is neither 0 nor 1, an enum outside its enumerators' range. */
void __ubsan_handle_load_invalid_value(void *_data, void *val)
{
	struct invalid_value_data *data = _data;
	char val_str[UBSAN_VALUE_LEN];

	if (suppress_report(&data->location))
		return;
	ubsan_prologue(&data->location, "invalid-load");
	val_to_string(val_str, sizeof(val_str), data->type, val);
	pr_err("load of value %s is not a valid value for type %s\n", val_str,
	       data->type->type_name);
	ubsan_epilogue();
}
