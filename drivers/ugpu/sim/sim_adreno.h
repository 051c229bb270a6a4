/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the simulated a6xx (sim_adreno.c) and its GMU
 * (sim_adreno_gmu.c).
 */
#ifndef _UGPU_SIM_ADRENO_H_
#define _UGPU_SIM_ADRENO_H_

#include <linux/types.h>

struct a6xx_gmu;
struct sim_companion;
struct sim_device;

/* Lines of the a6xx's irq domain: GPU, SMMU, then the GMU's two. */
#define A6XX_SIM_IRQ_GPU	0
#define A6XX_SIM_IRQ_SMMU	1
#define A6XX_SIM_IRQ_HFI	2
#define A6XX_SIM_IRQ_GMU	3

/*
 * The GMU's stream of the adreno SMMU, as the gmu nodes of sc7180.dtsi and
 * sc7280.dtsi name it.
 */
#define A6XX_GMU_STREAM		5

/* GMU generations: the a618's (a630 family) and the a635's (a650 family). */
enum a6xx_gmu_gen {
	A6XX_GMU_A630,
	A6XX_GMU_A650,
};

extern const struct sim_companion a618_gmu_companion;
extern const struct sim_companion a635_gmu_companion;

int a6xx_gmu_create(struct sim_device *sdev, enum a6xx_gmu_gen gen,
		    struct a6xx_gmu **gmu);
void a6xx_gmu_destroy(struct a6xx_gmu *gmu);
bool a6xx_gmu_gx_on(struct a6xx_gmu *gmu);

struct a6xx_gmu *a6xx_gmu_of(struct sim_device *sdev);
void a6xx_gx_power_lost(struct sim_device *sdev);
int a6xx_gmu_translate(struct sim_device *sdev, u32 iova, bool write,
		       bool fetch, phys_addr_t *pa);

#endif /* _UGPU_SIM_ADRENO_H_ */
