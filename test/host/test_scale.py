"""scripts/scale.py: the mem_used record, growth per doubling, the table, bad input."""

import io
import json
import os
import tempfile
import unittest
import zlib
from contextlib import redirect_stderr, redirect_stdout

import _load

scale = _load._load("irqlab_scale", os.path.join(_load.ROOT, "scripts", "scale.py"))


def rec_line(seq, obj):
    text = json.dumps(obj, separators=(",", ":"))
    return f"[    0.1] @irqlab {seq} {zlib.crc32(text.encode()):08x} {text}"


def mem(cpus=1, ram_kb=1 << 20, used_kb=20000, boot_ns=50_000_000, memmap_kb=16384,
        percpu_kb=84, pgtable_kb=144, slab_kb=16):
    return {"type": "mem_used", "cpus": cpus, "ram_kb": ram_kb, "used_kb": used_kb,
            "memmap_kb": memmap_kb, "percpu_kb": percpu_kb, "pgtable_kb": pgtable_kb,
            "slab_kb": slab_kb, "boot_ns": boot_ns}


class MemUsedTest(unittest.TestCase):
    def test_found(self):
        r = scale.mem_used(["x", rec_line(0, {"type": "meminfo"}), rec_line(1, mem())], "l")
        self.assertEqual(r["used_kb"], 20000)

    def test_missing_or_twice(self):
        with self.assertRaisesRegex(scale.ScaleError, "0 mem_used"):
            scale.mem_used([rec_line(0, {"type": "meminfo"})], "l")
        with self.assertRaisesRegex(scale.ScaleError, "2 mem_used"):
            scale.mem_used([rec_line(0, mem()), rec_line(1, mem())], "l")

    def test_lost_or_corrupt_records_fail(self):
        with self.assertRaisesRegex(scale.ScaleError, "missing"):
            scale.mem_used([rec_line(0, mem()), rec_line(2, {"type": "x"})], "l")
        bad = rec_line(0, mem()).replace('"cpus":1', '"cpus":2')
        with self.assertRaisesRegex(scale.ScaleError, "CRC"):
            scale.mem_used([bad], "l")

    def test_incomplete(self):
        r = mem()
        del r["slab_kb"]
        with self.assertRaisesRegex(scale.ScaleError, "slab_kb"):
            scale.mem_used([rec_line(0, r)], "l")


class GrowthTest(unittest.TestCase):
    def test_growth_and_flags(self):
        self.assertEqual(scale.growth([1, 2, 6, 0, 5]), [None, 2.0, 3.0, 0.0, None])
        self.assertEqual(scale.fmt_growth(2.0, 1.05), "x2.00")
        self.assertEqual(scale.fmt_growth(2.2, 1.05), "x2.20 !")
        self.assertEqual(scale.fmt_growth(None, 1.05), "")

    def test_worse_than_linear_named(self):
        rows = [("128M", mem(used_kb=100, boot_ns=10), None),
                ("256M", mem(used_kb=190, boot_ns=20), None),
                ("512M", mem(used_kb=500, boot_ns=39), None)]
        w = scale.worse_than_linear("RAM", rows, 1.05)
        self.assertEqual(w, ["RAM 256M -> 512M: kernel memory x2.63"])

    def test_table_columns(self):
        rows = [("1", mem(used_kb=1000), None), ("2", mem(cpus=2, used_kb=1500), None)]
        t = scale.table("cpus", rows, 1.05)
        self.assertTrue(t[0].startswith("| vCPUs | boot (ms, TCG) |"))
        self.assertIn("| 2 | 50 | x1.00 | 1500 | x1.50 |", t[3])
        # other = used - named parts (16384+84+144+16 > 1500: clamped at 0)
        self.assertTrue(t[3].endswith("| 0 | - |"))
        rows[1][1]["ipis"] = 77
        self.assertTrue(scale.table("cpus", rows, 1.05)[3].endswith("| 0 | 77 |"))


class MainTest(unittest.TestCase):
    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = scale.main(argv)
        return rc, out.getvalue(), err.getvalue()

    def test_bad_lists(self):
        self.assertEqual(self.run_main(["--cpus", "1,x"])[0], 2)
        self.assertEqual(self.run_main(["--cpus", "1,300"])[0], 2)
        self.assertEqual(self.run_main(["--ram", "12Q"])[0], 2)
        self.assertEqual(self.run_main(["--tolerance", "0.5"])[0], 2)

    def test_from_logs(self):
        with tempfile.TemporaryDirectory() as d:
            for n, used in ((1, 1000), (2, 2200)):
                with open(os.path.join(d, f"cpus-{n}.log"), "w") as f:
                    f.write(rec_line(0, mem(cpus=n, used_kb=used)) + "\n")
            with open(os.path.join(d, "ram-128M.log"), "w") as f:
                f.write(rec_line(0, mem(ram_kb=131072)) + "\n")
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "1,2",
                                        "--ram", "128M"])
            self.assertEqual(rc, 0)
            self.assertIn("vCPUs 1 -> 2: kernel memory x2.20", out)
            self.assertTrue(os.path.exists(os.path.join(d, "scale.json")))
            # A point without its log fails the run, naming it.
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "1,4",
                                        "--ram", ""])
            self.assertEqual(rc, 1)
            self.assertIn("cpus-4.log", out)

    def test_wrong_cpu_count_fails(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "cpus-4.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=2)) + "\n")
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "4", "--ram", ""])
            self.assertEqual(rc, 1)
            self.assertIn("2 CPUs, want 4", out)


if __name__ == "__main__":
    unittest.main()
