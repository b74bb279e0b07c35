# SPDX-License-Identifier: GPL-2.0
"""tools/irqlab report on the sampling profiler's records (profile.hz=):
perf top's table, and --folded's flame-graph lines, from synthetic logs."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _logs import LogCase  # noqa: E402

PROF = {"type": "profile", "what": "hackbench", "hz": 1000, "total": 100, "dropped": 10,
        "missed": 2, "depth": 4}
SYMS = [{"type": "profile_sym", "what": "hackbench", "sym": "__slab_free", "n": 60},
        {"type": "profile_sym", "what": "hackbench", "sym": "hb_receiver_fn", "n": 30}]
STACKS = [{"type": "profile_stack", "what": "hackbench",
           "stack": "ret_from_fork;hb_receiver_fn;__slab_free", "n": 55},
          {"type": "profile_stack", "what": "hackbench",
           "stack": "ret_from_fork;hb_receiver_fn", "n": 30}]


class ProfileReport(LogCase):
    def test_table_shares_of_kept_samples(self):
        rc, out, err = self.run_tool("report", self.log([PROF] + SYMS + STACKS))
        self.assertEqual(rc, 0, err)
        self.assertIn("profile of 'hackbench': 100 samples at 1000 Hz (hrtimer), 10 dropped "
                      "(table full), 2 missed periods\n"
                      "   66.67%  [k] __slab_free\n"
                      "   33.33%  [k] hb_receiver_fn\n", out)

    def test_repeated_workload_sums(self):
        rc, out, _ = self.run_tool("report", self.log([PROF] + SYMS + [PROF] + SYMS))
        self.assertIn("200 samples at 1000 Hz (hrtimer), 20 dropped", out)
        self.assertIn("   66.67%  [k] __slab_free\n", out)

    def test_source_named(self):
        nmi = dict(PROF, source="nmi-hpet")
        rc, out, err = self.run_tool("report", self.log([nmi] + SYMS))
        self.assertEqual(rc, 0, err)
        self.assertIn("profile of 'hackbench': 100 samples at 1000 Hz (nmi-hpet), 10 dropped", out)

    def test_no_profile_no_table(self):
        rc, out, _ = self.run_tool("report", self.log([]))
        self.assertNotIn("profile of", out)


class ProfileFolded(LogCase):
    def test_stacks_with_dropped_and_other(self):
        rc, out, err = self.run_tool("report", "--folded", self.log([PROF] + SYMS + STACKS))
        self.assertEqual(rc, 0, err)
        # 100 samples: 85 in the stacks, 10 dropped, 5 in no stack record
        self.assertEqual(out.splitlines(), [
            "ret_from_fork;hb_receiver_fn;__slab_free 55",
            "ret_from_fork;hb_receiver_fn 30",
            "[dropped] 10",
            "[other] 5"])

    def test_leaf_only_without_stacks(self):
        rc, out, _ = self.run_tool("report", "--folded", self.log([PROF] + SYMS))
        self.assertEqual(out.splitlines(), ["__slab_free 60", "hb_receiver_fn 30",
                                            "[dropped] 10"])

    def test_logs_summed(self):
        a, b = self.log([PROF] + STACKS), self.log([dict(PROF, dropped=0, total=85)] + STACKS)
        rc, out, _ = self.run_tool("report", "--folded", a, b)
        self.assertIn("ret_from_fork;hb_receiver_fn;__slab_free 110", out.splitlines())
        self.assertIn("[dropped] 10", out.splitlines())

    def test_no_profile_records_is_an_error(self):
        rc, out, err = self.run_tool("report", "--folded", self.log([]))
        self.assertEqual(rc, 1)
        self.assertEqual(out, "")
        self.assertIn("no profile records (boot with profile.hz=)", err)

    def test_bad_record_is_a_problem(self):
        rc, _, err = self.run_tool("report", "--folded",
                                   self.log([dict(PROF, total="x")] + SYMS))
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
