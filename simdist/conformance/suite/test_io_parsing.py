"""tf.train.Example & co. and tf.io's Example parsers — clauses io.example-proto, io.parse-example
(TF 2.21). The bytes, values and error messages below were observed with TF 2.21 (its
example_pb2 messages and the ParseExampleV2 kernel); tests/runtime/test_io_parsing_tf.py runs
simdist beside live TF on many more cases."""

from __future__ import annotations

import os
import re
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_same, raises

clause = pytest.mark.clause


def _feature(tf, v):
    if isinstance(v[0], bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    if isinstance(v[0], float):
        return tf.train.Feature(float_list=tf.train.FloatList(value=v))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))


def _ser(tf, **kw) -> bytes:
    return tf.train.Example(features=tf.train.Features(
        feature={k: _feature(tf, v) for k, v in kw.items()})).SerializeToString()


@clause("io.example-proto", ref="tf221")
def test_example_messages_serialize_to_tfs_bytes(tf):
    ex = tf.train.Example(features=tf.train.Features(feature={
        "a": _feature(tf, [1.0, -2.5]), "b": _feature(tf, [3, -1]), "c": _feature(tf, [b"hi"])}))
    want = ("0a360a110a0161120c120a0a080000803f000020c00a140a0162120f1a0d0a0b03ffffffffffffffffff010a0b0a016312060a04"
            "0a026869")
    assert_same(ex.SerializeToString(deterministic=True).hex(), want, call="Example.SerializeToString(deterministic)")
    back = tf.train.Example.FromString(bytes.fromhex(want))
    assert_same((list(back.features.feature["a"].float_list.value), list(back.features.feature["b"].int64_list.value),
                 list(back.features.feature["c"].bytes_list.value), back.features.feature["a"].WhichOneof("kind")),
                ([1.0, -2.5], [3, -1], [b"hi"], "float_list"), call="Example.FromString(TF's bytes)")
    seq = tf.train.SequenceExample(
        context=tf.train.Features(feature={"c": _feature(tf, [1])}),
        feature_lists=tf.train.FeatureLists(feature_list={"f": tf.train.FeatureList(feature=[
            _feature(tf, [0.5]), tf.train.Feature(float_list=tf.train.FloatList(value=[]))])}))
    assert_same(seq.SerializeToString(deterministic=True).hex(),
                "0a0c0a0a0a016312051a030a010112150a130a0166120e0a0812060a040000003f0a021200",
                call="SequenceExample.SerializeToString(deterministic)")
    assert_same(tf.train.Example().SerializeToString(), b"", call="an empty Example serializes to no bytes")


@clause("io.parse-example", ref="tf221")
def test_parse_single_example_values_and_kernel_errors(tf):
    e1 = _ser(tf, x=[1.0, 2.0, 3.0], y=[7], s=[b"ab", b"c"])
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64),
            "s": tf.io.VarLenFeature(tf.string)}
    got = tf.io.parse_single_example(e1, spec)
    assert_same((got["x"].numpy().tolist(), got["x"].dtype.name, int(got["y"].numpy()), got["y"].shape.as_list()),
                ([1.0, 2.0, 3.0], "float32", 7, []), call="parse_single_example: FixedLenFeature([3]), ([])")
    assert_same((got["s"].indices.numpy().tolist(), got["s"].values.numpy().tolist(),
                 got["s"].dense_shape.numpy().tolist()), ([[0], [1]], [b"ab", b"c"], [2]),
                call="parse_single_example: VarLenFeature(string) is a SparseTensor")
    got = tf.io.parse_single_example(b"", {"y": tf.io.FixedLenFeature([2], tf.float32, default_value=[1.0, 2.0])})
    assert_same(got["y"].numpy().tolist(), [1.0, 2.0], call="a missing feature takes its default_value")
    IAE = tf.errors.InvalidArgumentError
    for call, example, match in (
            ("a missing required feature", _ser(tf, y=[1]),
             "Feature: x (data type: float) is required but could not be found."),
            ("2 values for FixedLenFeature([3])", _ser(tf, x=[1.0, 2.0], y=[1]),
             "Key: x.  Can't parse serialized Example: Some float_list slice was not parsed."),
            ("an int64_list for a float32 feature", _ser(tf, x=[1, 2, 3], y=[1]),
             "Key: x.  Data types don't match. Data type: int64 but expected type: float"),
            ("an int64_list for VarLenFeature(string)", _ser(tf, x=[1.0, 2.0, 3.0], y=[1], s=[1]),
             "Key: s.  Data types don't match. Expected type: string, Actual type: int64"),
            ("bytes that are no Example", b"abc", "Could not parse example input, value: 'abc'")):
        with raises(IAE, match=re.escape(match), call=f"parse_single_example of {call}"):
            tf.io.parse_single_example(example, spec)
    with raises(IAE, match=re.escape("Value for attr 'Tdense' of int32 is not in the list of allowed values: float, int64, "
                                          "string"), call="FixedLenFeature(dtype=int32)"):
        tf.io.parse_single_example(e1, {"y": tf.io.FixedLenFeature([], tf.int32)})
    for call, features, match in (
            ("{}", {}, "Invalid argument: features cannot be empty."),
            ("{'x': 3}", {"x": 3}, "Unsupported int 3 for key 'x'"),
            ("FixedLenFeature([None])", {"x": tf.io.FixedLenFeature([None], tf.float32)},
             "First dimension of shape for feature x unknown. Consider using FixedLenSequenceFeature."),
            ("FixedLenSequenceFeature without allow_missing", {"x": tf.io.FixedLenSequenceFeature([], tf.float32)},
             "Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")):
        with raises(ValueError, match=re.escape(match), call=f"parse_single_example(features={call})"):
            tf.io.parse_single_example(e1, features)
    with raises(ValueError, match="Input serialized must be a scalar", call="parse_single_example([e])"):
        tf.io.parse_single_example([e1], spec)


@clause("io.parse-example", ref="tf221")
def test_parse_example_batches_pads_and_names_the_example(tf):
    e1 = _ser(tf, x=[1.0, 2.0, 3.0], y=[7], s=[b"ab", b"c"])
    e2 = _ser(tf, x=[4.0, 5.0], y=[8])
    got = tf.io.parse_example([e1, e2, _ser(tf, s=[b"q"])], {
        "x": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True), "s": tf.io.VarLenFeature(tf.string)})
    assert_same(got["x"].numpy().tolist(), [[1.0, 2.0, 3.0], [4.0, 5.0, 0.0], [0.0, 0.0, 0.0]],
                call="parse_example: FixedLenSequenceFeature padded with 0 to the longest")
    assert_same((got["s"].indices.numpy().tolist(), got["s"].values.numpy().tolist(),
                 got["s"].dense_shape.numpy().tolist()), ([[0, 0], [0, 1], [2, 0]], [b"ab", b"c", b"q"], [3, 2]),
                call="parse_example: VarLenFeature's indices [example, position], dense_shape [batch, longest]")
    got = tf.io.parse_example([_ser(tf, ix=[3, 1], v=[0.5, -1.0]), _ser(tf, ix=[2], v=[9.0])],
                              {"sp": tf.io.SparseFeature("ix", "v", tf.float32, 10)})
    assert_same((got["sp"].indices.numpy().tolist(), got["sp"].values.numpy().tolist(),
                 got["sp"].dense_shape.numpy().tolist()), ([[0, 1], [0, 3], [1, 2]], [-1.0, 0.5, 9.0], [2, 10]),
                call="parse_example: SparseFeature(index_key, value_key, size=10), reordered")
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32)}
    with raises(tf.errors.InvalidArgumentError, call="parse_example: 2 values for FixedLenFeature([3]) in example 1",
                match=re.escape("Name: <unknown>, Key: x, Index: 1.  Number of float values != expected.  Values size: 2 "
                                "but output shape: [3]")):
        tf.io.parse_example([e1, e2], spec)
    with raises(tf.errors.InvalidArgumentError, call="parse_example(example_names=...): a missing feature",
                match=re.escape("Name: b, Feature: x (data type: float) is required but could not be found.")):
        tf.io.parse_example([e1, _ser(tf, y=[1])], spec, example_names=["a", "b"])


def _write(tf, path, n):
    with tf.io.TFRecordWriter(path) as w:
        for i in range(n):
            w.write(_ser(tf, x=[i * 0.5, -i * 0.25, 1.0 + i], y=[float(i % 3) - 0.5]))


@clause("io.parse-example", ref="tf221")
def test_tfrecord_pipeline_specs_and_fit(tf, keras):
    """The tutorial pipeline: Examples -> TFRecordWriter -> TFRecordDataset -> map(parse) -> batch ->
    model.fit; it trains exactly as the same values from memory do."""
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "y": tf.io.FixedLenFeature([], tf.float32)}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "train.tfr")
        _write(tf, path, 10)
        single = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, spec))
        assert_same({k: s.shape.as_list() for k, s in single.element_spec.items()}, {"x": [3], "y": []},
                    call="TFRecordDataset.map(parse_single_example).element_spec: the features' shapes")
        batched = tf.data.TFRecordDataset(path).batch(4).map(lambda r: tf.io.parse_example(r, spec))
        assert_same({k: s.shape.as_list() for k, s in batched.element_spec.items()}, {"x": [None, 3], "y": [None]},
                    call="TFRecordDataset.batch(4).map(parse_example).element_spec")
        x = np.stack([np.asarray([i * 0.5, -i * 0.25, 1.0 + i], np.float32) for i in range(10)])
        y = np.asarray([float(i % 3) - 0.5 for i in range(10)], np.float32)

        def fit(ds):
            keras.backend.clear_session()
            model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(
                2, kernel_initializer=keras.initializers.Constant(0.1), activation="tanh"),
                keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(-0.2))])
            model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
            return model.fit(ds, epochs=2, verbose=0).history["loss"]
        parsed = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, spec))
        from_records = fit(parsed.map(lambda p: (p["x"], p["y"])).batch(4))
        from_memory = fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
        assert_close(from_records, from_memory, call="model.fit(2 epochs) on the TFRecord pipeline vs the same arrays")


@clause("io.tensor-codec", ref="tf221")
def test_serialize_tensor_gives_tfs_tensorproto_bytes(tf):
    for value, dtype, want in (([1.0, 2.0], "float32", "080112041202080222080000803f00000040"),
                               (3, "int32", "08031200220403000000"),
                               ([b"ab", b"c"], "string", "080712041202080242026162420163"),
                               (True, "bool", "080a1200220101"),
                               ([1.5, -0.0], "float16", "08131204120208022204003e0080")):
        t = tf.constant(value, dtype=getattr(tf, dtype))
        got = tf.io.serialize_tensor(t)
        assert_same(got.numpy().hex(), want, call=f"serialize_tensor({value!r}, {dtype})")
        back = tf.io.parse_tensor(got, getattr(tf, dtype))
        assert_same((back.numpy().tolist(), back.shape.as_list()), (t.numpy().tolist(), t.shape.as_list()),
                    call=f"parse_tensor(serialize_tensor({value!r}), {dtype})")
    got = tf.io.parse_tensor(bytes.fromhex("08011204120208052a0c0000803f0000004000004040"), tf.float32)
    assert_same(got.numpy().tolist(), [1.0, 2.0, 3.0, 3.0, 3.0],
                call="parse_tensor of a float_val [1, 2, 3] for shape [5]: padded with the last value")
    with raises(tf.errors.InvalidArgumentError, call="parse_tensor(float32 bytes, tf.int32)",
                match=re.escape("Type mismatch between parsed tensor (float) and dtype (int32)")):
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0, 2.0])), tf.int32)
    with raises(tf.errors.InvalidArgumentError, call="parse_tensor(b'\\xff\\xff')",
                match=re.escape("Could not parse `serialized` as TensorProto, base64: //8=")):
        tf.io.parse_tensor(b"\xff\xff", tf.float32)


@clause("io.tensor-codec", ref="tf221")
def test_decode_raw_and_base64(tf):
    got = tf.io.decode_raw([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"], tf.int16)
    assert_same((got.numpy().tolist(), got.dtype.name), ([[1, 2], [3, 4]], "int16"), call="decode_raw(int16)")
    got = tf.io.decode_raw([b"\x01\x00\x02\x00"], tf.int16, little_endian=False)
    assert_same(got.numpy().tolist(), [[256, 512]], call="decode_raw(int16, little_endian=False)")
    got = tf.io.decode_raw([b"\x01\x00\x02", b"\x01\x00\x02\x00\x03\x00"], tf.int16, fixed_length=4)
    assert_same(got.numpy().tolist(), [[1, 2], [1, 2]], call="decode_raw(int16, fixed_length=4): cut or padded")
    with raises(tf.errors.InvalidArgumentError, call="decode_raw of strings of two lengths",
                match="DecodeRaw requires input strings to all be the same size, but element 1 has size 2 != 4"):
        tf.io.decode_raw([b"\x01\x00", b"\x01\x00\x02\x00"], tf.int16)
    with raises(tf.errors.InvalidArgumentError, call="decode_raw of 3 bytes as int16",
                match="Input to DecodeRaw has length 3 that is not a multiple of 2, the size of int16"):
        tf.io.decode_raw([b"\x01\x00\x02"], tf.int16)
    got = tf.io.encode_base64([b"\xfb\xff", b"hello", b""])
    assert_same(got.numpy().tolist(), [b"-_8", b"aGVsbG8", b""], call="encode_base64: web-safe, unpadded")
    got = tf.io.encode_base64([b"\xfb\xff", b"ab"], pad=True)
    assert_same(got.numpy().tolist(), [b"-_8=", b"YWI="], call="encode_base64(pad=True)")
    got = tf.io.decode_base64([b"-_8", b"aGVsbG8=", b"YQ", b""])
    assert_same(got.numpy().tolist(), [b"\xfb\xff", b"hello", b"a", b""], call="decode_base64, padded or not")
    for text, match in ((b"a+b", "Invalid character found in base64."), (b"YQ=", "Invalid character found in base64."),
                        (b"abcde", "Base64 string length cannot be 1 modulo 4.")):
        with raises(tf.errors.InvalidArgumentError, match=re.escape(match), call=f"decode_base64({text!r})"):
            tf.io.decode_base64([text])


@clause("io.tensor-codec", ref="tf221")
def test_read_write_and_matching_files(tf):
    with tempfile.TemporaryDirectory() as d:
        tf.io.write_file(os.path.join(d, "sub", "b.txt"), b"abc")
        tf.io.write_file(os.path.join(d, "a.txt"), "z")
        got = tf.io.read_file(os.path.join(d, "sub", "b.txt"))
        assert_same((got.numpy(), got.shape.as_list()), (b"abc", []),
                    call="read_file of what write_file wrote (its directory created)")
        got = tf.io.matching_files([os.path.join(d, "*", "*.txt"), os.path.join(d, "?.txt")])
        assert_same([os.path.relpath(p.decode(), d) for p in got.numpy().tolist()], ["a.txt", os.path.join("sub", "b.txt")],
                    call="matching_files of two patterns: every match, sorted")
        assert_same(tf.io.matching_files(os.path.join(d, "*.none")).shape.as_list(), [0],
                    call="matching_files without a match: an empty vector")
        with raises(tf.errors.NotFoundError, call="read_file of a missing file", match="No such file or directory"):
            tf.io.read_file(os.path.join(d, "missing.txt"))


@clause("io.tensor-codec", ref="tf221")
def test_decode_csv_columns_defaults_and_errors(tf):
    a, b, c = tf.io.decode_csv(["1,2.5,a", ",,", '3,4,"x,""y"'], [[7], [1.5], ["d"]])
    assert_same((a.numpy().tolist(), b.numpy().tolist(), c.numpy().tolist(), a.dtype.name, b.dtype.name),
                ([1, 7, 3], [2.5, 1.5, 4.0], [b"a", b"d", b'x,"y'], "int32", "float32"),
                call="decode_csv: empty fields take the defaults, a quoted field keeps its delimiter and '\"\"'")
    got = tf.io.decode_csv(["1,2,3,4"], [[0], [0.0]], select_cols=[1, 3])
    assert_same([x.numpy().tolist() for x in got], [[2], [4.0]], call="decode_csv(select_cols=[1, 3])")
    got = tf.io.decode_csv(["NA;2"], [[5], [6]], field_delim=";", na_value="NA")
    assert_same([x.numpy().tolist() for x in got], [[5], [2]], call="decode_csv(field_delim=';', na_value='NA')")
    IAE = tf.errors.InvalidArgumentError
    for call, records, defaults, match in (
            ("2 fields for 3 columns", ["1,2"], [[0], [0], [0]], "Expect 3 fields but have 2 in record 0"),
            ("an empty field without a default", [",2"], [tf.constant([], tf.int32), [0]],
             "Field 0 is required but missing in record 0!"),
            ("'x' as int32", ["x,2"], [[0], [0]], "Field 0 in record 0 is not a valid int32: x"),
            ("'1.0' as int32", ["1.0"], [[0]], "Field 0 in record 0 is not a valid int32: 1.0"),
            ("a lone quote in a quoted field", ['"a"b,2'], [[""], [0]],
             "Quote inside a string has to be escaped by another quote")):
        with raises(IAE, match=re.escape(match), call=f"decode_csv of {call}"):
            tf.io.decode_csv(records, defaults)
    with raises(ValueError, match="select_cols is not strictly increasing", call="decode_csv(select_cols=[3, 1])"):
        tf.io.decode_csv(["1,2,3,4"], [[0], [0.0]], select_cols=[3, 1])


@clause("io.parse-example", ref="tf221")
def test_sequence_examples_context_and_feature_lists(tf):
    def seq(ctx, fl):
        return tf.train.SequenceExample(
            context=tf.train.Features(feature={k: _feature(tf, v) for k, v in ctx.items()}),
            feature_lists=tf.train.FeatureLists(feature_list={
                k: tf.train.FeatureList(feature=[_feature(tf, f) for f in frames]) for k, frames in fl.items()})
        ).SerializeToString()
    s1 = seq({"c": [1.5]}, {"f": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], "w": [[b"a"], [b"b", b"c"]]})
    s2 = seq({"c": [2.5]}, {"f": [[7.0, 8.0]], "w": [[b"z"]]})
    ctx = {"c": tf.io.FixedLenFeature([], tf.float32)}
    sq = {"f": tf.io.FixedLenSequenceFeature([2], tf.float32), "w": tf.io.VarLenFeature(tf.string)}
    c, fl = tf.io.parse_single_sequence_example(s1, ctx, sq)
    assert_same((float(c["c"].numpy()), fl["f"].numpy().tolist(), fl["w"].indices.numpy().tolist(),
                 fl["w"].dense_shape.numpy().tolist()),
                (1.5, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[0, 0], [1, 0], [1, 1]], [2, 2]),
                call="parse_single_sequence_example: context scalar, frames [3, 2], VarLen indexed [frame, j]")
    c, fl, lengths = tf.io.parse_sequence_example([s1, s2], ctx, sq)
    assert_same((c["c"].numpy().tolist(), fl["f"].shape.as_list(), fl["f"].numpy()[1].tolist(),
                 lengths["f"].numpy().tolist(), fl["w"].dense_shape.numpy().tolist()),
                ([1.5, 2.5], [2, 3, 2], [[7.0, 8.0], [0.0, 0.0], [0.0, 0.0]], [3, 1], [2, 2, 2]),
                call="parse_sequence_example: frames zero-padded to the most, their counts in lengths")
    with raises(tf.errors.InvalidArgumentError, call="a missing feature list without allow_missing",
                match=re.escape("Name: <unknown>, Feature list 'q' is required but could not be found.")):
        tf.io.parse_single_sequence_example(s1, ctx, {"q": tf.io.FixedLenSequenceFeature([], tf.float32)})
    with raises(tf.errors.InvalidArgumentError, call="frames of 2 values for FixedLenSequenceFeature([3])",
                match=re.escape("Name: <unknown>, Key: f, Index: 0.  Number of values != expected.  values size: 2 "
                                "but output shape: [3]")):
        tf.io.parse_single_sequence_example(s1, ctx, {"f": tf.io.FixedLenSequenceFeature([3], tf.float32)})
