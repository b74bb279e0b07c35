#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The documentation's measured figures: write them, and recheck them.

Every measured figure of README.md and Documentation/*.md lives in a
generated block:

    <!-- figures:NAME begin mode=icount commit=abc1234 -->
    ...markdown written by this script...
    <!-- figures:NAME end -->

NAME is one of FIGURES below (which boots it needs and how it renders
their @irqlab records), mode is how it was measured (icount: QEMU
-icount shift=0,sleep=off at SMP=1, exact instruction counts; tcg, kvm:
timed, host noise included) and commit the tree it was measured at.

  figures.py write [NAME...]   boot, render, rewrite the blocks (commit=HEAD)
  figures.py check [NAME...]   reboot the icount blocks at the current tree
                               and fail naming every documented value that
                               differs; tcg/kvm blocks are listed, not rerun
  figures.py list              the blocks found and their mode and commit

--logs DIR renders from saved serial logs (DIR/<tag>.log) instead of
booting; --docs FILE... checks or writes those files instead of the tree's.
Exit status: 0 all current, 1 stale or failed figures, 2 bad blocks or usage.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "figures", "docs")


def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


records = _module("irqlab_records", os.path.join(ROOT, "scripts", "records.py"))

MODES = {
    "icount": "icount SMP=1 (exact instruction counts)",
    "tcg": "TCG SMP=2 (host noise included)",
    "kvm": "KVM (the host's hardware)",
}
RECHECKED = ("icount",)

BEGIN_RE = re.compile(r"^<!-- figures:(\S+) begin(.*?)-->\s*$")
END_RE = re.compile(r"^<!-- figures:(\S+) end -->\s*$")
ATTR_RE = re.compile(r"(\w+)=(\S+)")


class FigureError(Exception):
    """A block the script cannot use: named with file and line."""


class Block:
    def __init__(self, path, name, attrs, begin, end, body):
        self.path = path
        self.name = name
        self.mode = attrs.get("mode")
        self.commit = attrs.get("commit")
        self.attrs = attrs
        self.begin = begin      # 0-based line index of the begin marker
        self.end = end          # 0-based line index of the end marker
        self.body = body        # the lines between the markers

    def where(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.begin + 1}"


def parse_blocks(path, text):
    """Find every figures block of one markdown text; FigureError if malformed."""
    blocks, cur = [], None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        b, e = BEGIN_RE.match(line), END_RE.match(line)
        where = f"{os.path.relpath(path, ROOT)}:{i + 1}"
        if b:
            if cur:
                raise FigureError(f"{where}: figures:{b.group(1)} begins inside "
                                  f"figures:{cur[0]} (line {cur[2] + 1})")
            attrs = dict(ATTR_RE.findall(b.group(2)))
            for key in ("mode", "commit"):
                if key not in attrs:
                    raise FigureError(f"{where}: figures:{b.group(1)} has no {key}= "
                                      "(every figure says how and where it was measured)")
            if attrs["mode"] not in MODES:
                raise FigureError(f"{where}: figures:{b.group(1)}: mode={attrs['mode']} "
                                  f"is not one of {', '.join(MODES)}")
            if not re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?", attrs["commit"]):
                raise FigureError(f"{where}: figures:{b.group(1)}: commit={attrs['commit']} "
                                  "is not a commit hash")
            cur = (b.group(1), attrs, i)
        elif e:
            if not cur or cur[0] != e.group(1):
                raise FigureError(f"{where}: figures:{e.group(1)} ends but was not begun")
            blocks.append(Block(path, cur[0], cur[1], cur[2], i, lines[cur[2] + 1:i]))
            cur = None
        elif "<!-- figures:" in line:
            raise FigureError(f"{where}: malformed figures marker: {line.strip()}")
    if cur:
        raise FigureError(f"{os.path.relpath(path, ROOT)}:{cur[2] + 1}: "
                          f"figures:{cur[0]} is never ended")
    return blocks


# ---------------------------------------------------------------- boots

class Boot:
    """One boot a figure reads: a preset, a command line and a short name."""

    def __init__(self, config, cmdline, name, timeout=900, make_run=False):
        self.config, self.cmdline, self.name = config, cmdline, name
        self.timeout = timeout
        # make_run: boot through scripts/qemu.py as `make run` does (its
        # machine and memory defaults), the host's lines kept in the log.
        self.make_run = make_run

    def tag(self, mode):
        return f"{self.config}-{self.name}-{mode}"


def _worktree(commit):
    """build/figures/at-COMMIT: a detached worktree of @commit, added once."""
    path = os.path.join(ROOT, "build", "figures", f"at-{commit}")
    if not os.path.exists(os.path.join(path, "Makefile")):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        p = subprocess.run(["git", "worktree", "add", "--detach", path, commit], cwd=ROOT,
                           stdout=_stderr_fd(), stderr=subprocess.PIPE, text=True)
        if p.returncode:
            why = (p.stderr.strip().splitlines() or [f"git status {p.returncode}"])[-1]
            raise FigureError(f"cannot add a worktree of {commit} at {path}: {why}")
    return path


def _copy_defconfig(config, root):
    src = os.path.join(ROOT, "configs", f"{config}_defconfig")
    dst = os.path.join(root, "configs", f"{config}_defconfig")
    try:
        with open(src) as f:
            text = f.read()
        if os.path.exists(dst):
            with open(dst) as f:
                if f.read() == text:
                    return      # as it is: a new mtime would rebuild the kernel
        with open(dst, "w") as f:
            f.write(text)
    except OSError as e:
        raise FigureError(f"cannot copy {src} into {root}: {e.strerror}") from None


def _stderr_fd():
    """Where a child's chatter goes: our stderr, or nowhere when that is not
    a file (a test runner that captures it in memory)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return subprocess.DEVNULL


class Runner:
    """Boots (or reads saved logs) once per tag and returns checked records."""

    def __init__(self, logs=None, verbose=True, root=ROOT, at=None):
        self.logs = logs
        self.cache = {}
        self.built = set()
        self.verbose = verbose
        self.root = root        # the tree whose kernels are built and booted
        self.at_commit = at     # None: the current tree; else that commit's worktree
        self.others = {}
        self.matrices = set()   # (kind, experiment) tools/irqlab matrix ran here

    def at(self, commit):
        """A runner for the same boots of another commit's kernels: built in a
        worktree of that commit (build/figures/at-COMMIT, kept for reuse),
        their logs tagged -at-COMMIT.  The experiments' defconfigs are the
        current tree's, copied in, so both sides build the same configuration
        definitions and only the code differs."""
        if commit not in self.others:
            root = None if self.logs else _worktree(commit)
            self.others[commit] = Runner(self.logs, self.verbose, root=root, at=commit)
        return self.others[commit]

    def _build(self, config):
        if config in self.built:
            return
        if self.verbose:
            print(f"figures: building {config}", file=sys.stderr)
        # make's output goes to stderr: stdout carries the tables alone.
        try:
            if self.root != ROOT:
                _copy_defconfig(config, self.root)
            p = subprocess.run(["make", "-s", f"CONFIG={config}"], cwd=self.root,
                               stdout=_stderr_fd())
        except OSError as e:
            raise FigureError(f"cannot run make: {e.strerror}") from None
        if p.returncode:
            raise FigureError(f"building {config} failed (make status {p.returncode})")
        self.built.add(config)

    def records(self, boot, mode):
        tag = boot.tag(mode) + (f"-at-{self.at_commit}" if self.at_commit else "")
        if tag in self.cache:
            return self.cache[tag]
        if self.logs:
            log = os.path.join(self.logs, tag + ".log")
            if not os.path.exists(log):
                raise FigureError(f"no saved log {log} for boot {tag}")
        else:
            self._build(boot.config)
            log = self._boot(boot, mode, tag)
        with open(log, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        recs = records.parse(lines)
        recs.lines = lines
        if recs.problems:
            raise FigureError(f"{tag}: record problems in {log}: {'; '.join(recs.problems)}")
        if not any("status=ok" in ln for ln in lines) and not self.logs:
            raise FigureError(f"{tag}: the run did not end status=ok (log {log})")
        self.cache[tag] = recs
        return recs

    def _boot(self, boot, mode, tag):
        os.makedirs(OUT, exist_ok=True)
        log = os.path.join(OUT, tag + ".log")
        if boot.make_run:
            return self._boot_make_run(boot, mode, tag, log)
        smp = 1 if mode == "icount" else 2
        argv = ["qemu-system-x86_64", "-machine", "q35", "-cpu", "max",
                "-smp", str(smp), "-m", "512M", "-no-reboot", "-display", "none",
                "-monitor", "none", "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
                "-serial", f"file:{log}", "-kernel",
                os.path.join(self.root, "build", boot.config, "kernel.elf"),
                "-append", boot.cmdline]
        if mode == "kvm":
            argv[3:5] = ["-cpu", "host"]
            argv[1:1] = ["-accel", "kvm"]
        else:
            argv[1:1] = ["-accel", "tcg"]
        if mode == "icount":
            argv[1:1] = ["-icount", "shift=0,sleep=off", "-rtc", "clock=vm"]
        if self.verbose:
            print(f"figures: booting {tag}: {boot.cmdline}", file=sys.stderr)
        try:
            p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=900)
            status = p.returncode
        except subprocess.TimeoutExpired:
            status = "timeout after 900 s"
        if status != 1:
            raise FigureError(f"{tag}: QEMU exit status {status} (1 is a passing run; "
                              f"log {log})")
        return log


    def _boot_make_run(self, boot, mode, tag, log):
        """`make run ICOUNT=1` (or ICOUNT=0 SMP=2): scripts/qemu.py run with
        make's defaults; its mode line goes before the serial output in the
        log and its verdict after, as on make run's terminal."""
        if mode == "kvm":
            raise FigureError(f"{tag}: make_run boots are icount or tcg")
        elf = os.path.join(self.root, "build", boot.config, "kernel.elf")
        serial = log + ".serial"
        argv = [sys.executable, os.path.join(self.root, "scripts", "qemu.py"), "run",
                "--kernel", elf, "--smp", "1" if mode == "icount" else "2",
                "--accel", "tcg", "--icount", "1" if mode == "icount" else "0",
                "--cmdline", boot.cmdline, "--serial-file", serial,
                "--timeout", str(boot.timeout)]
        if self.verbose:
            print(f"figures: booting {tag} as make run: {boot.cmdline}", file=sys.stderr)
        try:
            p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, timeout=boot.timeout + 60)
        except subprocess.TimeoutExpired:
            raise FigureError(f"{tag}: scripts/qemu.py did not end (log {serial})") from None
        if p.returncode:
            raise FigureError(f"{tag}: scripts/qemu.py run exited {p.returncode} (0 is a "
                              f"passing run): {p.stderr.strip()[-300:]} (log {serial})")
        host = p.stderr.splitlines()
        with open(serial, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        with open(log, "w", encoding="utf-8") as f:
            f.write("\n".join([h for h in host if " mode " in h] + text.splitlines() +
                              [h for h in host if " mode " not in h]) + "\n")
        os.remove(serial)
        return log


# ---------------------------------------------------------------- figures

HACKBENCH = "run=hackbench hackbench.groups=2 hackbench.loops=20"
SLABBENCH_BULK = "run=slabbench slabbench.loops=200 slabbench.sizes=16,250"
CYCLIC = "run=cyclic cyclic.loops=1000"
CYCLIC_LOADED = "run=cyclic,hackbench cyclic.loops=1000 hackbench.groups=2 hackbench.loops=20"

PORTS = [("default", "post-series 5.15, !RT"), ("legacy", "pre-series 5.13, !RT"),
         ("rt_trace", "post-series, RT"), ("rt_legacy_trace", "5.13-rt, RT")]


def _subsys(recs, code):
    for r in recs.of_type("lat_subsys"):
        if r.get("tracer") == "irqsoff" and r.get("code") == code:
            return r
    return None


def _window(r):
    if r is None:
        return "no record"
    if not r.get("windows"):
        return "none (0 windows)"
    where = r["start"] if r["start"] == r["end"] else f"{r['start']} .. {r['end']}"
    return f"{r['max_ns']}, `{where}`"


def fig_latency_windows(run, mode):
    out = ["| port | hackbench: slab | hackbench: page allocator | slabbench bulk: slab |",
           "|---|---|---|---|"]
    for cfg, name in PORTS:
        hb = run.records(Boot(cfg, HACKBENCH, "hackbench"), mode)
        sb = run.records(Boot(cfg, SLABBENCH_BULK, "slabbench-bulk"), mode)
        out.append(f"| {name} (`{cfg}`) | {_window(_subsys(hb, 'slab'))} | "
                   f"{_window(_subsys(hb, 'page_alloc'))} | {_window(_subsys(sb, 'slab'))} |")
    return out


def fig_latency_cyclic(run, mode):
    out = ["| configuration | idle | under hackbench |", "|---|---|---|"]
    extra = "" if mode == "icount" else " cyclic.cpus=1"
    for cfg in ("default", "rt"):
        row = []
        for cmd, what in ((CYCLIC, "cyclic"), (CYCLIC_LOADED, "cyclic-loaded")):
            cyc = run.records(Boot(cfg, cmd + extra, what), mode).of_type("cyclic")
            row.append(str(max(c["thread_ns"][2] for c in cyc)) if cyc else "no record")
        out.append(f"| `{cfg}` | {row[0]} | {row[1]} |")
    return out


# Each port against its own tracer-less build: (build, tracers) rows, first the base.
TRACER_COST_PORTS = [
    ("post-series, !RT", [("notrace", "none"), ("default", "irqsoff"),
                          ("trace", "irqsoff + preemptoff, migrate built (off)")]),
    ("pre-series, !RT", [("legacy_notrace", "none"), ("legacy", "irqsoff"),
                         ("legacy_trace", "irqsoff + preemptoff, migrate built (off)")]),
    ("post-series, RT", [("rt", "none"), ("rt_irqsoff", "irqsoff"),
                         ("rt_trace", "irqsoff + preemptoff, migrate built (off)")]),
]


def _per_transition(rec, traced, raw):
    """Instructions (cycles) one traced transition adds, from a lat_cost record."""
    if not rec or traced not in rec or raw not in rec:
        return "-"          # that tracer is not built in (or an older record)
    return f"{(rec[traced] - rec[raw]) / (2 * rec['loops']):.2f}"


# Under icount one boot is one trajectory: where the 4 ms tick (HZ=250)
# falls against a contended workload decides its path (run.skew_ns= in
# init/main.c).  Throughput figures take PHASES boots skewed SKEW_NS apart,
# over one tick period, and give their mean with a 95% interval.
PHASES = 8
SKEW_NS = 500000


def scipy_stats():
    """scipy.stats, also from Debian's python3-scipy under another Python."""
    try:
        import scipy.stats
    except ImportError:
        deb = "/usr/lib/python3/dist-packages"
        if deb not in sys.path:
            sys.path.append(deb)
        try:
            import scipy.stats
        except ImportError:
            raise FigureError("these figures need SciPy (Debian: apt-get install "
                              "python3-scipy)") from None
    return scipy.stats


def phase_records(run, mode, cfg, cmdline, name):
    """The records of @cmdline's boots at PHASES tick phases (one under TCG:
    there the host's noise, not the phase, is what varies)."""
    if mode != "icount":
        return [run.records(Boot(cfg, cmdline, name), mode)]
    return [run.records(Boot(cfg, cmdline + (f" run.skew_ns={k * SKEW_NS}" if k else ""),
                             name + (f"-phase{k}" if k else "")), mode)
            for k in range(PHASES)]


def phase_values(recs_list, cfg, rtype, key):
    vals = []
    for recs in recs_list:
        r = recs.of_type(rtype)
        if not r:
            raise FigureError(f"{cfg}: no {rtype} record")
        vals.append(r[0][key])
    return vals


def mean_ci(xs):
    """(mean, half width of its 95% interval; 0 for one value)."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    sem = scipy_stats().sem(xs)
    return m, float(scipy_stats().t.ppf(0.975, len(xs) - 1) * sem)


def ratio_ci(a, b):
    """mean(b)/mean(a) - 1 and its 95% interval (Welch's interval of the
    difference of means, over mean(a)), in percent."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    if a is b or len(a) < 2 or len(b) < 2:
        return 0.0, None
    st = scipy_stats()
    va, vb = st.tvar(a) / len(a), st.tvar(b) / len(b)
    if va + vb == 0:
        return (mb / ma - 1) * 100, 0.0
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    h = float(st.t.ppf(0.975, df)) * (va + vb) ** 0.5
    return (mb / ma - 1) * 100, h / ma * 100


def _pct(c):
    mid, half = c
    return f"{mid:+.2f}%" if half is None else f"{mid:+.2f}% ± {half:.2f}"


def fig_tracer_cost(run, mode):
    phases = f", mean ± 95% CI of {PHASES} tick phases" if mode == "icount" else ""
    out = [f"| port | build | tracers | hackbench time (ns{phases}) | vs the port's "
           "tracer-less build | irqsoff, per transition | preemptoff, per transition |",
           "|---|---|---|---|---|---|---|"]
    for port, rows in TRACER_COST_PORTS:
        base = None
        for cfg, what in rows:
            recs_list = phase_records(run, mode, cfg, HACKBENCH, "hackbench")
            times = phase_values(recs_list, cfg, "hackbench", "time_ns")
            base = base or times
            cost = recs_list[0].of_type("lat_cost")
            c = cost[-1] if cost else None
            if what != "none" and not c:
                raise FigureError(f"{cfg}: no lat_cost record (the tracer's cost)")
            m, h = mean_ci(times)
            out.append(f"| {port} | `{cfg}` | {what} | {m:.0f}"
                       + (f" ± {h:.0f}" if len(times) > 1 else "")
                       + f" | {_pct(ratio_ci(base, times))} | "
                       f"{_per_transition(c, 'irq_pair_traced', 'irq_pair_raw')} | "
                       f"{_per_transition(c, 'preempt_pair', 'preempt_pair_raw')} |")
    return out


# The phase sensitivity itself: rt_trace's hackbench at PHASES x 2 skews.
PHASE_DEMO = ("rt_trace", "run=hackbench hackbench.loops=20")


def fig_icount_phases(run, mode):
    if mode != "icount":
        raise FigureError("figures:icount-phases is an icount figure (mode=icount)")
    cfg, cmdline = PHASE_DEMO
    out = ["| run.skew_ns | hackbench time (ns) | context switches | IRQ-off windows "
           "(irqsoff) | IRQ-off total (ns) |", "|---|---|---|---|---|"]
    rows = []
    for k in range(2 * PHASES):
        skew = k * SKEW_NS // 2
        recs = run.records(Boot(cfg, cmdline + (f" run.skew_ns={skew}" if skew else ""),
                                f"phases-{k}"), mode)
        hb, lat = recs.of_type("hackbench"), recs.of_type("lat_cpu")
        if not hb or not lat:
            raise FigureError(f"{cfg} skew {skew}: no hackbench or lat_cpu record")
        rows.append((skew, hb[0]["time_ns"], hb[0]["ctxsw"], lat[0]["windows"],
                     lat[0]["total_ns"]))
        out.append("| " + " | ".join(str(v) for v in rows[-1]) + " |")
    out.append("")
    for i, what in ((1, "hackbench time"), (2, "context switches"), (3, "IRQ-off windows")):
        xs = sorted(r[i] for r in rows)
        out.append(f"- {what}: {xs[0]} .. {xs[-1]} (the largest {xs[-1] / xs[0]:.2f}x "
                   "the smallest)")
    return out


LOCK_STAT_COST = "run=ktest ktest.cpus=1 ktest.filter=lock_stat ktest.exact_time=1"
# The experiments' hackbench (E1-E3), where lock_stat is meant to stay on: a
# short one is mostly task creation, whose first acquisitions look classes up.
LOCK_STAT_HACKBENCH = "run=hackbench hackbench.groups=10 hackbench.loops=100 hackbench.size=4096"
LOCK_STAT_PAIRS = (("!RT", "default", "lock_stat"), ("RT", "rt", "rt_lock_stat"))


def fig_lock_stat_cost(run, mode):
    """lock_stat's hooks per uncontended raw_spin_lock()+unlock() (the
    lock_stat_cost case) and over a whole hackbench (the lock_stat presets
    against the same kernel without it)."""
    recs = run.records(Boot("lock_stat", LOCK_STAT_COST, "lock-stat-tests"), mode)
    cost = recs.of_type("lock_stat_cost")
    if not cost:
        raise FigureError("lock_stat: no lock_stat_cost record (test/lock_stat_test.c)")
    c = cost[-1]
    out = [f"Per uncontended `raw_spin_lock()` + `raw_spin_unlock()` pair: "
           f"{c['with'] / c['pairs']:.2f} instructions with lock_stat, "
           f"{c['without'] / c['pairs']:.2f} without: "
           f"**{c['per_pair_x100'] / 100:.2f}** for lock_stat's hooks "
           f"({c['pairs']} pairs, `lock_stat.lock_stat_cost`).", "",
           "| kernel | hackbench time (ns) | with lock_stat | change | acquisitions lock_stat "
           "counted in the boot | context switches (without / with) |",
           "|---|---|---|---|---|---|"]
    for what, base, ls in LOCK_STAT_PAIRS:
        rb = run.records(Boot(base, LOCK_STAT_HACKBENCH, "seeds-hackbench"), mode)
        rl = run.records(Boot(ls, LOCK_STAT_HACKBENCH, "seeds-hackbench"), mode)
        tb, tl = (r.of_type("hackbench") for r in (rb, rl))
        if not tb or not tl:
            raise FigureError(f"{base}/{ls}: no hackbench record")
        acq = sum(x["acq"] for x in rl.of_type("lock_stat"))
        if not rl.of_type("lock_stat_run"):
            raise FigureError(f"{ls}: no lock_stat_run record (lock_stat's table)")
        cs = []
        for r in (rb, rl):
            ps = r.of_type("perf_stat")
            cs.append(str(ps[-1]["cs"]) if ps else "-")
        a, b = tb[0]["time_ns"], tl[0]["time_ns"]
        out.append(f"| {what} (`{base}`, `{ls}`) | {a} | {b} | {(b / a - 1) * 100:+.2f}% | "
                   f"{acq} | {' / '.join(cs)} |")
    return out


def _per_pair(rec, key):
    """A lat_cost record's total for @key over its loops, as the kernel prints it."""
    if key not in rec:
        return "-"          # that tracer is not built in
    return f"{rec[key] / rec['loops']:.2f}"


def fig_tracer_pairs(run, mode):
    out = ["| build | `local_irq_save()+restore()`, traced | the same, raw | "
           "`preempt_disable()+enable()`, traced |", "|---|---|---|---|"]
    for cfg in ("default", "trace"):
        costs = run.records(Boot(cfg, HACKBENCH, "hackbench"), mode).of_type("lat_cost")
        if not costs:
            raise FigureError(f"{cfg}: no lat_cost record (the tracer's cost)")
        c = costs[-1]
        out.append(f"| `{cfg}` | {_per_pair(c, 'irq_pair_traced')} | "
                   f"{_per_pair(c, 'irq_pair_raw')} | {_per_pair(c, 'preempt_pair')} |")
    return out


BENCH_RE = re.compile(r"# bench_uncontended: ([^:]+): (\d+) cycles/op")
LOCKING = "run=ktest ktest.exact_time=1 ktest.filter=locking.bench*"


def fig_locking(run, mode):
    cols = {}
    # notrace: the default preset without the irqsoff tracer, whose recording
    # would be most of an IRQ-disabling pair's cost; rt has no tracer.
    for cfg in ("notrace", "rt"):
        lines = run.records(Boot(cfg, LOCKING, "locking-bench"), mode).lines
        cols[cfg] = dict(m.groups() for m in map(BENCH_RE.search, lines) if m)
        if not cols[cfg]:
            raise FigureError(f"{cfg}: no '# bench_uncontended:' line")
    out = ["| primitive | `notrace` (PREEMPT) | `rt` |", "|---|---|---|"]
    for name in cols["notrace"]:
        out.append(f"| `{name}` | {cols['notrace'][name]} | {cols['rt'].get(name, '-')} |")
    return out


MUTEX_RE = re.compile(r"# bench_uncontended: (mutex|rwsem read|rwsem write): (\d+) cycles/op")
MUTEX = "run=ktest ktest.exact_time=1 ktest.filter=mutex.bench*"
MUTEX_OPS = {"mutex": "`mutex_lock` + `mutex_unlock`", "rwsem read": "`down_read` + `up_read`",
             "rwsem write": "`down_write` + `up_write`"}


def fig_mutex(run, mode):
    lines = run.records(Boot("default", MUTEX, "mutex-bench"), mode).lines
    got = dict(m.groups() for m in map(MUTEX_RE.search, lines) if m)
    if set(got) != set(MUTEX_OPS):
        raise FigureError(f"default: mutex.bench_uncontended reported {sorted(got)}")
    return ["| operation (`default`) | instructions |", "|---|---|"] + \
        [f"| {MUTEX_OPS[k]} | {got[k]} |" for k in MUTEX_OPS]


SLABBENCH_CONFIGS = ["notrace", "legacy_notrace", "rt", "rt_legacy", "default", "legacy"]


def _num(x):
    return f"{x:.2f}".rstrip("0").rstrip(".") if isinstance(x, float) else str(x)


def fig_slabbench(run, mode):
    cols = {c: run.records(Boot(c, "run=slabbench", "slabbench"), mode).of_type("slabbench")
            for c in SLABBENCH_CONFIGS}
    rows = []       # (label, key) in the order the first column reports them
    for r in cols[SLABBENCH_CONFIGS[0]]:
        if r["name"] == "fastpath":
            rows.append((f"fast-path alloc+free pair ({r['size']} B)", ("fastpath", None)))
        elif r["name"] == "bulk":
            rows.append((f"bulk {r['size']}, per object", ("bulk", r["size"])))
    rows.append(("kmalloc+kfree pair, classes 8..8192 (least .. most)", ("kmalloc", None)))

    def cell(recs, key):
        name, size = key
        vals = [r["cycles_per_op"] for r in recs
                if r["name"] == name and (size is None or r["size"] == size)]
        if not vals:
            return "-"
        if len(vals) == 1:
            return _num(vals[0])
        return f"{_num(min(vals))} .. {_num(max(vals))}"

    out = ["| instructions per op | " + " | ".join(f"`{c}`" for c in SLABBENCH_CONFIGS) + " |",
           "|---" * (len(SLABBENCH_CONFIGS) + 1) + "|"]
    for label, key in rows:
        out.append(f"| {label} | " + " | ".join(cell(cols[c], key) for c in SLABBENCH_CONFIGS)
                   + " |")
    return out


def fig_cyclic(run, mode):
    cfgs = ("default", "notrace", "rt")
    extra = "" if mode == "icount" else " cyclic.hist_us=2000"
    unit = "instructions" if mode == "icount" else "ns"
    out = [f"| min / avg / max, {unit} | " + " | ".join(f"`{c}`" for c in cfgs) + " |",
           "|---|---|---|---|"]
    recs = {c: run.records(Boot(c, "run=cyclic" + extra, "cyclic-default"), mode).of_type("cyclic")
            for c in cfgs}
    for field, what in (("thread_ns", "thread level"), ("irq_ns", "IRQ level")):
        cells = []
        for c in cfgs:
            cells.append(", ".join(f"CPU{r['cpu']} " * (len(recs[c]) > 1) +
                                   " / ".join(str(v) for v in r[field]) for r in recs[c])
                         or "no record")
        out.append(f"| {what} | " + " | ".join(cells) + " |")
    return out


def _info(lines, regex, what):
    """The groups of the first log line matching @regex (a ktest info line)."""
    for ln in lines:
        m = re.search(regex, ln)
        if m:
            return m.groups()
    raise FigureError(f"no {what} line in the log")


DEADLINE = "run=ktest,cyclicdl ktest.exact_time=1 ktest.filter=deadline cyclicdl.loops=200"
OVERRUN_RE = (r"# overrun_throttled: hog: (\d+) us of CPU in (\d+) instances "
              r"\(bound (\d+) us\); neighbour: (\d+) jobs, (\d+) missed")


def fig_deadline(run, mode):
    """The deadline-icount entry's boot: cyclicdl's figures and the throttled hog."""
    recs = run.records(Boot("default", DEADLINE, "deadline", timeout=300), mode)
    cdl = recs.of_type("cyclicdl")
    if not cdl:
        raise FigureError("default: no cyclicdl record")
    lo, avg, hi = cdl[-1]["thread_ns"]
    hog, inst, bound, jobs, missed = _info(recs.lines, OVERRUN_RE, "overrun_throttled hog")
    return ["| figure (`default`) | value |", "|---|---|",
            f"| `run=cyclicdl cyclicdl.loops=200`: period start to the thread running, "
            f"min / avg / max | {lo} / {avg} / {hi} ns |",
            f"| `overrun_throttled`: the hog's CPU time in 300 ms (bound) | "
            f"{int(hog) / 1000:g} ms in {inst} instances ({int(bound) / 1000:g} ms) |",
            f"| `overrun_throttled`: the neighbour's jobs, missed deadlines | "
            f"{jobs}, {missed} |"]


PI = ("run=ktest,pi_stress ktest.exact_time=1 "
      "ktest.filter=rtmutex.bench*,rtlock.bench*,mutex.bench* pi_stress.iterations=2000")
PI_BENCH_RE = re.compile(r"bench_uncontended: ([^:]+): (\d+) cycles/op")
PI_STRESS_RE = r"pi_stress: \d+ groups, (\d+) iterations, (\d+) failures, (\d+) iterations/s"
PI_ROWS = [("`rt_mutex_lock`+`unlock`", ("rt_mutex",)),
           ("`mutex_lock`+`unlock`", ("mutex",)),
           ("`down_read`+`up_read` / `down_write`+`up_write`", ("rwsem read", "rwsem write")),
           ("`spin_lock`+`unlock`", ("spin_lock",)),
           ("`spin_lock_irqsave`+`unlock_irqrestore`", ("spin_lock_irqsave",))]


def fig_pi(run, mode):
    cols = {}
    # notrace: !RT PREEMPT without the irqsoff tracer, whose recording would
    # be most of an IRQ-disabling pair's cost (as for `locking`); rt has none.
    for cfg in ("notrace", "rt"):
        lines = run.records(Boot(cfg, PI, "pi-bench", timeout=300), mode).lines
        got = dict(m.groups() for m in map(PI_BENCH_RE.search, lines) if m)
        iters, fails, rate = _info(lines, PI_STRESS_RE, f"{cfg}: pi_stress")
        cols[cfg] = (got, f"{rate} iterations/s, {fails} failures")
    out = ["| instructions (cycles of the 1 GHz icount clock) | `notrace` (PREEMPT) | `rt` |",
           "|---|---|---|"]
    for label, keys in PI_ROWS:
        cells = [" / ".join(cols[c][0].get(k, "-") for k in keys) for c in ("notrace", "rt")]
        out.append(f"| {label} | {cells[0]} | {cells[1]} |")
    out.append(f"| pi_stress, one group of 2000 iterations | {cols['notrace'][1]} | "
               f"{cols['rt'][1]} |")
    return out


LOCKDEP = "run=ktest ktest.cpus=1 ktest.exact_time=1 ktest.filter=lockdep.bench*"
LOCKDEP_RE = (r"raw_spin_lock\+unlock: (\d+) cycles per pair, (\d+) nested in another "
              r"lock \(lockdep (\w+)")


def fig_lockdep(run, mode):
    out = ["| build | lockdep | `raw_spin_lock()+raw_spin_unlock()` | "
           "the same nested in another lock |", "|---|---|---|---|"]
    for cfg in ("default", "lockdep"):
        lines = run.records(Boot(cfg, LOCKDEP, "lockdep-bench"), mode).lines
        alone, nested, on = _info(lines, LOCKDEP_RE, f"{cfg}: lockdep.bench")
        out.append(f"| `{cfg}` | {on} | {alone} | {nested} |")
    return out


TRACE_WINDOWS = "run=ktest ktest.exact_time=1 ktest.filter=trace"
TRACE_WINDOW_RE = re.compile(r"# \w+: (\w+) window on CPU\d+: (\d+) cycles, (\d+) ns "
                             r"for a (\d+)-cycle busy-wait")


def fig_trace_windows(run, mode):
    lines = run.records(Boot("trace", TRACE_WINDOWS, "trace-tests", timeout=600), mode).lines
    got = [m.groups() for m in map(TRACE_WINDOW_RE.search, lines) if m]
    if not got:
        raise FigureError("trace: no '<kind> window on CPU' line (test/trace_test.c)")
    out = ["| tracer (`trace`) | busy-wait, cycles | window recorded, cycles | ns |",
           "|---|---|---|---|"]
    for kind, cycles, ns, wait in got:
        out.append(f"| {kind} | {wait} | {cycles} | {ns} |")
    return out


KTRACE = "run=slabbench slabbench.trace_pair=1"
KTRACE_CONFIGS = ("default", "legacy", "rt")


def _ktrace_paths():
    return _module("irqlab_ktrace_paths", os.path.join(ROOT, "scripts", "ktrace_paths.py"))


def _ktrace_boots(run, mode):
    """Per preset: (log lines, records) of the traced pairs, checked as
    make ktrace-paths checks them (valid traces, clock agreeing)."""
    kp = _ktrace_paths()
    out = {}
    for cfg in KTRACE_CONFIGS:
        recs = run.records(Boot(cfg, KTRACE, "ktrace-pair"), mode)
        secs = {}
        for name, what in kp.PAIRS:
            try:
                secs[name] = kp.pair_section(cfg, recs.lines, recs, name, what)
            except SystemExit as e:
                raise FigureError(str(e)) from None
        out[cfg] = (recs, secs)
    return kp, out


def _qemu_version():
    try:
        return subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "QEMU version unknown"


def fig_ktrace_pairs(run, mode):
    """Instructions per warm pair, callees only, and the cache pair by function."""
    kp, boots = _ktrace_boots(run, mode)
    out = [f"{_qemu_version()}; `{KTRACE}`.", "",
           "| config | " + " | ".join(n for n, _ in kp.PAIRS) + " |",
           "|---|" + "---:|" * len(kp.PAIRS)]
    for cfg in KTRACE_CONFIGS:
        out.append(f"| {cfg} | " + " | ".join(str(boots[cfg][1][n][0]) for n, _ in kp.PAIRS)
                   + " |")
    fns, per = [], {}
    for cfg in KTRACE_CONFIGS:
        recs = boots[cfg][0]
        rows = [r for r in recs.of_type("ktrace_fn") if r.get("name") == "cache_pair"]
        per[cfg] = {r["fn"]: r["insns"] for r in rows[1:]}     # the first is the caller
        fns += [f for f in per[cfg] if f not in fns]
    out += ["", "| `cache_pair` by function (callees) | " +
            " | ".join(KTRACE_CONFIGS) + " |", "|---|" + "---:|" * len(KTRACE_CONFIGS)]
    for f in fns:
        out.append(f"| `{f}` | " + " | ".join(str(per[c].get(f, "-")) for c in KTRACE_CONFIGS)
                   + " |")
    out.append("| pair | " + " | ".join(f"**{boots[c][1]['cache_pair'][0]}**"
                                          for c in KTRACE_CONFIGS) + " |")
    return out


def fig_ktrace_paths(run, mode):
    """make ktrace-paths' per-pair sections: functions and the full path."""
    kp, boots = _ktrace_boots(run, mode)
    out = [f"{_qemu_version()}; `{KTRACE}`.", ""]
    for cfg in KTRACE_CONFIGS:
        for name, _ in kp.PAIRS:
            out += boots[cfg][1][name][1]
    while out and out[-1] == "":
        out.pop()
    return out


# The seeds' experiments (tools/experiments/eN_icount.ini) at two commits:
# (label, experiment, its [claim] naming the pair, workload and the seeds'
# figure, what of each side's records is shown).  The configurations and the
# seeds' figures live in the claim only.
SEEDS = [
    ("E1 !RT, pre vs post series", "e1_icount", "e1-hackbench", "hackbench"),
    ("E2 RT, 5.13-rt vs list_lock raw", "e2_icount", "e2-rawlistlock", "hackbench"),
    ("E2 RT, 5.13-rt vs list_lock spinlock_t", "e2_icount", "e2-spinlock", "hackbench"),
    ("E3 RT, 5.13-rt vs series without local_lock, list_lock raw", "e3_icount",
     "e3-nolocallock-raw", "hackbench"),
    ("E3 RT, 5.13-rt vs series without local_lock", "e3_icount", "e3-nolocallock",
     "hackbench"),
    ("E4 RT, CPU_PARTIAL on vs off, cyclic max under hackbench", "e4_icount", "e4-cyclic",
     "cyclic max"),
    ("E5 RT, lazy on vs off, cyclic avg / max", "e5_icount", "e5-cyclic", "cyclic avg/max"),
    ("E5 RT, lazy on vs off, cyclicdl avg", "e5_icount", "e5-cyclicdl", "cyclicdl avg"),
]


def _seed_claim(exp, name):
    """EXP's [claim NAME] as tools/irqlab loads it (a, b, workload, seeds)."""
    path = os.path.join(ROOT, "tools", "experiments", f"{exp}.ini")
    try:
        mx = _irqlab_tool().load_matrix(path)
    except ValueError as e:
        raise FigureError(str(e)) from None
    for cl in mx["claims"]:
        if cl["name"] == name:
            return cl
    raise FigureError(f"{path}: no [claim {name}] (the seeds-icount table names it)")


def _experiment_workloads(exp):
    """[workloads] of tools/experiments/EXP.ini: name -> command line."""
    import configparser
    cp = configparser.ConfigParser(interpolation=None)
    path = os.path.join(ROOT, "tools", "experiments", f"{exp}.ini")
    if not cp.read(path) or not cp.has_section("workloads"):
        raise FigureError(f"{path}: no [workloads] section")
    return dict(cp.items("workloads"))


def _seed_value(recs, metric, where):
    """One side's figure: (values, unit); cyclic figures in us like the experiments'."""
    if metric == "hackbench":
        summ = recs.of_type("hackbench_summary")
        hb = recs.of_type("hackbench")
        if not summ and not hb:
            raise FigureError(f"{where}: no hackbench record")
        ns = summ[-1]["mean_ns"] if summ else hb[0]["time_ns"]
        return [ns / 1e9], "s"
    kind, what = metric.split()
    cyc = recs.of_type(kind)
    if not cyc:
        raise FigureError(f"{where}: no {kind} record")
    pick = {"avg": lambda r: r["thread_ns"][1], "max": lambda r: r["thread_ns"][2]}
    return [max(pick[w](r) for r in cyc) / 1000 for w in what.split("/")], "us"


def _seed_cmdline(exp, wl):
    """EXP's workload WL; one boot serves every experiment that runs it alike
    (E1-E3 share hackbench), so a name must mean one command line."""
    cmd = _experiment_workloads(exp)[wl]
    for other in sorted({r[1] for r in SEEDS} - {exp}):
        theirs = _experiment_workloads(other).get(wl)
        if theirs is not None and theirs != cmd:
            raise FigureError(f"workload {wl} differs between {exp} and {other}: "
                              f"{cmd!r} against {theirs!r}")
    return cmd


def _seed_cell(run, row, mode):
    _, exp, name, metric = row
    cl = _seed_claim(exp, name)
    a, b, wl = cl["a"], cl["b"], cl["workload"]
    cmd = _seed_cmdline(exp, wl)
    va, unit = _seed_value(run.records(Boot(a, cmd, f"seeds-{wl}", 900), mode), metric,
                           f"{exp} {a} {wl}")
    vb, _ = _seed_value(run.records(Boot(b, cmd, f"seeds-{wl}", 900), mode), metric,
                        f"{exp} {b} {wl}")
    if unit == "s":
        return f"{va[0]:.3f} vs {vb[0]:.3f} s, {(vb[0] / va[0] - 1) * 100:+.1f}%"
    pa, pb = " / ".join(f"{x:.3f}" for x in va), " / ".join(f"{x:.3f}" for x in vb)
    return f"{pa} us, the same" if va == vb else f"{pa} vs {pb} us"


def fig_seeds_icount(run, mode, attrs):
    """The seeds' experiments at icount, at the block's base= commit and now."""
    base = attrs.get("base")
    if not base or not re.fullmatch(r"[0-9a-f]{7,40}", base):
        raise FigureError("figures:seeds-icount needs base=COMMIT (the earlier column)")
    if mode != "icount":
        raise FigureError("figures:seeds-icount is an icount figure (mode=icount)")
    old = run.at(base)
    out = [f"| experiment | seeds | icount at {base} | icount at {attrs['commit']} |",
           "|---|---|---|---|"]
    for row in SEEDS:
        cl = _seed_claim(row[1], row[2])
        # the seeds' headline: the claim's figure up to its first ';'
        seeds = cl["seeds"].split(";")[0].strip()
        out.append(f"| {row[0]} (`{cl['a']}`, `{cl['b']}`) | {_md(seeds)} | "
                   f"{_seed_cell(old, row, mode)} | {_seed_cell(run, row, mode)} |")
    return out


fig_seeds_icount.wants_attrs = True


# The seeds' experiments under TCG (tools/experiments/eN.ini, a stopping rule):
# (label, experiment, its [claim] naming the pair, the seeds' figure and the
# workload, a workload to run instead (None: the claim's), tools/irqlab
# metric, unit, which ';'-separated clause of the claim's seeds figure).
SEEDS_TCG = [
    ("E1 !RT, pre vs post series", "e1", "e1-hackbench", None, "hackbench time s", "s", 0),
    ("E2 RT, 5.13-rt vs list_lock raw", "e2", "e2-rawlistlock", None, "hackbench time s",
     "s", 0),
    ("E2 RT, 5.13-rt vs list_lock spinlock_t", "e2", "e2-spinlock", None,
     "hackbench time s", "s", 0),
    ("E3 RT, 5.13-rt vs series without local_lock", "e3", "e3-nolocallock", None,
     "hackbench time s", "s", 0),
    ("E3 RT, same with list_lock raw", "e3", "e3-nolocallock-raw", None, "hackbench time s",
     "s", 0),
    ("E4 RT, CPU_PARTIAL on vs off, cyclic max", "e4", "e4-cyclic", None, "cyclic max us",
     "us", 0),
    ("E5 RT, lazy on vs off, cyclic avg", "e5", "e5-cyclic", None, "cyclic avg us", "us", 0),
    ("E5 RT, lazy on vs off, cyclicdl avg", "e5", "e5-cyclicdl", None, "cyclicdl avg us",
     "us", 0),
    ("E5 RT, lazy on vs off, cyclicdl max", "e5", "e5-cyclicdl", None, "cyclicdl max us",
     "us", 1),
    ("E5 RT, same under hackbench, cyclicdl avg", "e5", "e5-cyclicdl", "cyclicdl_hackbench",
     "cyclicdl avg us", "us", 0),
    ("E5 RT, same under hackbench, cyclicdl max", "e5", "e5-cyclicdl", "cyclicdl_hackbench",
     "cyclicdl max us", "us", 1),
]


def _seed_row(row):
    """A SEEDS_TCG row resolved through its claim: (label, seeds' figure,
    experiment, workload, A, B, metric, unit)."""
    label, exp, name, wl, metric, unit, part = row
    cl = _seed_claim(exp, name)
    clauses = [c.strip() for c in cl["seeds"].split(";")]
    if part >= len(clauses):
        raise FigureError(f"tools/experiments/{exp}.ini [claim {name}]: seeds has "
                          f"{len(clauses)} clause(s); the seeds-tcg table wants clause "
                          f"{part + 1}")
    return label, clauses[part], exp, wl or cl["workload"], cl["a"], cl["b"], metric, unit


def _irqlab_tool():
    """tools/irqlab as a module (its file has no .py suffix)."""
    if "irqlab_tool" not in sys.modules:
        import importlib.machinery
        loader = importlib.machinery.SourceFileLoader("irqlab_tool",
                                                      os.path.join(ROOT, "tools", "irqlab"))
        spec = importlib.util.spec_from_loader("irqlab_tool", loader)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["irqlab_tool"] = mod
        loader.exec_module(mod)
    return sys.modules["irqlab_tool"]


def _experiment_dir(run, exp, kind):
    """(tools/irqlab, EXP's matrix, its directory): the matrix tools/irqlab
    ran (resumable) into build/figures/KIND/COMMIT/EXP, or LOGS/KIND/EXP (its
    .json cells) with --logs."""
    tool = _irqlab_tool()
    try:
        mx = tool.load_matrix(os.path.join(ROOT, "tools", "experiments", f"{exp}.ini"))
    except ValueError as e:
        raise FigureError(str(e)) from None
    if run.logs:
        return tool, mx, os.path.join(run.logs, kind, exp)
    out = os.path.join(ROOT, "build", "figures", kind, head_commit(), exp)
    if (kind, exp) not in run.matrices:
        if tool.boot_matrix(mx, out, progress=sys.stderr) == 2:
            raise FigureError(f"{exp}: tools/irqlab matrix could not run (see above)")
        run.matrices.add((kind, exp))
    return tool, mx, out


def _matrix_sides(run, exp, wl, configs):
    """Each configuration's parsed runs of EXP's workload WL (_experiment_dir())."""
    tool, mx, out = _experiment_dir(run, exp, "seeds-tcg")
    # every run on disk: a stopping rule decides how many (at least min_reps)
    least = mx["rule"]["min_reps"] if mx.get("rule") else mx["reps"]
    sides = {}
    for c in configs:
        sides[c] = []
        reps = tool.cell_reps(out, wl, c)
        if len(reps) < least:
            raise FigureError(f"{exp}: {len(reps)} run(s) in {os.path.join(out, c, wl)}, "
                              f"want at least {least}")
        for rep in reps:
            path = os.path.join(out, c, wl, f"rep{rep}.json")
            try:
                with open(path) as f:
                    res = json.load(f)
            except (OSError, ValueError):
                raise FigureError(f"{exp}: no run {path}") from None
            if not res.get("passed") or res.get("problems"):
                raise FigureError(f"{exp}: {path}: the run failed or lost records "
                                  f"({res.get('verdict')}; {res.get('problems')})")
            sides[c].append(res)
    return tool, sides


def fig_seeds_tcg(run, mode):
    if mode != "tcg":
        raise FigureError("figures:seeds-tcg is measured under TCG (mode=tcg)")
    out = ["| experiment | seeds | TCG SMP=2 (A vs B, change, verdict) |", "|---|---|---|"]
    for label, seeds, exp, wl, a, b, metric, unit in map(_seed_row, SEEDS_TCG):
        tool, sides = _matrix_sides(run, exp, wl, (a, b))
        rows = {r[0]: r for r in tool.compare(sides[a], sides[b])}
        if metric not in rows or len(rows[metric]) < 10:
            raise FigureError(f"{exp} {wl}: no comparable '{metric}' for {a} against {b}")
        va = [tool.metrics(x)[metric] for x in sides[a]]
        vb = [tool.metrics(x)[metric] for x in sides[b]]
        centre = tool.median if tool.is_extreme(metric) else (lambda xs: sum(xs) / len(xs))
        row = rows[metric]
        out.append(f"| {label} (`{a}`, `{b}`) | {_md(seeds)} | {tool.fixed(centre(va))} vs "
                   f"{tool.fixed(centre(vb))} {unit} ({len(va)} vs {len(vb)} runs), "
                   f"{row[5]}, {row[9]} |")
    return out


# The seeds' claims ([claim] sections of tools/experiments/*.ini), checked by
# tools/irqlab on the experiment's runs: one row per claim, the seeds' figure
# beside irqlab's, the sign and every mechanism count.
CLAIMS_ICOUNT = ("e1_icount", "e2_icount", "e2_lockstat_icount", "e3_icount", "e4_icount",
                 "e5_icount")
# E7 (the shrinker list, seed 004) has its own blocks: its runs are newer.
CLAIMS_E7 = ("e7_icount",)
CLAIMS_E7_TCG = ("e7",)
CLAIMS_TCG = ("e2", "e2_lockstat")


def _claims_doc(run, exp):
    """evaluate_claims() over EXP's matrix (_experiment_dir())."""
    tool, mx, out = _experiment_dir(run, exp, "seeds-claims")
    for w in mx["workloads"]:
        for c in mx["configs"]:
            paths = tool.cell_paths(out, w, c)
            if not paths:
                raise FigureError(f"{exp}: no run of {c} {w} in {out}")
            for path in paths:
                with open(path) as f:
                    res = json.load(f)
                if not res.get("passed") or res.get("problems"):
                    raise FigureError(f"{exp}: {path}: the run failed or lost records "
                                      f"({res.get('verdict')}; {res.get('problems')})")
    return tool, tool.evaluate_claims(out, mx)


def _md(text):
    return str(text).replace("|", "\\|")


def _claims_rows(run, exps):
    out = ["| experiment: claim | seeds | irqlab (B against A) | sign | mechanism |",
           "|---|---|---|---|---|"]
    for exp in exps:
        tool, doc = _claims_doc(run, exp)
        for cl in doc["claims"]:
            f = cl["figure"]
            ours = (f"`{cl['b']}` against `{cl['a']}`, {cl['metric']}: "
                    f"{tool._vals(f['a'], cl['metric'])} vs "
                    f"{tool._vals(f['b'], cl['metric'])}, "
                    f"{tool._claim_pct(f['change_pct'])} ({f['verdict']}; {cl['mode']})")
            mech = "; ".join(f"{m['metric']} {m['expect']}: "
                             f"{tool._claim_pct(m['change_pct'])}, {m['agrees']}"
                             for m in cl["mechanism"]) or "-"
            out.append(f"| {exp}: {_md(cl['name'])} | {_md(cl['seeds'])} | {_md(ours)} | "
                       f"{cl['sign']} (expected {cl['expect']}) | {_md(mech)} |")
    return out


def fig_seeds_claims(run, mode):
    """The claims of the icount experiments (exact runs, 6 tick phases a side)."""
    if mode != "icount":
        raise FigureError("figures:seeds-claims is an icount figure (mode=icount); "
                          "seeds-claims-tcg is its TCG twin")
    return _claims_rows(run, CLAIMS_ICOUNT)


def fig_e7_claims(run, mode):
    """E7's claims: the shrinker list's three forms, exact (seed 004)."""
    if mode != "icount":
        raise FigureError("figures:e7-claims is an icount figure (mode=icount)")
    return _claims_rows(run, CLAIMS_E7)


def fig_e7_claims_tcg(run, mode):
    """E7's claims on 2 vCPUs (timed): shrinkers visited per second."""
    if mode != "tcg":
        raise FigureError("figures:e7-claims-tcg is measured under TCG (mode=tcg)")
    return _claims_rows(run, CLAIMS_E7_TCG)


def fig_seeds_claims_tcg(run, mode):
    """E2's claims on 2 vCPUs, where list_lock is contended (timed)."""
    if mode != "tcg":
        raise FigureError("figures:seeds-claims-tcg is measured under TCG (mode=tcg)")
    return _claims_rows(run, CLAIMS_TCG)


# ---- console samples: a boot's own lines, cut to the ones a page explains

DEFAULT_RUN = ("run=cyclic,hackbench cyclic.duration_ms=3000 hackbench.groups=2 "
               "hackbench.loops=20")
STAMP_RE = re.compile(r"^\[\s*\d+\.\d+\] ")
ELAPSED_RE = re.compile(r" \[\d+\.\d+ s\]$")


def _make_default():
    """The Makefile's DEFAULT_RUN: the sample must be what `make run` boots."""
    try:
        with open(os.path.join(ROOT, "Makefile")) as f:
            m = re.search(r"^DEFAULT_RUN :?= (.*)$", f.read(), re.M)
    except OSError:
        m = None
    return m.group(1).strip() if m else DEFAULT_RUN


def _sample(lines, picks):
    """@lines without printk stamps (and without the host's elapsed time,
    which is not reproducible), cut to @picks in order: (regex, callout[, n]),
    the first line at or after the previous pick matching regex and the n-1
    after it, `...` where lines other than records were left out, ` (N)`
    after a line with a callout.  Records a pick does not name are dropped
    silently: each has its own page."""
    lines = [ELAPSED_RE.sub("", STAMP_RE.sub("", ln.rstrip())) for ln in lines]
    lines = [ln for ln in lines if ln]
    out, pos = [], 0
    for pick in picks:
        regex, callout, n = (pick + (1,))[:3]
        for i in range(pos, len(lines)):
            if re.search(regex, lines[i]):
                break
        else:
            raise FigureError(f"no line matching {regex!r} in the log (after line {pos})")
        skipped = [ln for ln in lines[pos:i] if not ln.startswith("@irqlab ")]
        if skipped and out and out[-1] != "...":
            out.append("...")
        for j, ln in enumerate(lines[i:i + n]):
            if callout and j == 0:
                ln = f"{ln:<60} ({callout})" if len(ln) < 60 else f"{ln}   ({callout})"
            out.append(ln)
        pos = i + n
    return out


FIRST_RUN_PICKS = [
    (r"^qemu\.py: mode ", 1), (r"^irqlab: start ", 2), (r"^Command line: ", None),
    (r"^irqlab: mode ", 3), (r"^irqlab: running ", None), (r"^cyclic: heartbeat ", 4),
    (r"^\*\* \d+ printk messages dropped", 5), (r"^Time: ", 6),
    (r"^hackbench: \d+ messages sent", None),
    (r"^cyclic: thread latency", None), (r"^T: 0 ", 7), (r"^cyclic: IRQ latency", None),
    (r"^IRQ T: 0 ", None), (r"^# Histogram", None),
    (r'^@irqlab \d+ \w+ \{"type":"cyclic",', 8), (r"^hackbench: \d+ round", None),
    (r"^# tracer: irqsoff", None, 3), (r"^irqsoff: CPU ", None), (r"^irqsoff: +0 ", 9),
    (r"^# irqsoff latency trace", None, 10),
    (r"^irqsoff: by the code", 10), (r"^irqsoff: +slab ", None),
    (r"^irqsoff: +page_alloc ", None), (r"^irqsoff: +other ", None),
    (r"^trace: cost ", 11), (r"^irqlab: summary: ", 12), (r"^irqlab: end status=", None),
    (r"^qemu\.py: guest ", None)]


def _first_run(run, mode):
    return run.records(Boot("default", _make_default(), "first-run", make_run=True), mode)


def _tline(recs):
    return _sample(recs.lines, [(r"^T: 0 ", None)])[0]


def fig_first_run(run, mode):
    recs = _first_run(run, mode)
    cyc = recs.of_type("cyclic")
    if len(cyc) != 1:
        raise FigureError(f"first-run: {len(cyc)} cyclic records, expected one")
    lo, avg, hi = cyc[0]["thread_ns"]
    slab, cpu = _subsys(recs, "slab"), [r for r in recs.of_type("lat_cpu")
                                         if r.get("tracer") == "irqsoff"]
    if not slab or not slab.get("windows") or len(cpu) != 1:
        raise FigureError("first-run: no irqsoff window opened by slab code, or not one "
                          "irqsoff CPU record")
    return ["```"] + _sample(recs.lines, FIRST_RUN_PICKS) + ["```", "",
            f"In this run cyclic's thread level gave min / avg / max {lo} / {avg} / {hi} "
            f"ns ((7), (8)); the tracer saw {cpu[0]['windows']} IRQ-off windows, the "
            f"longest {cpu[0]['max_ns']} ns (9); SLUB's longest was {slab['max_ns']} ns, "
            f"from `{slab['start']}` to `{slab['end']}` (10)."]


def fig_first_run_cyclic(run, mode):
    return ["```", _tline(_first_run(run, mode)), "```"]


def fig_first_run_summary(run, mode):
    return ["```"] + _sample(_first_run(run, mode).lines, [(r"^irqlab: summary: ", None)]) + \
        ["```"]


CYCLIC_SAMPLE = "run=cyclic cyclic.interval_us=500 cyclic.loops=200"
CYCLIC_SAMPLE_PICKS = [
    (r"^cyclic: thread latency", None), (r"^T: 0 ", None), (r"^cyclic: IRQ latency", None),
    (r"^IRQ T: 0 ", None), (r"^# Histogram$", None), (r"^\d{6} ", None),
    (r"^\d{6} ", None), (r"^\d{6} ", None), (r"^# Total: ", None),
    (r"^# Min Latencies: ", None), (r"^# Avg Latencies: ", None),
    (r"^# Max Latencies: ", None), (r"^# Histogram Overflows: ", None),
    (r"^# IRQ Histogram$", None), (r"^\d{6} ", None), (r"^# IRQ Histogram Overflows: ", None),
    (r'^@irqlab \d+ \w+ \{"type":"cyclic",', None)]


def fig_cyclic_sample(run, mode):
    recs = run.records(Boot("default", CYCLIC_SAMPLE, "cyclic-sample"), mode)
    return ["```"] + _sample(recs.lines, CYCLIC_SAMPLE_PICKS) + ["```"]


HACKBENCH_SAMPLE = [("default", "run=hackbench", "hackbench-defaults"),
                    ("rt", "run=hackbench", "hackbench-defaults"),
                    ("default", "run=hackbench hackbench.size=4096", "hackbench-4096"),
                    ("rt", "run=hackbench hackbench.size=4096", "hackbench-4096")]


def fig_hackbench_sample(run, mode):
    out, rows = None, []
    for config, cmdline, name in HACKBENCH_SAMPLE:
        recs = run.records(Boot(config, cmdline, name, make_run=True), mode)
        hb = recs.of_type("hackbench")
        if len(hb) != 1:
            raise FigureError(f"hackbench-sample: {config} `{cmdline}`: {len(hb)} hackbench "
                              "records, expected one")
        if out is None:
            out = ["```"] + _sample(recs.lines, [
                (r"^Running in threaded mode", None), (r"^Each sender", None),
                (r"^Time: ", None), (r"^hackbench: \d+ context switches", None),
                (r"^hackbench: \d+ messages sent", None),
                (r'^@irqlab \d+ \w+ \{"type":"hackbench",', None)]) + ["```", ""]
            out += [f"That is `make run ICOUNT=0 SMP=2 CMDLINE={cmdline}` on `{config}`. "
                    "The same boots:", "",
                    "| config | command line | Time | context switches | migrations |",
                    "|---|---|---:|---:|---:|"]
        h = hb[0]
        rows.append(f"| `{config}` | `{cmdline}` | {h['time_ns'] / 1e9:.3f} s | "
                    f"{h.get('ctxsw', '-')} | {h.get('migrations', '-')} |")
    return out + rows


# run=files under the irqsoff tracer: SLUB's IRQ-off openers while RCU
# callbacks free every object (test/files.c), before and after the series.
FILES = "run=files"
FILES_PORTS = [("legacy_trace", "pre-series 5.13, !RT"), ("trace", "post-series 5.15, !RT"),
               ("rt_legacy_trace", "5.13-rt, RT"), ("rt_trace", "post-series, RT")]
FILES_TOP = 5


def fig_files_openers(run, mode):
    """Per port, the slab code's top IRQ-off openers by total time (the
    workload's files_opener records: every slab-range opener, merged by
    function), and the workload's counts."""
    out = ["| kernel | rank | opener | windows | max ns | total ns |",
           "|---|---|---|---|---|---|"]
    counts = []
    for cfg, name in FILES_PORTS:
        recs = run.records(Boot(cfg, FILES, "files"), mode)
        ops = sorted(recs.of_type("files_opener"), key=lambda r: r["rank"])
        summary = recs.of_type("files_openers")
        files, freed = recs.of_type("files"), recs.of_type("files_freed")
        if not files or not freed:
            raise FigureError(f"{cfg}: no files/files_freed record (test/files.c)")
        if not summary:
            raise FigureError(f"{cfg}: no files_openers record (is the irqsoff tracer on?)")
        if not ops:
            out.append(f"| {name} (`{cfg}`) | - | none: no IRQ-off window opened in slab "
                       "code | 0 | - | 0 |")
        for i, r in enumerate(ops[:FILES_TOP]):
            who = f"{name} (`{cfg}`)" if i == 0 else ""
            out.append(f"| {who} | {r['rank']} | `{r['func']}` | {r['windows']} | "
                       f"{r['max_ns']} | {r['total_ns']} |")
        f, d = files[0], freed[0]
        counts.append(f"`{cfg}`: {f['dentries']} dentries + {f['inodes']} inodes, "
                      f"{d['cbs']} callbacks ({d['softirq']} in softirq, {d['rcuc']} in "
                      f"rcuc), {d['pages_leaked']} pages not given back")
    return out + [""] + ["; ".join(counts) + "."]


FIGURES = {
    "latency-windows": (fig_latency_windows,
                        "the longest IRQ-off window opened by slab code and by the page "
                        "allocator, ns, with where it opened .. closed"),
    "latency-cyclic": (fig_latency_cyclic, "cyclic's maximum thread-level latency, ns"),
    "tracer-cost": (fig_tracer_cost, "hackbench's time with the tracers built in, against "
                    "the same port without them, and each tracer's cost per IRQ-flag or "
                    "preempt-count transition (`trace: cost` after hackbench, instructions "
                    "above the untraced pair, per transition)"),
    "icount-phases": (fig_icount_phases, "`rt_trace` `run=hackbench hackbench.loops=20` "
                      "under icount with its start skewed over two tick periods "
                      "(`run.skew_ns=`): one icount boot is one trajectory"),
    "lock-stat-cost": (fig_lock_stat_cost, "lock_stat's hooks per uncontended "
                       "lock+unlock pair (`test/run lock-stat-icount`'s cost case) and "
                       "over the experiments' hackbench (10 groups x 100 loops of 4096 "
                       "bytes) on the lock_stat presets against the same kernels without "
                       "it"),
    "tracer-pairs": (fig_tracer_pairs, "the tracers' own cost per pair (`trace: cost`, "
                     "after hackbench), instructions"),
    "locking": (fig_locking, "`locking.bench_uncontended`, one lock+unlock pair, mean of "
                "10000 with the loop, instructions"),
    "mutex": (fig_mutex, "`mutex.bench_uncontended`, one lock+unlock pair, instructions"),
    "slabbench": (fig_slabbench, "`run=slabbench` (defaults), per operation"),
    "cyclic": (fig_cyclic, "`run=cyclic` (defaults: 1000 loops of 1000 us)"),
    "deadline": (fig_deadline, "the `deadline-icount` entry's boot (`run=ktest,cyclicdl "
                 "ktest.filter=deadline cyclicdl.loops=200`)"),
    "pi": (fig_pi, "uncontended lock+unlock, mean of 10000 with the loop "
           "(`rtmutex.bench*`, `rtlock.bench*`, `mutex.bench*`), then `run=pi_stress "
           "pi_stress.iterations=2000`"),
    "lockdep": (fig_lockdep, "`lockdep.bench_raw_spin_lock_unlock`, instructions per pair"),
    "trace-windows": (fig_trace_windows, "`test/trace_test.c`: a busy-wait with "
                      "interrupts, preemption or migration off, as the tracer recorded it"),
    "ktrace-pairs": (fig_ktrace_pairs, "instructions per warm alloc+free pair, callees "
                     "only, traced by ktrace and checked against the icount clock (as "
                     "`make ktrace-paths`)"),
    "ktrace-paths": (fig_ktrace_paths, "`make ktrace-paths`' sections: per preset and pair "
                     "the functions and the full executed path"),
    "first-run": (fig_first_run, "`make run` with its default command line on "
                  "`default` (`ICOUNT=1`, which is what `make run` chooses without KVM), "
                  "cut to the lines the walkthrough explains"),
    "first-run-cyclic": (fig_first_run_cyclic, "the `T:` line of the `first-run` boot"),
    "first-run-summary": (fig_first_run_summary, "the summary line of the `first-run` boot "
                          "(`make run`, its default command line, `default`)"),
    "cyclic-sample": (fig_cyclic_sample, f"`{CYCLIC_SAMPLE}` on `default`, cut"),
    "hackbench-sample": (fig_hackbench_sample, "`make run SMP=2 CMDLINE=...` with "
                         "hackbench's defaults and with 4096-byte messages on `default` "
                         "and `rt`, one boot each, one after the other"),
    "seeds-icount": (fig_seeds_icount, "the seeds' experiments "
                     "(`tools/experiments/eN_icount.ini`, one run a side; hackbench 10 "
                     "groups x 100 loops of 4096 bytes), at the two commits named, both "
                     "built from the current defconfigs"),
    "seeds-claims": (fig_seeds_claims, "the seeds' claims (the `[claim]` sections of "
                     "`tools/experiments/{e1,e2,e2_lockstat,e3,e4,e5}_icount.ini`), "
                     "checked by `tools/irqlab` over the experiments' tick phases (6 runs a side; before 2026-12 one run a side): B's change "
                     "against A, the sign, and each mechanism count's change and "
                     "whether it agrees"),
    "e7-claims": (fig_e7_claims, "E7's claims (the `[claim]` sections of "
                  "`tools/experiments/e7_icount.ini`: the shrinker list under "
                  "`shrinker_rwsem`, SRCU and Linux 6.7's refcount + RCU), checked by "
                  "`tools/irqlab` over the experiments' tick phases, as `seeds-claims`"),
    "e7-claims-tcg": (fig_e7_claims_tcg, "E7's claims on 2 vCPUs (`tools/experiments/e7.ini`: "
                      "interleaved rounds until each pair's 95% CI of shrinkers visited per "
                      "second is at most 10% wide, 5 to 20), checked by `tools/irqlab`: B's "
                      "mean change against A, Welch's t-test at 5%, the sign, and each "
                      "mechanism count"),
    "seeds-claims-tcg": (fig_seeds_claims_tcg, "the claims of `tools/experiments/e2.ini` "
                         "(rounds until each 95% CI is at most 5% wide, or 30) and "
                         "`e2_lockstat.ini` (5 runs a side) on 2 vCPUs, checked by "
                         "`tools/irqlab`: B's mean change against A, Welch's t-test at "
                         "5%, the sign, and each mechanism count"),
    "files-openers": (fig_files_openers, "`run=files` (4 rounds of 1000 dentries and "
                      "1000 inodes, freed by call_rcu()) under the irqsoff tracer: the slab "
                      "code's IRQ-off openers by total time, top 5 per kernel, and the "
                      "workload's counts"),
    "seeds-tcg": (fig_seeds_tcg, "the seeds' experiments (`tools/experiments/eN.ini` as "
                  "`make experiment-seeds` runs them: interleaved rounds until each "
                  "difference's 95% CI is narrow enough or a cap, n per cell, mean or, "
                  "for a maximum, median; Welch's t-test or Mann-Whitney U at 5%)"),
}


def provenance(name, mode, commit, attrs=None):
    base = (attrs or {}).get("base")
    at = f"at commits {base} and {commit}" if base else f"at commit {commit}"
    return (f"*Generated by `make figures` (`{name}`): {FIGURES[name][1]}; "
            f"{MODES[mode]}, {at}." +
            (" `make check-figures` reruns it.*" if mode in RECHECKED else
             " Timed, so not rechecked.*"))


def render(name, run, mode, commit, attrs=None):
    if name not in FIGURES:
        raise FigureError(f"figures:{name}: no such figure (known: {', '.join(FIGURES)})")
    fn = FIGURES[name][0]
    if getattr(fn, "wants_attrs", False):
        body = fn(run, mode, dict(attrs or {}, commit=commit))
    else:
        body = fn(run, mode)
    return [provenance(name, mode, commit, attrs), ""] + body


# ---------------------------------------------------------------- check and write

NUM_RE = re.compile(r"-?\d+(?:\.\d+)?")


def stale_values(block, fresh):
    """Messages naming each documented line whose values differ from the rerun."""
    msgs = []
    old, new = block.body, fresh
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else "(missing)"
        b = new[i] if i < len(new) else "(missing)"
        if a == b:
            continue
        na, nb = NUM_RE.findall(a), NUM_RE.findall(b)
        diffs = [f"documented {x}, measured {y}" for x, y in zip(na, nb) if x != y]
        what = "; ".join(diffs) if diffs else "text differs"
        msgs.append(f"{os.path.relpath(block.path, ROOT)}:{block.begin + 2 + i}: "
                    f"figures:{block.name} (mode={block.mode}, commit={block.commit}) "
                    f"is stale: {what}\n    documented: {a}\n    measured:   {b}")
    return msgs


def doc_files():
    return [os.path.join(ROOT, "README.md")] + \
        sorted(glob.glob(os.path.join(ROOT, "Documentation", "*.md")))


def head_commit():
    try:
        h = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no",
                                "--", ".", ":(exclude)*.md"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "0000000"
    return h + ("-dirty" if dirty else "")


def load(files):
    out = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        out.append((path, text, parse_blocks(path, text)))
    return out


def cmd_check(docs, names, run, out):
    stale, checked, skipped = [], 0, 0
    for path, _, blocks in docs:
        for b in blocks:
            if names and b.name not in names:
                continue
            if b.mode not in RECHECKED:
                print(f"{b.where()}: figures:{b.name}: mode={b.mode}, commit={b.commit}: "
                      "timed, not rechecked", file=out)
                skipped += 1
                continue
            fresh = render(b.name, run, b.mode, b.commit, b.attrs)
            msgs = stale_values(b, fresh)
            checked += 1
            stale += msgs
            print(f"{b.where()}: figures:{b.name}: " + ("STALE" if msgs else "current"),
                  file=out)
    for m in stale:
        print(m, file=out)
    print(f"check-figures: {checked} block(s) rechecked, {skipped} timed block(s) not "
          f"rechecked, {len(stale)} stale line(s)", file=out)
    return 1 if stale else 0


def cmd_write(docs, names, run, mode_filter, out):
    commit = head_commit()
    for path, text, blocks in docs:
        lines = text.split("\n")
        for b in reversed(blocks):
            if (names and b.name not in names) or (mode_filter and b.mode not in mode_filter):
                continue
            body = render(b.name, run, b.mode, commit, b.attrs)
            extra = "".join(f" {k}={v}" for k, v in b.attrs.items()
                            if k not in ("mode", "commit"))
            lines[b.begin:b.end + 1] = ([f"<!-- figures:{b.name} begin mode={b.mode} "
                                         f"commit={commit}{extra} -->"] + body +
                                        [f"<!-- figures:{b.name} end -->"])
            print(f"{b.where()}: figures:{b.name}: written at {commit}", file=out)
        new = "\n".join(lines)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    return 0


def main(argv, out=sys.stdout):
    ap = argparse.ArgumentParser(prog="figures.py", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("write", "check", "list"))
    ap.add_argument("names", nargs="*", help="figure names (default: every block)")
    ap.add_argument("--logs", help="render from DIR/<tag>.log instead of booting")
    ap.add_argument("--docs", nargs="+", help="markdown files (default: README.md, "
                    "Documentation/*.md)")
    ap.add_argument("--modes", help="write only blocks of these modes, e.g. icount "
                    "(default: all)")
    args = ap.parse_args(argv)
    for n in args.names:
        if n not in FIGURES:
            print(f"figures: no figure named {n} (known: {', '.join(FIGURES)})",
                  file=sys.stderr)
            return 2
    try:
        docs = load(args.docs or doc_files())
    except (OSError, FigureError) as e:
        print(f"figures: {e}", file=sys.stderr)
        return 2
    for _, _, blocks in docs:
        for b in blocks:
            if b.name not in FIGURES:
                print(f"figures: {b.where()}: figures:{b.name}: no such figure "
                      f"(known: {', '.join(FIGURES)})", file=sys.stderr)
                return 2
    if args.command == "list":
        for _, _, blocks in docs:
            for b in blocks:
                print(f"{b.where()}: figures:{b.name} mode={b.mode} commit={b.commit}",
                      file=out)
        return 0
    run = Runner(logs=args.logs)
    try:
        if args.command == "check":
            return cmd_check(docs, args.names, run, out)
        modes = args.modes.split(",") if args.modes else None
        return cmd_write(docs, args.names, run, modes, out)
    except (FigureError, subprocess.CalledProcessError) as e:
        print(f"figures: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
