"""The KTAP parser and log checks of test/run."""

import os
import textwrap
import unittest

import _kunit_model as km
import _load

tr = _load.testrun()


def parse(text):
    return tr.parse_ktap(tr.clean_lines(textwrap.dedent(text).lstrip("\n")))


def cases(text):
    return [(c.status, c.path, c.reason) for c in tr.ktap_cases(parse(text))]


def problems(text):
    return tr.ktap_problems(parse(text))


GOOD = """
    irqlab: start 0.1 abc
    KTAP version 1
    1..2
        KTAP version 1
        # Subtest: memblock
        1..3
        ok 1 reserve_free
        # a diagnostic line
        ok 2 overlap # SKIP needs 4G
        not ok 3 huge # SKIP not on TCG
    ok 1 memblock
        KTAP version 1
        # Subtest: slub
        1..1
        ok 1 alloc_free
    ok 2 slub
    irqlab: end status=ok
    """


class KtapParseTest(unittest.TestCase):
    def test_nested_suites(self):
        k = parse(GOOD)
        self.assertEqual(k.errors, [])
        self.assertEqual(k.root.plan, 2)
        self.assertEqual([r.name for r in k.root.results], ["memblock", "slub"])
        mb = k.root.results[0].sub
        self.assertEqual((mb.name, mb.plan, len(mb.results)), ("memblock", 3, 3))
        self.assertEqual(cases(GOOD), [
            ("PASS", "memblock.reserve_free", ""),
            ("SKIP", "memblock.overlap", "needs 4G"),
            ("SKIP", "memblock.huge", "not on TCG"),      # not ok # SKIP is a skip
            ("PASS", "slub.alloc_free", "")])
        self.assertEqual(problems(GOOD), [])

    def test_no_ktap(self):
        k = parse("irqlab: start 1 2\nhello\nirqlab: end status=ok\n")
        self.assertIsNone(k.root)
        self.assertEqual(problems("hello\n"), ["no KTAP in log"])
        self.assertEqual(problems(""), ["no KTAP in log"])

    def test_failure(self):
        text = """
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: slub
                1..2
                ok 1 alloc
                not ok 2 - bulk
            not ok 1 slub
            """
        self.assertEqual(cases(text), [("PASS", "slub.alloc", ""), ("FAIL", "slub.bulk", "")])
        self.assertEqual(problems(text), ["1 failed case: slub.bulk"])

    def test_missing_results(self):
        text = """
            KTAP version 1
            1..5
            ok 1 a
            ok 2 b
            ok 3 c
            ok 4 d
            """
        self.assertEqual(problems(text), ["KTAP plan 1..5 but 4 results"])

    def test_missing_plan(self):
        self.assertEqual(problems("KTAP version 1\nok 1 a\n"),
                         ["KTAP top level: no plan (1 results)"])

    def test_nested_missing_result(self):
        text = """
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: s
                1..3
                ok 1 a
                ok 2 b
            ok 1 s
            """
        self.assertEqual(problems(text), ["KTAP plan 1..3 but 2 results in suite s"])

    def test_truncated_log(self):
        text = GOOD[:GOOD.index("ok 1 alloc_free")]
        k = parse(text)
        self.assertTrue(any("truncated" in e and "slub" in e for e in k.errors), k.errors)
        p = problems(text)
        self.assertIn("KTAP plan 1..2 but 1 results", p)
        self.assertTrue(any("truncated" in x for x in p))

    def test_truncated_mid_line(self):
        text = GOOD[:GOOD.index("ok 1 reserve_free") + 4]      # "ok 1" without a name
        p = problems(text)
        self.assertTrue(p)

    def test_garbage_lines_are_ignored(self):
        text = """
            SeaBIOS (version 1.16)
            KTAP version 1
            irqlab: smp: CPU1 online
            1..1
            random noise ok 7 not a result
                RAX: 0000000000000000 RBX: 1
                KTAP version 1
            [   0.123] timestamped noise
                # Subtest: s
                1..1
            \t\tgarbage with tabs
                ok 1 a
            ok 1 s
            trailing noise
            """
        self.assertEqual(cases(text), [("PASS", "s.a", "")])
        self.assertEqual(problems(text), [])

    def test_binary_garbage(self):
        data = bytes(range(256)) + b"\xff\xfe\nKTAP version 1\n1..1\nok 1 x\x00\n\x1b[2Jok 2"
        lines = tr.clean_lines(data)
        k = tr.parse_ktap(lines)
        self.assertEqual([r.name for r in k.root.results], ["x", "#2"])
        self.assertEqual(tr.ktap_problems(k), ["KTAP plan 1..1 but 2 results"])

    def test_carriage_returns_and_escapes(self):
        lines = tr.clean_lines(b"\x1b[0m\x1b[37m\x1b[40m\x1b[H\x1b[J  Booting `irqlab'\r\n\r"
                               b"KTAP version 1\r\n1..1\r\nok 1 x\r\n")
        self.assertEqual(tr.ktap_problems(tr.parse_ktap(lines)), [])

    def test_deeper_nesting(self):
        text = """
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: outer
                1..2
                    KTAP version 1
                    # Subtest: inner
                    1..2
                    ok 1 x
                    ok 2 y # SKIP nope
                ok 1 inner
                ok 2 plain
            ok 1 outer
            """
        self.assertEqual(cases(text), [("PASS", "outer.inner.x", ""),
                                       ("SKIP", "outer.inner.y", "nope"),
                                       ("PASS", "outer.plain", "")])
        self.assertEqual(problems(text), [])

    def test_nested_without_version_line(self):
        # older kunit output: "# Subtest:" and a plan, no nested version line
        text = """
            TAP version 14
            1..1
                # Subtest: s
                1..1
                ok 1 a
            ok 1 s
            """
        self.assertEqual(cases(text), [("PASS", "s.a", "")])
        self.assertEqual(problems(text), [])

    def test_suite_name_from_result_line(self):
        text = "KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    ok 1 a\nok 1 named\n"
        self.assertEqual(cases(text), [("PASS", "named.a", "")])

    def test_skipped_suite_without_cases(self):
        text = "KTAP version 1\n1..1\nok 1 hpet # SKIP no HPET\n"
        self.assertEqual(cases(text), [("SKIP", "hpet", "no HPET")])
        self.assertEqual(problems(text), [])

    def test_empty_plan(self):
        self.assertEqual(problems("KTAP version 1\n1..0\n"), [])

    def test_numbering(self):
        p = problems("KTAP version 1\n1..2\nok 1 a\nok 3 b\n")
        self.assertTrue(any("test number 3" in x for x in p), p)

    def test_second_document(self):
        p = problems("KTAP version 1\n1..1\nok 1 a\nKTAP version 1\n")
        self.assertTrue(any("second 'KTAP version'" in x for x in p), p)

    def test_not_ok_parent_with_passing_children(self):
        text = """
            KTAP version 1
            1..1
                KTAP version 1
                1..1
                ok 1 a
            not ok 1 s
            """
        p = problems(text)
        self.assertTrue(any("'not ok' but none of its cases failed" in x for x in p), p)

    def test_nested_suite_closed_by_sibling(self):
        text = """
            KTAP version 1
            1..2
                KTAP version 1
                # Subtest: a
                1..1
                ok 1 x
                KTAP version 1
                # Subtest: b
                1..1
                ok 1 y
            ok 2 b
            """
        p = problems(text)
        self.assertTrue(any("suite a" in x and "without a result line" in x for x in p), p)

    def test_todo(self):
        self.assertEqual(cases("KTAP version 1\n1..1\nnot ok 1 t # TODO later\n"),
                         [("SKIP", "t", "TODO: later")])


class CaseDiagnosticsTest(unittest.TestCase):
    LOG = """
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: dl
            1..3
            # a: passing case's own line
            ok 1 a
            some boot message
            # b: EXPECT_EQ failed at dl.c:10: x == y (3 vs 4)
            # b: min 1675/1680 ns
            not ok 2 b
            ok 3 c
        not ok 1 dl
        """

    def test_lines_of_the_failed_case_only(self):
        lines = tr.clean_lines(textwrap.dedent(self.LOG).lstrip("\n"))
        failed = [c for c in tr.ktap_cases(tr.parse_ktap(lines)) if c.status == "FAIL"]
        self.assertEqual([c.path for c in failed], ["dl.b"])
        self.assertEqual(tr.case_diagnostics(lines, failed[0].lineno),
                         ["# b: EXPECT_EQ failed at dl.c:10: x == y (3 vs 4)",
                          "# b: min 1675/1680 ns"])

    def test_first_case_stops_at_plan_and_limit_keeps_last(self):
        lines = ["KTAP version 1", "1..1"] + [f"# n{i}" for i in range(20)] + ["not ok 1 t"]
        d = tr.case_diagnostics(lines, len(lines), limit=3)
        self.assertEqual(d, ["# n17", "# n18", "# n19"])
        self.assertEqual(tr.case_diagnostics(lines, 0), [])

    def test_printk_timestamps(self):
        lines = tr.clean_lines("KTAP version 1\n1..1\n[    2.915013] # t: a != b\n"
                               "[    2.915058] not ok 1 t\n")
        self.assertEqual(tr.case_diagnostics(lines, 4), ["# t: a != b"])


class BannerTest(unittest.TestCase):
    def test_banners(self):
        b = tr.find_banners(tr.clean_lines("x\r\x1b[0mirqlab: start 0.1 abc\nirqlab: end "
                                           "status=fail\n"))
        self.assertEqual((b.start, b.end), ("0.1 abc", "fail"))
        b = tr.find_banners([])
        self.assertEqual((b.start, b.end), (None, None))


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def serial_log(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


class KunitParserModelTest(unittest.TestCase):
    """What kunit.py (Linux's KTAP parser, modelled in _kunit_model.py) makes of
    whole serial logs.  The data/ logs are captured from QEMU (icount, SMP=1):
    *-old.txt from the kernel before the run's verdict was KTAP, the others after.
    """

    def test_model_reads_plain_ktap(self):
        self.assertEqual(km.run_status(textwrap.dedent(GOOD)), km.SUCCESS)
        bad = GOOD.replace("ok 1 alloc_free", "not ok 1 alloc_free")
        self.assertEqual(km.run_status(textwrap.dedent(bad)), km.FAILURE)
        cut = GOOD[:GOOD.index("ok 1 alloc_free")]
        self.assertEqual(km.run_status(textwrap.dedent(cut)), km.CRASHED)
        self.assertEqual(km.run_status("irqlab: start 1 2\nirqlab: end status=fail\n"),
                         km.FAILURE_TO_PARSE)

    def test_model_suite_line_counts_only_without_results(self):
        empty = "KTAP version 1\n1..1\n    # Subtest: s\n    1..0\nnot ok 1 s\n"
        self.assertEqual(km.run_status(empty), km.FAILURE)
        # kunit_parser judges a suite with results by them, not by its own line
        full = "KTAP version 1\n1..1\n    # Subtest: s\n    1..1\n    ok 1 a\nnot ok 1 s\n"
        self.assertEqual(km.run_status(full), km.SUCCESS)

    def test_model_cuts_the_timestamp_prefix(self):
        text = ("[    0.1] KTAP version 1\n[    0.1] 1..2\n[    0.2] irqlab: noise\n"
                "[    0.2] ok 1 a\n[    0.3] not ok 2 verdict\n")
        self.assertEqual(km.run_status(text), km.FAILURE)
        self.assertEqual(km.run_status(text.replace("not ok 2", "ok 2")), km.SUCCESS)

    def test_typo_parameter_read_as_success_before(self):
        # run=ktest ktest.filter=boot cyclic.duration_s=2 before: the suites
        # passed, the end said "command-line error", kunit.py said success.
        log = serial_log("ktap-typo-old.txt")
        self.assertIn("irqlab: 1 command-line error(s): see above", log)
        self.assertEqual(km.run_status(log), km.SUCCESS)

    def test_typo_parameter_is_a_failure(self):
        log = serial_log("ktap-typo.txt")
        self.assertIn("unknown parameter 'cyclic.duration_s'", log)
        self.assertEqual(km.run_status(log), km.FAILURE)
        lines = tr.clean_lines(log)
        self.assertIn("not ok 1 cmdline", lines)
        self.assertIn("# cmdline: irqlab: unknown parameter 'cyclic.duration_s'", lines)
        self.assertEqual(tr.ktap_problems(tr.parse_ktap(lines)), ["1 failed case: cmdline"])

    def test_failed_verdict_read_as_success_before(self):
        # run=ktest,cyclic ktest.filter=boot cyclic.cpus=0-1 on one CPU: the
        # boot suite passes, cyclic fails at its start, the run ends status=fail.
        log = serial_log("ktap-fail-old.txt")
        self.assertIn("irqlab: end status=fail", log)
        self.assertEqual(km.run_status(log), km.SUCCESS)

    def test_failed_verdict_is_a_failure(self):
        log = serial_log("ktap-fail.txt")
        self.assertIn("irqlab: end status=fail", log)
        self.assertEqual(km.run_status(log), km.FAILURE)
        lines = tr.clean_lines(log)
        self.assertIn("not ok 2 verdict", lines)
        self.assertEqual(tr.ktap_problems(tr.parse_ktap(lines)), ["1 failed case: verdict"])

    def test_passing_run_counts_the_verdict(self):
        log = serial_log("ktap-fail.txt").replace("not ok 2 verdict", "ok 2 verdict")
        self.assertEqual(km.run_status(log), km.SUCCESS)
        # Cut before the verdict (a hang or panic after the suites): a crash.
        cut = log[:log.index("ok 2 verdict")]
        self.assertEqual(km.run_status(cut), km.CRASHED)


if __name__ == "__main__":
    unittest.main()
