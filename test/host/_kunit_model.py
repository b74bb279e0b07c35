"""How Linux's kunit.py would judge a serial log: a small model, written for
irqlab, of the reading rules of tools/testing/kunit/kunit_parser.py as of its
KTAP parser (Linux 5.16 on).  5.15's parser predates KTAP: it insists on
"TAP version 14" and "ok N - name", so it rejects irqlab's KTAP version 1
outright and tells nothing about verdicts.

The rules modelled:
- Reading starts at the first line holding "KTAP version N" (or "TAP
  version N"); whatever came before that text on that line (a printk
  timestamp) is cut from every later line.  Kernel messages that are not
  KTAP are skipped wherever they are.
- The top level is a version line and a plan "1..N", then N results.  A
  result is either a leaf ("ok 3 name", "not ok 3 name", "# SKIP" makes it
  skipped) or a suite: an optional nested version line, "# Subtest: name",
  a plan, its own results, then its own result line.  Indentation carries
  no meaning.
- A planned result that never comes is a crash.
- The run's status comes from counting the leaves (a suite's own result
  line counts only when it has no results of its own): any crash -> CRASHED,
  else any failure -> FAILURE, else any pass -> SUCCESS, else NO_TESTS or
  SKIPPED.  No KTAP at all is FAILURE_TO_PARSE_TESTS.  kunit.py reports
  success only for SUCCESS.
"""

import re

START_RE = re.compile(r"K?TAP version [0-9]+$")
RESULT_RE = re.compile(r"^\s*(ok|not ok) ([0-9]+) (- )?([^#]*)( # .*)?$")
HEADER_RE = re.compile(r"^\s*# Subtest: (.*)$")
PLAN_RE = re.compile(r"^\s*1\.\.([0-9]+)")
VERSION_RE = re.compile(r"^\s*K?TAP version [0-9]+$")

SUCCESS, FAILURE, SKIPPED, CRASHED = "SUCCESS", "FAILURE", "SKIPPED", "TEST_CRASHED"
NO_TESTS, FAILURE_TO_PARSE = "NO_TESTS", "FAILURE_TO_PARSE_TESTS"


def ktap_lines(log_lines):
    """The lines from the first version line on, with its prefix cut off."""
    out, cut = [], None
    for line in log_lines:
        line = line.rstrip("\r\n")
        if cut is None:
            m = START_RE.search(line)
            if not m:
                continue
            cut = m.start()
        out.append(line[cut:])
    return out


class Counts:
    def __init__(self):
        self.passed = self.failed = self.crashed = self.skipped = 0

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.crashed += other.crashed
        self.skipped += other.skipped

    def status(self):
        if self.crashed:
            return CRASHED
        if self.failed:
            return FAILURE
        if self.passed:
            return SUCCESS
        return SKIPPED if self.skipped else NO_TESTS


def _skip_noise(lines, i):
    while i < len(lines) and not (RESULT_RE.match(lines[i]) or HEADER_RE.match(lines[i])
                                  or VERSION_RE.match(lines[i])):
        i += 1
    return i


def _leaf_counts(m):
    c = Counts()
    if m.group(5) and m.group(5).strip().upper().startswith("# SKIP"):
        c.skipped = 1
    elif m.group(1) == "ok":
        c.passed = 1
    else:
        c.failed = 1
    return c


def _parse_results(lines, i, planned):
    """Parse @planned results from line @i; returns (counts, next line)."""
    total = Counts()
    for _ in range(planned):
        i = _skip_noise(lines, i)
        if i >= len(lines):
            total.crashed += 1              # a planned result that never came
            continue
        if VERSION_RE.match(lines[i]) or HEADER_RE.match(lines[i]):
            c, i = _parse_suite(lines, i)
        else:
            c = _leaf_counts(RESULT_RE.match(lines[i]))
            i += 1
        total.add(c)
    return total, i


def _parse_suite(lines, i):
    if VERSION_RE.match(lines[i]):
        i += 1
    i = _skip_noise(lines, i)
    if i < len(lines) and HEADER_RE.match(lines[i]):
        i += 1
    planned = 0
    while i < len(lines) and not PLAN_RE.match(lines[i]) and not RESULT_RE.match(lines[i]):
        i += 1
    if i < len(lines) and PLAN_RE.match(lines[i]):
        planned = int(PLAN_RE.match(lines[i]).group(1))
        i += 1
    counts, i = _parse_results(lines, i, planned)
    i = _skip_noise(lines, i)
    if i >= len(lines):
        counts.crashed += 1                 # no result line for the suite
        return counts, i
    m = RESULT_RE.match(lines[i])
    if m and counts.status() == NO_TESTS:
        counts = _leaf_counts(m)            # an empty suite is judged by its own line
    return counts, i + 1


def run_status(log_text):
    """The status kunit.py would give the run whose serial log is @log_text."""
    lines = ktap_lines(log_text.splitlines())
    if not lines:
        return FAILURE_TO_PARSE
    i = 1
    while i < len(lines) and not PLAN_RE.match(lines[i]):
        i += 1
    if i >= len(lines):
        return FAILURE_TO_PARSE
    planned = int(PLAN_RE.match(lines[i]).group(1))
    if planned == 0:
        return NO_TESTS
    counts, _ = _parse_results(lines, i + 1, planned)
    return counts.status()
