# SPDX-License-Identifier: GPL-2.0
"""scripts/mkiso.sh with ISO_CELLS (make iso-experiments): one GRUB entry per
experiment cell, each booting its configuration's kernel with its command
line; bad cells refused before anything is built."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402

MKISO = os.path.join(_load.ROOT, "scripts", "mkiso.sh")
TOOLS = ("grub-mkrescue", "xorriso", "mformat", "objcopy")


@unittest.skipUnless(all(shutil.which(t) for t in TOOLS), "needs " + ", ".join(TOOLS))
class MkisoCellsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.d = self.tmp.name
        self.build = os.path.join(d, "build")
        # any ELF will do: GRUB is not run here, only the image is built
        for c in ("rt", "rt_nopartial"):
            os.makedirs(os.path.join(self.build, c))
            shutil.copy(shutil.which("true"), os.path.join(self.build, c, "kernel.elf"))
        self.loader = os.path.join(d, "BOOTX64.EFI")
        with open(self.loader, "wb") as f:
            f.write(b"MZ" + b"\0" * 510)

    def mkiso(self, cells, **env):
        path = os.path.join(self.d, "cells")
        with open(path, "w") as f:
            f.write("".join("\t".join(c) + "\n" for c in cells))
        out = os.path.join(self.d, "x.iso")
        env = dict(os.environ, ISO_CELLS=path, ISO_KERNELS=self.build, **env)
        p = subprocess.run(["bash", MKISO, self.loader,
                            os.path.join(self.build, "rt", "kernel.elf"), "run=ktest", out],
                           env=env, capture_output=True, text=True, timeout=300)
        return p.returncode, p.stderr, out

    def extract(self, iso, path):
        dest = os.path.join(self.d, os.path.basename(path))
        subprocess.run(["xorriso", "-osirrox", "on", "-indev", iso, "-extract", path, dest],
                       capture_output=True, check=True, timeout=60)
        with open(dest) as f:
            return f.read()

    def test_one_entry_per_cell(self):
        hb = "run=hackbench hackbench.groups=10 maxcpus=8"
        rc, err, iso = self.mkiso([("e4", "rt", "cyc", "run=cyclic,hackbench maxcpus=8"),
                                   ("e4", "rt_nopartial", "cyc", "run=cyclic,hackbench maxcpus=8"),
                                   ("e2", "rt_nopartial", "hb", hb)])
        self.assertEqual(rc, 0, err)
        cfg = self.extract(iso, "/boot/grub/grub.cfg")
        entries = [l.strip() for l in cfg.splitlines() if l.lstrip().startswith(("menuentry",
                                                                                "multiboot2"))]
        self.assertEqual(entries[:6], [
            'menuentry "e4: rt, cyc" --id "e4/rt/cyc" {',
            "multiboot2 /boot/rt.elf run=cyclic,hackbench maxcpus=8",
            'menuentry "e4: rt_nopartial, cyc" --id "e4/rt_nopartial/cyc" {',
            "multiboot2 /boot/rt_nopartial.elf run=cyclic,hackbench maxcpus=8",
            'menuentry "e2: rt_nopartial, hb" --id "e2/rt_nopartial/hb" {',
            f"multiboot2 /boot/rt_nopartial.elf {hb}"])
        # the single-kernel workload entries are not there
        self.assertNotIn("/boot/kernel.elf", cfg)
        self.assertNotIn("slabbench", cfg)
        listing = subprocess.run(["xorriso", "-indev", iso, "-ls", "/boot"],
                                 capture_output=True, text=True, timeout=60).stdout
        self.assertIn("'rt.elf'", listing)
        self.assertIn("'rt_nopartial.elf'", listing)
        self.assertIn('set default="0"', cfg)

    def test_iso_entry_is_the_default(self):
        cells = [("e4", "rt", "cyc", "run=cyclic"), ("e2", "rt_nopartial", "hb", "run=hackbench")]
        rc, err, iso = self.mkiso(cells, ISO_ENTRY="e2/rt_nopartial/hb")
        self.assertEqual(rc, 0, err)
        self.assertIn('set default="e2/rt_nopartial/hb"', self.extract(iso, "/boot/grub/grub.cfg"))
        os.remove(iso)
        rc, err, iso = self.mkiso(cells, ISO_ENTRY="e2/rt/hb")
        self.assertEqual(rc, 2)
        self.assertIn("ISO_ENTRY=e2/rt/hb is no cell of ISO_CELLS", err)
        self.assertFalse(os.path.exists(iso))

    def test_bad_cells_are_refused(self):
        for cells, msg in (
                ([("e2", "rt", "hb", "run=hackbench $x")], "may not contain"),
                ([("e2", "rt", "hb")], "cells:1: want experiment, config, workload and command"),
                ([("e2", "nosuch", "hb", "run=hackbench")], "nosuch/kernel.elf does not exist"),
                ([("e2", "rt", "h b", "run=hackbench")], "names may hold only"),
                ([], "has no cell")):
            rc, err, iso = self.mkiso(cells)
            self.assertEqual(rc, 2, (cells, err))
            self.assertIn(msg, err)
            self.assertFalse(os.path.exists(iso))


if __name__ == "__main__":
    unittest.main()
