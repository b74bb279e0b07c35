"""scripts/qemu.py's KVM probe, its cache, the fallback to TCG, the KVM-internal-error
watch and the default timeout, against a fake QEMU and a fake /dev/kvm (a plain file:
it opens read-write, which is all today's check looked at)."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

import _fakes
import _load

qemu = _load.qemu()
P = qemu.Params


class _FakeKvm(unittest.TestCase):
    """A scratch cache, a fake KVM device and the fake QEMU in the environment."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.d = self.tmp.name
        self.fake = _fakes.write_script(os.path.join(d, "qemu"), _fakes.FAKE_KVM_QEMU)
        self.dev = os.path.join(d, "kvm")
        open(self.dev, "w").close()
        self.calls = os.path.join(d, "calls")
        self.kernel = os.path.join(d, "kernel.elf")
        open(self.kernel, "w").close()
        self.env = mock.patch.dict(os.environ, {
            "IRQLAB_QEMU": self.fake, "IRQLAB_KVM_DEV": self.dev,
            "IRQLAB_CACHE": os.path.join(d, "cache"), "FAKE_QEMU_CALLS": self.calls,
            "FAKE_KVM": "ok", "FAKE_QEMU_VERSION": "7.2.0"})
        self.env.start()
        self.forget()

    def tearDown(self):
        self.env.stop()
        self.forget()
        self.tmp.cleanup()

    @staticmethod
    def forget():
        """What this process remembers of earlier probes and notes."""
        getattr(qemu, "_kvm_memo", {}).clear()
        getattr(qemu, "_noted", set()).clear()

    def probes(self):
        """How many times the fake QEMU booted the probe guest."""
        try:
            with open(self.calls) as f:
                return sum(1 for l in f if l.startswith("probe "))
        except FileNotFoundError:
            return 0

    def state(self, **kw):
        self.forget()                   # as a new process would
        return qemu.kvm_state(**kw)


class ProbeCacheTest(_FakeKvm):
    def test_probe_once_then_cached(self):
        st = self.state()
        self.assertEqual((st.usable, st.cached), (True, False))
        self.assertEqual(self.probes(), 1)
        st = self.state()
        self.assertEqual((st.usable, st.cached), (True, True))
        self.assertEqual(self.probes(), 1)
        with open(os.path.join(self.d, "cache", "kvm-probe.json")) as f:
            key = json.load(f)["key"]
        self.assertEqual(key["kernel"], os.uname().release)
        self.assertIn("7.2.0", key["qemu_version"])

    def test_reprobe_when_kernel_release_changes(self):
        self.state()
        real = os.uname()
        other = os.uname_result((real.sysname, real.nodename, real.release + "-new",
                                 real.version, real.machine))
        with mock.patch.object(qemu.os, "uname", return_value=other):
            self.assertFalse(self.state().cached)
        self.assertEqual(self.probes(), 2)

    def test_reprobe_when_qemu_version_changes(self):
        self.state()
        with mock.patch.dict(os.environ, {"FAKE_QEMU_VERSION": "8.2.0"}):
            self.assertFalse(self.state().cached)
        self.assertEqual(self.probes(), 2)

    def test_reprobe_when_device_node_changes(self):
        # a new node (after a reboot or a kvm module reload) has another inode/ctime
        self.state()
        os.unlink(self.dev)
        keep = os.path.join(self.d, "keep")     # so the inode is not reused at once
        open(keep, "w").close()
        time.sleep(0.01)
        open(self.dev, "w").close()
        self.assertFalse(self.state().cached)
        self.assertEqual(self.probes(), 2)

    def test_reprobe_when_probe_changes(self):
        self.state()
        with mock.patch.object(qemu, "KVM_PROBE_VERSION", qemu.KVM_PROBE_VERSION + 1):
            self.assertFalse(self.state().cached)
        self.assertEqual(self.probes(), 2)

    def test_failure_is_cached_too(self):
        os.environ["FAKE_KVM"] = "internal"
        start = time.monotonic()
        st = self.state()
        self.assertLess(time.monotonic() - start, qemu.KVM_PROBE_TIMEOUT / 2)
        self.assertFalse(st.usable)
        self.assertEqual(st.reason,
                         "KVM internal error. Suberror: 1 (emulation failure) at the probe")
        self.assertEqual((self.state().usable, self.state().cached), (False, True))
        self.assertEqual(self.probes(), 1)

    def test_timeout_is_not_cached(self):
        os.environ["FAKE_KVM"] = "hang"
        st = self.state(timeout=0.5)
        self.assertFalse(st.usable)
        self.assertIn("did not finish in 0.5 s", st.reason)
        self.assertFalse(self.state(timeout=0.5).cached)
        self.assertEqual(self.probes(), 2)

    def test_qemu_error_at_probe(self):
        os.environ["FAKE_KVM"] = "denied"
        st = self.state()
        self.assertFalse(st.usable)
        self.assertIn("failed to initialize kvm: Permission denied", st.reason)

    def test_device_that_does_not_open(self):
        os.environ["IRQLAB_KVM_DEV"] = os.path.join(self.d, "none")
        st = self.state()
        self.assertFalse(st.usable)
        self.assertIn("none: No such file or directory", st.reason)
        self.assertEqual(self.probes(), 0)

    def test_force_probes_again(self):
        self.state()
        self.assertFalse(self.state(force=True).cached)
        self.assertEqual(self.probes(), 2)

    def test_cli(self):
        def cli(*args):
            p = subprocess.run([sys.executable, _load.QEMU_PY, "kvm-probe", *args],
                               capture_output=True, text=True, timeout=60, env=os.environ)
            return p.returncode, p.stdout
        self.assertEqual(cli(), (0, "qemu.py: KVM usable: the KVM probe passed\n"))
        rc, out = cli()
        self.assertEqual(rc, 0)
        self.assertIn("(cached in ", out)
        os.environ["FAKE_KVM"] = "internal"
        rc, out = cli("--force")
        self.assertEqual(rc, 1)
        self.assertIn("KVM unusable: KVM internal error", out)


class FallbackTest(_FakeKvm):
    def resolve(self, **kw):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            r = qemu.resolve(P(kernel=self.kernel, **kw))
        return r, err.getvalue()

    def test_auto_takes_kvm_when_the_probe_passed(self):
        r, err = self.resolve()
        self.assertEqual((r.accel, r.cpu, err), ("kvm", "host", ""))

    def test_auto_falls_back_with_the_reason(self):
        os.environ["FAKE_KVM"] = "internal"
        r, err = self.resolve()
        self.assertEqual((r.accel, r.cpu), ("tcg", "max"))
        self.assertEqual(err, "irqlab: KVM unusable here (KVM internal error. Suberror: 1 "
                              "(emulation failure) at the probe); using TCG\n")
        self.assertEqual(self.resolve()[1], "")        # once per process

    def test_accel_kvm_when_the_probe_failed(self):
        os.environ["FAKE_KVM"] = "internal"
        with self.assertRaises(qemu.ParamError) as cm:
            self.resolve(accel="kvm")
        self.assertIn("ACCEL=kvm but KVM cannot run guests here: KVM internal error",
                      str(cm.exception))

    def test_run_killed_at_kvm_internal_error(self):
        # the probe passed, the real boot then hits the error: no verdict at once
        os.environ["FAKE_KVM_RUN"] = "internal"
        start = time.monotonic()
        res = qemu.run(P(kernel=self.kernel), serial_file=os.path.join(self.d, "log"),
                       timeout=60)
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("-accel kvm", " ".join(res.argv))
        self.assertFalse(res.timed_out)
        self.assertEqual((res.verdict.kind, res.verdict.cause), ("noverdict", "kvm-error"))
        self.assertIn("KVM internal error. Suberror: 1 (emulation failure)",
                      res.verdict.reason)
        self.assertFalse(qemu._live)
        # and the next ACCEL=auto run takes TCG
        st = self.state()
        self.assertFalse(st.usable)
        self.assertIn("in an earlier run", st.reason)

    def cli(self, *args):
        start = time.monotonic()
        p = subprocess.run([sys.executable, _load.QEMU_PY, "run", "--kernel", self.kernel,
                            *args], capture_output=True, text=True, timeout=60,
                           env=os.environ)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start

    def test_cli_auto_falls_back_and_passes(self):
        os.environ["FAKE_KVM"] = "internal"
        rc, out, err, secs = self.cli()
        self.assertEqual(rc, 0, err)
        # one line says the mode and why (not a second "irqlab: KVM unusable" note)
        self.assertIn("qemu.py: mode icount, SMP=1: KVM unusable here (KVM internal error",
                      err)
        self.assertEqual(err.count("KVM unusable"), 1, err)
        self.assertIn("irqlab: end status=ok", out)
        with open(self.calls) as f:
            self.assertEqual(f.read().split("\n")[-2], "run tcg")

    def test_cli_run_ends_at_once_with_the_reason(self):
        # no --timeout: the default is minutes, the run must not wait for it
        os.environ["FAKE_KVM_RUN"] = "internal"
        rc, out, err, secs = self.cli()
        self.assertEqual(rc, 2)
        self.assertLess(secs, 20)
        self.assertIn("no verdict: KVM internal error. Suberror: 1 (emulation failure)",
                      err)

    def test_cli_accel_kvm_refused(self):
        os.environ["FAKE_KVM"] = "internal"
        rc, out, err, secs = self.cli("--accel", "kvm")
        self.assertEqual(rc, 3)
        self.assertIn("qemu.py: error: ACCEL=kvm but KVM cannot run guests here", err)
        self.assertNotIn("Traceback", err)


@unittest.skipUnless(shutil.which("qemu-system-x86_64"), "qemu-system-x86_64 not installed")
class ProbeGuestTest(unittest.TestCase):
    """The probe guest itself, booted under TCG (KVM is not needed to check its code)."""

    def boot(self, elf_bytes):
        with tempfile.TemporaryDirectory() as d:
            elf = os.path.join(d, "probe.elf")
            with open(elf, "wb") as f:
                f.write(elf_bytes)
            argv = qemu.probe_argv("qemu-system-x86_64", elf, accel="tcg")
            return qemu._run_argv(argv, 30)

    def test_passes_under_tcg(self):
        raw = self.boot(qemu.probe_elf())
        self.assertEqual((raw.status, raw.timed_out, raw.kvm_error), (1, False, False),
                         raw.stderr)

    def test_checks_its_results(self):
        # the MXCSR value it loads no longer matches the one it expects: guest code 1
        code = qemu.PROBE_CODE
        at = code.rindex(bytes.fromhex("809f0000"))     # mxcsr: .long 0x9f80
        bad = code[:at] + bytes.fromhex("801f0000") + code[at + 4:]
        with mock.patch.object(qemu, "PROBE_CODE", bad):
            raw = self.boot(qemu.probe_elf())
        self.assertEqual(raw.status, (1 << 1) | 1, raw.stderr)


@unittest.skipUnless(shutil.which("as") and shutil.which("ld"), "binutils not installed")
class ProbeAsmTest(unittest.TestCase):
    def test_code_is_the_listing(self):
        with tempfile.TemporaryDirectory() as d:
            src, obj, out = (os.path.join(d, n) for n in ("p.S", "p.o", "p.bin"))
            with open(src, "w") as f:
                f.write(qemu.PROBE_ASM)
            subprocess.run(["as", "--64", "-o", obj, src], check=True)
            subprocess.run(["ld", f"-Ttext={qemu.PROBE_BASE:#x}", "-e", "_start",
                            "--oformat", "binary", "-o", out, obj], check=True)
            with open(out, "rb") as f:
                self.assertEqual(f.read().hex(), qemu.PROBE_CODE.hex())


class DefaultTimeoutTest(unittest.TestCase):
    DEFAULT_RUN = ("run=cyclic,hackbench cyclic.duration_ms=3000 hackbench.groups=2 "
                   "hackbench.loops=20")

    def test_workload_seconds(self):
        w = qemu.workload_seconds
        self.assertEqual(w(self.DEFAULT_RUN), 3)
        self.assertEqual(w("run=ktest"), 0)
        self.assertEqual(w("run=cyclic"), 1)                   # 1000 loops of 1 ms
        self.assertEqual(w("run=cyclic cyclic.loops=500 cyclic.interval_us=200"), 0.1)
        self.assertEqual(w("run=cyclic cyclic.duration_ms=bad"), 1)   # kernel rejects it
        self.assertEqual(w("cyclic.duration_ms=9000"), 0)     # not run
        self.assertEqual(w("run=hwlat", smp=4), 4)
        self.assertEqual(w("run=rt_migrate rt_migrate.loops=10"), 1.2)
        self.assertEqual(w("run=osnoise osnoise.duration_ms=20000 run=osnoise"), 20)

    def test_default_timeout(self):
        t = qemu.default_timeout
        base = qemu.BASE_TIMEOUT
        self.assertEqual(t("run=ktest", "kvm", False), base)
        self.assertEqual(t(self.DEFAULT_RUN, "tcg", False), base + 6)
        self.assertEqual(t(self.DEFAULT_RUN, "tcg", True), base + 60)
        self.assertEqual(t("run=cyclic cyclic.duration_ms=3600000", "kvm", False),
                         base + 7200)

    def test_run_uses_it_and_0_means_none(self):
        seen = []

        def fake_run_argv(argv, timeout, *a):
            seen.append(timeout)
            return qemu._Raw(1, False, False, 0.0, "")
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(qemu, "_run_argv", fake_run_argv):
            k = os.path.join(d, "k")
            open(k, "w").close()
            for timeout in (None, 0, 5):
                qemu.run(P(kernel=k, cmdline="run=cyclic cyclic.duration_ms=10000"),
                         serial_file=os.path.join(d, "log"), timeout=timeout,
                         kvm_available=False)
        self.assertEqual(seen, [qemu.BASE_TIMEOUT + 20, None, 5])

    def test_cli_timeout_values(self):
        with tempfile.TemporaryDirectory() as d:
            k = os.path.join(d, "k")
            open(k, "w").close()
            for bad in ("-1", "x", "nan"):
                p = subprocess.run([sys.executable, _load.QEMU_PY, "run", "--kernel", k,
                                    "--timeout", bad, "--dry-run"], capture_output=True,
                                   text=True, timeout=60)
                self.assertEqual(p.returncode, 3, bad)
                self.assertIn("invalid timeout", p.stderr)


if __name__ == "__main__":
    unittest.main()
