// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu driver for Vivante GCxxx GPUs: binding, identity, GET_PARAM,
 * interrupts, reset and power. Each core (a 3D GC2000, the 2D GC320 beside
 * it, a GC7000) is its own device; what a core can do is decided from its
 * feature bits, once, in viv_identify(), and from a table of cores whose
 * identity registers are incomplete or wrong.
 *
 * The resources are those of the "vivante,gc" binding: one interrupt, the
 * clocks "bus", "core", "shader" and "reg" (only "core" is required), an
 * optional reset and power domain. The GPU is powered through runtime PM
 * with autosuspend: a job holds a reference from its submit (where waiting
 * for the GPU to power up is allowed) until it is freed, so the GPU never
 * sleeps with work queued or running, and job_run() never waits.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/reset.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_print.h>

#include "vivante.h"

static int viv_get_param(struct ugpu_device *udev, u32 param, u32 index,
			 u64 *value)
{
	struct viv_device *vdev = to_viv(udev);
	const struct viv_specs *sp = &vdev->spec;

	if (index)
		return -EINVAL;
	switch (param) {
	case DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT:
		*value = sp->stream_count;
		break;
	case DRM_UGPU_PARAM_VIVANTE_REGISTER_MAX:
		*value = sp->register_max;
		break;
	case DRM_UGPU_PARAM_VIVANTE_THREAD_COUNT:
		*value = sp->thread_count;
		break;
	case DRM_UGPU_PARAM_VIVANTE_VERTEX_CACHE_SIZE:
		*value = sp->vertex_cache_size;
		break;
	case DRM_UGPU_PARAM_VIVANTE_SHADER_CORE_COUNT:
		*value = sp->shader_core_count;
		break;
	case DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES:
		*value = sp->pixel_pipes;
		break;
	case DRM_UGPU_PARAM_VIVANTE_INSTRUCTION_COUNT:
		*value = sp->instruction_count;
		break;
	case DRM_UGPU_PARAM_VIVANTE_NUM_CONSTANTS:
		*value = sp->num_constants;
		break;
	case DRM_UGPU_PARAM_VIVANTE_VARYINGS_COUNT:
		*value = sp->varyings_count;
		break;
	case DRM_UGPU_PARAM_VIVANTE_MMU_VERSION:
		*value = vdev->mmuv2 ? 2 : 1;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static u64 viv_ts_read(const struct cyclecounter *cc)
{
	struct viv_device *vdev = container_of(cc, struct viv_device, ts_cc);

	return viv_read(vdev, vdev->ts_reg);
}

/*
 * The core counts its clock cycles in a 32-bit register that a reset or
 * power loss clears. The timestamp extends it to 64 bits (timecounter
 * with a scale of one: it stays in cycles), reading it at least four
 * times a wrap. While the counter is stopped (the core suspended or in a
 * reset), the time that passes is carried forward at the clock's rate,
 * so the timestamp keeps its rate and never goes back.
 */
static u64 viv_ts_stopped_count(struct viv_device *vdev)
{
	u64 gap;

	lockdep_assert_held(&vdev->ts_lock);
	if (!vdev->ts_cc.read)
		return 0;
	gap = ktime_to_ns(ktime_sub(ktime_get(), vdev->ts_stopped));
	return vdev->ts_tc.nsec +
	       mul_u64_u64_div_u64(gap, vdev->udev.timestamp_frequency,
				   NSEC_PER_SEC);
}

/* After a reset, which cleared the counter: follow it again. */
static void viv_ts_start(struct viv_device *vdev)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->ts_lock, flags);
	if (!vdev->ts_running) {
		u64 start = viv_ts_stopped_count(vdev);

		vdev->ts_cc.read = viv_ts_read;
		vdev->ts_cc.mask = CYCLECOUNTER_MASK(32);
		vdev->ts_cc.mult = 1;
		timecounter_init(&vdev->ts_tc, &vdev->ts_cc, start);
		vdev->ts_running = true;
	}
	spin_unlock_irqrestore(&vdev->ts_lock, flags);
	mod_delayed_work(system_wq, &vdev->ts_work, vdev->ts_period);
}

/* Before a reset or a power-down: take the count while it is valid. */
static void viv_ts_stop(struct viv_device *vdev)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->ts_lock, flags);
	if (vdev->ts_running) {
		timecounter_read(&vdev->ts_tc);
		vdev->ts_stopped = ktime_get();
		vdev->ts_running = false;
	}
	spin_unlock_irqrestore(&vdev->ts_lock, flags);
}

static void viv_ts_work(struct work_struct *work)
{
	struct viv_device *vdev = container_of(to_delayed_work(work),
					       struct viv_device, ts_work);
	int pm = pm_runtime_get_if_active(vdev->udev.dev);
	unsigned long flags;
	bool running;

	/* A suspended core's count was taken when it stopped. */
	if (!pm || (pm < 0 && pm != -EINVAL))
		return;
	spin_lock_irqsave(&vdev->ts_lock, flags);
	running = vdev->ts_running;
	if (running)
		timecounter_read(&vdev->ts_tc);
	spin_unlock_irqrestore(&vdev->ts_lock, flags);
	if (pm > 0)
		pm_runtime_put_autosuspend(vdev->udev.dev);
	if (running)
		mod_delayed_work(system_wq, &vdev->ts_work, vdev->ts_period);
}

/*
 * &ugpu_family_ops.read_timestamp: the core's cycle counter, extended.
 * Also called where fences are signalled (WRITE_TIMESTAMP), so it never
 * powers the core up: a suspended core's count is the one taken when it
 * stopped, carried forward as viv_ts_start() will.
 */
static u64 viv_read_timestamp(struct ugpu_device *udev)
{
	struct viv_device *vdev = to_viv(udev);
	int pm = pm_runtime_get_if_active(udev->dev);
	/* Without runtime PM (-EINVAL), the core is always powered. */
	bool active = pm > 0 || pm == -EINVAL;
	unsigned long flags;
	u64 ts;

	spin_lock_irqsave(&vdev->ts_lock, flags);
	if (!vdev->ts_running)
		ts = viv_ts_stopped_count(vdev);
	else if (active)
		ts = timecounter_read(&vdev->ts_tc);
	else	/* suspending, the count about to be taken: the last one */
		ts = vdev->ts_tc.nsec;
	spin_unlock_irqrestore(&vdev->ts_lock, flags);
	if (pm > 0)
		pm_runtime_put_autosuspend(udev->dev);
	return ts;
}

static u32 viv_read_idle(struct viv_device *vdev)
{
	return viv_read(vdev, VIV_HI_IDLE_STATE);
}

/*
 * Soft-reset the core and wait until its front end is idle: only then
 * has the memory traffic of the commands it was running drained, and may
 * the pages and tables they used be reused or freed.
 */
static void viv_hw_reset(struct viv_device *vdev)
{
	u32 idle;

	viv_write(vdev, VIV_HI_CLOCK_CONTROL, VIV_HI_CLOCK_CONTROL_SOFT_RESET);
	viv_write(vdev, VIV_HI_CLOCK_CONTROL, 0);
	/* The reset completes on the core's clock. */
	if (readx_poll_timeout(viv_read_idle, vdev, idle,
			       (idle & VIV_HI_IDLE_STATE_FE), 100, 100000))
		dev_err(vdev->udev.dev, "the core did not go idle after a reset\n");
}

static void viv_hw_init(struct viv_device *vdev)
{
	viv_hw_reset(vdev);
	viv_mmu_hw_init(vdev);
	viv_write(vdev, VIV_HI_INTR_ENBL, ~0u);
	viv_ring_start(vdev);
	/* The reset cleared the cycle counter. */
	viv_ts_start(vdev);
}

/*
 * Reset the core and start an empty ring (ugpu_recover, unregister). A
 * job on the GPU or the remove path holds the device active.
 */
static void viv_reset(struct ugpu_device *udev)
{
	struct viv_device *vdev = to_viv(udev);

	dev_warn(udev->dev, "resetting the GPU\n");
	viv_ts_stop(vdev);
	viv_write(vdev, VIV_HI_INTR_ENBL, 0);
	viv_ring_reset(vdev);
	viv_hw_init(vdev);
}

static int viv_power_up(struct viv_device *vdev)
{
	int ret;

	ret = clk_bulk_prepare_enable(VIV_NUM_CLKS, vdev->clks);
	if (ret)
		return ret;
	/* The core leaves reset with its clocks running. */
	ret = reset_control_deassert(vdev->rst);
	if (ret)
		clk_bulk_disable_unprepare(VIV_NUM_CLKS, vdev->clks);
	return ret;
}

static void viv_power_down(struct viv_device *vdev)
{
	reset_control_assert(vdev->rst);
	clk_bulk_disable_unprepare(VIV_NUM_CLKS, vdev->clks);
}

/* A job on the ring or waiting for it; each holds a runtime PM reference. */
static bool viv_busy(struct viv_device *vdev)
{
	unsigned long flags;
	bool busy;
	int i;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	busy = !list_empty(&vdev->parked);
	for (i = 0; i < VIV_NUM_EVENTS; i++)
		busy |= !!vdev->events[i];
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	return busy;
}

/* The FE has stopped and every pipe of the core is idle. */
static bool viv_fe_stopped(struct viv_device *vdev)
{
	u32 pipes = (vdev->pipe_3d ? VIV_HI_CLOCK_CONTROL_IDLE_3D : 0) |
		    (vdev->pipe_2d ? VIV_HI_CLOCK_CONTROL_IDLE_2D : 0);

	return (viv_read(vdev, VIV_HI_CLOCK_CONTROL) & pipes) == pipes &&
	       (viv_read(vdev, VIV_HI_IDLE_STATE) & VIV_HI_IDLE_STATE_FE);
}

/*
 * Stop the FE before its clocks and power go: cut while fetching, the
 * core may leave a bus transfer half done. It leaves the WAIT within 200
 * cycles and meets the END.
 */
static void viv_fe_stop(struct viv_device *vdev)
{
	bool stopped;

	viv_ring_end(vdev);
	if (read_poll_timeout(viv_fe_stopped, stopped, stopped, 100, 100000,
			      false, vdev))
		dev_warn(vdev->udev.dev,
			 "the FE did not stop before suspend: idle %#x, clock control %#x, DMA at %#x, state %#x\n",
			 viv_read(vdev, VIV_HI_IDLE_STATE),
			 viv_read(vdev, VIV_HI_CLOCK_CONTROL),
			 viv_read(vdev, VIV_FE_DMA_ADDRESS),
			 viv_read(vdev, VIV_FE_DMA_DEBUG_STATE));
}

static int viv_runtime_suspend(struct device *dev)
{
	struct viv_device *vdev = dev_get_drvdata(dev);

	if (vdev->hw_ready) {
		if (WARN_ON_ONCE(viv_busy(vdev)))
			return -EBUSY;
		viv_fe_stop(vdev);
		/* Nothing may touch the registers once the clocks stop. */
		viv_ts_stop(vdev);
		viv_write(vdev, VIV_HI_INTR_ENBL, 0);
		synchronize_irq(vdev->irq);
	}
	viv_power_down(vdev);
	return 0;
}

static int viv_runtime_resume(struct device *dev)
{
	struct viv_device *vdev = dev_get_drvdata(dev);
	int ret;

	ret = viv_power_up(vdev);
	if (ret)
		return ret;
	/*
	 * The domain may have been off: the MMU setup, the FE and the
	 * interrupt mask are gone. The ring starts empty, as after a reset.
	 */
	if (vdev->hw_ready)
		viv_hw_init(vdev);
	return 0;
}

/* System sleep: the core drains the queues and forces a runtime suspend. */
static int viv_system_suspend(struct device *dev)
{
	struct viv_device *vdev = dev_get_drvdata(dev);

	return ugpu_pm_suspend(&vdev->udev);
}

static int viv_system_resume(struct device *dev)
{
	struct viv_device *vdev = dev_get_drvdata(dev);

	return ugpu_pm_resume(&vdev->udev);
}

static const struct dev_pm_ops viv_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(viv_system_suspend, viv_system_resume)
	RUNTIME_PM_OPS(viv_runtime_suspend, viv_runtime_resume, NULL)
};

static irqreturn_t viv_irq(int irq, void *data)
{
	struct viv_device *vdev = data;
	u32 pending = viv_read(vdev, VIV_HI_INTR_ACKNOWLEDGE);

	if (!pending)
		return IRQ_NONE;
	if (pending & VIV_HI_INTR_MMU_EXCEPTION) {
		u32 status = viv_read(vdev, VIV_MMUV2_STATUS);
		u32 addr = viv_read(vdev, VIV_MMUV2_EXCEPTION_ADDR(0));

		dev_warn_ratelimited(vdev->udev.dev,
				     "MMU fault at GPU address %#x (status %#x)\n",
				     addr, status);
		WRITE_ONCE(vdev->fault_addr, addr);
		WRITE_ONCE(vdev->fault, true);
		schedule_work(&vdev->fault_work);
	}
	if (pending & VIV_HI_INTR_AXI_BUS_ERROR)
		dev_warn_ratelimited(vdev->udev.dev, "AXI bus error\n");
	viv_events_irq(vdev, pending & VIV_HI_INTR_EVENT_MASK);
	return IRQ_HANDLED;
}

static int viv_stats_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct viv_device *vdev = to_viv(to_ugpu_device(entry->dev));
	unsigned long flags;
	u64 sw, bytes, max, parked;

	spin_lock_irqsave(&vdev->ring_lock, flags);
	sw = vdev->stat_switches;
	bytes = vdev->stat_restore_bytes;
	max = vdev->stat_restore_max;
	parked = vdev->stat_parked;
	spin_unlock_irqrestore(&vdev->ring_lock, flags);
	seq_printf(m, "context_switches: %llu\nrestore_bytes: %llu\nrestore_max: %llu\n",
		   sw, bytes, max);
	seq_printf(m, "parked_jobs: %llu\n", parked);
	seq_printf(m, "validated_bytes: %lld\nvalidate_ns: %lld\n",
		   atomic64_read(&vdev->stat_validated),
		   atomic64_read(&vdev->stat_validate_ns));
	return 0;
}

void viv_debugfs_init(struct viv_device *vdev)
{
	drm_debugfs_add_file(&vdev->udev.drm, "vivante_stats", viv_stats_show,
			     NULL);
}

/*
 * &ugpu_family_ops.job_prepare: validate, then allocate the context state
 * the job will update while still in the submitter's context (the core
 * powers the GPU up after it).
 */
static int viv_prepare(struct ugpu_job *job)
{
	int ret = viv_job_prepare(job);

	if (ret)
		return ret;
	ret = viv_ctx_reserve(to_viv(job->udev), ugpu_job_ctx_priv(job),
			      job->priv);
	if (ret)
		viv_job_cleanup(job);
	return ret;
}

static const struct ugpu_family_ops viv_ops = {
	.get_param = viv_get_param,
	.read_timestamp = viv_read_timestamp,
	.vm_init = viv_vm_init,
	.vm_fini = viv_vm_fini,
	.vm_map = viv_vm_map,
	.vm_unmap = viv_vm_unmap,
	.ctx_init = viv_ctx_init,
	.ctx_fini = viv_ctx_fini,
	.job_prepare = viv_prepare,
	.job_run = viv_job_run,
	.progress = viv_progress,
	.job_timedout = viv_job_timedout,
	.job_cleanup = viv_job_cleanup,
	.reset = viv_reset,
	.coredump = viv_coredump,
};

/* Any revision of the model. */
#define VIV_ANY_REV			~0U

/* An instruction count field of 0 means 512, not 256. */
#define VIV_CORE_INSTR_512		BIT(0)
/* Position takes two varyings: one fewer is left to shaders. */
#define VIV_CORE_POSITION_VARYINGS	BIT(1)

/**
 * struct viv_core - a core whose identity registers need correcting.
 * @model: HI_CHIP_MODEL as read.
 * @revision: HI_CHIP_REV as read, or %VIV_ANY_REV.
 * @real_model: the model the core is, when it reports another; or 0.
 * @real_revision: its revision then.
 * @flags: VIV_CORE_* fix-ups of the decoded HI_CHIP_SPECS* values.
 * @specs: the core's limits, replacing the registers' altogether (values
 *	they cannot encode, or misreport), or NULL.
 *
 * Entries are found by the identity as read, then (for the fix-ups) by
 * the real one.
 */
struct viv_core {
	u32 model;
	u32 revision;
	u32 real_model;
	u32 real_revision;
	u32 flags;
	const struct viv_specs *specs;
};

/* GC7000 r6214 (i.MX8MQ): 16 streams and 1024 threads do not fit. */
static const struct viv_specs viv_gc7000_6214_specs = {
	.stream_count = 16, .register_max = 64, .thread_count = 1024,
	.vertex_cache_size = 16, .shader_core_count = 4, .pixel_pipes = 2,
	.instruction_count = 512, .num_constants = 320, .varyings_count = 16,
};

static const struct viv_core viv_cores[] = {
	/* The i.MX6QP's "GC2000+" is a GC3000: rev 0xffff5450. */
	{ 0x2000, 0xffff5450, .real_model = 0x3000, .real_revision = 0x5450 },
	{ 0x2000, 0x5108, .flags = VIV_CORE_INSTR_512 |
				   VIV_CORE_POSITION_VARYINGS },
	{ 0x880, VIV_ANY_REV, .flags = VIV_CORE_INSTR_512 },
	{ 0x880, 0x5106, .flags = VIV_CORE_INSTR_512 |
				  VIV_CORE_POSITION_VARYINGS },
	{ 0x880, 0x5107, .flags = VIV_CORE_INSTR_512 |
				  VIV_CORE_POSITION_VARYINGS },
	{ 0x1500, 0x5246, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x2100, 0x5108, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x2200, 0x5244, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x3000, 0x5435, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x4000, 0x5208, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x4000, 0x5222, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x4000, 0x5245, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x5000, 0x5434, .flags = VIV_CORE_POSITION_VARYINGS },
	{ 0x7000, 0x6214, .specs = &viv_gc7000_6214_specs },
};

/* The entry for @model and @revision: an exact one before an any-revision one. */
static const struct viv_core *viv_core_find(u32 model, u32 revision)
{
	const struct viv_core *any = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(viv_cores); i++) {
		if (viv_cores[i].model != model)
			continue;
		if (viv_cores[i].revision == revision)
			return &viv_cores[i];
		if (viv_cores[i].revision == VIV_ANY_REV)
			any = &viv_cores[i];
	}
	return any;
}

/* HI_CHIP_SPECS* decoded, with the fix-ups of @core (may be NULL). */
static void viv_decode_specs(struct viv_device *vdev,
			     const struct viv_core *core)
{
	u32 s = vdev->specs[0], s2 = vdev->specs[1], s3 = vdev->specs[2];
	u32 flags = core ? core->flags : 0;
	struct viv_specs *sp = &vdev->spec;

	if (core && core->specs) {
		*sp = *core->specs;
		return;
	}
	sp->stream_count = VIV_SPECS_STREAM_COUNT(s);
	sp->register_max = 1 << VIV_SPECS_REGISTER_MAX(s);
	sp->thread_count = 1 << VIV_SPECS_THREAD_COUNT(s);
	sp->vertex_cache_size = VIV_SPECS_VERTEX_CACHE_SIZE(s);
	sp->shader_core_count = VIV_SPECS_SHADER_CORE_COUNT(s);
	sp->pixel_pipes = VIV_SPECS_PIXEL_PIPES(s);
	switch (VIV_SPECS_2_INSTRUCTION_COUNT(s2)) {
	case 0:
		sp->instruction_count = flags & VIV_CORE_INSTR_512 ? 512 : 256;
		break;
	case 1:
		sp->instruction_count = 1024;
		break;
	case 2:
		sp->instruction_count = 2048;
		break;
	default:
		sp->instruction_count = 256;
		break;
	}
	sp->num_constants = VIV_SPECS_2_NUM_CONSTANTS(s2) ?: 168;
	sp->varyings_count = VIV_SPECS_3_VARYINGS_COUNT(s3);
	if (!sp->varyings_count)
		sp->varyings_count = vdev->features[2] & VIV_MINOR1_HALTI0 ?
				     12 : 8;
	if (flags & VIV_CORE_POSITION_VARYINGS)
		sp->varyings_count--;
}

/*
 * Who the core is and what it has. Every decision that depends on the
 * core's identity is taken here, from the (corrected) model and the
 * feature words: the MMU version, the pipes and so the queues, resolves
 * through the RS or the BLT engine, the 2D engine's version.
 */
static void viv_identify(struct viv_device *vdev)
{
	static const u32 minor_regs[] = {
		VIV_HI_CHIP_MINOR_FEATURE_0, VIV_HI_CHIP_MINOR_FEATURE_1,
		VIV_HI_CHIP_MINOR_FEATURE_2, VIV_HI_CHIP_MINOR_FEATURE_3,
		VIV_HI_CHIP_MINOR_FEATURE_4, VIV_HI_CHIP_MINOR_FEATURE_5,
	};
	struct ugpu_device *udev = &vdev->udev;
	const struct viv_core *core;
	unsigned int i;

	vdev->model = viv_read(vdev, VIV_HI_CHIP_MODEL);
	vdev->revision = viv_read(vdev, VIV_HI_CHIP_REV);
	core = viv_core_find(vdev->model, vdev->revision);
	if (core && core->real_model) {
		vdev->model = core->real_model;
		vdev->revision = core->real_revision;
		core = viv_core_find(vdev->model, vdev->revision);
	}
	vdev->features[0] = viv_read(vdev, VIV_HI_CHIP_FEATURE);
	for (i = 0; i < ARRAY_SIZE(minor_regs); i++)
		vdev->features[i + 1] = viv_read(vdev, minor_regs[i]);
	vdev->specs[0] = viv_read(vdev, VIV_HI_CHIP_SPECS);
	vdev->specs[1] = viv_read(vdev, VIV_HI_CHIP_SPECS_2);
	vdev->specs[2] = viv_read(vdev, VIV_HI_CHIP_SPECS_3);
	viv_decode_specs(vdev, core);

	vdev->mmuv2 = vdev->features[2] & VIV_MINOR1_MMU_VERSION;
	vdev->pipe_3d = vdev->features[0] & VIV_FEATURE_PIPE_3D;
	vdev->pipe_2d = vdev->features[0] & VIV_FEATURE_PIPE_2D;
	vdev->blt = vdev->pipe_3d && (vdev->features[6] & VIV_MINOR5_BLT_ENGINE);
	vdev->pe20 = vdev->pipe_2d && (vdev->features[1] & VIV_MINOR0_2DPE20);
	/* These cores count their cycles in the memory controller. */
	if (vdev->model == 0x880 || vdev->model == 0x2000 ||
	    vdev->model == 0x2100)
		vdev->ts_reg = VIV_MC_PROFILE_CYCLE_COUNTER;
	else
		vdev->ts_reg = VIV_HI_PROFILE_TOTAL_CYCLES;

	udev->family = DRM_UGPU_FAMILY_VIVANTE;
	udev->chip_model = vdev->model;
	udev->chip_revision = vdev->revision;
	udev->chip_id = (u64)vdev->model << 32 | vdev->revision;
	udev->num_features = VIV_NUM_FEATURE_WORDS;
	memcpy(udev->features, vdev->features, sizeof(vdev->features));
	dev_info(udev->dev, "GC%x rev %04x, MMUv%d%s%s%s\n", vdev->model,
		 vdev->revision, vdev->mmuv2 ? 2 : 1,
		 vdev->pipe_3d ? (vdev->blt ? ", 3D with BLT" : ", 3D with RS") : "",
		 vdev->pipe_2d ? ", 2D" : "", vdev->pe20 ? " PE2.0" : "");
}

static const char *const viv_clk_names[VIV_NUM_CLKS] = {
	[VIV_CLK_BUS] = "bus",
	[VIV_CLK_CORE] = "core",
	[VIV_CLK_SHADER] = "shader",
	[VIV_CLK_REG] = "reg",
};

/* The binding's resources; nothing here touches the GPU. */
static int viv_get_resources(struct platform_device *pdev,
			     struct viv_device *vdev)
{
	struct device *dev = &pdev->dev;
	struct ugpu_device *udev = &vdev->udev;
	struct regmap *regs;
	unsigned int i;
	u64 wrap_ns;
	int ret;

	regs = ugpu_io_init(pdev);
	if (IS_ERR(regs))
		return dev_err_probe(dev, PTR_ERR(regs), "no registers\n");
	udev->regs = regs;

	ret = platform_get_irq(pdev, 0);
	if (ret < 0)
		return ret;
	vdev->irq = ret;

	for (i = 0; i < VIV_NUM_CLKS; i++)
		vdev->clks[i].id = viv_clk_names[i];
	ret = devm_clk_bulk_get_optional(dev, VIV_NUM_CLKS, vdev->clks);
	if (ret)
		return dev_err_probe(dev, ret, "cannot get the clocks\n");
	if (!vdev->clks[VIV_CLK_CORE].clk)
		return dev_err_probe(dev, -ENODEV, "no \"core\" clock\n");

	vdev->rst = devm_reset_control_get_optional_exclusive(dev, NULL);
	if (IS_ERR(vdev->rst))
		return dev_err_probe(dev, PTR_ERR(vdev->rst),
				     "cannot get the reset\n");

	/* Timestamps count core cycles. */
	udev->timestamp_frequency = clk_get_rate(vdev->clks[VIV_CLK_CORE].clk);
	if (!udev->timestamp_frequency)
		return dev_err_probe(dev, -EINVAL, "the core clock has no rate\n");
	/* A quarter of the time 2^32 cycles take, at least a jiffy. */
	wrap_ns = div64_u64((u64)NSEC_PER_SEC << 32,
			    udev->timestamp_frequency);
	vdev->ts_period = max(1ul, nsecs_to_jiffies(wrap_ns >> 2));
	return 0;
}

static int viv_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct viv_device *vdev;
	struct ugpu_device *udev;
	int ret;

	vdev = ugpu_device_alloc(dev, &viv_ops, struct viv_device, udev);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	udev = &vdev->udev;
	platform_set_drvdata(pdev, vdev);
	viv_validate_init();
	INIT_WORK(&vdev->fault_work, viv_fault_work);
	spin_lock_init(&vdev->ts_lock);
	INIT_DELAYED_WORK(&vdev->ts_work, viv_ts_work);

	ret = viv_get_resources(pdev, vdev);
	if (ret)
		return ret;

	ret = ugpu_pm_runtime_init(dev, VIV_AUTOSUSPEND_MS);
	if (ret)
		return ret;

	viv_identify(vdev);
	if (!vdev->pipe_3d && !vdev->pipe_2d) {
		ret = dev_err_probe(dev, -ENODEV, "no 3D or 2D pipe\n");
		goto err_pm;
	}

	/*
	 * MMUv1 entries and the linear window hold 32-bit addresses. MMUv2
	 * PTEs hold 40 bits, but the MTLB entries, MMUv2_CONFIGURATION and
	 * the safe address only 32: BOs may be anywhere below 1 TiB, the
	 * tables and the kernel region (coherent memory) below 4 GiB.
	 */
	if (vdev->mmuv2)
		ret = dma_set_mask(dev, DMA_BIT_MASK(40)) ?:
		      dma_set_coherent_mask(dev, DMA_BIT_MASK(32));
	else
		ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	if (ret) {
		dev_err_probe(dev, ret, "no suitable DMA mask\n");
		goto err_pm;
	}
	/* The MMU maps page by page: any segment length will do. */
	dma_set_max_seg_size(dev, UINT_MAX);

	vdev->kregion = dmam_alloc_coherent(dev, VIV_KREGION_SIZE,
					    &vdev->kregion_dma, GFP_KERNEL);
	if (!vdev->kregion) {
		ret = -ENOMEM;
		goto err_pm;
	}
	ret = viv_mmu_init(vdev);
	if (ret)
		goto err_pm;
	ret = viv_ring_init(vdev);
	if (ret)
		goto err_mmu;

	if (vdev->mmuv2) {
		udev->va_start = VIV_MMUV2_VA_START;
		udev->va_size = VIV_MMUV2_VA_END - VIV_MMUV2_VA_START;
	} else {
		udev->va_start = VIV_MMUV1_FILE_VA_START;
		udev->va_size = VIV_MMUV1_FILE_VA_END - VIV_MMUV1_FILE_VA_START;
	}
	/*
	 * The family's default; ugpu.ko's job_timeout_ms overrides it. An FE
	 * that moves gets up to ten times that.
	 */
	udev->job_timeout_ms = 500;
	udev->dump_regs = viv_dump_regs;
	/* The MMUv2 registers come last. */
	udev->num_dump_regs = viv_num_dump_regs - !vdev->mmuv2;
	/* Byte-sized buffers of 64-bit FE commands, relocated on MMUv1. */
	udev->cmdbuf = (struct ugpu_cmdbuf_caps) {
		.max_bufs = VIV_MAX_BUFS,
		.max_relocs = VIV_MAX_RELOCS,
		.offset_align = 8,
		.size_align = 8,
	};
	BUILD_BUG_ON(2 * VIV_QUEUE_DEPTH > VIV_NUM_EVENTS);
	if (vdev->pipe_3d) {
		udev->queues[udev->num_queues].caps = DRM_UGPU_QUEUE_CAP_CMDBUF_3D;
		udev->queues[udev->num_queues].depth = VIV_QUEUE_DEPTH;
		strscpy(udev->queues[udev->num_queues++].name, "3d");
	}
	if (vdev->pipe_2d) {
		udev->queues[udev->num_queues].caps = DRM_UGPU_QUEUE_CAP_CMDBUF_2D;
		udev->queues[udev->num_queues].depth = VIV_QUEUE_DEPTH;
		strscpy(udev->queues[udev->num_queues++].name, "2d");
	}

	ret = devm_request_irq(dev, vdev->irq, viv_irq, 0, dev_name(dev), vdev);
	if (ret)
		goto err_mmu;

	viv_hw_init(vdev);
	vdev->hw_ready = true;
	viv_debugfs_init(vdev);

	ret = ugpu_device_register(udev);
	if (ret)
		goto err_stop;
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return 0;

err_stop:
	viv_ts_stop(vdev);
	cancel_delayed_work_sync(&vdev->ts_work);
	viv_write(vdev, VIV_HI_INTR_ENBL, 0);
	viv_hw_reset(vdev);
	vdev->hw_ready = false;
	cancel_work_sync(&vdev->fault_work);
	cancel_work_sync(&vdev->unpark_work);
err_mmu:
	viv_mmu_fini(vdev);
err_pm:
	ugpu_pm_runtime_fini(dev);
	return ret;
}

static void viv_remove(struct platform_device *pdev)
{
	struct viv_device *vdev = platform_get_drvdata(pdev);
	struct device *dev = &pdev->dev;
	bool powered;

	/*
	 * Unregister resets the GPU: it must answer. A GPU that cannot be
	 * resumed is not touched.
	 */
	powered = pm_runtime_get_sync(dev) >= 0;
	ugpu_device_unregister(&vdev->udev);
	cancel_work_sync(&vdev->fault_work);
	viv_ts_stop(vdev);
	cancel_delayed_work_sync(&vdev->ts_work);
	if (powered) {
		viv_write(vdev, VIV_HI_INTR_ENBL, 0);
		viv_hw_reset(vdev);
	}
	viv_ring_reset(vdev);
	devm_free_irq(dev, vdev->irq, vdev);
	/* Completions schedule it: only now can it not come back. */
	cancel_work_sync(&vdev->unpark_work);
	vdev->hw_ready = false;
	viv_mmu_fini(vdev);
	ugpu_pm_runtime_fini(dev);
}

static const struct of_device_id viv_of_match[] = {
	{ .compatible = "vivante,gc" },
	{}
};
MODULE_DEVICE_TABLE(of, viv_of_match);

static const struct platform_device_id viv_id_table[] = {
	{ .name = "ugpu-vivante" },
	{}
};
MODULE_DEVICE_TABLE(platform, viv_id_table);

static struct platform_driver viv_driver = {
	.probe = viv_probe,
	.remove = viv_remove,
	.id_table = viv_id_table,
	.driver = {
		.name = "ugpu-vivante",
		.of_match_table = viv_of_match,
		.pm = pm_ptr(&viv_pm_ops),
	},
};
module_platform_driver(viv_driver);

MODULE_DESCRIPTION("ugpu driver for Vivante GCxxx GPUs");
MODULE_LICENSE("GPL");
