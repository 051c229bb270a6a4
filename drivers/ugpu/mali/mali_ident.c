// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mali models: what GPU_ID names, and what the driver must know about
 * each model beyond its feature registers.
 *
 * GPU_ID has two layouts. The Mali-T60x, the first Midgard, reads
 * 0x6956 in bits 31:16. Every later GPU has the product id there: on
 * Midgard bits 15:12 are zero and the id is the model (0x0860 for a
 * T860); from Bifrost on, bits 15:12 hold the architecture major and
 * bits 3:0 the product major, the bits between are the architecture
 * minor and revision (0x7212 is a G52, arch 7.2.1, product 2). Bits
 * 15:0 of every layout are the version: rXpY (15:12 and 11:4) and the
 * status (3:0).
 */

#include <linux/array_size.h>

#include "mali.h"

/* Bits 31:16 of the T60x's GPU_ID: the legacy layout. */
#define MALI_GPU_ID_T60X_LEGACY	0x6956

#define MIDGARD(_id, _name, _issues)					\
	{ .product = _id, .name = _name, .arch = MALI_ARCH_MIDGARD,	\
	  .issues = _issues }
#define BIFROST(_id, _name)						\
	{ .product = _id, .name = _name, .arch = MALI_ARCH_BIFROST,	\
	  .features = MALI_HW_AARCH64_MMU }
#define VALHALL(_id, _name)						\
	{ .product = _id, .name = _name, .arch = MALI_ARCH_VALHALL,	\
	  .features = MALI_HW_AARCH64_MMU }

/*
 * The job-manager models. Midgard MMUs know only the legacy table
 * format. From Bifrost on, AS_TRANSCFG selects the format and the driver
 * uses AArch64 stage-1 tables. The Mali-G57 of the MediaTek MT8192
 * reports product major 3 and is a G57 otherwise.
 */
static const struct mali_model mali_models[] = {
	MIDGARD(0x0600, "Mali-T60x", MALI_ISSUE_10649),
	MIDGARD(0x0620, "Mali-T62x", MALI_ISSUE_10649),
	MIDGARD(0x0720, "Mali-T72x", MALI_ISSUE_10649),
	MIDGARD(0x0750, "Mali-T76x", 0),
	MIDGARD(0x0820, "Mali-T82x", 0),
	MIDGARD(0x0830, "Mali-T83x", 0),
	MIDGARD(0x0860, "Mali-T86x", 0),
	MIDGARD(0x0880, "Mali-T88x", 0),
	BIFROST(0x6000, "Mali-G71"),
	BIFROST(0x6001, "Mali-G72"),
	BIFROST(0x7000, "Mali-G51"),
	BIFROST(0x7001, "Mali-G76"),
	BIFROST(0x7002, "Mali-G52"),
	BIFROST(0x7003, "Mali-G31"),
	VALHALL(0x9001, "Mali-G57"),
	VALHALL(0x9003, "Mali-G57"),
};

/**
 * mali_product_id() - the model id of a GPU_ID, whatever its layout.
 * @gpu_id: GPU_ID.
 *
 * Return: 0x0600 for the T60x, bits 31:16 on other Midgard GPUs, the
 * architecture major and product major (bits 31:28 and 19:16, as
 * 0xA00P) from Bifrost on.
 */
u32 mali_product_id(u32 gpu_id)
{
	u32 id = gpu_id >> 16;

	if (id == MALI_GPU_ID_T60X_LEGACY)
		return 0x0600;
	if (id & 0xf000)
		return id & 0xf00f;
	return id;
}

/**
 * mali_model_lookup() - the model a GPU_ID names.
 * @gpu_id: GPU_ID.
 *
 * Return: the table entry, or NULL for a model the driver does not know:
 * its page-table format and errata are unknown, and it is not probed.
 */
const struct mali_model *mali_model_lookup(u32 gpu_id)
{
	u32 product = mali_product_id(gpu_id);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mali_models); i++)
		if (mali_models[i].product == product)
			return &mali_models[i];
	return NULL;
}
