#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write compile_commands.json for the objects of one build directory.

Usage: gen_compile_commands.py OUT SRCTREE "CC CFLAGS" GENERAL_REGS AFLAGS O "FPU_OBJS" OBJ...
"""
import json
import os
import sys


def main(argv):
    out, srctree, cflags, general_regs, aflags, obj_dir, fpu_objs = argv[1:8]
    fpu = set(fpu_objs.split())
    entries = []
    for obj in argv[8:]:
        stem = obj[:-2]
        for ext, extra in ((".c", "" if obj in fpu else general_regs), (".S", None)):
            src = stem + ext
            if not os.path.exists(os.path.join(srctree, src)):
                continue
            if extra is None:
                cmd = "%s %s" % (cflags.split(" -std=")[0], aflags)
            else:
                cmd = "%s %s" % (cflags, extra)
            entries.append({"directory": srctree, "file": src,
                            "command": "%s -c %s -o %s/%s" % (cmd, src, obj_dir, obj)})
    with open(out, "w") as f:
        json.dump(entries, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
