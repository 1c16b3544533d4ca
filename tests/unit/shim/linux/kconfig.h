/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IS_ENABLED() and friends as include/linux/kconfig.h, which Kbuild puts
 * before every file (-include): an option is a macro defined to 1 (y) or
 * not defined at all (n), and a module's option is OPTION_MODULE.  The
 * tests set an option with -D on the compiler's command line, as
 * autoconf.h would (the Makefile: -DCONFIG_ZPOOL for the kernels that have
 * zswap's zpool layer).
 */
#ifndef _UNIT_LINUX_KCONFIG_H
#define _UNIT_LINUX_KCONFIG_H

#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val

#define __and(x, y)			___and(x, y)
#define ___and(x, y)			____and(__ARG_PLACEHOLDER_##x, y)
#define ____and(arg1_or_junk, y)	__take_second_arg(arg1_or_junk y, 0)

#define __or(x, y)			___or(x, y)
#define ___or(x, y)			____or(__ARG_PLACEHOLDER_##x, y)
#define ____or(arg1_or_junk, y)		__take_second_arg(arg1_or_junk 1, y)

#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)

#define IS_BUILTIN(option)		__is_defined(option)
#define IS_MODULE(option)		__is_defined(option##_MODULE)
#define IS_ENABLED(option)		__or(IS_BUILTIN(option), IS_MODULE(option))
#define IS_REACHABLE(option)		__or(IS_BUILTIN(option),	\
					     __and(IS_MODULE(option),	\
						   __is_defined(MODULE)))

#endif
