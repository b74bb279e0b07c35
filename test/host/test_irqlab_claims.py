# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab: perf stat's and lock_stat's figures as metrics."""
import io
import os
import sys
import unittest
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402,F401
from test_irqlab_tool import tool  # noqa: E402


def perf(what="hackbench", task_ns=4_000_000_000, cs=5000, nvcsw=3000, nivcsw=2000, migr=300,
         elapsed_ns=2_000_000_000):
    return {"type": "perf_stat", "what": what, "runs": 1, "task_ns": task_ns, "cs": cs,
            "nvcsw": nvcsw, "nivcsw": nivcsw, "migr": migr, "elapsed_ns": elapsed_ns,
            "err_x100": 0}


def pmu(what="hackbench", insns=9_000_000, cycles=None, src=None):
    return {"type": "perf_stat_pmu", "what": what, "src": src or ("icount" if cycles is None
                                                                   else "pmu"),
            "insns": insns, "cycles": cycles}


def res(records, cmdline="run=hackbench", workload=None, smp=2, clock="tsc", status="ok"):
    """A parsed run as parse_log() makes it, records given as a list."""
    r = {}
    for x in records:
        r.setdefault(x["type"], []).append(x)
    out = {"log": "x.log", "status": status, "problems": [], "notes": [], "flags": [],
           "records": r, "smp": smp, "clock": clock, "cmdline": cmdline,
           "config_hash": "deadbeef", "version": "0.1"}
    if workload:
        out["workload"] = workload
    return out


LOCK_RUN = {"type": "lock_stat_run", "clock": "tsc", "tsc_khz": 2_000_000, "classes": 9,
            "printed": 2, "class_overflow": 0, "depth_overflow": 0}


def lock(cls, con, acq, wait_total, rw="w"):
    return [{"type": "lock_stat", "class": cls, "rw": rw, "con": con, "acq": acq, "cb": 0,
             "ab": 0},
            {"type": "lock_stat_time", "class": cls, "rw": rw, "what": "wait", "min": 1,
             "max": 2, "total": wait_total},
            {"type": "lock_stat_time", "class": cls, "rw": rw, "what": "hold", "min": 1,
             "max": 2, "total": 999_999_999}]


class MetricsTest(unittest.TestCase):
    def test_perf_stat_figures(self):
        m = tool.metrics(res([perf(), pmu(insns=8_000_000_000, cycles=16_000_000_000)]))
        self.assertEqual(m["perf task-clock ms"], 4000.0)
        self.assertEqual(m["perf context-switches"], 5000)
        self.assertEqual(m["perf voluntary switches"], 3000)
        self.assertEqual(m["perf involuntary switches"], 2000)
        self.assertEqual(m["perf cpu-migrations"], 300)
        self.assertEqual(m["perf CPUs utilized"], 2.0)
        self.assertEqual(m["perf instructions"], 8_000_000_000)
        self.assertEqual(m["perf IPC"], 0.5)

    def test_icount_has_instructions_and_no_ipc(self):
        m = tool.metrics(res([perf(), pmu(insns=4_000_000_000)], smp=1, clock="icount"))
        self.assertEqual(m["perf instructions"], 4_000_000_000)
        self.assertNotIn("perf IPC", m)
        # TCG without a PMU: no perf_stat_pmu record, no instruction count
        m = tool.metrics(res([perf()]))
        self.assertNotIn("perf instructions", m)
        self.assertIn("perf context-switches", m)

    def test_the_workloads_summary_is_picked(self):
        recs = [perf("cyclic+hackbench", cs=100, task_ns=10, elapsed_ns=20),
                pmu("cyclic+hackbench", insns=7),
                perf("pi_stress", cs=9000, task_ns=30, elapsed_ns=30), pmu("pi_stress", insns=8)]
        # the matrix workload's name (its run= list) names the group
        for kw in ({"workload": "cyclic_hackbench"},
                   {"cmdline": "run=cyclic,hackbench cyclic.cpus=1"}):
            m = tool.metrics(res(recs, **kw))
            self.assertEqual(m["perf context-switches"], 100, kw)
            self.assertEqual(m["perf instructions"], 7, kw)
            self.assertEqual(m["perf CPUs utilized"], 0.5, kw)
        # nothing names one of them: the whole run, summed
        m = tool.metrics(res(recs, cmdline="run=x"))
        self.assertEqual(m["perf context-switches"], 9100)
        self.assertEqual(m["perf instructions"], 15)
        self.assertEqual(m["perf CPUs utilized"], 40 / 50)

    def test_pmu_records_pair_in_order(self):
        recs = [perf("hackbench", cs=1), pmu("hackbench", insns=10), perf("ktest_x", cs=2),
                perf("hackbench", cs=4), pmu("hackbench", insns=20)]
        m = tool.metrics(res(recs, cmdline="run=y"))
        self.assertEqual(m["perf context-switches"], 7)
        self.assertNotIn("perf instructions", m, "a summary without its PMU record")
        recs = recs[:2] + recs[3:]
        self.assertEqual(tool.metrics(res(recs, cmdline="run=y"))["perf instructions"], 30)

    def test_lock_stat_figures(self):
        recs = (lock("&n->list_lock", 30, 1500, 4_000_000) + lock("rwsem", 2, 10, 2000)
                + lock("rwsem", 3, 20, 6000, rw="r") +
                [{"type": "lock_stat_wait", "class": "&n->list_lock", "fastpath": 1470,
                  "spin_acquired": 4, "slept": 26, "sleeps": 27}, LOCK_RUN])
        m = tool.metrics(res(recs))
        self.assertEqual(m["lock_stat &n->list_lock contentions"], 30)
        self.assertEqual(m["lock_stat &n->list_lock acquisitions"], 1500)
        # 4,000,000 ticks at 2 GHz
        self.assertEqual(m["lock_stat &n->list_lock wait total us"], 2000)
        self.assertEqual(m["lock_stat &n->list_lock slept"], 26)
        self.assertEqual(m["lock_stat &n->list_lock sleeps"], 27)
        # read and write sides together; no lock_stat_wait: no wait slept
        self.assertEqual(m["lock_stat rwsem contentions"], 5)
        self.assertEqual(m["lock_stat rwsem acquisitions"], 30)
        self.assertEqual(m["lock_stat rwsem wait total us"], 4)
        self.assertEqual(m["lock_stat rwsem slept"], 0)
        self.assertEqual(m["lock_stat rwsem sleeps"], 0)
        # without the report's last record the table is not whole: no figure
        m = tool.metrics(res(recs[:-1]))
        self.assertFalse([k for k in m if k.startswith("lock_stat")])

    def test_counts_move_higher_or_lower_and_old_metrics_keep_their_words(self):
        a = [res([perf(cs=1000 + i), {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1,
                                      "size": 1, "time_ns": 10 ** 9 + i, "ctxsw": 1,
                                      "migrations": 0}]) for i in range(5)]
        b = [res([perf(cs=2000 + i), {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1,
                                      "size": 1, "time_ns": 2 * 10 ** 9 + i, "ctxsw": 1,
                                      "migrations": 0}]) for i in range(5)]
        rows = {r[0]: r for r in tool.compare(a, b)}
        self.assertEqual(rows["perf context-switches"][-1], "higher")
        self.assertEqual(rows["hackbench time s"][-1], "worse")
        rows = {r[0]: r for r in tool.compare(b, a)}
        self.assertEqual(rows["perf context-switches"][-1], "lower")
        self.assertEqual(rows["hackbench time s"][-1], "better")

    def test_tracer_refusal_covers_perf_throughput(self):
        lat = {"type": "lat_cpu", "tracer": "irqsoff", "what": "hackbench", "cpu": 0,
               "windows": 1, "min_ns": 1, "total_ns": 1, "max_ns": 1, "dropped": 0}
        a = [res([perf(cs=1000 + i), pmu(insns=100 + i, cycles=200)]) for i in range(3)]
        b = [res([perf(cs=1000 + i), pmu(insns=100 + i, cycles=200), lat]) for i in range(3)]
        err = io.StringIO()
        with redirect_stderr(err):
            rows = {r[0]: r for r in tool.compare(a, b)}
        for name in ("perf task-clock ms", "perf instructions", "perf IPC"):
            self.assertEqual(rows[name][-1], "refused: tracer sets differ", name)
        # switches and utilisation are not the tracers' cost per transition
        self.assertEqual(rows["perf context-switches"][-1], "within noise")
        self.assertNotIn("refused", rows["perf CPUs utilized"][-1])


if __name__ == "__main__":
    unittest.main()
