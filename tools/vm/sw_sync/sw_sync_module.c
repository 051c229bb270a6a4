// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel's sw_sync needs to build as a module: its module
 * information, and sync_file_get_name(), which sync_debug.c calls but the
 * kernel does not export.
 */
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/sync_file.h>

/*
 * The name debugfs shows for a sync_file: the one user space gave it, or
 * where its fence comes from.
 */
char *sync_file_get_name(struct sync_file *sync_file, char *buf, int len)
{
	struct dma_fence *fence = sync_file->fence;

	if (sync_file->user_name[0])
		strscpy(buf, sync_file->user_name, len);
	else
		snprintf(buf, len, "%s:%s:%llu", fence->ops->get_driver_name(fence),
			 fence->ops->get_timeline_name(fence), fence->seqno);
	return buf;
}

MODULE_DESCRIPTION("sw_sync timelines for the ugpu test VM");
MODULE_LICENSE("GPL");
