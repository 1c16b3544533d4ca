/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNIT_LINUX_BUILD_BUG_H
#define _UNIT_LINUX_BUILD_BUG_H

/* Stricter than the kernel's: the condition must be an integer constant. */
#define BUILD_BUG_ON_MSG(cond, msg)	_Static_assert(!(cond), msg)
#define BUILD_BUG_ON(cond)	BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))
#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif
