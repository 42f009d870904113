// SPDX-License-Identifier: GPL-2.0
/* The command-stream validator under test, compiled unchanged. */
#include "../ppu_drv/ppu_cs.c"
