# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab matrix's stopping rule: min_reps, max_reps, ci_width on
synthetic data, the matrix keys, and the adaptive loop end to end with a fake
QEMU whose hackbench time is a table indexed by configuration and rep."""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
import _fakes  # noqa: E402

tool = _load._load("irqlab_tool", os.path.join(_load.ROOT, "tools", "irqlab"))

HB = ("hackbench", "a", "b", "hackbench time s")
CYC = ("cyclic", "a", "b", "cyclic avg us")


def first_stop(series, ci_width, min_reps, max_reps):
    """Feed the rule one more round at a time, as boot_matrix() does; -> (n at
    the first stop, reason, widths), or (None, ...) if it never stops."""
    longest = max(len(s) for ab in series.values() for s in ab)
    for n in range(1, longest + 1):
        vals = {k: (a[:n], b[:n]) for k, (a, b) in series.items()}
        stop, reason, widths = tool.stopping_decision(vals, ci_width, min_reps, max_reps)
        if stop:
            return n, reason, widths
    return None, reason, widths


def normal(mean, sd, n, seed):
    rng = random.Random(seed)
    return [rng.gauss(mean, sd) for _ in range(n)]


class RuleTest(unittest.TestCase):
    def test_tight_samples_stop_at_min_reps(self):
        # sd 0.1% of the mean: the first interval the rule looks at is narrow
        series = {HB: (normal(3.0, 0.003, 40, 1), normal(3.1, 0.003, 40, 2))}
        n, reason, widths = first_stop(series, 5, 5, 40)
        self.assertEqual((n, reason), (5, "converged"))
        self.assertLess(widths[HB], 1)
        # not before min_reps, however narrow it already is
        stop, reason, _ = tool.stopping_decision(
            {HB: (series[HB][0][:4], series[HB][1][:4])}, 5, 5, 40)
        self.assertEqual((stop, reason), (False, "too few rounds"))

    def test_wide_samples_run_to_the_cap(self):
        series = {HB: (normal(3.0, 0.9, 40, 3), normal(3.0, 0.9, 40, 4))}
        n, reason, widths = first_stop(series, 5, 5, 12)
        self.assertEqual((n, reason), (12, "cap reached"))
        self.assertGreater(widths[HB], 5)
        text = tool.decision_text(n, reason, widths, {"min_reps": 5, "max_reps": 12,
                                                      "ci_width": 5.0, "stop_metrics": None})
        self.assertRegex(text, r"^cap of 12 reached, n = 12 runs a side: widest 95% CI "
                               r"\d+\.\d% > 5% \(hackbench: hackbench time s, a -> b\)$")

    def narrowing(self):
        """Alternating runs around 10 and 10.5: the interval narrows with every
        pair of rounds; -> (series, widths by n)."""
        a = [10 + (1 if i % 2 else -1) for i in range(30)]
        b = [x + 0.5 for x in a]
        widths = {n: tool.ci_width_pct(a[:n], b[:n]) for n in range(2, 31)}
        return {HB: (a, b)}, widths

    def test_narrowing_series_stops_at_the_first_round_below(self):
        series, widths = self.narrowing()
        # even n: equal halves; widths shrink from round to round there
        evens = [widths[n] for n in range(6, 31, 2)]
        self.assertEqual(evens, sorted(evens, reverse=True))
        # a width exactly at the limit is narrow enough: stop at that round
        n, reason, got = first_stop(series, widths[14], 5, 30)
        self.assertEqual((n, reason), (14, "converged"))
        self.assertEqual(got[HB], widths[14])
        # just below it: one round later at the earliest
        n, reason, _ = first_stop(series, widths[14] * 0.999, 5, 30)
        self.assertGreater(n, 14)
        self.assertEqual(reason, "converged")
        # each round before the stop said why it went on
        stop, reason, w = tool.stopping_decision({HB: (series[HB][0][:12],
                                                       series[HB][1][:12])},
                                                 widths[14], 5, 30)
        self.assertEqual((stop, reason), (False, "another round"))
        text = tool.decision_text(12, reason, w, {"min_reps": 5, "max_reps": 30,
                                                  "ci_width": round(widths[14], 2),
                                                  "stop_metrics": None})
        self.assertEqual(text, f"round 12: widths hackbench: hackbench time s, a -> b "
                               f"{widths[12]:.1f}% > {round(widths[14], 2):g}%: "
                               "another round")

    def test_exact_sides_stop_at_min_reps(self):
        series = {HB: ([8.781] * 20, [8.9] * 20), CYC: ([1.188] * 20, [1.188] * 20)}
        n, reason, widths = first_stop(series, 0.5, 3, 20)
        self.assertEqual((n, reason), (3, "converged"))
        self.assertEqual(widths, {HB: 0.0, CYC: 0.0})

    def test_every_pair_must_be_narrow(self):
        tight = (normal(3.0, 0.003, 20, 5), normal(3.1, 0.003, 20, 6))
        wide = (normal(200, 60, 20, 7), normal(200, 60, 20, 8))
        for series in ({HB: tight, CYC: wide}, {CYC: wide, HB: tight}):
            n, reason, widths = first_stop(series, 5, 5, 20)
            self.assertEqual((n, reason), (20, "cap reached"))
            self.assertLess(widths[HB], 5)
            self.assertGreater(widths[CYC], 5)

    def test_missing_metric_is_a_stop_and_named(self):
        a, b = normal(3.0, 0.003, 8, 9), normal(3.1, 0.003, 8, 10)
        b[2] = None		# round 3 of B lost its hackbench record
        series = {HB: (a, b), CYC: ([1.0] * 8, [1.0] * 8)}
        # before min_reps the rule only waits
        self.assertEqual(tool.stopping_decision({k: (x[:3], y[:3]) for k, (x, y)
                                                 in series.items()}, 5, 5, 8)[:2],
                         (False, "too few rounds"))
        n, reason, widths = first_stop(series, 5, 5, 8)
        self.assertEqual((n, reason), (5, "metric missing"))
        self.assertIsNone(widths[HB])
        self.assertEqual(widths[CYC], 0.0)
        text = tool.decision_text(n, reason, widths, {"min_reps": 5, "max_reps": 8,
                                                      "ci_width": 5.0, "stop_metrics": None})
        self.assertIn("missing on a side", text)
        self.assertIn("hackbench: hackbench time s, a -> b", text)
        self.assertNotIn("cyclic avg us", text)
        # a side with fewer runs than the round count is missing too
        stop, reason, widths = tool.stopping_decision(
            {HB: ([3.0] * 6, [3.1] * 6), CYC: ([1.0] * 6, [1.0] * 5)}, 5, 5, 8)
        self.assertEqual((stop, reason, widths[CYC]), (True, "metric missing", None))

    def test_nothing_watched(self):
        self.assertEqual(tool.stopping_decision({}, 5, 5, 8, n=4)[:2],
                         (False, "too few rounds"))
        self.assertEqual(tool.stopping_decision({}, 5, 5, 8, n=5)[:2],
                         (True, "nothing watched"))
        # the round count given, a side shorter than it is missing
        self.assertEqual(tool.stopping_decision({HB: ([3.0] * 5, [3.1] * 5)}, 5, 5, 8, n=6),
                         (True, "metric missing", {HB: None}))

    def test_width_in_percent_of_a(self):
        a, b = [9, 10, 11], [10, 11, 12]
        lo, hi = tool.welch_ci(a, b)
        self.assertAlmostEqual(tool.ci_width_pct(a, b), (hi - lo) / 10 * 100)
        self.assertEqual(tool.ci_width_pct([0, 0, 0], [0, 0, 0]), 0.0)
        self.assertEqual(tool.ci_width_pct([0, 1, -1], [0, 0, 0]), float("inf"))
        self.assertIsNone(tool.ci_width_pct([1], [1, 2]))


class KeysTest(unittest.TestCase):
    HEAD = "[matrix]\nconfigs = default\n"
    TAIL = "[workloads]\nw = run=hackbench\n"

    def load(self, keys):
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write(self.HEAD + keys + self.TAIL)
        try:
            return tool.load_matrix(f.name)
        finally:
            os.remove(f.name)

    def test_rule_keys(self):
        self.HEAD = "[matrix]\nconfigs = default legacy\ncompare = default legacy SLUB_LEGACY\n"
        mx = self.load("max_reps = 30\nci_width = 4%\n"
                       "stop_metrics = hackbench time s,\n    cyclic avg us\n")
        self.assertNotIn("reps", mx)
        self.assertEqual(mx["rule"], {"min_reps": 5, "max_reps": 30, "ci_width": 4.0,
                                      "stop_metrics": ["hackbench time s", "cyclic avg us"]})
        mx = self.load("min_reps = 2\nmax_reps = 2\nci_width = 0.5\n")
        self.assertEqual(mx["rule"], {"min_reps": 2, "max_reps": 2, "ci_width": 0.5,
                                      "stop_metrics": None})
        self.assertEqual(self.load("reps = 10\n")["reps"], 10)
        self.assertNotIn("rule", self.load("reps = 10\n"))

    def test_icount_rounds_sample_tick_phases(self):
        """icount repeats one trajectory: rounds are only allowed with skew_ns, and
        round r's workloads then start (r-1)*skew_ns late."""
        self.HEAD = "[matrix]\nconfigs = default legacy\ncompare = default legacy SLUB_LEGACY\n"
        mx = self.load("icount = 1\nreps = 4\nskew_ns = 500000\n")
        self.assertEqual((mx["reps"], mx["skew_ns"]), (4, 500000))
        got = [tool.skewed(mx, r, "run=hackbench") for r in range(1, 5)]
        self.assertEqual(got, ["run=hackbench", "run=hackbench run.skew_ns=500000",
                               "run=hackbench run.skew_ns=1000000",
                               "run=hackbench run.skew_ns=1500000"])
        self.assertEqual(tool.skewed(self.load("reps = 3\n"), 3, "run=x"), "run=x")
        # The skew is a round's phase, not a setting: both rounds read as one.
        seen = []
        for skew in ("", " run.skew_ns=500000"):
            with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
                f.write(f"Command line: run=hackbench{skew} hackbench.loops=20\n"
                        "irqlab: end status=ok\n")
            try:
                res = tool.parse_log(f.name)
            finally:
                os.remove(f.name)
            seen.append((res["cmdline"], res["skew_ns"]))
        self.assertEqual(seen, [("run=hackbench hackbench.loops=20", 0),
                                ("run=hackbench hackbench.loops=20", 500000)])
        # icount rounds at one phase repeat each other; skewed ones are a sample
        one = {"mode": "icount", "smp": 1, "skew_ns": 0}
        self.assertTrue(tool.is_exact([one, one]))
        self.assertFalse(tool.is_exact([one, dict(one, skew_ns=500000)]))

    def test_bad_keys(self):
        pair = "compare = default legacy SLUB_LEGACY\n"
        self.HEAD = "[matrix]\nconfigs = default legacy\n"
        for keys, msg in (
                ("reps = 10\nmax_reps = 30\nci_width = 4\n",
                 "reps (a fixed number of runs) and max_reps, ci_width (a stopping rule) "
                 "exclude each other"),
                ("reps = 10\nmin_reps = 5\n", "exclude each other"),
                ("max_reps = 30\n", "needs max_reps (the cap) and ci_width"),
                ("ci_width = 4\nmin_reps = 3\n", "max_reps is missing"),
                ("max_reps = 30\nci_width = 0\n", "ci_width = 0: want a width above 0"),
                ("max_reps = 30\nci_width = -2%\n", "ci_width = -2%: want a width above 0"),
                ("max_reps = 30\nci_width = inf\n", "want a width above 0"),
                ("max_reps = 30\nci_width = narrow\n", "ci_width = 'narrow' is not a number"),
                ("min_reps = 8\nmax_reps = 6\nci_width = 4\n",
                 "max_reps = 6 is below min_reps = 8"),
                ("min_reps = 1\nmax_reps = 6\nci_width = 4\n",
                 "min_reps = 1: a confidence interval needs at least 2 runs a side"),
                ("max_reps = many\nci_width = 4\n", "max_reps = 'many' is not a number"),
                ("max_reps = 30\nci_width = 4\nstop_metrics = cyclic max us\n",
                 "'cyclic max us' is a run's extreme"),
                ("icount = 1\nmax_reps = 30\nci_width = 4\n", "icount = 1 runs are exact"),
                ("icount = 1\nreps = 3\n", "give skew_ns = N too"),
                ("icount = 1\nreps = 3\nskew_ns = -5\n", "skew_ns must be at least 0"),
                ("icount = 1\nreps = 3\nskew_ns = 600000000\n",
                 "puts round 3's start 1200000000 ns late"),
                ("icount = 1\nmax_reps = 30\nci_width = 4\nskew_ns = 40000000\n",
                 "puts round 30's start")):
            with self.assertRaises(ValueError, msg=keys) as cm:
                self.load(pair + keys)
            self.assertIn(msg, str(cm.exception), keys)
            self.assertEqual(len(str(cm.exception).splitlines()), 1)
        self.HEAD = "[matrix]\nconfigs = default\n"
        with self.assertRaises(ValueError) as cm:
            self.load("max_reps = 30\nci_width = 4\n")
        self.assertIn("a stopping rule watches the differences of the compare pairs, and "
                      "there is none: give compare lines, or reps", str(cm.exception))


# A QEMU that boots nothing: the kernel's hackbench record, its time taken from
# $FAKE_HB_TABLE[config][workload][rep - 1] (the serial file is
# OUT/config/workload/repN.log); every boot appended to $FAKE_HB_CALLS.
FAKE_HB_QEMU = textwrap.dedent(r'''
    #!PYTHON
    import json, os, re, sys, zlib
    args = sys.argv[1:]
    serial = args[args.index("-serial") + 1][len("file:"):]
    cfg, wl, rep = re.search(r"([^/]+)/([^/]+)/rep(\d+)\.log$", serial).groups()
    with open(os.environ["FAKE_HB_CALLS"], "a") as f:
        f.write(f"{cfg} {wl} {rep}\n")
    with open(os.environ["FAKE_HB_TABLE"]) as f:
        secs = json.load(f)[cfg][wl][int(rep) - 1]
    r = ('{"type":"hackbench","groups":1,"fds":2,"loops":1,"size":100,'
         '"time_ns":%d,"ctxsw":1,"migrations":0}' % round(secs * 1e9))
    with open(serial, "w") as out:
        out.write("irqlab: start 0.1 deadbeef\n")
        if secs:
            out.write("[    0.5] @irqlab 0 %08x %s\n" % (zlib.crc32(r.encode()), r))
        out.write("KTAP version 1\n1..1\nok 1 x\nirqlab: end status=ok\n")
    sys.exit(1)
''').lstrip()


class AdaptiveMatrixTest(unittest.TestCase):
    """tools/irqlab matrix with a stopping rule, in a scratch tree."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.root = self.tmp.name
        _fakes.scratch_tree(d, _load.ROOT)
        with open(os.path.join(d, "configs", "legacy_defconfig"), "w") as f:
            f.write("CONFIG_SLUB_LEGACY=y\n")
        self.calls = os.path.join(d, "calls")
        self.table = os.path.join(d, "table.json")
        self.out = os.path.join(d, "mx")
        self.env = dict(os.environ, FAKE_HB_CALLS=self.calls, FAKE_HB_TABLE=self.table,
                        IRQLAB_QEMU=_fakes.write_script(os.path.join(d, "fq"), FAKE_HB_QEMU),
                        IRQLAB_MAKE=_fakes.write_script(os.path.join(d, "fm"), _fakes.FAKE_MAKE))
        # w1: exact, 5% apart.  w2: noisy for 4 rounds (B more than A), then
        # steady, so the interval narrows round by round.
        self.write_table({"default": {"w1": [2.0] * 30,
                                      "w2": [2.0, 2.4, 1.6, 2.2] + [2.0] * 26},
                          "legacy": {"w1": [2.1] * 30,
                                     "w2": [2.05, 2.65, 1.45, 2.35] + [2.05] * 26}})

    def tearDown(self):
        self.tmp.cleanup()

    def write_table(self, table):
        self.widths = {n: tool.ci_width_pct(table["default"]["w2"][:n],
                                            table["legacy"]["w2"][:n]) for n in range(2, 31)}
        with open(self.table, "w") as f:
            json.dump(table, f)

    def matrix(self, rule):
        path = os.path.join(self.root, "m.ini")
        with open(path, "w") as f:
            f.write("[matrix]\nconfigs = default legacy\naccel = tcg\n"
                    f"compare = default legacy SLUB_LEGACY\n{rule}"
                    "[workloads]\nw1 = run=hackbench\nw2 = run=hackbench\n")
        return path

    def irqlab(self, path):
        p = subprocess.run([sys.executable, os.path.join(self.root, "tools", "irqlab"),
                            "matrix", path, "--out", self.out],
                           capture_output=True, text=True, env=self.env, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def boots(self):
        try:
            with open(self.calls) as f:
                calls = f.read().split("\n")[:-1]
        except FileNotFoundError:
            calls = []
        os.remove(self.calls) if calls else None
        return calls

    def index(self):
        with open(os.path.join(self.out, "index.txt")) as f, \
                open(os.path.join(self.out, "index.json")) as g:
            return f.read(), json.load(g)

    def test_runs_the_rounds_the_rule_asks_and_resumes(self):
        w = self.widths
        # the first round whose width is at most 40%
        stop_at = min(n for n in range(3, 31) if w[n] <= 40)
        self.assertEqual(stop_at, 7)		# the table's design, checked
        m = self.matrix("min_reps = 3\nmax_reps = 12\nci_width = 40\n")
        rc, so, se = self.irqlab(m)
        self.assertEqual(rc, 0, so + se)
        # exactly 7 rounds, each every workload x configuration in turn
        self.assertEqual(self.boots(), [f"{c} {wl} {r}" for r in range(1, 8)
                                        for wl in ("w1", "w2") for c in ("default", "legacy")])
        decisions = [l for l in so.splitlines() if l.startswith("round ")]
        self.assertEqual(len(decisions), 5, so)			# rounds 3..7
        for n, line in zip(range(3, 7), decisions):
            self.assertEqual(line, f"round {n}: widths w2: hackbench time s, default -> "
                                   f"legacy {w[n]:.1f}% > 40%: another round")
        self.assertEqual(decisions[-1], "round 7: stop: n = 7 runs a side: every 95% CI at "
                         f"most 40% wide (widest {w[7]:.1f}%: w2: hackbench time s, "
                         "default -> legacy)")
        text, js = self.index()
        self.assertEqual(text.splitlines()[0], decisions[-1][len("round 7: stop: "):])
        self.assertIn("2.1 +- 0 (7)", text)
        self.assertEqual(js["stopping"]["n"], 7)
        self.assertEqual(js["stopping"]["reason"], "converged")
        self.assertEqual(js["stopping"]["rule"], {"min_reps": 3, "max_reps": 12,
                                                  "ci_width": 40.0, "stop_metrics": None})
        self.assertEqual(js["stopping"]["widths"],
                         {"w1: hackbench time s, default -> legacy": 0.0,
                          "w2: hackbench time s, default -> legacy": round(w[7], 3)})

        # again: every round on disk, the same decision, nothing booted
        rc, so, se = self.irqlab(m)
        self.assertEqual(rc, 0, so + se)
        self.assertEqual(self.boots(), [])
        self.assertIn("resuming: 7 complete round(s) of 4 boots on disk", so)
        self.assertEqual([l for l in so.splitlines() if l.startswith("round ")],
                         decisions[-1:])

        # a cell lost mid-way: only it is booted again
        os.remove(os.path.join(self.out, "legacy", "w1", "rep5.json"))
        rc, so, se = self.irqlab(m)
        self.assertEqual(rc, 0, so + se)
        self.assertEqual(self.boots(), ["legacy w1 5"])
        self.assertIn("resuming: 4 complete round(s)", so)

        # a narrower width on the same directory: the 7 rounds count, the rest
        # run to the cap
        m = self.matrix("min_reps = 3\nmax_reps = 9\nci_width = 0.1\n")
        rc, so, se = self.irqlab(m)
        self.assertEqual(rc, 0, so + se)
        self.assertEqual(self.boots(), [f"{c} {wl} {r}" for r in (8, 9)
                                        for wl in ("w1", "w2") for c in ("default", "legacy")])
        text, js = self.index()
        self.assertEqual(text.splitlines()[0],
                         f"cap of 9 reached, n = 9 runs a side: widest 95% CI {w[9]:.1f}% > "
                         "0.1% (w2: hackbench time s, default -> legacy)")
        self.assertEqual((js["stopping"]["n"], js["stopping"]["reason"]), (9, "cap reached"))
        self.assertIn("2.1 +- 0 (9)", text)		# the index reads every run on disk

        # a fixed count reads every run on disk too, and writes no stopping line
        m = self.matrix("reps = 2\n")
        rc, so, se = self.irqlab(m)
        self.assertEqual(rc, 0, so + se)
        self.assertEqual(self.boots(), [])
        text, js = self.index()
        self.assertIn("2.1 +- 0 (9)", text)
        self.assertNotIn("stopping", js)
        self.assertNotIn("runs a side", text)
        self.assertIn("w1: legacy (B) against default (A)", text.splitlines()[1])

    def test_lost_record_stops_with_an_error(self):
        table = {"default": {"w1": [2.0] * 30, "w2": [2.0, 2.4, 1.6] * 10},
                 "legacy": {"w1": [2.1] * 30, "w2": [2.0, 2.4, 1.6] * 10}}
        table["legacy"]["w2"][1] = 0		# round 2: no hackbench record
        self.write_table(table)
        rc, so, se = self.irqlab(self.matrix("min_reps = 3\nmax_reps = 12\nci_width = 1\n"))
        self.assertEqual(rc, 1, so + se)
        self.assertEqual(len(self.boots()), 12)
        text, js = self.index()
        self.assertEqual(text.splitlines()[0],
                         "n = 3 runs a side: stopped, a watched figure is missing on a side "
                         "(a run lost its records, or none has it): w2: hackbench time s, "
                         "default -> legacy")
        self.assertEqual(js["stopping"]["widths"]["w2: hackbench time s, default -> legacy"],
                         "missing")

    def test_bad_rule_on_the_command_line(self):
        rc, so, se = self.irqlab(self.matrix("reps = 10\nmax_reps = 30\nci_width = 4\n"))
        self.assertEqual(rc, 2, so + se)
        self.assertEqual(se.strip().splitlines(), [
            f"irqlab: {self.root}/m.ini: reps (a fixed number of runs) and max_reps, "
            "ci_width (a stopping rule) exclude each other: give reps, or min_reps, "
            "max_reps and ci_width"])
        self.assertEqual(self.boots(), [])
        self.assertFalse(os.path.exists(self.out))

    def test_named_metric_no_run_has(self):
        rc, so, se = self.irqlab(self.matrix("min_reps = 2\nmax_reps = 4\nci_width = 5\n"
                                             "stop_metrics = cyclic avg us\n"))
        self.assertEqual(rc, 1, so + se)
        self.assertEqual(len(self.boots()), 8)
        self.assertIn("round 2: stop: n = 2 runs a side: stopped, a watched figure is "
                      "missing on a side (a run lost its records, or none has it): w1: "
                      "cyclic avg us, default -> legacy; w2: cyclic avg us", so)
        # by default: a matrix whose runs have none of the watched figures
        self.write_table({c: {"w1": [0] * 30, "w2": [0] * 30} for c in ("default", "legacy")})
        shutil.rmtree(self.out)
        rc, so, se = self.irqlab(self.matrix("min_reps = 2\nmax_reps = 4\nci_width = 5\n"))
        self.assertEqual(rc, 1, so + se)
        self.assertEqual(len(self.boots()), 8)
        self.assertIn("round 2: stop: n = 2 runs a side: stopped, no run has a figure the "
                      "rule watches (hackbench time s, cyclic avg us, cyclicdl avg us)", so)


if __name__ == "__main__":
    unittest.main()
