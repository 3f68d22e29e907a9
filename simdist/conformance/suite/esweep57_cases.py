"""The kernel sweep's programs (fifty-seventh session, esweep57; test_esweep57.py): the op families of the kernel
area crossed by rule, values and gradients bit for bit, eager and traced, recorded on TF 2.21 on an AVX-512 Xeon with
oneDNN on (every program host-dependent: simdist runs them under its reference model on any CPU).

- Binary elementwise ops kpaths54 does not cross (floordiv, floormod, truncatediv/mod, pow, divide_no_nan,
  multiply_no_nan, xdivy, xlogy, xlog1py, atan2) and the ones it does over what it leaves out (Python scalars on
  either side, integer dtypes, zero-size): nine broadcast layouts (scalar tensor and Python scalar on either side,
  [n] vs [1], [m, 1] vs [1, n], rank 3 vs rank 1, zero-size, same shape) at sizes around the packets (1..17, 31..33,
  63..65, taken in turn), every dtype the op takes, edge values (0, -0, inf, NaN, integer extremes, zero
  denominators); the value, its dtype and shape, each operand's gradient, and the same op under tf.function.
- Comparisons, logical and bitwise ops (shifts past the width) over the layouts and their dtypes.
- Unary ops kpaths54 leaves out, at the packet sizes, with gradients.
- matmul (transpose/adjoint, broadcast batch dimensions, k = 1..9, 16, 17, one-row and one-column operands,
  float16/bfloat16/float32/float64/int32), einsum and tensordot, with gradients.
- conv1d/conv2d/conv3d, depthwise, separable, conv2d_transpose, raw Conv2DBackpropInput/Filter (batches 1..7,
  differing channels, 1x1 and 3x3, VALID/SAME/explicit padding, strides, dilations); avg/max pool 1-D/2-D/3-D with
  ties and NaN windows; their gradients.
- Every random op: tf.random.* under global and op seeds across calls and under tf.function, stateless_* in every
  dtype and algorithm, tf.random.Generator (from_seed per algorithm, every method, split, skip), dropout and
  stateless_dropout (every float dtype, rates, noise_shape), keras.random with a SeedGenerator.

Each program returns JSON (floats as the hex of their values; lists of more than 64 as digests, kpaths54's
`packed`); a case's gradients are fields g0, g1 (one open gradient leaves the others compared). OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison (docs/conformance.md, "Fifty-seventh session ... esweep57")."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import const, fwd_grad, packed, values, without_open
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "esweep57_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("e-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 on the AVX-512 oneDNN Xeon (program -> "case" or "case/field" left out)
OPEN: dict[str, tuple[str, ...]] = {
    'e-bin-xdivy-bfloat16': (
        '1:()(17,)/y',
    ),
    'e-matmul-float32': (
        '(1, 16)(1, 16)tb/y', '(5, 9)(9, 1)/y',
    ),
    'e-matmul-float64': (
        '(8, 3)(5, 8)tatb/g0', 'traced',
    ),
    'e-einsum-float32': (
        'i,j->ij/g0', 'ij,ij->i/y', 'tensordot0/g0', 'tensordot1/g0', 'tensordot2/g0',
    ),
    'e-einsum-float64': (
        'abc,cd->abd/y', 'i,i->/g0', 'i,i->/g1',
    ),
    'e-conv-float32': (
        'backprop-input 0 4/y', 'backprop-input 0 2/y', 'backprop-input 1 4/y', 'backprop-input 1 2/y',
        'backprop-input 2 4/y', 'backprop-input 2 2/y', 'backprop-input 3 4/y', 'backprop-input 3 2/y',
        'conv1d b1 s1 SAME/g0', 'conv1d b2 dil2/g0', 'conv1d b3 s2 VALID/g0', 'conv2d b2 explicit/g0',
        'conv2d b2 explicit/g1', 'conv2d b3 dil2/g0', 'conv2d b4 s(1,2)/g0', 'conv2d b5 3x3 SAME s2/g0',
        'conv2d b7 3x3 VALID/g0', 'conv3d b2 SAME/g0', 'conv3d b2 SAME/g1', 'conv3d b3 VALID s2/g0',
        'conv3d b3 VALID s2/g1', 'depthwise b1 dil2/g0', 'depthwise b1 dil2/g1', 'depthwise b1 dil2/y',
        'depthwise b2 m2 s2/g0', 'depthwise b3 m1/g0', 'depthwise b3 m1/g1', 'depthwise b3 m1/y', 'separable b3/g0',
        'separable b3/g1', 'transpose b2 s1 VALID/y', 'transpose b3 s2 SAME/y', 'conv2d b2 dil(2,3) VALID/g0',
        'depthwise b2 dil2 VALID/g0', 'depthwise b2 dil2 VALID/g1', 'depthwise b2 dil2 VALID/y',
    ),
    'e-conv-float64': (
        'backprop-filter 0/y', 'backprop-filter 1/y', 'backprop-filter 2/y', 'backprop-filter 3/y',
        'backprop-input 0 4/y', 'backprop-input 0 2/y', 'backprop-input 1 4/y', 'backprop-input 1 2/y',
        'backprop-input 2 4/y', 'backprop-input 2 2/y', 'backprop-input 3 4/y', 'backprop-input 3 2/y',
        'conv1d b1 s1 SAME/g0', 'conv1d b1 s1 SAME/g1', 'conv1d b1 s1 SAME/y', 'conv1d b3 s2 VALID/g0',
        'conv1d b3 s2 VALID/g1', 'conv2d b2 explicit/g0', 'conv2d b2 explicit/g1', 'conv2d b2 explicit/y',
        'conv2d b3 1x1/g1', 'conv2d b4 s(1,2)/g0', 'conv2d b4 s(1,2)/g1', 'conv2d b4 s(1,2)/y',
        'conv2d b5 3x3 SAME s2/g0', 'conv2d b5 3x3 SAME s2/g1', 'conv2d b5 3x3 SAME s2/y', 'conv2d b7 3x3 VALID/g0',
        'conv2d b7 3x3 VALID/g1', 'conv2d b7 3x3 VALID/y', 'conv3d b2 SAME/g0', 'conv3d b2 SAME/g1',
        'conv3d b2 SAME/y', 'conv3d b3 VALID s2/g0', 'conv3d b3 VALID s2/g1', 'conv3d b3 VALID s2/y',
        'depthwise b1 dil2/g1', 'depthwise b2 m2 s2/g0', 'depthwise b2 m2 s2/g1', 'depthwise b3 m1/g1',
        'separable b3/g0', 'separable b3/g1', 'separable b3/g2', 'transpose b2 s1 VALID/g0',
        'transpose b2 s1 VALID/g1', 'transpose b2 s1 VALID/y', 'transpose b3 s2 SAME/g0', 'transpose b3 s2 SAME/g1',
        'transpose b3 s2 SAME/y', 'depthwise b2 dil2 VALID/g1',
    ),
    'e-pool-float32': (
        'avg3d k(1,2,3) s1 VALID/g0', 'avg3d k(1,2,3) s1 VALID finite/g0', 'max2d k3 s1 SAME/g0',
    ),
    'e-pool-float64': (
        'max2d k3 s1 SAME/g0',
    ),
    'e-pool-float16': (
        'max2d k3 s1 SAME/g0',
    ),
}

#: fields whose simdist value is NumPy's BLAS product (a float32 matrix-vector or transpose_a product simdist does not
#: order), so its last bits follow OpenBLAS's kernel: each matched TF 2.21's oneDNN bits under one of this Xeon's
#: SkylakeX kernels and the Haswell kernels the tests pin (OPENBLAS_CORETYPE, tests/conftest.py), not under both
BLAS_DEPENDENT: dict[str, tuple[str, ...]] = {
    'e-conv-float32': (
        'conv3d b2 SAME/y',
    ),
    'e-einsum-float32': (
        'i,j->ij/g1',
    ),
    'e-matmul-float32': (
        '(1, 9)(9, 5)/g0', '(5, 9)(9, 1)/g1',
    ),
}
for _name, _fields in BLAS_DEPENDENT.items():
    OPEN[_name] = tuple(OPEN.get(_name, ())) + _fields


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


def fg(tf: Any, fn: Callable[..., Any], xs: list[Any], name: str, watch: tuple[int, ...] | None = None) -> Any:
    return _split(fwd_grad(tf, fn, xs, name=name, watch=watch))


def tbits(t: Any) -> Any:
    """A result's dtype, shape and bits (fields: an open value leaves its shape compared)."""
    return {"dtype": t.dtype.name, "shape": list(t.shape), "y": bits(t)}


FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
#: the sizes around the packets (8 float32 lanes, 16 under AVX-512, 4 float64), taken in turn by the layouts
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65)


def _ints(name: str, n: int, dt: str) -> np.ndarray:
    """n integers of dtype dt: small ones, 0, -1, and the type's extremes every seventh place."""
    info = np.iinfo(dt)
    r = rng(f"{name}/{n}/{dt}")
    lo, hi = max(int(info.min), -20), min(int(info.max), 20)
    a = r.randint(lo, hi + 1, n).astype(np.int64).astype(dt)
    sp = [0, int(info.max), int(info.min), 1, -1 if info.min < 0 else 2, 0, 3]
    a[2::7] = np.array((sp * n)[:len(a[2::7])], dtype=object).astype(dt)
    return a


def _floats(name: str, n: int, dt: str, kind: str) -> np.ndarray:
    a = values(name, n, dt, kind)
    if kind == "real" and n >= 5:   # inf and NaN among the edges
        a[4::9] = ([np.inf, np.nan, -np.inf] * n)[:len(a[4::9])]
    return a


def _tensor(tf: Any, name: str, shape: tuple[int, ...], dt: str, kind: str) -> Any:
    n = int(np.prod(shape, dtype=int))
    if dt in FLOATS:
        return const(tf, _floats(name, n, dt, kind).reshape(shape), dt)
    if dt == "bool":
        return tf.constant(rng(f"{name}/{n}").randint(0, 2, n).astype(bool).reshape(shape))
    return tf.constant(_ints(name, n, dt).reshape(shape))


def _pyscalar(dt: str, which: int) -> Any:
    """A Python number of the operand's kind (a zero as the second edge: a zero denominator)."""
    if dt in FLOATS:
        return (2.5, 0.0, -1.75)[which % 3]
    if dt == "bool":
        return True
    return (3, 0, 1)[which % 3]


#: the nine layouts: (left, right) as a shape or "py" (a Python scalar); n the size
def _layouts(n: int) -> list[tuple[Any, Any]]:
    m = 3 if n > 16 else 2
    return [((n,), ()), ((), (n,)), ((n,), "py"), ("py", (n,)), ((n,), (1,)), ((m, 1), (1, n)),
            ((2, 3, n), (n,)), ((0, n), (n,)), ((n,), (n,))]


def _binary_ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    m = tf.math
    return {"add": m.add, "subtract": m.subtract, "multiply": m.multiply, "truediv": m.truediv,
            "divide": m.divide, "floordiv": m.floordiv, "floormod": m.floormod, "mod": m.mod,
            "truncatediv": tf.truncatediv, "truncatemod": tf.truncatemod, "pow": m.pow, "maximum": m.maximum,
            "minimum": m.minimum, "squared_difference": m.squared_difference, "divide_no_nan": m.divide_no_nan,
            "multiply_no_nan": m.multiply_no_nan, "xdivy": m.xdivy, "xlogy": m.xlogy, "xlog1py": m.xlog1py,
            "atan2": m.atan2, "operator+": lambda a, b: a + b, "operator/": lambda a, b: a / b,
            "operator//": lambda a, b: a // b, "operator%": lambda a, b: a % b, "operator**": lambda a, b: a ** b}


#: op -> (dtypes, value kind of the left operand, of the right)
BINARY: dict[str, tuple[tuple[str, ...], str, str]] = {
    "add": (("int8", "int32", "int64", "uint8", "uint32"), "real", "real"),
    "subtract": (("int16", "int32", "int64", "uint16"), "real", "real"),
    "multiply": (("int8", "int32", "int64", "uint64"), "real", "real"),
    "truediv": (FLOATS + ("int32", "int64", "uint8"), "real", "real"),
    "divide": (FLOATS + ("int16",), "real", "real"),
    "floordiv": (FLOATS + ("int8", "int32", "int64", "uint8"), "real", "real"),
    "floormod": (FLOATS + ("int8", "int32", "int64", "uint32"), "real", "real"),
    "mod": (("float32", "int32"), "real", "real"),
    "truncatediv": (("int8", "int32", "int64", "uint16"), "real", "real"),
    "truncatemod": (("float32", "float64", "int32", "int64"), "real", "real"),
    "pow": (FLOATS + ("int32", "int64"), "real", "mild"),
    "maximum": (FLOATS + ("int8", "int32", "int64", "uint8"), "real", "real"),
    "minimum": (FLOATS + ("int16", "int32", "int64", "uint16"), "real", "real"),
    "squared_difference": (FLOATS + ("int32", "int64"), "real", "real"),
    "divide_no_nan": (FLOATS, "real", "real"),
    "multiply_no_nan": (FLOATS, "real", "real"),
    "xdivy": (FLOATS, "real", "real"),
    "xlogy": (FLOATS, "real", "pos"),
    "xlog1py": (FLOATS, "real", "unit"),
    "atan2": (FLOATS, "real", "real"),
    "operator+": (("float16", "float32", "int32"), "real", "real"),
    "operator/": (("float16", "float64", "int32", "int64"), "real", "real"),
    "operator//": (("float32", "int32"), "real", "real"),
    "operator%": (("float32", "int64"), "real", "real"),
    "operator**": (("float32", "int32"), "real", "mild"),
}


#: the ops an integer zero denominator makes raise
_INT_DIVISIONS = ("floordiv", "floormod", "mod", "truncatediv", "truncatemod", "operator//", "operator%")
#: the ops without a gradient (the value only)
_NO_GRADIENT = ("truncatediv", "truncatemod")


def _binary_case(tf: Any, op: str, dt: str, sa: Any, sb: Any, n: int, kinds: tuple[str, str], i: int) -> Any:
    fn = _binary_ops(tf)[op]
    xs, idx = [], []
    for side, (s, kind) in enumerate(((sa, kinds[0]), (sb, kinds[1]))):
        if s == "py":
            xs.append(_pyscalar(dt, i + side))
        elif s == "py0":   # a Python zero (a zero denominator)
            xs.append(_pyscalar(dt, 1))
        elif s == "zero":   # a zero scalar tensor
            xs.append(tf.zeros([], dt))
            idx.append(side)
        else:
            x = _tensor(tf, f"{op}{side}", s, dt, kind)
            if side == 1 and dt not in FLOATS and dt != "bool" and op in ("pow", "operator**"):
                x = tf.constant(np.abs(_ints(f"{op}e", int(np.prod(s, dtype=int)), dt).astype(np.int64)
                                       % 5).astype(dt).reshape(s))
            if side == 1 and dt not in FLOATS and op in _INT_DIVISIONS and i != 8:   # zero denominators only in
                d = x.numpy()                                                        # the last layout: TF raises
                x = tf.constant(np.where(d == 0, np.ones_like(d), d))
            xs.append(x)
            idx.append(side)
    if sa == sb and dt in FLOATS:   # ties, and 0 against -0, for Maximum/Minimum's masks
        a, b = xs[0].numpy().astype(np.float64).ravel(), xs[1].numpy().astype(np.float64).ravel()
        b[1::5] = a[1::5]
        b[3::6] = -a[3::6]
        xs[1] = const(tf, b.reshape(sb), dt)
    tensors = [xs[j] for j in idx]

    def call(*ts: Any) -> Any:
        args, k = [], 0
        for side in range(2):
            if side in idx:
                args.append(ts[k])
                k += 1
            else:
                args.append(xs[side])
        return fn(*args)
    if dt in FLOATS and op not in _NO_GRADIENT:
        out = fg(tf, call, tensors, name=f"{op}{n}")
    else:
        out = error(lambda: {"y": bits(call(*tensors))})
    if isinstance(out, dict):
        y = error(lambda: call(*tensors))
        if not isinstance(y, str):
            out["dtype"], out["shape"] = y.dtype.name, list(y.shape)
    return out


_TRACED: dict[str, Any] = {}

for _op, (_dts, _ka, _kb) in BINARY.items():
    for _dt in _dts:
        def _binary(tf: Any, mk: Any, op: str = _op, dt: str = _dt, kinds: tuple[str, str] = (_ka, _kb)) -> Any:
            out = {}
            start = sum(map(ord, op + dt)) % len(SIZES)
            for i, (sa, sb) in enumerate(_layouts(0)):
                n = SIZES[(start + 5 * i) % len(SIZES)]
                sa, sb = _layouts(n)[i]
                out[f"{i}:{sa}{sb}"] = error(lambda: _binary_case(tf, op, dt, sa, sb, n, kinds, i))
            for n in (4, 8, 16):   # exactly one or two whole packets (float64's 4, float32's 8, AVX-512's 16), same
                # shape with ties and 0 against -0: where the packets' signed-zero and x-itself rules show
                out[f"whole{n}"] = error(lambda: _binary_case(tf, op, dt, (n,), (n,), n, kinds, 8))
            for sa, sb in (((3, 5), "zero"), ((9,), "py0"), ("zero", (2, 3)), ((), "zero")):   # zero scalars
                out[f"{sa}{sb}"] = error(lambda: _binary_case(tf, op, dt, sa, sb, 5, kinds, 7))
            # traced: the same op in a tf.function over two calls of the same signature
            a = _tensor(tf, f"{op}t0", (3, 17), dt, kinds[0])
            b = _tensor(tf, f"{op}t1", (17,), dt, kinds[1])
            if op in ("pow", "operator**") and dt not in FLOATS:
                b = tf.constant((np.arange(17) % 4).astype(dt))
            if op in _INT_DIVISIONS and dt not in FLOATS:   # (no zero denominator: the values, not the error)
                b = tf.constant(np.where(b.numpy() == 0, np.ones((), dt), b.numpy()))
            f = tf.function(_binary_ops(tf)[op])
            out["traced"] = error(lambda: [bits(f(a, b)), bits(f(b, a))])
            return out
        program(f"e-bin-{_op}-{_dt}", _binary)


# -- comparisons, logical and bitwise ops ------------------------------------------------------------------------
def _cmp_ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    m = tf.math
    return {"equal": m.equal, "not_equal": m.not_equal, "less": m.less, "less_equal": m.less_equal,
            "greater": m.greater, "greater_equal": m.greater_equal}


CMP_DTYPES = FLOATS + ("int8", "int32", "int64", "uint8", "uint64")

for _dt in CMP_DTYPES:
    def _cmp(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for op, fn in _cmp_ops(tf).items():
            start = sum(map(ord, op + dt)) % len(SIZES)
            for i in range(9):
                n = SIZES[(start + 3 * i) % len(SIZES)]
                sa, sb = _layouts(n)[i]
                x = _pyscalar(dt, i) if sa == "py" else _tensor(tf, f"c{op}0", sa, dt, "real")
                y = _pyscalar(dt, i + 1) if sb == "py" else _tensor(tf, f"c{op}1", sb, dt, "real")
                if sa == sb and dt in FLOATS:   # equal values, 0 against -0, NaN against NaN
                    a = x.numpy().astype(np.float64).ravel()
                    b = y.numpy().astype(np.float64).ravel()
                    b[::3] = a[::3]
                    b[1::6] = -a[1::6]
                    y = const(tf, b.reshape(sb), dt)
                out[f"{op}{i}"] = error(lambda: bits(fn(x, y)))
        return out
    program(f"e-cmp-{_dt}", _cmp)


def _logical(tf: Any, mk: Any) -> Any:
    out = {}
    m = tf.math
    for op, fn in (("and", m.logical_and), ("or", m.logical_or), ("xor", m.logical_xor)):
        for i in range(9):
            n = SIZES[(5 * i + len(op)) % len(SIZES)]
            sa, sb = _layouts(n)[i]
            x = True if sa == "py" else _tensor(tf, f"l{op}0", sa, "bool", "")
            y = False if sb == "py" else _tensor(tf, f"l{op}1", sb, "bool", "")
            out[f"{op}{i}"] = error(lambda: bits(fn(x, y)))
    for n in (1, 8, 17, 33, 65):
        out[f"not{n}"] = bits(m.logical_not(_tensor(tf, "lnot", (n,), "bool", "")))
    return out


program("e-logical", _logical)


def _add_n(tf: Any, mk: Any) -> Any:
    """tf.math.add_n of 1 to 5 inputs at packet sizes in each float dtype (its order), with gradients; inputs of
    one size and different shapes, and of different dtypes: the error classes."""
    out: dict[str, Any] = {}
    for dt in FLOATS:
        for k, n in ((1, 9), (2, 8), (3, 17), (4, 16), (5, 33)):
            xs = [_tensor(tf, f"an{dt}{i}", (n,), dt, "mild") for i in range(k)]
            out[f"{dt} {k}x{n}"] = fg(tf, lambda *t: tf.math.add_n(list(t)), xs, name=f"an{k}")
    out["shapes [2, 3] [3, 2]"] = error(lambda: bits(tf.math.add_n([tf.ones([2, 3]), tf.ones([3, 2])])))
    out["dtypes"] = error(lambda: bits(tf.math.add_n([tf.ones([2]), tf.ones([2], tf.float64)])))
    out["int32"] = error(lambda: bits(tf.math.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])])))
    return out


program("e-addn", _add_n)

for _dt in INTS:
    def _bitwise(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        b = tf.bitwise
        width = np.iinfo(dt).bits
        for op, fn in (("and", b.bitwise_and), ("or", b.bitwise_or), ("xor", b.bitwise_xor),
                       ("left_shift", b.left_shift), ("right_shift", b.right_shift)):
            for i in (0, 1, 4, 5, 6, 7, 8):
                n = SIZES[(3 * i + len(op)) % len(SIZES)]
                sa, sb = _layouts(n)[i]
                x = _tensor(tf, f"b{op}0", sa, dt, "")
                if "shift" in op:   # shift amounts 0..width+2 (past the width: TF clamps)
                    s = int(np.prod(sb, dtype=int))
                    y = tf.constant((rng(f"b{op}{n}").randint(0, width + 3, s)).astype(dt).reshape(sb))
                else:
                    y = _tensor(tf, f"b{op}1", sb, dt, "")
                out[f"{op}{i}"] = error(lambda: bits(fn(x, y)))
        for n in (1, 8, 17, 33):
            out[f"invert{n}"] = bits(b.invert(_tensor(tf, "binv", (n,), dt, "")))
        return out
    program(f"e-bitwise-{_dt}", _bitwise)


# -- unary ops kpaths54 leaves out, at the packet sizes ----------------------------------------------------------
def _unary_ops(tf: Any) -> dict[str, tuple[Callable[[Any], Any], str]]:
    m = tf.math
    return {"floor": (m.floor, "real"), "ceil": (m.ceil, "real"), "round": (m.round, "real"),
            "rint": (m.rint, "real"), "sign": (m.sign, "real"), "atan": (m.atan, "real"),
            "asin": (m.asin, "unit"), "acos": (m.acos, "unit"), "sinh": (m.sinh, "mild"), "cosh": (m.cosh, "mild"),
            "tan": (m.tan, "mild"), "asinh": (m.asinh, "real"), "acosh": (m.acosh, "near1"),
            "atanh": (m.atanh, "unit"), "lgamma": (m.lgamma, "mild"), "digamma": (m.digamma, "mild"),
            "erfc": (m.erfc, "real"), "erfinv": (m.erfinv, "unit"), "ndtri": (m.ndtri, "near1"),
            "log_sigmoid": (m.log_sigmoid, "real"), "reciprocal_no_nan": (m.reciprocal_no_nan, "real"),
            "is_nan": (m.is_nan, "real"), "is_finite": (m.is_finite, "real"), "softplus": (m.softplus, "mild"),
            "reciprocal": (m.reciprocal, "real"), "rsqrt": (m.rsqrt, "pos"), "sqrt": (m.sqrt, "pos")}


UNARY_SIZES = (1, 7, 8, 9, 16, 17, 33, 65)

for _dt in FLOATS:
    def _unary(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for op, (fn, kind) in _unary_ops(tf).items():
            for n in UNARY_SIZES:
                x = const(tf, _floats(f"u{op}", n, dt, kind), dt)
                if op.startswith("is_"):
                    out[f"{op}{n}"] = error(lambda: bits(fn(x)))
                else:
                    out[f"{op}{n}"] = fg(tf, fn, [x], name=f"u{op}{n}")
        f = tf.function(lambda x: tf.math.atan(x) + tf.math.floor(x))
        out["traced"] = error(lambda: bits(f(const(tf, _floats("ut", 17, dt, "mild"), dt))))
        return out
    program(f"e-unary-{_dt}", _unary)


# -- contractions: matmul's options, batch broadcasting, einsum, tensordot ---------------------------------------
MATMUL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32")
#: (a's shape, b's shape, options): k = 1..9, 16, 17; one-row and one-column operands; transposes and adjoints;
#: batch dimensions broadcast
MATMUL_CASES: tuple[tuple[tuple[int, ...], tuple[int, ...], dict[str, bool]], ...] = tuple(
    ((3, k), (k, 4), {}) for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17)) + (
    ((1, 9), (9, 5), {}), ((5, 9), (9, 1), {}), ((1, 17), (17, 1), {}),
    ((6, 3), (6, 4), {"transpose_a": True}), ((3, 7), (4, 7), {"transpose_b": True}),
    ((8, 3), (5, 8), {"transpose_a": True, "transpose_b": True}), ((9, 2), (9, 3), {"adjoint_a": True}),
    ((2, 9), (3, 9), {"adjoint_b": True}), ((1, 16), (1, 16), {"transpose_b": True}),
    ((2, 3, 5), (2, 5, 4), {}), ((2, 1, 3, 4), (3, 4, 2), {}), ((1, 3, 6), (4, 6, 2), {}),
    ((3, 4, 5), (5, 2), {}), ((2, 6, 3), (2, 4, 6), {"transpose_a": True, "transpose_b": True}))

for _dt in MATMUL_DTYPES:
    def _matmul(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for i, (sa, sb, opts) in enumerate(MATMUL_CASES):
            a = _tensor(tf, f"mm{i}a", sa, dt, "mild") if dt != "int32" else tf.constant(
                rng(f"mm{i}a").randint(-9, 10, sa).astype(dt))
            b = _tensor(tf, f"mm{i}b", sb, dt, "mild") if dt != "int32" else tf.constant(
                rng(f"mm{i}b").randint(-9, 10, sb).astype(dt))
            key = f"{sa}{sb}{''.join(k[0] + k[-1] for k in sorted(opts))}"
            if dt == "int32":
                out[key] = error(lambda: bits(tf.linalg.matmul(a, b, **opts)))
            else:
                out[key] = fg(tf, lambda x, y, o=opts: tf.linalg.matmul(x, y, **o), [a, b], name=f"mm{i}")
        f = tf.function(lambda x, y: tf.matmul(x, y, transpose_b=True))
        x, y = _tensor(tf, "mmfa", (3, 9), dt, "mild"), _tensor(tf, "mmfb", (5, 9), dt, "mild")
        if dt != "int32":
            out["traced"] = error(lambda: [bits(f(x, y)), bits(f(y, x))])
        return out
    program(f"e-matmul-{_dt}", _matmul)

EINSUMS = (("ij,jk->ik", (3, 5), (5, 4)), ("bij,bjk->bik", (2, 3, 9), (2, 9, 2)), ("ij,ij->i", (4, 17), (4, 17)),
           ("i,i->", (33,), (33,)), ("bi,ij->bj", (2, 7), (7, 3)), ("ij,kj->ik", (3, 8), (5, 8)),
           ("i,j->ij", (5,), (3,)), ("bij->bji", (2, 3, 4), None), ("ii->i", (4, 4), None),
           ("...ij,...jk->...ik", (2, 3, 4), (4, 2)), ("abc,cd->abd", (2, 2, 16), (16, 3)))

for _dt in ("float32", "float64", "float16"):
    def _einsum(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for i, (eq, sa, sb) in enumerate(EINSUMS):
            xs = [_tensor(tf, f"es{i}a", sa, dt, "mild")] + ([] if sb is None else
                                                           [_tensor(tf, f"es{i}b", sb, dt, "mild")])
            out[eq] = fg(tf, lambda *t, e=eq: tf.einsum(e, *t), xs, name=f"es{i}")
        for i, (sa, sb, axes) in enumerate((((3, 5), (5, 4), 1), ((2, 3, 4), (3, 4, 2), 2),
                                            ((4, 3), (4, 2), [[0], [0]]), ((2, 3), (4,), 0))):
            xs = [_tensor(tf, f"td{i}a", sa, dt, "mild"), _tensor(tf, f"td{i}b", sb, dt, "mild")]
            out[f"tensordot{i}"] = fg(tf, lambda x, y, ax=axes: tf.tensordot(x, y, ax), xs, name=f"td{i}")
        return out
    program(f"e-einsum-{_dt}", _einsum)


# -- convolutions and pooling, with gradients (oneDNN's paths for float32 on the recording host) -----------------
def _conv_cases(tf: Any) -> list[tuple[str, Callable[..., Any], tuple[int, ...], tuple[int, ...]]]:
    n = tf.nn
    c2 = lambda s, p, d=1: (lambda x, f: n.conv2d(x, f, s, p, dilations=d))   # noqa: E731
    return [
        ("conv1d b1 s1 SAME", lambda x, f: n.conv1d(x, f, 1, "SAME"), (1, 9, 3), (3, 3, 2)),
        ("conv1d b3 s2 VALID", lambda x, f: n.conv1d(x, f, 2, "VALID"), (3, 11, 2), (3, 2, 5)),
        ("conv1d b2 dil2", lambda x, f: n.conv1d(x, f, 1, "SAME", dilations=2), (2, 10, 4), (3, 4, 3)),
        ("conv2d b3 1x1", c2(1, "VALID"), (3, 4, 5, 6), (1, 1, 6, 2)),
        ("conv2d b5 3x3 SAME s2", c2(2, "SAME"), (5, 6, 7, 3), (3, 3, 3, 4)),
        ("conv2d b7 3x3 VALID", c2(1, "VALID"), (7, 5, 5, 2), (3, 3, 2, 3)),
        ("conv2d b2 explicit", c2(1, [[0, 0], [1, 2], [0, 1], [0, 0]]), (2, 5, 4, 3), (3, 3, 3, 2)),
        ("conv2d b3 dil2", c2(1, "SAME", 2), (3, 7, 7, 2), (3, 3, 2, 5)),
        ("conv2d b4 s(1,2)", c2([1, 2], "SAME"), (4, 5, 8, 3), (2, 3, 3, 1)),
        ("conv2d b2 dil(2,3) VALID", c2(1, "VALID", [2, 3]), (2, 8, 9, 3), (3, 2, 3, 2)),
        ("conv1d b3 dil3 VALID", lambda x, f: n.conv1d(x, f, 1, "VALID", dilations=3), (3, 12, 2), (3, 2, 4)),
        ("depthwise b2 dil2 VALID", lambda x, f: n.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID", dilations=[2, 2]),
         (2, 8, 7, 2), (3, 3, 2, 1)),
        ("conv3d b2 SAME", lambda x, f: n.conv3d(x, f, [1, 1, 1, 1, 1], "SAME"), (2, 4, 4, 3, 2), (3, 3, 2, 2, 3)),
        ("conv3d b3 VALID s2", lambda x, f: n.conv3d(x, f, [1, 2, 1, 2, 1], "VALID"), (3, 5, 4, 5, 1),
         (2, 2, 2, 1, 2)),
        ("depthwise b3 m1", lambda x, f: n.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), (3, 5, 5, 3), (3, 3, 3, 1)),
        ("depthwise b2 m2 s2", lambda x, f: n.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID"), (2, 7, 6, 2),
         (3, 3, 2, 2)),
        ("depthwise b1 dil2", lambda x, f: n.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", dilations=[2, 2]),
         (1, 7, 7, 4), (3, 3, 4, 1)),
        ("transpose b3 s2 SAME", lambda x, f: n.conv2d_transpose(x, f, [3, 8, 6, 2], 2, "SAME"), (3, 4, 3, 5),
         (3, 3, 2, 5)),
        ("transpose b2 s1 VALID", lambda x, f: n.conv2d_transpose(x, f, [2, 6, 6, 4], 1, "VALID"), (2, 4, 4, 3),
         (3, 3, 4, 3)),
        ("transpose b1 s2 VALID 1x1", lambda x, f: n.conv2d_transpose(x, f, [1, 7, 5, 3], 2, "VALID"),
         (1, 4, 3, 2), (1, 1, 3, 2)),
    ]


for _dt in ("float32", "float64"):
    def _conv(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for i, (name, fn, sx, sf) in enumerate(_conv_cases(tf)):
            xs = [_tensor(tf, f"cv{i}x", sx, dt, "mild"), _tensor(tf, f"cv{i}f", sf, dt, "mild")]
            out[name] = fg(tf, fn, xs, name=f"cv{i}")
        # separable: depthwise then pointwise, three operands
        x = _tensor(tf, "sepx", (3, 6, 6, 3), dt, "mild")
        dw, pw = _tensor(tf, "sepd", (3, 3, 3, 2), dt, "mild"), _tensor(tf, "sepp", (1, 1, 6, 4), dt, "mild")
        out["separable b3"] = fg(tf, lambda a, d, p: tf.nn.separable_conv2d(a, d, p, [1, 1, 1, 1], "SAME"),
                                 [x, dw, pw], name="sep")
        # raw backprop ops: input sizes whose depth differs from the filter's output channels
        for j, (b, h, w, cin, cout, s, pad) in enumerate(((3, 5, 5, 2, 4, 1, "SAME"), (2, 6, 5, 5, 3, 2, "VALID"),
                                                          (7, 4, 4, 3, 1, 1, "VALID"), (1, 5, 6, 1, 6, 2, "SAME"))):
            f = _tensor(tf, f"bpf{j}", (3, 3, cin, cout), dt, "mild")
            xs_ = _tensor(tf, f"bpx{j}", (b, h, w, cin), dt, "mild")
            y = tf.nn.conv2d(xs_, f, s, pad)
            dy = _tensor(tf, f"bpy{j}", tuple(y.shape), dt, "mild")
            for sizes in ([b, h, w, cin], [h, w]):   # input_sizes of four and of two (the depth from the filter)
                out[f"backprop-input {j} {len(sizes)}"] = error(lambda: tbits(tf.raw_ops.Conv2DBackpropInput(
                    input_sizes=sizes, filter=f, out_backprop=dy, strides=[1, s, s, 1], padding=pad)))
            out[f"backprop-filter {j}"] = error(lambda: tbits(tf.raw_ops.Conv2DBackpropFilter(
                input=xs_, filter_sizes=[3, 3, cin, cout], out_backprop=dy, strides=[1, s, s, 1], padding=pad)))
        return out
    program(f"e-conv-{_dt}", _conv)


def _pool_input(tf: Any, name: str, shape: tuple[int, ...], dt: str) -> Any:
    """Pool inputs: negative values (a zero-filled border shows), ties (values on a grid of 0.5), NaN windows."""
    r = rng(f"{name}/{shape}")
    a = np.round(r.standard_normal(shape) * 2) / 2 - 1.0
    flat = a.ravel()
    flat[7::23] = np.nan
    return const(tf, a, dt)


def _pool_cases(tf: Any) -> list[tuple[str, Callable[[Any], Any], tuple[int, ...]]]:
    n = tf.nn
    return [
        ("max1d k3 s2 SAME", lambda x: n.max_pool1d(x, 3, 2, "SAME"), (2, 9, 3)),
        ("avg1d k2 s1 VALID", lambda x: n.avg_pool1d(x, 2, 1, "VALID"), (3, 8, 2)),
        ("avg1d k3 s2 SAME", lambda x: n.avg_pool1d(x, 3, 2, "SAME"), (1, 10, 4)),
        ("max2d k3 s1 SAME", lambda x: n.max_pool2d(x, 3, 1, "SAME"), (2, 5, 5, 3)),
        ("max2d k(2,3) s(2,1) VALID", lambda x: n.max_pool2d(x, [2, 3], [2, 1], "VALID"), (3, 6, 7, 2)),
        ("avg2d k3 s2 SAME", lambda x: n.avg_pool2d(x, 3, 2, "SAME"), (2, 7, 6, 3)),
        ("avg2d k2 s2 VALID", lambda x: n.avg_pool2d(x, 2, 2, "VALID"), (5, 4, 5, 1)),
        ("max_pool k2 s2 generic", lambda x: n.max_pool(x, 2, 2, "SAME"), (1, 5, 5, 2)),
        ("max3d k2 s2 SAME", lambda x: n.max_pool3d(x, 2, 2, "SAME"), (2, 3, 4, 5, 2)),
        ("avg3d k(1,2,3) s1 VALID", lambda x: n.avg_pool3d(x, [1, 2, 3], 1, "VALID"), (1, 3, 4, 5, 3)),
        ("avg3d k2 s2 SAME", lambda x: n.avg_pool3d(x, 2, 2, "SAME"), (2, 3, 3, 3, 1)),
    ]


for _dt in ("float32", "float64", "float16"):
    def _pool(tf: Any, mk: Any, dt: str = _dt) -> Any:
        out = {}
        for i, (name, fn, sx) in enumerate(_pool_cases(tf)):
            out[name] = fg(tf, fn, [_pool_input(tf, f"pl{i}", sx, dt)], name=f"pl{i}")
            # without NaN: the gradients' routing of ties
            out[name + " finite"] = fg(tf, fn, [tf.where(tf.math.is_nan(_pool_input(tf, f"pl{i}", sx, dt)),
                                                         tf.constant(-3.0, dt), _pool_input(tf, f"pl{i}", sx, dt))],
                                       name=f"plf{i}")
        return out
    program(f"e-pool-{_dt}", _pool)


# -- random ops: every op, dtype, algorithm and option; across calls and under tf.function -----------------------
def _stateful(tf: Any, mk: Any) -> Any:
    """tf.random.* under a global seed, with and without op seeds, two calls each (the op's counter moves on)."""
    r = tf.random
    out: dict[str, Any] = {}
    tf.random.set_seed(1234)
    draws = (
        ("uniform f32", lambda s: r.uniform([2, 9], seed=s)),
        ("uniform f64 min max", lambda s: r.uniform([17], -3.0, 5.0, tf.float64, seed=s)),
        ("uniform f16", lambda s: r.uniform([9], 1.0, 2.0, tf.float16, seed=s)),
        ("uniform bf16", lambda s: r.uniform([9], dtype=tf.bfloat16, seed=s)),
        ("uniform i32", lambda s: r.uniform([33], -7, 12, tf.int32, seed=s)),
        ("uniform i64", lambda s: r.uniform([16], -2**40, 2**40, tf.int64, seed=s)),
        ("normal f32", lambda s: r.normal([3, 5], 1.5, 0.25, seed=s)),
        ("normal f64", lambda s: r.normal([17], dtype=tf.float64, seed=s)),
        ("normal f16", lambda s: r.normal([9], dtype=tf.float16, seed=s)),
        ("truncated f32", lambda s: r.truncated_normal([17], -1.0, 2.0, seed=s)),
        ("truncated f64", lambda s: r.truncated_normal([9], dtype=tf.float64, seed=s)),
        ("gamma f32", lambda s: r.gamma([5], [0.5, 1.0, 3.0], seed=s)),
        ("gamma f64 beta", lambda s: r.gamma([4], 2.0, beta=[1.0, 0.5], dtype=tf.float64, seed=s)),
        ("poisson f32", lambda s: r.poisson([6], [0.5, 4.0, 40.0], seed=s)),
        ("poisson i32", lambda s: r.poisson([7], 3.0, dtype=tf.int32, seed=s)),
        ("categorical", lambda s: r.categorical(tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), 6, seed=s)),
        ("categorical i32", lambda s: r.categorical([[1.0, 2.0, 3.0, 0.0]], 9, dtype=tf.int32, seed=s)),
        ("shuffle", lambda s: r.shuffle(tf.range(17), seed=s)),
        ("shuffle rows", lambda s: r.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=s)),
    )
    for name, f in draws:
        for s in (None, 7):
            out[f"{name} seed{s}"] = error(lambda: [bits(f(s)), bits(f(s))])
    return out


program("e-rand-stateful", _stateful)


def _stateful_traced(tf: Any, mk: Any) -> Any:
    """The same ops inside a tf.function, called three times (each call moves the op's own counter)."""
    tf.random.set_seed(99)

    @tf.function
    def f() -> Any:
        return (tf.random.uniform([5]), tf.random.normal([4], seed=3), tf.random.uniform([3], 0, 10, tf.int32),
                tf.random.truncated_normal([3], dtype=tf.float64), tf.random.shuffle(tf.range(6), seed=5))
    return [[bits(t) for t in f()] for _ in range(3)]


program("e-rand-stateful-traced", _stateful_traced)

ALGS = ("philox", "threefry", "auto_select")

for _alg in ALGS:
    def _stateless(tf: Any, mk: Any, alg: str = _alg) -> Any:
        r = tf.random
        out: dict[str, Any] = {}
        seed = tf.constant([11, -3], tf.int64)
        for dt in FLOATS:
            out[f"uniform {dt}"] = error(lambda: bits(r.stateless_uniform([17], seed, 0.5, 4.0, dt, alg=alg)))
            out[f"normal {dt}"] = error(lambda: bits(r.stateless_normal([9], seed, 1.0, 2.0, dt, alg=alg)))
            out[f"truncated {dt}"] = error(lambda: bits(r.stateless_truncated_normal([9], seed, dtype=dt, alg=alg)))
        for dt in ("int32", "int64"):
            out[f"uniform {dt}"] = error(lambda: bits(r.stateless_uniform([17], seed, -9, 40, dt, alg=alg)))
        for dt in ("int32", "int64", "uint32", "uint64"):
            out[f"full {dt}"] = error(lambda: bits(r.stateless_uniform([9], seed, None, None, dt, alg=alg)))
        out["seed int32"] = error(lambda: bits(r.stateless_uniform([5], tf.constant([1, 2], tf.int32), alg=alg)))
        out["seed list"] = error(lambda: bits(r.stateless_normal([2, 3], [4, 5], alg=alg)))
        return out
    program(f"e-rand-stateless-{_alg}", _stateless)


def _stateless_other(tf: Any, mk: Any) -> Any:
    """The stateless samplers without an alg: categorical, poisson, gamma, binomial, and a seed from fold_in/split."""
    r = tf.random
    out: dict[str, Any] = {}
    seed = [3, 8]
    out["categorical"] = error(lambda: bits(r.stateless_categorical([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]], 7, seed)))
    out["categorical i32"] = error(lambda: bits(r.stateless_categorical([[0.5, 0.5]], 9, seed, dtype=tf.int32)))
    for dt in ("float32", "float64", "int32"):
        out[f"poisson {dt}"] = error(lambda: bits(r.stateless_poisson([3, 2], seed, [1.0, 30.0], dtype=dt)))
    for dt in ("float16", "float32", "float64"):
        out[f"gamma {dt}"] = error(lambda: bits(r.stateless_gamma([3, 2], seed, [0.3, 2.0], [1.0, 3.0], dtype=dt)))
    out["binomial"] = error(lambda: bits(r.stateless_binomial([5], seed, 10.0, [0.2, 0.7, 0.5, 0.9, 0.1])))
    out["fold_in"] = error(lambda: bits(r.experimental.stateless_fold_in(seed, 5)))
    out["split"] = error(lambda: bits(r.experimental.stateless_split(seed, 3)))
    out["split draw"] = error(lambda: bits(r.stateless_uniform([4], r.experimental.stateless_split(seed, 2)[1])))
    return out


program("e-rand-stateless-samplers", _stateless_other)

for _alg in ("philox", "threefry"):
    def _generator(tf: Any, mk: Any, alg: str = _alg) -> Any:
        """tf.random.Generator.from_seed per algorithm: every method, its state between, split and skip."""
        out: dict[str, Any] = {}
        g = tf.random.Generator.from_seed(2026, alg=alg)
        out["state0"] = bits(g.state)
        out["uniform"] = error(lambda: bits(g.uniform([9])))
        out["uniform f64"] = error(lambda: bits(g.uniform([5], -1.0, 1.0, tf.float64)))
        out["uniform f16"] = error(lambda: bits(g.uniform([9], dtype=tf.float16)))
        out["uniform bf16"] = error(lambda: bits(g.uniform([9], dtype=tf.bfloat16)))
        out["uniform i32"] = error(lambda: bits(g.uniform([9], 0, 100, tf.int32)))
        out["uniform i64"] = error(lambda: bits(g.uniform([4], -50, 50, tf.int64)))
        out["full int"] = error(lambda: bits(g.uniform_full_int([4], tf.uint64)))
        out["normal"] = error(lambda: bits(g.normal([7], 2.0, 0.5)))
        out["normal f64"] = error(lambda: bits(g.normal([5], dtype=tf.float64)))
        out["truncated"] = error(lambda: bits(g.truncated_normal([9])))
        out["binomial"] = error(lambda: bits(g.binomial([4], counts=[5.0, 20.0, 3.0, 8.0], probs=0.3)))
        out["make_seeds"] = error(lambda: bits(g.make_seeds(3)))
        out["state1"] = bits(g.state)
        out["split"] = error(lambda: [bits(h.normal([3])) for h in g.split(3)])
        out["state2"] = bits(g.state)
        out["skip"] = error(lambda: [g.skip(5), None][1])
        out["after skip"] = error(lambda: bits(g.uniform([4])))
        out["reset"] = error(lambda: g.reset_from_seed(7) or bits(g.uniform([3])))
        k = tf.random.Generator.from_seed(1, alg=alg)

        @tf.function
        def f() -> Any:
            return k.uniform([4]), k.normal([2])
        out["traced"] = error(lambda: [[bits(t) for t in f()] for _ in range(2)] + [bits(k.state)])
        h = tf.random.Generator.from_non_deterministic_state(alg=alg)
        out["nondeterministic shape"] = list(h.state.shape)
        return out
    program(f"e-rand-generator-{_alg}", _generator)


for _dt in FLOATS:
    def _dropout(tf: Any, mk: Any, dt: str = _dt) -> Any:
        """dropout under a global and op seed and stateless_dropout: rates, noise shapes, each float dtype; the
        mask's gradient."""
        out: dict[str, Any] = {}
        x = _tensor(tf, f"do{dt}", (3, 17), dt, "mild")
        for rate in (0.0, 0.3, 0.9):
            for ns in (None, [1, 17], [3, 1]):
                key = f"{rate} {ns}"
                out[f"stateless {key}"] = fg(tf, lambda a, r_=rate, n_=ns: tf.nn.experimental.stateless_dropout(
                    a, r_, [5, 9], noise_shape=n_), [x], name=f"do{key}")
                out[f"stateless philox {key}"] = error(lambda: bits(tf.nn.experimental.stateless_dropout(
                    x, rate, [1, 2], noise_shape=ns, rng_alg="philox")))
            tf.random.set_seed(5)
            out[f"stateful {rate}"] = error(lambda: [bits(tf.nn.dropout(x, rate, seed=3)),
                                                     bits(tf.nn.dropout(x, rate, seed=3))])
        out["tensor rate"] = error(lambda: bits(tf.nn.experimental.stateless_dropout(
            x, tf.constant(0.5, dt), [2, 2])))
        return out
    program(f"e-rand-dropout-{_dt}", _dropout)


def _keras_random(tf: Any, mk: Any) -> Any:
    """keras.random with a SeedGenerator (and an int seed), each sampler, across calls."""
    kr = tf.keras.random
    out: dict[str, Any] = {}
    sg = kr.SeedGenerator(42)
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    samplers = (
        ("uniform", lambda s: kr.uniform((2, 5), -1.0, 3.0, seed=s)),
        ("uniform f64", lambda s: kr.uniform((5,), dtype="float64", seed=s)),
        ("normal", lambda s: kr.normal((7,), 0.5, 2.0, seed=s)),
        ("truncated", lambda s: kr.truncated_normal((9,), seed=s)),
        ("randint", lambda s: kr.randint((8,), 0, 10, seed=s)),
        ("categorical", lambda s: kr.categorical([[0.0, 1.0, 2.0]], 6, seed=s)),
        ("dropout", lambda s: kr.dropout(x, 0.5, seed=s)),
        ("dropout noise_shape", lambda s: kr.dropout(x, 0.5, noise_shape=(1, 4), seed=s)),
        ("shuffle", lambda s: kr.shuffle(tf.range(9), seed=s)),
        ("gamma", lambda s: kr.gamma((4,), 2.0, seed=s)),
        ("binomial", lambda s: kr.binomial((4,), 10.0, 0.3, seed=s)),
        ("beta", lambda s: kr.beta((4,), 2.0, 3.0, seed=s)),
    )
    for name, f in samplers:
        out[f"{name} generator"] = error(lambda: [bits(f(sg)), bits(f(sg))])
        out[f"{name} int"] = error(lambda: [bits(f(17)), bits(f(17))])
    out["state"] = error(lambda: bits(sg.state))
    return out


program("e-rand-keras", _keras_random)
