"""simdist.runtime.threads: `import simdist` leaves NumPy's BLAS one thread, whether or not NumPy
was imported first, and SIMDIST_BLAS_THREADS sets another count (0: the library's default)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from simdist.runtime import threads

# In a fresh process: the threads each BLAS library loaded in the process reports after the imports.
_PROBE = r"""
import json, sys
{imports}
from threadpoolctl import threadpool_info
print(json.dumps({{i["internal_api"]: i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}}))
"""


def _blas_threads(imports: str, **env: str) -> dict[str, int]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SIMDIST_BLAS_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", _PROBE.format(imports=imports)], capture_output=True,
                         text=True, env=dict(clean, **env), timeout=120)
    assert out.returncode == 0, f"probe exited {out.returncode}: {out.stderr[-2000:]}"
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got, f"no BLAS library reported after {imports!r}: threadpoolctl found none"
    return got


@pytest.mark.parametrize("imports", ["import numpy; import simdist", "import simdist",
                                     "import numpy; from simdist import tf"])
def test_import_limits_blas_to_one_thread(imports: str) -> None:
    got = _blas_threads(imports)
    assert set(got.values()) == {1}, f"BLAS threads after {imports!r}: {got}, but should be 1 each"


def test_setting_raises_the_limit() -> None:
    got = _blas_threads("import numpy; import simdist", SIMDIST_BLAS_THREADS="3")
    assert set(got.values()) == {3}, f"BLAS threads with SIMDIST_BLAS_THREADS=3: {got}, but should be 3 each"


def test_zero_leaves_the_library_default() -> None:
    default = _blas_threads("import numpy", OPENBLAS_NUM_THREADS="2")
    if "openblas" not in default:
        pytest.skip(f"NumPy's BLAS here is {default}, not OpenBLAS")
    got = _blas_threads("import numpy; import simdist", SIMDIST_BLAS_THREADS="0", OPENBLAS_NUM_THREADS="2")
    assert got == default == {"openblas": 2}, \
        f"SIMDIST_BLAS_THREADS=0 gave {got}, but should leave OpenBLAS its own {default} (OPENBLAS_NUM_THREADS=2)"


def test_bad_setting_is_refused_with_the_rule() -> None:
    out = subprocess.run([sys.executable, "-c", "import simdist"], capture_output=True, text=True,
                         env=dict(os.environ, SIMDIST_BLAS_THREADS="many"), timeout=120)
    assert out.returncode != 0 and "SIMDIST_BLAS_THREADS='many'" in out.stderr \
        and ">= 1" in out.stderr, f"exit {out.returncode}, stderr tail: {out.stderr[-500:]}"


def _pools() -> list[tuple[str, int]]:
    """(library file, threads) of every native pool loaded in this process."""
    return sorted((i["filepath"], i["num_threads"]) for i in threadpool_info())


def test_limit_in_process_sets_and_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _pools()
    monkeypatch.setattr(threads, "_applied", dict(threads.applied()))   # (limit() rewrites it)
    # threadpoolctl's limiter gives each pool back its own count on exit. (Restoring "the most any
    # pool had" once set NumPy's BLAS to 2 threads for the rest of a test worker, whenever SciPy's
    # own OpenBLAS, loaded after `import simdist` with 2, was there: matmuls then summed in another
    # order and tests/keras/test_mlp_training_tf.py, run later in that worker, missed TF's weights.)
    with threadpool_limits(limits=None):
        assert set(threads.limit(2).values()) == {2}, f"limit(2) reported {threads.applied()}"
        with pytest.raises(ValueError, match="int >= 1"):
            threads.limit(0)
    after = _pools()
    assert after == before, f"native pools after the test {after}, but before it {before}"
