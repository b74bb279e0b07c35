#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The measurement issue's figures, as one markdown report (make latency-figures).

For the post-series (default, rt_trace) and pre-series (legacy,
rt_legacy_trace) ports:
the longest IRQ-off window opened by slab code and by the page allocator
under hackbench and under slabbench's bulk calls (icount, SMP=1: exact
instruction counts; TCG, SMP=2: contention, host noise included); cyclic's
maximum latency idle and under hackbench; and the irqsoff tracer's cost as
hackbench's time with the tracer built in (default), with both tracers
(trace) and without (notrace), under icount.

Every figure comes from the @irqlab records of the boot's serial log, after
their CRCs are checked (scripts/records.py).  Logs are kept in
build/figures/.  Usage: latency_figures.py [--jobs N] [--quick]
The report is the only thing on stdout (make's output goes to stderr); any
failure is one line on stderr and exit status 1.
"""
import argparse
import os
import subprocess
import sys
import importlib.util

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "figures")

spec = importlib.util.spec_from_file_location("irqlab_records",
                                              os.path.join(ROOT, "scripts", "records.py"))
records = importlib.util.module_from_spec(spec)
spec.loader.exec_module(records)

HACKBENCH = "run=hackbench hackbench.groups=2 hackbench.loops=20"
SLABBENCH = "run=slabbench slabbench.loops=200 slabbench.sizes=16,250"
CYCLIC = "run=cyclic cyclic.loops=1000"
CYCLIC_LOADED = "run=cyclic,hackbench cyclic.loops=1000 hackbench.groups=2 hackbench.loops=20"


def build(config):
    """Build @config; make's output goes to stderr, stdout is the report alone."""
    try:
        p = subprocess.run(["make", "-s", f"-j{os.cpu_count() or 2}", f"CONFIG={config}"],
                           cwd=ROOT, stdout=sys.stderr.fileno())
    except OSError as e:
        sys.exit(f"latency_figures: cannot run make: {e.strerror}")
    if p.returncode:
        sys.exit(f"latency_figures: building {config} failed (make status {p.returncode})")


def boot(config, cmdline, smp, icount, tag, timeout=600):
    """Boot once; return the checked records of the log."""
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, f"{tag}.log")
    argv = ["qemu-system-x86_64", "-machine", "q35", "-accel", "tcg", "-cpu", "max",
            "-smp", str(smp), "-m", "512M", "-no-reboot", "-display", "none",
            "-monitor", "none", "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
            "-serial", f"file:{log}", "-kernel",
            os.path.join(ROOT, "build", config, "kernel.elf"), "-append", cmdline]
    if icount:
        argv[5:5] = ["-icount", "shift=0,sleep=off", "-rtc", "clock=vm"]
    try:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
    except OSError as e:
        sys.exit(f"latency_figures: cannot run {argv[0]}: {e.strerror}")
    try:
        with open(log, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError as e:
        sys.exit(f"latency_figures: {tag}: no serial log {log}: {e.strerror} "
                 f"(QEMU status {status})")
    recs = records.parse(lines)
    if status != 1 or recs.problems:
        sys.exit(f"latency_figures: {tag}: QEMU status {status}, record problems "
                 f"{recs.problems or 'none'} (log {log})")
    return recs


def subsys(recs, code):
    for r in recs.of_type("lat_subsys"):
        if r.get("tracer") == "irqsoff" and r.get("code") == code:
            return r
    return {}


def window(r):
    if not r:
        return "no record"
    if not r.get("windows"):
        return "none (0 windows)"
    return f"{r['max_ns']} ({r['start']} .. {r['end']}), {r['windows']} windows"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="icount figures only")
    args = ap.parse_args(argv)
    # The RT presets leave the tracers out; their _trace twins have both.
    ports = [("default", "post-series (5.15), !RT"), ("legacy", "pre-series (5.13), !RT"),
             ("rt_trace", "post-series, RT"), ("rt_legacy_trace", "pre-series (5.13-rt), RT")]
    for c in [p[0] for p in ports] + ["rt", "notrace", "trace"]:
        build(c)

    print("## Longest IRQ-off window opened by slab code (ns; start .. end)\n")
    print("| port | workload | clock | slab | page allocator |")
    print("|---|---|---|---|---|")
    modes = [(1, True, "icount SMP=1")] + ([] if args.quick else [(2, False, "TCG SMP=2")])
    for cfg, name in ports:
        for wl, cmd in (("hackbench", HACKBENCH), ("slabbench bulk", SLABBENCH)):
            for smp, icount, clock in modes:
                tag = f"{cfg}-{wl.split()[0]}-{'icount' if icount else 'tcg'}"
                recs = boot(cfg, cmd, smp, icount, tag)
                print(f"| {name} | {wl} | {clock} | {window(subsys(recs, 'slab'))} | "
                      f"{window(subsys(recs, 'page_alloc'))} |")

    print("\n## cyclic: maximum latency, thread level (ns)\n")
    print("| configuration | clock | idle | under hackbench |")
    print("|---|---|---|---|")
    for cfg in ("default", "rt"):
        for smp, icount, clock in modes:
            extra = "" if smp == 1 else " cyclic.cpus=1"
            row = []
            for cmd, what in ((CYCLIC, "idle"), (CYCLIC_LOADED, "loaded")):
                tag = f"{cfg}-cyclic-{what}-{'icount' if icount else 'tcg'}"
                cyc = boot(cfg, cmd + extra, smp, icount, tag).of_type("cyclic")
                row.append(str(max(c["thread_ns"][2] for c in cyc)) if cyc else "-")
            print(f"| {cfg} | {clock} | {row[0]} | {row[1]} |")

    print("\n## Tracer cost: hackbench time, icount SMP=1\n")
    print("| build | tracers | time (ns) | vs notrace |")
    print("|---|---|---|---|")
    base = None
    for cfg, what in (("notrace", "none"), ("default", "irqsoff"),
                      ("trace", "irqsoff + preemptoff")):
        hb = boot(cfg, HACKBENCH, 1, True, f"{cfg}-cost").of_type("hackbench")
        t = hb[0]["time_ns"]
        base = base or t
        print(f"| {cfg} | {what} | {t} | {t / base:.3f} |")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:		# latency_figures.py | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except KeyboardInterrupt:
        sys.exit("latency_figures: interrupted")
