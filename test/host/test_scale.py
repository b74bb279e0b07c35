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
        self.assertEqual(w, ["RAM 256M -> 512M: kernel memory x2.63: "
                             "NOT EXPLAINED (the kernel's own cost)"])

    def test_table_columns(self):
        rows = [("1", mem(used_kb=1000), None), ("2", mem(cpus=2, used_kb=1500), None)]
        t = scale.table("ram", rows, 1.05)
        self.assertTrue(t[0].startswith("| RAM | boot (M insns, icount) |"))
        self.assertIn("| 2 | 50.0 | x1.00 | 1500 | x1.50 |", t[3])
        # other = used - named parts (16384+84+144+16 > 1500: clamped at 0)
        self.assertTrue(t[3].endswith("| 0 | - |"))
        rows[1][1]["ipis"] = 77
        self.assertTrue(scale.table("ram", rows, 1.05)[3].endswith("| 0 | 77 |"))
        rows = [("1", mem(), {"tcg_ns": 100_000_000, "idle_ns": 90_000_000}),
                ("2", mem(cpus=2), {"tcg_ns": 300_000_000, "idle_ns": None})]
        t = scale.table("cpus", rows, 1.05)
        self.assertIn("| boot (ms, TCG) | growth | CPU 0 alone (ms, TCG) | growth |", t[0])
        self.assertIn("| 2 | 50.0 | x1.00 | 300 | x3.00 ! | - |  |", t[3])


class PhaseTest(unittest.TestCase):
    def test_phase_from_printk_stamps(self):
        lines = ["[    0.100000] smp: Brought up 2 CPUs",
                 "[    0.178226] Early memory node ranges",
                 "[    0.178600]   node   0: [mem 0x0-0x1]",
                 "[    0.462290] mm: memory map: 262144 struct pages (16384K) at 0x0",
                 "[    0.500000] Early memory node ranges"]
        self.assertEqual(scale.phase_ns(lines), 284064000)
        self.assertIsNone(scale.phase_ns(lines[:3]))
        self.assertIsNone(scale.phase_ns(["Early memory node ranges",
                                          "mm: memory map: 1 struct pages"]))

    def test_phase_in_the_explanation(self):
        def row(n, insns, tcg, idle, phase):
            r = dict(mem(cpus=n, boot_ns=insns), phase_ns=phase[0])
            return (str(n), r, {"tcg_ns": tcg, "idle_ns": idle, "tcg_phase_ns": phase[1],
                                "idle_phase_ns": phase[2]})
        rows = [row(32, 100, 600, 400, (23_400_000, 267_000_000, 254_000_000)),
                row(64, 160, 1400, 700, (23_600_000, 830_000_000, 485_000_000))]
        (line, explained), = scale.judged_steps("vCPUs", rows, 1.05)
        self.assertTrue(explained)
        self.assertTrue(line.endswith("; the memory-map init, 23.4 -> 23.6 M guest "
                                      "instructions, took 267 -> 830 ms (254 -> 485 ms "
                                      "with CPU 0 alone)"), line)
        self.assertIn("| 23.6 / 830 / 485 |", scale.table("cpus", rows, 1.05)[3])


class JudgeTest(unittest.TestCase):
    """Whose a worse-than-linear step is: read from the figures, never assumed."""

    def rows(self, insns, tcg, idle, used=(1000, 1100, 1200)):
        return [(str(n), mem(cpus=n, boot_ns=i, used_kb=u), {"tcg_ns": t, "idle_ns": d})
                for n, i, t, d, u in zip((16, 32, 64), insns, tcg, idle, used)]

    def test_wall_step_with_linear_insns_is_qemus(self):
        r = self.rows((100, 150, 250), (500, 2200, 5000), (300, 900, 1800))
        steps = scale.judged_steps("vCPUs", r, 1.05)
        self.assertEqual([e for _, e in steps], [True, True, True])
        self.assertIn("vCPUs 16 -> 32: TCG wall time x4.40: QEMU's: the guest's "
                      "instructions grew x1.50 (linear); a 1-CPU boot with the same vCPUs "
                      "present grew x3.00", steps[0][0])
        self.assertIn("x2.27", steps[1][0])
        self.assertEqual(steps[2][0], "vCPUs 16 -> 32: CPU 0 alone, TCG wall time x3.00: "
                         "QEMU's: the guest ran the same 1-CPU boot")

    def test_wall_step_with_superlinear_insns_is_not_explained(self):
        r = self.rows((100, 250, 400), (500, 2200, 3000), (300, 400, 500))
        steps = scale.judged_steps("vCPUs", r, 1.05)
        self.assertEqual(len(steps), 2)
        self.assertTrue(all(not e for _, e in steps))
        self.assertTrue(steps[0][0].startswith("vCPUs 16 -> 32: guest instructions x2.50"))
        self.assertIn("TCG wall time x4.40: NOT EXPLAINED", steps[1][0])

    def test_render_counts_unexplained(self):
        r = self.rows((100, 250, 400), (500, 600, 700), (300, 400, 500))
        text = "\n".join(scale.render(r, [], "1G", 1.05, "default"))
        self.assertIn("Steps worse than linear (growth above x2.10): 1, 1 not explained", text)
        r = self.rows((100, 150, 250), (500, 600, 700), (300, 400, 500))
        text = "\n".join(scale.render(r, [], "1G", 1.05, "default"))
        self.assertIn("Steps worse than linear (growth above x2.10): none", text)


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
        self.assertEqual(self.run_main(["--tcg-runs", "0"])[0], 2)

    def write_point(self, d, n, used, tcg_runs=1):
        with open(os.path.join(d, f"cpus-{n}.log"), "w") as f:
            f.write(rec_line(0, mem(cpus=n, used_kb=used)) + "\n")
        for r in range(1, tcg_runs + 1):
            with open(os.path.join(d, f"cpus-{n}-tcg-{r}.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=n, boot_ns=n * 10**8 + r)) + "\n")
            with open(os.path.join(d, f"cpus-{n}-idle-{r}.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=1, boot_ns=n * 10**7 + r)) + "\n")

    def test_from_logs(self):
        with tempfile.TemporaryDirectory() as d:
            for n, used in ((1, 1000), (2, 2200)):
                self.write_point(d, n, used, tcg_runs=2)
            with open(os.path.join(d, "cpus-2-idle-icount.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=1)) + "\n")
            with open(os.path.join(d, "ram-128M.log"), "w") as f:
                f.write(rec_line(0, mem(ram_kb=131072)) + "\n")
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "1,2",
                                        "--ram", "128M", "--tcg-runs", "2"])
            self.assertEqual(rc, 0, out)
            self.assertIn("vCPUs 1 -> 2: kernel memory x2.20: NOT EXPLAINED", out)
            # The fastest TCG boot of a point counts: 200000001 ns, not ...02.
            self.assertIn("| 2 | 50.0 | x1.00 | 200 | x2.00 | 20 | x2.00 |", out)
            self.assertIn("CPU 0 alone under icount at 2 vCPUs: 50.0 M", out)
            with open(os.path.join(d, "scale.json")) as f:
                self.assertEqual(json.load(f)["cpus"][1]["tcg_ns"], 200000001)
            # A point without its log fails the run, naming it.
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "1,4",
                                        "--ram", ""])
            self.assertEqual(rc, 1)
            self.assertIn("cpus-4.log", out)
            # So does a missing TCG boot.
            os.unlink(os.path.join(d, "cpus-2-tcg-1.log"))
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "1,2",
                                        "--ram", "", "--tcg-runs", "2"])
            self.assertEqual(rc, 1)
            self.assertIn("cpus-2-tcg-1.log", out)

    def test_idle_boot_must_be_one_cpu(self):
        with tempfile.TemporaryDirectory() as d:
            self.write_point(d, 2, 1000)
            with open(os.path.join(d, "cpus-2-idle-1.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=2)) + "\n")
            with open(os.path.join(d, "cpus-2-idle-icount.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=1)) + "\n")
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "2", "--ram", "",
                                        "--tcg-runs", "1"])
            self.assertEqual(rc, 1)
            self.assertIn("cpus-2-idle-1.log: 2 CPUs, want 1", out)

    def test_docs_block(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, "scale.md")
            with open(doc, "w") as f:
                f.write("a\n<!-- scale:results begin commit=old -->\nold\n"
                        "<!-- scale:results end -->\nb\n")
            scale.write_docs(doc, ["new"], {"commit": "abc1234"})
            with open(doc) as f:
                text = f.read()
            self.assertIn("commit=abc1234", text)
            self.assertIn("\nnew\n", text)
            self.assertNotIn("old", text)
            self.assertTrue(text.startswith("a\n") and text.endswith("end -->\nb\n"))
            with open(doc, "w") as f:
                f.write("no block\n")
            with self.assertRaisesRegex(scale.ScaleError, "one scale:results block"):
                scale.write_docs(doc, ["new"], {})

    def test_wrong_cpu_count_fails(self):
        with tempfile.TemporaryDirectory() as d:
            self.write_point(d, 4, 1000)
            with open(os.path.join(d, "cpus-4.log"), "w") as f:
                f.write(rec_line(0, mem(cpus=2)) + "\n")
            rc, out, _ = self.run_main(["--logs", d, "--out", d, "--cpus", "4", "--ram", "",
                                        "--tcg-runs", "1"])
            self.assertEqual(rc, 1)
            self.assertIn("2 CPUs, want 4", out)


if __name__ == "__main__":
    unittest.main()
