"""Rules behind the classes of issue 29's campaigns that fz36b ran (fresh seeds 1420363001..3 of the
fourteenth generator, 3601 and 3602 of the fourth, 3605 of the second, 3603 of the third), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for
bit), or raises the same exception class. Eagerly, in a tf.function (`traced`, a one-expression
body) and through an input_signature (`sig`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AT = "ops.attr-types"
_AE = "ops.argument-errors"
_T = "function.trace-time-errors"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _calls(body: str, arg: str, n: int = 2, spec: tuple | None = None, var: str | None = None,
           tape: bool = False) -> Callable[[Any], Any]:
    """`def g(x):` with `body` (lines joined by ';'; a variable `v` made by `var` first) as a
    tf.function (an input_signature of `spec`, get_concrete_function first), called n times with
    `arg`: the list of results (a failed call: its error's class name), then `v`'s value when there
    is one; under a GradientTape if `tape`."""
    def run(tf: Any) -> Any:
        env: dict = {"tf": tf, "np": np}
        if var is not None:
            env["v"] = eval(var, env)  # noqa: S307 - our own text
        exec("def g(x):\n" + "".join(f"    {line.strip()}\n" for line in body.split(";")), env)  # noqa: S102
        sig = None if spec is None else [tf.TensorSpec(spec[0], getattr(tf, spec[1]))]
        f = tf.function(env["g"], input_signature=sig, autograph=False)
        if sig is not None:
            f.get_concrete_function()
        x = eval(arg, env)  # noqa: S307 - our own text
        def call() -> Any:
            try:
                return f(x)
            except Exception as e:  # noqa: BLE001 - each call's outcome: its error's class
                return type(e).__name__
        if tape:
            with tf.GradientTape():
                out = [call() for _ in range(n)]
        else:
            out = [call() for _ in range(n)]
        return out + ([env["v"].read_value()] if var is not None else [])
    return run


_X = "tf.constant([[3, 4, 5]])"
_SS49 = ("tf.strided_slice(tf.constant(np.arange(48, dtype=np.complex128).reshape((4, 4, 3))), "
         "begin=np.array([0, 1, 2, 3], np.int64), end=tf.constant([1, 2, 3, 3]), var=0)")
_BOXES = "tf.constant(np.array([-1, 0, 1, 0.25], np.complex64).reshape((4, 1)))"
_SIZE = "np.array([4, 1], dtype=np.int64)"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- StridedSlice's Index on the eager fast path and its fallback (fourteenth generator seed 1420363001 #49:
    # begin an int64 ndarray, end an int32 tensor, strides ones_like(begin): int64, the executor's
    # InvalidArgumentError for input #3, not the fallback's ValueError)
    ("strided_slice of seed 1420363001 #49", _AT, _eager(_SS49)),
    ("strided_slice of seed 1420363001 #49 traced", _AT, _traced(_SS49)),
    *[(name, _AT, _eager(expr)) for name, expr in (
        ("strided_slice(x, int64 ndarray, int32 tensor)", f"tf.strided_slice({_X}, np.array([0, 1], np.int64), "
                                                          "tf.constant([1, 1]))"),
        ("strided_slice(x, int64 tensor, int32 tensor)", f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), "
                                                         "tf.constant([1, 1]))"),
        ("strided_slice(int ndarray, int64 ndarray, int32 tensor)", "tf.strided_slice(np.array([3, 4]), "
                                                                    "np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(python int, int64 tensor, int32 tensor)", "tf.strided_slice(3, tf.constant([0, 1], tf.int64), "
                                                                  "tf.constant([0, 1]))"),
        ("strided_slice(np.int64 scalar, int64 ndarray, int32 tensor): fallback",
         "tf.strided_slice(np.int64(3), np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(np.int64 scalar, int64 tensor, int32 tensor): fallback, tensors alone",
         "tf.strided_slice(np.int64(3), tf.constant([0, 1], tf.int64), tf.constant([0, 1]))"),
        ("strided_slice(list, int64 ndarray, int32 tensor): fallback",
         "tf.strided_slice([3, 4], np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(list, int64 tensor, int32 tensor): fallback, tensors alone",
         "tf.strided_slice([3, 4], tf.constant([0, 1], tf.int64), tf.constant([0, 1]))"),
        ("strided_slice(x, int64 tensor, list, strides int32 tensor): fallback",
         f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), [0, 1], strides=tf.constant([1, 1]))"),
        ("strided_slice(x, list, int32 tensor, int64 strides, np.int64 mask): fallback",
         f"tf.strided_slice({_X}, [0, 1], tf.constant([1, 1]), strides=tf.constant([1, 1], tf.int64), "
         "begin_mask=np.int64(0))"),
        ("strided_slice(x, int32 variable, int64 tensor)", "tf.strided_slice(tf.constant([3, 4]), tf.Variable([0, 1]), "
                                                          "tf.constant([1, 1], tf.int64))"),
        ("strided_slice(list, int64 tensor, int32 variable): fallback", "tf.strided_slice([3, 4], "
         "tf.constant([0, 1], tf.int64), tf.Variable([1, 1]))"),
        ("strided_slice(x, int64 variable, [1.5])", "tf.strided_slice(tf.constant([3, 4]), "
                                                     "tf.Variable([0], dtype=tf.int64), [1.5])"),
        ("strided_slice(x, [0], [1.5], strides int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), [0], [1.5], "
                                                                "strides=tf.constant([1]))"),
        ("strided_slice(x, float ndarray, int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), np.array([0.5]), "
                                                          "tf.constant([1]))"),
        ("strided_slice(x, float ndarray, int32 tensor, int32 strides)", "tf.strided_slice(tf.constant([3, 4]), "
         "np.array([0.5]), tf.constant([1]), strides=tf.constant([1]))"),
        ("strided_slice(x, float ndarray, list, int32 strides)", "tf.strided_slice(tf.constant([3, 4]), "
         "np.array([0.5]), [1], strides=tf.constant([1]))"),
        ("strided_slice(x, float tensor, int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), tf.constant([0.5]), "
                                                         "tf.constant([1]))"),
        ("strided_slice(x, [0], int16 ndarray, [1])", "tf.strided_slice(tf.constant([3, 4]), [0], "
                                                      "np.array([1], np.int16), strides=[1])"),
    )],
    ("strided_slice(x, int64 tensor, int32 tensor) traced", _AT, _traced(
        f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), tf.constant([1, 1]))")),
    # -- a list(float) attr holding a Python int sends the call to the fallback (seed 1420363002 #6)
    *[(name, _AT, _eager(expr)) for name, expr in (
        ("sample_distorted_bounding_box of seed 1420363002 #6", f"tf.image.sample_distorted_bounding_box({_SIZE}, "
         f"bounding_boxes={_BOXES}, area_range=[1, 0], max_attempts=0, name='op')"),
        *[(f"sample_distorted_bounding_box(complex64 boxes, {kw})", f"tf.image.sample_distorted_bounding_box({_SIZE}, "
           f"bounding_boxes={_BOXES}, {kw})") for kw in (
            "area_range=[1, 0]", "area_range=[1.0, 0.5]", "area_range=(0.5, 1.0)", "area_range=[0.5, 1]",
            "aspect_ratio_range=[1, 2]", "area_range=[0.5, 1.0], aspect_ratio_range=[1.0, 2]",
            "area_range=[0.5, np.float32(1.0)]", "area_range=[0.5, np.float64(1.0)]", "area_range=[0.5, True]",
            "max_attempts=0", "min_object_covered=1", "name='op'")],
    )],
    # -- DrawBoundingBoxesV2's fallback (a NumPy scalar colors) converts boxes before T's check (seed 1420363006 #34)
    *[(name, _AT, _eager(expr)) for name, expr in (
        ("draw_bounding_boxes(bool, bool, np.bool_) of seed 1420363006 #34", "(lambda x: tf.image.draw_bounding_boxes("
         "x, x, np.bool_(False), name='op'))(tf.constant(np.zeros((0, 1), bool)))"),
        ("draw_bounding_boxes(float32 [0, 1], np.bool_)", "(lambda x: tf.image.draw_bounding_boxes(x, x, "
                                                          "np.bool_(False)))(tf.zeros([0, 1]))"),
        ("draw_bounding_boxes(bool, bool, None)", "(lambda x: tf.image.draw_bounding_boxes(x, x, None))("
                                                  "tf.constant(np.zeros((0, 1), bool)))"),
        ("draw_bounding_boxes(bool, bool, [[1.0, 0, 0]])", "(lambda x: tf.image.draw_bounding_boxes(x, x, "
                                                           "[[1.0, 0.0, 0.0]]))(tf.constant(np.zeros((0, 1), bool)))"),
        ("draw_bounding_boxes(image, boxes, np.bool_)", "tf.image.draw_bounding_boxes(tf.zeros([1, 2, 2, 3]), "
                                                        "tf.zeros([1, 1, 4]), np.bool_(False))"),
        ("draw_bounding_boxes(image, boxes, False)", "tf.image.draw_bounding_boxes(tf.zeros([1, 2, 2, 3]), "
                                                     "tf.zeros([1, 1, 4]), False)"),
    )],
    # -- the eager fallback's args_to_matching_eager beside a variable: x1's dtype outside T, T's default (seed 1420363006 #197)
    *[(name, _AT, run) for name, run in (
        ("nextafter(np.uint8(255), float32 variable) of seed 1420363006 #197",
         _eager("(lambda v: tf.math.nextafter(x1=np.uint8(255), x2=v))(tf.Variable(0.0))")),
        ("nextafter(np.int64(255), float32 variable)",
         _eager("(lambda v: tf.math.nextafter(x1=np.int64(255), x2=v))(tf.Variable(0.0))")),
        ("nextafter(np.float32(255), float64 variable)",
         _eager("(lambda v: tf.math.nextafter(x1=np.float32(255), x2=v))(tf.Variable(0.0, dtype=tf.float64))")),
        ("nextafter(uint8 ndarray, float32 variable)",
         _eager("(lambda v: tf.math.nextafter(x1=np.array([255], np.uint8), x2=v))(tf.Variable(0.0))")),
        ("nextafter(np.uint8(255), float32 tensor)", _eager("tf.math.nextafter(x1=np.uint8(255), x2=tf.constant(1.0))")),
    )],
    # -- AddN's T before its shapes (seed 1420363006 #254)
    *[(f"{name}{sfx}", _AE, run) for name, expr in (
        ("add_n of bool arrays and a list of seed 1420363006 #254", "tf.add_n((np.array([True], dtype=np.bool_), "
         "[[True]], np.array([[True]], dtype=np.bool_)), name='op')"),
        ("add_n of bool tensors of two shapes", "tf.add_n([tf.constant([True]), tf.constant([[True]])])"),
        ("add_n of int32 tensors of two shapes", "tf.add_n([tf.constant([1]), tf.constant([[1]])])"),
    ) for sfx, run in _both(expr)],
    # -- eagerly T's own checks (the op def's list, the CPU kernel) before another input's dtype
    # (seed 1420363002 #111: floordiv(complex64 variable, float32); #256: tensordot(uint32, np.uint16))
    *[(name, _AE, _eager(expr)) for name, expr in (
        ("floordiv(complex64 variable, float32) of seed 1420363002 #111",
         "tf.math.floordiv(x=tf.Variable(np.array([[0.25, -1j]], np.complex64)), y=tf.constant(0.0))"),
        ("floordiv(complex64, float32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1.0))"),
        ("floordiv(complex128, int32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1))"),
        ("complex128 // float32", "tf.constant([1j]) // tf.constant(1.0)"),
        ("floordiv(float32, complex variable)", "tf.math.floordiv(x=tf.constant(0.0), "
                                                 "y=tf.Variable(np.array([0.25j], np.complex64)))"),
        ("floordiv(bool, float32)", "tf.math.floordiv(tf.constant([True]), tf.constant(1.0))"),
        ("floordiv(uint32, int32)", "tf.math.floordiv(tf.constant([1], tf.uint32), tf.constant(1))"),
        ("floormod(complex128, float32)", "tf.math.floormod(tf.constant([1j]), tf.constant(1.0))"),
        ("maximum(complex128, float32)", "tf.math.maximum(tf.constant([1j]), tf.constant(1.0))"),
        ("pow(uint32, int32)", "tf.math.pow(tf.constant([1], tf.uint32), tf.constant(1))"),
        ("atan2(int32, float32)", "tf.math.atan2(tf.constant([1], tf.int32), tf.constant(1.0))"),
        ("squared_difference(uint32, float32)", "tf.math.squared_difference(tf.constant([1], tf.uint32), "
                                                "tf.constant(1.0))"),
        ("greater(complex128, float32)", "tf.math.greater(tf.constant([1j]), tf.constant(1.0))"),
        ("multiply(string, float32)", "tf.math.multiply(tf.constant(['a']), tf.constant(1.0))"),
        ("subtract(uint32, float32)", "tf.math.subtract(tf.constant([1], tf.uint32), tf.constant(1.0))"),
        ("tensordot of seed 1420363002 #256", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                              "np.uint16(1), axes=np.int64(0))"),
        ("tensordot(uint32, uint32 tensor, 0)", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                                "tf.constant(1, np.uint32), axes=0)"),
        ("tensordot(int32, np.int16, 0)", "tf.linalg.tensordot(tf.constant([0, 1]), np.int16(1), axes=0)"),
        ("tensordot(float32, np.float64, 0)", "tf.linalg.tensordot(tf.constant([0.0, 1.0]), np.float64(1), axes=0)"),
        ("tensordot(float32, float64 ndarray, 1)", "tf.linalg.tensordot(tf.constant([0.0, 1.0]), "
                                                   "np.array([1, 2], np.float64), axes=1)"),
        ("einsum(uint32, uint16)", "tf.einsum('i,j->ij', tf.constant([1], tf.uint32), tf.constant([1], tf.uint16))"),
        ("einsum(int32, int16)", "tf.einsum('i,j->ij', tf.constant([1]), tf.constant([1], tf.int16))"),
    )],
    # -- ExpandDims' dim converts with Tdim's default int32: a Python float is TypeError (seed 1420363004 #89)
    *[(name, _AE, _eager(expr)) for name, expr in (
        ("linspace(axis=1.5) of seed 1420363004 #89", "tf.linspace(start=tf.constant(0.5), stop=3.0, num=3, axis=1.5)"),
        ("linspace(axis=0.0)", "tf.linspace(start=tf.constant(0.5), stop=3.0, num=3, axis=0.0)"),
        ("linspace(axis=np.int64(1))", "tf.linspace(start=tf.constant([0.5]), stop=3.0, num=3, axis=np.int64(1))"),
        ("expand_dims(x, 1.5)", "tf.expand_dims(tf.constant(0.5), 1.5)"),
        ("expand_dims(x, 0.0)", "tf.expand_dims(tf.constant(0.5), 0.0)"),
        ("expand_dims(x, np.float32(1.0))", "tf.expand_dims(tf.constant([0.5]), np.float32(1.0))"),
        ("expand_dims(x, np.float64(1.0))", "tf.expand_dims(tf.constant([0.5]), np.float64(1.0))"),
    )],
    *[(f"{name} traced", _AE, _traced(expr)) for name, expr in (
        ("expand_dims(x, 1.0)", "tf.expand_dims(tf.constant([0.5]), 1.0)"),
        ("floordiv(complex64, float32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1.0))"),
        ("tensordot(uint32, np.uint16, 0)", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                            "np.uint16(1), axes=0)"),
        ("einsum(uint32, uint16)", "tf.einsum('i,j->ij', tf.constant([1], tf.uint32), tf.constant([1], tf.uint16))"),
    )],
    # -- math_ops.add converts y with x's dtype as a hint: the list's own conversion error propagates (seed 1420363004 #55)
    *[(name, "ops.conversion", _eager(expr)) for name, expr in (
        ("add(int32, list with 1e300) of seed 1420363004 #55", "tf.add(tf.constant([[2, 2147483647, 0, 3]], "
         "dtype='int32'), y=[[-1e-45, 4.0, 0.25, 1e+300]])"),
        ("int32 + [[4.5, 1e300]]", "tf.constant([[2, 3]]) + [[4.5, 1e300]]"),
        ("add(int8, [[4.5, 1e300]])", "tf.add(tf.constant([[2, 3]], tf.int8), [[4.5, 1e300]])"),
        ("add(int32, [[4, 1e300]])", "tf.add(tf.constant([[2, 3]]), [[4, 1e300]])"),
        ("add(int32, [[4.5, 3.0]])", "tf.add(tf.constant([[2, 3]]), [[4.5, 3.0]])"),
        ("add(float16, [[4.5, 1e300]])", "tf.add(tf.constant([[2, 3]], tf.float16), [[4.5, 1e300]])"),
        ("add(int32, ragged list)", "tf.add(tf.constant([[2, 3]]), [[4.5], [1.0, 2.0]])"),
    )],
    # -- a string tensor in an arithmetic or order op: the attr's error (seed 1420363004 #233)
    *[(f"{name}{sfx}", _AE, run) for name, expr in (
        ("as_string(0.5) - itself of seed 1420363004 #233", "(lambda y: y - y)(tf.as_string(input=0.5, scientific=True))"),
        ("string * string", "tf.constant(['a']) * tf.constant(['a'])"),
        ("string < string", "tf.constant(['a']) < tf.constant(['a'])"),
        ("string // string", "tf.constant(['a']) // tf.constant(['a'])"),
        ("maximum(string, string)", "tf.math.maximum(tf.constant(['a']), tf.constant(['b']))"),
        ("subtract(string, 'a')", "tf.math.subtract(tf.constant(['a']), 'a')"),
        ("string + string", "tf.constant(['a']) + tf.constant(['b'])"),
        ("string == string", "tf.constant(['a']) == tf.constant(['a'])"),
    ) for sfx, run in _both(expr)],
    # -- the generated wrapper's make_str before the input's conversion (seed 1420363004 #273)
    *[(name, _AE, _eager(expr)) for name, expr in (
        ("unicode_transcode(uint64 ndarray, uint64 ndarray, [1]) of seed 1420363004 #273", "tf.strings."
         "unicode_transcode(np.array([0], dtype=np.uint64), np.array([18446744073709551615], dtype=np.uint64), [1])"),
        ("unicode_transcode(uint64 ndarray, 'UTF-8', [1])", "tf.strings.unicode_transcode(np.array([0], "
                                                             "dtype=np.uint64), 'UTF-8', [1])"),
        ("unicode_transcode(uint64 ndarray, 'UTF-8', 'UTF-8')", "tf.strings.unicode_transcode(np.array([0], "
                                                                "dtype=np.uint64), 'UTF-8', 'UTF-8')"),
        ("unicode_transcode(['a'], 'BAD', 'UTF-8')", "tf.strings.unicode_transcode(['a'], 'BAD', 'UTF-8')"),
    )],
    # -- Slice's begin and size are vectors (seed 1420363004 #169)
    *[(f"{name}{sfx}", _T, run) for name, expr in (
        ("slice([-4], [[0]], (1,)) of seed 1420363004 #169", "tf.slice([-4], begin=[[0]], size=(1,))"),
        ("slice([-4], [0], [[1]])", "tf.slice([-4], begin=[0], size=[[1]])"),
        ("slice([-4], 0, 1)", "tf.slice([-4], begin=0, size=1)"),
        ("slice(matrix, int32 [[0, 0]], [1, 1])", "tf.slice([[1, 2]], begin=tf.constant([[0, 0]]), size=[1, 1])"),
        ("slice(matrix, [0, 0], [1, 1])", "tf.slice([[-4]], begin=[0, 0], size=[1, 1])"),
    ) for sfx, run in _both(expr)],
    # -- LRN's rank in a graph before its missing bfloat16 kernel (seed 1420363004 #114)
    *[(name, _T, run) for name, run in (
        ("sig [2]: lrn(bfloat16 rank 3 constant) of seed 1420363004 #114", _sig(
            "tf.nn.lrn(tf.constant([[[4.0, 65504.0, -0.0, 1e+300], [float('nan'), -3.0, 0.0, 7.0]]], "
            "dtype=tf.bfloat16), beta=3.0)", ([2], "int64"), "tf.constant([1, 2], tf.int64)")),
        ("lrn(bfloat16 rank 3) traced", _traced("tf.nn.lrn(tf.constant([[[4.0, 1.0]]], dtype=tf.bfloat16), beta=3.0)")),
        ("lrn(bfloat16 rank 4) traced", _traced("tf.nn.lrn(tf.constant([[[[4.0, 1.0]]]], dtype=tf.bfloat16))")),
        ("lrn(float32 rank 3) traced", _traced("tf.nn.lrn(tf.constant([[[4.0, 1.0]]]), beta=3.0)")),
    )],
    # -- a returned output of a failing op raises at every call (the retry's recording is dropped; seed
    # 1420363004 #62, #220)
    ("segment_prod(segment_ids=[2]) in a tf.function, three calls", _T, _calls(
        "return tf.math.segment_prod(data=tf.constant(np.ones((2, 3), np.uint16)), segment_ids=[2])",
        "tf.constant(0)", 3)),
    ("stateless_binomial(probs=255) in a tf.function, three calls", _T, _calls(
        "return tf.random.stateless_binomial([3], [1, 2], counts=np.array([2], dtype=np.int64), probs=255)",
        "tf.constant(0)", 3)),
    # -- JacobiSVD's scaled matrix under FTZ: an entry 2e38 below the largest is zero (seed 1420363005 #60)
    *[(name, "ops.linalg-spectral", _eager(expr)) for name, expr in (
        ("matrix_rank(float32 [2, 2, 2], tol=0.5) of seed 1420363005 #60", "tf.linalg.matrix_rank(np.array([[[-0.0, "
         "1.0], [-3.0, -3.0]], [[7.0, 0.5], [-3.4e+38, -1.5]]], dtype=np.float32), tol=tf.constant(0.5))"),
        ("svd values of [[7, 0.5], [-3.4e38, -1.5]]", "tf.linalg.svd(np.array([[7.0, 0.5], [-3.4e+38, -1.5]], "
                                                      "dtype=np.float32), compute_uv=False)"),
        ("svd of [[7, 0.5], [-3.4e38, -1.5]]", "tf.linalg.svd(np.array([[7.0, 0.5], [-3.4e+38, -1.5]], "
                                               "dtype=np.float32))"),
        ("svd values of [[7, 0.5], [-3.4e30, -1.5]]", "tf.linalg.svd(np.array([[7.0, 0.5], [-3.4e+30, -1.5]], "
                                                      "dtype=np.float32), compute_uv=False)"),
        ("svd values of float64 [[7e-300, 0.5], [-1e300, -1.5]]", "tf.linalg.svd(np.array([[7e-300, 0.5], "
                                                                  "[-1e+300, -1.5]]), compute_uv=False)"),
        ("svd values of [[1e-39, 0.5], [2, -1.5]]", "tf.linalg.svd(np.array([[1e-39, 0.5], [2.0, -1.5]], "
                                                    "dtype=np.float32), compute_uv=False)"),
    )],
    # -- MatrixDiagV3's shape function reads a diagonal length the graph does not know as -1 (seed 1420363002 #27)
    *[(name, _T, _sig(expr, spec, arg)) for name, expr, spec, arg in (
        ("sig [4, None]: diag(bool, num_rows=0) of seed 1420363002 #27", "tf.linalg.diag(diagonal=x, num_rows=0)",
         ([4, None], "bool"), "tf.constant([[True, False]] * 4)"),
        ("sig [4, None]: diag(num_rows=0)", "tf.linalg.diag(diagonal=x, num_rows=0)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, 2]: diag(num_rows=0)", "tf.linalg.diag(diagonal=x, num_rows=0)", ([4, 2], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=1)", "tf.linalg.diag(diagonal=x, num_rows=1)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=3)", "tf.linalg.diag(diagonal=x, num_rows=3)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=0, num_cols=0)", "tf.linalg.diag(diagonal=x, num_rows=0, num_cols=0)",
         ([4, None], "float32"), "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_cols=1)", "tf.linalg.diag(diagonal=x, num_cols=1)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        # -- pad_to_bounding_box of an unknown rank: Assert ops, a later build error wins (seed 1420363003 #69)
        ("sig None: pad_to_bounding_box, then fft3d(np.uint64(0)) of seed 1420363003 #69",
         "(tf.image.pad_to_bounding_box(image=x, offset_height=0, offset_width=1, target_height=5, target_width=1), "
         "tf.signal.fft3d(input=np.uint64(0)))[1]", (None, "bool"), "tf.constant([[[False, False], [True, False]]])"),
        ("sig None: pad_to_bounding_box too narrow", "tf.image.pad_to_bounding_box(x, 0, 1, 5, 1)", (None, "bool"),
         "tf.constant([[[False, False], [True, False], [False, False]]])"),
        ("sig None: pad_to_bounding_box", "tf.image.pad_to_bounding_box(x, 0, 1, 5, 3)", (None, "float32"),
         "tf.ones([1, 2, 1])"),
    )],
]



_P = _T   # (function.trace-time-errors: what a graph raises, and when)
_IP = "tf.constant([-1, -1, 0])"
CASES += [
    # -- a stateless op whose result nothing uses: TF prunes it, its kernel's error never comes (fz14_known's
    # five pruned-op classes: seeds 1420262402 #26, 1420303002 #13, 1420323001 #214, 1420343001 #19, 1420353005 #16)
    *[(name, _P, run) for name, run in (
        ("unused invert_permutation of a variable, then divide", _calls(
            "y = tf.math.invert_permutation(x); return tf.divide(3, 2)", "tf.Variable([-1, -1, 0])", 3)),
        ("invert_permutation returned", _calls("return tf.math.invert_permutation(x)", _IP)),
        ("invert_permutation used by x + 1", _calls("y = tf.math.invert_permutation(x); return y + 1", _IP)),
        ("sig [2]: unused unsorted_segment_max, then matrix_rank", _calls(
            "y = tf.math.unsorted_segment_max([[1.0, 2.0], [3.0, 4.0]], [1, 1], num_segments=1); "
            "return tf.linalg.matrix_rank(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))", "tf.constant([1.0, 2.0])",
            spec=([2], "float32"))),
        ("sig [2]: unused sobol_sample(num_results=0), then a constant", _calls(
            "y = tf.math.sobol_sample(1, num_results=0); return tf.constant([1.5, 2.5])", "tf.constant([1.0, 2.0])",
            spec=([2], "float32"))),
        ("unused unique_with_counts of a rank-3 tensor, then svd", _calls(
            "y = tf.unique_with_counts(x); return tf.linalg.svd([[1.0, 2.0], [3.0, 4.0]], compute_uv=False)",
            "tf.constant(np.arange(8).reshape((2, 2, 2)))")),
        ("unused reverse_sequence(seq_axis=-1), then exp", _calls(
            "y = tf.reverse_sequence(input=tf.constant([1, 2, 3], tf.int8), seq_lengths=tf.constant([1, 2, 2]), "
            "seq_axis=-1); return tf.exp(np.array(3e38))", "tf.constant(1.0)")),
        ("two failing invert_permutations, the second returned", _calls(
            "y = tf.math.invert_permutation(x); z = tf.math.invert_permutation(x * 2); return z", _IP)),
        ("two unused failing ops, then x + 1", _calls(
            "y = tf.math.invert_permutation(x); z = tf.gather([1, 2, 3], [5]); return x + 1", _IP)),
        ("unused failing op beside a variable's assign_add", _calls(
            "y = tf.math.invert_permutation(x); v.assign_add(1); return v.read_value()", _IP, var="tf.Variable(0)")),
        ("unused failing op then tf.print of its result", _calls(
            "y = tf.math.invert_permutation(x); tf.print(y); return x", _IP, n=1)),
        ("unused failing op under a GradientTape", _calls(
            "y = tf.math.invert_permutation(x); return x * 2", _IP, tape=True)),
        ("sig [3]: unused failing op", _calls("y = tf.math.invert_permutation(x); return x * 2", _IP,
                                             spec=([3], "int32"))),
    )],
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_index_and_float_lists(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_kernel_lookup_before_input_types(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_unknown_lengths_asserts_and_pruned_ops(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_add_converts_the_list_alone(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-spectral")
@EDGES.parametrize("ops.linalg-spectral")
def test_svd_scaled_under_ftz(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz36b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
