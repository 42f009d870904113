// SPDX-License-Identifier: GPL-2.0
/* The simulated flash, with its power cut injection, compiled unchanged. */
#include "../ppu_drv/sim/ppu_sim_flash.c"
