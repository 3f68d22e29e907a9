"""The contraction sweep's programs (fifty-eighth session, xsweep58; test_xsweep58.py): matmul, batch_matmul with
broadcast batch dimensions, einsum's contraction forms, tensordot, linalg.matvec and keras.ops.matmul crossed by rule
at and around every size threshold of simdist's contraction code (contraction_order.py): Eigen's coefficient-based
product (m + k + n = 19, 20, 21: EIGEN_GEMM_TO_COEFFBASED_THRESHOLD), the GEBP kernel's packets and panels (n and m
around 4 and 8: its two-packet, one-packet, half-packet and single-column kernels; k around 4 and 8: their
accumulators), one row and one column (GEMV), k = 1, zero-size dimensions; transpose_a/b and adjoint; float64,
complex64, complex128, int32, int64, float16, bfloat16; values with -0.0, subnormals, inf and NaN; values and
gradients, eager and traced — bit for bit against TF 2.21 recorded on an AVX-512 Xeon with oneDNN on (every program
host-dependent: simdist runs them under its reference model).

Each program returns JSON (floats as the hex of their values, lists of more than 64 as digests: kpaths54's `packed`);
a case's gradients are fields g0, g1. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison
(docs/conformance.md, "Fifty-eighth session ... xsweep58")."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import cbits, const, fwd_grad, packed, values, without_open
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "xsweep58_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("x-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 on the AVX-512 oneDNN Xeon (program -> "case" or "case/field" left out)
#: - complex64/complex128 products of one row or one column (and one-by-one) in the GEMM region, and einsum's complex
#:   forms that are not a two-sided contraction (one free label on one side, 'i,i->', 'ij,ij->i', 'bi,bj->bij', a label
#:   summed in one operand, matvec, keras.ops.matmul of vectors, tensordot with axes 0): Eigen's complex GEMV and dot
#:   kernels, not modelled (cplx58 modelled the GEBP and coefficient-based products, ops.complex-gebp-order: 150
#:   complex entries here before, 37 after; '16:ij,jk->i/g1' newly off, of the one-operand-summed class). cplx59
#:   modelled the GEMV kernels (MatMul's and einsum's one row or column, `contraction_order.complex_gemv`): 15 of
#:   the 37 now agree and left OPEN (22 remain: dot products, outer products, one-operand sums, keras vectors).
#: - float64 einsum forms with one free label on one side ('i,ij->j', 'ij,j->i', their gradients), 'i,i->' (k = 20)
#:   and tensordot with axes=0's gradient: einsum's view runs them in order, TF's BatchMatMul takes Eigen's GEMV or
#:   dot kernels (float64_gemv models MatMul's, from the transpose flags einsum's view does not carry); equations
#:   with a label summed in one operand only ('ij,jk->i', 'abc,cd->ad', 'abc,bd->da': TF reduces it first, then
#:   contracts; not analysed).
#: - float64 convolution gradients (Conv2DBackpropInput/Filter, Conv3DBackprop*: their own Eigen contractions, whose
#:   orders are not modelled; the forward convolutions are, ops.float64-gebp-order).
OPEN: dict[str, tuple[str, ...]] = {
    'x-einsum-float64': (
        '10:i,ij->j/g0', '10:i,ij->j/g1', '11:ij,j->i/g0', '11:ij,j->i/y', '9:i,i->/g0', '9:i,i->/g1',
        'tensordot4/g0', '16:ij,jk->i/g0', '16:ij,jk->i/y', '17:abc,cd->ad/g1', '17:abc,cd->ad/y', '18:abc,bd->da/g1',
        '18:abc,bd->da/y',
    ),
    'x-einsum-complex128': (
        '12:bi,bj->bij/y', '16:ij,jk->i/g0', '16:ij,jk->i/g1', '16:ij,jk->i/y',
        '17:abc,cd->ad/g1', '17:abc,cd->ad/y', '18:abc,bd->da/g0', '18:abc,bd->da/g1', '18:abc,bd->da/y',
        '1:ij,jk->ik/g1', '8:ij,ij->i/g0', '8:ij,ij->i/g1', '9:i,i->/g0', '9:i,i->/g1', 'keras0', 'keras1', 'keras2',
        'keras3', 'matvec3/g0', 'matvec4/g0', 'tensordot1/g1', 'tensordot4/y',
    ),
    'x-einsum-float16': (
        '16:ij,jk->i/g0', '17:abc,cd->ad/g1', '17:abc,cd->ad/y', '18:abc,bd->da/g1', '18:abc,bd->da/y',
    ),
    'x-conv-float64': (
        'conv2d0/g0', 'conv2d0/g1', 'conv2d1/g0', 'conv2d1/g1', 'conv2d2/g1', 'conv2d4/g0', 'conv2d5/g0',
        'conv2d5/g1', 'conv2d6/g0', 'conv2d6/g1', 'conv2d7/g0', 'conv2d7/g1', 'conv2d8/g0', 'conv3d0/g0',
        'conv3d0/g1', 'conv3d1/g0', 'conv3d1/g1',
    ),
}


def _split(r: Any) -> Any:
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


def _tensor(tf: Any, name: str, shape: tuple[int, ...], dt: str, kind: str = "mild") -> Any:
    """A seeded operand: "mild" normals with 0, -0, subnormals and ±1 (kpaths54's values); "zneg" zeros against
    negatives' partners (the signs of zero sums); "edge" with inf and NaN at a few places; integers small or at
    the type's extremes ("wrap")."""
    n = int(np.prod(shape, dtype=int))
    if dt in ("int32", "int64"):
        r = rng(f"{name}/{dt}/{kind}")
        a = r.randint(-9, 10, n).astype(dt)
        if kind == "wrap" and n:
            info = np.iinfo(dt)
            a[::5] = np.array(([int(info.max), int(info.min), int(info.max) // 3] * n)[:len(a[::5])], dtype=dt)
        return tf.constant(a.reshape(shape))
    real = "float64" if dt.startswith("complex") else dt
    if kind == "zneg":
        a = np.zeros(n) if name.endswith("a") else -np.abs(values(name, n, real, "mild")) - 0.5
    else:
        a = values(name, n, real, "mild")
        if kind == "edge" and n >= 5:
            a[1::7] = ([np.inf, np.nan, -np.inf, 1e300, -0.0] * n)[:len(a[1::7])]
    if dt.startswith("complex"):
        b = values(name + "/im", n, real, "mild")
        return tf.constant((a + 1j * b).reshape(shape).astype(dt))
    return const(tf, a.reshape(shape), dt)


#: (m, k, n) at and around the thresholds: m + k + n = 19/20/21 over the GEBP's column kernels (n % 8, n % 4, n % 2),
#: its row panels (m % 4) and accumulators (k % 4, k % 8); one row, one column, k = 1, larger blocks, zero sizes
SHAPES = ((2, 8, 9), (2, 9, 9), (2, 9, 10), (4, 8, 7), (4, 8, 8), (4, 8, 9), (5, 9, 5), (5, 9, 6), (6, 9, 6),
          (8, 4, 7), (8, 4, 8), (9, 4, 8), (12, 3, 4), (13, 3, 4), (3, 7, 9), (7, 8, 5), (3, 16, 3), (5, 17, 3),
          (1, 9, 9), (1, 9, 10), (9, 10, 1), (9, 11, 1), (3, 1, 16), (16, 1, 3), (2, 2, 2), (9, 33, 13), (6, 47, 11),
          (4, 64, 5), (0, 3, 4), (3, 0, 4), (3, 4, 0))
FLAGS = ((False, False), (True, False), (False, True), (True, True))


def _operands(tf: Any, name: str, m: int, k: int, n: int, ta: bool, tb: bool, batch: tuple[int, ...],
              bbatch: tuple[int, ...], dt: str, kind: str) -> list[Any]:
    sa = batch + ((k, m) if ta else (m, k))
    sb = bbatch + ((n, k) if tb else (k, n))
    return [_tensor(tf, f"{name}a", sa, dt, kind), _tensor(tf, f"{name}b", sb, dt, kind)]


def _matmul_cases(tf: Any, dt: str, batch: tuple[int, ...], bbatch: tuple[int, ...], kind: str = "mild",
                  adjoint: bool = False, grads: bool = True) -> Any:
    out = {}
    for i, (m, k, n) in enumerate(SHAPES):
        for j, (ta, tb) in enumerate(FLAGS):
            if (i + j) % 2 and batch:   # (batched: every other flag pair, in turn)
                continue
            key = f"{m}x{k}x{n}{'ta' if ta else ''}{'tb' if tb else ''}"
            xs = _operands(tf, f"x{dt}{batch}{bbatch}{kind}{i}{j}", m, k, n, ta, tb, batch, bbatch, dt, kind)
            if adjoint:
                opts = {"adjoint_a": ta, "adjoint_b": tb}
            else:
                opts = {"transpose_a": ta, "transpose_b": tb}

            def f(x: Any, y: Any, o: dict = opts) -> Any:
                return tf.linalg.matmul(x, y, **o)
            if dt in ("int32", "int64") or not grads:
                out[key] = error(lambda: {"y": cbits(f(*xs)), "shape": list(f(*xs).shape)})
            else:
                out[key] = fg(tf, f, xs, name=key)
    return out


# -- float64: 2-D (ParallelMatMulKernel: GEBP at every size), batches of two (SequentialMatMulKernel: the
#    coefficient-based product below m + k + n = 20), a broadcast batch; values, gradients
program("x-matmul-float64-2d", lambda tf, mk: _matmul_cases(tf, "float64", (), ()))
program("x-matmul-float64-batch", lambda tf, mk: _matmul_cases(tf, "float64", (2,), (2,)))
program("x-matmul-float64-bcast", lambda tf, mk: _matmul_cases(tf, "float64", (2, 1), (3,)))
program("x-matmul-float64-zneg", lambda tf, mk: _matmul_cases(tf, "float64", (2,), (2,), kind="zneg", grads=False))
program("x-matmul-float64-edge", lambda tf, mk: _matmul_cases(tf, "float64", (), (), kind="edge", grads=False))
program("x-matmul-complex128", lambda tf, mk: _matmul_cases(tf, "complex128", (), (), adjoint=True, grads=False))
program("x-matmul-complex64-batch", lambda tf, mk: _matmul_cases(tf, "complex64", (2,), (2,), adjoint=True,
                                                                  grads=False))
program("x-matmul-int32", lambda tf, mk: _matmul_cases(tf, "int32", (), (), kind="wrap"))
program("x-matmul-int64-batch", lambda tf, mk: _matmul_cases(tf, "int64", (2,), (2,), kind="wrap"))
program("x-matmul-float16", lambda tf, mk: _matmul_cases(tf, "float16", (), (), grads=False))
program("x-matmul-bfloat16-batch", lambda tf, mk: _matmul_cases(tf, "bfloat16", (2,), (2,), grads=False))


def _traced(tf: Any, mk: Any) -> Any:
    """The same products under tf.function (one trace per shape): values and gradients."""
    out = {}
    for i, (m, k, n) in enumerate(SHAPES[:18]):
        ta, tb = FLAGS[i % 4]
        xs = _operands(tf, f"xt{i}", m, k, n, ta, tb, (2,) if i % 3 == 0 else (), (2,) if i % 3 == 0 else (),
                       "float64", "mild")

        @tf.function
        def step(x: Any, y: Any, ta: bool = ta, tb: bool = tb) -> Any:
            with tf.GradientTape() as t:
                t.watch([x, y])
                z = tf.linalg.matmul(x, y, transpose_a=ta, transpose_b=tb)
                s = tf.reduce_sum(z * z)
            return [z] + t.gradient(s, [x, y])
        out[f"{m}x{k}x{n}"] = error(lambda: [cbits(v) for v in step(*xs)])
    return out


program("x-matmul-float64-traced", _traced)


def _one_operand(tf: Any, mk: Any) -> Any:
    """The gradient of one operand alone (the other constant: MatMul's gradient function skips the other's product,
    skip_input_indices), each transpose pair, around the thresholds."""
    out = {}
    for i, (m, k, n) in enumerate(((4, 8, 7), (5, 9, 6), (2, 9, 10), (9, 4, 8), (3, 16, 3), (6, 47, 11))):
        for ta, tb in FLAGS:
            xs = _operands(tf, f"xw{i}", m, k, n, ta, tb, (), (), "float64", "mild")
            for w in (0, 1):
                key = f"{m}x{k}x{n}{'ta' if ta else ''}{'tb' if tb else ''}-d{w}"
                out[key] = _split(fwd_grad(tf, lambda x, y, a=ta, b=tb: tf.linalg.matmul(x, y, transpose_a=a,
                                                                                         transpose_b=b),
                                           xs, name=key, watch=(w,)))
    return out


program("x-matmul-float64-one-operand", _one_operand)

EINSUMS = (("ij,jk->ik", (4, 8), (8, 8)), ("ij,jk->ik", (2, 9), (9, 9)), ("ij,kj->ik", (5, 9), (6, 9)),
           ("ji,jk->ik", (9, 5), (9, 6)), ("bij,bjk->bik", (2, 4, 8), (2, 8, 8)), ("bij,bkj->bik", (2, 5, 9), (2, 6, 9)),
           ("bji,bjk->bik", (2, 9, 5), (2, 9, 5)), ("bij,jk->bik", (2, 3, 8), (8, 9)), ("ij,ij->i", (4, 17), (4, 17)),
           ("i,i->", (20,), (20,)), ("i,ij->j", (9, ), (9, 10)), ("ij,j->i", (9, 10), (10,)),
           ("bi,bj->bij", (2, 9), (2, 9)), ("...ij,...jk->...ik", (2, 1, 3, 8), (3, 8, 9)),
           ("abc,cd->abd", (2, 3, 16), (16, 5)), ("ik,jk->ij", (0, 4), (3, 4)), ("ij,jk->i", (4, 8), (8, 9)),
           ("abc,cd->ad", (2, 3, 8), (8, 9)), ("abc,bd->da", (5, 2, 3), (2, 9)))


def _einsum(tf: Any, mk: Any, dt: str) -> Any:
    out = {}
    for i, (eq, sa, sb) in enumerate(EINSUMS):
        xs = [_tensor(tf, f"xe{i}a", sa, dt), _tensor(tf, f"xe{i}b", sb, dt)]
        out[f"{i}:{eq}"] = fg(tf, lambda *t, e=eq: tf.einsum(e, *t), xs, name=f"xe{i}")
    for i, (sa, sb, axes) in enumerate((((4, 8), (8, 8), 1), ((2, 3, 8), (3, 8, 9), 2), ((9, 5), (9, 6), [[0], [0]]),
                                        ((5, 9), (6, 9), [[1], [1]]), ((2, 9), (4,), 0))):
        xs = [_tensor(tf, f"xd{i}a", sa, dt), _tensor(tf, f"xd{i}b", sb, dt)]
        out[f"tensordot{i}"] = fg(tf, lambda x, y, ax=axes: tf.tensordot(x, y, ax), xs, name=f"xd{i}")
    for i, (sa, sb, ta) in enumerate((((9, 10), (10,), False), ((10, 9), (10,), True), ((2, 9, 10), (2, 10), False),
                                      ((4, 8), (8,), False), ((8, 4), (8,), True))):
        xs = [_tensor(tf, f"xv{i}a", sa, dt), _tensor(tf, f"xv{i}b", sb, dt)]
        out[f"matvec{i}"] = fg(tf, lambda x, y, t=ta: tf.linalg.matvec(x, y, transpose_a=t), xs, name=f"xv{i}")
    for i, (sa, sb) in enumerate((((4, 8), (8, 8)), ((2, 5, 9), (9, 6)), ((9,), (9, 10)), ((5, 9), (9,)))):
        xs = [_tensor(tf, f"xk{i}a", sa, dt), _tensor(tf, f"xk{i}b", sb, dt)]
        out[f"keras{i}"] = error(lambda: cbits(tf.keras.ops.matmul(*xs)))
    return out


for _dt in ("float64", "complex128", "float16"):
    program(f"x-einsum-{_dt}", lambda tf, mk, dt=_dt: _einsum(tf, mk, dt))


#: (batch, height, width, in channels, kh, kw, out channels, stride, padding): the im2col product's K = kh·kw·cin
#: around the GEBP's accumulators (K % 8, K % 4) and n = out channels around its column kernels (4, 8, an odd one)
CONVS = ((1, 5, 5, 2, 3, 3, 4, 1, "VALID"), (2, 6, 6, 3, 3, 3, 5, 1, "SAME"), (1, 7, 7, 4, 2, 2, 3, 2, "VALID"),
         (3, 4, 5, 2, 1, 1, 7, 1, "VALID"), (2, 8, 8, 3, 3, 3, 8, 1, "SAME"), (1, 9, 9, 5, 3, 3, 9, 2, "SAME"),
         (2, 6, 5, 1, 2, 2, 2, 1, "VALID"), (1, 6, 6, 16, 3, 3, 13, 1, "SAME"), (2, 4, 4, 3, 4, 4, 6, 1, "VALID"))


def _convs(tf: Any, mk: Any) -> Any:
    """float64 conv2d and conv3d (Eigen's spatial and cuboid convolutions: GEBP on the patches) and their gradients,
    int32 conv2d's refusal."""
    out = {}
    for i, (b, h, w, c, kh, kw, oc, s, pad) in enumerate(CONVS):
        xs = [_tensor(tf, f"xc{i}a", (b, h, w, c), "float64"), _tensor(tf, f"xc{i}b", (kh, kw, c, oc), "float64")]
        out[f"conv2d{i}"] = fg(tf, lambda x, f, s=s, p=pad: tf.nn.conv2d(x, f, s, p), xs, name=f"xc{i}")
    for i, (shape, fshape, pad) in enumerate((((2, 5, 5, 5, 3), (2, 2, 2, 3, 4), "VALID"),
                                              ((1, 4, 4, 4, 2), (3, 3, 3, 2, 5), "SAME"))):
        xs = [_tensor(tf, f"xc3{i}a", shape, "float64"), _tensor(tf, f"xc3{i}b", fshape, "float64")]
        out[f"conv3d{i}"] = fg(tf, lambda x, f, p=pad: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], p), xs, name=f"xc3{i}")
    xi = [_tensor(tf, "xci", (1, 4, 4, 2), "int32"), _tensor(tf, "xcf", (2, 2, 2, 3), "int32")]
    out["conv2d-int32"] = error(lambda: cbits(tf.nn.conv2d(xi[0], xi[1], 1, "VALID")))
    return out


program("x-conv-float64", _convs)
