"""test/unittests.cfg parsing and entry selection."""

import os
import tempfile
import textwrap
import unittest

import _load

tr = _load.testrun()


def parse(text):
    return tr.parse_cfg(textwrap.dedent(text), source="t.cfg")


class CfgTest(unittest.TestCase):
    def error(self, text):
        with self.assertRaises(tr.CfgError) as cm:
            parse(text)
        return str(cm.exception)

    def test_defaults(self):
        [e] = parse("[a]\n")
        self.assertEqual((e.name, e.config, e.smp, e.mem, e.machine, e.cpu, e.accel, e.boot,
                          e.cmdline, e.timeout, e.icount, e.expect, e.groups),
                         ("a", "default", 1, "256M", "pc", "", "auto", "pvh", "", 60.0, False,
                          "pass", ()))

    def test_values(self):
        [e] = parse("""
            # comment
            [b]
            config = preempt_rt
            smp = 2
            mem = 1G
            machine = q35
            cpu = qemu64
            boot = uefi
            cmdline = run=cyclictest cyclictest.loops=100
            timeout = 12.5
            expect = panic
            groups = boot  slow
            """)
        self.assertEqual((e.config, e.smp, e.mem, e.machine, e.cpu, e.boot, e.cmdline,
                          e.timeout, e.expect, e.groups),
                         ("preempt_rt", 2, "1G", "q35", "qemu64", "uefi",
                          "run=cyclictest cyclictest.loops=100", 12.5, "panic",
                          ("boot", "slow")))

    def test_log_items(self):
        [e] = parse("[a]\nlog =\n    one two\n    \\# Histogram\n    \\\\x\n")
        self.assertEqual(e.log, ("one two", "# Histogram", "\\x"))

    def test_order_is_file_order(self):
        self.assertEqual([e.name for e in parse("[z]\n[a]\n[m]\n")], ["z", "a", "m"])

    def test_unknown_key(self):
        msg = self.error("[a]\nsmpp = 2\n")
        self.assertIn("[a]", msg)
        self.assertIn("'smpp'", msg)
        self.assertIn("valid keys", msg)

    def test_bad_values(self):
        for text, needle in (("smp = x", "smp"), ("smp = 0", "smp"), ("mem = lots", "mem"),
                             ("machine = isapc", "pc, q35"), ("boot = floppy", "pvh, bios"),
                             ("esp = nokernel", "needs boot = efi"),
                             ("boot = efi\nesp = half", "nokernel"),
                             ("iso_default = native", "needs boot = uefi"),
                             ("boot = bios\niso_default = native", "needs boot = uefi"),
                             ("boot = efi\niso_default = native", "needs boot = uefi"),
                             ("boot = uefi\niso_default = grub", "cmdline, native"),
                             ("expect = maybe", "pass, fail, cmdline, panic, timeout, noktap, noverdict"),
                             ("expect = pass|fail", "fail|panic"),
                             ("expect = fail|maybe", "fail|panic"),
                             ("timeout = 0", "timeout"), ("timeout = soon", "timeout"),
                             ("icount = 2", "icount"), ("accel = hvf", "auto, tcg, kvm"),
                             ("config = ../x", "config"), ("cmdline = a;b", "cmdline"),
                             ("cmdline = a=$(x)", "cmdline"), ("groups = a,b", "group")):
            msg = self.error(f"[e]\n{text}\n")
            self.assertIn("t.cfg: [e]", msg, text)
            self.assertIn(needle, msg, text)

    def test_iso_default(self):
        [a, b, c] = parse("[a]\n[b]\nboot = uefi\niso_default = native\n"
                          "[c]\nboot = bios\niso_default = cmdline\n")
        self.assertEqual((a.iso_default, b.iso_default, c.iso_default),
                         ("cmdline", "native", "cmdline"))

    def test_iso_paths(self):
        # test/run caches ISOs by what goes into them: GRUB's default is part of it.
        plain = tr.iso_path("default", "run=ktest")
        native = tr.iso_path("default", "run=ktest", "native")
        self.assertEqual(plain, tr.iso_path("default", "run=ktest", "cmdline"))
        self.assertNotEqual(plain, native)
        self.assertTrue(native.endswith("-native.iso"), native)
        self.assertNotEqual(native, tr.iso_path("default", "run=cyclic", "native"))

    def test_icount_smp_refused(self):
        self.assertIn("livelock", self.error("[e]\nicount = 1\nsmp = 2\n"))

    def test_syntax_errors(self):
        self.assertIn("t.cfg", self.error("no section\n"))
        self.assertIn("t.cfg", self.error("[a]\n[a]\n"))
        self.assertIn("t.cfg", self.error("[a]\nsmp = 1\nsmp = 2\n"))
        self.assertIn("reserved", self.error("[host-unittests]\n"))
        self.assertIn("entry names", self.error("[a b]\n"))

    def test_kvm_entry_validates_without_kvm(self):
        [e] = parse("[k]\naccel = kvm\ncpu = host\n")
        self.assertEqual((e.accel, e.cpu), ("kvm", "host"))

    def test_repo_table(self):
        entries = tr.load_cfg(tr.DEFAULT_CFG)
        by = {e.name: e for e in entries}
        for name in ("pvh-pc", "pvh-q35", "grub-bios", "grub-uefi", "broken-panic",
                     "broken-hang", "broken-noktap", "broken-triple"):
            self.assertIn(name, by)
        self.assertEqual((by["grub-uefi"].boot, by["grub-uefi"].machine), ("uefi", "q35"))
        self.assertEqual(by["broken-triple"].expect, "noverdict")
        self.assertEqual(by["broken-hang"].expect, "timeout")
        self.assertEqual((by["efi-q35"].boot, by["efi-q35"].esp), ("efi", "full"))
        self.assertEqual((by["efi-nokernel"].esp, by["efi-nokernel"].expect),
                         ("nokernel", "noboot"))
        native = by["iso-native-uefi"]
        self.assertEqual((native.boot, native.iso_default, native.expect),
                         ("uefi", "native", "pass"))
        self.assertIn("ktest.boot_loader=irqlab-efi", native.cmdline)
        self.assertTrue(any("chainloading" in l for l in native.log), native.log)
        self.assertEqual(by["grub-uefi"].iso_default, "cmdline")

    def test_load_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(tr.CfgError) as cm:
                tr.load_cfg(os.path.join(d, "none.cfg"))
            self.assertIn("No such file", str(cm.exception))


class SelectTest(unittest.TestCase):
    def setUp(self):
        self.entries = parse("[a]\ngroups = x\n[b]\ngroups = x y\n[c]\n")

    def test_all(self):
        host, chosen = tr.select(self.entries, [], [])
        self.assertTrue(host)
        self.assertEqual([e.name for e in chosen], ["a", "b", "c"])

    def test_names_and_groups(self):
        host, chosen = tr.select(self.entries, ["c"], ["y"])
        self.assertFalse(host)
        self.assertEqual([e.name for e in chosen], ["b", "c"])
        host, chosen = tr.select(self.entries, ["host-unittests"], [])
        self.assertEqual((host, chosen), (True, []))

    def test_unknown(self):
        with self.assertRaises(tr.CfgError) as cm:
            tr.select(self.entries, ["zz"], [])
        self.assertIn("valid entries: host-unittests, a, b, c", str(cm.exception))
        with self.assertRaises(tr.CfgError) as cm:
            tr.select(self.entries, [], ["zz"])
        self.assertIn("valid groups: host, x, y", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
