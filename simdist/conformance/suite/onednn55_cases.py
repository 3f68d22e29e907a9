"""The oneDNN sweep (fifty-fifth session, onednn55): the paths of the oneDNN kernels simdist models for an AVX-512
Intel CPU with oneDNN on (its reference model), crossed by rule and recorded on TF 2.21 on such a Xeon.

kpaths54's programs run under the AVX2 host's model (Eigen's kernels), and kpaths55 keeps 21 of them: a planted bug
in a oneDNN path shows only in programs recorded on an AVX-512 oneDNN host. The paths (docs/conformance.md,
"Fifty-fifth session ... onednn55"):

- Softmax (onednn_softmax.py, oneDNN's jit dense kernel, float32; bfloat16 and float16 computed in float32 and
  rounded once): a row of n classes is n // 16 whole 16-lane vectors and a masked tail; the whole vectors go to four
  unrolled accumulators in runs of four (n_loops = n // 64, then 0-3 loop-tail vectors), combined as
  (a0 + a1) + (a2 + a3) (or fewer), then the lanes' tree (halves, quarters, pairs); out = e * (1 / sum). Every class
  count 1..129 crosses every (n_loops <= 2, loop tail, row tail) combination; 192..1000 the in-order runs. Rows at
  offsets and scales where the sums' order shows; non-finite rows (NaN, +inf, -inf, all -inf) at lanes and vectors
  that select `_max_pass_nans`' NaN lanes; Keras's categorical cross-entropies over the softmax's probabilities.
- MatMul (onednn_matmul.py): x [m, k] @ b [n, k]^T for m in 2..15 (16 lanes of fused multiply-adds over k, the
  lanes by halves), its borders m = 1 and 16; the plain product in order for n >= 2 and k <= 384 and its borders
  (n = 1, k = 385); the gradients, which take transpose_b (dx) and transpose_a (dw). float32 and bfloat16.
- FusedBatchNormV3 (onednn_batch_norm.py): channel counts 1..9, 12, 16, 17, 20, 32 (the jit kernel for a multiple of
  4, the C++ kernel otherwise), training and inference, float32 and bfloat16.
- Conv2D (conv.py's oneDNN order: window row, column, input channel with fused multiply-adds; the filter gradient in
  two threads over the images) and AvgPool/MaxPool with their gradients (float32).

Each program returns JSON (floats as the hex of their values; long lists as digests, kpaths54's `packed`); a case's
gradient fields are split (g0, g1, ...) so an open gradient leaves the others compared. OPEN lists simdist's
disagreements with that Xeon, each left out of the comparison with its evidence in docs/conformance.md."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import const, fwd_grad, packed, without_open, values
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "onednn55_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("o-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 on the AVX-512 oneDNN Xeon (program -> "case" or "case/field" left out; g0, g1
#: the gradients of the first and second input): the jit batch norm's gradients (C a multiple of 4: scale's, and the
#: training input gradient that uses it), bfloat16 batch norm's scale gradient at 16 and 32 channels, oneDNN's
#: Conv2DBackpropInput (g0) and the filter gradient of 16 input channels (g1), MatMul's unmodelled kernels (one
#: row with transpose_b, k = 385, one column): host55's open classes and their borders
OPEN: dict[str, tuple[str, ...]] = {
    'o-batchnorm-bfloat16': (
        '(1, 2, 5, 16)False/g1', '(1, 2, 5, 16)True/g1', '(1, 2, 5, 32)False/g1', '(1, 2, 5, 32)True/g1',
        '(2, 3, 3, 16)False/g1', '(2, 3, 3, 16)True/g1', '(2, 3, 3, 32)False/g1', '(2, 3, 3, 32)True/g1',
    ),
    'o-batchnorm-float32': (
        '(1, 2, 5, 12)False/g1', '(1, 2, 5, 12)True/g0', '(1, 2, 5, 12)True/g1', '(1, 2, 5, 16)False/g1',
        '(1, 2, 5, 16)True/g0', '(1, 2, 5, 16)True/g1', '(1, 2, 5, 20)False/g1', '(1, 2, 5, 20)True/g0',
        '(1, 2, 5, 20)True/g1', '(1, 2, 5, 32)False/g1', '(1, 2, 5, 32)True/g0', '(1, 2, 5, 32)True/g1',
        '(1, 2, 5, 4)False/g1', '(1, 2, 5, 4)True/g0', '(1, 2, 5, 4)True/g1', '(1, 2, 5, 8)False/g1',
        '(1, 2, 5, 8)True/g0', '(1, 2, 5, 8)True/g1', '(2, 3, 3, 12)False/g1', '(2, 3, 3, 12)True/g0',
        '(2, 3, 3, 12)True/g1', '(2, 3, 3, 16)False/g1', '(2, 3, 3, 16)True/g0', '(2, 3, 3, 16)True/g1',
        '(2, 3, 3, 20)False/g1', '(2, 3, 3, 20)True/g0', '(2, 3, 3, 20)True/g1', '(2, 3, 3, 32)False/g1',
        '(2, 3, 3, 32)True/g0', '(2, 3, 3, 32)True/g1', '(2, 3, 3, 4)False/g1', '(2, 3, 3, 4)True/g0',
        '(2, 3, 3, 4)True/g1', '(2, 3, 3, 8)False/g1', '(2, 3, 3, 8)True/g0', '(2, 3, 3, 8)True/g1',
    ),
    'o-conv2d-float32': (
        '(1, 4, 4, 1)(2, 2, 1, 1)1VALID/g0', '(1, 5, 5, 2)(3, 3, 2, 3)1SAME/g0', '(1, 5, 5, 7)(5, 5, 7, 2)1VALID/g0',
        '(1, 6, 5, 16)(2, 2, 16, 3)1SAME/g0', '(1, 6, 5, 16)(2, 2, 16, 3)1SAME/g1',
        '(1, 7, 7, 8)(3, 3, 8, 8)2VALID/g0', '(2, 4, 5, 5)(2, 3, 5, 2)1VALID/g0',
        '(2, 5, 5, 9)(3, 3, 9, 1)1SAME/g0', '(2, 5, 6, 3)(3, 3, 3, 4)2SAME/g0',
    ),
    'o-matmul-float32': (
        '16x17x1NT/y', '17x17x1NT/y', '1x100x3NT/y', '1x16x5NT/y', '1x7x2NT/y', '2x385x3NN/y', '32x17x1NT/y',
        '3x17x1NN/y',
    ),
}

#: Fields whose simdist value is NumPy's BLAS product (the weight gradient x^T dy: transpose_a, not modelled), so its
#: last bits follow OpenBLAS's kernel: they matched TF 2.21's oneDNN bits under this Xeon's SkylakeX kernels and not
#: under the Haswell kernels the tests pin (OPENBLAS_CORETYPE, tests/conftest.py) and the AVX2 CI host runs (found by
#: the default run's suite slice, 2026-12-06)
BLAS_DEPENDENT: dict[str, tuple[str, ...]] = {
    'o-matmul-float32': ('15x16x5NT/g1', '15x1x3NT/g1', '15x33x4NT/g1', '15x9x16NN/g1', '16x16x5NT/g1', '16x1x3NT/g1',
                         '16x33x4NT/g1', '16x9x16NN/g1', '17x16x5NT/g1', '17x1x3NT/g1', '17x33x4NT/g1', '32x16x5NT/g1',
                         '32x1x3NT/g1', '32x33x4NT/g1', '3x17x1NN/g1', '3x1x3NT/g1', '8x16x5NT/g1', '8x33x4NT/g1',
                         '9x16x5NT/g1', '9x1x3NT/g1', '9x33x4NT/g1'),
}
for _name, _fields in BLAS_DEPENDENT.items():
    OPEN[_name] = tuple(OPEN.get(_name, ())) + _fields


def _split(r: Any) -> Any:
    """fwd_grad's result with its gradients as fields g0, g1, ... (one open gradient leaves the others compared)."""
    if not isinstance(r, dict):
        return r
    out = {k: v for k, v in r.items() if k != "grads"}
    for i, g in enumerate(r["grads"]):
        out[f"g{i}"] = g
    return out


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    """Register program `name`: its result without the OPEN cases, long value lists as digests."""
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def fg(tf: Any, fn: Callable[..., Any], xs: list[Any], name: str) -> Any:
    return _split(fwd_grad(tf, fn, xs, name=name))


# -- 1. softmax: every class count 1..129 and the in-order runs beyond ------------------------------------------------
SOFTMAX_COLS = tuple(range(1, 130)) + (144, 192, 255, 256, 257, 320, 1000)


def _logits(name: str, rows: int, cols: int) -> np.ndarray:
    """rows of `cols` logits: scales 0.3..8 and offsets -80..70, so the exps span decades and the sums' order shows."""
    r = rng(f"{name}/{rows}/{cols}")
    scale = np.array([3.0, 0.3, 8.0, 1.0])[np.arange(rows) % 4][:, None]
    off = np.array([0.0, 60.0, -80.0, 2.5])[np.arange(rows) % 4][:, None]
    return r.standard_normal((rows, cols)) * scale + off


for _dt in ("float32", "bfloat16", "float16"):
    def _softmax(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for cols in SOFTMAX_COLS:
            x = const(tf, _logits("osm", 4 if cols < 200 else 2, cols), dt)
            out[f"{cols}"] = fg(tf, tf.nn.softmax, [x], "osm")
        x = const(tf, _logits("osm3", 6, 37).reshape(2, 3, 37), dt)   # a rank-3 input: rows of the flattened batch
        out["rank3"] = fg(tf, tf.nn.softmax, [x], "osm3")
        return out
    program(f"o-softmax-{_dt}", _softmax)


#: the row lengths of the non-finite rows: up to 32 (each lane's last element), 33-63 (the last whole vector), 64 on
#: (the last vector of the last run of four), their borders
NONFINITE_COLS = (1, 2, 5, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 128, 129, 200, 256, 300)


def _nonfinite(cols: int) -> np.ndarray:
    """Rows of `cols` logits with NaN, +inf and -inf at seeded places (the first, the last, a middle one), a row of
    -inf, a row with NaN and +inf, and a finite row."""
    r = rng(f"nonfinite/{cols}")
    a = r.standard_normal((7, cols)) * 2.0
    mid = int(r.randint(0, cols))
    a[0, mid] = np.nan
    a[1, cols - 1] = np.nan
    a[2, 0] = np.inf
    a[3, mid] = -np.inf
    a[3, 0] = -np.inf
    a[4, :] = -np.inf
    a[5, mid] = np.inf
    a[5, (mid + cols // 2) % cols] = np.nan
    return a


for _dt in ("float32", "float16", "bfloat16"):
    def _softmax_nonfinite(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return {f"{cols}": fg(tf, tf.nn.softmax, [const(tf, _nonfinite(cols), dt)], "osmnf")
                for cols in NONFINITE_COLS}
    program(f"o-softmax-nonfinite-{_dt}", _softmax_nonfinite)


def _keras_xent(tf: Any, mk: Any) -> Any:
    """Keras's categorical and sparse categorical cross-entropies of softmax probabilities (from_logits=False: the
    softmax's bits go through Keras's normalisation, clip and log) and from logits, with the logits' gradients."""
    losses = tf.keras.losses
    out = {}
    for cols in (2, 7, 16, 17, 33, 48, 64, 65, 129, 256):
        r = rng(f"oxent/{cols}")
        lab = r.rand(5, cols)
        lab /= lab.sum(1, keepdims=True)
        ids = r.randint(0, cols, 5).astype("int32")
        x = const(tf, _logits("oxent", 5, cols), "float32")
        y, yi = tf.constant(lab.astype("float32")), tf.constant(ids)
        out[f"{cols}"] = {
            "cce": fg(tf, lambda v: losses.categorical_crossentropy(y, tf.nn.softmax(v)), [x], "oxc"),
            "scce": fg(tf, lambda v: losses.sparse_categorical_crossentropy(yi, tf.nn.softmax(v)), [x], "oxs"),
            "cce-logits": fg(tf, lambda v: losses.categorical_crossentropy(y, v, from_logits=True), [x], "oxl")}
    return out


program("o-xent-keras-float32", _keras_xent)


# -- 2. MatMul: the transpose_b kernel's rows, the in-order product's k and n, their borders ------------------------
_MM_TB = tuple((m, k, n) for m in (1, 2, 3, 8, 9, 15, 16, 17, 32)
               for k, n in ((1, 3), (7, 2), (16, 5), (17, 1), (33, 4), (100, 3)))
_MM_PLAIN = ((1, 1, 2), (1, 3, 2), (4, 16, 5), (3, 17, 1), (17, 33, 2), (2, 384, 3), (2, 385, 3), (5, 100, 17),
             (15, 9, 16), (16, 9, 16), (33, 20, 7))
_MM_TA = ((3, 9, 5, False), (4, 17, 2, True), (9, 16, 3, True))

for _dt in ("float32", "bfloat16"):
    def _matmul(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        cases = [(m, k, n, False, True) for m, k, n in _MM_TB] + [(m, k, n, False, False) for m, k, n in _MM_PLAIN] \
            + [(m, k, n, True, tb) for m, k, n, tb in _MM_TA]
        for m, k, n, ta, tb in cases:
            a = values(f"omma{m}", m * k, dt, "mild").reshape((k, m) if ta else (m, k))
            b = values(f"ommb{n}", k * n, dt, "mild").reshape((n, k) if tb else (k, n))
            out[f"{m}x{k}x{n}{'T' if ta else 'N'}{'T' if tb else 'N'}"] = fg(
                tf, lambda p, q, ta=ta, tb=tb: tf.linalg.matmul(p, q, transpose_a=ta, transpose_b=tb),
                [const(tf, a, dt), const(tf, b, dt)], "omm")
        return out
    program(f"o-matmul-{_dt}", _matmul)


# -- 3. FusedBatchNormV3 over channel counts (the jit kernel for a multiple of 4, the C++ kernel otherwise) --------
BN_CHANNELS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 20, 32)

for _dt in ("float32", "bfloat16"):
    def _bn(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for c in BN_CHANNELS:
            for xs in ((2, 3, 3, c), (1, 2, 5, c)):
                x = values(f"obn{xs}", int(np.prod(xs)), dt, "mild").reshape(xs) * 3 + 1
                sc, of = values(f"obns{c}", c, "float32", "near1"), values(f"obno{c}", c, "float32", "mild")
                mean, var = values(f"obnm{c}", c, "float32", "mild"), values(f"obnv{c}", c, "float32", "near1")
                for training in (True, False):
                    def fn(v: Any, s: Any, o: Any, training: bool = training, mean: Any = mean, var: Any = var) -> Any:
                        return tf.compat.v1.nn.fused_batch_norm(
                            v, s, o, mean=None if training else tf.constant(mean.astype("float32")),
                            variance=None if training else tf.constant(var.astype("float32")), epsilon=0.001,
                            is_training=training)[0]
                    out[f"{xs}{training}"] = fg(tf, fn, [const(tf, x, dt), const(tf, sc, "float32"),
                                                         const(tf, of, "float32")], "obn")
        return out
    program(f"o-batchnorm-{_dt}", _bn)


# -- 4. Conv2D (forward, input and filter gradients) and pooling, float32 ------------------------------------------
_CONV = (((1, 4, 4, 1), (2, 2, 1, 1), 1, "VALID"), ((1, 5, 5, 2), (3, 3, 2, 3), 1, "SAME"),
         ((2, 5, 6, 3), (3, 3, 3, 4), 2, "SAME"), ((1, 6, 6, 4), (1, 1, 4, 5), 1, "VALID"),
         ((2, 4, 5, 5), (2, 3, 5, 2), 1, "VALID"), ((1, 7, 7, 8), (3, 3, 8, 8), 2, "VALID"),
         ((2, 5, 5, 9), (3, 3, 9, 1), 1, "SAME"), ((1, 6, 5, 16), (2, 2, 16, 3), 1, "SAME"),
         ((1, 5, 5, 7), (5, 5, 7, 2), 1, "VALID"),
         # 1x1 filters at stride 1 (oneDNN's 1x1 kernel: the filter gradient's pixel blocks split between threads)
         ((1, 5, 5, 3), (1, 1, 3, 4), 1, "VALID"), ((3, 4, 6, 2), (1, 1, 2, 5), 1, "SAME"),
         ((2, 5, 5, 3), (1, 1, 3, 17), 1, "VALID"), ((1, 1, 19, 2), (1, 1, 2, 3), 1, "VALID"),
         ((1, 12, 12, 3), (1, 1, 3, 2), 1, "VALID"))


def _conv(tf: Any, mk: Any) -> Any:
    out = {}
    for xs, fs, s, pad in _CONV:
        x = values(f"oconv{xs}", int(np.prod(xs)), "float32", "mild").reshape(xs)
        w = values(f"oconvw{fs}", int(np.prod(fs)), "float32", "mild").reshape(fs)
        out[f"{xs}{fs}{s}{pad}"] = fg(tf, lambda p, q, s=s, pad=pad: tf.nn.conv2d(p, q, s, pad),
                                      [const(tf, x, "float32"), const(tf, w, "float32")], "oconv")
    return out


program("o-conv2d-float32", _conv)

_POOL = (((1, 4, 4, 1), 2, 2, "VALID"), ((1, 5, 5, 2), 3, 1, "SAME"), ((2, 6, 5, 3), 2, 1, "VALID"),
         ((1, 7, 7, 4), 3, 2, "SAME"), ((1, 6, 6, 5), (2, 3), (1, 2), "SAME"), ((2, 5, 4, 16), 2, 2, "SAME"),
         ((1, 8, 8, 17), 4, 3, "VALID"))


def _pool(tf: Any, mk: Any) -> Any:
    out = {}
    for xs, k, s, pad in _POOL:
        x = values(f"opool{xs}", int(np.prod(xs)), "float32", "mild").reshape(xs)
        x.ravel()[4::7] = x.ravel()[3::7][:len(x.ravel()[4::7])]   # ties inside windows: MaxPool's first maximum
        for name, fn in (("avg", tf.nn.avg_pool2d), ("max", tf.nn.max_pool2d)):
            out[f"{name}{xs}{k}{s}{pad}"] = fg(tf, lambda v, fn=fn, k=k, s=s, pad=pad: fn(v, k, s, pad),
                                               [const(tf, x, "float32")], name)
    return out


program("o-pool-float32", _pool)

FAMILIES = ("softmax", "xent", "matmul", "batchnorm", "conv2d", "pool")
