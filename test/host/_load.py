"""Load the host-side modules under test by path (test/run has no .py suffix)."""

import importlib.machinery
import importlib.util
import os
import sys

sys.dont_write_bytecode = True

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QEMU_PY = os.path.join(ROOT, "scripts", "qemu.py")
TEST_RUN = os.path.join(ROOT, "test", "run")


def _load(name, path):
    if name in sys.modules:
        return sys.modules[name]
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    loader.exec_module(mod)
    return mod


def qemu():
    return _load("irqlab_qemu", QEMU_PY)


def testrun():
    qemu()                      # test/run reuses the same module object
    return _load("irqlab_testrun", TEST_RUN)
