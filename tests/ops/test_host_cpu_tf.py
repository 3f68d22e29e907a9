"""simdist's model of the machine it runs on against real TF 2.21 on the same machine (clause
ops.host-cpu): with `SIMDIST_HOST_CPU=host` simdist runs the kernels TF picks on this CPU
(oneDNN's float16 kernels only where TF's `IsDataTypeSupportedByOneDNNOnThisCPU` accepts float16)
and this CPU's vrcpps/vrsqrtps tables (Intel's or AMD's). Every case is bit for bit (any NaN
matches any NaN) or the same error class.

Live only: TF's answers here are this machine's, so they are never kept as a golden (the goldens
are the reference host's, tests/tf_workers.py). Without TF the module is skipped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers
from simdist.runtime import host_cpu

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs TensorFlow (the `tf` extra): "
                                                 "this module compares with TF on this machine, live")]
clause = pytest.mark.clause
HOST = "ops.host-cpu"
_N = 4099   # 512 packets of 8 float32 and a tail of 3


def _values(seed: int, positive: bool = False) -> np.ndarray:
    """float32 across magnitudes (|x| log-uniform in [1e-30, 1e30]) and near 1, either sign."""
    rng = np.random.default_rng(seed)
    mags = portable_inputs.exp(rng.uniform(float(portable_inputs.log(1e-30)), float(portable_inputs.log(1e30)), _N // 2))
    near = rng.uniform(0.5, 4.0, _N - _N // 2)
    v = np.concatenate([mags, near])
    if not positive:
        v *= rng.choice([-1.0, 1.0], _N)
    return v.astype(np.float32)


def _rows(seed: int, n: int, dt: str, nonfinite: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((12, n)) * 6).astype(np.float32)
    if nonfinite and n > 2:
        x[0, 1], x[1, 0], x[3, 1] = np.nan, np.inf, -np.inf
        x[2, :] = -np.inf
    return x.astype(dt)


def _c(tf: Any, a: Any, dt: str | None = None) -> Any:
    return tf.constant(np.asarray(a, dt) if dt else a)


# float32 Softmax's finite values agree within the last bits (oneDNN's exp and sum orders are not
# modelled: clause nn.softmax-nonfinite); its NaN/0 pattern, and everything float16, bit for bit
_FINITE_ROWS = {"float32": edge_compare.within(1e-6)}

CASES = [
    # -- the estimate instructions: float32 Reciprocal, Rsqrt and Atan2 on packets (and a scalar tail)
    ("reciprocal-f32", HOST, lambda tf: tf.math.reciprocal(_c(tf, _values(1)))),
    ("rsqrt-f32", HOST, lambda tf: tf.math.rsqrt(_c(tf, _values(2, positive=True)))),
    ("atan2-f32", HOST, lambda tf: tf.math.atan2(_c(tf, _values(3)), _c(tf, _values(4)))),
    ("erfc-f32", HOST, lambda tf: tf.math.erfc(_c(tf, np.random.default_rng(5).uniform(-6, 6, _N).astype(np.float32)))),
    # -- Softmax: oneDNN's kernel or Eigen's (float16 by the CPU's features), values and non-finite rows
    *[(f"softmax-{dt}-{n}{'-nonfinite' if nf else ''}", HOST,
       lambda tf, dt=dt, n=n, nf=nf: tf.nn.softmax(_c(tf, _rows(n, n, dt, nf))), _FINITE_ROWS.get(dt))
      for dt in ("float16", "float32") for n in (1, 3, 16, 17, 40, 130) for nf in (False, True)],
    *[(f"log_softmax-float16-{n}", HOST, lambda tf, n=n: tf.nn.log_softmax(_c(tf, _rows(n + 7, n, "float16", True))))
      for n in (3, 17, 130)],
    ("softmax-float16-scalar", HOST, lambda tf: tf.nn.softmax(_c(tf, 1.0, "float16"))),
    ("softmax-float32-scalar", HOST, lambda tf: tf.nn.softmax(_c(tf, 1.0, "float32"))),
    ("softmax-float16-rank6", HOST, lambda tf: tf.nn.softmax(_c(tf, np.ones([1, 1, 1, 1, 2, 3]), "float16"))),
    # -- what a float16 convolution or pooling accepts and returns on this CPU
    ("conv2d-float16-nchw", HOST, lambda tf: tf.nn.conv2d(_c(tf, np.ones([1, 2, 4, 4]), "float16"),
                                                          _c(tf, np.ones([3, 3, 2, 3]), "float16"), 1, "VALID",
                                                          data_format="NCHW")),
    ("conv2d-float16-empty", HOST, lambda tf: tf.nn.conv2d(_c(tf, np.zeros([0, 4, 4, 2]), "float16"),
                                                           _c(tf, np.ones([3, 3, 2, 3]), "float16"), 1, "VALID")),
    ("max_pool2d-float16-nchw", HOST, lambda tf: tf.nn.max_pool2d(_c(tf, np.ones([1, 2, 4, 4]), "float16"), 2, 2,
                                                                  "VALID", data_format="NCHW")),
]
EDGES = edge_compare.EdgeModule(__file__, CASES,
                                agree=lambda case: case[3] if len(case) > 3 and case[3] else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


# The cases that read the vrcpps/vrsqrtps tables; AMD's were measured on family 26 (Zen 5) only
_ESTIMATES = ("reciprocal-f32", "rsqrt-f32", "atan2-f32", "erfc-f32")


def _amd_family() -> str | None:
    """/proc/cpuinfo's "cpu family" on an AMD CPU, else None."""
    if host_cpu.detect().vendor != "AuthenticAMD":
        return None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("cpu family")), "unknown")
    except OSError:
        return "unknown"


@clause("ops.host-cpu")
@EDGES.parametrize(HOST)
def test_simdist_models_this_machine_as_tf_runs_on_it(k: int, tf_results: dict[int, Any]) -> None:
    family = _amd_family()
    if CASES[k][0] in _ESTIMATES and family not in (None, "26"):
        pytest.skip(f"this AMD CPU (family {family}) may have other vrcpps/vrsqrtps tables than the family-26 "
                    "(Zen 5) ones simdist measured (rcp_amd.py): measure them to model it (ops.host-cpu)")
    with host_cpu.using("host"):
        EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_host_cpu_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
