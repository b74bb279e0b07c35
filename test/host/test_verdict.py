"""The pure verdict classifier of scripts/qemu.py."""

import unittest

import _load

qemu = _load.qemu()


class ClassifyTest(unittest.TestCase):
    def test_status_1_is_pass(self):
        v = qemu.classify(1, False)
        self.assertEqual(v.kind, "pass")
        self.assertTrue(v.passed)

    def test_odd_status_is_guest_failure_code(self):
        for code in (1, 2, 3, 42, 127):
            v = qemu.classify((code << 1) | 1, False)
            self.assertEqual((v.kind, v.code), ("fail", code))
            self.assertIn(f"guest failure code {code}", v.reason)

    def test_panic_code_is_named(self):
        self.assertEqual(qemu.classify(7, False).reason, "guest failure code 3 (panic)")
        self.assertEqual(qemu.classify(3, False).reason, "guest failure code 1 (test failure)")

    def test_status_0_is_triple_fault_no_verdict(self):
        v = qemu.classify(0, False)
        self.assertEqual((v.kind, v.cause), ("noverdict", "status0"))
        self.assertEqual(v.reason, "triple fault / no verdict (status 0)")

    def test_even_status_is_no_verdict(self):
        v = qemu.classify(2, False)
        self.assertEqual((v.kind, v.cause), ("noverdict", "status"))
        self.assertIn("status 2", v.reason)

    def test_timeout_wins_over_status(self):
        for status in (0, 1, 7, -15, None):
            v = qemu.classify(status, True, timeout=60)
            self.assertEqual((v.kind, v.cause, v.reason),
                             ("noverdict", "timeout", "timeout after 60 s"))
        self.assertEqual(qemu.classify(0, True, timeout=7.5).reason, "timeout after 7.5 s")
        self.assertEqual(qemu.classify(0, True).reason, "timeout")

    def test_signal_is_no_verdict(self):
        v = qemu.classify(-9, False)
        self.assertEqual((v.kind, v.cause), ("noverdict", "signal"))
        self.assertIn("SIGKILL", v.reason)

    def test_unknown_status(self):
        self.assertEqual(qemu.classify(None, False).kind, "noverdict")
        self.assertEqual(qemu.classify(300, False).kind, "noverdict")

    def test_qemu_error_turns_status_1_into_no_verdict(self):
        v = qemu.classify(1, False, qemu_error="qemu-system-x86_64: -m 0: bad")
        self.assertEqual((v.kind, v.cause), ("noverdict", "qemu-error"))
        self.assertIn("QEMU error", v.reason)
        # only status 1 is ambiguous
        self.assertEqual(qemu.classify(7, False, qemu_error="x").kind, "fail")

    def test_qemu_error_from_stderr(self):
        f = qemu.qemu_error_from_stderr
        self.assertIsNone(f(""))
        self.assertIsNone(f("qemu-system-x86_64: warning: TCG doesn't support requested "
                            "feature: CPUID.01H:ECX.vmx [bit 5]\n"))
        self.assertIsNone(f("qemu-system-x86_64: terminating on signal 15 from pid 1\n"))
        self.assertEqual(f("noise\nqemu-system-x86_64: -kernel x: No such file\n"),
                         "qemu-system-x86_64: -kernel x: No such file")
        self.assertEqual(f("qemu: could not load kernel 'k'\n"), "qemu: could not load kernel 'k'")


if __name__ == "__main__":
    unittest.main()
