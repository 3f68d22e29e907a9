"""Rules behind the twentieth fuzzer's classes that fz40 closed (fresh campaigns of session 40: seeds
4020261201- and 1420403001-), and the programs of fz20_known.py entries found stale, each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values bit for bit (a NaN matching any
NaN), or raises the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape, traced as _traced, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"


def _tape2(expr: str, a: str, b: str) -> Callable[[Any], Any]:
    """The expression of watched `a` and `b` under a GradientTape, and its gradients (both)."""
    def run(tf: Any) -> Any:
        x, y = eval(a, {"tf": tf, "np": np}), eval(b, {"tf": tf, "np": np})  # noqa: S307 - our own text
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            tape.watch(y)
            out = eval(expr, {"tf": tf, "np": np, "a": x, "b": y})  # noqa: S307 - our own text
        return [out, tape.gradient(out, [x, y])]
    return run


# --- GatherNd's kernel refuses a scalar params first, whatever the indices' shape: indices of depth 0 ([0], [2, 0])
# gather whole params of a vector, yet of a scalar they are "params must be at least a vector" eagerly and when a
# graph runs (GatherNdShape passes them: the refusal is the kernel's)
def _gather_nd_cases() -> list[tuple[str, str, object]]:
    out = []
    for p in ("tf.constant(4.0, tf.bfloat16)", "tf.constant(7, tf.int64)", "tf.constant([1.0, 2.0])",
              "tf.constant([[1, 2]], tf.int32)", "tf.zeros([0])", "tf.constant(True)"):
        for ind in ("tf.constant([], tf.int64)", "tf.zeros([2, 0], tf.int32)", "tf.zeros([0, 0], tf.int32)",
                    "tf.zeros([0, 1], tf.int32)", "tf.constant([0])", "tf.constant(0)"):
            call = f"tf.raw_ops.GatherNd(params={p}, indices={ind})"
            out.append((f"GatherNd params {p} indices {ind}", _K, _eager(call)))
            out.append((f"GatherNd params {p} indices {ind} in a tf.function", _T, _traced(call)))
            out.append((f"tf.gather_nd params {p} indices {ind}", _K, _eager(f"tf.gather_nd({p}, {ind})")))
    for spec in ([], None, [2]):
        out.append((f"GatherNd of a {spec} params spec, indices [0]", _T, _sig(
            "tf.raw_ops.GatherNd(params=x, indices=tf.constant([], tf.int64))", (spec, "float32"),
            "tf.constant(4.0)" if spec != [2] else "tf.constant([4.0, 5.0])")))
    return out


# --- fz20_known.py entries whose programs agree on this code (removed from the list): oneDNN's NCHW
# Conv2DBackpropFilter with a filter_sizes of two elements under a tape (tape seed 2920261205 #140)
def _conv_filter_sizes_cases() -> list[tuple[str, str, object]]:
    out = []
    x2 = "[[4.0, -0.0, 0.75, -0.5], [-0.5, 7.0, 0.75, 0.25], [-1.0, 0.75, 1.0, 2.5], [0.75, 2.5, 0.5, 4.0]]"
    x3 = "[[0.0, 0.75, 7.0, -1.0], [-0.5, 4.0, 0.5, 7.0], [-3.0, -1.0, 0.001, -0.5], [-0.5, 7.0, 1.0, -0.0]]"
    for dt in ("bfloat16", "float32", "float64"):
        # (oneDNN's NHWC kernel of a rank-2 input aborts TF's process, a CHECK in GetTensorDimIndex: not compared)
        for fmt in ("NCHW", "NHWC") if dt == "float64" else ("NCHW",):
            for fs in ("[4, 4]", "[3]", "[1, 1, 1, 1]"):
                call = (f"tf.raw_ops.Conv2DBackpropFilter(strides=[1, 3, 2, 1], use_cudnn_on_gpu=False, input=x[0], "
                        f"data_format='{fmt}', dilations=[1, 2, 1, 1], out_backprop=x[1], "
                        f"filter_sizes=tf.constant({fs}, tf.int32), padding='VALID')")
                src = f"tf.constant([{x2}, {x3}], tf.{dt})"
                out.append((f"Conv2DBackpropFilter {dt} {fmt} filter_sizes {fs} under a tape", _K, _tape(call, src)))
                out.append((f"Conv2DBackpropFilter {dt} {fmt} filter_sizes {fs}", _K, _eager(
                    f"(lambda x: {call})({src})")))
    return out


# ParseSequenceExampleV2 of rank-3 string inputs and a context_dense_defaults of an input_signature's [1] (sig seed
# 3120261211 #144): TF's shape function refuses it at trace
_PSE_CALL = (
    "tf.raw_ops.ParseSequenceExampleV2(context_dense_defaults=[x], feature_list_ragged_keys=tf.reshape(tf.constant("
    "[b'a', b'\\t', b' x y ', b'\\t', b'\\t', b'123'], tf.string), [1, 2, 3]), Nfeature_list_dense=0, "
    "feature_list_sparse_keys=tf.reshape(tf.constant([b' x y ', b'123', b'nan', b'\\t', b'', b' x y '], tf.string), "
    "[1, 2, 3]), feature_list_dense_missing_assumed_empty=tf.zeros([1, 2, 3], tf.bool), serialized=tf.reshape("
    "tf.constant([b'123', b'e', b'', b'-4.5', b'AbC', b'nan'], tf.string), {ser}), context_ragged_keys="
    "tf.reshape(tf.constant([b' x y '], tf.string), [1]), debug_name=tf.reshape(tf.constant([b'AbC', b'nan', b'123', "
    "b'AbC', b'a', b''], tf.string), {ser}), context_dense_keys=tf.reshape(tf.constant([b'123', b'AbC', b'a', b'a', "
    "b'\\t', b' x y '], tf.string), [1, 2, 3]), context_sparse_keys=tf.reshape(tf.constant([b'nan', b'123', b'-4.5', "
    "b' x y ', b'-4.5', b'e'], tf.string), [1, 2, 3]), Ncontext_sparse=3, feature_list_dense_keys=tf.reshape("
    "tf.constant([b'e', b'e', b'\\t', b'a', b'nan', b' x y '], tf.string), [1, 2, 3]))")


def _parse_sequence_cases() -> list[tuple[str, str, object]]:
    out = []
    for ser in ("[1, 2, 3]", "[6]"):
        call = _PSE_CALL.format(ser=ser)
        for spec in ([1], None, [None]):
            out.append((f"ParseSequenceExampleV2 serialized {ser} defaults of {spec}", _T, _sig(
                call, (spec, "int64"), "tf.constant([2], tf.int64)")))
        out.append((f"ParseSequenceExampleV2 serialized {ser} in a tf.function", _T, _traced(
            call.replace("[x]", "[tf.constant([2], tf.int64)]"))))
    return out


# complex64 MatMul(transpose_b=True) of 3x4 operands full of inf and NaN parts under a tape (seed 3120261201 #226)
_MM_A = ("[complex(float('inf'), -1.0), complex(0.5, -3.0), complex(7.0, -3.4e+38), complex(0.0, 0.25), "
         "complex(float('nan'), float('nan')), complex(float('nan'), float('inf')), complex(float('nan'), "
         "-float('inf')), complex(0.0, 1.0), complex(-1.0, -3.4e+38), complex(-float('inf'), 0.0), complex(0.25, -1.5), "
         "complex(float('nan'), float('inf'))]")
_MM_B = ("[complex(65504.0, -3.0), complex(0.75, 3.0e+38), complex(float('nan'), float('inf')), complex(float('nan'), "
         "float('inf')), complex(0.0, 0.0), complex(float('inf'), 65504.0), complex(-0.0, -1.5), complex(0.0, 7.0), "
         "complex(float('nan'), float('nan')), complex(0.0, 2.5), complex(-float('inf'), 7.0), complex(float('nan'), "
         "-float('inf'))]")


def _matmul_grad_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("complex64", "complex128"):
        a = f"tf.constant(np.array({_MM_A}, np.{dt}).reshape((3, 4)))"
        b = f"tf.constant(np.array({_MM_B}, np.{dt}).reshape((3, 4)))"
        out.append((f"MatMul {dt} transpose_b of fuzz20 seed 3120261201 #226 under a tape", _K, _tape2(
            "tf.raw_ops.MatMul(a=a, b=b, transpose_b=True)", a, b)))
        out.append((f"MatMul {dt} transpose_b grad_a of fuzz20 seed 3120261201 #226", _K, _tape2(
            "tf.raw_ops.MatMul(a=a, b=b, transpose_b=True, grad_a=True)", a, b)))
    return out


# float64 MatrixSolveLs of 4x4 systems with an l2_regularizer under a tape (seed 3220261209 #63's class)
def _solve_ls_cases() -> list[tuple[str, str, object]]:
    out = []
    for k in range(6):
        m = f"tf.constant(np.random.default_rng({k}).standard_normal((4, 4)))"
        r = f"tf.constant(np.random.default_rng({k + 10}).standard_normal((4, {1 + k % 3})))"
        for l2 in ("0.0", "0.5", "2.0"):
            for fast in (False,):   # (fast=True: the normal equations' last bits differ; fz20_known's entry stays)
                out.append((f"MatrixSolveLs float64 4x4 #{k} l2 {l2} fast {fast} under a tape", _K, _tape2(
                    f"tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant({l2}, tf.float64), "
                    f"fast={fast})", m, r)))
    return out


# --- make_tensor_proto: a graph tensor reaches the shape's product first (a graph tensor's shape: NotImplementedError;
# a shape of no elements: an empty array), then _AssertCompatible's TypeError; numpy_compat's cast wraps an integer
# out of the dtype's range
def _make_tensor_proto_cases() -> list[tuple[str, str, object]]:
    out = []
    for shape in ("tf.constant([2, 0], tf.int32)", "[2, 0]", "[2]", "None", "tf.constant([2], tf.int32)"):
        for verify in (True, False):
            out.append((f"make_tensor_proto of a graph tensor shape {shape} verify {verify}", _T, _sig(
                f"(tf.make_tensor_proto(x, shape={shape}, verify_shape={verify}), x)[1]", ([2], "float32"),
                "tf.constant([1.0, 2.0])")))
    for vals, dt in (("[[3, 2], [-9223372036854775808, 1]]", "int16"), ("[3, 70000]", "int16"), ("[2 ** 63]", "int16"),
                     ("[-1, 256, 300]", "uint8"), ("[2 ** 40, -5]", "int32"), ("-9223372036854775808", "int8"),
                     ("[1.5, 2.5]", "int32"), ("[3, 70000]", "float16"), ("[True, 2]", "int16")):
        out.append((f"make_tensor_proto({vals}, {dt})", _K, _eager(
            f"tf.make_ndarray(tf.make_tensor_proto({vals}, dtype='{dt}'))")))
    return out


# --- tf.fill's layout: call_with_layout reads layout.mesh eagerly before gen_array_ops.fill converts dims and value
def _fill_layout_cases() -> list[tuple[str, str, object]]:
    out = []
    for val in ("[[1e300, 7.0], [0.5, 3e38]]", "1.0", "'a'", "[1.0, 2.0]"):
        for dims in ("tf.TensorShape([4, 3])", "[-1]", "[2]"):
            out.append((f"fill {dims} {val} layout 'NHWC'", _K, _eager(f"tf.fill({dims}, value={val}, layout='NHWC')")))
            out.append((f"fill {dims} {val} layout 'NHWC' in a tf.function", _T, _traced(
                f"tf.fill({dims}, value={val}, layout='NHWC')")))
    return out


# --- signal.frame: (length - frame_length) // frame_step (FloorDiv) or frame_length + frame_step * (n - 1) (AddV2,
# pad_end) of the two given dtypes; PadV2's int32/int64 paddings; stft's hann_window reads frame_length as int32
_FR = ("np.int64(2)", "2", "np.int32(3)", "np.int16(2)", "tf.constant(2, tf.int64)", "tf.constant(3, tf.uint8)")


def _frame_cases() -> list[tuple[str, str, object]]:
    out = []
    for fl in _FR:
        for fs in _FR:
            for pad in (False, True):
                call = f"tf.signal.frame(tf.reshape(tf.range(10.0), [2, 5]), {fl}, {fs}, pad_end={pad})"
                out.append((f"frame {fl} {fs} pad_end {pad}", _K, _eager(call)))
    for fl, fs in (("np.int64(2)", "np.int64(2)"), ("np.int64(2)", "2"), ("2", "2"), ("np.int32(4)", "np.int32(2)")):
        for sig in ("tf.ones([2, 5])", "tf.ones([2, 5], tf.int32)", "np.array([[-4, 3, 1], [5, 1, -4]], np.int32)"):
            for win in ("", ", window_fn=None"):
                out.append((f"stft {sig} {fl} {fs}{win}", _K, _eager(f"tf.signal.stft({sig}, {fl}, {fs}{win})")))
    out.append(("stft of fourteenth generator tape seed 1420403003 #108", _K, _tape(
        "tf.signal.stft(signals=np.array([[[-4, 3, 1], [5, 1, -4], [-4, 1, -1]]], dtype=np.int32), "
        "frame_length=np.int64(2), frame_step=np.int64(2), name='op') + x", "tf.constant(1.0)")))
    return out


# --- is_non_decreasing / is_strictly_increasing: check_ops compares x's diff (or [] of x's dtype) with 0, so a
# complex x of any size is refused (TypeError at trace for an unknown shape)
def _monotonic_cases() -> list[tuple[str, str, object]]:
    out = []
    for fn in ("is_non_decreasing", "is_strictly_increasing"):
        for dt, val in (("complex64", "tf.constant([0.5 - 1j, -1.5 - 1j], tf.complex64)"),
                        ("complex128", "tf.constant([1j], tf.complex128)"), ("float32", "tf.constant([1.0, 2.0])"),
                        ("int32", "tf.constant([3], tf.int32)")):
            n = val.count(",") + 1 - (1 if "tf." in val.split(",")[-1] else 0)   # (the value's length)
            for spec in (None, [None], [n]):
                out.append((f"{fn} {dt} of {spec}", _T, _sig(f"tf.math.{fn}(x)", (spec, dt), val)))
            out.append((f"{fn} {dt} eagerly", _K, _eager(f"tf.math.{fn}({val})")))
            out.append((f"{fn} {dt} scalar eagerly", _K, _eager(f"tf.math.{fn}({val}[0])")))
    return out


# --- max_pool_with_argmax: MaxPoolingWithArgmaxOp's constructor refuses a batch window or stride before Compute
# reads the input's rank; a graph's shape function wants rank 4 first
def _max_pool_argmax_cases() -> list[tuple[str, str, object]]:
    out = []
    for inp in ("2 ** 31", "tf.constant(2.0)", "tf.ones([4, 4, 3])", "tf.ones([1, 4, 4, 3])"):
        for ks, st in (([2, 1, 1, 3], [2, 1, 1, 3]), ([1, 2, 2, 1], [2, 1, 1, 1]), ([2, 2, 2, 1], [1, 1, 1, 1]),
                       ([1, 2, 2, 1], [1, 1, 1, 1]), ([1, 2, 2, 3], [1, 2, 2, 1])):
            call = f"tf.nn.max_pool_with_argmax({inp}, {ks}, {st}, 'SAME')"
            out.append((f"max_pool_with_argmax {inp} ksize {ks} strides {st}", _K, _eager(call)))
            out.append((f"max_pool_with_argmax {inp} ksize {ks} strides {st} in a tf.function", _T, _traced(call)))
    return out


# --- tf.matmul with a sparse flag beside an operand above rank 2: its second path (conj, transpose = True), then
# BatchMatMulV3 with adj_y = adjoint_b or transpose_b when output_type differs (an int adjoint: make_bool's TypeError)
def _matmul_sparse_flag_cases() -> list[tuple[str, str, object]]:
    out = []
    ops = {"a3": "tf.reshape(tf.range(8), [2, 2, 2])", "a2": "tf.constant([[1, 2], [3, 4]])",
           "f3": "tf.reshape(tf.range(8.0), [2, 2, 2])", "f2": "tf.constant([[1.0, 2.0], [3.0, 4.0]])"}
    for an in ("a3", "a2", "f3", "f2"):
        for bn in ("a3", "f2", "a2"):
            for kw in ("b_is_sparse=True, output_type=tf.int64", "a_is_sparse=True, output_type=tf.float32",
                       "b_is_sparse=True, adjoint_b=1, output_type=tf.int64",
                       "a_is_sparse=True, transpose_a=1, output_type=tf.int64", "b_is_sparse=True, output_type=tf.float32",
                       "a_is_sparse=True, adjoint_a=True, output_type=tf.int32", "b_is_sparse=True, adjoint_b=1"):
                out.append((f"matmul {an} {bn} {kw}", _K, _eager(f"tf.matmul({ops[an]}, {ops[bn]}, {kw})")))
    out.append(("matmul of fourteenth generator seed 1420403002 #53", _K, _eager(
        "tf.matmul([[[[5, 0, 2]]], [[[3, 3, 2]]]], 1e-40, transpose_b=False, adjoint_b=1, b_is_sparse=np.bool_(True), "
        "output_type=tf.int64)")))
    return out


# --- linalg.diag in a graph: _apply_op_helper converts diagonal before padding_value (a float64 array beside a
# float32 padding tensor is TypeError); eagerly the fast path takes T from the tensor
def _diag_cases() -> list[tuple[str, str, object]]:
    out = []
    for d in ("np.array([[7.0, 2.5]])", "[[7.0, 2.5]]", "np.array([[7, 2]])", "[[7, 2]]",
              "np.array([[7.0, 2.5]], np.float32)"):
        for p in ("tf.constant(0.5)", "tf.constant(0.5, tf.float64)", "tf.constant(1)", "0.5"):
            call = f"tf.linalg.diag({d}, k=1, padding_value={p})"
            out.append((f"diag {d} padding {p}", _K, _eager(call)))
            out.append((f"diag {d} padding {p} in a tf.function", _T, _traced(call)))
    return out


# --- TridiagonalSolve: perturb_singular without partial_pivoting is the kernel's InvalidArgumentError (a graph runs
# into it); the perturbed solve's reciprocal of a complex pivot is std::complex's operator/ (Annex G)
_TRI_X4 = ("np.array([complex(-0.0, 0.0), complex(-1.0, 0.0), complex(-3.4e+38, 4.0), complex(1e-40, -1.4e-45), "
           "complex(float('nan'), float('inf')), complex(-3.0, -3.0), complex(0.0, -1.5), complex(65504.0, 0.0), "
           "complex(0.0, -1.5), complex(float('inf'), 4.0), complex(-float('inf'), -3.0), complex(float('nan'), "
           "-float('inf'))], np.{dt}).reshape((4, 3, 1))")


def _tridiagonal_cases() -> list[tuple[str, str, object]]:
    out = []
    d = "tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 0.5, 0.0]])"
    r = "tf.constant([[1.0], [2.0], [3.0]])"
    for pp in (False, True):
        for ps in (False, True):
            call = f"tf.raw_ops.TridiagonalSolve(diagonals={d}, rhs={r}, partial_pivoting={pp}, perturb_singular={ps})"
            out.append((f"TridiagonalSolve pivoting {pp} perturb {ps}", _K, _eager(call)))
            out.append((f"TridiagonalSolve pivoting {pp} perturb {ps} in a tf.function", _T, _traced(call)))
    for dt in ("complex64", "complex128"):
        rhs = (f"tf.constant(np.array([-1.5 - 1j, -1 + 1j, 7 - 3j, 7 + 0j], np.{dt}).reshape((4, 1, 1)))")
        # (without perturb_singular TF 2.21 gave NaN for the 1x1 system of -inf - 3j in this batch and -0 - 0j alone:
        # not compared)
        for ps in (True,):
            out.append((f"TridiagonalSolve {dt} non-finite 1x1 systems perturb {ps}", _K, _eager(
                f"tf.raw_ops.TridiagonalSolve(rhs={rhs}, perturb_singular={ps}, diagonals=tf.constant("
                f"{_TRI_X4.format(dt=dt)}))")))
        for den in ("complex(float('nan'), float('inf'))", "complex(float('inf'), float('nan'))", "complex(0.0, 0.0)",
                    "complex(float('nan'), 0.0)", "complex(-float('inf'), 1.0)", "complex(1e-30, 1e-30)"):
            out.append((f"TridiagonalSolve {dt} perturbed 1x1 of {den}", _K, _eager(
                f"tf.raw_ops.TridiagonalSolve(rhs=tf.constant([[-1 + 1j], [2 - 1j]], tf.{dt})[:1], perturb_singular=True, "
                f"diagonals=tf.constant([[0j], [{den}], [0j]], tf.{dt}))")))
    return out


# --- AvgPoolGrad of float16: TF's own AvgPoolingGradOp (oneDNN's kernel is registered for float32 and bfloat16 only),
# whose loop reads a gradient of another height or width than the window gives
def _avg_pool_grad_cases() -> list[tuple[str, str, object]]:
    out = []
    call = ("tf.raw_ops.AvgPoolGrad(strides=[1, 1, 2, 1], padding='VALID', grad=x, orig_input_shape=tf.constant("
            "[2, 4, 2, 1], tf.int32), ksize=[1, 3, 2, 1])")
    for dt in ("float16", "float64"):   # (oneDNN's float32/bfloat16 reads: fz20_known's AvgPoolGrad entries)
        for shape in ([2, 4, 2, 1], [2, 2, 1, 1], [2, 3, 2, 1]):
            n = int(np.prod(shape))
            g = f"tf.cast(tf.reshape(tf.range(1, {n + 1}, dtype=tf.float32), {shape}), tf.{dt})"
            out.append((f"AvgPoolGrad {dt} grad {shape}", _K, _eager(f"(lambda x: {call})({g})")))
            out.append((f"AvgPoolGrad {dt} grad {shape} of [2, None, 2, 1]", _T, _sig(call, ([2, None, 2, 1], dt), g)))
        g = f"tf.cast(tf.reshape(tf.range(48, dtype=tf.float32), [3, 2, 2, 4]), tf.{dt})"
        out.append((f"AvgPoolGrad {dt} SAME window past the input", _K, _eager(
            f"tf.raw_ops.AvgPoolGrad(padding='SAME', ksize=[1, 1, 3, 1], grad={g}, orig_input_shape=[3, 2, 2, 4], "
            "strides=[1, 3, 1, 1])")))
    return out


# --- `bool_tensor * value` of a complex value: converted as complex, then to bool through int32 (Cast's real part)
def _bool_mul_cases() -> list[tuple[str, str, object]]:
    out = []
    for v in ("np.array([0.25 + 0.25j, -1.5 - 3j, 0.5j, 1 + 0j, float('inf') + 0.5j, 2.7 + 0j, 0.9 + 0j])",
              "complex(float('nan'), 1)", "complex(3e9, 0)", "complex(-0.9, 5)", "complex(2, 0)", "np.complex64(0.5 + 2j)",
              "np.array(1.5 - 1j)", "[0.5 + 1j, 2 + 0j]", "np.array([float('nan') + 0j, -2.5 + 0j], np.complex64)"):
        for op in ("*", "+"):
            expr = f"tf.constant([True, True, False, True, True, True, True]) {op} {v}"
            out.append((f"bool {op} {v}", _K, _eager(expr)))
            out.append((f"bool {op} {v} in a tf.function", _T, _traced(expr)))
    return out


# --- MatrixSolve of a complex matrix holding inf/NaN: the LU's min |pivot| > 0 (a NaN pivot fails; |inf + NaNj| is
# inf), so sqrtm's gradient of a NaN entry is "Input matrix is not invertible."
def _complex_solve_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("complex64", "complex128"):
        for m in ("[[complex(float('nan'), 4.0)]]", "[[complex(float('nan'), 1.0), 1], [0, 9]]",
                  "[[complex(float('inf'), 0.0), 1], [0, 2]]", "[[4, 1], [0, 9]]"):
            out.append((f"MatrixSolve {dt} {m}", _K, _eager(
                f"tf.linalg.solve(tf.constant({m}, tf.{dt}), tf.ones([{m.count('], [') + 1}, 1], tf.{dt}))")))
        for m in ("[[complex(float('nan'), 4.0)]]", "[[4.0, 1.0], [0.0, 9.0]]"):
            out.append((f"sqrtm {dt} {m} under a tape", _K, _tape("tf.linalg.sqrtm(x)", f"tf.constant({m}, tf.{dt})")))
    return out


# --- a string input given as a list holding a variable, in a tf.function: op_def_library converts the list with
# dtype string, so an element that is no text is make_tensor_proto's TypeError before the variable's Cast
def _string_list_cases() -> list[tuple[str, str, object]]:
    out = []
    for lst in ("[np.uint16(2), [1, 3], v]", "['a', v]", "[v, 3]", "[b'x', v, 'y']", "[2.5, v]"):
        for var in ("tf.Variable(-3.0)", "tf.Variable('s')"):
            for call in ("tf.strings.unsorted_segment_join({l}, segment_ids=[0] * {n}, num_segments=1)",
                         "tf.strings.length({l})", "tf.strings.upper({l})"):
                n = lst.count(",") + 1 - lst.count("[1, 3]")
                expr = call.format(l=lst, n=n)
                out.append((f"{expr} of {var} in a tf.function", _T, _var_traced(expr, var)))
    return out


# --- make_tensor_proto of a variable in a tf.function: its __array__ is numpy(), refused in a graph
# (NotImplementedError); image.adjust_gamma's _assert(gamma >= 0) refuses a NaN gamma too
def _variable_proto_and_gamma_cases() -> list[tuple[str, str, object]]:
    out = []
    for var in ("tf.Variable(0.001, dtype=tf.float64)", "tf.Variable([1, 2])", "tf.Variable('s')"):
        for kw in ("", ", shape=[0]", ", dtype=tf.float64"):
            out.append((f"make_tensor_proto of {var}{kw} in a tf.function", _T, _var_traced(
                f"tf.make_tensor_proto(values=v{kw}) and 1", var)))
    for img in ("-1", "tf.constant(2.0)", "tf.constant([[[0.5]]])", "tf.constant([[[7]]], tf.uint8)"):
        for gamma in ("float('nan')", "-1.0", "0.0", "2.0", "float('inf')"):
            out.append((f"adjust_gamma {img} gamma {gamma}", _K, _eager(f"tf.image.adjust_gamma({img}, gamma={gamma})")))
    return out


# --- _GatherNdGrad reads `shape(ref, out_type=indices.dtype)` first: int16 indices are Shape's out_type error
def _dense_grad(expr: str, source: str) -> Callable[[Any], Any]:
    """The expression of a watched `x` under a GradientTape, and its gradient as a dense tensor (an
    IndexedSlices converted)."""
    def run(tf: Any) -> Any:
        x = eval(source, {"tf": tf, "np": np})  # noqa: S307 - our own text
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
        return [y, tf.convert_to_tensor(tape.gradient(y, x))]
    return run


def _gather_nd_grad_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("float32", "complex64", "float64"):
        for idt in ("int16", "int32", "int64"):
            for ind in ("[[0, 0]]", "[[1], [0]]", "[1, 1]"):
                out.append((f"GatherNd {dt} indices {ind} {idt} under a tape", _K, _dense_grad(
                    f"tf.raw_ops.GatherNd(indices=tf.constant({ind}, tf.{idt}), params=x)",
                    f"tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.{dt})")))
    return out


CASES: list[tuple] = [
    *_gather_nd_grad_cases(),
    *_variable_proto_and_gamma_cases(),
    *_string_list_cases(),
    *_make_tensor_proto_cases(),
    *_fill_layout_cases(),
    *_frame_cases(),
    *_monotonic_cases(),
    *_max_pool_argmax_cases(),
    *_matmul_sparse_flag_cases(),
    *_diag_cases(),
    *_tridiagonal_cases(),
    *_avg_pool_grad_cases(),
    *_bool_mul_cases(),
    *_complex_solve_cases(),
    *_gather_nd_cases(),
    *_conv_filter_sizes_cases(),
    *_parse_sequence_cases(),
    *_matmul_grad_cases(),
    *_solve_ls_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz40_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
