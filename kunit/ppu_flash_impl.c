// SPDX-License-Identifier: GPL-2.0
/* The ECC record store under test, compiled unchanged. */
#include "../ppu_drv/ppu_flash.c"
