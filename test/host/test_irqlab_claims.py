# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab: perf stat's and lock_stat's figures as metrics, and the
experiments' claims: parsed from the matrix file, checked against the runs."""
import io
import json
import os
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import tool, run_tool, rec  # noqa: E402


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

    def test_lava_cases_are_one_per_figure(self):
        recs = ([perf(), pmu(insns=8, cycles=16)] + lock("&n->list_lock", 30, 1500, 4000000)
                + [{"type": "lock_stat_wait", "class": "&n->list_lock", "fastpath": 1,
                    "spin_acquired": 0, "slept": 26, "sleeps": 27}, LOCK_RUN])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.log")
            with open(path, "w") as f:
                f.write("\n".join(["irqlab: start 0.1.0 deadbeef"] +
                                  [rec(i, r) for i, r in enumerate(recs)] +
                                  ["irqlab: end status=ok"]) + "\n")
            rc, out, _ = run_tool("lava", path)
        self.assertEqual(rc, 0, out)
        ids = re.findall(r"TEST_CASE_ID=(\S+)", out)
        self.assertEqual(len(ids), len(set(ids)), ids)
        for line in ("TEST_CASE_ID=irqlab-perf-IPC RESULT=pass MEASUREMENT=0.5 UNITS=count",
                     "TEST_CASE_ID=irqlab-perf-task-clock RESULT=pass MEASUREMENT=4000 "
                     "UNITS=ms",
                     "TEST_CASE_ID=irqlab-lock_stat-n--list_lock-slept RESULT=pass "
                     "MEASUREMENT=26 UNITS=count",
                     "TEST_CASE_ID=irqlab-lock_stat-n--list_lock-wait-total RESULT=pass "
                     "MEASUREMENT=2000 UNITS=us"):
            self.assertIn(line, out)

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


MATRIX = """[matrix]
configs = a b c
compare =
    a b X
    b c Y
reps = 2
smp = 2
[workloads]
hackbench = run=hackbench
cyclic = run=cyclic
"""

CLAIM = """
[claim c1]
compare = a b
workload = hackbench
metric = hackbench time s
expect = +
seeds = 1.18 vs 1.62 s
claim = B is slower.
source = seed 002 (someone)
mechanism =
    perf context-switches +
    lock_stat &n->list_lock slept +
"""


class ClaimsParseTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def load(self, text, name="exp.ini"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return tool.load_matrix(path)

    def test_a_claim_is_parsed(self):
        mx = self.load(MATRIX + CLAIM, "e9_icount.ini")
        self.assertEqual(mx["name"], "e9_icount")
        self.assertEqual(mx["claims"], [{
            "name": "c1", "a": "a", "b": "b", "workload": "hackbench",
            "metric": "hackbench time s", "expect": "+", "tolerance": 2.0,
            "seeds": "1.18 vs 1.62 s", "claim": "B is slower.", "source": "seed 002 (someone)",
            "mechanism": [{"metric": "perf context-switches", "expect": "+"},
                          {"metric": "lock_stat &n->list_lock slept", "expect": "+"}]}])
        self.assertEqual(self.load(MATRIX)["claims"], [])
        mx = self.load(MATRIX + CLAIM.replace("expect = +", "expect = =\ntolerance = 5%"))
        self.assertEqual((mx["claims"][0]["expect"], mx["claims"][0]["tolerance"]), ("=", 5.0))

    def test_bad_claims_are_named(self):
        for old, new, msg in (
                ("expect = +", "expect = up", "[claim c1]: expect 'up': want + (B above A)"),
                ("compare = a b", "compare = a z", "[claim c1]: compare: 'z' is not in configs "
                 "(a b c)"),
                ("compare = a b", "compare = a", "compare = 'a': want two configurations"),
                ("compare = a b", "compare = a c", "compare = a c: no compare line declares "
                 "this pair; declared: a b; b c"),
                ("compare = a b", "compare = b a", "the other way round is"),
                ("workload = hackbench", "workload = slabbench", "workload 'slabbench' is not "
                 "in [workloads] (hackbench cyclic)"),
                ("metric = hackbench time s", "metric = hackbench seconds",
                 "metric: 'hackbench seconds' is not a metric tools/irqlab computes"),
                ("seeds = 1.18 vs 1.62 s\n", "", "[claim c1]: seeds is missing or empty"),
                ("source = seed 002 (someone)", "source =", "source is missing or empty"),
                ("expect = +", "expect = +\nexpected = -", "unknown key 'expected'"),
                ("expect = +", "expect = =\ntolerance = lots", "tolerance = 'lots' is not a "
                 "number"),
                ("expect = +", "expect = =\ntolerance = -1", "tolerance = -1: want a "
                 "percentage of 0 or more"),
                ("    perf context-switches +", "    perf context-switches up",
                 "mechanism line 'perf context-switches up': expect 'up'"),
                ("    perf context-switches +", "    perf context switches +",
                 "'perf context switches' is not a metric"),
                ("    perf context-switches +", "    +", "mechanism line '+': want 'METRIC "
                 "SIGN'"),
                ("[claim c1]", "[claim]", "[claim]: want a section [claim NAME]"),
                ("[claim c1]", "[claims c1]", "[claims c1]: want a section [claim NAME]")):
            text = MATRIX + CLAIM.replace(old, new)
            self.assertNotEqual(text, MATRIX + CLAIM, old)
            with self.assertRaises(ValueError, msg=new) as cm:
                self.load(text)
            self.assertIn(os.path.join(self.tmp.name, "exp.ini"), str(cm.exception))
            self.assertIn(msg, str(cm.exception))

    def test_matrix_refuses_a_bad_claim_before_booting(self):
        path = os.path.join(self.tmp.name, "m.ini")
        with open(path, "w") as f:
            f.write(MATRIX + CLAIM.replace("expect = +", "expect = ++"))
        out = os.path.join(self.tmp.name, "out")
        rc, so, se = run_tool("matrix", path, "--out", out)
        self.assertEqual(rc, 2)
        self.assertEqual(se.strip().splitlines(), [
            f"irqlab: {path}: [claim c1]: expect '++': want + (B above A), - (B below A) "
            "or = (equal within tolerance percent)"])
        self.assertFalse(os.path.exists(out))

    def test_experiment_claims_name_their_mechanism(self):
        """Every seed experiment states claims, each with a source and seeds'
        figure; the lock_stat ones name the list_lock class."""
        exp = os.path.join(_load.ROOT, "tools", "experiments")
        for name in sorted(f for f in os.listdir(exp) if f.endswith(".ini")):
            mx = tool.load_matrix(os.path.join(exp, name))
            self.assertTrue(mx["claims"], name)
            if name.startswith("e2_lockstat"):
                self.assertTrue(all(m["metric"].startswith("lock_stat &n->list_lock ")
                                    for c in mx["claims"] for m in c["mechanism"][:2]), name)
        mx = tool.load_matrix(os.path.join(exp, "e2.ini"))
        seed = [c for c in mx["claims"] if c["name"] == "seed000"][0]
        self.assertEqual((seed["a"], seed["b"], seed["metric"], seed["expect"]),
                         ("rt_legacy", "rt_nopartial", "perf context-switches", "+"))
        self.assertIn({"metric": "perf CPUs utilized", "expect": "-"}, seed["mechanism"])


def hb(seconds):
    return {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 1,
            "time_ns": int(seconds * 1e9), "ctxsw": 1, "migrations": 0}


class ClaimsReportTest(unittest.TestCase):
    """Claims against runs written as a matrix leaves them: OUT/CONFIG/WORKLOAD/repN.json."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "out")

    def cell(self, config, rep, records, workload="hackbench", mode="TCG", smp=2,
             clock="tsc"):
        d = os.path.join(self.out, config, workload)
        os.makedirs(d, exist_ok=True)
        r = res(records, smp=smp, clock=clock)
        r.update(config=config, workload=workload, rep=rep)
        with open(os.path.join(d, f"rep{rep}.json"), "w") as f:
            json.dump(r, f)
        with open(os.path.join(d, f"rep{rep}.log"), "w") as f:
            f.write(f"irqlab: start 0.1 deadbeef\nirqlab: mode {mode}: 1 ns = ...\n")

    def matrix(self, claims, name="e9.ini", header=MATRIX):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(header + claims)
        return path

    def index(self, path):
        rc, so, se = run_tool("index", self.out, path)
        self.assertEqual(rc, 0, so + se)
        with open(os.path.join(self.out, "claims.json")) as f:
            doc = json.load(f)
        with open(os.path.join(self.out, "index.txt")) as f:
            return doc, f.read()

    def noisy_sides(self):
        """a: hackbench ~1 s, b: ~1.5 s (clear); switches a ~1000, b ~1000 (noise);
        CPUs utilized the same everywhere.  Reps 1, 2 and 10: any N counts."""
        spread = (0.0, 0.01, -0.01)
        for rep, d in zip((1, 2, 10), spread):
            self.cell("a", rep, [hb(1 + d), perf(cs=1000 + 300 * d * 100)])
            self.cell("b", rep, [hb(1.5 + d), perf(cs=1000 - 300 * d * 100)])

    def claim(self, name, metric, expect, mech=(), a="a", b="b", workload="hackbench",
              tol=None):
        text = (f"\n[claim {name}]\ncompare = {a} {b}\nworkload = {workload}\n"
                f"metric = {metric}\nexpect = {expect}\nseeds = S {name}\nclaim = C {name}\n"
                f"source = seed 00{name[-1]}\n")
        if tol is not None:
            text += f"tolerance = {tol}\n"
        if mech:
            text += "mechanism =\n" + "".join(f"    {m}\n" for m in mech)
        return text

    def test_agrees_disagrees_noise_and_missing(self):
        self.noisy_sides()
        path = self.matrix(
            self.claim("up1", "hackbench time s", "+",
                       ["perf context-switches +", "perf CPUs utilized =",
                        "lock_stat &n->list_lock slept +"]) +
            self.claim("down2", "hackbench time s", "-", ["perf context-switches -"]) +
            self.claim("noise3", "perf context-switches", "+") +
            self.claim("eq4", "hackbench time s", "=", tol=2) +
            self.claim("eq5", "perf CPUs utilized", "=") +
            self.claim("none6", "lock_stat &n->list_lock contentions", "+"))
        doc, text = self.index(path)
        self.assertEqual(doc["experiment"], "e9")
        self.assertEqual(doc["mode"], "TCG SMP=2")
        got = {c["name"]: c for c in doc["claims"]}
        self.assertEqual(list(got), ["up1", "down2", "noise3", "eq4", "eq5", "none6"])
        up = got["up1"]
        self.assertEqual(up["sign"], "agrees")
        f = up["figure"]
        self.assertEqual((f["n_a"], f["n_b"]), (3, 3))
        self.assertEqual(f["a"], [1.0, 1.01, 0.99])
        self.assertAlmostEqual(f["change_pct"], 50.0)
        self.assertLess(f["ci_pct"][0], 50)
        self.assertGreater(f["ci_pct"][1], 50)
        self.assertLess(f["p"], 0.001)
        self.assertEqual(f["verdict"], "worse")
        mech = {m["metric"]: m for m in up["mechanism"]}
        self.assertEqual(mech["perf context-switches"]["agrees"], "not shown")
        self.assertEqual(mech["perf context-switches"]["verdict"], "within noise")
        self.assertEqual(mech["perf CPUs utilized"]["agrees"], "agrees")
        self.assertEqual(mech["perf CPUs utilized"]["verdict"], "same")
        self.assertEqual(mech["lock_stat &n->list_lock slept"]["agrees"], "missing")
        self.assertEqual(mech["lock_stat &n->list_lock slept"]["a"], [])
        self.assertEqual(got["down2"]["sign"], "disagrees")
        self.assertEqual(got["noise3"]["sign"], "not shown")
        self.assertEqual(got["eq4"]["sign"], "disagrees")	# +50%, far beyond 2%
        self.assertEqual(got["eq5"]["sign"], "agrees")
        self.assertEqual(got["none6"]["sign"], "missing")
        self.assertEqual(got["none6"]["figure"]["verdict"], "missing")
        # the schema the HTML page reads, and nothing else
        self.assertEqual(set(doc), {"experiment", "mode", "commit", "claims"})
        self.assertEqual(set(up), {"name", "source", "claim", "seeds", "workload", "a", "b",
                                   "metric", "expect", "figure", "sign", "mechanism"})
        self.assertEqual(set(f), {"a", "b", "n_a", "n_b", "change_pct", "ci_pct", "p",
                                  "verdict"})
        self.assertEqual(set(up["mechanism"][0]), {"metric", "expect", "a", "b", "change_pct",
                                                   "ci_pct", "p", "verdict", "agrees"})
        # the text: each claim, its figure, sign, mode and mechanism rows
        self.assertIn("claims of e9 (mode TCG SMP=2;", text)
        self.assertIn("[up1] C up1\n  source: seed 001\n  seeds: S up1\n", text)
        self.assertIn("  irqlab, hackbench: b (B) against a (A), hackbench time s: "
                      "1 +- 0.01 (3) vs 1.5 +- 0.01 (3), change +50.0%, 95% CI ", text)
        self.assertIn(", p <0.001, n 3 / 3: worse\n  sign: agrees (expected +)\n"
                      "  mode: TCG SMP=2\n", text)
        self.assertRegex(text, r"perf context-switches\s+\+\s+1000 \+- 300 \(3\)\s+1000 \+- "
                               r"300 \(3\)\s+\+0\.0%\s+\S+ \.\. \S+\s+within noise\s+not shown")
        self.assertRegex(text, r"lock_stat &n->list_lock slept\s+\+\s+-\s+-\s+-\s+-\s+missing"
                               r"\s+missing")
        self.assertIn("sign: disagrees (expected = (within 2%))", text)
        with open(os.path.join(self.out, "index.json")) as f:
            self.assertEqual(json.load(f)["name"], "e9")

    def test_equal_within_tolerance_needs_the_interval_inside(self):
        for rep, (x, y) in enumerate(((1.0, 1.005), (1.003, 1.008), (0.997, 1.002)), 1):
            self.cell("a", rep, [hb(x)])
            self.cell("b", rep, [hb(y)])
        path = self.matrix(self.claim("t1", "hackbench time s", "=", tol=2) +
                           self.claim("t2", "hackbench time s", "=", tol=0.1))
        doc, _ = self.index(path)
        got = {c["name"]: c for c in doc["claims"]}
        self.assertEqual(got["t1"]["figure"]["verdict"], "within noise")
        self.assertEqual(got["t1"]["sign"], "agrees")
        # the same runs, a 0.1% tolerance: the interval (-0.2% .. +1.2%) is not inside it
        self.assertEqual(got["t2"]["sign"], "not shown")

    def test_icount_sides_are_exact(self):
        ic = dict(mode="icount", smp=1, clock="icount")
        self.cell("a", 1, [hb(1.0), perf(cs=27301, nivcsw=0), pmu(insns=1000)] +
                  lock("&n->list_lock", 0, 50, 0) + [LOCK_RUN], **ic)
        self.cell("b", 1, [hb(1.01), perf(cs=27988, nivcsw=0), pmu(insns=1019)] +
                  lock("&n->list_lock", 0, 60, 0) + [LOCK_RUN], **ic)
        path = self.matrix(
            self.claim("x1", "perf context-switches", "+",
                       ["perf instructions =", "hackbench time s =",
                        "lock_stat &n->list_lock contentions +",
                        "lock_stat &n->list_lock acquisitions -",
                        "perf involuntary switches +"]) +
            self.claim("x2", "perf instructions", "=", tol=1) +
            self.claim("x3", "perf context-switches", "-"),
            header=MATRIX.replace("reps = 2", "reps = 1").replace("smp = 2",
                                                                   "smp = 1\nicount = 1"))
        doc, text = self.index(path)
        self.assertEqual(doc["mode"], "icount SMP=1")
        got = {c["name"]: c for c in doc["claims"]}
        x1 = got["x1"]
        # one run a side, and that is the answer
        self.assertEqual(x1["figure"]["verdict"], "higher (exact)")
        self.assertEqual(x1["figure"]["ci_pct"], None)
        self.assertEqual(x1["figure"]["p"], None)
        self.assertEqual(x1["sign"], "agrees")
        mech = {m["metric"]: m for m in x1["mechanism"]}
        self.assertEqual(mech["perf instructions"]["agrees"], "agrees")	# +1.9% < 2%
        self.assertEqual(mech["hackbench time s"]["agrees"], "agrees")
        self.assertEqual(mech["hackbench time s"]["verdict"], "worse (exact)")
        # 0 against 0: the contention never happened here, nothing to compare
        self.assertEqual(mech["lock_stat &n->list_lock contentions"]["verdict"], "same")
        self.assertEqual(mech["lock_stat &n->list_lock contentions"]["agrees"], "not shown")
        self.assertEqual(mech["perf involuntary switches"]["agrees"], "not shown")
        self.assertEqual(mech["lock_stat &n->list_lock acquisitions"]["agrees"], "disagrees")
        self.assertEqual(got["x2"]["sign"], "disagrees")	# 1.9% > 1%, exactly
        self.assertEqual(got["x3"]["sign"], "disagrees")
        self.assertIn("mode: icount SMP=1 (exact: one run a side is the answer)\n", text)
        # exact counts in full, not to four digits
        self.assertIn("perf context-switches: 27301 (1) vs 27988 (1), change +2.5%, 95% CI -, "
                      "p -, n 1 / 1: higher (exact)", text)

    def test_one_tcg_run_a_side_shows_nothing(self):
        self.cell("a", 1, [hb(1.0)])
        self.cell("b", 1, [hb(1.5)])
        doc, _ = self.index(self.matrix(self.claim("o1", "hackbench time s", "+")))
        self.assertEqual(doc["claims"][0]["figure"]["verdict"], "one run")
        self.assertEqual(doc["claims"][0]["sign"], "not shown")

    def test_throughput_across_tracer_sets_is_not_shown(self):
        lat = {"type": "lat_cpu", "tracer": "irqsoff", "what": "hackbench", "cpu": 0,
               "windows": 1, "min_ns": 1, "total_ns": 1, "max_ns": 1, "dropped": 0}
        for rep, d in enumerate((0.0, 0.01, -0.01), 1):
            self.cell("a", rep, [hb(1 + d), perf(cs=1000)])
            self.cell("b", rep, [hb(2 + d), perf(cs=2000 + rep), lat])
        err = io.StringIO()
        with redirect_stderr(err):
            doc, _ = self.index(self.matrix(self.claim("r1", "hackbench time s", "+",
                                                       ["perf context-switches +"])))
        c = doc["claims"][0]
        self.assertEqual(c["figure"]["verdict"], "refused: tracer sets differ")
        self.assertEqual(c["sign"], "not shown")
        self.assertEqual(c["mechanism"][0]["agrees"], "agrees")

    def test_index_command_bad_input(self):
        path = self.matrix(self.claim("o1", "hackbench time s", "+"))
        rc, _, se = run_tool("index", os.path.join(self.tmp.name, "nope"), path)
        self.assertEqual(rc, 2)
        self.assertIn("nope: no such directory", se)
        os.makedirs(self.out)
        rc, _, se = run_tool("index", self.out, path)
        self.assertEqual(rc, 2)
        self.assertIn("no run of e9 there", se)
        rc, _, se = run_tool("index", self.out, os.path.join(self.tmp.name, "none.ini"))
        self.assertEqual(rc, 2)
        self.assertIn("none.ini: cannot read it", se)


if __name__ == "__main__":
    unittest.main()
