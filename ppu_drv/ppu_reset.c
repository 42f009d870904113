// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * Recovery: all rings of the PPU form one drm_sched_serial reset domain.
 * gfx and compute rings share a hang domain in hardware and are arbitrated
 * by serial replay; sdma rings are independent. This file holds the ops
 * drm_sched_serial calls back into and the recovery policy parameters.
 */
#include <linux/module.h>
#include <drm/drm_print.h>

#include "ppu_drv.h"
#include "ppu_reset.h"

static char *recovery_mode = "serial";
module_param(recovery_mode, charp, 0444);
MODULE_PARM_DESC(recovery_mode, "Recovery from job timeouts: serial (default), classic, off");

static unsigned int probe_timeout_ms = 500;
module_param(probe_timeout_ms, uint, 0444);
MODULE_PARM_DESC(probe_timeout_ms, "First window of a group replay, which convicts nobody; a head replayed alone gets its ring's timeout (default 500)");

static unsigned int replay_budget_ms = 5000;
module_param(replay_budget_ms, uint, 0444);
MODULE_PARM_DESC(replay_budget_ms, "Cap on replay time per recovery; past it undecided heads run again; above the ring timeouts, or a shared ring's hang is never convicted in one recovery (default 5000)");

static unsigned int max_resets = 4;
module_param(max_resets, uint, 0444);
MODULE_PARM_DESC(max_resets, "Cap on device resets per recovery (default 4)");

static unsigned int hang_limit = 1;
module_param(hang_limit, uint, 0444);
MODULE_PARM_DESC(hang_limit, "Guilty verdicts that ban a context; 0: never ban for guilt (default 1)");

static unsigned int suspect_limit = 3;
module_param(suspect_limit, uint, 0444);
MODULE_PARM_DESC(suspect_limit, "Suspect verdicts within suspect_window_ms that ban a context; 0: never ban for suspicion (default 3)");

static unsigned int suspect_window_ms = 120000;
module_param(suspect_window_ms, uint, 0444);
MODULE_PARM_DESC(suspect_window_ms, "Window of suspect_limit in ms (default 120000)");

static unsigned int coalesce_ms = 50;
module_param(coalesce_ms, uint, 0444);
MODULE_PARM_DESC(coalesce_ms, "A ring whose timeout fires within this many ms of a recovery joins it (default 50)");

static unsigned int max_runtime_ms = 10000;
module_param(max_runtime_ms, uint, 0444);
MODULE_PARM_DESC(max_runtime_ms, "A job still progressing, or waiting for a value unhindered, after this many ms at its ring's head is hung: guilty; 0: no cap (default 10000)");

static unsigned int isolate_ms = 10000;
module_param(isolate_ms, uint, 0444);
MODULE_PARM_DESC(isolate_ms, "A hang that convicts nobody isolates the processes whose heads timed out, once per recovery, for this long, doubled for each repeat: their jobs run alone, so that a repeat is seen alone; 0: never (default 10000)");

static char *reset_ladder = "ring";
module_param(reset_ladder, charp, 0444);
MODULE_PARM_DESC(reset_ladder, "Which reset a timeout tries first: ring (the engine that timed out alone, the domain only if that settles nothing; default) or domain (the whole device, as in the RFC)");

static char *probe_strategy = "serial";
module_param(probe_strategy, charp, 0444);
MODULE_PARM_DESC(probe_strategy, "Replay of the shared heads: serial (one at a time, default) or group (every head not reported hung at once)");

static struct ppu_device *to_ppu_domain(struct drm_sched_serial_domain *d)
{
	return container_of(d, struct ppu_device, domain);
}

static int ppu_reset_hw(struct drm_sched_serial_domain *d,
			enum drm_sched_serial_cause cause)
{
	struct ppu_device *ppu = to_ppu_domain(d);
	u32 i;
	int ret;

	ret = ppu->hw->ops->reset(ppu->hw);
	atomic_inc(&ppu->reset_count);
	/* The device dropped its work: those hw fences signal now. */
	for (i = 0; i < ppu->nr_rings; i++)
		ppu_ring_cancel_fences(&ppu->rings[i]);
	return ret;
}

static struct dma_fence *ppu_reset_hw_fence(struct drm_sched_job *sched_job)
{
	return dma_fence_get(to_ppu_job(sched_job)->hw_fence);
}

static struct dma_fence *ppu_reset_emit(struct drm_sched_job *sched_job)
{
	struct ppu_job *job = to_ppu_job(sched_job);

	/* Probes and re-emissions: inside the recovery's signalling section. */
	return ppu_ring_emit(job->ring, job,
			     ppu_fence_alloc_nowait(job->ring->ppu));
}

static struct drm_sched_serial_ctx *ppu_reset_job_ctx(struct drm_sched_job *sched_job)
{
	return &to_ppu_job(sched_job)->ctx->serial;
}

static ktime_t ppu_reset_last_progress(struct drm_sched_serial_ring *sring)
{
	struct ppu_ring *ring = container_of(sring, struct ppu_ring, serial);
	struct ppu_hw_ring_state st;

	ring->ppu->hw->ops->ring_state(ring->ppu->hw, ring->index, &st);
	return st.last_progress;
}

/*
 * The hardware hint of a ring: a preemption request. An engine that parks
 * is only stalled (or busy); one that does not is hung; an idle ring, a
 * device in reset or without the operation tells nothing.
 */
static enum drm_sched_serial_hint
ppu_reset_classify(struct drm_sched_serial_ring *sring)
{
	struct ppu_ring *ring = container_of(sring, struct ppu_ring, serial);
	struct ppu_hw *hw = ring->ppu->hw;
	int parked;

	if (!hw->ops->preempt)
		return DRM_SCHED_SERIAL_HINT_UNKNOWN;
	parked = hw->ops->preempt(hw, ring->index);
	if (parked < 0)
		return DRM_SCHED_SERIAL_HINT_UNKNOWN;
	return parked ? DRM_SCHED_SERIAL_HINT_STALLED : DRM_SCHED_SERIAL_HINT_HUNG;
}

/*
 * Reset one engine: the device drops the work of that ring only, whose hw
 * fences signal now; the other engines keep running.
 */
static int ppu_reset_ring(struct drm_sched_serial_ring *sring)
{
	struct ppu_ring *ring = container_of(sring, struct ppu_ring, serial);
	struct ppu_hw *hw = ring->ppu->hw;
	int ret;

	if (!hw->ops->ring_reset)
		return -EOPNOTSUPP;
	ret = hw->ops->ring_reset(hw, ring->index);
	/*
	 * Not a device reset: reset_count (CTX_QUERY_RESET, RESET_COUNT)
	 * stays; ring_recovery and ppu-smi count the ring resets.
	 */
	ppu_ring_cancel_fences(ring);
	return ret;
}

/*
 * A job whose stream holds a WAIT may wait for another ring's work: the
 * isolation gate does not run it alone (it has not run yet).
 */
static bool ppu_reset_may_wait(struct drm_sched_job *sched_job)
{
	return to_ppu_job(sched_job)->waits;
}

/*
 * Is the job the ring's engine runs now polling memory in a WAIT whose
 * value is not there yet? The engine's state register says so, not the
 * stream: a WAIT satisfied long ago shields no HANG behind it. An engine
 * stalled behind a hang elsewhere reads STALLED, not WAITING: its head is
 * judged in a replay alone, where a WAIT it reaches reads WAITING again.
 */
static bool ppu_reset_waiting(struct drm_sched_serial_ring *sring,
			      struct drm_sched_job *sched_job)
{
	struct ppu_ring *ring = container_of(sring, struct ppu_ring, serial);
	struct ppu_hw_ring_state st;

	if (!to_ppu_job(sched_job)->waits)
		return false;
	ring->ppu->hw->ops->ring_state(ring->ppu->hw, ring->index, &st);
	return st.state == PPU_HW_ENGINE_WAITING;
}

/*
 * The gang of a job: its members share the gang's id on the hardware and
 * start together; a recovery replays them whole. Members whose work
 * completed are not counted: the hardware does not wait for them either
 * (ppu_ring_emit()). Reads a bitmap only: no sleep, no allocation.
 */
static unsigned int ppu_reset_gang(struct drm_sched_job *sched_job,
				   const void **key)
{
	struct ppu_job *job = to_ppu_job(sched_job);

	*key = job->gang;
	return job->gang ? ppu_gang_remaining(job->gang) : 0;
}

/*
 * Does the driver hold work back until @sched_job ends, work that may
 * write the dword @addr names (NULL: any)? Gangs wait, on no pending
 * list, for the device's active gang, and so does the work submitted
 * behind them (ppu_gang_holds_back()).
 */
static bool ppu_reset_holds_back(struct drm_sched_job *sched_job,
				 const u64 *addr)
{
	struct ppu_job *job = to_ppu_job(sched_job);

	return job->gang &&
	       ppu_gang_holds_back(job->ring->ppu, job->gang,
				   addr ? ppu_dword_bit(*addr) : ~0UL);
}

/*
 * Which dword does the job the ring's engine runs now poll? The engine's
 * registers say (ppu_hw_ring_state): the buffer and offset of its WAIT,
 * named as the writers' streams name theirs (ppu_job_dword()). Not known
 * at a gang's start barrier, nor if the engine moved on to another job.
 */
static bool ppu_reset_wait_addr(struct drm_sched_serial_ring *sring,
				struct drm_sched_job *sched_job, u64 *addr)
{
	struct ppu_ring *ring = container_of(sring, struct ppu_ring, serial);
	struct ppu_job *job = to_ppu_job(sched_job);
	struct ppu_hw_ring_state st;

	ring->ppu->hw->ops->ring_state(ring->ppu->hw, ring->index, &st);
	if (st.state != PPU_HW_ENGINE_WAITING ||
	    st.wait_seqno != job->hw.seqno || st.wait_buf >= job->nr_bos - 1)
		return false;
	*addr = ppu_job_dword(job, st.wait_buf, st.wait_offset);
	return true;
}

/*
 * May the job write the dword @addr names? Its stream did when it was
 * validated (&ppu_job.writes); a stream rewritten after the submit can
 * only mislead the order in which waits are counted, never a verdict.
 */
static bool ppu_reset_may_write(struct drm_sched_job *sched_job, u64 addr)
{
	struct ppu_job *job = to_ppu_job(sched_job);
	u32 i;

	if (job->writes_more)
		return true;
	for (i = 0; i < job->nr_writes; i++)
		if (job->writes[i] == addr)
			return true;
	return false;
}

static void ppu_reset_print_job(struct drm_sched_job *sched_job,
				struct drm_printer *p)
{
	struct ppu_job *job = to_ppu_job(sched_job);

	drm_printf(p, "ppu context: %u\nring: %s\nhw seqno: %u\n",
		   job->ctx->id, job->ring->name, job->hw.seqno);
	drm_printf(p, "command stream: offset %u, %u bytes, %u BOs\n",
		   job->hw.cmd_offset, job->hw.cmd_len, job->hw.nr_bufs);
	if (job->gang)
		drm_printf(p, "gang: %llu, member %u of %u, %u not done\n",
			   job->gang->id, job->gang_index, job->gang->nr,
			   ppu_gang_remaining(job->gang));
}

/*
 * A file, or a process, was just banned: every context it created loses
 * its work, the jobs queued behind the hang included (the recovery's
 * restart and drm_sched's entity check cancel them). Spinlocks only: this
 * runs inside the recovery.
 */
static void ppu_reset_cancel_banned(struct ppu_device *ppu,
				    struct ppu_usage *usage, unsigned int what)
{
	struct ppu_ctx *ctx;

	spin_lock(&ppu->ctxs_lock);
	list_for_each_entry(ctx, &ppu->ctxs, dev_link) {
		if (ctx->usage != usage &&
		    !((what & PPU_BANNED_CLIENT) &&
		      ctx->usage->client == usage->client))
			continue;
		if (atomic_read(&ctx->serial.banned))
			continue;
		ctx->serial.ban_error = -ECANCELED;
		atomic_set(&ctx->serial.banned, 1);
	}
	spin_unlock(&ppu->ctxs_lock);
}

/*
 * Every guilty or suspect verdict also counts against the DRM file that
 * submitted the job and against the process that opened it: a file or
 * process banned as a whole creates no more contexts, submits nothing,
 * and its queued work is cancelled (see ppu_usage_strike()).
 */
static void ppu_reset_verdict(struct drm_sched_job *sched_job,
			      enum drm_sched_serial_verdict verdict)
{
	struct ppu_job *job = to_ppu_job(sched_job);
	struct ppu_device *ppu = job->ring->ppu;
	unsigned int banned, hold_ms;

	if (!job->usage)
		return;
	if (verdict == DRM_SCHED_SERIAL_INNOCENT) {
		atomic_inc(&job->usage->innocent);
		return;
	}
	if (verdict == DRM_SCHED_SERIAL_SUSPECT)
		atomic_inc(&job->usage->suspect);
	banned = ppu_usage_strike(job->usage, &ppu->limits,
				  verdict == DRM_SCHED_SERIAL_GUILTY, &hold_ms);
	if (hold_ms)
		dev_info_ratelimited(ppu->drm.dev, "[drm] user %u of %s[%d] hangs again and again: its processes that opened the device since its first hang wait %u ms before they submit\n",
				     from_kuid(&init_user_ns,
					       job->usage->client->user->uid),
				     job->ctx->serial.comm, job->ctx->serial.pid,
				     hold_ms);
	if (!banned)
		return;
	dev_info_ratelimited(ppu->drm.dev, "[drm] %s of %s[%d] banned: its contexts hang again and again\n",
			     banned & PPU_BANNED_CLIENT ? "process" : "DRM file",
			     job->ctx->serial.comm, job->ctx->serial.pid);
	ppu_reset_cancel_banned(ppu, job->usage, banned);
}

static const struct drm_sched_serial_ops ppu_serial_ops = {
	.reset = ppu_reset_hw,
	.hw_fence = ppu_reset_hw_fence,
	.probe = ppu_reset_emit,
	.reemit = ppu_reset_emit,
	.job_ctx = ppu_reset_job_ctx,
	.last_progress = ppu_reset_last_progress,
	.print_job = ppu_reset_print_job,
	.verdict = ppu_reset_verdict,
	.classify = ppu_reset_classify,
	.may_wait = ppu_reset_may_wait,
	.waiting = ppu_reset_waiting,
	.reset_ring = ppu_reset_ring,
	.gang = ppu_reset_gang,
	.holds_back = ppu_reset_holds_back,
	.wait_addr = ppu_reset_wait_addr,
	.may_write = ppu_reset_may_write,
};

/**
 * ppu_reset_timedout - timeout handler of every ring
 * @job: the head job of the ring that timed out
 *
 * Return: what drm_sched_serial_timedout() returns.
 */
enum drm_gpu_sched_stat ppu_reset_timedout(struct ppu_job *job)
{
	return drm_sched_serial_timedout(&job->ring->serial, &job->base);
}

/**
 * ppu_reset_init - set the reset domain up, before the rings
 * @ppu: the device
 *
 * Return: 0, -EINVAL for a bad recovery_mode, probe_strategy or
 * reset_ladder, -ENOMEM.
 */
int ppu_reset_init(struct ppu_device *ppu)
{
	struct drm_sched_serial_params params;
	int ret;

	drm_sched_serial_default_params(&params);
	ret = drm_sched_serial_mode_parse(recovery_mode, &params.mode);
	if (ret) {
		drm_err(&ppu->drm, "recovery_mode=%s: use serial, classic or off\n",
			recovery_mode);
		return ret;
	}
	ret = drm_sched_serial_probe_strategy_parse(probe_strategy,
						    &params.probe_strategy);
	if (ret) {
		drm_err(&ppu->drm, "probe_strategy=%s: use serial or group\n",
			probe_strategy);
		return ret;
	}
	ret = drm_sched_serial_ladder_parse(reset_ladder, &params.ladder);
	if (ret) {
		drm_err(&ppu->drm, "reset_ladder=%s: use ring or domain\n",
			reset_ladder);
		return ret;
	}
	if (params.ladder == DRM_SCHED_SERIAL_LADDER_RING &&
	    !ppu->hw->ops->ring_reset) {
		drm_info(&ppu->drm, "the device cannot reset one engine: reset_ladder=domain\n");
		params.ladder = DRM_SCHED_SERIAL_LADDER_DOMAIN;
	}
	params.probe_timeout_ms = probe_timeout_ms;
	params.budget_ms = replay_budget_ms;
	params.max_resets = max_resets;
	params.ban_guilty = hang_limit;
	params.ban_suspect = suspect_limit;
	params.suspect_window_ms = suspect_window_ms;
	params.coalesce_ms = coalesce_ms;
	params.max_runtime_ms = max_runtime_ms;
	params.isolate_ms = isolate_ms;

	return drm_sched_serial_domain_init(&ppu->domain, &ppu_serial_ops,
					    &params, ppu->hw->nr_rings,
					    ppu->drm.dev, dev_name(ppu->drm.dev));
}

/**
 * ppu_reset_fini - tear the reset domain down, after the rings
 * @ppu: the device
 */
void ppu_reset_fini(struct ppu_device *ppu)
{
	drm_sched_serial_domain_fini(&ppu->domain);
}
