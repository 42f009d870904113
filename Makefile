# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of drm_sched_serial.ko, ppu.ko and ppu_sim.ko against
# Debian's 6.1 kernel, plus the test, demo and check entry points.

KVER ?= 6.1.0-57-amd64
KDIR ?= /usr/src/linux-headers-$(KVER)
PPU_CACHE ?= /var/cache/ppu
export PPU_CACHE KDIR

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: all modules clean deps check kunit igt test demo bench htmldocs

all: modules

modules: deps
	$(MAKE) -C $(KDIR) M=$(ROOT) W=1 modules

deps:
	@$(ROOT)/scripts/install-deps.sh

clean:
	$(MAKE) -C $(KDIR) M=$(ROOT) clean
	$(MAKE) -C $(ROOT)/igt-tests clean

check: deps
	@$(ROOT)/scripts/check.sh

kunit: deps
	@$(ROOT)/scripts/run-kunit.sh

igt: deps
	@$(ROOT)/scripts/run-igt.sh

test: deps
	@$(ROOT)/scripts/test.sh

demo: deps
	@$(ROOT)/scripts/demo.sh

bench: deps
	@$(ROOT)/scripts/bench.sh

htmldocs: deps
	@$(ROOT)/scripts/htmldocs.sh
