/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * BIT() and BIT_ULL() for the hardware headers, which the driver, the
 * simulated GPUs, the tests and the tools share: the kernel's own in the
 * kernel; user space has no <linux/bits.h>, and a library may define
 * BIT() itself.
 */
#ifndef _UGPU_HW_UGPU_BITS_H_
#define _UGPU_HW_UGPU_BITS_H_

#ifdef __KERNEL__
#include <linux/bits.h>
#else
#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)	(1ULL << (n))
#endif
#endif

#endif /* _UGPU_HW_UGPU_BITS_H_ */
