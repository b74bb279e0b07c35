# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab report and compare on what cyclic's figures leave out: missed
periods, samples above the histogram, and hackbench's rounds in one summary."""
import html
import io
import os
import re
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import rec, run_tool, tool, CYC  # noqa: E402
from _logs import LogCase  # noqa: E402


class CyclicReportTest(LogCase):
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

    def test_missed_periods_flag_a_serial_capture(self):
        import pty
        master, slave = pty.openpty()
        for line in ("irqlab: start 0.1.0 deadbeef", rec(0, dict(CYC, missed=3)),
                     "irqlab: end status=ok"):
            os.write(master, (line + "\r\n").encode())
        rc, out, _ = self.run_tool("serial", os.ttyname(slave), "--timeout", "10",
                                   "--out", os.path.join(self.tmp.name, "s.log"))
        os.close(master)
        os.close(slave)
        self.assertEqual(rc, 1)
        self.assertIn("FLAG: cyclic CPU1 missed 3 period(s)", out)

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
        # samples above the histogram: one line for all the logs, not one per thread
        over = [self.log([dict(CYC, overflows=[n, 1], missed=0)]) for n in range(1, 6)]
        rc, out, _ = self.run_tool("compare", "--a", *over, "--b", *a)
        self.assertEqual([l for l in out.splitlines() if "histogram" in l],
                         ["note: 5 of 10 log(s) have cyclic samples above the histogram "
                          "(tools/irqlab report shows how many)"])

    def test_hackbench_summary(self):
        def hb(s):
            return {"type": "hackbench", "groups": 2, "fds": 20, "loops": 20, "size": 100,
                    "time_ns": int(s * 1e9), "ctxsw": 1, "migrations": 0, "clock": "icount"}
        # an older kernel: computed from the rounds (sample sd, n - 1)
        rc, out, _ = self.run_tool("report", self.log([hb(1), hb(2), hb(3), hb(4)]))
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"hackbench summary \(s; from the 4 round record\(s\)\)\n"
                              r"rounds\s+mean\s+sd\s+min\s+max\n"
                              r"4\s+2\.500\s+1\.291\s+1\.000\s+4\.000\n")
        rc, out, _ = self.run_tool("report", self.log([hb(0.25)]))
        self.assertRegex(out, r"\n1\s+0\.250\s+0\.000\s+0\.250\s+0\.250\n")
        # the guest's own summary wins, and a round record lost is said
        summ = {"type": "hackbench_summary", "n": 3, "mean_ns": 2000000000,
                "sd_ns": 1000000000, "min_ns": 1000000000, "max_ns": 3000000000}
        rc, out, _ = self.run_tool("report", self.log([hb(1), hb(3), summ]))
        self.assertRegex(out, r"hackbench summary \(s; the guest's summary, 2 round record\(s\) "
                              r"in the log\)\n.*\n3\s+2\.000\s+1\.000\s+1\.000\s+3\.000\n")
        rc, out, _ = self.run_tool("report", self.log([dict(CYC, missed=0)]))
        self.assertNotIn("hackbench", out)


def svg_boxes(path):
    """{fill colour: [heights]} of an SVG's filled polygons, and its texts."""
    with open(path) as f:
        svg = f.read()
    boxes = {}
    for fill, pts in re.findall(r"<polygon fill = 'rgb\(([\d ,]+)\)'[^>]*points = '([^']*)'", svg):
        ys = [float(p.split(",")[1]) for p in pts.split()]
        rgb = "#" + "".join(f"{int(v):02x}" for v in fill.split(","))
        boxes.setdefault(rgb, []).append(round(max(ys) - min(ys), 2))
    texts = [html.unescape(t).strip() for t in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)]
    return boxes, texts


@unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot (apt-get install gnuplot-nox)")
class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def plot(self, *args):
        svg = os.path.join(self.tmp.name, "p.svg")
        self.assertTrue(tool.plot_svg(*args[:3], svg, *args[3:]))
        return svg_boxes(svg)

    def test_overflow_bar_and_single_samples(self):
        boxes, texts = self.plot("cyclic CPU0, thread level", "latency (us)",
                                 [(1, 1), (2, 50), (3, 1)], (570, 100))
        blue = boxes[tool.PLOT_RGB]
        self.assertEqual(len(blue), 3)
        self.assertTrue(all(h >= 5 for h in blue), f"a count-1 bucket is drawn: {blue}")
        # the bar, and its sample in the key
        self.assertEqual(len(boxes[tool.OVERFLOW_RGB]), 2)
        self.assertGreater(max(boxes[tool.OVERFLOW_RGB]), max(blue))
        self.assertIn("570 samples (91.6%) above 100 us", texts)
        self.assertIn(">100", texts)
        # nothing above: said so, no bar
        boxes, texts = self.plot("cyclic CPU0, irq level", "latency (us)", [(2, 5)], (0, 100))
        self.assertNotIn(tool.OVERFLOW_RGB, boxes)
        self.assertIn("no sample above 100 us", texts)

    def test_log2_axis_labels(self):
        bins = [(0, 3), (32, 100), (64, 40), (4096, 2), (1 << 20, 1), (1 << 25, 1)]
        boxes, texts = self.plot("irqsoff windows, CPU0 (log2 buckets)",
                                 "window (bucket start)", bins)
        self.assertEqual(len(boxes[tool.PLOT_RGB]), 6)
        self.assertTrue(all(h >= 5 for h in boxes[tool.PLOT_RGB]), boxes)
        self.assertFalse([t for t in texts if re.search(r"\de[+-]?\d", t)], texts)
        ticks = [t for t in texts if re.search(r"\d [nmu]?s$", t)]
        self.assertLessEqual(len(ticks), 10, ticks)
        for t in ticks:
            self.assertRegex(t, r"^\d{1,3}(\.\d{1,2})? (ns|us|ms|s)$")
        self.assertIn("16.8 ms", ticks)		# 2^24 ns, every third power

    def test_report_html_draws_the_overflow(self):
        cyc = dict(CYC, cpu=0, count=1000, overflows=[570, 0], missed=0)
        hist = {"type": "cyclic_hist", "cpu": 0, "level": "thread", "part": 0,
                "bins": [[1, 400], [2, 29], [99, 1]]}
        ihist = dict(hist, level="irq", bins=[[0, 1000]])
        path = os.path.join(self.tmp.name, "a.log")
        with open(path, "w") as f:
            f.write("\n".join(["irqlab: start 0.1.0 deadbeef",
                               "cyclic: 1 thread(s) on CPU(s) 0, histogram 100 us",
                               rec(0, cyc), rec(1, hist), rec(2, ihist),
                               "irqlab: end status=ok"]) + "\n")
        res = tool.parse_log(path)
        self.assertEqual([h[3] for h in tool.histograms(res)], [(0, 100), (570, 100)])
        text = "\n".join(tool.report_log(res))
        self.assertRegex(text, r"max\s+>100us\s+irq min\s+irq avg\s+irq max\s+irq >100us")
        self.assertRegex(text, r"54\.5\s+570 \(57\.0%\)\s+0\.4\s+1\.9\s+52\.8\s+0 \(0\.0%\)")
        self.assertIn("note: cyclic CPU0: 570 (57.0%) of 1000 thread-level samples above "
                      "the 100 us histogram", text)
        # cyclic.hist_us= on the command line when cyclic's own line is gone
        with open(path, "w") as f:
            f.write("\n".join(["irqlab: start 0.1.0 deadbeef",
                               "Command line: run=cyclic cyclic.hist_us=250",
                               rec(0, cyc), rec(1, hist), "irqlab: end status=ok"]) + "\n")
        self.assertIn("above the 250 us histogram", "\n".join(tool.report_log(tool.parse_log(path))))


if __name__ == "__main__":
    unittest.main()
