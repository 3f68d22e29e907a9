"""Cross-replica MEAN of complex values against TF 2.21 (issue 29's fz6; third fuzzer ext seeds
71-73, MirroredStrategy programs): the division by the replica count or the element count is
complex RealDiv's kernel (Eigen's pdiv_complex in packets, libgcc's Annex G division in the scalar
tail), so a MEAN of nan - infj is nan - infj, not NaN + NaNj. Compared part by part, bit for bit,
a NaN part matching any NaN part. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import normalise, run_program
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _program(values: np.ndarray, axis: Any) -> Callable[[Any, Any, int], Any]:
    """Each replica's value is a quotient by (1e-40 + 1e10j) of `values` (or `values` itself when
    axis is "raw"); its MEAN and SUM across replicas."""
    def program(tf: Any, s: Any, n: int) -> Any:
        def fn() -> Any:
            v = tf.constant(values)
            return v if axis == "raw" else tf.math.truediv(v, tf.constant(np.full(values.shape, complex(1e-40, 1e10),
                                                                                  values.dtype)))
        per = s.run(fn)
        ax = None if axis in ("raw", None) else axis
        return [s.reduce("MEAN", per, axis=ax), s.reduce("SUM", per, axis=ax)]
    return program


_ROWS = [np.array(complex(np.inf, 0.5), np.complex64),
         np.array([complex(np.nan, -np.inf), complex(np.inf, 1.0), complex(1e-40, 2.0)], np.complex128),
         np.array([complex(np.inf, 0.0), complex(-2.0, np.nan), complex(3.0, -np.inf), complex(1.0, 1.0),
                   complex(0.0, -0.0)], np.complex64)]
CASES: list[tuple[str, str, int, Callable[..., Any]]] = [
    *[(f"mean-quotient-{i}", "mirrored", 2, _program(v, None)) for i, v in enumerate(_ROWS)],
    *[(f"mean-raw-{i}", "mirrored", 2, _program(v, "raw")) for i, v in enumerate(_ROWS)],
    *[(f"mean-axis0-{i}", "mirrored", 2, _program(v, 0)) for i, v in enumerate(_ROWS[1:], 1)],
]


def _agree(got: Any, want: Any, path: str) -> None:
    if isinstance(want, tuple) and want and want[0] == "Tensor":
        assert isinstance(got, tuple) and got[:3] == want[:3], f"{path}: simdist gave {got[:3]!r}, TF 2.21 {want[:3]!r}"
        g, w = np.asarray(got[3]), np.asarray(want[3])
        same = [((a == b) | (np.isnan(a) & np.isnan(b))) for a, b in ((g.real, w.real), (g.imag, w.imag))]
        ok = same[0] & same[1]
        assert np.all(ok), f"{path}={g.tolist()}, but TF 2.21 gives {w.tolist()}"
        return
    if isinstance(want, tuple) and want and want[0] in ("list", "tuple"):
        assert isinstance(got, tuple) and len(got[1]) == len(want[1]), f"{path}: simdist gave {got!r}, TF {want!r}"
        for i, (g, w) in enumerate(zip(got[1], want[1])):
            _agree(g, w, f"{path}[{i}]")
        return
    assert got == want, f"{path}: simdist gave {got!r}, but TF 2.21 gives {want!r}"


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_program(real_tf, CASES[i][3], CASES[i][1], CASES[i][2]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("reduce.dtypes")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_complex_mean_divides_as_tf(index: int, tf_results: dict[int, Any]) -> None:
    name, kind, n, program = CASES[index]
    _agree(run_program(sim_tf, program, kind, n), tf_results[index], name)


assert normalise   # (the results are diff_helpers' normalised form)

if __name__ == "__main__":  # TF worker: python test_fuzz6_reduce_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
