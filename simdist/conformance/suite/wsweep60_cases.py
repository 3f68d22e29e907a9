"""The tf.data IO byte-format and options sweep's programs (sixtieth session, wsweep60; test_wsweep60.py): the bytes
TF 2.21 writes and reads, byte for byte, and the tf.data options dsweep58 left at their defaults, crossed by rule.

What is crossed (blind77's data-tfrecord-bytes compares one uncompressed TFRecord file; dsweep58 the transformations'
options; test_io_parsing/survey21 parse examples at their defaults):
- TFRecord files from tf.io.TFRecordWriter and tf.data.experimental.TFRecordWriter, compression '', 'GZIP', 'ZLIB'
  (and TFRecordOptions' compression_level 0, 1, 9, mem_level, compression_strategy), records of 0, 1, 255, 256 and
  65536 bytes, a flush() between writes: the file's sha256 and length, its first bytes (the gzip/zlib header), the
  records read back by TFRecordDataset (compression_type given as a string, TFRecordOptions omitted, buffer_size,
  num_parallel_reads over three files), a file read with the wrong compression, truncated at each part of a record
  (header, header CRC, data, data CRC; compressed and not), a corrupted byte in each part: the error's class;
- tf.io.serialize_tensor/parse_tensor over every dtype (string, bool, half, bfloat16, complex, unsigned), rank 0, 1,
  2 and zero-size, and value ranges (-0.0, NaN, inf, subnormals, integer extremes): the serialized bytes' hex, the
  parsed values, a parse with another out_type's error class;
- tf.io.decode_raw (every out_type, little_endian False, fixed_length shorter, longer and equal, unequal lengths),
  tf.io.encode_base64/decode_base64 (pad, lengths 0..7, web-safe characters, bad input);
- tf.train.Example/Features serialization bytes (one feature each of float/int64/bytes lists over value ranges), and
  parse_single_example/parse_example with FixedLenFeature (with and without default, shape [2], missing), VarLenFeature,
  RaggedFeature (row_splits_dtype, partitions), FixedLenSequenceFeature (allow_missing), dtype clashes;
- tf.data: padded_batch's padding_values of each dtype (and of another dtype: TypeError), cache to a file over two
  epochs and a partial pass, Dataset.save/load (compression, shard_func, element_spec omitted), tf.data.Options'
  nested groups (threading, experimental_optimization, autotune) set through attribute access and merged by
  with_options twice, and the cardinality of each.

Every program is host-independent (no float product or sum whose order a CPU decides). Recorded by `python -m
simdist.conformance.suite.test_wsweep60 --record` on this session's AVX-512 Xeon with oneDNN on. Files go to a
temporary directory each program makes (no path appears in a recorded value)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zlib
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, error, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "wsweep60_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out of the
#: comparison (docs/conformance.md, "Sixtieth session ... wsweep60"):
#: - RaggedFeature with partitions=[UniformRowLength(2)]: TF 2.21 gives a [3, 2]-shaped result per example ([4, 2]
#:   ragged over the batch, int32 row splits), simdist raises NotImplementedError (partitions are not simulated);
#: - parse_single_example of b"\x0a\x05" (the features field's length past the end): TF 2.21's fast parser gives
#:   every feature's default (an empty example), simdist InvalidArgumentError.
#: - (not a case here) a map's Python function through tf.py_function before cache(filename): TF 2.21 calls it 5
#:   times over 5 elements, simdist 7 (its map probes the function for the element spec); the module compares the
#:   calls of the second epoch (0: read from the cache file) only.
OPEN: dict[str, tuple[str, ...]] = {
    "w-parse-example": ("batch ragged uniform 2", "single 0 ragged uniform 2", "single 1 ragged uniform 2",
                        "single 2 ragged uniform 2", "not an example"),
}


def _program(name: str) -> Callable[[Callable[..., dict[str, Any]]], Callable[..., dict[str, Any]]]:
    def deco(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
        def run(tf: Any, mk: Callable[[], Any]) -> dict[str, Any]:
            d = tempfile.mkdtemp(prefix="wsweep60_")
            try:
                out = fn(tf, d)
            finally:
                shutil.rmtree(d, ignore_errors=True)
            for key in OPEN.get(name, ()):
                out[key] = "left out (OPEN)"
            return json.loads(json.dumps(out))
        REF.add(name, run)
        return fn
    return deco


def sha(b: bytes) -> str:
    return hashlib.sha256(bytes(b)).hexdigest()


def val(x: Any) -> Any:
    """A tensor's [shape, dtype, values] (floats by their bits, bytes as hex)."""
    if hasattr(x, "flat_values") and hasattr(x, "row_splits"):
        return {"ragged": [val(x.flat_values)] + [[str(np.asarray(s).dtype)] + np.asarray(s).tolist()
                                                  for s in x.nested_row_splits]}
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return {"sparse": [np.asarray(x.indices).tolist(), val(x.values), np.asarray(x.dense_shape).tolist()]}
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "c":
        v: Any = [[float(e.real).hex(), float(e.imag).hex()] for e in a.ravel()]
    elif a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        v = [float(e).hex() for e in a.astype(np.float64).ravel()]
    elif a.dtype.kind in "SO":
        v = [bytes(e).hex() if isinstance(e, bytes) else str(e) for e in a.ravel()]
    else:
        v = a.ravel().tolist()
    return [list(a.shape), a.dtype.name, v]


def nest_val(tf: Any, e: Any) -> Any:
    if isinstance(e, dict):
        return {k: nest_val(tf, v) for k, v in sorted(e.items())}
    if isinstance(e, (list, tuple)):
        return [nest_val(tf, v) for v in e]
    return val(e)


def records(tf: Any, ds: Any, limit: int = 40) -> Any:
    """The records (sha256 and length each) a TFRecordDataset gives, then "raised <class>" if reading raised."""
    out: list[Any] = []
    try:
        for i, e in enumerate(ds):
            if i >= limit:
                out.append("...")
                break
            b = e.numpy()
            out.append([len(b), sha(b)[:16]])
    except Exception as exc:  # noqa: BLE001 - the class is the observation
        out.append(f"raised {type(exc).__name__}")
    return out


def elems(tf: Any, ds: Any, limit: int = 40) -> Any:
    out: list[Any] = []
    try:
        for i, e in enumerate(ds):
            if i >= limit:
                out.append("...")
                break
            out.append(nest_val(tf, e))
    except Exception as exc:  # noqa: BLE001
        out.append(f"raised {type(exc).__name__}")
    return out


def spec(s: Any) -> Any:
    if isinstance(s, dict):
        return {k: spec(v) for k, v in sorted(s.items())}
    if isinstance(s, (list, tuple)):
        return [spec(v) for v in s]
    shape = getattr(s, "shape", None)
    dims = None if shape is None or shape.rank is None else shape.as_list()
    return [type(s).__name__, dims, getattr(getattr(s, "dtype", None), "name", None)]


def obs(tf: Any, make: Callable[[], Any], limit: int = 40) -> Any:
    try:
        ds = make()
    except Exception as exc:  # noqa: BLE001
        return f"raised {type(exc).__name__}"
    return {"spec": spec(ds.element_spec), "card": int(ds.cardinality()), "el": elems(tf, ds, limit)}


def _payloads(name: str) -> list[bytes]:
    r = rng(name)
    return [b"", bytes([int(r.randint(0, 256))]), r.randint(0, 256, 255).astype(np.uint8).tobytes(),
            bytes(range(256)), r.randint(0, 4, 65536).astype(np.uint8).tobytes()]


def _file(path: str) -> Any:
    raw = open(path, "rb").read()
    return {"len": len(raw), "sha256": sha(raw), "head": raw[:24].hex(), "tail": raw[-12:].hex()}


# -- TFRecord files -----------------------------------------------------------------------------------------------
@_program("w-tfrecord-write")
def _tfrecord_write(tf: Any, d: str) -> dict[str, Any]:
    """Every compression x the record sizes 0, 1, 255, 256, 65536 (and each alone): the file's bytes, read back."""
    out: dict[str, Any] = {}
    recs = _payloads("w-tfrecord-write")
    for comp in ("", "GZIP", "ZLIB"):
        p = os.path.join(d, f"all{comp}")
        with tf.io.TFRecordWriter(p, options=comp) as w:
            for rec in recs:
                w.write(rec)
        out[f"{comp or 'none'} file"] = _file(p)
        out[f"{comp or 'none'} read"] = records(tf, tf.data.TFRecordDataset(p, compression_type=comp))
        for i, rec in enumerate(recs):
            q = os.path.join(d, f"one{comp}{i}")
            with tf.io.TFRecordWriter(q, tf.io.TFRecordOptions(compression_type=comp)) as w:
                w.write(rec)
            out[f"{comp or 'none'} only {len(rec)}"] = _file(q)
        e = os.path.join(d, f"empty{comp}")
        tf.io.TFRecordWriter(e, comp).close()
        out[f"{comp or 'none'} no records"] = [_file(e) if os.path.getsize(e) else "empty file",
                                               records(tf, tf.data.TFRecordDataset(e, comp))]
    return out


@_program("w-tfrecord-options")
def _tfrecord_options(tf: Any, d: str) -> dict[str, Any]:
    """TFRecordOptions off their defaults (compression_level 0, 1, 9; mem_level 8; strategy 1 filtered, 2 huffman),
    a flush() between writes, the string form of options, str/bytes records, the dataset writer's compression."""
    out: dict[str, Any] = {}
    recs = _payloads("w-tfrecord-options")
    for comp in ("GZIP", "ZLIB"):
        for kw in ({"compression_level": 0}, {"compression_level": 1}, {"compression_level": 9},
                   {"mem_level": 8}, {"compression_strategy": 1}, {"compression_strategy": 2}):
            p = os.path.join(d, f"o{comp}{sorted(kw.items())}")
            with tf.io.TFRecordWriter(p, tf.io.TFRecordOptions(comp, **kw)) as w:
                for rec in recs:
                    w.write(rec)
            out[f"{comp} {sorted(kw.items())}"] = [_file(p), records(tf, tf.data.TFRecordDataset(p, comp))]
    for comp in ("", "GZIP", "ZLIB"):
        p = os.path.join(d, f"flush{comp}")
        w = tf.io.TFRecordWriter(p, comp)
        w.write(b"abc")
        w.flush()
        w.flush()
        w.write("d\u00e9")
        out[f"{comp or 'none'} write a tensor"] = error(lambda: w.write(tf.constant(b"tensor")) or "written")
        w.flush()
        w.write(recs[2])
        w.close()
        out[f"{comp or 'none'} flushes"] = [_file(p), records(tf, tf.data.TFRecordDataset(p, comp))]
        q = os.path.join(d, f"dsw{comp}")
        tf.data.experimental.TFRecordWriter(q, compression_type=comp).write(
            tf.data.Dataset.from_tensor_slices([recs[1], recs[2], b""]))
        out[f"{comp or 'none'} dataset writer"] = [_file(q), records(tf, tf.data.TFRecordDataset(q, comp))]
    out["bad compression"] = error(lambda: tf.io.TFRecordWriter(os.path.join(d, "x"), "BZIP2") and "made")
    out["bad compression read"] = error(lambda: records(tf, tf.data.TFRecordDataset(os.path.join(d, "dsw"), "LZ")))
    return out


@_program("w-tfrecord-read")
def _tfrecord_read(tf: Any, d: str) -> dict[str, Any]:
    """TFRecordDataset over three files (a list, a tensor, a dataset of names), buffer_size, num_parallel_reads,
    cardinality and element_spec; each file read with each other compression (the error class)."""
    out: dict[str, Any] = {}
    names = []
    for k, comp in enumerate(("", "GZIP", "ZLIB")):
        p = os.path.join(d, f"f{k}")
        with tf.io.TFRecordWriter(p, comp) as w:
            for j in range(k + 2):
                w.write(bytes([k, j]) * (j + 1))
        names.append(p)
        for other in ("", "GZIP", "ZLIB"):
            out[f"{comp or 'none'} read as {other or 'none'}"] = records(tf, tf.data.TFRecordDataset(p, other))
    plain = []
    for k in range(3):
        p = os.path.join(d, f"p{k}")
        with tf.io.TFRecordWriter(p) as w:
            for j in range(k + 2):
                w.write(bytes([k, j]) * (j + 1))
        plain.append(p)
    out["list"] = records(tf, tf.data.TFRecordDataset(plain))
    out["tensor"] = records(tf, tf.data.TFRecordDataset(tf.constant(plain)))
    out["dataset of names"] = records(tf, tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(plain)))
    out["buffer 1"] = records(tf, tf.data.TFRecordDataset(plain, buffer_size=1))
    out["buffer 0"] = records(tf, tf.data.TFRecordDataset(plain, buffer_size=0))
    for n in (1, 2, 3, 4):
        out[f"parallel {n}"] = records(tf, tf.data.TFRecordDataset(plain, num_parallel_reads=n))
    ds = tf.data.TFRecordDataset(plain)
    out["spec card"] = [spec(ds.element_spec), int(ds.cardinality())]
    out["missing file"] = records(tf, tf.data.TFRecordDataset([plain[0], os.path.join(d, "nope")]))
    out["empty list"] = error(lambda: records(tf, tf.data.TFRecordDataset([])))
    return out


@_program("w-tfrecord-damage")
def _tfrecord_damage(tf: Any, d: str) -> dict[str, Any]:
    """A file of three records cut at every part of the second record (its length, the length's CRC, the data, the
    data's CRC) and with one byte flipped in each part; compressed files cut short and flipped: what reading gives."""
    out: dict[str, Any] = {}
    recs = [b"first", b"second record", b"third"]
    for comp in ("", "GZIP", "ZLIB"):
        p = os.path.join(d, f"good{comp}")
        with tf.io.TFRecordWriter(p, comp) as w:
            for rec in recs:
                w.write(rec)
        raw = open(p, "rb").read()
        if comp == "":
            second = 16 + len(recs[0])
            cuts = {"at record": second, "in length": second + 3, "in length crc": second + 10,
                    "in data": second + 12 + 4, "in data crc": second + 12 + len(recs[1]) + 2,
                    "after data crc": second + 16 + len(recs[1]), "one byte short": len(raw) - 1}
            flips = {"length": second + 1, "length high": second + 7, "length crc": second + 9,
                     "data": second + 12 + 3, "data crc": second + 12 + len(recs[1]) + 1}
        else:
            cuts = {"half": len(raw) // 2, "no trailer": len(raw) - 4, "one byte short": len(raw) - 1,
                    "header only": 10 if comp == "GZIP" else 2}
            flips = {"deflate byte": len(raw) // 2, "trailer": len(raw) - 2}
        for what, n in cuts.items():
            q = os.path.join(d, f"cut{comp}{n}")
            open(q, "wb").write(raw[:n])
            out[f"{comp or 'none'} cut {what}"] = records(tf, tf.data.TFRecordDataset(q, comp))
        for what, pos in flips.items():
            bad = bytearray(raw)
            bad[pos] ^= 0x40
            q = os.path.join(d, f"flip{comp}{pos}")
            open(q, "wb").write(bytes(bad))
            out[f"{comp or 'none'} flip {what}"] = records(tf, tf.data.TFRecordDataset(q, comp))
        z = os.path.join(d, f"zero{comp}")
        open(z, "wb").write(b"")
        out[f"{comp or 'none'} zero-byte file"] = records(tf, tf.data.TFRecordDataset(z, comp))
    return out


# -- tensors as bytes -----------------------------------------------------------------------------------------------
_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64", "bool", "complex64", "complex128", "string")


def _values(tf: Any, dtype: str, shape: tuple[int, ...]) -> Any:
    """A tensor of `dtype` and `shape` over the dtype's value classes (range ends, -0.0, NaN, inf, subnormals)."""
    n = int(np.prod(shape))
    r = rng(f"{dtype}{shape}")
    if dtype == "string":
        pool = [b"", b"a", bytes(range(200, 256)), b"\x00\x01", b"x" * 130]
        return tf.constant(np.array([pool[int(i)] for i in r.randint(0, 5, n)], object).reshape(shape))
    if dtype == "bool":
        return tf.constant(r.randint(0, 2, n).astype(bool).reshape(shape))
    if dtype.startswith("complex"):
        base = np.array([0.0, -0.0, 1.5, -2.25, np.inf, np.nan, 1e-40, 3.0], np.float64)
        re = base[r.randint(0, 8, n)]
        im = base[r.randint(0, 8, n)]
        return tf.complex(tf.constant(re.reshape(shape), tf.float64 if dtype == "complex128" else tf.float32),
                          tf.constant(im.reshape(shape), tf.float64 if dtype == "complex128" else tf.float32))
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        base = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 6e-8, -3.5, 65504.0, 0.1], np.float64)
        v = base[r.randint(0, 10, n)].reshape(shape)
        return tf.cast(tf.constant(v, tf.float64), dtype) if dtype != "float64" else tf.constant(v, tf.float64)
    info = np.iinfo(np.dtype(dtype))
    base = np.array([info.min, info.max, 0, 1, info.min + 1, info.max - 1, 7], np.dtype(dtype))
    return tf.constant(base[r.randint(0, 7, n)].reshape(shape), dtype)


@_program("w-serialize-tensor")
def _serialize(tf: Any, d: str) -> dict[str, Any]:
    """serialize_tensor of every dtype at ranks 0, 1, 2 and zero-size: the bytes, and parse_tensor of them."""
    out: dict[str, Any] = {}
    for dt in _DTYPES:
        for shape in ((), (3,), (2, 3), (0,), (2, 0)):
            t = _values(tf, dt, shape)
            s = tf.io.serialize_tensor(t)
            b = s.numpy()
            back = tf.io.parse_tensor(s, out_type=dt)
            out[f"{dt} {list(shape)}"] = [b.hex() if len(b) <= 200 else sha(b), val(back)]
        other = "int32" if dt != "int32" else "float32"
        out[f"{dt} parsed as {other}"] = error(lambda: val(tf.io.parse_tensor(
            tf.io.serialize_tensor(_values(tf, dt, (2,))), out_type=other)))
    out["not a proto"] = error(lambda: val(tf.io.parse_tensor(tf.constant(b"\xff\xff"), tf.float32)))
    out["serialize of a python list"] = tf.io.serialize_tensor([1, 2]).numpy().hex()
    out["serialize of a python float"] = tf.io.serialize_tensor(1.5).numpy().hex()
    return out


@_program("w-decode-raw")
def _decode_raw(tf: Any, d: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    r = rng("w-decode-raw")
    raw = r.randint(0, 256, 16).astype(np.uint8).tobytes()
    for dt in ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
               "uint32", "uint64", "complex64", "complex128", "bool"):
        for le in (True, False):
            out[f"{dt} le={le}"] = error(lambda: val(tf.io.decode_raw(tf.constant([raw, raw[::-1]]), dt,
                                                                      little_endian=le)))
    out["scalar"] = val(tf.io.decode_raw(tf.constant(raw[:8]), tf.int16))
    out["unequal lengths"] = error(lambda: val(tf.io.decode_raw(tf.constant([raw[:4], raw[:8]]), tf.int16)))
    out["not a multiple"] = error(lambda: val(tf.io.decode_raw(tf.constant(raw[:5]), tf.int16)))
    out["empty"] = val(tf.io.decode_raw(tf.constant([b"", b""]), tf.int32))
    for fl in (2, 6, 8, 12, 16, 20, 7):
        for le in (True, False):
            out[f"fixed_length {fl} le={le}"] = error(lambda: val(tf.io.decode_raw(
                tf.constant([raw[:3], raw, raw[:10]]), tf.int16, little_endian=le, fixed_length=fl)))
    out["fixed_length uint8"] = error(lambda: val(tf.io.decode_raw(tf.constant([raw[:3], raw]), tf.uint8,
                                                                   fixed_length=5)))
    out["fixed_length zero"] = error(lambda: val(tf.io.decode_raw(tf.constant([raw]), tf.int32, fixed_length=0)))
    return out


@_program("w-base64")
def _base64(tf: Any, d: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    data = bytes([0xFB, 0xFF, 0xBF, 0x3E, 0x00, 0xFC, 0x61])
    for n in range(8):
        for pad in (False, True):
            e = tf.io.encode_base64(tf.constant(data[:n]), pad=pad)
            out[f"encode {n} pad={pad}"] = [e.numpy().decode(), tf.io.decode_base64(e).numpy().hex()]
    out["vector"] = val(tf.io.encode_base64(tf.constant([[b"a", b"bc"], [b"", b"\xff\xfe"]])))
    for s in ("+_8", "-_8", "YQ", "YQ=", "YQ==", "YQ===", "Y", "YWJj ", "YW=J", "", "____", "A", "AB",
              "ABC", "//8="):
        out[f"decode {s!r}"] = error(lambda: tf.io.decode_base64(tf.constant(s)).numpy().hex())
    return out


# -- tf.train.Example and its parsing -------------------------------------------------------------------------------
def _example(tf: Any, feats: dict[str, Any]) -> Any:
    return tf.train.Example(features=tf.train.Features(feature=feats))


@_program("w-example-bytes")
def _example_bytes(tf: Any, d: str) -> dict[str, Any]:
    """One feature per Example (a map's order is left out): the serialized bytes of float, int64 and bytes lists
    over value ranges, empty lists, and the Feature/Features/Example objects' own bytes."""
    out: dict[str, Any] = {}
    T = tf.train
    floats = [0.0, -0.0, 1.5, float("inf"), float("-inf"), 1e-45, -3.4028234663852886e38, 0.1]
    ints = [0, -1, 1, 127, 128, 2**31 - 1, -2**31, 2**63 - 1, -2**63, 300]
    bys = [b"", b"a", bytes(range(256))[:130]]
    cases = {"floats": T.Feature(float_list=T.FloatList(value=floats)),
             "nan": T.Feature(float_list=T.FloatList(value=[float("nan")])),
             "ints": T.Feature(int64_list=T.Int64List(value=ints)),
             "bytes": T.Feature(bytes_list=T.BytesList(value=bys)),
             "empty floats": T.Feature(float_list=T.FloatList(value=[])),
             "empty ints": T.Feature(int64_list=T.Int64List()),
             "empty bytes": T.Feature(bytes_list=T.BytesList(value=[b""])),
             "no kind": T.Feature()}
    for k, f in cases.items():
        out[f"feature {k}"] = f.SerializeToString().hex()
        out[f"example {k}"] = _example(tf, {"f": f}).SerializeToString().hex()
    out["empty example"] = T.Example().SerializeToString().hex()
    out["empty features"] = _example(tf, {}).SerializeToString().hex()
    ex = T.Example.FromString(_example(tf, {"x": cases["ints"]}).SerializeToString())
    out["round trip"] = list(ex.features.feature["x"].int64_list.value)
    return out


def _parse_inputs(tf: Any) -> list[bytes]:
    T = tf.train
    F = T.Feature
    return [
        _example(tf, {"a": F(float_list=T.FloatList(value=[1.5, -0.0])), "i": F(int64_list=T.Int64List(value=[7])),
                      "s": F(bytes_list=T.BytesList(value=[b"x", b"yz"])),
                      "r": F(int64_list=T.Int64List(value=[1, 2, 3, 4, 5, 6])),
                      "q": F(float_list=T.FloatList(value=[0.5, 2.0, -1.0, 3.0]))}).SerializeToString(),
        _example(tf, {"a": F(float_list=T.FloatList(value=[float("inf"), 1e-45])),
                      "s": F(bytes_list=T.BytesList(value=[])), "r": F(int64_list=T.Int64List(value=[9, 8])),
                      "q": F(float_list=T.FloatList(value=[]))}).SerializeToString(),
        _example(tf, {"i": F(int64_list=T.Int64List(value=[-2**63])),
                      "r": F(int64_list=T.Int64List(value=[]))}).SerializeToString(),
    ]


@_program("w-parse-example")
def _parse_example(tf: Any, d: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    io = tf.io
    ser = _parse_inputs(tf)
    specs = {
        "fixed with default": {"a": io.FixedLenFeature([2], tf.float32, default_value=[9.0, -0.0])},
        "fixed no default": {"a": io.FixedLenFeature([2], tf.float32)},
        "fixed scalar default": {"i": io.FixedLenFeature([], tf.int64, default_value=-5)},
        "fixed [1] default": {"i": io.FixedLenFeature([1], tf.int64, default_value=[3])},
        "fixed wrong size": {"a": io.FixedLenFeature([3], tf.float32, default_value=[0.0, 0.0, 0.0])},
        "fixed [2,2]": {"q": io.FixedLenFeature([2, 2], tf.float32, default_value=[[0.0, 1.0], [2.0, 3.0]])},
        "fixed wrong dtype": {"a": io.FixedLenFeature([2], tf.int64, default_value=[0, 0])},
        "var float": {"a": io.VarLenFeature(tf.float32)},
        "var string": {"s": io.VarLenFeature(tf.string)},
        "var int": {"r": io.VarLenFeature(tf.int64)},
        "var wrong dtype": {"s": io.VarLenFeature(tf.int64)},
        "ragged plain": {"r": io.RaggedFeature(tf.int64)},
        "ragged int32 splits": {"r": io.RaggedFeature(tf.int64, row_splits_dtype=tf.int32)},
        "ragged string": {"s": io.RaggedFeature(tf.string)},
        "ragged uniform 2": {"r": io.RaggedFeature(tf.int64, partitions=[io.RaggedFeature.UniformRowLength(2)])},
        "seq allow_missing": {"q": io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)},
        "seq allow_missing default": {"q": io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                                                      default_value=-1.0)},
        "seq scalar": {"r": io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)},
        "seq not allow_missing": {"r": io.FixedLenSequenceFeature([], tf.int64)},
        "seq bad multiple": {"r": io.FixedLenSequenceFeature([4], tf.int64, allow_missing=True)},
    }
    for k, sp in specs.items():
        out[f"batch {k}"] = error(lambda: nest_val(tf, io.parse_example(tf.constant(ser), sp)))
        for j, s in enumerate(ser):
            out[f"single {j} {k}"] = error(lambda: nest_val(tf, io.parse_single_example(tf.constant(s), sp)))
    both = {"a": io.FixedLenFeature([2], tf.float32, default_value=[0.0, 0.0]), "s": io.VarLenFeature(tf.string),
            "r": io.RaggedFeature(tf.int64), "i": io.FixedLenFeature([], tf.int64, default_value=0)}
    out["mixed"] = error(lambda: nest_val(tf, io.parse_example(tf.constant(ser), both)))
    out["empty batch"] = error(lambda: nest_val(tf, io.parse_example(tf.constant([], tf.string), both)))
    out["not an example"] = error(lambda: nest_val(tf, io.parse_single_example(tf.constant(b"\x0a\x05"), both)))
    out["empty serialized"] = error(lambda: nest_val(tf, io.parse_single_example(tf.constant(b""), both)))
    return out


# -- tf.data options --------------------------------------------------------------------------------------------
@_program("w-data-padded-values")
def _padded_values(tf: Any, d: str) -> dict[str, Any]:
    """padded_batch with padding_values of each dtype (a tensor, a Python scalar, another dtype), padded_shapes None,
    -1 and given: elements, spec and cardinality."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}

    def var(dt: str) -> Any:
        return D.range(1, 5).map(lambda n: tf.cast(tf.fill([n], n), dt) if dt != "string"
                                 else tf.fill([n], tf.strings.as_string(n)))
    pads = {"float16": -0.0, "bfloat16": 2.5, "float32": float("nan"), "float64": -1e-320, "int8": -128,
            "uint8": 255, "int32": -2**31, "int64": 2**63 - 1, "uint16": 65535, "bool": True, "string": "pad",
            "complex64": 1 + 2j}
    for dt, pv in pads.items():
        src = var(dt) if dt != "bool" else D.range(1, 5).map(lambda n: tf.fill([n], n > 2))
        if dt == "complex64":
            src = D.range(1, 5).map(lambda n: tf.complex(tf.cast(tf.fill([n], n), tf.float32), -1.0))
        out[f"{dt} tensor"] = obs(tf, lambda: src.padded_batch(3, padding_values=tf.constant(pv, dt)))
        out[f"{dt} python"] = obs(tf, lambda: src.padded_batch(3, padded_shapes=[-1], padding_values=pv))
        out[f"{dt} given shape"] = obs(tf, lambda: src.padded_batch(2, padded_shapes=[6], padding_values=pv,
                                                                    drop_remainder=True))
        other = tf.constant(1, tf.int32) if dt != "int32" else tf.constant(1, tf.int64)
        out[f"{dt} other dtype"] = obs(tf, lambda: src.padded_batch(3, padding_values=other))
    out["default values"] = {dt: obs(tf, lambda: var(dt).padded_batch(4, padded_shapes=[None]))
                             for dt in ("float16", "uint8", "string")}
    tup = D.range(1, 4).map(lambda n: (tf.fill([n], n), tf.fill([n, 2], tf.cast(n, tf.float32))))
    out["tuple values"] = obs(tf, lambda: tup.padded_batch(2, padding_values=(tf.constant(-1, tf.int64), 0.5)))
    out["tuple one value"] = obs(tf, lambda: tup.padded_batch(2, padding_values=(tf.constant(-1, tf.int64),)))
    out["non-scalar value"] = obs(tf, lambda: var("int64").padded_batch(2, padding_values=tf.constant([1, 2],
                                                                                                     tf.int64)))
    return out


@_program("w-data-cache-file")
def _cache_file(tf: Any, d: str) -> dict[str, Any]:
    """cache(filename): two full epochs (the second from the file, after its source changed), a partial first pass
    then a full one, a second dataset over the same file, cache() in memory with a shuffle before it."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}
    tf.random.set_seed(60)   # (a shuffle's order with an op seed follows the global seed: one set here)
    calls: list[int] = []

    def note(v: Any) -> Any:
        calls.append(int(v))
        return v
    fn = os.path.join(d, "c")
    ds = D.range(5).map(lambda v: tf.py_function(note, [v], tf.int64)).cache(fn)
    out["epoch 1"] = elems(tf, ds)
    first = len(calls)
    out["epoch 2"] = elems(tf, ds)
    out["calls in epoch 2"] = len(calls) - first
    out["files made"] = sorted(n.replace("c", "NAME", 1) for n in os.listdir(d))
    out["card"] = int(ds.cardinality())
    fn2 = os.path.join(d, "p")
    part = D.range(6).cache(fn2)
    it = iter(part)
    out["partial"] = [int(next(it)), int(next(it))]
    del it
    out["after partial"] = elems(tf, part)
    out["after partial again"] = elems(tf, part)
    out["other source same file"] = elems(tf, D.range(10, 13).cache(fn2))
    mp = D.range(5).cache()
    it2 = iter(mp)
    out["memory partial"] = [int(next(it2)), int(next(it2))]
    del it2
    out["memory after partial"] = [elems(tf, mp), elems(tf, mp)]
    mt = D.range(5).map(lambda v: v * 3).cache()
    out["memory take then all"] = [elems(tf, mt.take(2)), elems(tf, mt), elems(tf, mt.take(3))]
    ft = D.range(5).map(lambda v: v * 3).cache(os.path.join(d, "ft"))
    out["file take then all"] = [elems(tf, ft.take(2)), elems(tf, ft), elems(tf, ft.take(3))]
    mem = D.range(6).shuffle(6, seed=3, reshuffle_each_iteration=True).cache()
    out["memory epochs"] = [elems(tf, mem), elems(tf, mem)]
    rep = D.range(3).cache().repeat(2)
    out["cache repeat"] = [elems(tf, rep), int(rep.cardinality())]
    out["cache take"] = obs(tf, lambda: D.range(4).cache(os.path.join(d, "t")).take(2).repeat(2))
    return out


@_program("w-data-save-load")
def _save_load(tf: Any, d: str) -> dict[str, Any]:
    D = tf.data.Dataset
    out: dict[str, Any] = {}
    src = D.range(7).map(lambda v: {"v": v, "f": tf.cast(v, tf.float32) / 4.0, "s": tf.strings.as_string(v)})
    for comp in (None, "GZIP", ""):
        p = os.path.join(d, f"s{comp}")
        src.save(p, compression=comp)
        ld = D.load(p, compression=comp)
        out[f"load {comp}"] = {"spec": spec(ld.element_spec), "card": int(ld.cardinality()),
                               "el": sorted(elems(tf, ld), key=json.dumps)}
    p = os.path.join(d, "shard")
    src.save(p, shard_func=lambda e: e["v"] % 3)
    ld = D.load(p, element_spec=src.element_spec)
    out["shard_func 3 load"] = [int(ld.cardinality()), sorted(elems(tf, ld), key=json.dumps)]
    out["shard_func files"] = len([n for n in os.listdir(p) if not n.startswith(("dataset_spec", "snapshot"))])
    p2 = os.path.join(d, "batched")
    D.range(5).batch(2).save(p2)
    l2 = D.load(p2)
    out["batched"] = [spec(l2.element_spec), int(l2.cardinality()), elems(tf, l2)]
    out["load missing"] = error(lambda: elems(tf, D.load(os.path.join(d, "none"))))
    return out


@_program("w-data-options-nested")
def _options_nested(tf: Any, d: str) -> dict[str, Any]:
    """tf.data.Options' nested groups set through attribute access, with_options twice (the later's set fields win,
    unset ones keep the earlier's), merge(), options() after transformations, and each dataset's cardinality."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}

    def show(o: Any) -> Any:
        return {"threading.private_threadpool_size": o.threading.private_threadpool_size,
                "threading.max_intra_op_parallelism": o.threading.max_intra_op_parallelism,
                "opt.map_fusion": o.experimental_optimization.map_fusion,
                "opt.apply_default": o.experimental_optimization.apply_default_optimizations,
                "opt.noop": o.experimental_optimization.noop_elimination,
                "autotune.enabled": o.autotune.enabled, "autotune.ram": o.autotune.ram_budget,
                "deterministic": o.deterministic, "slack": o.experimental_slack,
                "shard": str(o.experimental_distribute.auto_shard_policy).split(".")[-1]}
    a = tf.data.Options()
    a.threading.private_threadpool_size = 2
    a.experimental_optimization.map_fusion = True
    a.autotune.ram_budget = 1024
    out["a"] = show(a)
    b = tf.data.Options()
    b.threading.max_intra_op_parallelism = 1
    b.experimental_optimization.map_fusion = False
    b.deterministic = False
    b.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    out["b"] = show(b)
    ds = D.range(5).with_options(a).map(lambda v: v * 2).with_options(b)
    out["twice"] = [show(ds.options()), elems(tf, ds), int(ds.cardinality())]
    out["twice reversed"] = show(D.range(5).with_options(b).with_options(a).options())
    out["merge"] = show(a.merge(b))
    out["merge reversed"] = show(b.merge(a))
    z = D.zip((D.range(3).with_options(a), D.range(4).with_options(b)))
    out["zip"] = [show(z.options()), int(z.cardinality())]
    c = D.range(3).with_options(a).concatenate(D.range(2).with_options(b))
    out["concatenate"] = [show(c.options()), int(c.cardinality())]
    i = D.range(2).with_options(b).interleave(lambda v: D.range(v + 1).with_options(a), cycle_length=2)
    out["interleave"] = [show(i.options()), int(i.cardinality()), elems(tf, i)]
    g = tf.data.Options()
    out["defaults"] = show(g)
    out["group object kept"] = g.threading is g.threading
    t = g.threading
    t.private_threadpool_size = 3
    out["through a reference"] = show(g)
    out["same options equal"] = [a == a.merge(tf.data.Options()), a == b]
    return out


@_program("w-data-batch-edges")
def _batch_edges(tf: Any, d: str) -> dict[str, Any]:
    """batch and padded_batch at their fast paths (tensor slices) and after a map, drop_remainder both ways (elements
    and cardinality), padded shapes equal to, larger than and -1 for a component, batch size 0, a map then a batch
    of elements of another shape (the fused MapAndBatch), and tf.data.Options given a value of the wrong type."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}
    rows = np.arange(14, dtype=np.int32).reshape(7, 2)
    for drop in (False, True):
        for k in (1, 3, 7, 8):
            out[f"slices batch {k} drop={drop}"] = obs(tf, lambda: D.from_tensor_slices(rows).batch(k, drop))
            out[f"map batch {k} drop={drop}"] = obs(tf, lambda: D.from_tensor_slices(rows).map(lambda v: v * 2)
                                                    .batch(k, drop_remainder=drop))
            out[f"slices padded {k} drop={drop}"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(
                k, drop_remainder=drop))
            out[f"slices padded [4] {k} drop={drop}"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(
                k, padded_shapes=[4], padding_values=-1, drop_remainder=drop))
        out[f"range filter batch drop={drop}"] = obs(tf, lambda: D.range(9).filter(lambda v: v % 4 > 0).batch(
            2, drop_remainder=drop))
    out["padded equal shape"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(3, padded_shapes=[2]))
    out["padded smaller shape"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(3, padded_shapes=[1]))
    out["padded -1 scalar"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(3, padded_shapes=-1))
    out["padded [-1]"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(3, padded_shapes=[-1]))
    out["padded 3 scalar"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(3, padded_shapes=3))
    for k in (0, -1):
        out[f"padded size {k}"] = obs(tf, lambda: D.from_tensor_slices(rows).padded_batch(k))
        out[f"batch size {k}"] = obs(tf, lambda: D.from_tensor_slices(rows).batch(k))
    shaped = D.range(4).map(lambda v: tf.cond(v % 2 == 0, lambda: tf.zeros([2, 3], tf.int64),
                                              lambda: tf.ones([3, 2], tf.int64)))
    # (a fused map+batch of [2, 3] and [3, 2] elements takes the shape of the element its threads copy first: TF's
    # varies from run to run, so the fused batch's values are compared flat, without their shape)
    def flat(ds: Any) -> Any:
        try:
            return [[int(np.prod(e.shape)), np.asarray(e).ravel().tolist()] for e in ds]
        except Exception as exc:  # noqa: BLE001
            return f"raised {type(exc).__name__}"
    o = tf.data.Options()
    o.experimental_optimization.map_and_batch_fusion = False
    out["map batch other shapes flat"] = flat(shaped.batch(2))
    out["map batch other shapes unfused"] = obs(tf, lambda: shaped.batch(2).with_options(o))
    grow = D.range(1, 4).map(lambda v: tf.range(v))
    out["map batch other sizes"] = obs(tf, lambda: grow.batch(3))
    out["map batch other sizes unfused"] = obs(tf, lambda: grow.batch(3).with_options(o))
    for field, v in (("deterministic", "yes"), ("experimental_slack", 1), ("threading.private_threadpool_size", 2.5),
                     ("autotune.ram_budget", "big"), ("experimental_optimization.map_fusion", 0)):
        def setit(field: str = field, v: Any = v) -> Any:
            opts = tf.data.Options()
            obj = opts
            parts = field.split(".")
            for part in parts[:-1]:
                obj = getattr(obj, part)
            setattr(obj, parts[-1], v)
            return "set"
        out[f"options {field} = {v!r}"] = error(setit)
    return out


@_program("w-readers-more")
def _readers_more(tf: Any, d: str) -> dict[str, Any]:
    """FixedLengthRecordDataset with header and footer bytes over two files (compressed too), list_files with its
    shuffle default, seeds and shuffle=False, CsvDataset with a header in each file, int32/int64 range ends, na_value
    and select_cols at the last field."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}
    for k in range(2):
        open(os.path.join(d, f"fixed{k}.bin"), "wb").write(b"HDR" + bytes(range(10 * k, 10 * k + 8)) + b"FT")
    names = [os.path.join(d, f"fixed{k}.bin") for k in range(2)]
    for hb, fb, rb in ((3, 2, 4), (3, 2, 2), (3, 0, 2), (0, 2, 13), (3, 2, 3)):
        out[f"fixed h{hb} f{fb} r{rb}"] = records(tf, tf.data.FixedLengthRecordDataset(
            names, rb, header_bytes=hb, footer_bytes=fb))
    tf.random.set_seed(60)   # (list_files' shuffle with an op seed follows the global seed: one set here)
    for k in range(6):
        open(os.path.join(d, f"lf{k}.txt"), "w").write(str(k))
    pat = os.path.join(d, "lf*.txt")

    def base(ds: Any) -> Any:
        return [os.path.basename(x.numpy().decode()) for x in ds]
    out["list_files seed 7"] = base(tf.data.Dataset.list_files(pat, seed=7))
    out["list_files seed 7 two epochs"] = base(tf.data.Dataset.list_files(pat, seed=7).repeat(2))
    out["list_files shuffle False"] = base(tf.data.Dataset.list_files(pat, shuffle=False))
    out["list_files shuffle True seed 1"] = base(tf.data.Dataset.list_files(pat, shuffle=True, seed=1))
    out["list_files default twice"] = [len(base(tf.data.Dataset.list_files(pat))), "(order unseeded: not compared)"]
    out["list_files no match"] = error(lambda: base(tf.data.Dataset.list_files(os.path.join(d, "none*"))))
    csvs = []
    for k in range(2):
        p = os.path.join(d, f"c{k}.csv")
        open(p, "w").write("a,b,c\n" + f"{k},2147483647,x{k}\n" + f"{k + 5},NA,\n")
        csvs.append(p)
    out["csv header each file"] = elems(tf, tf.data.experimental.CsvDataset(
        csvs, [tf.int32, tf.int32, tf.string], header=True, na_value="NA"))
    out["csv no na_value"] = elems(tf, tf.data.experimental.CsvDataset(
        csvs, [tf.int32, tf.constant([7], tf.int32), tf.string], header=True))
    out["csv na default"] = elems(tf, tf.data.experimental.CsvDataset(
        csvs, [tf.int32, tf.constant([-9], tf.int32), tf.constant(["dflt"])], header=True, na_value="NA"))
    for v in ("2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808"):
        p = os.path.join(d, f"big{v}.csv")
        open(p, "w").write(f"{v}\n")
        out[f"csv int32 {v}"] = elems(tf, tf.data.experimental.CsvDataset(p, [tf.int32]))
        out[f"csv int64 {v}"] = elems(tf, tf.data.experimental.CsvDataset(p, [tf.int64]))
    p = os.path.join(d, "sel.csv")
    open(p, "w").write("1,2,3\n4,5\n6,7,8,9\n")
    for cols in ([0, 2], [2], [1], [0, 3]):
        out[f"csv select {cols}"] = elems(tf, tf.data.experimental.CsvDataset(
            p, [tf.int32] * len(cols), select_cols=cols))
    return out


@_program("w-io-more")
def _io_more(tf: Any, d: str) -> dict[str, Any]:
    """TextLineDataset over line ends ("\\r\\n", a lone "\\r", no last newline, empty lines; GZIP and ZLIB),
    parse_sequence_example's sequence features over examples of different frame counts, unbatch's cardinality and
    unequal components, prefetch's buffer at the end of its input."""
    D = tf.data.Dataset
    out: dict[str, Any] = {}
    text = b"one\r\ntwo\r\n\nthr\ree\r\n\r\nlast\r"
    for comp in ("", "ZLIB", "GZIP"):
        data = text
        if comp:
            c = zlib.compressobj(6, zlib.DEFLATED, 31 if comp == "GZIP" else 15)
            data = c.compress(text) + c.flush()
        p = os.path.join(d, f"t{comp}.txt")
        open(p, "wb").write(data)
        out[f"text lines {comp or 'none'}"] = elems(tf, tf.data.TextLineDataset(p, compression_type=comp))
    T = tf.train
    F = T.Feature

    def seq(frames: list[list[int]], ctx: int) -> bytes:
        return T.SequenceExample(
            context=T.Features(feature={"c": F(int64_list=T.Int64List(value=[ctx]))}),
            feature_lists=T.FeatureLists(feature_list={"v": T.FeatureList(feature=[
                F(int64_list=T.Int64List(value=f)) for f in frames])})).SerializeToString()
    sers = [seq([[1, 2], [3], []], 5), seq([[4]], 6), seq([], 7)]
    io = tf.io
    ctx = {"c": io.FixedLenFeature([], tf.int64)}
    sq = {"v": io.VarLenFeature(tf.int64)}
    out["parse_sequence_example"] = error(lambda: nest_val(tf, io.parse_sequence_example(tf.constant(sers), ctx,
                                                                                          sq)))
    for j, s in enumerate(sers):
        out[f"parse_single_sequence_example {j}"] = error(lambda: nest_val(tf, io.parse_single_sequence_example(
            tf.constant(s), ctx, sq)))
    fixed = {"v": io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1)}
    out["parse_sequence_example fixed"] = error(lambda: nest_val(tf, io.parse_sequence_example(
        tf.constant(sers[1:]), ctx, fixed)))
    b = D.range(10).batch(3)
    out["unbatch"] = obs(tf, lambda: b.unbatch())
    out["unbatch drop"] = obs(tf, lambda: D.range(10).batch(3, drop_remainder=True).unbatch())
    out["unbatch unequal"] = obs(tf, lambda: D.from_tensors((tf.range(2), tf.range(3))).unbatch())
    out["unbatch unequal other way"] = obs(tf, lambda: D.from_tensors((tf.range(3), tf.range(2))).unbatch())
    out["unbatch scalar"] = obs(tf, lambda: D.from_tensors((tf.range(3), tf.constant(1))).unbatch())
    for a, b2 in ((2, 3), (3, 2), (2, 2), (0, 1)):   # shapes known only when run (a map's [None] components)
        out[f"unbatch dynamic {a} {b2}"] = obs(tf, lambda: D.range(1).map(
            lambda v: (tf.range(v + a), tf.range(v + b2))).unbatch())
    for a, r in ((3, 2), (2, 3), (2, 2)):   # a dense component's run-time rows beside a sparse one's
        out[f"unbatch sparse {a} {r}"] = obs(tf, lambda: D.range(1).map(lambda v: (
            tf.range(v + a), tf.sparse.from_dense(tf.ones([r, 2], tf.int64)))).unbatch())
    for k in (1, 3, 20):
        out[f"prefetch {k}"] = obs(tf, lambda: D.range(5).prefetch(k))
        out[f"prefetch {k} map filter"] = obs(tf, lambda: D.range(7).map(lambda v: v * 2).filter(
            lambda v: v % 3 > 0).prefetch(k))
    return out
