"""Gaps the thirteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 13, over 50 training-layer
files seeds 1-12 never sampled; thirty-sixth session), and those seed 12's open survivors showed: behaviours the suite
executed but no test looked at (docs/conformance.md, "Thirty-sixth session: automatic sweep, seed 13 (amut36)";
TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


# -- tensors are immutable: no NumPy array a user holds aliases a tensor's value ------------------------------------
def _write_first(arr: np.ndarray, value: float) -> None:
    arr.reshape(-1)[0] = value


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("make", ["constant", "convert_to_tensor", "variable", "from_tensor_slices"])
def test_amut36_a_converted_array_is_copied_in(tf, make):
    """tf.constant, tf.convert_to_tensor, tf.Variable and Dataset.from_tensor_slices copy a NumPy array into the
    tensor: writing into the array afterwards changes nothing the tensor, variable or dataset gives (observed on
    TF 2.21; simdist kept the caller's array as the tensor's buffer)."""
    src = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    want = src.copy()
    if make == "from_tensor_slices":
        ds = tf.data.Dataset.from_tensor_slices(src)
        read = lambda: np.stack(list(ds.as_numpy_iterator()))  # noqa: E731
    else:
        obj = {"constant": tf.constant, "convert_to_tensor": tf.convert_to_tensor, "variable": tf.Variable}[make](src)
        read = obj.numpy
    src[...] = -1.0
    assert_equal(read(), want, call=f"{make} of an array the caller then overwrote with -1: the values as converted")


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("of", ["eager", "op result", "function result", "variable", "variable read",
                                "keras variable", "get_weights"])
def test_amut36_numpy_is_a_copy_out(tf, keras, of):
    """Tensor.numpy() is `_numpy().copy()` (tensorflow/python/framework/ops.py: tensors are immutable), a variable's
    and a Keras variable's numpy() and Layer.get_weights() read through it: the array is writable and writing into it
    changes no tensor, variable or weight; a tf.function's results, the first (tracing) call's too, likewise (observed
    on TF 2.21; simdist handed out the tensor's own buffer)."""
    x = tf.constant([1.0, 2.0, 3.0])
    if of == "eager":
        t, read = x, x.numpy
    elif of == "op result":
        t = x * 2.0
        read = t.numpy
    elif of == "function result":
        f = tf.function(lambda a: (a + 1.0, tf.constant([1.0, 2.0, 3.0]) * 3.0))
        outs = [f(x) for _ in range(3)]
        for k, (r0, r1) in enumerate(outs):
            for r in (r0, r1):
                arr = r.numpy()
                want = arr.copy()
                _write_first(arr, 42.0)
                assert_equal(r.numpy(), want, call=f"call {k}'s result after writing 42 into its numpy()")
        return
    elif of == "variable":
        t = tf.Variable([1.0, 2.0, 3.0])
        read = t.numpy
    elif of == "variable read":
        v = tf.Variable([1.0, 2.0, 3.0])
        t = v.read_value()
        read = v.numpy
    elif of == "keras variable":
        t = keras.Variable(np.array([1.0, 2.0, 3.0], np.float32))
        read = t.numpy
    else:
        layer = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
        layer.build((None, 1))
        arr = layer.get_weights()[0]
        _write_first(arr, 42.0)
        assert_equal(layer.get_weights()[0], np.ones((1, 3), np.float32),
                     call="Dense kernel after writing 42 into get_weights()[0]")
        assert_equal(layer(np.ones((1, 1), np.float32)), np.ones((1, 3), np.float32),
                     call="Dense of ones after writing 42 into get_weights()[0]")
        return
    want = np.array([1.0, 2.0, 3.0], np.float32) * (2.0 if of == "op result" else 1.0)
    arr = t.numpy()
    assert arr.flags.writeable, f"{of}: numpy() should be a writable array, got a read-only one"
    _write_first(arr, 42.0)
    assert_equal(read(), want, call=f"{of} after writing 42 into its numpy()")


@clause("ops.conversion", ref="tf221")
def test_amut36_np_asarray_of_a_tensor_is_read_only(tf):
    """np.asarray(tensor) is a view of the tensor's buffer that NumPy marks read-only (TF's EagerTensor buffer):
    writing into it is ValueError "assignment destination is read-only"; np.array(tensor) is a writable copy; of a
    variable, np.asarray is a writable copy (BaseResourceVariable.__array__: np.asarray(self.numpy())) (observed on
    TF 2.21)."""
    x = tf.constant([1.0, 2.0])
    view = np.asarray(x)
    with raises(ValueError, match="read-only", call="np.asarray(tf.constant([1.0, 2.0]))[0] = 5.0"):
        view[0] = 5.0
    copy = np.array(x)
    copy[0] = 5.0
    assert_equal(x, np.array([1.0, 2.0], np.float32), call="the tensor after writing 5 into np.array(tensor)")
    v = tf.Variable([1.0, 2.0])
    arr = np.asarray(v)
    arr[0] = 5.0
    assert_equal(v, np.array([1.0, 2.0], np.float32), call="the variable after writing 5 into np.asarray(variable)")


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("batch", [None, 2], ids=["elements", "batches"])
def test_amut36_as_numpy_iterator_arrays_are_read_only(tf, batch):
    """Dataset.as_numpy_iterator gives each element's arrays as `_numpy()` views NumPy marks read-only: writing into one
    is ValueError "assignment destination is read-only", and a second pass gives the same values (observed on TF 2.21;
    simdist's were writable views of the dataset's own arrays, so a write changed the next epoch)."""
    src = np.arange(6.0).reshape(3, 2)
    ds = tf.data.Dataset.from_tensor_slices(src)
    if batch:
        ds = ds.batch(batch)
    first = next(iter(ds.as_numpy_iterator()))
    with raises(ValueError, match="read-only", call="writing into an as_numpy_iterator element"):
        _write_first(first, 55.0)
    again = [np.asarray(e).tolist() for e in ds.as_numpy_iterator()]
    want = [src[i:i + batch].tolist() for i in range(0, 3, batch)] if batch else src.tolist()
    assert again == want, f"a second pass: expected {want}, got {again}"


# -- shape functions' messages while tracing ---------------------------------------------------------------------------
@clause("ops.argument-errors", ref="tf221")
def test_amut36_traced_gather_of_a_scalar_needs_rank_1(tf):
    """tf.gather of a scalar params in a tf.function: GatherV2's shape function, ValueError "Shape must be at least rank
    1 but is rank 0 for '{{node GatherV2}} ...", checked before the axis, so also where the axis is a value the graph
    does not know (observed on TF 2.21)."""
    with raises(ValueError, match=r"Shape must be at least rank 1 but is rank 0 for '\{\{node GatherV2\}\}",
                call="tf.function(tf.gather(scalar, 0))"):
        tf.function(lambda p: tf.gather(p, 0))(tf.constant(3.0))
    with raises(ValueError, match=r"Shape must be at least rank 1 but is rank 0 for '\{\{node GatherV2\}\}",
                call="tf.function(tf.gather(scalar, 0, axis=a tensor argument))"):
        tf.function(lambda p, ax: tf.gather(p, 0, axis=ax))(tf.constant(3.0), tf.constant(0))


_SQUARE_OPS = {
    "inv": (lambda tf, x: tf.linalg.inv(x), "rows"), "cholesky": (lambda tf, x: tf.linalg.cholesky(x), "rows"),
    "eigh": (lambda tf, x: tf.linalg.eigh(x), "rows"), "eig": (lambda tf, x: tf.linalg.eig(x), "rows"),
    "sqrtm": (lambda tf, x: tf.linalg.sqrtm(x), "rows"),
    "logm": (lambda tf, x: tf.linalg.logm(tf.cast(x, tf.complex64)), "rows"),
    "triangular_solve": (lambda tf, x: tf.linalg.triangular_solve(x, tf.ones(x.shape[:-1] + [1])), "rows"),
    "det": (lambda tf, x: tf.linalg.det(x), "columns"), "slogdet": (lambda tf, x: tf.linalg.slogdet(x), "columns"),
}


@clause("ops.linalg-more", ref="tf221")
@pytest.mark.parametrize("shape", [(2, 3), (4, 3, 2)], ids=["2x3", "batch-3x2"])
@pytest.mark.parametrize("op", list(_SQUARE_OPS))
def test_amut36_traced_square_matrix_ops_name_the_dimensions_in_their_merge_order(tf, op, shape):
    """In a tf.function a non-square matrix is the shape function's ValueError "Dimensions must be equal, but are a and
    b": MakeBatchSquareMatrix (inv, cholesky, eigh, eig, sqrtm, logm) and MatrixTriangularSolve name the rows first,
    MatrixDeterminant and LogMatrixDeterminant the columns first (observed on TF 2.21; simdist named the columns first
    for all)."""
    fn, first = _SQUARE_OPS[op]
    a, b = (shape[-2], shape[-1]) if first == "rows" else (shape[-1], shape[-2])
    x = tf.constant(np.ones(shape, np.float32))
    with raises(ValueError, match=f"Dimensions must be equal, but are {a} and {b}",
                call=f"tf.function({op})(ones{shape})"):
        tf.function(lambda m: fn(tf, m))(x)


@clause("ops.image-box-proposals", ref="tf221")
def test_amut36_box_proposals_traced_check_only_image_info_s_width(tf):
    """GenerateBoundingBoxProposals in a tf.function: valid shapes trace (scores [1,2,2,1], deltas [1,2,2,4], image_info
    [1,5], anchors [1,1,4]) and the call fails at run time for want of a CPU kernel, InvalidArgumentError "No OpKernel
    was registered to support Op 'GenerateBoundingBoxProposals'"; only image_info's second dimension must be 5,
    ValueError "Dimension must be 5 but is 4" (observed on TF 2.21)."""
    scores = np.ones((1, 2, 2, 1), np.float32)
    deltas = np.zeros((1, 2, 2, 4), np.float32)
    info = np.array([[16.0, 16.0, 1.0, 1.0, 0.0]], np.float32)
    anchors = np.array([[[0.0, 0.0, 8.0, 8.0]]], np.float32)
    with raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered to support Op "
                "'GenerateBoundingBoxProposals'", call="generate_bounding_box_proposals of valid shapes, traced"):
        tf.function(lambda: tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors))()
    with raises(ValueError, match="Dimension must be 5 but is 4", call="image_info [1, 4], traced"):
        tf.function(lambda: tf.image.generate_bounding_box_proposals(scores, deltas, info[:, :4], anchors))()


# -- images ---------------------------------------------------------------------------------------------------------
@clause("ops.image-boxes", ref="tf221")
@pytest.mark.parametrize("box", [[0.6, 0.1, 0.2, 0.5], [0.2, 0.8, 0.6, 0.3], [1.5, 0.1, 1.9, 0.5],
                                 [0.1, 1.5, 0.5, 1.9], [-0.9, 0.1, -0.5, 0.5], [0.1, -0.9, 0.5, -0.5]],
                         ids=["rows-inverted", "cols-inverted", "below", "right", "above", "left"])
def test_amut36_draw_bounding_boxes_skips_inverted_and_outside_boxes(tf, box):
    """draw_bounding_boxes does not draw a box whose rows or columns are inverted, or that lies wholly outside the
    image (ymin * (h - 1) >= h, ymax * (h - 1) < 0, likewise for x): the image comes back unchanged (TF logs "is
    inverted and will not be drawn"; draw_bounding_box_op.cc)."""
    img = (np.arange(5 * 6 * 3, dtype=np.float32).reshape(1, 5, 6, 3) % 7) / 7.0
    out = tf.image.draw_bounding_boxes(img, np.array([[box]], np.float32), np.array([[1.0, 0.0, 0.0]], np.float32))
    assert_equal(out, img, call=f"draw_bounding_boxes(box={box})")


@clause("ops.image", ref="tf221")
def test_amut36_ssim_multiscale_default_power_factors(tf):
    """tf.image.ssim_multiscale's default power_factors are _MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)
    (image_ops_impl.py): the default call equals the call given them explicitly, bit for bit."""
    x = tf.random.stateless_uniform((2, 64, 64, 1), seed=(1, 2))
    y = tf.clip_by_value(x + tf.random.stateless_normal((2, 64, 64, 1), seed=(3, 4)) * 0.1, 0.0, 1.0)
    got = tf.image.ssim_multiscale(x, y, 1.0, filter_size=3)
    want = tf.image.ssim_multiscale(x, y, 1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=3)
    assert_equal(got, want, call="ssim_multiscale with the default power_factors vs given explicitly")


@clause("io.image-codecs", ref="tf221")
@pytest.mark.parametrize("channels, fmt, text", [(4, "", "image must have 1 or 3 channels, got [8,8,4]"),
                                                 (2, "", "image must have 1 or 3 channels, got [8,8,2]"),
                                                 (4, "rgb", "format rgb expects 3 channels, got [8,8,4]"),
                                                 (3, "grayscale", "format grayscale expects 1 channels, got [8,8,3]")],
                         ids=["4", "2", "rgb-4", "grayscale-3"])
def test_amut36_encode_jpeg_checks_the_channel_count(tf, channels, fmt, text):
    """EncodeJpeg takes 1 or 3 channels without a format, and exactly the format's count with one:
    InvalidArgumentError naming the image's shape (observed on TF 2.21)."""
    img = np.zeros((8, 8, channels), np.uint8)
    with raises(tf.errors.InvalidArgumentError, match=re.escape(text), call=f"encode_jpeg([8,8,{channels}], {fmt!r})"):
        tf.io.encode_jpeg(img, format=fmt)


@clause("io.image-codecs", ref="tf221")
def test_amut36_decode_jpeg_upsamples_chroma_to_the_last_column(tf):
    """A 4:2:0 JPEG (encode_jpeg's default chroma downsampling) of an odd-sized colour image decodes with libjpeg's
    fancy upsampling, whose first and last columns are edge cases: the decoded image's sums, over all, over its last
    and its second column, are TF 2.21's (observed: 131835, 5793, 6637 for this seeded 16x22 image at quality 90)."""
    img = np.random.default_rng(5).integers(0, 256, (16, 22, 3), dtype=np.uint8)
    dec = tf.io.decode_jpeg(tf.io.encode_jpeg(img, quality=90)).numpy().astype(np.int64)
    got = (int(dec.sum()), int(dec[:, -1].sum()), int(dec[:, 1].sum()))
    assert got == (131835, 5793, 6637), f"decoded sums (all, last column, column 1): expected (131835, 5793, 6637), " \
                                        f"got {got}"


# -- linalg, strings ---------------------------------------------------------------------------------------------------
@clause("ops.linalg-eigh-tridiagonal", ref="tf221")
def test_amut36_eigh_tridiagonal_refuses_an_empty_value_interval(tf):
    """eigh_tridiagonal(select='v') needs select_range[0] < select_range[1]: an interval of one point is
    InvalidArgumentError "Got empty interval in select_range."; a proper one gives the eigenvalues inside it."""
    a, b = np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5])
    with raises(tf.errors.InvalidArgumentError, match="Got empty interval in select_range",
                call="eigh_tridiagonal(select='v', select_range=[1.5, 1.5])"):
        tf.linalg.eigh_tridiagonal(a, b, eigvals_only=True, select="v", select_range=[1.5, 1.5])
    full = np.linalg.eigvalsh(np.diag(a) + np.diag(b, 1) + np.diag(b, -1))
    got = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=True, select="v", select_range=[0.0, 2.5]).numpy()
    want = full[(full > 0.0) & (full <= 2.5)]
    assert got.shape == want.shape and np.allclose(got, want, rtol=1e-12), \
        f"eigenvalues in (0, 2.5]: expected {want}, " \
                                                                          f"got {got}"


@clause("ops.strings-regex", ref="tf221")
def test_amut36_regex_escape_of_a_non_ascii_character_is_invalid(tf):
    """RE2 escapes only ASCII punctuation: "\\\\\\u0080" (a backslash before U+0080) is InvalidArgumentError "invalid
    escape sequence", while "\\\\\\x7f" and "\\\\~" match the character itself (observed on TF 2.21)."""
    with raises(tf.errors.InvalidArgumentError, match="invalid escape sequence",
                call="regex_full_match('\\\\\\u0080')"):
        tf.strings.regex_full_match(["a"], "\\\u0080")
    assert_equal(tf.strings.regex_full_match(["\x7f", "~"], "\\\x7f|\\~"), np.array([True, True]),
                 call="regex_full_match(['\\x7f', '~'], '\\\\\\x7f|\\\\~')")


@clause("ops.string-hash-bucket", ref="tf221")
def test_amut36_hashing_of_eight_to_sixteen_byte_strings(tf, keras):
    """Fingerprint64 (farmhash) of strings of 8-16 bytes takes its own path (HashLen0to16's first branch): Keras's
    Hashing layer and to_hash_bucket_fast give TF 2.21's buckets (observed) for strings of 7, 8, 9, 10 and 16 bytes."""
    words = ["abcdefgh", "abcdefghi", "0123456789abcdef", "training", "validation", "x" * 16, "seven77"]
    assert_equal(keras.layers.Hashing(num_bins=97)(np.array(words)), np.array([7, 56, 30, 68, 69, 12, 21]),
                 call=f"Hashing(num_bins=97)({words})")
    assert_equal(tf.strings.to_hash_bucket_fast(words, 2**31 - 1),
                 np.array([245091680, 1094637548, 100009012, 434065385, 829887371, 1495521792, 272394242]),
                 call=f"to_hash_bucket_fast({words}, 2**31 - 1)")


# -- oneDNN's float32 kernels on the CPUs where TF 2.21 turns them on -------------------------------------------------
@clause("nn.softmax-nonfinite", ref="tf221")
def test_amut36_onednn_softmax_flushes_below_twice_flt_min(tf, onednn_float32):
    """oneDNN's softmax computes exp(x - max) / 2 with flush-to-zero and doubles it: a term below 2 * FLT_MIN, x - max
    under about -86.64, is 0 (-86.7, -86.9, -87.2, -87.4), -86.5 and -80 are not (observed on TF 2.21, Intel
    AVX-512)."""
    x = tf.constant([[0.0, -86.5, -86.7, -86.9, -87.2, -87.4, -80.0]], tf.float32)
    want = np.array([[1.0, 2.713484715927212e-38, 0.0, 0.0, 0.0, 0.0, 1.8048519025566916e-35]], np.float32)
    assert_equal(tf.nn.softmax(x), want, call="tf.nn.softmax near the flush threshold")


def _conv_ones_2x2(x: np.ndarray, top: int, bottom: int, left: int, right: int) -> np.ndarray:
    p = np.pad(x[0, :, :, 0], ((top, bottom), (left, right)))
    out = p[:-1, :-1] + p[1:, :-1] + p[:-1, 1:] + p[1:, 1:]
    return out[None, :, :, None]


@clause("ops.fuzz-raw", ref="tf221")
def test_amut36_onednn_eager_conv_reads_explicit_paddings_unchecked(tf, onednn_float32):
    """Eagerly, oneDNN's float32 Conv2D runs no CheckValidPadding: a nonzero explicit_paddings list beside VALID pads
    the spatial places it names, nonzero batch/depth places are not read, and a list of 6 or 7 values (the places read
    all there) is read as one of 8; in a tf.function the graph's checks refuse
    both: ValueError "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT" and
    "Nonzero explicit padding in the batch or depth dimensions is not supported" (observed on TF 2.21, Intel AVX-512;
    the values are the 2x2 sums of the padded input, computed here)."""
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    w = np.ones((2, 2, 1, 1), np.float32)
    kw = dict(strides=[1, 1, 1, 1])
    valid = dict(kw, padding="VALID", explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0])
    batch = dict(kw, padding="EXPLICIT", explicit_paddings=[1, 1, 1, 0, 0, 1, 0, 0])
    assert_equal(tf.raw_ops.Conv2D(input=x, filter=w, **valid), _conv_ones_2x2(x, 1, 1, 1, 1),
                 call="eager Conv2D(VALID, explicit_paddings=[0,0,1,1,1,1,0,0])")
    assert_equal(tf.raw_ops.Conv2D(input=x, filter=w, **batch), _conv_ones_2x2(x, 1, 0, 0, 1),
                 call="eager Conv2D(EXPLICIT, explicit_paddings=[1,1,1,0,0,1,0,0])")
    for ex, pad in (([0, 0, 1, 1, 1, 1], "VALID"), ([0, 0, 1, 1, 1, 1, 0], "EXPLICIT")):   # (the 6 places read)
        assert_equal(tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding=pad, explicit_paddings=ex),
                     _conv_ones_2x2(x, 1, 1, 1, 1), call=f"eager Conv2D({pad}, explicit_paddings={ex})")
    with raises(ValueError, match="explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT",
                call="traced Conv2D(VALID, explicit_paddings=[0,0,1,1,1,1,0,0])"):
        tf.function(lambda: tf.raw_ops.Conv2D(input=x, filter=w, **valid))()
    with raises(ValueError, match="Nonzero explicit padding in the batch or depth dimensions is not supported",
                call="traced Conv2D(EXPLICIT, explicit_paddings=[1,1,1,0,0,1,0,0])"):
        tf.function(lambda: tf.raw_ops.Conv2D(input=x, filter=w, **batch))()


# -- more string, ragged and tf.experimental.numpy edges ---------------------------------------------------------------
@clause("ops.strings-unicode", ref="tf221")
@pytest.mark.parametrize("errors", ["strict", "replace", "ignore"])
@pytest.mark.parametrize("replace_controls", [False, True], ids=["controls-kept", "controls-replaced"])
def test_amut36_unicode_decode_of_control_characters(tf, errors, replace_controls):
    """unicode_decode(_with_offsets) keeps C0 controls (tab, newline, U+0001) as code points unless
    replace_control_characters; then they are replacement_char under "strict" and "replace" (UnicodeDecode replaces
    them itself; only an ill-formed byte is strict's error) and dropped under "ignore" (observed on TF 2.21; simdist
    refused them under "strict")."""
    words = ["a\tb\n", "\x01z"]
    if not replace_controls:
        want = [[97, 9, 98, 10], [1, 122]]
    elif errors == "ignore":
        want = [[97, 98], [122]]
    else:
        want = [[97, 63, 98, 63], [63, 122]]
    kw = dict(errors=errors, replace_control_characters=replace_controls, replacement_char=63)
    got = tf.strings.unicode_decode(words, "UTF-8", **kw).to_list()
    assert got == want, f"unicode_decode({words}, {kw}): expected {want}, got {got}"
    cps, offsets = tf.strings.unicode_decode_with_offsets(words, "UTF-8", **kw)
    assert cps.to_list() == want, f"unicode_decode_with_offsets({words}, {kw}) code points: expected {want}, " \
                                  f"got {cps.to_list()}"
    if replace_controls and errors == "strict":
        with raises(tf.errors.InvalidArgumentError, match="Invalid formatting on input string",
                    call="unicode_decode of an ill-formed byte, strict"):
            tf.strings.unicode_decode([b"a\xffb"], "UTF-8", **kw)


@clause("ops.strings-substr", ref="tf221")
def test_amut36_substr_counts_utf8_characters(tf):
    """substr(unit="UTF8_CHAR") counts characters, not bytes: pos 1, len 3 of "héllo wörld" is "éll" and of "ééé"
    the    two characters left (computed here from Python's own slicing of the decoded text)."""
    words = ["h\u00e9llo w\u00f6rld", "\u00e9\u00e9\u00e9"]
    want = [w[1:4].encode() for w in words]
    got = tf.strings.substr(words, 1, 3, unit="UTF8_CHAR").numpy().tolist()
    assert got == want, f"substr({words}, 1, 3, UTF8_CHAR): expected {want}, got {got}"


@clause("ops.string-hash-bucket", ref="tf221")
def test_amut36_hashing_of_strings_longer_than_64_bytes(tf, keras):
    """Fingerprint64 of a string over 64 bytes runs farmhash's 64-byte loop: to_hash_bucket_fast and Keras's Hashing
    give TF 2.21's buckets (observed)."""
    words = ["q" * 65, "abc" * 30, "the quick brown fox jumps over the lazy dog " * 3]
    assert_equal(tf.strings.to_hash_bucket_fast(words, 2**31 - 1), np.array([1962566055, 1962186072, 1583920542]),
                 call="to_hash_bucket_fast of 65-132 byte strings")
    assert_equal(keras.layers.Hashing(num_bins=101)(np.array(words[:2])), np.array([3, 12]),
                 call="Hashing(num_bins=101) of 65 and 90 byte strings")


@clause("ops.ragged", ref="tf221")
def test_amut36_ragged_range_rows_by_the_sign_of_delta(tf):
    """tf.ragged.range: a row is empty when delta's sign points away from limit, and otherwise steps by delta however
    small: starts [5, 0, 1, 3], limits [2, 2, 3, 0], deltas [1, 0.5, 0.75, -1] (computed here with np.arange)."""
    starts, limits, deltas = [5.0, 0.0, 1.0, 3.0], [2.0, 2.0, 3.0, 0.0], [1.0, 0.5, 0.75, -1.0]
    want = [np.arange(s, l, d, dtype=np.float32).tolist() for s, l, d in zip(starts, limits, deltas)]
    got = tf.ragged.range(starts, limits, deltas).to_list()
    assert got == want, f"ragged.range({starts}, {limits}, {deltas}): expected {want}, got {got}"


@clause("ops.experimental-numpy", ref="tf221")
def test_amut36_tnp_negative_axes_and_take_along_axis(tf):
    """tnp.moveaxis reads negative source and destination axes from the end, and tnp.take_along_axis gathers along a
    middle or the last axis of a rank-3 array, as NumPy does (computed with NumPy)."""
    tnp = tf.experimental.numpy
    a = np.arange(24).reshape(2, 3, 4)
    for src, dst in ((-1, 0), ([-1, -3], [0, -1]), (0, -2)):
        got = tnp.moveaxis(a, src, dst).numpy()
        assert_equal(got, np.moveaxis(a, src, dst), call=f"tnp.moveaxis(a[2,3,4], {src}, {dst})")
    for idx, axis in ((np.array([[[3, 0]], [[1, 2]]]), -1), (np.array([[[3, 0]], [[1, 2]]]), 2),
                      (np.array([[[2, 0, 1, 1]], [[0, 1, 2, 0]]]), 1)):
        assert_equal(tnp.take_along_axis(a, idx, axis=axis), np.take_along_axis(a, idx, axis=axis),
                     call=f"tnp.take_along_axis(a[2,3,4], idx{idx.shape}, axis={axis})")


@clause("ops.experimental-numpy", ref="tf221")
def test_amut36_tnp_arange_and_big_ints(tf):
    """tnp.arange follows np.arange (increasing, decreasing, stop only, empty ranges), and tnp.asarray(2**63) is
    uint64 (np_arrays.convert_to_tensor: an int of 2**63 or more) (computed with NumPy; observed on TF 2.21)."""
    tnp = tf.experimental.numpy
    for args in ((0, 5), (5,), (5, 0, -2), (0, 5, 2), (3, 1), (-3,), (1, 3, 0.5), (1, 3, -1), (3, 1, -1)):
        got = tnp.arange(*args).numpy().tolist()
        assert got == np.arange(*args).tolist(), f"tnp.arange{args}: expected {np.arange(*args).tolist()}, got {got}"
    big = tnp.asarray(2**63)
    assert big.dtype == tf.uint64 and int(big.numpy()) == 2**63, f"tnp.asarray(2**63): expected uint64 2**63, got " \
                                                                  f"{big.dtype} {big.numpy()}"


@clause("ops.linalg-more", ref="tf221")
def test_amut36_complex_eig_vectors_have_unit_norm(tf):
    """tf.linalg.eig of a complex matrix: each eigenvector column has unit 2-norm and A v = lambda v (the rule,
    checked with NumPy)."""
    a = np.array([[1 + 2j, 3 - 1j, 0.5], [0.5j, 2 + 0j, -1j], [4.0, 1 + 1j, -2 + 0.5j]], np.complex128)
    w, v = (t.numpy() for t in tf.linalg.eig(tf.constant(a)))
    norms = np.linalg.norm(v, axis=0)
    assert np.allclose(norms, 1.0, rtol=1e-12), f"eigenvector norms: expected 1, got {norms}"
    assert np.allclose(a @ v, v * w, atol=1e-10), f"A v - lambda v: expected 0, got {a @ v - v * w}"


@clause("io.image-codecs", ref="tf221")
@pytest.mark.parametrize("lo, hi", [(-1, 50), (10, 101), (101, 102), (-5, -1), (101, 50), (10, -1)])
def test_amut36_random_jpeg_quality_range_is_checked(tf, lo, hi):
    """random_jpeg_quality needs 0 <= min, max <= 100: ValueError "jpeg encoding range must be between 0 and 100."
    for any bound outside, checked before min < max (observed on TF 2.21)."""
    with raises(ValueError, match="jpeg encoding range must be between 0 and 100",
                call=f"random_jpeg_quality(img, {lo}, {hi})"):
        tf.image.random_jpeg_quality(np.zeros((4, 4, 3), np.uint8), lo, hi, seed=1)


# -- raw ops' shape functions in a tf.function, at valid calls ---------------------------------------------------------
@clause("ops.fuzz-raw", ref="tf221")
def test_amut36_raw_ops_trace_at_their_lowest_ranks(tf):
    """MatrixDiagPartV2 takes a rank-2 input and MirrorPadGrad a [rank, 2] paddings matrix: both trace and give the
    eager values (the diagonal, computed with NumPy; the REFLECT pad's gradient, folded by hand), and
    StaticRegexReplace's replace_global defaults to True (observed on TF 2.21)."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = tf.function(lambda: tf.raw_ops.MatrixDiagPartV2(input=x, k=0, padding_value=0.0))()
    assert_equal(got, np.diagonal(x), call="traced MatrixDiagPartV2 of a [2, 3] matrix")
    ones = np.ones((5, 6), np.float32)
    grad = tf.function(lambda: tf.raw_ops.MirrorPadGrad(input=ones, paddings=[[1, 1], [2, 1]], mode="REFLECT"))()
    rows, cols = np.array([1.0, 3.0, 1.0]), np.array([1.0, 3.0, 2.0])   # (each place plus its reflections)
    assert_equal(grad, np.outer(rows, cols).astype(np.float32), call="traced MirrorPadGrad(ones[5, 6], [[1,1],[2,1]])")
    assert_equal(tf.raw_ops.StaticRegexReplace(input=["aab"], pattern="a", rewrite="x"), np.array([b"xxb"], object),
                 call="raw StaticRegexReplace without replace_global")


@clause("ops.strings-unicode", ref="tf221")
def test_amut36_unicode_defaults_and_attr_messages(tf):
    """unicode_decode's and unicode_decode_with_offsets' default replacement_char is U+FFFD (65533) for an ill-formed
    byte under the default "replace";
    unicode_transcode's replace_control_characters must be a bool: TypeError "Expected bool for argument
    'replace_control_characters' not 'yes'." (observed on TF 2.21)."""
    got = tf.strings.unicode_decode([b"a\xffb"], "UTF-8").to_list()
    assert got == [[97, 65533, 98]], f"unicode_decode(b'a\\xffb'): expected [[97, 65533, 98]], got {got}"
    got = tf.strings.unicode_decode_with_offsets([b"a\xffb"], "UTF-8")[0].to_list()
    assert got == [[97, 65533, 98]], f"unicode_decode_with_offsets(b'a\\xffb'): expected [[97, 65533, 98]], got {got}"
    with raises(TypeError, match=re.escape("Expected bool for argument 'replace_control_characters' not 'yes'."),
                call="unicode_transcode(replace_control_characters='yes')"):
        tf.strings.unicode_transcode(["a"], "UTF-8", "UTF-16-BE", replace_control_characters="yes")


@clause("ops.strings-regex", ref="tf221")
@pytest.mark.parametrize("replace_global", [True, False])
def test_amut36_regex_replace_with_tensor_pattern_and_rewrite(tf, replace_global):
    """regex_replace given its pattern and rewrite as tensors runs RegexReplace (not the static op): the pattern is
    matched and the rewrite substituted, \\0 the whole match (Python's re computes the expected values)."""
    words = ["aab", "ba", "xyz"]
    got = tf.strings.regex_replace(words, tf.constant("a+"), tf.constant("<\\0>"), replace_global=replace_global)
    want = [re.sub("a+", r"<\g<0>>", w, count=0 if replace_global else 1).encode() for w in words]
    assert got.numpy().tolist() == want, f"regex_replace({words}, 'a+', '<\\0>', {replace_global}): expected {want}, " \
                                         f"got {got.numpy().tolist()}"


@clause("ops.string-hash-bucket", ref="tf221")
def test_amut36_hash_bucket_count_at_int64_min_traced(tf):
    """to_hash_bucket_fast with num_buckets -2**63 in a tf.function: op_def_library's minimum check names the value,
    ValueError "Attr 'num_buckets' of 'StringToHashBucketFast' Op passed -9223372036854775808 less than minimum 1.";
    a count outside int64 is ValueError "Value out of range: <n>" (the AttrValue's int64 field refuses it) (observed
    on TF 2.21; simdist said "passed -1 less than minimum 1")."""
    with raises(ValueError, match=re.escape("Attr 'num_buckets' of 'StringToHashBucketFast' Op passed "
                                            "-9223372036854775808 less than minimum 1."),
                call="tf.function(to_hash_bucket_fast(['a'], -2**63))"):
        tf.function(lambda: tf.strings.to_hash_bucket_fast(["a"], -2**63))()
    for n in (-2**63 - 1, -2**64, 2**63):
        with raises(ValueError, match=re.escape(f"Value out of range: {n}"),
                    call=f"tf.function(to_hash_bucket_fast(['a'], {n}))"):
            tf.function(lambda: tf.strings.to_hash_bucket_fast(["a"], n))()


@clause("ops.strings-join", ref="tf221")
def test_amut36_strings_format_gives_a_python_bytes_scalar(tf):
    """tf.strings.format's result is a scalar string tensor whose numpy() is a Python bytes object (as every string
    scalar's), ending with what the template ends with, a NUL included (observed on TF 2.21)."""
    t = tf.strings.format("x={} y={}\x00", [tf.constant([1, 2]), 3.5])
    v = t.numpy()
    assert type(v) is bytes and v == b"x=[1 2] y=3.5\x00", f"strings.format(...).numpy(): expected bytes " \
                                                            f"b'x=[1 2] y=3.5\\x00', got {type(v).__name__} {v!r}"


@clause("ops.image-glimpse", ref="tf221")
@pytest.mark.parametrize("size, eager_text, traced_text", [
    ([2, 2, 2], "input must be a vector of size 2 (height, width)[3]", "Dimension must be 2 but is 3"),
    ([[2, 2]], "input must be a vector of size 2 (height, width)[1,2]", "Shape must be rank 1 but is rank 2"),
], ids=["three-long", "matrix"])
def test_amut36_extract_glimpse_size_is_a_2_vector(tf, size, eager_text, traced_text):
    """extract_glimpse's size must be a vector of 2: eagerly the kernel's InvalidArgumentError naming size's shape, in
    a tf.function the shape function's ValueError, for a vector of 3 and for a [1, 2] matrix (observed on TF 2.21)."""
    img = np.ones((1, 4, 4, 1), np.float32)
    with raises(tf.errors.InvalidArgumentError, match=re.escape(eager_text), call=f"extract_glimpse(size={size})"):
        tf.image.extract_glimpse(img, size, [[0.0, 0.0]])
    with raises(ValueError, match=re.escape(traced_text), call=f"tf.function(extract_glimpse(size={size}))"):
        tf.function(lambda: tf.image.extract_glimpse(img, size, [[0.0, 0.0]]))()


@clause("ops.experimental-numpy", ref="tf221")
def test_amut36_tnp_matmul_of_matrices_is_matmul(tf):
    """tnp.matmul of two matrices is MatMul: a size mismatch is ValueError "Matrix size-incompatible: In[0]: [2,3],
    In[1]: [4,5]" eagerly and MatMul's shape function's "Dimensions must be equal, but are 3 and 4" in a tf.function
    (observed on TF 2.21)."""
    tnp = tf.experimental.numpy
    a, b = np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)
    with raises(ValueError, match=re.escape("Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5]"),
                call="tnp.matmul([2,3], [4,5])"):
        tnp.matmul(a, b)
    with raises(ValueError, match="Dimensions must be equal, but are 3 and 4",
                call="tf.function(tnp.matmul([2,3], [4,5]))"):
        tf.function(lambda: tnp.matmul(a, b))()


@clause("ops.strings-join", ref="tf221")
@pytest.mark.parametrize("axis", [[0], np.int64(0), 0], ids=["list", "numpy-int", "int"])
def test_amut36_reduce_join_of_a_non_string_tensor(tf, axis):
    """reduce_join of an int32 tensor: eagerly an axis that is no fast-path input (a list, a NumPy integer) sends the
    call to the eager fallback, ValueError "Tensor conversion requested dtype string for Tensor with dtype int32",
    a Python int reaches the kernel, InvalidArgumentError "... was expected to be a string tensor but is a int32
    tensor"; in a tf.function every axis is op_def_library's TypeError "Input 'inputs' of 'ReduceJoin' Op has type
    int32 that does not match expected type of string." (observed on TF 2.21)."""
    x = tf.constant([1, 2])
    if isinstance(axis, int) and not isinstance(axis, np.integer):
        want, text = tf.errors.InvalidArgumentError, "was expected to be a string tensor but is a int32 tensor"
    else:
        want, text = ValueError, "Tensor conversion requested dtype string for Tensor with dtype int32"
    with raises(want, match=re.escape(text), call=f"reduce_join(int32, axis={axis!r})"):
        tf.strings.reduce_join(x, axis=axis)
    with raises(TypeError, match=re.escape("Input 'inputs' of 'ReduceJoin' Op has type int32 that does not match "
                                           "expected type of string."),
                call=f"tf.function(reduce_join(int32, axis={axis!r}))"):
        tf.function(lambda: tf.strings.reduce_join(x, axis=axis))()


@clause("ops.attr-types", ref="tf221")
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_amut36_as_string_attrs_none_and_wrong_types(tf, traced):
    """as_string's attrs given as None take the op def's defaults (precision and width -1, scientific and shortest
    False, fill ""), as the generated wrapper does; a precision that is no int is make_int's TypeError "Expected int
    for argument 'precision' not 'a'." (observed on TF 2.21; simdist refused precision=None and width=None)."""
    def run(fn):
        return tf.function(fn)() if traced else fn()
    got = run(lambda: tf.strings.as_string([1.25, 3e10], precision=None, width=None, fill=None, scientific=None,
                                           shortest=None))
    want = run(lambda: tf.strings.as_string([1.25, 3e10]))
    assert got.numpy().tolist() == want.numpy().tolist() == [b"1.250000", b"30000001024.000000"], \
        f"as_string with every attr None: expected [b'1.250000', b'30000001024.000000'], got {got.numpy().tolist()}"
    with raises(TypeError, match=re.escape("Expected int for argument 'precision' not 'a'."),
                call="as_string(precision='a')"):
        run(lambda: tf.strings.as_string([1.25], precision="a"))


@clause("ops.fuzz-raw", ref="tf221")
def test_amut36_raw_sparse_max_reductions_and_concat(tf):
    """tf.raw_ops.SparseReduceMax and SparseReduceMaxSparse take each row's maximum (not its sum), and SparseConcat
    joins its inputs along concat_dim (values computed here from the dense matrices with NumPy)."""
    ind = np.array([[0, 0], [0, 2], [1, 1]], np.int64)
    val = np.array([1.0, 5.0, 3.0], np.float32)
    shp = np.array([2, 3], np.int64)
    dense = np.zeros((2, 3), np.float32)
    dense[tuple(ind.T)] = val
    rowmax = np.array([dense[0, [0, 2]].max(), dense[1, [1]].max()], np.float32)
    got = tf.raw_ops.SparseReduceMax(input_indices=ind, input_values=val, input_shape=shp, reduction_axes=[1],
                                     keep_dims=False)
    assert_equal(got, rowmax, call="raw SparseReduceMax over axis 1")
    sp = tf.raw_ops.SparseReduceMaxSparse(input_indices=ind, input_values=val, input_shape=shp, reduction_axes=[1],
                                          keep_dims=True)
    assert_equal(sp[1], rowmax, call="raw SparseReduceMaxSparse's values over axis 1")
    out = tf.raw_ops.SparseConcat(indices=[ind, ind], values=[val, val], shapes=[shp, shp], concat_dim=1)
    back = np.zeros(tuple(out[2].numpy()), np.float32)
    back[tuple(out[0].numpy().T)] = out[1].numpy()
    assert_equal(back, np.concatenate([dense, dense], axis=1), call="raw SparseConcat along axis 1, densified")


@clause("ops.fuzz-raw", ref="tf221")
def test_amut36_raw_string_split_csv_and_ngrams(tf):
    """tf.raw_ops.StringSplit, DecodeCSV and StringNGrams called with their raw arguments compute what the public
    functions do (split on the delimiter, parse each column with its default's type, join bigrams) (the expected
    values written from the inputs by hand; observed on TF 2.21)."""
    ind, vals, shape = tf.raw_ops.StringSplit(input=["a b", "c"], delimiter=" ")
    got = (ind.numpy().tolist(), vals.numpy().tolist(), shape.numpy().tolist())
    assert got == ([[0, 0], [0, 1], [1, 0]], [b"a", b"b", b"c"], [2, 2]), f"raw StringSplit: got {got}"
    cols = tf.raw_ops.DecodeCSV(records=["1,2", "3,4"], record_defaults=[[0], [0.0]])
    got = [c.numpy().tolist() for c in cols]
    assert got == [[1, 3], [2.0, 4.0]] and cols[0].dtype == tf.int32 and cols[1].dtype == tf.float32, \
        f"raw DecodeCSV: expected int32 [1, 3] and float32 [2.0, 4.0], got {got}"
    grams, splits = tf.raw_ops.StringNGrams(data=["a", "b", "c"], data_splits=np.array([0, 3], np.int64),
                                            separator=" ", ngram_widths=[2], left_pad="", right_pad="", pad_width=0,
                                            preserve_short_sequences=False)
    got = (grams.numpy().tolist(), splits.numpy().tolist())
    assert got == ([b"a b", b"b c"], [0, 2]), f"raw StringNGrams: expected ([b'a b', b'b c'], [0, 2]), got {got}"


@clause("ops.strings-case", ref="tf221")
def test_amut36_string_ops_take_python_bytes_in_a_function(tf):
    """A string op given Python bytes in a tf.function converts them as one string (tf.strings.length(b"abc") is 3,
    upper(b"ab") b"AB"); eagerly a list mixing a tensor and a number is the conversion's TypeError "Cannot convert 1
    to EagerTensor of dtype string" (observed on TF 2.21)."""
    assert int(tf.function(lambda: tf.strings.length(b"abc"))().numpy()) == 3, "traced strings.length(b'abc') != 3"
    got = tf.function(lambda: tf.strings.upper(b"ab"))().numpy()
    assert got == b"AB", f"traced strings.upper(b'ab'): expected b'AB', got {got!r}"
    with raises(TypeError, match=re.escape("Cannot convert 1 to EagerTensor of dtype string"),
                call="strings.upper([tf.constant('a'), 1])"):
        tf.strings.upper([tf.constant("a"), 1])
