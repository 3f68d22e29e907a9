"""glibc malloc tuning for NumPy's mid-sized temporaries.

A simulated step allocates and frees the same few NumPy arrays over and over (a 256x256 float32
temporary is 256 KiB). glibc serves blocks over its mmap threshold (128 KiB at start, then moved
by a dynamic rule) with mmap, and gives freed memory at the top of the heap back to the system
past its trim threshold; each fresh page of the next allocation then costs a page fault. Which
of the two happens depends on the order of earlier frees, so the same program ran a PS job's
closures at 140 µs or 250 µs each, by incidental heap layout alone (docs/benchmarks.md).

Fixing both thresholds ends that: blocks under 32 MiB (glibc's own ceiling for its dynamic
threshold) come from the heap, and up to 64 MiB of freed memory stays in the process for reuse.
`SIMDIST_MALLOPT=0` in the environment opts out. Other platforms are left alone.
"""

from __future__ import annotations

import ctypes
import os
import platform

M_TRIM_THRESHOLD = -1    # <malloc.h>
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20

_applied: dict[str, int] = {}


def _libc() -> ctypes.CDLL | None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")   # glibc's soname (find_library would spawn ldconfig)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") else None


def tune() -> dict[str, int]:
    """Set glibc's mmap and trim thresholds once per process (see the module docstring);
    returns what was set, empty when opted out or not on glibc."""
    if _applied or os.environ.get("SIMDIST_MALLOPT", "1") == "0":
        return dict(_applied)
    libc = _libc()
    if libc is None:
        return {}
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    for name, param, value in (("M_MMAP_THRESHOLD", M_MMAP_THRESHOLD, MMAP_THRESHOLD),
                               ("M_TRIM_THRESHOLD", M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
        if libc.mallopt(param, value) == 1:    # mallopt returns 1 on success
            _applied[name] = value
    return dict(_applied)


def applied() -> dict[str, int]:
    """The thresholds this process set: {"M_MMAP_THRESHOLD": bytes, "M_TRIM_THRESHOLD": bytes}."""
    return dict(_applied)
