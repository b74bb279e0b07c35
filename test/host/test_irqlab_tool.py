# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab: parse and report from synthetic serial logs."""
import io
import json
import os
import sys
import tempfile
import unittest
import zlib
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402

tool = _load._load("irqlab_tool", os.path.join(_load.ROOT, "tools", "irqlab"))


def rec(seq, obj, bad=False):
    text = json.dumps(obj, separators=(",", ":"))
    crc = zlib.crc32(text.encode()) ^ (1 if bad else 0)
    return f"[    1.000000] @irqlab {seq} {crc:08x} {text}"


CYC = {"type": "cyclic", "cpu": 1, "prio": 95, "interval_us": 1000, "count": 300,
       "thread_ns": [1987, 3570, 54498], "irq_ns": [409, 1876, 52795],
       "overflows": [0, 0], "clock": "icount"}
LAT = {"type": "lat_cpu", "tracer": "irqsoff", "what": "hackbench", "cpu": 0,
       "windows": 10, "min_ns": 36, "total_ns": 1000, "max_ns": 500, "dropped": 0}
MAX = {"type": "lat_max", "tracer": "irqsoff", "cpu": 0, "rank": 0, "ns": 500,
       "start": "__wake_up+0x27", "end": "__wake_up+0xfd", "parent": "-", "pid": 1}


class ToolTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, lines, name="a.log"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_tool(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = tool.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def clean_log(self):
        return self.log(["irqlab: start 0.1.0 deadbeef", "Command line: run=cyclic",
                         rec(0, CYC), rec(1, LAT), rec(2, MAX), "irqlab: end status=ok"])

    def test_report_tables(self):
        rc, out, _ = self.run_tool("report", self.clean_log())
        self.assertEqual(rc, 0)
        self.assertIn("command line: run=cyclic", out)
        self.assertRegex(out, r"1\s+95\s+1000\s+300\s+2\.0\s+3\.6\s+54\.5\s+0\.4\s+1\.9\s+52\.8\s+icount")
        self.assertRegex(out, r"hackbench\s+0\s+10\s+36\s+100\s+500\s+__wake_up\+0x27\s+__wake_up\+0xfd")

    def test_parse_json(self):
        dest = os.path.join(self.tmp.name, "out.json")
        rc, _, _ = self.run_tool("parse", self.clean_log(), "--json", dest)
        self.assertEqual(rc, 0)
        with open(dest) as f:
            res = json.load(f)
        self.assertEqual(res[0]["status"], "ok")
        self.assertEqual(res[0]["records"]["cyclic"][0]["thread_ns"][2], 54498)

    def test_corrupt_record_named_and_left_out(self):
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC, bad=True), rec(1, LAT),
                         "irqlab: end status=ok"])
        rc, out, _ = self.run_tool("report", path)
        self.assertEqual(rc, 1)
        self.assertIn("problem: line 2: record 0: CRC", out)
        self.assertNotIn("cyclic (us)", out)
        self.assertIn("irqsoff windows (ns)", out)

    def test_cut_log_and_missing_records(self):
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC), rec(3, LAT)])
        rc, out, _ = self.run_tool("report", path)
        self.assertEqual(rc, 1)
        self.assertIn("2 record(s) missing: seq 1-2", out)
        self.assertIn("no end banner", out)

    def test_unreadable_log(self):
        rc, _, err = self.run_tool("report", os.path.join(self.tmp.name, "nope.log"))
        self.assertEqual(rc, 2)
        self.assertIn("nope.log", err)


if __name__ == "__main__":
    unittest.main()
