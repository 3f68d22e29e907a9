"""The tf.Variable surface crossed by rule (sixty-sixth session, vsweep66; test_vsweep66.py).

What is crossed (batch 89's survivors read-value-integer-identity-skipped and variable-initial-tensor-cast: the suite
never crossed the Variable API by rule, only Python/NumPy initial values and float reads):
- v-init: tf.Variable(initial_value, dtype=...) for initial values a Python int/float/bool/complex/list (flat,
  nested, mixed), a NumPy array of each dtype, a NumPy scalar, a tensor of each dtype, a callable (returning a
  tensor, a list, an array), a Variable of float32 and int32 × dtype None and each of ten dtypes (the cast or the
  refusal): dtype, shape and values;
- v-options: shape (None, TensorShape(None), partial, equal, wrong) × validate_shape, with an assign of another shape
  after; trainable None/True/False × synchronization; aggregation/synchronization as enums, strings, ints and None;
  names with ":", "/", spaces, empty, duplicated, under a name_scope;
- v-methods-<dtype> (float16, bfloat16, float32, float64, int8, int32, int64, uint8, bool, complex64): value,
  read_value, numpy, __array__, convert_to_tensor (same and other dtype), tf.identity, assign/assign_add/assign_sub
  (read_value True/False, use_locking, Python scalars, other dtypes, other shapes), scatter_* of IndexedSlices,
  scatter_nd_*, batch_scatter_update, sparse_read, gather_nd, count_up_to, initialized_value, get_shape/set_shape,
  __index__/__bool__/int/float/complex of one element, __getitem__ with slices, operators (+ - * / // % ** @, unary
  -, abs, comparisons, == and != elementwise and against None), += on a Variable; the returned object's kind and the
  variable after each call;
- v-traced-<dtype>: the same writes and reads inside a tf.function on a variable made outside it;
- v-grad: GradientTape over value()/read_value()/convert/identity/sparse_read/gather/__getitem__ reads of float and
  integer variables (unconnected NONE and ZERO), watch_accessed_variables=False, trainable=False (watched or not),
  a read inside a tf.function, an assign inside the tape;
- v-function: tf.Variable created inside a tf.function: on each call (the second call's refusal), once (guarded),
  per retrace;
- v-mirrored: tf.Variable under MirroredStrategy (2 CPUs) of several dtypes and options: value types, per-replica
  values, assign of a per-replica value in strategy.run, reads in a replica context.

A value is its kind (Variable, Tensor, IndexedSlices, ndarray, a Python type), dtype, shape and values (floats as
the hex of their exact value, complex part by part); a refusal is its exception class. `python -m
simdist.conformance.suite.test_vsweep66 --record` rewrites vsweep66_reference.json.gz (TF 2.21 on this session's
AVX-512 Xeon with oneDNN on; nothing is host-dependent). OPEN lists simdist's disagreements left out."""

from __future__ import annotations

import operator
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "vsweep66_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool", "complex64")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-sixth session ... vsweep66").
OPEN: dict[str, tuple[str, ...]] = {}

program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases


def _vals(a: np.ndarray) -> list[Any]:
    if a.dtype.kind == "c":
        return [[float(z.real).hex(), float(z.imag).hex()] for z in a.ravel()]
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return [float(v).hex() for v in a.astype(np.float64).ravel()]
    if a.dtype.kind in "SUO":
        return [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel()]
    return a.ravel().tolist()


def _shape(s: Any) -> Any:
    try:
        return s.as_list()
    except ValueError:   # (unknown rank)
        return None


def enc(tf: Any, x: Any) -> Any:
    """x as JSON: its kind, dtype, shape and values (floats as hex)."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, (bool, int, float, complex, np.generic)) and not isinstance(x, np.ndarray):
        a = np.asarray(x)
        return [type(x).__name__, _vals(a)]
    if isinstance(x, tf.Variable):
        return ["Variable", x.dtype.name, _shape(x.shape), _vals(np.asarray(x.numpy()))]
    if isinstance(x, tf.IndexedSlices):
        return ["IndexedSlices", enc(tf, x.values), enc(tf, x.indices), enc(tf, x.dense_shape)]
    if tf.is_tensor(x):
        return ["Tensor", x.dtype.name, _shape(x.shape), _vals(np.asarray(x.numpy()))]
    if isinstance(x, np.ndarray):
        return ["ndarray", x.dtype.name, list(x.shape), _vals(x)]
    if isinstance(x, (list, tuple)):
        return [enc(tf, y) for y in x]
    return type(x).__name__


def outcome(tf: Any, fn: Callable[[], Any]) -> Any:
    """enc(fn()), or "raised <class>"."""
    try:
        return enc(tf, fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _np_dtype(tf: Any, dt: str) -> Any:
    return tf.as_dtype(dt).as_numpy_dtype


def _sample(tf: Any, dt: str, name: str, n: int = 4) -> np.ndarray:
    """n values of dtype dt (floats with fractions and a negative, integers in range, bools both ways)."""
    r = rng(name + dt)
    if dt == "bool":
        return (r.randint(0, 2, n) == 1) | (np.arange(n) == 0)
    if dt.startswith("complex"):
        return (r.randint(-8, 9, n) / 4 + 1j * r.randint(-8, 9, n) / 4).astype(dt)
    if dt.startswith(("float", "bfloat")):
        v = r.randint(-12, 13, n) / 4
        v[0] = 1.5
        return v.astype(_np_dtype(tf, dt))
    lo = 0 if dt.startswith("uint") else -9
    v = r.randint(lo, 10, n)
    v[0] = 3
    return v.astype(dt)


def _init(tf: Any, mk: Any) -> Any:
    """tf.Variable(initial value of each kind, dtype=None or each dtype): the variable or the refusal."""
    kinds: dict[str, Callable[[], Any]] = {
        "py int": lambda: 3, "py float": lambda: 2.5, "py bool": lambda: True, "py complex": lambda: 1 + 2j,
        "py big int": lambda: 300, "py negative int": lambda: -2,
        "py list int": lambda: [1, -2, 3], "py list float": lambda: [[1.5, -2.25], [0.1, 300.0]],
        "py list mixed": lambda: [1, 2.5], "py list bool": lambda: [True, False],
        "np float64 scalar": lambda: np.float64(0.1), "np int64 scalar": lambda: np.int64(7),
        "np 0-d float32": lambda: np.array(1.25, np.float32),
    }
    for dt in DTYPES:
        kinds[f"np {dt}"] = lambda dt=dt: _sample(tf, dt, "init")
        kinds[f"tensor {dt}"] = lambda dt=dt: tf.constant(_sample(tf, dt, "init"), dtype=dt)
    kinds["np float64 tenths"] = lambda: np.array([0.1, -0.7, 1e-8, 65504.0, 70000.0])
    kinds["callable tensor float32"] = lambda: (lambda: tf.constant([1.5, 2.0]))
    kinds["callable list"] = lambda: (lambda: [1, 2])
    kinds["callable np float64"] = lambda: (lambda: np.array([0.1, 0.2]))
    kinds["variable float32"] = lambda: tf.Variable([1.5, -2.0])
    kinds["variable int32"] = lambda: tf.Variable([4, 5])
    kinds["string"] = lambda: "ab"
    out: dict[str, Any] = {}
    for kname, make in kinds.items():
        for dt in (None,) + DTYPES:
            def run(make: Callable[[], Any] = make, dt: Any = dt) -> Any:
                v = tf.Variable(make(), dtype=dt)
                return [enc(tf, v), v.trainable, v.name]
            out[f"{kname} dtype={dt}"] = outcome(tf, run)
    out["None"] = outcome(tf, lambda: tf.Variable(None))
    out["no argument"] = outcome(tf, lambda: tf.Variable())
    return out


program("v-init", _init)


def _name(x: Any) -> Any:
    return [type(x).__name__, getattr(x, "name", str(x))]


def _options(tf: Any, mk: Any) -> Any:
    """shape/validate_shape, trainable × synchronization, aggregation/synchronization spellings, names."""
    out: dict[str, Any] = {}
    shapes = {"None": None, "TensorShape(None)": tf.TensorShape(None), "[None]": [None], "[2]": [2], "(2,)": (2,),
              "[3]": [3], "[None, 2]": [None, 2], "[1, 2]": [1, 2], "TensorShape([None])": tf.TensorShape([None]),
              "[]": []}
    for sname, shape in shapes.items():
        for validate in (True, False):
            def run(shape: Any = shape, validate: bool = validate) -> Any:
                v = tf.Variable([1.5, 2.5], shape=shape, validate_shape=validate)
                got: list[Any] = [_shape(v.shape), enc(tf, v.value())]
                got.append(outcome(tf, lambda: v.assign([1.0, 2.0, 3.0])))
                got += [_shape(v.shape), outcome(tf, lambda: v.read_value())]
                got.append(outcome(tf, lambda: v.assign_add([1.0, 1.0, 1.0])))
                got.append(outcome(tf, lambda: v.assign(7.0)))
                got.append(outcome(tf, lambda: v.get_shape()))
                got.append(outcome(tf, lambda: (v.set_shape([3]), _shape(v.shape))[1]))
                got.append(outcome(tf, lambda: (v.set_shape([4]), _shape(v.shape))[1]))
                return got
            out[f"shape={sname} validate={validate}"] = outcome(tf, run)
    out["callable validate=False"] = outcome(tf, lambda: tf.Variable(lambda: [1, 2, 3], validate_shape=False).shape)
    out["shape=[None] scalar"] = outcome(tf, lambda: tf.Variable(1.0, shape=[None]).shape)
    out["shape=TensorShape(None) scalar assign vector"] = outcome(
        tf, lambda: (lambda v: (v.assign([1.0, 2.0]), _shape(v.shape), enc(tf, v))[1:])(
            tf.Variable(1.0, shape=tf.TensorShape(None))))
    syncs = {"None": None, "AUTO": tf.VariableSynchronization.AUTO, "ON_WRITE": tf.VariableSynchronization.ON_WRITE,
             "ON_READ": tf.VariableSynchronization.ON_READ, "NONE": tf.VariableSynchronization.NONE,
             "'on_read'": "on_read", "'ON_READ'": "ON_READ", "int 3": 3, "int 0": 0}
    for sname, sync in syncs.items():
        for trainable in (None, True, False):
            def run2(sync: Any = sync, trainable: Any = trainable) -> Any:
                kw: dict[str, Any] = {"trainable": trainable}
                if sync is not None:
                    kw["synchronization"] = sync
                v = tf.Variable(1.0, **kw)
                return [v.trainable, _name(v.synchronization), _name(v.aggregation)]
            out[f"synchronization={sname} trainable={trainable}"] = outcome(tf, run2)
    aggs = {"None": None, "NONE": tf.VariableAggregation.NONE, "SUM": tf.VariableAggregation.SUM,
            "MEAN": tf.VariableAggregation.MEAN, "ONLY_FIRST_REPLICA": tf.VariableAggregation.ONLY_FIRST_REPLICA,
            "v1 SUM": tf.compat.v1.VariableAggregation.SUM,
            "v1 ONLY_FIRST_TOWER": tf.compat.v1.VariableAggregation.ONLY_FIRST_TOWER,
            "'sum'": "sum", "'SUM'": "SUM", "int 1": 1, "int 5": 5}
    for aname, agg in aggs.items():
        out[f"aggregation={aname}"] = outcome(
            tf, lambda agg=agg: (lambda v: [_name(v.aggregation), v.aggregation == agg])(
                tf.Variable(1.0, aggregation=agg)))
    names = ("a", "a:0", "a:1", "a/b", "a/", "a b", "", "dup", "dup", "é", "-x", ".x", "_x")
    for i, nm in enumerate(names):
        out[f"name {i} {nm!r}"] = outcome(tf, lambda nm=nm: tf.Variable(1.0, name=nm).name)
    out["name None"] = outcome(tf, lambda: tf.Variable(1.0).name)
    out["name int"] = outcome(tf, lambda: tf.Variable(1.0, name=3).name)

    def scoped() -> Any:
        with tf.name_scope("sc"):
            a = tf.Variable(1.0, name="w")
            b = tf.Variable(1.0)
            with tf.name_scope("in"):
                c = tf.Variable(1.0, name="w")
        return [a.name, b.name, c.name]
    out["name_scope"] = outcome(tf, scoped)

    def scoped_more() -> Any:
        got = []
        with tf.name_scope("outer"):
            got.append(tf.Variable(1.0, name="abs/").name)
            got.append(tf.Variable(1.0, name="x/y").name)
            got.append(tf.Variable(1.0, name="").name)
            with tf.name_scope("outer"):
                got.append(tf.Variable(1.0, name="w").name)
            with tf.name_scope("top/"):
                got.append(tf.Variable(1.0, name="w").name)
            with tf.name_scope(None):
                got.append(tf.Variable(1.0, name="w").name)
            got.append(tf.get_current_name_scope())
        return got
    out["name_scope nested"] = outcome(tf, scoped_more)
    holder: list[Any] = []

    @tf.function
    def in_function() -> Any:
        with tf.name_scope("fs"):
            if not holder:
                holder.append(tf.Variable(2.0, name="fv"))
                holder.append(tf.Variable(2.0))
        return holder[0] + 1.0
    out["name_scope in tf.function"] = outcome(tf, lambda: [enc(tf, in_function()), holder[0].name,
                                                            holder[1].name])

    def mirrored_names() -> Any:
        s = mk()
        with s.scope():
            with tf.name_scope("ms"):
                v = tf.Variable(1.0, name="mv")
                w = tf.Variable(1.0, name="q/")
                u = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                                aggregation=tf.VariableAggregation.SUM)
        return [[v.name] + [c.name for c in v.values], [w.name] + [c.name for c in w.values],
                [u.name] + [c.name for c in u.values]]
    out["name_scope mirrored"] = outcome(tf, mirrored_names)

    def keras_and_module_names() -> Any:
        keras = tf.keras
        # (explicit names: Keras makes an unnamed model's or optimizer's name unique in the process)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d1")], name="vsw66")
        opt = keras.optimizers.Adam(name="vsw66adam")
        opt.build(model.trainable_variables)
        with tf.name_scope("outer"):
            d = keras.layers.Dense(2, name="d2")
            d.build((None, 3))

        class Mod(tf.Module):
            def __init__(self) -> None:
                super().__init__(name="mod")
                with self.name_scope:
                    self.w = tf.Variable(1.0, name="w")
        with tf.name_scope("sc"):
            mod = Mod()
        with mod.name_scope:
            late = tf.Variable(1.0, name="late")
        return [model.layers[0].kernel.value.name, [v.value.name for v in opt.variables], d.kernel.value.name,
                mod.w.name, late.name]
    out["name_scope keras and tf.Module"] = outcome(tf, keras_and_module_names)
    out["constraint"] = outcome(tf, lambda: (lambda v: [type(v.constraint).__name__, enc(tf, v.assign([-1.0, 2.0]))])(
        tf.Variable([1.0, 2.0], constraint=lambda x: tf.maximum(x, 0.0))))
    out["constraint not callable"] = outcome(tf, lambda: tf.Variable(1.0, constraint=3))
    out["dtype string name"] = outcome(tf, lambda: tf.Variable(1, dtype="float32"))
    out["dtype np"] = outcome(tf, lambda: tf.Variable(1, dtype=np.float64))
    out["dtype bad"] = outcome(tf, lambda: tf.Variable(1, dtype="floaty"))
    out["trainable string"] = outcome(tf, lambda: tf.Variable(1.0, trainable="yes").trainable)
    out["trainable 0"] = outcome(tf, lambda: tf.Variable(1.0, trainable=0).trainable)
    return out


program("v-options", _options)


def _fresh(tf: Any, dt: str, x: np.ndarray) -> Any:
    return tf.Variable(x, dtype=dt)


def _other(dt: str) -> str:
    return {"float32": "float64", "float64": "float32", "int32": "int64", "int64": "int32"}.get(dt, "float32")


def _methods(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        x = _sample(tf, dt, "methods")
        y = _sample(tf, dt, "methods-y")
        m = _sample(tf, dt, "methods-m", 6).reshape(2, 3)
        o = _other(dt)
        out: dict[str, Any] = {}

        def case(key: str, fn: Callable[[Any], Any], init: np.ndarray = x) -> None:
            def go() -> Any:
                v = _fresh(tf, dt, init)
                try:
                    r = fn(v)
                    got = [enc(tf, r), r is v]
                except Exception as e:  # noqa: BLE001 - the class is the observation
                    got = f"raised {type(e).__name__}"
                return [got, enc(tf, v)]
            out[key] = outcome(tf, go)
        # reads
        case("value", lambda v: v.value())
        case("read_value", lambda v: v.read_value())
        case("numpy", lambda v: v.numpy())
        case("np.asarray", lambda v: np.asarray(v))
        case("np.array float64", lambda v: np.array(v, dtype=np.float64))
        case("convert", lambda v: tf.convert_to_tensor(v))
        case("convert same", lambda v: tf.convert_to_tensor(v, dtype=dt))
        case("convert other", lambda v: tf.convert_to_tensor(v, dtype=o))
        case("identity", lambda v: tf.identity(v))
        case("cast other", lambda v: tf.cast(v, o))
        case("get_shape", lambda v: _shape(v.get_shape()))
        case("set_shape ok", lambda v: (v.set_shape([None]), _shape(v.shape))[1])
        case("set_shape bad", lambda v: v.set_shape([5]))
        case("sparse_read", lambda v: v.sparse_read([2, 0, 2]))
        case("sparse_read bad", lambda v: v.sparse_read([4]))
        case("gather", lambda v: tf.gather(v, [3, 1]))
        case("gather_nd", lambda v: v.gather_nd([[1], [3]]))
        case("initialized_value", lambda v: v.initialized_value())
        case("count_up_to", lambda v: [enc(tf, v.count_up_to(5)) for _ in range(3)], init=x[:1].reshape(()))
        case("count_up_to vector", lambda v: v.count_up_to(5))
        case("getitem 1", lambda v: v[1])
        case("getitem slice", lambda v: v[1:3])
        case("getitem reverse", lambda v: v[::-1])
        case("getitem newaxis", lambda v: v[None, 2:])
        case("getitem ellipsis", lambda v: v[..., 0])
        case("getitem out", lambda v: v[7])
        case("getitem matrix", lambda v: v[1, ::2], init=m)
        case("index", lambda v: operator.index(v), init=x[:1].reshape(()))
        case("bool 0-d", lambda v: bool(v), init=x[:1].reshape(()))
        case("bool [1]", lambda v: bool(v), init=x[:1])
        case("bool [4]", lambda v: bool(v))
        case("int 0-d", lambda v: int(v), init=x[:1].reshape(()))
        case("float 0-d", lambda v: float(v), init=x[:1].reshape(()))
        case("complex 0-d", lambda v: complex(v), init=x[:1].reshape(()))
        case("len", lambda v: len(v))
        case("iter", lambda v: list(v))
        case("slice assign", lambda v: v[1:3].assign(y[:2]))
        # writes
        for rv in (True, False):
            case(f"assign read_value={rv}", lambda v, rv=rv: v.assign(y, read_value=rv))
            case(f"assign_add read_value={rv}", lambda v, rv=rv: v.assign_add(y, read_value=rv))
            case(f"assign_sub read_value={rv}", lambda v, rv=rv: v.assign_sub(y, read_value=rv))
        case("assign use_locking", lambda v: v.assign(y, use_locking=True))
        case("assign_add use_locking", lambda v: v.assign_add(y, use_locking=True))
        case("assign python scalar", lambda v: v.assign(1))
        case("assign python float", lambda v: v.assign(2.5))
        case("assign python list", lambda v: v.assign([1, 0, 1, 0]))
        case("assign_add python 1", lambda v: v.assign_add(1))
        case("assign_sub python 1", lambda v: v.assign_sub(1))
        case("assign_add python list", lambda v: v.assign_add([1, 1, 0, 0]))
        case("assign np other", lambda v: v.assign(y.astype(np.float64) if dt != "float64" else y.astype(np.int32)))
        case("assign tensor other", lambda v: v.assign(tf.constant(y, dtype=dt).__array__().astype(
            np.float64 if dt != "float64" else np.float32)))
        case("assign tf tensor other", lambda v: v.assign(tf.cast(tf.constant(y, dtype=dt), o)))
        case("assign_add tensor other", lambda v: v.assign_add(tf.cast(tf.constant(y, dtype=dt), o)))
        case("assign variable", lambda v: v.assign(tf.Variable(y, dtype=dt)))
        case("assign shape [5]", lambda v: v.assign(np.resize(y, 5)))
        case("assign shape [2,2]", lambda v: v.assign(y.reshape(2, 2)))
        case("assign scalar broadcast", lambda v: v.assign(y[0]))
        case("assign_add shape [2]", lambda v: v.assign_add(y[:2]))
        case("assign_add scalar tensor", lambda v: v.assign_add(tf.constant(y[1], dtype=dt)))
        case("assign chained", lambda v: v.assign(y).assign_add(y))
        case("assign returns value", lambda v: v.assign(y) + v.assign(x))
        idx = tf.IndexedSlices(tf.constant(y[:2], dtype=dt), tf.constant([3, 1]))
        for meth in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min",
                     "scatter_max"):
            case(meth, lambda v, meth=meth: getattr(v, meth)(idx))
        case("scatter_update duplicates", lambda v: v.scatter_update(
            tf.IndexedSlices(tf.constant(y[:2], dtype=dt), tf.constant([2, 2]))))
        case("scatter_add duplicates", lambda v: v.scatter_add(
            tf.IndexedSlices(tf.constant(y[:3], dtype=dt), tf.constant([2, 0, 2]))))
        case("scatter_nd_add duplicates", lambda v: v.scatter_nd_add([[1], [1]], tf.constant(y[:2], dtype=dt)))
        case("scatter_add out of range", lambda v: v.scatter_add(
            tf.IndexedSlices(tf.constant(y[:1], dtype=dt), tf.constant([9]))))
        case("scatter_update not slices", lambda v: v.scatter_update(tf.constant(y, dtype=dt)))
        for meth in ("scatter_nd_update", "scatter_nd_add", "scatter_nd_sub", "scatter_nd_max", "scatter_nd_min"):
            case(meth, lambda v, meth=meth: getattr(v, meth)([[1], [3]], tf.constant(y[:2], dtype=dt)))
        case("batch_scatter_update", lambda v: v.batch_scatter_update(
            tf.IndexedSlices(tf.constant(y[:2], dtype=dt), tf.constant([3, 1]))))
        case("batch_scatter_update matrix", lambda v: v.batch_scatter_update(
            tf.IndexedSlices(tf.constant(m[:, :1], dtype=dt), tf.constant([[2], [0]]))), init=m)
        case("tf.compat.v1.scatter_update", lambda v: tf.compat.v1.scatter_update(v, [0, 2], y[:2]))
        case("tf.compat.v1.assign_add", lambda v: tf.compat.v1.assign_add(v, y))
        for sym, iop in (("+=", operator.iadd), ("-=", operator.isub), ("*=", operator.imul),
                         ("/=", operator.itruediv), ("//=", operator.ifloordiv), ("%=", operator.imod),
                         ("**=", operator.ipow), ("&=", operator.iand), ("|=", operator.ior), ("^=", operator.ixor)):
            case(sym, lambda v, iop=iop: iop(v, y))
        case("@=", lambda v: operator.imatmul(v, m.T[:, :2]), init=m)
        # operators
        ops: dict[str, Callable[[Any], Any]] = {
            "v + y": lambda v: v + y, "y + v": lambda v: tf.constant(y, dtype=dt) + v, "v + v": lambda v: v + v,
            "v + 1": lambda v: v + 1, "1 + v": lambda v: 1 + v, "v + 1.5": lambda v: v + 1.5,
            "v - y": lambda v: v - y, "2 - v": lambda v: 2 - v, "v * y": lambda v: v * y, "v * 2": lambda v: v * 2,
            "v / y": lambda v: v / y, "v / 2": lambda v: v / 2, "2 / v": lambda v: 2 / v,
            "v // y": lambda v: v // y, "v // 3": lambda v: v // 3, "v % y": lambda v: v % y,
            "v % 3": lambda v: v % 3, "v ** 2": lambda v: v ** 2, "2 ** v": lambda v: 2 ** v,
            "v ** y": lambda v: v ** y, "-v": lambda v: -v, "abs(v)": lambda v: abs(v), "~v": lambda v: ~v,
            "v & v": lambda v: v & v, "v | y": lambda v: v | y, "v ^ y": lambda v: v ^ y,
            "v < y": lambda v: v < y, "v <= 1": lambda v: v <= 1, "v > y": lambda v: v > y,
            "v >= y": lambda v: v >= y, "v == y": lambda v: v == y, "v != y": lambda v: v != y,
            "v == v": lambda v: v == v, "v == 1": lambda v: v == 1, "v == None": lambda v: v == None,  # noqa: E711
            "v != None": lambda v: v != None, "v == 'a'": lambda v: v == "a",  # noqa: E711
            "v == [1,2]": lambda v: v == [1, 2], "v + other dtype": lambda v: v + tf.constant(y, dtype=o),
            "np + v": lambda v: y + v, "np.float32(2) * v": lambda v: np.float32(2) * v,
        }
        for key, fn in ops.items():
            case(key, fn)
        case("v @ m", lambda v: v @ m.T[:, :2], init=m)
        case("m @ v", lambda v: m.T[:2, :] @ v, init=m)
        case("matmul", lambda v: tf.linalg.matmul(v, v, transpose_b=True), init=m)
        return out
    return run


for _dt in DTYPES:
    program(f"v-methods-{_dt}", _methods(_dt))


def _traced(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        x = _sample(tf, dt, "traced")
        y = _sample(tf, dt, "traced-y")
        o = _other(dt)
        out: dict[str, Any] = {}
        bodies: dict[str, Callable[[Any], Any]] = {
            "read_value": lambda v: v.read_value(), "value": lambda v: v.value(),
            "identity": lambda v: tf.identity(v), "convert other": lambda v: tf.convert_to_tensor(v, dtype=o),
            "assign": lambda v: v.assign(y), "assign read_value=False": lambda v: (v.assign(y, read_value=False), 1)[1],
            "assign_add": lambda v: v.assign_add(y), "assign_sub then read": lambda v: (v.assign_sub(y), v + 0)[1],
            "assign other dtype": lambda v: v.assign(tf.cast(y, o)),
            "assign other shape": lambda v: v.assign(y[:2]),
            "assign_add python 1": lambda v: v.assign_add(1),
            "scatter_add": lambda v: v.scatter_add(tf.IndexedSlices(tf.constant(y[:2], dtype=dt), [0, 2])),
            "scatter_nd_update": lambda v: v.scatter_nd_update([[3]], tf.constant(y[:1], dtype=dt)),
            "sparse_read": lambda v: v.sparse_read([1, 1]), "gather_nd": lambda v: v.gather_nd([[2]]),
            "getitem": lambda v: v[::2], "v + v": lambda v: v + v, "v * y": lambda v: v * y,
            "v == y": lambda v: v == y, "abs": lambda v: abs(v), "-v": lambda v: -v,
            "shape": lambda v: tf.shape(v), "numpy": lambda v: v.numpy(), "bool": lambda v: bool(v[0]),
            "count_up_to": lambda v: v[0:1].count_up_to(3),
            "assign twice": lambda v: (v.assign(y), v.assign_add(y))[1],
        }
        for key, body in bodies.items():
            def go(body: Callable[[Any], Any] = body) -> Any:
                v = tf.Variable(x, dtype=dt)
                f = tf.function(lambda: body(v))
                r = outcome(tf, f)
                return [r, enc(tf, v), outcome(tf, f), enc(tf, v)]
            out[key] = outcome(tf, go)
        return out
    return run


for _dt in ("float16", "bfloat16", "float32", "float64", "int32", "int64", "uint8", "bool", "complex64"):
    program(f"v-traced-{_dt}", _traced(_dt))


def _grad(tf: Any, mk: Any) -> Any:
    """GradientTape over a variable's read forms, per dtype, and the tape's watching rules."""
    out: dict[str, Any] = {}
    reads: dict[str, Callable[[Any], Any]] = {
        "v": lambda v: v, "value": lambda v: v.value(), "read_value": lambda v: v.read_value(),
        "convert": lambda v: tf.convert_to_tensor(v), "identity": lambda v: tf.identity(v),
        "v * 2": lambda v: v * 2, "v * v": lambda v: v * v, "sparse_read": lambda v: v.sparse_read([2, 0, 2]),
        "gather": lambda v: tf.gather(v, [3, 3, 1]), "getitem": lambda v: v[1:3],
        "getitem 0": lambda v: v[0], "reduce_sum": lambda v: tf.reduce_sum(v), "cast": lambda v: tf.cast(v, "float32"),
        "gather_nd": lambda v: v.gather_nd([[1]]),
    }
    for dt in ("float16", "bfloat16", "float32", "float64", "complex64", "int32", "int64", "uint8"):
        x = _sample(tf, dt, "grad")
        for key, read in reads.items():
            for unc in ("NONE", "ZERO"):
                def go(read: Callable[[Any], Any] = read, unc: str = unc) -> Any:
                    v = tf.Variable(x, dtype=dt)
                    with tf.GradientTape() as tape:
                        y = read(v)
                    return tape.gradient(y, v, unconnected_gradients=getattr(tf.UnconnectedGradients, unc))
                out[f"{dt} {key} {unc}"] = outcome(tf, go)
    x = np.array([1.5, -2.0, 0.5], np.float32)

    def unwatched() -> Any:
        v = tf.Variable(x)
        w = tf.Variable(x)
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(w)
            y = tf.reduce_sum(v * w)
        return [enc(tf, g) for g in tape.gradient(y, [v, w])] + [len(tape.watched_variables())]
    out["watch_accessed_variables=False"] = outcome(tf, unwatched)

    def untrainable(watch: bool) -> Any:
        v = tf.Variable(x, trainable=False)
        with tf.GradientTape() as tape:
            if watch:
                tape.watch(v)
            y = tf.reduce_sum(v * v)
        return [enc(tf, tape.gradient(y, v)), len(tape.watched_variables())]
    out["trainable=False"] = outcome(tf, lambda: untrainable(False))
    out["trainable=False watched"] = outcome(tf, lambda: untrainable(True))

    def on_read() -> Any:
        v = tf.Variable(x, synchronization=tf.VariableSynchronization.ON_READ)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * 3.0)
        return [v.trainable, enc(tf, tape.gradient(y, v))]
    out["ON_READ"] = outcome(tf, on_read)

    def in_function() -> Any:
        v = tf.Variable(x)
        f = tf.function(lambda: tf.reduce_sum(v.read_value() * v))
        with tf.GradientTape() as tape:
            y = f()
        return [enc(tf, y), enc(tf, tape.gradient(y, v))]
    out["read in tf.function"] = outcome(tf, in_function)

    def sparse_in_function() -> Any:
        v = tf.Variable(x)
        f = tf.function(lambda: tf.reduce_sum(v.sparse_read([0, 0, 2]) * 2.0))
        with tf.GradientTape() as tape:
            y = f()
        return enc(tf, tape.gradient(y, v))
    out["sparse_read in tf.function"] = outcome(tf, sparse_in_function)

    def grad_in_function() -> Any:
        v = tf.Variable(x)

        @tf.function
        def f() -> Any:
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.gather(v, [1, 1]) * v[0])
            return tape.gradient(y, v)
        return enc(tf, f())
    out["tape in tf.function"] = outcome(tf, grad_in_function)

    def assign_in_tape() -> Any:
        v = tf.Variable(x)
        with tf.GradientTape(persistent=True) as tape:
            a = v * 2.0
            r = v.assign(x * 3.0)
            b = v * 5.0
            c = v.assign_add(x)
            d = r * 7.0
        return [enc(tf, tape.gradient(t, v)) for t in (a, b, c, d, a + b)]
    out["assign in tape"] = outcome(tf, assign_in_tape)

    def two_vars() -> Any:
        v = tf.Variable(x)
        w = tf.Variable(2, dtype=tf.int32)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * tf.cast(w, tf.float32))
        return [enc(tf, g) for g in tape.gradient(y, [v, w])]
    out["float and int var"] = outcome(tf, two_vars)

    def source_tensor() -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            r = v.read_value()
            tape.watch(r)
            y = tf.reduce_sum(r * r)
        return [enc(tf, g) for g in tape.gradient(y, [r, v])]
    out["read_value as source"] = outcome(tf, source_tensor)

    def jacobian() -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            y = v * v
        return enc(tf, tape.jacobian(y, v))
    out["jacobian"] = outcome(tf, jacobian)
    return out


program("v-grad", _grad)


def _function(tf: Any, mk: Any) -> Any:
    """tf.Variable created inside a tf.function: every call, once, per retrace."""
    out: dict[str, Any] = {}

    @tf.function
    def every(x: Any) -> Any:
        v = tf.Variable(1.0)
        return v + x
    out["every call 1"] = outcome(tf, lambda: every(tf.constant(1.0)))
    out["every call 2"] = outcome(tf, lambda: every(tf.constant(2.0)))

    holder: list[Any] = []

    @tf.function
    def once(x: Any) -> Any:
        if not holder:
            holder.append(tf.Variable(x * 2.0))
        return holder[0].assign_add(x)
    out["once 1"] = outcome(tf, lambda: once(tf.constant(1.5)))
    out["once 2"] = outcome(tf, lambda: once(tf.constant(2.5)))
    out["once retrace"] = outcome(tf, lambda: once(tf.constant([1.0, 2.0])))
    out["once value"] = outcome(tf, lambda: holder[0])

    @tf.function
    def per_trace(x: Any) -> Any:
        return tf.Variable(x).read_value() * 2
    out["per trace 1"] = outcome(tf, lambda: per_trace(tf.constant(1.0)))
    out["per trace int"] = outcome(tf, lambda: per_trace(tf.constant(3)))
    out["per trace again"] = outcome(tf, lambda: per_trace(tf.constant(1.0)))

    @tf.function
    def python_init() -> Any:
        return tf.Variable([1, 2], dtype=tf.float32).assign_add([0.5, 0.5])
    out["python init 1"] = outcome(tf, python_init)
    out["python init 2"] = outcome(tf, python_init)

    v = tf.Variable([1.0, 2.0])

    @tf.function
    def ret_var() -> Any:
        return v
    out["return variable"] = outcome(tf, ret_var)

    @tf.function
    def ret_assign() -> Any:
        return v.assign([3.0, 4.0], read_value=False)
    out["return assign read_value=False"] = outcome(tf, ret_assign)

    @tf.function
    def ret_add() -> Any:
        return v.assign_add([1.0, 1.0])
    out["return assign_add"] = outcome(tf, ret_add)
    out["value after"] = enc(tf, v)

    @tf.function
    def arg_var(w: Any) -> Any:
        w.assign_add(tf.ones_like(w))
        return w.read_value()
    a, b = tf.Variable([1.0]), tf.Variable([1, 2])
    out["argument variable a"] = outcome(tf, lambda: arg_var(a))
    out["argument variable b"] = outcome(tf, lambda: arg_var(b))
    out["argument variable a again"] = outcome(tf, lambda: arg_var(a))
    return out


program("v-function", _function)


def _mirrored(tf: Any, mk: Any) -> Any:
    """tf.Variable under MirroredStrategy (2 CPUs): value types, per-replica values, assign of per-replica values."""
    s = mk()
    out: dict[str, Any] = {}

    def local(v: Any) -> Any:
        return [enc(tf, t) for t in s.experimental_local_results(v)]
    for dt in ("float32", "float64", "int32", "int64", "bool", "float16", "complex64"):
        x = _sample(tf, dt, "mirrored")
        for agg in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            for sync in ("AUTO", "ON_READ"):
                key = f"{dt} {agg} {sync}"

                def build(agg: str = agg, sync: str = sync, x: np.ndarray = x, dt: str = dt) -> Any:
                    with s.scope():
                        return tf.Variable(x, dtype=dt, aggregation=getattr(tf.VariableAggregation, agg),
                                           synchronization=getattr(tf.VariableSynchronization, sync))
                try:
                    v = build()
                except Exception as e:  # noqa: BLE001 - the class is the observation
                    out[key] = f"raised {type(e).__name__}"
                    continue
                got: dict[str, Any] = {"made": [type(v).__name__, v.trainable, local(v)]}
                got["read_value"] = outcome(tf, lambda v=v: v.read_value())
                got["value"] = outcome(tf, lambda v=v: v.value())
                got["convert"] = outcome(tf, lambda v=v: tf.convert_to_tensor(v))
                got["read in run"] = outcome(tf, lambda v=v: local(s.run(lambda: v.read_value())))
                got["identity in run"] = outcome(tf, lambda v=v: local(s.run(lambda: tf.identity(v))))

                def assign_pr(v: Any = v, dt: str = dt) -> Any:
                    def step() -> Any:
                        ctx = tf.distribute.get_replica_context()
                        r = tf.cast(ctx.replica_id_in_sync_group + 1, dt)
                        v.assign(tf.fill(tf.shape(v), r))
                        return v.read_value()
                    res = s.run(step)
                    return [local(res), local(v), enc(tf, v.read_value())]
                got["assign per replica"] = outcome(tf, assign_pr)

                def assign_add_pr(v: Any = v, dt: str = dt) -> Any:
                    def step() -> Any:
                        return v.assign_add(tf.ones_like(v))
                    res = s.run(step)
                    return [local(res), local(v)]
                got["assign_add in run"] = outcome(tf, assign_add_pr)
                got["assign cross replica"] = outcome(tf, lambda v=v, x=x: [enc(tf, v.assign(x[::-1])), local(v)])
                got["assign_add cross replica"] = outcome(tf, lambda v=v, x=x: [enc(tf, v.assign_add(x)), local(v)])
                got["assign_sub cross replica"] = outcome(tf, lambda v=v, x=x: [enc(tf, v.assign_sub(x)), local(v)])
                got["assign number cross replica"] = outcome(tf, lambda v=v: [enc(tf, v.assign(
                    True if v.dtype == tf.bool else 3)), local(v)])
                got["assign tensor cross replica"] = outcome(tf, lambda v=v, x=x, dt=dt: [enc(tf, v.assign(
                    tf.constant(x, dtype=dt))), local(v)])
                got["scatter_update"] = outcome(tf, lambda v=v, x=x, dt=dt: local(v.scatter_update(
                    tf.IndexedSlices(tf.constant(x[:1], dtype=dt), [2]))))
                got["sparse_read"] = outcome(tf, lambda v=v: v.sparse_read([1]))
                got["v + 1"] = outcome(tf, lambda v=v: v + tf.ones_like(v))
                got["numpy"] = outcome(tf, lambda v=v: v.numpy())
                out[key] = got
    for dt in ("float64", "float32", "int32", "float16", "bool"):
        for value in (0.1, 3, 2.5, True):
            def scalar(dt: str = dt, value: Any = value) -> Any:
                with s.scope():
                    v = tf.Variable(0, dtype=dt, synchronization=tf.VariableSynchronization.ON_READ,
                                    aggregation=tf.VariableAggregation.SUM)
                return [enc(tf, v.assign(value)), local(v), enc(tf, v.read_value())]
            out[f"{dt} SUM ON_READ scalar assign {value}"] = outcome(tf, scalar)
    return out


program("v-mirrored", _mirrored)
