"""A model of how LAVA reads a serial console for a job with a `monitors:` test action,
to check tools/lava/irqlab-job.yaml against captured irqlab serial logs.

What it reproduces (lava_dispatcher: shell.py ShellCommand, actions/boot AutoLoginAction,
actions/test/monitor.py TestMonitorAction), on one pexpect stream for the whole job:
- the stream is pexpect with encoding utf-8, codec_errors "replace", no search window
  (the whole buffer is searched) and reads of at most `maxread` (LAVA: 2000) characters;
  patterns are strings, which pexpect compiles with re.DOTALL (so `.` crosses lines and
  `^` is the start of what is left in the buffer, not of a line);
- a boot action with `prompts` waits for one of them (auto-login), consuming it;
- then each monitor in turn: expect its `start`; then, until `end`, expect the list
  [EOF, TIMEOUT, end, pattern]: pexpect picks the match that starts earliest in the
  buffer, and on a tie the earlier entry of the list (so `end` beats `pattern`); every
  match consumes the buffer up to its end, for the monitors after it too;
- a `pattern` match is a result when its groupdict has `result`: fixupdict maps it, and
  it must then be pass, fail, skip or unknown (else LAVA logs an error and drops it);
  `test_case_id` is stripped, lower-cased and each run of non-word characters becomes
  "_"; `measurement` and `units` are copied when the pattern has those groups. Without
  `result`, a match with both test_case_id and measurement is a pass with that figure.
A log file ends where a real console would just go quiet: EOF here stands for LAVA's
timeout (the job ends incomplete), and is reported as an error either way.
"""

import dataclasses
import os
import re

try:
    import pexpect
    import pexpect.fdpexpect
except ImportError:             # scripts/deps.sh installs python3-pexpect
    pexpect = None

LAVA_MAXREAD = 2000
VALID_RESULTS = ("pass", "fail", "skip", "unknown")


@dataclasses.dataclass
class Outcome:
    results: list = dataclasses.field(default_factory=list)    # dicts, in log order
    errors: list = dataclasses.field(default_factory=list)     # what LAVA would log as errors

    def by_case(self, definition):
        return {r["case"]: r["result"] for r in self.results if r["definition"] == definition}


def load_job(path, values=None):
    """The job template with its {{ name }} fields filled in (LAVA gets a rendered job)."""
    import yaml
    with open(path, encoding="utf-8") as f:
        text = f.read()
    values = values or {}
    text = re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: values.get(m.group(1), f"x-{m.group(1)}"),
                  text)
    return yaml.safe_load(text)


def _actions(job, kind):
    return [a[kind] for a in job.get("actions", []) if kind in a]


def _suite_name(name):
    return name.replace(" ", "-").lower()


def _case_id(text):
    return re.sub(r"\W+", "_", text.strip().lower())


def run(job, log_path, maxread=LAVA_MAXREAD):
    """Feed the serial log `log_path` to the job's boot prompts and monitors, as LAVA would."""
    out = Outcome()
    fd = os.open(log_path, os.O_RDONLY)
    try:
        child = pexpect.fdpexpect.fdspawn(fd, encoding="utf-8", codec_errors="replace",
                                          maxread=maxread, searchwindowsize=None, timeout=60)
        for boot in _actions(job, "boot"):
            prompts = boot.get("prompts")
            if prompts:
                try:
                    child.expect(list(prompts))
                except (pexpect.EOF, pexpect.TIMEOUT):
                    out.errors.append(f"boot: no prompt {prompts!r}")
                    return out
        for test in _actions(job, "test"):
            for mon in test.get("monitors", []):
                if not _monitor(child, mon, out):
                    return out
    finally:
        try:
            os.close(fd)
        except OSError:
            pass
    return out


def _monitor(child, mon, out):
    """One monitor; False when the stream ran out (nothing after it can match either)."""
    name = _suite_name(mon["name"])
    fixup = mon.get("fixupdict") or {}
    try:
        child.expect(mon["start"])
    except (pexpect.EOF, pexpect.TIMEOUT):
        out.errors.append(f"{name}: start string {mon['start']!r} not found")
        return False
    while True:
        i = child.expect([pexpect.EOF, pexpect.TIMEOUT, mon["end"], mon["pattern"]])
        if i in (0, 1):
            out.errors.append(f"{name}: end string {mon['end']!r} not found")
            return False
        if i == 2:
            return True
        m = child.match.groupdict()
        if "result" in m:
            result = m["result"]
            if result in fixup:
                result = fixup[result]
            if result not in VALID_RESULTS:
                out.errors.append(f"{name}: bad test result {m['result']!r}")
                continue
            if "test_case_id" not in m:
                continue
            r = {"definition": name, "case": _case_id(m["test_case_id"] or ""),
                 "result": result}
        elif m.get("test_case_id") and m.get("measurement"):
            r = {"definition": name, "case": _case_id(m["test_case_id"]), "result": "pass",
                 "measurement": float(m["measurement"])}
        else:
            continue
        for k in ("measurement", "units"):
            if k in m and k not in r:
                r[k] = m[k]
        out.results.append(r)
