// SPDX-License-Identifier: GPL-2.0
/* The memory controller's ECC codecs under test, compiled unchanged. */
#include "../ppu_drv/sim/ppu_sim_ecc.c"
