#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot cost against vCPUs and RAM: the `make scale` table.

Boots the kernel (scripts/qemu.py) once per point of two axes and reads the
"mem_used" record every boot prints when it is over (mm/page_alloc_debug.c,
checked by scripts/records.py):

  vCPUs  1, 2, 4, ... 64 at a fixed RAM (--cpu-mem, default 1G), plain TCG:
         boot time is the guest's clock, wall time on a busy host (noisy);
         the memory columns are exact.
  RAM    128M, 256M, ... 64G at SMP=1 under icount: the guest's clock counts
         instructions, so "boot" is an exact, repeatable instruction count.

For each row the table gives the boot time and the memory the kernel holds
(RAM minus the free pages), split into memory map, per-CPU areas, page
tables, slab and the rest, the IPIs boot took (its cross-CPU handshakes: a
count the host's speed does not change), and the growth per doubling of the axis: x2.00
is linear, less is linear plus a fixed part, more is worse than linear and
is flagged with '!' (beyond --tolerance).  Documentation/scale.md explains
the figures.

Exit status: 0 every boot passed and gave its record; 1 a boot failed, lost
records or printed none; 2 bad arguments.
"""
import argparse
import importlib.util
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


qemu = _load("irqlab_qemu_scale", "scripts/qemu.py")
records = _load("irqlab_records_scale", "scripts/records.py")

CPUS = [1, 2, 4, 8, 16, 32, 64]
RAM = ["128M", "256M", "512M", "1G", "2G", "4G", "8G", "16G", "32G", "64G"]
# nowatchdog: under TCG a vCPU thread the busy host leaves unscheduled for
# 20 s looks like a soft lockup to the guest, and such a report fails the
# boot; a boot-cost measurement has no use for the detectors.  trace=none:
# no latency tracer, whose per-CPU report at the end takes minutes at 64
# vCPUs under TCG.
CMDLINE = "run=ktest ktest.filter=boot nowatchdog trace=none"
PARTS = ("memmap_kb", "percpu_kb", "pgtable_kb", "slab_kb")
NEEDED = ("cpus", "ram_kb", "used_kb", "boot_ns") + PARTS


class ScaleError(Exception):
    pass


def parse_list(text, kind):
    """'1,2,4' (CPUs) or '128M,1G' (RAM) -> list; ValueError with a clear message."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise ValueError(f"empty {kind} list")
    out = []
    for t in items:
        if kind == "cpus":
            out.append(qemu.parse_smp(t))
        else:
            out.append(qemu.parse_mem(t))
    return out


def mem_used(lines, name):
    """The one mem_used record of a boot's log; ScaleError when records were lost or
    the record is missing or incomplete."""
    recs = records.parse(lines)
    if recs.problems:
        raise ScaleError(f"{name}: records damaged: " + "; ".join(recs.problems))
    found = recs.of_type("mem_used")
    if len(found) != 1:
        raise ScaleError(f"{name}: {len(found)} mem_used records (want 1)")
    rec = found[0]
    missing = [k for k in NEEDED if not isinstance(rec.get(k), int)]
    if missing:
        raise ScaleError(f"{name}: mem_used record lacks " + ", ".join(missing))
    return rec


def boot(kernel, smp, mem, icount, log, timeout, tcg_thread="single"):
    """One boot into `log`; its mem_used record."""
    p = qemu.Params(kernel=kernel, smp=smp, mem=mem, accel="tcg",
                    icount=1 if icount else 0, machine="q35", cmdline=CMDLINE,
                    tcg_thread=tcg_thread)
    res = qemu.run(p, serial_file=log, timeout=timeout, note=False)
    name = os.path.basename(log)
    if not res.verdict.passed:
        raise ScaleError(f"{name}: boot did not pass: {res.verdict.reason}")
    with open(log, errors="replace") as f:
        rec = mem_used(f.read().splitlines(), name)
    return rec, res.elapsed


def growth(values):
    """Ratios value[i] / value[i-1] (None for the first or a zero divisor)."""
    out = [None]
    for a, b in zip(values, values[1:]):
        out.append(b / a if a else None)
    return out


def fmt_growth(r, tolerance):
    if r is None:
        return ""
    return f"x{r:.2f}" + (" !" if r > 2.0 * tolerance else "")


def other_kb(rec):
    return max(rec["used_kb"] - sum(rec[k] for k in PARTS), 0)


def table(axis, rows, tolerance):
    """Markdown table of one axis; rows are (label, rec, wall_s)."""
    icount = axis == "ram"
    head = ("RAM" if icount else "vCPUs",
            "boot (M insns)" if icount else "boot (ms, TCG)", "growth",
            "kernel holds (KiB)", "growth", "memory map", "per-CPU", "page tables",
            "slab", "other", "IPIs")
    boots = [r["boot_ns"] for _, r, _ in rows]
    used = [r["used_kb"] for _, r, _ in rows]
    gb, gu = growth(boots), growth(used)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, (label, r, _) in enumerate(rows):
        t = f"{r['boot_ns'] / 1e6:.1f}" if icount else f"{r['boot_ns'] / 1e6:.0f}"
        cells = (label, t, fmt_growth(gb[i], tolerance), str(r["used_kb"]),
                 fmt_growth(gu[i], tolerance), str(r["memmap_kb"]), str(r["percpu_kb"]),
                 str(r["pgtable_kb"]), str(r["slab_kb"]), str(other_kb(r)),
                 str(r["ipis"]) if isinstance(r.get("ipis"), int) else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def worse_than_linear(axis, rows, tolerance):
    """Human lines for every step whose boot time or memory more than doubled."""
    out = []
    for what, key in (("boot", "boot_ns"), ("kernel memory", "used_kb")):
        vals = [r[key] for _, r, _ in rows]
        for i, g in enumerate(growth(vals)):
            if g is not None and g > 2.0 * tolerance:
                out.append(f"{axis} {rows[i - 1][0]} -> {rows[i][0]}: {what} x{g:.2f}")
    return out


def render(cpu_rows, ram_rows, cpu_mem, tolerance, config, tcg_thread="single"):
    out = []
    threads = ("one TCG thread for all vCPUs" if tcg_thread == "single"
               else "a TCG thread per vCPU")
    if cpu_rows:
        out += [f"vCPUs axis: `{config}`, q35, {cpu_mem} RAM, plain TCG, {threads} (boot time is the "
                "guest clock under host load: noisy; memory is exact), "
                f"command line `{CMDLINE}`.", ""]
        out += table("cpus", cpu_rows, tolerance) + [""]
    if ram_rows:
        out += [f"RAM axis: `{config}`, q35, SMP=1, icount (boot = guest instructions "
                "until the mem_used record: exact), "
                f"command line `{CMDLINE}`.", ""]
        out += table("ram", ram_rows, tolerance) + [""]
    worse = (worse_than_linear("vCPUs", cpu_rows, tolerance) +
             worse_than_linear("RAM", ram_rows, tolerance))
    out.append("Steps worse than linear (growth above x%.2f): %s" %
               (2.0 * tolerance, "; ".join(worse) if worse else "none"))
    return out


def label_of(axis, v):
    return str(v)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="default", help="kernel configuration (built)")
    ap.add_argument("--cpus", default=",".join(map(str, CPUS)),
                    help="vCPU counts (default 1,2,...,64); '' skips the axis")
    ap.add_argument("--ram", default=",".join(RAM),
                    help="RAM sizes (default 128M,...,64G); '' skips the axis")
    ap.add_argument("--cpu-mem", default="1G", help="RAM of the vCPUs axis (default 1G)")
    ap.add_argument("--out", default=os.path.join("build", "scale"),
                    help="directory for the logs, scale.md and scale.json")
    ap.add_argument("--logs", help="render from the logs of an earlier run in this "
                    "directory (cpus-N.log, ram-S.log) instead of booting")
    ap.add_argument("--tolerance", type=float, default=1.05,
                    help="growth per doubling above 2 x this is flagged (default 1.05)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per boot")
    ap.add_argument("--tcg-thread", default="single", choices=qemu.TCG_THREADS,
                    help="vCPUs axis: single (default: one TCG thread runs the vCPUs in "
                    "turn) or multi (a thread per vCPU; on a busy host QEMU's big lock "
                    "makes many-vCPU boots take minutes)")
    a = ap.parse_args(argv)
    try:
        cpus = parse_list(a.cpus, "cpus") if a.cpus.strip() else []
        ram = parse_list(a.ram, "ram") if a.ram.strip() else []
        cpu_mem = qemu.parse_mem(a.cpu_mem)
    except (ValueError, qemu.ParamError) as e:
        print(f"scale.py: {e}", file=sys.stderr)
        return 2
    if a.tolerance < 1.0:
        print("scale.py: --tolerance must be at least 1.0", file=sys.stderr)
        return 2
    kernel = os.path.join(ROOT, "build", a.config, "kernel.elf")
    if not a.logs and not os.path.exists(kernel):
        print(f"scale.py: {kernel} not built (make build CONFIG={a.config})", file=sys.stderr)
        return 2
    logdir = a.logs or os.path.join(a.out, "logs")
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(logdir, exist_ok=True)
    points = [("cpus", n, f"cpus-{n}.log") for n in cpus] + \
             [("ram", m, f"ram-{m}.log") for m in ram]
    cpu_rows, ram_rows, failures = [], [], []
    for axis, v, logname in points:
        log = os.path.join(logdir, logname)
        try:
            if a.logs:
                with open(log, errors="replace") as f:
                    rec = mem_used(f.read().splitlines(), logname)
                wall = None
            else:
                smp, mem = (v, cpu_mem) if axis == "cpus" else (1, v)
                print(f"scale: {axis} {v}: booting SMP={smp} MEM={mem} "
                      f"({'icount' if axis == 'ram' else 'TCG'})", file=sys.stderr, flush=True)
                rec, wall = boot(kernel, smp, mem, axis == "ram", log, a.timeout,
                                 a.tcg_thread)
        except (ScaleError, OSError, qemu.ParamError) as e:
            failures.append(str(e))
            print(f"scale: {e}", file=sys.stderr)
            continue
        want_cpus = v if axis == "cpus" else 1
        if rec["cpus"] != want_cpus:
            failures.append(f"{logname}: {rec['cpus']} CPUs, want {want_cpus}")
            continue
        (cpu_rows if axis == "cpus" else ram_rows).append((label_of(axis, v), rec, wall))
    lines = render(cpu_rows, ram_rows, cpu_mem, a.tolerance, a.config, a.tcg_thread)
    if failures:
        lines += ["", "Failed points: " + "; ".join(failures)]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(a.out, "scale.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "scale.json"), "w") as f:
        json.dump({"cpus": [dict(r, label=lbl) for lbl, r, _ in cpu_rows],
                   "ram": [dict(r, label=lbl) for lbl, r, _ in ram_rows],
                   "failures": failures}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
