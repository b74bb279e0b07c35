"""scripts/qemu.py: parameter validation, argv composition, running (with a fake QEMU)."""

import io
import os
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


def argv_for(kvm=False, serial="stdio", ovmf=None, **kw):
    kw.setdefault("kernel", "k.elf")
    r = qemu.resolve(P(**kw), kvm_available=kvm, check_files=False)
    return qemu.build_argv(r, serial, ovmf, qemu="qemu-system-x86_64")


def pairs(argv):
    return list(zip(argv, argv[1:]))


class ResolveTest(unittest.TestCase):
    def resolve(self, kvm=False, **kw):
        kw.setdefault("kernel", "k.elf")
        return qemu.resolve(P(**kw), kvm_available=kvm, check_files=False)

    def error(self, kvm=False, **kw):
        with self.assertRaises(qemu.ParamError) as cm:
            self.resolve(kvm=kvm, **kw)
        return str(cm.exception)

    def test_defaults(self):
        r = self.resolve()
        self.assertEqual((r.smp, r.mem, r.accel, r.icount, r.boot, r.machine, r.cpu),
                         (1, "256M", "tcg", False, "pvh", "pc", "max"))

    def test_empty_strings_mean_default(self):
        r = self.resolve(smp="", mem="", accel="", icount="", boot="", machine="", cpu=" ")
        self.assertEqual((r.smp, r.mem, r.accel, r.boot, r.machine, r.cpu),
                         (1, "256M", "tcg", "pvh", "pc", "max"))

    def test_auto_accel_follows_kvm(self):
        self.assertEqual(self.resolve(kvm=True).accel, "kvm")
        self.assertEqual(self.resolve(kvm=True).cpu, "host")
        self.assertEqual(self.resolve(kvm=False).accel, "tcg")

    def test_kvm_probe(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertFalse(qemu.kvm_usable(os.path.join(d, "kvm")))
            path = os.path.join(d, "file")
            open(path, "w").close()
            self.assertTrue(qemu.kvm_usable(path))

    def test_bad_smp(self):
        for bad in ("0", "x", "-1", "1.5", "256", 0):
            msg = self.error(smp=bad)
            self.assertIn("SMP", msg)
            self.assertIn("1 to 255", msg)
        self.assertEqual(self.resolve(smp="4").smp, 4)

    def test_mem(self):
        self.assertEqual(self.resolve(mem="1G").mem, "1G")
        self.assertEqual(self.resolve(mem="512").mem, "512M")
        self.assertEqual(self.resolve(mem="64m").mem, "64M")
        self.assertEqual(self.resolve(mem="2048K").mem, "2048K")
        for bad in ("0", "lots", "256X", "-1M", "512K", "1.5G"):
            self.assertIn("MEM", self.error(mem=bad), bad)

    def test_bad_choices_name_valid_ones(self):
        self.assertIn("pvh, bios, uefi, efi", self.error(boot="floppy"))
        self.assertIn("pc, q35", self.error(machine="isapc"))
        self.assertIn("auto, tcg, kvm", self.error(accel="hvf"))
        self.assertIn("0, 1 or auto", self.error(icount="yes"))

    def test_efi_needs_disk_and_defaults_to_q35(self):
        self.assertIn("--disk", self.error(boot="efi", iso="x.iso"))
        self.assertEqual(self.resolve(boot="efi", disk="x.img").machine, "q35")
        self.assertEqual(self.resolve(boot="efi", disk="x.img", machine="pc").machine, "pc")

    def test_icount(self):
        r = self.resolve(icount="1", kvm=True)          # auto -> tcg under icount
        self.assertEqual((r.accel, r.cpu, r.icount), ("tcg", "max", True))
        self.assertIn("needs TCG", self.error(icount=1, accel="kvm", kvm=True))
        msg = self.error(icount=1, smp=2)
        self.assertIn("livelock", msg)
        self.assertIn("SMP=1", msg)
        # make scale's vCPU axis asks for it explicitly: one clock for all vCPUs.
        r = self.resolve(icount=1, smp=64, smp_icount=True)
        self.assertEqual((r.accel, r.icount, r.smp, r.mode), ("tcg", True, 64, "icount"))
        self.assertIn("-icount", qemu.build_argv(r))

    def test_kvm_requested_without_kvm(self):
        self.assertIn("/dev/kvm", self.error(accel="kvm", kvm=False))

    def test_cpu(self):
        self.assertEqual(self.resolve(cpu="qemu64").cpu, "qemu64")
        self.assertEqual(self.resolve(cpu="Skylake-Client,-pmu,+x2apic").cpu,
                         "Skylake-Client,-pmu,+x2apic")
        self.assertIn("needs KVM", self.error(cpu="host"))
        self.assertEqual(self.resolve(cpu="host", accel="kvm", kvm=True).cpu, "host")
        self.assertIn("CPU", self.error(cpu="max; rm -rf"))

    def test_boot_needs_image(self):
        self.assertIn("--kernel", self.error(kernel=None))
        self.assertIn("--iso", self.error(boot="bios"))
        self.assertIn("--iso", self.error(boot="uefi"))

    def test_missing_file(self):
        with self.assertRaises(qemu.ParamError) as cm:
            qemu.resolve(P(kernel="/nonexistent/kernel.elf"), kvm_available=False)
        self.assertIn("no such file", str(cm.exception))

    def test_cmdline_control_chars(self):
        self.assertIn("CMDLINE", self.error(cmdline="a\nb"))

    def test_uefi_defaults_to_q35(self):
        self.assertEqual(self.resolve(boot="uefi", iso="x.iso").machine, "q35")
        self.assertEqual(self.resolve(boot="uefi", iso="x.iso", machine="pc").machine, "pc")
        self.assertEqual(self.resolve(boot="bios", iso="x.iso").machine, "pc")


class ModeTest(unittest.TestCase):
    """ICOUNT=auto (make run's default): icount when the run ends up on TCG at SMP=1;
    Resolved.mode names the mode as the guest does and Resolved.why says why."""

    def resolve(self, kvm=False, **kw):
        return qemu.resolve(P(kernel="k.elf", **kw), kvm_available=kvm, check_files=False)

    def test_auto_without_kvm_is_icount(self):
        r = self.resolve(icount="auto")
        self.assertEqual((r.accel, r.icount, r.smp, r.mode), ("tcg", True, 1, "icount"))
        self.assertIn("KVM unusable here (no usable /dev/kvm)", r.why)
        self.assertIn("1 ns per guest instruction", r.why)
        self.assertEqual(qemu.mode_line(r), "qemu.py: mode icount, SMP=1: " + r.why)

    def test_auto_with_kvm_is_kvm(self):
        r = self.resolve(icount="auto", kvm=True)
        self.assertEqual((r.accel, r.icount, r.mode), ("kvm", False, "KVM"))
        self.assertEqual(r.why, "KVM available")

    def test_user_choices_win(self):
        r = self.resolve(icount="0")
        self.assertEqual((r.icount, r.mode), (False, "TCG"))
        self.assertIn("ICOUNT=0 (wall-clock timings under TCG are host noise)", r.why)
        r = self.resolve(icount="auto", smp="2")
        self.assertEqual((r.icount, r.mode, r.smp), (False, "TCG", 2))
        self.assertIn("icount needs SMP=1", r.why)
        r = self.resolve(icount="auto", accel="tcg", kvm=True)
        self.assertEqual((r.accel, r.mode), ("tcg", "icount"))
        self.assertTrue(r.why.startswith("ACCEL=tcg; TCG with icount"), r.why)
        r = self.resolve(icount="auto", accel="kvm", kvm=True)
        self.assertEqual(r.mode, "KVM")
        r = self.resolve(icount="1", kvm=True)
        self.assertEqual(r.mode, "icount")
        self.assertTrue(r.why.startswith("ICOUNT=1"), r.why)
        self.assertIn("-icount", qemu.build_argv(self.resolve(icount="auto")))
        self.assertNotIn("-icount", qemu.build_argv(self.resolve(icount="auto", kvm=True)))

    def test_library_default_stays_0(self):
        # test/run and tools/irqlab say what they want; only make run and the CLI pick.
        self.assertFalse(self.resolve().icount)


class ArgvTest(unittest.TestCase):
    def test_always_present(self):
        a = argv_for()
        self.assertEqual(a[0], "qemu-system-x86_64")
        self.assertIn("-no-reboot", a)
        for p in (("-display", "none"), ("-monitor", "none"),
                  ("-device", "isa-debug-exit,iobase=0xf4,iosize=4"),
                  ("-machine", "pc"), ("-accel", "tcg"), ("-cpu", "max"), ("-smp", "1"),
                  ("-m", "256M"), ("-serial", "stdio"), ("-kernel", "k.elf")):
            self.assertIn(p, pairs(a))
        self.assertNotIn("-append", a)
        self.assertNotIn("-icount", a)
        self.assertNotIn("-s", a)

    def test_pvh_cmdline(self):
        a = argv_for(cmdline="run=cyclictest ktest.filter=slub.*")
        self.assertIn(("-append", "run=cyclictest ktest.filter=slub.*"), pairs(a))

    def test_icount_flags(self):
        a = argv_for(icount="1")
        self.assertIn(("-icount", "shift=0,sleep=off"), pairs(a))
        self.assertIn(("-rtc", "clock=vm"), pairs(a))
        self.assertIn(("-accel", "tcg"), pairs(a))

    def test_kvm(self):
        a = argv_for(kvm=True, smp="4", mem="1G")
        for p in (("-accel", "kvm"), ("-cpu", "host"), ("-smp", "4"), ("-m", "1G")):
            self.assertIn(p, pairs(a))

    def test_serial_file(self):
        a = argv_for(serial=("file", "build/logs/x.log"))
        self.assertIn(("-serial", "file:build/logs/x.log"), pairs(a))

    def test_serial_port_leaves_lower_ports_out(self):
        r = qemu.resolve(P(kernel="k.elf", serial="ttyS2"), kvm_available=False,
                         check_files=False)
        a = qemu.build_argv(r, ("file", "x.log"), None, qemu="qemu-system-x86_64")
        serials = [v for k, v in pairs(a) if k == "-serial"]
        self.assertEqual(serials, ["none", "none", "file:x.log"])
        self.assertEqual(argv_for(serial=("file", "x.log")).count("-serial"), 1)
        with self.assertRaises(qemu.ParamError) as cm:
            qemu.resolve(P(kernel="k.elf", serial="ttyS4"), kvm_available=False,
                         check_files=False)
        self.assertIn("ttyS0", str(cm.exception))

    def test_hpet_off(self):
        self.assertIn(("-machine", "pc,hpet=off"), pairs(argv_for(hpet="0")))
        self.assertIn(("-machine", "q35,hpet=off"), pairs(argv_for(hpet="0", machine="q35")))
        self.assertIn(("-machine", "pc"), pairs(argv_for()))
        with self.assertRaises(qemu.ParamError):
            argv_for(hpet="off")

    def test_tcg_thread(self):
        # single: one round-robin TCG thread; multi (default) and KVM: as before.
        self.assertIn(("-accel", "tcg,thread=single"),
                      pairs(argv_for(tcg_thread="single", smp="64", icount="0")))
        self.assertIn(("-accel", "tcg"), pairs(argv_for(smp="64", icount="0")))
        self.assertIn(("-accel", "tcg"),
                      pairs(argv_for(tcg_thread="multi", smp="4", icount="0")))
        self.assertIn(("-accel", "kvm"), pairs(argv_for(kvm=True, tcg_thread="single")))
        # icount is single-threaded already: no thread= next to -icount.
        a = argv_for(tcg_thread="single", icount="1")
        self.assertIn(("-accel", "tcg"), pairs(a))
        self.assertIn("-icount", a)
        with self.assertRaises(qemu.ParamError):
            argv_for(tcg_thread="rr")

    def test_large_mem_is_unreserved(self):
        # Above 8G the RAM is one backend with reserve=off (host overcommit).
        a = argv_for(mem="64G", machine="q35")
        self.assertIn(("-machine", "q35,memory-backend=pc.ram"), pairs(a))
        self.assertIn(("-object", "memory-backend-ram,id=pc.ram,size=65536M,reserve=off"),
                      pairs(a))
        self.assertIn(("-m", "64G"), pairs(a))
        self.assertIn(("-machine", "pc,hpet=off,memory-backend=pc.ram"),
                      pairs(argv_for(mem="9G", hpet="0")))
        # Up to 8G: QEMU's own RAM, as before.
        for mem in ("8G", "8192M", "256M"):
            a = argv_for(mem=mem)
            self.assertIn(("-machine", "pc"), pairs(a))
            self.assertNotIn("-object", a)
        # NUMA: each node's backend is unreserved instead.
        a = argv_for(mem="32G", smp="2", numa="2", machine="q35")
        self.assertIn(("-machine", "q35"), pairs(a))
        self.assertIn(("-object", "memory-backend-ram,id=ram-node1,size=16384M,reserve=off"),
                      pairs(a))
        self.assertNotIn("memory-backend-ram,id=pc.ram,size=32768M,reserve=off", a)

    def test_bios(self):
        a = argv_for(boot="bios", iso="x.iso", cmdline="ignored")
        self.assertIn(("-cdrom", "x.iso"), pairs(a))
        self.assertNotIn("-kernel", a)
        self.assertNotIn("-append", a)
        self.assertNotIn("if=pflash", " ".join(a))

    def test_uefi_pflash(self):
        a = argv_for(boot="uefi", iso="x.iso", ovmf=("/fw/CODE.fd", "/tmp/w,1/VARS.fd"))
        self.assertIn(("-machine", "q35"), pairs(a))
        self.assertIn(("-drive", "if=pflash,format=raw,unit=0,readonly=on,file=/fw/CODE.fd"),
                      pairs(a))
        # commas in paths are doubled (QEMU option syntax); the vars copy is writable
        self.assertIn(("-drive", "if=pflash,format=raw,unit=1,file=/tmp/w,,1/VARS.fd"),
                      pairs(a))
        self.assertIn(("-cdrom", "x.iso"), pairs(a))
        self.assertNotIn("-kernel", a)

    def test_efi_disk(self):
        a = argv_for(boot="efi", disk="/b/e,1.img", ovmf=("/fw/CODE.fd", "/tmp/VARS.fd"))
        self.assertIn(("-drive", "if=pflash,format=raw,unit=0,readonly=on,file=/fw/CODE.fd"),
                      pairs(a))
        # the shared image is never written: snapshot=on; the disk boots first
        self.assertIn(("-drive", "if=none,id=esp,format=raw,snapshot=on,file=/b/e,,1.img"),
                      pairs(a))
        self.assertIn(("-device", "ide-hd,drive=esp,bootindex=0"), pairs(a))
        self.assertNotIn("-cdrom", a)
        self.assertNotIn("-kernel", a)
        with self.assertRaises(ValueError):
            argv_for(boot="efi", disk="x.img")

    def test_uefi_needs_ovmf(self):
        with self.assertRaises(ValueError):
            argv_for(boot="uefi", iso="x.iso")

    def test_debug(self):
        a = argv_for(debug=True)
        self.assertEqual(a[-2:], ["-s", "-S"])

    def test_qemu_env_override(self):
        r = qemu.resolve(P(kernel="k"), kvm_available=False, check_files=False)
        with mock.patch.dict(os.environ, {"IRQLAB_QEMU": "/opt/q/bin/qemu"}):
            self.assertEqual(qemu.build_argv(r)[0], "/opt/q/bin/qemu")

    def test_find_ovmf(self):
        with tempfile.TemporaryDirectory() as d:
            code, vars_ = os.path.join(d, "C.fd"), os.path.join(d, "V.fd")
            for p in (code, vars_):
                open(p, "w").close()
            env = {"IRQLAB_OVMF_CODE": code, "IRQLAB_OVMF_VARS": vars_}
            self.assertEqual(qemu.find_ovmf(env), (code, vars_))
            with self.assertRaises(qemu.ParamError):
                qemu.find_ovmf({"IRQLAB_OVMF_CODE": code})
        with mock.patch.object(qemu, "OVMF_CANDIDATES", (("/nope/C", "/nope/V"),)):
            with self.assertRaises(qemu.ParamError) as cm:
                qemu.find_ovmf({})
            self.assertIn("ovmf", str(cm.exception))


class RunTest(unittest.TestCase):
    """run() and the CLI against a fake QEMU (IRQLAB_QEMU)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.fake = _fakes.write_script(os.path.join(self.d, "qemu"), _fakes.FAKE_QEMU)
        self.kernel = os.path.join(self.d, "kernel.elf")
        open(self.kernel, "w").close()
        self.env = mock.patch.dict(os.environ, {
            "IRQLAB_QEMU": self.fake, "IRQLAB_KVM_DEV": os.path.join(self.d, "no-kvm"),
            "IRQLAB_CACHE": os.path.join(self.d, "cache")})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def run_fake(self, cmdline, timeout=20, **kw):
        log = os.path.join(self.d, "serial.log")
        res = qemu.run(P(kernel=self.kernel, cmdline=cmdline, **kw), serial_file=log,
                       timeout=timeout, kvm_available=False)
        with open(log, errors="replace") as f:
            return res, f.read()

    def test_pass(self):
        res, log = self.run_fake("fake=ok")
        self.assertEqual((res.status, res.verdict.kind), (1, "pass"))
        self.assertIn("irqlab: end status=ok", log)

    def test_fail_and_panic_codes(self):
        self.assertEqual(self.run_fake("fake=fail")[0].verdict.code, 1)
        self.assertEqual(self.run_fake("fake=panic")[0].verdict.code, 3)

    def test_triple(self):
        self.assertEqual(self.run_fake("fake=triple")[0].verdict.cause, "status0")

    def test_timeout_kills_process_group(self):
        start = time.monotonic()
        res, log = self.run_fake("fake=hang", timeout=0.5)
        self.assertLess(time.monotonic() - start, 10)
        self.assertTrue(res.timed_out)
        self.assertEqual(res.verdict.reason, "timeout after 0.5 s")
        self.assertFalse(qemu._live)

    def test_qemu_error_is_not_a_pass(self):
        res, _ = self.run_fake("fake=qemuerr")
        self.assertEqual(res.verdict.cause, "qemu-error")
        self.assertIn("unsupported machine", res.stderr)

    def test_missing_binary(self):
        with mock.patch.dict(os.environ, {"IRQLAB_QEMU": os.path.join(self.d, "none")}):
            with self.assertRaises(qemu.ParamError) as cm:
                self.run_fake("")
        self.assertIn("cannot start", str(cm.exception))

    def test_stream_and_tee(self):
        out = io.BytesIO()
        tee = os.path.join(self.d, "tee.log")
        res = qemu.run(P(kernel=self.kernel, cmdline="fake=ok"), stream=out, tee=tee,
                       kvm_available=False)
        self.assertTrue(res.verdict.passed)
        self.assertIn(b"irqlab: end status=ok", out.getvalue())
        with open(tee, "rb") as f:
            self.assertEqual(f.read(), out.getvalue())

    def test_uefi_uses_private_vars_copy(self):
        code, vars_ = os.path.join(self.d, "CODE.fd"), os.path.join(self.d, "VARS.fd")
        for p in (code, vars_):
            with open(p, "w") as f:
                f.write("fw")
        iso = os.path.join(self.d, "x.iso")
        with open(iso, "w") as f:
            f.write("fake=ok")
        argv_file = os.path.join(self.d, "argv")
        with mock.patch.dict(os.environ, {"IRQLAB_OVMF_CODE": code, "IRQLAB_OVMF_VARS": vars_,
                                          "FAKE_QEMU_ARGV": argv_file}):
            res = qemu.run(P(iso=iso, boot="uefi"), serial_file=os.path.join(self.d, "l"),
                           timeout=20, kvm_available=False)
        self.assertTrue(res.verdict.passed)
        with open(argv_file) as f:
            drives = [a for a in f.read().split("\n") if "pflash" in a]
        self.assertEqual(len(drives), 2)
        self.assertIn(f"readonly=on,file={code}", drives[0])
        copy = drives[1].split("file=", 1)[1]
        self.assertNotEqual(copy, vars_)
        self.assertFalse(os.path.exists(copy))        # the work dir is cleaned up

    def cli(self, *args):
        p = subprocess.run([sys.executable, _load.QEMU_PY, *args], capture_output=True,
                           text=True, timeout=60, env=os.environ)
        return p.returncode, p.stdout, p.stderr

    def test_cli_exit_codes(self):
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--cmdline", "fake=ok")
        self.assertEqual(rc, 0, err)
        self.assertIn("irqlab: end status=ok", out)       # streamed to stdout
        # the mode line comes first, once, on stderr; the CLI defaults to ICOUNT=auto
        self.assertRegex(err.splitlines()[0], r"^qemu\.py: mode icount, SMP=1: KVM unusable "
                         r"here \(.*no-kvm: No such file or directory\); TCG with icount")
        self.assertEqual(err.count("KVM unusable"), 1, err)
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--cmdline", "fake=panic")
        self.assertEqual(rc, 1)
        self.assertIn("guest failure code 3 (panic)", err)
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--cmdline", "fake=triple")
        self.assertEqual(rc, 2)
        self.assertIn("status 0", err)
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--cmdline", "fake=hang",
                                "--timeout", "0.5")
        self.assertEqual(rc, 2)
        self.assertIn("timeout after 0.5 s", err)

    def test_cli_bad_parameters(self):
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--smp", "x")
        self.assertEqual(rc, 3)
        self.assertIn("SMP", err)
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--icount", "1", "--smp", "2")
        self.assertEqual(rc, 3)
        self.assertIn("livelock", err)
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--bogus")
        self.assertEqual(rc, 3)

    def test_cli_dry_run(self):
        rc, out, err = self.cli("run", "--kernel", self.kernel, "--icount", "1",
                                "--cmdline", "a b", "--dry-run")
        self.assertEqual(rc, 0, err)
        self.assertIn("-icount shift=0,sleep=off -rtc clock=vm", out)
        self.assertIn("-append 'a b'", out)


if __name__ == "__main__":
    unittest.main()
