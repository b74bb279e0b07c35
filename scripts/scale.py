#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot cost against vCPUs and RAM: the `make scale` table.

Boots the kernel (scripts/qemu.py) per point of two axes and reads the
"mem_used" record every boot prints when it is over (mm/page_alloc_debug.c,
checked by scripts/records.py):

  vCPUs  1, 2, 4, ... 64 at a fixed RAM (--cpu-mem, default 1G), three boots
         a point:
         - icount, SMP=N (QEMU runs the vCPUs in turn on one clock): "boot"
           is the guest instructions every CPU ran until the record, the
           kernel's own work, whatever the host is doing (the growth this
           table judges; memory columns from this boot);
         - plain TCG, SMP=N: the wall time the host took (noisy);
         - plain TCG, SMP=N with maxcpus=1: the same N vCPUs exist in QEMU
           but only CPU 0 is started, so the guest's work is a 1-CPU boot at
           every N and any growth of its wall time is QEMU's own cost of the
           vCPUs.
         and one more icount boot at the largest N with maxcpus=1, to show
         that boot's guest instructions do not depend on N.
  RAM    128M, 256M, ... 64G at SMP=1 under icount: the guest's clock counts
         instructions, so "boot" is an exact, repeatable instruction count.

For each row the table gives the boot cost and the memory the kernel holds
(RAM minus the free pages), split into memory map, per-CPU areas, page
tables, slab and the rest, the IPIs boot took, and the growth per doubling
of the axis: x2.00 is linear, less is linear plus a fixed part, more is
worse than linear and is flagged with '!' (beyond --tolerance).  Every
flagged step gets a line saying whose it is, from the figures: a wall-time
step whose guest instructions grew linearly is QEMU's (with the growth of
the CPU-0-alone boot beside it); a step in guest instructions or memory is
the kernel's and is printed as NOT EXPLAINED.  Documentation/scale.md
explains the figures.

Exit status: 0 every boot passed and gave its record; 1 a boot failed, lost
records or printed none; 2 bad arguments.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
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


# The boots of one vCPU point: log suffix, icount, extra command line.
KINDS = {
    "icount": ("", True, ""),
    "tcg": ("-tcg", False, ""),
    "idle": ("-idle", False, " maxcpus=1"),
}
# Once, at the largest vCPU count: CPU 0 alone under icount.
IDLE_ICOUNT = ("-idle-icount", True, " maxcpus=1")


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


def boot(kernel, smp, mem, icount, log, timeout, tcg_thread="single", extra=""):
    """One boot into `log`; its mem_used record.  icount with SMP > 1 is
    allowed here: the boot only has to reach its record."""
    p = qemu.Params(kernel=kernel, smp=smp, mem=mem, accel="tcg",
                    icount=1 if icount else 0, machine="q35", cmdline=CMDLINE + extra,
                    tcg_thread=tcg_thread, smp_icount=True)
    res = qemu.run(p, serial_file=log, timeout=timeout, note=False)
    name = os.path.basename(log)
    if not res.verdict.passed:
        raise ScaleError(f"{name}: boot did not pass: {res.verdict.reason}")
    return read_log(log)


# A phase of fixed guest work (the same at every vCPU count): from the first
# line to the second, by printk timestamp (mm/mm_init.c: the memory map's
# initialisation, 16 MiB of struct pages at 1 GiB).
PHASE = ("Early memory node ranges", "mm: memory map:")
STAMP_RE = re.compile(r"^\[\s*(\d+)\.(\d{6})\] (.*)$")


def phase_ns(lines):
    """ns between the PHASE lines' printk timestamps; None when one is missing."""
    at = {}
    for line in lines:
        m = STAMP_RE.match(line)
        if not m:
            continue
        for i, text in enumerate(PHASE):
            if i not in at and m.group(3).startswith(text):
                at[i] = int(m.group(1)) * 10**9 + int(m.group(2)) * 1000
    return at[1] - at[0] if len(at) == 2 and at[1] >= at[0] else None


def read_log(log):
    """The boot's mem_used record, with "phase_ns" (PHASE's length) added."""
    with open(log, errors="replace") as f:
        lines = f.read().splitlines()
    rec = dict(mem_used(lines, os.path.basename(log)))
    rec["phase_ns"] = phase_ns(lines)
    return rec


def growth(values):
    """Ratios value[i] / value[i-1] (None for the first, a zero divisor or a gap)."""
    out = [None]
    for a, b in zip(values, values[1:]):
        out.append(b / a if a and b is not None else None)
    return out


def fmt_growth(r, tolerance):
    if r is None:
        return ""
    return f"x{r:.2f}" + (" !" if r > 2.0 * tolerance else "")


def other_kb(rec):
    return max(rec["used_kb"] - sum(rec[k] for k in PARTS), 0)


def ms(ns):
    return "-" if ns is None else f"{ns / 1e6:.0f}"


def phase_m(ns):
    return "-" if ns is None else f"{ns / 1e6:.1f}"


def table(axis, rows, tolerance):
    """Markdown table of one axis; rows are (label, rec, extra): extra holds the
    vCPU axis's TCG wall times ("tcg_ns", "idle_ns"), None on the RAM axis."""
    cpus = axis == "cpus"
    head = ["vCPUs" if cpus else "RAM", "boot (M insns, icount)", "growth"]
    if cpus:
        head += ["boot (ms, TCG)", "growth", "CPU 0 alone (ms, TCG)", "growth",
                 "memory-map init: M insns / ms TCG / ms CPU 0 alone"]
    head += ["kernel holds (KiB)", "growth", "memory map", "per-CPU", "page tables",
             "slab", "other", "IPIs"]
    gb = growth([r["boot_ns"] for _, r, _ in rows])
    gu = growth([r["used_kb"] for _, r, _ in rows])
    if cpus:
        gt = growth([(x or {}).get("tcg_ns") for _, _, x in rows])
        gi = growth([(x or {}).get("idle_ns") for _, _, x in rows])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, (label, r, x) in enumerate(rows):
        cells = [label, f"{r['boot_ns'] / 1e6:.1f}", fmt_growth(gb[i], tolerance)]
        if cpus:
            x = x or {}
            cells += [ms(x.get("tcg_ns")), fmt_growth(gt[i], tolerance),
                      ms(x.get("idle_ns")), fmt_growth(gi[i], tolerance),
                      " / ".join((phase_m(r.get("phase_ns")), ms(x.get("tcg_phase_ns")),
                                  ms(x.get("idle_phase_ns"))))]
        cells += [str(r["used_kb"]), fmt_growth(gu[i], tolerance), str(r["memmap_kb"]),
                  str(r["percpu_kb"]), str(r["pgtable_kb"]), str(r["slab_kb"]),
                  str(other_kb(r)), str(r["ipis"]) if isinstance(r.get("ipis"), int) else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def series(axis, rows):
    """(what, values) of every growth column of an axis."""
    out = [("guest instructions", [r["boot_ns"] for _, r, _ in rows]),
           ("kernel memory", [r["used_kb"] for _, r, _ in rows])]
    if axis == "vCPUs":
        out += [("TCG wall time", [(x or {}).get("tcg_ns") for _, _, x in rows]),
                ("CPU 0 alone, TCG wall time", [(x or {}).get("idle_ns") for _, _, x in rows])]
    return out


def phase_note(prev, cur):
    """The fixed-work phase over one step: its guest instructions and its wall times."""
    (_, ra, xa), (_, rb, xb) = prev, cur
    xa, xb = xa or {}, xb or {}
    vals = (ra.get("phase_ns"), rb.get("phase_ns"), xa.get("tcg_phase_ns"),
            xb.get("tcg_phase_ns"), xa.get("idle_phase_ns"), xb.get("idle_phase_ns"))
    if None in vals:
        return ""
    return (f"; the memory-map init, {vals[0] / 1e6:.1f} -> {vals[1] / 1e6:.1f} M guest "
            f"instructions, took {vals[2] / 1e6:.0f} -> {vals[3] / 1e6:.0f} ms "
            f"({vals[4] / 1e6:.0f} -> {vals[5] / 1e6:.0f} ms with CPU 0 alone)")


def worse_than_linear(axis, rows, tolerance):
    """Human lines for every step whose boot cost or memory more than doubled."""
    return [line for line, _ in judged_steps(axis, rows, tolerance)]


def judged_steps(axis, rows, tolerance):
    """Every step beyond 2 x tolerance as (line, explained): whose it is, from the
    figures.  A TCG wall-time step is the host's when the guest instructions of the
    same step grew no worse than linearly; a CPU-0-alone step is the host's by
    construction (the guest ran a 1-CPU boot); anything else is the kernel's."""
    limit = 2.0 * tolerance
    cols = dict(series(axis, rows))
    insns = growth(cols["guest instructions"])
    out = []
    for what, vals in series(axis, rows):
        for i, g in enumerate(growth(vals)):
            if g is None or g <= limit:
                continue
            step = f"{axis} {rows[i - 1][0]} -> {rows[i][0]}: {what} x{g:.2f}"
            if what == "TCG wall time" and insns[i] is not None and insns[i] <= limit:
                idle = growth(cols["CPU 0 alone, TCG wall time"])[i]
                why = (f"QEMU's: the guest's instructions grew x{insns[i]:.2f} (linear)")
                if idle is not None:
                    a = cols["CPU 0 alone, TCG wall time"][i - 1]
                    b = cols["CPU 0 alone, TCG wall time"][i]
                    why += (f"; a 1-CPU boot with the same vCPUs present grew "
                            f"x{idle:.2f} ({a / 1e6:.0f} -> {b / 1e6:.0f} ms)")
                why += phase_note(rows[i - 1], rows[i])
                out.append((f"{step}: {why}", True))
            elif what == "CPU 0 alone, TCG wall time":
                out.append((f"{step}: QEMU's: the guest ran the same 1-CPU boot", True))
            else:
                out.append((f"{step}: NOT EXPLAINED (the kernel's own cost)", False))
    return out


def render(cpu_rows, ram_rows, cpu_mem, tolerance, config, tcg_thread="single",
           meta=None, idle_icount=None):
    out = []
    if meta:
        out += [f"`make scale` at commit {meta.get('commit', '?')}, {meta.get('qemu', '?')}, "
                f"host load {meta.get('load', '?')} (1-minute average at start and end).", ""]
    threads = ("one TCG thread for all vCPUs" if tcg_thread == "single"
               else "a TCG thread per vCPU")
    if cpu_rows:
        out += [f"vCPUs axis: `{config}`, q35, {cpu_mem} RAM, command line `{CMDLINE}`. "
                "boot (M insns): icount, every vCPU's guest instructions until the "
                "mem_used record (one clock for all vCPUs: the kernel's work summed over "
                "its CPUs, not a parallel time; host load does not change it); memory "
                "columns from that boot. "
                f"boot (ms, TCG): plain TCG, {threads}, the host's wall time (noise "
                "included; the fastest of " + str((meta or {}).get("tcg_runs", "?")) + " boots). CPU 0 alone: the same TCG boot with `maxcpus=1`, the "
                "other vCPUs present in QEMU but never started. memory-map init: the "
                f"phase from `{PHASE[0]}` to `{PHASE[1]}` (printk timestamps), CPU 0's "
                "fixed work, in each of the three boots.", ""]
        out += table("cpus", cpu_rows, tolerance) + [""]
        if idle_icount:
            n, rec = idle_icount
            one = cpu_rows[0][1]["boot_ns"] if cpu_rows[0][0] == "1" else None
            out += [f"CPU 0 alone under icount at {n} vCPUs: {rec['boot_ns'] / 1e6:.1f} M "
                    "instructions" + (f" (1 vCPU: {one / 1e6:.1f} M)" if one else "") +
                    ": the guest's work does not grow with the vCPUs QEMU holds.", ""]
    if ram_rows:
        out += [f"RAM axis: `{config}`, q35, SMP=1, icount (boot = guest instructions "
                "until the mem_used record: exact), "
                f"command line `{CMDLINE}`.", ""]
        out += table("ram", ram_rows, tolerance) + [""]
    steps = judged_steps("vCPUs", cpu_rows, tolerance) + \
        judged_steps("RAM", ram_rows, tolerance)
    out.append("Steps worse than linear (growth above x%.2f): %s" %
               (2.0 * tolerance, "none" if not steps else
                f"{len(steps)}, {sum(1 for _, e in steps if not e)} not explained"))
    out += [f"- {line}" for line, _ in steps]
    return out


def label_of(axis, v):
    return str(v)


def git_commit():
    try:
        c = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "-uno"],
                               capture_output=True, text=True).stdout.strip()
        return c + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def qemu_version():
    try:
        out = subprocess.run([qemu.qemu_binary(), "--version"], capture_output=True,
                             text=True, timeout=30).stdout
        m = re.search(r"version (\S+)", out)
        return f"QEMU {m.group(1)}" if m else "QEMU ?"
    except (OSError, subprocess.SubprocessError):
        return "QEMU ?"


def load1():
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


BLOCK_BEGIN = re.compile(r"^<!-- scale:results begin .*-->$")
BLOCK_END = "<!-- scale:results end -->"


def write_docs(path, lines, meta):
    """Replace the scale:results block of `path` with `lines`."""
    with open(path) as f:
        text = f.read().split("\n")
    begin = [i for i, line in enumerate(text) if BLOCK_BEGIN.match(line)]
    end = [i for i, line in enumerate(text) if line == BLOCK_END]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise ScaleError(f"{path}: want one scale:results block")
    head = (f"<!-- scale:results begin commit={meta.get('commit', '?')} "
            "written by make scale SCALE_DOCS=1 -->")
    text = text[:begin[0]] + [head, ""] + lines + ["", BLOCK_END] + text[end[0] + 1:]
    with open(path, "w") as f:
        f.write("\n".join(text))


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
                    "directory (cpus-N.log, cpus-N-tcg-R.log, cpus-N-idle-R.log, "
                    "ram-S.log) instead of booting")
    ap.add_argument("--docs", help="also rewrite the scale:results block of this file")
    ap.add_argument("--tolerance", type=float, default=1.05,
                    help="growth per doubling above 2 x this is flagged (default 1.05)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per boot")
    ap.add_argument("--tcg-runs", type=int, default=3,
                    help="boots per plain-TCG point, the fastest counts (default 3)")
    ap.add_argument("--tcg-thread", default="single", choices=qemu.TCG_THREADS,
                    help="the vCPU axis's TCG boots: single (default: one TCG thread "
                    "runs the vCPUs in turn) or multi (a thread per vCPU; on a busy host "
                    "QEMU's big lock makes many-vCPU boots take minutes)")
    a = ap.parse_args(argv)
    try:
        cpus = parse_list(a.cpus, "cpus") if a.cpus.strip() else []
        ram = parse_list(a.ram, "ram") if a.ram.strip() else []
        cpu_mem = qemu.parse_mem(a.cpu_mem)
    except (ValueError, qemu.ParamError) as e:
        print(f"scale.py: {e}", file=sys.stderr)
        return 2
    if a.tcg_runs < 1:
        print("scale.py: --tcg-runs must be at least 1", file=sys.stderr)
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
    meta_path = os.path.join(logdir, "meta.json")
    if a.logs:
        meta = {}
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                meta = json.load(f)
            a.tcg_runs = meta.get("tcg_runs", a.tcg_runs)
    else:
        meta = {"commit": git_commit(), "qemu": qemu_version(), "load": load1(),
                "config": a.config, "tcg_thread": a.tcg_thread, "tcg_runs": a.tcg_runs}
    jobs = []      # (axis, value, kind, logname)
    for n in cpus:
        for k, (suffix, icount, _) in KINDS.items():
            # Plain TCG is timed by a busy host: the least disturbed of a few boots.
            jobs += [("cpus", n, k, f"cpus-{n}{suffix}.log")] if icount else \
                [("cpus", n, k, f"cpus-{n}{suffix}-{r}.log") for r in range(1, a.tcg_runs + 1)]
    if cpus:
        jobs.append(("cpus", max(cpus), "idle-icount", f"cpus-{max(cpus)}{IDLE_ICOUNT[0]}.log"))
    jobs += [("ram", m, "icount", f"ram-{m}.log") for m in ram]
    got, failures = {}, []
    for axis, v, kind, logname in jobs:
        log = os.path.join(logdir, logname)
        suffix, icount, extra = IDLE_ICOUNT if kind == "idle-icount" else KINDS[kind]
        try:
            if a.logs:
                rec = read_log(log)
            else:
                smp, mem = (v, cpu_mem) if axis == "cpus" else (1, v)
                print(f"scale: {axis} {v} {kind}: booting SMP={smp} MEM={mem}{extra}",
                      file=sys.stderr, flush=True)
                rec = boot(kernel, smp, mem, icount, log, a.timeout, a.tcg_thread, extra)
        except (ScaleError, OSError, qemu.ParamError) as e:
            failures.append(str(e))
            print(f"scale: {e}", file=sys.stderr)
            continue
        want = 1 if axis == "ram" or extra else v
        if rec["cpus"] != want:
            failures.append(f"{logname}: {rec['cpus']} CPUs, want {want}")
            continue
        prev = got.get((axis, v, kind))
        if prev is None or rec["boot_ns"] < prev["boot_ns"]:
            got[(axis, v, kind)] = rec
    if not a.logs:
        meta["load"] = f"{meta['load']}-{load1()}"
        with open(meta_path, "w") as f:
            json.dump(meta, f)
    cpu_rows, ram_rows = [], []
    for n in cpus:
        rec = got.get(("cpus", n, "icount"))
        if rec:
            tcg, idle = got.get(("cpus", n, "tcg")) or {}, got.get(("cpus", n, "idle")) or {}
            extra = {"tcg_ns": tcg.get("boot_ns"), "idle_ns": idle.get("boot_ns"),
                     "tcg_phase_ns": tcg.get("phase_ns"),
                     "idle_phase_ns": idle.get("phase_ns")}
            cpu_rows.append((label_of("cpus", n), rec, extra))
    for m in ram:
        if ("ram", m, "icount") in got:
            ram_rows.append((label_of("ram", m), got[("ram", m, "icount")], None))
    idle_icount = None
    if cpus and ("cpus", max(cpus), "idle-icount") in got:
        idle_icount = (max(cpus), got[("cpus", max(cpus), "idle-icount")])
    lines = render(cpu_rows, ram_rows, cpu_mem, a.tolerance, a.config, a.tcg_thread,
                   meta, idle_icount)
    if failures:
        lines += ["", "Failed points: " + "; ".join(failures)]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(a.out, "scale.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "scale.json"), "w") as f:
        json.dump({"meta": meta,
                   "cpus": [dict(r, label=lbl, **(x or {})) for lbl, r, x in cpu_rows],
                   "ram": [dict(r, label=lbl) for lbl, r, _ in ram_rows],
                   "failures": failures}, f, indent=1)
    if a.docs and not failures:
        try:
            write_docs(a.docs, lines, meta)
        except (ScaleError, OSError) as e:
            print(f"scale.py: {e}", file=sys.stderr)
            return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
