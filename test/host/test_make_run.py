"""`make run` itself (the README's first command): the measurement mode it picks and the
exit status it returns, with a fake QEMU and an empty kernel file. `-o build` keeps make
from building (the recipe under test is run's own); O= puts the kernel in a scratch dir."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import _fakes
import _load

MODE_RE = re.compile(r"^qemu\.py: mode (\S+), SMP=(\d+): (.*)$", re.M)


@unittest.skipUnless(shutil.which("make"), "needs GNU make")
class _MakeRun(unittest.TestCase):
    FAKE = _fakes.FAKE_QEMU

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.d = self.tmp.name
        open(os.path.join(d, "kernel.elf"), "w").close()
        self.argv_file = os.path.join(d, "argv")
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
        self.env.update(IRQLAB_QEMU=_fakes.write_script(os.path.join(d, "qemu"), self.FAKE),
                        IRQLAB_KVM_DEV=os.path.join(d, "no-kvm"),
                        IRQLAB_CACHE=os.path.join(d, "cache"),
                        FAKE_QEMU_ARGV=self.argv_file, FAKE_QEMU_CALLS=os.path.join(d, "calls"))

    def tearDown(self):
        self.tmp.cleanup()

    def make(self, *args):
        p = subprocess.run(["make", "-o", "build", "run", f"O={self.d}", *args],
                           cwd=_load.ROOT, env=self.env, capture_output=True, text=True,
                           timeout=120, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr

    def qemu_argv(self):
        with open(self.argv_file) as f:
            return f.read().split("\n")

    def mode(self, err):
        found = MODE_RE.findall(err)
        self.assertEqual(len(found), 1, f"one mode line expected in:\n{err}")
        return found[0]


class MakeRunModeTest(_MakeRun):
    """Without ICOUNT/SMP/ACCEL, make run measures under icount at SMP=1 when KVM cannot
    run guests; what the user sets wins; one host line names the mode and why."""

    def test_default_is_icount_without_kvm(self):
        rc, out, err = self.make()
        self.assertEqual(rc, 0, err)
        argv = self.qemu_argv()
        self.assertIn("-icount", argv)
        self.assertEqual(argv[argv.index("-icount") + 1], "shift=0,sleep=off")
        self.assertEqual(argv[argv.index("-smp") + 1], "1")
        self.assertEqual(argv[argv.index("-accel") + 1], "tcg")
        self.assertIn("run=cyclic,hackbench", argv[argv.index("-append") + 1])
        mode, smp, why = self.mode(err)
        self.assertEqual((mode, smp), ("icount", "1"))
        self.assertIn("KVM unusable here (", why)
        self.assertIn("no-kvm: No such file or directory", why)
        self.assertIn("1 ns per guest instruction", why)
        # the host line comes before the guest's serial output
        self.assertNotIn("KVM unusable", out)

    def test_explicit_icount_0_is_plain_tcg(self):
        rc, out, err = self.make("ICOUNT=0")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("-icount", self.qemu_argv())
        mode, smp, why = self.mode(err)
        self.assertEqual(mode, "TCG")
        self.assertIn("ICOUNT=0", why)
        self.assertIn("host noise", why)

    def test_explicit_smp_2_is_plain_tcg(self):
        rc, out, err = self.make("SMP=2")
        self.assertEqual(rc, 0, err)
        argv = self.qemu_argv()
        self.assertNotIn("-icount", argv)
        self.assertEqual(argv[argv.index("-smp") + 1], "2")
        mode, smp, why = self.mode(err)
        self.assertEqual((mode, smp), ("TCG", "2"))
        self.assertIn("icount needs SMP=1", why)

    def test_explicit_accel_tcg_still_gets_icount(self):
        rc, out, err = self.make("ACCEL=tcg")
        self.assertEqual(rc, 0, err)
        self.assertIn("-icount", self.qemu_argv())
        self.assertEqual(self.mode(err)[0], "icount")

    def test_icount_1_with_smp_2_is_refused(self):
        rc, out, err = self.make("ICOUNT=1", "SMP=2")
        self.assertEqual(rc, 2)
        self.assertIn("livelock", err)
        self.assertFalse(os.path.exists(self.argv_file))


class MakeRunKvmModeTest(_MakeRun):
    FAKE = _fakes.FAKE_KVM_QEMU

    def setUp(self):
        super().setUp()
        self.env["IRQLAB_KVM_DEV"] = os.path.join(self.d, "kvm")
        open(self.env["IRQLAB_KVM_DEV"], "w").close()

    def qemu_argv(self):
        with open(self.env["FAKE_QEMU_CALLS"]) as f:
            return f.read().splitlines()

    def test_default_is_kvm_when_the_probe_passes(self):
        rc, out, err = self.make()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.qemu_argv(), ["probe kvm", "run kvm"])
        mode, smp, why = self.mode(err)
        self.assertEqual((mode, smp, why), ("KVM", "1", "the KVM probe passed"))

    def test_default_falls_back_to_icount_when_kvm_fails(self):
        self.env["FAKE_KVM"] = "internal"
        rc, out, err = self.make()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.qemu_argv(), ["probe kvm", "run tcg"])
        mode, smp, why = self.mode(err)
        self.assertEqual(mode, "icount")
        self.assertIn("KVM unusable here (KVM internal error", why)
