# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab perfstat (scripts/perfstat.py): perf stat's summaries back
from the records, and what it says about a log that lost, corrupted or never
had them."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402,F401
from test_irqlab_tool import rec, run_tool  # noqa: E402

PS = {"type": "perf_stat", "what": "hackbench", "runs": 3, "task_ns": 14226674, "cs": 214,
      "nvcsw": 211, "nivcsw": 2, "migr": 0, "elapsed_ns": 15222505, "err_x100": 19}
ICOUNT = {"type": "perf_stat_pmu", "what": "hackbench", "src": "icount",
          "insns": 14226674, "cycles": None}
PMU = {"type": "perf_stat_pmu", "what": "hackbench", "src": "pmu",
       "insns": 2000000, "cycles": 1000000}


class PerfstatTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.n = 0

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, recs, bad=None, skip=None, tail=True, cut=None):
        self.n += 1
        path = os.path.join(self.tmp.name, f"{self.n}.log")
        lines = ["irqlab: start 0.1.0 deadbeef"]
        lines += [rec(i, r, bad=(i == bad)) for i, r in enumerate(recs) if i != skip]
        if tail:
            lines.append("irqlab: end status=ok")
        text = "\n".join(lines) + "\n"
        with open(path, "w") as f:
            f.write(text[:cut] if cut else text)
        return path

    def test_summary_in_perf_layout(self):
        rc, out, err = run_tool("perfstat", self.log([PS, ICOUNT]))
        self.assertEqual((rc, err), (0, ""), out)
        self.assertIn(" Performance counter stats for 'hackbench' (3 runs):", out)
        self.assertRegex(out, r"\n {13}14\.23 msec task-clock {16}# +0\.935 CPUs utilized")
        self.assertRegex(out, r"\n {15}214      context-switches +# +15\.04\d K/sec")
        self.assertIn("   <not supported>      cycles", out)
        self.assertIn("        14,226,674      instructions              # icount", out)
        self.assertRegex(out, r"0\.015222505 \+- 0\.0000289\d\d seconds time elapsed  "
                         r"\( \+-  0\.19% \)")

    def test_pmu_counts_and_ipc(self):
        rc, out, _ = run_tool("perfstat", self.log([dict(PS, runs=1), PMU]))
        self.assertEqual(rc, 0)
        self.assertIn("for 'hackbench':", out)
        self.assertIn("         1,000,000      cycles", out)
        self.assertIn("# 2.00  insn per cycle", out.replace(" 2.00", "2.00"))

    def test_no_pmu_record_means_not_supported(self):
        rc, out, _ = run_tool("perfstat", self.log([PS]))
        self.assertEqual(rc, 0)
        self.assertEqual(out.count("<not supported>"), 2)

    def test_log_without_summary(self):
        rc, out, err = run_tool("perfstat", self.log([]))
        self.assertEqual(rc, 1)
        self.assertIn("no perf stat summary (no perf_stat record)", err)

    def test_truncated_log(self):
        # the capture stopped inside the perf_stat record's line
        path = self.log([PS, ICOUNT], tail=False)
        with open(path) as f:
            text = f.read()
        cut = text.index('"nivcsw"')
        rc, out, err = run_tool("perfstat", self.log([PS, ICOUNT], tail=False, cut=cut))
        self.assertEqual(rc, 1)
        self.assertIn("record 0: CRC", err)
        self.assertIn("no perf stat summary", err)
        self.assertNotIn("Performance counter stats", out)
        # a pmu record whose perf_stat record was lost is not pinned on another run
        rc, out, err = run_tool("perfstat", self.log([PS, PS, ICOUNT], skip=1))
        self.assertEqual(rc, 1)
        self.assertIn("1 record(s) missing: seq 1", err)
        for recs in ([ICOUNT], [PS, ICOUNT, ICOUNT], [PS, dict(ICOUNT, what="slabbench")]):
            rc, out, err = run_tool("perfstat", self.log(recs))
            self.assertEqual(rc, 1, recs)
            self.assertIn("perf_stat_pmu record without its perf_stat record", err)

    def test_lost_record_is_named(self):
        rc, out, err = run_tool("perfstat", self.log([PS, ICOUNT, PS], skip=1))
        self.assertEqual(rc, 1)
        self.assertIn("1 record(s) missing: seq 1", err)

    def test_corrupt_record_is_named(self):
        rc, out, err = run_tool("perfstat", self.log([PS, ICOUNT], bad=0))
        self.assertEqual(rc, 1)
        self.assertIn("record 0: CRC", err)
        self.assertIn("no perf stat summary", err)

    def test_record_lacking_a_member_or_badly_typed(self):
        bad = dict(PS)
        del bad["migr"]
        rc, _, err = run_tool("perfstat", self.log([bad]))
        self.assertEqual(rc, 1)
        self.assertIn('perf_stat record without "migr"', err)
        rc, _, err = run_tool("perfstat", self.log([PS, dict(ICOUNT, src="guess")]))
        self.assertEqual(rc, 1)
        self.assertIn('perf_stat_pmu record: "src" is "guess"', err)
        rc, _, err = run_tool("perfstat", self.log([dict(PS, cs=-1)]))
        self.assertEqual(rc, 1)
        self.assertIn('"cs" is -1', err)
        rc, _, err = run_tool("perfstat", self.log([PS, dict(PMU, cycles="many")]))
        self.assertEqual(rc, 1)
        self.assertIn("PMU counts without cycles", err)

    def test_inconsistent_counts(self):
        rc, _, err = run_tool("perfstat", self.log([dict(PS, cs=100)]))
        self.assertEqual(rc, 1)
        self.assertIn("211 voluntary and 2 involuntary switches but 100 in all", err)
        rc, _, err = run_tool("perfstat", self.log([dict(PS, runs=0)]))
        self.assertEqual(rc, 1)
        self.assertIn("hackbench: 0 runs", err)

    def test_time_blocked_per_lock_class(self):
        lk = {"type": "perf_stat_lock", "what": "hackbench", "class": "&n->list_lock",
              "blocked_ns": 138704190, "con": 998}
        rc, out, err = run_tool("perfstat", self.log([lk, PS, ICOUNT]))
        self.assertEqual((rc, err), (0, ""), out)
        self.assertIn("            138.70 msec blocked on &n->list_lock", out)
        self.assertIn("#      998 contentions", out)
        # another run's, or one whose summary never came (truncated log)
        for recs in ([dict(lk, what="slabbench"), PS], [PS, lk]):
            rc, out, err = run_tool("perfstat", self.log(recs))
            self.assertEqual(rc, 1, recs)
            self.assertIn("a perf_stat_lock record without its perf_stat record", err)
        rc, out, err = run_tool("perfstat", self.log([dict(lk, con="x"), PS]))
        self.assertEqual(rc, 1)
        self.assertIn('perf_stat_lock record: "con" is "x"', err)

    def test_unreadable_log(self):
        rc, _, err = run_tool("perfstat", os.path.join(self.tmp.name, "nope.log"))
        self.assertEqual(rc, 2)
        self.assertIn("nope.log", err)


if __name__ == "__main__":
    unittest.main()
