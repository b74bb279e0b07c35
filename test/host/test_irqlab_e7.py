# SPDX-License-Identifier: GPL-2.0
"""E7 (tools/experiments/e7.ini, e7_icount.ini): the three shrinker list
protections under run=shrink.  The matrix files parse to what the experiment
says, and tools/irqlab's run=shrink figures (shrink_metrics()) come out of
synthetic records with the right names, units and direction."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import tool  # noqa: E402

EXP = os.path.join(_load.ROOT, "tools", "experiments")
CONFIGS = ["default", "shrinker_srcu", "shrinker_refcount"]
PAIRS = [("default", "shrinker_srcu", ["SHRINKER_RWSEM", "SHRINKER_SRCU"]),
         ("default", "shrinker_refcount", ["SHRINKER_RWSEM", "SHRINKER_REFCOUNT"]),
         ("shrinker_srcu", "shrinker_refcount", ["SHRINKER_SRCU", "SHRINKER_REFCOUNT"])]


def shrink(variant, clock, calls, ms, per_call, visits, unreg_avg, unreg_max, n=100):
    return {"shrink": [{"type": "shrink", "variant": variant, "shrinkers": 1000, "cpus": 1,
                        "ms": ms, "calls": calls, "cycles_per_call": per_call,
                        "min_cycles": 1, "visits_per_call": visits, "clock": clock}],
            "shrink_unreg": [{"type": "shrink_unreg", "variant": variant, "n": n,
                              "min_ns": 1, "avg_ns": unreg_avg, "max_ns": unreg_max,
                              "clock": clock}]}


class E7Files(unittest.TestCase):
    def test_tcg_matrix(self):
        mx = tool.load_matrix(os.path.join(EXP, "e7.ini"))
        self.assertEqual(mx["configs"], CONFIGS)
        self.assertEqual([(a, b, list(s)) for a, b, s in mx["compare"]], PAIRS)
        self.assertEqual((mx["smp"], mx["icount"]), (2, 0))
        self.assertEqual(mx["rule"], {"min_reps": 5, "max_reps": 20, "ci_width": 10.0,
                                      "stop_metrics": ["shrink visits per s"]})
        for cmd in mx["workloads"].values():
            self.assertTrue(cmd.startswith("run=shrink "), cmd)
        self.assertIn("shrink.count=10", mx["workloads"]["shrink_few"])
        self.assertIn("profile.hz=999", mx["workloads"]["shrink_few"])
        claims = {c["name"]: c for c in mx["claims"]}
        self.assertEqual(sorted(claims), ["e7-refcount-visits", "e7-srcu-unregister",
                                          "e7-srcu-visits", "e7-unregister"])
        srcu = claims["e7-srcu-visits"]
        self.assertEqual((srcu["a"], srcu["b"], srcu["workload"], srcu["metric"],
                          srcu["expect"]),
                         ("default", "shrinker_srcu", "shrink_few", "shrink visits per s", "+"))
        # the seed's figures travel with the claim
        for figure in ("0.17", "0.63", "32.31%", "16.24%"):
            self.assertIn(figure, srcu["seeds"])
        self.assertIn({"metric": "profile down_read_trylock %", "expect": "-"},
                      srcu["mechanism"])
        self.assertEqual(claims["e7-unregister"]["metric"], "shrink unregister avg us")

    def test_icount_matrix(self):
        mx = tool.load_matrix(os.path.join(EXP, "e7_icount.ini"))
        self.assertEqual(mx["configs"], CONFIGS)
        self.assertEqual((mx["smp"], mx["icount"], mx["reps"], mx["skew_ns"]),
                         (1, 1, 6, 500000))
        self.assertNotIn("rule", mx)
        metrics = {c["name"]: c["metric"] for c in mx["claims"]}
        self.assertEqual(metrics["e7-srcu-insns"], "shrink insns per call")
        self.assertEqual(metrics["e7-refcount-insns"], "shrink insns per visit")

    def test_listed_for_make_experiment_seeds(self):
        with open(os.path.join(_load.ROOT, "Makefile")) as f:
            line = next(ln for ln in f if ln.startswith("EXPERIMENTS ?=")).split()
        self.assertIn("e7", line)
        self.assertIn("e7_icount", line)

    def test_bad_shrink_metric_named(self):
        with open(os.path.join(EXP, "e7_icount.ini")) as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "e7_bad.ini")
            with open(path, "w") as f:
                f.write(text.replace("metric = shrink insns per call",
                                     "metric = shrink instructions per call", 1))
            with self.assertRaises(ValueError) as cm:
                tool.load_matrix(path)
        self.assertIn("'shrink instructions per call' is not a metric", str(cm.exception))


class ShrinkMetrics(unittest.TestCase):
    def test_icount_names_instructions(self):
        m = tool.metrics({"records": shrink("refcount", "icount", 11440, 1000, "87419.00",
                                            "1000.00", 343, 400)})
        self.assertEqual(m["shrink calls per s"], 11440)
        self.assertEqual(m["shrink visits per s"], 11440000)
        self.assertEqual(m["shrink insns per call"], 87419.0)
        self.assertAlmostEqual(m["shrink insns per visit"], 87.419)
        self.assertNotIn("shrink cycles per call", m)
        self.assertEqual(m["shrink visits per call"], 1000.0)
        self.assertAlmostEqual(m["shrink unregister avg us"], 0.343)
        self.assertAlmostEqual(m["shrink unregister max us"], 0.4)

    def test_tcg_names_cycles_and_skips_unregister_without_rounds(self):
        m = tool.metrics({"records": shrink("srcu", "TCG", 5000, 500, "312762.90", "200.00",
                                            0, 0, n=0)})
        self.assertEqual(m["shrink calls per s"], 10000)
        self.assertEqual(m["shrink cycles per call"], 312762.9)
        self.assertAlmostEqual(m["shrink cycles per visit"], 1563.8145)
        self.assertNotIn("shrink unregister avg us", m)

    def test_calls_that_visit_nobody_do_no_work(self):
        """rwsem calls that gave up: many calls, few visits."""
        m = tool.metrics({"records": shrink("rwsem", "TCG", 16000, 1000, "2430.00", "0.00",
                                            1, 1)})
        self.assertEqual(m["shrink calls per s"], 16000)
        self.assertEqual(m["shrink visits per s"], 0)
        self.assertNotIn("shrink cycles per visit", m)

    def test_malformed_record_gives_no_figures(self):
        r = shrink("rwsem", "icount", 1, 1, "x", "1", 1, 1)
        self.assertEqual(tool.shrink_metrics(r), {})

    def test_profile_shares_of_kept_samples(self):
        r = {"profile": [{"type": "profile", "what": "shrink", "hz": 999, "total": 110,
                          "dropped": 10, "missed": 0}],
             "profile_sym": [{"what": "shrink", "sym": "down_read_trylock", "n": 32},
                             {"what": "shrink", "sym": "up_read", "n": 16}]}
        m = tool.metrics({"records": r})
        self.assertAlmostEqual(m["profile down_read_trylock %"], 32.0)
        self.assertAlmostEqual(m["profile up_read %"], 16.0)
        # watched and not sampled: there, at 0
        self.assertEqual(m["profile shrink_slab %"], 0.0)
        self.assertNotIn("profile down_write %", m)
        # no profile at all: no shares
        self.assertNotIn("profile shrink_slab %", tool.metrics({"records": {}}))

    def test_calls_per_second_higher_is_better(self):
        a, b = [100.0, 101.0, 99.0, 100.5, 99.5], [130.0, 131.0, 129.0, 130.5, 129.5]
        self.assertEqual(tool.metric_verdict(a, b, "shrink calls per s"), "better")
        self.assertEqual(tool.metric_verdict(a, b, "shrink visits per s"), "better")
        self.assertEqual(tool.metric_verdict(a, b, "shrink visits per call"), "higher")
        self.assertEqual(tool.metric_verdict(b, a, "shrink calls per s"), "worse")
        self.assertEqual(tool.metric_verdict(a, b, "shrink unregister avg us"), "worse")
        self.assertEqual(tool.metric_verdict(a, b, "profile up_read %"), "higher")


if __name__ == "__main__":
    unittest.main()
