// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx zap shader: how the GPU leaves secure mode on boards whose
 * secure world owns it.
 *
 * Every reset leaves the GPU in secure mode. Where the board's node has a
 * "zap-shader" child, RBBM_SECVID_TRUST_CNTL belongs to the secure world:
 * the kernel hands it a signed image (the node's firmware-name, or the
 * chip's default under qcom/), loaded into the node's reserved memory
 * region with the MDT loader and authenticated by an SCM call for the
 * GPU's peripheral id. The secure world keeps it across the GPU's power
 * cycles, and owns its region from then on: it is loaded once per module
 * load (a later probe, after a deferral or an unbind, does not write the
 * region again). After that, each CP start leaves secure mode with
 * CP_SET_SECURE_MODE on the ring.
 *
 * Boards without the node (the Chromebooks) leave secure mode through the
 * register; kernels without SCM or the MDT loader refuse boards with it.
 */

#include <linux/firmware.h>
#include <linux/io.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/property.h>

#include "adreno.h"

#if IS_REACHABLE(CONFIG_QCOM_SCM) && IS_REACHABLE(CONFIG_QCOM_MDT_LOADER)
#include <linux/firmware/qcom/qcom_scm.h>
#include <linux/soc/qcom/mdt_loader.h>
#define ADRENO_HAVE_SECURE_WORLD 1
#else
#define ADRENO_HAVE_SECURE_WORLD 0
#endif

/* The GPU's peripheral id in the secure world's authentication calls. */
#define ADRENO_ZAP_PAS_ID	13

/* The secure world has the zap shader: one GPU per SoC. */
static DEFINE_MUTEX(adreno_zap_lock);
static bool adreno_zap_loaded;	/* under adreno_zap_lock */

/**
 * adreno_zap_probe() - find whether the board needs a zap shader.
 * @adev: the device, identified.
 *
 * Return: 0 (@adev->zap says whether one is needed), -EPROBE_DEFER until
 * the secure world's interface is up, -ENODEV when this kernel cannot
 * reach it, -EINVAL for a node without its memory region.
 */
int adreno_zap_probe(struct adreno_device *adev)
{
	struct adreno_zap *zap = &adev->zap;
	struct device *dev = adev->udev.dev;
	struct device_node *np, *mem_np;
	const char *name = NULL;
	int ret;

	np = of_get_child_by_name(dev->of_node, "zap-shader");
	if (!np || !of_device_is_available(np)) {
		of_node_put(np);
		return 0;
	}
	of_property_read_string(np, "firmware-name", &name);
	ret = -ENOENT;
	if (name)
		ret = strscpy(zap->fw_name, name, sizeof(zap->fw_name));
	else if (adev->info->zap_fw)
		ret = snprintf(zap->fw_name, sizeof(zap->fw_name), "qcom/%s",
			       adev->info->zap_fw);
	if (ret >= (int)sizeof(zap->fw_name))
		ret = -E2BIG;
	mem_np = of_parse_phandle(np, "memory-region", 0);
	of_node_put(np);
	if (ret < 0) {
		of_node_put(mem_np);
		return dev_err_probe(dev, -EINVAL,
				     "zap-shader node: no firmware named, or a name too long\n");
	}
	if (!ADRENO_HAVE_SECURE_WORLD) {
		of_node_put(mem_np);
		return dev_err_probe(dev, -ENODEV,
				     "zap shader %s needed to leave secure mode: this kernel has no SCM or MDT loader\n",
				     zap->fw_name);
	}
	if (!mem_np)
		return dev_err_probe(dev, -EINVAL,
				     "zap-shader node without a memory-region\n");
	ret = of_address_to_resource(mem_np, 0, &zap->mem);
	of_node_put(mem_np);
	if (ret)
		return dev_err_probe(dev, ret,
				     "zap shader's memory region has no address\n");
#if ADRENO_HAVE_SECURE_WORLD
	if (!qcom_scm_is_available())
		return dev_err_probe(dev, -EPROBE_DEFER,
				     "zap shader %s: the secure world's interface (SCM) is not up\n",
				     zap->fw_name);
#endif
	zap->needed = true;
	return 0;
}

#if ADRENO_HAVE_SECURE_WORLD
/* Load the image into the reserved region and have it authenticated. */
static int adreno_zap_hand_over(struct adreno_device *adev,
				const struct firmware *fw)
{
	struct adreno_zap *zap = &adev->zap;
	struct device *dev = adev->udev.dev;
	resource_size_t room = resource_size(&zap->mem);
	ssize_t size;
	void *mem;
	int ret;

	size = qcom_mdt_get_size(fw);
	if (size < 0)
		return size;
	if (size > room) {
		dev_err(dev, "zap shader %s: %zd bytes, its region holds %pa\n",
			zap->fw_name, size, &room);
		return -E2BIG;
	}
	mem = memremap(zap->mem.start, size, MEMREMAP_WC);
	if (!mem)
		return -ENOMEM;
	ret = qcom_mdt_load(dev, fw, zap->fw_name, ADRENO_ZAP_PAS_ID, mem,
			    zap->mem.start, size, NULL);
	memunmap(mem);
	if (ret)
		return ret;
	return qcom_scm_pas_auth_and_reset(ADRENO_ZAP_PAS_ID);
}

static int adreno_zap_secure_load(struct adreno_device *adev)
{
	struct adreno_zap *zap = &adev->zap;
	const struct firmware *fw;
	int ret;

	/* A signed, board-specific file: no user-space fallback. */
	ret = request_firmware_direct(&fw, zap->fw_name, adev->udev.dev);
	if (ret)
		return ret;
	ret = adreno_zap_hand_over(adev, fw);
	release_firmware(fw);
	return ret;
}
#else
static int adreno_zap_secure_load(struct adreno_device *adev)
{
	return -ENODEV;
}
#endif

/**
 * adreno_zap_load() - have the secure world load the zap shader, once.
 * @adev: the device, at probe, the GPU powered and the CP stopped.
 *
 * When the secure world answers that it has no such service (-EOPNOTSUPP),
 * the board needs no zap shader: the GPU then leaves secure mode through
 * the register, as without the node (msm does the same).
 *
 * Context: process, at probe only: it allocates and calls the secure
 * world, which no reset path may do.
 *
 * Return: 0 (also when the board needs none, or it is loaded), or the
 * error of the file or of the secure world.
 */
int adreno_zap_load(struct adreno_device *adev)
{
	struct adreno_zap *zap = &adev->zap;
	struct device *dev = adev->udev.dev;
	int ret = 0;

	if (!zap->needed)
		return 0;
	mutex_lock(&adreno_zap_lock);
	if (!adreno_zap_loaded)
		ret = adreno_zap_secure_load(adev);
	if (ret == -EOPNOTSUPP) {
		dev_warn(dev, "the secure world has no zap shader service: leaving secure mode by the register\n");
		zap->needed = false;
		ret = 0;
	} else if (ret) {
		dev_err(dev, "zap shader %s not loaded: %d; the GPU cannot leave secure mode\n",
			zap->fw_name, ret);
	} else {
		adreno_zap_loaded = true;
	}
	mutex_unlock(&adreno_zap_lock);
	return ret;
}
