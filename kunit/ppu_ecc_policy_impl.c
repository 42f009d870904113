// SPDX-License-Identifier: GPL-2.0
/* The load-time ECC policy under test, compiled unchanged. */
#include "../ppu_drv/ppu_ecc_policy.c"
