"""scripts/autoconf_rsp.py: the response file defines exactly the macros autoconf.h
does (compared by GCC itself), and input it does not understand is an error."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import _load

SCRIPT = os.path.join(_load.ROOT, "scripts", "autoconf_rsp.py")

# kconfig's shape, with the values a future string or hex symbol could have.
AUTOCONF = r'''/*
 *
 * Automatically generated file; DO NOT EDIT.
 * irqlab configuration
 *
 */
#define CONFIG_SLUB_CPU_PARTIAL 1
#define CONFIG_LOG_BUF_SHIFT 18
#define CONFIG_PHYS_START 0x1000000
#define CONFIG_FOO_MODULE 1
#define CONFIG_CMDLINE "run=cyclic cyclic.duration_ms=3000"
#define CONFIG_QUOTED "say \"hi\" 'there' \\ $HOME `x` #1 %s"
#define CONFIG_EMPTY ""
'''


def macros(args, cwd):
    """The CONFIG_ macros GCC ends up with for these preprocessor arguments."""
    p = subprocess.run(["gcc", "-E", "-dM", "-x", "c", *args, "/dev/null"], cwd=cwd,
                       capture_output=True, text=True, check=True)
    return sorted(l for l in p.stdout.splitlines() if l.startswith("#define CONFIG_"))


class AutoconfRsp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, text):
        src = os.path.join(self.d, "autoconf.h")
        with open(src, "w") as f:
            f.write(text)
        rsp = os.path.join(self.d, "autoconf.rsp")
        p = subprocess.run([sys.executable, SCRIPT, src, rsp], capture_output=True, text=True,
                           timeout=30)
        return p, src, rsp

    @unittest.skipUnless(shutil.which("gcc"), "needs gcc")
    def test_same_macros_as_the_header(self):
        p, src, rsp = self.run_script(AUTOCONF)
        self.assertEqual(p.returncode, 0, p.stderr)
        want = macros(["-include", src], self.d)
        self.assertEqual(len(want), 7)
        self.assertEqual(macros(["@" + rsp], self.d), want)

    def test_one_option_per_define(self):
        p, _, rsp = self.run_script(AUTOCONF)
        with open(rsp) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:2], ["-DCONFIG_SLUB_CPU_PARTIAL=1", "-DCONFIG_LOG_BUF_SHIFT=18"])
        self.assertEqual(len(lines), 7)

    def test_unknown_line_is_an_error(self):
        for bad in ("#undef CONFIG_X\n", "#define CONFIG_NOVALUE\n", "int x;\n"):
            with self.subTest(bad=bad):
                p, _, rsp = self.run_script(AUTOCONF + bad)
                self.assertEqual(p.returncode, 1)
                self.assertIn("not a kconfig #define", p.stderr)
                self.assertNotIn("Traceback", p.stderr)
                self.assertFalse(os.path.exists(rsp))

    def test_missing_input(self):
        p = subprocess.run([sys.executable, SCRIPT, os.path.join(self.d, "none.h"),
                            os.path.join(self.d, "out.rsp")], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(p.returncode, 1)
        self.assertIn("autoconf_rsp.py:", p.stderr)
        self.assertNotIn("Traceback", p.stderr)


if __name__ == "__main__":
    unittest.main()
