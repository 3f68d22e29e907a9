"""Rules behind the classes of issue 29's fresh campaigns that fz32b ran (fourteenth generator seeds
1420323001 and 1420323002, fourth generator seed 3201, third 3202 --ext8), each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for bit: -0.0
differs from 0.0), or raises the same exception class. Eagerly, in a tf.function (`traced`, a
one-expression body), with an input_signature (`sig`: get_concrete_function on placeholders, then a
call), and in the replicas of a MirroredStrategy. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AT = "ops.attr-types"
_C = "ops.conversion"
_T = "function.trace-time-errors"
_G = "function.grappler-rewrites"
_X = "ops.xfunctions"
_P = "ops.packet-paths"
_W = "ops.nn-wrapper-order"

_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's
    made once per worker (tests/ops/test_fz28b_edges_tf.py's helper)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _in_replicas(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var` in the strategy's scope) in each replica of
    strategy.run, summed across the replicas."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        env = {"tf": tf, "np": np}
        with s.scope():
            v = eval(var, env)  # noqa: S307 - our own text
        per = s.run(lambda: tf.cast(eval(expr, {**env, "v": v}), tf.float32))  # noqa: S307 - our own text
        return s.reduce("SUM", per, axis=None)
    return run


def _sig2(expr: str, spec: list[int | None] | None, dtype: str, arg: str) -> Callable[[Any], Any]:
    """`lambda x: expr` with a one-spec input_signature, get_concrete_function's error ignored
    (as the fourteenth generator's sig mode), then a call with `arg`."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(spec, getattr(tf, dtype))], autograph=False)
        try:
            g.get_concrete_function()
        except Exception:  # noqa: BLE001, S110 - the call's outcome is the case's
            pass
        return g(eval(arg, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def _traced_of(expr: str, arg: str) -> Callable[[Any], Any]:
    """`lambda x: expr` as a tf.function (AutoGraph off), called once with `arg`."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {expr}", {"tf": tf, "np": np}), autograph=False)  # noqa: S307
        return f(eval(arg, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def _after(first: str, expr: str) -> Callable[[Any], Any]:
    """`expr` eagerly after `first` ran (its error, if any, swallowed): TF's process-wide state
    between the two (the scalar cache)."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        try:
            eval(first, {"tf": tf, "np": np})  # noqa: S307 - our own text
        except Exception:  # noqa: BLE001, S110 - the state it leaves is the case's
            pass
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


_X4 = "np.ones([1, 4, 4, 1], np.float32)"
_HALVES = "np.array([0.0999755859375, 0.3, 1.7, 0.0123, 5.1, 7.7, 0.91, 2.3], np.float32)"
_CX = "[0.5, 6e-08, 1e10, float('nan'), -1e10, -7.25, float('inf'), -float('inf'), 3e9, -3e9, 65504.0, 300.0, " \
      "-129.0, 2.0 ** 63, 1e20, -1.0, 40000.0] * 2"
_BOOLS4 = "np.zeros([3, 4, 1, 2], np.bool_)"

CASES: list[tuple[str, str, Any]] = [
    # -- logical ops on the fallback convert in order (1420323002 #255); first, so that TF's worker can still
    # make its two logical CPUs
    ("logical_xor(inf, mirrored float64 variable) in replicas", _C, _in_replicas(
        "tf.math.logical_xor(float('inf'), y=v)", "tf.Variable(tf.constant([4.0, 0.5], tf.float64))")),
    ("logical_and(inf, mirrored float64 variable) in replicas", _C, _in_replicas(
        "tf.math.logical_and(float('inf'), v)", "tf.Variable(tf.constant([4.0, 0.5], tf.float64))")),
    ("logical_and(mirrored float64 variable, inf) in replicas", _C, _in_replicas(
        "tf.math.logical_and(v, float('inf'))", "tf.Variable(tf.constant([4.0, 0.5], tf.float64))")),
    ("logical_xor(inf, mirrored bool variable) in replicas", _C, _in_replicas(
        "tf.math.logical_xor(float('inf'), y=v)", "tf.Variable(tf.constant([True, False]))")),
    # -- the eager fast path's SetOpAttrList sizes a list attr: -1 for a scalar tensor or a variable
    # (fourteenth generator seed 1420323001 #140)
    ("fractional_avg_pool(x, tf.constant(True), seed=None)", _AT, _eager(
        "tf.nn.fractional_avg_pool(np.float64(-0.0), tf.constant(True), overlapping=True, seed=None)")),
    ("fractional_avg_pool(x, tf.constant(1.5))", _AT, _eager(f"tf.nn.fractional_avg_pool({_X4}, tf.constant(1.5))")),
    ("fractional_avg_pool(x, np.array(0.5))", _AT, _eager(f"tf.nn.fractional_avg_pool({_X4}, np.array(0.5))")),
    ("fractional_avg_pool(x, tf.constant([1, 1.5, 1.5, 1]))", _AT, _eager(
        f"tf.nn.fractional_avg_pool({_X4}, tf.constant([1.0, 1.5, 1.5, 1.0]))")),
    ("fractional_avg_pool(x, np.array([1, 1.5, 1.5, 1])) computes", _AT, _eager(
        f"tf.nn.fractional_avg_pool({_X4}, np.array([1.0, 1.5, 1.5, 1.0]))[0]")),
    ("fractional_avg_pool(list x, tf.constant(1.5)): the fallback", _AT, _eager(
        f"tf.nn.fractional_avg_pool({_X4}.tolist(), tf.constant(1.5))")),
    ("compat.v1 fractional_max_pool(x, tf.Variable(1.5))", _AT, _eager(
        f"tf.compat.v1.nn.fractional_max_pool({_X4}, tf.Variable(1.5))")),
    ("compat.v1 fractional_max_pool(x, tf.Variable([1, 1.5, 1.5, 1]))", _AT, _eager(
        f"tf.compat.v1.nn.fractional_max_pool({_X4}, tf.Variable([1.0, 1.5, 1.5, 1.0]))")),
    ("compat.v1 fractional_max_pool(x, tf.constant(1.5)) traced", _AT, _traced(
        f"tf.compat.v1.nn.fractional_max_pool({_X4}, tf.constant(1.5))")),
    ("fractional_max_pool(x, tf.constant(1.5)): the v2 wrapper's ValueError", _AT, _eager(
        f"tf.nn.fractional_max_pool({_X4}, tf.constant(1.5))")),
    ("raw MaxPool(ksize=tf.constant(2))", _AT, _eager(
        f"tf.raw_ops.MaxPool(input={_X4}, ksize=tf.constant(2), strides=[1, 1, 1, 1], padding='VALID')")),
    ("raw MaxPool(list input, ksize=tf.constant(2))", _AT, _eager(
        f"tf.raw_ops.MaxPool(input={_X4}.tolist(), ksize=tf.constant(2), strides=[1, 1, 1, 1], padding='VALID')")),
    # -- op_def_library's Index of Slice in a graph (1420323001 #192, #193)
    ("slice(uint16, int64 begin, int32 [] size) traced", _T, _traced(
        "tf.slice(np.array(5, np.uint16), begin=np.array([0], np.int64), size=tf.constant([], tf.int32))")),
    ("slice(int32 scalar, int64 begin, int32 size) traced", _T, _traced(
        "tf.slice(np.int32(-4), begin=np.array([0], np.int64), size=tf.constant([2, 3], tf.int32))")),
    ("slice(x, [0, 0], int64 size) traced", _T, _traced("tf.slice(tf.ones([2, 3]), [0, 0], tf.constant([1, 1], tf.int64))")),
    ("slice(x, [0, 0], uint8 size) traced", _T, _traced("tf.slice(tf.ones([2, 3]), [0, 0], tf.constant([1, 1], tf.uint8))")),
    ("slice(x, int16 begin, [1, 1]) traced", _T, _traced("tf.slice(tf.ones([2, 3]), np.array([0, 0], np.int16), [1, 1])")),
    ("slice(x, [0, 1], []) traced", _T, _traced("tf.slice(tf.ones([2, 3]), [0, 1], [])")),
    ("slice(x, int64 begin, [1, 1]) traced", _T, _traced("tf.slice(tf.ones([2, 3]), tf.constant([0, 0], tf.int64), [1, 1])")),
    ("slice(x, [0, 0], int64 size) eagerly", _T, _eager("tf.slice(tf.ones([2, 3]), [0, 0], tf.constant([1, 1], tf.int64))")),
    # -- Reshape's shape function divides a one-unknown-dimension input at trace (1420323002 #52)
    ("reshape of a [2, None] spec to []", _T, _sig2("tf.reshape(x, tf.constant([], tf.int32))", [2, None], "bool",
                                                    "tf.constant([[True], [False]])")),
    ("reshape(logical_and(x, 7.0)) of a [2, None] spec to []", _T, _sig2(
        "tf.reshape(tf.logical_and(x, np.float32(7.0)), tf.constant([], tf.int32))", [2, None], "bool",
        "tf.constant([[True], [False]])")),
    ("reshape of a [2, None] spec to [3]", _T, _sig2("tf.reshape(x, [3])", [2, None], "float32", "tf.ones([2, 1])")),
    ("reshape of a [None, None] spec to []", _T, _sig2("tf.reshape(x, [])", [None, None], "bool",
                                                        "tf.constant([[True], [False]])")),
    ("reshape of a [2, None] spec to [4]", _T, _sig2("tf.reshape(x, [4])", [2, None], "float32", "tf.ones([2, 2])")),
    # -- Grappler's RemoveRedundantReshapeOrBroadcastTo after the shape function's merge (1420323001 #219)
    ("reshape of a [None] spec to TensorShape([0])", _G, _sig2("tf.reshape(x, shape=tf.TensorShape([0]))", [None],
                                                               "int64", "tf.constant([1, 0], tf.int64)")),
    ("reshape of a [None] spec to [3], called with 2", _G, _sig2("tf.reshape(x, [3])", [None], "float32", "tf.ones([2])")),
    ("reshape of a [None] spec to [3], times 2", _G, _sig2("tf.reshape(x, [3]) * 2.0", [None], "float32", "tf.ones([2])")),
    ("reshape of a [None, 3] spec to [5, 3]", _G, _sig2("tf.reshape(x, [5, 3])", [None, 3], "float32", "tf.ones([2, 3])")),
    ("reshape of a [3, None] spec to [3, 5]", _G, _sig2("tf.reshape(x, [3, 5])", [3, None], "float32", "tf.ones([3, 2])")),
    ("reshape of a [3, None] spec to [5, 3]: kept", _G, _sig2("tf.reshape(x, [5, 3])", [3, None], "float32",
                                                               "tf.ones([3, 2])")),
    ("reshape of a [None, None] spec to [5, 3]: kept", _G, _sig2("tf.reshape(x, [5, 3])", [None, None], "float32",
                                                                  "tf.ones([2, 3])")),
    ("reshape of a [None] spec to [1, 0]: kept", _G, _sig2("tf.reshape(x, [1, 0])", [None], "float32", "tf.ones([2])")),
    ("reshape of a [None] spec to [-1, 0]: kept", _G, _sig2("tf.reshape(x, [-1, 0])", [None], "float32", "tf.ones([2])")),
    ("broadcast_to of a [None] spec to [3]: kept", _G, _sig2("tf.broadcast_to(x, [3])", [None], "float32", "tf.ones([2])")),
    ("reshape of a [None] spec to [3], right size", _G, _sig2("tf.reshape(x, [3])", [None], "float32", "tf.ones([3])")),
    ("reshape to [3] traced with a known [2]", _G, _traced_of("tf.reshape(x, [3])", "tf.ones([2])")),
    # -- Grappler combines a half product chain's constants (fourth generator seed 3201 #5)
    *[(f"{dt} {name} traced", _G, _traced_of(body, f"tf.cast(tf.constant({_HALVES}), tf.{dt})"))
      for dt in ("float16", "bfloat16")
      for name, body in (("(x * c1) * c2", "(x * -0.6665) * 2.5"), ("c2 * (x * c1)", "2.5 * (x * -0.6665)"),
                         ("(x / c1) * c2", "(x / -1.5) * 2.5"), ("(x * c1) / c2", "(x * -0.6665) / 2.5"),
                         ("(x + c1) + c2", "(x + 0.3) + 0.7"))],
    ("float16 (x / -1.5) * 2.5 of a [2, 3, 3] spec", _G, _sig2(
        "(x / -1.5) * 2.5", [2, 3, 3], "float16",
        "tf.constant(np.array([[[2.5, 2.5, 4.0], [3.0, 0.5, -0.0], [2.5, 4.0, -7.25]], [[3.0, 0.0999755859375, 1.0], "
        "[1.0, 0.0010004043579101562, -1.0], [float('inf'), 3.0, 1.0]]], np.float16))")),
    ("float16 (x / -1.5) * 2.5 eagerly", _G, _eager(f"(tf.cast(tf.constant({_HALVES}), tf.float16) / -1.5) * 2.5")),
    # -- a graph's list conversion: NumPy's inference (1420323001 #197)
    ("reduce_join([bool [3, 4, 1, 2], nan, bool [3, 4, 1, 2]]) traced", _C, _traced(
        f"tf.strings.reduce_join([{_BOOLS4}, float('nan'), {_BOOLS4}], axis=3)")),
    ("reduce_join([bool [3, 4, 1, 2], nan, ...]) eagerly", _C, _eager(
        f"tf.strings.reduce_join([{_BOOLS4}, float('nan'), {_BOOLS4}], axis=3)")),
    ("reduce_join([bool [1], 1.0]) traced", _C, _traced("tf.strings.reduce_join([np.array([True]), 1.0], axis=0)")),
    ("reduce_join([bool [1], float [1]]) traced", _C, _traced(
        "tf.strings.reduce_join([np.array([True]), np.array([1.0])], axis=0)")),
    ("convert_to_tensor([bool [1], int [1]]) traced", _C, _traced(
        "tf.convert_to_tensor([np.array([True]), np.array([1])])")),
    ("convert_to_tensor([np.bool_, np.float16]) traced", _C, _traced(
        "tf.convert_to_tensor([np.bool_(True), np.float16(2.0)])")),
    ("convert_to_tensor([np.bool_, np.int8]) traced", _C, _traced("tf.convert_to_tensor([np.bool_(True), np.int8(2)])")),
    ("convert_to_tensor([True, 0]) traced", _C, _traced("tf.convert_to_tensor([True, 0])")),
    ("convert_to_tensor([True, 2.5]) traced", _C, _traced("tf.convert_to_tensor([True, 2.5])")),
    ("convert_to_tensor([0, True, 2**40]) traced", _C, _traced("tf.convert_to_tensor([0, True, 2 ** 40])")),
    ("convert_to_tensor([True, 1j]) traced", _C, _traced("tf.convert_to_tensor([True, 1j])")),
    # -- the C conversion walks a list's tensors as sequences (fourth generator seed 3202 #127)
    ("constant([int32 [2, 0]] * 2, float32)", _C, _eager("tf.constant([tf.zeros([2, 0], tf.int32)] * 2, tf.float32)")),
    ("constant([int32 [2, 0]] * 2)", _C, _eager("tf.constant([tf.zeros([2, 0], tf.int32)] * 2)")),
    ("constant([float32 [0]], int32)", _C, _eager("tf.constant([tf.zeros([0])], tf.int32)")),
    ("constant([int32 [2]] * 2, float32)", _C, _eager("tf.constant([tf.constant([1, 2]), tf.constant([3, 4])], tf.float32)")),
    ("constant([int32 [2]], int32)", _C, _eager("tf.constant([tf.constant([1, 2])], tf.int32)")),
    ("constant([int32 [2, 0]] * 2, float32) traced", _C, _traced(
        "tf.constant([tf.zeros([2, 0], tf.int32)] * 2, tf.float32)")),
    # -- the fast path's uint64 conversion of a Python int (1420323002 #53)
    # (each int converted once in TF's worker: its scalar cache keeps the first conversion's tensor)
    ("cholesky_solve(uint64, rhs=-3)", _C, _eager("tf.linalg.cholesky_solve(tf.constant(5, tf.uint64), rhs=-3)")),
    ("maximum(uint64, -7)", _C, _eager("tf.maximum(tf.constant(5, tf.uint64), -7)")),
    ("maximum(uint64, 2**64 + 5)", _C, _eager("tf.maximum(tf.constant(5, tf.uint64), 2 ** 64 + 5)")),
    ("constant([-13], uint64) after constant([-13], uint64) raised: a list is not cached", _C, _after(
        "tf.constant([-13], tf.uint64)", "tf.constant([-13], tf.uint64)")),
    ("cholesky_solve(uint64, rhs=[-5]): the fallback's conversion", _C, _eager(
        "tf.linalg.cholesky_solve(tf.constant(5, tf.uint64), rhs=[-5])")),
    # -- mel_ops._validate_arguments takes the truth of tensor comparisons (1420323002 #24)
    ("linear_to_mel_weight_matrix(upper_edge_hertz=tf.constant(0.5)) traced", _T, _traced(
        "tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=tf.constant(0.5))")),
    ("linear_to_mel_weight_matrix(upper_edge_hertz=tf.constant(0.5))", _T, _eager(
        "tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=tf.constant(0.5))")),
    ("linear_to_mel_weight_matrix(num_mel_bins=tf.constant(3)) traced", _T, _traced(
        "tf.signal.linear_to_mel_weight_matrix(num_mel_bins=tf.constant(3))")),
    ("linear_to_mel_weight_matrix(sample_rate=tf.constant(100.0)) traced", _T, _traced(
        "tf.signal.linear_to_mel_weight_matrix(sample_rate=tf.constant(100.0))")),
    ("linear_to_mel_weight_matrix(sample_rate=argument 100.0)", _T, _traced_of(
        "tf.signal.linear_to_mel_weight_matrix(sample_rate=x, num_mel_bins=3, num_spectrogram_bins=4)",
        "tf.constant(100.0)")),
    ("linear_to_mel_weight_matrix(sample_rate=argument 1000.0)", _T, _traced_of(
        "tf.signal.linear_to_mel_weight_matrix(sample_rate=x, num_mel_bins=3, num_spectrogram_bins=4)",
        "tf.constant(1000.0)")),
    # -- fft_ops' Python on the static shape (fz14_known's fftshift and irfftnd classes, seeds 1420261202 #581, 14 #45)
    ("fftshift of an unknown-rank uint64 spec", _T, _sig2("tf.signal.fftshift(x)", None, "uint64",
                                                          "tf.constant([1, 2, 3], tf.uint64)")),
    ("ifftshift of an unknown-rank float32 spec", _T, _sig2("tf.signal.ifftshift(x)", None, "float32",
                                                            "tf.constant([1.0, 2.0, 3.0])")),
    ("fftshift(axes=0) of an unknown-rank spec", _T, _sig2("tf.signal.fftshift(x, axes=0)", None, "float32",
                                                           "tf.constant([1.0, 2.0, 3.0])")),
    ("fftshift of a [None] spec", _T, _sig2("tf.signal.fftshift(x)", [None], "float32", "tf.constant([1.0, 2.0, 3.0])")),
    ("irfftnd(norm='forward') of a [None, None] spec", _T, _sig2(
        "tf.signal.irfftnd(x, norm='forward')", [None, None], "complex64", "tf.constant([[1 + 1j, 2, 3]], tf.complex64)")),
    ("irfftnd of a [1, None] spec", _T, _sig2("tf.signal.irfftnd(x)", [1, None], "complex64",
                                              "tf.constant([[1 + 1j, 2, 3]], tf.complex64)")),
    ("irfftnd(norm='forward') of a [2, None, 1] spec", _T, _sig2(
        "tf.signal.irfftnd(x, norm='forward')", [2, None, 1], "complex64", "tf.ones([2, 4, 1], tf.complex64)")),
    ("irfftnd(norm='forward') of an unknown-rank spec", _T, _sig2(
        "tf.signal.irfftnd(x, norm='forward')", None, "complex64", "tf.constant([[1 + 1j, 2, 3]], tf.complex64)")),
    ("irfftnd(norm='forward') of a [1, 3] spec", _T, _sig2(
        "tf.signal.irfftnd(x, norm='forward')", [1, 3], "complex64", "tf.constant([[1 + 1j, 2, 3]], tf.complex64)")),
    # -- the ND wrappers iterate an inferred fft_length for a norm (fresh fourteenth generator seed 1420323003 #58)
    ("ifftnd(int32 ndarray, norm='ortho') traced", _T, _traced(
        "tf.signal.ifftnd(input_tensor=np.array([0, 1], dtype=np.int32), norm='ortho')")),
    ("fftnd(complex64 [2], norm='forward') traced", _T, _traced("tf.signal.fftnd(tf.ones([2], tf.complex64), norm='forward')")),
    ("rfftnd(float32 [2], norm='forward') traced", _T, _traced("tf.signal.rfftnd(tf.ones([2]), norm='forward')")),
    ("fftnd(fft_length=[2], norm='forward') traced", _T, _traced(
        "tf.signal.fftnd(tf.ones([2], tf.complex64), fft_length=[2], norm='forward')")),
    ("irfftnd(complex64 [2], norm='forward') traced", _T, _traced(
        "tf.signal.irfftnd(tf.ones([2], tf.complex64), norm='forward')")),
    ("ifftnd(int32 ndarray, norm='ortho') eagerly", _T, _eager(
        "tf.signal.ifftnd(input_tensor=np.array([0, 1], dtype=np.int32), norm='ortho')")),
    # -- softmax's axis swap of a float axis (fresh fourteenth generator seed 1420323003 #199)
    ("softmax(int list, axis=1.5)", _C, _eager("tf.math.softmax([[5, 1], [2, 0]], axis=1.5)")),
    ("softmax([2, 3, 4], axis=0.5)", _C, _eager("tf.math.softmax(tf.ones([2, 3, 4]), axis=0.5)")),
    ("softmax([2, 3, 4], axis=0.5) traced", _C, _traced("tf.math.softmax(tf.ones([2, 3, 4]), axis=0.5)")),
    ("softmax(float list, axis=1.5) traced", _C, _traced("tf.math.softmax([[5.0, 1.0], [2.0, 0.0]], axis=1.5)")),
    ("log_softmax([2, 3, 4], axis=-1.5)", _C, _eager("tf.math.log_softmax(tf.ones([2, 3, 4]), axis=-1.5)")),
    ("softmax([2, 3], axis=1.0)", _C, _eager("tf.math.softmax(tf.ones([2, 3]), axis=1.0)")),
    # -- Polygamma's operands that do not broadcast (fz3_known's polygamma class, fz12 seed 95 #222)
    ("polygamma([3], empty float32)", _T, _eager("tf.math.polygamma(tf.constant([1.0, 2.0, 3.0]), tf.zeros([0]))")),
    ("polygamma([3], empty float32) traced", _T, _traced("tf.math.polygamma(tf.constant([1.0, 2.0, 3.0]), tf.zeros([0]))")),
    ("polygamma([2], ones [2])", _T, _eager("tf.math.polygamma(tf.constant([1.0, 2.0]), tf.ones([2]))")),
    # -- MatrixDiagPartV3 of an unknown rank has an unknown shape (fresh fourteenth generator seed 1420323004 #76)
    ("diag_part(x) - int list [2, 3, 4] of an unknown-rank spec", _T, _sig2(
        "tf.linalg.diag_part(x) - [[[0, 0, 5, 3], [0, 1, 2, 2], [2, 0, 1, 5]], [[1, 3, 1, 0], [2, 3, 1, 0], "
        "[2, 3, 2, 5]]]", None, "int32", "tf.ones([2, 3, 4], tf.int32)")),
    ("diag_part(x) - int list [2, 3, 4] of a [2, 3, 4] spec", _T, _sig2(
        "tf.linalg.diag_part(x) - [[[0, 0, 5, 3], [0, 1, 2, 2], [2, 0, 1, 5]], [[1, 3, 1, 0], [2, 3, 1, 0], "
        "[2, 3, 2, 5]]]", [2, 3, 4], "int32", "tf.ones([2, 3, 4], tf.int32)")),
    ("shape(diag_part(x)) of an unknown-rank spec", _T, _sig2("tf.shape(tf.linalg.diag_part(x))", None, "int32",
                                                              "tf.ones([2, 3, 4], tf.int32)")),
    # -- MatrixBandPart's kernel checks are run-time ones (fz14_known's seed 1420261202 #494)
    ("+band_part(uint8 [] spec, 5, 1)", _T, _sig2("+tf.linalg.band_part(input=x, num_lower=5, num_upper=1)", [],
                                                  "uint8", "tf.constant(7, tf.uint8)")),
    ("band_part(uint8 [] spec, 5, 1)", _T, _sig2("tf.linalg.band_part(input=x, num_lower=5, num_upper=1)", [], "uint8",
                                                 "tf.constant(7, tf.uint8)")),
    ("band_part(x, 5, 1) of a [2, 2] spec, then + bool", _T, _sig2(
        "tf.linalg.band_part(x, 5, 1) + tf.constant(True)", [2, 2], "float32", "tf.ones([2, 2])")),
    ("band_part(x, 5, 1) of a [2, 2] spec", _T, _sig2("tf.linalg.band_part(x, 5, 1)", [2, 2], "float32", "tf.ones([2, 2])")),
    ("band_part([2, 2], 1, 5) eagerly", _T, _eager("tf.linalg.band_part(tf.ones([2, 2]), 1, 5)")),
    # -- StatelessRandomBinomial's missing int kernels are looked up when the graph runs (fz14_known's seed 14 #119)
    ("stateless_binomial(int64 counts) then approx_max_k(int64) of a spec", _T, _sig2(
        "(tf.random.stateless_binomial([1, 3, 1, 2], seed=[7, 8], counts=tf.constant([[[[2, 3]], [[3, 3]], "
        "[[-1, 3]]]], tf.int64), probs=x), tf.nn.approx_max_k(np.array([[0, -1], [5, 1]], np.int64), 2))[1]",
        [1, 3, 1, 2], "int64", "tf.constant(np.zeros([1, 3, 1, 2], np.int64))")),
    ("stateless_binomial(int64 counts) + bool of a spec", _T, _sig2(
        "tf.random.stateless_binomial([1, 3, 1, 2], seed=[7, 8], counts=tf.constant([[[[2, 3]], [[3, 3]], "
        "[[-1, 3]]]], tf.int64), probs=x) + tf.constant(True)", [1, 3, 1, 2], "int64",
        "tf.constant(np.zeros([1, 3, 1, 2], np.int64))")),
    ("stateless_binomial(int64 counts) of a spec", _T, _sig2(
        "tf.random.stateless_binomial([1, 3, 1, 2], seed=[7, 8], counts=tf.constant([[[[2, 3]], [[3, 3]], "
        "[[-1, 3]]]], tf.int64), probs=x)", [1, 3, 1, 2], "int64", "tf.constant(np.zeros([1, 3, 1, 2], np.int64))")),
    ("stateless_binomial(int64 counts) eagerly", _T, _eager(
        "tf.random.stateless_binomial([2], seed=[7, 8], counts=tf.constant([2, 3], tf.int64), "
        "probs=tf.constant([0, 1], tf.int64))")),
    # -- complex MulNoNan of scalars (1420323002 #132)
    ("multiply_no_nan(complex128 scalar, np.uint32(0))", _X, _eager(
        "tf.math.multiply_no_nan(x=tf.constant(0.25 + 0j, tf.complex128), y=np.uint32(0))")),
    ("multiply_no_nan(complex64 scalar, 1j)", _X, _eager(
        "tf.math.multiply_no_nan(tf.constant(0.25 + 1j, tf.complex64), tf.constant(1j, tf.complex64))")),
    ("multiply_no_nan of a complex128 [] spec", _X, _sig2("tf.math.multiply_no_nan(x=x, y=np.uint32(0))", [], "complex128",
                                                          "tf.constant(0.25 + 0j, tf.complex128)")),
    # -- a complex source's real part cast to integers (third generator --ext8 seed 3202 #140)
    *[(f"cast({src} [34], {dst})", _P, _eager(f"tf.cast(tf.cast(tf.constant(np.array({_CX}, np.complex128)), "
                                                f"tf.{src}), tf.{dst})"))
      for src in ("complex128", "complex64")
      for dst in ("uint32", "uint64", "int32", "int64", "int8", "uint8", "int16", "uint16")],
    ("cast(complex128 [4, 1, 2], uint32)", _P, _eager(
        "tf.cast(tf.constant(np.array([complex(*p) for p in [[0.5, 5e-324], [6e-08, 1e+30], [1e10, -2.0], "
        "[float('nan'), -0.0], [float('nan'), -2.0], [-7.25, float('inf')], [float('inf'), 0.0], [6e-08, 0.0]]], "
        "np.complex128).reshape((4, 1, 2))), tf.uint32)")),
    # -- convolutions' checks before the channels-first refusal (1420323001 #203)
    ("convolution(int16 [3, 2, 1], 3, 'NCHW')", _W, _eager(
        "tf.nn.convolution(input=tf.constant(np.array([[[0], [-1]], [[7], [5]], [[1], [1]]], np.int16)), filters=3, "
        "data_format='NCHW')")),
    ("convolution(int16 [3, 2, 1], 3, 'NCW')", _W, _eager(
        "tf.nn.convolution(input=tf.constant(np.array([[[0], [-1]], [[7], [5]], [[1], [1]]], np.int16)), filters=3, "
        "data_format='NCW')")),
    ("convolution(float64 [3, 2, 1], 3.0, 'NCHW')", _W, _eager(
        "tf.nn.convolution(input=tf.ones([3, 2, 1], tf.float64), filters=3.0, data_format='NCHW')")),
    ("convolution(float32 [1, 2, 5], [2, 2, 3], 'NCHW')", _W, _eager(
        "tf.nn.convolution(input=tf.ones([1, 2, 5]), filters=np.ones([2, 2, 3], np.float32), data_format='NCHW')")),
    ("convolution(int32 [1, 2, 5], [2, 2, 3], 'NCW')", _W, _eager(
        "tf.nn.convolution(input=tf.ones([1, 2, 5], tf.int32), filters=np.ones([2, 2, 3], np.int32), "
        "data_format='NCW')")),
    ("conv2d_transpose(int8 variable, uint64 filter, [], 'NCHW')", _W, _eager(
        "tf.nn.conv2d_transpose(tf.Variable(tf.ones([3, 2, 1], tf.int8)), filters=np.array(3, np.uint64), "
        "output_shape=[], strides=[2, 0], data_format='NCHW')")),
    ("conv2d_transpose(int8 variable, uint64 filter, tensor shape, 'NCHW')", _W, _eager(
        "tf.nn.conv2d_transpose(tf.Variable(tf.ones([3, 2, 1], tf.int8)), filters=np.array(3, np.uint64), "
        "output_shape=tf.constant([1, 1, 1, 1]), strides=[2, 0], data_format='NCHW')")),
    ("conv2d_transpose(float32, 'NCHW') computes", _W, _eager(
        "tf.nn.conv2d_transpose(tf.ones([1, 1, 2, 2]), filters=np.ones([2, 2, 1, 1], np.float32), "
        "output_shape=[1, 1, 3, 3], strides=1, padding='VALID', data_format='NCHW')")),
    ("conv2d_transpose(float64, float32 filter, 'NCHW')", _W, _eager(
        "tf.nn.conv2d_transpose(tf.ones([1, 1, 2, 2], tf.float64), filters=np.ones([2, 2, 1, 1], np.float32), "
        "output_shape=[1, 1, 3, 3], strides=1, padding='VALID', data_format='NCHW')")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)   # (complex: part by part)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_list_attrs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_grappler_rewrites(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.xfunctions")
@EDGES.parametrize("ops.xfunctions")
def test_multiply_no_nan_scalars(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_complex_to_integer_casts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-wrapper-order")
@EDGES.parametrize("ops.nn-wrapper-order")
def test_channels_first_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz32b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
