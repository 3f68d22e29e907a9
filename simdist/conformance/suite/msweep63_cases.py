"""The float32/half matrix-product family with tagged NaNs, infinities, subnormals and signed zeros, crossed by rule
at each of simdist's kernel thresholds (sixty-third session, msweep63; test_msweep63.py): values bit for bit (a NaN's
payload and sign included) against TF 2.21's recorded results.

Why: the eighty-third blind batch's matmul survivors (tests/mutants.py TRAINING_BATCH83: `plain-matmul-nans-
unordered`, `blocked-nan-sum-operands-swapped`, `transposed-b-nans-compiled`, `chain-nan-y-first`,
`copy-based-sgemm-hundred-columns`) were NaN-payload and threshold classes no test read bit for bit: the suite fed
float32 products NaNs in one operand, or at a few shapes. Here every path simdist's float32 MatMul takes
(simdist/runtime/ops/linalg.py `_matmul`, `_matmul_op`, `_batch_matmul`; onednn_matmul.py) is crossed with one set of
value patterns:
- patterns (`PATTERNS`): clean; one tagged NaN in x (and a negative NaN); one in y; NaNs of x and y at the same k
  of one output (which operand's payload a step keeps); an early x NaN and a late y NaN of one output (the chain's
  last); NaNs in the first and in the last k block (the blocks' addition order); a NaN row of x / column of y with
  distinct payloads; a signalling NaN; inf · 0 and inf − inf (the default NaN) beside a tagged NaN; ±inf sums; subnormal
  operands and subnormal products; -0.0 operands (a sum of -0.0 products from +0);
- paths and thresholds (m rows, k, n columns, transposes): one row (m = 1) without transpose_b (oneDNN's gemv, k
  split by its threads) and with it (the one-row kernel: 16-lane part and pieces of 8/4/2/1: k 1, 7, 15, 16, 17, 31,
  33); one column (the matrix-vector kernel: m 2, 15, 16, 17, with transpose_b from 16 rows, k <= 3 in order);
  x^T @ column; transpose_b of 2..15 rows (the small-n kernel, its calls of 3 rows: n 7, 8, 9, 16); the plain
  no-copy sgemm (k 1, 2, 383, 384, 385, 768, 769, 784 and 1,000: one block, two halves, blocks of 384 and halves),
  transpose_a, both transposed, transpose_b from 16 rows; the copy-based sgemm (transpose_b, 16 rows, 100 / 101
  columns, k 40, 385, 784: its k blocks); BatchMatMulV2 of rank 3/4 with broadcast batch dims and adjoints (k 1, 511,
  512, 513); einsum contractions, tensordot, linalg.matvec; one row where oneDNN's threads split k (odd k, the
  longer part first) or the outputs (1,100 columns); Keras Dense / EinsumDense and tf.nn.bias_add after a matmul (a
  NaN in both); the gradients of matmul (tape, tagged upstream gradients; each operand alone; BatchMatMulV2 with a
  broadcast operand); Keras Dense/EinsumDense gradients (relu or none, one unit, a transposed kernel 'ab,cb->ac',
  a [d, 1] bias); eager and traced;
- dtypes: float32 throughout, float16 and bfloat16 (oneDNN's half kernels: k 3, 512, 513), float64 for control.

Every program is host-dependent (oneDNN's float32/half kernels on the recording host): simdist runs them under its
reference model. `python -m simdist.conformance.suite.test_msweep63 --record` rewrites msweep63_reference.json.gz.
OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "msweep63_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("m-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-third session ... msweep63"; /work/wt/msweep63_logs/cmp.py over the recording, cmp5.txt). Two classes:
#: (1) `subnormal` (float32, the one-row, one-column, small-n and plain kernels): products of 2^-70-scaled operands
#:     are float32 subnormals; oneDNN's kernels run with FTZ/DAZ, so each fused multiply-add's subnormal result is
#:     flushed to a zero of its sign as it is made: a chain ends on the zero of its last product's sign (1 x 17 x 5:
#:     TF -0.0 where the last product is negative, simdist +0.0; checked for the three one-row products) and lane
#:     and block sums add those zeros. simdist computes the unflushed sum and flushes the result (dispatch's
#:     subnormal rule): the sign of a zero (and of nothing else in these cases) differs. Not modelled: every
#:     kernel's pure step would flush (transposed_b_pure, _dots, ordered_matmul, _blocked).
#: (2) float64 `same-k` / `inf-zero` (Eigen's float64 GEBP/GEMV, the control dtype): which of two NaNs (x's and
#:     y's at one k, or a tagged NaN after a default one) a float64 product keeps; simdist's float64 kernels keep
#:     NumPy's. Not measured further.
OPEN: dict[str, tuple[str, ...]] = {
    'm-f32-one-row': (
        '1x17x5 ta0 tb0 subnormal', '1x384x3 ta0 tb0 subnormal', '1x385x2 ta0 tb0 subnormal',
        '1x15x2 ta0 tb1 subnormal', '1x16x3 ta0 tb1 subnormal', '1x17x3 ta0 tb1 subnormal',
        '1x31x2 ta0 tb1 subnormal', '1x33x4 ta0 tb1 subnormal', '1x20x3 ta1 tb0 subnormal',
    ),
    'm-f32-one-column': (
        '17x40x1 ta0 tb0 subnormal', '5x3x1 ta0 tb0 subnormal', '16x17x1 ta0 tb1 subnormal',
        '17x9x1 ta0 tb1 subnormal', '9x40x1 ta1 tb0 subnormal',
    ),
    'm-f32-small-n': (
        '2x16x7 ta0 tb1 subnormal', '3x17x8 ta0 tb1 subnormal', '3x33x9 ta0 tb1 subnormal',
        '5x15x16 ta0 tb1 subnormal', '9x40x16 ta0 tb1 subnormal', '15x17x9 ta0 tb1 subnormal',
        '14x16x8 ta0 tb1 subnormal',
    ),
    'm-f32-plain-blocks': (
        '2x768x2 ta0 tb0 subnormal', '2x769x3 ta0 tb0 subnormal', '3x784x2 ta0 tb0 subnormal',
        '2x1000x2 ta0 tb0 subnormal',
    ),
    'm-f64-matmul': (
        '1x17x3 ta0 tb0 same-k', '3x17x1 ta0 tb0 same-k', '4x9x5 ta0 tb0 same-k', '3x33x9 ta0 tb1 same-k',
        '3x33x9 ta0 tb1 inf-zero', '5x40x4 ta1 tb0 same-k', '5x40x4 ta1 tb0 inf-zero',
    ),
}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def raw(t: Any) -> Any:
    """A tensor's values as their bit patterns (a NaN's payload and sign included), with its shape."""
    a = np.asarray(t.numpy())
    if a.dtype.name == "bfloat16":
        a = a.view(np.uint16)
    return [list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


# -- value patterns ---------------------------------------------------------------------------------------------------
def _nan32(base: int, count: int, negative: bool = False) -> np.ndarray:
    """`count` float32 quiet NaNs whose payloads count up from `base` (sign bit set when `negative`)."""
    top = 0xFFC00000 if negative else 0x7FC00000
    return (np.arange(count, dtype=np.uint32) + np.uint32(top + base)).view(np.float32)


def _pattern(p: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x [m, k], y [k, n] (float32 copies) with pattern `p`'s special values placed (in place; returned)."""
    m, k = x.shape
    n = y.shape[1]
    h, last = k // 2, k - 1
    if p == "x1":
        x[0, h] = _nan32(0x11, 1)[0]
        x[m - 1, last] = _nan32(0x123, 1, True)[0]
    elif p == "y1":
        y[k // 3, 0] = _nan32(0x2001, 1)[0]
        y[0, n - 1] = _nan32(0x2300, 1, True)[0]
    elif p == "same-k":        # x's and y's NaN at one step of every output of row 0 / column 0
        x[0, h] = _nan32(0x41, 1)[0]
        y[h, :] = _nan32(0x2041, n, True)
        x[:, last] = _nan32(0x51, m, True)
        y[last, 0] = _nan32(0x2051, 1)[0]
    elif p == "early-late":    # one output's x NaN at step 0 and y NaN at the last step (and the reverse)
        x[0, 0] = _nan32(0x61, 1)[0]
        y[last, 0] = _nan32(0x2061, 1)[0]
        y[0, n - 1] = _nan32(0x2071, 1, True)[0]
        x[m - 1, last] = _nan32(0x71, 1)[0]
    elif p == "blocks":        # NaNs in the first and the last k block of the same outputs
        x[:, 0] = _nan32(0x81, m)
        y[last, :] = _nan32(0x2081, n, True)
        if k > 1:
            x[0, last] = _nan32(0x91, 1, True)[0]
            y[min(400, last), n - 1] = _nan32(0x2091, 1)[0]
    elif p == "row-col":       # a NaN row of x and a NaN column of y, distinct payloads
        x[m - 1, :] = _nan32(0x100, k)
        y[:, 0] = _nan32(0x3000, k, True)
    elif p == "snan":          # signalling NaNs (quieted by the arithmetic)
        x[0, h] = np.uint32(0x7F800123).view(np.float32)
        y[last, n - 1] = np.uint32(0xFF800045).view(np.float32)
    elif p == "inf-zero":      # inf · 0, inf − inf (default NaNs) and a tagged NaN after them
        x[0, 0], y[0, :] = np.inf, 0.0
        x[m - 1, h], x[m - 1, last] = np.inf, -np.inf
        y[h, :], y[last, :] = np.abs(y[h, :]) + 1, np.abs(y[last, :]) + 1
        if m > 1 and k > 2:
            x[m // 2, 0], y[0, n - 1] = np.inf, 0.0
            x[m // 2, last] = _nan32(0xA1, 1)[0]
    elif p == "inf":           # infinities of both signs summed with finite terms
        x[0, h] = np.inf
        y[last, n - 1] = -np.inf
        x[m - 1, 0] = -np.inf
    elif p == "subnormal":     # subnormal operands and products (flush-to-zero questions)
        x[:] = x * np.float32(2.0 ** -70)
        y[:] = y * np.float32(2.0 ** -70)
        x[0, 0] = np.float32(1e-40)
        y[0, :] = np.float32(3.0)
    elif p == "neg-zero":      # -0.0 products only (from +0: +0.0) in row 0, -0.0 operands elsewhere
        x[0, :] = -0.0
        y[:, n - 1] = -0.0
        x[m - 1, :] = np.where(x[m - 1, :] > 0, -0.0, 0.0)
    elif p != "clean":
        raise ValueError(p)
    return x, y


PATTERNS = ("clean", "x1", "y1", "same-k", "early-late", "blocks", "row-col", "snan", "inf-zero", "inf", "subnormal",
            "neg-zero")
#: the NaN patterns alone (the larger products: cost)
NAN_PATTERNS = ("x1", "same-k", "early-late", "blocks", "row-col", "inf-zero")


def _operands(key: str, m: int, k: int, n: int, p: str) -> tuple[np.ndarray, np.ndarray]:
    r = rng(f"msweep63/{key}/{p}")
    x = r.uniform(-1, 1, (m, k)).astype(np.float32)
    y = r.uniform(-1, 1, (k, n)).astype(np.float32)
    return _pattern(p, x, y)


def _matmul_cases(tf: Any, shapes: tuple, patterns: tuple = PATTERNS, traced: bool = False) -> dict:
    """tf.matmul of x [m, k] @ y [k, n] given transposed as (ta, tb) say, each shape x each pattern: the bits."""
    out: dict[str, Any] = {}
    mm = tf.function(lambda a, b, ta, tb: tf.matmul(a, b, transpose_a=ta, transpose_b=tb)) if traced else None
    for m, k, n, ta, tb in shapes:
        for p in patterns:
            x, y = _operands(f"{m}x{k}x{n}{ta}{tb}", m, k, n, p)
            a = tf.constant(x.T.copy() if ta else x)
            b = tf.constant(y.T.copy() if tb else y)
            key = f"{m}x{k}x{n} ta{int(ta)} tb{int(tb)} {p}"
            if mm is not None:
                out[key] = attempt(lambda: raw(mm(a, b, ta, tb)))
            else:
                out[key] = attempt(lambda: raw(tf.matmul(a, b, transpose_a=ta, transpose_b=tb)))
    return out


# -- 1. one row ------------------------------------------------------------------------------------------------------
def _one_row(tf: Any) -> Any:
    """m = 1: oneDNN's gemv without transpose_b (k in order), with transpose_b the one-row kernel (16-lane part, then
    pieces of 8, 4, 2, 1), x given transposed too."""
    shapes = [(1, k, n, False, False) for k, n in ((1, 2), (3, 2), (17, 5), (384, 3), (385, 2))]
    shapes += [(1, k, n, False, True) for k, n in ((1, 1), (7, 3), (15, 2), (16, 3), (17, 3), (31, 2), (33, 4))]
    shapes += [(1, 20, 3, True, False), (1, 33, 2, True, True)]
    return _matmul_cases(tf, tuple(shapes))


program("m-f32-one-row", _one_row)


def _row_split(tf: Any) -> Any:
    """One row times a wide matrix where oneDNN's threads split k (not single-threaded, at most 500 outputs a thread,
    k >= 256: two parts, an odd k's longer part first) and where they split the outputs instead (more than 1,000
    columns: k in order), with NaNs in both parts."""
    shapes = ((1, 4141, 200, False, False), (1, 2001, 1100, False, False), (1, 4140, 127, False, False))
    return _matmul_cases(tf, shapes, ("clean", "blocks", "same-k", "early-late"))


program("m-f32-row-split", _row_split)


# -- 2. one column ---------------------------------------------------------------------------------------------------
def _one_column(tf: Any) -> Any:
    """n = 1: the matrix-vector kernel (dot products of rows with the column; with transpose_b one row or 16 and
    more), k <= 3 added in order (TF's gemv), x^T @ column (k in order)."""
    shapes = [(m, k, 1, False, False) for m, k in ((2, 4), (15, 17), (16, 16), (17, 40))]
    shapes += [(m, k, 1, False, False) for m, k in ((5, 1), (5, 3))]
    shapes += [(m, k, 1, False, True) for m, k in ((16, 17), (17, 9))]
    shapes += [(m, k, 1, True, False) for m, k in ((4, 3), (9, 40), (1, 20))]
    return _matmul_cases(tf, tuple(shapes))


program("m-f32-one-column", _one_column)


# -- 3. transpose_b, 2..15 rows: the small-n kernel ------------------------------------------------------------------
def _small_n(tf: Any) -> Any:
    """transpose_b with 2..15 rows (16 lanes over k, lane sums by halves; calls of 1-3 rows, the 3-row calls'
    columns 5..7 of 8 multiplying x first): m 2, 3, 5, 9, 15 x n 7, 8, 9, 16 x k 1, 15, 16, 17, 33."""
    shapes = [(m, k, n, False, True) for m, k, n in ((2, 16, 7), (3, 17, 8), (3, 33, 9), (5, 15, 16), (6, 1, 9),
                                                     (9, 40, 16), (15, 17, 9), (14, 16, 8))]
    return _matmul_cases(tf, tuple(shapes))


program("m-f32-small-n", _small_n)


# -- 4. the plain no-copy sgemm and its k blocks ---------------------------------------------------------------------
def _plain_blocks(tf: Any) -> Any:
    """Neither transposed (m >= 2, n >= 2), transpose_a, both, transpose_b from 16 rows: k 1 and 2, one block (383,
    384), two halves (385, 768), 384 then halves (769, 784, 1,000)."""
    shapes = [(2, 1, 2, False, False), (3, 2, 3, False, False), (2, 383, 3, False, False), (3, 384, 2, False, False),
              (2, 385, 3, False, False), (2, 768, 2, False, False), (2, 769, 3, False, False),
              (3, 784, 2, False, False), (2, 1000, 2, False, False),
              (3, 385, 2, True, False), (2, 769, 2, True, False), (4, 20, 3, True, True), (2, 785, 2, True, True),
              (16, 385, 3, False, True), (17, 40, 2, False, True)]
    return _matmul_cases(tf, tuple(shapes[:9]), PATTERNS) | _matmul_cases(tf, tuple(shapes[9:]), NAN_PATTERNS)


program("m-f32-plain-blocks", _plain_blocks)


# -- 5. the copy-based sgemm -----------------------------------------------------------------------------------------
def _copy_based(tf: Any) -> Any:
    """transpose_b, 16 rows and more, 100 (no-copy) and 101 (copy-based) columns: k 40, 385, 784 (the copy kernel's
    blocks 384 + 384 + 16 where the no-copy one takes 384 + 200 + 200)."""
    shapes = [(16, 40, 100, False, True), (16, 40, 101, False, True), (16, 385, 101, False, True),
              (17, 784, 100, False, True), (16, 784, 101, False, True)]
    return _matmul_cases(tf, tuple(shapes), ("clean", "blocks", "same-k", "inf-zero"))


program("m-f32-copy-based", _copy_based)


# -- 6. traced -------------------------------------------------------------------------------------------------------
def _traced(tf: Any) -> Any:
    """A tf.function of matmul over one shape of each path: the same kernels inside a graph."""
    shapes = ((1, 17, 3, False, False), (1, 17, 3, False, True), (16, 17, 1, False, False), (3, 33, 9, False, True),
              (2, 769, 3, False, False), (16, 385, 101, False, True))
    return _matmul_cases(tf, shapes, ("x1", "same-k", "blocks", "inf-zero", "neg-zero"), traced=True)


program("m-f32-traced", _traced)


# -- 7. batched products, einsum, tensordot, matvec ------------------------------------------------------------------
def _batched(tf: Any) -> Any:
    """BatchMatMulV2 of rank 3 and 4, broadcast batch dims, adjoint_a/b; einsum contractions (its BatchMatMul);
    tensordot and linalg.matvec (MatMul on reshaped operands): k 1, 17, 511, 512, 513."""
    out: dict[str, Any] = {}
    for k in (1, 17, 511, 512, 513):
        for p in ("clean", "x1", "same-k", "early-late", "blocks", "inf-zero", "neg-zero"):
            x, y = _operands(f"bmm{k}", 3, k, 4, p)
            xb = np.stack([x, x[::-1].copy()])               # [2, 3, k]
            a = tf.constant(xb)
            b = tf.constant(y)                                # broadcast [k, 4]
            out[f"bmm k{k} {p}"] = attempt(lambda: raw(tf.matmul(a, b)))
            out[f"bmm rank4 k{k} {p}"] = attempt(lambda: raw(tf.matmul(tf.constant(xb[None]),
                                                                       tf.constant(np.stack([y, y])[:, None]))))
            out[f"bmm adj k{k} {p}"] = attempt(lambda: raw(tf.linalg.matmul(
                tf.constant(np.swapaxes(xb, 1, 2).copy()), tf.constant(y.T[None].copy()), adjoint_a=True,
                adjoint_b=True)))
            out[f"einsum bij,jk k{k} {p}"] = attempt(lambda: raw(tf.einsum("bij,jk->bik", a, b)))
            out[f"einsum ij,kj k{k} {p}"] = attempt(lambda: raw(tf.einsum("ij,kj->ik", tf.constant(x),
                                                                         tf.constant(y.T.copy()))))
            out[f"einsum i,i k{k} {p}"] = attempt(lambda: raw(tf.einsum("i,i->", tf.constant(x[0]),
                                                                       tf.constant(y[:, 0].copy()))))
            out[f"tensordot k{k} {p}"] = attempt(lambda: raw(tf.tensordot(a, b, axes=1)))
            out[f"matvec k{k} {p}"] = attempt(lambda: raw(tf.linalg.matvec(tf.constant(x), tf.constant(y[:, 0].copy()))))
    return out


program("m-f32-batched", _batched)


# -- 8. gradients ----------------------------------------------------------------------------------------------------
def _grads(tf: Any) -> Any:
    """matmul's gradients (tape) with tagged NaNs in the operands and in the upstream gradient: dx = g @ y^T, dy =
    x^T @ g (the transposed kernels), each transpose pair, one row, 2..15 and 16+ rows."""
    out: dict[str, Any] = {}
    for m, k, n in ((1, 17, 3), (3, 33, 9), (16, 20, 2), (2, 385, 3)):
        for ta, tb in ((False, False), (True, False), (False, True), (True, True)):
            for p in ("clean", "x1", "same-k", "inf-zero"):
                x, y = _operands(f"g{m}x{k}x{n}", m, k, n, p)
                a = tf.constant(x.T.copy() if ta else x)
                b = tf.constant(y.T.copy() if tb else y)
                g = rng(f"msweep63/g/{m}{k}{n}{p}").uniform(-1, 1, (m, n)).astype(np.float32)
                if p != "clean":
                    g[0, n - 1] = _nan32(0x500, 1, True)[0]

                def run() -> Any:
                    with tf.GradientTape() as t:
                        t.watch([a, b])
                        z = tf.matmul(a, b, transpose_a=ta, transpose_b=tb)
                    da, db = t.gradient(z, [a, b], output_gradients=tf.constant(g))
                    return {"z": raw(z), "da": raw(da), "db": raw(db)}
                out[f"{m}x{k}x{n} ta{int(ta)} tb{int(tb)} {p}"] = attempt(run)
    return out


program("m-f32-grads", _grads)


# -- 9. Keras Dense / EinsumDense and bias_add -----------------------------------------------------------------------
def _keras(tf: Any) -> Any:
    """Dense (its matmul and bias_add) and EinsumDense with NaN-tagged inputs, kernels and biases (a NaN in the
    product and in the bias of one output), one row, a few and 16 rows; tf.nn.bias_add after tf.matmul."""
    keras = tf.keras
    out: dict[str, Any] = {}
    for m, k, n in ((1, 17, 3), (4, 16, 9), (16, 33, 2), (5, 20, 1)):
        for p in ("clean", "x1", "same-k", "inf-zero"):
            x, w = _operands(f"keras{m}{k}{n}", m, k, n, p)
            bias = rng(f"msweep63/bias/{m}{k}{n}").uniform(-1, 1, (n,)).astype(np.float32)
            if p != "clean":
                bias[0] = _nan32(0x700, 1, True)[0]
            dense = keras.layers.Dense(n, name=f"msweep63_dense_{m}_{k}_{n}_{p.replace('-', '_')}")
            dense.build((None, k))
            dense.set_weights([w, bias])
            out[f"dense {m}x{k}x{n} {p}"] = attempt(lambda: raw(dense(tf.constant(x))))
            ed = keras.layers.EinsumDense("ab,bc->ac", output_shape=n, bias_axes="c",
                                          name=f"msweep63_edense_{m}_{k}_{n}_{p.replace('-', '_')}")
            ed.build((None, k))
            ed.set_weights([w, bias])
            out[f"einsumdense {m}x{k}x{n} {p}"] = attempt(lambda: raw(ed(tf.constant(x))))
            out[f"bias_add {m}x{k}x{n} {p}"] = attempt(lambda: raw(tf.nn.bias_add(
                tf.matmul(tf.constant(x), tf.constant(w)), tf.constant(bias))))
    return out


program("m-f32-keras", _keras)


# -- 10. half precision and float64 ----------------------------------------------------------------------------------
def _tag_half(a: np.ndarray, dt: str, spots: list, base: int, negative: bool = False) -> None:
    """Tagged NaNs of a float16 ([..] as uint16 0x7e00 + payload) or bfloat16 (0x7fc0 + payload) array, in place."""
    top = (0x7E00 if dt == "float16" else 0x7FC0) | (0x8000 if negative else 0)
    for i, s in enumerate(spots):
        a[s] = top + base + i


def _half(tf: Any, dt: str) -> Any:
    """float16 / bfloat16 matmul (oneDNN's half kernels: float32 sums of exact products, k in blocks of 512) and
    BatchMatMulV2 with tagged NaNs in both operands (the same k and not), inf · 0, overflow to inf: m 1, 2, 16; k 3,
    512, 513; transposes."""
    out: dict[str, Any] = {}
    for m, k, n, ta, tb in ((1, 3, 2, False, False), (2, 3, 2, False, False), (2, 512, 3, False, False),
                            (2, 513, 3, False, False), (16, 513, 2, False, True), (3, 40, 2, True, False),
                            (1, 20, 1, False, True)):
        for p in ("clean", "x", "same-k", "inf-zero", "overflow"):
            r = rng(f"msweep63/{dt}/{m}{k}{n}{p}")
            x = r.uniform(-1, 1, (m, k)).astype(np.float32)
            y = r.uniform(-1, 1, (k, n)).astype(np.float32)
            if p == "overflow":
                x *= np.float32(300.0)
                y *= np.float32(300.0)
            xt = tf.cast(tf.constant(x), dt)
            yt = tf.cast(tf.constant(y), dt)
            xb = np.array(tf.bitcast(xt, tf.uint16).numpy())
            yb = np.array(tf.bitcast(yt, tf.uint16).numpy())
            h = k // 2
            if p in ("x", "same-k"):
                _tag_half(xb, dt, [(0, h), (m - 1, k - 1)], 0x11)
            if p == "same-k":
                _tag_half(yb, dt, [(h, 0), (k - 1, n - 1)], 0x31, True)
            if p == "inf-zero":
                xb[0, 0] = 0x7C00 if dt == "float16" else 0x7F80
                yb[0, :] = 0
            a = tf.bitcast(tf.constant(xb.T.copy() if ta else xb), getattr(tf, dt))
            b = tf.bitcast(tf.constant(yb.T.copy() if tb else yb), getattr(tf, dt))
            key = f"{m}x{k}x{n} ta{int(ta)} tb{int(tb)} {p}"
            out[f"mm {key}"] = attempt(lambda: raw(tf.bitcast(tf.matmul(a, b, transpose_a=ta, transpose_b=tb),
                                                              tf.uint16)))
            out[f"bmm {key}"] = attempt(lambda: raw(tf.bitcast(tf.matmul(a[None], b[None], transpose_a=ta,
                                                                         transpose_b=tb), tf.uint16)))
    return out


program("m-f16-matmul", lambda tf: _half(tf, "float16"))
program("m-bf16-matmul", lambda tf: _half(tf, "bfloat16"))


def _float64(tf: Any) -> Any:
    """float64 matmul (Eigen's kernels, for control): tagged NaNs in one and both operands, inf · 0, -0.0."""
    out: dict[str, Any] = {}
    for m, k, n, ta, tb in ((1, 17, 3, False, False), (3, 17, 1, False, False), (4, 9, 5, False, False),
                            (3, 33, 9, False, True), (5, 40, 4, True, False)):
        for p in ("clean", "x1", "same-k", "inf-zero", "neg-zero"):
            x, y = _operands(f"f64{m}{k}{n}{ta}{tb}", m, k, n, p)
            xd, yd = x.astype(np.float64), y.astype(np.float64)
            a = tf.constant(xd.T.copy() if ta else xd)
            b = tf.constant(yd.T.copy() if tb else yd)
            out[f"{m}x{k}x{n} ta{int(ta)} tb{int(tb)} {p}"] = attempt(
                lambda: raw(tf.matmul(a, b, transpose_a=ta, transpose_b=tb)))
    # batched with an operand transposed either side of Eigen's coefficient-based threshold (m + k + n < 20)
    for m, k, n, ta, tb in ((5, 10, 5, False, True), (5, 9, 5, False, True), (4, 10, 6, True, False),
                            (4, 9, 6, True, False), (1, 12, 7, False, True)):
        x, y = _operands(f"f64b{m}{k}{n}{ta}{tb}", m, k, n, "clean")
        xd = np.stack([x, -x]).astype(np.float64)
        yd = y.astype(np.float64)
        a = tf.constant(np.swapaxes(xd, 1, 2).copy() if ta else xd)
        b = tf.constant(yd.T.copy() if tb else yd)
        out[f"bmm {m}x{k}x{n} ta{int(ta)} tb{int(tb)}"] = attempt(
            lambda: raw(tf.matmul(a, b, transpose_a=ta, transpose_b=tb)))
    return out


program("m-f64-matmul", _float64)


# -- 11. gradients of one operand alone, batched gradients, Keras layers' gradients -----------------------------------
def _grads_more(tf: Any) -> Any:
    """matmul's gradient for one operand alone (the other a constant: a Dense layer's kernel gradient), each transpose
    pair; BatchMatMulV2's gradients with a broadcast operand (summed over the batch) and adjoints; tagged NaNs in
    the operands and the upstream gradient."""
    out: dict[str, Any] = {}
    for m, k, n in ((1, 17, 3), (3, 33, 9), (16, 20, 2), (2, 385, 3)):
        for ta, tb in ((False, False), (True, False), (False, True), (True, True)):
            for p in ("clean", "same-k"):
                x, y = _operands(f"ga{m}x{k}x{n}", m, k, n, p)
                a = tf.constant(x.T.copy() if ta else x)
                b = tf.constant(y.T.copy() if tb else y)
                g = tf.constant(rng(f"msweep63/ga/{m}{k}{n}{p}").uniform(-1, 1, (m, n)).astype(np.float32))
                for which in ("a", "b"):
                    def run() -> Any:
                        with tf.GradientTape() as t:
                            t.watch(a if which == "a" else b)
                            z = tf.matmul(a, b, transpose_a=ta, transpose_b=tb)
                        return raw(t.gradient(z, a if which == "a" else b, output_gradients=g))
                    out[f"{m}x{k}x{n} ta{int(ta)} tb{int(tb)} {p} d{which}"] = attempt(run)
    for k in (3, 17, 513):
        for p in ("clean", "same-k"):
            x, y = _operands(f"gb{k}", 3, k, 4, p)
            xb = tf.constant(np.stack([x, x[::-1].copy()]))
            for adj in (False, True):
                b = tf.constant(y.T.copy() if adj else y)
                g = tf.constant(rng(f"msweep63/gb/{k}{p}").uniform(-1, 1, (2, 3, 4)).astype(np.float32))

                def run_b() -> Any:
                    with tf.GradientTape() as t:
                        t.watch([xb, b])
                        z = tf.linalg.matmul(xb, b, adjoint_b=adj)
                    da, db = t.gradient(z, [xb, b], output_gradients=g)
                    return {"da": raw(da), "db": raw(db)}
                out[f"bmm k{k} adj{int(adj)} {p}"] = attempt(run_b)
    return out


program("m-f32-grads-alone", _grads_more)


def _keras_grads(tf: Any) -> Any:
    """Dense (relu and none, one unit and three, 16 rows: BiasAddGrad's order) and EinsumDense ('ab,bc->ac',
    'ab,cb->ac' (a transposed kernel), 'abc,cde->abde' with bias_axes 'd' (a bias of shape [d, 1]), relu): outputs
    and the gradients of the kernel, the bias and the input of a sum of squares, with and without a tagged NaN."""
    keras = tf.keras
    out: dict[str, Any] = {}

    def grads(layer: Any, x: np.ndarray) -> Any:
        xt = tf.constant(x)
        with tf.GradientTape() as t:
            t.watch(xt)
            z = layer(xt)
            loss = tf.reduce_sum(z * z)
        gs = t.gradient(loss, [xt] + list(layer.trainable_variables))
        return {"z": raw(z), "grads": [raw(v) for v in gs]}

    for m, k, n in ((16, 17, 1), (16, 20, 3), (3, 33, 9), (100, 8, 5)):
        for p in ("clean", "x1"):
            x, w = _operands(f"kg{m}{k}{n}", m, k, n, p)
            bias = rng(f"msweep63/kgb/{m}{k}{n}").uniform(-1, 1, (n,)).astype(np.float32)
            for act in (None, "relu"):
                tag = f"{m}_{k}_{n}_{p.replace('-', '_')}_{act}"
                dense = keras.layers.Dense(n, activation=act, name=f"msweep63_kg_dense_{tag}")
                dense.build((None, k))
                dense.set_weights([w, bias])
                out[f"dense {m}x{k}x{n} {p} {act}"] = attempt(lambda: grads(dense, x))
                ed = keras.layers.EinsumDense("ab,bc->ac", output_shape=n, bias_axes="c", activation=act,
                                              name=f"msweep63_kg_ed_{tag}")
                ed.build((None, k))
                ed.set_weights([w, bias])
                out[f"einsumdense ab,bc {m}x{k}x{n} {p} {act}"] = attempt(lambda: grads(ed, x))
                et = keras.layers.EinsumDense("ab,cb->ac", output_shape=n, bias_axes="c", activation=act,
                                              name=f"msweep63_kg_et_{tag}")
                et.build((None, k))
                et.set_weights([w.T.copy(), bias])
                out[f"einsumdense ab,cb {m}x{k}x{n} {p} {act}"] = attempt(lambda: grads(et, x))
    r = rng("msweep63/kg3")
    x3 = r.uniform(-1, 1, (2, 5, 7)).astype(np.float32)
    e3 = keras.layers.EinsumDense("abc,cde->abde", output_shape=(5, 3, 4), bias_axes="d", activation="relu",
                                  name="msweep63_kg_e3")
    e3.build((None, 5, 7))
    e3.set_weights([r.uniform(-1, 1, (7, 3, 4)).astype(np.float32), r.uniform(-1, 1, (3, 1)).astype(np.float32)])
    out["einsumdense abc,cde bias d"] = attempt(lambda: grads(e3, x3))
    out["einsumdense abc,cde bias shape"] = [list(v.shape) for v in e3.weights]
    return out


program("m-f32-keras-grads", _keras_grads)
