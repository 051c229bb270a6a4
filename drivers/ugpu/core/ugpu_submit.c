// SPDX-License-Identifier: GPL-2.0-only
/*
 * Contexts and SUBMIT.
 *
 * A submit is checked and prepared completely (arrays copied, handles
 * looked up, jobs initialised, every dependency added, fences and syncobj
 * chain nodes allocated, BO reservations locked) before the first job is
 * armed; from then on nothing can fail, so the commands of a submit are
 * queued together or not at all.
 */
#include <linux/capability.h>
#include <linux/dma-fence-array.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_exec.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

#include "ugpu_priv.h"
#include "ugpu_trace.h"

static void ugpu_file_release(struct kref *kref)
{
	struct ugpu_file *ufile = container_of(kref, struct ugpu_file,
					       refcount);

	xa_destroy(&ufile->ctxs);
	xa_destroy(&ufile->signals);
	/* Closing the last handle of each private BO took it out. */
	WARN_ON(!xa_empty(&ufile->privates));
	xa_destroy(&ufile->privates);
	mutex_destroy(&ufile->lock);
	kfree(ufile);
}

void ugpu_file_put(struct ugpu_file *ufile)
{
	kref_put(&ufile->refcount, ugpu_file_release);
}

/* Give the family state of @ctx back, unless unregister did already. */
static void ugpu_ctx_fini(struct ugpu_ctx *ctx)
{
	struct ugpu_device *udev = ctx->udev;
	struct ugpu_core_private *core = udev->core;

	mutex_lock(&core->ops_lock);
	if (!list_empty(&ctx->live)) {
		list_del_init(&ctx->live);
		if (!core->gone && udev->ops->ctx_fini)
			udev->ops->ctx_fini(udev, ctx->priv);
		ctx->priv = NULL;
	}
	mutex_unlock(&core->ops_lock);
}

/*
 * The last reference goes in an ioctl (CTX_DESTROY, SUBMIT, or CTX_CREATE
 * failing), the file's postclose or the job free worker: always process
 * context, so the release may sleep.
 */
static void ugpu_ctx_release(struct kref *kref)
{
	struct ugpu_ctx *ctx = container_of(kref, struct ugpu_ctx, refcount);
	unsigned int i;

	/* Every job of the context is gone: the entities are idle. */
	for (i = 0; i < ctx->udev->num_queues; i++)
		drm_sched_entity_destroy(&ctx->entity[i]);
	drm_sched_entity_destroy(&ctx->soft_entity);
	ugpu_ctx_fini(ctx);
	ugpu_file_put(ctx->ufile);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
}

/* Process context only: the release may sleep. */
void ugpu_ctx_put(struct ugpu_ctx *ctx)
{
	kref_put(&ctx->refcount, ugpu_ctx_release);
}

/*
 * Unregister: release the family state of every context that still
 * exists; their release later finds them off the list and leaves the
 * family alone. Called with core->ops_lock held, before @gone is set.
 */
void ugpu_ctxs_unplug(struct ugpu_device *udev)
{
	struct ugpu_core_private *core = udev->core;
	struct ugpu_ctx *ctx, *tmp;

	lockdep_assert_held(&core->ops_lock);
	list_for_each_entry_safe(ctx, tmp, &core->ctxs, live) {
		list_del_init(&ctx->live);
		if (udev->ops->ctx_fini)
			udev->ops->ctx_fini(udev, ctx->priv);
		ctx->priv = NULL;
	}
}

/* Have the family set up its state of @ctx and list the context. */
static int ugpu_ctx_init(struct ugpu_ctx *ctx)
{
	struct ugpu_device *udev = ctx->udev;
	struct ugpu_core_private *core = udev->core;
	int ret = 0, idx;

	/* Unplug waits for us, so it finds the context on the list. */
	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	if (udev->ops->ctx_init)
		ret = udev->ops->ctx_init(udev, &ctx->priv);
	if (!ret) {
		mutex_lock(&core->ops_lock);
		list_add_tail(&ctx->live, &core->ctxs);
		mutex_unlock(&core->ops_lock);
	}
	drm_dev_exit(idx);
	return ret;
}

/* A job of @ctx hung or faulted. Any context. */
void ugpu_ctx_guilty(struct ugpu_ctx *ctx)
{
	unsigned int threshold = ctx->udev->ban_threshold;
	int guilty = atomic_inc_return(&ctx->guilty);

	if (!threshold || guilty < threshold)
		return;
	WRITE_ONCE(ctx->banned, true);
	if (guilty == threshold)
		dev_warn_ratelimited(ctx->udev->dev,
				     "%s[%d]: context %u banned after %d hung or faulted jobs\n",
				     ctx->comm, ctx->pid, ctx->handle, guilty);
}

static struct ugpu_ctx *ugpu_ctx_lookup(struct ugpu_file *ufile, u32 handle)
{
	struct ugpu_ctx *ctx;

	xa_lock(&ufile->ctxs);
	ctx = xa_load(&ufile->ctxs, handle);
	if (ctx)
		kref_get(&ctx->refcount);
	xa_unlock(&ufile->ctxs);
	return ctx;
}

int ugpu_ioctl_ctx_create(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct ugpu_device *udev = to_ugpu_device(dev);
	struct ugpu_core_private *core = udev->core;
	struct drm_ugpu_ctx_create *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	enum drm_sched_priority prio;
	struct ugpu_ctx *ctx;
	unsigned int i, n = 0;
	u32 handle;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	switch (args->priority) {
	case DRM_UGPU_CTX_PRIORITY_LOW:
		prio = DRM_SCHED_PRIORITY_LOW;
		break;
	case DRM_UGPU_CTX_PRIORITY_MEDIUM:
		prio = DRM_SCHED_PRIORITY_NORMAL;
		break;
	case DRM_UGPU_CTX_PRIORITY_HIGH:
		if (!capable(CAP_SYS_NICE))
			return -EPERM;
		prio = DRM_SCHED_PRIORITY_HIGH;
		break;
	default:
		return -EINVAL;
	}

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->refcount);
	mutex_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->live);
	ctx->udev = udev;
	ctx->priority = args->priority;
	/* Who to name in messages about the context's work. */
	ctx->pid = task_tgid_nr(current);
	get_task_comm(ctx->comm, current);

	for (n = 0; n < udev->num_queues; n++) {
		ctx->scheds[n] = &udev->queues[n].sched;
		ret = drm_sched_entity_init(&ctx->entity[n], prio,
					    &ctx->scheds[n], 1, NULL);
		if (ret)
			goto err_entities;
	}
	ctx->scheds[UGPU_MAX_QUEUES] = &core->soft_sched;
	ret = drm_sched_entity_init(&ctx->soft_entity, prio,
				    &ctx->scheds[UGPU_MAX_QUEUES], 1, NULL);
	if (ret)
		goto err_entities;
	ret = ugpu_ctx_init(ctx);
	if (ret)
		goto err_soft_entity;

	kref_get(&ufile->refcount);
	ctx->ufile = ufile;
	/*
	 * Publishing the handle is the last step: CTX_DESTROY of a guessed
	 * handle may free the context as soon as the xarray lock is
	 * dropped, so the handle is read before that.
	 */
	xa_lock(&ufile->ctxs);
	ret = __xa_alloc(&ufile->ctxs, &ctx->handle, ctx, xa_limit_32b,
			 GFP_KERNEL_ACCOUNT);
	handle = ctx->handle;
	xa_unlock(&ufile->ctxs);
	if (ret) {
		/* The release undoes all of the above. */
		ugpu_ctx_put(ctx);
		return ret;
	}
	args->handle = handle;
	return 0;

err_soft_entity:
	drm_sched_entity_destroy(&ctx->soft_entity);
err_entities:
	for (i = 0; i < n; i++)
		drm_sched_entity_destroy(&ctx->entity[i]);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
	return ret;
}

int ugpu_ioctl_ctx_destroy(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_ugpu_ctx_destroy *args = data;
	struct ugpu_file *ufile = file->driver_priv;
	struct ugpu_ctx *ctx;

	if (args->pad)
		return -EINVAL;
	ctx = xa_erase(&ufile->ctxs, args->handle);
	if (!ctx)
		return -ENOENT;
	/* Jobs hold the context: submitted work still runs. */
	ugpu_ctx_put(ctx);
	return 0;
}

/* A BO list entry sorted by a key: its handle or its object. */
struct ugpu_submit_key {
	unsigned long key;
	u32 index;
};

/* Everything a submit owns while it is being built. */
struct ugpu_submit {
	struct drm_ugpu_submit *args;
	struct drm_file *file;
	struct ugpu_file *ufile;
	struct ugpu_device *udev;
	struct ugpu_ctx *ctx;
	/*
	 * One allocation for the arrays that live only as long as the
	 * ioctl: @cmds, @in_syncs, @out_syncs, @jobs, @syncobjs, @chains.
	 */
	void *scratch;
	struct drm_ugpu_cmd *cmds;
	struct drm_ugpu_submit_bo *bos;
	struct drm_ugpu_sync *in_syncs;
	struct drm_ugpu_sync *out_syncs;
	/* The command buffers of every hardware command, in command order. */
	struct drm_ugpu_cmd_buf *ubufs;
	/* @ubufs as checked and resolved for the families. */
	struct ugpu_job_buf *bufs;
	/* Index in @bufs of each command's first buffer. */
	u32 *buf_first;
	u32 buf_total;
	/* Relocations of every buffer, in buffer order. */
	struct drm_ugpu_reloc *relocs;
	u32 reloc_total;
	struct ugpu_bo_list *bo_list;
	/*
	 * The private BOs of the list share the VM's reservation object:
	 * the first of them (U32_MAX: none) stands for all in implicit
	 * synchronisation, as a writer if any of them is written.
	 */
	u32 private_first;
	bool private_write;
	/* Reservation objects to lock: one per shared BO, one for all private. */
	u32 lock_count;
	/* &ugpu_file.privates_lock is held for reading: BOs are borrowed. */
	bool privates_locked;
	struct ugpu_core_job **jobs;
	struct drm_syncobj **syncobjs;
	struct dma_fence_chain **chains;
	struct dma_fence **fences;
	/* @fences of a single command: an array takes over several. */
	struct dma_fence *fence_one;
	struct dma_fence_array *done_array;
};

/* Copy @count entries of @size bytes from user space to @dst, once. */
static int ugpu_copy_array(void *dst, u64 uptr, u32 count, size_t size)
{
	if (!count)
		return 0;
	if (copy_from_user(dst, u64_to_user_ptr(uptr), array_size(count, size)))
		return -EFAULT;
	return 0;
}

/*
 * Copy the command buffers of every hardware command, then their
 * relocations, and check what needs no BO: the family's limits, flags,
 * alignment. Each user array is read exactly once.
 */
static int ugpu_submit_copy_bufs(struct ugpu_submit *s)
{
	const struct ugpu_cmdbuf_caps *caps = &s->udev->cmdbuf;
	struct drm_ugpu_submit *args = s->args;
	u32 i, j, n = 0;
	u64 relocs = 0;

	for (i = 0; i < args->cmd_count; i++) {
		const struct drm_ugpu_cmd *cmd = &s->cmds[i];

		if (cmd->type != DRM_UGPU_CMD_HW)
			continue;
		if (!caps->max_bufs) {
			if (cmd->buf_count || cmd->bufs)
				return -EINVAL;
			continue;
		}
		if (!cmd->buf_count || cmd->buf_count > caps->max_bufs)
			return -EINVAL;
		n += cmd->buf_count;
	}
	if (!n)
		return 0;

	s->buf_first = kcalloc(args->cmd_count, sizeof(*s->buf_first),
			       GFP_KERNEL_ACCOUNT);
	s->ubufs = kvmalloc_array(n, sizeof(*s->ubufs), GFP_KERNEL_ACCOUNT);
	s->bufs = kvcalloc(n, sizeof(*s->bufs), GFP_KERNEL_ACCOUNT);
	if (!s->buf_first || !s->ubufs || !s->bufs)
		return -ENOMEM;
	for (i = 0; i < args->cmd_count; i++) {
		const struct drm_ugpu_cmd *cmd = &s->cmds[i];

		s->buf_first[i] = s->buf_total;
		if (cmd->type != DRM_UGPU_CMD_HW || !caps->max_bufs)
			continue;
		if (copy_from_user(&s->ubufs[s->buf_total],
				   u64_to_user_ptr(cmd->bufs),
				   array_size(cmd->buf_count, sizeof(*s->ubufs))))
			return -EFAULT;
		s->buf_total += cmd->buf_count;
	}

	for (i = 0; i < s->buf_total; i++) {
		const struct drm_ugpu_cmd_buf *b = &s->ubufs[i];

		if (b->flags || b->pad || !b->size ||
		    b->size > (U64_MAX >> caps->size_shift) ||
		    !IS_ALIGNED(b->offset, caps->offset_align) ||
		    !IS_ALIGNED(b->size << caps->size_shift, caps->size_align))
			return -EINVAL;
		if (caps->max_relocs ? b->reloc_count > caps->max_relocs :
				       b->reloc_count || b->relocs)
			return -EINVAL;
		relocs += b->reloc_count;
	}
	if (relocs > UGPU_MAX_SUBMIT_RELOCS)
		return -EINVAL;
	if (!relocs)
		return 0;

	s->relocs = kvmalloc_array(relocs, sizeof(*s->relocs),
				   GFP_KERNEL_ACCOUNT);
	if (!s->relocs)
		return -ENOMEM;
	for (i = 0; i < s->buf_total; i++) {
		const struct drm_ugpu_cmd_buf *b = &s->ubufs[i];
		struct drm_ugpu_reloc *r = &s->relocs[s->reloc_total];

		if (!b->reloc_count)
			continue;
		if (copy_from_user(r, u64_to_user_ptr(b->relocs),
				   array_size(b->reloc_count, sizeof(*r))))
			return -EFAULT;
		for (j = 0; j < b->reloc_count; j++)
			if (r[j].flags || r[j].pad)
				return -EINVAL;
		s->bufs[i].relocs = r;
		s->bufs[i].reloc_count = b->reloc_count;
		s->reloc_total += b->reloc_count;
	}
	return 0;
}

/*
 * The BO list of a submit, allocated with its mappings and the entries as
 * the submit names them, which are copied in once.
 */
static int ugpu_bo_list_alloc(struct ugpu_submit *s)
{
	struct ugpu_bo_list *list;
	u32 n = s->args->bo_count;
	size_t size;

	if (!n)
		return 0;
	/* The counts are capped: none of this can overflow. */
	size = struct_size(list, objs, n) + n * sizeof(*list->maps) +
	       n * sizeof(*list->entries) + n * sizeof(*list->kinds);
	list = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!list)
		return -ENOMEM;
	kref_init(&list->refcount);
	list->count = n;
	list->maps = (void *)list + struct_size(list, objs, n);
	/* The submit's view of the BOs, for a coredump of its jobs. */
	list->entries = (void *)&list->maps[n];
	list->kinds = (void *)&list->entries[n];
	s->bo_list = list;
	s->bos = list->entries;
	return ugpu_copy_array(s->bos, s->args->bos, n, sizeof(*s->bos));
}

/*
 * Copy the submit's arrays, each read from user space once, into one
 * allocation charged to the caller's memory cgroup. The counts are capped
 * before, so the sizes cannot overflow. The uapi structs come first: their
 * sizes are multiples of 8, so every array is aligned.
 */
static int ugpu_submit_copy(struct ugpu_submit *s)
{
	struct drm_ugpu_submit *args = s->args;
	size_t cmds = args->cmd_count * sizeof(*s->cmds);
	size_t in = args->in_sync_count * sizeof(*s->in_syncs);
	size_t out = args->out_sync_count * sizeof(*s->out_syncs);
	size_t ptrs = (args->cmd_count + 2 * args->out_sync_count) *
		      sizeof(void *);
	void *p;
	u32 i;
	int ret;

	p = kvmalloc(cmds + in + out + ptrs, GFP_KERNEL_ACCOUNT);
	if (!p)
		return -ENOMEM;
	s->scratch = p;
	s->cmds = p;
	s->in_syncs = p + cmds;
	s->out_syncs = p + cmds + in;
	p += cmds + in + out;
	memset(p, 0, ptrs);
	s->jobs = p;
	s->syncobjs = (struct drm_syncobj **)&s->jobs[args->cmd_count];
	s->chains = (struct dma_fence_chain **)
		    &s->syncobjs[args->out_sync_count];

	ret = ugpu_copy_array(s->cmds, args->cmds, args->cmd_count,
			      sizeof(*s->cmds));
	if (!ret)
		ret = ugpu_copy_array(s->in_syncs, args->in_syncs,
				      args->in_sync_count, sizeof(*s->in_syncs));
	if (!ret)
		ret = ugpu_copy_array(s->out_syncs, args->out_syncs,
				      args->out_sync_count,
				      sizeof(*s->out_syncs));
	if (!ret)
		ret = ugpu_bo_list_alloc(s);
	if (ret)
		return ret;

	for (i = 0; i < args->in_sync_count; i++)
		if (s->in_syncs[i].flags)
			return -EINVAL;
	for (i = 0; i < args->out_sync_count; i++)
		if (s->out_syncs[i].flags)
			return -EINVAL;
	for (i = 0; i < args->bo_count; i++) {
		u32 flags = s->bos[i].flags;

		if (!flags || flags & ~(DRM_UGPU_SUBMIT_BO_READ |
					DRM_UGPU_SUBMIT_BO_WRITE))
			return -EINVAL;
	}
	for (i = 0; i < args->cmd_count; i++) {
		const struct drm_ugpu_cmd *cmd = &s->cmds[i];

		if (cmd->type > DRM_UGPU_CMD_BO_RELEASE || cmd->pad)
			return -EINVAL;
		/* Only earlier commands: bits i and up must be clear. */
		if (cmd->deps & ~(BIT_ULL(i) - 1))
			return -EINVAL;
		if (cmd->type == DRM_UGPU_CMD_HW &&
		    cmd->queue != DRM_UGPU_QUEUE_AUTO &&
		    cmd->queue >= s->udev->num_queues)
			return -EINVAL;
	}
	return ugpu_submit_copy_bufs(s);
}

/* Drop the mappings of the first @n BOs of @list. */
static void ugpu_bo_list_unmap(struct ugpu_bo_list *list, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (list->kinds[i] == UGPU_BO_SHARED)
			ugpu_mapping_put(list->maps[i]);
}

static void ugpu_bo_list_release(struct kref *kref)
{
	struct ugpu_bo_list *list = container_of(kref, struct ugpu_bo_list,
						 refcount);
	u32 i;

	/* Mappings before BOs: unmapping needs the pages still pinned. */
	if (list->mapped)
		ugpu_bo_list_unmap(list, list->count);
	/* Entries after a failed lookup are NULL. */
	for (i = 0; i < list->count; i++)
		if (list->objs[i])
			drm_gem_object_put(list->objs[i]);
	kvfree(list);
}

/* Process context only: the release may sleep. NULL is ignored. */
void ugpu_bo_list_put(struct ugpu_bo_list *list)
{
	if (list)
		kref_put(&list->refcount, ugpu_bo_list_release);
}

static int ugpu_submit_key_cmp(const void *a, const void *b)
{
	const struct ugpu_submit_key *ka = a, *kb = b;

	if (ka->key != kb->key)
		return ka->key < kb->key ? -1 : 1;
	return 0;
}

/* Entry @i of the BO list names a private BO of the file. */
static void ugpu_submit_add_private(struct ugpu_submit *s, u32 i)
{
	if (s->private_first == U32_MAX) {
		s->private_first = i;
		s->lock_count++;
	}
	if (s->bos[i].flags & DRM_UGPU_SUBMIT_BO_WRITE)
		s->private_write = true;
}

/*
 * One BO list for the whole submit: its jobs share it. Every handle is
 * looked up under one hold of the file's handle table (as etnaviv does)
 * rather than a lock round trip per handle. A BO listed twice, also under
 * two handles, is refused when the reservations are locked: its second
 * entry finds its reservation held already. Private BOs are locked once,
 * through the first of them, so listing one twice is harmless.
 *
 * A private BO under its creating handle is borrowed from the file's
 * table of them: the lookup neither references nor reads it, which for a
 * long list is most of what the lookup would cost. The table's lock,
 * held until the submit's fences are in the VM's reservation object,
 * keeps the BO's handle from going until then, and the BO from being
 * freed until those fences signal.
 */
static int ugpu_submit_lookup_bos(struct ugpu_submit *s)
{
	struct drm_file *file = s->file;
	struct ugpu_file *ufile = s->ufile;
	struct ugpu_bo_list *list = s->bo_list;
	u32 i, n = s->args->bo_count;
	int ret = 0;

	if (!n)
		return 0;
	down_read(&ufile->privates_lock);
	s->privates_locked = true;
	spin_lock(&file->table_lock);
	for (i = 0; i < n; i++) {
		struct drm_gem_object *obj;

		/*
		 * Referenced like any other BO: a job's coredump and its GPU
		 * accesses must not depend on the BO's release waiting for
		 * the VM's fences (a faulted job is dumped before its fence
		 * signals, but after later ones may have).
		 */
		obj = xa_load(&ufile->privates, s->bos[i].handle);
		if (obj) {
			drm_gem_object_get(obj);
			list->objs[i] = obj;
			list->kinds[i] = UGPU_BO_PRIVATE;
			ugpu_submit_add_private(s, i);
			continue;
		}
		/* NULL also for a handle being created or closed. */
		obj = idr_find(&file->object_idr, s->bos[i].handle);
		if (!obj) {
			ret = -ENOENT;
			break;
		}
		/* The table's reference cannot go while we hold its lock. */
		drm_gem_object_get(obj);
		list->objs[i] = obj;
		/* Only its own file has handles to a private BO. */
		if (to_ugpu_bo(obj)->private_vm) {
			list->kinds[i] = UGPU_BO_PRIVATE;
			if (to_ugpu_bo(obj)->private_vm != ufile->vm) {
				ret = -EINVAL;
				break;
			}
			ugpu_submit_add_private(s, i);
		} else {
			s->lock_count++;
		}
	}
	spin_unlock(&file->table_lock);
	return ret;
}

/*
 * Whether entry @i of the BO list takes part in implicit synchronisation
 * (its reservation is locked, waited on and fenced), and if so whether
 * as a writer. A private BO other than the first is covered by the first.
 */
static bool ugpu_submit_bo_sync(const struct ugpu_submit *s, u32 i,
				bool *write)
{
	if (s->bo_list->kinds[i] != UGPU_BO_SHARED) {
		*write = s->private_write;
		return i == s->private_first;
	}
	*write = s->bos[i].flags & DRM_UGPU_SUBMIT_BO_WRITE;
	return true;
}

/*
 * The BO list entry of each command buffer's handle: the buffers (few)
 * are sorted by handle, and one pass over the BO list finds each entry's
 * buffers by binary search, so a long BO list costs no sort.
 */
static int ugpu_submit_match_bufs(struct ugpu_submit *s)
{
	struct ugpu_bo_list *list = s->bo_list;
	u32 i, lo, hi, n = s->buf_total;
	struct ugpu_submit_key few[8], *keys = few;

	if (n > ARRAY_SIZE(few)) {
		keys = kvmalloc_array(n, sizeof(*keys), GFP_KERNEL_ACCOUNT);
		if (!keys)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		keys[i].key = s->ubufs[i].handle;
		keys[i].index = i;
		s->bufs[i].bo = U32_MAX;
	}
	sort(keys, n, sizeof(*keys), ugpu_submit_key_cmp, NULL);
	for (i = 0; list && i < list->count; i++) {
		unsigned long handle = list->entries[i].handle;

		/* The first buffer whose handle is not below this one. */
		for (lo = 0, hi = n; lo < hi;) {
			u32 mid = lo + (hi - lo) / 2;

			if (keys[mid].key < handle)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && keys[lo].key == handle; lo++)
			s->bufs[keys[lo].index].bo = i;
	}
	if (keys != few)
		kvfree(keys);
	return 0;
}

/*
 * Resolve the handle of every command buffer to its BO list entry and
 * check that the buffer and its relocations lie inside their BOs.
 */
static int ugpu_submit_resolve_bufs(struct ugpu_submit *s)
{
	const struct ugpu_cmdbuf_caps *caps = &s->udev->cmdbuf;
	struct ugpu_bo_list *list = s->bo_list;
	u32 i, j;
	int ret;

	if (!s->buf_total)
		return 0;
	ret = ugpu_submit_match_bufs(s);
	if (ret)
		return ret;
	for (i = 0; i < s->buf_total; i++) {
		struct ugpu_job_buf *jb = &s->bufs[i];
		u64 bytes = s->ubufs[i].size << caps->size_shift;
		size_t bo_size;

		if (jb->bo == U32_MAX)
			return -ENOENT;
		bo_size = list->objs[jb->bo]->size;
		if (bytes > bo_size || s->ubufs[i].offset > bo_size - bytes)
			return -EINVAL;
		jb->offset = s->ubufs[i].offset;
		jb->size = bytes;
		for (j = 0; j < jb->reloc_count; j++) {
			const struct drm_ugpu_reloc *r = &jb->relocs[j];

			if (!IS_ALIGNED(r->cmdbuf_offset, 4) ||
			    r->cmdbuf_offset >= bytes ||
			    r->bo_index >= list->count ||
			    r->bo_offset >= list->objs[r->bo_index]->size)
				return -EINVAL;
		}
	}
	return 0;
}

/* Reference the mapping of every BO of @list in @vm. */
static int ugpu_bo_list_map(struct ugpu_bo_list *list, struct ugpu_vm *vm)
{
	struct ugpu_mapping **maps = list->maps;
	u32 i;

	for (i = 0; i < list->count; i++) {
		/* Held by the BO: ugpu_job_bo_va() reads it there. */
		if (list->kinds[i] != UGPU_BO_SHARED)
			continue;
		maps[i] = ugpu_vm_bo_get(to_ugpu_bo(list->objs[i]), vm);
		/* The handle was closed under us. */
		if (!maps[i])
			goto err;
	}
	list->mapped = true;
	return 0;

err:
	ugpu_bo_list_unmap(list, i);
	return -ENOENT;
}

/*
 * Give a HW job the submit's BO list. The first HW job maps it: soft-only
 * submits never need the mappings.
 */
static int ugpu_submit_job_bos(struct ugpu_submit *s,
			       struct ugpu_core_job *cjob)
{
	struct ugpu_bo_list *list = s->bo_list;
	int ret;

	if (!list)
		return 0;
	if (!list->mapped) {
		ret = ugpu_bo_list_map(list, s->ufile->vm);
		if (ret)
			return ret;
	}
	kref_get(&list->refcount);
	cjob->bo_list = list;
	cjob->job.bos = list->objs;
	cjob->job.bo_count = list->count;
	return 0;
}

static int ugpu_submit_job_deps(struct ugpu_submit *s,
				struct ugpu_core_job *cjob, u32 index)
{
	struct ugpu_job *job = &cjob->job;
	u64 deps = s->cmds[index].deps;
	struct dma_fence *fence;
	unsigned long slot;
	u32 i;
	int ret;

	for (i = 0; i < s->args->in_sync_count; i++) {
		ret = drm_syncobj_find_fence(s->file, s->in_syncs[i].handle,
					     s->in_syncs[i].point, 0, &fence);
		if (ret)
			return ret;
		/* Signalled without an error, it has nothing to pass on. */
		if (dma_fence_is_signaled(fence) && !fence->error) {
			dma_fence_put(fence);
			continue;
		}
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}

	if (!deps)
		goto out;

	/*
	 * Earlier commands' finished fences exist only once they are armed;
	 * reserve a dependency slot now and fill it with a fence array then.
	 * The array also hides same-entity fences from the scheduler, so the
	 * job waits for their completion and sees their errors.
	 */
	cjob->dep_fences = kcalloc(hweight64(deps), sizeof(*cjob->dep_fences),
				   GFP_KERNEL_ACCOUNT);
	cjob->dep_array = dma_fence_array_alloc(hweight64(deps));
	if (!cjob->dep_fences || !cjob->dep_array)
		return -ENOMEM;
	ret = xa_alloc(&job->base.dependencies, &cjob->dep_slot,
		       dma_fence_get_stub(), xa_limit_32b, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
out:
	/* Implicit dependencies come after: their errors do not propagate. */
	xa_for_each(&job->base.dependencies, slot, fence)
		cjob->explicit_deps = slot + 1;
	return 0;
}

static int ugpu_submit_create_job(struct ugpu_submit *s, u32 index)
{
	struct ugpu_device *udev = s->udev;
	struct ugpu_core_private *core = udev->core;
	struct drm_sched_entity *entity;
	struct ugpu_core_job *cjob;
	struct ugpu_job *job;
	int ret, idx;

	cjob = ugpu_job_alloc(udev, s->ctx);
	if (IS_ERR(cjob))
		return PTR_ERR(cjob);
	s->jobs[index] = cjob;
	job = &cjob->job;
	job->cmd = s->cmds[index];
	kref_get(&s->ufile->vm->refcount);
	job->vm = s->ufile->vm;
	/* Who submitted it, for the messages a job can cause. */
	job->pid = task_tgid_nr(current);
	get_task_comm(job->comm, current);

	if (job->cmd.type == DRM_UGPU_CMD_HW) {
		if (!udev->num_queues || !udev->ops->job_prepare ||
		    !udev->ops->job_run)
			return -EINVAL;
		ret = ugpu_submit_job_bos(s, cjob);
		if (ret)
			return ret;
		if (s->bufs) {
			job->bufs = &s->bufs[s->buf_first[index]];
			job->buf_count = job->cmd.buf_count;
			ugpu_job_keep_bufs(cjob);
		}
		cjob->hw_fence_mem = kzalloc(sizeof(*cjob->hw_fence_mem),
					     GFP_KERNEL_ACCOUNT);
		if (!cjob->hw_fence_mem)
			return -ENOMEM;

		if (!drm_dev_enter(&udev->drm, &idx))
			return -ENODEV;
		ret = udev->ops->job_prepare(job);
		/* The buffers belong to the submit, which is about to go. */
		job->bufs = NULL;
		job->buf_count = 0;
		if (!ret) {
			ret = ugpu_job_power_get(job);
			if (ret && udev->ops->job_cleanup)
				udev->ops->job_cleanup(job);
		}
		if (!ret) {
			mutex_lock(&core->ops_lock);
			list_add_tail(&cjob->live, &core->jobs);
			mutex_unlock(&core->ops_lock);
			cjob->prepared = true;
		}
		drm_dev_exit(idx);
		if (ret)
			return ret;
		if (WARN_ON(job->queue >= udev->num_queues))
			return -EINVAL;
		entity = &s->ctx->entity[job->queue];
	} else {
		cjob->soft = true;
		ret = ugpu_soft_prepare(cjob, s->ufile);
		if (ret)
			return ret;
		entity = &s->ctx->soft_entity;
	}

	ret = drm_sched_job_init(&job->base, entity, 1, NULL,
				 s->file->client_id);
	if (ret)
		return ret;
	cjob->sched_inited = true;

	if (cjob->soft) {
		ret = ugpu_soft_add_deps(cjob);
		if (ret)
			return ret;
	}
	return ugpu_submit_job_deps(s, cjob, index);
}

static int ugpu_submit_prepare_out(struct ugpu_submit *s)
{
	struct drm_ugpu_submit *args = s->args;
	u32 i;

	if (args->cmd_count == 1) {
		s->fences = &s->fence_one;
	} else {
		s->fences = kcalloc(args->cmd_count, sizeof(*s->fences),
				    GFP_KERNEL_ACCOUNT);
		s->done_array = dma_fence_array_alloc(args->cmd_count);
		if (!s->fences || !s->done_array)
			return -ENOMEM;
	}

	for (i = 0; i < args->out_sync_count; i++) {
		s->syncobjs[i] = drm_syncobj_find(s->file,
						  s->out_syncs[i].handle);
		if (!s->syncobjs[i])
			return -ENOENT;
		if (s->out_syncs[i].point) {
			s->chains[i] = dma_fence_chain_alloc();
			if (!s->chains[i])
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * The fences of @resv that @job waits for. A fence that has signalled
 * orders nothing and, being implicit, passes no error on: it costs the
 * job neither a reference nor a dependency slot.
 */
static int ugpu_submit_resv_deps(struct drm_sched_job *job,
				 struct dma_resv *resv,
				 enum dma_resv_usage usage)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	int ret;

	dma_resv_for_each_fence(&cursor, resv, usage, fence) {
		if (dma_fence_is_signaled(fence))
			continue;
		/* Consumes the reference, on failure too. */
		ret = drm_sched_job_add_dependency(job, dma_fence_get(fence));
		if (ret)
			return ret;
	}
	return 0;
}

static int ugpu_submit_implicit(struct ugpu_submit *s)
{
	u32 i, j;
	int ret;

	for (i = 0; i < s->args->cmd_count; i++) {
		for (j = 0; j < s->args->bo_count; j++) {
			bool write;

			if (!ugpu_submit_bo_sync(s, j, &write))
				continue;
			/* Readers wait for writers, writers for everyone. */
			ret = ugpu_submit_resv_deps(&s->jobs[i]->job.base,
						    s->bo_list->objs[j]->resv,
						    write ? DMA_RESV_USAGE_READ :
							    DMA_RESV_USAGE_WRITE);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Past the point of no return: arm and queue every job in order. */
static struct dma_fence *ugpu_submit_push(struct ugpu_submit *s)
{
	struct drm_ugpu_submit *args = s->args;
	struct dma_fence *done;
	u32 i, j, n;

	mutex_lock(&s->ctx->lock);
	for (i = 0; i < args->cmd_count; i++) {
		struct ugpu_core_job *cjob = s->jobs[i];
		struct ugpu_job *job = &cjob->job;
		u64 deps = s->cmds[i].deps;

		if (cjob->dep_array) {
			struct dma_fence *old;

			for (j = 0, n = 0; j < i; j++)
				if (deps & BIT_ULL(j))
					cjob->dep_fences[n++] =
						dma_fence_get(s->fences[j]);
			dma_fence_array_init(cjob->dep_array, n,
					     cjob->dep_fences,
					     dma_fence_context_alloc(1), 1,
					     false);
			/*
			 * An array only passes its members' errors on once
			 * signalling is enabled; found signalled by polling
			 * first, it would report success.
			 */
			dma_fence_enable_sw_signaling(&cjob->dep_array->base);
			/* Replacing an entry allocates nothing. */
			old = xa_store(&job->base.dependencies, cjob->dep_slot,
				       &cjob->dep_array->base, GFP_KERNEL);
			dma_fence_put(old);
			cjob->dep_array = NULL;
			cjob->dep_fences = NULL;
		}

		drm_sched_job_arm(&job->base);
		set_bit(DRM_SCHED_FENCE_DONT_PIPELINE,
			&job->base.s_fence->finished.flags);
		s->fences[i] = dma_fence_get(&job->base.s_fence->finished);
		trace_ugpu_job_submit(dev_name(s->udev->dev),
				      cjob->soft ? UGPU_MAX_QUEUES : job->queue,
				      s->ctx->handle, s->fences[i]->seqno, 0);
		drm_sched_entity_push_job(&job->base);
		/* The scheduler owns the job now. */
		s->jobs[i] = NULL;
	}
	mutex_unlock(&s->ctx->lock);

	/* A reservation object takes no containers: one fence per command. */
	for (i = 0; i < args->bo_count; i++) {
		bool write;

		if (!ugpu_submit_bo_sync(s, i, &write))
			continue;
		for (j = 0; j < args->cmd_count; j++)
			dma_resv_add_fence(s->bo_list->objs[i]->resv,
					   s->fences[j],
					   write ? DMA_RESV_USAGE_WRITE :
						   DMA_RESV_USAGE_READ);
	}

	if (args->cmd_count == 1) {
		done = s->fences[0];
		s->fences[0] = NULL;
	} else {
		dma_fence_array_init(s->done_array, args->cmd_count, s->fences,
				     dma_fence_context_alloc(1), 1, false);
		done = &s->done_array->base;
		/* As for the dependency arrays: keep the members' errors. */
		dma_fence_enable_sw_signaling(done);
		s->done_array = NULL;
		s->fences = NULL;
	}
	return done;
}

static void ugpu_submit_attach_out(struct ugpu_submit *s,
				   struct dma_fence *done)
{
	struct drm_ugpu_submit *args = s->args;
	u32 i;

	for (i = 0; i < args->out_sync_count; i++) {
		if (s->chains[i]) {
			drm_syncobj_add_point(s->syncobjs[i], s->chains[i],
					      done, s->out_syncs[i].point);
			s->chains[i] = NULL;
		} else {
			drm_syncobj_replace_fence(s->syncobjs[i], done);
		}
	}
}

/* Queue the jobs and publish their fence: nothing can fail any more. */
static void ugpu_submit_commit(struct ugpu_submit *s)
{
	struct dma_fence *done = ugpu_submit_push(s);

	ugpu_submit_attach_out(s, done);
	dma_fence_put(done);
}

static void ugpu_submit_cleanup(struct ugpu_submit *s)
{
	struct drm_ugpu_submit *args = s->args;
	u32 i;

	/* Nothing in @scratch is set unless it was allocated. */
	if (s->scratch) {
		for (i = 0; i < args->cmd_count; i++)
			if (s->jobs[i])
				ugpu_job_free_unarmed(s->jobs[i]);
		for (i = 0; i < args->out_sync_count; i++) {
			if (s->syncobjs[i])
				drm_syncobj_put(s->syncobjs[i]);
			dma_fence_chain_free(s->chains[i]);
		}
	}
	/* Missing after a failed allocation. */
	if (s->fences) {
		for (i = 0; i < args->cmd_count; i++)
			dma_fence_put(s->fences[i]);
		if (s->fences != &s->fence_one)
			kfree(s->fences);
	}
	kfree(s->done_array);
	/* The fences are in place, or there are none: the BOs may go. */
	if (s->privates_locked)
		up_read(&s->ufile->privates_lock);
	/* Frees the list unless a job still holds it. */
	ugpu_bo_list_put(s->bo_list);
	kvfree(s->relocs);
	kvfree(s->bufs);
	kvfree(s->ubufs);
	kfree(s->buf_first);
	kvfree(s->scratch);
	if (s->ctx)
		ugpu_ctx_put(s->ctx);
}

int ugpu_ioctl_submit(struct drm_device *dev, void *data,
		      struct drm_file *file)
{
	struct drm_ugpu_submit *args = data;
	struct ugpu_submit s = {
		.args = args,
		.file = file,
		.ufile = file->driver_priv,
		.udev = to_ugpu_device(dev),
		.private_first = U32_MAX,
	};
	struct drm_exec exec;
	int ret, idx;
	u32 i;

	if (args->flags & ~DRM_UGPU_SUBMIT_FLAGS)
		return -EINVAL;
	if (!args->cmd_count || args->cmd_count > UGPU_MAX_CMDS)
		return -EINVAL;
	if (args->bo_count > UGPU_MAX_SUBMIT_BOS ||
	    args->in_sync_count > UGPU_MAX_SUBMIT_SYNCS ||
	    args->out_sync_count > UGPU_MAX_SUBMIT_SYNCS)
		return -EINVAL;

	/* Unplug waits for submits in flight. */
	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;

	s.ctx = ugpu_ctx_lookup(s.ufile, args->ctx);
	if (!s.ctx) {
		ret = -ENOENT;
		goto out;
	}
	if (READ_ONCE(s.ctx->banned)) {
		ret = -EIO;
		goto out;
	}

	ret = ugpu_submit_copy(&s);
	if (ret)
		goto out;
	ret = ugpu_submit_lookup_bos(&s);
	if (ret)
		goto out;
	ret = ugpu_submit_resolve_bufs(&s);
	if (ret)
		goto out;

	for (i = 0; i < args->cmd_count; i++) {
		ret = ugpu_submit_create_job(&s, i);
		if (ret)
			goto out;
	}
	ret = ugpu_submit_prepare_out(&s);
	if (ret)
		goto out;

	/* Nothing to lock: drm_exec would still allocate its array. */
	if (!s.lock_count) {
		ugpu_submit_commit(&s);
		goto out;
	}

	/* Every BO gets one fence per command. */
	drm_exec_init(&exec, DRM_EXEC_INTERRUPTIBLE_WAIT, s.lock_count);
	drm_exec_until_all_locked(&exec) {
		for (i = 0; i < args->bo_count; i++) {
			bool write;

			if (!ugpu_submit_bo_sync(&s, i, &write))
				continue;
			ret = drm_exec_prepare_obj(&exec, s.bo_list->objs[i],
						   args->cmd_count);
			drm_exec_retry_on_contention(&exec);
			/*
			 * Held already: the BO is listed twice (or shares its
			 * reservation with another entry), and the slots
			 * reserved per entry would not cover its fences.
			 */
			if (ret == -EALREADY)
				ret = -EINVAL;
			if (ret)
				goto out_exec;
		}
	}

	if (!(args->flags & DRM_UGPU_SUBMIT_NO_IMPLICIT)) {
		ret = ugpu_submit_implicit(&s);
		if (ret)
			goto out_exec;
	}

	ugpu_submit_commit(&s);

out_exec:
	drm_exec_fini(&exec);
out:
	ugpu_submit_cleanup(&s);
	drm_dev_exit(idx);
	return ret;
}
