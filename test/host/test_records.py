# SPDX-License-Identifier: GPL-2.0
"""scripts/records.py: CRC, JSON, duplicate and gap checks of @irqlab records."""
import os
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402

records = _load._load("irqlab_records", os.path.join(_load.ROOT, "scripts", "records.py"))


def rec(seq, text, crc=None):
    crc = zlib.crc32(text.encode()) if crc is None else crc
    return f"[    1.000000] @irqlab {seq} {crc:08x} {text}"


class RecordsTest(unittest.TestCase):
    def test_clean_log(self):
        lines = [rec(0, '{"type":"a","x":1}'), "other text", rec(1, '{"type":"b"}')]
        r = records.parse(lines)
        self.assertEqual(r.problems, [])
        self.assertEqual([s for s, _ in r.items], [0, 1])
        self.assertEqual(r.of_type("a"), [{"type": "a", "x": 1}])

    def test_crc_mismatch_is_named(self):
        good = '{"type":"a"}'
        lines = [rec(0, good), rec(1, '{"type":"b"}', crc=zlib.crc32(good.encode()))]
        p = records.parse(lines).problems
        self.assertEqual(len(p), 1)
        self.assertIn("line 2: record 1: CRC", p[0])

    def test_bad_json_with_right_crc(self):
        p = records.parse([rec(0, '{"type":')]).problems
        self.assertEqual(len(p), 1)
        self.assertIn("not JSON", p[0])

    def test_gap_and_duplicate(self):
        lines = [rec(0, '{"a":1}'), rec(2, '{"a":2}'), rec(2, '{"a":2}'), rec(5, '{"a":3}')]
        r = records.parse(lines)
        self.assertEqual(r.missing, [1, 3, 4])
        self.assertIn("record seq seen twice: 2", r.problems)
        self.assertIn("3 record(s) missing: seq 1, 3-4", r.problems)

    def test_gap_announced_by_the_kernel_is_still_a_loss(self):
        # Records have their own ring in the kernel: a drop line excuses text, not records.
        lines = [rec(0, '{"a":1}'), "** 7 printk messages dropped **", rec(3, '{"a":2}')]
        r = records.parse(lines)
        self.assertEqual(r.dropped, 7)
        self.assertEqual(r.problems,
                         ["2 record(s) missing: seq 1-2 (the kernel dropped 7 line(s))"])

    def test_dropped_text_without_lost_records_is_fine(self):
        lines = [rec(0, '{"a":1}'), "** 7 printk messages dropped **", rec(1, '{"a":2}')]
        self.assertEqual(records.parse(lines).problems, [])

    def test_truncated_line_is_corrupt(self):
        full = '{"type":"cyclic","cpu":0}'
        line = rec(0, full)[:-5]
        self.assertEqual(len(records.parse([line]).corrupt), 1)


if __name__ == "__main__":
    unittest.main()
