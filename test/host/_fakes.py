"""Fake QEMU and fake make for exercising qemu.py and test/run without booting."""

import os
import stat
import sys
import textwrap

FAKE_QEMU = textwrap.dedent(r'''
    #!PYTHON
    """Fake qemu-system-x86_64: behaves as the kernel would for the command line's
    `fake=<mode>` or `ktest.selftest=<mode>` (an ISO here is a text file holding it)."""
    import os, re, sys, time
    args = sys.argv[1:]
    def opt(name):
        return args[args.index(name) + 1] if name in args else None
    if os.environ.get("FAKE_QEMU_ARGV"):
        with open(os.environ["FAKE_QEMU_ARGV"], "w") as f:
            f.write("\n".join(args) + "\n")
    cmdline = opt("-append") or ""
    if opt("-cdrom"):
        cmdline = open(opt("-cdrom")).read()
    m = re.search(r"(?:fake|selftest)=(\w+)", cmdline)
    mode = m.group(1) if m else "ok"
    serial = opt("-serial")
    out = open(serial[5:], "w") if serial.startswith("file:") else sys.stdout
    def w(s):
        out.write(s)
        out.flush()
    START = "irqlab: start 0.1 deadbeef\n"
    KTAP_OK = ("KTAP version 1\n1..2\n    KTAP version 1\n    # Subtest: memblock\n"
               "    1..2\n    ok 1 reserve_free\n    ok 2 big # SKIP no 4G\nok 1 memblock\n"
               "    KTAP version 1\n    # Subtest: slub\n    1..1\n    ok 1 alloc_free\n"
               "ok 2 slub\n")
    if mode == "qemuerr":
        sys.stderr.write("qemu-system-x86_64: -machine bogus: unsupported machine type\n")
        sys.exit(1)
    if mode != "nostart":
        w("\x1b[2J\x1b[01;01HSeaBIOS noise\r\n" + START)
    if mode == "ok":
        w(KTAP_OK + "irqlab: end status=ok\n"); sys.exit(1)
    if mode in ("goodrec", "badrec"):
        import zlib
        recs = ['{"type":"x","n":0}', '{"type":"x","n":1}']
        crcs = [zlib.crc32(r.encode()) for r in recs]
        if mode == "badrec":
            crcs[1] ^= 1
        for i, (r, c) in enumerate(zip(recs, crcs)):
            w("[    0.5] @irqlab %d %08x %s\n" % (i, c, r))
        w(KTAP_OK + "irqlab: end status=ok\n"); sys.exit(1)
    if mode == "hbrec":
        # hackbench in 100 ms, or 130 ms for a kernel built from a "slow" config
        import zlib
        ns = 130000000 if "slow" in (opt("-kernel") or "") else 100000000
        r = ('{"type":"hackbench","groups":1,"fds":2,"loops":1,"size":100,'
             '"time_ns":%d,"ctxsw":1,"migrations":0}' % ns)
        w("[    0.5] @irqlab 0 %08x %s\n" % (zlib.crc32(r.encode()), r))
        w(KTAP_OK + "irqlab: end status=ok\n"); sys.exit(1)
    if mode == "fail":
        w("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: slub\n    1..2\n"
          "    ok 1 a\n    not ok 2 b\nnot ok 1 slub\nirqlab: end status=fail\n")
        sys.exit(3)
    if mode in ("panic", "nostart"):
        w("Kernel panic - not syncing: fake\n"); sys.exit(7)
    if mode == "hang":
        w("KTAP version 1\n1..1\n"); time.sleep(600); sys.exit(1)
    if mode == "noktap":
        w("irqlab: end status=ok\n"); sys.exit(1)
    if mode == "triple":
        sys.exit(0)
    if mode == "trunc":
        w(KTAP_OK[:KTAP_OK.index("ok 2 slub")] + "irqlab: end status=ok\n"); sys.exit(1)
    if mode == "garbage":
        out.close()
        with open(serial[5:], "ab") as f:
            f.write(bytes(range(256)) + b"\xff\xfe KTAP version 1\n1..3\nok 1 x\n\x00\x00ok 2")
        sys.exit(1)
    sys.exit(2)
''').lstrip()

FAKE_KVM_QEMU = textwrap.dedent(r'''
    #!PYTHON
    """Fake qemu-system-x86_64 for the KVM probe: under -accel tcg it boots a passing
    irqlab; under -accel kvm it does what $FAKE_KVM says, for the probe guest (a -kernel
    named probe.elf) and for a real boot alike unless $FAKE_KVM_RUN says otherwise there:
      ok        the guest passes (status 1)
      internal  "KVM internal error. Suberror: 1 ... emulation failure" on stderr, then
                it stays alive with the VM stopped, as QEMU does
      hang      nothing at all, forever
      denied    QEMU's error for a /dev/kvm it cannot use, status 1
    Every call except -version is appended to $FAKE_QEMU_CALLS; -version prints
    $FAKE_QEMU_VERSION."""
    import os, sys, time
    args = sys.argv[1:]
    parent = os.getppid()
    def stay():
        # "forever", but not past whoever started it (a test that failed half-way)
        while os.getppid() == parent:
            time.sleep(0.2)
        sys.exit(9)
    if args == ["-version"]:
        print("QEMU emulator version " + os.environ.get("FAKE_QEMU_VERSION", "7.2.0"))
        sys.exit(0)
    def opt(name):
        return args[args.index(name) + 1] if name in args else ""
    probe = os.path.basename(opt("-kernel")) == "probe.elf"
    if os.environ.get("FAKE_QEMU_CALLS"):
        with open(os.environ["FAKE_QEMU_CALLS"], "a") as f:
            f.write(("probe " if probe else "run ") + opt("-accel") + "\n")
    mode = "ok"
    if opt("-accel") == "kvm":
        mode = os.environ.get("FAKE_KVM", "ok")
        if not probe:
            mode = os.environ.get("FAKE_KVM_RUN", mode)
    serial = opt("-serial") if "-serial" in args else ""
    for i, a in enumerate(args):
        if a == "-serial" and args[i + 1] != "none":
            serial = args[i + 1]
    out = open(serial[5:], "w") if serial.startswith("file:") else sys.stdout
    if mode == "internal":
        out.write("irqlab: start 0.1 deadbeef\n")
        out.flush()
        sys.stderr.write("KVM internal error. Suberror: 1\nextra data[0]: 0x0000000000000000\n"
                         "emulation failure\nRAX=0000000000000000 RBX=0000000000000000\n")
        sys.stderr.flush()
        stay()
    if mode == "hang":
        stay()
    if mode == "denied":
        sys.stderr.write("Could not access KVM kernel module: Permission denied\n"
                         "qemu-system-x86_64: failed to initialize kvm: Permission denied\n")
        sys.exit(1)
    if not probe:
        out.write("irqlab: start 0.1 deadbeef\nKTAP version 1\n1..1\nok 1 x\n"
                  "irqlab: end status=ok\n")
        out.flush()
    sys.exit(1)
''').lstrip()

FAKE_MAKE = textwrap.dedent(r'''
    #!PYTHON
    """Fake make: `-s build CONFIG=c` (kernel.elf, and .config copied from the defconfig)
    and `-s iso CONFIG=c CMDLINE=... ISO=path`."""
    import os, sys
    args = [a for a in sys.argv[1:] if a != "-s" and not a.startswith("-j")]
    target, var = args[0], dict(a.split("=", 1) for a in args[1:])
    with open("make-calls.log", "a") as f:
        f.write(" ".join(sys.argv[1:]) + "\n")
    if var.get("CONFIG") == "broken":
        print("kernel/foo.c:1: error: fake build failure"); sys.exit(2)
    os.makedirs(f"build/{var['CONFIG']}", exist_ok=True)
    if target == "build":
        open(f"build/{var['CONFIG']}/kernel.elf", "w").write("ELF")
        # the resolved configuration: here the defconfig as it is
        with open(f"configs/{var['CONFIG']}_defconfig") as src, \
                open(f"build/{var['CONFIG']}/.config", "w") as dst:
            dst.write(src.read())
    elif target == "iso":
        open(var["ISO"], "w").write(var["CMDLINE"])
    else:
        sys.exit(2)
''').lstrip()


def write_script(path, text):
    with open(path, "w") as f:
        f.write(text.replace("PYTHON", sys.executable, 1))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def scratch_tree(d, root):
    """A tree in @d that tools/irqlab can run in: the tool, the scripts it
    loads (qemu.py, records.py) copied from @root, an empty `default`
    defconfig."""
    import shutil
    for sub in ("scripts", "tools", "configs"):
        os.mkdir(os.path.join(d, sub))
    for f in ("qemu.py", "records.py"):
        shutil.copy(os.path.join(root, "scripts", f), os.path.join(d, "scripts", f))
    shutil.copy(os.path.join(root, "tools", "irqlab"), os.path.join(d, "tools"))
    open(os.path.join(d, "configs", "default_defconfig"), "w").close()
