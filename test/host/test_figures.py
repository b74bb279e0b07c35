# SPDX-License-Identifier: GPL-2.0
"""scripts/figures.py: generated figure blocks are parsed, refused and rechecked."""
import io
import json
import os
import sys
import tempfile
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402

figures = _load._load("irqlab_figures", os.path.join(_load.ROOT, "scripts", "figures.py"))


def log(*objs):
    """A serial log holding these records, CRCs right, and a passing end."""
    lines = []
    for seq, o in enumerate(objs):
        text = json.dumps(o, separators=(",", ":"))
        lines.append(f"[    1.000000] @irqlab {seq} {zlib.crc32(text.encode()):08x} {text}")
    lines.append("irqlab: end status=ok")
    return "\n".join(lines) + "\n"


def cyclic(max_ns):
    return {"type": "cyclic", "cpu": 0, "thread_ns": [1, 2, max_ns], "irq_ns": [1, 2, 3]}


# The four boots of latency-cyclic and the thread-level maxima they report.
LOGS = {"default-cyclic-icount": 3909, "default-cyclic-loaded-icount": 47071,
        "rt-cyclic-icount": 1533, "rt-cyclic-loaded-icount": 2484}


def block(body, attrs="mode=icount commit=abc1234", name="latency-cyclic"):
    return (f"text before\n<!-- figures:{name} begin {attrs} -->\n{body}\n"
            f"<!-- figures:{name} end -->\ntext after\n")


def current_body():
    return "\n".join([figures.provenance("latency-cyclic", "icount", "abc1234"), "",
                      "| configuration | idle | under hackbench |", "|---|---|---|",
                      "| `default` | 3909 | 47071 |", "| `rt` | 1533 | 2484 |"])


class FiguresTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.logs = os.path.join(self.tmp.name, "logs")
        os.mkdir(self.logs)
        for tag, v in LOGS.items():
            with open(os.path.join(self.logs, tag + ".log"), "w") as f:
                f.write(log(cyclic(v)))
        self.doc = os.path.join(self.tmp.name, "doc.md")

    def run_main(self, text, *argv):
        with open(self.doc, "w") as f:
            f.write(text)
        out, err = io.StringIO(), io.StringIO()
        old = sys.stderr
        sys.stderr = err
        try:
            rc = figures.main(list(argv) + ["--logs", self.logs, "--docs", self.doc], out=out)
        finally:
            sys.stderr = old
        return rc, out.getvalue() + err.getvalue()

    def test_parse_blocks(self):
        bs = figures.parse_blocks("x.md", block("a\nb"))
        self.assertEqual(len(bs), 1)
        b = bs[0]
        self.assertEqual((b.name, b.mode, b.commit, b.begin, b.end, b.body),
                         ("latency-cyclic", "icount", "abc1234", 1, 4, ["a", "b"]))

    def test_refuses_block_without_mode_or_commit(self):
        for attrs, why in (("commit=abc1234", "no mode="), ("mode=icount", "no commit="),
                           ("mode=guess commit=abc1234", "mode=guess is not one of"),
                           ("mode=icount commit=HEAD", "is not a commit hash")):
            with self.assertRaisesRegex(figures.FigureError, why):
                figures.parse_blocks("x.md", block("a", attrs))
            rc, out = self.run_main(block("a", attrs), "check")
            self.assertEqual(rc, 2, out)
            self.assertIn(why, out)

    def test_refuses_unended_and_unknown_blocks(self):
        with self.assertRaisesRegex(figures.FigureError, "never ended"):
            figures.parse_blocks("x.md", "<!-- figures:a begin mode=icount commit=abc1234 -->\n")
        rc, out = self.run_main(block("a", name="nonesuch"), "check")
        self.assertEqual(rc, 2)
        self.assertIn("figures:nonesuch: no such figure", out)

    def test_current_block_passes(self):
        rc, out = self.run_main(block(current_body()), "check")
        self.assertEqual(rc, 0, out)
        self.assertIn("figures:latency-cyclic: current", out)

    def test_stale_value_is_named(self):
        stale = current_body().replace("| 47071 |", "| 48057 |")
        rc, out = self.run_main(block(stale), "check")
        self.assertEqual(rc, 1, out)
        self.assertIn("figures:latency-cyclic (mode=icount, commit=abc1234) is stale: "
                      "documented 48057, measured 47071", out)
        self.assertIn("doc.md:7:", out)     # the line of the stale value

    def test_other_commit_is_stale_only_if_values_differ(self):
        body = current_body().replace("commit abc1234", "commit 1234567")
        rc, out = self.run_main(block(body, "mode=icount commit=1234567"), "check")
        self.assertEqual(rc, 0, out)

    def test_timed_blocks_are_not_rechecked(self):
        rc, out = self.run_main(block("| made up | 1 |", "mode=tcg commit=abc1234"), "check")
        self.assertEqual(rc, 0, out)
        self.assertIn("mode=tcg, commit=abc1234: timed, not rechecked", out)

    def test_write_then_check(self):
        rc, out = self.run_main(block("old"), "write")
        self.assertEqual(rc, 0, out)
        with open(self.doc) as f:
            text = f.read()
        self.assertIn("| `default` | 3909 | 47071 |", text)
        self.assertTrue(text.startswith("text before\n") and text.endswith("text after\n"))
        b = figures.parse_blocks(self.doc, text)[0]
        self.assertEqual(b.commit, figures.head_commit())
        rc, out = self.run_main(text, "check")
        self.assertEqual(rc, 0, out)

    def test_missing_log_and_lost_record_fail(self):
        os.remove(os.path.join(self.logs, "rt-cyclic-icount.log"))
        rc, out = self.run_main(block(current_body()), "check")
        self.assertEqual(rc, 1)
        self.assertIn("no saved log", out)
        with open(os.path.join(self.logs, "rt-cyclic-icount.log"), "w") as f:
            f.write(log(cyclic(1), cyclic(1533)).replace("@irqlab 0 ", "@irqlab 5 "))
        rc, out = self.run_main(block(current_body()), "check")
        self.assertEqual(rc, 1)
        self.assertIn("record problems", out)


def hackbench(time_ns):
    return {"type": "hackbench", "groups": 2, "fds": 20, "loops": 20, "size": 100,
            "time_ns": time_ns, "ctxsw": 1, "migrations": 0, "dropped": 0, "clock": "icount"}


def lat_cost(irq, preempt=None):
    """A `trace: cost` record: 2000 pairs, @irq (@preempt) instructions each above raw."""
    r = {"type": "lat_cost", "clock": "icount", "loops": 2000,
         "irq_pair_traced": 2000 * (9 + irq), "irq_pair_raw": 2000 * 9}
    if preempt is not None:
        r.update(preempt_pair=2000 * (12 + preempt), preempt_pair_raw=2000 * 12)
    return r


class TracerCostTest(unittest.TestCase):
    """tracer-cost: each port against its own tracer-less build, with the per-transition cost."""

    BOOTS = {"notrace": (1000000, None), "default": (1030000, (68,)),
             "trace": (1150000, (68, 58)), "legacy_notrace": (2000000, None),
             "legacy": (2050000, (70,)), "legacy_trace": (2300000, (70, 60)),
             "rt": (4000000, None), "rt_irqsoff": (4100000, (66,)),
             "rt_trace": (4400000, (66, 57))}

    def setUp(self):
        """Each build at the 8 tick phases, phase k 1000 ns slower than phase 0:
        every side's sd is that of 0..7000, so the intervals are known."""
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        for cfg, (t, cost) in self.BOOTS.items():
            for k in range(figures.PHASES):
                recs = [hackbench(t + 1000 * k)] + ([lat_cost(*cost)] if cost and not k else [])
                name = f"{cfg}-hackbench" + (f"-phase{k}" if k else "") + "-icount.log"
                with open(os.path.join(self.tmp.name, name), "w") as f:
                    f.write(log(*recs))

    def test_rows_per_port_with_percent_and_per_transition(self):
        rows = figures.fig_tracer_cost(figures.Runner(logs=self.tmp.name, verbose=False),
                                       "icount")
        self.assertEqual(len(rows), 2 + 9)
        self.assertIn("mean ± 95% CI of 8 tick phases", rows[0])
        by_cfg = {r.split("|")[2].strip(): r for r in rows[2:]}
        # t(0.975, 7) x 2449.49 / sqrt(8) = 2048; Welch's df 14: 2.1448 x 1224.7 = 2627
        self.assertIn("| 1003500 ± 2048 | +0.00% | - | - |", by_cfg["`notrace`"])
        self.assertIn("| 1033500 ± 2048 | +2.99% ± 0.26 | 34.00 | - |", by_cfg["`default`"])
        self.assertIn("| +14.95% ± 0.26 | 34.00 | 29.00 |", by_cfg["`trace`"])
        # legacy and RT against their own tracer-less builds, not notrace
        self.assertIn("| 2053500 ± 2048 | +2.50% ± 0.13 | 35.00 | - |", by_cfg["`legacy`"])
        self.assertIn("| +2.50% ± 0.07 | 33.00 | - |", by_cfg["`rt_irqsoff`"])
        self.assertIn("| +9.99% ± 0.07 | 33.00 | 28.50 |", by_cfg["`rt_trace`"])

    def test_tracer_build_without_cost_record_fails(self):
        with open(os.path.join(self.tmp.name, "legacy-hackbench-icount.log"), "w") as f:
            f.write(log(hackbench(2050000)))
        with self.assertRaisesRegex(figures.FigureError, "legacy: no lat_cost record"):
            figures.fig_tracer_cost(figures.Runner(logs=self.tmp.name, verbose=False), "icount")

    def test_a_missing_phase_is_an_error(self):
        os.remove(os.path.join(self.tmp.name, "rt-hackbench-phase5-icount.log"))
        with self.assertRaisesRegex(figures.FigureError, "rt-hackbench-phase5-icount"):
            figures.fig_tracer_cost(figures.Runner(logs=self.tmp.name, verbose=False), "icount")


if __name__ == "__main__":
    unittest.main()
