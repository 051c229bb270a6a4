// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device coredumps that obey the dma-fence signalling rules.
 *
 * A family records the GPU state when a job hangs or faults, before the
 * job's fence is signalled: in the timeout handler, the interrupt thread or
 * recovery. Allocating there could wait for memory reclaim, which may wait
 * for that very fence. So the state is printed into a buffer allocated
 * once at register, and a worker copies it into the memory devcoredump
 * takes over, outside the signalling path. One dump is in flight at a
 * time; a hang in the meantime is not dumped.
 */
#include <linux/delay.h>
#include <linux/devcoredump.h>
#include <linux/seq_buf.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "ugpu_priv.h"

static void ugpu_coredump_work(struct work_struct *work)
{
	struct ugpu_coredump *dump = container_of(work, struct ugpu_coredump,
						  work);
	char *copy;

	copy = vmalloc(dump->len);
	if (copy) {
		memcpy(copy, dump->buf, dump->len);
		/* devcoredump owns @copy from here, even on failure. */
		dev_coredumpv(dump->dev, copy, dump->len, GFP_KERNEL);
	}
	atomic_set_release(&dump->busy, 0);
}

/**
 * ugpu_coredump_init() - allocate the dump buffer of a device.
 * @udev: the device, being registered.
 *
 * Return: 0 or -ENOMEM.
 */
int ugpu_coredump_init(struct ugpu_device *udev)
{
	struct ugpu_coredump *dump = &udev->core->dump;

	dump->buf = vmalloc(UGPU_COREDUMP_SIZE);
	if (!dump->buf)
		return -ENOMEM;
	dump->dev = udev->dev;
	atomic_set(&dump->busy, 0);
	INIT_WORK(&dump->work, ugpu_coredump_work);
	return 0;
}

/**
 * ugpu_coredump_stop() - no dump after this; wait for one in flight.
 * @udev: the device, being unregistered: its parent device may go next.
 */
void ugpu_coredump_stop(struct ugpu_device *udev)
{
	struct ugpu_coredump *dump = &udev->core->dump;

	/* Take the buffer for good, once no dump is printed or queued. */
	while (atomic_cmpxchg_acquire(&dump->busy, 0, 1)) {
		flush_work(&dump->work);
		usleep_range(1000, 2000);
	}
}

/**
 * ugpu_coredump_free() - free the dump buffer.
 * @udev: the device, released.
 */
void ugpu_coredump_free(struct ugpu_device *udev)
{
	vfree(udev->core->dump.buf);
	udev->core->dump.buf = NULL;
}

/**
 * ugpu_coredump_begin - start a device coredump without allocating
 * @udev: the device
 * @s: initialised to print into the device's dump buffer
 *
 * Context: any, including the fence signalling paths (timeout handler,
 * interrupt thread, recovery); does not sleep.
 *
 * Return: true when @s may be printed into and must be handed to
 * ugpu_coredump_end(); false when another dump is in flight or the
 * device has no buffer, and this one is dropped.
 */
bool ugpu_coredump_begin(struct ugpu_device *udev, struct seq_buf *s)
{
	struct ugpu_coredump *dump = &udev->core->dump;

	if (!dump->buf || atomic_cmpxchg_acquire(&dump->busy, 0, 1))
		return false;
	seq_buf_init(s, dump->buf, UGPU_COREDUMP_SIZE);
	return true;
}
EXPORT_SYMBOL_GPL(ugpu_coredump_begin);

/**
 * ugpu_coredump_end - hand a dump from ugpu_coredump_begin() to devcoredump
 * @udev: the device
 * @s: what was printed
 *
 * The copy and devcoredump's own allocations happen in a worker.
 * Context: as ugpu_coredump_begin().
 */
void ugpu_coredump_end(struct ugpu_device *udev, struct seq_buf *s)
{
	struct ugpu_coredump *dump = &udev->core->dump;

	dump->len = seq_buf_used(s);
	if (!dump->len) {
		atomic_set_release(&dump->busy, 0);
		return;
	}
	queue_work(system_unbound_wq, &dump->work);
}
EXPORT_SYMBOL_GPL(ugpu_coredump_end);
