/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the simulated Adreno a6xx puts its SMMU: a choice of this
 * project, not a fact of the GPU. On boards the GPU's SMMU (the
 * adreno-smmu, an arm-smmu) is a device of its own, with its own MMIO
 * region and interrupt, wherever the SoC puts it: on SC7180 (a618) its
 * region starts right after the GPU's 256 KiB of registers, on SC7280
 * (a635) 640 KiB after them. The simulated a6xx has one register window
 * for both models: the GPU's registers, then context bank 0 of its SMMU
 * right after them (SC7180's layout), and its CP's register packets
 * reach the bank there too (A6XX_SMMU_REG()). The context bank's layout
 * itself is the arm-smmu architecture's (SMMU_CB_* in
 * include/ugpu/hw/adreno_regs.h).
 *
 * The driver reaches the context bank at A6XX_SMMU_WINDOW; a board needs
 * the adreno-smmu's region mapped instead. A test that names an SMMU
 * register by A6XX_SMMU_REG() checks the simulator's layout.
 */
#ifndef _UGPU_SIM_ADRENO_SMMU_H_
#define _UGPU_SIM_ADRENO_SMMU_H_

#include <ugpu/hw/adreno_regs.h>

/* Size of the simulated register file, in dwords. */
#define A6XX_NUM_REGS			0x10000

/* Byte offset and size of the SMMU context bank in the register window. */
#define A6XX_SMMU_WINDOW		A6XX_MMIO(A6XX_NUM_REGS)
#define A6XX_SMMU_WINDOW_SIZE		0x1000
/* The register number of an SMMU register, as the CP's packets name it. */
#define A6XX_SMMU_REG(off)		(A6XX_NUM_REGS + (off) / 4)

#endif /* _UGPU_SIM_ADRENO_SMMU_H_ */
