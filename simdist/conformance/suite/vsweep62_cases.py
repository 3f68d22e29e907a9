"""Argument validation and dtype acceptance by rule (sixty-second session, vsweep62; test_vsweep62.py): array, index,
scatter, segment, reduction and nn ops at each argument's validity boundary, eagerly and inside a tf.function, with
the index/axis arguments in every integer dtype and as Python/NumPy values, and the data arguments across TF's dtypes.

What is crossed (the suite met these boundaries one op at a time, mostly at valid values; batch 81's survivors were
boundaries no test reached):
- v-split: tf.split's num (-1, 0, 1, a divisor, a non-divisor, size, size+1) × axis (-rank-1 .. rank); size_splits
  with -1 (once, twice), zeros, sums below/at/above the size, one entry, empty, a rank-0 tensor, as Python lists,
  NumPy and tensors of each integer dtype; zero-size inputs;
- v-join: concat at axes -rank-1 .. rank with mismatches before, at and after the axis, rank and dtype mismatches,
  empty and one-element lists, zero-size parts; stack at axes -rank-2 .. rank+1, shape/dtype mismatches; unstack
  with num size-1, size, size+1 and None at every axis, zero-size;
- v-gather: gather's indices -1, 0, dim-1, dim at axes -rank-1 .. rank, batch_dims -3 .. 3 against axis; gather_nd
  at and past each dimension, too deep, empty, batch_dims 0-2;
- v-scatter: scatter_nd and tensor_scatter_nd_update/add/sub/min/max at index -1, dim-1, dim, updates of the
  wrong shape, shapes with zeros and negative entries;
- v-segment: segment_sum/mean/max/min/prod with unsorted, negative, too-large and short ids; unsorted_segment_sum/
  max/min/prod/mean/sqrt_n with num_segments 0, -1, below the ids and ids -1;
- v-onehot: one_hot's indices -1 .. depth, depth 0/1/-1, axis -2 .. 2, on/off value dtypes;
- v-shape: reshape with -1 (once, twice, with zero-size), -2, size mismatches; slice with begin/size at and past
  the bounds; strided_slice / __getitem__ with begin/end/strides at and past the bounds, stride 0, negative strides
  and masks; tile multiples 0/-1/wrong length; pad with negative and too-large paddings in CONSTANT/REFLECT/
  SYMMETRIC (mirror_pad's limits dim-1 and dim) and unknown modes; transpose perms (duplicates, -1, rank, wrong
  length); reverse/roll axes at every boundary and duplicated;
- v-axis: argmax/argmin, cumsum/cumprod (exclusive, reverse), reduce_sum/max/min/prod/mean/any/all/logsumexp,
  l2_normalize and softmax at axes -rank-1 .. rank, duplicated and empty axis lists; argmax's output_type;
- v-argdt: each op's integer argument (axis, perm, multiples, paddings, shape, begin, num_segments, depth, k,
  shift, dims) in int8, int16, int32, int64, uint8, uint16, uint32, uint64 tensors and as Python, NumPy int64/int32/
  uint8 values;
- v-datadt: each op's data argument in bool, string, complex64/128, float16, bfloat16, float32/64 and every
  integer dtype (TF's registered kernel tables decide);
- v-misc: matmul/batch_matmul shape mismatches, top_k's k, pools' ksize/strides, range/linspace, fill/zeros/ones
  with negative and zero dims, where/boolean_mask shapes.

Each case is a thunk building its inputs, run eagerly and as a zero-argument tf.function (its constants are
graph constants, so TF's shape inference sees them: ValueError/TypeError at trace where the kernel raises
InvalidArgumentError eagerly). A result is its dtype, shape and values (floats by their bits); a refusal is its
exception class. `python -m simdist.conformance.suite.test_vsweep62 --record` rewrites vsweep62_reference.json.gz
(TF 2.21 on this session's AVX-512 Xeon with oneDNN on; every program host-dependent, run on simdist under its
reference model). OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "vsweep62_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("v-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
DTYPES = ("bool", "string", "complex64", "complex128", "float16", "bfloat16", "float32", "float64") + INTS

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-second session ... vsweep62"; /work/wt/vsweep62_logs: dump.py over both backends, diff.py -> diff.out).
#: 215 of 5,700 case results, these classes:
#: - integer axis/index tensors of a dtype TF's kernel does not register (int8, int16, uint8 ... where Tidx/Tindices
#:   take int32/int64 only): TF 2.21 refuses (InvalidArgumentError eagerly, TypeError traced), simdist computes —
#:   reduce_sum/max/any, cumsum, expand_dims, l2_normalize and softmax axes, one_hot depth, slice/strided_slice
#:   begin, unsorted_segment num_segments, gather's batch_dims tensor traced; 0-d NumPy axes (np.int32/np.int64/
#:   np.uint8 arrays) TF computes where simdist refuses (split, reduce_max/sum/any, l2_normalize, fill dims uint8);
#: - unstack with an axis tensor: TF's ValueError/OverflowError (unsigned) and OperatorNotAllowedInGraphError traced,
#:   simdist unpacks;
#: - split: size_splits [-1] (one entry) and [2, 4] with num=3 refused by TF, simdist splits; [-1, -1], [-2, 8]
#:   traced ValueError vs InvalidArgumentError;
#: - classes at trace time: scatter_nd too deep / negative shape, reshape [-1, 4, -1], x[..., 0, ...], conv3d stride
#:   0, unsorted_segment_* with a rank-1 num_segments (TF InvalidArgumentError/ValueError, simdist TypeError);
#:   concat of an empty list (TF InvalidArgumentError, simdist ValueError);
#: - conv2d with dilations 0 or -1 (TF refuses, simdist computes) and a filter larger than the input with VALID
#:   (TF 2.21 returns an uninitialized (1, 4, 4, 2) buffer — not comparable; simdist an empty result);
#: - scatter_nd of strings (TF computes, simdist TypeError); scatter_nd shape int64 tensor (TF computes) and int16
#:   (TF NotFoundError), simdist InvalidArgumentError; linspace of strings (UnimplementedError vs InvalidArgument);
#: - max_pool2d/avg_pool2d with a channel window and stride of 2: TF 2.21 computes (avg_pool a (1, 0, 0, 1) result),
#:   simdist UnimplementedError (blind61b's open item (5)).
OPEN: dict[str, tuple[str, ...]] = {
    'v-axis': ('cumsum axis t int16', 'cumsum axis t int16 fn', 'cumsum axis t int8', 'cumsum axis t int8 fn', 'cumsum axis t uint16', 'cumsum axis t uint16 fn', 'cumsum axis t uint32', 'cumsum axis t uint32 fn', 'cumsum axis t uint64', 'cumsum axis t uint64 fn', 'cumsum axis t uint8', 'cumsum axis t uint8 fn', 'expand_dims axis t int16', 'expand_dims axis t int16 fn', 'expand_dims axis t int8', 'expand_dims axis t int8 fn', 'expand_dims axis t uint16', 'expand_dims axis t uint16 fn', 'expand_dims axis t uint32', 'expand_dims axis t uint32 fn', 'expand_dims axis t uint64', 'expand_dims axis t uint64 fn', 'expand_dims axis t uint8', 'expand_dims axis t uint8 fn', 'l2_normalize axis np int32', 'l2_normalize axis np int32 fn', 'l2_normalize axis np int64', 'l2_normalize axis np int64 fn', 'l2_normalize axis np uint8', 'l2_normalize axis np uint8 fn', 'l2_normalize axis t int16', 'l2_normalize axis t int16 fn', 'l2_normalize axis t int8', 'l2_normalize axis t int8 fn', 'l2_normalize axis t uint16', 'l2_normalize axis t uint16 fn', 'l2_normalize axis t uint32', 'l2_normalize axis t uint32 fn', 'l2_normalize axis t uint64', 'l2_normalize axis t uint64 fn', 'l2_normalize axis t uint8', 'l2_normalize axis t uint8 fn', 'reduce_any axis np int32', 'reduce_any axis np int32 fn', 'reduce_any axis np int64', 'reduce_any axis np int64 fn', 'reduce_any axis np uint8', 'reduce_any axis np uint8 fn', 'reduce_any axis t int16', 'reduce_any axis t int16 fn', 'reduce_any axis t int8', 'reduce_any axis t int8 fn', 'reduce_any axis t uint16', 'reduce_any axis t uint16 fn', 'reduce_any axis t uint32', 'reduce_any axis t uint32 fn', 'reduce_any axis t uint64', 'reduce_any axis t uint64 fn', 'reduce_any axis t uint8', 'reduce_any axis t uint8 fn', 'reduce_max axis np int32', 'reduce_max axis np int32 fn', 'reduce_max axis np int64', 'reduce_max axis np int64 fn', 'reduce_max axis np uint8', 'reduce_max axis np uint8 fn', 'reduce_max axis t int16', 'reduce_max axis t int16 fn', 'reduce_max axis t int8', 'reduce_max axis t int8 fn', 'reduce_max axis t uint16', 'reduce_max axis t uint16 fn', 'reduce_max axis t uint32', 'reduce_max axis t uint32 fn', 'reduce_max axis t uint64', 'reduce_max axis t uint64 fn', 'reduce_max axis t uint8', 'reduce_max axis t uint8 fn', 'reduce_sum axis np int32', 'reduce_sum axis np int32 fn', 'reduce_sum axis np int64', 'reduce_sum axis np int64 fn', 'reduce_sum axis np uint8', 'reduce_sum axis np uint8 fn', 'reduce_sum axis t int16', 'reduce_sum axis t int16 fn', 'reduce_sum axis t int8', 'reduce_sum axis t int8 fn', 'reduce_sum axis t uint16', 'reduce_sum axis t uint16 fn', 'reduce_sum axis t uint32', 'reduce_sum axis t uint32 fn', 'reduce_sum axis t uint64', 'reduce_sum axis t uint64 fn', 'reduce_sum axis t uint8', 'reduce_sum axis t uint8 fn', 'softmax axis np uint8', 'softmax axis np uint8 fn', 'softmax axis t int16', 'softmax axis t int64', 'softmax axis t int8', 'softmax axis t uint16', 'softmax axis t uint32', 'softmax axis t uint8'),
    'v-datadt-string': ('linspace', 'scatter_nd', 'scatter_nd duplicates', 'scatter_nd duplicates fn', 'scatter_nd fn'),
    'v-gather': ('gather batch_dims t int16 fn', 'gather batch_dims t int32 fn', 'gather batch_dims t int64 fn', 'gather batch_dims t int8 fn', 'gather batch_dims t uint16 fn', 'gather batch_dims t uint32 fn', 'gather batch_dims t uint64 fn', 'gather batch_dims t uint8 fn'),
    'v-join': ('concat axis np uint8 fn', 'concat empty list', 'unstack axis t int16 fn', 'unstack axis t int32 fn', 'unstack axis t int64 fn', 'unstack axis t int8 fn', 'unstack axis t uint16', 'unstack axis t uint16 fn', 'unstack axis t uint32', 'unstack axis t uint32 fn', 'unstack axis t uint64', 'unstack axis t uint64 fn', 'unstack axis t uint8', 'unstack axis t uint8 fn'),
    'v-misc': ('conv2d filter too big', 'conv2d strides 1 dilations -1', 'conv2d strides 1 dilations 0', 'conv3d stride 0 fn', 'fill dims np uint8', 'fill dims np uint8 fn', 'avg_pool2d entries [1, 1, 1, 2] [1, 1, 1, 2]', 'avg_pool2d entries [1, 1, 1, 2] [1, 1, 1, 2] fn', 'max_pool2d entries [1, 1, 1, 2] [1, 1, 1, 2]', 'max_pool2d entries [1, 1, 1, 2] [1, 1, 1, 2] fn'),
    'v-onehot': ('depth t int16', 'depth t int16 fn', 'depth t int64', 'depth t int64 fn', 'depth t int8', 'depth t int8 fn', 'depth t uint16', 'depth t uint16 fn', 'depth t uint32', 'depth t uint32 fn', 'depth t uint64', 'depth t uint64 fn', 'depth t uint8', 'depth t uint8 fn'),
    'v-scatter': ('scatter_nd shape negative fn', 'scatter_nd shape t int16', 'scatter_nd shape t int64', 'scatter_nd too deep', 'scatter_nd too deep fn'),
    'v-segment': ('segment ids t int16 fn', 'unsorted n t int16', 'unsorted n t int16 fn', 'unsorted n t int8', 'unsorted n t int8 fn', 'unsorted n t uint16', 'unsorted n t uint16 fn', 'unsorted n t uint32', 'unsorted n t uint32 fn', 'unsorted n t uint64', 'unsorted n t uint64 fn', 'unsorted n t uint8', 'unsorted n t uint8 fn', 'unsorted_max n rank 1', 'unsorted_max n rank 1 fn', 'unsorted_mean n rank 1', 'unsorted_min n rank 1', 'unsorted_min n rank 1 fn', 'unsorted_prod n rank 1', 'unsorted_prod n rank 1 fn', 'unsorted_sqrt_n n rank 1', 'unsorted_sum n rank 1', 'unsorted_sum n rank 1 fn'),
    'v-shape': ('getitem [..., ...] fn', 'reshape [-1, 4, -1] fn', 'slice begin np uint8', 'slice begin t int16', 'slice begin t int8', 'slice begin t uint16', 'slice begin t uint32', 'slice begin t uint64', 'slice begin t uint8', 'strided_slice begin np uint8', 'strided_slice begin np uint8 fn', 'strided_slice begin t int8', 'strided_slice begin t int8 fn', 'strided_slice begin t uint16', 'strided_slice begin t uint16 fn', 'strided_slice begin t uint32', 'strided_slice begin t uint32 fn', 'strided_slice begin t uint64', 'strided_slice begin t uint64 fn', 'strided_slice begin t uint8', 'strided_slice begin t uint8 fn'),
    'v-split': ('axis np int32', 'axis np int32 fn', 'axis np int64', 'axis np int64 fn', 'axis np uint8', 'axis np uint8 fn', 'sizes [-1, -1] fn', 'sizes [-1]', 'sizes [-2, 8] fn', 'sizes [2, 4] num 3', 'sizes [2, 4] num 3 fn'),
}


def program(name: str, fn: Callable[[Any], dict[str, Any]]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def val(v: Any) -> Any:
    """A result: its dtype, shape and values (floats by the hex of their exact value, strings as text), a Python
    value as such, a sequence item by item."""
    if hasattr(v, "dtype") and hasattr(v, "numpy"):
        if v.dtype.name == "string":
            return ["string", list(np.shape(v))] + [bytes(b).decode("latin-1") for b in np.ravel(v.numpy())]
        if v.dtype.is_complex:
            a = np.ravel(v.numpy())
            return [v.dtype.name, list(np.shape(v))] + bits(a.real) + bits(a.imag)
        return [v.dtype.name, list(np.shape(v))] + bits(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, float):
        return float(v).hex()
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    return type(v).__name__


def res(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


#: Cases whose tf.function TF 2.21 does not survive (a CHECK failure in a shape function aborts the process: e.g.
#: Split's size_splits of rank 2 or of int8, read as int64): program -> keys run eagerly only.
ABORTS: dict[str, tuple[str, ...]] = {
    'v-split': ('sizes rank 2', 'sizes t int8'),
}


class Cases:
    """A program's cases: each thunk run eagerly (key) and as a zero-argument tf.function (key + ' fn')."""

    def __init__(self, tf: Any, name: str, traced: bool = True) -> None:
        self.tf, self.out, self.traced, self.aborts = tf, {}, traced, ABORTS.get(name, ())

    def __call__(self, key: str, f: Callable[[], Any], traced: bool | None = None) -> None:
        assert key not in self.out, key
        self.out[key] = res(f)
        if (self.traced if traced is None else traced) and key not in self.aborts:
            self.out[key + " fn"] = res(lambda: self.tf.function(f, autograph=False)())


def data(tf: Any, dt: str, shape: tuple[int, ...], name: str) -> Any:
    """A tensor of dtype dt and shape: small integers from rng(name) (strings their text, bools their parity,
    complex numbers with an imaginary part)."""
    r = rng(name)
    v = r.randint(1, 9, size=shape)
    if dt == "string":
        return tf.constant(np.vectorize(str)(v).astype(object) if v.ndim else str(int(v)), dtype=tf.string)
    if dt == "bool":
        return tf.constant(v % 2 == 1)
    if dt.startswith("complex"):
        return tf.constant(v + 1j * r.randint(-3, 4, size=shape), dtype=dt)
    if dt.startswith("int"):
        v = v - 4
    return tf.constant(v.astype(np.float64) if dt in ("float16", "bfloat16") else v, dtype=dt)


def forms(v: Any) -> list[tuple[str, Callable[[Any], Any]]]:
    """v (an int or list of ints) as a Python value, NumPy int64/int32/uint8 and a tensor of each integer dtype."""
    out: list[tuple[str, Callable[[Any], Any]]] = [("py", lambda tf: v),
                                                     ("np int64", lambda tf: np.array(v, np.int64)),
                                                     ("np int32", lambda tf: np.array(v, np.int32))]
    if np.all(np.asarray(v) >= 0):
        out.append(("np uint8", lambda tf: np.array(v, np.uint8)))
    out += [(f"t {dt}", (lambda d: lambda tf: tf.constant(v, dtype=d))(dt)) for dt in INTS
            if dt.startswith("int") or np.all(np.asarray(v) >= 0)]
    return out


# -- v-split ----------------------------------------------------------------------------------------------------------
def _split(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-split")
    x = lambda: tf.reshape(tf.range(24), [6, 4])  # noqa: E731
    for num in (-1, 0, 1, 2, 3, 4, 5, 6, 7):
        c(f"num {num} axis 0", lambda num=num: tf.split(x(), num, axis=0))
    for ax in (-3, -2, -1, 1, 2):
        c(f"num 2 axis {ax}", lambda ax=ax: tf.split(x(), 2, axis=ax))
    c("num 3 axis 1", lambda: tf.split(x(), 3, axis=1))
    c("num 4 axis -1", lambda: tf.split(x(), 4, axis=-1))
    for ss in ([6], [2, 4], [4, 2], [0, 6], [6, 0], [0, 0, 6], [2, -1], [-1, 2], [-1, -1], [0, -1], [-1], [7, -1],
               [6, -1], [5, -1], [2, 3], [2, 5], [3, 4, -1], [-2, 8], [1, 1, 1, 1, 1, 1], [], [-1, 0, 0], [3, 3, 0]):
        c(f"sizes {ss}", lambda ss=ss: tf.split(x(), ss, axis=0))
    c("sizes [1, 3] axis 1", lambda: tf.split(x(), [1, 3], axis=1))
    c("sizes [1, 2] axis 1", lambda: tf.split(x(), [1, 2], axis=1))
    c("sizes [1, -1] axis -1", lambda: tf.split(x(), [1, -1], axis=-1))
    c("sizes [2, 4] num 2", lambda: tf.split(x(), [2, 4], num=2))
    c("sizes [2, 4] num 3", lambda: tf.split(x(), [2, 4], num=3))
    c("sizes tensor rank 0", lambda: tf.split(x(), tf.constant(2)))
    c("sizes np rank 0", lambda: tf.split(x(), np.int64(2)))
    c("sizes rank 2", lambda: tf.split(x(), [[2, 4]]))
    for name, f in forms([2, 4]):
        c(f"sizes {name}", lambda f=f: tf.split(x(), f(tf)))
    for name, f in forms(1):
        c(f"axis {name}", lambda f=f: tf.split(x(), 2, axis=f(tf)))
    z = lambda: tf.zeros([0, 4])  # noqa: E731
    for num in (1, 2, 3):
        c(f"empty num {num}", lambda num=num: tf.split(z(), num, axis=0))
    c("empty sizes [0, 0]", lambda: tf.split(z(), [0, 0], axis=0))
    c("empty sizes [0, -1]", lambda: tf.split(z(), [0, -1], axis=0))
    c("empty num 2 axis 1", lambda: tf.split(z(), 2, axis=1))
    c("scalar", lambda: tf.split(tf.constant(3), 1))
    return c.out


program("v-split", _split)


# -- v-join: concat / stack / unstack ---------------------------------------------------------------------------------
def _join(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-join")
    a = lambda s=(2, 3), dt="float32": tf.reshape(tf.range(int(np.prod(s)), dtype=dt), s)  # noqa: E731
    for ax in (-3, -2, -1, 0, 1, 2):
        c(f"concat axis {ax}", lambda ax=ax: tf.concat([a(), a()], ax))
    c("concat before axis", lambda: tf.concat([a((2, 3)), a((3, 3))], 1))
    c("concat at axis 0", lambda: tf.concat([a((2, 3)), a((3, 3))], 0))
    c("concat after axis", lambda: tf.concat([a((2, 3, 2)), a((2, 3, 4))], 1))
    c("concat after axis -3", lambda: tf.concat([a((2, 3, 2)), a((4, 3, 4))], -3))
    c("concat rank", lambda: tf.concat([a((2, 3)), a((3,))], 0))
    c("concat scalars", lambda: tf.concat([tf.constant(1.0), tf.constant(2.0)], 0))
    c("concat one", lambda: tf.concat([a()], 0))
    c("concat one axis 2", lambda: tf.concat([a()], 2))
    c("concat one axis -3", lambda: tf.concat([a()], -3))
    c("concat empty list", lambda: tf.concat([], 0))
    c("concat dtypes", lambda: tf.concat([a(), a(dt="int32")], 0))
    c("concat int64 int32", lambda: tf.concat([a(dt="int64"), a(dt="int32")], 0))
    c("concat zero part", lambda: tf.concat([a((0, 3)), a((2, 3))], 0))
    c("concat zero part mismatch", lambda: tf.concat([a((0, 2)), a((2, 3))], 0))
    c("concat zero parts axis 1", lambda: tf.concat([a((2, 0)), a((2, 0))], 1))
    for name, f in forms(1):
        c(f"concat axis {name}", lambda f=f: tf.concat([a(), a()], f(tf)))
    c("concat axis float", lambda: tf.concat([a(), a()], 1.0))
    c("concat axis list", lambda: tf.concat([a(), a()], [1]))
    for ax in (-4, -3, -2, -1, 0, 1, 2, 3):
        c(f"stack axis {ax}", lambda ax=ax: tf.stack([a(), a()], ax))
    c("stack shapes", lambda: tf.stack([a((2, 3)), a((3, 2))]))
    c("stack dtypes", lambda: tf.stack([a(), a(dt="int32")]))
    c("stack empty", lambda: tf.stack([]))
    c("stack one", lambda: tf.stack([a()], 2))
    c("stack scalars axis 1", lambda: tf.stack([tf.constant(1), tf.constant(2)], 1))
    c("stack scalars axis -1", lambda: tf.stack([tf.constant(1), tf.constant(2)], -1))
    c("stack zero size", lambda: tf.stack([a((0, 3)), a((0, 3))], 1))
    for ax in (-3, -2, -1, 0, 1, 2):
        for num in (None, 1, 2, 3, 4):
            c(f"unstack axis {ax} num {num}", lambda ax=ax, num=num: tf.unstack(a(), num=num, axis=ax))
    c("unstack zero", lambda: tf.unstack(a((0, 3))))
    c("unstack zero num 0", lambda: tf.unstack(a((0, 3)), num=0))
    c("unstack zero axis 1", lambda: tf.unstack(a((2, 0)), axis=1))
    c("unstack scalar", lambda: tf.unstack(tf.constant(1.0)))
    for name, f in forms(1):
        c(f"unstack axis {name}", lambda f=f: tf.unstack(a(), axis=f(tf)))
    return c.out


program("v-join", _join)


# -- v-gather ---------------------------------------------------------------------------------------------------------
def _gather(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-gather")
    p = lambda: tf.reshape(tf.range(12.0), [4, 3])  # noqa: E731
    for ax in (-3, -2, -1, 0, 1, 2):
        for i in (-1, 0, 2, 3, 4):
            c(f"gather axis {ax} index {i}", lambda ax=ax, i=i: tf.gather(p(), [i, 0], axis=ax))
    c("gather scalar index", lambda: tf.gather(p(), 3))
    c("gather scalar index 4", lambda: tf.gather(p(), 4))
    c("gather empty indices", lambda: tf.gather(p(), tf.zeros([0], tf.int32)))
    c("gather empty params", lambda: tf.gather(tf.zeros([0, 3]), [0]))
    c("gather empty params no index", lambda: tf.gather(tf.zeros([0, 3]), tf.zeros([0], tf.int32)))
    c("gather float indices", lambda: tf.gather(p(), [1.0]))
    c("gather scalar params", lambda: tf.gather(tf.constant(1.0), [0]))
    q = lambda: tf.reshape(tf.range(24.0), [2, 3, 4])  # noqa: E731
    ix = lambda: tf.constant([[0, 2], [1, 3]])  # noqa: E731
    for bd in (-3, -2, -1, 0, 1, 2, 3):
        for ax in (None, 0, 1, 2, -1):
            c(f"gather batch_dims {bd} axis {ax}", lambda bd=bd, ax=ax: tf.gather(q(), ix(), axis=ax, batch_dims=bd))
    c("gather batch_dims 1 batch mismatch", lambda: tf.gather(q(), tf.constant([[0], [1], [2]]), batch_dims=1))
    for name, f in forms(1):
        c(f"gather axis {name}", lambda f=f: tf.gather(p(), [0, 2], axis=f(tf)))
        c(f"gather batch_dims {name}", lambda f=f: tf.gather(q(), ix(), axis=2, batch_dims=f(tf)))
    for i in ([[3, 2]], [[4, 0]], [[0, 3]], [[-1, 0]], [[0, -1]], [[3]], [[4]], [[0, 0, 0]], [[]], [[1, 2], [3, 2]]):
        c(f"gather_nd {i}", lambda i=i: tf.gather_nd(p(), i))
    c("gather_nd empty", lambda: tf.gather_nd(p(), tf.zeros([0, 2], tf.int32)))
    c("gather_nd empty params", lambda: tf.gather_nd(tf.zeros([0, 3]), [[0, 0]]))
    c("gather_nd scalar indices", lambda: tf.gather_nd(p(), 1))
    for bd in (-1, 0, 1, 2, 3):
        for i in ([[0], [2]], [[1], [3]], [[0, 1], [2, 3]], [[0], [-1]]):
            c(f"gather_nd batch_dims {bd} {i}", lambda bd=bd, i=i: tf.gather_nd(q(), i, batch_dims=bd))
    for name, f in forms([[1, 2]]):
        c(f"gather_nd indices {name}", lambda f=f: tf.gather_nd(p(), f(tf)))
    for name, f in forms([2, 0, 3]):
        c(f"gather indices {name}", lambda f=f: tf.gather(p(), f(tf)))
        c(f"gather axis 1 indices {name}", lambda f=f: tf.gather(p(), f(tf)[:2], axis=1))
    return c.out


program("v-gather", _gather)


# -- v-scatter --------------------------------------------------------------------------------------------------------
def _scatter(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-scatter")
    t = lambda: tf.reshape(tf.range(12.0), [4, 3])  # noqa: E731
    for i in (-1, 0, 3, 4):
        c(f"scatter_nd index {i}", lambda i=i: tf.scatter_nd([[i]], [[1.0, 2.0, 3.0]], [4, 3]))
        c(f"scatter_nd index (1, {i})", lambda i=i: tf.scatter_nd([[1, i]], [5.0], [4, 3]))
    c("scatter_nd shape zero", lambda: tf.scatter_nd(tf.zeros([0, 1], tf.int32), tf.zeros([0, 3]), [0, 3]))
    c("scatter_nd shape zero index", lambda: tf.scatter_nd([[0]], [[1.0, 2.0, 3.0]], [0, 3]))
    c("scatter_nd shape negative", lambda: tf.scatter_nd([[0]], [[1.0, 2.0, 3.0]], [-1, 3]))
    c("scatter_nd updates short", lambda: tf.scatter_nd([[0]], [[1.0, 2.0]], [4, 3]))
    c("scatter_nd updates rank", lambda: tf.scatter_nd([[0]], [1.0], [4, 3]))
    c("scatter_nd updates outer", lambda: tf.scatter_nd([[0], [1]], [[1.0, 2.0, 3.0]], [4, 3]))
    c("scatter_nd too deep", lambda: tf.scatter_nd([[0, 0, 0]], [1.0], [4, 3]))
    c("scatter_nd rank 0 shape", lambda: tf.scatter_nd([[0]], [1.0], 4))
    c("scatter_nd duplicates", lambda: tf.scatter_nd([[1], [1]], [2.0, 3.0], [3]))
    for name, f in forms([4, 3]):
        c(f"scatter_nd shape {name}", lambda f=f: tf.scatter_nd([[1]], [[1.0, 2.0, 3.0]], f(tf)))
    for op in ("update", "add", "sub", "min", "max"):
        fn = getattr(tf, f"tensor_scatter_nd_{op}")
        for i in (-1, 0, 3, 4):
            c(f"{op} index {i}", lambda fn=fn, i=i: fn(t(), [[i]], [[7.0, -1.0, 2.5]]))
            c(f"{op} index (2, {i})", lambda fn=fn, i=i: fn(t(), [[2, i]], [7.0]))
        c(f"{op} updates short", lambda fn=fn: fn(t(), [[0]], [[7.0, 1.0]]))
        c(f"{op} updates inner rank below", lambda fn=fn: fn(t(), [[0]], [7.0]))
        c(f"{op} updates inner rank above", lambda fn=fn: fn(t(), [[0, 1]], [[7.0]]))
        c(f"{op} too deep", lambda fn=fn: fn(t(), [[0, 0, 0]], [7.0]))
        c(f"{op} empty", lambda fn=fn: fn(t(), tf.zeros([0, 2], tf.int32), tf.zeros([0])))
        c(f"{op} empty tensor", lambda fn=fn: fn(tf.zeros([0, 3]), [[0]], [[7.0, 1.0, 2.0]]))
        c(f"{op} dtype mismatch", lambda fn=fn: fn(t(), [[0]], tf.constant([[7, 1, 2]])))
        c(f"{op} duplicates", lambda fn=fn: fn(t(), [[1], [1]], [[7.0, -1.0, 2.5], [1.0, 9.0, -4.0]]))
    return c.out


program("v-scatter", _scatter)


# -- v-segment --------------------------------------------------------------------------------------------------------
def _segment(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-segment")
    d = lambda: tf.constant([[1.0, -2.0], [3.5, 4.0], [-5.0, 6.0], [7.0, 0.5]])  # noqa: E731
    for op in ("sum", "mean", "max", "min", "prod"):
        fn = getattr(tf.math, f"segment_{op}")
        for ids in ([0, 0, 1, 1], [0, 0, 2, 2], [1, 1, 1, 1], [0, 1, 0, 1], [1, 0, 0, 0], [-1, 0, 1, 1],
                    [0, 0, 1], [0, 0, 1, 1, 2], [3, 3, 3, 3]):
            c(f"segment_{op} {ids}", lambda fn=fn, ids=ids: fn(d(), ids))
        c(f"segment_{op} empty", lambda fn=fn: fn(tf.zeros([0, 2]), tf.zeros([0], tf.int32)))
        c(f"segment_{op} ids rank 2", lambda fn=fn: fn(d(), [[0, 0], [1, 1]]))
    for op in ("sum", "max", "min", "prod", "mean", "sqrt_n"):
        fn = getattr(tf.math, f"unsorted_segment_{op}")
        for ids, n in (([0, 2, 1, 0], 3), ([0, 2, 1, 0], 2), ([-1, 1, 1, 0], 2), ([0, 1, 1, 0], 0), ([0, 1, 1, 0], -1),
                       ([0, 0, 0, 0], 1), ([0, 0, 3, 0], 3), ([-2, -1, 0, 0], 4), ([0, 1], 2), ([0, 1, 2, 3, 0], 4)):
            c(f"unsorted_{op} {ids} {n}", lambda fn=fn, ids=ids, n=n: fn(d(), ids, n))
        c(f"unsorted_{op} empty", lambda fn=fn: fn(tf.zeros([0, 2]), tf.zeros([0], tf.int32), 2))
        c(f"unsorted_{op} ids 2-d", lambda fn=fn: fn(d(), [[0, 1], [1, 0], [2, 2], [0, 0]], 3))
        c(f"unsorted_{op} n rank 1", lambda fn=fn: fn(d(), [0, 1, 1, 0], [2]))
    for name, f in forms([0, 1, 1, 0]):
        c(f"unsorted ids {name}", lambda f=f: tf.math.unsorted_segment_sum(d(), f(tf), 2))
        c(f"segment ids {name}", lambda f=f: tf.math.segment_sum(d(), f(tf)))
    for name, f in forms(2):
        c(f"unsorted n {name}", lambda f=f: tf.math.unsorted_segment_max(d(), [0, 1, 1, 0], f(tf)))
    return c.out


program("v-segment", _segment)


# -- v-onehot ---------------------------------------------------------------------------------------------------------
def _onehot(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-onehot")
    i = lambda: tf.constant([[-1, 0], [2, 3]])  # noqa: E731
    for depth in (-1, 0, 1, 3, 4):
        for ax in (-3, -2, -1, 0, 1, 2, 3):
            c(f"depth {depth} axis {ax}", lambda depth=depth, ax=ax: tf.one_hot(i(), depth, axis=ax))
    c("on off", lambda: tf.one_hot(i(), 3, on_value=2.5, off_value=-1.0))
    c("on int", lambda: tf.one_hot(i(), 3, on_value=2, off_value=0))
    c("on off mismatch", lambda: tf.one_hot(i(), 3, on_value=2, off_value=0.5))
    c("on dtype mismatch", lambda: tf.one_hot(i(), 3, on_value=2.5, dtype=tf.int32))
    c("on tensor dtype", lambda: tf.one_hot(i(), 3, on_value=tf.constant(1, tf.int64), off_value=tf.constant(0, tf.int64)))
    c("on rank 1", lambda: tf.one_hot(i(), 3, on_value=[1.0]))
    for dt in ("bool", "string", "complex64", "float16", "bfloat16", "float64", "int8", "uint8", "int64", "uint16"):
        c(f"dtype {dt}", lambda dt=dt: tf.one_hot(i(), 3, dtype=dt))
    c("string on off", lambda: tf.one_hot(i(), 3, on_value="a", off_value="b"))
    c("float indices", lambda: tf.one_hot([1.0], 3))
    c("scalar index", lambda: tf.one_hot(2, 3))
    c("depth tensor rank 1", lambda: tf.one_hot(i(), [3]))
    for name, f in forms(3):
        c(f"depth {name}", lambda f=f: tf.one_hot(i(), f(tf)))
    for name, f in forms([[1, 0], [2, 5]]):
        c(f"indices {name}", lambda f=f: tf.one_hot(f(tf), 3))
    return c.out


program("v-onehot", _onehot)


# -- v-shape: reshape, slice, strided_slice, tile, pad, transpose, reverse, roll ------------------------------------
def _shape(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-shape")
    x = lambda: tf.reshape(tf.range(24), [2, 3, 4])  # noqa: E731
    for s in ([-1], [4, -1], [-1, 4, -1], [5, -1], [0, -1], [-2, 12], [24, 1], [25], [2, 12, 1, 1], [], [-1, 0],
              [2, 3, 4], [3, 0]):
        c(f"reshape {s}", lambda s=s: tf.reshape(x(), s))
    c("reshape zero -1", lambda: tf.reshape(tf.zeros([0, 3]), [-1, 3]))
    c("reshape zero -1 0", lambda: tf.reshape(tf.zeros([0, 3]), [0, -1]))
    c("reshape zero -1 alone", lambda: tf.reshape(tf.zeros([0, 3]), [-1]))
    c("reshape scalar", lambda: tf.reshape(tf.constant([7]), []))
    c("reshape rank 2 shape", lambda: tf.reshape(x(), [[24]]))
    for name, f in forms([4, 6]):
        c(f"reshape shape {name}", lambda f=f: tf.reshape(x(), f(tf)))
    for b, s in (([0, 0, 0], [2, 3, 4]), ([1, 2, 3], [1, 1, 1]), ([2, 0, 0], [0, 3, 4]), ([2, 0, 0], [1, 3, 4]),
                 ([0, 0, 0], [-1, -1, -1]), ([1, 1, 1], [-1, 2, -1]), ([0, 0, 0], [3, 1, 1]), ([-1, 0, 0], [1, 1, 1]),
                 ([0, 3, 0], [1, 0, 1]), ([0, 0], [1, 1]), ([0, 0, 0], [-2, 1, 1]), ([0, 0, 4], [1, 1, 0]),
                 ([0, 0, 5], [1, 1, 0])):
        c(f"slice {b} {s}", lambda b=b, s=s: tf.slice(x(), b, s))
    for name, f in forms([1, 0, 1]):
        c(f"slice begin {name}", lambda f=f: tf.slice(x(), f(tf), [1, 2, 2]))
    for key, f in (("[1]", lambda v: v[1]), ("[2]", lambda v: v[2]), ("[-2]", lambda v: v[-2]),
                   ("[-3]", lambda v: v[-3]), ("[:, 3]", lambda v: v[:, 3]), ("[:, -4]", lambda v: v[:, -4]),
                   ("[:, :, 4]", lambda v: v[:, :, 4]), ("[0, 0, 0, 0]", lambda v: v[0, 0, 0, 0]),
                   ("[5:]", lambda v: v[5:]), ("[-9:9]", lambda v: v[-9:9]), ("[::-1]", lambda v: v[::-1]),
                   ("[::0]", lambda v: v[::0]), ("[:, ::-2]", lambda v: v[:, ::-2]), ("[:, 2:0]", lambda v: v[:, 2:0]),
                   ("[:, 2:0:-1]", lambda v: v[:, 2:0:-1]), ("[..., -1]", lambda v: v[..., -1]),
                   ("[..., 4]", lambda v: v[..., 4]), ("[None, 1]", lambda v: v[None, 1]),
                   ("[1, ..., None]", lambda v: v[1, ..., None]), ("[..., ...]", lambda v: v[..., 0, ...]),
                   ("[:, -9::-1]", lambda v: v[:, -9::-1]), ("[:, 9:-9:-1]", lambda v: v[:, 9:-9:-1]),
                   ("[1.0]", lambda v: v[1.0]), ("[[0, 1]]", lambda v: v[[0, 1]])):
        c(f"getitem {key}", lambda f=f: f(x()))
    for b, e, s in (([0, 0, 0], [2, 3, 4], [1, 1, 1]), ([0, 0, 0], [9, 9, 9], [1, 1, 1]), ([0], [1], [0]),
                    ([-9, 0, 0], [9, 3, 4], [1, 2, 3]), ([1, 2, 3], [-9, -9, -9], [-1, -1, -1]),
                    ([0, 0], [1, 1, 1], [1, 1, 1]), ([2, 3, 4], [2, 3, 4], [1, 1, 1]), ([0, 0, 0], [1, 1, 1], [4, 4, 4])):
        c(f"strided_slice {b} {e} {s}", lambda b=b, e=e, s=s: tf.strided_slice(x(), b, e, s))
    for mask in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
        for m in (1, 2, 4, 7, 8):
            c(f"strided_slice {mask} {m}", lambda mask=mask, m=m: tf.strided_slice(x(), [1, 2, 3], [2, 3, 4],
                                                                                    **{mask: m}))
    c("strided_slice two ellipses", lambda: tf.strided_slice(x(), [0, 0], [1, 1], ellipsis_mask=3))
    c("strided_slice shrink past", lambda: tf.strided_slice(x(), [2, 0, 0], [3, 1, 1], shrink_axis_mask=1))
    for name, f in forms([1, 0, 0]):
        c(f"strided_slice begin {name}", lambda f=f: tf.strided_slice(x(), f(tf), [2, 3, 4]))
    for m in ([1, 1, 1], [0, 1, 1], [2, 0, 3], [-1, 1, 1], [1, 1], [1, 1, 1, 1], [[1, 1, 1]]):
        c(f"tile {m}", lambda m=m: tf.tile(x(), m))
    c("tile scalar", lambda: tf.tile(tf.constant(3), []))
    for name, f in forms([1, 2, 1]):
        c(f"tile {name}", lambda f=f: tf.tile(x(), f(tf)))
    y = lambda: tf.reshape(tf.range(12.0), [3, 4])  # noqa: E731
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC", "constant", "reflect", "symmetric", "WRAP"):
        for pd in ([[1, 1], [2, 2]], [[2, 2], [3, 3]], [[2, 0], [0, 3]], [[3, 3], [4, 4]], [[3, 0], [0, 0]],
                   [[0, 0], [5, 0]], [[-1, 0], [0, 0]], [[0, 0]], [[0, 0], [0, 0], [0, 0]]):
            c(f"pad {mode} {pd}", lambda mode=mode, pd=pd: tf.pad(y(), pd, mode=mode))
    c("pad constant_values", lambda: tf.pad(y(), [[1, 0], [0, 1]], constant_values=-2.5))
    c("pad constant_values int", lambda: tf.pad(y(), [[1, 0], [0, 1]], constant_values=3))
    c("pad constant_values rank 1", lambda: tf.pad(y(), [[1, 0], [0, 1]], constant_values=[1.0]))
    c("pad reflect constant_values", lambda: tf.pad(y(), [[1, 0], [0, 1]], "REFLECT", constant_values=3.0))
    c("pad zero-size", lambda: tf.pad(tf.zeros([0, 2]), [[1, 1], [0, 0]]))
    c("pad zero-size reflect", lambda: tf.pad(tf.zeros([0, 2]), [[1, 1], [0, 0]], "REFLECT"))
    c("pad scalar", lambda: tf.pad(tf.constant(1.0), tf.zeros([0, 2], tf.int32)))
    for name, f in forms([[1, 0], [0, 2]]):
        c(f"pad {name}", lambda f=f: tf.pad(y(), f(tf)))
        c(f"pad reflect {name}", lambda f=f: tf.pad(y(), f(tf), "REFLECT"))
    for perm in ([2, 1, 0], [0, 0, 1], [0, 1, 3], [-1, 0, 1], [1, 0], [0, 1, 2, 3], [[0, 1, 2]], None):
        c(f"transpose {perm}", lambda perm=perm: tf.transpose(x(), perm))
    c("transpose conjugate int", lambda: tf.transpose(x(), conjugate=True))
    for name, f in forms([1, 2, 0]):
        c(f"transpose {name}", lambda f=f: tf.transpose(x(), f(tf)))
    for ax in ([-4], [-3], [-1], [2], [3], [0, 0], [0, -3], [], [0, 1, 2], [[0]]):
        c(f"reverse {ax}", lambda ax=ax: tf.reverse(x(), ax))
    for name, f in forms([1]):
        c(f"reverse {name}", lambda f=f: tf.reverse(x(), f(tf)))
    for sh, ax in ((1, 0), (1, 2), (1, 3), (1, -3), (1, -4), (-5, 1), (25, 2), ([1, 2], [0, 0]), ([1, 2], [0]),
                   ([1], [0, 1]), ([1, -1], [2, -1]), ([], [])):
        c(f"roll {sh} {ax}", lambda sh=sh, ax=ax: tf.roll(x(), sh, ax))
    for name, f in forms(1):
        c(f"roll shift {name}", lambda f=f: tf.roll(x(), f(tf), 1))
        c(f"roll axis {name}", lambda f=f: tf.roll(x(), 1, f(tf)))
    c("roll shift int64 axis int32", lambda: tf.roll(x(), tf.constant(1, tf.int64), tf.constant(1, tf.int32)))
    return c.out


program("v-shape", _shape)


# -- v-axis: argmax, cumsum, reductions, normalizations ---------------------------------------------------------------
def _axis(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-axis")
    x = lambda: tf.constant([[[1.5, -2.0, 3.0], [0.25, 7.0, -1.0]], [[4.0, 4.0, -6.0], [2.0, -0.5, 8.0]]])  # noqa: E731
    for ax in (-4, -3, -1, 0, 2, 3):
        c(f"argmax {ax}", lambda ax=ax: tf.math.argmax(x(), ax))
        c(f"argmin {ax}", lambda ax=ax: tf.math.argmin(x(), ax))
        c(f"cumsum {ax}", lambda ax=ax: tf.math.cumsum(x(), ax))
        c(f"cumprod {ax} exclusive reverse", lambda ax=ax: tf.math.cumprod(x(), ax, exclusive=True, reverse=True))
        c(f"l2_normalize {ax}", lambda ax=ax: tf.math.l2_normalize(x(), ax))
        c(f"softmax {ax}", lambda ax=ax: tf.nn.softmax(x(), ax))
        for op in ("sum", "max", "min", "prod", "mean", "logsumexp", "std"):
            c(f"reduce_{op} {ax}", lambda op=op, ax=ax: getattr(tf.math, f"reduce_{op}")(x(), ax))
        c(f"reduce_any {ax}", lambda ax=ax: tf.reduce_any(x() > 1.0, ax))
        c(f"reduce_all {ax}", lambda ax=ax: tf.reduce_all(x() > 1.0, ax))
    for ax in ([0, 0], [0, -3], [], [0, 2], [2, 3], [[0, 1]]):
        for op in ("sum", "max", "prod", "mean", "logsumexp"):
            c(f"reduce_{op} {ax}", lambda op=op, ax=ax: getattr(tf.math, f"reduce_{op}")(x(), ax))
        c(f"reduce_any {ax}", lambda ax=ax: tf.reduce_any(x() > 1.0, ax))
        c(f"l2_normalize {ax}", lambda ax=ax: tf.math.l2_normalize(x(), ax))
        c(f"cumsum {ax}", lambda ax=ax: tf.math.cumsum(x(), ax))
    for dt in ("int32", "int64", "int16", "uint16", "uint8", "float32", "bool"):
        c(f"argmax output_type {dt}", lambda dt=dt: tf.math.argmax(x(), 1, output_type=dt))
        c(f"argmin output_type {dt}", lambda dt=dt: tf.math.argmin(x(), 1, output_type=dt))
    c("argmax zero axis", lambda: tf.math.argmax(tf.zeros([2, 0]), 1))
    c("argmax zero other axis", lambda: tf.math.argmax(tf.zeros([2, 0]), 0))
    c("argmax scalar", lambda: tf.math.argmax(tf.constant(1.0)))
    c("argmax axis None", lambda: tf.math.argmax(x(), None))
    c("reduce_max empty", lambda: tf.reduce_max(tf.zeros([0, 2]), 0))
    c("reduce_mean empty", lambda: tf.reduce_mean(tf.zeros([0, 2]), 0))
    c("reduce_mean int empty", lambda: tf.reduce_mean(tf.zeros([0, 2], tf.int32), 0))
    c("cumsum scalar", lambda: tf.math.cumsum(tf.constant(2.0)))
    c("cumsum scalar axis 0", lambda: tf.math.cumsum(tf.constant(2.0), 0))
    c("softmax scalar", lambda: tf.nn.softmax(tf.constant(2.0)))
    c("softmax int", lambda: tf.nn.softmax(tf.constant([1, 2])))
    c("log_softmax axis list", lambda: tf.nn.log_softmax(x(), [1]))
    c("l2_normalize int", lambda: tf.math.l2_normalize(tf.constant([3, 4])))
    for name, f in forms(1):
        c(f"argmax axis {name}", lambda f=f: tf.math.argmax(x(), f(tf)))
        c(f"cumsum axis {name}", lambda f=f: tf.math.cumsum(x(), f(tf)))
        c(f"reduce_sum axis {name}", lambda f=f: tf.reduce_sum(x(), f(tf)))
        c(f"reduce_max axis {name}", lambda f=f: tf.reduce_max(x(), f(tf)))
        c(f"reduce_any axis {name}", lambda f=f: tf.reduce_any(x() > 1.0, f(tf)))
        c(f"l2_normalize axis {name}", lambda f=f: tf.math.l2_normalize(x(), f(tf)))
        if name != "t uint64":   # TF 2.21 aborts eagerly (a CHECK failure)
            c(f"softmax axis {name}", lambda f=f: tf.nn.softmax(x(), f(tf)))
        c(f"expand_dims axis {name}", lambda f=f: tf.expand_dims(x(), f(tf)))
    for ax in (-5, -4, -1, 3, 4):
        c(f"expand_dims {ax}", lambda ax=ax: tf.expand_dims(x(), ax))
    for ax in (-4, -3, 0, 2, 3, [0, 0]):
        c(f"squeeze {ax}", lambda ax=ax: tf.squeeze(tf.zeros([1, 2, 1]), ax))
    return c.out


program("v-axis", _axis)


# -- v-datadt: data arguments across TF's dtypes ---------------------------------------------------------------------
def _datadt(dt: str) -> Callable[[Any], dict[str, Any]]:
    def run(tf: Any) -> dict[str, Any]:
        c = Cases(tf, f"v-datadt-{dt}")
        x = lambda: data(tf, dt, (3, 4), f"v-datadt-{dt}")  # noqa: E731
        v = lambda: data(tf, dt, (4,), f"v-datadt-{dt}-v")  # noqa: E731
        c("reduce_sum", lambda: tf.reduce_sum(x(), 1))
        c("reduce_prod", lambda: tf.reduce_prod(x(), 0))
        c("reduce_max", lambda: tf.reduce_max(x(), 1))
        c("reduce_min", lambda: tf.reduce_min(x(), 0))
        c("reduce_mean", lambda: tf.reduce_mean(x(), 1))
        c("reduce_any", lambda: tf.reduce_any(x(), 1))
        c("reduce_all", lambda: tf.reduce_all(x(), 0))
        c("reduce_logsumexp", lambda: tf.reduce_logsumexp(x(), 1))
        c("reduce_euclidean_norm", lambda: tf.math.reduce_euclidean_norm(x(), 1))
        c("argmax", lambda: tf.math.argmax(x(), 1))
        c("argmin", lambda: tf.math.argmin(x(), 0))
        c("cumsum", lambda: tf.math.cumsum(x(), 1))
        c("cumprod", lambda: tf.math.cumprod(x(), 0, exclusive=True))
        c("cumulative_logsumexp", lambda: tf.math.cumulative_logsumexp(x(), 1))
        c("top_k", lambda: tf.math.top_k(v(), 2))
        c("sort", lambda: tf.sort(v()))
        c("argsort", lambda: tf.argsort(v()))
        c("matmul", lambda: tf.matmul(x(), x(), transpose_b=True))
        c("matvec", lambda: tf.linalg.matvec(x(), v()))
        c("tensordot", lambda: tf.tensordot(x(), v(), 1))
        c("mirror_pad reflect", lambda: tf.pad(x(), [[1, 1], [0, 2]], "REFLECT"))
        c("mirror_pad symmetric", lambda: tf.pad(x(), [[0, 3], [1, 0]], "SYMMETRIC"))
        c("pad constant", lambda: tf.pad(x(), [[1, 0], [0, 1]]))
        c("tile", lambda: tf.tile(x(), [1, 2]))
        c("reverse", lambda: tf.reverse(x(), [1]))
        c("roll", lambda: tf.roll(x(), 1, 1))
        c("transpose", lambda: tf.transpose(x()))
        c("transpose conjugate", lambda: tf.transpose(x(), conjugate=True))
        c("concat", lambda: tf.concat([x(), x()], 0))
        c("stack", lambda: tf.stack([v(), v()], 1))
        c("split", lambda: tf.split(x(), 2, 1))
        c("gather", lambda: tf.gather(x(), [2, 0], axis=1))
        c("gather_nd", lambda: tf.gather_nd(x(), [[1, 2], [0, 0]]))
        c("scatter_nd", lambda: tf.scatter_nd([[1], [3]], v()[:2], [5]))
        c("scatter_nd duplicates", lambda: tf.scatter_nd([[1], [1]], v()[:2], [3]))
        for op in ("update", "add", "sub", "min", "max"):
            c(f"tensor_scatter_nd_{op}", lambda op=op: getattr(tf, f"tensor_scatter_nd_{op}")(v(), [[1], [3]],
                                                                                               v()[1:3]))
        for op in ("sum", "max", "min", "prod", "mean"):
            c(f"segment_{op}", lambda op=op: getattr(tf.math, f"segment_{op}")(x(), [0, 0, 1]))
        for op in ("sum", "max", "min", "prod", "mean", "sqrt_n"):
            c(f"unsorted_segment_{op}", lambda op=op: getattr(tf.math, f"unsorted_segment_{op}")(x(), [1, 0, 1], 3))
        c("one_hot on value", lambda: tf.one_hot([0, 2], 3, on_value=v()[0], off_value=v()[1]))
        c("where", lambda: tf.where([True, False, True, False], v(), v()[::-1]))
        c("where one arg", lambda: tf.where(v()))
        c("boolean_mask", lambda: tf.boolean_mask(v(), [True, False, True, True]))
        c("fill", lambda: tf.fill([2, 1], v()[0]))
        c("zeros", lambda: tf.zeros([2], dtype=dt))
        c("ones", lambda: tf.ones([2], dtype=dt))
        c("zeros_like", lambda: tf.zeros_like(v()))
        c("ones_like", lambda: tf.ones_like(v()))
        c("range", lambda: tf.range(1, 7, 2, dtype=dt))
        c("linspace", lambda: tf.linspace(tf.constant(1, dt) if dt not in ("string",) else "1",
                                          tf.constant(5, dt) if dt not in ("string",) else "5", 3))
        c("l2_normalize", lambda: tf.math.l2_normalize(v()))
        c("softmax", lambda: tf.nn.softmax(v()))
        c("log_softmax", lambda: tf.nn.log_softmax(v()))
        c("clip_by_value", lambda: tf.clip_by_value(v(), v()[1], v()[2]))
        c("maximum", lambda: tf.maximum(v(), v()[::-1]))
        c("floordiv", lambda: tf.math.floordiv(v(), v()[::-1]))
        c("unique", lambda: tf.unique(v()))
        c("bincount weights", lambda: tf.math.bincount([0, 1, 1, 3], weights=v()))
        c("max_pool", lambda: tf.nn.max_pool2d(tf.reshape(x(), [1, 3, 4, 1]), 2, 1, "VALID"))
        c("avg_pool", lambda: tf.nn.avg_pool2d(tf.reshape(x(), [1, 3, 4, 1]), 2, 1, "VALID"))
        c("conv2d", lambda: tf.nn.conv2d(tf.reshape(x(), [1, 3, 4, 1]), tf.reshape(v(), [2, 2, 1, 1]), 1, "VALID"))
        c("reshape", lambda: tf.reshape(x(), [-1]))
        c("strided_slice", lambda: x()[::-1, 1:3])
        c("slice", lambda: tf.slice(x(), [1, 1], [2, -1]))
        c("expand_dims", lambda: tf.expand_dims(v(), -1))
        c("broadcast_to", lambda: tf.broadcast_to(v(), [2, 4]))
        c("reverse_sequence", lambda: tf.reverse_sequence(x(), [2, 3, 1], 1, 0))
        c("diag", lambda: tf.linalg.diag(v()))
        c("matrix_diag_part", lambda: tf.linalg.diag_part(x()))
        c("batch_to_space", lambda: tf.batch_to_space(tf.reshape(x(), [4, 1, 3, 1]), [2, 2], [[0, 0], [0, 0]]))
        c("space_to_depth", lambda: tf.nn.space_to_depth(tf.reshape(tf.concat([v(), v()], 0), [1, 2, 4, 1]), 2))
        return c.out
    return run


for _dt in DTYPES:
    program(f"v-datadt-{_dt}", _datadt(_dt))


# -- v-misc: matmul shapes, top_k, pools, range/linspace, fill, where/boolean_mask --------------------------------
def _misc(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "v-misc")
    m = lambda *s: tf.reshape(tf.range(float(np.prod(s))), s)  # noqa: E731
    for a, b, kw in (((2, 3), (3, 4), {}), ((2, 3), (4, 3), {}), ((2, 3), (4, 3), {"transpose_b": True}),
                     ((3, 2), (3, 4), {"transpose_a": True}), ((3, 2), (4, 3), {"transpose_a": True,
                                                                                "transpose_b": True}),
                     ((3,), (3, 4), {}), ((2, 3), (3,), {}), ((2, 2, 3), (3, 4), {}), ((2, 2, 3), (3, 2, 3, 4), {}),
                     ((2, 2, 3), (3, 3, 4), {}), ((1, 2, 3), (5, 3, 4), {}), ((2, 0), (0, 3), {}),
                     ((2, 3), (3, 4), {"adjoint_a": True}), ((2, 3), (3, 4), {"transpose_a": True, "adjoint_a": True}),
                     ((2, 3), (2, 3), {"b_is_sparse": True, "transpose_b": True}), ((), (), {})):
        c(f"matmul {a} {b} {sorted(kw)}", lambda a=a, b=b, kw=kw: tf.matmul(m(*a), m(*b), **kw))
    c("matmul dtypes", lambda: tf.matmul(m(2, 3), tf.ones([3, 2], tf.float64)))
    c("batch_matmul mismatch", lambda: tf.linalg.matmul(m(2, 2, 3), m(3, 3, 2)))
    for k in (-1, 0, 1, 4, 5):
        c(f"top_k {k}", lambda k=k: tf.math.top_k(m(2, 4), k))
    c("top_k scalar", lambda: tf.math.top_k(tf.constant(1.0), 1))
    c("top_k k rank 1", lambda: tf.math.top_k(m(2, 4), [1]))
    for name, f in forms(2):
        c(f"top_k k {name}", lambda f=f: tf.math.top_k(m(2, 4), f(tf)))
    img = lambda: m(1, 4, 4, 2)  # noqa: E731
    for ks, st in ((2, 1), (0, 1), (2, 0), (-1, 1), (5, 1), (4, 4), ([1, 2, 2, 1], [1, 1, 1, 1]),
                   ([1, 0, 2, 1], [1, 1, 1, 1]), ([2, 2, 2], 1), ([1, 2], [1, 2, 1]), ([1, 2, 2, 1, 1], 1)):
        if ks != 5:   # a VALID window past the input aborts TF 2.21's process (a CHECK failure), eagerly
            c(f"max_pool2d {ks} {st} VALID", lambda ks=ks, st=st: tf.nn.max_pool2d(img(), ks, st, "VALID"))
        c(f"avg_pool2d {ks} {st} SAME", lambda ks=ks, st=st: tf.nn.avg_pool2d(img(), ks, st, "SAME"))
    for ks, st in (([1, 2, 2, 1], [2, 1, 1, 1]), ([2, 2, 2, 1], [1, 1, 1, 1]), ([1, 2, 2, 1], [1, 1, 1, 2]),
                   ([1, 2, 2, 2], [1, 1, 1, 1]), ([1, 2, 2, 1], [1, 2, 2, 2]), ([1, 1, 1, 2], [1, 1, 1, 2])):
        c(f"max_pool2d entries {ks} {st}", lambda ks=ks, st=st: tf.nn.max_pool2d(img(), ks, st, "VALID"))
        c(f"avg_pool2d entries {ks} {st}", lambda ks=ks, st=st: tf.nn.avg_pool2d(img(), ks, st, "VALID"))
    for op in ("floordiv", "floormod", "truncatediv", "truncatemod"):
        for dt in ("int32", "int64", "uint8"):
            c(f"{op} {dt} empty by zero", lambda op=op, dt=dt: getattr(tf.math, op)(tf.zeros([0, 2], dt),
                                                                                   tf.zeros([2], dt)))
            c(f"{op} {dt} by zero", lambda op=op, dt=dt: getattr(tf.math, op)(tf.ones([2], dt), tf.zeros([2], dt)))
            c(f"{op} {dt} scalar zero", lambda op=op, dt=dt: getattr(tf.math, op)(tf.zeros([0], dt), tf.constant(0, dt)))
    c("max_pool2d padding lower", lambda: tf.nn.max_pool2d(img(), 2, 1, "valid"))
    c("max_pool2d bad padding", lambda: tf.nn.max_pool2d(img(), 2, 1, "FULL"))
    c("max_pool2d rank 3", lambda: tf.nn.max_pool2d(m(4, 4, 2), 2, 1, "VALID"))
    fl = lambda: m(1, 2, 2, 2, 1)  # noqa: E731
    for st, dl in ((1, 1), (0, 1), (-1, 1), (1, 0), (1, -1), (2, 2), (5, 1), (1, 5)):
        c(f"conv2d strides {st} dilations {dl}", lambda st=st, dl=dl: tf.nn.conv2d(img(), m(2, 2, 2, 1), st, "VALID",
                                                                                  dilations=dl))
    c("conv2d stride and dilation", lambda: tf.nn.conv2d(img(), m(2, 2, 2, 1), 2, "SAME", dilations=2))
    c("conv2d channels mismatch", lambda: tf.nn.conv2d(img(), m(2, 2, 3, 1), 1, "VALID"))
    c("conv2d filter too big", lambda: tf.nn.conv2d(img(), m(5, 2, 2, 1), 1, "VALID"))
    c("conv3d stride 0", lambda: tf.nn.conv3d(m(1, 3, 3, 3, 1), fl(), [1, 0, 1, 1, 1], "VALID"))
    for args in ((0, 5, 1), (5, 0, 1), (5, 0, -1), (0, 5, 0), (0, 5, -1), (0, 0, 1), (1.5, 4, 0.5), (0, 5, 2.5),
                 (4,), (-3,), (0.0,), (5, 1, -2)):
        c(f"range {args}", lambda args=args: tf.range(*args))
    c("range int64 limit", lambda: tf.range(tf.constant(4, tf.int64)))
    c("range mixed", lambda: tf.range(tf.constant(1, tf.int64), tf.constant(4, tf.int32)))
    c("range dtype float from ints", lambda: tf.range(1, 4, dtype=tf.float32))
    c("range dtype int from floats", lambda: tf.range(1.5, 4.0, dtype=tf.int32))
    c("range rank 1", lambda: tf.range([3]))
    for num in (-1, 0, 1, 2, 5):
        c(f"linspace num {num}", lambda num=num: tf.linspace(1.0, 2.0, num))
    c("linspace reversed", lambda: tf.linspace(2.0, -1.0, 4))
    c("linspace int", lambda: tf.linspace(1, 4, 4))
    c("linspace vector", lambda: tf.linspace([0.0, 1.0], [2.0, 5.0], 3))
    c("linspace vector axis -1", lambda: tf.linspace([0.0, 1.0], [2.0, 5.0], 3, axis=-1))
    c("linspace vector axis 2", lambda: tf.linspace([0.0, 1.0], [2.0, 5.0], 3, axis=2))
    for name, f in forms(3):
        c(f"linspace num {name}", lambda f=f: tf.linspace(0.0, 1.0, f(tf)))
        c(f"range limit {name}", lambda f=f: tf.range(f(tf)))
    for dims in ([2, -1], [0, 3], [], [-1], [2, 0, 2]):
        c(f"fill {dims}", lambda dims=dims: tf.fill(dims, 1.5))
        c(f"zeros {dims}", lambda dims=dims: tf.zeros(dims))
        c(f"ones {dims}", lambda dims=dims: tf.ones(dims, tf.int32))
    c("fill value rank 1", lambda: tf.fill([2], [1.0]))
    c("fill dims rank 2", lambda: tf.fill([[2]], 1.0))
    for name, f in forms([2, 3]):
        c(f"fill dims {name}", lambda f=f: tf.fill(f(tf), 7))
        c(f"zeros dims {name}", lambda f=f: tf.zeros(f(tf)))
    v = lambda: tf.constant([1.0, 2.0, 3.0])  # noqa: E731
    for cond, a, b in (([True, False, True], (3,), (3,)), ([True, False], (3,), (3,)), ([[True], [False]], (3,), (2, 1)),
                       (True, (3,), (3,)), ([True, False, True], (2, 3), (3,)), ([True, False, True], (3,), (1,))):
        c(f"where {cond} {a} {b}", lambda cond=cond, a=a, b=b: tf.where(cond, m(*a), m(*b)))
    c("where int cond", lambda: tf.where([1, 0, 1], v(), v()))
    c("where x only", lambda: tf.where([True, False], x=v()))
    c("where one arg float", lambda: tf.where([[0.0, 1.5], [-2.0, 0.0]]))
    c("where one arg scalar", lambda: tf.where(True))
    for mask in ([True, False, True], [True, False], [True, False, True, True], True, [[True, False, True]],
                 [1, 0, 1]):
        c(f"boolean_mask {mask}", lambda mask=mask: tf.boolean_mask(v(), mask))
    for mask, ax in (([True, False, True], 1), ([True, False, True], -1), ([True, False], 0), ([True, False], 1),
                     ([[True, False, True], [False, True, True]], 0), ([True, False, True], 2)):
        c(f"boolean_mask 2-d {mask} axis {ax}", lambda mask=mask, ax=ax: tf.boolean_mask(m(2, 3), mask, axis=ax))
    c("boolean_mask zero", lambda: tf.boolean_mask(tf.zeros([0, 2]), tf.zeros([0], tf.bool)))
    return c.out


program("v-misc", _misc)
