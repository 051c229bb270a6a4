/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware headers are shared with the kernel and use its BIT()
 * helpers; userspace has no <linux/bits.h> with them.
 */
#ifndef _UGPU_TOOLS_LINUX_BITS_H_
#define _UGPU_TOOLS_LINUX_BITS_H_

#define BIT(n)		(1UL << (n))
#define BIT_ULL(n)	(1ULL << (n))

#endif
