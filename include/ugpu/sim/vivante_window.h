/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The register window of the simulated Vivante cores: a choice of this
 * project, not a hardware fact. The simulated host interface answers up
 * to VIV_MAX_REGISTER, which covers every AHB register it models; boards
 * map a larger region (16 KiB for the i.MX6's cores).
 */
#ifndef _UGPU_SIM_VIVANTE_WINDOW_H_
#define _UGPU_SIM_VIVANTE_WINDOW_H_

/* Highest AHB register of the simulated window. */
#define VIV_MAX_REGISTER		0x0ffc

#endif /* _UGPU_SIM_VIVANTE_WINDOW_H_ */
