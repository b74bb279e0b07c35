# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab report --html over experiment directories (tools/irqlab matrix
--out DIR): the claims page, from synthetic matrices."""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_irqlab_tool import run_tool, tool  # noqa: E402

HOSTILE = "<script>alert('x')</script> & \"quotes\""

# The seeds' words; irqlab's figures are numbers no seed text contains.
AGREE = {"name": "hackbench-same", "source": "LKML 2021-07", "claim": "no change in hackbench",
         "seeds": "seeds: 0.0% (hackbench -s4096)", "workload": "hackbench",
         "a": "legacy", "b": "default", "metric": "hackbench time s", "expect": "=",
         "figure": {"a": [2.01, 2.02, 2.03], "b": [2.01, 2.03, 2.02], "n_a": 3, "n_b": 3,
                    "change_pct": 0.0, "ci_pct": [-0.9, 0.9], "p": 0.87,
                    "verdict": "within noise"},
         "sign": "agrees",
         "mechanism": [{"metric": "irqsoff slab max ns", "expect": "-",
                        "a": [5100, 5200, 5300], "b": [1100, 1200, 1300],
                        "change_pct": -77.1, "ci_pct": None, "p": 0.0495,
                        "verdict": "better", "agrees": "agrees"}]}
DISAGREE = {"name": "slab-faster", "source": "cover letter " + HOSTILE,
            "claim": "slabbench 3% faster " + HOSTILE, "seeds": "seeds: -3.1% cycles",
            "workload": "slabbench", "a": "legacy", "b": "default",
            "metric": "slabbench alloc 64 cycles", "expect": "-",
            "figure": {"a": [410.0, 411.0, 412.0], "b": [425.0, 426.0, 427.0], "n_a": 3,
                       "n_b": 3, "change_pct": 3.66, "ci_pct": [3.2, 4.1], "p": 0.00012,
                       "verdict": "worse"},
            "sign": "disagrees", "mechanism": []}


def run_json(cfg, rep, hb_s):
    return {"records": {"hackbench": [{"time_ns": int(hb_s * 1e9), "clock": "icount"}]},
            "status": "ok", "clock": "icount", "smp": 1, "config_hash": cfg,
            "cmdline": "run=hackbench", "passed": True, "verdict": "guest passed",
            "problems": [], "config": cfg, "workload": "hackbench", "rep": rep}


def make_experiment(d, claims=True, stopping=True, reps=3):
    """An experiment directory as tools/irqlab matrix (and the claims and
    adaptive steps) leave it: legacy and default, hackbench, @reps runs each."""
    os.makedirs(d)
    mx = {"configs": ["legacy", "default"], "compare": [["legacy", "default", ["SLUB_LEGACY"]]],
          "workloads": {"hackbench": "run=hackbench"}, "reps": reps, "smp": 1, "icount": 1,
          "timeout": 300, "mem": "256M", "accel": "auto"}
    if stopping:
        mx["stopping"] = {"rule": "CI half-width < 1%", "n": reps, "reason": "converged",
                          "widths": {"hackbench time s": 0.42}}
    for cfg, base in (("legacy", 2.0), ("default", 2.5)):
        cell = os.path.join(d, cfg, "hackbench")
        os.makedirs(cell)
        # rep10 after rep9: sorted by number, not by name
        for rep in range(1, reps + 1):
            with open(os.path.join(cell, f"rep{rep}.json"), "w") as f:
                json.dump(run_json(cfg, rep, base + rep / 100), f)
    with open(os.path.join(d, "index.json"), "w") as f:
        json.dump(mx, f)
    with open(os.path.join(d, "index.txt"), "w") as f:
        f.write("hackbench: default (B) against legacy (A)\n")
    if claims:
        with open(os.path.join(d, "claims.json"), "w") as f:
            json.dump({"experiment": os.path.basename(d), "mode": "icount SMP=1",
                       "commit": "abc1234", "claims": [AGREE, DISAGREE]}, f)
    return d


def rows(page, title):
    """The rows of the table under the heading @title: lists of cell texts."""
    part = page.split(title, 1)[1].split("</table>", 1)[0]
    out = []
    for tr in re.findall(r"<tr>(.*?)</tr>", part, re.S):
        cells = re.findall(r"<t[dh]>(.*?)</t[dh]>", tr, re.S)
        out.append([html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cells])
    return out


class ExperimentPage(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.page = os.path.join(self.tmp.name, "r.html")

    def render(self, *dirs):
        rc, out, err = run_tool("report", "--html", self.page, *dirs)
        text = ""
        if os.path.exists(self.page):
            with open(self.page) as f:
                text = f.read()
        return rc, out, err, text

    def test_claims_beside_irqlab(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        rc, out, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        # the summary: one row per claim, the seeds' words beside irqlab's figure
        summ = rows(page, "<h2>summary</h2>")
        self.assertEqual(summ[0], ["claim", "seeds", "irqlab", "sign", "mechanism", "mode", "n"])
        self.assertEqual(len(summ), 3)
        agree = next(r for r in summ if "hackbench-same" in r[0])
        self.assertEqual(agree[1], "seeds: 0.0% (hackbench -s4096)")
        self.assertIn("+0.0% (95% CI -0.9% .. +0.9%, p 0.870), within noise", agree[2])
        self.assertEqual(agree[3], "agrees")
        self.assertEqual(agree[4], "irqsoff slab max ns: agrees")
        self.assertEqual(agree[5:], ["icount SMP=1", "3 + 3"])
        dis = next(r for r in summ if "slab-faster" in r[0])
        self.assertEqual(dis[1], "seeds: -3.1% cycles")
        self.assertIn("+3.7% (95% CI +3.2% .. +4.1%, p <0.001), worse", dis[2])
        self.assertEqual(dis[3], "disagrees")
        # the experiment's claims table: the seeds' column and irqlab's side by side
        ct = rows(page, "the seeds' figures beside irqlab's")
        head = ct[0]
        row = next(r for r in ct if r[0].startswith("hackbench-same"))
        cell = dict(zip(head, row))
        self.assertEqual(cell["seeds"], "seeds: 0.0% (hackbench -s4096)")
        self.assertEqual(cell["irqlab A"], "2.02 +- 0.01 (3)")
        self.assertEqual(cell["irqlab B"], "2.02 +- 0.01 (3)")
        self.assertEqual(cell["p"], "0.870")
        self.assertEqual(cell["sign"], "agrees")
        # the mechanism counts: a maximum, so median [range]
        mech = rows(page, "<h3>mechanism counts</h3>")
        cell = dict(zip(mech[0], mech[1]))
        self.assertEqual(cell["metric"], "irqsoff slab max ns")
        self.assertEqual(cell["irqlab A"], "5200 [5100 .. 5300] (3)")
        self.assertEqual(cell["irqlab B"], "1200 [1100 .. 1300] (3)")
        self.assertEqual(cell["agrees"], "agrees")
        # the adaptive stopping rule's account
        self.assertIn("stopping: rule CI half-width &lt; 1%; n = 3; converged; widths: "
                      "hackbench time s: 0.42", page)
        self.assertIn("runs legacy 3, default 3", page)
        self.assertIn("report: " + self.page + " (1 experiment(s), 3 plot(s))", out)

    def test_hostile_strings_escaped(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("<script>", page)
        self.assertIn("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; "
                      "&quot;quotes&quot;", page)

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_one_svg_per_plot(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        figs = re.findall(r"<figure><figcaption>(.*?)</figcaption>(.*?)</figure>", page, re.S)
        # the two claims' metrics and the one mechanism metric
        self.assertEqual(len(figs), 3, [c for c, _ in figs])
        for cap, body in figs:
            self.assertEqual(body.count("<svg"), 1, cap)
            self.assertNotIn("<?xml", body)
        cap, body = next(f for f in figs if "irqsoff slab max ns" in f[0])
        # both sides' boxes and one dot per run, each side in its colour
        self.assertIn("A legacy (3)", body)
        self.assertIn("B default (3)", body)
        for rgb in ("rgb( 32,  96, 192)", "rgb(208, 112,   0)"):
            self.assertIn(rgb, body)
        self.assertNotIn("<script", page)
        self.assertEqual(page.count("<svg"), 3)

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_box_and_dots_where_the_runs_are(self):
        """The mechanism plot (A 5100 5200 5300, B 1100 1200 1300): a dot per
        run, the box from quartile to quartile around the middle run, the
        median line through it, B's drawn lower than A's."""
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        svg = next(body for cap, body in re.findall(
            r"<figure><figcaption>(.*?)</figcaption>(.*?)</figure>", page, re.S)
            if "irqsoff slab max ns" in cap)
        medians = []
        for rgb in ("rgb( 32,  96, 192)", "rgb(208, 112,   0)"):
            dots = sorted(float(y) for y in re.findall(
                r"translate\([\d.]+,([\d.]+)\)[^>]*color='" + re.escape(rgb), svg))
            self.assertEqual(len(dots), 3, rgb)
            boxes = [sorted(float(y) for y in re.findall(r"[\d.]+,([\d.]+)", pts))
                     for pts in re.findall(r"<polygon fill = '" + re.escape(rgb)
                                           + r"' fill-opacity = '0.25\d*' points = '([^']*)'",
                                           svg)]
            self.assertEqual(len(boxes), 2, rgb)		# the box, the median line
            box, med = boxes
            self.assertLess(dots[0], box[0])
            self.assertLess(box[0], dots[1])
            self.assertLess(dots[1], box[-1])
            self.assertLess(box[-1], dots[2])
            self.assertAlmostEqual(med[0], dots[1], delta=0.02)
            self.assertAlmostEqual(med[-1], dots[1], delta=0.02)
            medians.append(dots[1])
        self.assertGreater(medians[1], medians[0])		# SVG y grows downwards

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_gnuplot_runs_no_command_from_json(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        mark = os.path.join(self.tmp.name, "ran")
        path = os.path.join(exp, "claims.json")
        with open(path) as f:
            doc = json.load(f)
        hostile = f"x' . system('touch {mark}') . '\"; system(\"touch {mark}\")"
        doc["claims"][1]["mechanism"] = [dict(AGREE["mechanism"][0], metric=hostile)]
        doc["claims"][1]["b"] = hostile
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        self.assertFalse(os.path.exists(mark))
        self.assertEqual(page.count("<svg"), 4)
        self.assertNotIn("gnuplot failed", err + page)

    def test_claim_without_figure(self):
        """A claim irqlab has no runs for: null figure and mechanism, sign missing."""
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        path = os.path.join(exp, "claims.json")
        with open(path) as f:
            doc = json.load(f)
        doc["claims"].append({"name": "gone", "seeds": "seeds: +10%", "metric": "ptsema max us",
                              "figure": None, "mechanism": None, "sign": "missing"})
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        summ = rows(page, "<h2>summary</h2>")
        self.assertEqual(summ[-1], ["e1: gone", "seeds: +10%",
                                    "ptsema max us: - (95% CI -, p -), -", "missing", "-",
                                    "icount SMP=1", "- + -"])
        if shutil.which("gnuplot"):
            self.assertIn("no runs to plot", page)
        doc["claims"] = []
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, out, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows(page, "<h2>summary</h2>")[1][0],
                         "e1: claims.json lists no claim")
        self.assertIn("e1: claims.json lists no claim", out)

    def test_box_stats(self):
        self.assertEqual(tool.box_stats([4, 1, 3, 2]), (1.75, 1, 4, 3.25, 2.5))
        self.assertEqual(tool.box_stats([5]), (5, 5, 5, 5, 5))

    @unittest.skipUnless(shutil.which("chromium") and shutil.which("gnuplot"),
                         "needs chromium and gnuplot (.ci/run installs both)")
    def test_page_in_chromium(self):
        """The page as a browser parses it: three inline SVG plots, and the
        hostile claim as text, not as a script element."""
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        self.assertEqual(self.render(exp)[0], 0)
        dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={self.tmp.name}/chromium", "--dump-dom",
                              "file://" + self.page], capture_output=True, text=True,
                             timeout=120).stdout
        self.assertEqual(dom.count("<svg"), 3)
        self.assertNotIn("<script", dom)
        self.assertIn("slabbench 3% faster &lt;script&gt;alert('x')&lt;/script&gt;", dom)
        self.assertNotIn("<!--?xml", dom)

    def test_without_gnuplot(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        with mock.patch.dict(os.environ, {"PATH": self.tmp.name}):
            rc, out, err, page = self.render(exp)
        self.assertEqual(rc, 0, err)
        self.assertIn("irqlab: gnuplot is not installed (apt-get install gnuplot-nox): "
                      "no plots", err)
        self.assertIn("gnuplot is not installed", page)
        self.assertNotIn("<svg", page)
        self.assertIn("slab-faster", page)
        self.assertIn("0 plot(s)", out)

    def test_corrupt_claims_named(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        path = os.path.join(exp, "claims.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text[:len(text) // 2])		# truncated mid-write
        rc, out, err, page = self.render(exp)
        self.assertEqual(rc, 2)
        self.assertIn(f"irqlab: {path}: corrupt or truncated JSON", err)
        self.assertNotIn("Traceback", err)
        # the rest of the experiment is still shown, with the file named
        self.assertIn(f"{path}: corrupt or truncated JSON", page)
        self.assertIn("runs legacy 3, default 3", page)

    def test_bad_shapes_named(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        cases = [("claims.json", "[1, 2]", "not a claims file"),
                 ("claims.json", '{"claims": [{"mechanism": 3}]}',
                  "claim 1: \"mechanism\" is not a list"),
                 ("claims.json", "", "empty"),
                 ("claims.json", "\xff\xfe", "not a text file"),
                 ("index.json", "{\"configs\": [", "corrupt or truncated JSON"),
                 (os.path.join("default", "hackbench", "rep2.json"), "{\"records\": {",
                  "corrupt or truncated JSON"),
                 (os.path.join("default", "hackbench", "rep2.json"), "{}",
                  "not a parsed run"),
                 (os.path.join("default", "hackbench", "rep2.json"),
                  '{"records": {"hackbench": [{"time": 1}]}}',
                  "records not as tools/irqlab parse writes them (KeyError: 'time_ns')")]
        for name, text, why in cases:
            with self.subTest(name=name, text=text):
                path = os.path.join(exp, name)
                with open(path, "rb") as f:
                    keep = f.read()
                with open(path, "w", encoding="latin-1") as f:
                    f.write(text)
                rc, _, err, _ = self.render(exp)
                with open(path, "wb") as f:
                    f.write(keep)
                self.assertEqual(rc, 2, err)
                self.assertIn(f"irqlab: {path}: ", err)
                self.assertIn(why, err)
                self.assertNotIn("Traceback", err)

    def test_parent_with_two_experiments(self):
        parent = os.path.join(self.tmp.name, "experiments")
        make_experiment(os.path.join(parent, "e1"))
        make_experiment(os.path.join(parent, "e2_icount"), claims=False, stopping=False,
                        reps=10)
        rc, out, err, page = self.render(parent)
        self.assertEqual(rc, 0, err)
        names = re.findall(r"<h2 id='exp-\d+'>(.*?)</h2>", page)
        self.assertEqual(names, ["e1", "e2_icount"])
        summ = rows(page, "<h2>summary</h2>")
        self.assertEqual(summ[-1], ["e2_icount: no claims.json", "-", "comparisons only",
                                    "-", "-", "icount SMP=1", "legacy 10, default 10"])
        # without claims: compare()'s table of the compare line, runs 1..10 all read
        cmp = rows(page, "hackbench: default (B) against legacy (A)</h3>")
        cell = dict(zip(cmp[0], cmp[1]))
        self.assertEqual(cell["metric"], "hackbench time s")
        self.assertEqual(cell["A (n)"], "2.055 +- 0.03 (10)")
        self.assertEqual(cell["B (n)"], "2.555 +- 0.03 (10)")
        self.assertEqual(cell["verdict"], "worse")
        self.assertIn("<summary>index.txt</summary>", page)
        # each summary row links to its experiment's section
        self.assertIn("<a href='#exp-1'>e2_icount: no claims.json</a>", page)
        self.assertIn("<a href='#exp-0'>e1: slab-faster</a>", page)
        self.assertNotIn("stopping:", page.split("id='exp-1'")[1])
        if shutil.which("gnuplot"):
            self.assertEqual(page.split("id='exp-1'")[1].count("<svg"), 1)
        self.assertIn("(2 experiment(s), ", out)

    def test_no_experiment(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.mkdir(empty)
        rc, _, err, page = self.render(empty)
        self.assertEqual(rc, 2)
        self.assertIn(f"irqlab: {empty}: no experiment directory (no index.json", err)
        self.assertEqual(page, "")

    def test_failed_run_is_status_1(self):
        exp = make_experiment(os.path.join(self.tmp.name, "e1"))
        path = os.path.join(exp, "legacy", "hackbench", "rep2.json")
        res = run_json("legacy", 2, 2.0)
        res.update(passed=False, verdict="timeout after 300 s",
                   problems=["no end banner: the run was cut short"])
        with open(path, "w") as f:
            json.dump(res, f)
        rc, _, err, page = self.render(exp)
        self.assertEqual(rc, 1, err)
        self.assertIn("run failed: " + path[:-5] + ".log: timeout after 300 s", page)
        self.assertIn("no end banner: the run was cut short", page)


if __name__ == "__main__":
    unittest.main()
