# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab lockstat (scripts/lockstat.py): lock_stat's records back into
Linux's table, and what it says about a log that lost, corrupted or never had
them."""
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import rec, run_tool  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TS_RE = re.compile(r"^\[\s*\d+\.\d+\] ")

RUN = {"type": "lock_stat_run", "clock": "tsc", "tsc_khz": 1000000, "classes": 3,
       "printed": 1, "class_overflow": 0, "depth_overflow": 0}


def lock_class(name="&zone->lock", con=8, acq=16):
    """The records of one contended class; 1 GHz: ticks are ns."""
    return [
        {"type": "lock_stat", "class": name, "rw": "w", "con": con, "acq": acq,
         "cb": 8, "ab": 16},
        {"type": "lock_stat_time", "class": name, "rw": "w", "what": "wait",
         "min": 1500, "max": 2500000, "total": 4000000},
        {"type": "lock_stat_time", "class": name, "rw": "w", "what": "hold",
         "min": 994, "max": 1006, "total": 16000},
        {"type": "lock_stat_wait", "class": name, "fastpath": 8, "spin_acquired": 3,
         "slept": 5, "sleeps": 9},
        {"type": "lock_stat_site", "class": name, "kind": "contention", "n": 8,
         "ip": "ffffffff81001234", "sym": "rmqueue+0x34/0x200"},
        {"type": "lock_stat_site", "class": name, "kind": "contending", "n": 8,
         "ip": "ffffffff81005678", "sym": "free_one_page+0x18/0x90"},
    ]


class LockstatTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.n = 0

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, records, bad=None, skip=None, tail=True):
        self.n += 1
        path = os.path.join(self.tmp.name, f"{self.n}.log")
        lines = ["irqlab: start 0.1.0 deadbeef"]
        lines += [rec(i, r, bad=(i == bad)) for i, r in enumerate(records) if i != skip]
        if tail:
            lines.append("irqlab: end status=ok")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def test_table_in_linux_layout(self):
        rc, out, err = run_tool("lockstat", self.log(lock_class() + [RUN]))
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(err, "")
        lines = out.splitlines()
        self.assertEqual(lines[0], "lock_stat version 0.4")
        self.assertEqual(len(lines[1]), 40 + 1 + 12 * 15)
        self.assertRegex(lines[2], r"^ {30}class name {4}con-bounces {4}contentions")
        # wait 1.5 us .. 2500 us, total 4000 us over 8: avg 500 us; hold ~1 us
        self.assertIn(" " * 28 + "&zone->lock:" + " " * 13 + "8              8           1.50"
                      "        2500.00        4000.00         500.00             16"
                      "             16           0.99           1.01          16.00"
                      "           1.00", out)
        self.assertIn("&zone->lock fastpath 8, spin-acquired 3, slept 5 (9 sleeps)", out)
        self.assertRegex(out, r"&zone->lock {14}8 +\[<ffffffff81001234>\] rmqueue\+0x34/0x200")
        self.assertRegex(out, r"&zone->lock {14}8 +\[<ffffffff81005678>\] free_one_page")

    def test_read_and_write_sides(self):
        recs = lock_class("&mm->mmap_lock")
        recs += [dict(r, rw="r") for r in recs[:3]]
        rc, out, _ = run_tool("lockstat", self.log(recs + [RUN]))
        self.assertEqual(rc, 0)
        self.assertIn("&mm->mmap_lock-W:", out)
        self.assertIn("&mm->mmap_lock-R:", out)

    def test_truncated_log_has_no_report(self):
        # the run ended (or the capture stopped) before the report's last record
        rc, out, err = run_tool("lockstat", self.log(lock_class(), tail=False))
        self.assertEqual(rc, 1)
        self.assertIn("no lock_stat report (no lock_stat_run record)", err)

    def test_lost_record_is_named(self):
        rc, out, err = run_tool("lockstat", self.log(lock_class() + [RUN], skip=2))
        self.assertEqual(rc, 1)
        self.assertIn("1 record(s) missing: seq 2", err)
        self.assertIn("class &zone->lock (w): no hold time record", err)

    def test_corrupt_record_is_named(self):
        rc, out, err = run_tool("lockstat", self.log(lock_class() + [RUN], bad=0))
        self.assertEqual(rc, 1)
        self.assertIn("record 0: CRC", err)
        self.assertIn("lock_stat_run says 1 classes were printed, the log has lock_stat "
                      "records of 0", err)

    def test_record_lacking_a_member(self):
        recs = lock_class() + [RUN]
        del recs[1]["max"]
        rc, out, err = run_tool("lockstat", self.log(recs))
        self.assertEqual(rc, 1)
        self.assertIn('record 1: lock_stat_time record without "max"', err)
        recs = lock_class() + [RUN]
        recs[0]["rw"] = "x"
        rc, out, err = run_tool("lockstat", self.log(recs))
        self.assertEqual(rc, 1)
        self.assertIn('record 0: lock_stat record: "rw" is "x"', err)

    def test_inconsistent_counts(self):
        recs = lock_class(con=20, acq=16) + [RUN]
        rc, out, err = run_tool("lockstat", self.log(recs))
        self.assertEqual(rc, 1)
        self.assertIn("20 contentions but 16 acquisitions", err)

    def test_unreadable_and_empty(self):
        rc, out, err = run_tool("lockstat", os.path.join(self.tmp.name, "absent.log"))
        self.assertEqual(rc, 2)
        self.assertIn("absent.log: No such file or directory", err)
        empty = os.path.join(self.tmp.name, "empty.log")
        open(empty, "w").close()
        rc, out, err = run_tool("lockstat", empty)
        self.assertEqual(rc, 1)
        self.assertIn("no lock_stat report", err)
        binary = os.path.join(self.tmp.name, "bin.log")
        with open(binary, "wb") as f:
            f.write(bytes(range(256)) * 4)
        rc, out, err = run_tool("lockstat", binary)
        self.assertEqual(rc, 1)

    def test_kernel_table_matches(self):
        """A real run's table (lock_stat, SMP=2, the lock_stat ktest suite):
        the tool rebuilds from the records exactly what the kernel printed."""
        path = os.path.join(DATA, "lockstat-smp2.log")
        rc, out, err = run_tool("lockstat", path)
        self.assertEqual(rc, 0, err)
        with open(path) as f:
            text = [TS_RE.sub("", l) for l in f.read().splitlines()]
        start = text.index("lock_stat version 0.4")
        kernel = [l.rstrip() for l in text[start:] if "@irqlab " not in l]
        kernel = [l for l in kernel if not l.startswith("lock_stat: ")]
        tool = [l.rstrip() for l in out.splitlines() if not l.startswith("lock_stat: ")]
        self.assertEqual(tool, kernel)
        self.assertIn("ls_raw:", out)


if __name__ == "__main__":
    unittest.main()
