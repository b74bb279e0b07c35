#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse and check irqlab's machine records from a serial log (DESIGN 8).

A record is one line `@irqlab <seq> <crc32> <json>`: seq counts from 0 at
each boot, crc32 is zlib's CRC-32 of the JSON text in 8 hex digits.  The
checks say exactly what a flaky serial line did: a CRC that does not match
(corrupted), JSON that does not parse, a sequence number seen twice, and
sequence numbers missing (lost).  The kernel keeps records apart from text
(a results ring), so an overflowing log only drops text, which it
announces with a `** N printk messages dropped **` line; a missing record
is a problem whether or not such a line excuses it.

Usage: records.py LOG...   prints the problems of each log; exit 1 if any,
                           2 if a log could not be read (the rest are checked).
Library: parse(lines) -> Records.
"""
import json
import re
import sys
import zlib

RECORD_RE = re.compile(r"@irqlab (\d+) ([0-9a-fA-F]{8}) (.*)$")
DROPPED_RE = re.compile(r"\*\* (\d+) printk messages dropped \*\*")


# The members (and their JSON types) that records of these types must have;
# a record of another type is only checked for being an object.
_INT, _STR = (int,), (str,)
FIELDS = {
    "lock_stat": {"class": _STR, "rw": _STR, "con": _INT, "acq": _INT, "cb": _INT,
                  "ab": _INT},
    "lock_stat_time": {"class": _STR, "rw": _STR, "what": _STR, "min": _INT,
                       "max": _INT, "total": _INT},
    "lock_stat_site": {"class": _STR, "kind": _STR, "n": _INT, "ip": _STR, "sym": _STR},
    "lock_stat_wait": {"class": _STR, "fastpath": _INT, "spin_acquired": _INT,
                       "slept": _INT, "sleeps": _INT},
    "lock_stat_run": {"clock": _STR, "tsc_khz": _INT, "classes": _INT, "printed": _INT,
                      "class_overflow": _INT, "depth_overflow": _INT},
    "perf_stat": {"what": _STR, "runs": _INT, "task_ns": _INT, "cs": _INT, "nvcsw": _INT,
                  "nivcsw": _INT, "migr": _INT, "elapsed_ns": _INT, "err_x100": _INT},
    "perf_stat_pmu": {"what": _STR, "src": _STR, "insns": _INT},
    "perf_stat_lock": {"what": _STR, "class": _STR, "blocked_ns": _INT, "con": _INT},
    "lock_stat_cost": {"clock": _STR, "pairs": _INT, "with": _INT, "without": _INT,
                       "per_pair_x100": _INT},
    "profile": {"what": _STR, "hz": _INT, "total": _INT, "dropped": _INT},
    "profile_sym": {"what": _STR, "sym": _STR, "n": _INT},
    "profile_stack": {"what": _STR, "stack": _STR, "n": _INT},
    "mem_used": {"cpus": _INT, "ram_kb": _INT, "used_kb": _INT, "memmap_kb": _INT,
                 "percpu_kb": _INT, "pgtable_kb": _INT, "slab_kb": _INT, "boot_ns": _INT},
    "slabbench_live": {"objects": _INT, "size": _INT, "peak_kb": _INT, "freed": _INT,
                       "left_pages": _INT, "failed": _INT},
}
_CHOICES = {("lock_stat", "rw"): ("w", "r"), ("lock_stat_time", "rw"): ("w", "r"),
            ("lock_stat_time", "what"): ("wait", "hold"),
            ("perf_stat_pmu", "src"): ("pmu", "icount"),
            ("lock_stat_site", "kind"): ("contention", "contending")}


def check_fields(obj):
    """Why a record of a type in FIELDS lacks what that type has, or None."""
    kind = obj.get("type")
    want = FIELDS.get(kind)
    if want is None:
        return None
    for key, types in want.items():
        if key not in obj:
            return f"{kind} record without \"{key}\""
        v = obj[key]
        if not isinstance(v, types) or isinstance(v, bool) or (types is _INT and v < 0):
            return f"{kind} record: \"{key}\" is {json.dumps(v)}"
        if v not in _CHOICES.get((kind, key), (v,)):
            return f"{kind} record: \"{key}\" is {json.dumps(v)}"
    return None


class Records:
    def __init__(self):
        self.items = []          # (seq, dict), in log order
        self.corrupt = []        # (line number, why)
        self.duplicates = []     # seqs seen more than once
        self.missing = []        # seqs never seen below the highest one
        self.dropped = 0         # messages the kernel said it dropped

    @property
    def problems(self):
        """Human-readable problems: every lost record is one, announced or not."""
        out = [f"line {n}: {why}" for n, why in self.corrupt]
        if self.duplicates:
            out.append("record seq seen twice: " + _ranges(self.duplicates))
        if self.missing:
            why = f" (the kernel dropped {self.dropped} line(s))" if self.dropped else ""
            out.append(f"{len(self.missing)} record(s) missing: seq " +
                       _ranges(self.missing) + why)
        return out

    def of_type(self, kind):
        return [r for _, r in self.items if r.get("type") == kind]


def _ranges(nums, limit=8):
    nums = sorted(set(nums))
    spans, start = [], None
    for i, n in enumerate(nums):
        if start is None:
            start = n
        if i + 1 == len(nums) or nums[i + 1] != n + 1:
            spans.append(f"{start}" if start == n else f"{start}-{n}")
            start = None
    more = f" (+{len(spans) - limit} more)" if len(spans) > limit else ""
    return ", ".join(spans[:limit]) + more


def parse(lines):
    """Check every record line of one boot's log (a list of text lines)."""
    r = Records()
    seen = set()
    for n, line in enumerate(lines, 1):
        d = DROPPED_RE.search(line)
        if d:
            r.dropped += int(d.group(1))
            continue
        m = RECORD_RE.search(line)
        if not m:
            continue
        seq, crc, text = int(m.group(1)), int(m.group(2), 16), m.group(3).rstrip()
        if zlib.crc32(text.encode("utf-8", "surrogateescape")) != crc:
            r.corrupt.append((n, f"record {seq}: CRC {crc:08x} does not match its JSON"))
            continue
        try:
            obj = json.loads(text)
        except ValueError as e:
            r.corrupt.append((n, f"record {seq}: not JSON ({e})"))
            continue
        if not isinstance(obj, dict):
            r.corrupt.append((n, f"record {seq}: not a JSON object"))
            continue
        if seq in seen:
            r.duplicates.append(seq)
        seen.add(seq)
        why = check_fields(obj)
        if why:
            r.corrupt.append((n, f"record {seq}: {why}"))
            continue
        r.items.append((seq, obj))
    if seen:
        r.missing = [s for s in range(max(seen) + 1) if s not in seen]
    return r


def read_log(path, err):
    """A serial log's lines, or None after naming the problem on @err."""
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace").splitlines()
    except OSError as e:
        print(f"{path}: {e.strerror or e}", file=err)
        return None


def main(argv):
    bad = unreadable = 0
    for path in argv[1:]:
        try:
            with open(path, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
        except OSError as e:
            print(f"{path}: {e.strerror}", file=sys.stderr)
            unreadable += 1
            continue
        recs = parse(lines)
        for p in recs.problems:
            print(f"{path}: {p}")
        bad += bool(recs.problems)
        print(f"{path}: {len(recs.items)} records, {len(recs.corrupt)} corrupt, "
              f"{len(recs.missing)} missing, {recs.dropped} dropped by the kernel")
    if unreadable:
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
