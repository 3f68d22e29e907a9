"""A throwaway differential generator, round thirteen (fz55b): THE FAMILIES fz54b's TABLE LEFT OUT, written from TF's
public API documentation alone (the docstrings' arguments and their documented values), sharing no code with the
earlier generators.

fz54b drew tf.math / tf.nn / tf.linalg / top-level array functions from a table of signatures. This one draws short
programs (2-6 calls) in the families an outside tester reaches next: tf.signal (fft/ifft 1-3-D and n-D, rfft/irfft
with fft_length, dct/idct of types 1-4 and norm, frame, overlap_and_add, stft/inverse_stft, mdct, windows,
fftshift, mel matrices, mfccs), tf.image (flips, rot90, transpose, resize of every method with antialias and
preserve_aspect_ratio, resize_with_pad / crop_or_pad, crops and pads to bounding boxes, central_crop, colour space
round trips, adjust_*, convert_image_dtype with saturate, total_variation, psnr, ssim, sobel_edges, image_gradients,
extract_patches, per_image_standardization), tf.strings (length of both units, substr, split, join, reduce_join,
regex, strip, to_number, as_string's formats, hashes, upper/lower, bytes_split, ngrams, unicode_*), tf.sparse
(from_dense / SparseTensor of unordered indices, to_dense, reorder, reduce_sum/max with output_is_sparse, add,
concat, slice, reshape, transpose, softmax, sparse_dense_matmul, fill_empty_rows, retain, maximum/minimum,
segment_*), tf.ragged (constant, from_row_lengths / value_rowids / row_splits, reductions, to_tensor, boolean_mask,
row_splits <-> segment ids, stack, concat), tf.bitwise (shifts by counts beyond the bit width and negative ones, on
every int dtype), segment ops (sorted and unsorted, negative ids, num_segments, sparse_segment_*), and tf.sets.
Inputs carry edge values (NaN, +-inf, -0.0, subnormals, int extremes, empty dims, empty strings and non-ASCII
bytes); one call in ~8 is deliberately bad (a dtype the op rejects, a bad shape, an out-of-range argument).

Three modes, TF 2.21 and simdist each in its own process: eager (every statement's outcome; a failing statement's
error class, the statements depending on it skipped), tf.function (the body traced once on the inputs: each
statement's trace-time error class, then the call's values or its error class), and GradientTape (dense float inputs
watched, the gradient of the sum of every finite float output). Values compared bit for bit (NaN by class), with
dtypes, shapes, ragged row splits, sparse indices and dense shapes.

    python tests/fuzz55b/fz55b_gen.py SEED N [--show 20] [--print] [--only K]

Deterministic: np.random.default_rng([SEED, k]) draws program k.
"""
from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("FZ55B_ROOT", os.path.dirname(os.path.dirname(HERE)))

FLT = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int32", "int64", "int8", "int16", "uint8", "uint16", "uint32", "uint64"]
CPX = ["complex64", "complex128"]
INFO = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1),
        "uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}
TINY = {"float16": "6e-08", "bfloat16": "1e-39", "float32": "1e-40", "float64": "5e-324"}
HUGE = {"float16": "65504.0", "bfloat16": "3e38", "float32": "3.4e38", "float64": "1.7e308"}
WORDS = ["", "a", "Hello", "tf", "x y", "  pad ", "12", "-3.5", "1e3", "nan", "inf", "0x1F", "abc,def", "\u00e9t\u00e9",
         "\u4e2d\u6587", "A1b2", "  ", "foo bar baz", "+7", "3.", "--1", "\u00df"]


class V:
    """A live value: name, kind (dense | str | ragged | sparse), dtype, static shape (tuple; ragged: None inner)."""

    def __init__(self, name: str, kind: str, dtype: str, shape: tuple) -> None:
        self.name, self.kind, self.dtype, self.shape = name, kind, dtype, shape

    @property
    def rank(self) -> int:
        return len(self.shape)


class Prog:
    def __init__(self, rng: np.random.Generator) -> None:
        self.r = rng
        self.inputs: list = []  # (name, kind, dtype, text)
        self.lines: list = []   # (name, expr, deps, family)
        self.pool: list[V] = []
        self.n = 0

    # --- draws
    def chance(self, p: float) -> bool:
        return bool(self.r.random() < p)

    def choice(self, seq: list) -> Any:
        return seq[int(self.r.integers(len(seq)))]

    def randint(self, lo: int, hi: int) -> int:
        return int(self.r.integers(lo, hi + 1))

    def fresh(self) -> str:
        self.n += 1
        return f"v{self.n}"

    # --- literals
    def num(self, dt: str, edge: float) -> str:
        if dt in FLT:
            if self.chance(edge):
                return self.choice(["float('nan')", "float('inf')", "-float('inf')", "-0.0", "0.0", TINY[dt],
                                    HUGE[dt], "1.0", "-1.0"])
            return repr(self.choice([self.randint(-12, 12) / 4, round(float(self.r.normal() * 3), 2),
                                     round(float(self.r.random()), 3)]))
        if dt in INFO:
            lo, hi = INFO[dt]
            if self.chance(edge):
                return str(self.choice([lo, hi, 0, 1, hi - 1]))
            return str(self.randint(max(lo, -9), min(hi, 12)))
        if dt == "bool":
            return self.choice(["True", "False"])
        return f"complex({self.num('float32', edge)}, {self.num('float32', edge / 2)})"

    def dense_text(self, shape: tuple, dt: str, edge: float, lo: float | None = None, hi: float | None = None) -> str:
        size = int(np.prod(shape)) if shape else 1
        if lo is not None:
            flat = [repr(round(float(self.r.uniform(lo, hi)), 3)) for _ in range(size)]
        else:
            flat = [self.num(dt, edge) for _ in range(size)]
        np_dt = "float32" if dt == "bfloat16" else dt
        arr = f"np.array([{', '.join(flat)}], np.{np_dt}).reshape({list(shape)})"
        return f"tf.cast({arr}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({arr})"

    def add_input(self, kind: str, dt: str, shape: tuple, text: str) -> V:
        v = V(self.fresh(), kind, dt, shape)
        self.inputs.append((v.name, kind, dt, text))
        self.pool.append(v)
        return v

    def dense(self, shape: tuple, dt: str, edge: float | None = None, lo: float | None = None,
              hi: float | None = None) -> V:
        e = self.choice([0.0, 0.1, 0.3]) if edge is None else edge
        return self.add_input("dense", dt, shape, self.dense_text(shape, dt, e, lo, hi))

    def strings(self, shape: tuple) -> V:
        size = int(np.prod(shape)) if shape else 1
        ws = [self.choice(WORDS) for _ in range(size)]
        text = f"tf.constant(np.array({ws!r}, object).reshape({list(shape)}))"
        return self.add_input("str", "string", shape, text)

    def ragged(self, dt: str, rows: int | None = None, inner: int = 0) -> V:
        rows = self.randint(0, 4) if rows is None else rows
        lens = [self.randint(0, 4) for _ in range(rows)]
        if dt == "string":
            vals = [[self.choice(WORDS) for _ in range(n)] for n in lens]
            text = f"tf.ragged.constant({vals!r}, dtype=tf.string)"
        else:
            e = self.choice([0.0, 0.2])
            if inner:
                vals = [[[self.num(dt, e) for _ in range(inner)] for _ in range(n)] for n in lens]
                body = "[" + ", ".join("[" + ", ".join("[" + ", ".join(c) + "]" for c in row) + "]"
                                       for row in vals) + "]"
                text = f"tf.ragged.constant({body}, dtype=tf.{dt}, ragged_rank=1)"
            else:
                body = "[" + ", ".join("[" + ", ".join(self.num(dt, e) for _ in range(n)) + "]" for n in lens) + "]"
                text = f"tf.ragged.constant({body}, dtype=tf.{dt})"
        return self.add_input("ragged", dt, (rows, None) + ((inner,) if inner else ()), text)

    def sparse(self, dt: str, shape: tuple, ordered: bool = True) -> V:
        size = int(np.prod(shape))
        k = self.randint(0, min(size, 5))
        flat = sorted(self.r.choice(size, k, replace=False).tolist()) if size else []
        if not ordered and len(flat) > 1:
            flat = flat[::-1]
        idx = [list(np.unravel_index(f, shape)) for f in flat]
        idx = [[int(i) for i in ix] for ix in idx]
        vals = [self.num(dt, 0.15) for _ in range(k)]
        np_dt = "float32" if dt == "bfloat16" else dt
        vt = f"np.array([{', '.join(vals)}], np.{np_dt})"
        vt = f"tf.cast({vt}, tf.bfloat16)" if dt == "bfloat16" else vt
        text = (f"tf.SparseTensor(tf.constant(np.array({idx}, np.int64).reshape([{k}, {len(shape)}])), "
                f"{vt}, {list(shape)})")
        return self.add_input("sparse", dt, shape, text)

    # --- operands
    def pick(self, pred, make, loose: bool = False):  # noqa: ANN001, ANN201
        """A pool value satisfying pred (of fully known shape unless `loose` or ragged), or make()."""
        c = [v for v in self.pool if (loose or v.kind == "ragged" or all(d is not None for d in v.shape)) and pred(v)]
        if c and self.chance(0.7):
            return c[-1] if self.chance(0.6) else self.choice(c)
        return make()

    def emit(self, fam: str, expr: str, deps: list[V], out: V | None) -> V | None:
        name = out.name if out is not None else self.fresh()
        if out is None:
            out = V(name, "opaque", "", ())
        out.name = name
        self.lines.append((name, expr, [d.name for d in deps], fam))
        if out.kind != "opaque":
            self.pool.append(out)
        return out

    def out(self, kind: str, dt: str, shape: tuple) -> V:
        return V(self.fresh(), kind, dt, shape)


def _tf(dt: str) -> str:
    return f"tf.{dt}"


def _img_shape(p: Prog) -> tuple:
    h, w = p.randint(1, 6), p.randint(1, 6)
    c = p.choice([1, 3, 3, 3, 4])
    if p.chance(0.05):
        h = 0
    return (p.randint(1, 2), h, w, c) if p.chance(0.6) else (h, w, c)


# ============ tf.signal
def b_fft(p: Prog) -> None:
    fn, nd = p.choice([("fft", 1), ("ifft", 1), ("fft2d", 2), ("ifft2d", 2), ("fft3d", 3), ("ifft3d", 3)])
    bad = p.chance(0.1)
    x = p.pick(lambda v: v.kind == "dense" and v.dtype in CPX and v.rank >= nd,
               lambda: p.dense(tuple(p.randint(1, 5) for _ in range(nd + p.randint(0, 1))),
                               p.choice(CPX) if not bad else p.choice(["float32", "float64", "int32"])), loose=True)
    p.emit("signal", f"tf.signal.{fn}({x.name})", [x], p.out("dense", x.dtype, x.shape))


def b_fftnd(p: Prog) -> None:
    fn = p.choice(["fftnd", "ifftnd", "rfftnd", "irfftnd"])
    real = fn == "rfftnd"
    x = p.pick(lambda v: v.kind == "dense" and v.rank >= 1 and v.dtype in (["float32", "float64"] if real else CPX),
               lambda: p.dense(tuple(p.randint(1, 5) for _ in range(p.randint(1, 3))),
                               p.choice(["float32", "float64"] if real else CPX)), loose=True)
    kw = []
    axes = None
    if p.chance(0.6):
        k = p.randint(1, x.rank)
        axes = sorted(p.r.choice(x.rank, k, replace=False).tolist())
        axes = [a - x.rank if p.chance(0.3) else a for a in axes]
        kw.append(f"axes={axes}")
    if p.chance(0.5):
        k = len(axes) if axes is not None else x.rank
        kw.append(f"fft_length={[p.randint(1, 6) for _ in range(k)]}")
    if p.chance(0.3):
        kw.append(f"norm={p.choice(['None', repr('ortho'), repr('forward'), repr('backward')])}".replace("=None", "=None"))
    p.emit("signal", f"tf.signal.{fn}({x.name}{''.join(', ' + k for k in kw)})", [x], None)


def b_rfft(p: Prog) -> None:
    fn, nd = p.choice([("rfft", 1), ("rfft2d", 2), ("rfft3d", 3), ("irfft", 1), ("irfft2d", 2), ("irfft3d", 3)])
    inv = fn.startswith("i")
    bad = p.chance(0.1)
    dts = CPX if inv else ["float32", "float64"]
    if bad:
        dts = ["float16", "int32", "bfloat16"] if not inv else ["float32"]
    x = p.pick(lambda v: v.kind == "dense" and v.dtype in dts and v.rank >= nd,
               lambda: p.dense(tuple(p.randint(1, 6) for _ in range(nd + p.randint(0, 1))), p.choice(dts)), loose=True)
    args = [x.name]
    if p.chance(0.5):
        args.append(f"fft_length={[p.randint(0 if p.chance(0.1) else 1, 7) for _ in range(nd)]}")
    out_dt = {"float32": "complex64", "float64": "complex128", "complex64": "float32",
              "complex128": "float64"}.get(x.dtype, "float32")
    p.emit("signal", f"tf.signal.{fn}({', '.join(args)})", [x], p.out("dense", out_dt, x.shape[:-nd] + (None,) * nd))


def b_dct(p: Prog) -> None:
    fn = p.choice(["dct", "idct"])
    typ = p.choice([1, 2, 2, 3, 4])
    bad = p.chance(0.1)
    x = p.pick(lambda v: v.kind == "dense" and v.dtype in ("float32", "float64") and v.rank >= 1,
               lambda: p.dense(tuple(p.randint(1, 6) for _ in range(p.randint(1, 3))),
                               p.choice(["float32", "float64"] if not bad else ["float16", "int32", "complex64"])), loose=True)
    args = [x.name, f"type={typ}"]
    if p.chance(0.4):
        args.append(f"n={p.randint(1, 7)}")
    if p.chance(0.4):
        args.append(f"norm={p.choice(['None', repr('ortho')])}")
    if p.chance(0.1):
        args.append("axis=0")
    p.emit("signal", f"tf.signal.{fn}({', '.join(args)})", [x], p.out("dense", x.dtype, x.shape[:-1] + (None,)))


def b_frame(p: Prog) -> None:
    x = p.pick(lambda v: v.kind == "dense" and v.rank >= 1 and v.dtype != "string",
               lambda: p.dense(tuple(p.randint(0, 9) for _ in range(p.randint(1, 2))),
                               p.choice(["float32", "float64", "int32", "float16", "complex64"])), loose=True)
    fl, fs = p.randint(1 if p.chance(0.9) else 0, 5), p.randint(1 if p.chance(0.9) else -1, 4)
    args = [x.name, str(fl), str(fs)]
    if p.chance(0.5):
        args.append(f"pad_end={p.choice(['True', 'False'])}")
        if p.chance(0.5):
            args.append(f"pad_value={p.choice(['0', '1', '-1.5'])}")
    if p.chance(0.3):
        args.append(f"axis={p.randint(-x.rank, x.rank - 1)}")
    o = p.emit("signal", f"tf.signal.frame({', '.join(args)})", [x], p.out("dense", x.dtype, x.shape[:-1] + (None, fl)))
    if p.chance(0.5) and o is not None and fs >= 1:
        p.emit("signal", f"tf.signal.overlap_and_add({o.name}, {p.randint(1, 4)})", [o],
               p.out("dense", x.dtype, x.shape[:-1] + (None,)))


def b_stft(p: Prog) -> None:
    x = p.pick(lambda v: v.kind == "dense" and v.rank >= 1 and v.dtype in ("float32", "float64") and v.shape[-1],
               lambda: p.dense(tuple([p.randint(1, 2)] if p.chance(0.3) else []) + (p.randint(4, 16),),
                               p.choice(["float32", "float32", "float64"])))
    fl = p.randint(2, 8)
    fs = p.randint(1, 4)
    args = [x.name, f"frame_length={fl}", f"frame_step={fs}"]
    if p.chance(0.5):
        args.append(f"fft_length={p.choice([fl, 8, 16, fl + 1])}")
    if p.chance(0.3):
        args.append(f"window_fn={p.choice(['None', 'tf.signal.hamming_window', 'tf.signal.vorbis_window'])}")
    if p.chance(0.3):
        args.append("pad_end=True")
    s = p.emit("signal", f"tf.signal.stft({', '.join(args)})", [x],
               p.out("dense", "complex64" if x.dtype == "float32" else "complex128", x.shape[:-1] + (None, None)))
    r = p.randint(0, 2)
    if r == 0:
        p.emit("signal", f"tf.signal.inverse_stft({s.name}, frame_length={fl}, frame_step={fs}"
               f"{', window_fn=tf.signal.inverse_stft_window_fn(' + str(fs) + ')' if p.chance(0.5) else ''})", [s],
               p.out("dense", x.dtype, x.shape[:-1] + (None,)))
    elif r == 1:
        p.emit("signal", f"tf.math.abs({s.name})", [s], p.out("dense", x.dtype, s.shape))


def b_mdct(p: Prog) -> None:
    fl = p.choice([4, 8, 6, 5])
    x = p.pick(lambda v: v.kind == "dense" and v.rank >= 1 and v.dtype in ("float32", "float64") and v.shape[-1],
               lambda: p.dense((p.randint(8, 20),), p.choice(["float32", "float64"])))
    args = [x.name, str(fl)]
    if p.chance(0.3):
        args.append("pad_end=True")
    if p.chance(0.3):
        args.append(f"norm={p.choice(['None', repr('ortho')])}")
    if p.chance(0.2):
        args.append("window_fn=None")
    m = p.emit("signal", f"tf.signal.mdct({', '.join(args)})", [x], p.out("dense", x.dtype, x.shape[:-1] + (None, None)))
    if p.chance(0.5):
        p.emit("signal", f"tf.signal.inverse_mdct({m.name}{', norm=' + repr('ortho') if p.chance(0.4) else ''})", [m],
               p.out("dense", x.dtype, x.shape[:-1] + (None,)))


def b_window(p: Prog) -> None:
    fn = p.choice(["hann_window", "hamming_window", "vorbis_window", "kaiser_window", "kaiser_bessel_derived_window"])
    n = p.randint(0, 9)
    args = [str(n)]
    if fn in ("hann_window", "hamming_window") and p.chance(0.5):
        args.append(f"periodic={p.choice(['True', 'False'])}")
    if fn.startswith("kaiser") and p.chance(0.5):
        args.append(f"beta={p.choice(['0.0', '6.0', '12.0', '1.5'])}")
    dt = p.choice(["float32", "float64", "float16", "bfloat16", "int32"])
    if p.chance(0.6):
        args.append(f"dtype={_tf(dt)}")
    else:
        dt = "float32"
    w = p.emit("signal", f"tf.signal.{fn}({', '.join(args)})", [], p.out("dense", dt, (n,)))
    x = p.pick(lambda v: v.kind == "dense" and v.dtype == dt and v.rank >= 1 and v.shape[-1] == n, lambda: None)
    if x is not None:
        p.emit("signal", f"{x.name} * {w.name}", [x, w], p.out("dense", dt, x.shape))


def b_shift(p: Prog) -> None:
    fn = p.choice(["fftshift", "ifftshift"])
    x = p.pick(lambda v: v.kind == "dense" and v.rank >= 1,
               lambda: p.dense(tuple(p.randint(1, 5) for _ in range(p.randint(1, 3))),
                               p.choice(["float32", "int32", "complex64", "float64"])), loose=True)
    args = [x.name]
    if p.chance(0.5):
        args.append(f"axes={p.choice([str(p.randint(-x.rank, x.rank - 1)), str(list(range(x.rank)))])}")
    p.emit("signal", f"tf.signal.{fn}({', '.join(args)})", [x], p.out("dense", x.dtype, x.shape))


def b_mel(p: Prog) -> None:
    nm, nb = p.randint(1, 10), p.randint(1, 17)
    args = [f"num_mel_bins={nm}", f"num_spectrogram_bins={nb}", f"sample_rate={p.choice([8000, 16000, 22050])}",
            f"lower_edge_hertz={p.choice([0.0, 20.0, 125.0])}", f"upper_edge_hertz={p.choice([3800.0, 4000.0, 7600.0])}"]
    if p.chance(0.4):
        args.append(f"dtype={p.choice(['tf.float64', 'tf.float32', 'tf.float16'])}")
    p.emit("signal", f"tf.signal.linear_to_mel_weight_matrix({', '.join(args)})", [], None)
    if p.chance(0.5):
        x = p.dense((p.randint(1, 3), p.randint(1, 12)), "float32", lo=-3.0, hi=3.0)
        p.emit("signal", f"tf.signal.mfccs_from_log_mel_spectrograms({x.name})", [x],
               p.out("dense", "float32", x.shape))


# ============ tf.image
def _image(p: Prog, dts: list[str] | None = None, ch: int | None = None) -> V:
    dts = dts or ["float32", "float32", "uint8", "float64", "float16", "int32"]

    def make() -> V:
        s = _img_shape(p)
        if ch is not None:
            s = s[:-1] + (ch,)
        dt = p.choice(dts)
        if dt in FLT and p.chance(0.8):
            return p.dense(s, dt, lo=0.0, hi=1.0) if not p.chance(0.2) else p.dense(s, dt, edge=0.2)
        return p.dense(s, dt)
    return p.pick(lambda v: v.kind == "dense" and v.rank in (3, 4) and v.dtype in dts
                  and (ch is None or v.shape[-1] == ch), make)


def b_img_geom(p: Prog) -> None:
    x = _image(p, ["float32", "uint8", "int32", "float64", "bool", "float16"])
    fn = p.choice(["flip_left_right", "flip_up_down", "rot90", "transpose", "central_crop", "resize_with_crop_or_pad",
                   "crop_to_bounding_box", "pad_to_bounding_box"])
    h, w = x.shape[-3], x.shape[-2]
    args = [x.name]
    if fn == "rot90":
        args.append(f"k={p.randint(-3, 5)}")
    elif fn == "central_crop":
        args.append(p.choice(["0.5", "1.0", "0.3", "0.0", "1.5", "0.75"]))
    elif fn == "resize_with_crop_or_pad":
        args += [str(p.randint(0 if p.chance(0.1) else 1, 8)), str(p.randint(1, 8))]
    elif fn == "crop_to_bounding_box":
        oh, ow = p.randint(0, max(h - 1, 0)), p.randint(0, max(w - 1, 0))
        args += [str(oh), str(ow), str(p.randint(1, max(h - oh, 1) + (1 if p.chance(0.1) else 0))),
                 str(p.randint(1, max(w - ow, 1)))]
    elif fn == "pad_to_bounding_box":
        oh, ow = p.randint(0, 2), p.randint(0, 2)
        args += [str(oh), str(ow), str(h + oh + p.randint(-1 if p.chance(0.1) else 0, 2)), str(w + ow + p.randint(0, 2))]
    p.emit("image", f"tf.image.{fn}({', '.join(args)})", [x], p.out("dense", x.dtype, x.shape[:-3] + (None, None, x.shape[-1])))


def b_img_resize(p: Prog) -> None:
    x = _image(p, ["float32", "uint8", "float64", "float16", "int32", "bfloat16"])
    method = p.choice(["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"])
    size = [p.randint(1 if p.chance(0.95) else 0, 7), p.randint(1, 7)]
    fn = p.choice(["resize", "resize", "resize", "resize_with_pad"])
    if fn == "resize":
        args = [x.name, str(size), f"method={method!r}"]
        if p.chance(0.3):
            args.append("antialias=True")
        if p.chance(0.2):
            args.append("preserve_aspect_ratio=True")
    else:
        args = [x.name, str(size[0]), str(size[1])]
        if p.chance(0.5):
            args.append(f"method={method!r}")
        if p.chance(0.3):
            args.append("antialias=True")
    odt = x.dtype if method == "nearest" and fn == "resize" else "float32"
    p.emit("image", f"tf.image.{fn}({', '.join(args)})", [x],
           p.out("dense", odt, x.shape[:-3] + (None, None, x.shape[-1])))


def b_img_color(p: Prog) -> None:
    fn = p.choice(["rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv",
                   "yuv_to_rgb", "grayscale_to_rgb", "adjust_brightness", "adjust_contrast", "adjust_gamma",
                   "adjust_saturation", "adjust_hue", "per_image_standardization", "convert_image_dtype"])
    ch = 1 if fn == "grayscale_to_rgb" else (3 if p.chance(0.9) else 4)
    dts = ["float32", "float64", "float16"] if fn not in ("adjust_brightness", "adjust_contrast", "adjust_gamma",
                                                          "per_image_standardization", "convert_image_dtype",
                                                          "rgb_to_grayscale", "grayscale_to_rgb") \
        else ["float32", "uint8", "float64", "int32", "float16", "int16"]
    if p.chance(0.08):
        dts = ["int32", "uint8", "bool", "complex64"]
    x = _image(p, dts, ch)
    args = [x.name]
    odt = x.dtype
    if fn == "adjust_brightness":
        args.append(p.choice(["0.1", "-0.5", "0.0", "1.5"]))
    elif fn == "adjust_contrast":
        args.append(p.choice(["0.5", "2.0", "-1.0", "0.0"]))
    elif fn == "adjust_gamma":
        args += [p.choice(["1", "0.5", "2.2", "-1.0"])] + ([p.choice(["1", "0.5", "2"])] if p.chance(0.5) else [])
    elif fn == "adjust_saturation":
        args.append(p.choice(["0.0", "0.5", "2.0", "-0.5"]))
    elif fn == "adjust_hue":
        args.append(p.choice(["0.1", "-0.3", "0.5", "0.0", "0.9"]))
    elif fn == "convert_image_dtype":
        odt = p.choice(["uint8", "float32", "int16", "float64", "uint16", "int32", "float16"])
        args.append(_tf(odt))
        if p.chance(0.3):
            args.append("saturate=True")
    elif fn == "per_image_standardization":
        odt = x.dtype if x.dtype in FLT else "float32"
    shape = x.shape[:-1] + ({"rgb_to_grayscale": 1, "grayscale_to_rgb": 3}.get(fn, x.shape[-1]),)
    p.emit("image", f"tf.image.{fn}({', '.join(args)})", [x], p.out("dense", odt, shape))


def b_img_measure(p: Prog) -> None:
    fn = p.choice(["total_variation", "psnr", "ssim", "sobel_edges", "image_gradients", "extract_patches"])
    x = _image(p, ["float32", "float64", "uint8", "float16"] if fn != "extract_patches" else
               ["float32", "int32", "uint8", "float64"])
    if fn in ("psnr", "ssim"):
        y = p.dense(x.shape, x.dtype, lo=0.0, hi=1.0) if x.dtype in FLT else p.dense(x.shape, x.dtype)
        args = [x.name, y.name, p.choice(["1.0", "255", "2.0"])]
        deps = [x, y]
        if fn == "ssim":
            args.append(f"filter_size={p.choice([1, 2, 3, 11])}")
            if p.chance(0.3):
                args.append(f"filter_sigma={p.choice([0.5, 1.5])}")
    elif fn == "extract_patches":
        if len(x.shape) == 3:
            x = p.emit("image", f"tf.expand_dims({x.name}, 0)", [x], p.out("dense", x.dtype, (1,) + x.shape))
        k = p.randint(1, 3)
        s = p.randint(1, 3)
        rr = p.randint(1, 2)
        args = [x.name, f"sizes=[1, {k}, {k}, 1]", f"strides=[1, {s}, {s}, 1]", f"rates=[1, {rr}, {rr}, 1]",
                f"padding={p.choice(['VALID', 'SAME'])!r}"]
        deps = [x]
    else:
        if fn in ("sobel_edges", "image_gradients") and len(x.shape) == 3:
            x = p.emit("image", f"tf.expand_dims({x.name}, 0)", [x], p.out("dense", x.dtype, (1,) + x.shape))
        args, deps = [x.name], [x]
    o = p.emit("image", f"tf.image.{fn}({', '.join(args)})", deps, None)
    if fn == "image_gradients" and p.chance(0.7):
        p.emit("image", f"{o.name}[0] + {o.name}[1]", [o], p.out("dense", x.dtype, x.shape))


# ============ tf.strings
def _str(p: Prog) -> V:
    return p.pick(lambda v: v.kind == "str", lambda: p.strings(tuple(p.randint(0 if p.chance(0.05) else 1, 4)
                                                                     for _ in range(p.randint(0, 2)))))


def b_strings(p: Prog) -> None:
    fn = p.choice(["length", "lower", "upper", "substr", "strip", "regex_full_match", "regex_replace", "to_number",
                   "to_hash_bucket_fast", "to_hash_bucket_strong", "to_hash_bucket", "reduce_join", "join",
                   "bytes_split", "split", "unicode_decode", "unicode_split", "unicode_transcode", "unicode_script",
                   "as_string", "ngrams", "unsorted_segment_join", "format"])
    if fn == "as_string":
        dt = p.choice(["float32", "float64", "int32", "int64", "bool", "int8", "complex64", "float16", "bfloat16"])
        x = p.pick(lambda v: v.kind == "dense" and v.dtype == dt, lambda: p.dense((p.randint(1, 4),), dt))
        args = [x.name]
        for k, vals in (("precision", ["-1", "0", "3", "10"]), ("scientific", ["True", "False"]),
                        ("shortest", ["True", "False"]), ("width", ["-1", "0", "8"]), ("fill", ["''", "'0'", "' '", "'ab'"])):
            if p.chance(0.25):
                args.append(f"{k}={p.choice(vals)}")
        p.emit("strings", f"tf.strings.as_string({', '.join(args)})", [x], p.out("str", "string", x.shape))
        return
    if fn == "unicode_script":
        x = p.dense((p.randint(1, 5),), "int32" if p.chance(0.9) else "int64", edge=0.2)
        p.emit("strings", f"tf.strings.unicode_script({x.name})", [x], p.out("dense", "int32", x.shape))
        return
    if p.chance(0.06):   # a number where a string is expected
        x = p.dense((2,), p.choice(["float32", "int32"]))
    else:
        x = _str(p)
    args, deps = [x.name], [x]
    kind, odt, shape = "str", "string", x.shape
    if fn == "length":
        if p.chance(0.5):
            args.append(f"unit={p.choice(['BYTE', 'UTF8_CHAR'])!r}")
        kind, odt = "dense", "int32"
    elif fn == "substr":
        args += [str(p.randint(-3, 4)), str(p.randint(-1 if p.chance(0.1) else 0, 5))]
        if p.chance(0.4):
            args.append(f"unit={p.choice(['BYTE', 'UTF8_CHAR'])!r}")
    elif fn == "regex_full_match":
        args.append(p.choice([r"'[a-z]+'", r"'.*'", r"'\\d+'", r"'('"]))
        kind, odt = "dense", "bool"
    elif fn == "regex_replace":
        args += [p.choice([r"'[aeiou]'", r"'\\s+'", r"'^'", r"'(x'"]), p.choice(["'_'", "''", "'\\\\0'"])]
        if p.chance(0.3):
            args.append("replace_global=False")
    elif fn == "to_number":
        if p.chance(0.5):
            args.append(f"out_type={p.choice(['tf.float32', 'tf.float64', 'tf.int32', 'tf.int64', 'tf.float16'])}")
        kind, odt = "dense", "float32"
    elif fn.startswith("to_hash_bucket"):
        args.append(str(p.randint(1 if p.chance(0.95) else 0, 100)))
        if fn == "to_hash_bucket_strong":
            args.append(str([p.randint(0, 99), p.randint(0, 99)]) if p.chance(0.9) else "[1]")
        kind, odt = "dense", "int64"
    elif fn == "reduce_join":
        if p.chance(0.6) and x.rank:
            args.append(f"axis={p.randint(-x.rank, x.rank - 1)}")
            shape = ()
        if p.chance(0.3):
            args.append("keepdims=True")
        if p.chance(0.5):
            args.append(f"separator={p.choice(['', ',', ' | '])!r}")
        shape = None
    elif fn == "join":
        y = p.pick(lambda v: v.kind == "str" and v is not x and v.shape == x.shape, lambda: x)
        args = [f"[{x.name}, {y.name}]"]
        deps = [x, y]
        if p.chance(0.5):
            args.append(f"separator={p.choice(['-', ''])!r}")
    elif fn in ("bytes_split", "unicode_split", "split", "unicode_decode"):
        if fn == "split" and p.chance(0.5):
            args.append(f"sep={p.choice([' ', ',', 'b'])!r}")
            if p.chance(0.3):
                args.append(f"maxsplit={p.randint(-1, 2)}")
        if fn in ("unicode_decode", "unicode_split"):
            args.append(repr(p.choice(["UTF-8", "UTF-8", "UTF-16-BE", "latin1"])))
            if p.chance(0.3):
                args.append(f"errors={p.choice(['replace', 'ignore', 'strict'])!r}")
        kind, odt = ("ragged", "int32" if fn == "unicode_decode" else "string")
        shape = x.shape + (None,)
    elif fn == "unicode_transcode":
        args += [repr(p.choice(["UTF-8", "latin1"])), repr(p.choice(["UTF-8", "UTF-16-BE", "UTF-32-BE"]))]
    elif fn == "ngrams":
        if x.rank != 1:
            x = p.strings((p.randint(0, 5),))
            args, deps = [x.name], [x]
        args.append(str(p.choice([1, 2, 3, "(1, 2)"])))
        if p.chance(0.3):
            args.append(f"separator={p.choice(['_', ''])!r}")
        if p.chance(0.3):
            args += ["pad_values=('<s>', '</s>')"]
        shape = None
    elif fn == "unsorted_segment_join":
        if x.rank != 1:
            x = p.strings((p.randint(1, 5),))
            args, deps = [x.name], [x]
        n = x.shape[0]
        ids = p.dense((n,), "int32", lo=None)
        ids_text = f"tf.constant(np.array({[p.randint(-1, 2) for _ in range(n)]}, np.int32))"
        p.inputs[-1] = (ids.name, "dense", "int32", ids_text)
        args += [ids.name, str(p.randint(1, 3))]
        deps = [x, ids]
        if p.chance(0.4):
            args.append("separator=','")
        shape = None
    elif fn == "format":
        args = [repr(p.choice(["x={} y={}", "{}", "no braces", "{}{}"])), f"[{x.name}, {x.name}]"]
        if p.chance(0.3):
            args.append(f"summarize={p.choice([1, 2, -1])}")
        shape = ()
    p.emit("strings", f"tf.strings.{fn}({', '.join(args)})", deps,
           p.out(kind, odt, shape) if shape is not None else None)


# ============ tf.sparse
def _sp(p: Prog, dts: list[str] | None = None) -> V:
    dts = dts or ["float32", "float32", "int32", "float64", "int64", "bool", "float16"]

    def make() -> V:
        shape = tuple(p.randint(1, 4) for _ in range(p.randint(1, 3)))
        if p.chance(0.5):
            d = p.dense(shape, p.choice(dts), edge=0.1)
            return p.emit("sparse", f"tf.sparse.from_dense({d.name})", [d], p.out("sparse", d.dtype, shape))
        return p.sparse(p.choice(dts), shape, ordered=p.chance(0.85))
    return p.pick(lambda v: v.kind == "sparse" and v.dtype in dts, make)


def b_sparse(p: Prog) -> None:
    fn = p.choice(["to_dense", "reorder", "reduce_sum", "reduce_max", "add", "concat", "slice", "reshape", "transpose",
                   "softmax", "sparse_dense_matmul", "fill_empty_rows", "retain", "maximum", "minimum",
                   "expand_dims", "to_indicator", "reset_shape", "split", "segment_sum", "segment_mean",
                   "segment_sqrt_n", "bincount", "map_values"])
    num = ["float32", "float64", "int32", "int64", "float16"]
    x = _sp(p, ["float32", "float64"] if fn in ("softmax", "segment_mean", "segment_sqrt_n") else
            ["int32", "int64"] if fn in ("to_indicator", "bincount") else num if fn not in ("to_dense", "reorder",
                                                                                                 "concat", "slice",
                                                                                                 "reshape", "transpose",
                                                                                                 "expand_dims") else None)
    args, deps = [x.name], [x]
    out = None
    if fn == "to_dense":
        if p.chance(0.3):
            args.append(f"default_value={p.choice(['1', '-1', '0'])}" if x.dtype != "bool" else "default_value=True")
        if p.chance(0.2):
            args.append("validate_indices=False")
        out = p.out("dense", x.dtype, x.shape)
    elif fn == "reorder":
        out = p.out("sparse", x.dtype, x.shape)
    elif fn in ("reduce_sum", "reduce_max"):
        if p.chance(0.6):
            args.append(f"axis={p.choice([str(p.randint(-x.rank, x.rank - 1)), 'None', str(list(range(x.rank)))])}")
        if p.chance(0.3):
            args.append("keepdims=True")
        if p.chance(0.4):
            args.append("output_is_sparse=True")
    elif fn in ("add", "maximum", "minimum"):
        if fn == "add" and p.chance(0.4):
            y = p.dense(x.shape, x.dtype)
        else:
            y = p.sparse(x.dtype if p.chance(0.9) else "int32", x.shape if p.chance(0.9) else x.shape + (2,))
        args.append(y.name)
        deps.append(y)
        if fn == "add" and p.chance(0.3):
            args.append(f"threshold={p.choice(['0', '0.5', '2'])}")
    elif fn == "concat":
        y = p.sparse(x.dtype, x.shape)
        ax = p.randint(-x.rank, x.rank - 1)
        args = [str(ax), f"[{x.name}, {y.name}]"]
        deps.append(y)
        if p.chance(0.3):
            args.append("expand_nonconcat_dims=True")
    elif fn == "slice":
        st = [p.randint(0, d) for d in x.shape]
        args += [str(st), str([p.randint(0, d + 1) for d in x.shape])]
    elif fn == "reshape":
        n = int(np.prod(x.shape))
        args.append(p.choice([str([n]), str([-1, 1]), str([1, n]), str([n + 1])]))
    elif fn == "transpose":
        if p.chance(0.5):
            args.append(str(p.r.permutation(x.rank).tolist()))
    elif fn == "softmax":
        pass
    elif fn == "sparse_dense_matmul":
        if x.rank != 2:
            x = p.sparse(p.choice(["float32", "float64", "int32"]), (p.randint(1, 3), p.randint(1, 3)))
            args, deps = [x.name], [x]
        ta, tb = p.chance(0.3), p.chance(0.3)
        k = x.shape[0] if ta else x.shape[1]
        bs = (p.randint(1, 3), k) if tb else (k, p.randint(1, 3))
        y = p.dense(bs if p.chance(0.92) else (k + 1, 2), x.dtype)
        args.append(y.name)
        deps.append(y)
        if ta:
            args.append("adjoint_a=True")
        if tb:
            args.append("adjoint_b=True")
    elif fn == "fill_empty_rows":
        args.append(p.choice(["0", "-1", "7"]) if x.dtype != "bool" else "False")
    elif fn == "retain":
        y = p.dense((p.randint(0, 5),), "bool")
        args.append(y.name)
        deps.append(y)
    elif fn == "expand_dims":
        args.append(str(p.randint(-x.rank - 1, x.rank)))
    elif fn == "to_indicator":
        args.append(str(p.randint(1, 10)))
    elif fn == "reset_shape":
        if p.chance(0.5):
            args.append(str([d + p.randint(0, 1) for d in x.shape]))
    elif fn == "split":
        args = [f"sp_input={x.name}", f"num_split={p.randint(1, 3)}", f"axis={p.randint(0, x.rank - 1)}"]
    elif fn.startswith("segment_"):
        d = p.dense((p.randint(1, 5), p.randint(1, 3)), x.dtype)
        k = p.randint(0, d.shape[0])
        ind = sorted(p.r.choice(d.shape[0], k).tolist()) if k else []
        seg = sorted(p.randint(0, 2) for _ in range(k))
        i = p.add_input("dense", "int32", (k,), f"tf.constant(np.array({ind}, np.int32))")
        s = p.add_input("dense", "int32", (k,), f"tf.constant(np.array({seg}, np.int32))")
        args, deps = [d.name, i.name, s.name], [d, i, s]
        if p.chance(0.4):
            args.append(f"num_segments={p.randint(1, 4)}")
        out = p.out("dense", x.dtype, (None, d.shape[1]))
    elif fn == "bincount":
        if p.chance(0.3):
            args.append(f"minlength={p.randint(0, 6)}")
        if p.chance(0.3):
            args.append("binary_output=True")
        if p.chance(0.3):
            args.append("axis=-1")
    elif fn == "map_values":
        args = [p.choice(["tf.math.abs", "tf.math.negative", "tf.math.square"]), x.name]
        out = p.out("sparse", x.dtype, x.shape)
    o = p.emit("sparse", f"tf.sparse.{fn}({', '.join(args)})", deps, out)
    if o is not None and o.kind == "opaque" and fn not in ("split", "bincount") and p.chance(0.5):
        p.emit("sparse", f"tf.sparse.to_dense({o.name}) if isinstance({o.name}, tf.SparseTensor) else {o.name}", [o],
               None)


# ============ tf.ragged
def _rg(p: Prog, dts: list[str] | None = None) -> V:
    dts = dts or ["float32", "int32", "int64", "float64"]

    def make() -> V:
        dt = p.choice(dts)
        r = p.randint(0, 3)
        if r == 0:
            return p.ragged(dt, inner=2 if p.chance(0.2) else 0)
        vals = p.dense((p.randint(0, 7),), dt)
        n = vals.shape[0]
        if r == 1:
            cuts = sorted(p.randint(0, n) for _ in range(p.randint(0, 3)))
            lens = [b - a for a, b in zip([0] + cuts, cuts + [n])]
            if p.chance(0.08):
                lens[0] += 1
            return p.emit("ragged", f"tf.RaggedTensor.from_row_lengths({vals.name}, {lens})", [vals],
                          p.out("ragged", dt, (len(lens), None)))
        if r == 2:
            ids = sorted(p.randint(0, 3) for _ in range(n))
            nrows = (max(ids) + 1 if ids else 0) + p.randint(0, 1)
            extra = f", nrows={nrows}" if p.chance(0.5) else ""
            return p.emit("ragged", f"tf.RaggedTensor.from_value_rowids({vals.name}, {ids}{extra})", [vals],
                          p.out("ragged", dt, (None, None)))
        cuts = sorted(p.randint(0, n) for _ in range(p.randint(0, 3)))
        splits = [0] + cuts + [n]
        return p.emit("ragged", f"tf.RaggedTensor.from_row_splits({vals.name}, {splits})", [vals],
                      p.out("ragged", dt, (len(splits) - 1, None)))
    return p.pick(lambda v: v.kind == "ragged" and v.dtype in dts, make)


def b_ragged(p: Prog) -> None:
    fn = p.choice(["reduce", "to_tensor", "boolean_mask", "segids", "stack", "concat", "map_flat", "range",
                   "elementwise", "row_lengths", "gather", "cumsum", "argmax", "where", "tf_shape"])
    if fn == "range":
        st = p.dense((p.randint(1, 4),), p.choice(["int32", "int64", "float32"]), lo=None)
        n = st.shape[0]
        p.inputs[-1] = (st.name, "dense", st.dtype,
                        f"tf.constant(np.array({[p.randint(0, 4) for _ in range(n)]}, np.{st.dtype}))")
        lim = p.randint(-1, 6)
        args = [st.name, str(lim)]
        if p.chance(0.3):
            args.append(f"deltas={p.choice([1, 2, -1, 0])}")
        p.emit("ragged", f"tf.ragged.range({', '.join(args)})", [st], p.out("ragged", st.dtype, (n, None)))
        return
    if fn == "segids":
        x = p.dense((p.randint(0, 6),), "int64", lo=None)
        ids = sorted(p.randint(0, 3) for _ in range(x.shape[0]))
        p.inputs[-1] = (x.name, "dense", "int64", f"tf.constant(np.array({ids}, np.int64))")
        o = p.emit("ragged", f"tf.ragged.segment_ids_to_row_splits({x.name})", [x], p.out("dense", "int64", (None,)))
        p.emit("ragged", f"tf.ragged.row_splits_to_segment_ids({o.name})", [o], p.out("dense", "int64", (None,)))
        return
    x = _rg(p)
    args, deps = [x.name], [x]
    if fn == "reduce":
        red = p.choice(["reduce_sum", "reduce_max", "reduce_min", "reduce_mean", "reduce_prod", "reduce_any",
                        "reduce_std", "reduce_variance"])
        if red == "reduce_any":
            x = p.emit("ragged", f"{x.name} > 0", [x], p.out("ragged", "bool", x.shape))
            args, deps = [x.name], [x]
        ax = p.choice(["None", "0", "1", "-1", str(x.rank)])
        args.append(f"axis={ax}")
        if p.chance(0.3):
            args.append("keepdims=True")
        p.emit("ragged", f"tf.math.{red}({', '.join(args)})", deps, None)
    elif fn == "to_tensor":
        if p.chance(0.5):
            args.append(f"default_value={p.choice(['0', '-1', '9'])}")
        if p.chance(0.4):
            args.append(f"shape={p.choice(['[2, 3]', '[None, 2]', '[4, None]', '[1, 1]'])}")
        p.emit("ragged", f"{x.name}.to_tensor({', '.join(args[1:])})", [x], p.out("dense", x.dtype, (None, None)))
    elif fn == "boolean_mask":
        m = p.emit("ragged", f"{x.name} > {p.choice(['0', '1'])}", [x], p.out("ragged", "bool", x.shape))
        p.emit("ragged", f"tf.ragged.boolean_mask({x.name}, {m.name})", [x, m], p.out("ragged", x.dtype, x.shape))
    elif fn == "stack" or fn == "concat":
        y = _rg(p, [x.dtype])
        ax = p.randint(0, 2) if fn == "stack" else p.randint(-1, 1)
        f = "tf.ragged.stack" if fn == "stack" else "tf.concat"
        p.emit("ragged", f"{f}([{x.name}, {y.name}], axis={ax})", [x, y], None)
    elif fn == "map_flat":
        op = p.choice(["tf.math.square", "tf.math.negative", "tf.math.abs", "tf.math.sign"])
        p.emit("ragged", f"tf.ragged.map_flat_values({op}, {x.name})", [x], p.out("ragged", x.dtype, x.shape))
    elif fn == "elementwise":
        op = p.choice(["+", "*", "-", "//", "/"])
        other = p.choice(["2", "x", "dense"])
        if other == "x":
            p.emit("ragged", f"{x.name} {op} {x.name}", [x], None)
        elif other == "dense":
            d = p.dense((1,), x.dtype)
            p.emit("ragged", f"{x.name} {op} {d.name}", [x, d], None)
        else:
            p.emit("ragged", f"{x.name} {op} 2", [x], None)
    elif fn == "row_lengths":
        a = p.choice(["row_lengths()", "row_splits", "value_rowids()", "nrows()", "flat_values", "row_starts()",
                      "nested_row_lengths()", "bounding_shape()"])
        p.emit("ragged", f"{x.name}.{a}", [x], None)
    elif fn == "gather":
        idx = [p.randint(-1 if p.chance(0.1) else 0, max(x.shape[0] or 1, 1)) for _ in range(p.randint(0, 3))]
        p.emit("ragged", f"tf.gather({x.name}, {idx})", [x], p.out("ragged", x.dtype, (len(idx), None)))
    elif fn == "cumsum":
        p.emit("ragged", f"tf.math.cumsum({x.name}, axis={p.choice([1, -1, 0])})", [x], None)
    elif fn == "argmax":
        p.emit("ragged", f"tf.math.argmax({x.name}, axis={p.choice([1, 0])})", [x], None)
    elif fn == "where":
        m = p.emit("ragged", f"{x.name} > 0", [x], p.out("ragged", "bool", x.shape))
        p.emit("ragged", f"tf.where({m.name}, {x.name}, tf.zeros_like({x.name}))", [m, x], None)
    elif fn == "tf_shape":
        p.emit("ragged", f"tf.shape({x.name})", [x], None)


# ============ tf.bitwise / segment / sets
def b_bitwise(p: Prog) -> None:
    fn = p.choice(["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"])
    dt = p.choice(INTS) if p.chance(0.93) else p.choice(["float32", "bool"])
    x = p.pick(lambda v: v.kind == "dense" and v.dtype == dt, lambda: p.dense((p.randint(0, 5),), dt, edge=0.3))
    if fn == "invert":
        p.emit("bitwise", f"tf.bitwise.invert({x.name})", [x], p.out("dense", dt, x.shape))
        return
    if fn.endswith("shift"):
        bits = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32}.get(dt, 64)
        vals = [p.choice([0, 1, 3, bits - 1, bits, bits + 1, 2 * bits, -1, -bits]) for _ in range(x.shape[0]
                                                                                                    if x.rank else 1)]
        if dt.startswith("uint"):
            vals = [v % (2 ** bits) for v in vals]
        np_dt = dt if dt != "bool" else "bool"
        y = p.add_input("dense", dt, x.shape,
                        f"tf.constant(np.array({vals}, np.{np_dt}).reshape({list(x.shape)}))" if dt in INFO else
                        p.dense_text(x.shape, dt, 0.0))
    else:
        y = p.dense(x.shape if p.chance(0.8) else (1,), dt if p.chance(0.95) else "int32", edge=0.3)
    p.emit("bitwise", f"tf.bitwise.{fn}({x.name}, {y.name})", [x, y], p.out("dense", dt, x.shape))


def b_segment(p: Prog) -> None:
    fn = p.choice(["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
                   "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max", "unsorted_segment_min",
                   "unsorted_segment_prod", "unsorted_segment_sqrt_n", "sparse_segment_sum", "sparse_segment_mean",
                   "sparse_segment_sqrt_n"])
    dt = p.choice(["float32", "float32", "float64", "int32", "int64", "float16", "bfloat16", "complex64", "uint8",
                   "int8"])
    n = p.randint(0, 5)
    x = p.pick(lambda v: v.kind == "dense" and v.dtype == dt and v.rank >= 1 and v.shape[0] is not None,
               lambda: p.dense((n,) + tuple(p.randint(1, 3) for _ in range(p.randint(0, 1))), dt))
    n = x.shape[0]
    ns = p.randint(1, 4)
    idt = p.choice(["int32", "int64"])
    if fn.startswith("sparse_"):
        k = p.randint(0, 4)
        ind = [p.randint(0, max(n - 1, 0)) if p.chance(0.95) else n for _ in range(k)]
        seg = sorted(p.randint(0, 2) for _ in range(k))
        i = p.add_input("dense", idt, (k,), f"tf.constant(np.array({ind}, np.{idt}))")
        s = p.add_input("dense", "int32", (k,), f"tf.constant(np.array({seg}, np.int32))")
        args, deps = [x.name, i.name, s.name], [x, i, s]
        if p.chance(0.4):
            args.append(f"num_segments={ns}")
    else:
        if fn.startswith("unsorted"):
            ids = [p.randint(-1 if p.chance(0.2) else 0, ns - 1 + (1 if p.chance(0.05) else 0)) for _ in range(n)]
        else:
            ids = sorted(p.randint(0, 3) for _ in range(n))
            if p.chance(0.05) and n > 1:
                ids = ids[::-1]
        s = p.add_input("dense", idt, (n,), f"tf.constant(np.array({ids}, np.{idt}))")
        args, deps = [x.name, s.name], [x, s]
        if fn.startswith("unsorted"):
            args.append(str(ns))
    path = "sparse." + fn[7:] if fn.startswith("sparse_") else "math." + fn
    p.emit("segment", f"tf.{path}({', '.join(args)})", deps, p.out("dense", dt, (None,) + x.shape[1:]))


def b_sets(p: Prog) -> None:
    fn = p.choice(["size", "union", "intersection", "difference"])
    dt = p.choice(["int32", "int64", "string", "float32"])
    shape = (p.randint(1, 3), p.randint(0, 4))
    x = p.strings(shape) if dt == "string" else p.dense(shape, dt)
    if dt != "string" and dt != "float32":
        p.inputs[-1] = (x.name, "dense", dt,
                        f"tf.constant(np.array({[p.randint(0, 4) for _ in range(shape[0] * shape[1])]}, np.{dt})"
                        f".reshape({list(shape)}))")
    if fn == "size":
        p.emit("sets", f"tf.sets.size({x.name})", [x], p.out("dense", "int32", shape[:1]))
        return
    y = p.strings((shape[0], p.randint(0, 4))) if dt == "string" else p.dense((shape[0], p.randint(0, 4)), dt)
    if dt != "string" and dt != "float32":
        p.inputs[-1] = (y.name, "dense", dt, f"tf.constant(np.array({[p.randint(0, 4) for _ in range(int(np.prod(y.shape)))]}"
                        f", np.{dt}).reshape({list(y.shape)}))")
    args = [x.name, y.name]
    if fn == "difference" and p.chance(0.4):
        args.append("aminusb=False")
    o = p.emit("sets", f"tf.sets.{fn}({', '.join(args)})", [x, y], p.out("sparse", dt, (shape[0], None)))
    if p.chance(0.6):
        p.emit("sets", f"tf.sparse.to_dense({o.name}{', default_value=' + repr('') if dt == 'string' else ''})", [o],
               None)


def b_glue(p: Prog) -> None:
    """An ordinary op between family calls: a reduction, a cast, an abs, a reshape of an earlier dense value."""
    x = p.pick(lambda v: v.kind == "dense" and v.dtype not in ("string",), lambda: None, loose=True)
    if x is None:
        return
    op = p.choice(["reduce_sum", "abs", "cast", "real", "square"])
    if op == "reduce_sum":
        p.emit("glue", f"tf.math.reduce_sum({x.name}, axis=-1)" if x.rank else f"tf.math.reduce_sum({x.name})", [x],
               p.out("dense", x.dtype, x.shape[:-1]))
    elif op == "abs":
        p.emit("glue", f"tf.math.abs({x.name})", [x], p.out("dense", {"complex64": "float32",
                                                                        "complex128": "float64"}.get(x.dtype, x.dtype),
                                                              x.shape))
    elif op == "cast":
        dt = p.choice(["float32", "complex64", "int32", "float64", "uint8"])
        p.emit("glue", f"tf.cast({x.name}, tf.{dt})", [x], p.out("dense", dt, x.shape))
    elif op == "real" and x.dtype in CPX:
        p.emit("glue", f"tf.math.real({x.name})", [x], p.out("dense", "float32" if x.dtype == "complex64" else
                                                                "float64", x.shape))
    elif op == "square":
        p.emit("glue", f"tf.math.square({x.name})", [x], p.out("dense", x.dtype, x.shape))


FAMILIES = {"signal": [(b_fft, 3), (b_fftnd, 2), (b_rfft, 4), (b_dct, 3), (b_frame, 3), (b_stft, 3), (b_mdct, 2),
                       (b_window, 2), (b_shift, 2), (b_mel, 1)],
            "image": [(b_img_geom, 4), (b_img_resize, 4), (b_img_color, 5), (b_img_measure, 3)],
            "strings": [(b_strings, 1)], "sparse": [(b_sparse, 1)], "ragged": [(b_ragged, 1)],
            "bitwise": [(b_bitwise, 1)], "segment": [(b_segment, 1)], "sets": [(b_sets, 1)]}
FAM_W = {"signal": 5, "image": 5, "strings": 3, "sparse": 3, "ragged": 3, "bitwise": 1, "segment": 2, "sets": 1}


def program(seed: int, k: int) -> dict:
    rng = np.random.default_rng([seed, k])
    p = Prog(rng)
    fams = list(FAM_W)
    w = np.array([FAM_W[f] for f in fams], float)
    chosen = [fams[int(i)] for i in rng.choice(len(fams), size=int(rng.integers(1, 3)), replace=False, p=w / w.sum())]
    n_calls = int(rng.integers(2, 7))
    tries = 0
    while len(p.lines) < n_calls and tries < 30:
        tries += 1
        if p.pool and p.chance(0.12):
            b_glue(p)
            continue
        bs = FAMILIES[p.choice(chosen)]
        bw = np.array([b[1] for b in bs], float)
        b = bs[int(rng.choice(len(bs), p=bw / bw.sum()))][0]
        b(p)
    return {"inputs": p.inputs, "lines": p.lines, "families": chosen}


def text_of(prog: dict) -> str:
    return "\n".join([f"{n} = {t}" for n, _, _, t in prog["inputs"]] + [f"{n} = {e}" for n, e, _, _ in prog["lines"]])


# --- running (in the worker)
def outcome(tf: Any, value: Any) -> Any:
    if value is None:
        return ("None",)
    if isinstance(value, dict):
        return ("dict", tuple((k, outcome(tf, v)) for k, v in sorted(value.items())))
    if isinstance(value, (list, tuple)):
        return ("seq", type(value).__name__ if type(value).__name__ in ("list", "tuple") else "named",
                tuple(outcome(tf, v) for v in value))
    tn = type(value).__name__
    if tn == "RaggedTensor":
        return ("ragged", outcome(tf, value.flat_values), tuple(outcome(tf, s) for s in value.nested_row_splits))
    if tn in ("SparseTensor", "SparseTensorValue"):
        return ("sparse", outcome(tf, value.indices), outcome(tf, value.values), outcome(tf, value.dense_shape))
    if tn == "TensorShape":
        return ("shape", repr(value.as_list() if value.rank is not None else None))
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        a = np.asarray(value.numpy())
        dt = value.dtype.name
        if dt == "string":
            return ("T", dt, tuple(a.shape), tuple(a.ravel().tolist()))
        if a.dtype.kind in "fc" or dt == "bfloat16":
            a = a.astype(np.float64) if dt == "bfloat16" else a
            nan = np.isnan(a)
            raw = np.where(nan, np.zeros_like(a), a).tobytes() + nan.tobytes()
        else:
            raw = a.tobytes()
        return ("T", dt, tuple(a.shape), raw)
    if isinstance(value, (int, float, bool, str, bytes)):
        return ("py", type(value).__name__, repr(value))
    return ("py", tn)


def static(tf: Any, value: Any) -> Any:
    """A traced value's static description: dtype and static shape of each tensor."""
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(static(tf, v) for v in value))
    tn = type(value).__name__
    if tn == "RaggedTensor":
        return ("ragged", value.dtype.name, repr(value.shape), value.ragged_rank)
    if tn == "SparseTensor":
        return ("sparse", value.dtype.name, repr(value.shape))
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return ("T", value.dtype.name, repr(value.shape))
    return ("py", tn)


def _err(e: BaseException) -> tuple:
    return ("err", type(e).__name__, str(e)[:200])


def _inputs(tf: Any, prog: dict) -> dict:
    env = {"tf": tf, "np": np}
    for name, _kind, _dt, text in prog["inputs"]:
        env[name] = eval(text, env)  # noqa: S307 - our own text
    return env


def _run_body(tf: Any, prog: dict, env: dict, record: list | None, describe: Any = outcome,
              skip: frozenset = frozenset()) -> list:
    """Runs each statement; a failing one binds nothing and its dependents are skipped, as are those in `skip`.
    Returns the bound names."""
    bound, failed = [], set()
    for name, expr, deps, _fam in prog["lines"]:
        if name in skip or any(d in failed for d in deps):
            failed.add(name)
            if record is not None:
                record.append((name, ("skipped",)))
            continue
        try:
            env[name] = eval(expr, env)  # noqa: S307 - our own text
            bound.append(name)
            if record is not None:
                record.append((name, describe(tf, env[name])))
        except Exception as e:  # noqa: BLE001 - the class is the answer
            failed.add(name)
            if record is not None:
                record.append((name, _err(e)))
    return bound


def _float_leaves(tf: Any, v: Any) -> list:
    if isinstance(v, (list, tuple)):
        return [x for e in v for x in _float_leaves(tf, e)]
    tn = type(v).__name__
    if tn == "RaggedTensor":
        return _float_leaves(tf, v.flat_values)
    if tn == "SparseTensor":
        return _float_leaves(tf, v.values)
    if hasattr(v, "dtype") and hasattr(v, "shape") and getattr(v.dtype, "is_floating", False) or \
            (hasattr(v, "dtype") and getattr(v.dtype, "is_complex", False)):
        return [v]
    return []


def run_program(tf: Any, prog: dict) -> dict:
    out: dict = {}
    rec: list = []
    try:
        env = _inputs(tf, prog)
        _run_body(tf, prog, env, rec)
        out["eager"] = rec
    except Exception as e:  # noqa: BLE001
        out["eager"] = ("inputs", _err(e))
        return out
    # tf.function: inputs as arguments, the body traced once. The statements that failed eagerly are left out
    # (simdist runs kernels while it traces, so a kernel's error caught inside the body is simdist's at trace time
    # and TF's when the graph runs: fz54's known class), so TF and simdist both run the rest whole.
    skip = frozenset(n for n, o in rec if o[0] in ("err", "skipped"))
    try:
        env0 = _inputs(tf, prog)
        names = [n for n, *_ in prog["inputs"]]
        trace_rec: list = []

        def f(d: dict) -> dict:
            env = {"tf": tf, "np": np, **d}
            trace_rec.clear()
            rec2: list = []
            bound = _run_body(tf, prog, env, rec2, static, skip)
            trace_rec.extend(rec2)
            res = {}
            for n in bound:
                v = env[n]
                if isinstance(v, (tf.Tensor,)) or type(v).__name__ in ("RaggedTensor", "SparseTensor"):
                    res[n] = v
                elif isinstance(v, (list, tuple)) and all(hasattr(e, "dtype") for e in v):
                    res[n] = list(v)
            return res
        try:
            res = tf.function(f, autograph=False)({n: env0[n] for n in names})
            out["function"] = (tuple(trace_rec), outcome(tf, res))
        except Exception as e:  # noqa: BLE001
            out["function"] = (tuple(trace_rec), _err(e))
    except Exception as e:  # noqa: BLE001
        out["function"] = ("inputs", _err(e))
    # GradientTape: dense float inputs watched
    try:
        env = _inputs(tf, prog)
        ws = [n for n, kind, dt, _ in prog["inputs"] if kind == "dense" and dt in FLT + CPX]
        if ws and prog["lines"]:
            with tf.GradientTape(persistent=True) as tape:
                for n in ws:
                    tape.watch(env[n])
                bound = _run_body(tf, prog, env, None)
                leaves = [x for n in bound if n not in ws for x in _float_leaves(tf, env[n])]
                terms = []
                for x in leaves:
                    r = tf.math.real(x) if x.dtype.is_complex else x
                    r = tf.cast(r, tf.float64)
                    terms.append(tf.reduce_sum(tf.where(tf.math.is_finite(r), r, tf.zeros_like(r))))
                loss = tf.add_n(terms) if terms else None
            if loss is not None:
                gs = tape.gradient(loss, [env[n] for n in ws])
                out["tape"] = (outcome(tf, loss), outcome(tf, gs))
    except Exception as e:  # noqa: BLE001
        out["tape"] = _err(e)
    return out


def worker(backend: str, seed: int, n: int, start: int, path: str) -> None:
    if backend == "tf":
        import tensorflow as tf
    else:
        from simdist import tf
    with open(path, "ab") as fh:
        for k in range(start, n):
            try:
                r = run_program(tf, program(seed, k))
            except Exception as e:  # noqa: BLE001
                r = {"all": _err(e)}
            pickle.dump(r, fh)
            fh.flush()


def run_backend(backend: str, seed: int, n: int) -> list:
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
    results: list = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.pkl")
        while len(results) < n:
            subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", backend, str(seed), str(n),
                            str(len(results)), path], capture_output=True, env=env, timeout=6000)
            got = []
            if os.path.exists(path):
                with open(path, "rb") as fh:
                    while True:
                        try:
                            got.append(pickle.load(fh))
                        except EOFError:
                            break
            results = got
            if len(results) < n:
                results.append({"crash": True})
                with open(path, "ab") as fh:
                    pickle.dump({"crash": True}, fh)
    return results


def same(a: Any, b: Any) -> bool:
    """Outcomes equal; errors by class only."""
    if isinstance(a, tuple) and a and a[0] == "err":
        return isinstance(b, tuple) and len(b) >= 2 and b[0] == "err" and a[1] == b[1]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def differences(prog: dict, w: dict, g: dict) -> list[tuple[str, str, str, str]]:
    """(mode, statement, TF's outcome, simdist's) of each difference; eager by statement."""
    out = []
    exprs = {n: e for n, e, _, _ in prog["lines"]}
    if "crash" in w or "crash" in g:
        return [("crash", "", str("crash" in w), str("crash" in g))] if ("crash" in w) != ("crash" in g) else []
    we, ge = w.get("eager"), g.get("eager")
    if isinstance(we, list) and isinstance(ge, list):
        for (n, x), (_, y) in zip(we, ge):
            if not same(x, y):
                out.append(("eager", f"{n} = {exprs[n]}", str(x)[:300], str(y)[:300]))
    elif not same(we, ge):
        out.append(("eager", "inputs", str(we)[:300], str(ge)[:300]))
    for m in ("function", "tape", "all"):
        if not same(w.get(m), g.get(m)):
            x, y = w.get(m), g.get(m)
            st = ""
            if m == "function" and isinstance(x, tuple) and isinstance(y, tuple) and len(x) == 2 and len(y) == 2:
                if not same(x[0], y[0]):
                    for (n, a), (_, b) in zip(x[0], y[0]):
                        if not same(a, b):
                            st = f"trace {n} = {exprs.get(n)}"
                            x, y = a, b
                            break
                else:
                    x, y = x[1], y[1]
                    if x and x[0] == "dict" and y and y[0] == "dict":
                        dx, dy = dict(x[1]), dict(y[1])
                        for n in dx:
                            if n not in dy or not same(dx[n], dy[n]):
                                st = f"value {n} = {exprs.get(n)}"
                                x, y = dx[n], dy.get(n)
                                break
            out.append((m, st, str(x)[:300], str(y)[:300]))
    return out


def class_key(mode: str, st: str, x: str, y: str) -> str:
    """A difference's class: mode, the statement's function, and what differs (error classes, dtypes, shapes or
    values)."""
    import re
    m = re.search(r"(tf\.[\w.]+)\(", st) or re.search(r"\.(\w+)\(", st)
    fn = m.group(1) if m else (st.split("=", 1)[-1].strip()[:20] if st else "-")
    if mode == "function" and st.startswith("trace"):
        what = "trace"
    elif mode == "function":
        what = "call"
    else:
        what = mode

    def kind(o: str) -> str:
        if o.startswith("('err'"):
            return o.split("'")[3]
        if o.startswith("('skipped'"):
            return "skipped"
        if o.startswith("('T'") or o.startswith("('sparse'") or o.startswith("('ragged'"):
            return "value"
        return o[:12]
    kx, ky = kind(x), kind(y)
    if kx == ky == "value":
        tx, ty = x.split(", ")[:3], y.split(", ")[:3]
        kx, ky = ("shape/dtype", "") if tx != ty else ("bits", "")
    return f"{what} {fn}: TF {kx} / sd {ky}"


def main() -> int:
    if sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--only", type=int, default=None)
    ap.add_argument("--classes", default=None, help="append each difference's class key as JSON lines here")
    a = ap.parse_args()
    ks = [a.only] if a.only is not None else list(range(a.n))
    if a.print:
        for k in ks:
            print(f"# program {k}\n{text_of(program(a.seed, k))}\n")
        return 0
    want = run_backend("tf", a.seed, a.n)
    got = run_backend("simdist", a.seed, a.n)
    bad = 0
    calls = 0
    shown = 0
    for k in ks:
        prog = program(a.seed, k)
        calls += len(prog["lines"])
        ds = differences(prog, want[k], got[k])
        if not ds:
            continue
        bad += 1
        if a.classes:
            import json
            with open(a.classes, "a") as fh:
                for m, st, x, y in ds:
                    fh.write(json.dumps({"seed": a.seed, "k": k, "key": class_key(m, st, x, y)}) + "\n")
        if shown < a.show:
            shown += 1
            print(f"=== seed {a.seed} program {k} ({', '.join(prog['families'])})\n{text_of(prog)}")
            for m, st, x, y in ds[:4]:
                print(f"  [{m}] {st}\n    TF: {x}\n    sd: {y}")
    print(f"seed {a.seed}: {len(ks)} programs, {calls} calls, {bad} disagree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
