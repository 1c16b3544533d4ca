# SPDX-License-Identifier: GPL-2.0
#
# ps3vram-swap: out-of-tree build and the project's commands.
#
#   make [KDIR=...]   the modules for one kernel (default: the running
#                     kernel's headers if installed, else Debian's 6.1
#                     headers): needs only those headers and a compiler
#   make modules_install [KDIR=...] [DESTDIR=...]
#                     into /lib/modules/KVER/updates, then depmod
#   make install [PREFIX=/usr/local] [DESTDIR=...]
#                     modules, tools, man pages, boot integration, docs
#   make deb          the Debian packages (ps3vram-swap-dkms, -tools) in
#                     build/deb/
#   make demo         the virtual PS3 swapping to VRAM through zswap (V=1:
#                     every log on the terminal)
#   make check        the gate CI runs (under 30 minutes with warm caches):
#                     unit and KUnit tests, every module build, lint, the
#                     PS3 cross builds, the series, one VM scenario per
#                     client and kernel interface; ends with "N passed,
#                     N failed, N skipped" (docs/checks.md)
#   make check-full   everything: every VM scenario on every kernel, the
#                     debug kernel's and the PowerPC kernels' scenarios,
#                     the install tier, the soak
#   make check-ppc64  the gate and every PowerPC virtual PS3 scenario
#                     (docs/virtual-ps3.md)
#   make check-unit   userspace unit tests
#   make check-vm     VM scenarios on 6.1, 6.12 and 7.3
#   make soak         the soak scenario with SOAK_GIB (20) GiB of swap
#                     traffic through VRAM per kernel, on 6.1 and 6.12
#   make bench        every swap tier in one 6.1 boot (tools/bench/tiers.sh),
#                     CPU per page, ps3vram against zbud, in another
#                     (tools/bench/cpu.sh), in a third the poll overshoot,
#                     /dev/ps3vram against brd, the historic msleep/udelay
#                     direct I/O table and compressed VRAM per page
#                     against zram (tools/bench/blk.sh), in a fourth
#                     what a page copy costs by instruction
#                     (tools/bench/copy.sh); under 45 min, not
#                     part of make check; then the "swap tiers" section
#                     of docs/benchmarks.md, the CSV, the plots and the
#                     raw outputs (tools/bench/report)
#   make bench-program  GNU sort of 1.5x RAM on tiers b c g d, one boot
#                     (tools/bench/tiers.sh, rig.workload=sort; a tier's
#                     sort stops after 10 min, rig.cap_s, its time then a
#                     lower bound; about 20 min, beyond make bench's budget);
#                     make bench's report then has its table
#   make bench-checksum  swap on /dev/ps3vram without and with checksum=1,
#                     d k k d in one boot (tools/bench/tiers.sh, a few
#                     minutes); make bench's report then has its table
#   make bench-compress  swap of 3x RAM on /dev/ps3vram as it is and with
#                     compress=lz4, d m m d in one boot (tools/bench/tiers.sh,
#                     about 30 min); make bench's report then has its table
#   make check-debug  the KASAN/lockdep/KUnit kernel tier, every scenario
#                     (builds and caches that kernel: 5-6 min the first time)
#   make intree       the patch series for 6.1, 6.12 and 7.3 (checkpatch
#                     --strict, git am) and in-tree builds, =y and =m,
#                     7.3 for x86 and the PS3 (4 KiB and 64 KiB pages)
#   make lint         checkpatch --strict, sparse, W=1, kernel-doc
#   make ps3          cross build for the PS3 (ps3_defconfig)
#   make clean

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
SETUP := $(BUILD)/.setup-done

# Kernels we test on: the newest installed Debian 6.1 and 6.12 generic
# images (not -cloud or -rt, which lack the headers setup-deps installs).
kver = $(lastword $(sort $(filter-out %-cloud-amd64 %-rt-amd64, \
	$(patsubst /boot/vmlinuz-%,%,$(wildcard /boot/vmlinuz-$(1).*-amd64)))))
KVER_61 = $(call kver,6.1)
KVER_612 = $(call kver,6.12)
# Debian's 7.x from trixie-backports, unpacked by tools/vm/kernels/kernel-7x
# (make check prepares it; nothing is installed).
CACHE := $(or $(PS3VRAM_CACHE),/var/cache/ps3vram-swap)
KVER_7X = $(notdir $(realpath $(CACHE)/kernels/current-7.3))
# The module build directory of a release: Debian's headers, or the cache.
kdir_of = $(firstword $(wildcard /lib/modules/$(1)/build) \
	$(CACHE)/kernels/$(1)/root/usr/lib/modules/$(1)/build)

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)),$(RUNNING_KDIR),/lib/modules/$(KVER_61)/build)

# Sources copied into each kernel's build directory, so that several
# kernels can be built side by side without cleaning.
MOD_SRCS := Kbuild include drivers mm

.PHONY: all modules modules_install install deb setup setup-check demo check check-full check-ppc64 check-unit check-vm check-debug lint ps3 tools-ppc64 \
	intree kernels mod-srcs tools clean soak bench bench-program bench-checksum \
	bench-compress
all: modules

setup:
	@$(TOP)/tools/setup-deps

# The build directory of a kernel build directory: build/KVER.
build_of = $(BUILD)/$(notdir $(patsubst %/build,%,$(1)))

# make: against KDIR, with nothing but its headers and a compiler.
modules:
	@$(MAKE) --no-print-directory modules-kdir KDIR_USE=$(KDIR)

# modules-KVER (the test tiers): against KVER, W=1, warnings are errors.
modules-%: setup
	@$(MAKE) --no-print-directory modules-kdir KDIR_USE=$(call kdir_of,$*) \
		CHECK_FLAGS="W=1 KCFLAGS=-Werror"

modules-kdir:
	$(eval O := $(call build_of,$(KDIR_USE)))
	@mkdir -p $(O)
	@cp -a $(addprefix $(TOP)/,$(MOD_SRCS)) $(O)/
	$(MAKE) -C $(KDIR_USE) M=$(O) $(CHECK_FLAGS) $(KBUILD_EXTRA) modules
	@rm -f $(O)/*.ko
	@find $(O)/drivers $(O)/mm -name '*.ko' -exec cp -t $(O)/ {} +

# legacy-KVER: the benchmark's model of the former ps3vram driver
# (tools/bench/legacy), built against build/KVER's engine; its .ko goes
# beside the project's, until the next modules-KVER removes it.  It is
# built afresh each time (a few seconds): kbuild does not run modpost
# again when only the engine's symbol versions changed, and the guest then
# refused the old module ("disagrees about version of symbol
# ps3vram_dma_submit").
legacy-%: modules-%
	$(eval O := $(call build_of,$(call kdir_of,$*)))
	@rm -rf $(O)/legacy
	@mkdir -p $(O)/legacy
	@cp -a $(TOP)/tools/bench/legacy/. $(TOP)/include $(O)/legacy/
	$(MAKE) -C $(call kdir_of,$*) M=$(O)/legacy W=1 KCFLAGS=-Werror \
		KBUILD_EXTRA_SYMBOLS=$(O)/Module.symvers modules
	@cp $(O)/legacy/ps3vram_legacy.ko $(O)/

# Where depmod looks before the kernel's own modules: a distribution
# kernel's ps3vram module gives way to ours.
PREFIX ?= /usr/local
DOCDIR ?= $(PREFIX)/share/doc/ps3vram-swap
DOCS := $(addprefix $(TOP)/,README.md Documentation/admin-guide/ps3vram-swap.rst) \
	$(wildcard $(TOP)/docs/*.md)

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(call build_of,$(KDIR)) INSTALL_MOD_DIR=updates \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR) DEPMOD=true) \
		modules_install

install: modules_install
	@$(MAKE) --no-print-directory -C $(TOP)/tools/swapbench install \
		O=$(BUILD)/tools PREFIX=$(PREFIX)
	@$(MAKE) --no-print-directory -C $(TOP)/tools/ps3vram-stat install \
		O=$(BUILD)/tools PREFIX=$(PREFIX)
	@$(MAKE) --no-print-directory -C $(TOP)/tools/selftest install \
		PREFIX=$(PREFIX)
	@$(MAKE) --no-print-directory -C $(TOP)/tools/boot install PREFIX=$(PREFIX)
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/

# make deb: debian/ with dpkg-buildpackage; the packages in build/deb/
deb:
	@mkdir -p $(BUILD)/deb
	cd $(TOP) && dpkg-buildpackage -us -uc -b
	mv $(TOP)/../ps3vram-swap*_$(shell dpkg-parsechangelog -l $(TOP)/debian/changelog -SVersion)_* \
		$(BUILD)/deb/

# kernels: the releases "make check" builds modules for and boots (7.x
# once tools/vm/kernels/kernel-7x has prepared it)
kernels:
	@echo $(KVER_61) $(KVER_612) $(KVER_7X)

# What make check needs beyond the packages: the 7.x kernel (~3 min once).
setup-check: setup
	@mkdir -p $(BUILD)
	@echo "setup: Debian's 7.x kernel for the rig (log: build/kernel-7x.log)"
	@$(TOP)/tools/vm/kernels/kernel-7x prepare > $(BUILD)/kernel-7x.log 2>&1 || \
		{ tail -n 20 $(BUILD)/kernel-7x.log; exit 1; }

# For the scripts that build the modules themselves (scripts/lib/modules.sh)
mod-srcs:
	@echo $(MOD_SRCS)

# the guest's tools in build/tools; tools-ppc64: the same, static
# big-endian powerpc64, for the PowerPC virtual PS3
tools: TOOLS_OUT := $(BUILD)/tools
tools-ppc64: TOOLS_OUT := $(BUILD)/tools-ppc64
tools-ppc64: TOOLS_CC := CC=powerpc64-linux-gnu-gcc
tools tools-ppc64:
	@$(MAKE) --no-print-directory -C $(TOP)/tools/swapbench O=$(TOOLS_OUT) $(TOOLS_CC)
	@$(MAKE) --no-print-directory -C $(TOP)/tools/ps3vram-stat O=$(TOOLS_OUT) $(TOOLS_CC)
	@$(MAKE) --no-print-directory -C $(TOP)/tools/selftest O=$(TOOLS_OUT)

demo:
	@$(TOP)/tools/vm/run-demo $(if $(filter-out 0,$(V)),-v)

check: setup-check
	@$(TOP)/tests/run-check

check-full: setup-check
	@$(TOP)/tests/run-check --full

check-ppc64: setup-check
	@$(TOP)/tests/run-check --ppc64

check-unit: setup
	@$(MAKE) --no-print-directory -C $(TOP)/tests/unit
	@$(MAKE) --no-print-directory -C $(TOP)/tests/unit TARGET=ppc64

check-vm: setup-check tools
	@$(MAKE) --no-print-directory legacy-$(KVER_61)
	@$(MAKE) --no-print-directory legacy-$(KVER_612)
	@$(MAKE) --no-print-directory legacy-$(KVER_7X)
	@$(TOP)/tools/vm/run-scenarios -k 6.1 -k 6.12 -k 7.3

# make check-full runs tests/vm/soak.sh with its default of 4 GiB; this is
# the long run.  SOAK_TIMEOUT is per kernel, in seconds.
SOAK_GIB ?= 20
SOAK_TIMEOUT ?= 14400
soak: setup tools
	@$(MAKE) --no-print-directory modules-$(KVER_61)
	@$(MAKE) --no-print-directory modules-$(KVER_612)
	@$(TOP)/tools/vm/run-scenarios soak -- --guest soak_gib=$(SOAK_GIB) \
		--timeout $(SOAK_TIMEOUT)

# The side-by-side benchmark of issue 14: one boot for every tier, one for
# CPU per page, one for the block device and the engine against their
# peers (run builds the tools and modules it needs); 45 minutes at most
# (docs/benchmarks.md, "make bench's budget").
bench: setup
	@$(TOP)/tools/bench/run tiers
	@$(TOP)/tools/bench/run cpu
	@$(TOP)/tools/bench/run blk
	@$(TOP)/tools/bench/run copy
	@$(TOP)/tools/bench/report $(BUILD)/bench/tiers-6.1.txt

bench-program: setup
	@$(TOP)/tools/bench/run -n program tiers --guest workload=sort \
		--guest tiers=b,c,g,d --guest cap_s=600 --bin sort --timeout 3600

bench-checksum: setup
	@$(TOP)/tools/bench/run -n checksum tiers --guest tiers=d,k,k,d

bench-compress: setup
	@$(TOP)/tools/bench/run -n compress tiers --guest tiers=d,m,m,d \
		--guest mib=3x

check-debug: setup tools
	@$(TOP)/scripts/debug-kernel check

intree: setup-check
	@$(TOP)/scripts/intree check

lint: setup
	@$(TOP)/scripts/lint

ps3: setup
	@$(TOP)/scripts/ps3-build

clean:
	rm -rf $(BUILD)
	@$(MAKE) --no-print-directory -C $(TOP)/tests/unit clean 2>/dev/null || true
