/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Adreno a6xx GMU as the driver uses it: the processor that owns the
 * GPU's power on boards that have one (the a618 and its legacy firmware).
 */
#ifndef _UGPU_ADRENO_GMU_H_
#define _UGPU_ADRENO_GMU_H_

#include <linux/types.h>

struct adreno_device;
struct adreno_gmu;
struct device;

int adreno_gmu_init(struct adreno_device *adev);
void adreno_gmu_fini(struct adreno_device *adev);
int adreno_gmu_resume(struct adreno_gmu *gmu);
void adreno_gmu_suspend(struct adreno_gmu *gmu);
int adreno_gmu_recover(struct adreno_gmu *gmu);
int adreno_gmu_gpu_hold(struct adreno_gmu *gmu);
void adreno_gmu_gpu_release(struct adreno_gmu *gmu);
int adreno_gmu_set_rate(struct device *dev, unsigned long rate);
unsigned long adreno_gmu_get_rate(struct device *dev);
void adreno_gmu_debugfs_init(struct adreno_device *adev);

#endif /* _UGPU_ADRENO_GMU_H_ */
