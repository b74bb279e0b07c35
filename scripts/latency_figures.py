#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The measurement issue's figures, as one markdown report (make latency-figures).

For the post-series (default, rt_trace) and pre-series (legacy,
rt_legacy_trace) ports:
the longest IRQ-off window opened by slab code and by the page allocator
under hackbench and under slabbench's bulk calls (icount, SMP=1: exact
instruction counts; TCG, SMP=2: contention, host noise included); cyclic's
maximum latency idle and under hackbench; and the irqsoff tracer's cost as
hackbench's time with the irqsoff tracer (default, legacy), with both
tracers (trace, legacy_trace, rt_trace, rt_legacy_trace) and without
(notrace, legacy_notrace, rt, rt_legacy), each against its own port's
build without tracers, with the irqsoff tracer's cost per transition.

Every figure comes from the @irqlab records of the boot's serial log, after
their CRCs are checked (scripts/records.py).  Logs are kept in
build/figures/.  Usage: latency_figures.py [--jobs N] [--quick]
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


# The tracer-cost table: per port, the build without tracers first.
COST_ROWS = [
    ("post-series, !RT", [("notrace", "none"), ("default", "irqsoff"),
                          ("trace", "irqsoff + preemptoff")]),
    ("pre-series, !RT", [("legacy_notrace", "none"), ("legacy", "irqsoff"),
                         ("legacy_trace", "irqsoff + preemptoff")]),
    ("post-series, RT", [("rt", "none"), ("rt_trace", "irqsoff + preemptoff")]),
    ("pre-series, RT", [("rt_legacy", "none"), ("rt_legacy_trace", "irqsoff + preemptoff")]),
]


def build(config):
    subprocess.run(["make", "-s", f"-j{os.cpu_count() or 2}", f"CONFIG={config}"],
                   cwd=ROOT, check=True)


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
    with open(log, "rb") as f:
        lines = f.read().decode("utf-8", "replace").splitlines()
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
    for c in dict.fromkeys([p[0] for p in ports] + ["rt"] +
                           [c for _, rows in COST_ROWS for c, _ in rows]):
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
    print("Each port against its own build without tracers; the per-transition cost "
          "is the lat_cost record's (traced - raw) / 2 per local_irq_save+restore pair.\n")
    print("| port | build | tracers | time (ns) | vs no tracer | irqsoff per transition |")
    print("|---|---|---|---|---|---|")
    for port, rows in COST_ROWS:
        base = None
        for cfg, what in rows:
            recs = boot(cfg, HACKBENCH, 1, True, f"{cfg}-cost")
            t = recs.of_type("hackbench")[0]["time_ns"]
            base = base or t
            cost = recs.of_type("lat_cost")
            per = "-"
            c = cost[-1] if cost else {}
            if c.get("loops") and "irq_pair_traced" in c and "irq_pair_raw" in c:
                per = f"{(c['irq_pair_traced'] - c['irq_pair_raw']) / c['loops'] / 2:.2f}"
            print(f"| {port} | {cfg} | {what} | {t} | {(t / base - 1) * 100:+.2f}% | {per} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
