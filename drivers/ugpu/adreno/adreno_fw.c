// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adreno a6xx firmware: the SQE microcode, without which the CP runs
 * nothing.
 *
 * The file is named by the chip (linux-firmware's qcom/a630_sqe.fw for
 * the a618, qcom/a660_sqe.fw for the a635). Its first dword is not part
 * of the microcode; the rest is copied to a GPU buffer mapped, read-only
 * and privileged, at the same address in every page table, and
 * CP_SQE_INSTR_BASE points there when the CP is started. The driver does
 * not look inside the microcode.
 */

#include <linux/dma-mapping.h>
#include <linux/firmware.h>
#include <linux/string.h>

#include "adreno.h"

/**
 * adreno_sqe_load() - read the SQE microcode into a GPU buffer.
 * @adev: the device, identified, at probe.
 *
 * Return: 0, the request_firmware() error when the file is missing,
 * -EINVAL for a file of a bad size, or -ENOMEM.
 */
int adreno_sqe_load(struct adreno_device *adev)
{
	const struct adreno_info *info = adev->info;
	struct device *dev = adev->udev.dev;
	const struct firmware *fw;
	char name[48];
	size_t size;
	int ret;

	snprintf(name, sizeof(name), "qcom/%s", info->sqe_fw);
	ret = request_firmware(&fw, name, dev);
	if (ret)
		return dev_err_probe(dev, ret,
				     "no SQE microcode %s: the CP cannot run without it\n",
				     name);
	/* Dword 0 is the file's, not the microcode's. */
	if (fw->size <= 4 || fw->size % 4 || fw->size - 4 > ADRENO_SQE_MAX_SIZE) {
		ret = dev_err_probe(dev, -EINVAL,
				    "SQE microcode %s: bad size %zu\n", name,
				    fw->size);
		goto out;
	}
	size = fw->size - 4;
	adev->sqe_size = PAGE_ALIGN(size);
	adev->sqe_cpu = dmam_alloc_coherent(dev, adev->sqe_size,
					    &adev->sqe_dma, GFP_KERNEL);
	if (!adev->sqe_cpu) {
		ret = -ENOMEM;
		goto out;
	}
	/* The allocation is zeroed past the microcode. */
	memcpy(adev->sqe_cpu, fw->data + 4, size);
	dev_dbg(dev, "SQE microcode %s, %zu bytes\n", name, size);
out:
	release_firmware(fw);
	return ret;
}

MODULE_FIRMWARE("qcom/a630_sqe.fw");
MODULE_FIRMWARE("qcom/a660_sqe.fw");
