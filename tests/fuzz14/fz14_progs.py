"""The fourteenth fuzzer's programs (docs/spec.md `ops.fuzz14`): another team's generator. The
earlier four draw from op tables written by hand; this one draws from TF 2.21's public API itself
(fz14_vocab.py: every function of tf, tf.math, tf.nn, tf.linalg, tf.signal, tf.image,
tf.strings, tf.bitwise, tf.random and tf.dtypes, with TF's own parameter names, generated from
TensorFlow), and fills each parameter from its NAME (`axis` an axis form, `dtype` a dtype form,
`seed` a seed, `x`/`input`/`image`... an operand, ...): required ones positionally or by keyword,
optional ones now and then by keyword. Operands come in every form users write: inputs (tensors
or Variables of every dtype, complex included), Python scalars and nested lists, NumPy arrays and
NumPy scalars of every NumPy dtype, the per-call Python scalar `s`, edge values (NaN, +-inf,
-0.0, subnormals, integer extremes) and empty shapes. Besides op calls: operator expressions
over tensors, Variables, ndarrays and scalars (both orders, augmented assignment, unary), chains
of two calls, and random ops with seeds (global seed then op seed, stateless seeds, Generators).

Modes are the fourth fuzzer's (eager, function, sig, tape, dist); the tape mode is the third's
(nested tapes for a second order, persistent, watch_accessed_variables, watched tensors).
Random streams: SeedSequence([seed, index, crc32("fz14"), crc32(role)]).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_T = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(_T, "fuzz2"), os.path.join(_T, "fuzz3"), os.path.join(_T, "fuzz4"),
           os.path.dirname(os.path.abspath(__file__))):
    if _p not in sys.path:
        sys.path.insert(0, _p)
from fz4_progs import Prog4  # noqa: E402
from fz14_vocab import OPS  # noqa: E402

MODES = ("eager", "function", "sig", "tape", "dist")
_MODE_P = (0.4, 0.14, 0.12, 0.2, 0.14)
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int32", "int64", "int8", "int16", "uint8", "uint16", "uint32", "uint64")
COMPLEX = ("complex64", "complex128")
ALL = FLOATS + INTS + COMPLEX + ("bool",)
_FVALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 4.0, 0.25, -1.5, 7.0, 1e-3]
_FEDGE = [np.nan, np.inf, -np.inf, 1e-40, -1e-45, 5e-324, 3e38, -3.4e38, 65504.0, 1e300]
_PYSCAL = ["2", "-1", "0", "3", "0.5", "-2.5", "True", "False", "1e-40", "float('nan')", "float('inf')", "-0.0",
           "2 ** 31", "-(2 ** 63)", "255", "1.0"]


def named(seed: int, index: int, name: str) -> np.random.Generator:
    """The stream `name` of program `index` under root seed `seed`."""
    return np.random.default_rng(np.random.SeedSequence([seed, index, zlib.crc32(b"fz14"), zlib.crc32(name.encode())]))


@dataclass
class Prog14(Prog4):
    """A fourth-fuzzer program (fz4_progs.Prog4) whose tape options include nesting (`order` 2:
    an outer tape takes the gradient of the inner tape's) and watch_accessed_variables."""

    @property
    def steps(self) -> tuple:
        return (b"fz14",) + super().steps + (self.order, self.watch_accessed)

    def source(self) -> str:
        text = super().source()
        if self.mode == "tape":
            text = text.replace("# each f under tf.GradientTape(", f"# each f under (order {self.order}: an outer "
                                f"tape around) tf.GradientTape(watch_accessed_variables={self.watch_accessed}, ")
        return text


@dataclass
class Opd:
    """An operand: its source text, dtype (None: a Python value TF infers) and shape."""
    text: str
    dtype: str | None
    shape: tuple[int, ...]


def _lit(v: float | int | bool) -> str:
    if isinstance(v, float):
        if v != v:
            return "float('nan')"
        if v in (np.inf, -np.inf):
            return "float('inf')" if v > 0 else "-float('inf')"
    return repr(v)


class Draw:
    """The random choices of one snippet over the program's inputs."""

    def __init__(self, rng: np.random.Generator, xs: list[Opd], vars_: list[bool]) -> None:
        self.rng, self.xs, self.vars = rng, xs, vars_

    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def pick(self, xs: Any) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    def value(self, dt: str | None) -> str:
        if dt is None or dt in FLOATS:
            return _lit(float(self.pick(_FVALS if self.r() < 0.8 else _FEDGE)))
        if dt == "bool":
            return self.pick(["True", "False"])
        if dt in COMPLEX:
            return f"complex({self.value('float32')}, {self.value('float32')})"
        info = np.iinfo(dt)
        return str(self.pick([0, 1, 2, 3, 5] + ([-1, -4] if info.min < 0 else []) +
                             ([int(info.max), int(info.min)] if self.r() < 0.2 else [])))

    def nested(self, dt: str | None, shape: tuple[int, ...]) -> str:
        if not shape:
            return self.value(dt)
        return "[" + ", ".join(self.nested(dt, shape[1:]) for _ in range(shape[0])) + "]"

    def npdt(self, dt: str) -> str:
        return {"bool": "np.bool_", "bfloat16": "np.float32"}.get(dt, f"np.{dt}")

    def dtype_text(self, dt: str | None = None) -> str:
        dt = dt or self.pick(ALL)
        return self.pick([f"tf.{dt}", f"tf.{dt}", f"'{dt}'", self.npdt(dt) if dt != "bfloat16" else "tf.bfloat16"])

    def operand(self, like: Opd | None = None) -> Opd:
        """An input, or a literal form of an input's (or like's) shape: Python scalar, nested list,
        ndarray or NumPy scalar of some dtype, tf.constant, `s`."""
        base = like or self.pick(self.xs)
        k = self.r()
        if like is None and k < 0.55:
            return base
        shape = base.shape
        if shape and self.r() < 0.2:
            shape = shape[self.i(0, len(shape) + 1):]
        dt = base.dtype if base.dtype and self.r() < 0.6 else self.pick(ALL)
        k = self.r()
        if k < 0.2:
            return Opd(self.pick(_PYSCAL), None, ())
        if k < 0.4:
            return Opd(self.nested(dt if dt not in COMPLEX else "float32", shape), None, shape)
        if k < 0.65:
            return Opd(f"np.array({self.nested(dt, shape)}, dtype={self.npdt(dt)})", dt, shape)
        if k < 0.75:
            return Opd(f"{self.npdt(dt)}({self.value(dt)})", dt, ())
        if k < 0.9:
            return Opd(f"tf.constant({self.nested(dt, shape)}, dtype={self.dtype_text(dt)})", dt, shape)
        if k < 0.95:
            return Opd("s", None, ())
        return self.pick(self.xs)

    def axis(self, rank: int, many: bool = True) -> str:
        if rank == 0:
            return self.pick(["None", "0", "-1", "[]"])
        a = self.i(-rank, rank)
        forms = [str(a), str(a), "-1", f"tf.constant({a})", f"np.int64({a})", "None"]
        if many:
            forms += [f"[{a}]", f"({a}, {(a + 1) % rank})" if rank > 1 else f"({a},)", "[]"]
        if self.r() < 0.08:
            forms += [str(rank), str(-rank - 1), "1.5"]
        return self.pick(forms)

    def shape(self, like: tuple[int, ...]) -> str:
        sh = self.pick([like, (2, 3), (3,), (), (0,), (2, 0), (1, 2, 2)]) if self.r() < 0.7 else like
        items = ", ".join(str(n) for n in sh)
        return self.pick([f"[{items}]", f"({items}{',' if len(sh) == 1 else ''})", f"tf.constant([{items}], tf.int32)",
                          f"np.array([{items}], dtype=np.int64)", f"tf.TensorShape([{items}])"])


# ---------------------------------------------------------------- parameters by name

_OPERAND = {"x", "y", "input", "image", "images", "tensor", "value", "input_tensor", "data", "a", "b", "features",
            "logits", "labels", "params", "rhs", "matrix", "t", "operand", "signal", "signals", "arr", "x1", "x2",
            "real", "imag", "input_", "img1", "img2", "predictions", "targets", "bias", "mean", "variance", "scale",
            "offset", "weights", "filters", "filter", "updates", "condition", "diagonal", "boxes", "scores",
            "sorted_sequence", "coeffs", "chol", "lower_upper", "diagonals", "grad_a", "grad_b", "true_classes",
            "hypothesis", "truth", "stfts", "mdcts", "probs", "logits", "var", "type_value"}
_LISTS = {"inputs", "t_list", "values:concat", "values:stack", "values:parallel_stack", "values:identity_n",
          "values:math.accumulate_n", "values:meshgrid", "*inputs", "*args"}
_BOOLS = {"keepdims", "exclusive", "reverse", "transpose_a", "transpose_b", "adjoint", "adjoint_a", "adjoint_b",
          "sorted", "stable", "conjugate", "lower", "full_matrices", "compute_uv", "periodic", "pad_end",
          "approximate", "normalized", "centered", "binary_output", "validate_indices", "eigvals_only", "fast",
          "is_max_k", "saturate", "antialias", "preserve_aspect_ratio", "use_cudnn_on_gpu", "a_is_sparse",
          "b_is_sparse", "log_input", "pseudo_random", "overlapping", "partial_pivoting", "verify_shape",
          "allow_broadcast", "replace_global", "use_norm", "scale_after_normalization", "decreasing",
          "include_batch_in_index", "clip_boxes", "pad_to_max_output_size", "sorted_input", "shortest", "scientific",
          "remove_accidental_hits", "unique", "aggregate_to_topk", "perturb_singular"}
_DTYPES = {"dtype", "out_type", "output_type", "output_dtype", "index_type", "out_idx", "Tcomplex", "Treal",
           "tensor_dtype", "dtype_hint", "output_idx_type"}
_SHAPES = {"shape", "output_shape", "dims", "batch_shape", "input_shape", "noise_shape", "shape_x", "shape_y",
           "crop_size", "ksize", "strides", "dilations", "block_shape", "fft_length", "size", "window_shape",
           "multiples", "image_size", "sizes", "rates", "ksizes"}
_COUNTS = {"k", "num", "depth", "num_segments", "n", "num_rows", "num_columns", "num_classes", "num_true",
           "num_sampled", "block_size", "frame_length", "frame_step", "window_length", "maxlen", "minlength",
           "maxlength", "nbins", "num_partitions", "max_output_size", "target_height", "target_width",
           "offset_height", "offset_width", "range_max", "repeats", "shift", "num_lower", "num_upper", "batch_dims",
           "num_samples", "num_buckets", "precision", "width", "rank", "rounds", "index", "max_index", "dim",
           "num_cols", "seq_axis", "batch_axis", "reduction_dimension", "num_results", "skip", "max_attempts",
           "frame_step", "depth_radius", "num_or_size_splits", "pos", "len", "ngram_width"}
_FLOATS = {"alpha", "beta", "epsilon", "delta", "rate", "clip_norm", "max_delta", "gamma", "max_val", "stddev",
           "variance_epsilon", "contrast_factor", "gain", "saturation_factor", "central_fraction",
           "score_threshold", "iou_threshold", "tol", "rcond", "l2_regularizer", "minval", "maxval", "lam",
           "clip_value_min", "clip_value_max", "on_value", "off_value", "constant_values", "start", "stop", "limit",
           "recall_target", "scalar", "q", "bias", "min_object_covered", "pad_value", "padding_value", "max_norm",
           "sample_rate", "lower_edge_hertz", "upper_edge_hertz", "soft_nms_sigma", "filter_sigma", "k1", "k2",
           "pos_weight", "extrapolation_value", "fill"}
_CHOICES = {
    "padding": ["'SAME'", "'VALID'", "'same'"], "direction": ["'ASCENDING'", "'DESCENDING'", "'UP'"],
    "ord": ["'euclidean'", "1", "2", "np.inf", "'fro'", "-1", "0.5"], "mode": ["'CONSTANT'", "'REFLECT'",
                                                                             "'SYMMETRIC'", "'constant'", "'wrap'"],
    "method": ["'bilinear'", "'nearest'", "'bicubic'", "'area'", "'lanczos3'"], "side": ["'left'", "'right'"],
    "norm": ["None", "'ortho'", "'backward'", "'forward'"], "combiner": ["'mean'", "'sum'", "'sqrtn'"],
    "equation": ["'ij,jk->ik'", "'i,i->'", "'ij->ji'", "'...i->...'", "'bij,bjk->bik'", "'ii->i'", "'ij->'"],
    "data_format": ["'NHWC'", "'NCHW'", "'NWC'"], "message": ["'m'"], "template": ["'a {} b'", "'{}'"],
    "encoding": ["'UTF-8'"], "pattern": ["'a.'", "'[0-9]+'"], "rewrite": ["'x'"], "separator": ["' '", "','"],
    "placeholder": ["'{}'"], "unit": ["'BYTE'", "'UTF8_CHAR'"], "alg": ["'auto_select'", "'philox'", "'threefry'"],
    "layout": ["'NHWC'"], "op": ["'sum'"], "pooling_type": ["'MAX'", "'AVG'"], "type": ["'I'", "'II'"],
}


def _rank(o: Opd) -> int:
    return len(o.shape)


def _arg(d: Draw, op: str, pname: str, first: Opd) -> str | None:
    """The value of parameter `pname` of `op` in some form, or None (no rule: left at its default)."""
    leaf = op.split(".")[-1]
    if f"{pname}:{op}" in _LISTS or pname in _LISTS:
        n = d.i(1, 4)
        return d.pick(["[{}]", "({})", "[{}]"]).format(", ".join(d.operand(first).text for _ in range(n)) +
                                                         ("," if n == 1 else ""))
    if pname in _OPERAND or (pname == "values" and leaf not in ("concat", "stack")):
        return d.operand(None if pname in ("x", "input", "tensor", "image", "images", "input_tensor", "values")
                         else first).text
    if pname in _BOOLS:
        return d.pick(["True", "False", "True", "np.bool_(True)", "1"] if d.r() < 0.95 else ["'yes'", "None"])
    if pname in _DTYPES or pname == "type" and leaf == "bitcast":
        return d.dtype_text(d.pick(("int32", "int64") if pname in ("out_type", "output_type", "out_idx",
                                                                  "index_type") and d.r() < 0.8 else ALL))
    if pname in ("axis", "axes", "reduction_indices", "seq_dim"):
        return d.axis(_rank(first), many=pname == "axes" or d.r() < 0.5)
    if pname == "seed":
        if "stateless" in op or op in ("random.fold_in", "random.split", "random_index_shuffle", "image.ssim"):
            return d.pick(["[1, 2]", "(3, 4)", "tf.constant([5, 6])", "np.array([7, 8], np.int64)",
                           "tf.constant([1, 2], tf.int32)", "[0, 0]"])
        return d.pick(["1", "42", "None", "7"])
    if pname in _SHAPES:
        return d.shape(first.shape)
    if pname in _COUNTS:
        return d.pick(["0", "1", "2", "3", "1", "2", "-1", "np.int64(2)", "tf.constant(2)", "5"])
    if pname in _FLOATS:
        return d.pick(["0.5", "1.0", "0", "2", "-1.0", "np.float64(0.1)", "1e-6", "float('nan')", "3.0",
                       "tf.constant(0.5)", "np.float32(2)"])
    if pname in _CHOICES:
        return d.pick(_CHOICES[pname])
    if pname in ("perm",):
        p = list(range(_rank(first)))[::-1]
        return d.pick([str(p), str(tuple(p)), f"tf.constant({p})", "[0]"])
    if pname in ("paddings", "crops", "base_paddings"):
        pads = [[d.i(0, 3), d.i(0, 2)] for _ in range(_rank(first))]
        return d.pick([str(pads), f"tf.constant({pads})", f"np.array({pads})", "[[1, 1]]"])
    if pname in ("segment_ids", "indices", "partitions", "ids", "seq_lengths", "sequence_length", "lengths",
                 "begin", "end", "stride", "sampled_candidates", "repeats"):
        n0 = first.shape[0] if first.shape else 1
        seg = sorted(d.i(0, max(n0, 1)) for _ in range(n0))
        return d.pick([str(seg), f"tf.constant({seg})", f"np.array({seg}, np.int64)", "[0]", f"[{n0}]", "[-1]",
                       f"[[{d.i(0, max(n0, 1))}]]"])
    if pname in ("min_val", "minval", "clip_value_min", "value_range", "aspect_ratio_range", "area_range"):
        return d.pick(["[0.0, 1.0]", "(0.0, 5.0)", "[1, 0]"])
    return None


def t_call(d: Draw) -> tuple[str, str, bool]:
    """One call of a public TF function, its parameters filled by name."""
    op, params = OPS[d.i(0, len(OPS))]
    first = d.pick(d.xs)
    args: list[str] = []
    positional = True
    for pname, required in params:
        if pname == "name":
            if d.r() < 0.1:
                args.append("name='op'")
            continue
        if not required and d.r() > 0.3:
            positional = False
            continue
        val = _arg(d, op, pname, first)
        if val is None:
            if required and not pname.startswith("*"):
                val = d.operand(first).text
            else:
                positional = False
                continue
        if pname.startswith("*"):
            args.append(val.strip("[]()").rstrip(","))
            positional = False
            continue
        if pname == "x" and first.text == "s" or not (positional and required and d.r() < 0.7):
            positional = False
            args.append(f"{pname}={val}")
        else:
            args.append(val)
    call = f"tf.{op}({', '.join(args)})"
    if op.startswith("random.") and "stateless" not in op:
        return f"tf.random.set_seed({d.i(0, 100)})\nreturn {call}", f"call:{op}", False
    return f"return {call}", f"call:{op}", _exact(op)


_EXACT = ("gather", "reshape", "transpose", "concat", "stack", "tile", "pad", "reverse", "roll", "slice", "split",
          "squeeze", "expand_dims", "where", "boolean_mask", "one_hot", "shape", "size", "rank", "fill", "zeros",
          "ones", "eye", "identity", "cast", "bitwise.", "equal", "less", "greater", "logical", "argmax", "argmin",
          "reduce_max", "reduce_min", "reduce_all", "reduce_any", "maximum", "minimum", "abs", "negative", "sign",
          "floor", "ceil", "round", "rint", "sort", "top_k", "unique", "clip_by_value", "flip", "rot90",
          "sequence_mask", "strided_slice", "broadcast_to", "scatter", "searchsorted", "is_nan", "is_inf",
          "is_finite", "truncate", "add", "subtract", "multiply", "square", "unstack", "repeat", "bincount",
          "count_nonzero", "unravel_index", "invert_permutation", "band_part", "diag", "matrix_transpose", "adjoint",
          "dynamic_partition", "dynamic_stitch", "batch_to_space", "space_to", "depth_to_space", "conj", "real",
          "imag", "complex", "bitcast", "saturate_cast", "mod", "floordiv", "floormod", "relu", "histogram")


def _exact(op: str) -> bool:
    """Whether tf.<op>'s values are compared bit for bit: its leaf name starts with an _EXACT prefix, or the op
    lies in an _EXACT module ('bitwise.': only prefixes ending in '.' name modules, else 'imag' would take in
    every image.* op and 'sign' every signal.* op)."""
    leaf = op.split(".")[-1]
    return any(op.startswith(p) if p.endswith(".") else leaf.startswith(p) for p in _EXACT) and "segment" not in leaf


_BIN = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "@"]


def t_operator(d: Draw) -> tuple[str, str, bool]:
    """Python operators on tensors, Variables, ndarrays and scalars, either order; unary; augmented."""
    a = d.pick(d.xs)
    b = d.operand(a)
    op = d.pick(_BIN)
    k = d.r()
    if k < 0.15:
        u = d.pick(["-", "~", "abs(", "+", "not "])
        return f"return {u}{a.text}{')' if u == 'abs(' else ''}", f"unary:{u.strip()}", True
    left, right = (a.text, b.text) if d.r() < 0.6 else (b.text, a.text)
    if k < 0.3:
        return f"y = {left}\ny {op}= {right}\nreturn y", f"augmented:{op}=", op not in ("**", "@")
    return f"return {left} {op} {right}", f"operator:{op}", op not in ("**", "@")


def t_chain(d: Draw) -> tuple[str, str, bool]:
    """Two calls: the second one's first operand is the first one's result."""
    body1, label1, ex1 = t_call(d)
    last = body1.split("\n")[-1][len("return "):]
    pre = "\n".join(body1.split("\n")[:-1])
    y = Opd("y", None, d.pick(d.xs).shape)
    d2 = Draw(d.rng, [y], d.vars)
    body2, label2, ex2 = t_call(d2) if d.r() < 0.6 else t_operator(d2)
    return (pre + "\n" if pre else "") + f"y = {last}\n{body2}", f"{label1}>{label2}", ex1 and ex2


def t_random(d: Draw) -> tuple[str, str, bool]:
    """Random ops with seeds: stateless seeds, a global seed then op seeds, Generators from a seed."""
    sh = d.shape(d.pick(d.xs).shape)
    dt = d.pick(["", ", dtype=tf.float64", ", dtype=tf.float16", ", dtype=tf.int32", ", dtype=tf.bfloat16"])
    k = d.r()
    if k < 0.4:
        f = d.pick(["stateless_uniform", "stateless_normal", "stateless_truncated_normal"])
        extra = ", minval=0, maxval=10" if "int" in dt and f == "stateless_uniform" else dt if "int" not in dt else ""
        return (f"return tf.random.{f}({sh}, seed={d.pick(['[1, 2]', '(3, 4)', 'tf.constant([5, 6], tf.int64)'])}"
                f"{extra})"), f"random:{f}", True
    if k < 0.75:
        f = d.pick(["uniform", "normal", "truncated_normal"])
        extra = ", minval=0, maxval=10" if "int" in dt and f == "uniform" else dt if "int" not in dt else ""
        return (f"tf.random.set_seed({d.i(0, 100)})\na = tf.random.{f}({sh}, seed={d.i(0, 9)}{extra})\n"
                f"b = tf.random.{f}({sh}{extra})\nreturn [a, b]"), f"random:{f}", True
    f = d.pick(["normal", "uniform", "truncated_normal"])
    return (f"g = tf.random.Generator.from_seed({d.i(0, 100)}{d.pick(['', ', alg=' + repr('philox')])})\n"
            f"return [g.{f}({sh}), g.{f}({sh})]"), f"random:Generator.{f}", True


TEMPLATES = [(t_call, 0.6), (t_operator, 0.2), (t_chain, 0.12), (t_random, 0.08)]


def _array(rng: np.random.Generator, dt: str, shape: tuple[int, ...]) -> np.ndarray:
    size = int(np.prod(shape)) if shape else 1
    if dt in FLOATS or dt in COMPLEX:
        pool = _FVALS + (_FEDGE if rng.random() < 0.35 else [])
        npdt = {"bfloat16": "float32"}.get(dt, dt)
        with np.errstate(over="ignore"):
            re_ = np.array([pool[k] for k in rng.integers(0, len(pool), size)], np.float64)
            if dt in COMPLEX:
                im = np.array([pool[k] for k in rng.integers(0, len(_FVALS), size)], np.float64)
                return (re_ + 1j * im).astype(npdt).reshape(shape)
            a = re_.astype(npdt)
            if dt == "float16" or dt == "bfloat16":   # (no inf from overflowing a finite pool value)
                a = np.where(np.isinf(a) & np.isfinite(re_), np.float16(65504.0) * np.sign(re_), a).astype(npdt)
            return a.reshape(shape)
    if dt == "bool":
        return (rng.random(size) < 0.5).reshape(shape)
    info = np.iinfo(dt)
    pool = [0, 1, 2, 3, 5, 7] + ([-1, -4] if info.min < 0 else []) + \
        ([int(info.max), int(info.min)] if rng.random() < 0.3 else [])
    return np.array([pool[k] for k in rng.integers(0, len(pool), size)], dt).reshape(shape)


def generate(seed: int, index: int, mode: str | None = None) -> Prog14:
    """Program `index` of root seed `seed` (mode drawn unless given)."""
    rng = named(seed, index, "program")
    mode = mode or str(rng.choice(MODES, p=_MODE_P))
    prog = Prog14(seed, index, mode, [])
    ri = named(seed, index, "inputs")
    base = tuple(int(ri.choice([0, 1, 2, 3, 4] if ri.random() < 0.1 else [1, 2, 3, 4]))
                 for _ in range(int(ri.choice([0, 1, 1, 2, 2, 3, 4]))))
    xs: list[Opd] = []
    vars_: list[bool] = []
    for k in range(int(ri.integers(1, 4))):
        shape = base if ri.random() < 0.7 else base[int(ri.integers(0, len(base) + 1)):]
        if mode == "tape":
            dt = str(ri.choice(["float32", "float32", "float64", "float16", "int32", "complex64"]))
        else:
            dt = str(ri.choice(["float32", "float32", "float64", "int32", "int64", "bool"] if ri.random() < 0.6
                               else list(ALL)))
        var = bool(ri.random() < {"eager": 0.35, "function": 0.3, "sig": 0.0, "tape": 0.6, "dist": 0.3}[mode])
        prog.inputs.append((_array(ri, dt, shape), dt, var))
        if mode == "dist":
            prog.inputs2.append(_array(ri, dt, shape))
        prog.signature.append(None if ri.random() < 0.1 else [None if ri.random() < 0.35 else n for n in shape])
        xs.append(Opd(f"x{k}", dt, shape))
        vars_.append(var)
    prog.svals = [str(ri.choice(["2", "-1", "0", "0.5", "3", "True", "2.5"])) for _ in range(2)]
    prog.svals.insert(1, prog.svals[0])
    prog.persistent = bool(ri.random() < 0.4)
    prog.order = 2 if ri.random() < 0.3 else 1
    prog.watch_accessed = bool(ri.random() < 0.8)
    prog.watched = [k for k in range(len(xs)) if not vars_[k] and ri.random() < 0.5]
    prog.unconnected = str(ri.choice(["NONE", "ZERO"]))
    fns, ps = zip(*TEMPLATES)
    p = np.array(ps) / sum(ps)
    for j in range(int(rng.integers(3, 7))):
        rs = named(seed, index, f"snippet{j}")
        body, label, exact = fns[int(rs.choice(len(fns), p=p))](Draw(rs, xs, vars_))
        prog.exprs.append(body)
        prog.labels.append(label)
        prog.exact.append(bool(exact))
    return prog


def isolate(prog: Prog14, k: int, mode: str | None = None) -> Prog14:
    """The program with snippet k only (all inputs kept: the tape and signature options name them)."""
    mode = mode or prog.mode
    return dataclasses.replace(prog, mode=mode, exprs=[prog.exprs[k]], exact=[prog.exact[k]], labels=[prog.labels[k]],
                               inputs2=prog.inputs2 if mode == "dist" else [])
