"""Gaps the eighth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 8, over the training-layer files
seeds 1-7 never sampled: image preprocessing layers, Keras's image utilities, the tf.data transformations, the
runtime's Dimension, SparseTensor, TensorArray and symbolic tensors, a conv op's attrs, tf.summary's writers and
recording state; thirty-first session): behaviours the suite executed but no test looked at (docs/conformance.md,
"Thirty-first session: automatic sweep, seed 8 (amut31)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- smart_resize crops the centred window ----------------------------------------------------------------------------
@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("shape, size", [((2, 6, 1), (2, 2)), ((2, 9, 1), (2, 2)), ((3, 8, 2), (3, 3)),
                                         ((7, 2, 1), (2, 2)), ((9, 3, 1), (3, 3)), ((2, 3, 7, 1), (3, 3))])
def test_amut31_smart_resize_crops_the_centred_window(keras, shape, size):
    """keras.preprocessing.image.smart_resize crops the largest window of the target's aspect ratio centred in the
    image, its offset `int((side - crop) / 2)` on each axis (Keras 3.15's image_utils.py), then resizes it: where the
    window already has the target size the result is the window itself (the rule; observed on TF 2.21: a 2x6 image
    to (2, 2) keeps columns 2 and 3)."""
    x = np.arange(int(np.prod(shape)), dtype="float32").reshape(shape)
    h, w = shape[-3], shape[-2]
    th, tw = size
    ch, cw = max(min(h, int(float(w * th) / tw)), 1), max(min(w, int(float(h * tw) / th)), 1)
    assert (ch, cw) == size, "the case must crop to the target size (then the resize is the identity)"
    h0, w0 = int(float(h - ch) / 2), int(float(w - cw) / 2)
    want = x[..., h0:h0 + ch, w0:w0 + cw, :]
    got = to_numpy(keras.preprocessing.image.smart_resize(x, size, interpolation="nearest"))
    assert_equal(got, want, call=f"smart_resize(arange{shape}, {size}, interpolation='nearest')")


# -- tf.data: interleave's warning is the library's -----------------------------------------------------------------
@clause("dataset.interleave", ref="tf221")
def test_amut31_interleave_deterministic_warning_is_attributed_to_the_library(tf):
    """`Dataset.interleave(..., deterministic=True)` without num_parallel_calls warns "The `deterministic` argument has
    no effect unless the `num_parallel_calls` argument is specified." from the library's own module (TF 2.21's
    interleave_op.py calls warnings.warn with the default stacklevel), not from the caller's line (observed)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.from_tensors(x), deterministic=True)
    got = [(str(w.message), w.category.__name__, os.path.abspath(w.filename) == os.path.abspath(__file__))
           for w in caught if "deterministic" in str(w.message)]
    assert_equal(got, [("The `deterministic` argument has no effect unless the `num_parallel_calls` argument is "
                        "specified.", "UserWarning", False)],
                 call="Dataset.range(3).interleave(f, deterministic=True)",
                 what="(message, category, attributed to the calling file)")


# -- tf.data: functions' output specs follow the argument values, not one probe's ------------------------------------
@clause("dataset.group-by-window", ref="tf221")
def test_amut31_group_by_window_spec_of_a_reduce_func_shaped_by_its_key(tf):
    """group_by_window's element spec is the datasets reduce_func returns for a symbolic key: a reduce_func whose
    output's length is the key gives shape (None,), and the elements follow (observed on TF 2.21: keys 0, 1, 2 of
    range(6) % 3 in windows of 2 give [], [1], [2, 2])."""
    ds = tf.data.Dataset.range(6).group_by_window(
        key_func=lambda x: x % 3, reduce_func=lambda k, w: tf.data.Dataset.from_tensors(tf.fill([k], k)),
        window_size=2)
    call = "Dataset.range(6).group_by_window(x % 3, lambda k, w: from_tensors(tf.fill([k], k)), 2)"
    assert_equal(ds.element_spec.shape.as_list(), [None], call=call, what="element_spec shape")
    assert_equal([to_numpy(e).tolist() for e in ds], [[], [1], [2, 2]], call=call, what="elements")


@clause("dataset.window", ref="tf221")
def test_amut31_windows_of_unknown_length_elements_pass_them_whole(tf):
    """Windows of elements of an unknown length (spec (None,)) hold the elements themselves: a flat_map over the windows
    may index each element (`x[0]`, `x[-1]`) and reduce a window over it, and the element spec is the function's for
    the windows of any element length: a reduce to a (2,) state gives spec (2,) (observed on TF 2.21: [1, 2],
    [3, 4, 5], [6], [7, 8] in windows of 2 give first entries 1, 3, 6, 7, window sums of them 4, 13, and sums of
    [first, last] [4, 7], [13, 14])."""
    def source():
        return tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3, 4, 5], [6], [7, 8]]),
                                              output_signature=tf.TensorSpec((None,), tf.int64))
    firsts = source().window(2, drop_remainder=True).flat_map(lambda w: w.map(lambda x: x[0]))
    assert_equal([int(to_numpy(e)) for e in firsts], [1, 3, 6, 7], call="window(2).flat_map(w.map(x[0]))")
    sums = source().window(2, drop_remainder=True).flat_map(
        lambda w: tf.data.Dataset.from_tensors(w.reduce(tf.constant(0, tf.int64), lambda s, x: s + x[0])))
    assert_equal(sums.element_spec.shape.as_list(), [], call="window(2).flat_map(reduce x[0])", what="element_spec")
    assert_equal([int(to_numpy(e)) for e in sums], [4, 13], call="window(2).flat_map(reduce x[0])")
    ends = source().window(2, drop_remainder=True).flat_map(
        lambda w: tf.data.Dataset.from_tensors(
            w.reduce(tf.zeros([2], tf.int64), lambda s, x: s + tf.stack([x[0], x[-1]]))))
    call = "window(2).flat_map(from_tensors(reduce(zeros([2]), s + stack([x[0], x[-1]]))))"
    assert_equal(ends.element_spec.shape.as_list(), [2], call=call, what="element_spec shape")
    assert_equal([to_numpy(e).tolist() for e in ends], [[4, 7], [13, 14]], call=call)


# -- tf.compat.v1.Dimension: 0 is a size, ordering converts the other operand -----------------------------------------
_DIM_TYPE = ("Dimension value must be integer or None or have an __index__ method, got value ''a'' with type "
             "'<class 'str'>'")


@clause("ops.fuzz4", ref="tf221")
@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_amut31_dimension_zero_and_ordering_against_other_values(tf, op):
    """A Dimension of 0 is a known size (value 0; TensorShape([0, 2]).dims[0].value is 0), only a negative value is
    ValueError "Dimension -1 must be >= 0". An ordering comparison converts its other operand with as_dimension
    (TF 2.21's tensor_shape.py): an int compares, None or an unknown Dimension gives None, a str is the constructor's
    TypeError, a negative int its ValueError; == and != answer False/True instead (observed)."""
    D = tf.compat.v1.Dimension
    assert_equal((D(0).value, tf.TensorShape([0, 2]).dims[0].value), (0, 0), call="Dimension(0).value")
    with raises(ValueError, match="^" + re.escape("Dimension -1 must be >= 0"), call="Dimension(-1)"):
        D(-1)
    cmp = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]
    want = {"<": (False, True, False), "<=": (True, True, False), ">": (False, False, True),
            ">=": (True, False, True)}[op]
    assert_equal((cmp(D(3), 3), cmp(D(3), 4), cmp(D(3), np.int64(2))), want,
                 call=f"Dimension(3) {op} 3, 4, np.int64(2)")
    assert_equal((cmp(D(3), None), cmp(D(0), D(None))), (None, None), call=f"Dimension {op} None / unknown")
    with raises(TypeError, match="^" + re.escape(_DIM_TYPE), call=f"Dimension(3) {op} 'a'"):
        cmp(D(3), "a")
    with raises(ValueError, match="^" + re.escape("Dimension -2 must be >= 0"), call=f"Dimension(3) {op} -2"):
        cmp(D(3), -2)
    assert_equal((D(3) == "a", D(3) != "a"), (False, True), call="Dimension(3) == 'a', != 'a'")


# -- SparseTensor: a dense_shape of zeros is known --------------------------------------------------------------
@clause("ops.sparse", ref="tf221")
@pytest.mark.parametrize("dense_shape, want", [([0, 3], [0, 3]), ([2, 0], [2, 0]), ([0, 0], [0, 0]),
                                                ([-1, 3], [None, 3])])
def test_amut31_sparse_tensor_shape_keeps_zero_sizes(tf, dense_shape, want):
    """A SparseTensor's static shape is its dense_shape with every size >= 0 kept, 0 included (an empty SparseTensor of
    dense_shape [0, 3] has shape [0, 3] and densifies to a (0, 3) tensor); a -1 is unknown (observed on TF 2.21)."""
    n = 1 if -1 in dense_shape else 0
    sp = tf.SparseTensor(tf.zeros([n, 2], tf.int64), tf.zeros([n]), dense_shape)
    call = f"SparseTensor(..., dense_shape={dense_shape})"
    assert_equal((sp.shape.as_list(), sp.get_shape().as_list()), (want, want), call=call, what="shape, get_shape()")
    if n == 0:
        assert_equal(tf.sparse.to_dense(sp).shape.as_list(), want, call=f"tf.sparse.to_dense({call})", what="shape")


# -- TensorArray.write converts Python values to the array's dtype --------------------------------------------------
@clause("ops.tensor-array", ref="tf221")
@pytest.mark.parametrize("dtype, value, want", [("float32", 1, [1.0]), ("float32", [1, 2], [[1.0, 2.0]]),
                                                ("float32", "np.float64(2.5)", [2.5]), ("float64", 3, [3.0]),
                                                ("float16", 3, [3.0]), ("int64", 3, [3])])
def test_amut31_tensor_array_write_converts_python_values_to_its_dtype(tf, dtype, value, want):
    """TensorArray.write converts a value that is not a tensor with the array's dtype preferred (TF 2.21's
    _EagerTensorArray._write: convert_to_tensor(value, preferred_dtype=dtype)): Python ints and lists, a NumPy float64
    scalar, go into a float array as floats; a tensor of another dtype, or a float into an int32 array, is
    InvalidArgumentError "TensorArray dtype is ... but Op is trying to write dtype ..." (observed)."""
    v = np.float64(2.5) if value == "np.float64(2.5)" else value
    ta = tf.TensorArray(getattr(tf, dtype), size=1).write(0, v)
    s = ta.stack()
    assert_equal(s.dtype.name, dtype, call=f"TensorArray({dtype}).write(0, {value}).stack()", what="dtype")
    assert_equal(to_numpy(s).tolist(), want, call=f"TensorArray({dtype}).write(0, {value}).stack()")
    with raises(tf.errors.InvalidArgumentError, call="TensorArray(float32).write(0, float64 tensor)",
                match=re.escape("TensorArray dtype is float32 but Op is trying to write dtype float64")):
        tf.TensorArray(tf.float32, size=1).write(0, tf.constant(2.5, tf.float64))
    with raises(tf.errors.InvalidArgumentError, call="TensorArray(int32).write(0, 2.5)",
                match=re.escape("TensorArray dtype is int32 but Op is trying to write dtype float32")):
        tf.TensorArray(tf.int32, size=1).write(0, 2.5)


# -- a tf.function's Python prints eager tensors by value ----------------------------------------------------------
@clause("function.symbolic-tensors", ref="tf221")
def test_amut31_outer_eager_tensors_print_their_values_inside_a_function(tf):
    """Inside a tf.function's Python, an eager tensor made outside (not yet captured by an op) is still an EagerTensor:
    its str, repr and format show its value, while the argument prints as the graph placeholder (observed on TF
    2.21)."""
    c = tf.constant([1.0, 2.0])
    texts = []

    @tf.function
    def f(x):
        texts.append((str(c), repr(c), f"{c}", str(x)))
        return x + c

    f(tf.constant([3.0, 4.0]))
    assert_equal(texts[:1], [("tf.Tensor([1. 2.], shape=(2,), dtype=float32)",
                              "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>",
                              "[1. 2.]", 'Tensor("x:0", shape=(2,), dtype=float32)')],
                 call="str/repr/format of an outer constant and str of the argument inside a tf.function")


# -- tf.summary: write_raw_pb, and a falsy record_if condition ------------------------------------------------
def _raw_events(d: str) -> list:
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    files = [f for f in os.listdir(d) if f.startswith("events.out.tfevents.")]
    assert len(files) == 1, f"{d} holds {files}, but should hold one event file"
    events = [event_pb2.Event.FromString(r) for r in RawEventFileLoader(os.path.join(d, files[0])).Load()]
    return [(e.step, [(v.tag, v.simple_value) for v in e.summary.value]) for e in events[1:]]


@clause("summary.event-files", ref="tf221")
def test_amut31_write_raw_pb_writes_serialized_summaries(tf, tmp_path):
    """tf.summary.experimental.write_raw_pb writes one event holding the given serialized Summary protos merged (one
    string or a list), at the step, eagerly and at every call of a tf.function, and returns True (TF 2.21's
    WriteRawProtoSummary; observed)."""
    pytest.importorskip("tensorboard")
    from tensorboard.compat.proto import summary_pb2
    sx = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag="x", simple_value=2.5)]).SerializeToString()
    sy = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag="y", simple_value=-1.0)]).SerializeToString()
    eager, traced = str(tmp_path / "eager"), str(tmp_path / "traced")
    w = tf.summary.create_file_writer(eager)
    with w.as_default():
        got = [bool(tf.summary.experimental.write_raw_pb(sx, step=4)),
               bool(tf.summary.experimental.write_raw_pb([sx, sy], step=5))]
    w.close()
    assert_equal(got, [True, True], call="write_raw_pb", what="returned")
    assert_equal(_raw_events(eager), [(4, [("x", 2.5)]), (5, [("x", 2.5), ("y", -1.0)])],
                 call="write_raw_pb(x, step=4); write_raw_pb([x, y], step=5)", what="events (step, [(tag, value)])")
    w2 = tf.summary.create_file_writer(traced)

    @tf.function
    def g(step):
        with w2.as_default():
            return tf.summary.experimental.write_raw_pb(tf.constant(sx), step=step)

    g(tf.constant(1, tf.int64))
    g(tf.constant(2, tf.int64))
    w2.close()
    assert_equal(_raw_events(traced), [(1, [("x", 2.5)]), (2, [("x", 2.5)])], call="a tf.function calling write_raw_pb",
                 what="events")


@clause("summary.event-files", ref="tf221")
@pytest.mark.parametrize("condition", [0, 0.0, False])
def test_amut31_a_falsy_constant_record_if_condition_records_nothing(tf, tmp_path, condition):
    """Under `tf.summary.record_if(c)` with a constant c that is falsy (False, 0, 0.0), summaries are not recorded:
    should_record_summaries() is False and tf.summary.scalar returns False and writes nothing (TF 2.21's
    summary_ops_v2 answers False from the constant's static value before combining it with the replica's
    condition; observed)."""
    pytest.importorskip("tensorboard")
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(), tf.summary.record_if(condition):
        got = (bool(tf.summary.should_record_summaries()), bool(tf.summary.scalar("s", 1.0, step=1)))
    w.close()
    assert_equal(got, (False, False), call=f"record_if({condition!r}): should_record_summaries(), scalar(...)")
    assert_equal(_raw_events(str(tmp_path)), [], call=f"record_if({condition!r})", what="events written")


# -- Conv2DBackprop*V2: None attrs are their defaults ---------------------------------------------------------------
@clause("ops.conv-generic", ref="tf221")
def test_amut31_conv2d_backprop_v2_none_attrs_are_the_defaults(tf):
    """tf.conv2d_backprop_filter_v2 / input_v2 with use_cudnn_on_gpu, explicit_paddings, data_format and dilations None
    take the op's defaults (true, [], "NHWC", [1, 1, 1, 1]), as the node TF's NotFoundError (no kernel on any device)
    lists (observed on TF 2.21)."""
    x, f, dy = tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 2, 3]), tf.ones([1, 4, 4, 3])
    for fn, op in ((tf.conv2d_backprop_filter_v2, "Conv2DBackpropFilterV2"),
                   (tf.conv2d_backprop_input_v2, "Conv2DBackpropInputV2")):
        node = (f'{op}[T=DT_FLOAT, data_format="NHWC", dilations=[1, 1, 1, 1], explicit_paddings=[], padding="SAME", '
                f'strides=[1, 1, 1, 1], use_cudnn_on_gpu=true]')
        with raises(tf.errors.NotFoundError, match=re.escape(node), call=f"{fn.__name__}(..., attrs None)"):
            fn(x, f, dy, strides=[1, 1, 1, 1], padding="SAME", dilations=None, explicit_paddings=None,
               data_format=None, use_cudnn_on_gpu=None)


# -- AutoContrast keeps non-finite pixels -----------------------------------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut31_auto_contrast_keeps_an_infinite_pixel(keras):
    """AutoContrast stretches each image's channel to value_range; an image holding +inf has scale 255 / inf = 0, the
    inf pixel computes NaN and gives back its input, so the output keeps inf, unclipped (Keras 3.15's auto_contrast.py
    returns the compute-dtype result as it is; observed on TF 2.21: [[0, inf], [10, 20]] gives [0, inf, 0, 0])."""
    img = np.array([[[[0.0], [np.inf]], [[10.0], [20.0]]]], "float32")
    got = to_numpy(keras.layers.AutoContrast(value_range=(0, 255))(img)).ravel().tolist()
    assert_equal(got, [0.0, float("inf"), 0.0, 0.0], call="AutoContrast(value_range=(0, 255))([[0, inf], [10, 20]])")
