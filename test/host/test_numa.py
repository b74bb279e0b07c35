"""NUMA=<nodes>: validation, QEMU options, the unittests.cfg key and the CLI."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import _load

qemu = _load.qemu()
tr = _load.testrun()
P = qemu.Params


def resolve(**kw):
    kw.setdefault("kernel", "k.elf")
    return qemu.resolve(P(**kw), kvm_available=False, check_files=False)


def error(**kw):
    with unittest.TestCase().assertRaises(qemu.ParamError) as cm:
        resolve(**kw)
    return str(cm.exception)


def argv(**kw):
    return qemu.build_argv(resolve(**kw), "stdio", qemu="qemu-system-x86_64")


def pairs(a):
    return list(zip(a, a[1:]))


class NumaResolveTest(unittest.TestCase):
    def test_default_off(self):
        self.assertEqual(resolve().numa, 0)
        self.assertEqual(resolve(numa="").numa, 0)
        self.assertEqual(resolve(numa="0").numa, 0)
        self.assertNotIn("-numa", argv())

    def test_values(self):
        self.assertEqual(resolve(numa="2", smp=4, mem="512M").numa, 2)
        self.assertEqual(resolve(numa=1).numa, 1)
        self.assertEqual(resolve(numa="4", smp="8", mem="1G").numa, 4)

    def test_bad_values(self):
        for bad in ("x", "-1", "1.5", "17", "two"):
            msg = error(numa=bad, smp=4, mem="1G")
            self.assertIn("NUMA", msg, bad)
            self.assertIn("1 to 16", msg, bad)

    def test_cpus_must_split_evenly(self):
        msg = error(numa=2, smp=3, mem="512M")
        self.assertIn("SMP=3", msg)
        self.assertIn("multiple of 2", msg)
        self.assertIn("multiple of 2", error(numa=2, smp=1, mem="512M"))

    def test_memory_must_split_evenly(self):
        msg = error(numa=2, smp=2, mem="100M")      # 50M nodes: not a multiple of 8M
        self.assertIn("MEM=100M", msg)
        self.assertIn("8M", msg)
        self.assertIn("8M", error(numa=3, smp=3, mem="256M"))
        self.assertEqual(resolve(numa=2, smp=2, mem="1G").numa, 2)
        self.assertEqual(resolve(numa=2, smp=2, mem="32768K").numa, 2)


class NumaArgvTest(unittest.TestCase):
    def test_two_nodes(self):
        a = argv(numa=2, smp=4, mem="512M")
        self.assertIn(("-m", "512M"), pairs(a))
        self.assertIn(("-object", "memory-backend-ram,id=ram-node0,size=256M"), pairs(a))
        self.assertIn(("-object", "memory-backend-ram,id=ram-node1,size=256M"), pairs(a))
        self.assertIn(("-numa", "node,nodeid=0,cpus=0-1,memdev=ram-node0"), pairs(a))
        self.assertIn(("-numa", "node,nodeid=1,cpus=2-3,memdev=ram-node1"), pairs(a))
        # each backend comes before the node that uses it
        self.assertLess(a.index("memory-backend-ram,id=ram-node1,size=256M"),
                        a.index("node,nodeid=1,cpus=2-3,memdev=ram-node1"))

    def test_one_cpu_per_node_and_gigabytes(self):
        a = argv(numa=2, smp=2, mem="2G")
        self.assertIn(("-numa", "node,nodeid=0,cpus=0,memdev=ram-node0"), pairs(a))
        self.assertIn(("-numa", "node,nodeid=1,cpus=1,memdev=ram-node1"), pairs(a))
        self.assertIn(("-object", "memory-backend-ram,id=ram-node1,size=1024M"), pairs(a))

    def test_single_node(self):
        a = argv(numa=1, smp=2, mem="256M")
        self.assertEqual(a.count("-numa"), 1)
        self.assertIn(("-numa", "node,nodeid=0,cpus=0-1,memdev=ram-node0"), pairs(a))


class NumaCfgTest(unittest.TestCase):
    def parse(self, text):
        return tr.parse_cfg(textwrap.dedent(text), source="t.cfg")

    def test_key(self):
        [e] = self.parse("[n]\nsmp = 4\nmem = 512M\nnuma = 2\n")
        self.assertEqual(e.numa, 2)
        self.assertEqual(e.params(kernel="k").numa, 2)
        [e] = self.parse("[n]\n")
        self.assertEqual(e.numa, 0)

    def test_bad_key_names_the_entry(self):
        with self.assertRaises(tr.CfgError) as cm:
            self.parse("[n]\nsmp = 3\nnuma = 2\n")
        self.assertIn("t.cfg: [n]", str(cm.exception))
        self.assertIn("numa=2", str(cm.exception).lower().replace(" ", ""))

    def test_repo_table_has_a_numa_entry(self):
        entries = tr.load_cfg(tr.DEFAULT_CFG)
        numa = [e for e in entries if e.numa >= 2]
        self.assertTrue(numa)
        self.assertTrue(all("ktest.nodes=" in e.cmdline for e in numa))


class NumaCliTest(unittest.TestCase):
    def test_dry_run_and_errors(self):
        with tempfile.TemporaryDirectory() as d:
            kernel = os.path.join(d, "kernel.elf")
            open(kernel, "w").close()
            cmd = [sys.executable, qemu.__file__, "run", "--kernel", kernel]
            out = subprocess.run(cmd + ["--numa", "2", "--smp", "2", "--mem", "512M",
                                        "--dry-run"], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("-numa node,nodeid=1,cpus=1,memdev=ram-node1", out.stdout)
            bad = subprocess.run(cmd + ["--numa", "2", "--smp", "3"], capture_output=True,
                                 text=True)
            self.assertEqual(bad.returncode, 3)
            self.assertIn("NUMA=2", bad.stderr)


if __name__ == "__main__":
    unittest.main()
