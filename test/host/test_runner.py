"""test/run: judging entries, and whole runs against a fake make and a fake QEMU."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import _fakes
import _load

qemu = _load.qemu()
tr = _load.testrun()

GOOD_LOG = """irqlab: start 0.1 abc
KTAP version 1
1..1
    KTAP version 1
    # Subtest: s
    1..2
    ok 1 a
    ok 2 b # SKIP why
ok 1 s
irqlab: end status=ok
"""


def judge(expect, status, log, timed_out=False):
    return tr.judge(expect, qemu.classify(status, timed_out, timeout=60), tr.clean_lines(log))


class JudgeTest(unittest.TestCase):
    def test_pass(self):
        j = judge("pass", 1, GOOD_LOG)
        self.assertTrue(j.passed, j.reason)
        self.assertEqual([(c.status, c.path) for c in j.cases], [("PASS", "s.a"),
                                                                 ("SKIP", "s.b")])

    def test_pass_needs_status_1(self):
        j = judge("pass", 7, GOOD_LOG)
        self.assertFalse(j.passed)
        self.assertTrue(j.reason.startswith("guest failure code 3 (panic)"), j.reason)
        self.assertTrue(judge("pass", 0, GOOD_LOG).reason.startswith(
            "triple fault / no verdict (status 0)"))
        self.assertTrue(judge("pass", 1, GOOD_LOG, timed_out=True).reason.startswith(
            "timeout after 60 s"))

    def test_noboot(self):
        log = "irqlab-efi: error: cannot open \\irqlab\\kernel.elf: Not Found\n"
        need = ["cannot open \\irqlab\\kernel.elf"]
        for status, timed_out in ((0, False), (None, True)):
            j = tr.judge("noboot", qemu.classify(status, timed_out, timeout=60),
                         tr.clean_lines(log), need)
            self.assertTrue(j.passed, j.reason)
        j = tr.judge("noboot", qemu.classify(0, False), tr.clean_lines("BdsDxe: hi\n"), need)
        self.assertFalse(j.passed)
        self.assertIn("log lacks", j.reason)
        j = tr.judge("noboot", qemu.classify(1, False), tr.clean_lines(log + GOOD_LOG), need)
        self.assertFalse(j.passed)
        self.assertIn("never to start", j.reason)

    def test_pass_needs_banners(self):
        j = judge("pass", 1, GOOD_LOG.replace("irqlab: start 0.1 abc\n", ""))
        self.assertEqual(j.reason, "no start banner 'irqlab: start' in log")
        j = judge("pass", 1, GOOD_LOG.replace("irqlab: end status=ok\n", ""))
        self.assertEqual(j.reason, "no end banner 'irqlab: end status=ok' in log")
        j = judge("pass", 1, GOOD_LOG.replace("status=ok", "status=fail"))
        self.assertEqual(j.reason, "end banner says status=fail")

    def test_pass_needs_ktap(self):
        j = judge("pass", 1, "irqlab: start 1 2\nirqlab: end status=ok\n")
        self.assertEqual(j.reason, "no KTAP in log")
        j = judge("pass", 1, GOOD_LOG.replace("    ok 2 b # SKIP why\n", ""))
        self.assertEqual(j.reason, "KTAP plan 1..2 but 1 results in suite s")

    def test_failed_case(self):
        j = judge("pass", 1, GOOD_LOG.replace("ok 1 a", "not ok 1 a"))
        self.assertFalse(j.passed)
        self.assertIn("1 failed case: s.a", j.reason)
        self.assertIn(("FAIL", "s.a"), [(c.status, c.path) for c in j.cases])

    def test_expectations(self):
        start = "irqlab: start 1 2\n"
        self.assertTrue(judge("panic", 7, start + "Kernel panic\n").passed)
        self.assertTrue(judge("timeout", None, start, timed_out=True).passed)
        self.assertTrue(judge("noktap", 1, start + "irqlab: end status=ok\n").passed)
        self.assertTrue(judge("noverdict", 0, start).passed)
        self.assertTrue(judge("cmdline", 5, start + "irqlab: end status=fail\n").passed)
        j = judge("cmdline", 3, start + "irqlab: end status=fail\n")
        self.assertFalse(j.passed)
        self.assertIn("a command-line error (guest failure code 2 (command-line error))",
                      j.reason)
        self.assertFalse(judge("fail", 5, start + "irqlab: end status=fail\n").passed)

    def test_either_of_two_failures(self):
        start = "irqlab: start 1 2\n"
        self.assertTrue(judge("fail|panic", 7, start + "Kernel panic\n").passed)
        self.assertTrue(judge("fail|panic", 3, start + "irqlab: end status=fail\n").passed)
        j = judge("fail|panic", 1, start + "irqlab: end status=ok\n")
        self.assertFalse(j.passed)
        self.assertIn("status=fail (guest failure code 1) or a panic", j.reason)

    def test_expectations_must_match_exactly(self):
        start = "irqlab: start 1 2\n"
        j = judge("panic", 3, start)
        self.assertEqual(j.reason, "expected a panic (guest failure code 3 (panic)), got "
                                   "guest failure code 1 (test failure)")
        self.assertFalse(judge("panic", 1, start).passed)
        self.assertFalse(judge("timeout", 0, start).passed)
        self.assertFalse(judge("noverdict", 0, start, timed_out=True).passed)
        j = judge("noktap", 1, GOOD_LOG)
        self.assertEqual(j.reason, "expected a passing exit without KTAP, got guest passed "
                                   "(status 1), with KTAP")
        j = tr.judge("noverdict", qemu.classify(1, False, qemu_error="qemu: bad"),
                     tr.clean_lines(start))
        self.assertFalse(j.passed)

    def test_expectations_need_the_kernel_to_start(self):
        j = judge("timeout", None, "SeaBIOS hangs\n", timed_out=True)
        self.assertFalse(j.passed)
        self.assertIn("never started", j.reason)
        self.assertFalse(judge("noverdict", 0, "").passed)


class ReporterTest(unittest.TestCase):
    def test_summary_format(self):
        import io
        rep = tr.Reporter(io.StringIO())
        self.assertEqual(rep.summary(), "0 passed, 0 failed")
        rep.emit("PASS", "x")
        rep.emit("FAIL", "y")
        self.assertEqual(rep.summary(), "1 passed, 1 failed")
        rep.emit("SKIP", "z")
        self.assertEqual(rep.summary(), "1 passed, 1 failed, 1 skipped")


class WholeRunTest(unittest.TestCase):
    """Copies test/run, scripts/qemu.py and records.py into a scratch repo with a fake make/QEMU."""

    CFG = textwrap.dedent("""
        [good]
        groups = g
        [good-bios]
        boot = bios
        groups = g
        [good-uefi]
        boot = uefi
        machine = q35
        [bad]
        cmdline = fake=fail
        [trunc]
        cmdline = fake=trunc
        [garbage]
        cmdline = fake=garbage
        [goodrec]
        cmdline = fake=goodrec
        [badrec]
        cmdline = fake=badrec
        [hang]
        cmdline = fake=hang
        timeout = 3
        [sel-hang]
        cmdline = ktest.selftest=hang
        expect = timeout
        timeout = 3
        [sel-panic]
        cmdline = ktest.selftest=panic
        expect = panic
        [sel-noktap]
        cmdline = ktest.selftest=noktap
        expect = noktap
        [sel-triple]
        cmdline = ktest.selftest=triple
        expect = noverdict
        [sel-wrong]
        cmdline = ktest.selftest=triple
        expect = panic
        [nobuild]
        config = broken
        [kvm-only]
        accel = kvm
        """)

    FAKE_QEMU = _fakes.FAKE_QEMU

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.root = self.tmp.name
        for sub in ("scripts", "test", "configs"):
            os.mkdir(os.path.join(d, sub))
        shutil.copy(_load.QEMU_PY, os.path.join(d, "scripts", "qemu.py"))
        shutil.copy(os.path.join(_load.ROOT, "scripts", "records.py"),
                    os.path.join(d, "scripts", "records.py"))
        shutil.copy(_load.TEST_RUN, os.path.join(d, "test", "run"))
        with open(os.path.join(d, "test", "unittests.cfg"), "w") as f:
            f.write(self.CFG)
        for c in ("default", "broken"):
            open(os.path.join(d, "configs", f"{c}_defconfig"), "w").close()
        fw = os.path.join(d, "fw.fd")
        open(fw, "w").close()
        self.env = dict(os.environ,
                        IRQLAB_QEMU=_fakes.write_script(os.path.join(d, "fq"),
                                                        self.FAKE_QEMU),
                        IRQLAB_MAKE=_fakes.write_script(os.path.join(d, "fm"), _fakes.FAKE_MAKE),
                        IRQLAB_OVMF_CODE=fw, IRQLAB_OVMF_VARS=fw,
                        # no KVM, and the probe's verdict stays in here
                        IRQLAB_KVM_DEV=os.path.join(d, "no-kvm"),
                        IRQLAB_CACHE=os.path.join(d, "cache"))

    def tearDown(self):
        self.tmp.cleanup()

    def run_tr(self, *args):
        p = subprocess.run([sys.executable, os.path.join(self.root, "test", "run"), *args],
                           capture_output=True, text=True, env=self.env, timeout=120,
                           cwd=self.root)
        return p.returncode, p.stdout, p.stderr

    def test_everything(self):
        names = [n for n in re.findall(r"^\[(.*)\]$", self.CFG, re.M)]
        rc, out, err = self.run_tr("-j", "4", *names)
        lines = out.splitlines()
        self.assertEqual(rc, 1, out + err)

        def line(prefix):
            found = [l for l in lines if l.startswith(prefix)]
            self.assertEqual(len(found), 1, f"{prefix!r} in\n{out}")
            return found[0]
        for name in ("good", "good-bios", "good-uefi"):
            self.assertRegex(line(f"PASS {name} (boot,"), r"\(boot, \d+\.\d\d s\)$")
            line(f"PASS {name}: memblock.reserve_free")
            line(f"SKIP {name}: memblock.big (no 4G)")
            line(f"PASS {name}: slub.alloc_free")
        line("PASS goodrec (boot,")
        self.assertIn("record 1: CRC", line("FAIL badrec (boot"))
        line("PASS bad: slub.a")
        line("FAIL bad: slub.b")
        self.assertIn("guest failure code 1 (test failure)", line("FAIL bad (boot"))
        self.assertIn("KTAP plan 1..2 but 1 results", line("FAIL trunc (boot"))
        self.assertIn("no KTAP in log", line("FAIL garbage (boot"))
        self.assertIn("timeout after 3 s", line("FAIL hang (boot"))
        for name, what in (("sel-hang", "timeout"), ("sel-panic", "panic"),
                           ("sel-noktap", "noktap"), ("sel-triple", "noverdict")):
            self.assertIn(f"{what} as expected", line(f"PASS {name} (boot"))
        self.assertIn("expected a panic", line("FAIL sel-wrong (boot"))
        self.assertIn("status 0", line("FAIL sel-wrong (boot"))
        self.assertIn("build failed", line("FAIL nobuild (boot)"))
        self.assertIn("(needs KVM: ", line("SKIP kvm-only (boot)"))
        self.assertIn("no-kvm: No such file or directory", line("SKIP kvm-only (boot)"))
        # the log tail is shown under a failure, prefixed so it cannot pass for a result
        self.assertIn("    | irqlab: start 0.1 deadbeef", out)
        # summary: alone on the last line and consistent with the lines above
        counts = {s: sum(1 for l in lines if l.startswith(s + " ")) for s in
                  ("PASS", "FAIL", "SKIP")}
        self.assertEqual(lines[-1], f"{counts['PASS']} passed, {counts['FAIL']} failed, "
                                    f"{counts['SKIP']} skipped")
        # one build per config, one ISO per (config, cmdline)
        with open(os.path.join(self.root, "make-calls.log")) as f:
            calls = f.read().splitlines()
        targets = [[a for a in c.split() if not a.startswith("-")][0] for c in calls]
        self.assertEqual(sorted(targets), ["build", "build", "iso"])
        # builds use every core (they all run before the first boot): the
        # first alone with all of them, the rest side by side with one each
        builds = [c.split() for c in calls if " build " in f" {c} "]
        self.assertIn(f"-j{os.cpu_count() or 1}", builds[0], calls)
        self.assertTrue(all("-j1" in b for b in builds[1:]), calls)
        self.assertTrue(os.path.isfile(os.path.join(self.root, "build", "logs", "good.log")))
        self.assertFalse(os.path.exists(os.path.join(self.root, "test", "__pycache__")))

    def test_all_pass_exit_0_and_format(self):
        rc, out, err = self.run_tr("-g", "g")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out.splitlines()[-1], "6 passed, 0 failed, 2 skipped")

    def test_iso_default_gets_its_own_image(self):
        # Same config and command line, another GRUB default: another ISO.
        cfg = os.path.join(self.root, "iso.cfg")
        with open(cfg, "w") as f:
            f.write("[cd]\nboot = uefi\nmachine = q35\n"
                    "[native]\nboot = uefi\nmachine = q35\niso_default = native\n"
                    "[cd-bios]\nboot = bios\n")
        rc, out, err = self.run_tr("--cfg", cfg, "cd", "native", "cd-bios")
        self.assertEqual(rc, 0, out + err)
        with open(os.path.join(self.root, "make-calls.log")) as f:
            isos = [c.split() for c in f.read().splitlines() if " iso " in f" {c} "]
        self.assertEqual(sorted(a for c in isos for a in c if a.startswith("ISO_DEFAULT=")),
                         ["ISO_DEFAULT=cmdline", "ISO_DEFAULT=native"])
        paths = {a for c in isos for a in c if a.startswith("ISO=")}
        self.assertEqual(len(paths), 2, isos)
        self.assertTrue(any(p.endswith("-native.iso") for p in paths), paths)

    def test_no_build(self):
        rc, out, err = self.run_tr("--no-build", "good")
        self.assertEqual(rc, 1)
        self.assertIn("no such file", out)
        self.assertEqual(out.splitlines()[-1], "0 passed, 1 failed")

    def test_host_unittests_entry(self):
        hdir = os.path.join(self.root, "test", "host")
        os.mkdir(hdir)
        with open(os.path.join(hdir, "test_x.py"), "w") as f:
            f.write(textwrap.dedent("""
                import unittest
                class T(unittest.TestCase):
                    def test_ok(self):
                        print("chatter that must not confuse the runner")
                    def test_bad(self):
                        self.assertEqual(1, 2)
                    @unittest.skip("because")
                    def test_skip(self):
                        pass
                """))
        rc, out, err = self.run_tr("host-unittests")
        self.assertEqual(rc, 1)
        lines = out.splitlines()
        self.assertIn("PASS host-unittests: test_x.T.test_ok", lines)
        self.assertIn("FAIL host-unittests: test_x.T.test_bad", lines)
        self.assertIn("SKIP host-unittests: test_x.T.test_skip (because)", lines)
        self.assertTrue(any(l.startswith("FAIL host-unittests (unittest, ") and
                            l.endswith("1 of 3 unittests failed") for l in lines), out)
        self.assertEqual(lines[-1], "1 passed, 2 failed, 1 skipped")

    def test_usage_errors(self):
        rc, out, err = self.run_tr("nosuch")
        self.assertEqual(rc, 2)
        self.assertIn("valid entries: host-unittests, good", err)
        rc, out, err = self.run_tr("--list")
        self.assertEqual(rc, 0)
        self.assertIn("sel-triple", out)
        with open(os.path.join(self.root, "test", "unittests.cfg"), "a") as f:
            f.write("[oops]\nsmp = many\n")
        rc, out, err = self.run_tr("--list")
        self.assertEqual(rc, 2)
        self.assertIn("[oops]: invalid smp='many'", err)
        self.assertNotIn("Traceback", err)


class RunnerModesTest(unittest.TestCase):
    """test/run -t (TAP 13) and --cfg FILE, in WholeRunTest's scratch repo."""
    CFG = WholeRunTest.CFG
    FAKE_QEMU = WholeRunTest.FAKE_QEMU
    setUp = WholeRunTest.setUp
    tearDown = WholeRunTest.tearDown
    run_tr = WholeRunTest.run_tr

    def test_tap_output(self):
        rc, out, err = self.run_tr("-t", "-j", "2", "good", "bad", "kvm-only", "sel-panic")
        self.assertEqual(rc, 1, out + err)
        lines = out.splitlines()
        self.assertEqual(lines[0], "TAP version 13")
        results = [l for l in lines[1:] if not l.startswith("#")]
        plan = results.pop()
        self.assertEqual(plan, f"1..{len(results)}")
        for i, l in enumerate(results, 1):
            self.assertRegex(l, rf"^(ok|not ok) {i} - \S.*$")
        self.assertFalse([l for l in lines if re.match(r"(PASS|FAIL|SKIP) ", l)], out)

        def one(regex):
            found = [l for l in results if re.fullmatch(regex, l)]
            self.assertEqual(len(found), 1, f"{regex!r} in\n{out}")
        one(r"ok \d+ - good: memblock\.reserve_free")
        one(r"ok \d+ - good: memblock\.big # SKIP no 4G")
        one(r"ok \d+ - good \(boot, \d+\.\d\d s\)")
        one(r"not ok \d+ - bad: slub\.b")
        one(r"not ok \d+ - bad \(boot, .*guest failure code 1 \(test failure\).*")
        one(r"ok \d+ - kvm-only \(boot\) # SKIP needs KVM: .*no-kvm: No such file or directory")
        one(r"ok \d+ - sel-panic \(boot, .*\): panic as expected")
        # a failure's details are TAP comments
        self.assertIn("#     | irqlab: start 0.1 deadbeef", lines)
        # the summary, as a comment, right before the plan
        counts = (sum(1 for l in results if l.startswith("ok") and "# SKIP" not in l),
                  sum(1 for l in results if l.startswith("not ok")),
                  sum(1 for l in results if "# SKIP" in l))
        self.assertEqual(lines[-2], "# %d passed, %d failed, %d skipped" % counts)
        # a TAP reader (test/run's own KTAP parser) finds it well formed
        ktap = tr.parse_ktap(lines)
        self.assertEqual(tr.ktap_problems(ktap), [f"{counts[1]} failed cases: "
                         + ", ".join(c.path for c in tr.ktap_cases(ktap) if c.status == "FAIL")])

    def test_tap_escapes_hash(self):
        import io
        buf = io.StringIO()
        rep = tr.Reporter(out=buf, tap=True)
        rep.emit("FAIL", "x #1 \\ y", ["detail"])
        rep.emit("SKIP", "z", why="no #2")
        rep.finish()
        self.assertEqual(buf.getvalue().splitlines(), [
            "TAP version 13", "not ok 1 - x \\#1 \\\\ y", "# detail",
            "ok 2 - z # SKIP no \\#2", "# 0 passed, 1 failed, 1 skipped", "1..2"])

    def test_cfg_file_runs_its_entries_only(self):
        hdir = os.path.join(self.root, "test", "host")
        os.mkdir(hdir)
        with open(os.path.join(hdir, "test_x.py"), "w") as f:
            f.write("import unittest\nclass T(unittest.TestCase):\n"
                    "    def test_bad(self):\n        self.fail('ran')\n")
        cfg = os.path.join(self.root, "mine.cfg")
        with open(cfg, "w") as f:
            f.write("[mine]\n")
        rc, out, err = self.run_tr("--cfg", cfg)
        self.assertEqual(rc, 0, out + err)
        self.assertNotIn("host-unittests", out)
        self.assertEqual(out.splitlines()[-1], "3 passed, 0 failed, 1 skipped")
        rc, out, err = self.run_tr("--cfg", cfg, "--list")
        self.assertEqual([l.split()[0] for l in out.splitlines()], ["mine"])
        # named, it runs; and the default table still includes it
        rc, out, err = self.run_tr("--cfg", cfg, "host-unittests")
        self.assertIn("FAIL host-unittests: test_x.T.test_bad", out)
        rc, out, err = self.run_tr("--list")
        self.assertTrue(out.startswith("host-unittests "), out)


class AccelTest(WholeRunTest):
    """--accel and the KVM probe in test/run, with a fake QEMU whose KVM fails on demand
    and a fake KVM device that opens."""

    CFG = textwrap.dedent("""
        [auto]
        [auto-icount]
        icount = 1
        [tcg]
        accel = tcg
        [kvm]
        accel = kvm
        """)
    FAKE_QEMU = _fakes.FAKE_KVM_QEMU

    def setUp(self):
        super().setUp()
        self.env["IRQLAB_KVM_DEV"] = os.path.join(self.root, "kvm")
        open(self.env["IRQLAB_KVM_DEV"], "w").close()

    def accels(self):
        out = {}
        for name in ("auto", "auto-icount", "tcg", "kvm"):
            path = os.path.join(self.root, "build", "logs", f"{name}.cmd")
            if os.path.exists(path):
                with open(path) as f:
                    words = f.read().split()
                out[name] = words[words.index("-accel") + 1]
        return out

    def test_auto_takes_kvm_when_the_probe_passes(self):
        rc, out, err = self.run_tr("auto", "auto-icount", "tcg", "kvm")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.accels(), {"auto": "kvm", "auto-icount": "tcg", "tcg": "tcg",
                                         "kvm": "kvm"})

    def test_accel_option_overrides_auto_only(self):
        rc, out, err = self.run_tr("--accel", "tcg", "auto", "auto-icount", "tcg", "kvm")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.accels(), {"auto": "tcg", "auto-icount": "tcg", "tcg": "tcg",
                                         "kvm": "kvm"})

    def test_accel_kvm_leaves_icount_entries_on_tcg(self):
        rc, out, err = self.run_tr("--accel", "kvm", "auto", "auto-icount", "tcg")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.accels(), {"auto": "kvm", "auto-icount": "tcg", "tcg": "tcg"})

    def test_probe_failure_falls_back_and_skips_kvm_entries(self):
        self.env["FAKE_KVM"] = "internal"
        rc, out, err = self.run_tr("auto", "kvm")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.accels(), {"auto": "tcg"})
        self.assertIn("test/run: KVM unusable here (KVM internal error. Suberror: 1 "
                      "(emulation failure) at the probe); accel=auto entries use TCG", err)
        self.assertIn("SKIP kvm (boot) (needs KVM: KVM internal error", out)
        rc, out, err = self.run_tr("--accel", "kvm", "auto")
        self.assertEqual(rc, 2)
        self.assertIn("test/run: error: --accel kvm but KVM cannot run guests here: KVM "
                      "internal error", err)

    def test_kvm_internal_error_ends_the_entry_at_once(self):
        self.env["FAKE_KVM_RUN"] = "internal"
        start = time.monotonic()
        rc, out, err = self.run_tr("kvm")                      # timeout = 60
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(rc, 1)
        self.assertIn("no verdict: KVM internal error. Suberror: 1 (emulation failure)",
                      [l for l in out.splitlines() if l.startswith("FAIL kvm (boot")][0])

    # WholeRunTest's cases need its table
    test_everything = test_all_pass_exit_0_and_format = test_iso_default_gets_its_own_image \
        = test_no_build = test_host_unittests_entry = test_usage_errors = None


if __name__ == "__main__":
    unittest.main()
