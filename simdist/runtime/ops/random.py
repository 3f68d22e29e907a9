"""`tf.random`: the stateful and stateless normal, uniform, truncated normal, categorical and
shuffle ops, with TF 2.21's values bit for bit (the Philox distributions of philox_dists.py).

A stateful op takes its (seed, seed2) attrs from random_seed.get_seed as TF's eager mode does
(random_gamma.tf_seeds: the global seed, the op seed, TF's op-seed sequence `draw_op_seed`), and
its kernel is cached per (op, seeds, dtypes): a seeded call's stream continues across calls (each
call reserving TF's number of Philox outputs), `tf.random.set_seed` restarts them all. Without any
seed TF's draws are nondeterministic; simdist's seeds then come from the machine's root seed
(`simdist.configure(seed=...)`).

The stateless ops (`stateless_normal`, `stateless_uniform`, `stateless_truncated_normal`,
`stateless_categorical`) are pure functions of their seed pair, shape and dtype: the same call
gives the same values anywhere, independent of the global seed and of the root seed, as TF
promises; they are not stateful ops (the recorder may fold or merge them). Clauses
ops.stateless-random, ops.random-bits.
"""

from __future__ import annotations

import random as _pyrandom
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, execution
from simdist.runtime.ops import args, dispatch, partial_values, philox, philox_dists, random_graphs, rng_alg, static_shapes, trace_errors
from simdist.runtime.ops.args import dims, shape_arg, tf_name
from simdist.runtime.ops.registry import NotDifferentiable, register
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["reset", "set_seed", "normal", "uniform", "truncated_normal", "categorical", "shuffle", "stateless_normal",
           "stateless_uniform", "stateless_truncated_normal", "stateless_categorical"]

# The streams' state is the client's (runtime/execution.Client.rng: every thread and replica
# of one TF program draws from the same global stream, as TF's global generator is per process).
_cur = execution._current


def reset(root_seed: int = 0) -> None:
    """Restart the streams (called when the simulated machine is configured)."""
    _cur.ctx.rng.update({"root": int(root_seed), "global": None, "op_rng": None, "philox": {},
                         "unseeded": None, "nondeterministic": 0, "global_generator": None, "python_seeded": False,
                         "numpy_stream": None})


def python_seeded(value: bool | None = None) -> bool:
    """Whether the program seeded Python's `random` through `keras.utils.set_random_seed` (so that
    unseeded Keras objects draw their seeds from it, as Keras's; keras/random.py), set when
    `value` is given. Part of the session's random state: a new simulated machine forgets it."""
    state = _cur.ctx.rng
    if value is not None:
        state["python_seeded"] = bool(value)
    return bool(state.get("python_seeded", False))


def set_seed(seed: int | None) -> None:
    """`tf.random.set_seed`: restart the streams from this global seed. Inside a tf.function being
    traced (TF 2.21's set_random_seed when not executing eagerly) it sets only the graph's seed
    (`ops.get_default_graph().seed = seed`), for the graph's later seedless ops: the global seed, the
    op-seed counter, the kernels and the eager streams stay (fz29b, fz14 seed 1420292901 #265; tnp29)."""
    from simdist.runtime import context
    sc = random_graphs.current()
    if sc is not None and not context.executing_eagerly():
        sc.trace.seed = None if seed is None else int(seed)
        return
    _state = _cur.ctx.rng
    _state["global"] = None if seed is None else int(seed)
    _state["op_rng"] = None   # TF's context._rng = random.Random(seed): the eager op seeds (random_gamma.tf_seeds)
    _state["philox"] = {}     # TF clears its kernel cache: every Philox kernel stream restarts


def draw_op_seed() -> int | None:
    """The op seed TF's eager `random_seed.get_seed(None)` takes under a global seed: the next
    `randint(0, 2**31 - 1)` of `random.Random(global seed)` (TF's context._rng); None without a
    global seed. Every seedless random op of the facade draws one, as TF's do, so that the ops
    that reproduce TF's streams (random_gamma.py) get TF's seeds after any mix of random calls.
    In a tf.function being traced: the graph's own counter, under its graph seed (random_graphs.py)."""
    sc = random_graphs.current()
    if sc is not None:
        return None if sc.trace.seed is None else random_graphs.next_op_seed(sc)
    _state = _cur.ctx.rng
    g = _state["global"]
    if g is None:
        return None
    r = _state.get("op_rng")
    if r is None:
        r = _state["op_rng"] = _pyrandom.Random(int(g))
    return r.randint(0, 2**31 - 1)


def unseeded_pair() -> tuple[int, int]:
    """The (seed, seed2) of a stateful op with neither a global nor an op seed. TF's are
    nondeterministic (a fresh pair per op); simdist's are one pair derived from the machine's root
    seed, so such ops are deterministic per root seed and each kernel's stream continues across
    calls (the same draws whether a tf.function replays or runs its Python)."""
    _state = _cur.ctx.rng
    pair = _state.get("unseeded")
    if pair is None:
        ints = np.random.default_rng(np.random.SeedSequence([_state["root"], 0x5EED])).integers(1, 2**31 - 1, size=2)
        pair = _state["unseeded"] = (int(ints[0]), int(ints[1]))
    return pair


def numpy_seed(high: float) -> int:
    """A seed in [0, high) for library code that draws one from NumPy's global stream
    (`np.random.randint(high)`: Keras's legacy backend, timeseries shuffles): that stream after
    keras.utils.set_random_seed seeded it, as the library does; otherwise a stream of the session
    derived from the root seed, advancing with each draw (never NumPy's unseeded global state)."""
    if python_seeded():
        return int(np.random.randint(high))
    _state = _cur.ctx.rng
    gen = _state.get("numpy_stream")
    if gen is None:
        gen = _state["numpy_stream"] = np.random.default_rng(np.random.SeedSequence([_state["root"], 0x4E554D50]))
    return int(gen.integers(0, int(high)))


def default_seed(op_seed: int, low: int, high: int) -> int:
    """A seed in [low, high) for an unseeded object of a library that takes it from Python's
    `random` (Keras's make_default_seed): RandomUniformInt of (global seed, op_seed)'s kernel
    under a global seed; without one, of a pair derived from the root seed and `op_seed` (TF's
    (87654321, op_seed) would not depend on the root seed). Advances no op-seed sequence."""
    from simdist.runtime.ops.random_gamma import tf_seeds
    _state = _cur.ctx.rng
    if _state["global"] is not None:
        s1, s2 = tf_seeds(op_seed)
    else:
        ints = np.random.default_rng(np.random.SeedSequence([_state["root"], int(op_seed)])).integers(
            1, 2**31 - 1, size=2)
        s1, s2 = int(ints[0]), int(ints[1])
    gen = _kernel(("RandomUniformInt", s1, s2, "int64"), s1, s2, philox_dists.RESERVED)
    return int(philox_dists.uniform_int(gen, (), int(low), int(high), np.int64))


def _seeds(op_seed: Any) -> tuple[int, int]:
    """random_seed.get_seed(op_seed): the (seed, seed2) attrs of a stateful op (random_gamma.tf_seeds)."""
    from simdist.runtime.ops.random_gamma import tf_seeds
    return tf_seeds(op_seed)


SEED_REQUIRED = "Random ops require a seed to be set when determinism is enabled. Please set a seed before " \
    "running the op, e.g. by calling tf.random.set_seed(1)."


def determinism_required() -> bool:
    """Whether tf.config.experimental.enable_op_determinism() was called by this client."""
    return _cur.ctx.client.config.op_determinism


def guarded_init(op: Any, seed: int, seed2: int) -> None:
    """GuardedPhiloxRandom::Init(OpKernelConstruction*): a kernel whose seed attrs are both 0 draws
    OS entropy, which op determinism forbids: InvalidArgumentError (clause config.runtime-settings).
    Kernels that seed their generator themselves (FractionalMaxPool/AvgPool) do not check."""
    if seed == 0 and seed2 == 0 and _cur.ctx.client.config.op_determinism:
        raise errors.InvalidArgumentError(
            None, None, f"When determinism is enabled, random ops must have a seed specified. [Op:{op}]")


def _kernel(key: tuple, seed: int, seed2: int, skip: int, kernel: Any = None) -> philox.Philox:
    """The kernel's generator before this call, moved on by `skip` outputs
    (GuardedPhiloxRandom::ReserveSamples128): eager kernels are cached per (op, seeds, dtypes), a
    traced function's are its own (`kernel`, random_graphs.instance). An effect-free trace (an
    untaken tf.cond branch) draws without moving the stream: TF never runs that kernel. The eager
    cache is per device too: under MirroredStrategy.run each replica's op runs on its own device, so
    `dropout(x, 0.5, seed=s)` on replica 1 (/cpu:1) starts its own stream where replica 0's (/cpu:0)
    goes on from earlier eager calls (fz50b, fz50b_gen seed 50002 #26, #28; TF 2.21, run)."""
    guarded_init(key[0], seed, seed2)
    if kernel is not None:
        key = (random_graphs.aliased_kernel(kernel),) + key
    else:
        from simdist.runtime import context
        device = context.current_device()
        if not device.endswith("CPU:0"):   # (the default device keeps the key it always had)
            key = key + (device,)
    streams = _cur.ctx.rng.setdefault("philox", {})
    gen = streams.get(key)
    if gen is None:
        gen = streams[key] = philox.seeded(seed, seed2)
    local = gen.copy()
    if not execution.effect_free(_cur.ctx):
        gen.skip(skip)
    return local


def _seed_attrs(op_seed: Any) -> dict[str, Any]:
    """A stateful op's seed attrs and its kernel instance (random_graphs.instance)."""
    s1, s2 = _seeds(op_seed)
    return {"seed": s1, "seed2": s2, "kernel": random_graphs.instance()}


def shape_type(shape: Any) -> dict[str, str]:
    """The shape input's type attr T where it is not int32 (an int64 tensor or array): TF caches an eager
    kernel per attrs, so `uniform(int64 shape, seed=s)` after `uniform([4], seed=s)` starts its own stream
    (TF 2.21, run; rargs `after_base`)."""
    dt = getattr(shape, "dtype", None)
    return {"T": "int64"} if dt is not None and str(getattr(dt, "name", dt)) == "int64" else {}


def _t_key(t: str) -> tuple:
    return () if t == "int32" else (t,)


def _outputs(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _normal(shape: tuple[int, ...], mean: float, stddev: float, dtype: dtypes.DType, seed: int,
            seed2: int, kernel: Any = None, T: str = "int32") -> np.ndarray:
    n = _outputs(shape)
    gen = _kernel(("RandomStandardNormal", seed, seed2, dtype.name) + _t_key(T), seed, seed2, n * philox_dists.RESERVED,
                  kernel)
    return _scaled(philox_dists.normal(gen, shape, dtype._np), stddev, mean, dtype)


def _uniform(shape: tuple[int, ...], minval: Any, maxval: Any, dtype: dtypes.DType, seed: int, seed2: int,
             kernel: Any = None, T: str = "int32") -> np.ndarray:
    n = _outputs(shape)
    if dtype.is_integer:
        gen = _kernel(("RandomUniformInt", seed, seed2, dtype.name) + _t_key(T), seed, seed2,
                      n * philox_dists.RESERVED, kernel)
        return philox_dists.uniform_int(gen, shape, int(minval), int(maxval), dtype._np)
    gen = _kernel(("RandomUniform", seed, seed2, dtype.name) + _t_key(T), seed, seed2, n * philox_dists.RESERVED,
                  kernel)
    r = philox_dists.uniform(gen, shape, dtype._np)
    if minval is None:   # TF's Python int 0: no Add; a maxval other than int 1 multiplies
        return r if maxval is None else r * dtype._np.type(maxval)
    lo, hi = dtype._np.type(minval), dtype._np.type(maxval)
    return r * (hi - lo) + lo


NORMAL = register("RandomStandardNormal", _normal, lambda dts, a: a["dtype"], stateful=True, kind="random")
UNIFORM = register("RandomUniform", _uniform, lambda dts, a: a["dtype"], stateful=True, kind="random")
NotDifferentiable("RandomStandardNormal")
NotDifferentiable("RandomUniform")


@partial_values.shaped("shape")
def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32, seed: int | None = None,
           name: str | None = None) -> Tensor:
    shp = _check_shape(_vector(shape, "RandomStandardNormal"), "RandomStandardNormal")
    dt = _float_dtype(dtype, mean, stddev, "RandomStandardNormal")
    if not (_number(mean) and _number(stddev)):   # TF's rnd * stddev + mean: arrays broadcast against the draw
        return _moments_applied(NORMAL, shp, mean, stddev, dt, seed, shape_type(shape))
    return dispatch.execute(NORMAL, (), {"shape": shp, "mean": float(mean), "stddev": float(stddev),
                                         "dtype": dt, **_seed_attrs(seed), **shape_type(shape)})


def _moments_applied(op: Any, shp: tuple[int, ...], mean: Any, stddev: Any, dt: dtypes.DType, seed: Any,
                     t_attr: dict[str, str]) -> Tensor:
    """random_ops' `rnd * stddev + mean` as ops (a standard draw of `op`, then Mul and Add): a tensor or
    array mean/stddev broadcasts against the draw, and the tape differentiates it."""
    from simdist.runtime.ops import math
    from simdist.runtime.tensor import convert_to_tensor
    m, sd = convert_to_tensor(mean, dtype=dt), convert_to_tensor(stddev, dtype=dt)
    r = dispatch.execute(op, (), {"shape": shp, "mean": 0.0, "stddev": 1.0, "dtype": dt, **_seed_attrs(seed), **t_attr})
    return math.add(math.multiply(r, sd), m)


def _number(v: Any) -> bool:
    """Whether a mean/stddev folds into the op as a number: not a tensor, and 0-d (a list or an
    array is converted and broadcast against the draw, as TF's `rnd * stddev + mean`)."""
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):   # (a variable: a tensor, never read as an array:
        return False                                       # inside tf.function that is NotImplementedError; fz31b)
    return bool(np.ndim(v) == 0)


@partial_values.shaped("shape")
def uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    """`tf.random.uniform`: RandomUniform (floats; then `* (maxval - minval) + minval` unless minval
    is the Python int 0, and `* maxval` unless maxval is the int 1 or None) or RandomUniformInt."""
    dt = dtypes.as_dtype(dtype)
    if dt.name not in ("float16", "bfloat16", "float32", "float64", "int32", "int64"):
        raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dt.name}'>. Accepted dtypes are (tf.float16, "
                         "tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64).")
    if maxval is None:
        if dt.is_integer:
            raise ValueError("Must specify maxval for integer dtype " + repr(dt))
        maxval = 1
    # (random_ops' `isinstance(minval, int) and minval == 0`: a bool is an int, so False is zero and
    # True is one)
    zero = isinstance(minval, int) and minval == 0
    one = isinstance(maxval, int) and maxval == 1
    lo_t = hi_t = None
    if not zero or not one or dt.is_integer:   # (TF converts both with the dtype: a tensor of another is ValueError)
        lo_t, hi_t = _bound_tensor(minval, dt), _bound_tensor(maxval, dt)
    shp = _check_shape(_vector(shape, "RandomUniformInt" if dt.is_integer else "RandomUniform"), "RandomUniform")
    seeds = {**_seed_attrs(seed), **shape_type(shape)}
    if dt.is_integer:
        for what, b in (("minval", lo_t), ("maxval", hi_t)):
            if b.shape.rank != 0:
                raise errors.InvalidArgumentError(None, None, f"{what} must be 0-D, got shape {list(b.shape)} "
                                                  "[Op:RandomUniformInt]")
        lo, hi = int(lo_t._v), int(hi_t._v)
        if lo >= hi:
            raise errors.InvalidArgumentError(None, None, f"Need minval < maxval, got {lo} >= {hi} [Op:RandomUniformInt]")
        return dispatch.execute(UNIFORM, (), {"shape": shp, "minval": lo, "maxval": hi, "dtype": dt, **seeds})
    if (lo_t is None or lo_t.shape.rank == 0) and (hi_t is None or hi_t.shape.rank == 0):
        # scalar bounds fold into the one op (the same values as TF's Mul and AddV2)
        lo = None if zero else float(lo_t._v)
        hi = None if zero and one else float(hi_t._v)
        rec = execution._current.ctx.recorder
        if lo is None and hi is None or rec is None or not rec.rewrites:
            return dispatch.execute(UNIFORM, (), {"shape": shp, "minval": lo, "maxval": hi, "dtype": dt, **seeds})
        return _scaled_draw(dispatch.execute(UNIFORM, (), {"shape": shp, "minval": None, "maxval": None, "dtype": dt,
                                                      **seeds}), lo, hi, dt)
    # (tensor or array bounds broadcast against the draw, `rnd * (maxval - minval) + minval`: a [1]
    # bound makes a [] draw [1]; random_contrast's NumPy upper, fz14 seed 1420282804 #91)
    return _scaled_draw(dispatch.execute(UNIFORM, (), {"shape": shp, "minval": None, "maxval": None, "dtype": dt,
                                                  **seeds}), None if zero else lo_t, hi_t, dt)


def _bound_tensor(v: Any, dt: dtypes.DType) -> Tensor:
    """random_ops' `ops.convert_to_tensor(minval, dtype=dtype, name="min")` (then maxval's): a NumPy
    value is cast (a complex one keeps its real part: random_saturation's NumPy complex upper; fz14
    seed 1420262201 #110), a tensor of another dtype is ValueError ("Tensor conversion requested
    dtype float32 for Tensor with dtype int32"; fz14 seed 1420261202 #195)."""
    from simdist.runtime.tensor import convert_to_tensor
    if isinstance(v, (np.ndarray, np.generic)) and np.asarray(v).dtype.kind == "c":
        v = np.real(v)
    return convert_to_tensor(v, dtype=dt)


def _scaled_draw(r: Tensor, lo: Any, hi: Any, dt: dtypes.DType) -> Tensor:
    """`rnd * (maxval - minval) + minval` (`rnd * maxval` for minval the int 0) as the Mul and
    AddV2 nodes TF's graph holds (for scalar bounds the same values as the one op eagerly), so that
    Grappler's rewrites inside a tf.function see them (ConstantPushDown: `random_uniform(...) + c`
    adds c to minval first; grappler.py) and tensor bounds broadcast. A float bound is a constant of
    the draw's dtype."""
    from simdist.runtime.ops import array, math
    hi_t = array.constant(hi, dtype=dt) if isinstance(hi, float) else hi
    if lo is None:
        return math.multiply(r, hi_t)
    lo_t = array.constant(lo, dtype=dt) if isinstance(lo, float) else lo
    return math.add(math.multiply(r, math.subtract(hi_t, lo_t)), lo_t)


# --- more stateful draws: truncated normal, categorical, shuffle ---------------------------------------------
def _vector(shape: Any, opname: str) -> tuple[int, ...]:
    """The shape argument of a random op (shape_arg), which its kernel wants a vector: a scalar (a
    Python or NumPy integer, a 0-d array or tensor) is InvalidArgumentError, the shape function's
    ValueError while a tf.function is traced (tnp29: `tnp.random.uniform(size=3)`)."""
    _shape_dtype(shape, opname)
    scalar = (isinstance(shape, (int, np.integer)) and not isinstance(shape, bool)) or \
        (isinstance(shape, (Tensor, np.ndarray)) and shape.ndim == 0)
    if scalar:
        raise trace_errors.shape_error(f"shape must be a vector of {{int32,int64}}, got shape [] [Op:{opname}]",
                                       "Shape must be rank 1 but is rank 0", opname, ([],))
    nested = type(shape) in (list, tuple) and len(shape) > 0 and all(type(d) in (list, tuple) for d in shape)
    if nested or (isinstance(shape, (Tensor, np.ndarray)) and shape.ndim > 1):
        # a shape of rank 2 or more: the kernel's vector check eagerly, the shape function's ValueError traced
        # (TF 2.21 observed, `tf.random.uniform([[2]])`, `stateless_normal([[2]], seed)`; zsweep60)
        dims = list(np.shape(shape)) if nested else list(shape.shape)
        raise trace_errors.shape_error(f"shape must be a vector of {{int32,int64}}, got shape "
                                       f"[{','.join(str(d) for d in dims)}] [Op:{opname}]",
                                       f"Shape must be rank 1 but is rank {len(dims)}", opname, (dims,))
    return shape_arg(shape)


def _shape_dtype(shape: Any, opname: str) -> None:
    """tensor_util.shape_tensor's conversion of a random op's shape (no dtype: a float list is float32, a
    string a string tensor), then the op's shape type attr (Tshape of the stateless ops, T of the stateful
    ones), int32 or int64: another dtype is the NodeDef's InvalidArgumentError eagerly, op_def_library's
    TypeError in a graph, before the kernel's vector check (TF 2.21 observed: `stateless_uniform([2.5],
    seed)`, `stateless_normal(tf.constant([2.0]), seed)`; fz44b, fz44_gen seeds 44002, 44003)."""
    if type(shape) in (list, tuple):
        if all(isinstance(d, (int, np.integer)) or isinstance(d, Tensor) or d is None for d in shape):
            _shape_list_dtype(shape, opname)
            return
    elif isinstance(shape, (int, np.integer, TensorShape)) or \
            (isinstance(shape, (Tensor, np.ndarray)) and shape.dtype.name in ("int32", "int64")):
        # (a tensor or array of another integer dtype or of bools keeps its dtype through shape_tensor's
        # convert_to_tensor, which the type attr refuses: `uniform(tf.constant([2, 3], tf.int8))`; TF 2.21, lsweep63)
        return
    t = shape if isinstance(shape, Tensor) else convert_to_tensor(shape)
    if t.dtype.name not in ("int32", "int64"):
        attr = "Tshape" if opname.startswith("Stateless") else "T"
        raise trace_errors.attr_not_allowed(opname, attr, t.dtype, "int32, int64")


def _shape_list_dtype(shape: list | tuple, opname: str) -> None:
    """A list of Python/NumPy integers and bools as shape_tensor converts it in each mode (TF 2.21 observed, lsweep63):
    eagerly the EagerTensor conversion, which refuses a bool mixed with integers (ValueError "Can't convert Python
    sequence with mixed types") and makes a list of bools a bool tensor (the type attr's InvalidArgumentError), NumPy
    integer items of any width an int32/int64 vector; in a graph the constant's np.array, whose dtype is NumPy's for the
    items (np.int8 items: int8, a bool with integers: int64), refused by op_def_library's TypeError unless int32/int64."""
    if any(isinstance(d, Tensor) or d is None for d in shape) or not shape:
        return
    from simdist.runtime import context
    from simdist.runtime.ops import index_dtypes
    index_dtypes.eager_mixed_bools(shape)
    if not context.in_function():
        if any(isinstance(d, (bool, np.bool_)) for d in shape):
            dt = dtypes.bool_
        else:
            return
    else:
        if not any(isinstance(d, (bool, np.generic)) for d in shape):
            return
        dt = dtypes.as_dtype(np.array(list(shape)).dtype)
    if dt.name not in ("int32", "int64"):
        attr = "Tshape" if opname.startswith("Stateless") else "T"
        raise trace_errors.attr_not_allowed(opname, attr, dt, "int32, int64")


def _check_shape(shape: tuple[int, ...], opname: str) -> tuple[int, ...]:
    for d in shape:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 [Op:{opname}]")
    return shape


def _float_dtype(dtype: Any, mean: Any, stddev: Any, opname: str) -> dtypes.DType:
    """The output dtype of normal/truncated_normal: TF converts mean and stddev to it first (a
    Python float to an integer dtype: TypeError), then the op refuses a non-float dtype."""
    dt = dtypes.as_dtype(dtype)
    for v in (mean, stddev):
        # (random_ops: convert_to_tensor(mean, dtype), then stddev's: a Python float to an integer
        # dtype is TypeError, a tensor of another dtype ValueError; fz14 seed 1420262401 #134)
        if isinstance(v, float) and not dt.is_floating and dt.kind != "c":
            raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype {dt.name}")
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            convert_to_tensor(v, dtype=dt)
    if dt.is_floating:
        return dt
    raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {tf_name(dt)} is not in the list of "
                                      f"allowed values: half, bfloat16, float, double [Op:{opname}]")


def _scaled(r: np.ndarray, scale: float, shift: float, dt: dtypes.DType) -> np.ndarray:
    """r * scale + shift in the output dtype, in TF's order (Mul then Add)."""
    r = r.astype(dt._np)
    return r * dt._np.type(scale) + dt._np.type(shift)


def _truncated_op(shape: tuple[int, ...], mean: float, stddev: float, dtype: dtypes.DType, seed: int,
                  seed2: int, kernel: Any = None, T: str = "int32") -> np.ndarray:
    n = _outputs(shape)
    gen = _kernel(("TruncatedNormal", seed, seed2, dtype.name) + _t_key(T), seed, seed2, n * philox_dists.RESERVED,
                  kernel)
    return _scaled(philox_dists.truncated_normal(gen, shape, dtype._np), stddev, mean, dtype)


TRUNCATED = register("TruncatedNormal", _truncated_op, lambda dts, a: a["dtype"], stateful=True, kind="random")
NotDifferentiable("TruncatedNormal")


@partial_values.shaped("shape")
def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32,
                     seed: int | None = None, name: str | None = None) -> Tensor:
    """`tf.random.truncated_normal`: normal draws within two standard deviations of the mean. A tensor
    or an array mean/stddev is TF's `rnd * stddev + mean` (broadcast against the draw, differentiable)."""
    shp = _check_shape(_vector(shape, "TruncatedNormal"), "TruncatedNormal")
    dt = _float_dtype(dtype, mean, stddev, "TruncatedNormal")
    if not (_number(mean) and _number(stddev)):
        return _moments_applied(TRUNCATED, shp, mean, stddev, dt, seed, shape_type(shape))
    return dispatch.execute(TRUNCATED, (), {"shape": shp, "mean": float(mean), "stddev": float(stddev),
                                            "dtype": dt, **_seed_attrs(seed), **shape_type(shape)})


def _categorical(logits: np.ndarray, num_samples: int, dtype: dtypes.DType, seed: int, seed2: int,
                 kernel: Any = None) -> np.ndarray:
    """Multinomial: the kernel reserves 256 outputs per (row, 8 per started group of 4 samples)."""
    rows = logits.shape[0]
    skip = rows * ((num_samples + 3) // 4 * 4 * 2) * philox_dists.RESERVED
    gen = _kernel(("Multinomial", seed, seed2, logits.dtype.name, dtype.name), seed, seed2, skip, kernel)
    return philox_dists.categorical(gen, logits, num_samples).astype(dtype._np)


def _categorical_rule(name: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        if not dts[0].is_floating and not dts[0].is_integer:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(dts[0])} is not in the list of "
                                              f"allowed values: float, double, int32, uint8, int16, int8, int64, "
                                              f"bfloat16, uint16, half, uint32, uint64 [Op:{name}]")
        return attrs["dtype"]
    return rule


MULTINOMIAL = register("Multinomial", _categorical,
                       _categorical_rule("Multinomial"), stateful=True, kind="random")
NotDifferentiable("Multinomial")


def _check_logits(lt: Tensor, opname: str, num_samples: int, kernel: Any = None) -> BaseException | None:
    """The samplers' logits and num_samples checks; `kernel` (the dtype's kernel check) runs first
    eagerly and after the shape function's checks in a tf.function, where TF looks the kernel up only
    when the graph runs: a dry run of the traced Python goes on past a missing one (returned, for the
    caller's stand-in), so a later op's build error is the trace's (fz46, fz14 seed 1420463004 #266:
    stateless_categorical of int32 logits, then `1.0 <= y`, GreaterEqual's TypeError)."""
    from simdist.runtime import context
    from simdist.runtime.ops import static_shapes
    traced = context.in_function()
    if kernel is not None and not traced:
        kernel()
    unknown_rank = lt.ndim != 2 and static_shapes.rank_unknown(lt)
    if lt.ndim != 2 and not unknown_rank:   # (traced: the shape function's WithRank(logits, 2); fz7 ext seeds 82 #129, 83 #248)
        raise trace_errors.static(
            errors.InvalidArgumentError(None, None, f"logits should be a matrix, got shape {dims(lt.shape.as_list())} "
                                        f"[Op:{opname}]"), ValueError, f"Shape must be rank 2 but is rank {lt.ndim}")
    if num_samples < 0:   # (traced: the shape function's check of the constant num_samples)
        raise trace_errors.static(
            errors.InvalidArgumentError(None, None, f"num_samples should be non-negative, got {num_samples} "
                                        f"[Op:{opname}]"), ValueError,
            f"Dimension size, given by scalar input 1, must be non-negative but is {num_samples}")
    missing = None
    if kernel is not None and traced:
        try:
            kernel()
        except errors.NotFoundError as e:
            if not dispatch.deferred_kernel(e):
                raise
            missing = e
    if missing is not None:
        return missing
    if unknown_rank:   # (the graph does not know the rank: the shape function passes it, the kernel refuses;
        # fz10 ext seeds 92 #297, 91 #144: a negative constant num_samples is still the shape function's)
        raise errors.InvalidArgumentError(None, None, f"logits should be a matrix, got shape "
                                          f"{dims(lt.shape.as_list())} [Op:{opname}]")
    classes = lt.shape.as_list()[1]
    if classes is not None and classes <= 0:
        raise errors.InvalidArgumentError(None, None, f"num_classes should be positive, got {classes} [Op:{opname}]")
    return None


_MULTINOMIAL_T = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"


def _categorical_checks(lt: Tensor, dtype: Any, opname: str, seed_dtype: str | None = None) -> dtypes.DType:
    """random_ops' checks before the op: `dtype` must be int32 or int64 (ValueError), then the
    logits' dtype must be in the op def's T (attr error: complex, bool; fz7 ext seed 81 #170) and
    have a kernel (half, bfloat16, float, double: NotFoundError otherwise); fz5 ext seed 61 #39, #49."""
    dt = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    if dt not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dt.name}'>. Accepted dtypes are "
                         "(tf.int32, tf.int64).")
    if not lt.dtype.is_floating and not lt.dtype.is_integer:   # outside the op def's T (complex, bool, string)
        err = errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(lt.dtype)} is not in the list of "
                                                      f"allowed values: {_MULTINOMIAL_T} [Op:{opname}]")
        names = ", ".join({"float": "float32", "double": "float64", "half": "float16"}.get(n, n)
                          for n in _MULTINOMIAL_T.split(", "))
        raise trace_errors.static(err, TypeError, f"Value passed to parameter 'logits' has DataType {lt.dtype.name} "
                                                  f"not in list of allowed values: {names}")
    return dt


def _categorical_kernel(lt: Tensor, dt: dtypes.DType, opname: str, seed_dtype: str | None = None) -> None:
    """The samplers' CPU kernels take half, bfloat16, float and double logits only: NotFoundError
    otherwise. Eagerly before the kernel's own checks; in a tf.function after the shape function's
    (TF builds the node, then fails to place it: fz21, third generator --ext8 seed 2102 #17)."""
    if lt.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        attrs = f"T=DT_{lt.dtype.name.upper()}" + (f", Tseed=DT_{seed_dtype.upper()}" if seed_dtype else "") + \
            f", output_dtype=DT_{dt.name.upper()}"
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {opname}}}}} = "
                                               f"{opname}[{attrs}] [Op:{opname}]")


def _categorical_static(a: dict) -> list[int | None] | None:
    """Multinomial's shape function with num_samples the graph does not know: [logits' batch, unknown]."""
    logits = a["logits"]
    known = static_shapes.known_shape(logits) if isinstance(logits, Tensor) else list(np.shape(logits))
    return [None if known is None or not known else known[0], None]


def _num_samples_dtype(lt: Tensor, num_samples: Any, opname: str) -> None:
    """The samplers' num_samples, an input of fixed dtype int32: a Python float is TypeError in both modes (the eager
    conversion's, op_def_library's in a graph; TF 2.21 observed, fz44b, fz44_gen seed 44002; Multinomial's too,
    lsweep63); a tensor of another dtype is ops.index-dtypes' fixed-input rule (Multinomial eagerly on the fast path:
    the kernel's InvalidArgumentError; StatelessMultinomial's wrapper converts it first: ValueError; traced TypeError;
    TF 2.21 observed, lsweep63)."""
    if isinstance(num_samples, float):
        from simdist.runtime import context
        if context.in_function():
            raise TypeError(f"Expected int32 passed to parameter 'num_samples' of op '{opname}', got "
                            f"{num_samples!r} of type 'float' instead. Error: Expected int32, but got {num_samples!r} "
                            "of type 'float'.")
        raise TypeError(f"Cannot convert {num_samples!r} to EagerTensor of dtype int32")
    from simdist.runtime.ops import index_dtypes
    index_dtypes.check(opname, "num_samples", num_samples, inputs=(lt, num_samples) if opname == "Multinomial" else None)


@partial_values.shaped("num_samples", rule=_categorical_static)
def categorical(logits: Any, num_samples: Any, dtype: Any = None, seed: int | None = None,
                name: str | None = None) -> Tensor:
    """`tf.random.categorical`: [batch, num_samples] class indices drawn from softmax(logits)."""
    from simdist.runtime.ops.args import t as _t
    lt = _t(logits)
    dt = _categorical_checks(lt, dtype, "Multinomial")
    _num_samples_dtype(lt, num_samples, "Multinomial")
    n = int(num_samples)
    missing = _check_logits(lt, "Multinomial", n, lambda: _categorical_kernel(lt, dt, "Multinomial"))
    if missing is not None:
        return dispatch.refused(missing, dt, [lt.shape.as_list()[0], n])
    return dispatch.execute(MULTINOMIAL, (lt,), {"num_samples": n, "dtype": dt, **_seed_attrs(seed)})


def _shuffle(a: np.ndarray, seed: int, seed2: int, kernel: Any = None) -> np.ndarray:
    """RandomShuffle: nothing drawn for one element or row; else ReserveSamples32(rows - 1) (that
    many words, in whole outputs) and a Fisher-Yates pass (philox_dists.shuffle_order)."""
    if a.size <= 1 or a.shape[0] <= 1:
        return a
    rows = a.shape[0]
    gen = _kernel(("RandomShuffle", seed, seed2, a.dtype.name), seed, seed2, (rows - 1 + 3) // 4, kernel)
    return a[philox_dists.shuffle_order(gen, rows)]


SHUFFLE = register("RandomShuffle", _shuffle, lambda dts, a: dts[0], lambda arrays, out, attrs: 0, stateful=True,
                   kind="random")
NotDifferentiable("RandomShuffle")


def shuffle(value: Any, seed: int | None = None, name: str | None = None) -> Tensor:
    """`tf.random.shuffle`: the rows (first axis) in a random order."""
    from simdist.runtime.ops.args import t as _t
    v = _t(value)
    return dispatch.execute(SHUFFLE, (v,), {**_seed_attrs(seed)})


# --- stateless ops: pure functions of (shape, seed pair) ----------------------------------------------------
# Every draw is TF's, bit for bit: the generator of the seed pair (philox.stateless: GenerateKey)
# and the distributions of philox_dists.py, with no reservation (a pure function of the seed).
def _stateless_gen(seed: np.ndarray) -> philox.Philox:
    s = np.asarray(seed).reshape(-1)
    return philox.stateless(int(s[0]), int(s[1]))


def _seed_rule(opname: str, out: Any) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        sd = dts[-1]
        if sd not in (dtypes.int32, dtypes.int64):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tseed' of {tf_name(sd)} is not in the list of "
                                              f"allowed values: int32, int64 [Op:{opname}]")
        return out(dts, attrs)
    return rule


def _normal_sl(seed: np.ndarray, shape: tuple, dtype: dtypes.DType, mean: float, stddev: float) -> np.ndarray:
    return _scaled(philox_dists.normal(_stateless_gen(seed), shape, dtype._np), stddev, mean, dtype)


def _truncated_sl(seed: np.ndarray, shape: tuple, dtype: dtypes.DType, mean: float, stddev: float) -> np.ndarray:
    return _scaled(philox_dists.truncated_normal(_stateless_gen(seed), shape, dtype._np), stddev, mean, dtype)


def _uniform_sl(seed: np.ndarray, shape: tuple, dtype: dtypes.DType, minval: Any, maxval: Any) -> np.ndarray:
    if dtype.is_integer:
        if minval is None:
            return philox.full_int(seed, shape, dtype._np)
        return philox.uniform_int(seed, shape, minval, maxval, dtype._np)
    r = philox.uniform_float(seed, shape, dtype._np)
    lo, hi = dtype._np.type(minval), dtype._np.type(maxval)
    return r * (hi - lo) + lo   # TF: rnd * (maxval - minval) + minval, each operand of the output dtype


def _categorical_sl(logits: np.ndarray, seed: np.ndarray, num_samples: int, dtype: dtypes.DType) -> np.ndarray:
    return philox_dists.categorical(_stateless_gen(seed), logits, num_samples).astype(dtype._np)


_OUT_DTYPE = lambda dts, a: a["dtype"]   # noqa: E731
STATELESS_NORMAL = register("StatelessRandomNormalV2", _normal_sl, _seed_rule("StatelessRandomNormalV2", _OUT_DTYPE),
                            kind="random")
STATELESS_TRUNCATED = register("StatelessTruncatedNormalV2", _truncated_sl,
                               _seed_rule("StatelessTruncatedNormalV2", _OUT_DTYPE), kind="random")
STATELESS_UNIFORM = register("StatelessRandomUniformV2", _uniform_sl,
                             _seed_rule("StatelessRandomUniformV2", _OUT_DTYPE), kind="random")
STATELESS_CATEGORICAL = register("StatelessMultinomial", _categorical_sl,
                                 _seed_rule("StatelessMultinomial", lambda dts, a: (
                                     _categorical_rule("StatelessMultinomial")(dts, a))), kind="random")
for _n in ("StatelessRandomNormalV2", "StatelessTruncatedNormalV2", "StatelessRandomUniformV2",
           "StatelessMultinomial"):
    NotDifferentiable(_n)


def seed_shape_error(shape: list, op: str = "StatelessRandomGetKeyCounter") -> errors.InvalidArgumentError:
    """The error of stateless op `op` (by default StatelessRandomGetKeyCounter) for a seed not of
    shape [2]: eagerly the kernel's InvalidArgumentError, traced its shape function's ValueError
    (WithRank 1, WithValue 2)."""
    err = errors.InvalidArgumentError(None, None, f"seed must have shape [2], not {dims(shape)} [Op:{op}]")
    text = f"Shape must be rank 1 but is rank {len(shape)}" if len(shape) != 1 else \
        f"Dimension must be 2 but is {shape[0]}"
    return trace_errors.static(err, ValueError, text)


def seed_tensor(seed: Any) -> Tensor:
    """A Tseed input converted as TF's op helper does: a NumPy array (or scalar) of integers (unsigned or narrow),
    floats or bools with the attr's default int64 as the dtype hint, which for a NumPy array is NumPy's cast
    (wrapping, floats truncated: np.array([1.5, -2.5]) seeds as [1, -2]); anything else by its own dtype; a tensor as
    it is."""
    from simdist.runtime.tensor import convert_to_tensor
    if isinstance(seed, Tensor):
        return seed
    if isinstance(seed, (np.ndarray, np.generic)) and np.asarray(seed).dtype.kind in "biuf":
        return convert_to_tensor(np.asarray(seed).astype(np.int64))
    return convert_to_tensor(seed)


def _seed(seed: Any, opname: str) -> Tensor:
    """A stateless op's seed as its Tseed attr takes it: a NumPy array (unsigned, narrow, float, bool) converts with
    the attr's default int64 as the dtype hint (NumPy's cast: np.uint64 2**64-1 is -1, 1.5 is 1), other non-tensors by
    their own dtype; a tensor (or a conversion) of a dtype other than int32/int64 is the attr's InvalidArgumentError
    in every stateless op (poisson, gamma, binomial, categorical too; clause ops.stateless-random; nsweep62)."""
    s = seed_tensor(seed)
    if s.dtype.is_integer and s.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tseed' of {tf_name(s.dtype)} is not in the list "
                                          f"of allowed values: int32, int64 [Op:{opname}]")
    if s.dtype.is_integer and s.shape.as_list() != [2]:
        raise seed_shape_error(s.shape.as_list())
    if not s.dtype.is_integer:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tseed' of {tf_name(s.dtype)} is not in the list "
                                          "of allowed values: int32, int64 [Op:StatelessRandomGetKeyCounter]")
    return s


def _affine(op: Any, seed: Any, shape: Any, dtype: Any, a: Any, b: Any, opname: str, alg: Any) -> Tensor:
    """A standard draw scaled and shifted: folded into the op for Python numbers; as Mul and Add
    ops (so gradients reach them, as in TF) when the mean/stddev are tensors."""
    from simdist.runtime.ops import math
    dt = dtypes.as_dtype(dtype)
    from simdist.runtime.tensor import convert_to_tensor
    if not dt.is_floating:   # TF converts the mean and stddev to that dtype first (their errors as they are:
        # a float tensor's ValueError, fz14 seed 1420261219 #222), then the op refuses the dtype attr
        for v in (a, b):   # (a NumPy float64 is NumPy's value, which converts to uint64 by a cast: fz34b, fz14
            # seed 1420343002 #252, stddev=np.float64(0.1) with dtype='uint64' is the attr's error)
            convert_to_tensor(float(v) if isinstance(v, float) and not isinstance(v, np.generic) else v, dtype=dt)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {args.tf_name(dt)} is not in the list "
                                          f"of allowed values: half, bfloat16, float, double [Op:{opname}]")
    shp = _vector(shape, opname)
    for v, what in ((a, "mean"), (b, "stddev")):   # (TF converts mean and stddev to the dtype, then reads
        # alg and the seed: a tensor of another dtype is ValueError there; fz21, fz14 seed 1420262101 #222)
        if not isinstance(v, Tensor):
            convert_to_tensor(v, dtype=dt)
        elif v.dtype != dt:
            raise ValueError(f"{what}: Tensor conversion requested dtype {dt.name} for Tensor with dtype "
                             f"{v.dtype.name}: {v!r}")
    s = rng_alg.seed_for(seed, alg, opname)
    _check_shape(shp, opname)   # (the kernel's check)
    if not (_number(a) and _number(b)):
        r = dispatch.execute(op, (s,), {"shape": shp, "dtype": dt, "mean": 0.0, "stddev": 1.0})
        return math.add(math.multiply(r, convert_to_tensor(b, dtype=dt)), convert_to_tensor(a, dtype=dt))
    return dispatch.execute(op, (s,), {"shape": shp, "dtype": dt, "mean": float(a), "stddev": float(b)})


@partial_values.shaped("shape")
def stateless_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
                     name: str | None = None, alg: Any = "auto_select") -> Tensor:
    """`tf.random.stateless_normal`: the same values for the same (shape, seed, dtype), always."""
    return _affine(STATELESS_NORMAL, seed, shape, dtype, mean, stddev, "StatelessRandomNormalV2", alg)


def stateless_truncated_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                               dtype: Any = dtypes.float32, name: str | None = None,
                               alg: Any = "auto_select") -> Tensor:
    return _affine(STATELESS_TRUNCATED, seed, shape, dtype, mean, stddev, "StatelessTruncatedNormalV2", alg)


@partial_values.shaped("shape")
def stateless_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32,
                      name: str | None = None, alg: Any = "auto_select") -> Tensor:
    """`tf.random.stateless_uniform`: floats in [minval, maxval) (default [0, 1)); integers in
    [minval, maxval), or the full range when both are None (int32/int64)."""
    from simdist.runtime.ops import math
    from simdist.runtime.tensor import convert_to_tensor
    dt = dtypes.as_dtype(dtype)
    if not (dt.is_floating or dt in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)):
        raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dt.name}'>. Accepted dtypes are (tf.float16, "
                         "tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, tf.uint64).")
    if dt.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument <dtype: '{dt.name}'>, argument `minval` and `maxval` must be both None "
                             f"or not None. Got `minval`={minval} and `maxval`={maxval}.")
        if minval is not None and dt in (dtypes.uint32, dtypes.uint64):
            raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dt.name}'> when argument `minval` is not "
                             "None. Please don't use unsigned integers in this case.")
    elif maxval is None:
        maxval = 1
    full = dt.is_integer and minval is None
    op = "StatelessRandomUniformFullIntV2" if full else "StatelessRandomUniformIntV2" if dt.is_integer else \
        "StatelessRandomUniformV2"
    shp = _vector(shape, op)
    if full:   # StatelessRandomUniformFullIntV2 (uint32/uint64 too: the same bits)
        s = rng_alg.seed_for(seed, alg, op)
        _check_shape(shp, op)   # (the kernel's check, after the seed's)
        return dispatch.execute(STATELESS_UNIFORM, (s,), {"shape": shp, "dtype": dt, "minval": None, "maxval": None})
    # (TF converts minval and maxval to the dtype before it reads the seed: None is
    # convert_to_tensor's ValueError, e.g. fold_in's float data)
    lo_t, hi_t = convert_to_tensor(minval, dtype=dt), convert_to_tensor(maxval, dtype=dt)
    s = rng_alg.seed_for(seed, alg, op)
    _check_shape(shp, op)
    if dt.is_integer:
        lo, hi = int(minval), int(maxval)
        if lo >= hi:
            raise errors.InvalidArgumentError(None, None, f"Need minval < maxval, got {lo} >= {hi} "
                                              "[Op:StatelessRandomUniformIntV2]")
        return dispatch.execute(STATELESS_UNIFORM, (s,), {"shape": shp, "dtype": dt, "minval": lo, "maxval": hi})
    if isinstance(minval, Tensor) or isinstance(maxval, Tensor) or lo_t.ndim or hi_t.ndim:
        # (TF's `rnd * (maxval - minval) + minval` broadcasts bounds of any shape: a maxval of shape [1]
        # makes a [1] result; fz35b, fourteenth generator seed 1420353001 #168)
        r = dispatch.execute(STATELESS_UNIFORM, (s,), {"shape": shp, "dtype": dt, "minval": 0.0, "maxval": 1.0})
        return math.add(math.multiply(r, math.subtract(hi_t, lo_t)), lo_t)
    # (a complex NumPy bound converts to the float dtype as NumPy casts it, its imaginary part dropped:
    # `stateless_random_contrast(image, np.bool_(True), np.array(7 + 65504j, np.complex64), seed)` draws in [1, 7);
    # fz47: fz14 seed 1420473002 #243, float() of the complex had been a TypeError)
    lo = float(np.asarray(lo_t._v)) if np.iscomplexobj(minval) else float(minval)
    hi = float(np.asarray(hi_t._v)) if np.iscomplexobj(maxval) else float(maxval)
    return dispatch.execute(STATELESS_UNIFORM, (s,), {"shape": shp, "dtype": dt, "minval": lo, "maxval": hi})


@partial_values.shaped("num_samples", rule=_categorical_static)
def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = dtypes.int64,
                          name: str | None = None) -> Tensor:
    from simdist.runtime.ops.args import t as _t
    lt = _t(logits)
    dt = _categorical_checks(lt, dtype, "StatelessMultinomial")
    _num_samples_dtype(lt, num_samples, "StatelessMultinomial")
    n = int(num_samples)
    missing = _check_logits(lt, "StatelessMultinomial", n,
                            lambda: _categorical_kernel(lt, dt, "StatelessMultinomial", "int32"))
    s = _seed(seed, "StatelessMultinomial")
    if missing is not None:
        return dispatch.refused(missing, dt, [lt.shape.as_list()[0], n])
    return dispatch.execute(STATELESS_CATEGORICAL, (lt, s), {"num_samples": n, "dtype": dt})
