"""simdist's build: the metadata is in pyproject.toml; this file only adds the compiled modules.

The simulator's hot modules (`COMPILED`, the list in simdist/sim/_native.py) are compiled with
mypyc when mypy is installed at build time (pyproject's [build-system] requires it) and a C
compiler works: native extension modules beside the .py sources, which stay the source of
truth (pure Python gives identical results, more slowly). Any failure (no mypy, no compiler,
SIMDIST_BUILD_PURE=1) installs pure Python instead, with a message. A successful build writes
simdist/sim/_native.json (each source's SHA-256), by which simdist.sim sets aside a build that
is out of date with edited sources (see simdist/sim/_native.py).

Beside them, two plain C extensions: simdist/runtime/ops/_fma.c, the in-order float32 fused-multiply-add
products of the oneDNN models, and _fma_rows.c, the segmented sums of oneDNN's backward-weights kernel
(simdist/runtime/ops/fma_native.py loads both). Each needs only a C compiler, is built with or without
mypyc, and carries its source's SHA-256 (a macro), by which fma_native.py sets aside a build out of date
with its source. If one does not compile, the pure-Python (NumPy) kernels are used (identical bits).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.join("simdist", "sim")
COMPILED = ("clock", "sharing", "flows", "batches", "pools", "network", "chunked", "metrics", "kernels", "trace")   # = simdist/sim/_native.py's COMPILED
MANIFEST = "_native.json"
FMA_NAME = "simdist.runtime.ops._fma"
FMA_SOURCE = "simdist/runtime/ops/_fma.c"   # (setuptools takes sources relative to the project, with /)
ROWS_NAME = "simdist.runtime.ops._fma_rows"   # (conv60: the segmented sums of oneDNN's backward-weights kernel)
ROWS_SOURCE = "simdist/runtime/ops/_fma_rows.c"
PLAIN_C = {FMA_NAME: FMA_SOURCE, ROWS_NAME: ROWS_SOURCE}   # (the plain C extensions: each fails on its own)


def _say(msg: str) -> None:
    print(f"simdist build: {msg}", file=sys.stderr, flush=True)


def _compiled_extensions() -> list:
    if os.environ.get("SIMDIST_BUILD_PURE", "") not in ("", "0"):
        _say("SIMDIST_BUILD_PURE is set: pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypy (mypyc) is not installed: pure Python")
        return []
    cwd = os.getcwd()
    os.chdir(HERE)   # (mypycify takes paths relative to the project, as the modules' names derive from them)
    try:
        # (the build environment has mypy only: simpy, numpy, ... are typed Any, as they are read)
        return mypycify(["--ignore-missing-imports", "--follow-imports=silent"]
                        + [os.path.join(PACKAGE_DIR, f"{m}.py") for m in COMPILED],
                        opt_level="3", group_name="simdist_sim")
    except (Exception, SystemExit) as e:   # (mypy's type errors exit via SystemExit; Ctrl-C still stops the build)
        _say(f"mypyc could not compile the simulator ({type(e).__name__}: {e}): pure Python")
        return []
    finally:
        os.chdir(cwd)


def _fma_extensions() -> list:
    if os.environ.get("SIMDIST_BUILD_PURE", "") not in ("", "0"):
        return []
    out = []
    for name, source in PLAIN_C.items():
        with open(os.path.join(HERE, source), "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        out.append(Extension(name, [source], define_macros=[("SIMDIST_FMA_SHA256", f'"{digest}"')]))
    return out


class BuildExt(build_ext):
    """build_ext that installs pure Python when compiling fails (e.g. no C compiler), and records
    the compiled sources' SHA-256 beside a successful build. The _fma extension fails on its own
    (the kernels stay pure); the mypyc group all together."""

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:   # (distutils' CompileError/LinkError, a missing compiler, ...)
            _say(f"compiling the simulator failed ({type(e).__name__}: {e}): pure Python")
            self._remove_outputs()
            self.extensions = [ext for ext in self.extensions if ext.name in PLAIN_C]
            return
        if any(ext.name not in PLAIN_C for ext in self.extensions):
            self._write_manifest()

    def build_extension(self, ext: Extension) -> None:
        if ext.name not in PLAIN_C:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except Exception as e:   # (CompileError, LinkError, no compiler, ...)
            _say(f"compiling {PLAIN_C[ext.name]} failed ({type(e).__name__}: {e}): the pure-Python kernels")
            for base in (self.build_lib, HERE if self.inplace else None):
                p = base and os.path.join(base, self.get_ext_filename(ext.name))
                if p and os.path.exists(p):
                    os.remove(p)
            self._plain_failed = getattr(self, "_plain_failed", set()) | {ext.name}

    def get_outputs(self) -> list[str]:
        out = super().get_outputs()
        for name in sorted(getattr(self, "_plain_failed", set())):
            out = [p for p in out if not p.endswith(self.get_ext_filename(name))]
        if any(ext.name not in PLAIN_C for ext in self.extensions):
            out.append(os.path.join(self.build_lib, PACKAGE_DIR, MANIFEST))
        return out

    def _package_dirs(self) -> list[str]:
        dirs = [os.path.join(self.build_lib, PACKAGE_DIR)]
        if self.inplace or getattr(self, "editable_mode", False):
            dirs.append(os.path.join(HERE, PACKAGE_DIR))
        return dirs

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            if ext.name in PLAIN_C:
                continue
            for base in (self.build_lib, HERE if self.inplace else None):
                if base is None:
                    continue
                p = os.path.join(base, self.get_ext_filename(ext.name))
                if os.path.exists(p):
                    os.remove(p)

    def _write_manifest(self) -> None:
        digests = {}
        for m in COMPILED:
            with open(os.path.join(HERE, PACKAGE_DIR, f"{m}.py"), "rb") as fh:
                digests[m] = hashlib.sha256(fh.read()).hexdigest()
        for d in self._package_dirs():
            if os.path.isdir(d):
                with open(os.path.join(d, MANIFEST), "w", encoding="utf-8") as fh:
                    json.dump(digests, fh, indent=1, sort_keys=True)
                    fh.write("\n")



setup(ext_modules=_fma_extensions() + _compiled_extensions(), cmdclass={"build_ext": BuildExt})
