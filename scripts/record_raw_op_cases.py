"""Record one valid `tf.raw_ops` call per raw op simdist implements, from real TF 2.21 (clause ops.raw-ops).

The calls are TF's own: every spec of the per-op test matrix (tests/ops/specs_*.py) runs under real
TF eagerly, forward and gradient, with TF's eager fast path (pywrap_tfe.TFE_Py_FastPathExecute)
and the wrappers' fallback (execute.execute, which the ops whose fast path declines take) wrapped
so that each op TF executes is noted with its inputs and attrs. For each raw op in
simdist's namespace the first noted call whose inputs are small and that `tf.raw_ops.<Op>(**kwargs)`
reproduces is kept (for an op no program calls, a handwritten call TF accepts, `handwritten`, or
plain synthesized inputs TF accepts, `synthesized`), as keyword arguments by TF's Python names, in
tests/ops/raw_op_cases.json
(arrays as dtype, shape and values; exact for every dtype). tests/ops/test_raw_ops_tf.py runs
them on both backends.

Run with real TensorFlow installed: `PYTHONPATH=. python scripts/record_raw_op_cases.py`.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "ops" / "raw_op_cases.json"
MAX_ELEMENTS = 4096


def encode(v: Any) -> Any:
    """A value as JSON: an array as {"dtype", "shape", "values"} (complex as [re, im] pairs, bytes
    as latin-1 text), a DType as {"dtype_name"}, lists element-wise, Python scalars as they are."""
    import tensorflow as tf
    if isinstance(v, tf.DType):
        return {"dtype_name": v.name}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, (tf.Tensor, np.ndarray)):
        a = np.asarray(v.numpy()) if isinstance(v, tf.Tensor) else v   # (a string scalar's numpy() is bytes)
        if isinstance(v, tf.Tensor) and v.dtype == tf.string:   # (as objects: NumPy's bytes_ drops trailing NULs)
            a = np.array(v.numpy(), dtype=object)
        dt = v.dtype.name if isinstance(v, tf.Tensor) else a.dtype.name
        flat = a.ravel().tolist()
        if a.dtype.kind == "c":
            flat = [[z.real, z.imag] for z in flat]
        elif a.dtype.kind in "SO":
            flat = [x.decode("latin-1") if isinstance(x, bytes) else x for x in flat]
        elif dt == "bfloat16":
            flat = [float(x) for x in a.astype(np.float32).ravel()]
        return {"dtype": dt, "shape": list(a.shape), "values": flat}
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, tf.TensorShape):
        return None if v.rank is None else v.as_list()
    if isinstance(v, (np.generic,)):
        return v.item()
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError(f"cannot record {type(v).__name__}")


def _specs() -> list[Any]:
    sys.path.insert(0, str(ROOT / "tests" / "ops"))
    sys.path.insert(0, str(ROOT / "tests"))
    out = []
    for p in sorted((ROOT / "tests" / "ops").glob("specs_*.py")):
        m = importlib.import_module(p.stem)
        out += getattr(m, "SPECS", [])
    return out


def _edge_cases(module: str) -> list[Any]:
    """The `fn(tf)` of every case of a tests/ops or tests/runtime test_*_tf.py module that lists CASES
    (name, clause, fn) or PROGRAMS (name, fn)."""
    for sub in ("runtime", "ops"):
        sys.path.insert(0, str(ROOT / "tests" / sub))
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        m = importlib.import_module(module)
    except Exception:   # noqa: BLE001 - a module that needs what this process lacks
        return []
    return [case[-1] for case in (*getattr(m, "CASES", []), *getattr(m, "PROGRAMS", []))
            if isinstance(case, tuple) and case and callable(case[-1])]


def synthesized(ops: list[str]) -> dict[str, Any]:
    """For raw ops no program called: the first of a few plain inputs (every input the same 2x2
    float32, int32, bool, string or complex64 tensor; required attrs none) that TF's raw op accepts."""
    import tensorflow as tf
    from simdist.runtime.ops import raw_ops
    data = raw_ops.opdefs()["ops"]
    kinds = [np.array([[0.5, 1.5], [2.5, 0.25]], np.float32), np.array([[1, 2], [3, 0]], np.int32),
             np.array([[True, False], [False, True]]), np.array([[b"Ab c", b"xY"], [b"", b"12"]], object),
             np.array([[0.5 + 1j, -1.5], [2j, 0.25 - 0.5j]], np.complex64)]
    out: dict[str, Any] = {}
    for op in ops:
        args = data[op]["args"]
        if any(a.get("required") and "attr" in a for a in args):
            continue
        for k in kinds:
            kw = {a["py"]: ([tf.constant(k), tf.constant(k)] if "number_attr" in a or "type_list_attr" in a
                            else tf.constant(k)) for a in args if "input" in a}
            try:
                getattr(tf.raw_ops, op)(**kw)
            except Exception:   # noqa: BLE001, S112 - TF refuses these inputs: the next kind
                continue
            out[op] = {n: encode(v) for n, v in kw.items()}
            break
    return out

# Raw ops whose TF 2.21 build registers no CPU kernel: their one call is refused (NotFoundError "Could
# not find device for node"), and the recorded case is that refusal (observed)
NO_CPU_KERNEL = ("Conv2DBackpropFilterV2", "Conv2DBackpropInputV2", "GenerateBoundingBoxProposals")


# Raw ops whose calls need files: their differential cases are tests/ops/test_raw_file_ops_tf.py's
ELSEWHERE = ("GenerateVocabRemapping", "MatchingFiles", "ReadFile", "WriteFile")

# Raw ops whose recorded program call could not tell a wrong binding (SparseReduceMax's was of an
# empty sparse tensor, which a sum and a max reduce alike): their handwritten call replaces it
HAND_FIRST = ("SparseReduceMax",)


def handwritten(tf: Any) -> dict[str, Any]:
    """For raw ops no program calls: small valid inputs written from the op's registration
    (tensorflow/core/ops/*.cc) and its kernel, each kept only if TF's raw op accepts it."""
    c = tf.constant
    i64 = tf.int64
    img = c(np.arange(54, dtype=np.float32).reshape(2, 3, 3, 3) / 54.0)
    conv = dict(input=c(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 10),
                filter=c(np.arange(54, dtype=np.float32).reshape(3, 3, 2, 3) / 20),
                out_backprop=c(np.arange(48, dtype=np.float32).reshape(1, 4, 4, 3) / 30),
                strides=[1, 1, 1, 1], padding="SAME")
    seg_grad = dict(grad=c([[1.0, 2.0], [3.0, 4.0]]), indices=c([0, 2, 2]), segment_ids=c([0, 0, 1]),
                    dense_output_dim0=c(4))
    seg = dict(data=c([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), indices=c([0, 2, 1]), segment_ids=c([0, 0, 2]),
               num_segments=c(4))
    key, counter = tf.raw_ops.StatelessRandomGetKeyCounter(seed=c([3, 4]))

    def example(**features: list) -> bytes:
        kinds = {int: "int64_list", float: "float_list", bytes: "bytes_list"}
        make = {"int64_list": tf.train.Int64List, "float_list": tf.train.FloatList, "bytes_list": tf.train.BytesList}
        feats = {k: tf.train.Feature(**{kinds[type(v[0])]: make[kinds[type(v[0])]](value=v)})
                 for k, v in features.items()}
        return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()

    def sequence_example(full: bool = True) -> bytes:
        from tensorflow.core.example import example_pb2
        se = example_pb2.SequenceExample()
        se.context.feature["d"].float_list.value.extend([2.5 if full else 1.5])
        if full:
            se.context.feature["c"].int64_list.value.extend([4, 5])
            for v in ([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]):
                se.feature_lists.feature_list["f"].feature.add().float_list.value.extend(v)
            for w in ([b"a"], [b"b", b"c"]):
                se.feature_lists.feature_list["g"].feature.add().bytes_list.value.extend(w)
        return se.SerializeToString()
    jpeg = tf.io.encode_jpeg(c(((np.arange(8 * 8 * 3) * 37) % 256).astype(np.uint8).reshape(8, 8, 3)))
    fq = dict(inputs=c([[-1.0, 0.3, 2.0], [0.5, -0.2, 7.0]]), min=c([-1.0, -0.5, 0.0]), max=c([1.0, 0.5, 6.0]))
    return {
        "AdjustContrastv2": dict(images=img, contrast_factor=c(1.5)),
        "AdjustHue": dict(images=img, delta=c(0.2)),
        "AdjustSaturation": dict(images=img, scale=c(0.7)),
        "Conv2DBackpropFilterV2": conv,
        "Conv2DBackpropInputV2": conv,
        "DecodeBase64": dict(input=c([b"aGVsbG8", b"d29ybGQ_-w", b""])),
        "DecodePaddedRaw": dict(input_bytes=c([b"\x01\x02\x03\x04\x05", b"\xff\x00"]), fixed_length=c(4),
                                out_type=tf.int16, little_endian=False),
        "DecodeRaw": dict(bytes=c([b"\x01\x02\x03\x04", b"\xff\x00\x10\x20"]), out_type=tf.int16),
        "FakeQuantWithMinMaxVarsPerChannel": fq,
        "QuantizeV2": dict(input=c([[-1.5, -0.25, 0.0], [0.3, 0.75, 2.0]]), min_range=c([-1.0, -0.5, 0.0]),
                           max_range=c([1.0, 0.5, 1.5]), T=tf.qint8, mode="SCALED", axis=1),
        "Dequantize": dict(input=tf.bitcast(c([0, 7, 128, 255], tf.uint8), tf.quint8), min_range=c(-1.0),
                           max_range=c(3.0), mode="MIN_COMBINED"),
        "FakeQuantWithMinMaxVarsPerChannelGradient": dict(gradients=c([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), **fq,
                                                          num_bits=4, narrow_range=True),
        "FractionalAvgPoolGrad": dict(orig_input_tensor_shape=c([1, 4, 4, 1], i64),
                                      out_backprop=c(np.arange(4, dtype=np.float32).reshape(1, 2, 2, 1)),
                                      row_pooling_sequence=c([0, 2, 4], i64), col_pooling_sequence=c([0, 1, 4], i64),
                                      overlapping=True),
        "MatrixSolveLs": dict(matrix=c([[2.0, 0.5], [0.25, 3.0], [1.0, -1.0]]), rhs=c([[1.0], [2.0], [3.0]]),
                              l2_regularizer=c(0.1, tf.float64), fast=True),
        "ParseTensor": dict(serialized=tf.io.serialize_tensor(c([[1, 2], [3, 4]])), out_type=tf.int32),
        "RandomGamma": dict(shape=c([3]), alpha=c([0.5, 2.0]), seed=5, seed2=9),
        "StatelessRandomGammaV3": dict(shape=c([3, 2]), key=key, counter=counter, alg=c(1), alpha=c([0.5, 2.0])),
        "RandomShuffle": dict(value=c([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), seed=3, seed2=4),
        "StatelessShuffle": dict(value=c([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]), key=key, counter=counter, alg=c(1)),
        "StatelessRandomBinomial": dict(shape=c([3, 2]), seed=c([1, 2]), counts=c([5.0, 10.0]),
                                        probs=c([0.3, 0.6]), dtype=tf.int32),
        "StatelessParameterizedTruncatedNormal": dict(shape=c([3, 2]), seed=c([1, 2]), means=c([0.0, 1.0]),
                                                      stddevs=c([1.0, 2.0]), minvals=c([-1.0, 0.0]),
                                                      maxvals=c([1.0, 3.0])),
        "AllCandidateSampler": dict(true_classes=c([[1, 2], [0, 3]], i64), num_true=2, num_sampled=4, unique=True,
                                    seed=1, seed2=2),
        "FixedUnigramCandidateSampler": dict(true_classes=c([[1, 2], [0, 3]], i64), num_true=2, num_sampled=3,
                                             unique=True, range_max=5, unigrams=[1.0, 2.0, 3.0, 4.0, 5.0], seed=1,
                                             seed2=2),
        "SparseReduceMax": dict(input_indices=c([[0, 0], [0, 1], [1, 1], [2, 0]], i64),
                                input_values=c([1.0, 5.0, -2.0, 3.0]), input_shape=c([3, 2], i64),
                                reduction_axes=c([1]), keep_dims=False),
        "SparseReduceMaxSparse": dict(input_indices=c([[0, 0], [0, 1], [1, 1], [2, 0]], i64),
                                      input_values=c([1.0, 5.0, -2.0, 3.0]), input_shape=c([3, 2], i64),
                                      reduction_axes=c([0]), keep_dims=True),
        "SparseSplit": dict(split_dim=c(1, i64), indices=c([[0, 0], [0, 3], [1, 1], [1, 4]], i64),
                            values=c([1.0, 2.0, 3.0, 4.0]), shape=c([2, 5], i64), num_split=2),
        "SparseConcat": dict(indices=[c([[0, 0], [1, 1]], i64), c([[0, 1]], i64)], values=[c([1, 2]), c([3])],
                             shapes=[c([2, 2], i64), c([2, 3], i64)], concat_dim=1),
        "SparseCross": dict(indices=[c([[0, 0], [1, 0], [1, 1]], i64)], values=[c([b"a", b"b", b"c"])],
                            shapes=[c([2, 2], i64)], dense_inputs=[c([[7], [8]], i64)], hashed_output=True,
                            num_buckets=100, hash_key=956888297470, out_type=i64, internal_type=i64),
        "SparseCrossV2": dict(indices=[c([[0, 0], [1, 0], [1, 1]], i64)], values=[c([b"a", b"b", b"c"])],
                              shapes=[c([2, 2], i64)], dense_inputs=[c([[b"x"], [b"y"]])], sep=c("_Y_")),
        "StringNGrams": dict(data=c([b"a", b"b", b"c", b"d", b"e"]), data_splits=c([0, 3, 3, 5], i64), separator="+",
                             ngram_widths=[1, 2, 3], left_pad="<", right_pad=">", pad_width=1,
                             preserve_short_sequences=False),
        "StringSplit": dict(input=c([b"a b,,c", b"", b"xy, "]), delimiter=c(" ,"), skip_empty=False),
        "DecodeCSV": dict(records=c([b"1,2.5,x", b",,y"]), record_defaults=[c([9]), c([0.5]), c([b"d"])],
                          field_delim=",", use_quote_delim=True, na_value="", select_cols=[]),
        "DecodeJpeg": dict(contents=jpeg, channels=3, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                           acceptable_fraction=1.0, dct_method=""),
        "DecodeAndCropJpeg": dict(contents=jpeg, crop_window=c([0, 0, 3, 5]), channels=0, ratio=1,
                                  fancy_upscaling=True, try_recover_truncated=False, acceptable_fraction=1.0,
                                  dct_method=""),
        "GenerateBoundingBoxProposals": dict(scores=c(np.ones([1, 2, 2, 1], np.float32)),
                                             bbox_deltas=c(np.zeros([1, 2, 2, 4], np.float32)),
                                             image_info=c([[8.0, 8.0, 1.0, 8.0, 8.0]]),
                                             anchors=c([[[0.0, 0.0, 4.0, 4.0]]]), nms_threshold=c(0.7),
                                             pre_nms_topn=c(10), min_size=c(1.0), post_nms_topn=5),
        "ParseExampleV2": dict(serialized=c([example(a=[1, 2, 3], b=[0.5], s=[b"x", b"yz"], v=[1.0, 2.0, 3.0, 4.0]),
                                             example(a=[7], b=[1.5], v=[5.0, 6.0])]),
                               names=c([], tf.string), sparse_keys=c(["a"]), dense_keys=c(["b", "v", "m"]),
                               ragged_keys=c(["s"]), dense_defaults=[c([0.0]), c(-1.0), c([9, 8], i64)],
                               num_sparse=1, sparse_types=[i64], ragged_value_types=[tf.string],
                               ragged_split_types=[tf.int32], dense_shapes=[[1], [None, 2], [2]]),
        "ParseSequenceExampleV2": dict(
            serialized=c([sequence_example(), sequence_example(full=False)]), debug_name=c([], tf.string),
            context_sparse_keys=c(["c"]), context_dense_keys=c(["d"]), context_ragged_keys=c([], tf.string),
            feature_list_sparse_keys=c(["g"]), feature_list_dense_keys=c(["f"]),
            feature_list_ragged_keys=c([], tf.string), feature_list_dense_missing_assumed_empty=c([True]),
            context_dense_defaults=[c([0.0])], Ncontext_sparse=1, context_sparse_types=[i64],
            context_ragged_value_types=[], context_ragged_split_types=[], context_dense_shapes=[[1]],
            Nfeature_list_sparse=1, Nfeature_list_dense=1, feature_list_dense_types=[tf.float32],
            feature_list_sparse_types=[tf.string], feature_list_ragged_value_types=[],
            feature_list_ragged_split_types=[], feature_list_dense_shapes=[[2]]),
        "RandomPoissonV2": dict(shape=c([3]), rate=c([1.0, 4.0]), seed=7, seed2=3, dtype=i64),
        "SparseAddGrad": dict(backprop_val_grad=c([1.0, 2.0, 3.0]), a_indices=c([[0, 0], [1, 1]], i64),
                              b_indices=c([[0, 0], [0, 1]], i64), sum_indices=c([[0, 0], [0, 1], [1, 1]], i64)),
        "SparseDenseCwiseAdd": dict(sp_indices=c([[0, 0], [1, 1]], i64), sp_values=c([1.0, 2.0]),
                                    sp_shape=c([2, 2], i64), dense=c([[10.0, 20.0], [30.0, 40.0]])),
        "SparseFillEmptyRowsGrad": dict(reverse_index_map=c([0, 2], i64), grad_values=c([1.0, 2.0, 3.0, 4.0])),
        "SparseSegmentMeanGradV2": seg_grad,
        "SparseSegmentMeanWithNumSegments": seg,
        "SparseSegmentSqrtNGradV2": seg_grad,
        "SparseSegmentSqrtNWithNumSegments": seg,
        "SparseSegmentSumGradV2": seg_grad,
        "SparseSliceGrad": dict(backprop_val_grad=c([1.0, 2.0]), input_indices=c([[0, 0], [1, 1], [2, 2]], i64),
                                input_start=c([1, 0], i64), output_indices=c([[0, 1], [1, 2]], i64)),
        "StatelessRandomPoisson": dict(shape=c([3, 2]), seed=c([1, 2]), lam=c([1.0, 4.0]), dtype=tf.float32),
        # (a 2x1 GIF of a 4-color global palette, pixels 1 and 2: tests/ops/gif_fixtures.py's writer)
        "DecodeGif": dict(contents=c(b"GIF89a\x02\x00\x01\x00\x81\x00\x00\xff\x00\x00\x00\xff\x00\x00\x00\xff"
                                     b"\xff\xff\xff,\x00\x00\x00\x00\x02\x00\x01\x00\x00\x02\x02\x8c\n\x00;")),
    }


def recorded_by_hand(ops: list[str]) -> dict[str, Any]:
    """The handwritten calls of `ops` that TF's raw op accepts (or, for NO_CPU_KERNEL, refuses as
    it refuses every call), encoded."""
    import tensorflow as tf
    out: dict[str, Any] = {}
    cases = handwritten(tf)
    for op in ops:
        kw = cases.get(op)
        if kw is None:
            continue
        try:
            getattr(tf.raw_ops, op)(**kw)
        except tf.errors.NotFoundError:
            if op not in NO_CPU_KERNEL:
                continue
        except Exception:   # noqa: BLE001, S112 - TF refuses the call: not recorded
            continue
        out[op] = {n: encode(v) for n, v in kw.items()}
    return out


def main() -> None:
    """Each source of calls in its own TF process (an edge case may abort TF), then merged:
    the specs first, then each differential module while some op lacks a call."""
    import subprocess
    from simdist.runtime.ops import raw_ops
    import simdist.tf  # noqa: F401
    from simdist.runtime.ops import raw_functional, raw_legacy, raw_resource_ops
    # (no call of raw_legacy's REFUSED, nor an eager one of an op with a tensor attr, can succeed; ELSEWHERE's calls
    # need files; the function-calling ops' func attrs are concrete functions, which JSON does not hold)
    wanted = set(raw_ops.bound_names()) - set(raw_legacy.REFUSED) - set(ELSEWHERE) - set(raw_ops.eager_refused()) \
        - set(raw_functional.NAMES) - set(raw_resource_ops.NAMES)   # (handles name variables: test_res40_tf.py)
    # (incremental: the calls already recorded for raw ops still in the namespace are kept; --fresh drops them)
    old = {} if "--fresh" in sys.argv or not OUT.exists() else json.loads(OUT.read_text())
    cases: dict[str, Any] = {k: v for k, v in old.items() if k in wanted and k not in HAND_FIRST}
    parts = ["hand", "specs"] + [p.stem for sub in ("ops", "runtime")
                         for p in sorted((ROOT / "tests" / sub).glob("test_*_tf.py"))
                         if p.stem != "test_raw_ops_tf"] + ["synth"]
    if "--parts" in sys.argv:   # (a chosen order of sources; the rest after them)
        first = sys.argv[sys.argv.index("--parts") + 1].split(",")
        parts = first + [p for p in parts if p not in first]
    for part in parts:
        if wanted <= set(cases):
            break
        try:
            r = subprocess.run([sys.executable, __file__, part, ",".join(sorted(wanted - set(cases)))],
                               capture_output=True, text=True, errors="replace", timeout=240, cwd=ROOT)
        except subprocess.TimeoutExpired:
            print(f"{part}: timed out", file=sys.stderr)
            continue
        lines = r.stdout.strip().splitlines()
        got = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
        for k, v in got.items():
            cases.setdefault(k, v)
        print(f"{part}: {len(got)} ops (exit {r.returncode})", file=sys.stderr, flush=True)
        OUT.write_text(json.dumps(dict(sorted(cases.items())), indent=0, sort_keys=True) + "\n")
    OUT.write_text(json.dumps(dict(sorted(cases.items())), indent=0, sort_keys=True) + "\n")
    missing = sorted(wanted - set(cases))
    print(f"{OUT}: {len(cases)} of {len(wanted)} raw ops; none recorded for {len(missing)}: {missing}", file=sys.stderr)


def part(source: str, ops: list[str]) -> None:
    if source == "synth":
        print(json.dumps(synthesized(ops)))
        return
    if source == "hand":
        print(json.dumps(recorded_by_hand(ops)))
        return
    import tensorflow as tf
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.framework import op_def_registry

    from simdist.runtime.ops import raw_ops
    wanted = set(ops)
    data = raw_ops.opdefs()["ops"]
    seen: dict[str, list[dict[str, Any]]] = {}
    original = pywrap_tfe.TFE_Py_FastPathExecute

    def noted(ctx: Any, op_name: str, name: Any, *flat: Any) -> Any:
        if op_name in wanted and len(seen.get(op_name, ())) < 4:
            try:
                seen.setdefault(op_name, []).append(_kwargs(op_name, flat))
            except Exception:   # noqa: BLE001 - a call the note cannot read is skipped
                pass
        return original(ctx, op_name, name, *flat)

    def _kwargs(op_name: str, flat: tuple) -> dict[str, Any]:
        od = op_def_registry.get(op_name)
        n = len(od.input_arg)
        by_op = {a.get("input", a.get("attr")): a["py"] for a in data[op_name]["args"]}
        kw: dict[str, Any] = {}
        for arg, v in zip(od.input_arg, flat[:n]):
            vals = [tf.convert_to_tensor(x) for x in v] if isinstance(v, (list, tuple)) else tf.convert_to_tensor(v)
            size = sum(int(np.prod(x.shape)) for x in (vals if isinstance(vals, list) else [vals]))
            if size > MAX_ELEMENTS:
                raise ValueError("too large")
            kw[by_op[arg.name]] = vals
        rest = flat[n:]
        for k in range(0, len(rest), 2):
            attr, v = rest[k], rest[k + 1]
            if attr in by_op:
                kw[by_op[attr]] = tf.as_dtype(v) if any(a.get("attr") == attr and a["type"] == "type"
                                                        for a in data[op_name]["args"]) else v
        return kw

    def _kwargs_slow(op_name: str, inputs: list, attrs: tuple) -> dict[str, Any]:
        """The keyword arguments of a call through the wrappers' fallback (execute.execute: its
        inputs flat, a list input's tensors one after another; its attrs (name, value, ...) pairs)."""
        od = op_def_registry.get(op_name)
        given = dict(zip(attrs[0::2], attrs[1::2]))
        flat: list[Any] = []
        k = 0
        for arg in od.input_arg:
            n = given[arg.number_attr] if arg.number_attr else len(given[arg.type_list_attr]) \
                if arg.type_list_attr else None
            flat.append(list(inputs[k:k + n]) if n is not None else inputs[k])
            k += 1 if n is None else n
        return _kwargs(op_name, tuple(flat) + tuple(x for kv in given.items() for x in kv))

    from tensorflow.python.eager import execute as _execute
    slow = _execute.execute

    def noted_slow(op_name: Any, num_outputs: int, inputs: Any, attrs: Any, ctx: Any, name: Any = None) -> Any:
        op = op_name.decode() if isinstance(op_name, bytes) else op_name
        if op in wanted and len(seen.get(op, ())) < 4:
            try:
                seen.setdefault(op, []).append(_kwargs_slow(op, list(inputs), tuple(
                    a.decode() if isinstance(a, bytes) and i % 2 == 0 else a for i, a in enumerate(attrs or ()))))
            except Exception:   # noqa: BLE001 - a call the note cannot read is skipped
                pass
        return slow(op_name, num_outputs, inputs, attrs, ctx, name)

    pywrap_tfe.TFE_Py_FastPathExecute = noted
    _execute.execute = noted_slow
    rng_seed = 0
    try:
        for spec in (_specs() if source == "specs" else []):
            rng = np.random.default_rng(rng_seed)
            dt = spec.dtypes[0] if spec.dtypes else np.float32
            try:
                inputs = spec.make(rng, dt)
                args = [tf.constant(x) for x in inputs]
                with tf.GradientTape(persistent=True) as tape:
                    for i in spec.diff:
                        if i < len(args) and args[i].dtype.is_floating:
                            tape.watch(args[i])
                    out = spec.fn(tf, *args)
                if spec.grad and spec.diff:
                    srcs = [args[i] for i in spec.diff if i < len(args)]
                    tape.gradient(out, srcs)
            except Exception:   # noqa: BLE001 - a spec TF refuses notes nothing more
                pass
        for fn in ([] if source == "specs" else _edge_cases(source)):
            if wanted <= set(seen):
                break
            try:
                fn(tf)
            except Exception:   # noqa: BLE001 - an error case notes its ops all the same
                pass
    finally:
        pywrap_tfe.TFE_Py_FastPathExecute = original
        _execute.execute = slow
    cases: dict[str, Any] = {}
    for op_name in sorted(seen):
        for kw in seen[op_name]:
            try:
                getattr(tf.raw_ops, op_name)(**kw)
            except Exception:   # noqa: BLE001 - not reproducible as a raw call: the next one
                continue
            try:
                cases[op_name] = {k: encode(v) for k, v in kw.items()}
            except TypeError:
                continue
            break
    print(json.dumps(cases))


if __name__ == "__main__":
    if len(sys.argv) > 2 and not sys.argv[1].startswith("--"):
        part(sys.argv[1], sys.argv[2].split(","))
    else:
        main()
