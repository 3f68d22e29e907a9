"""tf.train.Example & co. and tf.io's Example parsers against real TF 2.21 (clauses io.example-proto,
io.parse-example): the same Examples serialize to the same bytes and parse back the same, each parse
case (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature, SparseFeature, defaults, batches,
SequenceExamples' context and feature lists, the kernel's and the Python's errors) gives TF's values
or TF's error class and message, so do serialize_tensor / parse_tensor (bytes equal), decode_raw,
encode/decode_base64, decode_compressed, decode_csv, read_file, write_file and matching_files, a
TFRecord pipeline's element spec is TF's, and the tutorial pipeline (Example -> TFRecordWriter ->
TFRecordDataset -> map(parse_single_example) -> batch -> model.fit) trains to TF's losses. Each
program runs on simdist and on TF (a subprocess: tf_workers.spawn; this module is its worker). Live
only (no golden): Dense's matmul is a oneDNN kernel on the goldens' host."""

from __future__ import annotations

import gzip
import os
import tempfile
import zlib
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow (live only)")]



def _fix_hand() -> bytes:
    """An Example's wire bytes written by hand: key "k" twice (int64 [1], then int64 [2, 3]: the last
    entry wins), a Feature with no list ("e"), an unknown field 5 of the Example."""
    feats = bytes.fromhex("0a090a016b12041a0208010a0b0a016b12061a0408020803") + bytes.fromhex("0a050a01651200")
    return b"\x0a" + bytes([len(feats)]) + feats + bytes.fromhex("2801")


def _example(tf: Any, **kw: Any) -> Any:
    f = {}
    for k, v in kw.items():
        if isinstance(v[0], bytes):
            f[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
        elif isinstance(v[0], float):
            f[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        else:
            f[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.Example(features=tf.train.Features(feature=f))


def _ser(tf: Any, **kw: Any) -> bytes:
    return _example(tf, **kw).SerializeToString()


def _messages(tf: Any) -> Any:
    ex = _example(tf, x=[1.0, 2.5, -3.0, 1e-40], y=[7, -1, 2 ** 40, -2 ** 63], s=[b"ab", b"", b"\xff"])
    seq = tf.train.SequenceExample(
        context=tf.train.Features(feature={"c": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"f": tf.train.FeatureList(feature=[
            tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])),
            tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"q"]))])}))
    single = _example(tf, only=[3.0])
    hand = tf.train.Example.FromString(_fix_hand())
    return {"example": ex.SerializeToString(deterministic=True).hex(),
            # (without deterministic=True, a map of several keys is written in upb's hash order, which
            # varies from process to process in TF as in simdist: only one-key maps are compared so)
            "single": single.SerializeToString().hex(), "sequence": seq.SerializeToString(deterministic=True).hex(),
            "text": str(ex), "hand_text": str(hand), "hand_k": list(hand.features.feature["k"].int64_list.value),
            "hand_e_kind": hand.features.feature["e"].WhichOneof("kind"),
            "empty": tf.train.Example().SerializeToString().hex(), "byte_size": ex.ByteSize(),
            "feature_kind": tf.train.Feature(float_list=tf.train.FloatList(value=[])).WhichOneof("kind")}


def _show(r: Any) -> Any:
    out = {}
    for k, v in sorted(r.items()):
        if hasattr(v, "indices"):
            out[k] = ["sparse", v.indices.numpy().tolist(), v.values.numpy().tolist(), v.dense_shape.numpy().tolist()]
        else:
            out[k] = [v.dtype.name, v.shape.as_list(), v.numpy().tolist()]
    return out


def _outcome(call: Any) -> Any:
    try:
        return ["ok", _show(call())]
    except Exception as e:  # noqa: BLE001 - the observation is the error's class and message
        msg = str(e).split("}} ", 1)[-1]
        return [type(e).__name__, msg]


def _parse_cases(tf: Any) -> Any:
    e1 = _ser(tf, x=[1.0, 2.0, 3.0], y=[7], s=[b"ab", b"c"])
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64),
            "s": tf.io.VarLenFeature(tf.string)}
    F, V, S, Q = tf.io.FixedLenFeature, tf.io.VarLenFeature, tf.io.SparseFeature, tf.io.FixedLenSequenceFeature
    pse, pe = tf.io.parse_single_example, tf.io.parse_example
    cases = {
        "single": lambda: pse(e1, spec),
        "missing": lambda: pse(_ser(tf, y=[1]), spec),
        "too-short": lambda: pse(_ser(tf, x=[1.0, 2.0], y=[1]), spec),
        "too-long": lambda: pse(_ser(tf, x=[1.0, 2.0, 3.0, 4.0], y=[1]), spec),
        "wrong-type": lambda: pse(_ser(tf, x=[1, 2, 3], y=[1]), spec),
        "wrong-type-varlen": lambda: pse(_ser(tf, x=[1.0, 2.0, 3.0], y=[1], s=[1]), spec),
        "not-an-example": lambda: pse(b"abc", spec),
        "default": lambda: pse(b"", {"y": F([], tf.int64, default_value=5)}),
        "default-2": lambda: pse(b"", {"y": F([2], tf.float32, default_value=[1.0, 2.0])}),
        "default-wrong-size": lambda: pse(b"", {"y": F([2], tf.float32, default_value=1.0)}),
        "int32-config": lambda: pse(e1, {"y": F([], tf.int32)}),
        "batch": lambda: pe([e1, _ser(tf, x=[4.0, 5.0, 6.0], y=[8])], spec),
        "batch-names": lambda: pe([e1, _ser(tf, y=[8])], spec, example_names=["a", "b"]),
        "batch-missing": lambda: pe([e1, _ser(tf, y=[8])], spec),
        "batch-too-short": lambda: pe([e1, _ser(tf, x=[1.0], y=[8])], spec),
        "batch-wrong-type": lambda: pe([e1, _ser(tf, x=[1, 2, 3], y=[8])], spec),
        "batch-wrong-type-varlen": lambda: pe([e1, _ser(tf, x=[1.0, 2.0, 3.0], y=[8], s=[3])], spec),
        "sequence": lambda: pe([e1, _ser(tf, x=[4.0, 5.0], y=[8])], {"x": Q([], tf.float32, allow_missing=True)}),
        "sequence-default": lambda: pe([e1, _ser(tf, y=[8])], {"x": Q([], tf.float32, True, default_value=-1.0)}),
        "sequence-2": lambda: pe([_ser(tf, x=[1.0, 2.0, 3.0, 4.0]), _ser(tf, x=[4.0, 5.0])],
                                 {"x": Q([2], tf.float32, allow_missing=True)}),
        "sequence-stride": lambda: pe([_ser(tf, x=[1.0, 2.0, 3.0])], {"x": Q([2], tf.float32, allow_missing=True)}),
        "sequence-stride-single": lambda: pse(_ser(tf, x=[1.0, 2.0, 3.0]), {"x": Q([2], tf.float32, allow_missing=True)}),
        "sequence-strings": lambda: pe([e1, _ser(tf, y=[3])], {"s": Q([], tf.string, allow_missing=True)}),
        "sequence-not-allow-missing": lambda: pe([e1], {"x": Q([], tf.float32)}),
        "sequence-single": lambda: pse(e1, {"x": Q([], tf.float32, allow_missing=True)}),
        "rank-2": lambda: pse(_ser(tf, x=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), {"x": F([2, 3], tf.float32)}),
        "rank-2-batch-short": lambda: pe([_ser(tf, x=[1.0, 2.0, 3.0, 4.0, 5.0])], {"x": F([2, 3], tf.float32)}),
        "sparse-feature": lambda: pse(_ser(tf, ix=[3, 1], v=[0.5, -1.0]), {"sp": S("ix", "v", tf.float32, 10)}),
        "sparse-feature-sorted": lambda: pse(_ser(tf, ix=[3, 1], v=[0.5, -1.0]), {"sp": S("ix", "v", tf.float32, 10, True)}),
        "sparse-feature-batch": lambda: pe([_ser(tf, ix=[3, 1], v=[0.5, -1.0]), _ser(tf, ix=[2], v=[9.0])],
                                           {"sp": S("ix", "v", tf.float32, 10)}),
        "sparse-feature-2d": lambda: pe([_ser(tf, i0=[3, 1], i1=[0, 2], v=[0.5, -1.0])],
                                        {"sp": S(["i0", "i1"], "v", tf.float32, [5, 4])}),
        "varlen-batch": lambda: pe([e1, _ser(tf, x=[4.0, 5.0, 6.0], y=[8]), _ser(tf, s=[b"q"])], {"s": V(tf.string)}),
        "varlen-missing": lambda: pse(e1, {"q": V(tf.int64)}),
        "empty-batch": lambda: pe(tf.constant([], tf.string), {"q": V(tf.int64), "x": F([2], tf.float32)}),
        "no-features": lambda: pse(e1, {}),
        "features-none": lambda: pe([e1], None),
        "unsupported": lambda: pse(e1, {"x": 3}),
        "unknown-first-dim": lambda: pse(e1, {"x": F([None], tf.float32)}),
        "unknown-second-dim": lambda: pse(e1, {"x": F([3, None], tf.float32)}),
        "strings": lambda: pse(e1, {"s": F([2], tf.string)}),
        "not-a-scalar": lambda: pse([e1], spec),
        "dense-and-sparse": lambda: pse(e1, {"x": F([3], tf.float32), "sp": S("x", "y", tf.int64, 3)}),
        "no-list": lambda: pse(_fix_hand(), {"e": F([], tf.int64, default_value=3), "k": V(tf.int64)}),
        "empty-list": lambda: pse(tf.train.Example(features=tf.train.Features(feature={"y": tf.train.Feature(
            int64_list=tf.train.Int64List())})).SerializeToString(), {"y": F([], tf.int64, default_value=3)}),
        "unicode-key": lambda: pse(_ser(tf, **{"\u00e9": [1.5]}), {"\u00e9": F([], tf.float32)}),
    }
    return {name: _outcome(call) for name, call in cases.items()}


def _records(tf: Any, path: str, n: int) -> None:
    with tf.io.TFRecordWriter(path) as w:
        for i in range(n):
            w.write(_ser(tf, x=[i * 0.5, -i * 0.25, 1.0 + i], y=[float(i % 3) - 0.5], s=[b"w"] * (i % 3 + 1)))


def _spec(s: Any) -> Any:
    if isinstance(s, dict):
        return {k: _spec(v) for k, v in s.items()}
    if isinstance(s, tuple):
        return [_spec(v) for v in s]
    return [type(s).__name__, s.shape.as_list(), s.dtype.name]


def _pipelines(tf: Any) -> Any:
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "y": tf.io.FixedLenFeature([], tf.float32)}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.tfr")
        _records(tf, path, 6)
        single = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, spec))
        batched = tf.data.TFRecordDataset(path).batch(4).map(lambda r: tf.io.parse_example(r, spec))
        seq = tf.data.TFRecordDataset(path).batch(4).map(
            lambda r: tf.io.parse_example(r, {"s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)}))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def shapes(r: Any) -> Any:
            p = tf.io.parse_example(r, {"x": tf.io.FixedLenFeature([3], tf.float32),
                                        "s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)})
            seen.append([p["x"].shape.as_list(), p["s"].shape.as_list()])
            return p["x"] * 2.0
        seen: list = []
        recs = [r.numpy() for r in tf.data.TFRecordDataset(path)]
        doubled = shapes(tf.constant(recs[:2])).numpy().tolist()
        try:
            list(tf.data.TFRecordDataset(path).map(
                lambda r: tf.io.parse_single_example(r, {"q": tf.io.FixedLenFeature([], tf.float32)})))
            missing = "none"
        except tf.errors.InvalidArgumentError as e:
            missing = "Feature: q (data type: float) is required but could not be found." in str(e)
        return {"single_spec": _spec(single.element_spec), "batched_spec": _spec(batched.element_spec),
                "seq_spec": _spec(seq.element_spec),
                "single_values": [{k: v.numpy().tolist() for k, v in e.items()} for e in single],
                "seq_values": [e["s"].numpy().tolist() for e in seq], "traced_shapes": seen, "doubled": doubled,
                "missing_in_map": missing}


def _tutorial_fit(tf: Any) -> Any:
    """The canonical pipeline: Examples written to a TFRecord file, read, parsed, batched, fit."""
    keras = tf.keras
    keras.backend.clear_session()
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "y": tf.io.FixedLenFeature([], tf.float32)}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "train.tfr")
        _records(tf, path, 10)

        def parse(r: Any) -> Any:
            p = tf.io.parse_single_example(r, spec)
            return p["x"], p["y"]
        ds = tf.data.TFRecordDataset(path).map(parse).batch(4)
        model = keras.Sequential([keras.Input((3,)),
                                  keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.1),
                                                     bias_initializer="zeros", activation="tanh"),
                                  keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(-0.2))])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
        hist = model.fit(ds, epochs=2, verbose=0)
        return {"loss": [float(v) for v in hist.history["loss"]], "spec": _spec(ds.element_spec)}


def _codec_outcome(call: Any, root: str) -> Any:
    try:
        r = call()
        v = r.numpy()
        v = v.tolist() if hasattr(v, "tolist") else v
        if isinstance(v, list) and r.dtype.name == "string":
            v = [x.replace(root.encode(), b"<root>") if isinstance(x, bytes) else x for x in v]
        return ["ok", r.dtype.name, r.shape.as_list(), v]
    except Exception as e:  # noqa: BLE001 - the observation is the error's class and message
        msg = str(e).split("}} ", 1)[-1]
        if msg.startswith("Cannot parse tensor from proto:"):   # (TF appends a debug string with a varying marker)
            msg = "Cannot parse tensor from proto:"
        return [type(e).__name__, msg]


TENSORS = [([1.0, 2.0], "float32"), (3, "int32"), ([[1, 2], [3, 4]], "int64"), ([b"ab", b"c"], "string"),
           (True, "bool"), ([1.5, -0.0], "float16"), ([], "float32"), (1 + 2j, "complex64"), ([1 - 1j], "complex128"),
           ([1, 2], "uint8"), ("x", "string"), ([[b"a"], [b""]], "string"), (np.zeros((0, 3), np.int32), "int32"),
           ([1.0], "bfloat16"), ([7], "uint64"), ([-3], "int8"), ([2.5], "float64"), ([1, 2], "uint16"),
           ([9], "uint32"), ([-5], "int16")]


def _codecs(tf: Any) -> Any:
    """serialize_tensor / parse_tensor, decode_raw, base64 and the file ops."""
    out: dict = {}
    for i, (value, dtype) in enumerate(TENSORS):
        t = tf.constant(value, dtype=getattr(tf, dtype))
        b = tf.io.serialize_tensor(t).numpy()
        out[f"serialize-{i}-{dtype}"] = [b.hex(), _codec_outcome(lambda: tf.io.parse_tensor(b, t.dtype), "")]
    s = tf.io.serialize_tensor(tf.constant([1.0, 2.0])).numpy()
    with tempfile.TemporaryDirectory() as d:
        here = os.getcwd()
        os.chdir(d)
        try:
            open("b.txt", "wb").write(b"abc")
            open("a.txt", "wb").write(b"z")
            os.makedirs(os.path.join("sub", "dir"))
            raw, b64 = tf.io.decode_raw, tf.io.decode_base64
            gz = gzip.compress(b"hello", mtime=0)
            cases = {
                "parse-mismatch": lambda: tf.io.parse_tensor(s, tf.int32),
                "parse-garbage": lambda: tf.io.parse_tensor(b"\xff\xff", tf.float32),
                "parse-not-scalar": lambda: tf.io.parse_tensor([s], tf.float32),
                # TensorProtos with typed value lists (make_tensor_proto's form): padded with the last value
                "parse-float-list": lambda: tf.io.parse_tensor(bytes.fromhex("08011204120208052a0c0000803f0000004000004040"),
                                                               tf.float32),
                "parse-empty-list": lambda: tf.io.parse_tensor(bytes.fromhex("08011204120208032a00"), tf.float32),
                "parse-string-list": lambda: tf.io.parse_tensor(bytes.fromhex("0807120412020803420161"), tf.string),
                "parse-int-list": lambda: tf.io.parse_tensor(bytes.fromhex("080312041202080232020507"), tf.int32),
                "parse-empty-bytes": lambda: tf.io.parse_tensor(b"", tf.float32),
                "parse-in-function": lambda: tf.function(lambda x: tf.io.parse_tensor(x, tf.float32))(s),
                "raw": lambda: raw([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"], tf.int16),
                "raw-big-endian": lambda: raw([b"\x01\x00\x02\x00"], tf.int16, little_endian=False),
                "raw-scalar": lambda: raw(b"\x00\x00\x80\x3f", tf.float32),
                "raw-float64-be": lambda: raw(b"\x3f\xf0\x00\x00\x00\x00\x00\x00", tf.float64, little_endian=False),
                "raw-complex64-be": lambda: raw(b"\x3f\x80\x00\x00\x40\x00\x00\x00", tf.complex64, little_endian=False),
                "raw-complex64": lambda: raw(b"\x00\x00\x80\x3f\x00\x00\x00\x40", tf.complex64),
                "raw-float16": lambda: raw(b"\x00\x3c\x00\xc0", tf.float16),
                "raw-bfloat16": lambda: raw(b"\x80\x3f", tf.bfloat16),
                "raw-uneven": lambda: raw([b"\x01\x00", b"\x01\x00\x02\x00"], tf.int16),
                "raw-not-a-multiple": lambda: raw([b"\x01\x00\x02"], tf.int16),
                "raw-empty": lambda: raw(tf.constant([], tf.string), tf.int16),
                "raw-empty-strings": lambda: raw([b"", b""], tf.int16),
                "raw-string-type": lambda: raw([b"ab"], tf.string),
                "raw-uint32": lambda: raw([b"abcd"], tf.uint32),
                "raw-bool": lambda: raw([b"\x00\x01\x02"], tf.bool),
                "raw-fixed": lambda: raw([b"\x01\x00\x02", b"\x01\x00\x02\x00\x03\x00"], tf.int16, fixed_length=4),
                "raw-fixed-be": lambda: raw([b"\x01\x00\x02"], tf.int16, little_endian=False, fixed_length=4),
                "raw-fixed-odd": lambda: raw([b"\x01\x00\x02"], tf.int16, fixed_length=3),
                "raw-fixed-bool": lambda: raw([b"\x01"], tf.bool, fixed_length=2),
                "raw-2d": lambda: raw([[b"ab"], [b"cd"]], tf.uint8),
                "raw-in-function": lambda: tf.function(lambda x: raw(x, tf.uint8))(tf.constant([b"ab"])),
                "b64": lambda: tf.io.encode_base64([b"\xfb\xff", b"hello", b""]),
                "b64-pad": lambda: tf.io.encode_base64([b"\xfb\xff", b"hello", b"", b"ab", b"abc"], pad=True),
                "b64-2d": lambda: tf.io.encode_base64([[b"\x00"], [b"\x01\x02"]]),
                "d64": lambda: b64([b"-_8", b"aGVsbG8", b"aGVsbG8=", b"", b"YWI=", b"YWI", b"YQ==", b"YQ"]),
                "d64-plus": lambda: b64([b"a+b"]),
                "d64-slash": lambda: b64([b"a/b"]),
                "d64-one-char": lambda: b64([b"a"]),
                "d64-inner-pad": lambda: b64([b"ab=c"]),
                "d64-short-pad": lambda: b64([b"YQ="]),
                "d64-long-pad": lambda: b64([b"YQ==="]),
                "d64-five": lambda: b64([b"abcde"]),
                "d64-space": lambda: b64([b"aGVs bG8"]),
                "inflate-zlib": lambda: tf.io.decode_compressed([zlib.compress(b"hello world" * 3), zlib.compress(b"")],
                                                                "ZLIB"),
                "inflate-gzip": lambda: tf.io.decode_compressed([gz], "GZIP"),
                "inflate-none": lambda: tf.io.decode_compressed([b"plain", b""], ""),
                "inflate-2d": lambda: tf.io.decode_compressed([[zlib.compress(b"a")], [zlib.compress(b"b")]], "ZLIB"),
                "inflate-bad-header": lambda: tf.io.decode_compressed([b"plain"], "ZLIB"),
                "inflate-gzip-as-zlib": lambda: tf.io.decode_compressed([gz], "ZLIB"),
                "inflate-truncated": lambda: tf.io.decode_compressed([zlib.compress(b"hello world" * 3)[:-3]], "ZLIB"),
                "inflate-truncated-gzip": lambda: tf.io.decode_compressed([gz[:-4]], "GZIP"),
                "inflate-empty": lambda: tf.io.decode_compressed([b""], "ZLIB"),
                "inflate-trailing": lambda: tf.io.decode_compressed([zlib.compress(b"abc") + b"xyz"], "ZLIB"),
                "inflate-two-members": lambda: tf.io.decode_compressed([gz + gz], "GZIP"),
                "inflate-bz2": lambda: tf.io.decode_compressed([b"plain"], "BZ2"),
                "inflate-lower-case": lambda: tf.io.decode_compressed([b"plain"], "zlib"),
                "read": lambda: tf.io.read_file("b.txt"),
                "read-missing": lambda: tf.io.read_file("nope.txt"),
                "read-directory": lambda: tf.io.read_file("sub"),
                "write-read": lambda: (tf.io.write_file("sub/new/c.txt", "hey"), tf.io.read_file("sub/new/c.txt"))[1],
                "write-returns": lambda: tf.constant(str(tf.io.write_file("d.txt", b"q"))),
                "match": lambda: tf.io.matching_files("*.txt"),
                "match-list": lambda: tf.io.matching_files(["b*.txt", "a*", "zz*"]),
                "match-none": lambda: tf.io.matching_files("zz*"),
                "match-absolute": lambda: tf.io.matching_files(os.path.join(os.getcwd(), "[ab].txt")),
                "match-question": lambda: tf.io.matching_files("?.txt"),
                "match-directory": lambda: tf.io.matching_files("sub/*"),
                "match-rank-2": lambda: tf.io.matching_files([["*.txt"]]),
                "match-literal": lambda: tf.io.matching_files(["a.txt", "a*"]),
            }
            root = os.getcwd()
            for name, call in cases.items():
                out[name] = _codec_outcome(call, root)
        finally:
            os.chdir(here)
    return out


def _csv_outcome(call: Any) -> Any:
    try:
        r = call()
        out = []
        for x in r:
            v = x.numpy()
            v = v.tolist() if hasattr(v, "tolist") else v
            out.append([x.dtype.name, x.shape.as_list(), repr(v)])   # (repr: nan compares as text)
        return ["ok", out]
    except Exception as e:  # noqa: BLE001 - the observation is the error's class and message
        return [type(e).__name__, str(e).split("}} ", 1)[-1]]


def _csv(tf: Any) -> Any:
    dc = tf.io.decode_csv
    i64, f64 = tf.constant(0, tf.int64), tf.constant(0.0, tf.float64)
    cases = {
        "basic": lambda: dc(["1,2.5,a", "3,4,b"], [[0], [0.0], [""]]),
        "scalar": lambda: dc("1,2.5,a", [[0], [0.0], ["x"]]),
        "defaults": lambda: dc([",,", "3,4,b"], [[7], [1.5], ["d"]]),
        "required": lambda: dc([",2,a"], [tf.constant([], tf.int32), [0.0], [""]]),
        "types": lambda: dc(["1,2,3,4,5"], [[0], [i64], [0.0], [f64], [""]]),
        "too-few": lambda: dc(["1,2"], [[0], [0], [0]]),
        "too-many": lambda: dc(["1,2,3,4"], [[0], [0], [0]]),
        "bad-int": lambda: dc(["x,2"], [[0], [0]]),
        "bad-float": lambda: dc(["1,y"], [[0], [0.0]]),
        "bad-double": lambda: dc(["1,y"], [[0], [f64]]),
        "bad-int64": lambda: dc(["1,99999999999999999999"], [[0], [i64]]),
        "int32-overflow": lambda: dc(["3000000000"], [[0]]),
        "quoted": lambda: dc(['"a,b",2', '"x""y",3'], [[""], [0]]),
        "quotes-off": lambda: dc(['"a,b",2'], [[""], [0], [0]], use_quote_delim=False),
        "lone-quote": lambda: dc(['"a"b,2'], [[""], [0]]),
        "unterminated": lambda: dc(['"ab,2'], [[""], [0]]),
        "quote-inside": lambda: dc(['a"b,2'], [[""], [0]]),
        "delim": lambda: dc(["1;2"], [[0], [0]], field_delim=";"),
        "delim-two-chars": lambda: dc(["1;2"], [[0], [0]], field_delim=";;"),
        "na": lambda: dc(["NA,2", "1,NA"], [[5], [6]], na_value="NA"),
        "select": lambda: dc(["1,2,3,4"], [[0], [0.0]], select_cols=[1, 3]),
        "select-order": lambda: dc(["1,2,3,4"], [[0], [0.0]], select_cols=[3, 1]),
        "select-length": lambda: dc(["1,2,3,4"], [[0], [0.0]], select_cols=[1]),
        "select-beyond": lambda: dc(["1,2"], [[0], [0.0]], select_cols=[1, 5]),
        "select-last-empty": lambda: dc(["1,2,"], [[0], [9]], select_cols=[1, 2]),
        "spaces": lambda: dc([" 1, 2.5 , a "], [[0], [0.0], [""]]),
        "float-forms": lambda: dc(["1e3,inf,-nan,0x10,1.,.5"], [[0.0]] * 6),
        "int-forms": lambda: dc(["+3,-4,010"], [[0]] * 3),
        "empty-record": lambda: dc([""], [[0]]),
        "rank-2": lambda: dc([["1,2"], ["3,4"]], [[0], [0]]),
        "two-defaults": lambda: dc(["1"], [[0, 1]]),
        "bool-default": lambda: dc(["1"], [[True]]),
        "int-with-dot": lambda: dc(["1.0"], [[0]]),
        "tab": lambda: dc(["1\t2"], [[0], [0]], field_delim="\t"),
        "empty-quoted": lambda: dc(['"",1'], [["d"], [0]]),
        "crlf": lambda: dc(["1,2\r\n"], [[0], [0]]),
        "trailing-delim": lambda: dc(["1,2,"], [[0], [0], [9]]),
        "in-function": lambda: tf.function(lambda x: dc(x, [[0], [0.0]]))(tf.constant(["1,2"])),
    }
    return {name: _csv_outcome(call) for name, call in cases.items()}


def _sequences(tf: Any) -> Any:
    """parse_single_sequence_example / parse_sequence_example: context and feature-list features."""
    def feat(v: list) -> Any:
        return _feature_of(tf, v) if v else tf.train.Feature()

    def seq(ctx: dict, fl: dict) -> bytes:
        return tf.train.SequenceExample(
            context=tf.train.Features(feature={k: feat(v) for k, v in ctx.items()}),
            feature_lists=tf.train.FeatureLists(feature_list={
                k: tf.train.FeatureList(feature=[feat(f) for f in frames]) for k, frames in fl.items()})
        ).SerializeToString()

    def outcome(call: Any) -> Any:
        try:
            return ["ok", [_show(x) for x in call()]]
        except Exception as e:  # noqa: BLE001 - the observation is the error's class and message
            return [type(e).__name__, str(e).split("}} ", 1)[-1]]
    s1 = seq({"c": [1.5], "n": [3]}, {"f": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], "w": [[b"a"], [b"b", b"c"]]})
    s2 = seq({"c": [2.5]}, {"f": [[7.0, 8.0]], "w": [[b"z"]]})
    only_a, two_n, one_n = seq({"a": [1]}, {}), seq({"n": [1, 2]}, {}), seq({"n": [1]}, {})
    pss, ps = tf.io.parse_single_sequence_example, tf.io.parse_sequence_example
    F, V, Q = tf.io.FixedLenFeature, tf.io.VarLenFeature, tf.io.FixedLenSequenceFeature
    ctx = {"c": F([], tf.float32), "n": F([], tf.int64, default_value=0)}
    sq = {"f": Q([2], tf.float32), "w": V(tf.string)}
    cases = {
        "single": lambda: pss(s1, ctx, sq),
        "context-only": lambda: pss(s1, ctx),
        "sequence-only": lambda: pss(s1, sequence_features=sq),
        "context-varlen": lambda: pss(s1, {"n": V(tf.int64)}, {"f": Q([2], tf.float32)}),
        "context-missing": lambda: pss(s2, {"n": F([], tf.int64)}, sq),
        "list-missing": lambda: pss(s1, ctx, {"q": Q([], tf.float32)}),
        "list-missing-allowed": lambda: pss(s1, ctx, {"q": Q([], tf.float32, allow_missing=True)}),
        "list-missing-varlen": lambda: pss(s1, ctx, {"q": V(tf.float32)}),
        "frame-length": lambda: pss(s1, ctx, {"f": Q([3], tf.float32)}),
        "frame-type": lambda: pss(s1, ctx, {"f": Q([2], tf.int64)}),
        "context-type": lambda: pss(s1, {"c": F([], tf.int64)}, sq),
        "context-length": lambda: pss(s1, {"c": F([2], tf.float32)}, sq),
        "scalar-frames": lambda: pss(seq({}, {"f": [[1.0], [2.0]]}), None, {"f": Q([], tf.float32)}),
        "empty-frame": lambda: pss(seq({}, {"f": [[1.0], []]}), None, {"f": Q([], tf.float32)}),
        "empty-frame-varlen": lambda: pss(seq({}, {"w": [[b"a"], [], [b"b"]]}), None, {"w": V(tf.string)}),
        "no-features": lambda: pss(s1, None, None),
        "fixedlen-in-sequence": lambda: pss(s1, ctx, {"f": F([2], tf.float32)}),
        "sequence-in-context": lambda: pss(s1, {"c": Q([], tf.float32)}, sq),
        "string-frames": lambda: pss(seq({}, {"w": [[b"a"], [b"b"]]}), None, {"w": Q([], tf.string)}),
        "batch": lambda: ps([s1, s2], ctx, sq),
        "batch-list-missing-allowed": lambda: ps([s1, s2], ctx, {"q": Q([], tf.float32, allow_missing=True)}),
        "batch-list-missing": lambda: ps([s1, s2], ctx, {"q": Q([], tf.float32)}),
        "batch-frame-length": lambda: ps([s1, s2], ctx, {"f": Q([3], tf.float32)}),
        "batch-context-missing": lambda: ps([s1, s2], {"n": F([], tf.int64)}, sq),
        "batch-sequence-default": lambda: ps([s1, s2], None, {"f": Q([2], tf.float32, default_value=-1.0)}),
        "not-a-sequence-example": lambda: pss(b"abc", ctx, sq),
        "all-missing-default": lambda: pss(only_a, {"n": F([], tf.int64, default_value=4)}),
        "batch-all-missing-default": lambda: ps([only_a, only_a], {"n": F([], tf.int64, default_value=4)}),
        "batch-unexpected-count": lambda: ps([two_n, one_n], {"n": F([2], tf.int64)}),
        "batch-default-mixed": lambda: ps([one_n, only_a], {"n": F([], tf.int64, default_value=4)}),
    }
    return {name: outcome(call) for name, call in cases.items()}


def _feature_of(tf: Any, v: list) -> Any:
    if isinstance(v[0], bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    if isinstance(v[0], float):
        return tf.train.Feature(float_list=tf.train.FloatList(value=v))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))


def _ragged(tf: Any) -> Any:
    """RaggedFeature without partitions: one Example's values, a batch's RaggedTensor."""
    R = tf.io.RaggedFeature

    def show(r: dict) -> Any:
        out = {}
        for k, v in sorted(r.items()):
            if hasattr(v, "row_splits"):
                out[k] = ["ragged", v.values.numpy().tolist(), v.row_splits.numpy().tolist(), v.row_splits.dtype.name]
            else:
                out[k] = [v.dtype.name, v.shape.as_list(), v.numpy().tolist()]
        return out

    def outcome(call: Any) -> Any:
        try:
            return ["ok", show(call())]
        except Exception as e:  # noqa: BLE001 - the observation is the error's class and message
            return [type(e).__name__, str(e).split("}} ", 1)[-1]]
    pe, pse = tf.io.parse_example, tf.io.parse_single_example
    cases = {
        "single": lambda: pse(_ser(tf, r=[1, 2, 3]), {"r": R(tf.int64)}),
        "single-missing": lambda: pse(_ser(tf, q=[1]), {"r": R(tf.int64)}),
        "batch": lambda: pe([_ser(tf, r=[1, 2, 3]), _ser(tf, q=[1]), _ser(tf, r=[4])], {"r": R(tf.int64)}),
        "value-key-int64-splits": lambda: pe([_ser(tf, r=[1, 2, 3]), _ser(tf, r=[4])],
                                             {"x": R(tf.int64, value_key="r", row_splits_dtype=tf.int64)}),
        "with-dense": lambda: pe([_ser(tf, r=[1, 2, 3], y=[5]), _ser(tf, r=[4], y=[6])],
                                 {"r": R(tf.int64), "y": tf.io.FixedLenFeature([], tf.int64)}),
        "strings": lambda: pe([_ser(tf, s=[b"a", b"b"]), _ser(tf, s=[b"c"])], {"s": R(tf.string)}),
        "wrong-type": lambda: pe([_ser(tf, r=[1])], {"r": R(tf.float32)}),
        "wrong-type-single": lambda: pse(_ser(tf, r=[1]), {"r": R(tf.float32)}),
        "ragged-and-sparse": lambda: pe([_ser(tf, r=[1])], {"r": R(tf.int64), "s": tf.io.VarLenFeature(tf.int64),
                                                            "x": R(tf.int64, value_key="s")}),
        "int32-dtype": lambda: {"x": R(tf.int32)},
        "float-splits": lambda: {"x": R(tf.int64, row_splits_dtype=tf.float32)},
        "empty-value-key": lambda: {"x": R(tf.int64, value_key="")},
    }
    return {name: outcome(call) for name, call in cases.items()}


PROGRAMS = [("messages", _messages), ("parse-cases", _parse_cases), ("pipelines", _pipelines),
            ("tutorial-fit", _tutorial_fit), ("codecs", _codecs), ("csv", _csv), ("sequences", _sequences),
            ("ragged", _ragged)]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import warnings

    import tensorflow as tf
    warnings.simplefilter("ignore")
    return {k: PROGRAMS[k][1](tf) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), f"{where}: keys {sorted(got)}, but TF 2.21 has {sorted(want)}"
        for key in want:
            _same(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), \
            f"{where}: {got!r}, but TF 2.21 gives {len(want)} items: {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert type(got) is type(want) and got == want, f"{where}: {got!r}, but TF 2.21 gives {want!r}"


@pytest.mark.clause("io.example-proto")
def test_example_messages_bytes_equal_tfs(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    want = tf_results[0]
    _same(_messages(tf), want, "messages")
    for key in ("example", "sequence"):   # simdist parses TF's bytes back to the same bytes
        cls = tf.train.Example if key == "example" else tf.train.SequenceExample
        again = cls.FromString(bytes.fromhex(want[key])).SerializeToString(deterministic=True).hex()
        assert again == want[key], f"{key}: reserialized {again}, but should be TF's {want[key]}"


@pytest.mark.clause("io.parse-example")
def test_parse_cases_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_parse_cases(tf), tf_results[1], "parse")


@pytest.mark.clause("io.parse-example")
def test_tfrecord_pipelines_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_pipelines(tf), tf_results[2], "pipelines")


@pytest.mark.clause("io.parse-example")
def test_tutorial_pipeline_fits_to_tfs_losses(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    got, want = _tutorial_fit(tf), tf_results[3]
    _same(got["spec"], want["spec"], "tutorial.element_spec")
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=1e-6, atol=1e-7,
                               err_msg=f"history['loss']={got['loss']}, but TF 2.21 gives {want['loss']} [tutorial fit]")


@pytest.mark.clause("io.tensor-codec")
def test_tensor_codecs_and_file_ops_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_codecs(tf), tf_results[4], "codecs")


@pytest.mark.clause("io.tensor-codec")
def test_decode_csv_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_csv(tf), tf_results[5], "decode_csv")


@pytest.mark.clause("io.parse-example")
def test_sequence_examples_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_sequences(tf), tf_results[6], "sequences")


@pytest.mark.clause("io.parse-example")
def test_ragged_features_as_tf(tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(_ragged(tf), tf_results[7], "ragged")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
