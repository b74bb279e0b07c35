#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The executed path of SLUB's fast-path alloc+free pair, per preset (make ktrace-paths).

For each configuration (default, legacy, rt unless --configs says
otherwise): build it, boot it under QEMU icount at SMP=1 with
`run=slabbench slabbench.trace_pair=1`, and turn ktrace's output into
markdown: per traced pair a function-by-function table (instructions,
callees only; the calling function's share apart), the total, the icount
clock's count of the same call, and the full path (every instruction as
function+offset).  Figures come from the checked @irqlab records; the path
from the ktrace lines.  The report names the commit and the mode.

Usage: ktrace_paths.py [--configs default,legacy,rt] [--out FILE]
Exit status 1 when a boot fails, a record is missing or corrupt, or a
trace is invalid (overflow, TF lost, trace and clock disagree).
"""
import argparse
import os
import re
import subprocess
import sys
import importlib.util

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "ktrace")
CMDLINE = "run=slabbench slabbench.trace_pair=1"
PAIRS = (("cache_pair", "kmem_cache_alloc() + kmem_cache_free(), 256-byte cache"),
         ("kmalloc_pair", "kmalloc(256) + kfree(), size not a constant"))

spec = importlib.util.spec_from_file_location("irqlab_records",
                                              os.path.join(ROOT, "scripts", "records.py"))
records = importlib.util.module_from_spec(spec)
spec.loader.exec_module(records)


def fail(msg):
    sys.exit(f"ktrace_paths: {msg}")


def build(config):
    p = subprocess.run(["make", "-s", f"CONFIG={config}"], cwd=ROOT)
    if p.returncode:
        fail(f"{config}: build failed")


def boot(config):
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, f"{config}.log")
    argv = ["qemu-system-x86_64", "-machine", "pc", "-accel", "tcg", "-cpu", "max",
            "-icount", "shift=0,sleep=off", "-rtc", "clock=vm",
            "-smp", "1", "-m", "256M", "-no-reboot", "-display", "none",
            "-monitor", "none", "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
            "-serial", f"file:{log}", "-kernel",
            os.path.join(ROOT, "build", config, "kernel.elf"), "-append", CMDLINE]
    try:
        status = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                timeout=300).returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
    with open(log, "rb") as f:
        lines = f.read().decode("utf-8", "replace").splitlines()
    recs = records.parse(lines)
    if status != 1 or recs.problems:
        fail(f"{config}: QEMU status {status}, record problems "
             f"{recs.problems or 'none'} (log {log})")
    return lines, recs


def path_lines(lines, name):
    """The path block of trace @name: its 'ktrace:    N: fn +off...' lines."""
    out, inside = [], False
    for line in lines:
        m = re.search(r"ktrace: (.*)$", line)
        if not m:
            continue
        text = m.group(1)
        if text.startswith(f"{name}: path"):
            inside = True
        elif inside and re.match(r"\s*\d+: ", text):
            out.append(text.strip())
        elif inside:
            break
    return out


def pair_section(config, lines, recs, name, what):
    total = [r for r in recs.of_type("ktrace") if r.get("name") == name]
    sb = [r for r in recs.of_type("slabbench") if r.get("name") == f"trace_{name}"]
    fns = [r for r in recs.of_type("ktrace_fn") if r.get("name") == name]
    if len(total) != 1 or len(sb) != 1 or not fns:
        fail(f"{config}: records of trace {name} missing")
    t, s = total[0], sb[0]
    if not t.get("valid") or not s.get("valid"):
        fail(f"{config}: trace {name} is invalid (overflow or TF lost)")
    if s["clock_ticks"] != t["insns"]:
        fail(f"{config}: trace {name}: {t['insns']} traced but the icount clock "
             f"counted {s['clock_ticks']}")
    caller = s["caller_insns"]
    out = [f"#### {config}: {what}", "",
           f"Pair: **{s['pair_insns']}** instructions (callees only); the calling "
           f"function adds {caller}; traced {t['insns']}, icount clock {s['clock_ticks']} "
           f"(equal); {t['irqs_off']} with IRQs off, {t['preempt_off']} with preemption off, "
           f"{t['interrupts']} interrupts.", "",
           "| function | instructions |", "|---|---:|"]
    for r in fns:
        out.append(f"| `{r['fn']}` | {r['insns']} |")
    out += [f"| **total** (with the caller) | **{t['insns']}** |", "",
            "<details><summary>path (step: function +offset..., * IRQs off, ' preemption off)</summary>",
            "", "```"] + path_lines(lines, name) + ["```", "", "</details>", ""]
    return s["pair_insns"], out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="default,legacy,rt")
    ap.add_argument("--out", help="write the markdown here (default: stdout)")
    args = ap.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    for c in configs:
        if not os.path.exists(os.path.join(ROOT, "configs", f"{c}_defconfig")):
            fail(f"no configs/{c}_defconfig")
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "unknown"
    qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                          text=True).stdout.splitlines()[0]
    body, summary = [], []
    for c in configs:
        build(c)
        lines, recs = boot(c)
        row = [c]
        for name, what in PAIRS:
            pair, sec = pair_section(c, lines, recs, name, what)
            row.append(str(pair))
            body += sec
        summary.append(row)
    out = ["### The executed path of an alloc+free pair",
           "",
           f"Commit {commit}; {qemu}; mode: icount (`-icount shift=0,sleep=off`), SMP=1, "
           f"`{CMDLINE}`, made by `make ktrace-paths`.  Instructions per pair on the "
           "warm fast path, callees only (the loop or calling function excluded).",
           "",
           "| config | " + " | ".join(n for n, _ in PAIRS) + " |",
           "|---|" + "---:|" * len(PAIRS)]
    out += ["| " + " | ".join(r) + " |" for r in summary]
    out += [""] + body
    text = "\n".join(out) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
