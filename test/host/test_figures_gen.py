# SPDX-License-Identifier: GPL-2.0
"""scripts/figures.py's generators for the hand-copied figures they replaced:
each renders from fixture logs, and a stale documented value fails the check."""
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_figures import figures, log  # noqa: E402

BASE = "479dae4"


def info_log(lines, *objs):
    """A passing log with these console lines before the records."""
    return "\n".join(lines) + "\n" + log(*objs)


def cyc(kind, lo, avg, hi):
    return {"type": kind, "cpu": 0, "thread_ns": [lo, avg, hi], "irq_ns": [1, 2, 3]}


def hackbench(ns):
    return {"type": "hackbench", "time_ns": ns}


# Saved logs, by tag, of every boot the generators below read.
LOGS = {
    "default-deadline-icount": info_log(
        ["[    1.0] # overrun_throttled: hog: 34120 us of CPU in 6 instances (bound 44000 us);"
         " neighbour: 6 jobs, 0 missed (icount)"], cyc("cyclicdl", 1818, 1867, 3188)),
    "notrace-pi-bench-icount": info_log(
        ["    # bench_uncontended: bench_uncontended: rt_mutex: 60 cycles/op (PREEMPT)",
         "# bench_uncontended: mutex: 43 cycles/op",
         "# bench_uncontended: rwsem read: 49 cycles/op",
         "# bench_uncontended: rwsem write: 46 cycles/op",
         "    # bench_uncontended: bench_uncontended: spin_lock: 20 cycles/op (x, icount)",
         "    # bench_uncontended: bench_uncontended: spin_lock_irqsave: 26 cycles/op (x, y)",
         "pi_stress: 1 groups, 2000 iterations, 0 failures, 106190 iterations/s, high waited"]),
    "rt-pi-bench-icount": info_log(
        ["# bench_uncontended: rt_mutex: 44 cycles/op", "# bench_uncontended: mutex: 43 "
         "cycles/op", "# bench_uncontended: rwsem read: 43 cycles/op",
         "# bench_uncontended: rwsem write: 142 cycles/op",
         "# bench_uncontended: spin_lock: 156 cycles/op",
         "# bench_uncontended: spin_lock_irqsave: 156 cycles/op",
         "pi_stress: 1 groups, 2000 iterations, 0 failures, 34688 iterations/s, high waited"]),
    "default-lockdep-bench-icount": info_log(
        ["    # bench_raw_spin_lock_unlock: raw_spin_lock+unlock: 20 cycles per pair, 16 "
         "nested in another lock (lockdep off, icount)"]),
    "lockdep-lockdep-bench-icount": info_log(
        ["    # bench_raw_spin_lock_unlock: raw_spin_lock+unlock: 354 cycles per pair, 435 "
         "nested in another lock (lockdep on, icount)"]),
    "trace-trace-tests-icount": info_log(
        [f"    # {case}: {kind} window on CPU0: {c} cycles, {c} ns for a 200000-cycle "
         "busy-wait (icount)" for case, kind, c in
         (("irqsoff_window", "irqsoff", 200049), ("preemptoff_window", "preemptoff", 200054),
          ("migrate_window", "migrate", 200981))]),
}
# seeds-icount: each experiment's two configurations, now and at BASE.
SEED_HB = {"legacy_notrace": (8701, 8695), "notrace": (8699, 8694),
           "rt_legacy": (8785, 8742), "rt_rawlistlock": (8902, 8809),
           "rt_nopartial": (8901, 8826), "rt_nolocallock_rawlistlock_nopartial": (8805, 8738),
           "rt_nolocallock_nopartial": (8810, 8741)}
for cfg, (old, new) in SEED_HB.items():
    LOGS[f"{cfg}-seeds-hackbench-icount-at-{BASE}"] = log(hackbench(old * 1000000))
    LOGS[f"{cfg}-seeds-hackbench-icount"] = log(hackbench(new * 1000000))
for cfg, (old, new) in {"rt": (2554, 2487), "rt_nopartial": (2589, 2519)}.items():
    LOGS[f"{cfg}-seeds-cyclic_hackbench-icount-at-{BASE}"] = log(cyc("cyclic", 1, 2, old))
    LOGS[f"{cfg}-seeds-cyclic_hackbench-icount"] = log(cyc("cyclic", 1, 2, new))
for cfg in ("rt", "rt_nolazy"):
    for suffix, (avg, hi, dl) in (("", (1313, 1533, 1385)), (f"-at-{BASE}", (1317, 1618, 1409))):
        LOGS[f"{cfg}-seeds-cyclic-icount{suffix}"] = log(cyc("cyclic", 1, avg, hi))
        LOGS[f"{cfg}-seeds-cyclicdl-icount{suffix}"] = log(cyc("cyclicdl", 1, dl, 2000))

# ktrace-pairs/-paths: each preset's two traced pairs (caller, callees).
KT = {"default": ({"kmem_cache_alloc": 35, "kmem_cache_free": 40}, 95),
      "legacy": ({"kmem_cache_alloc": 39, "kmem_cache_free": 44}, 103),
      "rt": ({"kmem_cache_alloc": 31, "migrate_enable": 107, "kmem_cache_free": 60}, 371)}


def ktrace_log(fns, kmalloc):
    objs, lines = [], []
    for name, callees in (("cache_pair", fns), ("kmalloc_pair", {"kmalloc": kmalloc})):
        pair = sum(callees.values())
        objs.append({"type": "ktrace_fn", "name": name, "fn": "sb_" + name, "insns": 14})
        objs += [{"type": "ktrace_fn", "name": name, "fn": f, "insns": n}
                 for f, n in callees.items()]
        objs.append({"type": "ktrace", "name": name, "insns": pair + 14, "irqs_off": 0,
                     "preempt_off": 0, "interrupts": 0, "valid": 1})
        objs.append({"type": "slabbench", "name": "trace_" + name, "pair_insns": pair,
                     "caller_insns": 14, "clock_ticks": pair + 14, "valid": 1})
        lines += [f"ktrace: {name}: path", f"ktrace:    1: {name} +0x0 +0x4"]
    return info_log(lines, *objs)


for cfg, (fns, km) in KT.items():
    LOGS[f"{cfg}-ktrace-pair-icount"] = ktrace_log(fns, km)

EXPECT = {
    "deadline": ["| 1818 / 1867 / 3188 ns |", "| 34.12 ms in 6 instances (44 ms) |",
                 "| 6, 0 |"],
    "pi": ["| `rt_mutex_lock`+`unlock` | 60 | 44 |",
           "| `down_read`+`up_read` / `down_write`+`up_write` | 49 / 46 | 43 / 142 |",
           "| `spin_lock_irqsave`+`unlock_irqrestore` | 26 | 156 |",
           "| 106190 iterations/s, 0 failures | 34688 iterations/s, 0 failures |"],
    "lockdep": ["| `default` | off | 20 | 16 |", "| `lockdep` | on | 354 | 435 |"],
    "trace-windows": ["| irqsoff | 200000 | 200049 | 200049 |",
                      "| preemptoff | 200000 | 200054 | 200054 |",
                      "| migrate | 200000 | 200981 | 200981 |"],
    "ktrace-pairs": ["| default | 75 | 95 |", "| rt | 198 | 371 |",
                     "| `migrate_enable` | - | - | 107 |", "| pair | **75** | **83** | **198** |"],
    "ktrace-paths": ["#### rt: kmem_cache_alloc() + kmem_cache_free(), 256-byte cache",
                     "Pair: **83** instructions (callees only); the calling function adds 14",
                     "| `kmem_cache_free` | 60 |", "1: kmalloc_pair +0x0 +0x4"],
    "seeds-icount": [
        f"| experiment | seeds | icount at {BASE} | icount at ",
        "| 8.701 vs 8.699 s, -0.0% | 8.695 vs 8.694 s, -0.0% |",
        "| 8.785 vs 8.902 s, +1.3% | 8.742 vs 8.809 s, +0.8% |",
        "| 8.785 vs 8.810 s, +0.3% | 8.742 vs 8.741 s, -0.0% |",
        "| 2.554 vs 2.589 us | 2.487 vs 2.519 us |",
        "| 1.317 / 1.618 us, the same | 1.313 / 1.533 us, the same |",
        "| 1.409 us, the same | 1.385 us, the same |"],
}


def tcg_cells(root):
    """LOGS/seeds-tcg/eN/CONFIG/WORKLOAD/repK.json as tools/irqlab matrix writes
    them: 10 runs a side, B 5% slower on hackbench, the same elsewhere."""
    import json
    for label, _, exp, wl, a, b, metric, _ in figures.SEEDS_TCG:
        for cfg in (a, b):
            d = os.path.join(root, "seeds-tcg", exp, cfg, wl)
            os.makedirs(d, exist_ok=True)
            for rep in range(1, 11):
                slow = 1.05 if cfg == b and metric.startswith("hackbench") else 1.0
                recs = {"hackbench": [{"time_ns": int((2.0 + rep / 100) * slow * 1e9)}],
                        "cyclic": [{"cpu": 0, "thread_ns": [1000, 200000 + rep, 9000000 + rep]}],
                        "cyclicdl": [{"cpu": 0, "thread_ns": [1000, 125000 + rep, 1044000]}]}
                with open(os.path.join(d, f"rep{rep}.json"), "w") as f:
                    json.dump({"passed": True, "problems": [], "status": "ok",
                               "verdict": "guest passed", "records": recs}, f)


class GeneratorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.logs = os.path.join(self.tmp.name, "logs")
        os.mkdir(self.logs)
        for tag, text in LOGS.items():
            with open(os.path.join(self.logs, tag + ".log"), "w") as f:
                f.write(text)
        self.doc = os.path.join(self.tmp.name, "doc.md")

    def main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        old = sys.stderr
        sys.stderr = err
        try:
            rc = figures.main(list(argv) + ["--logs", self.logs, "--docs", self.doc], out=out)
        finally:
            sys.stderr = old
        return rc, out.getvalue() + err.getvalue()

    def written(self, name, attrs=""):
        with open(self.doc, "w") as f:
            f.write(f"intro\n<!-- figures:{name} begin mode=icount commit=abc1234{attrs} -->\n"
                    f"<!-- figures:{name} end -->\nafter\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 0, out)
        with open(self.doc) as f:
            return f.read()

    def check_stale(self, name, text, old, new):
        """Replacing one documented value makes check fail and name it."""
        self.assertIn(old, text)
        with open(self.doc, "w") as f:
            f.write(text)
        rc, out = self.main("check")
        self.assertEqual(rc, 0, out)
        with open(self.doc, "w") as f:
            f.write(text.replace(old, new, 1))
        rc, out = self.main("check")
        self.assertEqual(rc, 1, out)
        self.assertIn(f"figures:{name} (mode=icount", out)
        self.assertIn("is stale", out)

    def test_each_generator_renders_and_rechecks(self):
        stale = {"deadline": ("1867", "1868"), "pi": ("| 26 | 156 |", "| 27 | 156 |"),
                 "lockdep": ("| 354 |", "| 355 |"), "trace-windows": ("200981", "200980"),
                 "seeds-icount": ("8.742 vs 8.809", "8.742 vs 8.810"),
                 "ktrace-pairs": ("| - | - | 107 |", "| - | - | 108 |"),
                 "ktrace-paths": ("**83**", "**84**")}
        for name in stale:
            with self.subTest(name):
                attrs = f" base={BASE}" if name == "seeds-icount" else ""
                text = self.written(name, attrs)
                for want in EXPECT[name]:
                    self.assertIn(want, text)
                if name == "ktrace-pairs":      # callees only: not the calling function
                    self.assertNotIn("`sb_cache_pair`", text)
                self.check_stale(name, text, *stale[name])

    def test_seeds_keeps_base_and_names_both_commits(self):
        text = self.written("seeds-icount", f" base={BASE}")
        b = figures.parse_blocks(self.doc, text)[0]
        self.assertEqual(b.attrs.get("base"), BASE)
        self.assertIn(f"at commits {BASE} and {b.commit}.", text)

    def test_seeds_without_base_or_old_logs_fails(self):
        with open(self.doc, "w") as f:
            f.write("<!-- figures:seeds-icount begin mode=icount commit=abc1234 -->\n"
                    "<!-- figures:seeds-icount end -->\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 1)
        self.assertIn("needs base=COMMIT", out)
        os.remove(os.path.join(self.logs, f"rt-seeds-cyclic_hackbench-icount-at-{BASE}.log"))
        with open(self.doc, "w") as f:
            f.write(f"<!-- figures:seeds-icount begin mode=icount commit=abc1234 base={BASE} -->"
                    "\n<!-- figures:seeds-icount end -->\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 1)
        self.assertIn(f"rt-seeds-cyclic_hackbench-icount-at-{BASE}", out)

    def test_ktrace_trace_disagreeing_with_clock_fails(self):
        path = os.path.join(self.logs, "legacy-ktrace-pair-icount.log")
        with open(path) as f:
            text = f.read()
        # a slabbench record whose icount clock disagrees with the trace: CRC redone
        bad = ktrace_log(KT["legacy"][0], 103).replace('"clock_ticks":97', '"clock_ticks":96')
        self.assertNotEqual(bad, text)
        import re
        import zlib
        fixed = []
        for ln in bad.splitlines():
            m = re.match(r"(.*@irqlab \d+ )[0-9a-f]{8} (.*)$", ln)
            fixed.append(f"{m.group(1)}{zlib.crc32(m.group(2).encode()):08x} {m.group(2)}"
                         if m else ln)
        with open(path, "w") as f:
            f.write("\n".join(fixed) + "\n")
        with open(self.doc, "w") as f:
            f.write("<!-- figures:ktrace-pairs begin mode=icount commit=abc1234 -->\n"
                    "<!-- figures:ktrace-pairs end -->\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 1, out)
        self.assertIn("97 traced but the icount clock counted 96", out)

    def test_seeds_tcg_renders_from_matrix_cells(self):
        tcg_cells(self.logs)
        with open(self.doc, "w") as f:
            f.write("<!-- figures:seeds-tcg begin mode=tcg commit=abc1234 -->\n"
                    "<!-- figures:seeds-tcg end -->\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 0, out)
        with open(self.doc) as f:
            text = f.read()
        self.assertIn("| E1 !RT, pre vs post series (`legacy_notrace`, `notrace`) | 0.94 vs "
                      "0.94 s | 2.055 vs 2.158 s (10 vs 10 runs), +5.0%, worse |", text)
        self.assertIn("| E4 RT, CPU_PARTIAL on vs off, cyclic max (`rt`, `rt_nopartial`) | "
                      "\"slightly higher with it on\" | 9000 vs 9000 us (10 vs 10 runs), "
                      "+0.0%, within noise |", text)
        rc, out = self.main("check")
        self.assertEqual(rc, 0, out)
        self.assertIn("mode=tcg, commit=", out)
        self.assertIn("timed, not rechecked", out)
        # a failed run is not averaged in
        cell = os.path.join(self.logs, "seeds-tcg", "e3", "rt_legacy", "hackbench", "rep4.json")
        with open(cell, "w") as f:
            f.write('{"passed": false, "problems": [], "verdict": "timeout", "records": {}}')
        rc, out = self.main("write")
        self.assertEqual(rc, 1, out)
        self.assertIn("rep4.json: the run failed or lost records (timeout", out)

    def test_missing_info_line_fails(self):
        with open(os.path.join(self.logs, "lockdep-lockdep-bench-icount.log"), "w") as f:
            f.write(log())
        with open(self.doc, "w") as f:
            f.write("<!-- figures:lockdep begin mode=icount commit=abc1234 -->\n"
                    "<!-- figures:lockdep end -->\n")
        rc, out = self.main("write")
        self.assertEqual(rc, 1)
        self.assertIn("no lockdep: lockdep.bench line", out)



class WorktreeTest(unittest.TestCase):
    """The other commit's tree: a worktree added once, the current defconfigs
    copied in without touching one that is already the same."""

    def setUp(self):
        import subprocess
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.root = os.path.join(self.tmp.name, "repo")
        os.makedirs(os.path.join(self.root, "configs"))
        for name, text in (("Makefile", "all:\n"), ("configs/x_defconfig", "CONFIG_A=y\n")):
            with open(os.path.join(self.root, name), "w") as f:
                f.write(text)
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", self.root]
        subprocess.run(["git", "init", "-q", self.root], check=True)
        subprocess.run(git + ["add", "."], check=True)
        subprocess.run(git + ["commit", "-qm", "old"], check=True)
        self.old = subprocess.run(git + ["rev-parse", "--short=7", "HEAD"], check=True,
                                  capture_output=True, text=True).stdout.strip()
        saved = figures.ROOT
        figures.ROOT = self.root
        self.addCleanup(setattr, figures, "ROOT", saved)

    def test_worktree_added_once_and_defconfig_copied(self):
        path = figures._worktree(self.old)
        self.assertEqual(path, os.path.join(self.root, "build", "figures", f"at-{self.old}"))
        self.assertTrue(os.path.exists(os.path.join(path, "Makefile")))
        self.assertEqual(figures._worktree(self.old), path)      # reused, not re-added
        dst = os.path.join(path, "configs", "x_defconfig")
        os.utime(dst, (1000, 1000))
        figures._copy_defconfig("x", path)
        self.assertEqual(os.stat(dst).st_mtime, 1000)           # the same: left alone
        with open(os.path.join(self.root, "configs", "x_defconfig"), "w") as f:
            f.write("CONFIG_A=n\n")
        figures._copy_defconfig("x", path)
        with open(dst) as f:
            self.assertEqual(f.read(), "CONFIG_A=n\n")         # the current definition
        with self.assertRaisesRegex(figures.FigureError, "cannot copy"):
            figures._copy_defconfig("nonesuch", path)
        with self.assertRaisesRegex(figures.FigureError, "cannot add a worktree of 0000000"):
            figures._worktree("0000000")


if __name__ == "__main__":
    unittest.main()
