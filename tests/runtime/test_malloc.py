"""simdist.runtime.malloc: glibc keeps mid-sized NumPy temporaries on its heap once simdist is
imported, and SIMDIST_MALLOPT=0 leaves the allocator alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from simdist.runtime import malloc

pytestmark = pytest.mark.skipif(malloc._libc() is None, reason="glibc only")

# In a fresh process: how many bytes glibc holds in mmapped blocks while a 1 MiB array is alive.
_PROBE = r"""
import ctypes, json, os
class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
import numpy as np
import simdist
from simdist.runtime import malloc
before = libc.mallinfo2().hblkhd
a = np.ones(1 << 18, dtype=np.float32)          # 1 MiB: over glibc's initial 128 KiB threshold
print(json.dumps({"mmapped": libc.mallinfo2().hblkhd - before, "applied": malloc.applied()}))
"""


def _probe(**env: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         env=dict(os.environ, **env), timeout=120)
    assert out.returncode == 0, f"probe exited {out.returncode}: {out.stderr[-2000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_keeps_mid_sized_arrays_on_the_heap() -> None:
    got = _probe(SIMDIST_MALLOPT="1")
    assert got["applied"] == {"M_MMAP_THRESHOLD": 32 << 20, "M_TRIM_THRESHOLD": 64 << 20}, \
        f"applied={got['applied']}, but should be both thresholds [import simdist]"
    assert got["mmapped"] < 1 << 20, \
        f"a 1 MiB array added {got['mmapped']} mmapped bytes, but should come from the heap [M_MMAP_THRESHOLD]"


def test_opt_out_leaves_glibc_defaults() -> None:
    got = _probe(SIMDIST_MALLOPT="0")
    assert got["applied"] == {}, f"applied={got['applied']}, but should be {{}} [SIMDIST_MALLOPT=0]"
    assert got["mmapped"] >= 1 << 20, \
        f"a 1 MiB array added {got['mmapped']} mmapped bytes, but glibc's default mmaps it [SIMDIST_MALLOPT=0]"
