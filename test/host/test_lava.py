"""tools/lava/irqlab-job.yaml read as LAVA reads a console (_lava.py: pexpect over the
serial log, boot prompts and monitors in order on one stream), against serial logs of
real irqlab boots (data/lava/README says how they were made)."""

import io
import os
import re
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

import _lava
import _load

tool = _load._load("irqlab_tool", os.path.join(_load.ROOT, "tools", "irqlab"))

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


class GeneratedJobsTest(_Lava):
    """tools/irqlab lava-jobs: one job per experiment cell and repetition, each
    a complete job (no field left) that LAVA's monitor reads as the template."""

    def lava_jobs(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = tool.main(["lava-jobs", *argv])
        return rc, out.getvalue(), err.getvalue()

    def ini(self, workloads="hb = run=hackbench hackbench.loops=5\n", name="e7"):
        path = os.path.join(self.tmp.name, f"{name}.ini")
        with open(path, "w") as f:
            f.write("[matrix]\nconfigs = rt_legacy rt_nopartial\nreps = 2\ncompare =\n"
                    "    rt_legacy rt_nopartial SLUB_LEGACY\n[workloads]\n" + workloads)
        return path

    def test_stopping_rule_writes_min_reps_rounds(self):
        path = os.path.join(self.tmp.name, "e8.ini")
        with open(path, "w") as f:
            f.write("[matrix]\nconfigs = rt_legacy rt_nopartial\nmin_reps = 3\n"
                    "max_reps = 30\nci_width = 5\ncompare =\n"
                    "    rt_legacy rt_nopartial SLUB_LEGACY\n[workloads]\nhb = run=hackbench\n")
        out = os.path.join(self.tmp.name, "jobs")
        rc, so, se = self.lava_jobs(path, "--cpus", "8", "--kernel-url-base", "http://lab/k",
                                    "--out", out)
        self.assertEqual(rc, 0, se)
        with open(os.path.join(out, "jobs.txt")) as f:
            self.assertEqual(f.read().split(), [f"e8-{c}-hb-rep{r}.yaml" for r in (1, 2, 3)
                                                for c in ("rt_legacy", "rt_nopartial")])

    def test_one_job_per_cell_and_rep(self):
        import yaml
        out = os.path.join(self.tmp.name, "jobs")
        rc, so, se = self.lava_jobs(self.ini(), "--cpus", "8", "--kernel-url-base",
                                    "http://lab/irqlab/build/", "--out", out)
        self.assertEqual(rc, 0, se)
        with open(os.path.join(out, "jobs.txt")) as f:
            order = f.read().split()
        # interleaved as boot_matrix() boots: every configuration within a rep
        self.assertEqual(order, ["e7-rt_legacy-hb-rep1.yaml", "e7-rt_nopartial-hb-rep1.yaml",
                                 "e7-rt_legacy-hb-rep2.yaml", "e7-rt_nopartial-hb-rep2.yaml"])
        self.assertEqual(sorted(os.listdir(out)), sorted(order + ["jobs.txt"]))
        with open(os.path.join(out, order[3])) as f:
            text = f.read()
        self.assertNotRegex("\n".join(l for l in text.splitlines()
                                       if not l.lstrip().startswith("#")), r"\{\{")
        job = yaml.safe_load(text)
        self.assertEqual(job["context"]["extra_kernel_args"],
                         "run=hackbench hackbench.loops=5 maxcpus=8")
        self.assertEqual(job["actions"][0]["deploy"]["kernel"]["url"],
                         "http://lab/irqlab/build/rt_nopartial/kernel.elf")
        self.assertEqual(job["device_type"], "x86")
        self.assertEqual(job["job_name"], "irqlab rt_nopartial e7/hb rep2 cpus=8")
        self.assertEqual(job["metadata"], {"irqlab.experiment": "e7",
                                           "irqlab.config": "rt_nopartial",
                                           "irqlab.workload": "hb", "irqlab.rep": "2",
                                           "irqlab.cpus": "8"})
        # the monitor is the template's: the model reads a real log the same way
        ref = _lava.run(_lava.load_job(JOB), log("pass.log"))
        got = _lava.run(job, log("pass.log"))
        self.assertEqual((got.results, got.errors), (ref.results, ref.errors))
        self.assertIn(("end_status", "pass"), [(r["case"], r["result"]) for r in got.results])

    def test_bad_arguments(self):
        out = os.path.join(self.tmp.name, "jobs")
        for argv, msg in (
                ((self.ini(), "--cpus", "0"), "--cpus and --reps must be at least 1"),
                ((self.ini(), "--cpus", "2", "--reps", "0"), "must be at least 1"),
                ((self.ini("hb = run=hackbench maxcpus=4\n", "e8"), "--cpus", "2"),
                 "already sets maxcpus=4"),
                ((self.ini("hb = run=ktest ktest.filter='x'\n", "e9"), "--cpus", "2"),
                 "has a single quote"),
                ((self.ini(), "--cpus", "2", "--template", os.path.join(self.tmp.name, "no")),
                 "--template")):
            rc, so, se = self.lava_jobs(*argv, "--kernel-url-base", "http://lab/b",
                                        "--out", out)
            self.assertEqual(rc, 2, (argv, se))
            self.assertIn(msg, se)
            self.assertFalse(os.path.exists(out), argv)
        rc, so, se = self.lava_jobs(self.ini(), "--cpus", "2", "--kernel-url-base",
                                    "http://lab/a b", "--out", out)
        self.assertEqual(rc, 2)
        self.assertIn("no blanks, quotes or #", se)

    def test_a_template_field_without_a_value_is_refused(self):
        tpl = self.scratch("# {{ comment }} stays\njob_name: {{ config }} {{ nosuch }}\n",
                           "tpl.yaml")
        rc, so, se = self.lava_jobs(self.ini(), "--cpus", "2", "--kernel-url-base",
                                    "http://lab/b", "--out", os.path.join(self.tmp.name, "j"),
                                    "--template", tpl)
        self.assertEqual(rc, 2)
        self.assertIn("no value for the template's field(s) nosuch", se)
        self.assertEqual(tool.render_lava_job("# {{ x }}\na: {{ y }}\n", {"y": 1}),
                         "# {{ x }}\na: 1\n")
