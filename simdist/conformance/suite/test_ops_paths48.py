"""keras.ops and KerasTensor on the code paths the suite ran least (a coverage run of the whole suite on simdist, forty-sixth
session: op_core.py 67%, op_nn.py 82%, op_numpy.py 84%, backend_utils.py 50%): the core functions as users call them
(map, scan, associative_scan, scatter/scatter_update and its reductions, slice/slice_update, switch, while_loop,
fori_loop, unstack, cast/saturate_cast, convert_to_tensor, cond, vectorized_map, vectorize's signatures and excluded
arguments, stop_gradient, custom_gradient), eager and on KerasTensors; a KerasTensor's Python protocol (len, int,
float, NumPy and TF conversion, operators and their dtypes, reshape/squeeze, keras.Input's forms); the nn functions
layers, losses and metrics call (activations on integer and float16 inputs, one_hot/multi_hot, the three
cross-entropies' checks, moments and the normalizations, top_k/in_top_k, dot_product_attention with masks, biases,
causality and a single key/value head, conv/conv_transpose/depthwise/separable output shapes, pooling and adaptive
pooling) and the NumPy functions' axis/keepdims/None variants, dtype promotion and symbolic specs, and tf.einsum's
labels (clauses keras.ops, ops.shape-errors).

Every expected value, class and message fragment was observed on TF 2.21 + Keras 3.15 (forty-eighth session: the
probes /work/wt/cov48_logs/probe/*_probe.py run beside simdist; their answers are ops_paths48_expected.py). The calls
are the probes' own text.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.suite import ops_paths48_expected as expected

clause = pytest.mark.clause


def _norm(x):
    """A result as the probes recorded it: [dtype, shape, values] (floats rounded to 6 decimals), a KerasTensor's
    ["KT", shape, dtype, sparse], nested lists/dicts of those, Python scalars as they are; more than 16 elements:
    [dtype, shape, "sum", s, "abs-sum", a] of the rounded values."""
    if isinstance(x, (list, tuple)):
        return [_norm(v) for v in x]
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in sorted(x.items())}
    if type(x).__name__ == "KerasTensor":
        return ["KT", list(x.shape), str(x.dtype), bool(getattr(x, "sparse", False))]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, np.dtype):
        return str(x)
    try:
        a = np.asarray(x)
    except Exception:  # noqa: BLE001 - an unconvertible result is recorded by its type
        return ["unconvertible", type(x).__name__]
    if a.dtype == object:
        return ["obj", repr(a.tolist())[:200]]
    v = a.tolist()
    if a.dtype.kind == "f":
        v = np.round(a.astype(np.float64), 6).tolist()
    elif a.dtype.kind == "c":
        v = [str(c) for c in a.ravel().tolist()]
    n = int(np.prod(a.shape)) if a.shape else 1
    if n > 16 and a.dtype.kind in "fiu":
        r = np.asarray(v, dtype="float64")
        return [str(a.dtype), list(a.shape), "sum", round(float(r.sum()), 4), "abs-sum",
                round(float(np.abs(r).sum()), 4)]
    return [str(a.dtype), list(a.shape), v]


def _same(got, want):
    """Equal, floats within a relative 1e-5 or 1e-6 absolute (the last bits of transcendental and convolution
    kernels differ between CPUs), NaN equal to NaN."""
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if math.isnan(want):
            return math.isnan(got)
        return math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict) and isinstance(got, dict):
        return sorted(got) == sorted(want) and all(_same(got[k], want[k]) for k in want)
    return got == want


def _run(cases, table, what):
    """Each case's outcome against TF 2.21's (``table``): the value, or the error class and its message fragment."""
    assert sorted(cases) == sorted(table), \
        f"{what}: the cases and the recorded answers differ: {sorted(set(cases) ^ set(table))}"
    wrong = []
    for name in sorted(cases):
        want_cls, want = table[name]
        try:
            got_cls, got = "ok", _norm(cases[name]())
        except Exception as e:  # noqa: BLE001 - the class is the observation
            got_cls, got = type(e).__name__, str(e)
        if got_cls != want_cls:
            wrong.append(f"{name}: expected {want_cls} {str(want)[:200]}, got {got_cls}: {str(got)[:200]}")
        elif want_cls == "ok" and not _same(got, want):
            wrong.append(f"{name}: expected {str(want)[:300]}, got {str(got)[:300]}")
        elif want_cls != "ok" and want is not None and want not in got:
            wrong.append(f"{name}: expected {want_cls} with {want!r}, got {got[:300]!r}")
    assert not wrong, f"{len(wrong)} of {len(cases)} {what} calls differ from TF 2.21:\n" + "\n".join(wrong)


def _core_cases(keras, tf):
    ops = keras.ops
    R = {}

    def case(n, f):
        R[n] = f

    f32 = lambda v: np.asarray(v, "float32")
    KT = lambda shape, dtype="float32": keras.KerasTensor(shape, dtype=dtype)
    X = f32([[1, 2, 3], [4, 5, 6]])
    # map
    case("map", lambda: ops.map(lambda x: x * 2, X))
    case("map_tuple_out", lambda: ops.map(lambda x: (x, x[0]), X))
    case("map_dict_in", lambda: ops.map(lambda d: d["a"] + d["b"], {"a": X, "b": X}))
    case("map_sym", lambda: ops.map(lambda x: x * 2, KT((None, 3))))
    case("map_sym_tuple", lambda: ops.map(lambda x: (x, ops.sum(x)), KT((4, 3))))
    # scan
    def fsum(c, x): return c + x, c * 2
    case("scan", lambda: ops.scan(fsum, f32(0.0), f32([1, 2, 3])))
    case("scan_reverse", lambda: ops.scan(fsum, f32(0.0), f32([1, 2, 3]), reverse=True))
    case("scan_len", lambda: ops.scan(lambda c, x: (c + 1, c), f32(0.0), None, length=3))
    case("scan_no_len", lambda: ops.scan(lambda c, x: (c + 1, c), f32(0.0)))
    case("scan_len_mismatch", lambda: ops.scan(fsum, f32(0.0), f32([1, 2, 3]), length=2))
    case("scan_unroll2", lambda: ops.scan(fsum, f32(0.0), f32([1, 2, 3]), unroll=2))
    case("scan_unroll_true", lambda: ops.scan(fsum, f32(0.0), f32([1, 2, 3]), unroll=True))
    case("scan_sym", lambda: ops.scan(fsum, KT(()), KT((5,))))
    case("scan_sym_tuple", lambda: ops.scan(lambda c, x: ((c[0] + x, c[1]), None), (KT(()), KT((2,), "int32")), KT((5,))))
    case("scan_none_y", lambda: ops.scan(lambda c, x: (c + x, None), f32(0.0), f32([1, 2, 3])))
    # associative_scan
    case("ascan", lambda: ops.associative_scan(lambda a, b: a + b, f32([1, 2, 3, 4])))
    case("ascan_rev", lambda: ops.associative_scan(lambda a, b: a + b, f32([1, 2, 3, 4]), reverse=True))
    case("ascan_axis1", lambda: ops.associative_scan(lambda a, b: a * b, X, axis=1))
    case("ascan_tuple", lambda: ops.associative_scan(lambda a, b: (a[0] + b[0], a[1] * b[1]), (f32([1, 2, 3]), f32([1, 2, 3]))))
    case("ascan_mismatch", lambda: ops.associative_scan(lambda a, b: (a[0] + b[0], a[1]), (f32([1, 2, 3]), f32([1, 2]))))
    case("ascan_sym", lambda: ops.associative_scan(lambda a, b: a + b, KT((None, 4)), axis=1))
    case("ascan_sym_tuple", lambda: ops.associative_scan(lambda a, b: (a[0] + b[0], a[1] + b[1]), (KT((3,)), KT((3, 2), "int32"))))
    case("ascan_scalar", lambda: ops.associative_scan(lambda a, b: a + b, f32(3.0)))
    # scatter
    case("scatter", lambda: ops.scatter([[0], [2]], f32([1, 2]), (4,)))
    case("scatter_dup", lambda: ops.scatter([[0], [0]], f32([1, 2]), (3,)))
    case("scatter_2d", lambda: ops.scatter([[0, 1], [1, 0]], np.asarray([3, 4], "int32"), (2, 2)))
    case("scatter_sym", lambda: ops.scatter(KT((2, 1), "int32"), KT((2,)), (4,)))
    case("scatter_update", lambda: ops.scatter_update(np.zeros((4,), "float32"), [[1], [3]], f32([5, 6])))
    case("scatter_update_add", lambda: ops.scatter_update(np.zeros((4,), "float32"), [[0], [0], [1]], f32([1, 1, 1]), reduction="add"))
    case("scatter_update_max", lambda: ops.scatter_update(f32([1, 5, 1]), [[0], [1]], f32([3, 3]), reduction="MAX"))
    case("scatter_update_min", lambda: ops.scatter_update(f32([1, 5, 1]), [[0], [1]], f32([3, 3]), reduction="min"))
    case("scatter_update_mul", lambda: ops.scatter_update(f32([1, 5, 1]), [[0], [1]], f32([3, 3]), reduction="mul"))
    case("scatter_update_bad", lambda: ops.scatter_update(f32([1, 5, 1]), [[0]], f32([3]), reduction="sum"))
    case("scatter_update_rows", lambda: ops.scatter_update(np.zeros((3, 2), "float32"), [[1]], f32([[7, 8]])))
    case("scatter_update_sym", lambda: ops.scatter_update(KT((3, 2)), KT((1, 1), "int32"), KT((1, 2))))
    # slice / slice_update
    case("slice", lambda: ops.slice(X, (0, 1), (2, 2)))
    case("slice_neg1", lambda: ops.slice(X, (1, 0), (1, -1)))
    case("slice_sym", lambda: ops.slice(KT((None, 5)), (0, 1), (2, 3)))
    case("slice_sym_tensor_start", lambda: ops.slice(KT((4, 5)), KT((2,), "int32"), (2, 3)))
    case("slice_update", lambda: ops.slice_update(X, (1, 1), f32([[9, 9]])))
    case("slice_update_sym", lambda: ops.slice_update(KT((4, 5)), (1, 1), KT((2, 2))))
    # switch
    br = [lambda x: x + 1, lambda x: x * 10]
    case("switch0", lambda: ops.switch(0, br, f32([1, 2])))
    case("switch1", lambda: ops.switch(1, br, f32([1, 2])))
    case("switch_clip_hi", lambda: ops.switch(5, br, f32([1, 2])))
    case("switch_clip_lo", lambda: ops.switch(-3, br, f32([1, 2])))
    case("switch_sym", lambda: ops.switch(0, br, KT((2, 3))))
    case("switch_sym_mismatch", lambda: ops.switch(0, [lambda x: x, lambda x: ops.sum(x)], KT((2, 3))))
    case("switch_empty", lambda: ops.switch(0, [], f32([1])))
    # while / fori
    case("while", lambda: ops.while_loop(lambda i: i < 5, lambda i: i + 2, 0))
    case("while_tuple", lambda: ops.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), (0, f32(1.0))))
    case("while_max", lambda: ops.while_loop(lambda i: i < 100, lambda i: i + 1, 0, maximum_iterations=4))
    case("while_list", lambda: ops.while_loop(lambda v: v[0] < 3, lambda v: [v[0] + 1, v[1] + 10], [0, 0]))
    case("while_sym", lambda: ops.while_loop(lambda x: ops.sum(x) < 10, lambda x: x + 1, KT((2,))))
    case("fori", lambda: ops.fori_loop(0, 4, lambda i, v: v + i, 0))
    case("fori_f", lambda: ops.fori_loop(1, 3, lambda i, v: v * 2.0, f32([1, 2])))
    case("fori_sym", lambda: ops.fori_loop(0, 3, lambda i, v: v + 1.0, KT((2, 2))))
    # unstack
    case("unstack", lambda: ops.unstack(X))
    case("unstack_axis", lambda: ops.unstack(X, axis=1))
    case("unstack_axis_neg", lambda: ops.unstack(X, axis=-1))
    case("unstack_num", lambda: ops.unstack(X, num=2))
    case("unstack_num_bad", lambda: ops.unstack(X, num=3))
    case("unstack_sym", lambda: ops.unstack(KT((2, 3))))
    case("unstack_sym_axis", lambda: ops.unstack(KT((2, 3)), axis=1))
    case("unstack_sym_none", lambda: ops.unstack(KT((None, 3))))
    case("unstack_sym_none_num", lambda: ops.unstack(KT((None, 3)), num=2))
    # shape / dtype / cast
    case("shape", lambda: ops.shape(X))
    case("shape_sym", lambda: ops.shape(KT((None, 3))))
    case("shape_list", lambda: ops.shape([1, 2, 3]))
    case("dtype", lambda: ops.dtype(X))
    case("dtype_sym", lambda: ops.dtype(KT((2,), "int8")))
    case("dtype_py", lambda: ops.dtype(3))
    case("cast", lambda: ops.cast(f32([1.7, -1.7]), "int32"))
    case("cast_bool", lambda: ops.cast(f32([0, 2]), "bool"))
    case("cast_sym", lambda: ops.cast(KT((None, 2)), "float16"))
    case("cast_sym_bad", lambda: ops.cast(KT((None, 2)), "floaty"))
    case("cast_bad", lambda: ops.cast(X, "floaty"))
    case("saturate_cast", lambda: ops.saturate_cast(f32([-10, 300, 12.7]), "uint8"))
    case("saturate_cast_i", lambda: ops.saturate_cast(np.asarray([-200, 100000], "int32"), "int8"))
    case("saturate_cast_f16", lambda: ops.saturate_cast(f32([1e6, -1e6]), "float16"))
    case("saturate_cast_i2f", lambda: ops.saturate_cast(np.asarray([2**31 - 1], "int32"), "float32"))
    case("saturate_cast_f2i32", lambda: ops.saturate_cast(f32([3e9, -3e9]), "int32"))
    case("saturate_cast_sym", lambda: ops.saturate_cast(KT((2,)), "uint8"))
    case("saturate_cast_u2i", lambda: ops.saturate_cast(np.asarray([255], "uint8"), "int8"))
    case("saturate_cast_bool", lambda: ops.saturate_cast(f32([2.0]), "bool"))
    # convert_to_tensor
    case("ctt", lambda: ops.convert_to_tensor([1, 2]))
    case("ctt_float", lambda: ops.convert_to_tensor([1.5, 2]))
    case("ctt_dtype", lambda: ops.convert_to_tensor([1, 2], dtype="float16"))
    case("ctt_big_int", lambda: ops.convert_to_tensor([2**40]))
    case("ctt_bool", lambda: ops.convert_to_tensor(True))
    case("ctt_sym", lambda: ops.convert_to_tensor(KT((2,))))
    case("ctt_sym_dtype", lambda: ops.convert_to_tensor(KT((2,)), dtype="int32"))
    case("ctt_np64", lambda: ops.convert_to_tensor(np.asarray([1.0], "float64")))
    case("ctt_trunc", lambda: ops.convert_to_tensor([1.5], dtype="int32"))
    case("ctn", lambda: ops.convert_to_numpy(ops.ones((2,))))
    case("ctn_type", lambda: type(ops.convert_to_numpy(ops.ones((2,)))).__name__)
    case("ctn_sym", lambda: ops.convert_to_numpy(KT((2,))))
    # cond
    case("cond_t", lambda: ops.cond(True, lambda: f32(1.0), lambda: f32(2.0)))
    case("cond_tensor", lambda: ops.cond(ops.convert_to_tensor(False), lambda: f32(1.0), lambda: f32(2.0)))
    case("cond_sym", lambda: ops.cond(KT((), "bool"), lambda: KT((2,)), lambda: KT((2,))))
    case("cond_sym_mismatch", lambda: ops.cond(KT((), "bool"), lambda: KT((2,)), lambda: KT((3,))))
    case("cond_sym_dtype", lambda: ops.cond(KT((), "bool"), lambda: KT((2,)), lambda: KT((2,), "int32")))
    case("cond_sym_none_dim", lambda: ops.cond(KT((), "bool"), lambda: KT((None,)), lambda: KT((2,))))
    case("cond_sym_tuple", lambda: ops.cond(KT((), "bool"), lambda: (KT((2,)), KT(())), lambda: (KT((2,)), KT(()))))
    case("cond_sym_struct_mismatch", lambda: ops.cond(KT((), "bool"), lambda: (KT((2,)), KT(())), lambda: KT((2,))))
    # vectorized_map / vectorize
    case("vmap", lambda: ops.vectorized_map(lambda x: ops.sum(x), X))
    case("vmap_tuple", lambda: ops.vectorized_map(lambda xy: xy[0] * xy[1], (X, X)))
    case("vmap_sym", lambda: ops.vectorized_map(lambda x: ops.sum(x), KT((None, 3))))
    case("vmap_sym_tuple", lambda: ops.vectorized_map(lambda xy: xy[0] + xy[1], (KT((4, 3)), KT((4, 3)))))
    case("vectorize", lambda: ops.vectorize(lambda a, b: a + b)(f32([1, 2]), f32([10, 20])))
    case("vectorize_sig", lambda: ops.vectorize(lambda a, b: ops.matmul(a, b), signature="(d,d),(d)->(d)")(np.ones((2, 3, 3), "float32"), f32([1, 2, 3])))
    case("vectorize_sig_bad", lambda: ops.vectorize(lambda a: a, signature="(d)->")(f32([1, 2])))
    case("vectorize_sig_mismatch", lambda: ops.vectorize(lambda a, b: a + b, signature="(n),(n)->(n)")(f32([1, 2]), f32([1, 2, 3])))
    case("vectorize_excl", lambda: ops.vectorize(lambda a, k: a * k, excluded={1})(f32([1, 2]), 3))
    case("vectorize_excl_kw", lambda: ops.vectorize(lambda a, k=1: a * k, excluded={"k"})(f32([1, 2]), k=3))
    case("vectorize_sig_tuple_out", lambda: ops.vectorize(lambda a: (ops.sum(a), ops.max(a)), signature="(n)->(),()")(X))
    case("vectorize_sig_wrong_outs", lambda: ops.vectorize(lambda a: ops.sum(a), signature="(n)->(),()")(X))
    case("vectorize_sig_core_dims", lambda: ops.vectorize(lambda a: a, signature="(n,m)->(n,m)")(f32([1, 2])))
    case("vectorize_sig_new_dim", lambda: ops.vectorize(lambda a: ops.stack([a, a]), signature="(n)->(k,n)")(X))
    case("is_tensor", lambda: [ops.is_tensor(X), ops.is_tensor(ops.ones(1)), ops.is_tensor(KT((1,))), ops.is_tensor(3)])
    case("stop_gradient", lambda: ops.stop_gradient(X))
    case("stop_gradient_sym", lambda: ops.stop_gradient(KT((None, 2), "int32")))
    def cg():
        @ops.custom_gradient
        def f(x):
            def grad(*args, upstream=None):
                return upstream * 3.0
            return x * 2.0, grad
        x = tf.Variable(f32([1.0, 2.0]))
        with tf.GradientTape() as t:
            y = ops.sum(f(x))
        return [y, t.gradient(y, x)]
    case("custom_gradient", cg)
    case("custom_gradient_sym", lambda: ops.custom_gradient(lambda x: (x * 2, lambda *a, upstream=None: upstream))(KT((2,))))
    return R


def _keras_tensor_cases(keras, tf):
    ops = keras.ops
    R = {}

    def case(n, f):
        R[n] = f

    KT = lambda shape, dtype="float32": keras.KerasTensor(shape, dtype=dtype)
    x = KT((None, 3))
    case("len", lambda: len(x))
    case("len_static", lambda: len(KT((2, 3))))
    case("hasattr_len", lambda: hasattr(x, "__len__"))
    case("int", lambda: int(KT(())))
    case("float", lambda: float(KT(())))
    case("np_asarray", lambda: np.asarray(x))
    case("bool", lambda: bool(x))
    case("iter", lambda: list(iter(KT((2,)))))
    case("tf_convert", lambda: tf.convert_to_tensor(x))
    case("tf_add", lambda: tf.add(x, 1.0))
    case("tf_reduce_sum", lambda: tf.reduce_sum(x))
    case("tf_shape", lambda: tf.shape(x))
    case("eq", lambda: x == x)
    case("ne", lambda: x != 1.0)
    case("hash", lambda: isinstance(hash(x), int))
    case("neg", lambda: -x)
    case("abs", lambda: abs(x))
    case("pow", lambda: x ** 2)
    case("rpow", lambda: 2 ** x)
    case("floordiv", lambda: x // 2)
    case("mod", lambda: x % 2)
    case("matmul", lambda: x @ KT((3, 4)))
    case("rmatmul", lambda: np.ones((2, 5), "float32") @ KT((5, 4)))
    case("and_bool", lambda: KT((2,), "bool") & KT((2,), "bool"))
    case("invert_int", lambda: ~KT((2,), "int32"))
    case("lt_int_float", lambda: KT((2,), "int32") < 1.5)
    case("div_int", lambda: KT((2,), "int32") / 2)
    case("rdiv_int", lambda: 2 / KT((2,), "int32"))
    case("add_int_float", lambda: KT((2,), "int32") + 1.5)
    case("add_int8_int", lambda: KT((2,), "int8") + 3)
    case("mul_f16_f", lambda: KT((2,), "float16") * 2.0)
    case("mul_f16_np64", lambda: KT((2,), "float16") * np.float64(2.0))
    case("add_u8_i8", lambda: KT((2,), "uint8") + KT((2,), "int8"))
    case("getitem", lambda: x[:, 1])
    case("getitem_none", lambda: x[None, ..., 0])
    case("getitem_int", lambda: x[0])
    case("getitem_kt", lambda: KT((4, 3))[KT((), "int32")])
    case("round", lambda: round(x))
    case("round2", lambda: round(x, 2))
    case("repr_head", lambda: repr(KT((2,), "int8"))[:50])
    case("ndim", lambda: [KT((2, None)).ndim, KT(()).ndim])
    case("shape_list", lambda: KT([2, None]).shape)
    case("shape_bad", lambda: KT((2, -1)))
    case("shape_float", lambda: KT((2.0, 3)))
    case("dtype_bad", lambda: KT((2,), "floaty"))
    case("dtype_tf", lambda: KT((2,), tf.int16).dtype)
    case("sparse", lambda: KT((2, 3), sparse=True).sparse)
    case("ragged", lambda: KT((2, 3), ragged=True).ragged)
    case("sparse_ragged", lambda: KT((2, 3), sparse=True, ragged=True))
    case("reshape_method", lambda: x.reshape((3, -1)) if hasattr(x, "reshape") else "no reshape")
    case("squeeze_method", lambda: hasattr(x, "squeeze"))
    case("T", lambda: hasattr(x, "T"))
    case("is_keras_tensor", lambda: [keras.backend.is_keras_tensor(x), keras.backend.is_keras_tensor(np.ones(1))])
    case("input_kt_name", lambda: keras.Input((2,), name="feat").name)
    case("input_batch", lambda: keras.Input((2,), batch_size=4).shape)
    case("input_dtype", lambda: keras.Input((2,), dtype="int8").dtype)
    case("input_tensor", lambda: keras.Input(tensor=KT((None, 2))).shape)
    case("input_sparse", lambda: keras.Input((2,), sparse=True).sparse)
    case("input_bad_shape", lambda: keras.Input(2))
    case("input_batch_shape", lambda: keras.Input(batch_shape=(3, 2)).shape)
    case("input_both", lambda: keras.Input((2,), batch_shape=(3, 2)))
    case("input_none", lambda: keras.Input())
    return R


def _nn_cases(keras, tf):
    ops = keras.ops
    R = {}

    def case(n, f):
        R[n] = f

    f32 = lambda v: np.asarray(v, "float32")
    i32 = lambda v: np.asarray(v, "int32")
    KT = lambda shape, dtype="float32": keras.KerasTensor(shape, dtype=dtype)
    X = f32([[1, 2, 3], [4, 0, -6]])
    nn = ops
    # activations on ints, axis tuples
    case("softmax_axis_tuple", lambda: ops.softmax(X, axis=(0, 1)))
    case("softmax_int", lambda: ops.softmax(i32([1, 2])))
    case("log_softmax_axis_tuple", lambda: ops.log_softmax(X, axis=(0, 1)))
    case("log_softmax_int", lambda: ops.log_softmax(i32([1, 2])))
    case("softmax_sym", lambda: ops.softmax(KT((None, 3), "int32")))
    case("softmax_sym_axis_tuple", lambda: ops.softmax(KT((None, 3)), axis=(0, 1)))
    case("log_softmax_sym", lambda: ops.log_softmax(KT((2, 3), "float16"), axis=0))
    for n in ["relu", "relu6", "sigmoid", "softplus", "softsign", "silu", "log_sigmoid", "hard_sigmoid", "hard_silu", "elu", "selu", "gelu", "celu", "glu", "tanh_shrink", "hard_tanh", "hard_shrink", "soft_shrink", "squareplus", "sparse_plus", "sparse_sigmoid", "sparsemax", "leaky_relu"]:
        case("act_int_" + n, lambda n=n: getattr(ops, n)(i32([[-2, 1], [3, 4]])))
        case("act_sym_int_" + n, lambda n=n: getattr(ops, n)(KT((None, 4), "int32")))
        case("act_f16_" + n, lambda n=n: getattr(ops, n)(np.asarray([[-2, 0.5], [1, 3]], "float16")))
    case("glu_odd", lambda: ops.glu(f32([[1, 2, 3]])))
    case("glu_sym_odd", lambda: ops.glu(KT((2, 3))))
    case("glu_axis0", lambda: ops.glu(f32([[1, 2], [3, 4]]), axis=0))
    case("threshold", lambda: ops.threshold(f32([-1, 0.5, 2]), 0.6, -9.0))
    case("threshold_int", lambda: ops.threshold(i32([-1, 1, 2]), 1, 7))
    case("gelu_exact", lambda: ops.gelu(f32([-1, 0.5, 2]), approximate=False))
    case("leaky_relu_slope", lambda: ops.leaky_relu(f32([-1, 2]), negative_slope=0.5))
    case("elu_alpha", lambda: ops.elu(f32([-1, 2]), alpha=0.5))
    case("celu_alpha", lambda: ops.celu(f32([-1, 2]), alpha=2.0))
    case("squareplus_b", lambda: ops.squareplus(f32([-1, 2]), b=0))
    case("sparsemax_axis0", lambda: ops.sparsemax(X, axis=0))
    case("hard_shrink_t", lambda: ops.hard_shrink(f32([-0.7, 0.2, 1]), threshold=0.6))
    # one_hot / multi_hot
    case("one_hot", lambda: ops.one_hot(i32([0, 2, -1, 5]), 3))
    case("one_hot_axis0", lambda: ops.one_hot(i32([0, 2]), 3, axis=0))
    case("one_hot_dtype", lambda: ops.one_hot(i32([0, 2]), 3, dtype="int32"))
    case("one_hot_float_idx", lambda: ops.one_hot(f32([0.0, 1.9]), 3))
    case("one_hot_sym", lambda: ops.one_hot(KT((None, 2), "int32"), 4))
    case("one_hot_sym_axis", lambda: ops.one_hot(KT((None, 2), "int32"), 4, axis=1))
    case("one_hot_sym_axis_bad", lambda: ops.one_hot(KT((None, 2), "int32"), 4, axis=5))
    case("one_hot_sym_sparse", lambda: ops.one_hot(KT((None, 2), "int32"), 4, sparse=True))
    case("multi_hot", lambda: ops.multi_hot(i32([[0, 2], [1, 1]]), 3))
    case("multi_hot_1d", lambda: ops.multi_hot(i32([0, 2]), 3))
    case("multi_hot_axis0", lambda: ops.multi_hot(i32([[0, 2], [1, 1]]), 3, axis=0))
    case("multi_hot_sym", lambda: ops.multi_hot(KT((None, 2), "int32"), 5))
    case("multi_hot_sym_1d", lambda: ops.multi_hot(KT((4,), "int32"), 5))
    case("multi_hot_dtype", lambda: ops.multi_hot(i32([[0, 2]]), 3, dtype="int32"))
    # crossentropies
    T = f32([[0, 1, 0], [1, 0, 0]]); P = f32([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]])
    case("cce", lambda: ops.categorical_crossentropy(T, P))
    case("cce_logits", lambda: ops.categorical_crossentropy(T, P, from_logits=True))
    case("cce_axis0", lambda: ops.categorical_crossentropy(T, P, axis=0))
    case("cce_shape", lambda: ops.categorical_crossentropy(T, P[:, :2]))
    case("cce_rank0", lambda: ops.categorical_crossentropy(f32(1.0), f32(1.0)))
    case("cce_sym", lambda: ops.categorical_crossentropy(KT((None, 3)), KT((None, 3))))
    case("cce_sym_bad", lambda: ops.categorical_crossentropy(KT((None, 3)), KT((None, 4))))
    case("cce_sym_rank0", lambda: ops.categorical_crossentropy(KT(()), KT(())))
    case("cce_int_target", lambda: ops.categorical_crossentropy(i32([[0, 1]]), f32([[0.3, 0.7]])))
    case("scce", lambda: ops.sparse_categorical_crossentropy(i32([1, 0]), P))
    case("scce_logits", lambda: ops.sparse_categorical_crossentropy(i32([1, 0]), P, from_logits=True))
    case("scce_2d_target", lambda: ops.sparse_categorical_crossentropy(i32([[1], [0]]), P))
    case("scce_shape", lambda: ops.sparse_categorical_crossentropy(i32([1, 0, 1]), P))
    case("scce_rank0_out", lambda: ops.sparse_categorical_crossentropy(i32(1), f32(0.5)))
    case("scce_sym", lambda: ops.sparse_categorical_crossentropy(KT((None,), "int32"), KT((None, 3))))
    case("scce_sym_2d", lambda: ops.sparse_categorical_crossentropy(KT((None, 1), "int32"), KT((None, 3))))
    case("scce_sym_bad", lambda: ops.sparse_categorical_crossentropy(KT((None, 2), "int32"), KT((None, 3))))
    case("scce_float_target", lambda: ops.sparse_categorical_crossentropy(f32([1, 0]), P))
    case("bce", lambda: ops.binary_crossentropy(T, P))
    case("bce_logits", lambda: ops.binary_crossentropy(T, P, from_logits=True))
    case("bce_shape", lambda: ops.binary_crossentropy(T, P[:1]))
    case("bce_sym", lambda: ops.binary_crossentropy(KT((None, 3)), KT((None, 3))))
    case("bce_sym_bad", lambda: ops.binary_crossentropy(KT((None, 3)), KT((None, 2))))
    case("bce_f16", lambda: ops.binary_crossentropy(T.astype("float16"), P.astype("float16")))
    # moments / normalization
    case("moments", lambda: ops.moments(X, axes=[0]))
    case("moments_keep", lambda: ops.moments(X, axes=(0, 1), keepdims=True))
    case("moments_f16", lambda: ops.moments(np.asarray([[1000, 2000], [3000, 60000]], "float16"), axes=0))
    case("moments_int", lambda: ops.moments(i32([[1, 2], [3, 5]]), axes=0))
    case("moments_sync", lambda: ops.moments(X, axes=[1], synchronized=True))
    case("moments_sym", lambda: ops.moments(KT((None, 3, 4)), axes=[0, 1]))
    case("moments_sym_keep", lambda: ops.moments(KT((None, 3, 4)), axes=[-1], keepdims=True))
    case("bn", lambda: ops.batch_normalization(X, f32([1, 1, 1]), f32([4, 1, 0.25]), axis=-1, offset=f32([0, 1, 0]), scale=f32([2, 2, 2]), epsilon=0.0))
    case("bn_axis0", lambda: ops.batch_normalization(X, f32([1, 2]), f32([1, 4]), axis=0))
    case("bn_bad", lambda: ops.batch_normalization(X, f32([1, 1]), f32([1, 1]), axis=-1))
    case("bn_sym", lambda: ops.batch_normalization(KT((None, 3)), KT((3,)), KT((3,)), axis=-1))
    case("bn_sym_bad", lambda: ops.batch_normalization(KT((None, 3)), KT((2,)), KT((3,)), axis=-1))
    case("bn_sym_scale_bad", lambda: ops.batch_normalization(KT((None, 3)), KT((3,)), KT((3,)), axis=-1, scale=KT((4,))))
    case("bn_sym_offset_bad", lambda: ops.batch_normalization(KT((None, 3)), KT((3,)), KT((3,)), axis=-1, offset=KT((2,))))
    case("layer_norm", lambda: ops.layer_normalization(X, gamma=f32([1, 2, 3]), beta=f32([0, 0, 1]), axis=-1, epsilon=1e-3))
    case("layer_norm_noaffine", lambda: ops.layer_normalization(X))
    case("layer_norm_sym", lambda: ops.layer_normalization(KT((None, 3)), axis=-1))
    case("rms_norm", lambda: ops.rms_normalization(X, scale=f32([1, 2, 3])))
    case("rms_norm_eps", lambda: ops.rms_normalization(X, axis=0, epsilon=0.5))
    case("rms_norm_sym", lambda: ops.rms_normalization(KT((None, 3))))
    case("normalize", lambda: ops.normalize(X))
    case("normalize_l1", lambda: ops.normalize(X, axis=0, order=1))
    case("normalize_bad_order", lambda: ops.normalize(X, order=3.5))
    case("normalize_int", lambda: ops.normalize(i32([[3, 4]])))
    case("normalize_sym", lambda: ops.normalize(KT((None, 3)), order=1))
    case("normalize_sym_bad", lambda: ops.normalize(KT((None, 3)), order="x"))
    # top_k / in_top_k
    case("top_k", lambda: ops.top_k(f32([1, 5, 3, 5]), 2))
    case("top_k_unsorted", lambda: ops.top_k(f32([1, 5, 3, 4]), 3, sorted=False))
    case("top_k_sym", lambda: ops.top_k(KT((None, 5)), 2))
    case("top_k_sym_too_big", lambda: ops.top_k(KT((None, 5)), 7))
    case("in_top_k", lambda: ops.in_top_k(i32([1, 0]), P, 1))
    case("in_top_k_k2", lambda: ops.in_top_k(i32([2, 0]), P, 2))
    case("in_top_k_sym", lambda: ops.in_top_k(KT((None,), "int32"), KT((None, 3)), 1))
    case("in_top_k_ties", lambda: ops.in_top_k(i32([1, 2]), f32([[0.5, 0.5, 0.1], [0.25, 0.25, 0.25]]), 1))
    # attention
    Q = np.arange(24, dtype="float32").reshape(1, 3, 2, 4) / 10
    case("dpa", lambda: ops.dot_product_attention(Q, Q, Q))
    case("dpa_causal", lambda: ops.dot_product_attention(Q, Q, Q, is_causal=True))
    case("dpa_scale", lambda: ops.dot_product_attention(Q, Q, Q, scale=0.5))
    case("dpa_mask", lambda: ops.dot_product_attention(Q, Q, Q, mask=np.asarray([[[[True, False, True]] * 3] * 2])))
    case("dpa_bias", lambda: ops.dot_product_attention(Q, Q, Q, bias=np.ones((1, 2, 3, 3), "float32")))
    case("dpa_rank3", lambda: ops.dot_product_attention(Q[0], Q[0], Q[0]))
    case("dpa_sym", lambda: ops.dot_product_attention(KT((None, 3, 2, 4)), KT((None, 5, 2, 4)), KT((None, 5, 2, 6))))
    case("dpa_flash", lambda: ops.dot_product_attention(Q, Q, Q, flash_attention=True))
    case("dpa_gqa", lambda: ops.dot_product_attention(Q, Q[:, :, :1], Q[:, :, :1]))
    case("dpa_bad_heads", lambda: ops.dot_product_attention(Q, np.ones((1, 3, 3, 4), "float32"), np.ones((1, 3, 3, 4), "float32")))
    # conv paths
    img = np.arange(2 * 5 * 5 * 2, dtype="float32").reshape(2, 5, 5, 2) / 10
    k = np.ones((3, 3, 2, 4), "float32") / 9
    case("conv_valid", lambda: ops.conv(img, k))
    case("conv_same_s2", lambda: ops.conv(img, k, strides=2, padding="same"))
    case("conv_dil", lambda: ops.conv(img, k, dilation_rate=2))
    case("conv_bad_ch", lambda: ops.conv(img, np.ones((3, 3, 3, 4), "float32")))
    case("conv_groups", lambda: ops.conv(img, np.ones((3, 3, 1, 4), "float32")))
    case("conv_sym", lambda: ops.conv(KT((None, 7, 7, 2)), KT((3, 3, 2, 4)), strides=2))
    case("conv_sym_bad_ch", lambda: ops.conv(KT((None, 7, 7, 2)), KT((3, 3, 3, 4))))
    case("conv_sym_cf", lambda: ops.conv(KT((None, 2, 7, 7)), KT((3, 3, 2, 4)), data_format="channels_first", padding="same"))
    case("conv_bad_padding", lambda: ops.conv(img, k, padding="full"))
    case("conv_t", lambda: ops.conv_transpose(img, np.ones((3, 3, 4, 2), "float32"), strides=2))
    case("conv_t_same", lambda: ops.conv_transpose(img, np.ones((3, 3, 4, 2), "float32"), strides=2, padding="same"))
    case("conv_t_outpad", lambda: ops.conv_transpose(img, np.ones((3, 3, 4, 2), "float32"), strides=2, output_padding=1))
    case("conv_t_sym", lambda: ops.conv_transpose(KT((None, 5, 5, 2)), KT((3, 3, 4, 2)), strides=2))
    case("conv_t_sym_same", lambda: ops.conv_transpose(KT((None, 5, None, 2)), KT((3, 3, 4, 2)), strides=(2, 3), padding="same"))
    case("conv_t_sym_outpad", lambda: ops.conv_transpose(KT((None, 5, 5, 2)), KT((3, 3, 4, 2)), strides=2, output_padding=(1, 0)))
    case("conv_t_sym_dil", lambda: ops.conv_transpose(KT((None, 5, 5, 2)), KT((3, 3, 4, 2)), dilation_rate=2))
    case("conv_t_sym_bad_ch", lambda: ops.conv_transpose(KT((None, 5, 5, 3)), KT((3, 3, 4, 2))))
    case("conv_t_sym_cf", lambda: ops.conv_transpose(KT((None, 2, 5, 5)), KT((3, 3, 4, 2)), strides=2, data_format="channels_first"))
    case("conv_t_1d_sym", lambda: ops.conv_transpose(KT((None, 6, 2)), KT((4, 3, 2)), strides=3, padding="same", output_padding=2))
    case("dwconv", lambda: ops.depthwise_conv(img, np.ones((3, 3, 2, 2), "float32")))
    case("dwconv_sym", lambda: ops.depthwise_conv(KT((None, 7, 7, 2)), KT((3, 3, 2, 3)), strides=2, padding="same"))
    case("dwconv_sym_bad", lambda: ops.depthwise_conv(KT((None, 7, 7, 2)), KT((3, 3, 3, 3))))
    case("sepconv_sym", lambda: ops.separable_conv(KT((None, 7, 7, 2)), KT((3, 3, 2, 2)), KT((1, 1, 4, 5))))
    case("sepconv", lambda: ops.separable_conv(img, np.ones((3, 3, 2, 2), "float32"), np.ones((1, 1, 4, 3), "float32")))
    # pooling
    case("max_pool", lambda: ops.max_pool(img, 2))
    case("max_pool_same", lambda: ops.max_pool(img, 3, strides=2, padding="same"))
    case("avg_pool_same", lambda: ops.average_pool(img, 2, strides=2, padding="same"))
    case("max_pool_sym", lambda: ops.max_pool(KT((None, 7, None, 3)), (2, 3), strides=(2, 1)))
    case("avg_pool_sym_cf", lambda: ops.average_pool(KT((None, 3, 7, 7)), 2, data_format="channels_first"))
    case("max_pool_1d", lambda: ops.max_pool(f32([[[1], [3], [2], [5]]]), 2))
    case("adaptive_avg", lambda: ops.adaptive_average_pool(img, (2, 3)))
    case("adaptive_max", lambda: ops.adaptive_max_pool(img, 2))
    case("adaptive_avg_sym", lambda: ops.adaptive_average_pool(KT((None, 7, 7, 3)), (2, 3)))
    case("adaptive_max_1d", lambda: ops.adaptive_max_pool(f32([[[1], [3], [2], [5], [0]]]), 2))
    case("adaptive_avg_cf", lambda: ops.adaptive_average_pool(img.transpose(0, 3, 1, 2), 2, data_format="channels_first"))
    case("adaptive_avg_bad_rank", lambda: ops.adaptive_average_pool(f32([1, 2, 3]), 2))
    case("adaptive_avg_up", lambda: ops.adaptive_average_pool(img, (7, 6)))
    case("AdaptiveAvg2D", lambda: keras.layers.AdaptiveAveragePooling2D((2, 2))(img))
    case("AdaptiveMax1D", lambda: keras.layers.AdaptiveMaxPooling1D(3)(f32([[[1], [3], [2], [5], [0], [7], [1]]])))
    case("AdaptiveAvg3D_sym", lambda: keras.layers.AdaptiveAveragePooling3D(2)(keras.Input((5, 6, 7, 3))))
    case("AdaptiveMax2D_cfg", lambda: keras.layers.AdaptiveMaxPooling2D((2, 3), data_format="channels_first").get_config())
    case("psnr", lambda: ops.psnr(f32([[0, 1], [1, 1]]), f32([[0, 0.5], [1, 1]]), 1.0))
    case("psnr_bad", lambda: ops.psnr(f32([[0, 1]]), f32([[0, 0.5, 1]]), 1.0))
    case("ctc_loss", lambda: ops.ctc_loss(i32([[1, 2]]), np.log(np.full((1, 4, 3), 1 / 3, "float32")), i32([2]), i32([4])))
    # einsum's labels: a size-1 dimension broadcasts only under an ellipsis (dot_product_attention's one key/value head)
    _a = np.ones((1, 3, 2, 4), "float32"); _b = np.ones((1, 3, 1, 4), "float32")
    case("einsum_label_no_bcast", lambda: tf.einsum("BTNH,BSNH->BNTS", _a, _b))
    case("einsum_label_no_bcast_lower", lambda: tf.einsum("ij,ij->i", np.ones((2, 3), "float32"), np.ones((1, 3), "float32")))
    case("einsum_ellipsis_bcast", lambda: tf.einsum("...j,...j->...", np.ones((2, 3), "float32"), np.ones((1, 3), "float32")))
    case("einsum_ellipsis_bcast_upper", lambda: tf.einsum("...J,...J->...", np.ones((2, 3), "float32"), np.ones((1, 3), "float32")))
    case("kops_einsum_label_no_bcast", lambda: keras.ops.einsum("BTNH,BSNH->BNTS", _a, _b))
    return R


def _numpy_cases(keras, tf):
    ops = keras.ops
    R = {}

    def case(n, f):
        R[n] = f

    f32 = lambda v: np.asarray(v, "float32")
    i32 = lambda v: np.asarray(v, "int32")
    KT = lambda shape, dtype="float32": keras.KerasTensor(shape, dtype=dtype)
    X = f32([[1, 2, 3], [4, 0, -6]]); I = i32([[1, 2, 3], [4, 0, -6]])
    for n in ["sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "logsumexp", "amax", "amin", "count_nonzero", "median"]:
        f = getattr(ops, n)
        case(n + "_none", lambda f=f: f(X))
        case(n + "_ax1", lambda f=f: f(X, axis=1))
        case(n + "_int", lambda f=f: f(I, axis=0))
        kw = {"keepdims": True}
        case(n + "_keep", lambda f=f: f(X, axis=-1, **kw))
        case(n + "_tuple", lambda f=f: f(X, axis=(0, 1)))
        case(n + "_sym", lambda f=f: f(KT((None, 3, 4)), axis=1))
        case(n + "_sym_keep", lambda f=f: f(KT((None, 3, 4), "int32"), axis=(1, 2), keepdims=True))
        case(n + "_sym_none", lambda f=f: f(KT((None, 3), "bool")))
        case(n + "_bool", lambda f=f: f(np.asarray([[True, False], [True, True]]), axis=0))
        case(n + "_axis_oob", lambda f=f: f(X, axis=2))
        case(n + "_sym_axis_oob", lambda f=f: f(KT((None, 3)), axis=2))
    case("mean_f16", lambda: ops.mean(np.asarray([60000, 60000], "float16")))
    case("mean_u8", lambda: ops.mean(np.asarray([250, 251], "uint8")))
    case("mean_i64", lambda: ops.mean(np.asarray([1, 2], "int64")))
    case("sum_u8", lambda: ops.sum(np.asarray([250, 10], "uint8")))
    case("sum_bool", lambda: ops.sum(np.asarray([True, True])))
    case("sum_i8", lambda: ops.sum(np.asarray([100, 100], "int8")))
    case("sum_sym_i8", lambda: ops.sum(KT((3,), "int8")))
    case("sum_sym_bool", lambda: ops.sum(KT((3,), "bool")))
    case("mean_sym_int", lambda: ops.mean(KT((3,), "int16")))
    case("argmax_keep", lambda: ops.argmax(X, axis=1, keepdims=True))
    case("argmax_none_keep", lambda: ops.argmax(X, keepdims=True))
    case("argmax_nan", lambda: ops.argmax(f32([1, np.nan, 3])))
    case("argmax_negzero", lambda: ops.argmax(f32([-0.0, 0.0])))
    case("clip_int_float", lambda: ops.clip(I, 0.5, 2.5))
    case("clip_bool", lambda: ops.clip(np.asarray([True, False]), 0, 1))
    case("clip_sym", lambda: ops.clip(KT((None, 2), "int8"), 0, 3))
    case("clip_sym_bool", lambda: ops.clip(KT((2,), "bool"), 0, 1))
    case("where1", lambda: ops.where(f32([0, 1, 2])))
    case("where3_int_float", lambda: ops.where(np.asarray([True, False]), 1, 2.5))
    case("where_x_only", lambda: ops.where(np.asarray([True, False]), 1))
    case("where_sym", lambda: ops.where(KT((None, 3), "bool"), KT((None, 3)), 0))
    case("where_sym_1", lambda: ops.where(KT((None, 3), "bool")))
    case("where_none_none", lambda: ops.where(np.asarray([True, False]), None, None))
    case("matmul_1d", lambda: ops.matmul(f32([1, 2]), f32([[1, 0], [0, 1]])))
    case("matmul_int8", lambda: ops.matmul(np.ones((2, 2), "int8"), np.ones((2, 2), "int8")))
    case("matmul_i_f", lambda: ops.matmul(I, X.T))
    case("matmul_sym_1d", lambda: ops.matmul(KT((3,)), KT((None, 3, 4))))
    case("matmul_sym_bad", lambda: ops.matmul(KT((None, 3)), KT((4, 2))))
    case("matmul_sym_int8", lambda: ops.matmul(KT((2, 3), "int8"), KT((3, 2), "int8")))
    case("matmul_sym_bcast", lambda: ops.matmul(KT((None, 1, 2, 3)), KT((5, 3, 4))))
    case("einsum_sym", lambda: ops.einsum("bij,bjk->bik", KT((None, 2, 3)), KT((None, 3, 4))))
    case("einsum_sym_ell", lambda: ops.einsum("...ij,jk->...ik", KT((None, 5, 2, 3)), KT((3, 4))))
    case("einsum_int8", lambda: ops.einsum("ij,jk->ik", np.ones((2, 2), "int8"), np.ones((2, 2), "int8")))
    case("einsum_sym_i8", lambda: ops.einsum("ij,jk->ik", KT((2, 2), "int8"), KT((2, 2), "int8")))
    case("tensordot", lambda: ops.tensordot(X, X.T, axes=1))
    case("tensordot_sym", lambda: ops.tensordot(KT((None, 3, 4)), KT((4, 5)), axes=1))
    case("tensordot_sym_pairs", lambda: ops.tensordot(KT((2, 3, 4)), KT((4, 3, 5)), axes=([1, 2], [1, 0])))
    case("concat_sym", lambda: ops.concatenate([KT((None, 2)), KT((None, 3), "int32")], axis=-1))
    case("concat_sym_bad", lambda: ops.concatenate([KT((None, 2)), KT((3, 3))], axis=0))
    case("concat_sym_none_ax", lambda: ops.concatenate([KT((2, 2)), KT((3, 3))], axis=None))
    case("concat_none", lambda: ops.concatenate([X, I], axis=None))
    case("stack_sym", lambda: ops.stack([KT((None, 2)), KT((None, 2))], axis=1))
    case("stack_sym_bad", lambda: ops.stack([KT((2, 2)), KT((3, 2))]))
    case("reshape_sym", lambda: ops.reshape(KT((None, 2, 3)), (-1, 6)))
    case("reshape_sym2", lambda: ops.reshape(KT((4, 6)), (-1, 4, 3)))
    case("reshape_sym_bad", lambda: ops.reshape(KT((4, 6)), (5, -1)))
    case("reshape_sym_2neg", lambda: ops.reshape(KT((4, 6)), (-1, -1)))
    case("transpose_sym", lambda: ops.transpose(KT((None, 2, 3)), (2, 0, 1)))
    case("transpose_sym_bad", lambda: ops.transpose(KT((None, 2, 3)), (1, 0)))
    case("expand_dims_tuple", lambda: ops.expand_dims(f32([1, 2]), (0, 2)))
    case("expand_dims_sym", lambda: ops.expand_dims(KT((None, 2)), -1))
    case("squeeze_bad", lambda: ops.squeeze(X, axis=0))
    case("squeeze_sym", lambda: ops.squeeze(KT((None, 1, 3, 1))))
    case("squeeze_sym_ax", lambda: ops.squeeze(KT((None, 1, 3, 1)), axis=(1, 3)))
    case("squeeze_sym_bad", lambda: ops.squeeze(KT((None, 2, 3)), axis=1))
    case("take", lambda: ops.take(X, i32([2, 0]), axis=1))
    case("take_neg", lambda: ops.take(X, i32([-1]), axis=1))
    case("take_flat", lambda: ops.take(X, i32([5, 0])))
    case("take_sym", lambda: ops.take(KT((None, 5)), KT((3,), "int32"), axis=1))
    case("take_sym_none", lambda: ops.take(KT((4, 5)), KT((2, 3), "int32")))
    case("take_along_axis", lambda: ops.take_along_axis(X, i32([[2], [0]]), axis=1))
    case("take_along_sym", lambda: ops.take_along_axis(KT((None, 5)), KT((None, 2), "int32"), axis=1))
    case("split", lambda: ops.split(X, 3, axis=1))
    case("split_idx", lambda: ops.split(X, [1], axis=1))
    case("split_bad", lambda: ops.split(X, 2, axis=1))
    case("split_sym", lambda: ops.split(KT((None, 6)), 3, axis=1))
    case("split_sym_idx", lambda: ops.split(KT((None, 6)), [1, 4], axis=-1))
    case("split_sym_bad", lambda: ops.split(KT((None, 7)), 3, axis=1))
    case("average_w", lambda: ops.average(X, axis=1, weights=f32([1, 0, 1])))
    case("average_w_zero", lambda: ops.average(X, axis=1, weights=f32([0, 0, 0])))
    case("average_sym", lambda: ops.average(KT((None, 3)), axis=1, weights=KT((3,))))
    case("average_sym_bad", lambda: ops.average(KT((None, 3)), axis=1, weights=KT((4,))))
    case("cumsum_int", lambda: ops.cumsum(i32([1, 2, 3])))
    case("cumsum_bool", lambda: ops.cumsum(np.asarray([True, True])))
    case("cumsum_dtype", lambda: ops.cumsum(i32([1, 2]), dtype="float32"))
    case("cumsum_sym_none", lambda: ops.cumsum(KT((None, 3))))
    case("cumprod_sym_ax", lambda: ops.cumprod(KT((None, 3), "int8"), axis=1))
    case("repeat_sym", lambda: ops.repeat(KT((None, 3)), 2, axis=1))
    case("repeat_sym_none", lambda: ops.repeat(KT((2, 3)), 2))
    case("repeat_sym_list", lambda: ops.repeat(KT((2, 3)), [1, 2], axis=0))
    case("tile_sym", lambda: ops.tile(KT((None, 3)), (2, 2)))
    case("tile_sym_short", lambda: ops.tile(KT((None, 3)), 2))
    case("pad_const", lambda: ops.pad(X, ((1, 0), (0, 2)), constant_values=7))
    case("pad_reflect", lambda: ops.pad(X, ((0, 0), (1, 1)), mode="reflect"))
    case("pad_bad_mode_cv", lambda: ops.pad(X, 1, mode="reflect", constant_values=1))
    case("pad_sym", lambda: ops.pad(KT((None, 3)), ((0, 0), (1, 2))))
    case("pad_sym_int", lambda: ops.pad(KT((None, 3)), 1))
    case("arange_f", lambda: ops.arange(0, 1, 0.25))
    case("arange_int", lambda: ops.arange(5))
    case("arange_dtype", lambda: ops.arange(1, 4, dtype="float16"))
    case("linspace", lambda: ops.linspace(0, 1, 5))
    case("linspace_noend", lambda: ops.linspace(0, 1, 4, endpoint=False, retstep=True))
    case("full_like_dtype", lambda: ops.full_like(I, 2.5))
    case("zeros_int", lambda: ops.zeros((2,), dtype="int8"))
    case("ones_like_sym", lambda: ops.ones_like(KT((None, 2), "int8"), dtype="float16"))
    case("maximum_i8_u8", lambda: ops.maximum(np.asarray([1], "int8"), np.asarray([2], "uint8")))
    case("add_i32_f16", lambda: ops.add(i32([1]), np.asarray([2], "float16")))
    case("add_u32_i32", lambda: ops.add(np.asarray([1], "uint32"), i32([2])))
    case("add_i64_f32", lambda: ops.add(np.asarray([1], "int64"), f32([2])))
    case("add_bool_bool", lambda: ops.add(np.asarray([True]), np.asarray([True])))
    case("divide_int", lambda: ops.divide(i32([3]), i32([2])))
    case("divide_i8", lambda: ops.divide(np.asarray([3], "int8"), 2))
    case("true_divide_i64", lambda: ops.true_divide(np.asarray([3], "int64"), 2))
    case("floor_divide_f", lambda: ops.floor_divide(f32([-3.5]), 2))
    case("floor_divide_int0", lambda: ops.floor_divide(i32([3]), 0))
    case("mod_neg", lambda: ops.mod(i32([-3, 3]), 2))
    case("mod_f", lambda: ops.mod(f32([-3.5]), 2))
    case("power_int_neg", lambda: ops.power(i32([2]), -1))
    case("power_int_float", lambda: ops.power(i32([2]), 0.5))
    case("divide_no_nan", lambda: ops.divide_no_nan(f32([1, 0]), f32([0, 0])))
    case("divide_no_nan_int", lambda: ops.divide_no_nan(i32([1]), i32([0])))
    case("nan_to_num", lambda: ops.nan_to_num(f32([np.nan, np.inf, -np.inf]), nan=1.0, posinf=2.0, neginf=-2.0))
    case("isclose", lambda: ops.isclose(f32([1, 1.0001]), f32([1, 1]), rtol=1e-5, atol=0))
    case("isclose_nan", lambda: ops.isclose(f32([np.nan]), f32([np.nan]), equal_nan=True))
    case("square_bool", lambda: ops.square(np.asarray([True])))
    case("sqrt_int", lambda: ops.sqrt(i32([4])))
    case("log_int", lambda: ops.log(i32([1])))
    case("exp_i8", lambda: ops.exp(np.asarray([1], "int8")))
    case("exp_sym_int", lambda: ops.exp(KT((2,), "int64")))
    case("sqrt_sym_int", lambda: ops.sqrt(KT((2,), "int16")))
    case("abs_sym_bool", lambda: ops.abs(KT((2,), "bool")))
    case("negative_bool", lambda: ops.negative(np.asarray([True])))
    case("sign_u8", lambda: ops.sign(np.asarray([3, 0], "uint8")))
    case("round_dec", lambda: ops.round(f32([1.25, 2.5, -0.5]), decimals=1))
    case("round_int", lambda: ops.round(i32([15, 25]), decimals=-1))
    case("sort_desc", lambda: ops.sort(X, axis=0))
    case("argsort_sym", lambda: ops.argsort(KT((None, 3))))
    case("norm", lambda: ops.norm(X))
    case("norm_ord", lambda: ops.norm(X, ord=1, axis=1))
    case("norm_fro_bad", lambda: ops.norm(f32([1, 2]), ord="fro"))
    case("norm_sym", lambda: ops.norm(KT((None, 3)), axis=-1, keepdims=True))
    case("norm_int", lambda: ops.norm(I, axis=1))
    case("var_int", lambda: ops.var(i32([1, 2, 4])))
    case("diff", lambda: ops.diff(f32([1, 4, 9]), n=2))
    case("diff_sym", lambda: ops.diff(KT((None, 5)), n=2))
    case("bincount", lambda: ops.bincount(i32([0, 2, 2]), minlength=4))
    case("bincount_w", lambda: ops.bincount(i32([0, 2, 2]), weights=f32([1, 2, 3])))
    case("bincount_neg", lambda: ops.bincount(i32([0, -1])))
    case("bincount_sym", lambda: ops.bincount(KT((None,), "int32"), minlength=3))
    case("digitize", lambda: ops.digitize(f32([0.5, 1.5, 3]), [1.0, 2.0]))
    case("searchsorted", lambda: ops.searchsorted(f32([1, 2, 3]), f32([2, 2.5]), side="right"))
    case("unique_like_ravel_sym", lambda: ops.ravel(KT((None, 3))))
    case("meshgrid", lambda: ops.meshgrid(f32([1, 2]), f32([3, 4, 5]), indexing="ij"))
    case("outer", lambda: ops.outer(f32([1, 2]), i32([3, 4])))
    case("triu_sym", lambda: ops.triu(KT((None, 3, 3)), k=1))
    case("trace", lambda: ops.trace(I))
    case("flip_sym", lambda: ops.flip(KT((None, 3)), axis=1))
    case("roll", lambda: ops.roll(X, 1, axis=1))
    case("roll_none", lambda: ops.roll(X, -1))
    case("moveaxis_sym", lambda: ops.moveaxis(KT((None, 2, 3)), 0, -1))
    case("swapaxes_sym", lambda: ops.swapaxes(KT((None, 2, 3)), 0, 2))
    case("size", lambda: ops.size(X))
    case("ndim", lambda: ops.ndim(X))
    case("get_item", lambda: ops.get_item(X, (slice(None), 1)))
    case("select", lambda: ops.select([np.asarray([True, False]), np.asarray([True, True])], [f32([1, 2]), f32([3, 4])], default=9))
    case("select_sym", lambda: ops.select([KT((None,), "bool")], [KT((None,))]))
    case("logical_and_int", lambda: ops.logical_and(i32([0, 2]), f32([1, 1])))
    case("equal_sym", lambda: ops.equal(KT((None, 3), "int32"), 1.5))
    case("histogram", lambda: ops.histogram(f32([1, 2, 2, 3, 9]), bins=4))
    return R


@clause("keras.ops", ref="tf221")
def test_core_ops_eager_and_symbolic(keras, tf):
    """ops.map/scan/associative_scan/scatter/scatter_update/slice/slice_update/switch/while_loop/fori_loop/unstack/
    cast/saturate_cast/convert_to_tensor/cond/vectorized_map/vectorize/stop_gradient/custom_gradient: values, the
    specs of their KerasTensor calls and their refusals (cond's branch mismatch wrapped "Exception encountered when
    calling Cond.call()", a bad dtype "Invalid dtype: ...", a tensor start index of a symbolic slice accepted)."""
    _run(_core_cases(keras, tf), expected.CORE, "keras.ops core")


@clause("keras.ops", ref="tf221")
def test_keras_tensor_protocol(keras, tf):
    """A KerasTensor's len/int/float/bool/iter/NumPy/TF conversions (Keras's refusals: no len(), ValueError for int,
    float and a TF op), its operators' output specs (a NumPy float64 scalar promotes a float16 tensor to float64,
    `x * 2.0` is flagged sparse as Keras's Multiply spec flags it), indexing with a KerasTensor, reshape/squeeze, and
    keras.Input's forms."""
    _run(_keras_tensor_cases(keras, tf), expected.KERAS_TENSOR, "KerasTensor")


@clause("keras.ops", ref="tf221")
@clause("ops.shape-errors", ref="tf221")
def test_nn_ops_layers_and_losses_call(keras, tf):
    """The nn functions on integer and float16 inputs, their argument checks and symbolic specs (one_hot/multi_hot,
    the cross-entropies, moments, batch/layer/rms normalization, normalize, top_k/in_top_k, dot_product_attention of
    one key/value head refused as TF's einsum refuses it, conv/conv_transpose/depthwise/separable, pooling, adaptive
    pooling and its layers, psnr, ctc_loss); tf.einsum broadcasts a size-1 dimension under an ellipsis only, an
    upper-case label as a lower-case one."""
    _run(_nn_cases(keras, tf), expected.NN, "keras.ops nn")


@clause("keras.ops", ref="tf221")
def test_numpy_ops_axes_dtypes_and_specs(keras, tf):
    """The reductions at axis None/int/tuple/out of range with keepdims, on bool/int/float and KerasTensors; matmul,
    einsum, tensordot, concatenate, stack, reshape, transpose, squeeze, take, split, average, cumsum, repeat, tile,
    pad (a Pad error wrapped "Exception encountered when calling Pad.call()"), creation functions, dtype promotion of
    mixed operands, where with one argument (its spec int64), norms, bincount, select, histogram."""
    _run(_numpy_cases(keras, tf), expected.NUMPY, "keras.ops numpy")
