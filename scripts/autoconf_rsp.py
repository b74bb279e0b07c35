#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn kconfig's autoconf.h into a GCC response file of -D options.

Usage: autoconf_rsp.py AUTOCONF_H OUT_RSP

The kernel is compiled with @OUT_RSP instead of -include AUTOCONF_H.  The
macros are the same, but the preprocessed text no longer carries a line
marker naming build/<config>/include/generated/autoconf.h: a source file
whose preprocessed text is the same in two configurations is then the
same input to ccache, and the second configuration reuses the object.

Every character of a value other than [A-Za-z0-9_] is backslash-escaped,
which GCC (libiberty's buildargv) and ccache read back literally, so
strings with blanks, quotes or backslashes survive.  A line that is
neither a comment nor "#define NAME VALUE" is an error: silently dropping
a symbol would change the build.
"""
import os
import re
import sys

DEFINE = re.compile(r"#define ([A-Za-z_][A-Za-z0-9_]*) (.+)$")
# kconfig writes one block comment at the top; nothing else.
COMMENT = re.compile(r"(/\*.*|\s*\*.*|\s*)$")


def escape(value):
    return re.sub(r"[^A-Za-z0-9_]", lambda m: "\\" + m.group(0), value)


def convert(text, source="autoconf.h"):
    """Return the response file's text for autoconf.h's text; ValueError on bad input."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = DEFINE.match(line)
        if m:
            out.append("-D%s=%s\n" % (m.group(1), escape(m.group(2))))
        elif not COMMENT.match(line):
            raise ValueError("%s:%d: not a kconfig #define: %r" % (source, n, line))
    return "".join(out)


def main(argv):
    if len(argv) != 3:
        print("usage: autoconf_rsp.py AUTOCONF_H OUT_RSP", file=sys.stderr)
        return 2
    src, dst = argv[1:]
    try:
        with open(src) as f:
            text = convert(f.read(), src)
    except (OSError, ValueError) as e:
        print("autoconf_rsp.py: %s" % e, file=sys.stderr)
        return 1
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
