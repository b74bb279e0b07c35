/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KCONFIG_H
#define _LINUX_KCONFIG_H

/*
 * IS_ENABLED(CONFIG_FOO): 1 if the option is set to y, else 0, usable in
 * C expressions so both branches are compiled and type-checked.  A set
 * option expands to 1; pasting it onto __cfg_probe_ gives a macro that
 * inserts an extra argument, which shifts 1 into the selected slot.
 */
#define __cfg_probe_1			0,
#define __cfg_pick_second(skip, val, ...) val
#define __cfg_test(junk_or_probe)	__cfg_pick_second(junk_or_probe 1, 0, 0)
#define __cfg_paste(val)		__cfg_test(__cfg_probe_##val)
#define IS_ENABLED(option)		__cfg_paste(option)

#endif
