#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lock_stat's records from a serial log, checked and printed as Linux's table.

A CONFIG_LOCK_STAT kernel ends each run with the table of /proc/lock_stat
(version 0.4) and these records (kernel/locking/lockstat_report.c):

  lock_stat       class, rw (w|r), con, acq, cb, ab          one per class and side
  lock_stat_time  class, rw, what (wait|hold), min, max, total  (TSC ticks)
  lock_stat_site  class, kind (contention|contending), n, ip, sym
  lock_stat_wait  class, fastpath, spin_acquired, slept, sleeps
  lock_stat_run   clock, tsc_khz, classes, printed, class_overflow, depth_overflow  (last)

Usage: lockstat.py LOG...  (also `tools/irqlab lockstat LOG...`)
Exit status: 0 every log has a complete, consistent report; 1 a log has no
report, lost or corrupted records, or records that disagree (each named);
2 a log could not be read or the command line is wrong.
"""
import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("irqlab_records_ls",
                                               os.path.join(ROOT, "scripts", "records.py"))
records = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(records)

WIDTH = 40 + 1 + 12 * (14 + 1)
HEADER = ("class name", "con-bounces", "contentions", "waittime-min", "waittime-max",
          "waittime-total", "waittime-avg", "acq-bounces", "acquisitions",
          "holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg")


class Report:
    def __init__(self):
        self.run = None
        self.sides = {}         # (class, rw) -> lock_stat record
        self.times = {}         # (class, rw, what) -> lock_stat_time record
        self.sites = {}         # class -> [lock_stat_site records]
        self.waits = {}         # class -> lock_stat_wait record
        self.order = []         # classes in the kernel's order
        self.problems = []


def collect(recs):
    """A Report from a records.Records: every lock_stat* record, checked."""
    rep = Report()
    rep.problems.extend(recs.problems)
    for _, r in recs.items:
        t = r.get("type")
        if not isinstance(t, str) or not t.startswith("lock_stat"):
            continue
        why = records.check_fields(r)
        if why:
            rep.problems.append(why)
            continue
        if t == "lock_stat_run":
            rep.run = r
            continue
        cls = r["class"]
        if cls not in rep.order and t == "lock_stat":
            rep.order.append(cls)
        if t == "lock_stat":
            rep.sides[(cls, r["rw"])] = r
        elif t == "lock_stat_time":
            rep.times[(cls, r["rw"], r["what"])] = r
        elif t == "lock_stat_site":
            rep.sites.setdefault(cls, []).append(r)
        elif t == "lock_stat_wait":
            rep.waits[cls] = r
    if rep.run is None:
        rep.problems.append("no lock_stat report (no lock_stat_run record): not a "
                            "CONFIG_LOCK_STAT build, lock_stat=0, or the log ends "
                            "before the end of the run")
        return rep
    if len(rep.order) != rep.run["printed"]:
        rep.problems.append(f"lock_stat_run says {rep.run['printed']} classes were printed, "
                            f"the log has lock_stat records of {len(rep.order)}")
    for (cls, rw), side in rep.sides.items():
        for what in ("wait", "hold"):
            lt = rep.times.get((cls, rw, what))
            if lt is None:
                rep.problems.append(f"class {cls} ({rw}): no {what} time record")
                continue
            nr = side["con"] if what == "wait" else side["acq"]
            if nr and not lt["min"] <= lt["max"] <= lt["total"]:
                rep.problems.append(f"class {cls} ({rw}): {what} time min {lt['min']} "
                                    f"max {lt['max']} total {lt['total']} out of order")
        if side["con"] > side["acq"]:
            rep.problems.append(f"class {cls} ({rw}): {side['con']} contentions but "
                                f"{side['acq']} acquisitions")
    for cls in list(rep.sites) + list(rep.waits):
        if cls not in rep.order:
            rep.problems.append(f"class {cls}: sites or waits without its lock_stat record")
    return rep


def fmt_time(ticks, khz):
    """Microseconds with two decimals from TSC ticks, rounded as Linux's table."""
    ns = ticks * 1000000 // khz if khz else ticks
    ns += 5
    return f"{ns // 1000}.{ns % 1000 // 10:02d}"


def lock_time_cols(nr, lt, khz):
    avg = lt["total"] // nr if nr else 0
    return (f"{nr:14d} {fmt_time(lt['min'], khz):>14} {fmt_time(lt['max'], khz):>14} "
            f"{fmt_time(lt['total'], khz):>14} {fmt_time(avg, khz):>14}")


def table(rep):
    """The report as Linux's /proc/lock_stat prints it (times in us)."""
    khz = rep.run["tsc_khz"] if rep.run else 0
    out = ["lock_stat version 0.4", "-" * WIDTH,
           f"{HEADER[0]:>40} " + " ".join(f"{h:>14}" for h in HEADER[1:]), "-" * WIDTH, ""]
    zero = {"min": 0, "max": 0, "total": 0}
    for cls in rep.order:
        name = cls[:38]
        both = (cls, "w") in rep.sides and (cls, "r") in rep.sides
        con = 0
        for rw in ("w", "r"):
            side = rep.sides.get((cls, rw))
            if not side:
                continue
            con += side["con"]
            tag = f"{name}-{rw.upper()}:" if (both or rw == "r") else f"{name}:"
            wait = rep.times.get((cls, rw, "wait"), zero)
            hold = rep.times.get((cls, rw, "hold"), zero)
            out.append(f"{tag:>40}{side['cb']:14d} {lock_time_cols(side['con'], wait, khz)} "
                       f"{side['ab']:14d} {lock_time_cols(side['acq'], hold, khz)}")
        w = rep.waits.get(cls)
        if w:
            out.append(f"{name:>40} fastpath {w['fastpath']}, spin-acquired "
                       f"{w['spin_acquired']}, slept {w['slept']} ({w['sleeps']} sleeps)")
        if not con:
            continue
        namelen = len(name) + (2 if (cls, "r") in rep.sides else 0)
        for kind in ("contention", "contending"):
            sites = [s for s in rep.sites.get(cls, []) if s["kind"] == kind]
            for i, s in enumerate(sites):
                if not i:
                    out.append(" " * (40 - namelen) + "-" * namelen)
                ip = f"[<{int(s['ip'], 16):016x}>]"
                out.append(f"{name:>40} {s['n']:14d} {ip:>29} {s['sym']}")
        out += ["", "." * WIDTH, ""]
    if rep.run:
        r = rep.run
        out.append(f"lock_stat: {r['classes']} classes, {r['printed']} acquired; clock "
                   f"{r['clock']} at {r['tsc_khz']} kHz; {r['class_overflow']} class(es) "
                   f"over the table, {r['depth_overflow']} lock(s) over the held stack")
    return out


def lockstat_main(paths, out=None, err=None):
    """Print each log's table and problems; the exit status of the module doc."""
    out = out or sys.stdout
    err = err or sys.stderr
    bad = unreadable = 0
    for path in paths:
        lines = records.read_log(path, err)
        if lines is None:
            unreadable += 1
            continue
        rep = collect(records.parse(lines))
        if len(paths) > 1:
            print(f"== {path}", file=out)
        if rep.run is not None:
            print("\n".join(table(rep)), file=out)
        for p in rep.problems:
            print(f"{path}: {p}", file=out)
            print(f"{path}: {p}", file=err)
        bad += bool(rep.problems)
    if unreadable:
        return 2
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="lockstat.py", description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args(argv)
    return lockstat_main(args.logs)


def entry():
    """main() as a command: a closed pipe is status 141, as in tools/irqlab."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(entry())
