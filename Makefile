# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of drm_sched_serial.ko, ppu.ko and ppu_sim.ko against
# Debian's 6.1 kernel, plus the test, demo and check entry points.

# KVER=6.1 (Debian 12's kernel, the default) or KVER=6.12 (the 6.12 LTS,
# fetched into PPU_CACHE on first use): the kernel every target builds and
# tests against (scripts/kernel-env.sh). KDIR= builds against other headers.
KVER ?= $(or $(PPU_KSERIES),6.1)
PPU_CACHE ?= /var/cache/ppu
PPU_KSERIES := $(KVER)
export PPU_CACHE PPU_KSERIES
ifdef KDIR
export KDIR
endif

SHELL := /bin/bash
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: chaos all modules clean deps deps-build check check-newest kunit igt test demo bench htmldocs fuzz explore
.PHONY: install install-modules install-tools

all: modules

# One out-of-tree build at a time in this tree: parallel builds (two test
# runs, a build while a VM stage rebuilds) would clobber each other's objects.
modules: deps-build
	@mkdir -p $(ROOT)/build
	@. $(ROOT)/scripts/kernel-env.sh && \
	 flock $(ROOT)/build/.modules.lock $(MAKE) -C "$$KDIR" M=$(ROOT) W=1 modules

# deps: every package the tests, the demo and the checks need; deps-build:
# only those make and make install need (no QEMU, igt, sparse or kernel
# source on a machine that only installs the driver)
deps:
	@$(ROOT)/scripts/install-deps.sh all

deps-build:
	@$(ROOT)/scripts/install-deps.sh build

# make install [DESTDIR=] [KERNELRELEASE=] [PREFIX=/usr/local]: the three
# modules into $(DESTDIR)/lib/modules/<release>/updates/, <release> being
# the one of the headers built against (their UTS_RELEASE, the modules'
# vermagic) unless given, then depmod (so modprobe finds them and loads
# the in-kernel modules they need first), and the tools (tools/Makefile:
# ppu-smi, libppu, man pages). DKMS: dkms.conf instead.
install: install-modules install-tools

PPU_KMODS := drm_sched_serial/drm_sched_serial.ko ppu_drv/ppu.ko ppu_drv/sim/ppu_sim.ko

install-modules: modules
	@. $(ROOT)/scripts/kernel-env.sh && \
	 rel='$(KERNELRELEASE)' && \
	 if [ -z "$$rel" ]; then \
		rel=$$(sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		       "$$KDIR/include/generated/utsrelease.h"); \
	 fi && \
	 if [ -z "$$rel" ]; then echo "install: no release in $$KDIR" >&2; exit 1; fi && \
	 dir='$(DESTDIR)'/lib/modules/$$rel/updates && \
	 echo "  INSTALL $$dir: $(notdir $(PPU_KMODS))" && \
	 install -d "$$dir" && \
	 cd $(ROOT) && install -m 644 $(PPU_KMODS) "$$dir/" && \
	 echo "  DEPMOD  $$rel" && \
	 depmod -a $(if $(DESTDIR),-b '$(DESTDIR)') "$$rel"

install-tools:
	$(MAKE) -C $(ROOT)/tools install

clean:
	@. $(ROOT)/scripts/kernel-env.sh && $(MAKE) -C "$$KDIR" M=$(ROOT) clean
	$(MAKE) -C $(ROOT)/igt-tests clean

check: deps
	@$(ROOT)/scripts/check.sh

# compile the modules against the newest kernel source Debian has
# (unstable's linux-source, fetched alone into PPU_CACHE/newest)
check-newest: deps
	@$(ROOT)/scripts/check-newest.sh

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

# make explore [SEEDS=N] [SEED=S]: the drm_sched_serial scenario explorer
# (KUnit, kunit/drm_sched_serial_explorer.c) over N scenarios (100000
# unless given) from seed S (fixed seeds plus a random one unless given),
# in UML's time-travel mode: some 150 scenarios per second of wall clock
explore: deps
	@n=$(or $(SEEDS),100000); PPU_KUNIT_TIMEOUT=$$((n / 20 + 600)) \
	 $(ROOT)/scripts/run-kunit.sh -- 'drm_sched_serial_explorer' \
	 --kernel_args time-travel \
	 --kernel_args drm_sched_serial_kunit_test.explore_scenarios=$$n \
	 $(if $(SEED),--kernel_args drm_sched_serial_kunit_test.explore_seed=$(SEED))

# make chaos [SEEDS=N] [SEED=S] [CARDS=C]: igt ppu_chaos's fixed set, then
# its random subtest over N generated scenarios (100 unless given) from
# base seed S (the clock unless given), on the production kernel in the
# VM, C cards (4 unless given) running C scenarios at a time
chaos: deps
	@n=$(or $(SEEDS),100); PPU_IGT_FILTER='^ppu_chaos$$' PPU_SMI_TEST=0 \
	 PPU_IGT_DEVICES=$(or $(CARDS),4) \
	 PPU_IGT_TIMEOUT=$$((n * 5 + 600)) PPU_VM_TIMEOUT=$$((n * 5 + 900)) \
	 PPU_GUEST_ENV="PPU_CHAOS_SCENARIOS=$$n $(if $(SEED),PPU_CHAOS_BASE=$(SEED))" \
	 $(ROOT)/scripts/run-igt.sh

demo: deps
	@$(ROOT)/scripts/demo.sh

bench: deps
	@$(ROOT)/scripts/bench.sh

htmldocs: deps
	@$(ROOT)/scripts/htmldocs.sh
