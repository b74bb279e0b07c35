#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fail the build if newlib code reachable without kernel_fpu_begin() touches SSE/x87.

The kernel is compiled with -mgeneral-regs-only and threads carry no FPU state
(DESIGN.md section 5), so any libc function the kernel may call outside a
kernel_fpu_begin()/kernel_fpu_end() section must not touch an XMM/YMM/ZMM, MMX
or x87 register, nor MXCSR or the FPU save area.  This script takes a list of
root functions (the string, strto*, qsort and integer-only printf family),
computes everything they can reach inside libc.a - direct calls, tail calls,
and function pointers taken from code or from data objects the code
references - and disassembles each reachable function looking for such
instructions.

Usage:
    check_newlib_fpu.py [--objdump OBJDUMP] [-v] LIBC_A [ROOT ...]
    check_newlib_fpu.py --self-test

Exit status: 0 clean, 1 offending function(s) found, 2 usage/tool error.
"""

import argparse
import bisect
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# The functions the kernel calls with FPU access disabled.  Integer-only
# formatting is the siprintf family; the plain snprintf family drags in the
# dtoa/%f machinery and must only be used between kernel_fpu_begin/end.
DEFAULT_ROOTS = """
    memcpy memmove memset memcmp memchr
    strlen strnlen strcmp strncmp strcpy strncpy strcat strncat
    strchr strrchr strstr strspn strcspn strtok_r
    strtol strtoul strtoll strtoull atoi
    qsort
    sniprintf vsniprintf siprintf vsiprintf
    _sniprintf_r _vsniprintf_r _siprintf_r _vsiprintf_r _svfiprintf_r
""".split()

# Register operands that live in the FPU/SSE/AVX state: xmm/ymm/zmm, MMX,
# x87 stack and AVX-512 opmask registers.
FPU_REG_RE = re.compile(r"%(?:[xyz]mm\d+|mm\d|st\b|st\(\d\)|k[0-7]\b)")

# Instructions that touch FPU/SSE state without naming a vector register.
# Every x87 mnemonic starts with 'f' (fld, fstp, fnstcw, fxsave, fninit...),
# no integer one does.  The SSE instructions that only use general registers
# (movnti, prefetch*, [lsm]fence, clflush*) are fine: they don't touch the
# state kernel_fpu_begin() saves, and newlib's memcpy.S uses movnti/sfence.
FPU_MNEMONIC_RE = re.compile(
    r"^(?:f[a-z0-9]*|v?ldmxcsr|v?stmxcsr|emms|femms|wait|"
    r"xsave\w*|xrstor\w*|vzeroupper|vzeroall)$")

# Branches whose target objdump resolves when no relocation is involved
# (calls and jumps to static functions inside the same section).
BRANCH_RE = re.compile(r"^(?:call|jmp|j[a-z]{1,3})[a-z]*\s+([0-9a-f]+) <")

# Relocations whose addend is relative to the end of a 4-byte field.
PCREL_TYPES = ("R_X86_64_PC32", "R_X86_64_PLT32", "R_X86_64_GOTPCREL",
               "R_X86_64_GOTPCRELX", "R_X86_64_REX_GOTPCRELX")

MEMBER_RE = re.compile(r"^(\S+):\s+file format ")
SYM_RE = re.compile(r"^([0-9a-f]+) (.{7}) (\S+)\s+([0-9a-f]+) (.*)$")
RELOC_HDR_RE = re.compile(r"^RELOCATION RECORDS FOR \[(.+)\]:$")
RELOC_TAB_RE = re.compile(r"^([0-9a-f]+) (R_X86_64_\w+)\s+(\S+)$")
DIS_SEC_RE = re.compile(r"^Disassembly of section (\S+):$")
DIS_RELOC_RE = re.compile(r"^\s+([0-9a-f]+): (R_X86_64_\w+)\s+(\S+)$")
DIS_INSN_RE = re.compile(r"^\s+([0-9a-f]+):\t(.*)$")
TARGET_RE = re.compile(r"^(.+?)(?:([+-])0x([0-9a-f]+))?$")


class Sym:
    """A function or data object inside one archive member."""

    __slots__ = ("member", "section", "start", "size", "name", "is_func",
                 "strong", "insns", "relocs", "branches")

    def __init__(self, member, section, start, size, name, is_func, strong):
        self.member = member
        self.section = section
        self.start = start
        self.size = size
        self.name = name
        self.is_func = is_func
        self.strong = strong
        self.insns = []      # (addr, text)
        self.relocs = []     # (offset, type, target)
        self.branches = []   # (insn addr, target addr) without relocation

    def label(self):
        return self.name if self.is_func else "[%s]" % self.name


class Archive:
    def __init__(self, path, objdump):
        self.path = path
        self.objdump = objdump
        self.members = []                  # names, index = member id
        self.syms = {}                     # (mid, section) -> sorted [Sym]
        self.starts = {}                   # (mid, section) -> [start]
        self.local = {}                    # (mid, name) -> Sym
        self.glob = {}                     # name -> Sym (strong wins)
        self.anon = {}                     # (mid, section) -> [(off, type, tgt)]
        self._load()

    def _run(self, *args):
        try:
            return subprocess.run([self.objdump] + list(args) + [self.path],
                                  check=True, stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            print("check_newlib_fpu: %s failed: %s" % (self.objdump, e),
                  file=sys.stderr)
            sys.exit(2)

    def _load(self):
        self._load_symbols_and_data_relocs(self._run("-t", "-r", "-w"))
        # No -w here: with it objdump prints a relocation on its instruction's
        # line instead of a line of its own.
        self._load_code(self._run("-d", "-r", "--no-show-raw-insn"))

    def _load_symbols_and_data_relocs(self, text):
        mid = -1
        rsec = None
        pending = collections.defaultdict(list)   # (mid, sec) -> [Sym]
        relocs = collections.defaultdict(list)    # (mid, sec) -> [reloc]
        for line in text.splitlines():
            m = MEMBER_RE.match(line)
            if m:
                self.members.append(m.group(1))
                mid = len(self.members) - 1
                rsec = None
                continue
            m = RELOC_HDR_RE.match(line)
            if m:
                rsec = m.group(1)
                continue
            if rsec is not None:
                m = RELOC_TAB_RE.match(line)
                if m:
                    relocs[(mid, rsec)].append(
                        (int(m.group(1), 16), m.group(2), m.group(3)))
                continue
            m = SYM_RE.match(line)
            if not m:
                continue
            value, flags, sec, size, name = m.groups()
            if sec in ("*UND*", "*ABS*", "*COM*") or flags[5] == "d" or \
                    flags[6] == "f":
                continue      # undefined, section or file symbol
            is_code = sec.startswith(".text")
            bind_global = flags[0] in "gu!" or flags[1] == "w"
            if flags[6] == "F" or (is_code and bind_global):
                is_func = True
            elif flags[6] == "O" and not is_code:
                is_func = False
            else:
                continue      # local labels inside hand-written asm
            s = Sym(mid, sec, int(value, 16), int(size, 16), name, is_func,
                    bind_global and flags[1] != "w")
            pending[(mid, sec)].append(s)
            self.local.setdefault((mid, name), s)
            if bind_global:
                old = self.glob.get(name)
                if old is None or (s.strong and not old.strong):
                    self.glob[name] = s
        for key, lst in pending.items():
            # Aliases share an address; keep one Sym per start (prefer the
            # global name) and point every alias at it.
            lst.sort(key=lambda s: (s.start, not s.strong, s.name))
            uniq = []
            for s in lst:
                if uniq and uniq[-1].start == s.start and \
                        uniq[-1].is_func == s.is_func:
                    alias_of = uniq[-1]
                    self.local[(s.member, s.name)] = alias_of
                    if self.glob.get(s.name) is s:
                        self.glob[s.name] = alias_of
                    continue
                uniq.append(s)
            self.syms[key] = uniq
            self.starts[key] = [s.start for s in uniq]
        # Data relocations: attach to the object containing them, or keep
        # them per section for anonymous constants (e.g. the .rodata.cst8
        # pairs of function pointers GCC's SLP vectorizer stores at once).
        for key, lst in relocs.items():
            if key[1].startswith(".text") or key[1].startswith(".debug") or \
                    key[1] in (".eh_frame", ".note.GNU-stack"):
                continue
            for r in lst:
                owner = self.containing(key, r[0])
                if owner is not None and not owner.is_func:
                    owner.relocs.append(r)
                else:
                    self.anon.setdefault(key, []).append(r)

    def _load_code(self, text):
        mid = -1
        sec = None
        names = {}
        for i, n in enumerate(self.members):
            names.setdefault(n, []).append(i)
        seen = collections.Counter()
        cur = None
        for line in text.splitlines():
            m = MEMBER_RE.match(line)
            if m:
                n = m.group(1)
                mid = names[n][seen[n]]
                seen[n] += 1
                sec = None
                continue
            m = DIS_SEC_RE.match(line)
            if m:
                sec = m.group(1)
                cur = None
                continue
            if sec is None:
                continue
            m = DIS_RELOC_RE.match(line)
            if m:
                off = int(m.group(1), 16)
                owner = self.containing((mid, sec), off)
                if owner is not None:
                    owner.relocs.append((off, m.group(2), m.group(3)))
                    # objdump's branch target for a relocated call is bogus
                    if owner.branches and owner.branches[-1][0] == cur:
                        owner.branches.pop()
                continue
            m = DIS_INSN_RE.match(line)
            if m:
                addr = int(m.group(1), 16)
                owner = self.containing((mid, sec), addr)
                if owner is None:
                    continue
                insn = m.group(2).strip()
                owner.insns.append((addr, insn))
                cur = addr
                b = BRANCH_RE.match(insn)
                if b:
                    owner.branches.append((addr, int(b.group(1), 16)))

    def containing(self, key, off):
        """The symbol of section 'key' whose range covers 'off'."""
        starts = self.starts.get(key)
        if not starts:
            return None
        i = bisect.bisect_right(starts, off) - 1
        if i < 0:
            return None
        s = self.syms[key][i]
        # Size 0 (hand-written asm without .size) runs to the next symbol.
        if s.size and off >= s.start + s.size:
            return None
        return s

    def resolve(self, mid, rtype, target):
        """Map a relocation target to (Sym, None) or (None, anon key+range)
        or (None, None) for symbols defined outside the archive."""
        m = TARGET_RE.match(target)
        name, sign, num = m.group(1), m.group(2), m.group(3)
        addend = int(num, 16) if num else 0
        if sign == "-":
            addend = -addend
        if rtype in PCREL_TYPES:
            addend += 4
        if (mid, name) in self.local:
            return self.local[(mid, name)], None
        key = (mid, name)
        if key in self.syms or name.startswith("."):
            # Section symbol: local function or static object by address.
            s = self.containing(key, addend)
            if s is not None:
                return s, None
            return None, (key, addend)
        return self.glob.get(name), None


def successors(ar, s):
    """Functions and data objects 's' may call, jump to or hand out."""
    out = []
    for off, rtype, target in s.relocs:
        t, anon = ar.resolve(s.member, rtype, target)
        if t is not None:
            if t is not s:
                out.append(t)
            continue
        if anon is not None:
            # An anonymous constant: follow pointers stored in the 16 bytes
            # a vector load from there would pick up.
            key, off0 = anon
            for roff, rt, rtgt in ar.anon.get(key, ()):
                if off0 <= roff < off0 + 16:
                    t2, _ = ar.resolve(key[0], rt, rtgt)
                    if t2 is not None and t2 is not s:
                        out.append(t2)
    for _, taddr in s.branches:
        t = ar.containing((s.member, s.section), taddr)
        if t is not None and t is not s:
            out.append(t)
    return out


def externals(ar, s):
    """Names 's' references that libc.a does not define (kernel-provided)."""
    ext = set()
    for _, rtype, target in s.relocs:
        t, anon = ar.resolve(s.member, rtype, target)
        if t is None and anon is None:
            ext.add(TARGET_RE.match(target).group(1))
    return ext


# Prefixes objdump prints as separate words in front of the mnemonic.
PREFIX_RE = re.compile(r"^(?:rep\w*|lock|data16|data32|addr32|notrack|bnd|"
                       r"xacquire|xrelease|[c-gs]s|rex(?:\.\w+)?)$")


def first_offence(s):
    for addr, insn in s.insns:
        if FPU_REG_RE.search(insn):
            return addr, insn
        parts = insn.split()
        while parts and PREFIX_RE.match(parts[0]):
            parts.pop(0)
        if parts and FPU_MNEMONIC_RE.match(parts[0]):
            return addr, insn
    return None


def check(libc, objdump, roots, verbose=False, out=sys.stdout):
    ar = Archive(libc, objdump)
    missing = [r for r in roots if r not in ar.glob or not ar.glob[r].is_func]
    if missing:
        print("check_newlib_fpu: root(s) not defined in %s: %s"
              % (libc, " ".join(missing)), file=sys.stderr)
        return 2
    # Breadth-first so the reported path is a shortest one.
    parent = {}
    order = []
    queue = collections.deque()
    for r in roots:
        s = ar.glob[r]
        if id(s) not in parent:
            parent[id(s)] = None
            order.append(s)
            queue.append(s)
    while queue:
        s = queue.popleft()
        for t in successors(ar, s):
            if id(t) not in parent:
                parent[id(t)] = s
                order.append(t)
                queue.append(t)

    def path(s):
        p = []
        while s is not None:
            p.append(s.label())
            s = parent[id(s)]
        return " -> ".join(reversed(p))

    funcs = [s for s in order if s.is_func]
    empty = [s.name for s in funcs if not s.insns]
    if empty:
        # A function we could not disassemble would pass unchecked.
        print("check_newlib_fpu: no instructions parsed for: %s"
              % " ".join(empty), file=sys.stderr)
        return 2
    bad = 0
    ext = set()
    for s in funcs:
        ext |= externals(ar, s)
        hit = first_offence(s)
        if hit is None:
            continue
        bad += 1
        print("newlib FPU check: %s uses FPU/SSE state outside kernel_fpu_begin()"
              % s.name, file=out)
        print("  path: %s" % path(s), file=out)
        print("  %s: %s+0x%x: %s" % (ar.members[s.member], s.name,
                                     hit[0] - s.start, hit[1]), file=out)
    if verbose:
        for s in funcs:
            print("  reachable: %-28s %s" % (s.name, ar.members[s.member]),
                  file=out)
        print("  left to the kernel: %s" % " ".join(sorted(ext)), file=out)
    if bad:
        print("newlib FPU check: FAILED: %d of %d functions reachable from %d "
              "roots use SSE/x87" % (bad, len(funcs), len(roots)), file=out)
        return 1
    print("newlib FPU check: %d functions reachable from %d roots, no SSE/x87"
          % (len(funcs), len(roots)), file=out)
    return 0


# ---------------------------------------------------------------------------
# Self-test: a tiny archive built here, one root reaching %xmm0 through
# another member, one clean root, one root reaching x87 via a pointer table.

SELFTEST_SOURCES = {
    # The offender, reached from a root in another member (relocation edge).
    "dirty": r"""
void dirty_helper(void)
{
	__asm__ volatile("pxor %%xmm0, %%xmm0" ::: "xmm0");
}
""",
    "roots": r"""
void dirty_helper(void);
void root_dirty(void)
{
	dirty_helper();
}
""",
    # Clean, with a static callee reached by an unrelocated direct call.
    "clean": r"""
static __attribute__((noinline)) int clean_helper(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}
int root_clean(int x)
{
	return clean_helper(x) + 2;
}
""",
    # x87 reached only through a function pointer in a const table.
    "x87": r"""
static __attribute__((noinline)) int x87_helper(void)
{
	__asm__ volatile("fninit");
	return 0;
}
int (*x87_ops[2])(void) = { x87_helper, 0 };
int root_x87(int i)
{
	return x87_ops[i]();
}
""",
}


def self_test(objdump):
    cc = os.environ.get("CC", "gcc")
    ar_tool = os.environ.get("AR", "ar")
    me = os.path.abspath(__file__)
    failures = []
    with tempfile.TemporaryDirectory(prefix="fpucheck.") as d:
        objs = []
        for name, src in sorted(SELFTEST_SOURCES.items()):
            c = os.path.join(d, name + ".c")
            o = os.path.join(d, name + ".o")
            with open(c, "w") as f:
                f.write(src)
            # The clean object is built the kernel's way: if GCC could
            # still emit SSE there, the test would be meaningless.
            extra = ["-mgeneral-regs-only"] if name == "clean" else []
            subprocess.run([cc, "-O2", "-fno-pic", "-mcmodel=kernel",
                            "-fno-asynchronous-unwind-tables", "-c", c, "-o",
                            o] + extra, check=True)
            objs.append(o)
        lib = os.path.join(d, "libt.a")
        subprocess.run([ar_tool, "rcs", lib] + objs, check=True)

        def run(*roots):
            p = subprocess.run([sys.executable, me, "--objdump", objdump, lib]
                               + list(roots), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True)
            return p.returncode, p.stdout

        def expect(cond, what, output):
            if not cond:
                failures.append("%s\n--- output ---\n%s" % (what, output))

        rc, o = run("root_dirty", "root_clean")
        expect(rc == 1, "dirty+clean roots: exit %d, want 1" % rc, o)
        expect("path: root_dirty -> dirty_helper" in o and "%xmm0" in o,
               "dirty helper not reported with its path", o)
        expect("clean_helper" not in o and "root_clean " not in o,
               "clean functions reported", o)
        expect(o.count("uses FPU/SSE state") == 1,
               "want exactly one offender", o)

        rc, o = run("root_clean")
        expect(rc == 0 and "2 functions reachable from 1 roots, no SSE/x87" in o,
               "clean root: exit %d, want 0 and 2 functions" % rc, o)

        # x87 via a function pointer in a const table (data-object edge).
        rc, o = run("root_x87")
        expect(rc == 1 and "root_x87 -> [x87_ops] -> x87_helper" in o
               and "fninit" in o, "x87 via pointer table not caught", o)

        rc, o = run("no_such_root")
        expect(rc == 2, "unknown root: exit %d, want 2" % rc, o)
    if failures:
        for f in failures:
            print("check_newlib_fpu self-test FAILED: " + f, file=sys.stderr)
        return 1
    print("check_newlib_fpu self-test: ok")
    return 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under | head
    ap = argparse.ArgumentParser(
        description="Fail if newlib code reachable without kernel_fpu_begin() "
                    "uses SSE/x87 state.")
    ap.add_argument("--objdump", default=os.environ.get("OBJDUMP", "objdump"))
    ap.add_argument("--self-test", action="store_true",
                    help="check the checker on a tiny generated archive")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also list every reachable function and the "
                         "symbols libc.a leaves to the kernel")
    ap.add_argument("libc", nargs="?", help="path to libc.a")
    ap.add_argument("roots", nargs="*",
                    help="root functions (default: the built-in list)")
    args = ap.parse_args()
    if shutil.which(args.objdump) is None:
        print("check_newlib_fpu: objdump not found: %s" % args.objdump,
              file=sys.stderr)
        return 2
    if args.self_test:
        return self_test(args.objdump)
    if not args.libc:
        ap.error("LIBC_A is required")
    if not os.path.isfile(args.libc):
        print("check_newlib_fpu: no such file: %s" % args.libc,
              file=sys.stderr)
        return 2
    return check(args.libc, args.objdump, args.roots or DEFAULT_ROOTS,
                 args.verbose)


if __name__ == "__main__":
    sys.exit(main())
