// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device coredumps of hung and faulted jobs, in the one format of
 * uapi/drm/ugpu_coredump.h (Documentation/coredump.rst), obeying the
 * dma-fence signalling rules.
 *
 * The GPU state is recorded when a job hangs or faults, before the job's
 * fence is signalled and before any reset: in the timeout handler, the
 * interrupt thread or recovery. Allocating there could wait for memory
 * reclaim, which may wait for that very fence. So the dump is written
 * into a buffer allocated once at register, and a worker copies it into
 * the memory devcoredump takes over, outside the signalling path. One
 * dump is in flight at a time; a hang in the meantime is not dumped.
 */
#include <linux/delay.h>
#include <linux/devcoredump.h>
#include <linux/highmem.h>
#include <linux/seq_buf.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include <uapi/drm/ugpu_coredump.h>

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

/* Where the dump being written stands; sizes bounded by the buffer. */
struct ugpu_dump_writer {
	u8 *buf;
	size_t size;
	size_t pos;
	/* Offset of the open section's header. */
	size_t sec;
	u32 sections;
	bool truncated;
};

/* @len zeroed bytes at the end of the dump, or NULL when full. */
static void *ugpu_dump_reserve(struct ugpu_dump_writer *w, size_t len)
{
	void *p;

	len = ALIGN(len, 8);
	if (len > w->size - w->pos) {
		w->truncated = true;
		return NULL;
	}
	p = w->buf + w->pos;
	memset(p, 0, len);
	w->pos += len;
	return p;
}

static bool ugpu_dump_section_begin(struct ugpu_dump_writer *w, u32 type)
{
	struct ugpu_coredump_section *sec;

	w->sec = w->pos;
	sec = ugpu_dump_reserve(w, sizeof(*sec));
	if (!sec)
		return false;
	sec->type = cpu_to_le32(type);
	return true;
}

static void ugpu_dump_section_end(struct ugpu_dump_writer *w)
{
	struct ugpu_coredump_section *sec = (void *)(w->buf + w->sec);
	size_t end = ALIGN(w->pos, 8);

	memset(w->buf + w->pos, 0, end - w->pos);
	w->pos = end;
	sec->size = cpu_to_le32(w->pos - w->sec - sizeof(*sec));
	w->sections++;
}

static void ugpu_dump_regs(struct ugpu_dump_writer *w, struct ugpu_device *udev)
{
	const struct ugpu_dump_range *r;
	struct ugpu_coredump_regs *hdr;
	unsigned int i, j;
	__le32 *val;

	if (!udev->num_dump_regs ||
	    (udev->ops->regs_off && udev->ops->regs_off(udev)) ||
	    !ugpu_dump_section_begin(w, UGPU_COREDUMP_SECTION_REGS))
		return;
	for (i = 0; i < udev->num_dump_regs; i++) {
		r = &udev->dump_regs[i];
		hdr = ugpu_dump_reserve(w, sizeof(*hdr) + r->count * sizeof(*val));
		if (!hdr)
			break;
		strscpy(hdr->name, r->name);
		hdr->offset = cpu_to_le32(r->offset);
		hdr->count = cpu_to_le32(r->count);
		val = (__le32 *)(hdr + 1);
		for (j = 0; j < r->count; j++)
			val[j] = cpu_to_le32(ugpu_read(udev, r->offset + j * 4));
	}
	ugpu_dump_section_end(w);
}

/*
 * Copy up to @len bytes at @offset of @obj into @dst; returns the bytes
 * copied. The job's mapping keeps the pages of a shmem BO pinned; an
 * imported BO is not read.
 */
static size_t ugpu_dump_bo_read(struct drm_gem_object *obj, u64 offset,
				void *dst, size_t len)
{
	struct ugpu_bo *bo = to_ugpu_bo(obj);
	struct page **pages = READ_ONCE(bo->base.pages);
	size_t done = 0, n, off;
	void *vaddr;

	if (obj->import_attach || offset >= obj->size)
		return 0;
	len = min_t(u64, len, obj->size - offset);
	if (bo->vaddr) {
		memcpy(dst, bo->vaddr + offset, len);
		return len;
	}
	if (!pages)
		return 0;
	while (done < len) {
		off = offset_in_page(offset + done);
		n = min_t(size_t, len - done, PAGE_SIZE - off);
		vaddr = kmap_local_page(pages[(offset + done) >> PAGE_SHIFT]);
		memcpy(dst + done, vaddr + off, n);
		kunmap_local(vaddr);
		done += n;
	}
	return done;
}

/* One command buffer: [@offset, @offset + @size) of BO @index. */
static bool ugpu_dump_cmdbuf(struct ugpu_dump_writer *w, struct ugpu_job *job,
			     u32 index, u64 offset, u64 size, u32 flags)
{
	struct drm_gem_object *obj = job->bos[index];
	struct ugpu_coredump_cmdbuf *hdr;
	size_t len = min_t(u64, size, UGPU_COREDUMP_BUF_BYTES);
	size_t start = w->pos;

	hdr = ugpu_dump_reserve(w, sizeof(*hdr) + len);
	if (!hdr)
		return false;
	len = ugpu_dump_bo_read(obj, offset, hdr + 1, len);
	hdr->bo = cpu_to_le32(index);
	hdr->flags = cpu_to_le32(flags);
	hdr->iova = cpu_to_le64(ugpu_job_bo_va(job, index) + offset);
	hdr->offset = cpu_to_le64(offset);
	hdr->size = cpu_to_le64(size);
	hdr->length = cpu_to_le32(len);
	w->pos = start + ALIGN(sizeof(*hdr) + len, 8);
	return true;
}

static void ugpu_dump_cmds(struct ugpu_dump_writer *w, struct ugpu_job *job)
{
	struct ugpu_core_job *cjob = to_core_job(job);
	u64 va, address = job->cmd.address;
	u32 i;

	if (!job->bo_count || !ugpu_dump_section_begin(w, UGPU_COREDUMP_SECTION_CMDS))
		return;
	for (i = 0; i < cjob->dump_buf_count; i++)
		if (!ugpu_dump_cmdbuf(w, job, cjob->dump_bufs[i].bo,
				      cjob->dump_bufs[i].offset,
				      cjob->dump_bufs[i].size, 0))
			break;
	/* Families without command buffers start the job at an address. */
	if (!cjob->dump_buf_count && address) {
		for (i = 0; i < job->bo_count; i++) {
			va = ugpu_job_bo_va(job, i);
			if (address >= va && address - va < job->bos[i]->size) {
				ugpu_dump_cmdbuf(w, job, i, address - va,
						 job->bos[i]->size - (address - va),
						 UGPU_COREDUMP_CMD_ADDRESS);
				break;
			}
		}
	}
	ugpu_dump_section_end(w);
}

static void ugpu_dump_bos(struct ugpu_dump_writer *w, struct ugpu_job *job)
{
	struct ugpu_bo_list *list = to_core_job(job)->bo_list;
	struct ugpu_coredump_bo *e;
	struct drm_gem_object *obj;
	u32 i;

	if (!list || !ugpu_dump_section_begin(w, UGPU_COREDUMP_SECTION_BOS))
		return;
	for (i = 0; i < list->count; i++) {
		e = ugpu_dump_reserve(w, sizeof(*e));
		if (!e)
			break;
		obj = list->objs[i];
		e->handle = cpu_to_le32(list->entries[i].handle);
		e->flags = cpu_to_le32(list->entries[i].flags);
		e->iova = cpu_to_le64(ugpu_job_bo_va(job, i));
		e->size = cpu_to_le64(obj->size);
		e->bo_flags = cpu_to_le32(obj->import_attach ? 0 :
					  to_ugpu_bo(obj)->flags);
	}
	ugpu_dump_section_end(w);
}

static void ugpu_dump_text(struct ugpu_dump_writer *w, struct ugpu_job *job)
{
	struct ugpu_device *udev = job->udev;
	struct seq_buf s;

	if (!udev->ops->coredump || !ugpu_dump_section_begin(w, UGPU_COREDUMP_SECTION_TEXT))
		return;
	seq_buf_init(&s, w->buf + w->pos, w->size - w->pos);
	udev->ops->coredump(job, &s);
	if (seq_buf_has_overflowed(&s))
		w->truncated = true;
	w->pos += seq_buf_used(&s);
	ugpu_dump_section_end(w);
}

static void ugpu_dump_header(struct ugpu_dump_writer *w, struct ugpu_job *job,
			     int error)
{
	struct ugpu_coredump_header *h = (void *)w->buf;
	struct ugpu_device *udev = job->udev;
	struct ugpu_ctx *ctx = job->ctx;
	u32 hangs, flags = 0;

	/* This job counts, whether or not it was charged yet. */
	hangs = atomic_read(&ctx->guilty) +
		!atomic_read(&to_core_job(job)->guilty_counted);
	if (w->truncated)
		flags |= UGPU_COREDUMP_TRUNCATED;
	if (udev->ban_threshold && hangs >= udev->ban_threshold)
		flags |= UGPU_COREDUMP_BANNED;

	memcpy(h->magic, UGPU_COREDUMP_MAGIC, sizeof(h->magic));
	h->version = cpu_to_le32(UGPU_COREDUMP_VERSION);
	h->header_size = cpu_to_le32(sizeof(*h));
	h->total_size = cpu_to_le32(w->pos);
	h->section_count = cpu_to_le32(w->sections);
	h->flags = cpu_to_le32(flags);
	h->family = cpu_to_le32(udev->family);
	h->chip_model = cpu_to_le32(udev->chip_model);
	h->chip_revision = cpu_to_le32(udev->chip_revision);
	h->chip_id = cpu_to_le64(udev->chip_id);
	h->time_ns = cpu_to_le64(ktime_get_real_ns());
	h->seqno = cpu_to_le64(job->hw_fence ? job->hw_fence->seqno : 0);
	h->queue = cpu_to_le32(job->queue);
	h->ctx = cpu_to_le32(ctx->handle);
	h->pid = cpu_to_le32(job->pid);
	h->error = cpu_to_le32((u32)error);
	h->hangs = cpu_to_le32(hangs);
	strscpy(h->comm, job->comm);
	strscpy(h->device, dev_name(udev->dev));
}

/**
 * ugpu_coredump_job - record a device coredump of a hung or faulted job
 * @job: a hardware job on the hardware, its fence not signalled yet
 * @error: what the job fails with (-ETIMEDOUT for a hang)
 *
 * Writes the header, the family's register ranges (&ugpu_device.dump_regs),
 * the job's commands and BO list and the family's extras
 * (&ugpu_family_ops.coredump) into the device's dump buffer, for a worker
 * to hand to devcoredump. Call it before the GPU is reset or the job is
 * stopped. At most one dump per job; dropped while another is in flight.
 *
 * Context: any, including the fence signalling paths (timeout handler,
 * interrupt thread, recovery); does not allocate or sleep, so it must not
 * run under a spinlock the family's &ugpu_family_ops.coredump takes.
 */
void ugpu_coredump_job(struct ugpu_job *job, int error)
{
	struct ugpu_device *udev = job->udev;
	struct ugpu_coredump *dump = &udev->core->dump;
	struct ugpu_dump_writer w = {};

	BUILD_BUG_ON(sizeof(struct ugpu_coredump_header) != 136);
	if (atomic_xchg(&to_core_job(job)->dumped, 1))
		return;
	if (!dump->buf || atomic_cmpxchg_acquire(&dump->busy, 0, 1))
		return;

	w.buf = dump->buf;
	w.size = UGPU_COREDUMP_SIZE;
	ugpu_dump_reserve(&w, sizeof(struct ugpu_coredump_header));
	ugpu_dump_regs(&w, udev);
	ugpu_dump_cmds(&w, job);
	ugpu_dump_bos(&w, job);
	ugpu_dump_text(&w, job);
	ugpu_dump_header(&w, job, error);

	dump->len = w.pos;
	queue_work(system_unbound_wq, &dump->work);
}
EXPORT_SYMBOL_GPL(ugpu_coredump_job);
