// SPDX-License-Identifier: GPL-2.0
/* The simulated engines under test, compiled unchanged. */
#include "../ppu_drv/sim/ppu_sim_engine.c"
