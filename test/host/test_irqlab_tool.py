# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab: parse and report from synthetic serial logs."""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zlib
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _load  # noqa: E402
import _fakes  # noqa: E402

tool = _load._load("irqlab_tool", os.path.join(_load.ROOT, "tools", "irqlab"))


def run_tool(*argv):
    """tools/irqlab's main() in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = tool.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def rec(seq, obj, bad=False):
    text = json.dumps(obj, separators=(",", ":"))
    crc = zlib.crc32(text.encode()) ^ (1 if bad else 0)
    return f"[    1.000000] @irqlab {seq} {crc:08x} {text}"


CYC = {"type": "cyclic", "cpu": 1, "prio": 95, "interval_us": 1000, "count": 300,
       "thread_ns": [1987, 3570, 54498], "irq_ns": [409, 1876, 52795],
       "overflows": [0, 0], "clock": "icount"}
LAT = {"type": "lat_cpu", "tracer": "irqsoff", "what": "hackbench", "cpu": 0,
       "windows": 10, "min_ns": 36, "total_ns": 1000, "max_ns": 500, "dropped": 0}
MAX = {"type": "lat_max", "tracer": "irqsoff", "cpu": 0, "rank": 0, "ns": 500,
       "start": "__wake_up+0x27", "end": "__wake_up+0xfd", "parent": "-", "pid": 1}


def png_rgb(path):
    """Decode an 8-bit, non-interlaced RGB or RGBA PNG into rows of RGB bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, ctype, interlace = ihdr[8], ihdr[9], ihdr[12]
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"{path}: PNG depth {depth} type {ctype} interlace {interlace}")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, rows = bytearray(stride), []
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                cur[i] = (cur[i] + a) & 255
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 255
            elif ftype == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (cur[i] + pred) & 255
        rows.append(bytes(cur) if bpp == 3 else
                    bytes(v for i, v in enumerate(cur) if i % 4 != 3))
        prev = cur
    return width, height, rows


class ToolTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, lines, name="a.log"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_tool(self, *argv):
        return run_tool(*argv)

    def two_histogram_log(self):
        hist = {"type": "cyclic_hist", "cpu": 1, "level": "thread", "part": 0,
                "bins": [[1, 744], [2, 253], [3, 3]]}
        lat = {"type": "lat_hist", "tracer": "irqsoff", "cpu": 0, "unit": "log2_ns",
               "b": [[5, 100], [6, 40], [12, 2]]}
        return self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC), rec(1, hist),
                         rec(2, lat), "irqlab: end status=ok"])

    def clean_log(self):
        return self.log(["irqlab: start 0.1.0 deadbeef", "Command line: run=cyclic",
                         rec(0, CYC), rec(1, LAT), rec(2, MAX), "irqlab: end status=ok"])

    def test_report_tables(self):
        rc, out, _ = self.run_tool("report", self.clean_log())
        self.assertEqual(rc, 0)
        self.assertIn("command line: run=cyclic", out)
        self.assertRegex(out, r"1\s+95\s+1000\s+300\s+\?\s+2\.0\s+3\.6\s+54\.5\s+0 \(0\.0%\)\s+"
                              r"0\.4\s+1\.9\s+52\.8\s+0 \(0\.0%\)\s+icount")
        self.assertRegex(out, r"hackbench\s+0\s+10\s+36\s+100\s+500\s+__wake_up\+0x27\s+__wake_up\+0xfd")

    def test_report_rcutorture(self):
        ok = {"type": "rcutorture", "torture_type": "rcu", "cpus": 2, "nreaders": 1,
              "ms": 1012, "reads": 438699, "timer_reads": 107, "versions": 21, "gps": 49,
              "verdict": "SUCCESS"}
        ok_e = {"type": "rcutorture_errors", "torture_type": "rcu", "errors": 0,
                "pipe_errors": 0, "mberrors": 0, "barrier_errors": 0, "barriers": 4,
                "leaked": 0}
        bad = dict(ok, torture_type="busted", gps=0, verdict="FAILURE")
        bad_e = dict(ok_e, torture_type="busted", errors=1, pipe_errors=37, mberrors=3)
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, ok), rec(1, ok_e),
                         rec(2, bad), rec(3, bad_e), "irqlab: end status=fail"])
        rc, out, _ = self.run_tool("report", path)
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"rcu\s+2\s+1\s+1012\s+438699\s+107\s+21\s+49\s+0\s+0\s+0\s+0"
                              r"\s+SUCCESS")
        self.assertRegex(out, r"busted\s+2\s+1\s+1012\s+438699\s+107\s+21\s+0\s+37\s+3\s+0"
                              r"\s+0\s+FAILURE")

    def test_parse_json(self):
        dest = os.path.join(self.tmp.name, "out.json")
        rc, _, _ = self.run_tool("parse", self.clean_log(), "--json", dest)
        self.assertEqual(rc, 0)
        with open(dest) as f:
            res = json.load(f)
        self.assertEqual(res[0]["status"], "ok")
        self.assertEqual(res[0]["records"]["cyclic"][0]["thread_ns"][2], 54498)

    def test_corrupt_record_named_and_left_out(self):
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC, bad=True), rec(1, LAT),
                         "irqlab: end status=ok"])
        rc, out, _ = self.run_tool("report", path)
        self.assertEqual(rc, 1)
        self.assertIn("problem: line 2: record 0: CRC", out)
        self.assertNotIn("cyclic (us)", out)
        self.assertIn("irqsoff windows (ns)", out)

    def test_cut_log_and_missing_records(self):
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC), rec(3, LAT)])
        rc, out, _ = self.run_tool("report", path)
        self.assertEqual(rc, 1)
        self.assertIn("2 record(s) missing: seq 1-2", out)
        self.assertIn("no end banner", out)

    def test_metrics_rt_tests_shape(self):
        cyc0 = dict(CYC, cpu=0, thread_ns=[1000, 2000, 9000])
        pts = {"type": "ptsema", "pair": 1, "prio": 98, "cpu": 0, "interval_us": 1000,
               "cycles": 10, "samples": 10, "lat_ns": [11000, 15000, 66000], "clock": "tsc"}
        pis = {"type": "pi_stress", "groups": 2, "iterations": 400, "failures": 0,
               "ns_per_iter": 52000, "max_wait_ns": 7000, "clock": "tsc"}
        rtm = {"type": "rt_migrate_summary", "tasks": 3, "loops": 50, "violations": 2,
               "violation_loops": 1, "worst_wait_ns": 12500, "maxerr_ns": 500, "clock": "tsc"}
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC), rec(1, cyc0),
                         rec(2, pts), rec(3, pis), rec(4, rtm), "irqlab: end status=ok"])
        m = tool.metrics(tool.parse_log(path))
        # threads numbered by CPU, as cyclictest numbers them
        self.assertEqual((m["cyclic t0 max us"], m["cyclic t1 max us"]), (9.0, 54.498))
        self.assertEqual(m["cyclic t0 min us"], 1.0)
        self.assertEqual(m["ptsema t3-2 avg us"], 15.0)
        self.assertEqual(m["pi_stress ns per iteration"], 52000)
        self.assertEqual(m["pi_stress failures"], 0)
        self.assertEqual(m["rt_migrate violations"], 2)
        self.assertEqual(m["rt_migrate worst wait us"], 12.5)

    def test_cyclicdl_records(self):
        def cdl(cpu, ns):
            return {"type": "cyclicdl", "cpu": cpu, "runtime_us": 200, "deadline_us": 1000,
                    "period_us": 1000, "count": 300, "thread_ns": ns, "overflows": [0],
                    "clock": "icount"}
        hist = {"type": "cyclicdl_hist", "cpu": 1, "level": "thread", "part": 0,
                "bins": [[3, 250], [4, 50]]}
        path = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, cdl(1, [3000, 3500, 4100])),
                         rec(1, cdl(0, [1000, 1200, 2000])), rec(2, hist),
                         "irqlab: end status=ok"])
        res = tool.parse_log(path)
        m = tool.metrics(res)
        # cyclicdeadline's rows, threads numbered by CPU; not mixed into cyclic's
        self.assertEqual((m["cyclicdl t0 avg us"], m["cyclicdl t1 max us"]), (1.2, 4.1))
        self.assertEqual(m["cyclicdl max us"], 4.1)
        self.assertEqual(m["cyclicdl avg us"], 2.35)
        self.assertNotIn("cyclic max us", m)
        self.assertRegex("\n".join(tool.report_log(res)), r"cyclicdl \(us\)\n.*\n0\s+200\s+1000\s+1000\s+300"
                                               r"\s+\?\s+1\.0\s+1\.2\s+2\.0\s+0 \(0\.0%\)\s+icount")
        self.assertEqual(tool.histograms(res),
                         [("cyclicdl CPU1, thread level", "latency (us)", [(3, 250), (4, 50)],
                           (0, 100))])

    def test_compare_cli(self):
        def hb(ns, name):
            return self.log(["irqlab: start 0.1.0 deadbeef",
                             rec(0, {"type": "hackbench", "groups": 2, "fds": 20, "loops": 20,
                                     "size": 100, "time_ns": ns, "ctxsw": 1, "migrations": 0}),
                             "irqlab: end status=ok"], name)
        a = [hb(n, f"a{i}.log") for i, n in enumerate((100e6, 101e6, 99e6))]
        b = [hb(n, f"b{i}.log") for i, n in enumerate((130e6, 131e6, 129e6))]
        rc, out, _ = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"hackbench time s\s+ok\s+ok\s+0\.1 \+- 0\.001 \(3\)\s+"
                              r"0\.13 \+- 0\.001 \(3\)\s+\+30\.0%\s+\+27\.7% \.\. \+32\.3%"
                              r"\s+Welch t\s+<0\.001\s+worse")

    def test_compare_refuses_throughput_across_tracer_sets(self):
        def hb(ns, name, tracers):
            lines = ["irqlab: start 0.1.0 deadbeef",
                     rec(0, {"type": "hackbench", "groups": 2, "fds": 20, "loops": 20,
                             "size": 100, "time_ns": ns, "ctxsw": 1, "migrations": 0})]
            for i, tr in enumerate(tracers, 1):
                lines.append(rec(i, dict(LAT, tracer=tr)))
            return self.log(lines + ["irqlab: end status=ok"], name)
        a = [hb(n, f"a{i}.log", ()) for i, n in enumerate((100e6, 101e6, 99e6))]
        b = [hb(n, f"b{i}.log", ("irqsoff",)) for i, n in enumerate((130e6, 131e6, 129e6))]
        rc, out, err = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"hackbench time s\s+ok\s+ok\s+.*\s+-\s+refused: tracer sets differ")
        self.assertNotIn("+30.0%", out)
        self.assertIn("tracer sets differ (A: none; B: irqsoff)", err)
        # latency figures are still compared; the same tracers on both sides compare throughput
        self.assertRegex(out, r"irqsoff max ns\s+ok\s+ok\s+-\s+500")
        c = [hb(n, f"c{i}.log", ("irqsoff",)) for i, n in enumerate((100e6, 101e6, 99e6))]
        rc, out, err = self.run_tool("compare", "--a", *c, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"hackbench time s\s+ok\s+ok.*\+30\.0%.*Welch t.*worse")
        self.assertNotIn("refused", out + err)

    def test_compare_refuses_throughput_across_migrate_hooks(self):
        # The same tracers on, but one side's build has the migrate tracer's
        # hooks (CONFIG_TRACE_MIGRATE, off at run time): its lat_cost says so.
        def hb(ns, name, migrate_built):
            cost = {"type": "lat_cost", "clock": "icount", "loops": 2000,
                    "irq_pair_traced": 90000, "irq_pair_raw": 20000}
            if migrate_built:
                cost["migrate_built"] = True
            return self.log(["irqlab: start 0.1.0 deadbeef",
                             rec(0, {"type": "hackbench", "groups": 2, "fds": 20, "loops": 20,
                                     "size": 100, "time_ns": ns, "ctxsw": 1, "migrations": 0}),
                             rec(1, LAT), rec(2, cost), "irqlab: end status=ok"], name)
        a = [hb(n, f"a{i}.log", False) for i, n in enumerate((100e6, 101e6, 99e6))]
        b = [hb(n, f"b{i}.log", True) for i, n in enumerate((130e6, 131e6, 129e6))]
        rc, out, err = self.run_tool("compare", "--a", *a, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"hackbench time s\s+ok\s+ok\s+.*\s+-\s+refused: tracer sets differ")
        self.assertIn("tracer sets differ (A: irqsoff; B: irqsoff + migrate (built, off))", err)
        # both sides with the hooks built compare
        c = [hb(n, f"c{i}.log", True) for i, n in enumerate((100e6, 101e6, 99e6))]
        rc, out, err = self.run_tool("compare", "--a", *c, "--b", *b)
        self.assertEqual(rc, 0)
        self.assertNotIn("refused", out + err)

    def test_html_with_plots(self):
        path = self.two_histogram_log()
        dest = os.path.join(self.tmp.name, "r.html")
        rc, out, err = self.run_tool("report", path, "--html", dest)
        self.assertEqual(rc, 0)
        with open(dest) as f:
            page = f.read()
        self.assertIn("cyclic (us)", page)
        if shutil.which("gnuplot"):
            self.assertEqual(page.count("<svg"), 2)
            self.assertIn("2 plot(s)", out)
        else:
            self.assertIn("apt-get install gnuplot-nox", err)
        self.assertEqual(tool.histograms(tool.parse_log(path))[1][2],
                         [(32, 100), (64, 40), (4096, 2)])

    @unittest.skipUnless(shutil.which("chromium") and shutil.which("gnuplot"),
                         "needs chromium and gnuplot (.ci/run installs both)")
    def test_html_renders_in_chromium(self):
        """The page as a browser draws it: two inline SVG plots, each with its boxes."""
        path = self.two_histogram_log()
        page = os.path.join(self.tmp.name, "r.html")
        self.assertEqual(self.run_tool("report", path, "--html", page)[0], 0)
        shot = os.path.join(self.tmp.name, "r.png")
        base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", f"--user-data-dir={self.tmp.name}/chromium",
                "--window-size=800,1600"]
        dom = subprocess.run(base + ["--dump-dom", "file://" + page], capture_output=True,
                             text=True, timeout=120).stdout
        self.assertEqual(dom.count("<svg"), 2, "inline SVG elements in the rendered DOM")
        self.assertNotIn("<!--?xml", dom, "an XML prolog inside HTML becomes a comment")
        subprocess.run(base + [f"--screenshot={shot}", "file://" + page],
                       capture_output=True, timeout=120)
        width, height, pixels = png_rgb(shot)
        # gnuplot fills the boxes at 60 % over white; find rows holding that colour
        want = [round(0.6 * int(tool.PLOT_RGB[i:i + 2], 16) + 0.4 * 255) for i in (1, 3, 5)]
        rows = []
        for y in range(height):
            row = pixels[y]
            hits = sum(1 for x in range(0, width * 3, 3)
                       if all(abs(row[x + c] - want[c]) <= 12 for c in range(3)))
            rows.append(hits >= 10)
        bands = sum(1 for y in range(height) if rows[y] and (y == 0 or not rows[y - 1]))
        self.assertEqual(bands, 2, f"plot regions drawn in colour {want}")

    def test_serial_from_a_pty(self):
        import pty
        import threading
        master, slave = pty.openpty()
        lines = ["irqlab: start 0.1.0 deadbeef", rec(0, CYC), "irqlab: end status=ok",
                 "after the end"]

        def feed():
            for line in lines:
                os.write(master, (line + "\r\n").encode())
        threading.Timer(0.3, feed).start()
        dest = os.path.join(self.tmp.name, "s.log")
        rc, out, err = self.run_tool("serial", os.ttyname(slave), "--timeout", "10",
                                     "--out", dest)
        os.close(master)
        os.close(slave)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("cyclic (us)", out)
        with open(dest) as f:
            self.assertIn("irqlab: end status=ok", f.read())

    def test_serial_timeout_and_bad_input(self):
        import pty
        master, slave = pty.openpty()
        os.write(master, b"irqlab: start 0.1.0 deadbeef\r\n")
        dest = os.path.join(self.tmp.name, "s.log")
        rc, out, _ = self.run_tool("serial", os.ttyname(slave), "--timeout", "1",
                                   "--out", dest)
        self.assertEqual(rc, 1)
        self.assertIn("no end banner within 1 s", out)
        rc, _, err = self.run_tool("serial", os.ttyname(slave), "--baud", "12345",
                                   "--out", dest)
        self.assertEqual(rc, 2)
        self.assertIn("not one of 9600", err)
        os.close(master)
        os.close(slave)
        rc, _, err = self.run_tool("serial", "/dev/nonexistent-tty", "--out", dest)
        self.assertEqual(rc, 2)
        self.assertIn("No such file", err)

    def test_lava_signals(self):
        rc, out, _ = self.run_tool("lava", self.clean_log())
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(lines[0], "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=irqlab-boot RESULT=pass>")
        self.assertIn("<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=irqlab-cyclic-max RESULT=pass "
                      "MEASUREMENT=54.498 UNITS=us>", lines)
        self.assertIn("<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=irqlab-irqsoff-max RESULT=pass "
                      "MEASUREMENT=500 UNITS=ns>", lines)
        cut = self.log(["irqlab: start 0.1.0 deadbeef", rec(0, CYC)], "cut.log")
        rc, out, _ = self.run_tool("lava", cut)
        self.assertEqual(rc, 1)
        self.assertIn("TEST_CASE_ID=irqlab-boot RESULT=fail", out)
        self.assertIn("TEST_CASE_ID=irqlab-records RESULT=fail", out)

    def test_lava_template_monitors_the_banners(self):
        with open(os.path.join(_load.ROOT, "tools", "lava", "irqlab-job.yaml")) as f:
            job = f.read()
        self.assertIn("start: 'irqlab: start'", job)
        self.assertIn("end: 'irqlab: end status=", job)    # test_lava.py runs it
        self.assertNotIn("\t", job)        # YAML forbids tabs for indentation

    def test_experiment_files_are_valid(self):
        exp = os.path.join(_load.ROOT, "tools", "experiments")
        names = sorted(f for f in os.listdir(exp) if f.endswith(".ini"))
        # make experiment-seeds runs exactly these
        with open(os.path.join(_load.ROOT, "Makefile")) as f:
            listed = re.search(r"^EXPERIMENTS \?= (.*)$", f.read(), re.M).group(1).split()
        self.assertEqual(names, sorted(f"{e}.ini" for e in listed))
        self.assertIn("e5_icount.ini", names)
        for name in names:
            mx = tool.load_matrix(os.path.join(exp, name))
            for c in mx["configs"]:
                self.assertTrue(os.path.exists(os.path.join(
                    _load.ROOT, "configs", f"{c}_defconfig")), f"{name}: {c}")
            for cmd in mx["workloads"].values():
                self.assertTrue(cmd.startswith("run="), f"{name}: {cmd}")
            compared = {c for a, b, _ in mx["compare"] for c in (a, b)}
            self.assertEqual(compared, set(mx["configs"]), f"{name}: a configuration unused")

    @unittest.skipUnless(shutil.which("kconfig-conf"), "needs kconfig-frontends")
    def test_experiment_pairs_differ_in_what_they_study(self):
        """Resolve every experiment configuration as make does and diff the pairs:
        the check boot_matrix() makes, without building kernels."""
        exp = os.path.join(_load.ROOT, "tools", "experiments")
        with tempfile.TemporaryDirectory() as tmp:
            resolved = set()
            for name in sorted(f for f in os.listdir(exp) if f.endswith(".ini")):
                mx = tool.load_matrix(os.path.join(exp, name))
                for c in set(mx["configs"]) - resolved:
                    os.makedirs(os.path.join(tmp, c))
                    p = subprocess.run(
                        ["kconfig-conf", "-s", f"--defconfig={_load.ROOT}/configs/{c}_defconfig",
                         os.path.join(_load.ROOT, "Kconfig")],
                        cwd=os.path.join(tmp, c), capture_output=True, text=True,
                        env=dict(os.environ, srctree=_load.ROOT, KCONFIG_CONFIG=".config"))
                    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                    resolved.add(c)
                with redirect_stdout(io.StringIO()):
                    problems = tool.check_comparisons(mx["compare"], tmp)
                self.assertEqual(problems, [], name)

    def test_unreadable_log(self):
        rc, _, err = self.run_tool("report", os.path.join(self.tmp.name, "nope.log"))
        self.assertEqual(rc, 2)
        self.assertIn("nope.log", err)


class CompareTest(unittest.TestCase):
    def test_known_answers(self):
        a = [10.0, 10.1, 9.9, 10.05, 9.95]
        self.assertEqual(tool.verdict(a, [12.0, 12.1, 11.9, 12.05, 11.95]), "worse")
        self.assertEqual(tool.verdict(a, [8.0, 8.1, 7.9, 8.05, 7.95]), "better")
        # A shift of a tenth of the spread is noise.
        self.assertEqual(tool.verdict([10, 12, 8, 11, 9], [10.2, 12.2, 8.2, 11.2, 9.2]),
                         "within noise")
        # t = 2.5 with 5 runs a side (df 8, critical 2.306) is significant; with
        # 3 runs a side (df 4, critical 2.776) it is noise.
        a5 = [8.5, 9.5, 10, 10.5, 11.5]
        self.assertEqual(tool.verdict(a5, [x + 1.677 for x in a5]), "worse")
        self.assertEqual(tool.verdict([9, 10, 11], [11.041, 12.041, 13.041]), "within noise")

    def test_exact_and_single_runs(self):
        self.assertEqual(tool.verdict([115, 115], [115, 115]), "same")
        self.assertEqual(tool.verdict([123, 123], [115, 115]), "better")
        self.assertEqual(tool.verdict([123], [115]), "one run")

    def test_mean_sd(self):
        m, s = tool.mean_sd([2, 4, 4, 4, 5, 5, 7, 9])
        self.assertEqual(m, 5)
        self.assertAlmostEqual(s, 2.138, places=3)
        # equal floats stay exactly equal: no 1e-17 spread to fool the verdict
        self.assertEqual(tool.mean_sd([0.1, 0.1, 0.1]), (0.1, 0.0))
        self.assertEqual(tool.verdict([0.1, 0.1, 0.1], [0.1, 0.1, 0.1]), "same")


class RunTest(unittest.TestCase):
    """irqlab run in a scratch tree, with test/host's fake make and QEMU."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.root = self.tmp.name
        _fakes.scratch_tree(d, _load.ROOT)
        self.env = dict(os.environ,
                        IRQLAB_QEMU=_fakes.write_script(os.path.join(d, "fq"), _fakes.FAKE_QEMU),
                        IRQLAB_MAKE=_fakes.write_script(os.path.join(d, "fm"), _fakes.FAKE_MAKE))

    def tearDown(self):
        self.tmp.cleanup()

    def irqlab(self, *args):
        p = subprocess.run([sys.executable, os.path.join(self.root, "tools", "irqlab"), *args],
                           capture_output=True, text=True, env=self.env, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def test_reps_keep_logs_and_json(self):
        out = os.path.join(self.root, "runs")
        rc, so, se = self.irqlab("run", "--cmdline", "fake=goodrec", "--reps", "2",
                                 "--accel", "tcg", "--out", out)
        self.assertEqual(rc, 0, so + se)
        for rep in (1, 2):
            with open(os.path.join(out, f"default-{rep}.json")) as f:
                res = json.load(f)
            self.assertTrue(res["passed"])
            self.assertEqual(len(res["records"]["x"]), 2)
            self.assertTrue(os.path.exists(os.path.join(out, f"default-{rep}.log")))

    def test_run_never_overwrites_earlier_logs(self):
        out = os.path.join(self.root, "runs")
        argv = ("run", "--cmdline", "fake=goodrec", "--reps", "2", "--accel", "tcg",
                "--timeout", "60", "--out", out)
        self.assertEqual(self.irqlab(*argv)[0], 0)
        first = os.path.join(out, "default-1.log")
        with open(first, "a") as f:
            f.write("the first run's own line\n")
        rc, so, se = self.irqlab(*argv)
        self.assertEqual(rc, 0, so + se)
        self.assertIn(f"default-3: ", so)
        self.assertIn(os.path.join(out, "default-4.log"), so)
        with open(first) as f:
            self.assertIn("the first run's own line", f.read())
        self.assertEqual(sorted(os.listdir(out)),
                         sorted(f"default-{n}.{e}" for n in (1, 2, 3, 4) for e in ("log", "json")))

    def test_run_bad_reps_and_timeout(self):
        out = os.path.join(self.root, "runs")
        for bad, msg in ((("--reps", "0"), "--reps 0: want at least 1"),
                         (("--reps", "-1"), "--reps -1: want at least 1"),
                         (("--timeout", "-1"), "--timeout -1: want a number of seconds above 0"),
                         (("--timeout", "0"), "--timeout 0: want")):
            rc, so, se = self.irqlab("run", "--cmdline", "fake=goodrec", "--accel", "tcg",
                                     "--out", out, *bad)
            self.assertEqual(rc, 2, bad)
            self.assertEqual(len(se.strip().splitlines()), 1, se)
            self.assertTrue(se.startswith(f"irqlab run: {msg}"), se)
            self.assertFalse(os.path.exists(out), "nothing built or booted")

    def test_bad_record_and_bad_config(self):
        out = os.path.join(self.root, "runs")
        rc, so, _ = self.irqlab("run", "--cmdline", "fake=badrec", "--accel", "tcg",
                                "--out", out)
        self.assertEqual(rc, 1)
        self.assertIn("1 problem(s)", so)
        rc, _, se = self.irqlab("run", "--config", "nosuch", "--out", out)
        self.assertEqual(rc, 2)
        self.assertIn("valid: default", se)

    def matrix_file(self, text):
        path = os.path.join(self.root, "m.ini")
        with open(path, "w") as f:
            f.write(text)
        return path

    def defconfig(self, name, text):
        with open(os.path.join(self.root, "configs", f"{name}_defconfig"), "w") as f:
            f.write(text)

    def test_matrix_interleaves_and_resumes(self):
        self.defconfig("legacy", "CONFIG_SLUB_LEGACY=y\n")
        m = self.matrix_file("[matrix]\nconfigs = default legacy\nreps = 2\naccel = tcg\n"
                             "compare = default legacy SLUB_LEGACY\n"
                             "[workloads]\nw = fake=goodrec\n")
        out = os.path.join(self.root, "mx")
        rc, so, se = self.irqlab("matrix", m, "--out", out)
        self.assertEqual(rc, 0, so + se)
        order = [l.split("]")[1].split(":")[0].strip() for l in so.splitlines()
                 if l.startswith("[")]
        self.assertEqual(order, ["default w rep 1", "legacy w rep 1",
                                 "default w rep 2", "legacy w rep 2"])
        self.assertIn("compare legacy against default: they differ in SLUB_LEGACY (n -> y)",
                      so)
        with open(os.path.join(out, "index.txt")) as f:
            self.assertIn("w: legacy (B) against default (A), differing in SLUB_LEGACY",
                          f.read())
        os.remove(os.path.join(out, "legacy", "w", "rep2.json"))
        rc, so, _ = self.irqlab("matrix", m, "--out", out)
        self.assertEqual(rc, 0)
        self.assertIn("resuming: 3 of 4 boots already done", so)
        self.assertIn("[1/1] legacy w rep 2", so)

    def test_compare_boots_configs_interleaved(self):
        open(os.path.join(self.root, "configs", "slow_defconfig"), "w").close()
        out = os.path.join(self.root, "cmp")
        argv = ("compare", "--config-a", "default", "--config-b", "slow", "--cmdline",
                "fake=hbrec", "--reps", "3", "--accel", "tcg", "--out", out)
        # the build talks on stdout, as make does
        chatty = _fakes.write_script(os.path.join(self.root, "chatty"),
                                     "#!/bin/sh\necho '  CC      kernel/fake.c'\n"
                                     f"exec {self.env['IRQLAB_MAKE']} \"$@\"\n")
        self.env["IRQLAB_MAKE"] = chatty
        rc, so, se = self.irqlab(*argv)
        self.assertEqual(rc, 0, so + se)
        order = [l.split("]")[1].split(":")[0].strip() for l in se.splitlines()
                 if l.startswith("[")]
        self.assertEqual(order, [f"{c} cmdline rep {r}" for r in (1, 2, 3)
                                 for c in ("default", "slow")])
        self.assertIn("CC      kernel/fake.c", se)
        # stdout is the comparison alone: its notes and its table
        # (the fake QEMU gives both configurations the same hash)
        self.assertEqual(so.splitlines()[:2], [
            "A and B ran the same configuration, command line, clock and CPUs (though "
            "configuration (hash) is under study): any difference is noise",
            "warning: side A has 3 run(s): fewer than 5 gives the 5% tests little power (a "
            "rank test of 3 against 3 cannot reach 5%); only large differences will show"])
        self.assertNotIn("CC", so)
        self.assertNotRegex(so, r"(?m)^\[|^index:|^compare ")
        self.assertRegex(so, r"hackbench time s\s+ok\s+ok\s+0\.1 \+- 0 \(3\)\s+"
                             r"0\.13 \+- 0 \(3\)\s+\+30\.0%\s+\+30\.0% \.\. \+30\.0%"
                             r"\s+Welch t\s+-\s+worse")
        # the same settings again: nothing to boot
        rc, so, se = self.irqlab(*argv)
        self.assertIn("resuming: 6 of 6 boots already done", se)
        for bad, msg in ((("compare", "--config-a", "default"), "give either"),
                         (("compare", "--a", "x.log", "--config-b", "slow"), "give either"),
                         (("compare", "--config-a", "default", "--config-b", "nosuch"),
                          "no configuration 'nosuch'"),
                         (("compare", "--config-a", "default", "--config-b", "slow",
                           "--reps", "0"), "at least 1")):
            rc, _, se = self.irqlab(*bad)
            self.assertEqual(rc, 2, bad)
            self.assertIn(msg, se)

    def test_matrix_refuses_pairs_differing_in_more(self):
        # rt_rawlistlock as it was: Kconfig also drops SLUB_CPU_PARTIAL there
        self.defconfig("rt", "CONFIG_PREEMPT_RT=y\nCONFIG_SLUB_CPU_PARTIAL=y\n")
        self.defconfig("rt_rawlistlock", "CONFIG_PREEMPT_RT=y\nCONFIG_SLUB_RAW_LIST_LOCK=y\n"
                       "# CONFIG_SLUB_CPU_PARTIAL is not set\n")
        self.defconfig("rt_nopartial", "CONFIG_PREEMPT_RT=y\n"
                       "# CONFIG_SLUB_CPU_PARTIAL is not set\n")
        out = os.path.join(self.root, "mx")
        m = self.matrix_file("[matrix]\nconfigs = rt rt_rawlistlock\naccel = tcg\n"
                             "compare = rt rt_rawlistlock SLUB_RAW_LIST_LOCK\n"
                             "[workloads]\nw = fake=goodrec\n")
        rc, so, se = self.irqlab("matrix", m, "--out", out)
        self.assertEqual(rc, 2, so + se)
        self.assertIn("they differ in SLUB_CPU_PARTIAL (y -> n), SLUB_RAW_LIST_LOCK (n -> y)", so)
        self.assertIn("rt_rawlistlock against rt: they also differ in SLUB_CPU_PARTIAL "
                      "(y -> n), but the comparison declares only SLUB_RAW_LIST_LOCK", se)
        self.assertIn("nothing booted", se)
        self.assertFalse(os.path.exists(os.path.join(out, "rt")))
        # a declared symbol the two share is refused too
        m = self.matrix_file("[matrix]\nconfigs = rt rt_nopartial\naccel = tcg\n"
                             "compare = rt rt_nopartial SLUB_CPU_PARTIAL PREEMPT_RT\n"
                             "[workloads]\nw = fake=goodrec\n")
        rc, so, se = self.irqlab("matrix", m, "--out", out)
        self.assertEqual(rc, 2, so + se)
        self.assertIn("declared to differ in PREEMPT_RT, but both have the same value", se)
        # the pair that differs in exactly the variable under study runs
        m = self.matrix_file("[matrix]\nconfigs = rt_rawlistlock rt_nopartial\naccel = tcg\n"
                             "compare = rt_rawlistlock rt_nopartial CONFIG_SLUB_RAW_LIST_LOCK\n"
                             "[workloads]\nw = fake=goodrec\n")
        rc, so, se = self.irqlab("matrix", m, "--out", out)
        self.assertEqual(rc, 0, so + se)
        self.assertIn("compare rt_nopartial against rt_rawlistlock: they differ in "
                      "SLUB_RAW_LIST_LOCK (y -> n)", so)

    def test_config_differences_count_absent_as_n(self):
        path = os.path.join(self.root, "a.config")
        with open(path, "w") as f:
            f.write("#\n# comment\n#\nCONFIG_A=y\n# CONFIG_B is not set\n"
                    "CONFIG_S=\"x y\"\nCONFIG_N=64\n")
        a = tool.read_dotconfig(path)
        self.assertEqual(a, {"A": "y", "B": "n", "S": '"x y"', "N": "64"})
        self.assertEqual(tool.config_differences(a, {"A": "y", "S": '"x y"', "N": "32"}),
                         [("N", "64", "32")])

    def test_matrix_bad_files(self):
        for text, msg in (("[matrix]\nconfigs = default\n", "needs a [matrix] and a [workloads]"),
                          ("[matrix]\nconfigs = default\nreps = x\n[workloads]\nw = a\n",
                           "reps = 'x' is not a number"),
                          ("[matrix]\nconfigs = nosuch\n[workloads]\nw = a\n",
                           "no configuration 'nosuch'"),
                          ("[matrix]\nconfigs = default legacy\n[workloads]\nw = a\n",
                           "2 configurations but no compare line"),
                          ("[matrix]\nconfigs = default legacy\ncompare = default legacy\n"
                           "[workloads]\nw = a\n", "want 'A B SYMBOL...'"),
                          ("[matrix]\nconfigs = default legacy\n"
                           "compare = default other X\n[workloads]\nw = a\n",
                           "'other' is not in configs (default legacy)"),
                          ("[matrix]\nconfigs = default legacy\n"
                           "compare = default legacy slub-legacy\n[workloads]\nw = a\n",
                           "'slub-legacy' is not a Kconfig symbol"),
                          ("not an ini file\n", "m.ini")):
            rc, _, se = self.irqlab("matrix", self.matrix_file(text))
            self.assertEqual(rc, 2, text)
            self.assertIn(msg, se)


if __name__ == "__main__":
    unittest.main()
