// SPDX-License-Identifier: GPL-2.0
/* The ECC record store's version 1 reader under test, compiled unchanged. */
#include "../ppu_drv/ppu_flash_v1.c"
