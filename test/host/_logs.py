# SPDX-License-Identifier: GPL-2.0
"""Serial logs for the host tool's tests, written into a temporary directory."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_irqlab_tool import rec, run_tool  # noqa: E402


class LogCase(unittest.TestCase):
    """A test case that writes numbered logs: a kernel's start line, the
    command line, optionally the CPU count, the records (CRCs right) and a
    passing end.  log_smp: the CPU count line's default (None: no line)."""
    log_smp = None

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.n = 0

    def log(self, records, cmdline="run=cyclic", config="deadbeef", smp=None):
        smp = self.log_smp if smp is None else smp
        self.n += 1
        path = os.path.join(self.tmp.name, f"{self.n}.log")
        lines = [f"irqlab: start 0.1.0 {config}", f"Command line: {cmdline}"]
        if smp is not None:
            lines.append(f"smp: Brought up {smp} CPU{'s' if smp > 1 else ''} in 0 ms")
        lines += [rec(i, r) for i, r in enumerate(records)] + ["irqlab: end status=ok"]
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_tool(self, *argv):
        return run_tool(*argv)
