/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (c) 2026 The PPU driver authors
 *
 * The differences between the kernels ppu_sim.ko builds on. The simulated
 * device includes no header of the driver (it meets ppu.ko only through
 * ppu_hw.h), so it has its own; with ppu_compat.h and the library's, the
 * only places that test a kernel version.
 */
#ifndef _PPU_SIM_COMPAT_H_
#define _PPU_SIM_COMPAT_H_

#include <linux/hrtimer.h>
#include <linux/version.h>

/*
 * hrtimer_setup() sets the callback along with the rest (6.13);
 * hrtimer_init() is gone since 6.15.
 */
static inline void ppu_sim_hrtimer_setup(struct hrtimer *timer,
					 enum hrtimer_restart (*fn)(struct hrtimer *),
					 clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* _PPU_SIM_COMPAT_H_ */
