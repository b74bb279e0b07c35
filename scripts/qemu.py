#!/usr/bin/env python3
"""Compose and run irqlab's QEMU command lines (the only place that does).

Used by `make run` (interactive: the serial console is streamed to the terminal and the exit
code is the guest's verdict) and by test/run (serial to a log file, under a timeout).

Parameters (Documentation/design.md section 9; the same names as the Makefile variables):
  SMP      number of vCPUs, 1..255                                   default 1
  MEM      guest RAM: a number with an optional K/M/G/T suffix, >= 1M default 256M
  ACCEL    auto | tcg | kvm; auto = kvm if the KVM probe passed       default auto
           (below), else tcg with a one-line reason on stderr; kvm when the probe
           failed is a parameter error (exit 3)
  ICOUNT   0 | 1 | auto; 1 adds `-icount shift=0,sleep=off -rtc clock=vm`,   default 0
           needs TCG and SMP=1 (QEMU 7.2 livelocks SMP guests under icount);
           auto (make run's and `qemu.py run`'s default) = 1 when the run ends up
           on TCG at SMP=1, else 0: plain TCG's timings follow the host's clock
           and are host noise, icount's are exact and repeatable
  BOOT     pvh  : -kernel kernel.elf -append CMDLINE (QEMU's PVH loader)
           bios : -cdrom ISO through SeaBIOS and GRUB
           uefi : -cdrom ISO through OVMF (read-only code pflash plus a private writable
                  copy of OVMF_VARS) and GRUB-EFI
           efi  : the FAT ESP disk image (`make efi`) as a raw IDE/SATA disk through OVMF
                  and irqlab's own UEFI loader (arch/x86/efi); the disk is opened with
                  snapshot=on, so parallel runs may share one image
  MACHINE  pc | q35; default q35 for BOOT=uefi and efi, pc otherwise
  CPU      a QEMU -cpu model (with optional ,+feat/-feat); default `max` under TCG (every
           feature TCG emulates) and `host` under KVM; `host` needs KVM
  CMDLINE  kernel command line; only for BOOT=pvh (an ISO has it baked into grub.cfg,
           an ESP image into /irqlab/cmdline.txt)
  NUMA     0 (no NUMA: no SRAT) or the number of nodes, 1..16: memory and vCPUs are
           split evenly, node i gets the i-th slice of RAM (a memory-backend-ram
           object each) and the i-th group of vCPUs; SMP and MEM must divide evenly,
           into node sizes that are multiples of 8M
  SERIAL   ttyS0..ttyS3: the COM port the serial log is attached to (0x3f8, 0x2f8,
           0x3e8, 0x2e8); the ports below it are left out (-serial none), so with
           ttyS1 there is no COM1 at all                            default ttyS0
  HPET     0 | 1; 0 boots without an HPET (-machine ...,hpet=off)  default 1
  TCG_THREAD multi | single: TCG's vCPU threads (-accel tcg,thread=...)  default multi
           multi: one host thread per vCPU (MTTCG); single: one host thread runs the
           vCPUs in turn.  Only for TCG without icount (icount is single anyway);
           with KVM it is ignored.  Many vCPUs on a few busy host cores want single:
           under MTTCG every interrupt and every PAUSE of a vCPU takes QEMU's big lock,
           and 64 ticking vCPUs on 2 busy cores queue on it for seconds per IPI
           (Documentation/scale.md)
Mode: the accelerator and ICOUNT together give the run's measurement mode, named as the
guest names its clock (tsc_clock_mode()): KVM, icount or TCG. `qemu.py run` prints one
line on stderr before booting, `qemu.py: mode <mode>, SMP=<n>: <why>` (mode_line()).
Always: -no-reboot -display none -monitor none -device isa-debug-exit,iobase=0xf4,iosize=4.
Empty strings mean "default" (so the Makefile can pass `--cpu "$(CPU)"` unconditionally).

Environment: IRQLAB_QEMU (QEMU binary, default qemu-system-x86_64), IRQLAB_OVMF_CODE and
IRQLAB_OVMF_VARS (firmware images; default the Debian `ovmf` package's files),
IRQLAB_KVM_DEV (the KVM device checked and keyed, default /dev/kvm; QEMU itself always
opens /dev/kvm, so this is for tests), IRQLAB_CACHE (where the KVM probe's verdict is kept,
default ~/.cache/irqlab).

KVM probe: a /dev/kvm that opens does not mean KVM can run guests (nested or software
hypervisors such as kvm_pvm stop at irqlab's first ldmxcsr with "KVM internal error ...
emulation failure", and QEMU then stays alive with the VM stopped). So before the first KVM
run, a 210-byte PVH guest (PROBE_ASM below) boots under -accel kvm -cpu host with a
KVM_PROBE_TIMEOUT: it enters long mode as irqlab does, runs the SSE instructions irqlab's
fpu__init_cpu() and kernel_fpu_begin() run, and exits through isa-debug-exit. The verdict is
kept in $IRQLAB_CACHE/kvm-probe.json under a key of the QEMU binary and version, the host
kernel release (uname -r), the KVM device's identity (device number, inode, change time:
a new node after a reboot or a module reload re-probes), the loaded kvm modules and the
probe's own version; any change probes again. A probe timeout is not kept (host load may
cause it). `qemu.py kvm-probe [--force]` shows (or redoes) the verdict.

While QEMU runs, its stderr is watched for "KVM internal error": QEMU is killed at once and
the run is no verdict with that reason (and the cached verdict becomes a failure).

Timeout: run() and `qemu.py run` default to default_timeout() of the command line (a fixed
allowance for boot and count-based work plus the time-based workloads' durations, scaled for
icount); 0 means no limit, on request only.

Verdict (isa-debug-exit: QEMU exits with ((value << 1) | 1) & 0xff):
  status 1              pass (the guest wrote 0)
  odd status 3..255     fail, guest code = status >> 1 (1 = tests failed, 2 = bad command line, 3 = panic)
  0, even, signal       no verdict (0 is a triple fault under -no-reboot)
  host timeout          no verdict
  KVM internal error    no verdict (QEMU killed as soon as it printed it)
  status 1 but QEMU printed an error (it exits 1 on start-up errors too): no verdict.

CLI exit codes: 0 guest passed, 1 guest failed, 2 no verdict (timeout, triple fault, KVM
internal error...), 3 bad parameters (ACCEL=kvm where the KVM probe failed is one) or QEMU
could not be started. `qemu.py kvm-probe`: 0 KVM usable, 1 not.
"""

import argparse
import dataclasses
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

QEMU_ENV = "IRQLAB_QEMU"
DEFAULT_QEMU = "qemu-system-x86_64"

BOOTS = ("pvh", "bios", "uefi", "efi")
MACHINES = ("pc", "q35")
ACCELS = ("auto", "tcg", "kvm")
TCG_THREADS = ("multi", "single")
MAX_SMP = 255
MAX_NUMA = 16            # the kernel's MAX_NUMNODES
SERIAL_PORTS = ("ttyS0", "ttyS1", "ttyS2", "ttyS3")
NUMA_NODE_ALIGN_MB = 8
DEFAULT_MEM = "256M"
# Above this much guest RAM, QEMU maps it without reserving host memory
# (memory-backend-ram,reserve=off: MAP_NORESERVE), so -m 64G boots on a
# host with less RAM (Linux's heuristic overcommit refuses one mapping larger
# than RAM + swap).  Pages cost host memory only when the guest touches them;
# irqlab touches its memory map (64 B per 4 KiB page) and what it allocates.
SPARSE_MEM_MB = 8 << 10

EXIT_DEVICE = "isa-debug-exit,iobase=0xf4,iosize=4"
# Guest exit codes with a meaning (they must match the kernel's).
GUEST_CODE_NAMES = {1: "test failure", 2: "command-line error", 3: "panic"}
CMDLINE_CODE = 2
PANIC_CODE = 3

# (code, vars) pairs; the first pair whose files both exist is used.
OVMF_CANDIDATES = (
    ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd"),
    ("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_VARS_4M.fd"),
    ("/usr/share/edk2/ovmf/OVMF_CODE.fd", "/usr/share/edk2/ovmf/OVMF_VARS.fd"),
)

EXIT_PASS, EXIT_FAIL, EXIT_NOVERDICT, EXIT_ERROR = 0, 1, 2, 3


class ParamError(ValueError):
    """A parameter is malformed or a combination is not allowed; str() is user-facing."""


@dataclasses.dataclass(frozen=True)
class Params:
    """What the user asked for (strings are accepted everywhere; '' or None = default)."""
    kernel: str = None
    iso: str = None
    disk: str = None
    smp: object = 1
    mem: str = DEFAULT_MEM
    accel: str = "auto"
    icount: object = 0
    boot: str = "pvh"
    machine: str = None
    cpu: str = None
    cmdline: str = ""
    debug: bool = False
    numa: object = 0
    serial: str = None
    hpet: object = 1
    tcg_thread: str = None
    # ICOUNT=1 with SMP>1, for a boot that only has to reach its first
    # record (make scale's vCPU axis): refused otherwise, see resolve().
    smp_icount: bool = False


@dataclasses.dataclass(frozen=True)
class Resolved:
    """Validated parameters with every default and `auto` decided."""
    kernel: str
    iso: str
    smp: int
    mem: str
    accel: str
    icount: bool
    boot: str
    machine: str
    cpu: str
    cmdline: str
    debug: bool
    numa: int = 0
    serial: int = 0          # index of the COM port carrying the log
    hpet: bool = True
    disk: str = None
    why: str = ""            # why this mode (see mode_line())
    tcg_thread: str = "multi"   # TCG only: multi (MTTCG) or single (round robin)

    @property
    def mode(self):
        """The measurement mode in the guest's words (tsc_clock_mode())."""
        if self.accel == "kvm":
            return "KVM"
        return "icount" if self.icount else "TCG"


@dataclasses.dataclass(frozen=True)
class Verdict:
    kind: str            # "pass" | "fail" | "noverdict"
    code: int = None     # guest failure code (kind == "fail")
    cause: str = None    # noverdict: "timeout" | "status0" | "status" | "signal" |
                         # "qemu-error" | "kvm-error"
    reason: str = ""     # one human-readable line

    @property
    def passed(self):
        return self.kind == "pass"


@dataclasses.dataclass
class RunResult:
    verdict: Verdict
    status: int          # QEMU's exit status (negative: killed by that signal)
    timed_out: bool
    elapsed: float
    argv: list
    stderr: str


# ---------------------------------------------------------------------------- validation

def _blank(v):
    return v is None or (isinstance(v, str) and v.strip() == "")


def parse_smp(value):
    if _blank(value):
        return 1
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]+", text) or not 1 <= int(text) <= MAX_SMP:
        raise ParamError(f"invalid SMP={value!r}: must be an integer from 1 to {MAX_SMP}")
    return int(text)


_MEM_RE = re.compile(r"([0-9]+)([KMGT]?)(?:i?B)?", re.IGNORECASE)
_MEM_SHIFT = {"": 20, "K": 10, "M": 20, "G": 30, "T": 40}   # QEMU: a bare number is MiB


def parse_mem(value):
    """Return MEM normalized for -m (e.g. '256M'); raise ParamError when malformed."""
    if _blank(value):
        return DEFAULT_MEM
    text = str(value).strip()
    m = _MEM_RE.fullmatch(text)
    if not m:
        raise ParamError(f"invalid MEM={value!r}: expected a size such as 256M or 1G "
                         "(a number with an optional K, M, G or T suffix)")
    number, suffix = int(m.group(1)), m.group(2).upper()
    if (number << _MEM_SHIFT[suffix]) < (1 << 20):
        raise ParamError(f"invalid MEM={value!r}: at least 1M is needed")
    return f"{number}{suffix or 'M'}"


def mem_megabytes(mem):
    """Normalized MEM (e.g. '512M', '2G', '2048K') -> size in MiB (a float)."""
    m = _MEM_RE.fullmatch(mem)
    return (int(m.group(1)) << _MEM_SHIFT[m.group(2).upper()]) / (1 << 20)


def parse_numa(value, smp, mem):
    """NUMA node count (0 = off); SMP and MEM (already validated) must split evenly."""
    if _blank(value):
        return 0
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]+", text) or int(text) > MAX_NUMA:
        raise ParamError(f"invalid NUMA={value!r}: must be 0 (off) or a node count "
                         f"from 1 to {MAX_NUMA}")
    nodes = int(text)
    if nodes == 0:
        return 0
    if smp % nodes:
        raise ParamError(f"NUMA={nodes} with SMP={smp}: the vCPUs are split evenly "
                         f"across nodes, so SMP must be a multiple of {nodes}")
    node_mb = mem_megabytes(mem) / nodes
    if node_mb != int(node_mb) or int(node_mb) % NUMA_NODE_ALIGN_MB:
        raise ParamError(f"NUMA={nodes} with MEM={mem}: each node would get "
                         f"{node_mb:g}M; MEM must split into nodes that are multiples of "
                         f"{NUMA_NODE_ALIGN_MB}M (e.g. MEM={nodes * 256}M)")
    return nodes


def sparse_mem(mem):
    """True when MEM is large enough to be mapped without a host reservation."""
    return mem_megabytes(mem) > SPARSE_MEM_MB


def numa_argv(nodes, smp, mem):
    """-object/-numa options for `nodes` equal nodes (memory slices and vCPU groups)."""
    if not nodes:
        return []
    node_mb = int(mem_megabytes(mem)) // nodes
    per = smp // nodes
    reserve = ",reserve=off" if sparse_mem(mem) else ""
    argv = []
    for i in range(nodes):
        cpus = f"{i * per}" if per == 1 else f"{i * per}-{(i + 1) * per - 1}"
        argv += ["-object", f"memory-backend-ram,id=ram-node{i},size={node_mb}M{reserve}",
                 "-numa", f"node,nodeid={i},cpus={cpus},memdev=ram-node{i}"]
    return argv


def sparse_mem_argv(nodes, mem):
    """The machine's RAM as one unreserved backend when MEM is large (not with NUMA,
    whose node backends carry reserve=off themselves)."""
    if nodes or not sparse_mem(mem):
        return [], ""
    size = f"{int(mem_megabytes(mem))}M"
    return (["-object", f"memory-backend-ram,id=pc.ram,size={size},reserve=off"],
            ",memory-backend=pc.ram")


def parse_flag(name, value):
    if _blank(value):
        return False
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("0", "1"):
        return text == "1"
    raise ParamError(f"invalid {name}={value!r}: must be 0 or 1")


def _choice(name, value, choices, default):
    if _blank(value):
        return default
    text = str(value).strip()
    if text not in choices:
        raise ParamError(f"invalid {name}={value!r}: valid choices are {', '.join(choices)}")
    return text


_CPU_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(,[+-]?[A-Za-z0-9_.-]+(=[A-Za-z0-9_.-]+)?)*")


def kvm_usable(path="/dev/kvm"):
    """True when `path` opens read-write (what QEMU needs for -accel kvm; not enough to
    run a guest: see kvm_state())."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return False
    os.close(fd)
    return True


# ---------------------------------------------------------------------------- KVM probe

KVM_DEV_ENV = "IRQLAB_KVM_DEV"
DEFAULT_KVM_DEV = "/dev/kvm"
CACHE_ENV = "IRQLAB_CACHE"
KVM_PROBE_FILE = "kvm-probe.json"
KVM_PROBE_TIMEOUT = 10.0        # the probe boots in 0.25 s even under TCG
KVM_PROBE_VERSION = 1           # bump when PROBE_ASM or the probe's QEMU options change
KVM_ERROR = "KVM internal error"
KVM_ERROR_GRACE = 0.2           # lets QEMU finish the register dump it prints after it

# The probe guest, assembled with `as --64` and linked at 0x100000 as a flat binary
# (test/host checks PROBE_CODE against this text when binutils are installed). QEMU's
# PVH loader enters it in 32-bit protected mode with paging off; it maps the first 2 MiB
# with one large page (the tables live in zero-filled memory past the code), enters long
# mode, then does what irqlab does first with SSE: CR0.EM/TS clear, CR4.OSFXSR set,
# fninit; ldmxcsr (where kvm_pvm stops), then fxsave64/fxrstor64 around a little SSE
# arithmetic. It writes 0 to isa-debug-exit (QEMU exits 1) when every result is right,
# 1 when MXCSR did not read back, 2 when 7 + 7 was not 14.
PROBE_ASM = r"""
	.set	PML4, 0x101000
	.set	PDPT, 0x102000
	.set	PD, 0x103000
	.set	FXAREA, 0x104000
	.code32
	.globl	_start
_start:
	movl	$PDPT + 3, PML4
	movl	$PD + 3, PDPT
	movl	$0x83, PD		/* 2 MiB page at 0, present and writable */
	movl	%cr4, %eax
	orl	$0x620, %eax		/* PAE | OSFXSR | OSXMMEXCPT */
	movl	%eax, %cr4
	movl	$PML4, %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx	/* EFER */
	rdmsr
	orl	$0x100, %eax		/* LME */
	wrmsr
	movl	%cr0, %eax
	andl	$~0xc, %eax		/* EM and TS off */
	orl	$0x80000022, %eax	/* PG | NE | MP */
	movl	%eax, %cr0
	lgdt	gdtr
	ljmp	$8, $long64
	.code64
long64:
	fninit
	ldmxcsr	mxcsr(%rip)
	stmxcsr	FXAREA
	movl	$1, %eax
	cmpl	$0x9f80, FXAREA
	jne	out
	fxsave64 FXAREA
	movl	$7, %ecx
	cvtsi2ss %ecx, %xmm0
	addss	%xmm0, %xmm0
	cvttss2si %xmm0, %ecx
	fxrstor64 FXAREA
	movl	$2, %eax
	cmpl	$14, %ecx
	jne	out
	xorl	%eax, %eax
out:
	movw	$0xf4, %dx
	outl	%eax, %dx
1:	hlt
	jmp	1b
	.balign	8
gdt:	.quad	0, 0x00209a0000000000	/* null, 64-bit code */
gdtr:	.word	15
	.long	gdt
mxcsr:	.long	0x9f80			/* Linux's default 0x1f80 plus flush-to-zero */
"""
PROBE_CODE = bytes.fromhex(
    "c7050010100003201000c7050020100003301000c7050030100083000000"
    "0f20e00d200600000f22e0b8001010000f22d8b9800000c00f320d000100"
    "000f300f20c083e0f30d220000800f22c00f0115c8001000ea5b00100008"
    "00dbe30fae156a0000000fae1c2500401000b801000000813c2500401000"
    "809f0000752f480fae042500401000b907000000f30f2ac1f30f58c0f30f"
    "2cc8480fae0c2500401000b80200000083f90e750231c066baf400eff4eb"
    "fd0f1f00000000000000000000000000009a20000f00b8001000809f0000")
PROBE_BASE = 0x100000
PROBE_MEMSZ = 0x4200            # code, three page tables, the fxsave area
PROBE_CODE_OFFSET = 0x100       # in the file, after the ELF header, phdrs and note


def probe_elf():
    """PROBE_CODE as an ELF64 executable with the PVH entry note QEMU's -kernel wants:
    one PT_LOAD at PROBE_BASE (memory past the code is zero-filled) and one PT_NOTE
    ("Xen", type 18 = XEN_ELFNOTE_PHYS32_ENTRY, the 32-bit entry address)."""
    note = struct.pack("<III4sI", 4, 4, 18, b"Xen\0", PROBE_BASE)
    ehdr = struct.pack("<4sBBBB8xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0,
                       2, 62, 1, PROBE_BASE, 64, 0, 0, 64, 56, 2, 0, 0, 0)
    load = struct.pack("<IIQQQQQQ", 1, 5 | 2, PROBE_CODE_OFFSET, PROBE_BASE, PROBE_BASE,
                       len(PROBE_CODE), PROBE_MEMSZ, 0x100)
    note_off = len(ehdr) + 2 * 56
    pnote = struct.pack("<IIQQQQQQ", 4, 4, note_off, 0, 0, len(note), len(note), 4)
    head = ehdr + load + pnote + note
    return head + bytes(PROBE_CODE_OFFSET - len(head)) + PROBE_CODE


@dataclasses.dataclass(frozen=True)
class KvmState:
    """Whether KVM can run irqlab here; `reason` says why not (or how it was found)."""
    usable: bool
    reason: str
    cached: bool = False


def kvm_device(environ=None):
    env = os.environ if environ is None else environ
    return env.get(KVM_DEV_ENV) or DEFAULT_KVM_DEV


def cache_dir(environ=None):
    """IRQLAB_CACHE, else $XDG_CACHE_HOME/irqlab, else ~/.cache/irqlab (as newlib.sh)."""
    env = os.environ if environ is None else environ
    if env.get(CACHE_ENV):
        return env[CACHE_ENV]
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "irqlab")


def _qemu_version(qemu):
    try:
        p = subprocess.run([qemu, "-version"], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    return lines[0].strip() if lines else ""


def _kvm_modules():
    try:
        return sorted(m for m in os.listdir("/sys/module") if m == "kvm" or
                      m.startswith("kvm_"))
    except OSError:
        return []


def probe_key(qemu, device):
    """What the cached verdict depends on; a change in any field probes again."""
    path = shutil.which(qemu) or qemu
    try:
        qst = os.stat(path)
        qid = f"{os.path.realpath(path)} {qst.st_size} {qst.st_mtime_ns}"
    except OSError:
        qid = path
    st = os.stat(device)
    return {"probe": KVM_PROBE_VERSION, "qemu": qid, "qemu_version": _qemu_version(path),
            "kernel": os.uname().release,
            "device": f"{device} {os.major(st.st_rdev)}:{os.minor(st.st_rdev)} "
                      f"ino {st.st_ino} ctime {st.st_ctime_ns}",
            "modules": _kvm_modules()}


def _cache_path(environ=None):
    return os.path.join(cache_dir(environ), KVM_PROBE_FILE)


def _cache_load(key, environ=None):
    try:
        with open(_cache_path(environ), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or \
            not isinstance(data.get("usable"), bool):
        return None
    return KvmState(data["usable"], str(data.get("reason", "")), cached=True)


def _cache_store(key, state, environ=None):
    """Keep the verdict; an unwritable cache only costs a probe per run."""
    path = _cache_path(environ)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"key": key, "usable": state.usable, "reason": state.reason,
                       "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, f,
                      indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass


def _kvm_error_reason(stderr):
    """'KVM internal error. Suberror: 1 (emulation failure)' from QEMU's stderr."""
    lines = [l.strip() for l in (stderr or "").splitlines()]
    first = next((l for l in lines if KVM_ERROR in l), KVM_ERROR)
    detail = next((l for l in lines if l.lower() in ("emulation failure",)), None)
    return first + (f" ({detail})" if detail else "")


def probe_argv(qemu, elf, accel="kvm"):
    """QEMU's argv for the probe guest `elf` (-cpu host under KVM, as irqlab's default)."""
    return [qemu, "-machine", "pc", "-accel", accel,
            "-cpu", "host" if accel == "kvm" else "max", "-smp", "1", "-m", "32M",
            "-nodefaults", "-no-reboot", "-display", "none", "-monitor", "none",
            "-serial", "none", "-device", EXIT_DEVICE, "-kernel", elf]


def probe_kvm(qemu=None, timeout=KVM_PROBE_TIMEOUT):
    """Boot the probe guest under KVM once; return KvmState (cached=False).
    None instead when QEMU cannot be started (that is not KVM's fault)."""
    qemu = qemu or qemu_binary()
    with tempfile.TemporaryDirectory(prefix="irqlab-kvm-probe-") as work:
        elf = os.path.join(work, "probe.elf")
        with open(elf, "wb") as f:
            f.write(probe_elf())
        try:
            raw = _run_argv(probe_argv(qemu, elf), timeout)
        except OSError:
            return None
    if raw.kvm_error:
        return KvmState(False, f"{_kvm_error_reason(raw.stderr)} at the probe")
    if raw.timed_out:
        return KvmState(False, f"the probe guest did not finish in {timeout:g} s")
    err = qemu_error_from_stderr(raw.stderr)
    status = raw.status
    if status == 1 and not err:
        return KvmState(True, "the KVM probe passed")
    if err:
        return KvmState(False, f"QEMU error at the probe: {err}")
    if status is not None and status > 1 and status & 1:
        what = {1: "MXCSR did not read back", 2: "SSE arithmetic was wrong"}
        return KvmState(False, "the probe guest reported: " +
                        what.get(status >> 1, f"code {status >> 1}"))
    return KvmState(False, "the probe " + classify(status, False).reason)


_kvm_memo = {}


def kvm_state(device=None, qemu=None, force=False, timeout=KVM_PROBE_TIMEOUT, environ=None):
    """Can KVM run guests here? The device must open read-write and the probe guest must
    pass; the probe's verdict is cached per host (probe_key()) and per process."""
    device = device or kvm_device(environ)
    qemu = qemu or qemu_binary(environ)
    memo = (device, qemu, cache_dir(environ))
    if not force and memo in _kvm_memo:
        return _kvm_memo[memo]
    try:
        fd = os.open(device, os.O_RDWR | os.O_CLOEXEC)
        os.close(fd)
    except OSError as e:
        state = KvmState(False, f"{device}: {e.strerror}")
        _kvm_memo[memo] = state
        return state
    try:
        key = probe_key(qemu, device)
    except OSError as e:
        return KvmState(False, f"{device}: {e.strerror}")
    state = None if force else _cache_load(key, environ)
    if state is None:
        state = probe_kvm(qemu, timeout)
        if state is None:
            # QEMU itself is missing: let the run report that; do not blame KVM.
            return KvmState(False, f"cannot start {qemu} for the KVM probe")
        if "did not finish" not in state.reason:
            _cache_store(key, state, environ)
    _kvm_memo[memo] = state
    return state


def kvm_failed_at_run(reason, environ=None):
    """A run under KVM hit a KVM internal error: the next ACCEL=auto run takes TCG."""
    device, qemu = kvm_device(environ), qemu_binary(environ)
    try:
        key = probe_key(qemu, device)
    except OSError:
        return
    state = KvmState(False, f"{reason} in an earlier run")
    _cache_store(key, state, environ)
    _kvm_memo[(device, qemu, cache_dir(environ))] = state


_noted = set()


def _note(line):
    """Print an informational line on stderr once per process."""
    if line not in _noted:
        _noted.add(line)
        print(line, file=sys.stderr, flush=True)


def _kvm_arg(kvm_available):
    """resolve()'s kvm_available: None (probe), a bool (tests) or a KvmState."""
    if kvm_available is None:
        return kvm_state(), True
    if isinstance(kvm_available, KvmState):
        return kvm_available, False
    return KvmState(bool(kvm_available), "KVM available" if kvm_available else
                    "no usable /dev/kvm"), False


def parse_icount(value):
    """ICOUNT: False, True or "auto" (decided by resolve() once the accelerator is)."""
    if not _blank(value) and str(value).strip().lower() == "auto":
        return "auto"
    if not _blank(value) and not isinstance(value, bool) and \
            str(value).strip() not in ("0", "1"):
        raise ParamError(f"invalid ICOUNT={value!r}: must be 0, 1 or auto")
    return parse_flag("ICOUNT", value)


NOISE = "wall-clock timings under TCG are host noise"
EXACT = "exact, repeatable virtual time: 1 ns per guest instruction"


def mode_line(r, prog="qemu.py"):
    """The one line that says which measurement mode a run uses and why."""
    return f"{prog}: mode {r.mode}, SMP={r.smp}: {r.why}"


def resolve(params, kvm_available=None, check_files=True, note=True):
    """Validate `params` and decide every default; raise ParamError with a clear message.

    kvm_available: None to ask kvm_state() (only when it matters; with `note`, a fallback
    to TCG is then noted on stderr), a KvmState, or a bool (tests).
    check_files: require the kernel/ISO file to exist (off for argv unit tests).
    Resolved.why says why the run gets its mode (mode_line())."""
    p = params
    boot = _choice("BOOT", p.boot, BOOTS, "pvh")
    smp = parse_smp(p.smp)
    mem = parse_mem(p.mem)
    icount = parse_icount(p.icount)
    numa = parse_numa(p.numa, smp, mem)
    serial = SERIAL_PORTS.index(_choice("SERIAL", p.serial, SERIAL_PORTS, "ttyS0"))
    hpet = True if _blank(p.hpet) else parse_flag("HPET", p.hpet)
    tcg_thread = _choice("TCG_THREAD", p.tcg_thread, TCG_THREADS, "multi")
    accel = _choice("ACCEL", p.accel, ACCELS, "auto")
    machine = _choice("MACHINE", p.machine, MACHINES,
                      "q35" if boot in ("uefi", "efi") else "pc")

    if icount is True:
        if accel == "kvm":
            raise ParamError("ICOUNT=1 needs TCG (icount is a TCG feature): use ACCEL=tcg "
                             "or ACCEL=auto with ICOUNT=1")
        if smp > 1 and not p.smp_icount:
            raise ParamError(f"ICOUNT=1 with SMP={smp} is refused: QEMU 7.2 livelocks SMP "
                             "guests under icount (vCPU starvation); use SMP=1 with ICOUNT=1, "
                             "or ICOUNT=0 for SMP runs")
        accel = "tcg"
        why = f"ICOUNT=1 ({EXACT})"
    elif accel == "tcg":
        why = "ACCEL=tcg"
    if accel in ("auto", "kvm"):
        kvm, probed_here = _kvm_arg(kvm_available)
        if accel == "kvm" and not kvm.usable:
            raise ParamError(f"ACCEL=kvm but KVM cannot run guests here: {kvm.reason}; "
                             "use ACCEL=tcg or ACCEL=auto")
        if accel == "auto" and not kvm.usable and probed_here and note:
            _note(f"irqlab: KVM unusable here ({kvm.reason}); using TCG")
        why = f"ACCEL=kvm ({kvm.reason})" if accel == "kvm" else \
            kvm.reason if kvm.usable else f"KVM unusable here ({kvm.reason})"
        accel = "kvm" if kvm.usable else "tcg"
    if icount == "auto":
        # A newcomer's first figures must mean something: plain TCG's do not.
        icount = accel == "tcg" and smp == 1
        if icount:
            why += f"; TCG with icount ({EXACT}; ICOUNT=0 for plain TCG)"
        elif accel == "tcg":
            why += f"; icount needs SMP=1, so plain TCG ({NOISE})"
    elif icount is False and accel == "tcg":
        why += f"; ICOUNT=0 ({NOISE})" if not _blank(p.icount) else f" ({NOISE})"
    if accel == "tcg" and not icount and tcg_thread == "single":
        why += "; TCG_THREAD=single: one host thread runs the vCPUs in turn"

    cpu = None if _blank(p.cpu) else str(p.cpu).strip()
    if cpu is None:
        cpu = "host" if accel == "kvm" else "max"
    elif not _CPU_RE.fullmatch(cpu):
        raise ParamError(f"invalid CPU={p.cpu!r}: expected a QEMU CPU model such as max, "
                         "qemu64, host or Skylake-Client (optionally ,+feature/-feature); "
                         "see qemu-system-x86_64 -cpu help")
    if cpu.split(",")[0] == "host" and accel != "kvm":
        raise ParamError("CPU=host needs KVM; under TCG use CPU=max (the default) or a "
                         "named model such as qemu64")

    cmdline = "" if p.cmdline is None else str(p.cmdline)
    if any(ord(ch) < 0x20 or ord(ch) == 0x7f for ch in cmdline):
        raise ParamError("invalid CMDLINE: control characters (newline, tab...) are not allowed")

    kernel = None if _blank(p.kernel) else str(p.kernel)
    iso = None if _blank(p.iso) else str(p.iso)
    disk = None if _blank(p.disk) else str(p.disk)
    if boot == "pvh":
        if kernel is None:
            raise ParamError("BOOT=pvh needs a kernel ELF (--kernel build/<config>/kernel.elf)")
        image = kernel
    elif boot == "efi":
        if disk is None:
            raise ParamError("BOOT=efi boots an ESP disk image: pass --disk "
                             "(make efi builds build/<config>/irqlab-efi.img)")
        image = disk
    else:
        if iso is None:
            raise ParamError(f"BOOT={boot} boots an ISO: pass --iso (make iso builds one)")
        image = iso
    if check_files and not os.path.isfile(image):
        raise ParamError(f"{image}: no such file (build it first: make build / make iso / "
                         "make efi)")
    return Resolved(kernel=kernel, iso=iso, disk=disk, smp=smp, mem=mem, accel=accel,
                    icount=icount, boot=boot, machine=machine, cpu=cpu, cmdline=cmdline,
                    debug=bool(p.debug), numa=numa, serial=serial, hpet=hpet, why=why,
                    tcg_thread=tcg_thread)


def find_ovmf(environ=None):
    """Return (code, vars) firmware paths or raise ParamError naming what is missing."""
    env = os.environ if environ is None else environ
    code, vars_ = env.get("IRQLAB_OVMF_CODE"), env.get("IRQLAB_OVMF_VARS")
    if code or vars_:
        for path in (code, vars_):
            if not path or not os.path.isfile(path):
                raise ParamError("IRQLAB_OVMF_CODE and IRQLAB_OVMF_VARS must both name "
                                 f"existing files (got {code!r}, {vars_!r})")
        return code, vars_
    for code, vars_ in OVMF_CANDIDATES:
        if os.path.isfile(code) and os.path.isfile(vars_):
            return code, vars_
    raise ParamError("BOOT=uefi and BOOT=efi need OVMF firmware (" + OVMF_CANDIDATES[0][0] +
                     "): install the Debian package ovmf (scripts/deps.sh does it)")


def qemu_binary(environ=None):
    env = os.environ if environ is None else environ
    return env.get(QEMU_ENV) or DEFAULT_QEMU


def _drive_file(path):
    return path.replace(",", ",,")     # QEMU option syntax escapes commas by doubling


def accel_arg(r):
    """-accel's value: TCG_THREAD=single asks for one round-robin thread (not with
    icount, which is single-threaded already)."""
    if r.accel == "tcg" and not r.icount and r.tcg_thread == "single":
        return "tcg,thread=single"
    return r.accel


def build_argv(r, serial="stdio", ovmf=None, qemu=None):
    """Return QEMU's argv for the resolved parameters `r`.

    serial: "stdio" or ("file", path).  ovmf: (code, writable_vars_copy) for BOOT=uefi
    and efi.
    qemu: the binary (default: $IRQLAB_QEMU or qemu-system-x86_64)."""
    sparse, backend = sparse_mem_argv(r.numa, r.mem)
    argv = [qemu or qemu_binary(),
            "-machine", r.machine + ("" if r.hpet else ",hpet=off") + backend,
            "-accel", accel_arg(r),
            "-cpu", r.cpu,
            "-smp", str(r.smp),
            "-m", r.mem,
            "-no-reboot",
            "-display", "none",
            "-monitor", "none",
            "-device", EXIT_DEVICE]
    argv += sparse
    argv += numa_argv(r.numa, r.smp, r.mem)
    if r.icount:
        argv += ["-icount", "shift=0,sleep=off", "-rtc", "clock=vm"]
    # The ports below the log's are absent, not just silent.
    argv += ["-serial", "none"] * r.serial
    if serial == "stdio":
        argv += ["-serial", "stdio"]
    elif isinstance(serial, tuple) and serial[0] == "file":
        argv += ["-serial", "file:" + serial[1]]
    else:
        raise ValueError(f"bad serial spec {serial!r}")
    if r.boot == "pvh":
        argv += ["-kernel", r.kernel]
        if r.cmdline:
            argv += ["-append", r.cmdline]
    elif r.boot == "bios":
        argv += ["-cdrom", r.iso, "-boot", "order=d"]
    elif r.boot in ("uefi", "efi"):
        if not ovmf:
            raise ValueError(f"BOOT={r.boot} needs ovmf=(code, vars_copy)")
        code, vars_copy = ovmf
        argv += ["-drive", f"if=pflash,format=raw,unit=0,readonly=on,file={_drive_file(code)}",
                 "-drive", f"if=pflash,format=raw,unit=1,file={_drive_file(vars_copy)}"]
        if r.boot == "uefi":
            argv += ["-cdrom", r.iso]
        else:
            # snapshot=on: the firmware may write to the ESP; the image stays as built.
            # bootindex=0: OVMF tries this disk before the NIC's PXE.
            argv += ["-drive", f"if=none,id=esp,format=raw,snapshot=on,"
                     f"file={_drive_file(r.disk)}",
                     "-device", "ide-hd,drive=esp,bootindex=0"]
    else:
        raise ValueError(f"unsupported boot {r.boot!r}")
    if r.debug:
        argv += ["-s", "-S"]
    return argv


# ---------------------------------------------------------------------------- verdict

def describe_code(code):
    name = GUEST_CODE_NAMES.get(code)
    return f"guest failure code {code}" + (f" ({name})" if name else "")


def classify(status, timed_out, timeout=None, qemu_error=None, kvm_error=None):
    """Pure: QEMU exit status (+ whether the host timeout fired) -> Verdict.

    status: QEMU's exit status (negative = killed by that signal, None = unknown).
    timeout: the limit in seconds, for the message.  qemu_error: an error line QEMU printed
    on stderr (QEMU exits 1 on start-up errors, which would otherwise read as a pass).
    kvm_error: QEMU reported a KVM internal error (and was killed for it)."""
    if kvm_error:
        return Verdict("noverdict", cause="kvm-error",
                       reason=f"no verdict: {kvm_error}: KVM cannot run irqlab here "
                       "(QEMU stopped the VM and was killed); use ACCEL=tcg")
    if timed_out:
        limit = f" after {timeout:g} s" if timeout is not None else ""
        return Verdict("noverdict", cause="timeout", reason=f"timeout{limit}")
    if status is None:
        return Verdict("noverdict", cause="status", reason="no verdict (QEMU status unknown)")
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = str(-status)
        return Verdict("noverdict", cause="signal",
                       reason=f"no verdict (QEMU killed by signal {name})")
    if status == 1 and qemu_error:
        return Verdict("noverdict", cause="qemu-error", reason=f"QEMU error: {qemu_error}")
    if status == 1:
        return Verdict("pass", reason="guest passed (status 1)")
    if status == 0:
        return Verdict("noverdict", cause="status0",
                       reason="triple fault / no verdict (status 0)")
    if status & 1 and status <= 255:
        code = status >> 1
        return Verdict("fail", code=code, reason=describe_code(code))
    return Verdict("noverdict", cause="status",
                   reason=f"no verdict (QEMU status {status} is not an isa-debug-exit value)")


_QEMU_MSG_RE = re.compile(r"^qemu(?:-system-[\w]+)?: (.*)$")


def qemu_error_from_stderr(text):
    """The first error (not warning) line QEMU printed, or None."""
    for line in (text or "").splitlines():
        m = _QEMU_MSG_RE.match(line.strip())
        if m and not m.group(1).lower().startswith(("warning:", "terminating on signal")):
            return line.strip()
    return None


# ---------------------------------------------------------------------------- timeout

# Boot plus the count-based work (ktest, hackbench, slabbench, pi_stress...): the longest
# test entry (a whole ktest suite list under TCG) is given 300 s, so twice that.
BASE_TIMEOUT = 600
# Host seconds per guest second of the time-based workloads: under KVM and plain TCG the
# guest clock follows the host's; under icount a guest second is 10^9 instructions, which
# TCG executes in a few host seconds.
TIMEOUT_FACTOR = {"kvm": 2, "tcg": 2, "icount": 20}

# workload -> (parameter defaults, guest seconds from the parameters); the kernel's
# defaults (Documentation/running.md, "Kernel command line", and the workloads' tables in
# Documentation/workloads.md).
_TIMED_WORKLOADS = {
    "cyclic": ({"duration_ms": 0, "loops": 1000, "interval_us": 1000},
               lambda p, smp: p["duration_ms"] / 1e3 or p["loops"] * p["interval_us"] / 1e6),
    "cyclicdl": ({"duration_ms": 0, "loops": 1000, "period_us": 1000},
                 lambda p, smp: p["duration_ms"] / 1e3 or p["loops"] * p["period_us"] / 1e6),
    "osnoise": ({"duration_ms": 0, "period_us": 1000000},
                lambda p, smp: p["duration_ms"] / 1e3 or p["period_us"] / 1e6),
    "hwlat": ({"windows": 0, "window_us": 1000000},
              lambda p, smp: (p["windows"] or smp) * p["window_us"] / 1e6),
    "rt_migrate": ({"loops": 50, "interval_us": 100000, "run_us": 20000},
                   lambda p, smp: p["loops"] * (p["interval_us"] + p["run_us"]) / 1e6),
    "ptsema": ({"loops": 1000, "interval_us": 1000, "pairs": 1, "distance_us": 500},
               lambda p, smp: p["loops"] * (p["interval_us"] + (p["pairs"] - 1) *
                                            p["distance_us"]) / 1e6),
}


def workload_seconds(cmdline, smp=1):
    """Guest seconds the time-based workloads of `cmdline` run for (summed, though
    workloads named together run at once). Values the kernel would reject count as
    their defaults: the kernel then stops with a command-line error anyway."""
    words = dict(w.split("=", 1) for w in (cmdline or "").split() if "=" in w)
    total = 0.0
    for name in words.get("run", "").split(","):
        if name not in _TIMED_WORKLOADS:
            continue
        defaults, seconds = _TIMED_WORKLOADS[name]
        p = dict(defaults)
        for k in p:
            v = words.get(f"{name}.{k}", "")
            if re.fullmatch(r"[0-9]{1,12}", v):
                p[k] = int(v)
        total += seconds(p, smp)
    return total


def default_timeout(cmdline, accel, icount, smp=1):
    """The timeout (seconds) of a run that was given none: BASE_TIMEOUT plus the
    time-based workloads' guest seconds times the mode's TIMEOUT_FACTOR."""
    factor = TIMEOUT_FACTOR["icount" if icount else accel]
    return BASE_TIMEOUT + int(factor * workload_seconds(cmdline, smp) + 0.999)


# ---------------------------------------------------------------------------- running

_live = set()
_live_lock = threading.Lock()
_stopping = False


def _kill(proc, grace=3.0):
    """SIGTERM the process group, then SIGKILL it if it does not go away."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def kill_all():
    """Kill every QEMU started by run() that is still alive, and any started from now on
    (for interrupt handlers; other threads may be about to start one)."""
    global _stopping
    with _live_lock:
        _stopping = True
        procs = list(_live)
    for proc in procs:
        _kill(proc, grace=1.0)


class _TextSink:
    """Bytes -> a text stream without a binary buffer (e.g. io.StringIO)."""
    def __init__(self, text):
        self.text = text

    def write(self, b):
        self.text.write(b.decode("utf-8", "replace"))

    def flush(self):
        self.text.flush()


def _binary(stream):
    return getattr(stream, "buffer", None) or _TextSink(stream)


def _pump(src, sinks):
    """Copy bytes from a pipe to file objects until EOF."""
    while True:
        try:
            chunk = os.read(src.fileno(), 65536)
        except OSError:
            break
        if not chunk:
            break
        for sink in sinks:
            try:
                sink.write(chunk)
                sink.flush()
            except Exception:       # a broken sink must not stop the copy to the others
                pass


class _Collect:
    """A sink keeping every chunk (QEMU's stderr, for the verdict)."""
    def __init__(self):
        self.chunks = []

    def write(self, b):
        self.chunks.append(b)

    def flush(self):
        pass


class _KvmErrorWatch:
    """A sink that fires `event` once QEMU has printed "KVM internal error" (QEMU then
    stops the VM but stays alive, so nothing else would end the run), and sets `wake`."""
    def __init__(self, event, wake):
        self.event, self.wake = event, wake
        self.tail = b""

    def write(self, b):
        if self.event.is_set():
            return
        self.tail = (self.tail + b)[-1024:]
        if KVM_ERROR.encode() in self.tail:
            self.event.set()
            self.wake.set()

    def flush(self):
        pass


@dataclasses.dataclass
class _Raw:
    status: int
    timed_out: bool
    kvm_error: bool
    elapsed: float
    stderr: str


def _run_argv(argv, timeout, out_sinks=None, err_echo=None):
    """Run QEMU's `argv` in its own process group until it exits, `timeout` seconds pass
    (None: no limit) or it prints a KVM internal error; kill it in the last two cases.
    out_sinks: binary sinks for its stdout (None: stdout goes to /dev/null).
    err_echo: a binary sink that also gets its stderr. Raises OSError when it cannot be
    started."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if out_sinks else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    with _live_lock:
        _live.add(proc)
        stopping = _stopping
    if stopping:
        _kill(proc, grace=1.0)
    wake, kvm_event = threading.Event(), threading.Event()
    collect = _Collect()
    threads = []
    timed_out = kvm_error = False
    try:
        if out_sinks:
            threads.append(threading.Thread(target=_pump, args=(proc.stdout, out_sinks),
                                            daemon=True))
        err_sinks = [collect, _KvmErrorWatch(kvm_event, wake)]
        if err_echo is not None:
            err_sinks.append(err_echo)
        threads.append(threading.Thread(target=_pump, args=(proc.stderr, err_sinks),
                                        daemon=True))
        threads.append(threading.Thread(target=lambda: (proc.wait(), wake.set()),
                                        daemon=True))
        for t in threads:
            t.start()
        wake.wait(timeout)
        if proc.poll() is None:
            if kvm_event.is_set():
                kvm_error = True
                time.sleep(KVM_ERROR_GRACE)
                _kill(proc, grace=0.5)
            else:
                timed_out = True
                _kill(proc)
        proc.wait()
        kvm_error = kvm_error or kvm_event.is_set()
    except BaseException:
        _kill(proc, grace=1.0)
        raise
    finally:
        with _live_lock:
            _live.discard(proc)
        for t in threads:
            if t.ident is not None:
                t.join(timeout=5)
        for f in (proc.stdout, proc.stderr):
            if f is not None:
                f.close()
    return _Raw(status=proc.returncode, timed_out=timed_out, kvm_error=kvm_error,
                elapsed=time.monotonic() - start,
                stderr=b"".join(collect.chunks).decode("utf-8", "replace"))


def run(params, serial_file=None, timeout=None, stream=None, tee=None, echo_cmd=None,
        kvm_available=None, note=True):
    """Boot once. Serial goes to `serial_file`, or (when None) is streamed to the binary
    file object `stream` (default: stdout) and optionally copied to the path `tee`.
    timeout: seconds before QEMU's process group is killed; None = default_timeout() of
    the command line, 0 = no limit. A KVM internal error kills QEMU at once (no verdict).
    Returns RunResult; raises ParamError for bad parameters or when QEMU cannot be
    started."""
    r = resolve(params, kvm_available=kvm_available, note=note)
    if timeout is None:
        timeout = default_timeout(r.cmdline, r.accel, r.icount, r.smp)
    elif timeout <= 0:
        timeout = None
    with tempfile.TemporaryDirectory(prefix="irqlab-qemu-") as work:
        ovmf = None
        if r.boot in ("uefi", "efi"):
            code, vars_ = find_ovmf()
            vars_copy = os.path.join(work, "OVMF_VARS.fd")
            shutil.copyfile(vars_, vars_copy)
            ovmf = (code, vars_copy)
        if serial_file:
            if os.path.lexists(serial_file):
                os.unlink(serial_file)
            serial = ("file", serial_file)
        else:
            serial = "stdio"
        argv = build_argv(r, serial, ovmf)
        if echo_cmd is not None:
            echo_cmd.write(shlex.join(argv) + "\n")
            echo_cmd.flush()
        tee_file = None
        out_sinks = None
        try:
            if not serial_file:
                out_sinks = [stream if stream is not None else _binary(sys.stdout)]
                if tee:
                    tee_file = open(tee, "wb")
                    out_sinks.append(tee_file)
            try:
                raw = _run_argv(argv, timeout, out_sinks,
                                # interactive: show QEMU's messages
                                None if serial_file else _binary(sys.stderr))
            except OSError as e:
                raise ParamError(f"cannot start {argv[0]}: {e.strerror} "
                                 f"(install qemu-system-x86 or set {QEMU_ENV})") from None
        finally:
            if tee_file is not None:
                tee_file.close()
    kvm_error = _kvm_error_reason(raw.stderr) if raw.kvm_error else None
    if kvm_error and r.accel == "kvm":
        kvm_failed_at_run(kvm_error)
    verdict = classify(raw.status, raw.timed_out, timeout,
                       qemu_error_from_stderr(raw.stderr) if raw.status == 1 else None,
                       kvm_error=kvm_error)
    return RunResult(verdict=verdict, status=raw.status, timed_out=raw.timed_out,
                     elapsed=raw.elapsed, argv=argv, stderr=raw.stderr)


# ---------------------------------------------------------------------------- CLI

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def _timeout_arg(text):
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 10 ** 7 or value != value:
        raise argparse.ArgumentTypeError(f"invalid timeout {text!r}: seconds, a number "
                                         ">= 0 (0: no limit)")
    return value


def _params_from_args(a):
    return Params(kernel=a.kernel, iso=a.iso, disk=a.disk, smp=a.smp, mem=a.mem, accel=a.accel,
                  icount=a.icount, boot=a.boot, machine=a.machine, cpu=a.cpu,
                  cmdline=a.cmdline, debug=a.debug, numa=a.numa,
                  serial=a.serial_port, hpet=a.hpet, tcg_thread=a.tcg_thread)


def main(argv=None):
    ap = _Parser(prog="qemu.py", description="Boot irqlab in QEMU and report the guest's "
                 "verdict (exit 0 pass, 1 guest failure, 2 no verdict, 3 bad parameters).")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    rp = sub.add_parser("run", help="boot once",
                        description="Boot once. Without --serial-file the serial console "
                        "is streamed to stdout.")
    rp.add_argument("--kernel", help="kernel ELF (BOOT=pvh)")
    rp.add_argument("--iso", help="GRUB ISO (BOOT=bios, uefi)")
    rp.add_argument("--disk", help="ESP disk image from make efi (BOOT=efi)")
    rp.add_argument("--smp", default="1", help="vCPUs, 1..%d (default 1)" % MAX_SMP)
    rp.add_argument("--mem", default=DEFAULT_MEM, help="RAM, e.g. 256M (default)")
    rp.add_argument("--accel", default="auto", help="auto (default), tcg or kvm")
    rp.add_argument("--icount", default="auto", help="1: deterministic icount (TCG, "
                    "SMP=1); auto (default): icount when the run is on TCG at SMP=1")
    rp.add_argument("--boot", default="pvh", help="pvh (default), bios, uefi or efi")
    rp.add_argument("--machine", default="", help="pc or q35 (default: q35 for uefi and efi, else pc)")
    rp.add_argument("--cpu", default="", help="QEMU CPU model (default: max on TCG, host on KVM)")
    rp.add_argument("--cmdline", default="", help="kernel command line (BOOT=pvh)")
    rp.add_argument("--numa", default="0", help="NUMA nodes, 0 (default: none) or 1..%d; "
                    "memory and vCPUs split evenly" % MAX_NUMA)
    rp.add_argument("--serial-port", default="", help="COM port for the log: ttyS0 "
                    "(default) to ttyS3; lower ports are left out")
    rp.add_argument("--hpet", default="1", help="0: no HPET (default 1)")
    rp.add_argument("--tcg-thread", default="", help="TCG only: multi (default, a host "
                    "thread per vCPU) or single (one thread runs the vCPUs in turn)")
    rp.add_argument("--serial-file", help="write the serial console to this file "
                    "instead of stdout")
    rp.add_argument("--tee", help="when streaming, also copy the serial console to this file")
    rp.add_argument("--timeout", type=_timeout_arg, default=None,
                    help="seconds before QEMU is killed (default: from the command "
                    "line's workloads, see default_timeout(); 0 = no limit)")
    rp.add_argument("--debug", action="store_true",
                    help="start stopped with a gdb stub on localhost:1234 (-s -S)")
    rp.add_argument("--print-cmd", action="store_true",
                    help="print the QEMU command line to stderr before running it")
    rp.add_argument("--dry-run", action="store_true",
                    help="print the QEMU command line to stdout and do not run it")
    kp = sub.add_parser("kvm-probe", help="can KVM run irqlab here? (the cached verdict)",
                        description="Print whether ACCEL=auto would use KVM and why; exit 0 "
                        "when KVM is usable, 1 when not.")
    kp.add_argument("--force", action="store_true", help="probe again, ignoring the cache")
    a = ap.parse_args(argv)
    me = "qemu.py"
    if a.cmd == "kvm-probe":
        st = kvm_state(force=a.force)
        how = " (cached in " + _cache_path() + ")" if st.cached else ""
        print(f"{me}: KVM {'usable' if st.usable else 'unusable'}: {st.reason}{how}")
        return EXIT_PASS if st.usable else EXIT_FAIL
    params = _params_from_args(a)
    try:
        if a.dry_run:
            r = resolve(params)
            ovmf = None
            if r.boot in ("uefi", "efi"):
                code, vars_ = find_ovmf()
                vars_copy = os.path.join(tempfile.mkdtemp(prefix="irqlab-qemu-"),
                                         "OVMF_VARS.fd")
                shutil.copyfile(vars_, vars_copy)
                ovmf = (code, vars_copy)
            serial = ("file", a.serial_file) if a.serial_file else "stdio"
            print(shlex.join(build_argv(r, serial, ovmf)))
            return EXIT_PASS
        if a.debug:
            print(f"{me}: QEMU starts stopped; gdb stub on localhost:1234 "
                  "(gdb build/<config>/kernel.elf -ex 'target remote :1234')",
                  file=sys.stderr)
        # One line, before the guest's own "irqlab: mode" line: the mode and why.
        print(mode_line(resolve(params, note=False)), file=sys.stderr, flush=True)
        res = run(params, serial_file=a.serial_file, timeout=a.timeout, note=False,
                  tee=a.tee, echo_cmd=sys.stderr if a.print_cmd else None)
    except ParamError as e:
        print(f"{me}: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:            # e.g. --tee or --serial-file in a missing directory
        print(f"{me}: error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"\n{me}: interrupted", file=sys.stderr)
        return 130
    v = res.verdict
    if v.cause == "qemu-error":
        print(f"{me}: {v.reason}", file=sys.stderr)
        return EXIT_ERROR
    how = ""
    if v.cause == "timeout" and a.timeout is None:
        how = " (the default for this command line; --timeout/TIMEOUT= sets another, 0 none)"
    print(f"{me}: {v.reason}{how} [{res.elapsed:.2f} s]", file=sys.stderr)
    return {"pass": EXIT_PASS, "fail": EXIT_FAIL}.get(v.kind, EXIT_NOVERDICT)


if __name__ == "__main__":
    sys.exit(main())
