"""A fourth differential generator (fz62), aimed at what fz54b, fz55b, fz61 and the campaign do not draw:

- uncalled ops: the public tf / tf.math / tf.nn / tf.linalg / tf.signal / tf.image / tf.strings / tf.sparse / tf.ragged
  functions none of them calls (fz62_uncalled.json, made by uncalled.py with each function's parameters as TF 2.21
  declares them), called with arguments chosen by parameter name (tensors of any dtype and small shapes, axes in
  and past the rank, sizes, dtypes, flags);
- dtype acceptance: common unary and binary ops given a tensor of every TF dtype (strings, bools, complex, unsigned);
- validity boundaries: axes at and past the rank, negative and zero sizes, out-of-range indices, empty inputs;
- operand conversion: Python ints (also past int64), floats, bools, NumPy scalars of each dtype and lists, on either
  side of the operators and as op arguments.

Every statement's outcome is compared: a value's dtype, shape and bits (NaNs by position), or the exception class.
Two modes, as fz61's: eager (every statement), and tf.function (the statements that did not raise eagerly, traced once
over the inputs as arguments). TF and simdist each run in their own process (fz45_gen's harness).

    python tests/fuzz62/fz62_gen.py SEED N [--show 20] [--calls 30] [--print]

Not a test by itself: tests/fuzz62/test_fz62_slice_tf.py runs a bounded slice under the slow marker. Deterministic:
random.Random(SEED * 100003 + k); inputs are exact literals (k/8 and small integers).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz61"))

import fz45_gen as G  # noqa: E402 - the harness only

with open(os.path.join(HERE, "fz62_uncalled.json"), encoding="utf-8") as _f:
    SIGS: dict = json.load(_f)
UNCALLED = sorted(SIGS)

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "bool", "complex64", "complex128", "string"]
NP_SCALARS = ["np.float16", "np.float32", "np.float64", "np.int8", "np.int16", "np.int32", "np.int64", "np.uint8",
              "np.uint16", "np.uint32", "np.uint64", "np.bool_", "np.complex64", "np.complex128"]
UNARY = ["tf.math.abs", "tf.math.negative", "tf.math.sign", "tf.math.square", "tf.math.sqrt", "tf.math.exp",
         "tf.math.log", "tf.math.sin", "tf.math.tanh", "tf.math.floor", "tf.math.round", "tf.math.reciprocal",
         "tf.math.is_nan", "tf.math.is_finite", "tf.math.logical_not", "tf.math.invert_permutation",
         "tf.bitwise.invert", "tf.math.erf", "tf.math.real", "tf.math.imag", "tf.math.conj", "tf.math.angle",
         "tf.nn.relu", "tf.nn.softmax", "tf.math.cumsum", "tf.math.reduce_sum", "tf.math.reduce_prod",
         "tf.math.reduce_max", "tf.math.reduce_mean", "tf.math.reduce_any", "tf.math.argmax", "tf.sort",
         "tf.unique", "tf.zeros_like", "tf.ones_like", "tf.math.count_nonzero", "tf.strings.length",
         "tf.math.bincount", "tf.math.top_k", "tf.math.lgamma", "tf.math.rint", "tf.identity", "tf.size",
         "tf.math.reduce_std", "tf.math.l2_normalize", "tf.math.softplus", "tf.math.segment_sum"]
BINARY = ["tf.math.add", "tf.math.subtract", "tf.math.multiply", "tf.math.divide", "tf.math.truediv",
          "tf.math.floordiv", "tf.math.floormod", "tf.math.pow", "tf.math.maximum", "tf.math.minimum",
          "tf.math.equal", "tf.math.less", "tf.math.logical_and", "tf.bitwise.bitwise_and",
          "tf.bitwise.left_shift", "tf.math.atan2", "tf.math.squared_difference", "tf.math.xdivy",
          "tf.math.divide_no_nan", "tf.math.igamma", "tf.math.polyval", "tf.math.add_n", "tf.concat", "tf.stack"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=", "&", "|", "^", "@"]


def _floats(rng: random.Random, n: int) -> list:
    return [rng.choice([rng.randrange(-24, 25) / 8, rng.randrange(-3, 4), 0.5, -0.0, 0.0, 1.0, 2.0])
            for _ in range(n)]


def _shape(rng: random.Random) -> list:
    r = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    return [rng.choice([1, 2, 2, 3, 3, 4, 0] if rng.random() < 0.15 else [1, 2, 2, 3, 3, 4]) for _ in range(r)]


def _size(shape: list) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def tensor(rng: random.Random, dtype: str | None = None, shape: list | None = None) -> tuple[str, str, list]:
    """A tensor literal's text, its dtype and shape."""
    dtype = dtype or rng.choice(["float32"] * 6 + ["float64", "int32", "int32", "int64", "float16", "bool",
                                                   "complex64", "string", "uint8", "bfloat16"])
    shape = _shape(rng) if shape is None else shape
    n = _size(shape)
    if dtype == "string":
        words = [rng.choice(["a", "bc", "", "héllo", "1.5", "x y", "ZZ", "-3"]) for _ in range(n)]
        return f"tf.reshape(tf.constant({words!r}, tf.string), {shape})", dtype, shape
    if dtype == "bool":
        return f"tf.reshape(tf.constant({[rng.random() < 0.5 for _ in range(n)]!r}), {shape})", dtype, shape
    if dtype.startswith(("int", "uint")):
        lo = 0 if dtype.startswith("u") else -4
        vals = [rng.randrange(lo, 6) for _ in range(n)]
        return f"tf.reshape(tf.constant({vals!r}, tf.{dtype}), {shape})", dtype, shape
    vals = _floats(rng, n)
    if dtype.startswith("complex"):
        im = _floats(rng, n)
        return (f"tf.reshape(tf.complex(tf.constant({vals!r}, tf.float{32 if dtype == 'complex64' else 64}), "
                f"tf.constant({im!r}, tf.float{32 if dtype == 'complex64' else 64})), {shape})"), dtype, shape
    if dtype == "bfloat16":
        return f"tf.cast(tf.reshape(tf.constant({vals!r}, tf.float32), {shape}), tf.bfloat16)", dtype, shape
    return f"tf.reshape(tf.constant({vals!r}, tf.{dtype}), {shape})", dtype, shape


def _int_list(rng: random.Random, n: int, lo: int = 1, hi: int = 4) -> list:
    return [rng.randrange(lo, hi) for _ in range(n)]


_TENSOR_PARAMS = {"x", "y", "a", "b", "input", "tensor", "features", "values", "value", "data", "image", "images",
                  "logits", "labels", "input_tensor", "params", "matrix", "rhs", "t", "x1", "x2", "inputs", "arr",
                  "signal", "input_signal", "filters", "filter", "diagonals", "chol", "lower_upper", "perm", "input_a",
                  "sp_input", "sp_a", "sp_b", "sparse_input", "hypothesis", "truth", "boxes", "scores", "pooling",
                  "counts", "mean", "variance", "offset", "scale", "beta", "gamma", "frequency_weights",
                  "sparse_weights", "sp_ids", "sp_weights", "mask", "indices", "updates", "segment_ids", "ids",
                  "partitions", "lengths", "start", "stop", "delta", "limit", "shape", "dims", "multiples",
                  "seq_lengths", "keys", "num_segments", "out_backprop", "input_sizes", "filter_sizes", "size",
                  "grad", "mode", "seed", "thresh", "window_length", "fft_length", "output_shape", "block_shape",
                  "paddings", "crops", "block_size", "ksize", "strides", "rates", "dilations", "rate", "depth",
                  "value_range", "nbins", "num_samples", "weights", "num_or_size_splits", "axis"}


def _sparse(rng: random.Random) -> str:
    rows, cols = rng.choice([2, 3]), rng.choice([2, 3, 4])
    cells = sorted(rng.sample([(i, j) for i in range(rows) for j in range(cols)], rng.choice([1, 2, 3])))
    vals = _floats(rng, len(cells))
    return (f"tf.sparse.SparseTensor({[list(c) for c in cells]!r}, tf.constant({vals!r}, tf.float32), "
            f"[{rows}, {cols}])")


def _arg(rng: random.Random, pname: str, default: str, pool: list) -> str:
    """A value for the parameter `pname`: by name, sometimes past its validity boundary."""
    edge = rng.random() < 0.2
    if pname in ("axis", "axes", "concat_dim", "seq_axis", "batch_axis", "time_major_axis"):
        return repr(rng.choice([-1, 0, 1, 2, 3, -3, 5] if edge else [-1, 0, 1]))
    if pname in ("dtype", "out_type", "output_type", "Tout", "out_idx", "output_dtype"):
        return "tf." + rng.choice(DTYPES)
    if pname in ("keepdims", "keep_dims", "transpose_a", "transpose_b", "adjoint", "adjoint_a", "adjoint_b",
                 "lower", "exclusive", "reverse", "periodic", "validate_indices", "return_index", "binary_output",
                 "sorted", "pad_end", "centered", "half_pixel_centers", "align_corners", "pad_to_max_output_size",
                 "merge_repeated", "pseudo_random", "overlapping", "deterministic", "shift_ratio", "unique",
                 "include_batch_in_index", "clear_after_read"):
        return repr(rng.random() < 0.5)
    if pname in ("padding",):
        return repr(rng.choice(["SAME", "VALID", "same", "FULL"] if edge else ["SAME", "VALID"]))
    if pname in ("data_format",):
        return repr(rng.choice(["NHWC", "NCHW", "NWC", "NDHWC", "N"] if edge else ["NHWC", None]))
    if pname in ("name", "validate_args"):
        return default or "None"
    if pname.startswith("sp_") or pname in ("sparse_input", "sp_input", "sp_a", "sp_b", "st"):
        return _sparse(rng)
    if pname in ("num", "k", "n", "depth", "num_segments", "block_size", "nbins", "window_length", "num_samples",
                 "maxlen", "num_upper", "num_lower", "size", "target_height", "target_width", "max_output_size",
                 "num_partitions", "num_buckets", "num_rows", "num_columns", "frame_length", "frame_step",
                 "offset_height", "offset_width", "repeats", "num_or_size_splits", "max_size_per_class",
                 "max_total_size", "beam_width", "top_paths", "depth_radius", "num_spectrogram_bins"):
        return repr(rng.choice([-1, 0, 7, 100] if edge else [1, 2, 3, 4]))
    if pname in ("strides", "ksize", "dilations", "rates", "block_shape", "multiples", "shape", "dims", "fft_length",
                 "output_shape", "input_sizes", "filter_sizes", "pooling_ratio", "size", "begin", "start",
                 "new_shape", "dense_shape"):
        n = rng.choice([1, 2, 3, 4])
        return repr(_int_list(rng, n, -1 if edge else 1, 4))
    if pname in ("paddings", "crops"):
        n = rng.choice([1, 2])
        return repr([[rng.randrange(-1 if edge else 0, 3), rng.randrange(0, 3)] for _ in range(n)])
    if pname in ("alpha", "beta", "epsilon", "bias", "delta", "stddev", "iou_threshold", "score_threshold",
                 "central_fraction", "max_delta", "lower", "upper", "contrast_factor", "saturation_factor",
                 "gamma", "gain", "variance_epsilon", "max_val", "filter_sigma", "k1", "k2", "shift", "rate",
                 "soft_nms_sigma", "clip_value_min", "clip_value_max", "pad_value", "default_value",
                 "separator", "start", "stop", "limit"):
        return repr(rng.choice([-1.0, 0.0, 1e30, float("nan")] if edge else [0.5, 1.0, 2.0, 0.25, 3]))
    if pname in ("seed",):
        return repr(rng.choice([[1, 2], [0, 0], (3, 4)] if not edge else [1, [1], None]))
    if pname in ("input_encoding", "output_encoding", "encoding"):
        return repr(rng.choice(["UTF-8", "UTF-16-BE", "UTF-32-BE", "latin1"] if edge else ["UTF-8"]))
    if pname in ("unit",):
        return repr(rng.choice(["BYTE", "UTF8_CHAR", "x"]))
    if pname in ("errors",):
        return repr(rng.choice(["replace", "strict", "ignore"]))
    if pname in ("method",):
        return repr(rng.choice(["bilinear", "nearest", "area", "x"]))
    if pname in ("norm", "ord"):
        return repr(rng.choice(["ortho", None, "backward", 1]))
    if pname in ("type",):
        return repr(rng.choice([1, 2, 3, 4, 5]))
    if pname in ("fast",):
        return repr(rng.random() < 0.5)
    if pool and rng.random() < 0.35:
        return rng.choice(pool)
    text, _, _ = tensor(rng, rng.choice(DTYPES) if edge else None)
    return text


def _uncalled(rng: random.Random, pool: list) -> str:
    name = rng.choice(UNCALLED)
    pos: list = []
    kw: list = []
    for pname, kind, has_default, default in SIGS[name]:
        if kind == "VAR_POSITIONAL":
            pos.extend(_arg(rng, "x", "", pool) for _ in range(rng.choice([1, 2])))
            continue
        if kind == "VAR_KEYWORD" or pname == "name" or (has_default and rng.random() < 0.7):
            continue
        v = _arg(rng, pname, default, pool)
        if kind == "KEYWORD_ONLY" or has_default:
            kw.append(f"{pname}={v}")
        else:
            pos.append(v)   # (required ones come first in a signature: positional, in order)
    return f"{name}({', '.join(pos + kw)})"


def _dtype_call(rng: random.Random) -> str:
    dt = rng.choice(DTYPES)
    t, _, shape = tensor(rng, dt, rng.choice([[3], [2, 3], [], [0], [4]]))
    if rng.random() < 0.6:
        return f"{rng.choice(UNARY)}({t})"
    op = rng.choice(BINARY)
    u, _, _ = tensor(rng, rng.choice([dt, dt, rng.choice(DTYPES)]), shape)
    if op in ("tf.math.add_n", "tf.concat", "tf.stack"):
        extra = ", 0" if op != "tf.math.add_n" else ""
        return f"{op}([{t}, {u}]{extra})"
    return f"{op}({t}, {u})"


def _boundary(rng: random.Random) -> str:
    t, dt, shape = tensor(rng, rng.choice(["float32", "int32", "float64"]), rng.choice([[2, 3], [3], [2, 1, 2], [0, 2]]))
    r = len(shape)
    ax = rng.choice([r, -r - 1, r - 1, -r, 0, 10])
    return rng.choice([
        f"tf.reduce_sum({t}, axis={ax})", f"tf.reduce_max({t}, axis=[{ax}], keepdims=True)",
        f"tf.argmax({t}, axis={ax})", f"tf.concat([{t}, {t}], axis={ax})", f"tf.stack([{t}, {t}], axis={ax})",
        f"tf.expand_dims({t}, {ax})", f"tf.squeeze({t}, [{ax}])", f"tf.unstack({t}, axis={ax})",
        f"tf.gather({t}, [{rng.choice([-1, 0, 2, 3, 5])}], axis={rng.choice([0, ax])})",
        f"tf.one_hot([0, 2, -1, 5], {rng.choice([-1, 0, 1, 3])})", f"tf.split({t}, {rng.choice([0, 2, 3, 4])}, axis=0)",
        f"tf.reshape({t}, [{rng.choice([-1, 0, 2, 5])}, {rng.choice([-1, 3, 0])}])",
        f"tf.range({rng.choice([0, 3, -2])}, {rng.choice([5, 0, -4])}, {rng.choice([0, 1, -1, 2])})",
        f"tf.slice({t}, [{rng.choice([0, 1, 3])}] * {r}, [{rng.choice([-1, 1, 2, 4])}] * {r})",
        f"tf.tile({t}, [{rng.choice([-1, 0, 2])}] * {r})", f"tf.pad({t}, [[{rng.choice([-1, 0, 1])}, 1]] * {r})",
        f"tf.transpose({t}, {list(range(r))[::-1] + ([r] if rng.random() < 0.3 else [])})",
        f"tf.math.cumsum({t}, axis={ax})", f"tf.roll({t}, {rng.choice([1, -5, 0])}, axis={ax})",
        f"tf.linalg.band_part({t}, {rng.choice([-2, -1, 0, 1])}, {rng.choice([-1, 0, 4])})",
        f"tf.math.top_k({t}, k={rng.choice([-1, 0, 2, 4])})", f"tf.broadcast_to({t}, [{rng.choice([2, 4, 0])}, 3])",
        f"tf.math.reduce_logsumexp({t}, axis={ax})", f"tf.nn.softmax({t}, axis={ax})",
        f"tf.image.resize(tf.zeros([1, 2, 2, 1]), [{rng.choice([0, -1, 3])}, 2])",
        f"tf.eye({rng.choice([-1, 0, 2])}, {rng.choice([0, 3, None])})",
        f"tf.fill([{rng.choice([-1, 0, 2])}], {rng.choice(['1.5', 'True', '3', repr('s')])})",
    ])


def _py_operand(rng: random.Random) -> str:
    k = rng.randrange(7)
    if k == 0:
        return repr(rng.choice([0, 1, -3, 7, 2 ** 31, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 255, 256]))
    if k == 1:
        return repr(rng.choice([0.5, -1.25, 1e39, 3.0, -0.0, 1e-45]))
    if k == 2:
        return repr(rng.choice([True, False]))
    if k == 3:
        return f"{rng.choice(NP_SCALARS)}({rng.choice([1, 3, 0, 2])})"
    if k == 4:
        return repr(rng.choice([[1, 2, 3], [1.5, 2.0, -1.0], [True, False, True], [[1], [2]], []]))
    if k == 5:
        return f"np.array({rng.choice([[1, 2, 3], [0.5, 1.5, 2.5]])!r}, {rng.choice(NP_SCALARS)})"
    return rng.choice(["None", "'a'", "1j", "(1, 2, 3)"])


def _conversion(rng: random.Random) -> str:
    dt = rng.choice(["float32", "float32", "int32", "int64", "float16", "float64", "bool", "uint8", "complex64",
                     "bfloat16", "int8"])
    t, _, _ = tensor(rng, dt, rng.choice([[3], [], [1, 3]]))
    o = _py_operand(rng)
    k = rng.randrange(3)
    if k == 0:
        op = rng.choice(OPERATORS)
        return f"({t}) {op} {o}" if rng.random() < 0.5 else f"{o} {op} ({t})"
    if k == 1:
        fn = rng.choice(["tf.math.add", "tf.math.multiply", "tf.math.maximum", "tf.math.pow", "tf.math.equal",
                         "tf.math.floordiv", "tf.math.logical_and", "tf.math.subtract", "tf.math.truediv"])
        return f"{fn}({t}, {o})" if rng.random() < 0.5 else f"{fn}({o}, {t})"
    fn = rng.choice(["tf.constant", "tf.convert_to_tensor", "tf.math.abs", "tf.math.negative", "tf.cast",
                     "tf.math.square", "tf.identity", "tf.reduce_sum", "tf.math.sqrt", "tf.nn.relu"])
    if fn == "tf.cast":
        return f"tf.cast({o}, tf.{rng.choice(DTYPES)})"
    if fn in ("tf.constant", "tf.convert_to_tensor") and rng.random() < 0.5:
        return f"{fn}({o}, dtype=tf.{rng.choice(DTYPES)})"
    return f"{fn}({o})"


def program(seed: int, k: int, calls: int = 30) -> dict:
    rng = random.Random(seed * 100003 + k)
    inputs = []
    for i in range(3):
        t, _, _ = tensor(rng, rng.choice(["float32", "float32", "int32", "float64"]), rng.choice([[2, 3], [4], [2, 2, 2]]))
        inputs.append((f"x{i}", t))
    pool = [n for n, _ in inputs]
    lines: list = []
    for i in range(calls):
        kind = rng.choice(["uncalled", "uncalled", "uncalled", "dtype", "boundary", "conversion", "conversion"])
        text = {"uncalled": lambda: _uncalled(rng, pool), "dtype": lambda: _dtype_call(rng),
                "boundary": lambda: _boundary(rng), "conversion": lambda: _conversion(rng)}[kind]()
        lines.append((f"v{i} = _c(lambda: {text})", [f"v{i}"], True))
    return {"inputs": inputs, "lines": lines}


def text_of(prog: dict) -> str:
    return "\n".join([f"{n} = {t}" for n, t in prog["inputs"]] + [st for st, _, _ in prog["lines"]])


class Err:
    def __init__(self, cls: str) -> None:
        self.cls = cls


def _c(f: Any) -> Any:
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the class is the answer
        return Err(type(e).__name__)


def _outcome(tf: Any, np: Any, v: Any) -> Any:
    if isinstance(v, Err):
        return ("err", v.cls, "-")   # (compared by class: fz45_gen._same)
    kind = type(v).__name__
    if kind == "RaggedTensor":
        return ("ragged", _outcome(tf, np, v.flat_values), _outcome(tf, np, v.nested_row_splits))
    if kind == "SparseTensor":
        return ("sparse", _outcome(tf, np, v.indices), _outcome(tf, np, v.values), _outcome(tf, np, v.dense_shape))
    if kind in ("TensorShape", "DType"):
        return ("py", kind, str(v))
    if isinstance(v, (list, tuple)) or (hasattr(v, "_fields") and isinstance(v, tuple)):
        return ("seq", tuple(_outcome(tf, np, u) for u in v))
    if hasattr(v, "dtype") and getattr(v.dtype, "name", "") == "string" and hasattr(v, "numpy"):
        return ("S", tuple(v.shape), repr(np.asarray(v.numpy()).tolist()))
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return G._outcome(tf, np, v)
    if isinstance(v, (bool, int, float, str, bytes, type(None))):
        return ("py", type(v).__name__, repr(v))
    if hasattr(v, "dtype") and hasattr(v, "shape"):   # (a NumPy value)
        a = np.asarray(v)
        return ("np", str(a.dtype), tuple(a.shape), a.tobytes() if a.dtype.kind != "O" else repr(a.tolist()))
    return ("obj", kind)


def run_program(tf: Any, np: Any, prog: dict, strategy: Any) -> dict:  # noqa: ARG001 - the harness's signature
    base = {"tf": tf, "np": np, "_c": _c}
    env = dict(base)
    for n, t in prog["inputs"]:
        env[n] = eval(t, env)  # noqa: S307 - our own text
    out: dict = {}
    rec = []
    for st, names, _ in prog["lines"]:
        exec(st, env)  # noqa: S102 - our own text
        rec.append((st, tuple(_outcome(tf, np, env[n]) for n in names)))
    out["eager"] = rec
    tensors = ("T", "S", "ragged", "sparse", "seq")
    traced = [(st, names) for (st, names, t), (_, o) in zip(prog["lines"], rec) if t and o[0][0] in tensors]
    names_in = [n for n, _ in prog["inputs"]]

    def f(d: dict) -> dict:
        e = dict(base, **d)
        for st, _ in traced:
            exec(st, e)  # noqa: S102 - our own text
        return {n: e[n] for _, ns in traced for n in ns if not isinstance(e[n], Err)}
    try:
        r = tf.function(f, autograph=False)({n: env[n] for n in names_in})
        out["function"] = sorted((k, _outcome(tf, np, v)) for k, v in r.items())
    except Exception as e:  # noqa: BLE001
        out["function"] = ("err", type(e).__name__)
    return out


G.run_program = run_program   # the harness's worker runs this generator's modes


def _diffs(prog: dict, w: dict, g: dict) -> list:
    out = []
    if "all" in w or "all" in g:
        return [("all", "", f"TF {w.get('all')!r:.200} sd {g.get('all')!r:.200}")] if w != g else []
    for (st, a), (_, b) in zip(w["eager"], g["eager"]):
        if not G._same(a, b):
            out.append(("eager", st, f"TF {a!r:.300}\n      sd {b!r:.300}"))
    if w["function"] != g["function"]:
        wf = dict(w["function"]) if isinstance(w["function"], list) else {}
        gf = dict(g["function"]) if isinstance(g["function"], list) else {}
        if not wf or not gf:
            out.append(("function", "", f"TF {w['function']!r:.300} sd {g['function']!r:.300}"))
        for k in sorted(set(wf) | set(gf)):
            if not G._same(wf.get(k), gf.get(k)):
                st = next((s for s, ns, _ in prog["lines"] if k in ns), k)
                out.append(("function", st, f"TF {wf.get(k)!r:.300}\n      sd {gf.get(k)!r:.300}"))
    return out


def compare(seed: int, n: int, calls: int, show: int = 20, log: Any = print) -> tuple[int, int]:
    """Programs 0..n-1 of `seed` on TF and on simdist: (disagreeing programs, calls), each printed."""
    want = G.run_backend(__file__, "tf", seed, n, calls)
    got = G.run_backend(__file__, "simdist", seed, n, calls)
    bad = 0
    for k, (w, g) in enumerate(zip(want, got)):
        if "crash" in w:
            log(f"=== program {k}: TF's process died (left out)")
            continue
        ds = _diffs(program(seed, k, calls), w, g)
        if ds:
            bad += 1
            log(f"=== program {k}: {len(ds)} differing outcomes")
            for m, st, detail in ds[:show]:
                log(f"  [{m}] {st}\n      {detail}")
    return bad, n * calls


def main() -> int:
    if sys.argv[1] == "--worker":
        G.worker_of(program, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                    sys.argv[7])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    if a.print:
        for k in range(a.n):
            print(f"# program {k}\n{text_of(program(a.seed, k, a.calls))}\n")
        return 0
    bad, calls = compare(a.seed, a.n, a.calls, a.show)
    print(f"PROGRAMS {a.n} CALLS {calls} DISAGREEING PROGRAMS {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
