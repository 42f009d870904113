# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of drm_sched_serial.ko, ppu.ko and ppu_sim.ko against
# Debian's 6.1 kernel, plus the test, demo and check entry points.

KVER ?= 6.1.0-57-amd64
KDIR ?= /usr/src/linux-headers-$(KVER)
PPU_CACHE ?= /var/cache/ppu
export PPU_CACHE KDIR

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: all modules clean deps check kunit igt test demo bench htmldocs fuzz

all: modules

# One out-of-tree build at a time in this tree: parallel builds (two test
# runs, a build while a VM stage rebuilds) would clobber each other's objects.
modules: deps
	@mkdir -p $(ROOT)/build
	flock $(ROOT)/build/.modules.lock $(MAKE) -C $(KDIR) M=$(ROOT) W=1 modules

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

# make fuzz [SECONDS=N] [SEED=S] [THREADS=T]: tools/ppu-fuzz in the VM
# (scripts/run-fuzz.sh; 60 s and a random seed unless given)
fuzz: deps
	@$(if $(SECONDS),PPU_FUZZ_SECONDS=$(SECONDS)) $(if $(SEED),PPU_FUZZ_SEED=$(SEED)) \
	 $(if $(THREADS),PPU_FUZZ_THREADS=$(THREADS)) $(ROOT)/scripts/run-fuzz.sh

demo: deps
	@$(ROOT)/scripts/demo.sh

bench: deps
	@$(ROOT)/scripts/bench.sh

htmldocs: deps
	@$(ROOT)/scripts/htmldocs.sh
