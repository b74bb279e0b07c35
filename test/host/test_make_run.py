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


class MakeRunStatusTest(_MakeRun):
    """GNU make exits 2 for any failed recipe and cannot pass another status through:
    `make run` exits 0 on a pass and 2 otherwise, names qemu.py's status in a line of its
    own (and in make's "Error N"), and the command `make run V=1` shows exits with it."""

    def check(self, cmdline, status, what):
        rc, out, err = self.make(f"CMDLINE={cmdline}")
        self.assertEqual(rc, 0 if status == 0 else 2, err)
        hint = f"make run: scripts/qemu.py exited {status} ({what}"
        if status == 0:
            self.assertNotIn("make run:", err)
            return
        self.assertIn(hint, err)
        self.assertIn("make exits 2 for any failure", err)
        self.assertRegex(err, rf"make: \*\*\* \[Makefile:\d+: run\] Error {status}$")

    def test_pass(self):
        self.check("fake=ok", 0, "")

    def test_guest_failure(self):
        self.check("fake=fail", 1, "1 guest failure")

    def test_no_verdict(self):
        self.check("fake=triple", 2, "1 guest failure, 2 no verdict")

    def test_could_not_run(self):
        rc, out, err = self.make("SMP=x")
        self.assertEqual(rc, 2)
        self.assertIn("qemu.py: error: invalid SMP='x'", err)
        self.assertIn("make run: scripts/qemu.py exited 3 (", err)

    def test_the_command_v1_shows_exits_with_the_verdict(self):
        for cmdline, status in (("fake=ok", 0), ("fake=fail", 1), ("fake=panic", 1),
                                ("fake=triple", 2)):
            rc, out, err = self.make("V=1", f"CMDLINE={cmdline}")
            lines = out.splitlines()
            at = [i for i, l in enumerate(lines) if " scripts/qemu.py run " in f" {l}"]
            self.assertEqual(len(at), 1, out)
            cmd, i = "", at[0]
            while lines[i].endswith("\\"):        # the recipe's continuation lines
                cmd += lines[i][:-1] + " "
                i += 1
            cmd = (cmd + lines[i]).split(" || ")[0]
            p = subprocess.run(cmd, shell=True, cwd=_load.ROOT, env=self.env,
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, status, (cmd, p.stderr))
