"""Index arguments by rule: negative, last, past-the-end, empty, scalar, rank-2 and wider- or narrower-dtype indices
through every op that takes them (sixty-seventh session, ixsweep67; test_ixsweep67.py).

What is crossed (batch 90's survivors sparse-read-negative-index-wraps and variable-scatter-scalar-updates-refused:
the suite fed indices in range and past the end, rarely negative, int64, empty, rank-0 or rank-2): gather (axis 0,
-1, batch_dims), gather_nd, batch_gather, embedding_lookup (one and two shards, mod and div), tf.experimental.numpy
take/take_along_axis, keras.ops take/take_along_axis; tensor_scatter_nd_*, scatter_nd; a tf.Variable's sparse_read,
gather_nd and scatter_* / scatter_nd_* (scalar updates, duplicates, empty indices) eagerly, in a tf.function and on a
MirroredVariable; one_hot, keras.ops one_hot/multi_hot; segment and unsorted segment ops (unsorted, negative ids),
sparse_segment_*; strided_slice and __getitem__ (negative begin/end/stride, ends out of range, index tensors of
int64), roll, reverse, reverse_sequence; keras.ops slice/slice_update/scatter/scatter_update; optimizers applying
IndexedSlices with duplicate indices — × index dtype int32/int64 (int16/uint8 where an op takes or refuses them) ×
index kind.

Each case observes, as one list: the eager result (dtype, shape and values — floats as the hex of their value — per
output, or "raised <class>"), the same function traced with tf.function called on the same tensors (or its refusal's
class), and for `grad` cases the GradientTape gradient of a weighted sum of the outputs with respect to the first
input, an IndexedSlices as its values, indices and dense_shape. Nothing is host-dependent (gathers, scatters of
small sums). `python -m simdist.conformance.suite.test_ixsweep67 --record` rewrites ixsweep67_reference.json.gz."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "ixsweep67_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-seventh session ... ixsweep67"). x-variable's getitem: an index tensor a tf.function takes as an argument
#: is unknown to TF's graph (StridedSlice's kernel refuses it as the call runs, InvalidArgumentError), where simdist's
#: slice key holds its value and the shape function's ValueError fires at trace. The rest are traced gradients
#: whose failing forward TF prunes or whose gradient graph TF refuses as it is built: a batch_dims gather's gradient
#: flattened over the batches (an index past its batch lands in the next one), scatter_nd's rank-1-indices refusal
#: made before dispatch (no op for the tape to record), gather_nd with batch_dims and depth-0 indices (TF skips the
#: batch check), segment_max's and slice's gradient graphs (Equal's broadcast and Pad's negative paddings, ValueError
#: at build, where simdist's stand-ins run them at call time).
OPEN: dict[str, tuple[str, ...]] = {
    "x-gather": ("gather batch_dims=1 past int64", "gather_nd batch_dims=1 empty-last int16",
                 "gather_nd batch_dims=1 empty-last int32", "gather_nd batch_dims=1 empty-last int64"),
    "x-scatter": ("scatter_nd scalar int32", "scatter_nd scalar int64"),
    "x-segment": ("segment_max short int32",),
    "x-slice": ("keras slice [-1, 0] [1, 2]", "keras slice [4, 3] [2, 2]", "keras slice int64 [-1, 0] [1, 2]",
                "keras slice int64 [4, 3] [2, 2]", "tf.slice neg begin", "tf.slice past"),
    "x-variable": ("getitem past int32 traced", "getitem past int64 traced", "getitem scalar-past int32 traced",
                   "getitem scalar-past int64 traced"),
}

program = registrar(REF, OPEN)

Maker = Callable[[Any], Callable[..., Any]]
#: program -> [(case key, op maker(tf) -> f(*tensors), inputs, options)]
CASES: dict[str, list[tuple[str, Maker, tuple[Any, ...], dict[str, Any]]]] = {}


def _cls(e: BaseException) -> str:
    return type(e).__name__


def value(tf: Any, x: Any) -> Any:
    """One output: [dtype, shape, values] (floats as the hex of their value), an IndexedSlices by its parts."""
    if x is None:
        return None
    if isinstance(x, tf.IndexedSlices):
        ds = None if x.dense_shape is None else value(tf, x.dense_shape)
        return ["IndexedSlices", value(tf, x.values), value(tf, x.indices), ds]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        vals: Any = [float(v).hex() for v in a.astype(np.float64).ravel()]
    elif a.dtype.kind in "SO":
        vals = [str(v) for v in a.ravel()]
    else:
        vals = a.ravel().tolist()
    return [a.dtype.name, list(a.shape), vals]


def values(tf: Any, v: Any) -> list[Any]:
    """Every output of a nest (IndexedSlices kept whole)."""
    return [value(tf, x) for x in tf.nest.flatten(v, expand_composites=False)]


def _weighted_sum(tf: Any, y: Any) -> Any:
    """sum(y * (1, 2, 3, ...)) over every output: a gradient that shows which output element went where."""
    total = []
    for t in tf.nest.flatten(y):
        t = tf.cast(t, tf.float32)
        w = tf.reshape(tf.cast(tf.range(1, tf.size(t) + 1), tf.float32), tf.shape(t))
        total.append(tf.reduce_sum(t * w))
    return tf.add_n(total)


def observe(tf: Any, f: Callable[..., Any], inputs: tuple[Any, ...], grad: bool = False,
            traced: bool = True) -> Any:
    """[eager, traced, (eager gradient wrt the first input, traced gradient)]."""
    ts = [tf.constant(a) for a in inputs]
    obs: list[Any] = []
    try:
        obs.append(values(tf, f(*ts)))
    except Exception as e:  # noqa: BLE001 - the class is the observation
        obs.append(f"raised {_cls(e)}")
    if traced:
        try:
            obs.append(values(tf, tf.function(f, autograph=False)(*ts)))
        except Exception as e:  # noqa: BLE001
            obs.append(f"raised {_cls(e)}")
    if grad:
        def g(*xs: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(xs[0])
                s = _weighted_sum(tf, f(*xs))
            return tape.gradient(s, xs[0])
        for fn in (g, tf.function(g, autograph=False)):
            try:
                obs.append(values(tf, fn(*ts)))
            except Exception as e:  # noqa: BLE001
                obs.append(f"raised {_cls(e)}")
    return obs


_KEYS: set[tuple[str, str]] = set()


def case(prog: str, key: str, make: Maker, *inputs: Any, **opts: Any) -> None:
    """Register one case of program `prog`."""
    assert (prog, key) not in _KEYS, f"{prog}: case {key!r} twice"
    _KEYS.add((prog, key))
    CASES.setdefault(prog, []).append((key, make, tuple(inputs), opts))


def run_program(name: str, tf: Any, mk: Any) -> dict[str, Any]:
    """Every case of program `name`, by key."""
    return {key: observe(tf, make(tf), inputs, **opts) for key, make, inputs, opts in CASES[name]}


def u(shape: tuple[int, ...], dt: str = "float32", name: str = "x") -> np.ndarray:
    """Seeded uniform values of `shape` in [-2, 2) (integers: in [-5, 5))."""
    r = rng(f"ixsweep67/{name}{shape}{dt}")
    if dt.startswith("int"):
        return r.randint(-5, 5, shape).astype(dt)
    return r.uniform(-2, 2, shape).astype(dt)


#: index kinds against a first dimension of 5: name -> Python value (wrapped in each dtype)
KINDS: dict[str, Any] = {
    "in": [0, 2], "last": [4], "neg": [-1], "neg-first": [0, -5], "past": [5], "far": [1, 7], "empty": [],
    "scalar": 2, "scalar-neg": -1, "scalar-past": 5, "rank2": [[0, 1], [4, 2]], "rank2-neg": [[0, -1], [3, 2]],
    "dup": [1, 1, 3],
}
DTYPES = ("int32", "int64", "int16", "uint8")


def idx(kind: str, dt: str) -> np.ndarray | None:
    """The kind's indices of dtype `dt` (None: not representable, a negative index of an unsigned dtype)."""
    a = np.asarray(KINDS[kind], dtype=np.int64)
    if dt.startswith("u") and (a < 0).any():
        return None
    return a.astype(dt).reshape(a.shape)


def kind_dtypes(narrow: bool = True) -> list[tuple[str, str, np.ndarray]]:
    out = []
    for k in KINDS:
        for dt in DTYPES if narrow else DTYPES[:2]:
            a = idx(k, dt)
            if a is not None:
                out.append((k, dt, a))
    return out


P = u((5, 3), name="p")
P64 = u((5, 3), "float64", name="p")
PI = u((5, 3), "int32", name="pi")
P3 = u((2, 5, 3), name="p3")


# -- x-gather: gather-like reads ------------------------------------------------------------------------------------
for _k, _dt, _i in kind_dtypes():
    _main = _dt in ("int32", "int64")
    case("x-gather", f"gather axis=0 {_k} {_dt}", lambda tf: (lambda p, i: tf.gather(p, i)), P, _i, grad=_main)
    case("x-gather", f"gather axis=-2 int {_k} {_dt}", lambda tf: (lambda p, i: tf.gather(p, i, axis=-2)), PI, _i)
    case("x-gather", f"gather axis=-1 {_k} {_dt}", lambda tf: (lambda p, i: tf.gather(tf.transpose(p), i, axis=-1)),
         P, _i, grad=_main)
    case("x-gather", f"gather_nd {_k} {_dt}", lambda tf: (lambda p, i: tf.gather_nd(p, tf.expand_dims(i, -1))), P,
         _i, grad=_main)
    case("x-gather", f"embedding_lookup {_k} {_dt}", lambda tf: (lambda p, i: tf.nn.embedding_lookup(p, i)), P, _i,
         grad=_main)
    if not _main:
        continue
    case("x-gather", f"gather_nd pairs {_k} {_dt}",
         lambda tf: (lambda p, i: tf.gather_nd(p, tf.stack([i, tf.zeros_like(i)], -1))), P, _i, grad=True)
    case("x-gather", f"gather_nd scalar-last {_k} {_dt}",
         lambda tf: (lambda p, i: tf.gather_nd(p, tf.reshape(i, [-1, 1])[:1, :])), P, _i)
    for _ps in ("mod", "div"):
        case("x-gather", f"embedding_lookup 2 shards {_ps} {_k} {_dt}",
             lambda tf, ps=_ps: (lambda p, i: tf.compat.v1.nn.embedding_lookup([p[:3], p[3:]], i,
                                                                               partition_strategy=ps)), P, _i)
    case("x-gather", f"tnp.take {_k} {_dt}",
         lambda tf: (lambda p, i: tf.experimental.numpy.take(p, i, axis=0)), P, _i)
    case("x-gather", f"tnp.take flat {_k} {_dt}", lambda tf: (lambda p, i: tf.experimental.numpy.take(p, i)), P, _i)
    case("x-gather", f"keras take {_k} {_dt}", lambda tf: (lambda p, i: tf.keras.ops.take(p, i, axis=0)), P, _i)
    case("x-gather", f"keras take axis=-1 {_k} {_dt}",
         lambda tf: (lambda p, i: tf.keras.ops.take(tf.transpose(p), i, axis=-1)), P, _i)
for _dt in ("int32", "int64", "int16", "uint8"):
    _bi = {"in": [[0, 4], [2, 3]], "neg": [[0, -1], [2, 3]], "past": [[0, 5], [2, 3]], "empty": np.zeros((2, 0)),
           "rank3": [[[0], [4]], [[1], [2]]]}
    for _k, _v in _bi.items():
        if _dt == "uint8" and _k == "neg":
            continue
        _i = np.asarray(_v).astype(_dt)
        case("x-gather", f"gather batch_dims=1 {_k} {_dt}",
             lambda tf: (lambda p, i: tf.gather(p, i, batch_dims=1)), P3, _i, grad=_dt == "int64")
        case("x-gather", f"gather batch_dims=-1 axis=1 {_k} {_dt}",
             lambda tf: (lambda p, i: tf.gather(p, i, axis=1, batch_dims=-1)), P3, _i)
        case("x-gather", f"batch_gather {_k} {_dt}",
             lambda tf: (lambda p, i: tf.compat.v1.batch_gather(p, i)), P3, _i)
        if _dt in ("int32", "int64") and _k != "rank3":
            case("x-gather", f"tnp.take_along_axis {_k} {_dt}",
                 lambda tf: (lambda p, i: tf.experimental.numpy.take_along_axis(
                     p, tf.expand_dims(i, -1), axis=1)), P3, _i)
            case("x-gather", f"keras take_along_axis {_k} {_dt}",
                 lambda tf: (lambda p, i: tf.keras.ops.take_along_axis(p, tf.expand_dims(i, -1), axis=1)), P3, _i)
            case("x-gather", f"take_along_axis last {_k} {_dt}",
                 lambda tf: (lambda p, i: tf.experimental.numpy.take_along_axis(
                     tf.transpose(p, [0, 2, 1]), tf.expand_dims(i, 1), axis=-1)), P3, _i)
for _k, _v in {"in": [[0, 1], [4, 2]], "neg": [[0, -1]], "past": [[5, 0]], "col-past": [[0, 3]],
               "full": [[1, 2, 0]], "rank0-row": [3], "empty-rows": np.zeros((0, 2)), "empty-last": np.zeros((2, 0)),
               "rank3": [[[0, 1]], [[4, 2]]]}.items():
    for _dt in ("int32", "int64", "int16"):
        case("x-gather", f"gather_nd matrix {_k} {_dt}", lambda tf: (lambda p, i: tf.gather_nd(p, i)), P,
             np.asarray(_v).astype(_dt), grad=_dt == "int32")
        case("x-gather", f"gather_nd batch_dims=1 {_k} {_dt}",
             lambda tf: (lambda p, i: tf.gather_nd(p, i[:, :1] if len(i.shape) == 2 else i, batch_dims=1)),
             P3[:, :, :] if len(np.asarray(_v).shape) != 2 else P3[0], np.asarray(_v).astype(_dt))


# -- x-scatter: tensor_scatter_nd_*, scatter_nd ---------------------------------------------------------------------
def _upd(i: np.ndarray, row: int = 3, name: str = "u") -> np.ndarray:
    return u(tuple(i.shape) + (row,), name=name)


for _k, _dt, _i in kind_dtypes():
    _main = _dt in ("int32", "int64")
    _u = _upd(_i)
    for _op in ("update", "add", "sub", "max", "min") if _main else ("update",):
        case("x-scatter", f"tensor_scatter_nd_{_op} {_k} {_dt}",
             lambda tf, op=_op: (lambda p, i, v: getattr(tf, f"tensor_scatter_nd_{op}")(p, tf.expand_dims(i, -1), v)),
             P, _i, _u, grad=_op in ("update", "add") and _main)
    case("x-scatter", f"scatter_nd {_k} {_dt}",
         lambda tf: (lambda v, i: tf.scatter_nd(tf.expand_dims(i, -1), v, [5, 3])), _u, _i, grad=_main)
    if _main:
        case("x-scatter", f"tensor_scatter_nd_update scalar rows {_k} {_dt}",
             lambda tf: (lambda p, i, v: tf.tensor_scatter_nd_update(
                 p, tf.stack([tf.reshape(i, [-1]), tf.ones_like(tf.reshape(i, [-1]))], -1), v)),
             P, _i, u((int(np.size(_i)),), name="us"))
        case("x-scatter", f"tensor_scatter_nd_add int {_k} {_dt}",
             lambda tf: (lambda p, i, v: tf.tensor_scatter_nd_add(p, tf.expand_dims(i, -1), v)),
             PI, _i, u(tuple(_i.shape) + (3,), "int32", name="ui"))
        case("x-scatter", f"keras scatter {_k} {_dt}",
             lambda tf: (lambda i, v: tf.keras.ops.scatter(tf.expand_dims(i, -1), v, (5, 3))), _i, _u)
        case("x-scatter", f"keras scatter_update {_k} {_dt}",
             lambda tf: (lambda p, i, v: tf.keras.ops.scatter_update(p, tf.expand_dims(i, -1), v)), P, _i, _u)
for _name, _i, _v in (("dup update", [[1], [1], [1]], [1.0, 2.0, 3.0]), ("dup update 2d", [[1, 1], [1, 1]], [5.0, 6.0]),
                      ("dup max", [[2], [2]], [-1.0, 4.0]), ("wrong updates", [[1], [2]], [1.0, 2.0, 3.0]),
                      ("scalar updates", [[1], [2]], 7.0), ("index too long", [[1, 1, 1]], [1.0])):
    for _op in ("update", "add", "max", "min"):
        case("x-scatter", f"tensor_scatter_nd_{_op} {_name}",
             lambda tf, op=_op: (lambda p, i, v: getattr(tf, f"tensor_scatter_nd_{op}")(
                 p, i, v if len(v.shape) == 0 or len(i.shape) == 2 and i.shape[1] == 2 else
                 tf.reshape(tf.repeat(v, 3), [-1, 3]) if i.shape[1] == 1 else v)),
             np.zeros((5, 3), np.float32), np.asarray(_i, np.int32), np.asarray(_v, np.float32))


# -- x-variable: a tf.Variable's reads and row scatters ------------------------------------------------------------
def _var_case(tf: Any, body: Callable[[Any, Any], Any], i: np.ndarray, traced: bool) -> Any:
    """[result, the variable after] of body(v, indices) on a fresh (5, 3) float32 variable."""
    v = tf.Variable(P)
    it = tf.constant(i)
    try:
        r = tf.function(body, autograph=False)(v, it) if traced else body(v, it)
        out: Any = values(tf, r) if not isinstance(r, tf.Variable) else "the variable"
    except Exception as e:  # noqa: BLE001
        out = f"raised {_cls(e)}"
    return [out, value(tf, v)]


VAR_BODIES: dict[str, Callable[[Any], Callable[[Any, Any], Any]]] = {
    "sparse_read": lambda tf: (lambda v, i: v.sparse_read(i)),
    "gather": lambda tf: (lambda v, i: tf.gather(v, i)),
    "gather_nd": lambda tf: (lambda v, i: v.gather_nd(tf.expand_dims(i, -1))),
    "embedding_lookup": lambda tf: (lambda v, i: tf.nn.embedding_lookup(v, i)),
    "getitem": lambda tf: (lambda v, i: v[i[0] if len(i.shape) else i] if i.shape.num_elements() else v[0]),
}
for _op in ("update", "add", "sub", "mul", "div", "max", "min"):
    VAR_BODIES[f"scatter_{_op}"] = lambda tf, op=_op: (lambda v, i: getattr(v, f"scatter_{op}")(
        tf.IndexedSlices(tf.fill(tf.concat([tf.shape(i), [3]], 0), 1.5), i)).read_value())
    VAR_BODIES[f"scatter_{_op} scalar"] = lambda tf, op=_op: (lambda v, i: getattr(v, f"scatter_{op}")(
        tf.IndexedSlices(tf.constant(2.0), i)).read_value())
for _op in ("update", "add", "sub"):
    VAR_BODIES[f"scatter_nd_{_op}"] = lambda tf, op=_op: (lambda v, i: getattr(v, f"scatter_nd_{op}")(
        tf.expand_dims(i, -1), tf.fill(tf.concat([tf.shape(i), [3]], 0), 0.5)).read_value())
    VAR_BODIES[f"scatter_nd_{_op} scalar"] = lambda tf, op=_op: (lambda v, i: getattr(v, f"scatter_nd_{op}")(
        tf.expand_dims(i, -1), tf.constant(0.5)).read_value())
VAR_BODIES["v1 scatter_update scalar"] = lambda tf: (lambda v, i: tf.compat.v1.scatter_update(v, i, 3.0))
VAR_BODIES["v1 scatter_add rows"] = lambda tf: (lambda v, i: tf.compat.v1.scatter_add(
    v, i, tf.ones(tf.concat([tf.shape(i), [3]], 0))))
VAR_BODIES["v1 scatter_nd_update scalar"] = lambda tf: (lambda v, i: tf.compat.v1.scatter_nd_update(
    v, tf.expand_dims(i, -1), 3.0))
VAR_BODIES["scatter_update wrong rank"] = lambda tf: (lambda v, i: v.scatter_update(
    tf.IndexedSlices(tf.ones([3]), i)).read_value())
VAR_BODIES["batch_scatter_update"] = lambda tf: (lambda v, i: v.batch_scatter_update(
    tf.IndexedSlices(tf.ones(tf.shape(i)), i)).read_value())


def _variables(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, dt, i in kind_dtypes(narrow=False):
        for name, make in VAR_BODIES.items():
            if name == "batch_scatter_update" and k != "rank2" and k != "rank2-neg":
                continue
            body = make(tf)
            for traced in (False, True):
                out[f"{name} {k} {dt} {'traced' if traced else 'eager'}"] = _var_case(tf, body, i, traced)
    for dt in ("int16", "uint8"):
        for k in ("in", "past"):
            for name in ("sparse_read", "scatter_update", "scatter_nd_update", "gather"):
                out[f"{name} {k} {dt}"] = _var_case(tf, VAR_BODIES[name](tf), idx(k, dt), False)
    # the gradient of a variable's sparse reads
    for k in ("in", "dup", "neg", "rank2", "scalar", "empty"):
        for name in ("sparse_read", "gather", "embedding_lookup", "getitem"):
            v = tf.Variable(P)
            i = tf.constant(idx(k, "int64"))
            try:
                with tf.GradientTape() as tape:
                    s = _weighted_sum(tf, VAR_BODIES[name](tf)(v, i))
                out[f"grad {name} {k}"] = value(tf, tape.gradient(s, v))
            except Exception as e:  # noqa: BLE001
                out[f"grad {name} {k}"] = f"raised {_cls(e)}"
    return out


program("x-variable", _variables)


def _mirrored(tf: Any, mk: Any) -> dict[str, Any]:
    """A MirroredVariable's reads and scatters in cross-replica context and inside strategy.run."""
    s = mk()
    out: dict[str, Any] = {}
    for k in ("in", "last", "neg", "past", "empty", "scalar", "rank2", "dup"):
        for dt in ("int32", "int64"):
            i = idx(k, dt)
            for name in ("sparse_read", "gather", "scatter_update", "scatter_add scalar", "scatter_nd_update",
                         "scatter_max"):
                with s.scope():
                    v = tf.Variable(P)
                body = VAR_BODIES[name](tf)
                try:
                    r = body(v, tf.constant(i))
                    got: Any = values(tf, s.experimental_local_results(r))
                except Exception as e:  # noqa: BLE001
                    got = f"raised {_cls(e)}"
                out[f"{name} {k} {dt}"] = [got, [value(tf, c) for c in s.experimental_local_results(v)]]
            with s.scope():
                v = tf.Variable(P)

            def step(v: Any = v, i: np.ndarray = i) -> Any:
                return v.sparse_read(tf.constant(i))
            try:
                out[f"run sparse_read {k} {dt}"] = values(tf, s.experimental_local_results(s.run(step)))
            except Exception as e:  # noqa: BLE001
                out[f"run sparse_read {k} {dt}"] = f"raised {_cls(e)}"

            def gstep(v: Any = v, i: np.ndarray = i) -> Any:
                with tf.GradientTape() as tape:
                    y = _weighted_sum(tf, tf.gather(v, tf.constant(i)))
                return tape.gradient(y, v)
            try:
                out[f"run grad gather {k} {dt}"] = values(tf, s.experimental_local_results(s.run(gstep)))
            except Exception as e:  # noqa: BLE001
                out[f"run grad gather {k} {dt}"] = f"raised {_cls(e)}"
    return out


program("x-mirrored", _mirrored)


# -- x-onehot: one_hot, keras one_hot / multi_hot ------------------------------------------------------------------
for _k, _v in {"in": [0, 2, 4], "neg": [-1, 0, -3], "past": [5, 7, 1], "empty": [], "scalar": 3, "scalar-neg": -1,
               "rank2": [[0, -1], [5, 2]]}.items():
    for _dt in ("int32", "int64", "int16", "uint8", "int8"):
        if _dt.startswith("u") and "neg" in _k:
            continue
        _i = np.asarray(_v, np.int64).astype(_dt)
        case("x-onehot", f"one_hot {_k} {_dt}", lambda tf: (lambda i: tf.one_hot(i, 5)), _i)
        if _dt in ("int32", "int64"):
            case("x-onehot", f"one_hot axis=0 on=2 off=-1 {_k} {_dt}",
                 lambda tf: (lambda i: tf.one_hot(i, 5, on_value=2, off_value=-1, axis=0)), _i)
            case("x-onehot", f"one_hot depth=0 {_k} {_dt}", lambda tf: (lambda i: tf.one_hot(i, 0)), _i)
            case("x-onehot", f"one_hot depth int64 {_k} {_dt}",
                 lambda tf: (lambda i: tf.one_hot(i, tf.constant(4, tf.int64))), _i, traced=False)
            case("x-onehot", f"keras one_hot {_k} {_dt}", lambda tf: (lambda i: tf.keras.ops.one_hot(i, 5)), _i)
            case("x-onehot", f"keras one_hot axis=0 {_k} {_dt}",
                 lambda tf: (lambda i: tf.keras.ops.one_hot(i, 5, axis=0)), _i)
            case("x-onehot", f"keras multi_hot {_k} {_dt}",
                 lambda tf: (lambda i: tf.keras.ops.multi_hot(i, 5)), _i)


# -- x-segment: segment and unsorted segment ops -------------------------------------------------------------------
_D = u((6, 2), name="d")
for _k, _v in {"sorted": [0, 0, 1, 2, 2, 2], "gap": [0, 0, 2, 2, 3, 3], "unsorted": [0, 1, 0, 2, 2, 2],
               "neg": [-1, 0, 0, 1, 1, 1], "neg-mid": [0, 0, -1, 1, 1, 1], "past": [0, 0, 1, 2, 3, 4],
               "empty": [], "rank2": [[0, 0, 1], [1, 2, 2]], "short": [0, 1]}.items():
    for _dt in ("int32", "int64", "int16"):
        _i = np.asarray(_v, np.int64).astype(_dt)
        _d = _D
        if _k == "rank2":
            _d = _D.reshape(2, 3, 2)
        elif _k == "empty":
            _d = _D[:0]
        _main = _dt in ("int32", "int64")
        for _op in ("sum", "mean", "max", "min", "prod") if _main else ("sum",):
            case("x-segment", f"segment_{_op} {_k} {_dt}",
                 lambda tf, op=_op: (lambda d, i: getattr(tf.math, f"segment_{op}")(d, i)), _d, _i,
                 grad=_op in ("sum", "mean", "max") and _dt == "int32")
        for _op in ("sum", "mean", "max", "min", "prod", "sqrt_n") if _main else ("sum",):
            case("x-segment", f"unsorted_segment_{_op} {_k} {_dt}",
                 lambda tf, op=_op: (lambda d, i: getattr(tf.math, f"unsorted_segment_{op}")(d, i, 4)), _d, _i,
                 grad=_op in ("sum", "mean", "max", "sqrt_n") and _dt == "int32")
        if _main:
            case("x-segment", f"unsorted_segment_sum num int64 {_k} {_dt}",
                 lambda tf: (lambda d, i: tf.math.unsorted_segment_sum(d, i, tf.constant(3, tf.int64))), _d, _i)
            case("x-segment", f"keras segment_sum {_k} {_dt}",
                 lambda tf: (lambda d, i: tf.keras.ops.segment_sum(d, i, num_segments=4)), _d, _i)
            case("x-segment", f"keras segment_max sorted {_k} {_dt}",
                 lambda tf: (lambda d, i: tf.keras.ops.segment_max(d, i, num_segments=4, sorted=True)), _d, _i)
for _k, _iv, _sv in (("in", [0, 5, 2], [0, 0, 1]), ("neg", [0, -1, 2], [0, 0, 1]), ("past", [0, 6, 2], [0, 0, 1]),
                     ("seg-unsorted", [0, 1, 2], [1, 0, 1]), ("seg-neg", [0, 1, 2], [-1, 0, 1]),
                     ("empty", [], [])):
    for _dt in ("int32", "int64"):
        for _op in ("sum", "mean", "sqrt_n"):
            case("x-segment", f"sparse_segment_{_op} {_k} {_dt}",
                 lambda tf, op=_op: (lambda d, i, s: getattr(tf.sparse, f"segment_{op}")(d, i, s)),
                 _D, np.asarray(_iv, _dt), np.asarray(_sv, _dt),
                 grad=_op == "sum" and _k != "empty")   # (TF's gradient of no indices: uninitialised memory)
        case("x-segment", f"sparse_segment_sum num_segments {_k} {_dt}",
             lambda tf: (lambda d, i, s: tf.sparse.segment_sum(d, i, s, num_segments=3)),
             _D, np.asarray(_iv, _dt), np.asarray(_sv, _dt))


# -- x-slice: strided_slice / __getitem__, roll, reverse, reverse_sequence, keras slice ------------------------------
_X = u((5, 4), name="xs")
_SL: dict[str, Callable[[Any], Callable[[Any], Any]]] = {}
for _e in ("x[-1]", "x[-5]", "x[-6]", "x[5]", "x[4]", "x[1:-1]", "x[-10:10]", "x[5:]", "x[7:9]", "x[3:1]",
           "x[::-1]", "x[::-2]", "x[-1::-2]", "x[-1:-6:-1]", "x[-1:-7:-1]", "x[:-10:-1]", "x[4:0:-1]", "x[:, -1]",
           "x[-1, -1]", "x[..., -4]", "x[..., -5]", "x[:, ::-3]", "x[None, -2]", "x[-2:, None, -1]",
           "x[np.int64(-1)]", "x[np.int32(4)]", "x[np.int64(-1):]", "x[::np.int64(-1)]"):
    _SL[_e] = lambda tf, e=_e: (lambda x: eval(e, {"np": np}, {"x": x}))
for _dt in ("int32", "int64"):
    for _n in (-1, -5, -6, 4, 5):
        _SL[f"x[tensor {_dt} {_n}]"] = lambda tf, n=_n, dt=_dt: (lambda x: x[tf.constant(n, dt)])
        _SL[f"x[tensor {_dt} {_n}:]"] = lambda tf, n=_n, dt=_dt: (lambda x: x[tf.constant(n, dt):])
        _SL[f"x[:, tensor {_dt} {_n}]"] = lambda tf, n=_n, dt=_dt: (lambda x: x[:, tf.constant(n, dt)])
    _SL[f"x[tensor {_dt} -1 step]"] = lambda tf, dt=_dt: (lambda x: x[::tf.constant(-1, dt)])
    _SL[f"x[mixed {_dt}]"] = lambda tf, dt=_dt: (lambda x: x[tf.constant(1, dt):tf.constant(-1, tf.int32)])
for _b, _e2, _s in (([-1, 0], [-6, 4], [-1, 1]), ([0, -1], [5, -5], [1, -1]), ([-2, -3], [10, 10], [1, 1]),
                    ([4, 0], [-100, 4], [-2, 2]), ([0, 0], [0, 0], [1, 1]), ([1], [3], [1]), ([0, 0], [5, 4], [0, 1])):
    for _dt in ("int32", "int64"):   # int16 begin/end/strides: TF 2.21 aborts the process (tensor.cc's check)
        _SL[f"strided_slice {_b} {_e2} {_s} {_dt}"] = lambda tf, b=_b, e=_e2, s=_s, dt=_dt: (
            lambda x: tf.strided_slice(x, tf.constant(b, dt), tf.constant(e, dt), tf.constant(s, dt)))
    _SL[f"strided_slice masks {_b} {_e2} {_s}"] = lambda tf, b=_b, e=_e2, s=_s: (
        lambda x: tf.strided_slice(x, b, e, s, begin_mask=1, end_mask=2, shrink_axis_mask=0))
_SL["strided_slice shrink -1"] = lambda tf: (lambda x: tf.strided_slice(x, [-1], [0], [1], shrink_axis_mask=1))
_SL["strided_slice shrink -6"] = lambda tf: (lambda x: tf.strided_slice(x, [-6], [0], [1], shrink_axis_mask=1))
_SL["strided_slice shrink 5"] = lambda tf: (lambda x: tf.strided_slice(x, [5], [0], [1], shrink_axis_mask=1))
_SL["strided_slice mixed dtypes"] = lambda tf: (lambda x: tf.strided_slice(
    x, tf.constant([0], tf.int64), tf.constant([2], tf.int32), [1]))
_SL["tf.slice -1 size"] = lambda tf: (lambda x: tf.slice(x, [1, 0], [-1, 2]))
_SL["tf.slice neg begin"] = lambda tf: (lambda x: tf.slice(x, [-1, 0], [1, 2]))
_SL["tf.slice past"] = lambda tf: (lambda x: tf.slice(x, [4, 0], [2, 2]))
_SL["tf.slice int64"] = lambda tf: (lambda x: tf.slice(x, tf.constant([1, 1], tf.int64), tf.constant([2, -1], tf.int64)))
for _sh, _ax in ((-1, 0), (-6, 0), (7, 1), (-1, -1), ([1, -2], [0, 1]), ([2, 3], [0, 0]), ([1, 1], [-1, 1]), (0, -2),
                 (2, 2), (2, -3), (-11, -2)):
    for _dt in ("int32", "int64"):
        _SL[f"roll {_sh} {_ax} {_dt}"] = lambda tf, sh=_sh, ax=_ax, dt=_dt: (
            lambda x: tf.roll(x, tf.constant(sh, dt), tf.constant(ax, dt)))
    _SL[f"roll shift int64 axis int32 {_sh} {_ax}"] = lambda tf, sh=_sh, ax=_ax: (
        lambda x: tf.roll(x, tf.constant(sh, tf.int64), tf.constant(ax, tf.int32)))
    _SL[f"keras roll {_sh} {_ax}"] = lambda tf, sh=_sh, ax=_ax: (lambda x: tf.keras.ops.roll(x, sh, ax))
_SL["keras roll flat -3"] = lambda tf: (lambda x: tf.keras.ops.roll(x, -3))
for _ax in ([-1], [0, -1], [-2], [-3], [2], [0, -2], [], [1, -1]):
    for _dt in ("int32", "int64"):
        _SL[f"reverse {_ax} {_dt}"] = lambda tf, ax=_ax, dt=_dt: (lambda x: tf.reverse(x, tf.constant(ax, dt)))
for _sa, _ba in ((1, 0), (-1, 0), (0, 1), (1, -2), (2, 0), (1, 1)):
    for _lens, _ld in (([2, 4, 0, 1, 3], "int64"), ([5, 1, 1, 2, 3], "int32"), ([1, 2, 3, 4, 4], "int64")):
        _SL[f"reverse_sequence seq={_sa} batch={_ba} {_lens} {_ld}"] = lambda tf, sa=_sa, ba=_ba, le=_lens, ld=_ld: (
            lambda x: tf.reverse_sequence(x if ba in (0, -2) else tf.transpose(x) if sa != 2 else x,
                                          tf.constant(le if ba in (0, -2) else le[:4], ld), seq_axis=sa,
                                          batch_axis=ba))
_SL["reverse_sequence int16 lengths"] = lambda tf: (
    lambda x: tf.reverse_sequence(x, tf.constant([1, 2, 3, 4, 4], tf.int16), seq_axis=1, batch_axis=0))
_SL["reverse_sequence negative length"] = lambda tf: (
    lambda x: tf.reverse_sequence(x, tf.constant([1, -2, 3, 4, 4], tf.int32), seq_axis=1, batch_axis=0))
for _st, _sz in (([1, 1], [2, 2]), ([-1, 0], [1, 2]), ([4, 3], [1, 1]), ([4, 3], [2, 2]), ([0, 0], [5, 4]),
                 ([1, 0], [-1, 2]), ([0, 0], [0, 4])):
    _SL[f"keras slice {_st} {_sz}"] = lambda tf, st=_st, sz=_sz: (lambda x: tf.keras.ops.slice(x, st, sz))
    _SL[f"keras slice int64 {_st} {_sz}"] = lambda tf, st=_st, sz=_sz: (
        lambda x: tf.keras.ops.slice(x, tf.constant(st, tf.int64), tf.constant(sz, tf.int64)))
    _SL[f"keras slice_update {_st} {_sz}"] = lambda tf, st=_st, sz=_sz: (
        lambda x: tf.keras.ops.slice_update(x, st, tf.ones([max(s, 0) for s in sz])))
for _e, _mk in _SL.items():
    case("x-slice", _e, _mk, _X, grad=True)


# -- x-optim: optimizers applying IndexedSlices (duplicates, negative, empty) --------------------------------------
def _optim(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    grads = {"dup": ([1, 1, 3], [[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [-1.0, 0.0, 1.0]]),
             "unsorted": ([3, 0], [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]),
             "empty": (np.zeros((0,), np.int64), np.zeros((0, 3), np.float32)),
             "neg": ([-1], [[1.0, 1.0, 1.0]]), "past": ([5], [[1.0, 1.0, 1.0]])}
    opts = {"SGD": lambda k: k.optimizers.SGD(0.1), "SGD momentum": lambda k: k.optimizers.SGD(0.1, momentum=0.9),
            "Adam": lambda k: k.optimizers.Adam(0.1), "Adagrad": lambda k: k.optimizers.Adagrad(0.1),
            "RMSprop": lambda k: k.optimizers.RMSprop(0.1)}
    for gname, (gi, gv) in grads.items():
        for dt in ("int32", "int64"):
            for oname, make in opts.items():
                key = f"{oname} {gname} {dt}"
                v = tf.Variable(P)
                g = tf.IndexedSlices(tf.constant(np.asarray(gv, np.float32)), tf.constant(np.asarray(gi, dt)),
                                     tf.constant([5, 3], dt))
                try:
                    opt = make(tf.keras)
                    opt.apply_gradients([(g, v)])
                    opt.apply_gradients([(g, v)])
                    out[key] = value(tf, v)
                except Exception as e:  # noqa: BLE001
                    out[key] = f"raised {_cls(e)}"
        for red in ("convert", "add_n"):
            gi2, gv2 = np.asarray(gi, np.int32), np.asarray(gv, np.float32)
            try:
                a = tf.IndexedSlices(tf.constant(gv2), tf.constant(gi2), tf.constant([5, 3]))
                r = tf.convert_to_tensor(a) if red == "convert" else tf.math.add_n([a, a])
                out[f"{red} {gname}"] = value(tf, r)
            except Exception as e:  # noqa: BLE001
                out[f"{red} {gname}"] = f"raised {_cls(e)}"
    return out


program("x-optim", _optim)


for _name in CASES:
    program(_name, lambda tf, mk, name=_name: run_program(name, tf, mk))
