# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab report and compare on what cyclic's figures leave out: missed
periods, samples above the histogram, and hackbench's rounds in one summary."""
import io
import os
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import rec, tool, CYC  # noqa: E402


class CyclicReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.n = 0

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, records, extra=()):
        self.n += 1
        path = os.path.join(self.tmp.name, f"{self.n}.log")
        lines = ["irqlab: start 0.1.0 deadbeef", "Command line: run=cyclic", *extra]
        lines += [rec(i, r) for i, r in enumerate(records)] + ["irqlab: end status=ok"]
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_tool(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = tool.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def test_missed_periods_in_report(self):
        rc, out, _ = self.run_tool("report", self.log([dict(CYC, missed=0)]))
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"CPU\s+prio\s+interval\s+count\s+missed\s+min")
        self.assertRegex(out, r"\n1\s+95\s+1000\s+300\s+0\s+2\.0\s+3\.6\s+54\.5")
        self.assertNotIn("FLAG", out)
        self.assertNotIn("note", out)
        rc, out, _ = self.run_tool("report", self.log([dict(CYC, missed=10234)]))
        self.assertEqual(rc, 1)
        self.assertIn("   FLAG: cyclic CPU1 missed 10234 period(s) of 10534: woken after "
                      "the next expiry too; those periods have no sample", out)
        self.assertRegex(out, r"\n1\s+95\s+1000\s+300\s+10234\s+2\.0")
        # an older kernel's record: unknown, said so, not a failure
        rc, out, _ = self.run_tool("report", self.log([CYC]))
        self.assertEqual(rc, 0)
        self.assertIn("note: cyclic: missed periods are not in these records", out)
        self.assertRegex(out, r"\n1\s+95\s+1000\s+300\s+\?\s+2\.0")

    def test_missed_periods_in_compare(self):
        a = [self.log([dict(CYC, missed=0)]) for _ in range(5)]
        b = [self.log([dict(CYC, missed=m)]) for m in (900, 1000, 1100, 950, 1050)]
        rc, out, _ = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertRegex(out, r"cyclic missed periods\s+ok\s+ok\s+0 \+- 0 \(5\)\s+"
                              r"1000 \+- 79 \(5\)\s+-\s+-\s+Welch t\s+<0\.001\s+worse")
        old = [self.log([CYC]) for _ in range(5)]
        rc, out, _ = self.run_tool("compare", "--a", *old, "--b", *b)
        self.assertRegex(out, r"cyclic missed periods\s+ok\s+ok\s+-\s+1000 \+- 79 \(5\)"
                              r".*missing on one side")
        self.assertIn("note: cyclic: missed periods are not in these records", out)


if __name__ == "__main__":
    unittest.main()
