"""fix62d's rules against TF 2.21 (sixty-second session; vsweep62's and ksweep62's open items): a spatial
convolution dilation below 1 (clause nn.conv-dilation), pooling over channels (ops.nn-wrapper-order), scatter_nd's
Tindices from a shape tensor and its string kernel, linspace of strings (ops.argument-errors), and bfloat16
reduce_prod in Eigen's packet order and the NaN bits of bfloat16 binary ops (ops.packet-paths).

Each case is a list of [label, outcome]; an outcome is a value's ["tensor", dtype, shape, bytes hex] or [error
class]. Run in a tf.function too where the label ends in " fn". Inputs are NumPy RandomState arithmetic, exact in
every float type.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import labelled_outcomes
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        if a.dtype == object:
            return ["tensor", x.dtype.name, list(a.shape), [bytes(b).hex() for b in a.ravel()]]
        return ["tensor", x.dtype.name, list(a.shape), a.tobytes().hex()]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any], tf: Any = None) -> None:
    for lab, f in ((label, fn),) + (((label + " fn", lambda: tf.function(fn, autograph=False)()),)
                                   if tf is not None else ()):
        try:
            out.append([lab, _val(f())])
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            out.append([lab, [type(e).__name__]])


def _m(tf: Any, dt: str, *shape: int) -> Any:
    return tf.cast(tf.reshape(tf.range(float(np.prod(shape))), shape), dt)


def _dilations(tf: Any, out: list) -> None:
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for dl in (0, -1, (1, 0), (-1, 2)):
            dd = dl if isinstance(dl, tuple) else (dl, dl)
            m = lambda *s, dt=dt: _m(tf, dt, *s)  # noqa: E731
            _try(out, f"{dt} conv2d {dl}", lambda m=m, dl=dl: tf.nn.conv2d(m(1, 4, 4, 2), m(2, 2, 2, 1), 1, "VALID",
                                                                          dilations=dl), tf)
            _try(out, f"{dt} conv1d {dl}", lambda m=m, dd=dd: tf.nn.conv1d(m(1, 4, 2), m(2, 2, 1), 1, "SAME",
                                                                          dilations=dd[1]), tf)
            _try(out, f"{dt} conv3d {dl}", lambda m=m, dd=dd: tf.nn.conv3d(
                m(1, 3, 3, 3, 1), m(1, 2, 2, 1, 1), [1] * 5, "VALID", dilations=[1, dd[0], dd[1], 1, 1]), tf)
            _try(out, f"{dt} conv2d_transpose {dl}", lambda m=m, dl=dl: tf.nn.conv2d_transpose(
                m(1, 4, 4, 2), m(2, 2, 1, 2), [1, 5, 5, 1], 1, "VALID", dilations=dl), tf)
            _try(out, f"{dt} conv3d_transpose {dl}", lambda m=m, dd=dd: tf.nn.conv3d_transpose(
                m(1, 3, 3, 3, 1), m(1, 2, 2, 1, 1), [1, 3, 4, 4, 1], [1] * 5, "VALID",
                dilations=[1, dd[0], dd[1], 1, 1]), tf)
            _try(out, f"{dt} backprop filter {dl}", lambda m=m, dd=dd: tf.raw_ops.Conv2DBackpropFilter(
                input=m(1, 4, 4, 2), filter_sizes=[2, 2, 2, 1], out_backprop=m(1, 3, 3, 1), strides=[1, 1, 1, 1],
                padding="VALID", dilations=[1, dd[0], dd[1], 1]), tf)


def _scatter(tf: Any, out: list) -> None:
    s = lambda: tf.constant(["8", "5"])  # noqa: E731
    _try(out, "strings", lambda: tf.scatter_nd([[1], [3]], s(), [5]), tf)
    _try(out, "strings duplicates", lambda: tf.scatter_nd([[1], [1]], s(), [3]), tf)
    _try(out, "strings rows", lambda: tf.scatter_nd([[1], [1], [0]], tf.constant([["a", "b"], ["c", ""], ["d", "e"]]),
                                                    [3, 2]), tf)
    _try(out, "strings 2-d index", lambda: tf.scatter_nd([[1, 0], [0, 1], [1, 0]], tf.constant(["x", "y", "z"]),
                                                         [2, 2]), tf)
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        _try(out, f"shape tensor {dt}", lambda dt=dt: tf.scatter_nd([[1]], [[1.0, 2.0, 3.0]],
                                                                  tf.constant([4, 3], dt)), tf)
        _try(out, f"int64 indices, shape tensor {dt}", lambda dt=dt: tf.scatter_nd(
            tf.constant([[1]], tf.int64), [[1.0, 2.0, 3.0]], tf.constant([4, 3], dt)), tf)
        _try(out, f"indices {dt}", lambda dt=dt: tf.scatter_nd(tf.constant([[1]], dt), [[1.0, 2.0, 3.0]], [4, 3]), tf)
    _try(out, "NumPy int16 shape", lambda: tf.scatter_nd([[1]], [[1.0, 2.0, 3.0]], np.array([4, 3], np.int16)), tf)
    for a, b in (("1", "5"), ("a", "b")):
        _try(out, f"linspace {a!r} {b!r}", lambda a=a, b=b: tf.linspace(a, b, 3), tf)
    _try(out, "linspace string tensors", lambda: tf.linspace(tf.constant("1"), tf.constant("5"), 3), tf)


def _pools(tf: Any, out: list) -> None:
    r = np.random.RandomState(62)
    for dt in ("float32", "float64", "float16", "bfloat16", "int32"):
        for depth in (2, 4, 6):
            v = (r.randint(-40, 40, (2, 3, 4, depth)) / 8.0).astype(np.float32)
            for ks, st in (([1, 1, 1, 2], [1, 1, 1, 2]), ([1, 1, 1, 2], [1, 1, 1, 1]), ([1, 1, 1, 3], [1, 1, 1, 3]),
                           ([1, 1, 1, 2], [1, 2, 2, 2]), ([1, 2, 2, 2], [1, 1, 1, 2]), ([1, 1, 1, 2], [1, 1, 1, 4])):
                for pad in ("VALID", "SAME"):
                    x = lambda v=v, dt=dt: tf.cast(tf.constant(v), dt)  # noqa: E731
                    _try(out, f"max {dt} d{depth} {ks} {st} {pad}",
                         lambda x=x, ks=ks, st=st, pad=pad: tf.nn.max_pool2d(x(), ks, st, pad), tf)
                    _try(out, f"avg {dt} d{depth} {ks} {st} {pad}",
                         lambda x=x, ks=ks, st=st, pad=pad: tf.nn.avg_pool2d(x(), ks, st, pad), tf)
            if dt in ("float32", "bfloat16"):
                def grads(op: Any, x: Any) -> Any:
                    with tf.GradientTape() as t:
                        t.watch(x)
                        y = op(x, [1, 1, 1, 2], [1, 1, 1, 2], "VALID")
                    return [y, t.gradient(y, x, output_gradients=tf.ones_like(y) * 1.5)]
                xv = tf.cast(tf.constant(v), dt)
                _try(out, f"max grad {dt} d{depth}", lambda xv=xv: grads(tf.nn.max_pool2d, xv))
                _try(out, f"avg grad {dt} d{depth}", lambda xv=xv: grads(tf.nn.avg_pool2d, xv))
    for dt in ("float32", "bfloat16"):
        vol = (r.randint(-40, 40, (1, 3, 3, 4, 4)) / 8.0).astype(np.float32)
        for ks, st in (([1, 1, 1, 1, 1], [1, 1, 1, 1, 2]), ([1, 2, 1, 1, 1], [1, 1, 1, 1, 2]),
                       ([1, 1, 1, 1, 2], [1, 1, 1, 1, 2]), ([1, 2, 2, 2, 1], [1, 1, 1, 1, 2]),
                       ([1, 2, 2, 2, 1], [1, 2, 1, 2, 2])):
            _try(out, f"avg3d {dt} {ks} {st}", lambda vol=vol, dt=dt, ks=ks, st=st: tf.nn.avg_pool3d(
                tf.cast(tf.constant(vol), dt), ks, st, "VALID"), tf)
            _try(out, f"max3d {dt} {ks} {st}", lambda vol=vol, dt=dt, ks=ks, st=st: tf.nn.max_pool3d(
                tf.cast(tf.constant(vol), dt), ks, st, "VALID"), tf)


def _prod(tf: Any, out: list) -> None:
    """Values near 1 (products stay normal): bfloat16 rounding order shows from 3 elements."""
    for n in (2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 34, 63, 64, 65, 100, 257):
        r = np.random.RandomState(n)
        a = r.uniform(-2, 2, 3 * n) * r.choice([0.5, 1.0, 3.0, 7.0], 3 * n)
        a = np.where(np.abs(a) < 0.5, 1.0 + a / 8, a / 4 + np.sign(a) * 0.8).astype(np.float32).reshape(3, n)
        x = tf.cast(tf.constant(a), tf.bfloat16)
        for name, axis, keep in (("inner", 1, False), ("all", None, False), ("outer", 0, False), ("keep", -1, True)):
            def run(x: Any = x, axis: Any = axis, keep: bool = keep) -> Any:
                with tf.GradientTape() as t:
                    t.watch(x)
                    y = tf.reduce_prod(x, axis=axis, keepdims=keep)
                return [y, t.gradient(y, x, output_gradients=tf.cast(tf.ones_like(y) * 1.25, tf.bfloat16))]
            _try(out, f"n{n} {name}", run)


def _nans(tf: Any, out: list) -> None:
    """bfloat16 binary ops of operands holding NaNs of both signs (tagged payloads), at sizes around the 8-lane
    packet, tensor-tensor, with a -NaN or a number on either side, and row/column broadcasts: the raw bits."""
    def nb(neg: bool, payload: int) -> int:
        return (0xFF80 if neg else 0x7F80) | 0x40 | (payload & 0x3F)

    def bf(u: Any) -> Any:
        return tf.bitcast(tf.constant(np.asarray(u, np.uint16)), tf.bfloat16)

    ops = {"add": tf.add, "sub": tf.subtract, "mul": tf.multiply, "div": tf.math.divide, "max": tf.maximum,
           "min": tf.minimum, "sqdiff": tf.math.squared_difference, "floordiv": tf.math.floordiv, "pow": tf.pow,
           "floormod": tf.math.floormod}
    for n in (1, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 33, 65):
        r = np.random.RandomState(n)
        a, b = ((np.asarray(r.randint(-16, 17, n) / 4.0 + 0.125, np.float32).view(np.uint32) >> 16).astype(np.uint16)
                for _ in range(2))
        for i in range(n):
            if r.rand() < 0.4:
                a[i] = nb(r.rand() < 0.5, r.randint(1, 60))
            if r.rand() < 0.4:
                b[i] = nb(r.rand() < 0.5, r.randint(1, 60))
        row = np.concatenate([b, a]).reshape(2, n)
        forms = {"tt": (a, b), "t,-nan": (a, np.uint16(nb(True, 7))), "-nan,t": (np.uint16(nb(True, 7)), a),
                 "t,num": (a, np.uint16(0x4020)), "num,t": (np.uint16(0x4020), a), "row": (row, a),
                 "col": (a, np.array([[nb(False, 3)], [nb(True, 5)]], np.uint16))}
        for on, op in ops.items():
            for fn, (x, y) in forms.items():
                _try(out, f"n{n} {on} {fn}", lambda op=op, x=x, y=y: tf.bitcast(op(bf(x), bf(y)), tf.uint16))


PROGRAMS = {"dilations": _dilations, "scatter": _scatter, "pools": _pools, "prod": _prod, "nans": _nans}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out)
    return out


CASES: dict[str, dict] = {name: {"strategy": "none", "name": name} for name in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    labelled_outcomes.assert_as_tf(name, got, want, width=300)


@pytest.mark.clause("nn.conv-dilation")
@pytest.mark.parametrize("index", [NAMES.index("dilations")])
def test_spatial_dilation_below_one_refused(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("dilations", tf_results, tmp_path)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("index", [NAMES.index("scatter")])
def test_scatter_nd_tindices_and_strings_linspace_of_strings(index: int, tf_results: dict[int, Any],
                                                             tmp_path: Any) -> None:
    _check("scatter", tf_results, tmp_path)


@pytest.mark.clause("ops.nn-wrapper-order")
@pytest.mark.parametrize("index", [NAMES.index("pools")])
def test_pooling_over_channels(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("pools", tf_results, tmp_path)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("index", [NAMES.index("prod")])
def test_bfloat16_reduce_prod_in_packet_order(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("prod", tf_results, tmp_path)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("index", [NAMES.index("nans")])
def test_bfloat16_nan_bits_of_binary_ops(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("nans", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
