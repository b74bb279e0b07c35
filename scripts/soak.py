#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make soak: run=soak on each soak configuration, side by side.

Each configuration (default: soak = PREEMPT_RT + lockdep, soak_kasan =
PREEMPT_RT + KASAN; both with SLUB_CPU_PARTIAL, SLUB_DEBUG, FAILSLAB and
FAIL_PAGE_ALLOC) boots once under QEMU with run=soak soak.seconds=<60 *
minutes>.  The soak runs in guest time, measured by the kernel; this script
enforces the wall-clock cap (scripts/qemu.py --timeout: the soak's minutes
times 1.5 plus 5 minutes for boot, warm-up and the last walk).  A boot
passes when the guest's verdict (isa-debug-exit) is a pass, its "soak"
record says ok, and its records are complete (scripts/records.py).

Prints one verdict line per configuration and one overall; exits 0 when
all passed, 1 when one failed, 2 on bad arguments or a build that failed.
Logs: <out>/<config>.log.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_MIN = 7 * 24 * 60


def minutes_arg(text):
    try:
        v = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"SOAK_MIN={text!r}: not a whole number of minutes")
    if not 1 <= v <= MAX_MIN:
        raise argparse.ArgumentTypeError(f"SOAK_MIN={v}: must be 1..{MAX_MIN} minutes")
    return v


def seconds_arg(text):
    try:
        v = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: not a whole number of seconds")
    if not 10 <= v <= MAX_MIN * 60:
        raise argparse.ArgumentTypeError(f"{v}: must be 10..{MAX_MIN * 60} seconds")
    return v


def verdict(config, rc, log_lines, elapsed):
    """(ok, line) for one boot."""
    recs = records.parse(log_lines)
    soak = recs.of_type("soak")
    problems = recs.problems
    why = []
    if rc != 0:
        why.append({1: "guest failure", 2: "no verdict (timeout or crash)",
                    3: "could not run"}.get(rc, f"qemu.py exit {rc}"))
    if not soak:
        why.append("no soak record")
    elif not soak[-1].get("ok"):
        why.append("soak record says fail")
    if problems:
        why.append(f"{len(problems)} record problem(s): {problems[0]}")
    s = soak[-1] if soak else {}
    figures = (f"{s.get('s', '?')} s guest, {s.get('ops', '?')} ops, "
               f"{s.get('inj_s', '?')}+{s.get('inj_p', '?')} injected failures, "
               f"{s.get('hotplug', '?')} hotplug cycles, {s.get('walks', '?')} walks, "
               f"corrupt {s.get('corrupt', '?')}, lockdep {s.get('lockdep', '?')}, "
               f"kasan {s.get('kasan', '?')}, lost {s.get('lost', '?')}, "
               f"objs {s.get('objs', '?')}, pages {s.get('pages', '?')} "
               f"(kernel tables {s.get('tables', '?')})")
    ok = not why
    line = (f"soak: {config}: {'PASS' if ok else 'FAIL'}: {figures}; "
            f"{elapsed:.0f} s wall" + ("" if ok else f" ({'; '.join(why)})"))
    return ok, line


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=minutes_arg, default=60)
    ap.add_argument("--seconds", type=seconds_arg,
                    help="guest seconds instead of --minutes (short runs)")
    ap.add_argument("--configs", default="soak,soak_kasan")
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--mem", default="256M")
    ap.add_argument("--extra", default="", help="more kernel parameters")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "soak-logs"))
    ap.add_argument("--no-build", action="store_true")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if a.smp < 2:
        print("soak: SMP must be at least 2 (CPU hotplug churn)", file=sys.stderr)
        return 2
    seconds = a.seconds or a.minutes * 60
    cap = int(seconds * 1.5) + 300
    configs = [c for c in a.configs.split(",") if c]
    for c in configs:
        if not os.path.exists(os.path.join(ROOT, "configs", f"{c}_defconfig")):
            print(f"soak: no configs/{c}_defconfig", file=sys.stderr)
            return 2
    os.makedirs(a.out, exist_ok=True)
    if not a.no_build:
        for c in configs:
            if subprocess.call(["make", "-s", "-j2", f"CONFIG={c}", "build"], cwd=ROOT):
                print(f"soak: {c}: build failed", file=sys.stderr)
                return 2
    cmdline = f"run=soak soak.seconds={seconds} {a.extra}".strip()
    print(f"soak: {', '.join(configs)} side by side, SMP={a.smp}, {seconds} s of guest time "
          f"each, wall-clock cap {cap} s: {cmdline}", flush=True)
    procs = []
    for c in configs:
        log = os.path.join(a.out, f"{c}.log")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "qemu.py"), "run",
               "--kernel", os.path.join(ROOT, "build", c, "kernel.elf"),
               "--smp", str(a.smp), "--mem", a.mem, "--icount", "0",
               "--cmdline", cmdline, "--serial-file", log, "--timeout", str(cap)]
        procs.append((c, log, time.monotonic(), subprocess.Popen(cmd)))
    all_ok = True
    for c, log, t0, p in procs:
        rc = p.wait()
        lines = records.read_log(log, sys.stderr) or []
        ok, line = verdict(c, rc, lines, time.monotonic() - t0)
        all_ok &= ok
        print(line, flush=True)
    print(f"soak: {'PASS' if all_ok else 'FAIL'} ({len(procs)} configuration(s); logs in {a.out})")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
