"""The twentieth fuzzer's programs (docs/spec.md `ops.fuzz-raw`): programs drawn from TF 2.21's OpDefs.

The earlier generators draw public functions (by hand-written tables, or by TF's parameter names);
this one draws a bound raw op (fz20_ops.OPS) and fills its call from the op's OpDef alone, as
recorded in simdist/runtime/ops/raw_opdefs.json: every type attr from its allowed_values (all the
dtypes TF allows, int8/uint16/half/bfloat16/complex/bool/string included, and now and then one it
does not allow, to check the rejection), list inputs (number_attr/type_list_attr) of 1-3 tensors,
each attr from its OpDef type (bool, int incl. negative, float, list(int), list(float), type,
shape, string from allowed_values, and an invalid value now and then) or left at its default.
Tensor inputs are program inputs x0, x1, ... of rank 0-4 (zero-size dims included; inputs sharing
a type attr take broadcasting-compatible shapes, now and then incompatible ones) whose values
include NaN, +-inf, -0.0, subnormals and the integer extremes; inputs whose name says they are an
index (axis, perm, shape, paddings, indices, segment_ids, k, ...) are literals of their dtype
drawn from the first data input's shape. Each program calls one op in 2-4 snippets (fresh inputs
and attrs each) in one mode: eager, tape (the gradient of the outputs' sum w.r.t. the float
inputs, watched or Variables), function (tf.function, no signature) or sig (an input_signature).

Programs are fz14's (fz14_progs.Prog14), so fz14's runner, TF worker, comparison and minimizer
run them unchanged. Random streams: SeedSequence([seed, index, crc32("fz20"), crc32(role)]).
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from typing import Any

import numpy as np

_T = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(_T, "fuzz2"), os.path.join(_T, "fuzz3"), os.path.join(_T, "fuzz4"), os.path.join(_T, "fuzz14"),
           os.path.dirname(os.path.abspath(__file__))):
    if _p not in sys.path:
        sys.path.insert(0, _p)
from fz14_progs import Prog14  # noqa: E402
from fz20_ops import OPS, OPS_29, ops_of  # noqa: E402

MODES = ("eager", "tape", "function", "sig")
_MODE_P = (0.4, 0.25, 0.18, 0.17)
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
COMPLEX = ("complex64", "complex128")
DTYPES = FLOATS + INTS + COMPLEX + ("bool", "string")
_OPDEFS = os.path.join(os.path.dirname(_T), "simdist", "runtime", "ops", "raw_opdefs.json")
_FVALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 4.0, 0.25, -1.5, 7.0, 1e-3, 0.75, -0.5]
_FEDGE = [np.nan, np.inf, -np.inf, 1e-40, -1e-45, 5e-324, 3e38, -3.4e38, 65504.0, 1e300, -0.0, 1e-310]
_STRS = [b"", b"a", b"Hello", b" x y ", b"123", b"-4.5", b"\xc3\xa9t\xc3\xa9", b"AbC", b"nan", b"\t"]

# OpDef input names (either the OpDef's or the Python one) that hold indices, not data: drawn as
# literals from the first data input's shape
_AXES = {"axis", "dimension", "dim", "reduction_indices", "reduction_axes", "split_dim", "seq_dim", "batch_dim"}
_SHAPES = {"shape", "dims", "new_shape", "output_shape", "input_shape", "input_sizes", "filter_sizes", "a_shape",
           "b_shape", "sp_shape", "dense_shape", "orig_input_shape", "s0", "s1", "size", "image_size",
           "set_shape", "set1_shape", "set2_shape", "hypothesis_shape", "truth_shape", "input_shape", "output_dim0",
           "crop_size", "block_shape", "multiples", "begin", "end", "strides", "size_splits", "sizes"}
_COUNTS = {"k", "num_segments", "depth", "num_lower", "num_upper", "num_rows", "num_cols", "shift", "max_output_size",
           "max_output_size_per_class", "max_total_size", "nbins", "num_results", "skip", "index", "max_index",
           "dim_size", "num_elements", "num_true", "rounds"}
_IDS = {"indices", "segment_ids", "partitions", "seq_lengths", "ids", "sequence_length", "true_classes",
        "sampled_candidates", "argmax", "box_ind", "a_indices", "b_indices", "sp_indices", "input_indices",
        "sparse_indices", "set_indices", "set1_indices", "set2_indices", "hypothesis_indices", "truth_indices",
        "labels_indices", "targets", "labels", "sample", "row_pooling_sequence", "col_pooling_sequence"}
_PADS = {"paddings", "crops"}
# a stateless random op's seed (a vector of two), drawn as an index for the session-29 vocabulary only (OPS_29),
# so that the programs of earlier root seeds stay as they were
_SEEDS = {"seed"}
_OPS_29 = frozenset(OPS_29)
_EXACT = ("Abs", "All", "Any", "Arg", "BatchToSpace", "Bitcast", "Bitwise", "Broadcast", "Cast", "Ceil", "Concat", "Conj",
          "DepthToSpace", "Diag", "Dynamic", "EnsureShape", "Equal", "ExpandDims", "Fill", "Floor", "Gather",
          "Greater", "Guarantee", "Identity", "Invert", "Is", "Left", "Less", "Logical", "LowerBound", "Matrix",
          "Max", "Min", "MirrorPad", "Neg", "NotEqual", "OneHot", "OnesLike", "Pack", "Pad", "Prevent", "Rank",
          "Relu", "Reshape", "Reverse", "Right", "Rint", "Roll", "Round", "Scatter", "SelectV2", "Shape", "Sign",
          "Size", "Slice", "SpaceTo", "Split", "Squeeze", "StopGradient", "StridedSlice", "String", "TensorScatter",
          "Tile", "TopKV2", "Transpose", "Unique", "Unpack", "UnravelIndex", "UpperBound", "Where", "ZerosLike",
          "ClipByValue", "SegmentMax", "SegmentMin", "UnsortedSegmentMax", "UnsortedSegmentMin", "ListDiff",
          "InvertPermutation", "AsString", "Unicode", "Set", "DenseToDense", "DenseToSparse", "SparseToSparse")


def named(seed: int, index: int, name: str) -> np.random.Generator:
    """The stream `name` of program `index` under root seed `seed`."""
    return np.random.default_rng(np.random.SeedSequence([seed, index, zlib.crc32(b"fz20"), zlib.crc32(name.encode())]))


_SPECS: dict[str, Any] | None = None


def spec(op: str) -> dict[str, Any]:
    """The OpDef of `op` as recorded from TF 2.21 (inputs, attrs, allowed values, defaults)."""
    global _SPECS
    if _SPECS is None:
        with open(_OPDEFS, encoding="utf-8") as f:
            _SPECS = json.load(f)["ops"]
    return _SPECS[op]


def _lit(v: Any) -> str:
    if isinstance(v, float):
        if v != v:
            return "float('nan')"
        if v in (np.inf, -np.inf):
            return "float('inf')" if v > 0 else "-float('inf')"
    return repr(v)


class Snippet:
    """The random choices of one call of `op` (its inputs are appended to the program's)."""

    def __init__(self, rng: np.random.Generator, prog: Prog14, op: str) -> None:
        self.rng, self.prog, self.op, self.spec = rng, prog, op, spec(op)
        self.types: dict[str, str] = {}      # type attr -> drawn dtype
        self.base: tuple[int, ...] | None = None
        self.exact = op.startswith(_EXACT)

    # --- draws
    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def pick(self, xs: Any) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    def dtype(self, allowed: list[str] | None, default: str | None = None) -> str:
        """A dtype TF allows (88%; the attr's default now and then), else one it does not."""
        ok = [d for d in DTYPES if allowed is None or d in allowed]
        if default and self.r() < 0.25:
            return default
        if ok and self.r() < 0.88:
            return self.pick(ok)
        bad = [d for d in DTYPES if d not in ok]
        return self.pick(bad or ok)

    def shape(self) -> tuple[int, ...]:
        """A fresh shape of rank 0-4 (a zero-size dimension now and then)."""
        dims = [1, 2, 3, 4] if self.r() < 0.85 else [0, 1, 2, 3]
        return tuple(int(self.pick(dims)) for _ in range(int(self.pick([0, 1, 1, 2, 2, 3, 3, 4]))))

    def like(self, base: tuple[int, ...]) -> tuple[int, ...]:
        """A shape for an input sharing the first input's type attr: the same (mostly), a suffix,
        some dims 1 (broadcasting-compatible), or another shape (maybe incompatible)."""
        k = self.r()
        if k < 0.6:
            return base
        if k < 0.72:
            return base[self.i(0, len(base) + 1):]
        if k < 0.86:
            return tuple(1 if self.r() < 0.5 else n for n in base)
        return self.shape()

    # --- values
    def array(self, dt: str, shape: tuple[int, ...]) -> np.ndarray:
        size = int(np.prod(shape)) if shape else 1
        if dt in FLOATS or dt in COMPLEX:
            pool = _FVALS + (_FEDGE if self.r() < 0.4 else [])
            npdt = {"bfloat16": "float32"}.get(dt, dt)
            with np.errstate(all="ignore"):
                re_ = np.array([pool[k] for k in self.rng.integers(0, len(pool), size)], np.float64)
                if dt in COMPLEX:
                    im = np.array([pool[k] for k in self.rng.integers(0, len(pool), size)], np.float64)
                    return (re_ + 1j * im).astype(npdt).reshape(shape)
                return re_.astype(npdt).reshape(shape)
        if dt == "bool":
            return (self.rng.random(size) < 0.5).reshape(shape)
        info = np.iinfo(dt)
        pool = [0, 1, 2, 3, 5, 7] + ([-1, -4] if info.min < 0 else []) + \
            ([int(info.max), int(info.min), int(info.max) - 1] if self.r() < 0.3 else [])
        return np.array([pool[k] for k in self.rng.integers(0, len(pool), size)], dt).reshape(shape)

    def data(self, dt: str, shape: tuple[int, ...]) -> str:
        """A program input (a Variable now and then in eager/function/tape) of dtype dt; strings and
        index dtypes that TF does not let a tensor hold as a literal."""
        if dt == "string":
            vals = [self.pick(_STRS) for _ in range(int(np.prod(shape)) if shape else 1)]
            return f"tf.reshape(tf.constant({vals!r}, tf.string), {list(shape)})"
        if dt not in DTYPES:
            return f"tf.constant(1, tf.{dt})"
        a = self.array(dt, shape)
        mode = self.prog.mode
        var = mode != "sig" and self.r() < {"eager": 0.2, "function": 0.2, "tape": 0.35}[mode] and \
            (mode != "tape" or dt in FLOATS + COMPLEX)
        k = len(self.prog.inputs)
        self.prog.inputs.append((a, dt, bool(var)))
        self.prog.signature.append(None if self.r() < 0.1 else [None if self.r() < 0.35 else n for n in shape])
        if mode == "tape" and not var and dt in FLOATS + COMPLEX and self.r() < 0.85:
            self.prog.watched.append(k)
        return f"x{k}"

    def index(self, name: str, dt: str) -> str:
        """An index-like input's literal, drawn from the first data input's shape."""
        if self.base is None:
            self.base = self.shape()
        base = self.base
        rank, n0 = len(base), (base[0] if base else 1)
        bad = self.r() < 0.08
        if name in _SEEDS and self.op in _OPS_29:
            v = [self.pick([0, 1, 7, 42, -3]) for _ in range(2 if not bad else self.pick([1, 3]))]
        elif name in _AXES:
            a = self.i(-rank - bad, rank + bad) if rank else self.pick([0, -1])
            v: Any = a if self.r() < 0.7 else [a] if self.r() < 0.6 else sorted({a, self.i(-rank, max(rank, 1))})
        elif name == "perm":
            v = list(self.rng.permutation(rank)) if not bad else list(range(rank + 1))
            v = [int(x) for x in v]
        elif name in _PADS:
            v = [[self.i(0 - bad, 3), self.i(0, 2)] for _ in range(rank)] if self.r() < 0.9 else [[1, 1]]
        elif name in _SHAPES:
            if name in ("shape", "new_shape", "dims") and self.r() < 0.6:
                v = list(base)[::-1] if self.r() < 0.5 else [int(np.prod(base))] if base else []
                if v and self.r() < 0.3:
                    v[self.i(0, len(v))] = -1
            elif name in ("begin", "end", "strides", "size"):
                v = [self.i(-1 if name != "strides" else -2, max(n, 1) + 1) or (1 if name == "strides" else 0)
                     for n in base]
            elif name in ("block_shape", "crop_size", "image_size"):
                v = [self.pick([1, 2, 3]) for _ in range(self.pick([1, 2]))]
            elif name == "multiples":
                v = [self.i(0, 4) for _ in base]
            elif name == "size_splits":
                v = [n0 - 1, 1] if n0 > 1 else [n0] if self.r() < 0.7 else [-1, 1]
            else:
                v = [int(x) for x in self.shape()] if self.r() < 0.5 else list(base)
            if bad and v:
                v[0] = -2
        elif name in _COUNTS:
            v = self.pick([0, 1, 2, 3, 1, 2, 5, -1] if not bad else [-3, 2 ** 31 - 1])
        elif name in _IDS:
            shape = (n0,) if self.r() < 0.6 else self.shape()[:2]
            size = int(np.prod(shape)) if shape else 1
            ids = sorted(self.i(0 - bad, max(n0, 1) + bad) for _ in range(size))
            v = np.array(ids, np.int64).reshape(shape).tolist()
        else:
            return self.data(dt, self.shape() if self.r() < 0.5 else ())
        if dt in ("int32", "int64") and self.r() < 0.5:
            return f"{v!r}"       # (a Python list: the type attr's default or the OpDef's dtype)
        return f"tf.constant({v!r}, tf.{dt})" if dt in DTYPES else f"{v!r}"

    # --- attrs
    def attr(self, a: dict[str, Any]) -> str | None:
        """An attr's value from its OpDef type (None: left at its default)."""
        kind, name, allowed = a["type"], a["py"], a.get("allowed")
        if not a.get("required") and self.r() < 0.45:
            return None
        bad = self.r() < 0.04
        rank = len(self.base) if self.base is not None else 0
        if kind == "bool":
            return self.pick(["True", "False"]) if not bad else self.pick(["1", "'yes'", "None"])
        if kind == "int":
            if bad:
                return self.pick(["'2'", "1.5", "None"])
            if name in ("axis", "batch_dims", "seq_dim", "batch_dim"):
                return str(self.i(-rank - 1, rank + 1) if rank else self.pick([0, -1, 1]))
            if name in ("seed", "seed2"):
                return str(self.pick([0, 1, 7, 42]))
            if name.endswith("_mask"):
                return str(self.pick([0, 0, 1, 2, 3, 5]))
            lo = a.get("minimum", -2)
            return str(self.pick([v for v in (-2, -1, 0, 1, 2, 3, 4, 5) if v >= lo] or [lo]))
        if kind == "float":
            return self.pick(["0.0", "0.5", "1.0", "-1.0", "2.0", "1e-6", "0.2"]) if not bad else \
                self.pick(["float('nan')", "'x'", "None"])
        if kind == "string":
            if allowed:
                return repr(self.pick(allowed)) if not bad else self.pick(["'BOGUS'", "b'" + allowed[0] + "'", "3"])
            return repr(self._string(name))
        if kind == "type":
            return f"tf.{self.dtype(allowed, a.get('default_dtype'))}"
        if kind == "shape":
            dims: list[Any] = list(self.base or ())
            if self.r() < 0.4 and dims:
                dims[self.i(0, len(dims))] = None
            if self.r() < 0.2:
                dims = dims[1:]
            return self.pick([repr(dims), f"tf.TensorShape({dims!r})", "None"] if not bad else ["[-2]", "'x'"])
        if kind == "list(int)":
            return repr(self._ints(name, a)) if not bad else self.pick(["3", "[1.5]", "None"])
        if kind == "list(float)":
            if name == "pooling_ratio":
                return repr([1.0, self.pick([1.0, 1.44, 2.0]), self.pick([1.0, 1.73, 2.0]), 1.0])
            if name in ("aspect_ratio_range", "area_range"):
                return repr(self.pick([[0.75, 1.33], [0.05, 1.0], [0.5, 0.5], [1.0, 0.1]]))
            return repr([float(self.pick([0.5, 1.0, 2.0])) for _ in range(self.i(0, 4))])
        return None

    def _string(self, name: str) -> str:
        if name == "equation":
            return self.pick(["ij,jk->ik", "i,i->", "ij->ji", "...i->...", "bij,bjk->bik", "ii->i", "ij->", "i->i",
                              "ab,ab->a", "ij"])
        if name == "message":
            return "m"
        if name == "encoding":
            return self.pick(["UTF-8", "UTF-16-BE", "utf8"])
        if name == "fill":
            return self.pick(["", " ", "0", "ab"])
        return self.pick(["", "a", "x"])

    def _ints(self, name: str, a: dict[str, Any]) -> list[int]:
        default = a.get("default")
        n = len(default) if default else 5 if "3D" in self.op or "Volume" in self.op else 4
        if name in ("strides", "ksize", "ksizes", "dilations", "rates"):
            inner = [self.pick([1, 1, 2, 3]) for _ in range(n - 2)]
            return [1, *inner, 1] if self.r() < 0.85 else [self.pick([1, 2]) for _ in range(self.pick([n, n - 1]))]
        if name == "explicit_paddings":
            return [] if self.r() < 0.7 else [self.i(0, 2) for _ in range(2 * n)]
        rank = len(self.base) if self.base is not None else 0
        return [self.i(-rank, max(rank, 1)) for _ in range(self.i(0, 3))]

    # --- the call
    def call(self) -> str:
        args = self.spec["args"]
        inferred = self.spec["inferred"]
        for attr, info in inferred.items():
            if info.get("type") == "type":
                self.types[attr] = self.dtype(info.get("allowed"), info.get("default"))
        given = {a["attr"]: a for a in args if "attr" in a}
        for attr, a in given.items():   # (a type attr the caller gives, which types inputs: drawn once)
            if a["type"] == "type" and any(x.get("type_attr") == attr for x in args if "input" in x):
                self.types[attr] = self.dtype(a.get("allowed"), a.get("default_dtype"))
        parts: list[str] = []
        n_list = self.i(1, 4)
        for a in args:
            if "input" not in a:
                continue
            names = {a["input"], a["py"]}
            dt = self.types.get(a.get("type_attr", ""), a.get("dtype"))
            is_index = bool(names & (_AXES | _SHAPES | _COUNTS | _IDS | _PADS | {"perm"})) or \
                (self.op in _OPS_29 and bool(names & _SEEDS))
            if "type_list_attr" in a:
                items = [self.data(self.dtype(None), self.shape()) for _ in range(n_list)]
                val = "[" + ", ".join(items) + "]"
            elif "number_attr" in a:
                if is_index:
                    items = [self.index(a["input"], dt or "int32") for _ in range(n_list)]
                else:
                    if self.base is None:
                        self.base = self.shape()
                    items = [self.data(dt or "float32", self.like(self.base)) for _ in range(n_list)]
                val = self.pick(["[{}]", "({},)" if n_list == 1 else "({})"]).format(", ".join(items))
            elif is_index:
                val = self.index(a["input"] if a["input"] in _AXES | _SHAPES | _COUNTS | _IDS | _PADS | _SEEDS | {"perm"}
                                 else a["py"], dt or "int32")
            else:
                if self.base is None:
                    self.base = self.shape()
                    shape = self.base
                else:
                    shape = self.like(self.base)
                val = self.data(dt or "float32", shape)
            parts.append(f"{a['py']}={val}")
        for a in args:
            if "attr" in a and not (a["type"] == "type" and a["attr"] in self.types):
                v = self.attr(a)
                if v is not None:
                    parts.append(f"{a['py']}={v}")
            elif "attr" in a:
                parts.append(f"{a['py']}=tf.{self.types[a['attr']]}")
        if self.r() < 0.1:
            parts.append("name='op'")
        order = list(self.rng.permutation(len(parts)))
        text = ", ".join(parts[k] for k in order)
        if self.r() < 0.02 and parts:   # (raw ops are keyword-only: a positional argument is TF's TypeError)
            text = parts[0].split("=", 1)[1] + (", " + ", ".join(parts[1:]) if parts[1:] else "")
        return f"return tf.raw_ops.{self.op}({text})"


def generate(seed: int, index: int, mode: str | None = None) -> Prog14:
    """Program `index` of root seed `seed` (mode drawn unless given): one raw op in 2-4 snippets."""
    rng = named(seed, index, "program")
    drawn = str(rng.choice(MODES, p=_MODE_P))
    vocabulary = ops_of(seed)
    op = vocabulary[int(rng.integers(len(vocabulary)))]
    mode = mode or drawn
    prog = Prog14(seed, index, mode, [])
    prog.svals = [str(rng.choice(["2", "-1", "0", "0.5", "3", "True", "2.5"])) for _ in range(2)]
    prog.svals.insert(1, prog.svals[0])
    prog.persistent = bool(rng.random() < 0.3)
    prog.order = 2 if rng.random() < 0.15 else 1
    prog.watch_accessed = bool(rng.random() < 0.85)
    prog.unconnected = str(rng.choice(["NONE", "ZERO"]))
    for j in range(int(rng.integers(2, 5))):
        s = Snippet(named(seed, index, f"snippet{j}"), prog, op)
        first = len(prog.inputs)
        prog.exprs.append(s.call())
        prog.labels.append(f"raw:{op}")
        prog.exact.append(s.exact or all(dt in INTS + ("bool",) for _, dt, _ in prog.inputs[first:]))
    return prog


# Ops whose TF answers do not depend on the CPU (no oneDNN kernel, no vrcpps/vrsqrtps table, no
# packet-width-dependent sum or LAPACK step): data movement, comparisons, integer and bitwise ops,
# max/min, casts and strings. The bounded slice (test_fuzz20_tf.py) draws from these only, so its
# kept answers, recorded on any x86 host, hold on the reference CPU too.
_HOST_DEPENDENT = ("Pool", "MatrixInverse", "MatrixSolve", "MatrixDeterminant", "MatrixSquareRoot",
                   "MatrixTriangularSolve", "IsotonicRegression")


def host_independent(op: str) -> bool:
    """Whether TF's answers for `op` are the same on every x86 CPU (see _HOST_DEPENDENT)."""
    return op.startswith(_EXACT) and not any(part in op for part in _HOST_DEPENDENT)


def op_of(seed: int, index: int) -> str:
    """The raw op program `index` of root seed `seed` calls (without drawing the program)."""
    rng = named(seed, index, "program")
    rng.choice(MODES, p=_MODE_P)
    vocabulary = ops_of(seed)
    return vocabulary[int(rng.integers(len(vocabulary)))]
