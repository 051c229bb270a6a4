/* SPDX-License-Identifier: MIT */
/*
 * The hardware descriptions of include/ugpu/hw/ in userspace, and the
 * Mali facts the tests need beyond them.
 */
#ifndef UGPU_HW_H
#define UGPU_HW_H

#include <ugpu/hw/mali_regs.h>

/* JS_FEATURES bits: which job types a Mali job slot runs. */
#define MALI_JS_FEATURE_NULL_JOB	BIT(1)
#define MALI_JS_FEATURE_SET_VALUE_JOB	BIT(2)
#define MALI_JS_FEATURE_CACHE_FLUSH_JOB	BIT(3)
#define MALI_JS_FEATURE_COMPUTE_JOB	BIT(4)
#define MALI_JS_FEATURE_VERTEX_JOB	BIT(5)
#define MALI_JS_FEATURE_GEOMETRY_JOB	BIT(6)
#define MALI_JS_FEATURE_TILER_JOB	BIT(7)
#define MALI_JS_FEATURE_FUSED_JOB	BIT(8)
#define MALI_JS_FEATURE_FRAGMENT_JOB	BIT(9)

/* Product ids (GPU_ID[31:16]) of the simulated Mali GPUs. */
#define MALI_PRODUCT_T860		0x0860
#define MALI_PRODUCT_G52		0x7212

#endif /* UGPU_HW_H */
