# SPDX-License-Identifier: GPL-2.0
"""scripts/soak.py: SOAK_MIN validation and the per-configuration verdict."""
import os
import sys
import contextlib
import io
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402

soak = _load._load("irqlab_soak", os.path.join(_load.ROOT, "scripts", "soak.py"))

GOOD = ('{"type":"soak","ok":1,"s":300,"ops":10,"inj_s":1,"inj_p":2,"hotplug":3,'
        '"walks":6,"corrupt":0,"lockdep":0,"kasan":0,"lost":0,"objs":0,"pages":0,"tables":0}')


def rec(seq, text):
    return f"[    1.000000] @irqlab {seq} {zlib.crc32(text.encode()):08x} {text}"


class SoakTest(unittest.TestCase):
    def test_minutes_rejects_bad_values(self):
        for bad in ("abc", "0", "-3", "1.5", "10081", ""):
            with self.assertRaises(soak.argparse.ArgumentTypeError):
                soak.minutes_arg(bad)
        self.assertEqual(soak.minutes_arg("5"), 5)

    def test_bad_minutes_exit_2(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(soak.main(["--minutes", "x", "--no-build"]), 2)
        self.assertIn("not a whole number of minutes", err.getvalue())

    def test_pass_needs_pass_record_and_whole_records(self):
        ok, line = soak.verdict("soak", 0, [rec(0, '{"type":"x"}'), rec(1, GOOD)], 400)
        self.assertTrue(ok, line)
        self.assertIn("soak: soak: PASS: 300 s guest, 10 ops, 1+2 injected", line)

    def test_fail_record_fails(self):
        bad = GOOD.replace('"ok":1', '"ok":0')
        ok, line = soak.verdict("soak", 0, [rec(0, bad)], 1)
        self.assertFalse(ok)
        self.assertIn("soak record says fail", line)

    def test_lost_record_fails(self):
        ok, line = soak.verdict("soak", 0, [rec(0, '{"type":"x"}'), rec(2, GOOD)], 1)
        self.assertFalse(ok)
        self.assertIn("missing", line)

    def test_timeout_and_no_record_fail(self):
        ok, line = soak.verdict("soak_kasan", 2, [], 1)
        self.assertFalse(ok)
        self.assertIn("no verdict", line)
        self.assertIn("no soak record", line)


if __name__ == "__main__":
    unittest.main()
