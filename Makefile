# SPDX-License-Identifier: GPL-2.0
#
# irqlab: one entry point.  `make help` lists the targets.
#
# Stable variables (DESIGN 9): CONFIG SMP MEM ACCEL ICOUNT BOOT MACHINE CPU CMDLINE
# Builds are out of tree in O (default build/$(CONFIG)), so configurations coexist.

CONFIG	?= default
O	?= build/$(CONFIG)
SMP	?= 1
MEM	?= 256M
ACCEL	?= auto
# auto: icount when the run ends up on TCG at SMP=1 (scripts/qemu.py says which
# mode and why in one line); ICOUNT=0 asks for plain TCG.
ICOUNT	?= auto
BOOT	?= pvh
MACHINE	?=
CPU	?=
CMDLINE	?=
TIMEOUT	?=
SERIAL	?=
HPET	?=
TCG_THREAD ?=
J	?= 2

srctree	:= $(CURDIR)
override O := $(patsubst %/,%,$(O))
# Relative to the top: kconfig runs inside $(O).
abs_O	= $(abspath $(O))

CC	:= gcc
LD	:= ld
NM	:= nm
OBJCOPY	:= objcopy
PYTHON	:= python3
Q	:= $(if $(V),,@)

MAKEFLAGS += --no-builtin-rules --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:

# Public goals first make sure the Debian packages are there (a fresh
# machine has no kconfig-conf yet), then recurse into the internal _build
# goal; only that one reads the configuration.
ifeq ($(filter _build compile_commands.json $(O)/%,$(MAKECMDGOALS)),)
skip_config := 1
endif

# ------------------------------------------------------------------ config
KCONFIG_FILES := $(shell find $(srctree) -name 'Kconfig*' -not -path '*/build/*')
AUTOCONF := $(O)/include/generated/autoconf.h
AUTOCONF_MK := $(O)/include/config/auto.conf
# The compiler reads the configuration as -D options from this response file
# (scripts/autoconf_rsp.py says why: objects shared across configurations).
AUTOCONF_RSP := $(O)/include/generated/autoconf.rsp

define kconfig
	$(Q)mkdir -p $(O)
	$(Q)cd $(O) && srctree=$(srctree) KCONFIG_CONFIG=.config $(1) $(srctree)/Kconfig
endef

$(O)/.config: $(wildcard configs/$(CONFIG)_defconfig)
	@test -f configs/$(CONFIG)_defconfig || { \
		echo "irqlab: no configuration '$(CONFIG)'; valid: $$(ls configs | sed -n 's/_defconfig$$//p' | tr '\n' ' ')" >&2; exit 2; }
	@if [ -f $@ ]; then echo "  CONFIG  $@ is older than configs/$(CONFIG)_defconfig: regenerating"; fi
	$(call kconfig,kconfig-conf -s --defconfig=$(srctree)/configs/$(CONFIG)_defconfig)

$(AUTOCONF) $(AUTOCONF_MK): $(O)/.config $(KCONFIG_FILES)
	$(Q)mkdir -p $(O)/include/config $(O)/include/generated
	@# New symbols take their defaults, then the headers are generated.
	$(call kconfig,kconfig-conf -s --olddefconfig) </dev/null
	$(call kconfig,kconfig-conf -s --silentoldconfig) </dev/null
	$(Q)touch $(AUTOCONF) $(AUTOCONF_MK)

$(AUTOCONF_RSP): $(AUTOCONF) scripts/autoconf_rsp.py
	$(Q)$(PYTHON) scripts/autoconf_rsp.py $< $@

%_defconfig:
	@test -f configs/$@ || { echo "irqlab: configs/$@ does not exist" >&2; exit 2; }
	$(call kconfig,kconfig-conf --defconfig=$(srctree)/configs/$@)

defconfig: default_defconfig

olddefconfig:
	$(call kconfig,kconfig-conf --olddefconfig)

savedefconfig:
	$(call kconfig,kconfig-conf --savedefconfig=defconfig)
	@echo "  wrote $(O)/defconfig"

menuconfig:
	$(call kconfig,kconfig-mconf)

ifndef skip_config
-include $(AUTOCONF_MK)
endif

# ------------------------------------------------------------------ objects
obj-y :=
obj-fpu-y :=
include arch/x86/Kbuild kernel/Kbuild mm/Kbuild drivers/Kbuild drivers/acpi/Kbuild lib/Kbuild test/Kbuild

OBJS	:= $(addprefix $(O)/,$(obj-y) $(obj-fpu-y)) $(O)/generated/version.o
FPU_OBJS := $(addprefix $(O)/,$(obj-fpu-y))

# ------------------------------------------------------------------ newlib
# Built once per machine into a cache outside the tree (scripts/newlib.sh);
# $(O)/newlib is a link to it.
NEWLIB	:= $(O)/newlib
NEWLIB_STAMP := $(O)/.newlib-ok

# The FPU check reads the shared library, not this configuration: it runs
# once per newlib build and checker version (a stamp beside the library),
# not once per configuration (2 s each, 29 configurations in make test).
$(NEWLIB_STAMP): scripts/newlib.sh scripts/check_newlib_fpu.py
	$(Q)mkdir -p $(O)
	$(Q)dir=$$(scripts/newlib.sh) && ln -sfn "$$dir" $(NEWLIB)
	$(Q)ok=$(NEWLIB)/.fpu-check-$$(sha1sum scripts/check_newlib_fpu.py | cut -c1-12); \
	if [ ! -e "$$ok" ]; then \
		echo "  CHECK   newlib functions reachable without kernel_fpu_begin()"; \
		$(PYTHON) scripts/check_newlib_fpu.py $(NEWLIB)/lib/libc.a && touch "$$ok"; \
	fi
	$(Q)touch $@

# ------------------------------------------------------------------ ccache
# Debian's ccache, when installed, caches objects in CCACHE_DIR (default
# build/ccache, made on first use; make distclean empties it).  make test
# builds many configurations of one tree, and a source file whose
# preprocessed text is the same in two of them is compiled once: the
# configuration reaches the compiler as -D options (AUTOCONF_RSP) and
# newlib's headers by one path for all (NEWLIB_INC), so no path of the
# build directory is in that text.  ccache runs in its default mode, which
# hashes the working directory of -g builds (DW_AT_comp_dir): an object it
# returns is the one the compiler would have written.
# CCACHE=0 builds without it; CCACHE=1 makes a missing or unusable ccache an
# error (auto: use it when it works, otherwise say why and build without).
CCACHE	?= auto
CCACHE_DIR ?= $(srctree)/build/ccache
override CCACHE_DIR := $(abspath $(CCACHE_DIR))
ifeq ($(filter 0 1 auto,$(CCACHE)),)
$(error CCACHE=$(CCACHE): valid values are 0, 1 and auto)
endif
CCACHE_CMD :=
ifndef skip_config
ifneq ($(CCACHE),0)
# Empty when usable, else the reason.
ccache_problem := $(shell \
	if ! command -v ccache >/dev/null 2>&1; then \
		echo "ccache is not installed (scripts/deps.sh installs it)"; \
	elif ! mkdir -p '$(CCACHE_DIR)' 2>/dev/null || \
	     ! f=$$(mktemp -p '$(CCACHE_DIR)' .probe.XXXXXX 2>/dev/null); then \
		echo "cannot create files in CCACHE_DIR=$(CCACHE_DIR)"; \
	else rm -f "$$f"; fi)
ifeq ($(ccache_problem),)
CCACHE_CMD := ccache
export CCACHE_DIR
# ccache's default is 5 GB; all 36 configurations of make test take 76 MB.
export CCACHE_MAXSIZE ?= 1G
else ifeq ($(CCACHE),1)
$(error irqlab: CCACHE=1 but $(ccache_problem))
else ifndef MAKE_RESTARTS
$(info irqlab: building without ccache: $(ccache_problem) (CCACHE=0 silences this))
endif
endif
endif

# ------------------------------------------------------------------ flags
GCC_INC	:= $(shell $(CC) -print-file-name=include)
LIBGCC	:= $(shell $(CC) -print-libgcc-file-name)

# newlib's headers by the cache directory $(NEWLIB) links to, the same for
# every configuration (expanded in recipes, after $(NEWLIB_STAMP) made the link).
NEWLIB_INC = $(or $(realpath $(NEWLIB)),$(NEWLIB))/include

KBUILD_CPPFLAGS = -nostdinc -isystem $(NEWLIB_INC) -isystem $(GCC_INC) \
	-I$(srctree)/include -I$(srctree)/arch/x86/include -I$(O)/include \
	@$(AUTOCONF_RSP) -D__KERNEL__ -D__DYNAMIC_REENT__
KBUILD_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
	-Wno-sign-compare -Wno-missing-field-initializers -Werror=implicit-function-declaration \
	-ffreestanding -fno-pic -fno-pie -mcmodel=kernel -mno-red-zone \
	-fno-stack-protector -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-asynchronous-unwind-tables -fno-strict-aliasing -fno-common \
	-fcf-protection=none -MMD -MP
# DESIGN 5: kernel code never touches SSE/x87 registers.  Without them the
# stack needs only 8-byte alignment, as in Linux's x86_64 build
# (-mpreferred-stack-boundary=3): no "sub $8, %rsp" to pad frames.  The
# FPU objects keep the ABI's 16 bytes and realign on entry, since the
# kernel calls them with 8.
GENERAL_REGS := -mgeneral-regs-only -mpreferred-stack-boundary=3
FPU_STACK := -mincoming-stack-boundary=3
KBUILD_AFLAGS := -D__ASSEMBLY__ -g -MMD -MP
LDFLAGS_kernel := -nostdlib -static -z max-page-size=4096 -z noexecstack \
	--no-warn-rwx-segments -T linker/kernel.ld

# ------------------------------------------------------------------ sanitizers
# UBSAN as Linux's scripts/Makefile.lib adds it: every object gets the
# checks (CONFIG_UBSAN_SANITIZE_ALL) unless its Kbuild file says
# UBSAN_SANITIZE_<object> := n, and an object marked := y gets them even
# without SANITIZE_ALL.  The object is named by its path from the top
# (lib/ubsan.o), since one Makefile builds every directory.
ifeq ($(CONFIG_UBSAN),y)
include scripts/Makefile.ubsan
endif
ubsan_cflags = $(if $(filter y,$(CONFIG_UBSAN)),$(if $(patsubst n%,,\
	$(UBSAN_SANITIZE_$(1))$(CONFIG_UBSAN_SANITIZE_ALL)),$(CFLAGS_UBSAN)))
# Part of the flags every object depends on: a changed list rebuilds.
ubsan_choices = $(CFLAGS_UBSAN) \
	$(foreach v,$(sort $(filter UBSAN_SANITIZE_%,$(.VARIABLES))),$(v)=$($(v)))

# KASAN (lib/Kconfig.kasan; Linux's scripts/Makefile.kasan): generic,
# outline.  Every load and store of an instrumented file calls
# __asan_{load,store}N_noabort (mm/kasan/generic.c); globals get red zones
# registered by constructors; with KASAN_STACK the locals whose address
# is taken get red zones that each prologue writes into the shadow (so the
# shadow must exist from the first C function on: kasan_early_init()), and
# alloca()/VLA areas get red zones through __asan_alloca_poison() (Linux's
# asan-instrument-allocas=1).  newlib's memcpy/memset/memmove are reached
# through checking wrappers (--wrap).  The files in KASAN_SANITIZE_n are built without it,
# as Linux's KASAN_SANITIZE_<file>.o := n: KASAN itself, the stack
# unwinder (it reads other frames' memory), and SLUB, which reads and
# writes the free pointer inside freed objects, and the stack depot (KASAN
# saves stacks from inside its hooks).
ifeq ($(CONFIG_KASAN),y)
CFLAGS_KASAN := -fsanitize=kernel-address -fasan-shadow-offset=0xdffffc0000000000 \
	--param asan-instrumentation-with-call-threshold=0 \
	--param asan-globals=$(if $(CONFIG_KASAN_GLOBALS),1,0) \
	--param asan-stack=$(if $(CONFIG_KASAN_STACK),1,0) --param asan-instrument-allocas=1
LDFLAGS_kernel += --wrap=memcpy --wrap=memset --wrap=memmove
endif
KASAN_SANITIZE_n := mm/kasan/%.o arch/x86/mm/kasan_init_64.o \
	arch/x86/kernel/dumpstack.o \
	mm/slub.o mm/slub_legacy.o mm/slub_cache.o mm/slub_debug.o mm/slub_probe.o \
	mm/slab_common.o lib/stackdepot.o
kasan_cflags = $(if $(filter $(KASAN_SANITIZE_n),$(patsubst $(O)/%,%,$@)),,$(CFLAGS_KASAN))

# ------------------------------------------------------------------ rules
# Objects depend on the flags they were compiled with: the file changes
# (and everything is rebuilt) only when the flags do, so that no object
# built for another stack alignment or flag set survives a flag change.
# The preprocessor's flags are left out: the configuration is a
# prerequisite of its own (AUTOCONF_RSP), and newlib's include path reads
# differently before and after the first build made its link.
CFLAGS_STAMP := $(O)/.cflags
cflags_now := $(KBUILD_CFLAGS) | $(GENERAL_REGS) | $(FPU_STACK) | $(CFLAGS_KASAN)
ifeq ($(CONFIG_UBSAN),y)
cflags_now += | $(ubsan_choices)
endif
$(CFLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	$(Q)echo '$(cflags_now)' | cmp -s - $@ || echo '$(cflags_now)' > $@

.PHONY: FORCE
FORCE:

$(O)/%.o: %.c $(AUTOCONF_RSP) $(CFLAGS_STAMP) | $(NEWLIB_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CCACHE_CMD) $(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(if $(filter $@,$(FPU_OBJS)),$(FPU_STACK),$(GENERAL_REGS)) \
		$(call ubsan_cflags,$*.o) $(kasan_cflags) -c $< -o $@

$(O)/%.o: %.S $(AUTOCONF_RSP) | $(NEWLIB_STAMP)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CCACHE_CMD) $(CC) $(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS) -c $< -o $@

# Version and configuration hash for the start banner.
$(O)/generated/version.c: $(O)/.config
	@mkdir -p $(dir $@)
	$(Q)hash=$$(grep '^CONFIG_' $< | sort | cksum | cut -d' ' -f1); \
	printf 'const char irqlab_config_hash[] = "%08x";\n' $$hash > $@

$(O)/generated/version.o: $(O)/generated/version.c
	$(Q)$(CC) $(KBUILD_CFLAGS) -c $< -o $@

# Two-pass link for kallsyms: the table is the last thing in .rodata, so
# the text it describes does not move when it grows.
LINK_LIBS = --start-group $(NEWLIB)/lib/libc.a $(NEWLIB)/lib/libm.a $(LIBGCC) --end-group

$(O)/.tmp_kallsyms0.S: scripts/kallsyms.py
	$(Q)$(PYTHON) scripts/kallsyms.py /dev/null $@

$(O)/.tmp_kernel1.elf: $(OBJS) $(O)/.tmp_kallsyms0.o linker/kernel.ld $(NEWLIB_STAMP)
	@echo "  LD      $@ (pass 1)"
	$(Q)$(LD) $(LDFLAGS_kernel) -o $@ $(OBJS) $(O)/.tmp_kallsyms0.o $(LINK_LIBS)

$(O)/.tmp_kallsyms1.S: $(O)/.tmp_kernel1.elf scripts/kallsyms.py
	$(Q)$(NM) -n -S $< > $(O)/.tmp_kernel1.nm
	$(Q)$(PYTHON) scripts/kallsyms.py $(O)/.tmp_kernel1.nm $@

$(O)/kernel.elf: $(O)/.tmp_kernel1.elf $(O)/.tmp_kallsyms1.o
	@echo "  LD      $@"
	$(Q)$(LD) $(LDFLAGS_kernel) -o $@ $(OBJS) $(O)/.tmp_kallsyms1.o $(LINK_LIBS)
	$(Q)$(NM) -n -S $@ > $(O)/kernel.nm
	$(Q)$(PYTHON) scripts/kallsyms.py --compare $(O)/.tmp_kernel1.nm $(O)/kernel.nm

$(O)/.tmp_kallsyms%.o: $(O)/.tmp_kallsyms%.S
	$(Q)$(CC) $(KBUILD_AFLAGS) -c $< -o $@

-include $(OBJS:.o=.d)

# ------------------------------------------------------------------ targets
.PHONY: all build _build kernel iso efi run test test-busy test-long scale hit-rate soak fault-scale latency-figures ktrace-paths figures check-figures \
	experiment-seeds iso-experiments debug deps clean distclean help \
	compile_commands.json defconfig olddefconfig savedefconfig menuconfig

all build kernel: deps
	$(Q)$(MAKE) _build

_build: $(O)/kernel.elf compile_commands.json

# One JSON entry per C/asm source, for clangd and friends.
compile_commands.json: $(O)/compile_commands.json
$(O)/compile_commands.json: $(AUTOCONF_RSP) Makefile $(wildcard */Kbuild */*/Kbuild) | $(NEWLIB_STAMP)
	@mkdir -p $(O)
	$(Q)$(PYTHON) scripts/gen_compile_commands.py $@ $(srctree) \
		"$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS)" "$(GENERAL_REGS)" \
		"$(KBUILD_AFLAGS)" $(O) "$(obj-fpu-y)" $(obj-y) $(obj-fpu-y)
	@# Through a rename: test/run builds several configurations at once.
	$(Q)ln -sfn $(O)/compile_commands.json .compile_commands.json.$$$$ && \
		mv -Tf .compile_commands.json.$$$$ compile_commands.json

deps:
	$(Q)scripts/deps.sh

ISO ?= $(O)/irqlab.iso
# MENU_TIMEOUT: seconds the GRUB menu waits on the serial line (0: boot entry 0).
MENU_TIMEOUT ?= 0
# ISO_DEFAULT: cmdline (entry 0, CMDLINE through multiboot2) or native (on
# UEFI, GRUB chainloads irqlab's own loader, which the ISO carries too).
ISO_DEFAULT ?= cmdline
iso: build
	$(Q)$(MAKE) $(EFI_LOADER)
	$(Q)MENU_TIMEOUT=$(MENU_TIMEOUT) ISO_DEFAULT=$(ISO_DEFAULT) scripts/mkiso.sh \
		$(EFI_LOADER) $(O)/kernel.elf "$(CMDLINE)" $(ISO)

# ------------------------------------------------------------------ UEFI loader
# arch/x86/efi: a GNU-EFI application (PE32+ made from a PIC ELF shared
# object with GNU-EFI's own linker script and start-up code).  It does not
# depend on the kernel's configuration; each build directory has its copy.
EFI_INC	:= /usr/include/efi
EFI_LIB	:= /usr/lib
EFI_CFLAGS := -I$(EFI_INC) -I$(EFI_INC)/x86_64 -DGNU_EFI_USE_MS_ABI \
	-std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-ffreestanding -fpic -fshort-wchar -fno-stack-protector -fno-strict-aliasing \
	-mno-red-zone -maccumulate-outgoing-args -mgeneral-regs-only -fcf-protection=none \
	-MMD -MP
EFI_OBJS := $(O)/efi/loader.o $(O)/efi/enter32.o
EFI_LOADER := $(O)/efi/BOOTX64.EFI

$(O)/efi/%.o: arch/x86/efi/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (UEFI)"
	$(Q)$(CCACHE_CMD) $(CC) $(EFI_CFLAGS) -c $< -o $@

$(O)/efi/%.o: arch/x86/efi/%.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (UEFI)"
	$(Q)$(CCACHE_CMD) $(CC) $(EFI_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(O)/efi/loader.so: $(EFI_OBJS)
	$(Q)$(LD) -nostdlib -znocombreloc -shared -Bsymbolic -T $(EFI_LIB)/elf_x86_64_efi.lds \
		$(EFI_LIB)/crt0-efi-x86_64.o $(EFI_OBJS) -L$(EFI_LIB) -lefi -lgnuefi -o $@

$(EFI_LOADER): $(O)/efi/loader.so
	@echo "  EFI     $@"
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym \
		-j .rel -j .rela -j '.rel.*' -j '.rela.*' -j .reloc \
		--target efi-app-x86_64 --subsystem=10 $< $@

-include $(EFI_OBJS:.o=.d)

# `make efi`: a FAT ESP disk image with the loader, the kernel and CMDLINE.
# EFI_NO_KERNEL=1 leaves kernel.elf out (the loader's failure-path test);
# EFI_SHELL=1 starts the loader from the UEFI shell with CMDLINE as its
# load options (the override test; scripts/mkefi.sh says how).
EFI_IMG ?= $(O)/irqlab-efi.img
efi: build
	$(Q)$(MAKE) $(EFI_LOADER)
	$(Q)scripts/mkefi.sh $(if $(filter 1,$(EFI_NO_KERNEL)),--no-kernel) \
		$(if $(filter 1,$(EFI_SHELL)),--shell) \
		$(EFI_LOADER) $(O)/kernel.elf "$(CMDLINE)" $(EFI_IMG)

# `make run` without CMDLINE runs the default measurement (issue 10): timer
# latency under hackbench load, with the irqsoff tracer's report after it.
DEFAULT_RUN := run=cyclic,hackbench cyclic.duration_ms=3000 hackbench.groups=2 hackbench.loops=20
RUN_CMDLINE = $(if $(strip $(CMDLINE)),$(CMDLINE),$(DEFAULT_RUN))

QEMU_ARGS = --smp $(SMP) --mem $(MEM) --accel $(ACCEL) --icount $(ICOUNT) \
	--boot $(BOOT) $(if $(MACHINE),--machine $(MACHINE)) $(if $(CPU),--cpu $(CPU)) \
	$(if $(SERIAL),--serial-port $(SERIAL)) $(if $(HPET),--hpet $(HPET)) \
	$(if $(TCG_THREAD),--tcg-thread $(TCG_THREAD)) --cmdline "$(RUN_CMDLINE)"
RUN_IMAGE = $(if $(filter pvh,$(BOOT)),--kernel $(O)/kernel.elf,$(if $(filter efi,$(BOOT)),\
	--disk $(O)/irqlab-efi.img,--iso $(O)/irqlab.iso))
# The image each BOOT needs, with the command line baked in.
RUN_PREPARE = $(if $(filter pvh,$(BOOT)),,$(if $(filter efi,$(BOOT)),\
	$(MAKE) efi EFI_IMG=$(O)/irqlab-efi.img,$(MAKE) iso ISO=$(O)/irqlab.iso))

# Exit status: GNU make exits 2 whenever a recipe fails and cannot pass another
# status through, so `make run` exits 0 (guest passed) or 2; the line below and
# make's own "Error N" carry scripts/qemu.py's status N (1 guest failure, 2 no
# verdict, 3 could not run), and `scripts/qemu.py run` exits with N itself.
run: build
	$(Q)$(if $(RUN_PREPARE),$(RUN_PREPARE) CMDLINE='$(RUN_CMDLINE)')
	$(Q)$(PYTHON) scripts/qemu.py run $(RUN_IMAGE) $(QEMU_ARGS) \
		$(if $(TIMEOUT),--timeout $(TIMEOUT)) || { rc=$$?; \
		echo "make run: scripts/qemu.py exited $$rc (1 guest failure, 2 no verdict," \
			"3 could not run); make exits 2 for any failure" >&2; exit $$rc; }

debug: build
	$(Q)$(if $(RUN_PREPARE),$(RUN_PREPARE))
	$(Q)printf 'file %s\ntarget remote localhost:1234\nhbreak start_kernel\n' \
		$(abspath $(O)/kernel.elf) > $(O)/gdbinit
	@echo "QEMU waits for gdb. In another terminal: gdb -x $(O)/gdbinit, then 'continue'."
	$(Q)$(PYTHON) scripts/qemu.py run $(RUN_IMAGE) $(QEMU_ARGS) --debug

test: deps
	$(Q)test/run -j $(J) --accel $(ACCEL)

# The same suite with HOGS busy loops beside it (default: one per core):
# timing cases must hold when the host is busy.  Minutes; not part of make
# test.
HOGS	?= $(shell nproc)
test-busy: deps
	$(Q)scripts/test-busy.sh '$(HOGS)' -j $(J) --accel $(ACCEL)

# The long table (test/long.cfg): the configuration matrix, UBSAN on
# PREEMPT_RT and the entries that do not pass every time yet.  Each
# configuration there is another kernel build: minutes, not part of make
# test.
test-long: deps
	$(Q)test/run -j $(J) --accel $(ACCEL) --cfg test/long.cfg

# How often an entry catches a planted bug, and never without it:
# BUG=<config> booted RUNS times, and as often its clean configuration,
# hits/N with a Clopper-Pearson interval (scripts/hit_rate.py; ENTRY=,
# CLEAN= override the defaults it derives).  Minutes; not part of make test.
BUG	?=
RUNS	?= 20
hit-rate: deps
	$(Q)test -n '$(BUG)' || { echo "make hit-rate: say BUG=<config>, e.g. BUG=missing_tid" >&2; exit 2; }
	$(Q)$(PYTHON) scripts/hit_rate.py '$(BUG)' --runs '$(RUNS)' --jobs '$(J)' \
		$(if $(ENTRY),--entry '$(ENTRY)') $(if $(CLEAN),--clean '$(CLEAN)')
# The soak (Documentation/soak.md): run=soak for SOAK_MIN minutes of guest
# time on soak (RT + lockdep) and soak_kasan (RT + KASAN) side by side, the
# wall-clock cap enforced here.  Not part of make test (its short form is).
SOAK_MIN ?= 60
soak: deps
	$(Q)$(PYTHON) scripts/soak.py --minutes '$(SOAK_MIN)'

# 10^6 allocations with 1% injected failures, per call site, on both SLUB
# ports (fault_scale suite; test/long.cfg's fault-scale-* entries).
fault-scale: deps
	$(Q)test/run -j $(J) --accel $(ACCEL) --cfg test/long.cfg fault-scale-1m fault-scale-legacy-1m

# The seeds' experiments E1-E7 (tools/experiments/; long, resumable; not
# part of make test).  Results and comparisons in build/experiments/eN/.
EXPERIMENTS ?= e1 e2 e3 e4 e5 e1_icount e2_icount e3_icount e4_icount e5_icount e6 e6_rt e2_lockstat e2_lockstat_icount e7 e7_icount
# A boot whose workload reports a failure (rt_migrate's violations under TCG) is a
# result, not a reason to skip the remaining experiments: the exit status says so.
experiment-seeds: deps
	$(Q)rc=0; for e in $(EXPERIMENTS); do \
		$(PYTHON) tools/irqlab matrix tools/experiments/$$e.ini --out build/experiments/$$e || \
			{ s=$$?; echo "experiment-seeds: $$e exited $$s"; [ $$s -gt $$rc ] && rc=$$s; }; \
	done; for e in $(EXPERIMENTS); do \
		echo "== $$e"; cat build/experiments/$$e/index.txt 2>/dev/null || echo "(no index)"; \
	done; exit $$rc

# The experiments on a physical machine: one GRUB ISO with an entry per
# (experiment, configuration, workload), each booting that configuration's
# kernel with the workload's command line, plus maxcpus=CPUS when CPUS is
# set.  EXPERIMENT=e2 or EXPERIMENTS="e2 e4"; by default the experiments
# that mean something on hardware (not the *_icount ones, which are QEMU's
# exact instruction clock).  ISO_ENTRY=e2/rt_nopartial/hackbench boots that
# cell when nobody chooses.  Logs go back with tools/irqlab import-runs.
ifdef EXPERIMENT
ISO_EXPERIMENTS := $(EXPERIMENT)
else ifneq ($(origin EXPERIMENTS),file)
ISO_EXPERIMENTS := $(EXPERIMENTS)
else
ISO_EXPERIMENTS := $(filter-out %_icount,$(EXPERIMENTS))
endif
CPUS ?=
EXPERIMENTS_ISO ?= build/experiments/irqlab-experiments.iso
iso-experiments: deps
	$(Q)mkdir -p build/experiments
	$(Q)$(PYTHON) tools/irqlab cells $(if $(CPUS),--cpus $(CPUS)) \
		$(ISO_EXPERIMENTS:%=tools/experiments/%.ini) > $(EXPERIMENTS_ISO).cells
	$(Q)for c in $$($(PYTHON) tools/irqlab cells --configs \
			$(ISO_EXPERIMENTS:%=tools/experiments/%.ini)); do \
		$(MAKE) -s build CONFIG=$$c || exit 1; \
	done
	$(Q)$(MAKE) -s $(EFI_LOADER)
	$(Q)IFS='	' read -r _ c0 _ cmd0 < $(EXPERIMENTS_ISO).cells; \
	MENU_TIMEOUT=$(MENU_TIMEOUT) ISO_DEFAULT=$(ISO_DEFAULT) ISO_ENTRY=$(ISO_ENTRY) \
		ISO_CELLS=$(EXPERIMENTS_ISO).cells ISO_KERNELS=build scripts/mkiso.sh \
		$(EFI_LOADER) build/$$c0/kernel.elf "$$cmd0" $(EXPERIMENTS_ISO)
	@echo "iso-experiments: $(EXPERIMENTS_ISO): $$(wc -l < $(EXPERIMENTS_ISO).cells) entries ($(ISO_EXPERIMENTS))"

# Boot cost and kernel memory against vCPUs (1..64: guest instructions under
# icount, and TCG wall time with all vCPUs and with CPU 0 alone) and RAM
# (128M..64G, icount at SMP=1), with the growth per doubling and whose each
# worse-than-linear step is (Documentation/scale.md).
# SCALE_CPUS=1,2,4 / SCALE_RAM=128M,1G narrow the axes ('' skips one);
# SCALE_DOCS=1 also rewrites the results block of Documentation/scale.md.
# Minutes, and 64 vCPUs take both host cores: not part of make test.
SCALE_CPUS ?= 1,2,4,8,16,32,64
SCALE_RAM ?= 128M,256M,512M,1G,2G,4G,8G,16G,32G,64G
# single: one TCG thread runs the vCPUs in turn; multi: a thread per vCPU.
SCALE_TCG_THREAD ?= single
# Plain-TCG boots per vCPU point (the fastest counts).
SCALE_TCG_RUNS ?= 3
scale: build
	$(Q)$(PYTHON) scripts/scale.py --config $(CONFIG) --cpus '$(SCALE_CPUS)' \
		--ram '$(SCALE_RAM)' --tcg-thread '$(SCALE_TCG_THREAD)' \
		--tcg-runs '$(SCALE_TCG_RUNS)' --out build/scale \
		$(if $(SCALE_DOCS),--docs Documentation/scale.md)

# The measurement issue's figures (minutes; not part of make test).
latency-figures: deps
	$(Q)$(PYTHON) scripts/latency_figures.py $(if $(QUICK),--quick)

# The traced alloc+free path per preset (KTRACE_CONFIGS=a,b; KTRACE_OUT=file).
ktrace-paths: deps
	$(Q)$(PYTHON) scripts/ktrace_paths.py $(if $(KTRACE_CONFIGS),--configs $(KTRACE_CONFIGS)) \
		$(if $(KTRACE_OUT),--out $(KTRACE_OUT))

# The documentation's measured figures: every one sits in a generated block
# (<!-- figures:NAME begin mode=... commit=... -->) that `make figures` writes
# from its own boots and `make check-figures` reruns (icount blocks; exact),
# failing on any stale value.  FIGURES="slabbench cyclic" picks blocks;
# LOGS=dir renders from saved serial logs.  Minutes; not part of make test.
figures: deps
	$(Q)$(PYTHON) scripts/figures.py write $(FIGURES) $(if $(LOGS),--logs $(LOGS))

check-figures: deps
	$(Q)$(PYTHON) scripts/figures.py check $(FIGURES) $(if $(LOGS),--logs $(LOGS))

clean:
	rm -rf $(O)

distclean:
	rm -rf build compile_commands.json

help:
	@echo 'irqlab targets:'
	@echo '  make run      build and boot CONFIG in QEMU; without CMDLINE, the default measurement'
	@echo '  make test     build and run every test configuration (test/unittests.cfg)'
	@echo '  make test-busy        make test with HOGS=$(HOGS) CPU hogs beside it'
	@echo '  make test-long        the long table: config matrix, RT UBSAN, flaky watchdog entries'
	@echo '  make hit-rate BUG=missing_tid RUNS=20  hits/N of the catching entry with and without the bug'
	@echo '  make soak             RT+lockdep and RT+KASAN soaks side by side (SOAK_MIN=60 minutes)'
	@echo '  make fault-scale      10^6 allocations at 1% injected failures, both SLUB ports'
	@echo '  make latency-figures  SLUB IRQ-off windows, cyclic, tracer cost (QUICK=1: icount only)'
	@echo '  make scale    boot cost and kernel memory against vCPUs and RAM (SCALE_CPUS, SCALE_RAM, SCALE_DOCS=1)'
	@echo '  make ktrace-paths     the traced alloc+free path of default, legacy, rt (KTRACE_OUT=file)'
	@echo '  make figures          rewrite the generated figure blocks of the docs (FIGURES="...")'
	@echo '  make check-figures    rerun the icount figure blocks; fail naming every stale value'
	@echo '  make experiment-seeds the seeds experiments E1-E6 (EXPERIMENTS="e1 e2"; resumable)'
	@echo '  make build    build $(O)/kernel.elf (default target)'
	@echo '  make iso      GRUB hybrid BIOS+UEFI image $(O)/irqlab.iso (CMDLINE baked in), with'
	@echo '                the native loader too (ISO_DEFAULT=native: GRUB-EFI starts it at once)'
	@echo '  make iso-experiments  one GRUB ISO, an entry per experiment cell (EXPERIMENTS="e2 e4"'
	@echo '                CPUS=8: maxcpus=8), for physical machines; see Documentation/hardware.md'
	@echo '  make efi      FAT ESP disk image $(O)/irqlab-efi.img, native UEFI loader (CMDLINE baked in)'
	@echo '  make debug    boot halted with a gdb stub; gdb -x $(O)/gdbinit'
	@echo '  make <name>_defconfig | defconfig | menuconfig | olddefconfig | savedefconfig'
	@echo '  make deps     install missing Debian packages'
	@echo '  make clean | distclean'
	@echo 'variables: CONFIG=$(CONFIG) O=$(O) SMP=$(SMP) MEM=$(MEM) ACCEL=$(ACCEL)'
	@echo '  ICOUNT=$(ICOUNT) (0|1|auto: icount on TCG at SMP=1) BOOT=$(BOOT) (pvh|bios|uefi|efi)'
	@echo '  MACHINE CPU CMDLINE TIMEOUT J V=1'
	@echo 'configurations: '$$(ls configs | sed -n 's/_defconfig$$//p')

.DEFAULT_GOAL := build
