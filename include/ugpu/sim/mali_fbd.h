/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The framebuffer descriptor of the simulated Mali GPUs: a format of this
 * project, not the hardware's. A fragment job's payload and the flags in
 * the low bits of its descriptor pointer are hardware facts
 * (include/ugpu/hw/mali_regs.h); what the pointer points at is not. Real
 * Midgard and Bifrost framebuffer descriptors (single- and multi-target)
 * are far larger, carry tiler, render-target and z/s descriptors of their
 * own layout, and are written by user space, which the kernel does not
 * parse. The simulated GPU has no tiler or shader cores: it reads this
 * 32-byte subset and fills the fragment job's tiles with the clear colour
 * (Documentation/simulator.rst).
 *
 * Shared by the simulator, which reads it, and by the tests and tools
 * that write it; the driver knows nothing of it. A check that depends on
 * it checks the simulator; on a board the same job needs a descriptor
 * built by a real user-space driver (Mesa's panfrost) for that GPU.
 */
#ifndef _UGPU_SIM_MALI_FBD_H_
#define _UGPU_SIM_MALI_FBD_H_

#define MALI_FBD_FORMAT			0x00
#define   MALI_FBD_FORMAT_BGRA8888	0x1
#define MALI_FBD_SIZE			0x04	/* (width-1) | (height-1) << 16 */
#define MALI_FBD_CLEAR_COLOR		0x08	/* BGRA8888 */
#define MALI_FBD_RT_BASE		0x10	/* u64 GPU address */
#define MALI_FBD_RT_STRIDE		0x18	/* bytes per row */
#define MALI_FBD_SIZE_BYTES		0x20

#endif /* _UGPU_SIM_MALI_FBD_H_ */
