"""test/run's report scan: every WARN, BUG, lockdep, lockup, KASAN or UBSAN
report in a serial log fails the entry unless a case (ktest_expect_reports())
or the entry's `reports` key declared it."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import _load

qemu = _load.qemu()
tr = _load.testrun()

HEAD = """irqlab: start 0.1 abc
KTAP version 1
1..3
"""
TAIL = """irqlab: end status=ok
"""
WARN = """------------[ cut here ]------------
WARNING: CPU: 0 at mm/slub.c:123: !irqs_disabled()
Call Trace:
 ___slab_alloc+0x12/0x300
 kmem_cache_alloc+0x40/0x80
---[ end trace ]---
"""
LOCKDEP = """
=====================================================
WARNING: possible circular locking dependency detected
irqlab 0.1
-----------------------------------------------------
ktest/5 is trying to acquire lock:
"""


def log(case1="", case2="", tail=TAIL):
    """Two suites of one case each; case1/case2 is what each case printed."""
    return (HEAD +
            "    KTAP version 1\n    # Subtest: s1\n    1..1\n" + case1 +
            "    ok 1 a\nok 1 s1\n" +
            "    KTAP version 1\n    # Subtest: s2\n    1..1\n" + case2 +
            "    ok 1 b\nok 2 s2\n" +
            "ok 3 verdict\n" + tail)


def mark(n, kind):
    return f"ktest: expected {n} {kind} report(s)\n"


def judge(text, expect="pass", status=1, kinds=(), timed_out=False):
    return tr.judge(expect, qemu.classify(status, timed_out, timeout=60),
                    tr.clean_lines(text), report_kinds=kinds)


def scan(text, kinds=()):
    return tr.scan_reports(tr.clean_lines(text), kinds)


class KindTest(unittest.TestCase):
    """Each report's first line as the kernel prints it, and its kind."""

    HEADERS = [
        ("WARNING: CPU: 1 at kernel/sched/core.c:88: cond", "warn"),
        ("WARNING: rtmutex deadlock detected: ktest/4", "warn"),
        ("WARNING: possible circular locking dependency detected", "lockdep"),
        ("WARNING: possible recursive locking detected", "lockdep"),
        ("WARNING: inconsistent lock state", "lockdep"),
        ("WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected", "lockdep"),
        ("WARNING: possible irq lock inversion dependency detected", "lockdep"),
        ("WARNING: bad unlock balance detected!", "lockdep"),
        ("[ BUG: Invalid wait context ]", "lockdep"),
        ("BUG: MAX_LOCKDEP_ENTRIES too low!", "lockdep"),
        ("WARNING: CPU: 0 PID: 7 at mm/slub.c:9 lockdep_assert_irqs_disabled()", "lockdep"),
        ("BUG: sleeping function called from invalid context at mm/slub.c:3", "sched"),
        ("BUG: scheduling while atomic: ktest/3/0x00000002", "sched"),
        ("BUG: thread leaker/9 exited migrate-disabled (1)", "sched"),
        ("bad: scheduling from the idle thread!", "sched"),
        ("BUG: soft lockup - CPU#1 stuck for 22s! [ktest:5]", "lockup"),
        ("Watchdog detected hard LOCKUP on cpu 1", "lockup"),
        ("NMI watchdog: Watchdog detected hard LOCKUP on cpu 1", "lockup"),
        ("watchdog: BUG: soft lockup - CPU#0 stuck for 21s! [init:1]", "lockup"),
        ("rcu: INFO: rcu_preempt self-detected stall on CPU", "lockup"),
        ("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", "lockup"),
        ("BUG: KASAN: slab-out-of-bounds in ks_oob+0x10/0x40", "kasan"),
        ("UBSAN: shift-out-of-bounds in lib/x.c:3:9", "ubsan"),
        ("BUG: Bad page state in process swapper/0  pfn:01234", "bug"),
        ("BUG: unable to handle page fault for address: 0000000000000008", "bug"),
        ("BUG kmalloc-64 (Not tainted): Poison overwritten", "bug"),
        ("  BUG: workqueue leaked atomic or irqs-off: kworker/0:1/8", "bug"),
    ]
    NOT_REPORTS = [
        "BUG: Bad page state: 3 messages suppressed",
        "    # Expected the kernel log to report \"BUG: KASAN: use-after-free\"",
        "irqlab: the kernel warned 1 time(s): see above",
        "irqlab: 1 lockup(s) or RCU stall(s) reported: see above",
        "ktest: expected 1 warn report(s)",
        "soft lockup detector on, hard lockup detector on (nmi), thresh 10 s",
        "    ok 3 ubsan_reports # UBSAN: off",
    ]

    def test_headers(self):
        for line, kind in self.HEADERS:
            self.assertEqual(tr.report_kind(line), kind, line)
            self.assertIn(kind, tr.REPORT_KINDS)

    def test_not_reports(self):
        for line in self.NOT_REPORTS:
            self.assertIsNone(tr.report_kind(line), line)

    def test_timestamped(self):
        text = "[    1.234567] WARNING: CPU: 0 at a.c:1: x\n"
        self.assertEqual([r.kind for r in scan(text)], ["warn"])


class ScanTest(unittest.TestCase):
    def test_clean_log_passes(self):
        j = judge(log())
        self.assertTrue(j.passed, j.reason)
        self.assertEqual(j.reports, [])

    def test_unexpected_warn_fails_an_ok_verdict(self):
        """The kernel said ok (a WARN is not a failure everywhere): the scan fails it."""
        j = judge(log(case1=WARN))
        self.assertFalse(j.passed)
        self.assertIn("1 unexpected report (warn): line", j.reason)
        self.assertIn("WARNING: CPU: 0 at mm/slub.c:123", j.reason)

    def test_declared_in_its_case(self):
        j = judge(log(case1=WARN + mark(1, "warn")))
        self.assertTrue(j.passed, j.reason)
        self.assertEqual([(r.kind, bool(r.expected)) for r in j.reports], [("warn", True)])

    def test_marker_before_the_report_in_the_same_case(self):
        """A report another CPU prints late, still in the case, is the case's."""
        self.assertTrue(judge(log(case1=mark(1, "lockup") +
                                  "BUG: soft lockup - CPU#1 stuck for 3s! [t:4]\n")).passed)

    def test_declared_in_another_case(self):
        j = judge(log(case1=mark(1, "warn"), case2=WARN))
        self.assertFalse(j.passed)
        self.assertIn("unexpected", j.reason)

    def test_outside_every_case(self):
        text = log().replace("ok 3 verdict\n", "ok 3 verdict\n" + WARN + mark(1, "warn"))
        # After the last KTAP line: a stretch of its own, the marker counts there...
        self.assertTrue(judge(text).passed)
        # ...but not for a report before the KTAP block.
        text = WARN + log(case1=mark(1, "warn"))
        self.assertFalse(judge(text).passed)

    def test_count_is_a_limit(self):
        j = judge(log(case1=WARN + WARN + mark(1, "warn")))
        self.assertFalse(j.passed)
        self.assertEqual([bool(r.expected) for r in j.reports], [True, False])
        self.assertTrue(judge(log(case1=WARN + WARN + mark(2, "warn"))).passed)
        self.assertTrue(judge(log(case1=WARN + mark(1, "warn") + WARN +
                                  mark(1, "warn"))).passed)

    def test_kind_must_match(self):
        j = judge(log(case1=WARN + mark(1, "lockdep")))
        self.assertFalse(j.passed)
        self.assertIn("(warn)", j.reason)
        self.assertTrue(judge(log(case1=LOCKDEP + mark(1, "lockdep"))).passed)

    def test_lockdep_report_is_one_report(self):
        reps = scan(log(case1=LOCKDEP))
        self.assertEqual([(r.kind, r.header) for r in reps],
                         [("lockdep", "WARNING: possible circular locking dependency "
                                      "detected")])

    def test_entry_key(self):
        self.assertTrue(judge(log(case1=WARN + LOCKDEP), kinds=("warn", "lockdep")).passed)
        j = judge(log(case1=WARN + LOCKDEP), kinds=("lockdep",))
        self.assertFalse(j.passed)
        self.assertIn("(warn)", j.reason)

    def test_expected_failure_still_scanned(self):
        """An entry that must fail fails for its declared report, not another."""
        text = log(case1=LOCKDEP).replace("status=ok", "status=fail")
        j = judge(text, expect="fail", status=3)
        self.assertFalse(j.passed)
        self.assertIn("fail as expected", j.reason)
        self.assertIn("unexpected report (lockdep)", j.reason)
        self.assertTrue(judge(text, expect="fail", status=3, kinds=("lockdep",)).passed)

    def test_failed_verdict_keeps_its_reason(self):
        text = log(case1=WARN).replace("status=ok", "status=fail")
        j = judge(text, status=3)
        self.assertFalse(j.passed)
        self.assertIn("status=fail", j.reason)
        self.assertIn("unexpected report (warn)", j.reason)

    def test_lockup_cause_shown(self):
        """The kernel's verdict names only a count ("see above"): the report
        itself must be in what a failed entry prints."""
        text = log(case1="watchdog: BUG: soft lockup - CPU#0 stuck for 21s! [init:1]\n"
                         "CPU: 0 PID: 1 Comm: init\n"
                         " ktest_run_body+0x7a/0x8a\n",
                   tail="irqlab: 1 lockup(s) or RCU stall(s) reported: see above\n"
                        "irqlab: end status=fail\n")
        j = judge(text, status=3)
        self.assertFalse(j.passed)
        self.assertIn("1 unexpected report (lockup)", j.reason)
        detail = tr.reports_detail(tr.clean_lines(text), j.reports)
        self.assertIn("    | watchdog: BUG: soft lockup - CPU#0 stuck for 21s! [init:1]", detail)
        self.assertIn("    |  ktest_run_body+0x7a/0x8a", detail)

    def test_truncated_log(self):
        """A log cut inside a case: the report counts, a marker that never came does not."""
        text = HEAD + "    KTAP version 1\n    # Subtest: s1\n    1..1\n" + \
            "WARNING: CPU: 0 at mm/slub.c:1: x"
        j = judge(text, status=0, timed_out=True)
        self.assertFalse(j.passed)
        self.assertIn("unexpected report (warn)", j.reason)
        self.assertEqual(tr.report_excerpt(tr.clean_lines(text), j.reports[0]),
                         ["WARNING: CPU: 0 at mm/slub.c:1: x"])

    def test_noboot_not_scanned(self):
        j = tr.judge("noboot", qemu.classify(0, True, timeout=60),
                     tr.clean_lines("BUG: firmware said so\n"), report_kinds=())
        self.assertTrue(j.passed, j.reason)


class ExcerptTest(unittest.TestCase):
    def test_excerpt_shows_the_report(self):
        lines = tr.clean_lines(log(case1=WARN + LOCKDEP))
        reps = tr.scan_reports(lines)
        detail = tr.reports_detail(lines, reps)
        self.assertEqual(detail[0], "    unexpected warn report, log line 8:")
        self.assertIn("    | WARNING: CPU: 0 at mm/slub.c:123: !irqs_disabled()", detail)
        self.assertIn("    |  ___slab_alloc+0x12/0x300", detail)
        # The WARN's excerpt ends at its trailer; the lockdep one follows.
        i = detail.index("    | ---[ end trace ]---")
        self.assertEqual(detail[i + 1], "    unexpected lockdep report, log line 15:")
        self.assertIn("    | ktest/5 is trying to acquire lock:", detail)
        self.assertNotIn("    |     ok 1 a", detail)

    def test_excerpt_length_and_count(self):
        body = "".join(f" frame{i}\n" for i in range(40))
        lines = tr.clean_lines(log(case1=("WARNING: CPU: 0 at a.c:1: x\n" + body) * 7))
        detail = tr.reports_detail(lines, tr.scan_reports(lines))
        self.assertEqual(sum(d.startswith("    unexpected warn") for d in detail),
                         tr.REPORTS_SHOWN)
        self.assertEqual(detail[-1], "    (2 more unexpected reports: see the log)")
        self.assertEqual(len(detail), tr.REPORTS_SHOWN * (tr.REPORT_LINES + 1) + 1)


class CfgTest(unittest.TestCase):
    def test_reports_key(self):
        e = tr.parse_cfg("[x]\nreports = warn lockdep\n", source="t.cfg")[0]
        self.assertEqual(e.reports, ("warn", "lockdep"))
        self.assertEqual(tr.parse_cfg("[x]\n", source="t.cfg")[0].reports, ())
        with self.assertRaisesRegex(tr.CfgError, r"\[x\]: invalid reports kind 'oops'"):
            tr.parse_cfg("[x]\nreports = oops\n", source="t.cfg")


class ScanCliTest(unittest.TestCase):
    def run_scan(self, text, name="nosuch", cfg="[e]\nreports = warn\n"):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, f"{name}.log")
            with open(path, "w") as f:
                f.write(text)
            with open(os.path.join(d, "t.cfg"), "w") as f:
                f.write(cfg)
            p = subprocess.run([sys.executable, _load.TEST_RUN, "--scan", "--cfg",
                                os.path.join(d, "t.cfg"), path],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout

    def test_scan_logs(self):
        rc, out = self.run_scan(log(case1=WARN))
        self.assertEqual(rc, 1, out)
        self.assertIn("1 unexpected report (warn)", out)
        self.assertIn("    | WARNING: CPU: 0 at mm/slub.c:123: !irqs_disabled()", out)
        rc, out = self.run_scan(log(case1=WARN), name="e")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 report(s), all expected", out)


if __name__ == "__main__":
    unittest.main()
