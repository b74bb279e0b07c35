# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab compare: like with like, the right test for each figure, plain numbers."""
import io
import os
import sys
import unittest
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import tool, CYC  # noqa: E402
from _logs import LogCase  # noqa: E402


def cyc(max_ns, avg_ns=2500, clock="icount"):
    return dict(CYC, cpu=0, thread_ns=[1900, avg_ns, max_ns], clock=clock)


class CompareCliTest(LogCase):
    log_smp = 1

    def test_sides_differing_in_more_than_one_setting_are_refused(self):
        a = [self.log([cyc(9000)]) for _ in range(5)]
        b = [self.log([cyc(9000)], cmdline="run=cyclic cyclic.prio=50", config="cafef00d")
             for _ in range(5)]
        rc, out, err = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("A and B differ in configuration (hash) (deadbeef -> cafef00d); "
                      "command line (run=cyclic -> run=cyclic cyclic.prio=50), beyond the "
                      "variable under study", err)
        self.assertIn("not compared; name what is under study with --vary", err)
        # named as under study: compared
        rc, out, err = self.run_tool("compare", "--vary", "config", "--vary", "cmdline",
                                     "--a", *a, "--b", *b)
        self.assertEqual(rc, 0, err)
        self.assertIn("variable under study: configuration (hash) (deadbeef -> cafef00d); "
                      "command line", out)
        # --vary names one, they differ in two: still refused
        rc, out, err = self.run_tool("compare", "--vary", "cmdline", "--a", *a, "--b", *b)
        self.assertEqual(rc, 2)
        self.assertIn("beyond the variable under study (cmdline)", err)
        # --force: compared, with the warning on both streams
        rc, out, err = self.run_tool("compare", "--force", "--a", *a, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("WARNING (--force): A and B differ in configuration"))
        self.assertIn("WARNING", err)
        self.assertIn("cyclic max us", out)

    def test_one_difference_is_the_variable_under_study(self):
        for kw, what in (({"config": "cafef00d"}, "configuration (hash) (deadbeef -> cafef00d)"),
                         ({"smp": 2}, "CPUs (SMP) (1 -> 2)")):
            a = [self.log([cyc(9000)]) for _ in range(5)]
            b = [self.log([cyc(9000)], **kw) for _ in range(5)]
            rc, out, err = self.run_tool("compare", "--a", *a, "--b", *b)
            self.assertEqual(rc, 0, err)
            self.assertEqual(out.splitlines()[0], f"variable under study: {what}")
        # the clock comes from the records
        b = [self.log([cyc(9000, clock="tsc")]) for _ in range(5)]
        rc, out, err = self.run_tool("compare", "--a", *a[:0], *[self.log([cyc(9000)])
                                                                for _ in range(5)], "--b", *b)
        self.assertIn("variable under study: clock/mode (icount -> tsc)", out)
        # a side mixing two command lines
        a = [self.log([cyc(9000)]), self.log([cyc(9000)], cmdline="run=cyclic cyclic.loops=5")]
        rc, out, err = self.run_tool("compare", "--a", *a, "--b", *a)
        self.assertEqual(rc, 2)
        self.assertIn("side A mixes runs of different command line: run=cyclic / "
                      "run=cyclic cyclic.loops=5", err)

    def test_low_power_is_warned(self):
        a = [self.log([cyc(9000)]) for _ in range(4)]
        rc, out, _ = self.run_tool("compare", "--a", *a, "--b", *a[:2], self.log([cyc(9000)]),
                                   self.log([cyc(9000)]), self.log([cyc(9000)]))
        self.assertIn("warning: side A has 4 run(s): fewer than 5", out)
        self.assertNotIn("side B has", out)

    def test_maxima_get_a_rank_test_and_stand_side_by_side(self):
        a = [self.log([cyc(m, avg)]) for m, avg in ((10000, 2500), (10100, 2510), (10200, 2490))]
        b = [self.log([cyc(m, avg)]) for m, avg in ((20000, 3500), (20100, 3510), (20200, 3490))]
        rc, out, _ = self.run_tool("compare", "--a", *a, "--b", *b)
        # a t-test calls this worse (p < 0.001); the ranks of 3 against 3 cannot
        rows = {l.split("  ")[0]: l for l in out.splitlines()}
        self.assertRegex(rows["cyclic max us"], r"10\.1 \[10 \.\. 10\.2\] \(3\)\s+"
                         r"20\.1 \[20 \.\. 20\.2\] \(3\)\s+\+99\.0%\s+-\s+rank\s+0\.100\s+"
                         r"within noise$")
        self.assertRegex(rows["cyclic avg us"], r"Welch t\s+<0\.001\s+worse$")
        self.assertEqual(tool.verdict([10, 10.1, 10.2], [20, 20.1, 20.2], name="cyclic max us"),
                         "within noise")
        self.assertEqual(tool.verdict([10, 10.1, 10.2, 10.3, 10.4], [20, 20.1, 20.2, 20.3, 20.4],
                                      name="cyclic max us"), "worse")
        self.assertAlmostEqual(tool.p_value([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], "x max us"),
                               2 / 252)		# exact: 2 of C(10,5) orderings as extreme
        # one outlier moves a mean and its t-test, not the ranks
        self.assertEqual(tool.test_of("irqsoff slab max ns"), "rank")
        self.assertEqual(tool.test_of("rt_migrate worst wait us"), "rank")
        self.assertEqual(tool.test_of("hackbench time s"), "Welch t")

    def test_fixed_point_and_no_duplicate_rows(self):
        def slab(c):
            return {"type": "slabbench", "name": "kmalloc", "size": 16,
                    "cycles_per_op": c, "clock": "icount"}
        a = [self.log([cyc(9000), slab(c)]) for c in (1500000, 1510000, 1490000, 1500000, 1505000)]
        b = [self.log([cyc(9000), slab(c)]) for c in (2500000, 2510000, 2490000, 2500000, 2505000)]
        rc, out, _ = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertNotRegex(out, r"\de[+-]\d")
        self.assertIn("1501000 +- 7400 (5)", out)
        names = [l.split("  ")[0] for l in out.splitlines()[2:] if l.strip()]
        self.assertEqual(len(names), len(set(names)), out)
        # one cyclic thread: its figures once, not again as thread 0
        self.assertNotIn("cyclic t0", out)
        self.assertEqual(tool.fixed(1234567.0), "1235000")
        self.assertEqual(tool.fixed(0.00012346), "0.0001235")
        self.assertEqual(tool.fixed(54.498), "54.5")
        self.assertEqual(tool.fixed(0.0), "0")


if __name__ == "__main__":
    unittest.main()
