/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's fault_attr framework is not here: the tests build what a
 * kernel without CONFIG_FAULT_INJECTION_DEBUG_FS builds (Debian's, which
 * the test rig runs), and code that has the framework's fallback uses none
 * of it.  Built with it, a test would silently test the other half.
 */
#ifndef _UNIT_LINUX_FAULT_INJECT_H
#define _UNIT_LINUX_FAULT_INJECT_H

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
#error "no fault_attr framework in the unit tests: build without CONFIG_FAULT_INJECTION_DEBUG_FS"
#endif

struct fault_attr;

#endif
