/* SPDX-License-Identifier: MIT */
/*
 * Userspace stand-in for the kernel's <linux/bits.h>, which the hardware
 * headers in include/ugpu/hw/ include for BIT() and BIT_ULL(). Only the
 * ugpu tests put this directory on the include path.
 */
#ifndef UGPU_SHIM_LINUX_BITS_H
#define UGPU_SHIM_LINUX_BITS_H

#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)	(1ULL << (n))
#endif

#endif /* UGPU_SHIM_LINUX_BITS_H */
