"""Rules behind the disagreement classes fz46 closed (fresh campaigns of session 46: fourteenth generator seeds
1420463001-, twentieth 4620261201-, the third generator's --ext8 seed 4603), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class, eagerly, inside a tf.function and with an input_signature. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.conversion"
_X = "ops.complex"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- separable_conv2d as nn_impl builds it: the pointwise filter's static shape with_rank(4) and its first two
# dimensions compatible with 1, then with_space_to_batch (the input's static rank at least 3: an unknown rank passes)
# around DepthwiseConv2dNative with the strides as given (fz14 sig seed 1420463001 #251: an int64 NumPy strides beside
# an unknown-rank pointwise filter is the op's TypeError "Expected list for 'strides'"; simdist had checked the
# depthwise filter's rank first, ValueError)
def _separable_cases() -> list[tuple[str, str, object]]:
    x = "tf.reshape(tf.range(32, dtype=tf.float32), [1, 4, 4, 2])"
    dw = "tf.reshape(tf.range(8, dtype=tf.float32) - 3.0, [2, 2, 2, 1])"
    pw = "tf.reshape(tf.range(6, dtype=tf.float32) - 2.0, [1, 1, 2, 3])"
    calls = _both((
        f"tf.nn.separable_conv2d({x}, {dw}, {pw}, [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d({x}, {dw}, {pw}, [1, 2, 2, 1], 'SAME')",
        f"tf.nn.separable_conv2d({x}, {dw}, {pw}, [1, 1, 1, 1], 'SAME', dilations=[2, 2])",
        f"tf.nn.separable_conv2d({x}, {dw}, tf.ones([2, 3]), [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d({x}, {dw}, tf.ones([2, 1, 2, 3]), [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d({x}, {dw}, tf.ones([1, 3, 2, 3]), [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d({x}, tf.ones([2, 2]), {pw}, [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d({x}, {dw}, {pw}, np.array([1, 1, 1, 1]), 'VALID')",
        f"tf.nn.separable_conv2d({x}, tf.ones([2, 2]), tf.ones([2, 3]), np.array([1, 1, 1, 1]), 'VALID')",
        f"tf.nn.separable_conv2d(tf.ones([4, 4]), {dw}, {pw}, [1, 1, 1, 1], 'VALID')",
        f"tf.nn.separable_conv2d(tf.ones([4, 4]), {dw}, {pw}, [1, 1, 1, 1], 'VALID', dilations=[2, 2])",
        f"tf.nn.separable_conv2d({x}, {dw}, {pw}, [1, 1, 1, 1], 'VALID', dilations=[0, 1])",
    ), _K)
    u8 = "np.array([[1], [3], [5], [255]], dtype=np.uint8)"
    sigs = [
        ("separable_conv2d(x, uint8 depthwise, pointwise=x, np strides) of an unknown-rank uint32 spec", _T,
         _sig(f"tf.nn.separable_conv2d(x, depthwise_filter={u8}, pointwise_filter=x, strides=np.array([4, 1]), "
              "padding='SAME')", (None, "uint32"), "tf.constant([[3], [3], [3], [2]], tf.uint32)")),
        ("separable_conv2d(x, uint8 depthwise, pointwise=x, np strides) of a [4, 1] uint32 spec", _T,
         _sig(f"tf.nn.separable_conv2d(x, depthwise_filter={u8}, pointwise_filter=x, strides=np.array([4, 1]), "
              "padding='SAME')", ([4, 1], "uint32"), "tf.constant([[3], [3], [3], [2]], tf.uint32)")),
        ("separable_conv2d(x, rank-2 depthwise, pointwise=x, [1, 1, 1, 1]) of an unknown-rank float32 spec", _T,
         _sig("tf.nn.separable_conv2d(x, tf.ones([2, 2]), x, [1, 1, 1, 1], 'VALID')", (None, "float32"),
              "tf.ones([1, 1, 1, 1])")),
        ("separable_conv2d(x, depthwise, pointwise) of an unknown-rank float32 input called with rank 4", _T,
         _sig(f"tf.nn.separable_conv2d(x, {dw}, {pw}, [1, 1, 1, 1], 'VALID')", (None, "float32"), x)),
        ("separable_conv2d(x, depthwise, pointwise) of an unknown-rank float32 input called with rank 2", _T,
         _sig(f"tf.nn.separable_conv2d(x, {dw}, {pw}, [1, 1, 1, 1], 'VALID')", (None, "float32"), "tf.ones([4, 4])")),
        ("depthwise_conv2d(x, filter, dilations [2, 2]) of an unknown-rank float32 input called with rank 4", _T,
         _sig(f"tf.nn.depthwise_conv2d(x, {dw}, [1, 1, 1, 1], 'SAME', dilations=[2, 2])", (None, "float32"), x)),
        ("depthwise_conv2d(x, filter, dilations [2, 2]) of an unknown-rank float32 input called with rank 2", _T,
         _sig(f"tf.nn.depthwise_conv2d(x, {dw}, [1, 1, 1, 1], 'SAME', dilations=[2, 2])", (None, "float32"),
              "tf.ones([4, 4])")),
        ("depthwise_conv2d(x, filter, dilations [2, 2]) + 1.5j of an unknown-rank float32 input", _T,
         _sig(f"tf.nn.depthwise_conv2d(x, {dw}, [1, 1, 1, 1], 'SAME', dilations=[2, 2]) + 1.5j", (None, "float32"),
              x)),
    ]
    return calls + sigs


# --- pad_to_bounding_box's `padded.set_shape([batch, target_height, target_width, depth])`: a negative Python target
# is TensorShape's ValueError at trace, before the graph runs the Asserts of "height must be <= target - offset"
# (fz14 sig seed 1420463002 #97: an unknown-rank image; simdist had traced and raised the Assert at the call)
def _pad_cases() -> list[tuple[str, str, object]]:
    out = []
    for spec in (None, [None, None, None], [None, None, 1], [2, None, 1], [None, 2, 1], [2, 2, 1], [1, None, None, 1]):
        for args, arg in (("2, 2, -1, 2", "tf.constant(-4)"), ("0, 0, 3, -2", "tf.ones([2, 2, 1], tf.int32)"),
                          ("0, 0, 3, 3", "tf.ones([2, 2, 1], tf.int32)"),
                          ("0, 0, 1, 3", "tf.ones([2, 2, 1], tf.int32)"),
                          ("np.int64(2), np.int64(2), -1, 2", "tf.ones([1, 2, 2, 1], tf.int32)")):
            if spec is not None and len(spec) == 4 and arg.startswith("tf.ones([2"):
                continue
            out.append((f"pad_to_bounding_box(x, {args}) of a {spec} int32 spec, called with {arg}", _T,
                        _sig(f"tf.image.pad_to_bounding_box(x, {args})", (spec, "int32"), arg)))
    out += _both(("tf.image.pad_to_bounding_box(tf.ones([2, 2, 1]), 0, 0, -1, 3)",
                  "tf.image.pad_to_bounding_box(tf.ones([2, 2, 1]), 0, 0, 3, -1)",
                  "tf.image.pad_to_bounding_box(tf.ones([2, 2, 1]), 1, 0, 3, 2)",
                  "tf.image.pad_to_bounding_box(tf.ones([2, 2, 1]), 0, 0, tf.constant(-1), 3)"), _K)
    return out


# --- draw_bounding_boxes' images: attr T's default float32 group. The eager fallback (a list, a NumPy scalar among the
# inputs) converts the value on its own first (args_to_matching_eager), so a list holding 2**64 - 1 is its ValueError
# "out-of-range integer"; an int list converts again preferring float32; on the fast path a NumPy value is cast to
# float32 (fz14 eager seed 1420463002 #251; simdist had converted with a float32 hint and raised the kernel's error)
def _draw_cases() -> list[tuple[str, str, object]]:
    big = "[[[[3, 5, 1, 1]], [[1, 18446744073709551615, 2, 2]]]]"
    box = "[[[0.0, 0.0, 1.0, 1.0]]]"
    col = "[[1.0, 0.0, 0.0, 1.0]]"
    calls = []
    for images in (big, "[[[[3, 5, 1, 1]], [[1, 2, 2, 2]]]]", "np.array([[[[3, 5, 1, 1]], [[1, 2, 2, 2]]]])",
                   "np.array([[[[3.5, 5, 1, 1]], [[1, 2, 2, 2]]]])", "[[[[True, False, True, True]]]]",
                   "np.array([[[[3, 5, 1, 1]]]], np.uint8)"):
        for boxes, colors in (("-0.0", "np.float32(-0.0)"), (box, "np.float32(0.0)"), (box, col),
                              (f"np.array({box}, np.float32)", f"np.array({col}, np.float32)"),
                              (f"np.array({box}, np.float32)", col), ("-0.0", f"np.array({col}, np.float32)")):
            calls.append(f"tf.image.draw_bounding_boxes({images}, {boxes}, {colors})")
    return _both(tuple(calls), _C)


# --- the fractional pools' generated wrappers make the bools (and the floats of pooling_ratio) before op_def_library
# checks the input's type and the attrs' lengths, in a graph too (fz14 function seed 1420463003 #17: np.bool_(True)
# overlapping beside a pooling_ratio of one in a tf.function; simdist had raised the length's ValueError)
def _fractional_cases() -> list[tuple[str, str, object]]:
    x = "tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])"
    calls = []
    for op in ("fractional_avg_pool", "fractional_max_pool"):
        for value, ratio in (("[-1]", "[-4]"), ("[-1.0]", "[1.0]"), (x, "[1.0, 1.5, 1.5, 1.0]"),
                             (x, "[1.0, 'a', 1.5, 1.0]"), ("tf.constant([1, 2])", "[1.0]")):
            for flags in ("pseudo_random=False, overlapping=np.bool_(True)", "pseudo_random=np.bool_(False)",
                          "overlapping=1", "pseudo_random=True, overlapping=True"):
                call = f"tf.nn.{op}({value}, {ratio}, {flags})"
                if op == "fractional_max_pool" and "'a'" in ratio:
                    continue
                if "[1.0, 1.5, 1.5, 1.0]" in ratio and "True, overlapping=True" in flags:
                    call = f"tf.nn.{op}({value}, {ratio}, {flags}, seed=3)"
                calls.append(call)
    return _both(tuple(calls), _K)


# --- tf.conv's eager fast path reads the int attrs batch_dims and groups: a NumPy integer sends the call to the
# fallback, whose convert_to_tensor of a negative int beside a uint64 input is the EagerTensor's SystemError; the fast
# path's is PyLong_AsUnsignedLongLong's pending OverflowError (fz14 eager seed 1420463004 #58). TF's scalar cache keeps
# a conversion once made (ops.scalar-cache), so each case converts another int.
def _conv_cases() -> list[tuple[str, str, object]]:
    x = "tf.constant(np.array(3, np.uint64))"
    calls = [(f"tf.conv({x}, -7, (1, 2, 2), 'VALID', batch_dims=np.int64(2))", _C),
             (f"tf.conv({x}, -9, (1, 2, 2), 'VALID', batch_dims=2)", _C),
             (f"tf.conv({x}, -11, (1, 2, 2), 'VALID', groups=np.int32(1))", _C),
             (f"tf.conv({x}, 13, (1, 2, 2), 'VALID', batch_dims=np.int64(2))", _K),
             ("tf.conv(tf.constant(3.0), -1.0, (1, 2, 2), 'VALID', batch_dims=np.int64(2))", _K),
             ("tf.conv(tf.zeros([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), (1, 2, 2, 1), 'VALID', batch_dims=np.int64(1))", _K),
             ("tf.conv(tf.zeros([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), (1, 2, 2, 1), 'VALID', batch_dims=np.int64(0))", _K)]
    return [(call, group, _eager(call)) for call, group in calls]


# --- MaxPoolWithArgmax of a rank the graph does not know: the shape function passes it, the kernel refuses the value
# when the graph runs, so a dry run goes on past it and a later op's build error is the trace's (fz14 sig seed
# 1420463004 #129: then truediv(0, a float list), TypeError; simdist had raised the rank of a dry run's stand-in)
def _argmax_pool_cases() -> list[tuple[str, str, object]]:
    mp = "tf.nn.max_pool_with_argmax(x, ksize=tf.TensorShape([3]), strides=(3,), padding='SAME')"
    out = []
    args = {3: "tf.reshape(tf.range(18, dtype=tf.float64), [2, 3, 3])",
            4: "tf.reshape(tf.range(9, dtype=tf.float64), [1, 3, 3, 1])"}
    for spec in (None, [2, 3, 3], [1, 3, 3, 1]):
        for expr in (f"({mp}, tf.math.truediv(0, [[0.5, 1e300]]))[1]", f"{mp}[0]", f"{mp}[1] + 1",
                     f"({mp}, tf.constant(1))[1]"):
            for rank, arg in args.items():
                if spec is None or len(spec) == rank:
                    out.append((f"{expr} of a {spec} float64 spec, called with rank {rank}", _T,
                                _sig(expr, (spec, "float64"), arg)))
    return out


# --- the samplers' missing CPU kernels for integer logits are looked up when the graph runs: a dry run goes on past
# them, so a later op's build error is the trace's (fz14 sig seed 1420463004 #266: stateless_categorical of int32
# logits, then `1.0 <= y`, GreaterEqual's TypeError; simdist had raised the missing kernel while tracing)
def _sampler_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("int32", "int64", "float32"):
        for expr in ("1.0 <= tf.random.stateless_categorical(x, 2, seed=(3, 4))",
                     "1.0 <= tf.random.stateless_categorical(x, 0, seed=(3, 4), dtype=tf.int32)",
                     "tf.random.stateless_categorical(x, 2, seed=(3, 4))",
                     "tf.shape(tf.random.stateless_categorical(x, 2, seed=(3, 4)))",
                     "1.0 <= tf.random.categorical(x, 2, seed=1)"):
            if dt == "float32" and "<=" not in expr:
                continue
            out.append((f"{expr} of a [3, 4] {dt} spec", _T,
                        _sig(expr, ([3, 4], dt), f"tf.constant([[5, 1, -4, 0], [-4, 1, -1, 3], [-1, -1, 5, 3]], "
                                                  f"tf.{dt})")))
    out += [("stateless_categorical of int32 logits in a tf.function", _T,
             _traced("tf.random.stateless_categorical(np.array([[5, 1], [0, 2]], np.int32), 2, seed=(3, 4))")),
            ("stateless_categorical of int32 logits eagerly", _K,
             _eager("tf.random.stateless_categorical(np.array([[5, 1], [0, 2]], np.int32), 2, seed=(3, 4))"))]
    return out


# --- DecodeWav quotes the file's bytes as they are ("but found ..."): TF's Python decodes the status message as
# UTF-8, so bytes that are not make the call's error UnicodeDecodeError (fz20 eager seed 4620261208 #110)
def _wav_cases() -> list[tuple[str, str, object]]:
    hdr = "b'RIFF$\\x00\\x00\\x00WAVE'"
    contents = ("b'\\xc3\\xa9t\\xc3\\xa9'", "b'\\xc3\\xa9tx'", "b'abcd'", "b'\\xff\\xfe\\x00\\x01'",
                "b'RIFF\\x00\\x00\\x00\\x00WAV\\xc3'", f"{hdr} + b'\\xc3\\xa9t\\xc3' + bytes(8)",
                f"{hdr} + b'\\xc3\\xa9tx' + bytes(8)", f"{hdr} + b'JUNK' + bytes(4) + b'\\xe2\\x82ab'")
    calls = tuple(f"tf.audio.decode_wav(tf.constant({c}))" for c in contents)
    calls += ("tf.raw_ops.DecodeWav(contents=tf.reshape(tf.constant([b'\\xc3\\xa9t\\xc3\\xa9'], tf.string), []), "
              "desired_samples=0)",)
    return _both(calls, _K)


# --- complex Pow is glibc's cpow under the kernel threads' DAZ/FTZ bits (third generator dist seed 4603 #46:
# (5e-324j) ** (inf - infj) is 0j in TF, NaN + NaNj from simdist's three steps)
def _cpow_cases() -> list[tuple[str, str, object]]:
    v = ("[0.0, -0.0, 5e-324, -5e-324, 1e-310, 1e-40, -1e-40, 0.5, -2.0, 1.0, 3e38, -3e38, 1e300, float('inf'), "
         "-float('inf'), float('nan'), 7.25, 1e10]")
    pairs = f"np.stack(np.meshgrid({v}, {v}), -1).reshape(-1).view(np.complex128)"
    calls = []
    for seed in (5, 6):
        x = f"({pairs})[np.random.default_rng({seed}).integers(0, 324, 1500)]"
        y = f"({pairs})[np.random.default_rng({seed + 10}).integers(0, 324, 1500)]"
        for dt in ("complex128", "complex64"):
            calls.append(f"tf.math.pow(tf.constant(({x}).astype(np.{dt})), tf.constant(({y}).astype(np.{dt})))")
    calls.append("tf.math.pow(tf.constant([5e-324j, -5e-324j, 1e-310j, complex(-0.0, 1e-310)]), "
                 "tf.constant(complex(float('inf'), -float('inf'))))")
    calls.append("tf.pow(np.complex64(complex(1.0, 7.0)), np.complex64(complex(0.0, -1e-45)))")   # (0-d stays 0-d)
    calls.append("tf.math.pow(np.array(complex(-7.25, 1e30)), tf.constant(complex(-0.0, 1e-40), tf.complex128))")
    calls.append("tf.constant([complex(-1e-40, 0.5), complex(3e38, -1.5)], tf.complex64) ** "
                 "tf.constant([2.0 + 0j, 5.0 + 0j], tf.complex64)")
    return [(call, _X, _eager(call)) for call in calls] + [(f"{calls[-2]} in a tf.function", _T, _traced(calls[-2]))]


# --- math_ops.add (and `+`) converts y with x's dtype as a hint only: a refused Python float converts on its own, as
# float32, whose range it must fit eagerly (`int32 + 1e300`, `tf.math.add(0, 1e40)`: ValueError), and a Python string
# to a string tensor, which AddV2 refuses beside a number (InvalidArgumentError); the bool operators' truth conversion
# of a float goes through float32 too (`bool_tensor + 1e300`: ValueError). Found beside fz14 seed 1420463004 #129;
# simdist had raised AddV2's mismatch and the conversion's TypeError
def _add_cases() -> list[tuple[str, str, object]]:
    calls = []
    for x in ("0", "tf.constant(1)", "tf.constant(1, tf.int64)", "tf.constant(1.0)", "tf.constant(1, tf.uint8)",
              "np.int32(1)", "[1, 2]", "tf.constant(True)", "1.5", "tf.Variable(1)"):
        for y in ("1e300", "[1e300]", "2.5", "1e40", "-1e39", "3e38", "float('inf')", "'a'", "True"):
            calls.append(f"tf.math.add({x}, {y})")
            if x.startswith("tf."):
                calls.append(f"{x} + {y}")
    for x in ("tf.constant(True)", "tf.constant([True, False])"):
        for y in ("1e300", "2.5", "1e40", "float('nan')", "2**40"):
            calls += [f"{x} + {y}", f"{x} * {y}", f"{y} + {x}", f"{y} * {x}"]
    return [(call, _C, _eager(call)) for call in calls] + \
        [(f"{call} in a tf.function", _T, _traced(call)) for call in calls if "Variable" not in call]


CASES: list[tuple] = [
    *_add_cases(),
    *_separable_cases(),
    *_pad_cases(),
    *_draw_cases(),
    *_fractional_cases(),
    *_conv_cases(),
    *_argmax_pool_cases(),
    *_sampler_cases(),
    *_wav_cases(),
    *_cpow_cases(),
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


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_pow(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz46_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
