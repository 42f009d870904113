// SPDX-License-Identifier: GPL-2.0
/* The sparse HBM model under test, compiled unchanged. */
#include "../ppu_drv/sim/ppu_sim_hbm.c"
