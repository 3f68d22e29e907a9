"""fix66n's complex leftovers against TF 2.21 (fix66c; docs/conformance.md "Sixty-sixth session ... fix66c"):

- complex Mul of a one-element x broadcast over y (TF's scalar_left functor, `s * x`): the packets multiply with the
  tensor's parts first, so two NaN parts give the tensor's (complex_mul `_nan_ordered(left_scalar=True)`); Add and
  Sub of a broadcast scalar as fix66n made them (checked beside it); Python complex NaN literals are such scalars;
- traced `x * 2 * 3` of complex x: ConstantPushDown folds 2 · 3 into a Const under the name of the child it
  replaces (`mul`), and the arithmetic optimizer's canonical order then sorts it before `x` (grappler
  `_pushed_parent_order`): 6 · x, the scalar_left functor; an argument `a` sorts first, a · 6;
- complex64 Exp's packets: pexp_complex's pmul(exp(x), cossin) keeps exp(x)'s NaN (complex_unary `_pexp`: NumPy's
  multiply picked by its loop's alignment);
- float16 sums: Eigen's tree reduction splits slices longer than P·LeafSize, LeafSize<half> 200, not 1024
  (sum_order `leaf_size`), full sums past the thread split included (bfloat16 beside it: TF sums it in float32,
  which agreed before and after).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _hex(t: Any) -> str:
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return f"{a.dtype.name}{list(a.shape)}:{np.ascontiguousarray(a).tobytes().hex()}"


def _nan(dt: str, tag: int, negative: bool = False) -> Any:
    """A NaN part whose payload names it (quiet, of the part dtype)."""
    if dt == "complex64":
        return np.array([(0xFFC00000 if negative else 0x7FC00000) | tag], np.uint32).view(np.float32)[0]
    return np.array([(0xFFF8000000000000 if negative else 0x7FF8000000000000) | (tag << 20)],
                    np.uint64).view(np.float64)[0]


def _parts(dt: str, tag: int) -> list:
    part = np.float32 if dt == "complex64" else np.float64
    return [part(1.5), _nan(dt, tag), part(np.inf), _nan(dt, tag + 1, True)]


def _scalar_packets(dt: str) -> Callable[[Any], Any]:
    """Every (s, x) of the parts 1.5, NaN, inf, -NaN: x in full packets (4 complex64, 2 complex128) and in the tail."""
    def case(tf: Any) -> Any:
        lanes = 4 if dt == "complex64" else 2
        xs = [(c, d) for c in _parts(dt, 0x30) for d in _parts(dt, 0x40)]
        packed = np.empty(16 * lanes, dt)
        for j, (c, d) in enumerate(xs):
            packed.real[j * lanes:(j + 1) * lanes], packed.imag[j * lanes:(j + 1) * lanes] = c, d
        tail = np.full(len(xs) * (lanes + 1), 1.5 + 1.5j, dt)   # (each x last in a vector of lanes + 1)
        out = {}
        for ia, a in enumerate(_parts(dt, 0x10)):
            for ib, b in enumerate(_parts(dt, 0x20)):
                s = np.empty((), dt)
                s.real, s.imag = a, b
                st = tf.constant(s)
                fns = {"s*x": lambda x: st * x, "x*s": lambda x: x * st, "s+x": lambda x: st + x,
                       "x+s": lambda x: x + st, "s-x": lambda x: st - x, "x-s": lambda x: x - st}
                for name, f in fns.items():
                    out[f"{ia}{ib} {name} packets"] = _hex(f(tf.constant(packed)))
                    rows = []
                    for j, (c, d) in enumerate(xs):
                        w = tail[j * (lanes + 1):(j + 1) * (lanes + 1)].copy()
                        w.real[lanes], w.imag[lanes] = c, d
                        rows.append(np.asarray(f(tf.constant(w)))[lanes:])
                    out[f"{ia}{ib} {name} tail"] = _hex(np.concatenate(rows))
        return out
    return case


def _vector(tf: Any, dt: str) -> Any:
    """20 elements of NaN, infinite and finite parts (two payloads, both signs), as fix66n's p_mul3.py."""
    n1, n2 = _nan("complex64", 0x1234), _nan("complex64", 0x5678, True)
    re_ = np.array([n1, 1.5, n1, 0.0, np.inf] * 4, np.float32)
    im = np.array([n2, n2, 2.0, np.inf, n1, n2, n2, n1, 0.0, -np.inf] * 2, np.float32)
    v = np.empty(20, dt)
    v.real, v.imag = re_, im
    v[16] = complex(n2, n2)   # (both parts the negative NaN: Exp's packet product of two NaNs)
    return tf.constant(v)


def _traced(dt: str) -> Callable[[Any], Any]:
    """Traced products of constants and Python complex NaN literals, and Exp, eagerly and inside tf.function."""
    def case(tf: Any) -> Any:
        x = _vector(tf, dt)
        qn = float(np.array([0x7FF8000000000ABC], np.uint64).view(np.float64)[0])
        fns = {"x*2*3": lambda x: x * 2 * 3, "(x*2)*3j": lambda x: (x * 2) * 3j, "3*(2*x)": lambda x: 3 * (2 * x),
               "x+2+3": lambda x: x + 2 + 3, "x*nan": lambda x: x * qn, "nan*x": lambda x: qn * x,
               "x*cnan": lambda x: x * complex(qn, 1.0), "cnan*x": lambda x: complex(1.0, qn) * x,
               "x+cnan": lambda x: x + complex(qn, 1.0), "exp(x)": lambda x: tf.exp(x),
               "exp(x)*2": lambda x: tf.exp(x) * 2}
        out = {}
        for name, f in fns.items():
            out[name] = _hex(f(x))
            out[name + " traced"] = _hex(tf.function(f)(x))

            def g(a: Any, f: Any = f) -> Any:   # (an argument named `a` sorts before the folded `mul`)
                return f(a)
            out[name + " traced a"] = _hex(tf.function(g)(x))
        return out
    return case


def _half_sums(dt: str) -> Callable[[Any], Any]:
    """Full sums and means across the leaf (P·200 float16, P·128 bfloat16) and the thread split, and row sums."""
    def case(tf: Any) -> Any:
        rng = np.random.default_rng(6603)
        out = {}
        for n in (1024, 1025, 1600, 1601, 1750, 4000, 20000, 216776, 300001):
            x = tf.cast(tf.constant((rng.uniform(-1, 1, n) * 0.5).astype(np.float32)), dt)
            out[f"sum {n}"] = _hex(tf.cast(tf.reduce_sum(x), tf.float32))
            out[f"mean {n}"] = _hex(tf.cast(tf.reduce_mean(x), tf.float32))
        for shape in ((3, 2000), (2, 5001)):
            x = tf.cast(tf.constant((rng.uniform(-1, 1, shape) * 0.5).astype(np.float32)), dt)
            out[f"rows {shape}"] = _hex(tf.cast(tf.reduce_sum(x, axis=1), tf.float32))
            out[f"rows traced {shape}"] = _hex(tf.cast(tf.function(lambda x: tf.reduce_sum(x, axis=1))(x),
                                                       tf.float32))
        return out
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for dt in ("complex64", "complex128"):
        out[f"packets/broadcast scalar {dt}"] = _scalar_packets(dt)
        out[f"traced/constants {dt}"] = _traced(dt)
    for dt in ("float16", "bfloat16"):
        out[f"sums/leaf {dt}"] = _half_sums(dt)
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(\b_NONE_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex")
def test_complex_broadcast_scalar_packets_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("packets/"))


@pytest.mark.clause("ops.complex")
def test_traced_folded_constants_literals_and_exp_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("traced/"))


@pytest.mark.clause("ops.sum-order")
def test_half_sums_by_eigens_half_leaf_size_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sums/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
