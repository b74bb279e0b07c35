"""tools/lava/irqlab-job.yaml read as LAVA reads a console (_lava.py: pexpect over the
serial log, boot prompts and monitors in order on one stream), against serial logs of
real irqlab boots (data/lava/README says how they were made)."""

import os
import re
import tempfile
import unittest

import _lava
import _load

JOB = os.path.join(_load.ROOT, "tools", "lava", "irqlab-job.yaml")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lava")
BOOT_CASES = ["boot_info_sane", "boot_protocol", "loader_trampoline_page",
              "efi_memory_types", "rsdp_signature", "cpu_features", "boot"]


def log(name):
    return os.path.join(DATA, name)


@unittest.skipIf(_lava.pexpect is None, "needs python3-pexpect (scripts/deps.sh)")
class _Lava(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def scratch(self, text, name="log"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(text.encode() if isinstance(text, str) else text)
        return path


class JobTemplateTest(_Lava):
    def outcome(self, name, **kw):
        out = _lava.run(_lava.load_job(JOB), log(name), **kw)
        self.assertEqual(out.errors, [], f"{name}: {out}")
        return out

    def cases(self, out):
        return [(r["case"], r["result"]) for r in out.results]

    def test_monitor_keys(self):
        # LAVA refuses a monitor without name, start, end and pattern
        job = _lava.load_job(JOB)
        mons = [m for a in job["actions"] if "test" in a for m in a["test"]["monitors"]]
        self.assertEqual(len(mons), 1)
        for m in mons:
            self.assertLessEqual({"name", "start", "end", "pattern"}, set(m))
            self.assertLessEqual(set(m["fixupdict"].values()), set(_lava.VALID_RESULTS))
            re.compile(m["pattern"], re.DOTALL)

    def test_passing_run(self):
        out = self.outcome("pass.log")
        self.assertEqual(self.cases(out), [
            ("boot_info_sane", "pass"), ("boot_protocol", "skip"),
            ("loader_trampoline_page", "skip"), ("efi_memory_types", "pass"),
            ("rsdp_signature", "pass"), ("cpu_features", "pass"), ("boot", "pass"),
            ("end_status", "pass")])
        self.assertEqual({r["definition"] for r in out.results}, {"irqlab"})

    def test_failing_ktap_case(self):
        got = dict(self.cases(self.outcome("ktap-fail.log")))
        self.assertEqual(list(got), BOOT_CASES + ["end_status"])
        self.assertEqual((got["boot_protocol"], got["boot"], got["end_status"]),
                         ("fail", "fail", "fail"))
        self.assertEqual(got["boot_info_sane"], "pass")

    def test_command_line_error(self):
        # No KTAP in this run: the end banner's status is what says it failed.
        self.assertEqual(self.cases(self.outcome("cmdline-error.log")),
                         [("end_status", "fail")])

    def test_console_reads_of_any_size(self):
        # A console delivers text in pieces of any size; a line cut in two must give
        # the same results (LAVA reads at most 2000 characters at a time).
        for name in ("pass.log", "ktap-fail.log"):
            want = self.cases(self.outcome(name))
            for size in (3, 7, 61):
                self.assertEqual(self.cases(self.outcome(name, maxread=size)), want,
                                 f"{name}, reads of {size}")

    def test_without_printk_timestamps(self):
        # printk.time=0: the same lines without "[    1.234567] "
        with open(log("ktap-fail.log"), "rb") as f:
            raw = f.read()
        bare = re.sub(rb"(?m)^\[ *\d+\.\d+\] ", b"", raw)
        self.assertNotEqual(bare, raw)
        out = _lava.run(_lava.load_job(JOB), self.scratch(bare))
        self.assertEqual(out.errors, [])
        self.assertEqual(self.cases(out), self.cases(self.outcome("ktap-fail.log")))
        # and with the end banner right after a KTAP line (a run whose last words are
        # a KTAP verdict): the banner must still be a result before it ends the monitor
        tight = bare[:bare.index(b"not ok 1 boot\r\n") + 15] + \
            bare[bare.index(b"irqlab: end status="):]
        out = _lava.run(_lava.load_job(JOB), self.scratch(tight, "tight"))
        self.assertEqual(out.errors, [])
        self.assertEqual(self.cases(out), self.cases(self.outcome("ktap-fail.log")))

    def test_no_end_banner_is_an_error(self):
        # A boot that dies (panic, hang) never prints the end banner: LAVA times out.
        with open(log("pass.log"), "rb") as f:
            raw = f.read()
        cut = raw[:raw.index(b"irqlab: summary")]
        out = _lava.run(_lava.load_job(JOB), self.scratch(cut))
        self.assertEqual(len(out.errors), 1, out)
        self.assertIn("end string", out.errors[0])
        self.assertNotIn("end_status", [r["case"] for r in out.results])


class ModelTest(_Lava):
    """The pexpect behaviour the model (and LAVA) rely on, and the faults of the
    template as it was before (commit 3859b7d), each on its own."""

    MON = {"name": "m", "start": "START", "end": "END", "pattern": r"(?P<result>ok|no) (?P<test_case_id>\w+)"}

    def job(self, *monitors, prompts=None):
        boot = {"method": "grub"}
        if prompts:
            boot["prompts"] = prompts
        return {"actions": [{"boot": boot}, {"test": {"monitors": list(monitors)}}]}

    def run_job(self, job, text):
        return _lava.run(job, self.scratch(text))

    def test_end_wins_a_tie_earliest_match_wins_otherwise(self):
        out = self.run_job(self.job(dict(self.MON, pattern=r"(?P<test_case_id>EN)(?P<result>D)",
                                         fixupdict={"D": "pass"})), "START\nEND\n")
        self.assertEqual((out.results, out.errors), ([], []))
        out = self.run_job(self.job(dict(self.MON, fixupdict={"ok": "pass"})),
                           "START\nok a\nEND\nok b\n")
        self.assertEqual([r["case"] for r in out.results], ["a"])

    def test_caret_is_the_start_of_the_unread_buffer(self):
        mon = dict(self.MON, pattern=r"^\s*(?P<result>ok) (?P<test_case_id>\w+)",
                   fixupdict={"ok": "pass"})
        out = self.run_job(self.job(mon), "START\n  ok a\n[ 1.0] ok b\nEND\n")
        self.assertEqual([r["case"] for r in out.results], ["a"])

    def test_old_ktap_pattern_misses_timestamped_lines(self):
        mon = dict(self.MON, start="irqlab: start", end="irqlab: end status=",
                   pattern=r"^\s*(?P<result>ok|not ok) \d+ (?P<test_case_id>[A-Za-z0-9_.-]+)",
                   fixupdict={"ok": "pass", "not ok": "fail"})
        out = _lava.run(self.job(mon), log("ktap-fail.log"))
        self.assertEqual((out.results, out.errors), ([], []))

    def test_a_second_monitor_never_sees_the_start_banner(self):
        first = dict(self.MON, name="a", start="irqlab: start", end="irqlab: end status=",
                     pattern=r"NEVER(?P<result>x)")
        second = dict(first, name="b")
        out = _lava.run(self.job(first, second), log("pass.log"))
        self.assertEqual(out.errors, ["b: start string 'irqlab: start' not found"])

    def test_boot_prompt_consumes_the_start_banner(self):
        mon = dict(self.MON, start="irqlab: start", end="irqlab: end status=")
        out = _lava.run(self.job(mon, prompts=["irqlab: start"]), log("pass.log"))
        self.assertEqual(out.errors, ["m: start string 'irqlab: start' not found"])

    def test_old_verdict_pattern_loses_to_its_own_end_string(self):
        mon = dict(self.MON, start="irqlab: start", end="irqlab: end status=",
                   pattern=r"irqlab: end status=(?P<result>ok|fail)(?P<test_case_id>)",
                   fixupdict={"ok": "pass", "fail": "fail"})
        out = _lava.run(self.job(mon), log("ktap-fail.log"))
        self.assertEqual((out.results, out.errors), ([], []))

    def test_result_rules(self):
        mon = dict(self.MON, pattern=r"(?P<result>\w+) (?P<test_case_id>[\w.-]+)\n",
                   fixupdict={"ok": "pass"})
        out = self.run_job(self.job(mon), "START\nok Foo.Bar-1\nweird x\nskip y\nEND\n")
        self.assertEqual([(r["case"], r["result"]) for r in out.results],
                         [("foo_bar_1", "pass"), ("y", "skip")])
        self.assertEqual(out.errors, ["m: bad test result 'weird'"])
