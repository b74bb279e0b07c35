# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab import-runs: physical machines' logs filed into an experiment's
matrix layout, so the index compares them as it compares QEMU's."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_irqlab_tool import CYC  # noqa: E402
from _logs import LogCase  # noqa: E402

HASHES = {"rt_legacy": "0badc0de", "rt_nopartial": "cafef00d"}
WORK = "run=cyclic cyclic.loops=20"


def cyc(max_ns):
    return dict(CYC, cpu=0, thread_ns=[1900, 2500, max_ns], clock="tsc")


class ImportRunsTest(LogCase):
    log_smp = 8

    def setUp(self):
        super().setUp()
        d = self.tmp.name
        self.build = os.path.join(d, "build")
        for c, h in HASHES.items():
            os.makedirs(os.path.join(self.build, c, "generated"))
            with open(os.path.join(self.build, c, "generated", "version.c"), "w") as f:
                f.write(f'const char irqlab_config_hash[] = "{h}";\n')
        self.ini = os.path.join(d, "e.ini")
        with open(self.ini, "w") as f:
            f.write("[matrix]\nconfigs = rt_legacy rt_nopartial\nreps = 2\nsmp = 2\n"
                    "compare =\n    rt_legacy rt_nopartial SLUB_LEGACY\n"
                    f"[workloads]\ncyc = {WORK}\nother = run=hackbench\n")
        self.out = os.path.join(d, "exp")

    def imp(self, *logs):
        return self.run_tool("import-runs", "--experiment", self.ini, "--out", self.out,
                             "--build", self.build, *logs)

    def test_cells_and_index(self):
        # maxcpus= (the ISO's and LAVA's CPU count) does not change the workload
        a = [self.log([cyc(9000 + i)], cmdline=f"{WORK} maxcpus=8", config=HASHES["rt_legacy"])
             for i in range(3)]
        b = [self.log([cyc(20000 + i)], cmdline=f"  {WORK}   maxcpus=8",
                      config=HASHES["rt_nopartial"]) for i in range(3)]
        rc, out, err = self.imp(*a, *b)
        self.assertEqual(rc, 0, out + err)
        for c, logs in (("rt_legacy", a), ("rt_nopartial", b)):
            for n, src in enumerate(logs, 1):
                base = os.path.join(self.out, c, "cyc", f"rep{n}")
                with open(base + ".log") as f, open(src) as g:
                    self.assertEqual(f.read(), g.read())
                with open(base + ".json") as f:
                    res = json.load(f)
                self.assertEqual((res["config"], res["workload"], res["rep"], res["smp"]),
                                 (c, "cyc", n, 8))
                self.assertEqual(res["cpu_cap"], "maxcpus=8")
                self.assertTrue(res["passed"])
        self.assertIn(f"{a[0]}: rt_legacy cyc rep 1: status=ok, 8 CPU(s) (maxcpus=8)", out)
        with open(os.path.join(self.out, "index.txt")) as f:
            index = f.read()
        # three reps a side though the file says 2: the index covers them all
        self.assertIn("cyc: rt_nopartial (B) against rt_legacy (A), differing in SLUB_LEGACY",
                      index)
        self.assertIn("cyclic max us  ok  ok  9.001 [9 .. 9.002] (3)  20 [20 .. 20] (3)", index)
        self.assertIn("other: rt_nopartial (B) against rt_legacy (A)", index)
        self.assertIn("no run on one side yet", index)
        with open(os.path.join(self.out, "index.json")) as f:
            self.assertEqual(json.load(f)["accel"], "hardware")
        # a second import numbers on; the same log again is not a new run
        c = self.log([cyc(9500)], cmdline=f"{WORK} maxcpus=8", config=HASHES["rt_legacy"])
        rc, out, err = self.imp(a[0], c)
        self.assertEqual(rc, 0, err)
        self.assertIn(f"{a[0]}: already imported as rt_legacy/cyc/rep1; skipped", out)
        self.assertTrue(os.path.exists(os.path.join(self.out, "rt_legacy", "cyc", "rep4.json")))
        self.assertFalse(os.path.exists(os.path.join(self.out, "rt_legacy", "cyc", "rep5.log")))

    def test_stopping_rule_says_whether_to_run_more(self):
        """An experiment with a stopping rule: the index's first line is the
        rule's decision over the complete rounds imported."""
        with open(self.ini, "w") as f:
            f.write("[matrix]\nconfigs = rt_legacy rt_nopartial\nmin_reps = 2\n"
                    "max_reps = 6\nci_width = 5\nsmp = 2\n"
                    "compare =\n    rt_legacy rt_nopartial SLUB_LEGACY\n"
                    f"[workloads]\ncyc = {WORK}\n")

        def run(avg, c):
            return self.log([dict(CYC, cpu=0, thread_ns=[1900, avg, 9000], clock="tsc")],
                            cmdline=WORK, config=HASHES[c])
        rc, out, err = self.imp(run(2500, "rt_legacy"), run(2600, "rt_nopartial"))
        self.assertEqual(rc, 0, err)
        self.assertIn("1 complete round(s): the stopping rule decides from min_reps = 2 on",
                      out)
        # round 2 far from round 1: the interval is wide, the machine must run more
        rc, out, err = self.imp(run(3500, "rt_legacy"), run(3600, "rt_nopartial"))
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.out, "index.txt")) as f:
            first = f.readline().strip()
        self.assertRegex(first, r"^round 2: widths cyc: cyclic avg us, rt_legacy -> "
                                r"rt_nopartial \d+\.\d% > 5%: another round$")
        self.assertIn(first, out)
        # four more rounds: still wide, but the cap of 6 is reached
        for k, avg in enumerate((3001, 3002, 3003, 3004), 3):
            rc, out, err = self.imp(run(avg, "rt_legacy"), run(avg + 100, "rt_nopartial"))
            with open(os.path.join(self.out, "index.json")) as f:
                stopping = json.load(f)["stopping"]
            self.assertEqual((stopping["n"], stopping["reason"]),
                             (k, "cap reached" if k == 6 else "another round"))
        self.assertIn("cap of 6 reached, n = 6 runs a side: widest 95% CI", out)

    def test_logs_that_fit_no_cell_are_named_and_nothing_is_imported(self):
        good = self.log([cyc(9000)], cmdline=WORK, config=HASHES["rt_legacy"])
        wrong_cfg = self.log([cyc(9000)], cmdline=WORK, config="12345678")
        wrong_cmd = self.log([cyc(9000)], cmdline=f"{WORK} cyclic.prio=50",
                             config=HASHES["rt_nopartial"])
        not_irqlab = os.path.join(self.tmp.name, "junk.log")
        with open(not_irqlab, "w") as f:
            f.write("GRUB loading.\n")
        two = self.log([cyc(9000)], cmdline=WORK, config=HASHES["rt_legacy"])
        with open(two) as f:
            text = f.read()
        with open(two, "w") as f:
            f.write(text + text)
        rc, out, err = self.imp(good, wrong_cfg, wrong_cmd, not_irqlab,
                                os.path.join(self.tmp.name, "missing.log"), two)
        self.assertEqual(rc, 2)
        self.assertIn(f"{wrong_cfg}: configuration hash 12345678 is none of the "
                      "experiment's (rt_legacy 0badc0de, rt_nopartial cafef00d)", err)
        self.assertIn(f"{wrong_cmd}: command line '{WORK} cyclic.prio=50' is no workload "
                      "of the experiment", err)
        self.assertIn(f"{not_irqlab}: no 'irqlab: start' banner", err)
        self.assertIn("missing.log: No such file or directory", err)
        self.assertIn(f"{two}: 2 boots in one log ('irqlab: start' 2 times): split it", err)
        self.assertIn("5 of 6 log(s) fit no cell of the experiment; nothing imported", err)
        self.assertNotIn(good, err)
        self.assertFalse(os.path.exists(self.out))
        self.assertNotIn("Traceback", err)

    def lava_log(self, console, name="job.yaml"):
        """@console as LAVA logs it: one double-quoted flow mapping a line
        (lava_common/log.py's dump()), the console's lines as "target"."""
        import yaml

        def dump(rec):
            return "- " + yaml.safe_dump(rec, default_flow_style=True, default_style='"',
                                         width=10 ** 5)[:-1]
        lines = [dump({"dt": "2026-12-02T00:00:00", "lvl": "info", "msg": "start: grub"}),
                 dump({"dt": "2026-12-02T00:00:01", "lvl": "target",
                       "msg": "\x1b[0m GRUB menu"})]
        lines += [dump({"dt": "2026-12-02T00:00:02", "lvl": "target", "msg": l})
                  for l in console.splitlines()]
        lines.append(dump({"dt": "2026-12-02T00:00:03", "lvl": "results",
                           "msg": {"definition": "irqlab", "case": "end_status",
                                   "result": "pass"}}))
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def test_lava_job_log(self):
        try:
            import yaml  # noqa: F401
        except ImportError:
            self.skipTest("needs python3-yaml")
        src = self.log([cyc(9000)], cmdline=f"{WORK} maxcpus=8", config=HASHES["rt_legacy"])
        with open(src) as f:
            console = f.read()
        job = self.lava_log(console)
        rc, out, err = self.imp(job)
        self.assertEqual(rc, 0, out + err)
        with open(os.path.join(self.out, "rt_legacy", "cyc", "rep1.log")) as f:
            self.assertEqual(f.read(), "\x1b[0m GRUB menu\n" + console)
        with open(os.path.join(self.out, "rt_legacy", "cyc", "rep1.json")) as f:
            res = json.load(f)
        self.assertEqual((res["status"], res["problems"], len(res["records"]["cyclic"])),
                         ("ok", [], 1))
        # the same job again is the same run
        rc, out, err = self.imp(job)
        self.assertIn("already imported as rt_legacy/cyc/rep1", out)
        with open(job, "a") as f:
            f.write('- {"dt": "x", "lvl": "target", "msg": "unterminated\n')
        rc, out, err = self.imp(job)
        self.assertEqual(rc, 2)
        self.assertIn(f"{job}: LAVA log line 9 does not read (ScannerError)", err)

    def test_failed_run_is_filed_and_flagged(self):
        cut = self.log([cyc(9000)], cmdline=WORK, config=HASHES["rt_nopartial"])
        with open(cut) as f:
            text = f.read().replace("irqlab: end status=ok\n", "")
        with open(cut, "w") as f:
            f.write(text)
        rc, out, err = self.imp(cut)
        self.assertEqual(rc, 1, out + err)
        with open(os.path.join(self.out, "rt_nopartial", "cyc", "rep1.json")) as f:
            res = json.load(f)
        self.assertFalse(res["passed"])
        self.assertEqual(res["verdict"], "no end banner: the capture was cut short")

    def test_unbuilt_configuration_and_bad_experiment(self):
        os.remove(os.path.join(self.build, "rt_nopartial", "generated", "version.c"))
        log = self.log([cyc(9000)], cmdline=WORK, config=HASHES["rt_legacy"])
        rc, out, err = self.imp(log)
        self.assertEqual(rc, 2)
        self.assertIn("rt_nopartial: not built in", err)
        rc, out, err = self.run_tool("import-runs", "--experiment",
                                     os.path.join(self.tmp.name, "nosuch.ini"),
                                     "--out", self.out, log)
        self.assertEqual(rc, 2)
        self.assertIn("nosuch.ini: cannot read it", err)


class CellsTest(LogCase):
    """irqlab cells: what make iso-experiments puts on the menu."""

    def ini(self, text):
        path = os.path.join(self.tmp.name, "e9.ini")
        with open(path, "w") as f:
            f.write("[matrix]\nconfigs = a b\ncompare =\n    a b SLUB_LEGACY\n" + text)
        return path

    def test_cells_and_cpus(self):
        ini = self.ini("[workloads]\nx = run=cyclic\ny = run=hackbench hackbench.loops=5\n")
        rc, out, err = self.run_tool("cells", ini, "--cpus", "8")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "e9\ta\tx\trun=cyclic maxcpus=8",
            "e9\ta\ty\trun=hackbench hackbench.loops=5 maxcpus=8",
            "e9\tb\tx\trun=cyclic maxcpus=8",
            "e9\tb\ty\trun=hackbench hackbench.loops=5 maxcpus=8"])
        rc, out, err = self.run_tool("cells", ini)
        self.assertEqual(out.splitlines()[0], "e9\ta\tx\trun=cyclic")
        rc, out, err = self.run_tool("cells", "--configs", ini, ini)
        self.assertEqual(out.splitlines(), ["a", "b"])

    def test_bad_cpus(self):
        ini = self.ini("[workloads]\nx = run=cyclic maxcpus=2\n")
        rc, out, err = self.run_tool("cells", ini, "--cpus", "4")
        self.assertEqual(rc, 2)
        self.assertIn("workload x: command line 'run=cyclic maxcpus=2' already sets "
                      "maxcpus=2: leave the CPU count to --cpus", err)
        rc, out, err = self.run_tool("cells", ini, "--cpus", "0")
        self.assertEqual(rc, 2)
        self.assertIn("--cpus 0: want at least 1 CPU", err)
        self.assertEqual(out, "")


if __name__ == "__main__":
    unittest.main()
