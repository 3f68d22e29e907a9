"""The preprocessing sweep's programs (test_psweep59.py, fifty-ninth session): Keras's preprocessing layers and the
keras.utils data tools crossed by rule, each with its defaults (arguments omitted) and each option off its default,
one at a time, recorded bit for bit on TF 2.21.

What is crossed (earlier modules test these layers case by case — harden16/19, survey21, the blind gaps programs —
and lsweep57 took the Normalization layer's axes and given statistics in float32; none crosses an option by rule):
- Discretization: bin_boundaries (values on them, -0.0, NaN, ±inf) and num_bins adapted on 1, 7, 500, 1000 and 1001
  values (an array and a batched dataset) at epsilon 0.001, 0.01 (omitted), 0.03, 0.1, 0.5, each output_mode (int,
  one_hot, multi_hot, count; sparse), the adapted boundaries;
- Normalization: adapt on 1, 7 and 1001 rows (arrays and batched datasets, float32 and float64), the variance's
  floor, invert, a float64 layer, a float16 input;
- IntegerLookup/StringLookup: vocabulary from a list, a file and adapt (with frequency ties), every output_mode,
  num_oov_indices 0/1/2, mask_token, oov_token, max_tokens, pad_to_max_tokens, sparse, invert, idf_weights given and
  adapted, the vocabulary read back;
- Hashing (num_bins 1/3/1024, salt int and pair, mask_value, every output_mode, sparse; strings, int32, int64),
  HashedCrossing (num_bins, one_hot, sparse), CategoryEncoding (every output_mode, count_weights, sparse, ranks);
- TextVectorization: each standardize (and a callable), each split (and a callable), ngrams 2 and (1, 3), every
  output_mode, output_sequence_length shorter and longer, pad_to_max_tokens, max_tokens, ragged, vocabulary given,
  idf_weights, text with apostrophes, punctuation runs and non-ASCII letters;
- image layers: Rescaling with an offset (float and integer inputs), Resizing with each interpolation and
  crop_to_aspect_ratio / pad_to_aspect_ratio, CenterCrop smaller and larger, RandomCrop/Flip/Rotation/Translation/
  Zoom/Contrast/Brightness with explicit seeds, each fill mode, in training and in inference, in tf.data .map;
- FeatureSpace: every feature kind, crosses, output_mode concat and dict, saved and reloaded;
- keras.utils: normalize of arrays and tensors (float32/float64) at orders 1, 2, 3 and along each axis,
  to_categorical, pad_sequences with every option, timeseries_dataset_from_array, split_dataset, set_random_seed and
  the draws after it.

Inputs are seeded NumPy arithmetic (recorded_programs.rng). Each program returns a dict of cases; a tensor as [dtype,
shape, values] with floats as the hex of their exact value, strings decoded; a failure as "raised <class>".
TF 2.21's answers are recorded by `python -m simdist.conformance.suite.test_psweep59 --record` on this session's
AVX-512 Xeon with oneDNN on. Host-dependent (HOST): the programs whose floats come from a reduction or an
interpolation Eigen vectorizes (adapt's statistics, normalize, the image layers): simdist runs them under its
reference model of the recording host."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error, plain,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "psweep59_reference.json.gz")

HOST = ("p-disc-", "p-norm-", "p-img-", "p-util-normalize", "p-fs-")
REF = RecordedPrograms(PATH, host_dependent=HOST, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out of the
#: comparison (each replaced by "left out (OPEN)"); the evidence in docs/conformance.md ("Fifty-ninth session ...
#: (psweep59)")
OPEN: dict[str, tuple[str, ...]] = {
    # timeseries_dataset_from_array with no window (sequence_length past the data's end): TF 2.21 gives an empty
    # dataset; simdist raises ValueError "slice index 0 of dimension 0 out of bounds" when it builds the map
    # `positions[i]` over an empty start-positions vector: its spec probe indexes with the probe's value of i, and
    # simdist marks a StridedSlice index out of range as the shape function's (trace-time) error even when the index
    # is a tensor, where TF's shape function sees no constant and the kernel would only fail at run time
    "p-util-data": ("ts-too-long", "ts-end-short"),
}


def enc(x: Any) -> Any:
    """A value as JSON: tensors as [dtype, shape, values] (floats as hex, strings decoded), ragged and sparse tensors
    by their parts, dicts/lists elementwise."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, (int, float)):
        return plain(x)
    if isinstance(x, dict):
        return {str(k): enc(v) for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    cls = type(x).__name__
    if "Ragged" in cls:
        return ["ragged", enc(x.flat_values), [enc(s) for s in x.nested_row_splits]]
    if "Sparse" in cls:
        return ["sparse", enc(x.indices), enc(x.values), enc(x.dense_shape)]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind in "OSU":
        vals: Any = [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in a.ravel().tolist()]
    elif a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        vals = [float(v).hex() for v in a.astype(np.float64).ravel()]
    else:
        vals = [v if isinstance(v, bool) else int(v) for v in a.ravel().tolist()]
    return [a.dtype.name, list(a.shape), vals]


def program(name: str, fn: Callable[[Any, Any], dict[str, Callable[[], Any]]]) -> None:
    """Register a program: fn gives its cases (key -> thunk); each is run on its own, its value or error class."""
    def run(tf: Any, mk: Any) -> Any:
        cases = error(lambda: fn(tf, mk))
        if isinstance(cases, str):
            return {"program": cases}
        out = {}
        for key, thunk in cases.items():
            out[key] = "left out (OPEN)" if key in OPEN.get(name, ()) else error(lambda t=thunk: enc(t()))
        return out
    REF.add(name, run)


def arr(name: str, shape: tuple[int, ...], scale: float = 1.0, dt: str = "float32") -> np.ndarray:
    return (rng(name).uniform(-1.0, 1.0, size=shape) * scale).astype(dt)


def spec(t: Any) -> Any:
    """A symbolic output's dtype and static shape."""
    return [str(getattr(t.dtype, "name", t.dtype)), [None if d is None else int(d) for d in t.shape]]


class tmpdir:
    """A temporary directory for a program's files (removed after)."""

    def __enter__(self) -> str:
        self.d = tempfile.mkdtemp(prefix="psweep59_")
        return self.d

    def __exit__(self, *a: Any) -> None:
        shutil.rmtree(self.d, ignore_errors=True)


# -- 1. Discretization ---------------------------------------------------------------------------------------------
SPECIAL = [-1.0, 0.0, -0.0, 1.5, 1.4999999, -1.0000001, 2.0, float("nan"), float("inf"), float("-inf"), 0.75, -3.0]


def _disc_given(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    x = tf.constant(np.array(SPECIAL, "float32").reshape(3, 4))
    x1 = tf.constant(np.array([-1.0, 0.5, 1.5, 7.0], "float32"))
    xd = tf.constant(np.array(SPECIAL, "float64").reshape(3, 4))
    bb = [-1.0, 0.0, 1.5]
    cases: dict[str, Callable[[], Any]] = {
        "int": lambda: L.Discretization(bin_boundaries=bb, name="pd")(x),
        "int-f64": lambda: L.Discretization(bin_boundaries=bb, name="pd")(xd),
        "int-int-input": lambda: L.Discretization(bin_boundaries=bb, name="pd")(tf.constant([[-2, 0, 1, 2]])),
        "empty-boundaries": lambda: L.Discretization(bin_boundaries=[], name="pd")(x),
        "none": lambda: L.Discretization(name="pd")(x),
        "both": lambda: L.Discretization(bin_boundaries=bb, num_bins=3, name="pd")(x),
        "config": lambda: plain(L.Discretization(bin_boundaries=bb, name="pd").get_config()),
        "zero-bins": lambda: L.Discretization(num_bins=0, name="pd"),
    }
    for mode in ("int", "one_hot", "multi_hot", "count"):
        for shp in ((), (3,), (2, 3)):
            cases[f"symbolic-{mode}-{len(shp)}"] = lambda mode=mode, shp=shp: spec(L.Discretization(
                bin_boundaries=bb, output_mode=mode, name="pd")(tf.keras.Input(shape=shp)))
    for mode in ("one_hot", "multi_hot", "count"):
        cases[mode] = lambda mode=mode: L.Discretization(bin_boundaries=bb, output_mode=mode, name="pd")(x1)
        cases[f"{mode}-2d"] = lambda mode=mode: L.Discretization(bin_boundaries=bb, output_mode=mode, name="pd")(x)
        cases[f"{mode}-sparse"] = lambda mode=mode: L.Discretization(bin_boundaries=bb, output_mode=mode, sparse=True,
                                                                     name="pd")(x1)
    return cases


def _disc_adapt(n: int) -> Callable[[Any, Any], dict[str, Callable[[], Any]]]:
    def fn(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
        L = tf.keras.layers
        r = rng(f"disc{n}")
        data = (r.uniform(-3.0, 5.0, size=n) + (r.randint(0, 4, size=n) == 0) * 2.0).astype("float32")
        data[::5] = np.round(data[::5])   # ties
        x = tf.constant(np.linspace(-4.0, 6.0, 11).astype("float32"))

        def one(eps: Any, bins: int, src: str, mode: str = "int") -> Any:
            kw = {} if eps is None else {"epsilon": eps}
            layer = L.Discretization(num_bins=bins, output_mode=mode, name="pd", **kw)
            if src == "array":
                layer.adapt(data)
            elif src == "2d":
                layer.adapt(data.reshape(-1, 1))
            else:
                layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(64))
            return {"boundaries": plain(list(layer.bin_boundaries)), "y": layer(x)}
        cases: dict[str, Callable[[], Any]] = {}
        for eps in (None, 0.001, 0.03, 0.1, 0.5):
            for bins in (2, 4, 7):
                cases[f"eps{eps}-bins{bins}"] = lambda eps=eps, bins=bins: one(eps, bins, "array")
        cases["dataset-bins4"] = lambda: one(None, 4, "dataset")
        cases["dataset-eps0.03-bins5"] = lambda: one(0.03, 5, "dataset")
        cases["2d-bins3"] = lambda: one(None, 3, "2d")
        cases["count-bins4"] = lambda: one(None, 4, "array", "count")
        cases["bins1"] = lambda: one(None, 1, "array")

        def twice() -> Any:
            layer = L.Discretization(num_bins=4, name="pd")
            layer.adapt(data)
            first = plain(list(layer.bin_boundaries))
            layer.adapt(data[: max(1, n // 2)] * 3.0 + 10.0)
            return {"first": first, "second": plain(list(layer.bin_boundaries)), "y": layer(x)}
        cases["adapt-twice"] = twice
        return cases
    return fn


# -- 2. Normalization (what lsweep57 leaves: sizes, dtypes, batched adapt) ---------------------------------------------
def _norm(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    cases: dict[str, Callable[[], Any]] = {}
    for n in (1, 7, 1001):
        for dt in ("float32", "float64"):
            data = (arr(f"nrm{n}{dt}", (n, 3), 2.0, dt) + np.array([0.5, -30.0, 1000.0], dt)).astype(dt)
            x = tf.constant(data[:3])

            def one(src: str, data: Any = data, x: Any = x, kw: Any = None) -> Any:
                layer = L.Normalization(name="pn", **(kw or {}))
                layer.adapt(data if src == "array" else tf.data.Dataset.from_tensor_slices(data).batch(64))
                return {"mean": layer.mean, "variance": layer.variance, "y": layer(x)}
            cases[f"n{n}-{dt}-array"] = lambda one=one: one("array")
            cases[f"n{n}-{dt}-dataset"] = lambda one=one: one("dataset")
            cases[f"n{n}-{dt}-invert"] = lambda one=one: one("array", kw={"invert": True})
    xg = tf.constant(arr("nrmg", (4, 3), 3.0))
    cases["given-recip"] = lambda: L.Normalization(mean=[0.1, 0.2, 0.3], variance=[3.0, 0.7, 10.0], name="pn")(xg)
    cases["given-f64-layer"] = lambda: L.Normalization(mean=[0.1, 0.2, 0.3], variance=[3.0, 0.7, 10.0], dtype="float64",
                                                       name="pn")(xg)
    cases["given-f16-input"] = lambda: L.Normalization(mean=[0.1, 0.2, 0.3], variance=[3.0, 0.7, 10.0], name="pn")(
        tf.cast(xg, "float16"))
    cases["given-mixed"] = lambda: L.Normalization(mean=[0.1, 0.2, 0.3], variance=[3.0, 0.7, 10.0], name="pn",
                                                   dtype="mixed_float16")(xg)
    x3 = tf.constant(arr("nrm3", (2, 3, 4), 2.0))
    cases["given-3d-last"] = lambda: L.Normalization(mean=[0.1, 0.2, 0.3, 0.4], variance=[1.0, 2.0, 3.0, 4.0],
                                                     name="pn")(x3)
    cases["given-3d-axis1"] = lambda: L.Normalization(axis=1, mean=[0.1, 0.2, 0.3], variance=[1.0, 2.0, 3.0],
                                                      name="pn")(x3)
    cases["given-3d-axis-neg2"] = lambda: L.Normalization(axis=-2, mean=[0.5, -0.5, 0.0], variance=[2.0, 0.5, 1.0],
                                                          name="pn")(x3)
    cases["given-tiny-var"] = lambda: L.Normalization(mean=0.0, variance=1e-12, name="pn")(xg)
    # float64 data far from zero (a float32 mean or variance loses it), in float32 and float64 layers
    far = (1.0e6 + arr("nrmfar", (301, 2), 1.0e-3, "float64")).astype("float64")
    for ldt in ("float32", "float64"):
        for src in ("array", "tensor", "dataset"):
            def farcase(ldt: str = ldt, src: str = src) -> Any:
                layer = L.Normalization(dtype=ldt, name="pn")
                layer.adapt(far if src == "array" else tf.constant(far) if src == "tensor" else
                            tf.data.Dataset.from_tensor_slices(far).batch(50))
                return {"mean": layer.mean, "variance": layer.variance, "y": layer(tf.constant(far[:2]))}
            cases[f"far-{ldt}-{src}"] = farcase
    xy = tf.data.Dataset.from_tensor_slices((far.astype("float32") - 1.0e6, np.arange(301.0))).batch(64)
    cases["adapt-xy-dataset"] = lambda: (lambda n: (n.adapt(xy), [n.mean, n.variance])[1])(L.Normalization(name="pn"))
    return cases


# -- 3. IntegerLookup / StringLookup --------------------------------------------------------------------------------
WORDS = ["the", "cat", "sat", "on", "the", "mat", "dog", "cat", "the", "sun", "on", "dog", "ant", "zoo", "bee"]


def _lookup(kind: str) -> Callable[[Any, Any], dict[str, Callable[[], Any]]]:
    def fn(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
        L = tf.keras.layers
        s = kind == "string"
        Layer = L.StringLookup if s else L.IntegerLookup
        if s:
            data = np.array(WORDS)
            vocab = ["the", "cat", "sat", "dog"]
            x = tf.constant([["the", "cat", "zebra"], ["dog", "", "sat"]])
            mask = ""
            oov = "[OOV]"
        else:
            data = np.array([7, 3, 3, 9, 7, 3, 12, 9, 100, 5, 7, 12, 42, 1, 2], "int64")
            vocab = [7, 3, 9, 12]
            x = tf.constant(np.array([[7, 3, 55], [12, 0, 9]], "int64"))
            mask = 0
            oov = -7
        idf = [0.5, 1.25, 2.0, 0.75]

        def one(src: str = "list", call: Any = None, **kw: Any) -> Any:
            if src == "list":
                kw["vocabulary"] = vocab
            layer = Layer(name="pl", **kw)
            if src == "adapt":
                layer.adapt(data)
            elif src == "dataset":
                layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(4))
            elif src == "file":
                with tmpdir() as d:
                    p = os.path.join(d, "vocab.txt")
                    with open(p, "w") as f:
                        f.write("\n".join(str(v) for v in vocab) + "\n")
                    layer = Layer(name="pl", vocabulary=p, **kw)
                    return {"vocab": layer.get_vocabulary(), "y": layer(x)}
            y = layer(call if call is not None else x)
            return {"vocab": [str(v) for v in layer.get_vocabulary()], "size": layer.vocabulary_size(), "y": y}
        cases: dict[str, Callable[[], Any]] = {
            "list": lambda: one(), "adapt": lambda: one("adapt"), "dataset": lambda: one("dataset"),
            "file": lambda: one("file"),
            "oov0": lambda: one(num_oov_indices=0), "oov0-known": lambda: one(call=x[:1, :2], num_oov_indices=0),
            "oov2": lambda: one(num_oov_indices=2), "oov2-adapt": lambda: one("adapt", num_oov_indices=2),
        "oov3-mask": lambda: one(num_oov_indices=3, mask_token=mask),
        "oov3-mask-count": lambda: one(num_oov_indices=3, mask_token=mask, output_mode="count"),
            "mask": lambda: one(mask_token=mask), "mask-adapt": lambda: one("adapt", mask_token=mask),
            "oov-token": lambda: one(oov_token=oov),
            "max3-adapt": lambda: one("adapt", max_tokens=4), "max-pad": lambda: one("adapt", max_tokens=7,
                                                                                  pad_to_max_tokens=True,
                                                                                  output_mode="multi_hot"),
            "invert": lambda: one(call=tf.constant([[0, 1, 2], [4, 5, 3]], "int64"), invert=True),
            "invert-mask": lambda: one(call=tf.constant([[0, 1, 2], [4, 5, 3]], "int64"), invert=True,
                                       mask_token=mask),
            "tfidf": lambda: one(output_mode="tf_idf", idf_weights=idf),
            "tfidf-adapt": lambda: one("adapt", output_mode="tf_idf"),
            "tfidf-oov2": lambda: one(output_mode="tf_idf", idf_weights=idf, num_oov_indices=2),
            "config": lambda: plain(Layer(vocabulary=vocab, name="pl").get_config()),
        }
        for mode in ("one_hot", "multi_hot", "count"):
            cases[mode] = lambda mode=mode: one(output_mode=mode, call=x[0] if mode == "one_hot" else x)
            cases[f"{mode}-adapt"] = lambda mode=mode: one("adapt", output_mode=mode)
            cases[f"{mode}-sparse"] = lambda mode=mode: one(output_mode=mode, sparse=True,
                                                            call=x[0] if mode == "one_hot" else x)
            cases[f"{mode}-mask"] = lambda mode=mode: one(output_mode=mode, mask_token=mask,
                                                          call=x[0] if mode == "one_hot" else x)
        kdt = "string" if s else "int64"
        for mode in ("int", "one_hot", "multi_hot", "count", "tf_idf"):
            for pad in (False, True):
                def sym(mode: str = mode, pad: bool = pad) -> Any:
                    kw: dict[str, Any] = {"idf_weights": idf} if mode == "tf_idf" else {}
                    if pad:
                        kw.update(max_tokens=9, pad_to_max_tokens=True)
                    layer = Layer(vocabulary=vocab, output_mode=mode, name="pl", **kw)
                    return spec(layer(tf.keras.Input(shape=(3,), dtype=kdt)))
                cases[f"symbolic-{mode}{'-pad' if pad else ''}"] = sym
        cases["repeated-token"] = lambda: one(vocabulary=[vocab[0], vocab[1], vocab[0]], src="given")
        cases["no-vocab-pad-multi_hot"] = lambda: one(src="none", max_tokens=6, pad_to_max_tokens=True,
                                                      output_mode="multi_hot")
        cases["no-vocab-multi_hot"] = lambda: one(src="none", output_mode="multi_hot")
        cases["config-roundtrip"] = lambda: (lambda c: [plain(c), Layer.from_config(c)(x)])(
            Layer(vocabulary=vocab, num_oov_indices=2, mask_token=mask, output_mode="count", name="pl").get_config())
        cases["vocab-no-specials"] = lambda: [str(v) for v in Layer(vocabulary=vocab, mask_token=mask, name="pl")
                                              .get_vocabulary(include_special_tokens=False)]
        if not s:
            cases["int32-vocab"] = lambda: one(vocabulary_dtype="int32", call=tf.cast(x, "int32"))
        else:
            cases["ragged"] = lambda: one(call=tf.ragged.constant([["the", "sat"], ["zoo"], []]))
            cases["oov2-hash"] = lambda: one(num_oov_indices=2, call=tf.constant(["a", "b", "c", "dd", "eee", "cat"]))
        return cases
    return fn


# -- 4. Hashing, HashedCrossing, CategoryEncoding ---------------------------------------------------------------------
def _hashing(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    xs = {"str": tf.constant([["a", "bb", "ccc"], ["", "zebra", "a"]]),
          "i64": tf.constant(np.array([[0, 1, -5], [2**40, 77, 1]], "int64")),
          "i32": tf.constant(np.array([[0, 1, -5], [123456, 77, 1]], "int32"))}
    cases: dict[str, Callable[[], Any]] = {}
    for k, x in xs.items():
        for bins in (1, 3, 1024):
            cases[f"{k}-bins{bins}"] = lambda x=x, bins=bins: L.Hashing(num_bins=bins, name="ph")(x)
        cases[f"{k}-salt"] = lambda x=x: L.Hashing(num_bins=17, salt=133, name="ph")(x)
        cases[f"{k}-salt-pair"] = lambda x=x: L.Hashing(num_bins=17, salt=[7, 99], name="ph")(x)
        cases[f"{k}-mask"] = lambda x=x, k=k: L.Hashing(num_bins=5, mask_value="" if k == "str" else 1, name="ph")(x)
        for mode in ("one_hot", "multi_hot", "count"):
            cases[f"{k}-{mode}"] = lambda x=x, mode=mode: L.Hashing(num_bins=6, output_mode=mode, name="ph")(
                x[0] if mode == "one_hot" else x)
        cases[f"{k}-count-sparse"] = lambda x=x: L.Hashing(num_bins=6, output_mode="count", sparse=True, name="ph")(x)
    cases["float-input"] = lambda: L.Hashing(num_bins=5, name="ph")(tf.constant([1.5, -0.0]))
    cases["config-salt-roundtrip"] = lambda: (lambda c: [plain(c), L.Hashing.from_config(c)(xs["str"])])(
        L.Hashing(num_bins=17, salt=133, mask_value="a", output_mode="count", name="ph").get_config())
    cases["one_hot-column"] = lambda: L.Hashing(num_bins=5, output_mode="one_hot", name="ph")(
        tf.constant([["a"], ["bb"], ["c"]]))
    cases["one_hot-column-batch1"] = lambda: L.Hashing(num_bins=5, output_mode="one_hot", name="ph")(
        tf.constant([["a"]]))
    for mode in ("int", "one_hot", "multi_hot", "count"):
        cases[f"symbolic-{mode}"] = lambda mode=mode: spec(L.Hashing(num_bins=6, output_mode=mode, name="ph")(
            tf.keras.Input(shape=(3,), dtype="string")))
    r = tf.ragged.constant([["a", "b"], ["c"], []])
    ri = tf.ragged.constant([[1, 5], [7]], dtype="int64")
    sp = tf.sparse.from_dense(tf.constant([["a", ""], ["", "zz"]]))
    spi = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=tf.constant([3, 9], "int64"), dense_shape=[3, 2])
    cases.update({
        "ragged": lambda: L.Hashing(num_bins=9, name="ph")(r),
        "ragged-mask": lambda: L.Hashing(num_bins=9, mask_value="b", name="ph")(r),
        "ragged-int-salt": lambda: L.Hashing(num_bins=9, salt=3, name="ph")(ri),
        "ragged-multi_hot": lambda: L.Hashing(num_bins=4, output_mode="multi_hot", name="ph")(r),
        "ragged-count": lambda: L.Hashing(num_bins=4, output_mode="count", name="ph")(ri),
        "sparse": lambda: L.Hashing(num_bins=9, name="ph")(sp),
        "sparse-int-mask": lambda: L.Hashing(num_bins=9, mask_value=9, name="ph")(spi),
        "sparse-salt-pair": lambda: L.Hashing(num_bins=9, salt=[1, 2], name="ph")(spi),
        "sparse-count": lambda: L.Hashing(num_bins=5, output_mode="count", name="ph")(spi),
    })
    return cases


def _crossing(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    a = tf.constant(np.array([1, 2, 3, 4], "int64"))
    b = tf.constant(["x", "y", "x", "zz"])
    a2 = tf.constant(np.array([[1], [2], [3], [4]], "int64"))
    b2 = tf.constant([["x"], ["y"], ["x"], ["zz"]])
    cases: dict[str, Callable[[], Any]] = {}
    for bins in (1, 5, 1000):
        cases[f"bins{bins}"] = lambda bins=bins: L.HashedCrossing(num_bins=bins, name="pc")((a, b))
    cases["2d"] = lambda: L.HashedCrossing(num_bins=11, name="pc")((a2, b2))
    cases["one_hot"] = lambda: L.HashedCrossing(num_bins=6, output_mode="one_hot", name="pc")((a, b))
    cases["one_hot-sparse"] = lambda: L.HashedCrossing(num_bins=6, output_mode="one_hot", sparse=True,
                                                       name="pc")((a, b))
    cases["int-int"] = lambda: L.HashedCrossing(num_bins=13, name="pc")((a, a * 3))
    cases["scalar"] = lambda: L.HashedCrossing(num_bins=13, name="pc")((a[0], b[0]))
    cases["config"] = lambda: plain(L.HashedCrossing(num_bins=6, name="pc").get_config())
    cases["one-input"] = lambda: L.HashedCrossing(num_bins=6, name="pc")((a,))
    cases["shape-mismatch"] = lambda: L.HashedCrossing(num_bins=6, name="pc")((a2, b))
    for mode in ("int", "one_hot"):
        for shp in ((), (1,)):
            cases[f"symbolic-{mode}-{len(shp)}"] = lambda mode=mode, shp=shp: spec(L.HashedCrossing(
                num_bins=6, output_mode=mode, name="pc")((tf.keras.Input(shape=shp, dtype="int64"),
                                                          tf.keras.Input(shape=shp, dtype="string"))))
    cases["three-inputs"] = lambda: L.HashedCrossing(num_bins=6, name="pc")((a, b, a))
    return cases


def _category(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    x1 = tf.constant([3, 0, 2])
    x2 = tf.constant(np.array([[1, 1, 3], [0, 2, 2]], "int64"))
    w = tf.constant(np.array([[0.5, 0.25, 3.0], [1.5, -2.0, 0.1]], "float32"))
    cases: dict[str, Callable[[], Any]] = {
        "default": lambda: L.CategoryEncoding(num_tokens=4, name="pe")(x2),
        "default-1d": lambda: L.CategoryEncoding(num_tokens=4, name="pe")(x1),
        "count-weights": lambda: L.CategoryEncoding(num_tokens=4, output_mode="count", name="pe")(x2, count_weights=w),
        "count-weights-f64": lambda: L.CategoryEncoding(num_tokens=4, output_mode="count", name="pe")(
            x2, count_weights=tf.cast(w, "float64")),
        "count-weights-sparse": lambda: L.CategoryEncoding(num_tokens=4, output_mode="count", sparse=True, name="pe")(
            x2, count_weights=w),
        "out-of-range": lambda: L.CategoryEncoding(num_tokens=3, output_mode="count", name="pe")(x2),
        "negative": lambda: L.CategoryEncoding(num_tokens=3, name="pe")(tf.constant([-1, 0])),
        "dtype-int": lambda: L.CategoryEncoding(num_tokens=4, output_mode="count", dtype="int32", name="pe")(x2),
        "config": lambda: plain(L.CategoryEncoding(num_tokens=4, name="pe").get_config()),
        "none-tokens": lambda: L.CategoryEncoding(name="pe")(x2),
        "zero-tokens": lambda: L.CategoryEncoding(num_tokens=0, name="pe"),
        "scalar-one_hot": lambda: L.CategoryEncoding(num_tokens=4, output_mode="one_hot", name="pe")(tf.constant(2)),
        "scalar-multi_hot": lambda: L.CategoryEncoding(num_tokens=4, name="pe")(tf.constant(3)),
        "scalar-count": lambda: L.CategoryEncoding(num_tokens=4, output_mode="count", name="pe")(tf.constant(1)),
    }
    for mode in ("one_hot", "multi_hot", "count"):
        for shp in ((), (1,), (3,)):
            cases[f"symbolic-{mode}-{shp}"] = lambda mode=mode, shp=shp: spec(L.CategoryEncoding(
                num_tokens=4, output_mode=mode, name="pe")(tf.keras.Input(shape=shp)))
    for mode in ("one_hot", "multi_hot", "count"):
        cases[mode] = lambda mode=mode: L.CategoryEncoding(num_tokens=4, output_mode=mode, name="pe")(x1)
        cases[f"{mode}-2d"] = lambda mode=mode: L.CategoryEncoding(num_tokens=4, output_mode=mode, name="pe")(x2)
        cases[f"{mode}-col"] = lambda mode=mode: L.CategoryEncoding(num_tokens=4, output_mode=mode, name="pe")(
            tf.reshape(x1, (3, 1)))
        cases[f"{mode}-sparse"] = lambda mode=mode: L.CategoryEncoding(num_tokens=4, output_mode=mode, sparse=True,
                                                                       name="pe")(x2 if mode != "one_hot" else x1)
    return cases


# -- 5. TextVectorization ------------------------------------------------------------------------------------------
TEXTS = ["The cat's hat -- isn't it GREAT?!", "a dog, a CAT; and a hat...", "Ünïcödé wörds: Éclair & crème!",
         "it's   the dog's    day", "don't stop; won't stop", "x y z x y x"]


def _textvec(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    data = tf.constant(TEXTS)
    x = tf.constant(["the cat's hat isn't great", "Éclair, dog!! zebra", ""])

    def one(call: Any = None, vocab: bool = False, **kw: Any) -> Any:
        if vocab:
            kw["vocabulary"] = ["the", "cat", "a", "dog", "hat"]
        layer = L.TextVectorization(name="pt", **kw)
        if not vocab:
            layer.adapt(data)
        return {"vocab": layer.get_vocabulary(), "y": layer(x if call is None else call)}

    def std(s: Any) -> Any:
        return tf.strings.regex_replace(tf.strings.lower(s), "[aeiou]", "")

    def spl(s: Any) -> Any:
        return tf.strings.split(s, sep="a")
    cases: dict[str, Callable[[], Any]] = {"default": lambda: one()}
    for st in ("lower", "strip_punctuation", None, "callable"):
        cases[f"std-{st}"] = lambda st=st: one(standardize=std if st == "callable" else st)
    for sp in ("character", None, "callable"):
        cases[f"split-{sp}"] = lambda sp=sp: one(split=spl if sp == "callable" else sp,
                                                 **({"output_sequence_length": 6} if sp == "character" else {}))
    cases["ngrams2"] = lambda: one(ngrams=2)
    cases["ngrams1-3"] = lambda: one(ngrams=(1, 3))
    cases["ngrams3-multi"] = lambda: one(ngrams=3, output_mode="multi_hot")
    for mode in ("multi_hot", "count", "tf_idf"):
        cases[mode] = lambda mode=mode: one(output_mode=mode)
        cases[f"{mode}-max5"] = lambda mode=mode: one(output_mode=mode, max_tokens=5)
        cases[f"{mode}-pad"] = lambda mode=mode: one(output_mode=mode, max_tokens=40, pad_to_max_tokens=True)
        cases[f"{mode}-vocab"] = lambda mode=mode: one(
            output_mode=mode, vocab=True, **({"idf_weights": [0.5, 1.0, 1.5, 2.0, 2.5]} if mode == "tf_idf" else {}))
        cases[f"{mode}-sparse"] = lambda mode=mode: one(output_mode=mode, sparse=True)
    cases["seq3"] = lambda: one(output_sequence_length=3)
    cases["seq9"] = lambda: one(output_sequence_length=9)
    cases["max4"] = lambda: one(max_tokens=4)
    cases["ragged"] = lambda: one(ragged=True)
    cases["vocab"] = lambda: one(vocab=True)
    cases["2d-input"] = lambda: one(call=tf.reshape(x, (3, 1)))
    for sp in ("whitespace", None):
        for mode in ("int", "multi_hot", "tf_idf"):
            for shp in ((), (1,)):
                def sym(sp: Any = sp, mode: str = mode, shp: Any = shp) -> Any:
                    kw = {"idf_weights": [0.5, 1.0, 1.5, 2.0, 2.5]} if mode == "tf_idf" else {}
                    layer = L.TextVectorization(split=sp, output_mode=mode, vocabulary=["the", "cat", "a", "dog",
                                                                                        "hat"], name="pt", **kw)
                    return spec(layer(tf.keras.Input(shape=shp, dtype="string")))
                cases[f"symbolic-{sp}-{mode}-{len(shp)}"] = sym
    cases["vocab-no-specials"] = lambda: (lambda t: (t.adapt(data), t.get_vocabulary(include_special_tokens=False))[1])(
        L.TextVectorization(name="pt"))
    cases["set-vocab-idf"] = lambda: (lambda t: (t.set_vocabulary(["the", "cat", "a"], idf_weights=[0.5, 1.5, 2.5]),
                                                 t(x))[1])(L.TextVectorization(output_mode="tf_idf", name="pt"))
    cases["config"] = lambda: plain({k: v for k, v in L.TextVectorization(name="pt").get_config().items()
                                     if k not in ("vocabulary", "idf_weights")})
    return cases


# -- 6. image layers ------------------------------------------------------------------------------------------------
def _img(tf: Any, n: int = 2, h: int = 6, w: int = 8, c: int = 3) -> Any:
    return tf.constant((rng(f"img{h}{w}").uniform(0.0, 255.0, size=(n, h, w, c))).astype("float32"))


def _img_rescale_resize(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    x = _img(tf)
    xu = tf.cast(x, "uint8")
    cases: dict[str, Callable[[], Any]] = {
        "rescale": lambda: L.Rescaling(1 / 255.0, name="pr")(x),
        "rescale-offset": lambda: L.Rescaling(1 / 127.5, offset=-1.0, name="pr")(x),
        "rescale-uint8": lambda: L.Rescaling(1 / 127.5, offset=-1.0, name="pr")(xu),
        "rescale-f64": lambda: L.Rescaling(0.1, offset=0.3, dtype="float64", name="pr")(x),
        "rescale-list": lambda: L.Rescaling([0.5, 0.25, 2.0], offset=[1.0, 0.0, -3.0], name="pr")(x),
        "rescale-mask": lambda: [L.Rescaling(0.5, name="pr").supports_masking, L.Rescaling(0.5, name="pr").compute_mask(
            x, tf.constant([True, False]))],
        "flip-infer-uint8": lambda: L.RandomFlip(seed=3, name="prf")(xu, training=False),
        "flip-infer-int32": lambda: L.RandomFlip(seed=3, name="prf")(tf.cast(x, "int32"), training=False),
        "flip-train-uint8": lambda: L.RandomFlip(seed=3, name="prf")(xu, training=True),
        "center-smaller": lambda: L.CenterCrop(3, 5, name="pcc")(x),
        "center-larger": lambda: L.CenterCrop(8, 9, name="pcc")(x),
        "center-odd": lambda: L.CenterCrop(5, 3, name="pcc")(x),
        "center-3d": lambda: L.CenterCrop(4, 4, name="pcc")(x[0]),
        "center-uint8": lambda: L.CenterCrop(4, 5, name="pcc")(xu),
    }
    for interp in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        cases[f"resize-{interp}-down"] = lambda i=interp: L.Resizing(4, 5, interpolation=i, name="prs")(x)
        cases[f"resize-{interp}-up"] = lambda i=interp: L.Resizing(9, 11, interpolation=i, name="prs")(x)
    cases["resize-antialias"] = lambda: L.Resizing(3, 4, antialias=True, name="prs")(x)
    cases["resize-crop"] = lambda: L.Resizing(4, 4, crop_to_aspect_ratio=True, name="prs")(x)
    cases["resize-crop-nearest"] = lambda: L.Resizing(5, 3, crop_to_aspect_ratio=True, interpolation="nearest",
                                                      name="prs")(x)
    cases["resize-pad"] = lambda: L.Resizing(4, 4, pad_to_aspect_ratio=True, name="prs")(x)
    cases["resize-pad-fill"] = lambda: L.Resizing(5, 3, pad_to_aspect_ratio=True, fill_value=7.5, name="prs")(x)
    cases["resize-uint8"] = lambda: L.Resizing(4, 5, name="prs")(xu)
    cases["resize-3d"] = lambda: L.Resizing(3, 3, name="prs")(x[0])
    for k, make in {"resize": lambda: L.Resizing(3, 4, name="prs"), "center": lambda: L.CenterCrop(3, 4, name="pcc"),
                    "rcrop": lambda: L.RandomCrop(3, 4, seed=1, name="prc")}.items():
        cases[f"symbolic-{k}-batched"] = lambda make=make: spec(make()(tf.keras.Input(shape=(6, 8, 3))))
        cases[f"symbolic-{k}-unbatched"] = lambda make=make: spec(make()(tf.keras.Input(batch_shape=(6, 8, 3))))
        cases[f"shape-{k}-unbatched"] = lambda make=make: list(make().compute_output_shape((6, 8, 3)))
        cases[f"shape-{k}-batched"] = lambda make=make: list(make().compute_output_shape((None, 6, 8, 3)))
    cases["resize-mask"] = lambda: (lambda r: [r.supports_masking, r.compute_mask(x, None)])(
        L.Resizing(3, 4, interpolation="bicubic", name="prs"))
    return cases


def _img_random(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    L = tf.keras.layers
    x = _img(tf, 2, 7, 6, 2)
    makers: dict[str, Callable[[], Any]] = {
        "crop": lambda: L.RandomCrop(4, 3, seed=11, name="prc"),
        "crop-larger": lambda: L.RandomCrop(8, 6, seed=11, name="prc"),
        "flip": lambda: L.RandomFlip(seed=5, name="prf"),
        "flip-h": lambda: L.RandomFlip("horizontal", seed=5, name="prf"),
        "flip-v": lambda: L.RandomFlip("vertical", seed=9, name="prf"),
        "contrast": lambda: L.RandomContrast(0.4, seed=3, name="pct"),
        "contrast-pair": lambda: L.RandomContrast((0.1, 0.7), value_range=(0, 1), seed=3, name="pct"),
        "brightness": lambda: L.RandomBrightness(0.3, seed=4, name="pbr"),
        "brightness-range": lambda: L.RandomBrightness((-0.2, 0.5), value_range=(0, 1), seed=4, name="pbr"),
    }
    for fm in ("reflect", "wrap", "constant", "nearest"):
        for interp in ("bilinear", "nearest"):
            kw = {"fill_mode": fm, "interpolation": interp}
            if fm == "constant":
                kw["fill_value"] = -2.5
            makers[f"rot-{fm}-{interp}"] = lambda kw=kw: L.RandomRotation(0.2, seed=21, name="prr", **kw)
            makers[f"trans-{fm}-{interp}"] = lambda kw=kw: L.RandomTranslation(0.3, (-0.2, 0.4), seed=22, name="prt", **kw)
            makers[f"zoom-{fm}-{interp}"] = lambda kw=kw: L.RandomZoom((-0.3, 0.2), seed=23, name="prz", **kw)
    makers["zoom-wh"] = lambda: L.RandomZoom(0.2, width_factor=(0.1, 0.3), seed=24, name="prz")
    makers["rot-pair"] = lambda: L.RandomRotation((-0.1, 0.3), seed=25, name="prr")
    cases: dict[str, Callable[[], Any]] = {}
    for k, make in makers.items():
        def one(make: Any = make) -> Any:
            layer = make()
            return {"train": layer(x, training=True), "train2": layer(x, training=True),
                    "infer": layer(x, training=False), "default": layer(x)}
        cases[k] = one
    for k in ("crop", "flip", "rot-reflect-bilinear", "zoom-constant-nearest", "contrast", "brightness"):
        def mapped(k: str = k) -> Any:
            layer = makers[k]()
            ds = tf.data.Dataset.from_tensor_slices(x).batch(1).map(lambda t: layer(t, training=True))
            return [e for e in ds]
        cases[f"map-{k}"] = mapped
    return cases


# -- 7. FeatureSpace -----------------------------------------------------------------------------------------------
def _feature_space(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    FS = tf.keras.utils.FeatureSpace
    r = rng("fs")
    n = 24
    raw = {"f": r.uniform(-2, 5, n).astype("float32"), "fn": r.uniform(10, 20, n).astype("float32"),
           "fr": r.uniform(0, 100, n).astype("float32"), "fd": r.uniform(-1, 1, n).astype("float32"),
           "ic": r.randint(0, 6, n).astype("int64"), "sc": np.array(["a", "b", "c", "dd"])[r.randint(0, 4, n)],
           "ih": r.randint(0, 1000, n).astype("int64"), "sh": np.array(["p", "q", "rr", "s", "t"])[r.randint(0, 5, n)]}
    ds = tf.data.Dataset.from_tensor_slices(raw).batch(8)
    x = {k: v[:3] for k, v in raw.items()}

    def feats() -> dict[str, Any]:
        return {"f": FS.float(name="f"), "fn": FS.float_normalized(name="fn"),
                "fr": FS.float_rescaled(scale=0.5, offset=1.0, name="fr"),
                "fd": FS.float_discretized(num_bins=4, name="fd"),
                "ic": FS.integer_categorical(max_tokens=5, num_oov_indices=1, name="ic"),
                "sc": FS.string_categorical(name="sc"),
                "ih": FS.integer_hashed(num_bins=7, name="ih"),
                "sh": FS.string_hashed(num_bins=5, name="sh")}

    def one(mode: str, crosses: Any = None, save: bool = False, **kw: Any) -> Any:
        fs = FS(features=feats(), output_mode=mode, crosses=crosses, name="pfs", **kw)
        fs.adapt(ds)
        y = fs(x)
        if not save:
            return y
        with tmpdir() as d:
            p = os.path.join(d, "fs.keras")
            fs.save(p)
            back = tf.keras.models.load_model(p)
            return {"y": y, "reloaded": back(x)}
    short = ("f", "fn", "ic", "sc", "ih", "fd")
    crosses = [FS.cross(feature_names=("ic", "sc"), crossing_dim=8), FS.cross(("sc", "sh"), crossing_dim=3,
                                                                              output_mode="int")]
    return {
        "concat": lambda: one("concat"), "dict": lambda: one("dict"),
        "concat-crosses": lambda: one("concat", crosses=[crosses[0]]),
        "dict-crosses": lambda: one("dict", crosses=crosses),
        "concat-dims": lambda: one("concat", crosses=[FS.cross(("ic", "sc"), crossing_dim=5)], crossing_dim=5,
                                   hashing_dim=4, num_discretization_bins=3),
        "save": lambda: one("concat", crosses=[crosses[0]], save=True),
        "shorthand": lambda: (lambda fs: (fs.adapt(ds.map(lambda d: {k: d[k] for k in short})),
                                          fs({k: x[k] for k in short}))[1])(FS(
            features={"f": "float", "fn": "float_normalized", "ic": "integer_categorical",
                      "sc": "string_categorical", "ih": "integer_hashed", "fd": "float_discretized"}, name="pfs")),
    }


# -- 8. keras.utils ---------------------------------------------------------------------------------------------------
def _util_normalize(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    U = tf.keras.utils
    cases: dict[str, Callable[[], Any]] = {}
    for dt in ("float32", "float64"):
        a = arr(f"un{dt}", (3, 5), 4.0, dt)
        a[1, 2] = 0.0
        a[2] = 0.0     # a zero row
        b3 = arr(f"un3{dt}", (2, 3, 4), 2.0, dt)
        for order in (1, 2, 3):
            for axis in (-1, 0, 1):
                cases[f"{dt}-o{order}-a{axis}-np"] = lambda a=a, o=order, ax=axis: U.normalize(a, axis=ax, order=o)
                cases[f"{dt}-o{order}-a{axis}-tf"] = lambda a=a, o=order, ax=axis: U.normalize(tf.constant(a), axis=ax,
                                                                                             order=o)
            cases[f"{dt}-o{order}-3d-np"] = lambda b3=b3, o=order: U.normalize(b3, axis=1, order=o)
            cases[f"{dt}-o{order}-3d-tf"] = lambda b3=b3, o=order: U.normalize(tf.constant(b3), axis=1, order=o)
        cases[f"{dt}-default-np"] = lambda a=a: U.normalize(a)
        cases[f"{dt}-default-tf"] = lambda a=a: U.normalize(tf.constant(a))
        cases[f"{dt}-tiny"] = lambda dt=dt: U.normalize(np.array([[1e-30, -2e-30], [3e-38, 0.0]], dt))
        cases[f"{dt}-tiny-tf"] = lambda dt=dt: U.normalize(tf.constant(np.array([[1e-30, -2e-30], [3e-38, 0.0]], dt)))
    cases["vector"] = lambda: U.normalize(np.array([3.0, 4.0], "float32"))
    return cases


def _util_data(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    U = tf.keras.utils
    seqs = [[1, 2, 3], [4, 5], [], [6, 7, 8, 9, 10]]
    fseqs = [[0.5, 1.25], [-3.0], [2.0, 4.0, 8.0]]
    cases: dict[str, Callable[[], Any]] = {
        "pad-default": lambda: U.pad_sequences(seqs),
        "pad-maxlen3": lambda: U.pad_sequences(seqs, maxlen=3),
        "pad-maxlen7": lambda: U.pad_sequences(seqs, maxlen=7),
        "pad-post": lambda: U.pad_sequences(seqs, padding="post"),
        "pad-trunc-post": lambda: U.pad_sequences(seqs, maxlen=2, truncating="post"),
        "pad-both-post": lambda: U.pad_sequences(seqs, maxlen=4, padding="post", truncating="post"),
        "pad-value": lambda: U.pad_sequences(seqs, value=-1),
        "pad-value-float": lambda: U.pad_sequences(seqs, value=2.7),
        "pad-float32": lambda: U.pad_sequences(fseqs, dtype="float32", value=0.5),
        "pad-float64": lambda: U.pad_sequences(fseqs, dtype="float64"),
        "pad-int-of-floats": lambda: U.pad_sequences(fseqs),
        "pad-int64": lambda: U.pad_sequences(seqs, dtype="int64", maxlen=0),
        "pad-str": lambda: U.pad_sequences([["a", "b"], ["c"]], dtype="object", value="-"),
        "pad-str-object": lambda: U.pad_sequences([["a", "b"], ["c"]], dtype=object, value="-", maxlen=3),
        "pad-empty": lambda: U.pad_sequences([]),
        "pad-2d-items": lambda: U.pad_sequences([[[1, 2], [3, 4]], [[5, 6]]], padding="post"),
        "pad-bad": lambda: U.pad_sequences(seqs, padding="middle"),
        "pad-np": lambda: U.pad_sequences(np.array([[1, 2], [3, 4]]), maxlen=3),
        "cat-default": lambda: U.to_categorical([0, 2, 1, 2]),
        "cat-num": lambda: U.to_categorical(np.array([1, 0, 3]), num_classes=5),
        "cat-col": lambda: U.to_categorical(np.array([[1], [0], [2]])),
        "cat-2d": lambda: U.to_categorical(np.array([[1, 0], [2, 2]]), num_classes=3),
        "cat-tensor": lambda: U.to_categorical(tf.constant([2, 0, 1]), num_classes=4),
        "cat-float-labels": lambda: U.to_categorical(np.array([1.0, 2.0, 0.0])),
        "cat-scalar": lambda: U.to_categorical(3, num_classes=5),
    }
    data = np.arange(40, dtype="float32").reshape(20, 2) * 0.5
    tgt = np.arange(20, dtype="int64") * 3

    def ts(**kw: Any) -> Any:
        base = dict(sequence_length=4, batch_size=3)
        base.update(kw)
        t = base.pop("targets", None)
        ds = U.timeseries_dataset_from_array(data, t, **base)
        return [e for e in ds]
    cases.update({
        "ts-default": lambda: ts(), "ts-targets": lambda: ts(targets=tgt),
        "ts-stride": lambda: ts(sequence_stride=3), "ts-rate": lambda: ts(sampling_rate=2),
        "ts-rate-stride": lambda: ts(sampling_rate=3, sequence_stride=2, targets=tgt),
        "ts-start-end": lambda: ts(start_index=2, end_index=15), "ts-batch-none": lambda: ts(batch_size=None)[:3],
        "ts-batch-default": lambda: ts(batch_size=128),
        # (the shuffle buffer's seed pairs with the global seed: set here, so earlier programs' seeds do not count)
        "ts-shuffle": lambda: (tf.random.set_seed(1234), ts(shuffle=True, seed=7, targets=tgt))[1],
        "ts-too-long": lambda: ts(sequence_length=25),
        "ts-end-short": lambda: ts(end_index=5, sampling_rate=2),
    })
    xs = np.arange(10, dtype="float32") * 1.5

    def split(**kw: Any) -> Any:
        left, right = U.split_dataset(tf.data.Dataset.from_tensor_slices(xs), **kw)
        return [[e for e in left], [e for e in right]]
    cases.update({
        "split-int": lambda: split(left_size=3), "split-float": lambda: split(left_size=0.35),
        "split-right": lambda: split(right_size=0.25), "split-both": lambda: split(left_size=2, right_size=5),
        "split-shuffle": lambda: split(left_size=0.5, shuffle=True, seed=42),
        "split-array": lambda: (lambda lr: [[e for e in lr[0]], [e for e in lr[1]]])(
            U.split_dataset(xs, right_size=3)),
        "split-tuple": lambda: (lambda lr: [[e for e in lr[0]], [e for e in lr[1]]])(
            U.split_dataset((xs, xs * 2), left_size=0.4)),
        "split-none": lambda: split(),
        "split-too-big": lambda: split(left_size=11),
    })
    return cases


def _util_seed(tf: Any, mk: Any) -> dict[str, Callable[[], Any]]:
    import random

    def draws(seed: int) -> Any:
        tf.keras.utils.set_random_seed(seed)
        out = {"py": [float(random.random()).hex() for _ in range(2)],
               "np": np.random.rand(3),
               "tf-uniform": tf.random.uniform((3,)), "tf-normal": tf.random.normal((2,)),
               "keras-uniform": tf.keras.random.uniform((3,)),
               "dropout": tf.keras.layers.Dropout(0.5, name="pdrop")(tf.ones((2, 4)), training=True)}
        out["tf-uniform-again"] = tf.random.uniform((2,))
        return out
    return {"seed0": lambda: draws(0), "seed1337": lambda: draws(1337), "seed-big": lambda: draws(2**31 - 1)}


program("p-disc-given", _disc_given)
for _n in (1, 7, 500, 1000, 1001):
    program(f"p-disc-adapt{_n}", _disc_adapt(_n))
program("p-norm-adapt", _norm)
program("p-lookup-integer", _lookup("integer"))
program("p-lookup-string", _lookup("string"))
program("p-hashing", _hashing)
program("p-crossing", _crossing)
program("p-category", _category)
program("p-textvec", _textvec)
program("p-img-rescale-resize", _img_rescale_resize)
program("p-img-random", _img_random)
program("p-fs-featurespace", _feature_space)
program("p-util-normalize", _util_normalize)
program("p-util-data", _util_data)
program("p-util-seed", _util_seed)
