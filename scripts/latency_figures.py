#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The measurement issue's figures, as one markdown report (make latency-figures).

For the post-series (default, rt_trace) and pre-series (legacy,
rt_legacy_trace) ports:
the longest IRQ-off window opened by slab code and by the page allocator
under hackbench and under slabbench's bulk calls (icount, SMP=1: exact
instruction counts; TCG, SMP=2: contention, host noise included); cyclic's
maximum latency idle and under hackbench; and the tracers' cost as
hackbench's time with the irqsoff tracer built in (default, legacy,
rt_irqsoff), with both tracers (trace, legacy_trace, rt_trace) and without
(notrace, legacy_notrace, rt), under icount.

The tables are scripts/figures.py's (latency-windows, latency-cyclic,
tracer-cost), the same that `make figures` writes into
Documentation/results.md; every figure comes from the @irqlab records of the
boot's serial log, after their CRCs are checked (scripts/records.py).  Logs
are kept in build/figures/docs/.  Usage: latency_figures.py [--quick]
"""
import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

spec = importlib.util.spec_from_file_location("irqlab_figures",
                                              os.path.join(ROOT, "scripts", "figures.py"))
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)

TABLES = [("latency-windows", "Longest IRQ-off window opened by slab code (ns)"),
          ("latency-cyclic", "cyclic: maximum latency, thread level (ns)"),
          ("tracer-cost", "Tracer cost: hackbench time")]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="icount figures only")
    args = ap.parse_args(argv)
    run = figures.Runner()
    commit = figures.head_commit()
    # The tracer's cost is a ratio of times: only icount makes it exact.
    modes = ["icount"] + ([] if args.quick else ["tcg"])
    try:
        for name, title in TABLES:
            for mode in modes if name != "tracer-cost" else ["icount"]:
                table = figures.render(name, run, mode, commit)
                print(f"## {title}, {figures.MODES[mode]}\n")
                print("\n".join(table) + "\n")
    except (figures.FigureError, figures.subprocess.CalledProcessError) as e:
        sys.exit(f"latency_figures: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
