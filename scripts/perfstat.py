#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf stat's summaries from a serial log's records, checked and reprinted.

After every workload run (run=..., perf.repeat=N times) the kernel prints
perf stat's layout and these records (kernel/events/perf_stat.c), means
over the N runs:

  perf_stat      what, runs, task_ns, cs, nvcsw, nivcsw, migr, elapsed_ns,
                 err_x100 (+- of the elapsed time, percent x100)
  perf_stat_pmu  what, src (pmu|icount), insns, cycles (null under icount)
                 right after the perf_stat record of the same run
  perf_stat_lock what, class, blocked_ns, con: CONFIG_LOCK_STAT's wait time
                 per class (the longest five), right before the perf_stat
                 record of the same run

Usage: perfstat.py LOG...  (also `tools/irqlab perfstat LOG...`)
Exit status: 0 every log has summaries and they are whole and consistent;
1 a log has none, lost or corrupted records, or records that disagree (each
named); 2 a log could not be read or the command line is wrong.
"""
import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("irqlab_records_ps",
                                               os.path.join(ROOT, "scripts", "records.py"))
records = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(records)


def collect(recs):
    """([(perf_stat, perf_stat_pmu or None, [perf_stat_lock])], problems)."""
    runs, problems, locks = [], list(recs.problems), []
    for _, r in recs.items:
        t = r.get("type")
        if t not in ("perf_stat", "perf_stat_pmu", "perf_stat_lock") or records.check_fields(r):
            continue        # records.parse() named what is wrong with it
        if t == "perf_stat_lock":
            locks.append(r)
            continue
        if t == "perf_stat":
            for lk in locks:
                if lk["what"] != r["what"]:
                    problems.append(f"{lk['what']}: a perf_stat_lock record without its "
                                    "perf_stat record")
            runs.append([r, None, [lk for lk in locks if lk["what"] == r["what"]]])
            locks = []
            if r["runs"] < 1:
                problems.append(f"{r['what']}: {r['runs']} runs")
            if r["nvcsw"] + r["nivcsw"] > r["cs"]:
                problems.append(f"{r['what']}: {r['nvcsw']} voluntary and {r['nivcsw']} "
                                f"involuntary switches but {r['cs']} in all")
            continue
        if not runs or runs[-1][0]["what"] != r["what"] or runs[-1][1] is not None:
            problems.append(f"{r['what']}: a perf_stat_pmu record without its perf_stat record")
            continue
        cyc = r.get("cycles")
        if r["src"] == "pmu" and (not isinstance(cyc, int) or isinstance(cyc, bool) or cyc < 0):
            problems.append(f"{r['what']}: PMU counts without cycles")
            continue
        runs[-1][1] = r
    for lk in locks:
        problems.append(f"{lk['what']}: a perf_stat_lock record without its perf_stat record")
    if not runs:
        problems.append("no perf stat summary (no perf_stat record): no workload ran "
                        "(run=ktest is not counted) or the log ends before its end")
    return runs, problems


def summary(ps, pmu, locks=()):
    """perf stat's layout for one record pair."""
    task, el = ps["task_ns"], ps["elapsed_ns"]
    runs = f" ({ps['runs']} runs)" if ps["runs"] > 1 else ""
    util = task / el if el else 0.0

    def rate(n):
        return f"# {n * 1e6 / task:12.3f} K/sec" if task else ""
    out = [f" Performance counter stats for '{ps['what']}'{runs}:", "",
           f"{task / 1e6:18,.2f} msec {'task-clock':<25} # {util:12.3f} CPUs utilized",
           f"{ps['cs']:18,d}      {'context-switches':<25} {rate(ps['cs'])}",
           f"{ps['nvcsw']:18,d}      {'voluntary-switches':<25} {rate(ps['nvcsw'])}",
           f"{ps['nivcsw']:18,d}      {'involuntary-switches':<25} {rate(ps['nivcsw'])}",
           f"{ps['migr']:18,d}      {'cpu-migrations':<25} {rate(ps['migr'])}"]
    if pmu and pmu["src"] == "pmu":
        ipc = pmu["insns"] / pmu["cycles"] if pmu["cycles"] else 0.0
        out += [f"{pmu['cycles']:18,d}      {'cycles':<25}",
                f"{pmu['insns']:18,d}      {'instructions':<25} # {ipc:5.2f}  insn per cycle"]
    else:
        out.append(f"{'<not supported>':>18}      cycles")
        if pmu:
            out.append(f"{pmu['insns']:18,d}      {'instructions':<25} # icount: task-clock ns")
        else:
            out.append(f"{'<not supported>':>18}      instructions")
    for lk in locks:
        out.append(f"{lk['blocked_ns'] / 1e6:18,.2f} msec blocked on {lk['class']:<25} "
                   f"# {lk['con']:8d} contentions")
    err = ps["err_x100"] / 100
    out += ["", f"{el / 1e9:20.9f} +- {el * err / 100 / 1e9:.9f} seconds time elapsed  "
                f"( +- {err:5.2f}% )", ""]
    return out


def perfstat_main(paths, out=None, err=None):
    """Print each log's summaries and problems; the exit status of the module doc."""
    out = out or sys.stdout
    err = err or sys.stderr
    bad = unreadable = 0
    for path in paths:
        lines = records.read_log(path, err)
        if lines is None:
            unreadable += 1
            continue
        runs, problems = collect(records.parse(lines))
        if len(paths) > 1:
            print(f"== {path}", file=out)
        for ps, pmu, locks in runs:
            print("\n".join(summary(ps, pmu, locks)), file=out)
        for p in problems:
            print(f"{path}: {p}", file=err)
        bad += bool(problems)
    if unreadable:
        return 2
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="perfstat.py", description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args(argv)
    return perfstat_main(args.logs)


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 141
    sys.exit(status)
