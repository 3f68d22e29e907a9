"""Values that no longer follow NumPy's CPU-dispatched loops or OpenBLAS (clause ops.host-cpu,
"Dispatch independence"), against real TensorFlow 2.21 bit for bit: Elu and Selu (the Exp kernel's
packets and tail; Selu's scale_alpha constant) and their gradients, Asin/Acos (float32) and Atanh
(Eigen's pasin/pacos/patanh packets, the C library's tail; float64 Asin/Acos the C library's on
every element), Xlogy/Xlog1py/Xdivy with
signed zeros under broadcasting (ops.xfunctions), cumulative_logsumexp (the C library's exp and
log1p on every element), Angle (atan2f/atan2), and float64 MatMul summed over k in order (Eigen's
contraction without FMA, on shapes whose entries its GEBP kernel computes that way: M + N + K
>= 20, k in one depth block, columns in whole panels; smaller products are Eigen's lazy
coefficient-wise product and the columns past the last panel (37x20x29: from column 24) take
other orders, not modelled). None of these ops runs oneDNN or a vrcpps/vrsqrtps table, so TF's
answers are the same on the reference host and on this one. Needs the `tf` extra (golden-backed
otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(1717)


def _wide(dt: Any) -> np.ndarray:
    """Uniform in [-10, 10], -e^u for u in [-20, 5], and zeros, a subnormal, -inf, NaN: 1,011 values."""
    a = np.concatenate([_R.uniform(-10, 10, 600), -portable_inputs.exp(_R.uniform(-20, 5, 403)),
                        [0.0, -0.0, -1e-40, -np.inf, np.nan, -88.0, -104.0, -745.0]])
    with np.errstate(over="ignore"):
        return a.astype(dt)


ACT = {np.dtype(dt).name: _wide(dt) for dt in (np.float32, np.float64, np.float16)}


def _act(name: str, dt: str, n: int | None = None, grad: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(ACT[dt][:n])
        fn = getattr(tf.nn, name)
        if not grad:
            return fn(x)
        g = tf.constant(np.linspace(-2, 2, x.shape[0]).astype(dt))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x, output_gradients=g)
    return run


_X = _R.uniform(-3, 3, (5, 13))
_X[::2, ::3] = -0.0
_X[1, :4] = 0.0
_Y = _R.uniform(0.1, 4, (5, 13))
_Y[2, :4] = [0.0, np.inf, np.nan, 1.0]


def _xfn(name: str, dt: Any, form: str) -> Callable[[Any], Any]:
    x, y = _X.astype(dt), _Y.astype(dt)
    pairs = {"same": (x, y), "x-full-y-row": (x, y[0]), "x-row-y-full": (x[0], y), "x-scalar": (dt(-0.0), y),
             "y-scalar": (x, dt(2.5)), "x-col-y-row": (x[:, :1], y[0])}
    a, b = pairs[form]
    return lambda tf: getattr(tf.math, name)(tf.constant(a), tf.constant(b))


_C = _R.uniform(-30, 30, (7, 13, 11))


def _cls(dt: Any, axis: int, exclusive: bool, reverse: bool) -> Callable[[Any], Any]:
    return lambda tf: tf.math.cumulative_logsumexp(tf.constant(_C.astype(dt)), axis=axis, exclusive=exclusive,
                                                   reverse=reverse)


_Z = _R.standard_normal(1031) + 1j * _R.standard_normal(1031)
_Z[:6] = [0, -0.0, 1j, -1j, complex(-1, 0), complex(-1, -0.0)]


def _mm(m: int, k: int, n: int) -> Callable[[Any], Any]:
    a, b = _R.standard_normal((m, k)), _R.standard_normal((k, n))
    return lambda tf: tf.matmul(tf.constant(a), tf.constant(b))


CASES: list[tuple] = []
for _dt in ("float32", "float64", "float16"):
    for _name in ("elu", "selu"):
        CASES.append((f"{_name}-{_dt}", "act", _act(_name, _dt)))
        CASES.append((f"{_name}-grad-{_dt}", "act", _act(_name, _dt, grad=True)))
        for _n in (1, 5, 8, 13):
            CASES.append((f"{_name}-{_dt}-n{_n}", "act", _act(_name, _dt, _n)))
for _dt in (np.float32, np.float64, np.float16):
    for _name in ("xlogy", "xlog1py", "xdivy"):
        for _form in ("same", "x-full-y-row", "x-row-y-full", "x-scalar", "y-scalar", "x-col-y-row"):
            CASES.append((f"{_name}-{np.dtype(_dt).name}-{_form}", "xfunc", _xfn(_name, _dt, _form)))
for _dt in (np.float32, np.float64):
    for _axis in (0, 1, 2):
        for _ex in (False, True):
            for _rev in (False, True):
                CASES.append((f"cls-{np.dtype(_dt).name}-axis{_axis}{'-ex' if _ex else ''}{'-rev' if _rev else ''}",
                              "cls", _cls(_dt, _axis, _ex, _rev)))
for _ct in (np.complex64, np.complex128):
    CASES.append((f"angle-{np.dtype(_ct).name}", "angle", lambda tf, ct=_ct: tf.math.angle(tf.constant(_Z.astype(ct)))))
_SP = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.49999997, 0.50000006, 1.0000001, -1.0000001, 2.0, np.inf, -np.inf, np.nan,
       1e-40, -1e-40, 1e-30, 0.99999994, -0.99999994, 1e-8]
_U = np.concatenate([_R.uniform(-1, 1, 4000), _R.uniform(-1.2, 1.2, 500), portable_inputs.exp(_R.uniform(-30, 0, 500)) *
                     _R.choice([-1, 1], 500), _SP * 3])


def _inv_trig(name: str, dt: Any, n: int | None = None) -> Callable[[Any], Any]:
    values = _U if n is None else np.array(_SP[:n])
    return lambda tf: getattr(tf.math, name)(tf.constant(values.astype(dt)))


for _dt in (np.float32, np.float64):
    for _name in ("asin", "acos", "atanh"):
        CASES.append((f"{_name}-{np.dtype(_dt).name}", "inverse-trig", _inv_trig(_name, _dt)))
        for _n in (1, 3, 5, 8, 9, 13, 17):
            CASES.append((f"{_name}-{np.dtype(_dt).name}-n{_n}", "inverse-trig", _inv_trig(_name, _dt, _n)))
for _shape in ((9, 7, 6), (64, 128, 64), (16, 300, 8), (3, 15, 40)):
    CASES.append((f"matmul-float64-{'x'.join(map(str, _shape))}", "matmul", _mm(*_shape)))

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.host-cpu")
@EDGES.parametrize("act")
def test_elu_and_selu_take_the_exp_kernels_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.xfunctions")
@EDGES.parametrize("xfunc")
def test_xfunctions_keep_a_negative_zero_x_in_packets_under_broadcasting(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("cls")
def test_cumulative_logsumexp_calls_the_c_library_on_every_element(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("inverse-trig")
def test_asin_acos_atanh_take_eigens_packets_and_the_c_librarys_tail(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("angle")
def test_angle_is_the_c_librarys_atan2(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("matmul")
def test_float64_matmul_sums_over_k_in_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_is_tested() -> None:
    assert EDGES.untested() == [], f"cases in no test function's group: {EDGES.untested()}"


if __name__ == "__main__":
    tf_workers.serve(EDGES.tf_worker)
