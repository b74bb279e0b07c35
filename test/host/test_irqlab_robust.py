# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab and scripts/records.py on bad input and closed pipes: one line
naming the problem and a defined exit status, never a Python traceback."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
from test_irqlab_tool import rec, CYC  # noqa: E402

TOOL = os.path.join(_load.ROOT, "tools", "irqlab")
RECORDS = os.path.join(_load.ROOT, "scripts", "records.py")


class RobustTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.good = self.write("good.log", "\n".join(
            ["irqlab: start 0.1.0 deadbeef", "Command line: run=cyclic", rec(0, CYC)] +
            [rec(i + 1, {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 100,
                         "time_ns": 1000000, "ctxsw": 1, "migrations": 0})
             for i in range(2)] + ["irqlab: end status=ok", ""]))

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text, mode="w"):
        path = os.path.join(self.tmp.name, name)
        with open(path, mode) as f:
            f.write(text)
        return path

    def sh(self, cmd, script=TOOL):
        """Run @script with the arguments of @cmd through a shell (pipes)."""
        p = subprocess.run(f"{sys.executable} {script} {cmd}", shell=True, text=True,
                           capture_output=True, timeout=60, cwd=self.tmp.name,
                           env=dict(os.environ, IRQLAB_DEBUG=""))
        return p.returncode, p.stdout, p.stderr

    def assertOneLine(self, err, *words):
        self.assertNotIn("Traceback", err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        for w in words:
            self.assertIn(w, lines[0])

    def test_html_and_json_to_a_missing_directory_or_a_directory(self):
        for opt, cmd in (("--html", "report"), ("--json", "parse")):
            rc, out, err = self.sh(f"{cmd} {self.good} {opt} nodir/x.out")
            self.assertEqual(rc, 2, err)
            self.assertOneLine(err, opt, "nodir", "does not exist")
            rc, out, err = self.sh(f"{cmd} {self.good} {opt} {self.tmp.name}")
            self.assertEqual(rc, 2, err)
            self.assertOneLine(err, opt, "is a directory")

    def test_a_lost_record_fails_every_reader_even_when_announced(self):
        # The kernel keeps records in a ring of their own: a drop line
        # accounts for text only, so a gap in the records is still a loss.
        lost = self.write("lost.log", "\n".join(
            ["irqlab: start 0.1.0 deadbeef", "Command line: run=cyclic", rec(0, CYC),
             "** 5 printk messages dropped **",
             rec(2, {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 100,
                     "time_ns": 1000000, "ctxsw": 1, "migrations": 0}),
             "irqlab: end status=ok", ""]))
        for cmd in ("report", "parse", "serial"):
            rc, out, err = self.sh(f"{cmd} {lost}")
            self.assertNotEqual(rc, 0, f"{cmd}: {out}{err}")
            self.assertIn("missing", out + err, cmd)
        rc, out, err = self.sh(lost, script=RECORDS)
        self.assertEqual(rc, 1, out + err)

    def test_report_into_a_closed_pipe(self):
        # 3000 hackbench rows, more than a pipe holds: the tool writes after head left
        big = self.write("big.log", "\n".join(
            ["irqlab: start 0.1.0 deadbeef"] +
            [rec(i, {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 100,
                     "time_ns": 1000000, "ctxsw": 1, "migrations": 0})
             for i in range(3000)] + ["irqlab: end status=ok", ""]))
        p = subprocess.run(["bash", "-c", f"{sys.executable} {TOOL} report {big} "
                            "| head -1; echo ${PIPESTATUS[0]}"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.stderr, "")
        self.assertEqual(p.stdout.splitlines(), [f"== {big}: irqlab 0.1.0 deadbeef, status ok",
                                                 "141"])
        # the page is still written when the tables' reader has gone
        page = os.path.join(self.tmp.name, "r.html")
        p = subprocess.run(["bash", "-c", f"{sys.executable} {TOOL} report {big} --html "
                            f"{page} | head -1; echo ${{PIPESTATUS[0]}}"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual((p.stderr, p.stdout.splitlines()[-1]), ("", "141"))
        with open(page) as f:
            self.assertIn("</html>", f.read())

    def test_unreadable_logs_are_named_and_the_rest_reported(self):
        unreadable = self.write("locked.log", "x\n")
        os.chmod(unreadable, 0)
        missing = os.path.join(self.tmp.name, "missing.log")
        for cmd in ("report", "parse", "lava"):
            rc, out, err = self.sh(f"{cmd} {missing} {self.tmp.name} {self.good}")
            self.assertEqual(rc, 2, cmd)
            self.assertNotIn("Traceback", err)
            self.assertIn(f"{missing}: No such file or directory", err)
            self.assertIn(f"{self.tmp.name}: Is a directory", err)
            # the readable one is still reported
            self.assertIn("irqlab-boot RESULT=pass" if cmd == "lava" else "good.log", out)
        rc, out, err = self.sh(f"compare --a {self.good} {missing} --b {self.good}")
        self.assertEqual(rc, 2)
        self.assertIn(f"{missing}: No such file", err)
        self.assertIn("hackbench time s", out)
        rc, out, err = self.sh(f"compare --a {missing} --b {self.good}")
        self.assertEqual(rc, 2)
        self.assertIn("no readable log on side A", err)
        rc, out, err = self.sh(f"{missing} {self.good}", script=RECORDS)
        self.assertEqual(rc, 2)
        self.assertIn(f"{missing}: No such file", err)
        self.assertIn("good.log: 3 records", out)
        if os.geteuid() != 0:		# root reads a mode 000 file
            rc, out, err = self.sh(f"report {unreadable}")
            self.assertEqual(rc, 2)
            self.assertOneLine(err.splitlines()[0], "locked.log", "Permission denied")

    def test_compare_without_scipy(self):
        fake = os.path.join(self.tmp.name, "fakesite", "scipy")
        os.makedirs(fake)
        with open(os.path.join(fake, "__init__.py"), "w") as f:
            f.write("raise ImportError('no scipy here')\n")
        with open(self.good) as f:
            text = f.read()
        other = self.write("other.log", text.replace(
            rec(1, {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 100,
                    "time_ns": 1000000, "ctxsw": 1, "migrations": 0}),
            rec(1, {"type": "hackbench", "groups": 1, "fds": 2, "loops": 1, "size": 100,
                    "time_ns": 1200000, "ctxsw": 1, "migrations": 0})))
        logs = f"{self.good} {other}"
        p = subprocess.run(f"{sys.executable} {TOOL} compare --a {logs} --b {logs}",
                           shell=True, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=os.path.dirname(fake)))
        self.assertEqual(p.returncode, 2)
        self.assertOneLine(p.stderr, "need SciPy", "apt-get install python3-scipy")
        self.assertTrue(p.stderr.startswith("irqlab compare: the tests need SciPy"), p.stderr)

    def test_binary_file_to_matrix(self):
        binary = self.write("bin.ini", bytes(range(256)) * 4, "wb")
        rc, out, err = self.sh(f"matrix {binary} --out {self.tmp.name}/mx")
        self.assertEqual(rc, 2)
        self.assertOneLine(err, "bin.ini", "not a text file")
        rc, out, err = self.sh(f"matrix {self.tmp.name}")
        self.assertEqual(rc, 2)
        self.assertOneLine(err, "cannot read it")

    def test_out_is_a_file(self):
        ini = self.write("m.ini", "[matrix]\nconfigs = default\n[workloads]\nw = run=cyclic\n")
        rc, out, err = self.sh(f"matrix {ini} --out {self.good}")
        self.assertEqual(rc, 2)
        self.assertOneLine(err, "--out", "good.log")


class LatencyFiguresTest(unittest.TestCase):
    """scripts/latency_figures.py with a make that talks and then fails."""

    def test_build_output_on_stderr_and_failure_in_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "make"), "w") as f:
                f.write("#!/bin/sh\necho '  CC      kernel/fake.c'\nexit 2\n")
            os.chmod(os.path.join(tmp, "make"), 0o755)
            p = subprocess.run([sys.executable, os.path.join(_load.ROOT, "scripts",
                                                             "latency_figures.py"), "--quick"],
                               capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, PATH=tmp + os.pathsep + os.environ["PATH"]))
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")
        # Progress and make's own output on stderr, then the failure in one line.
        err = p.stderr.splitlines()
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn("  CC      kernel/fake.c", err)
        self.assertEqual(err[-1], "latency_figures: building default failed (make status 2)")


if __name__ == "__main__":
    unittest.main()
