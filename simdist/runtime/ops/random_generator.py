"""`tf.random.Generator` and the global generator: TF's Philox streams, bit for bit.

A Generator holds its state in an int64 variable of 3 elements (Philox: counter low 64 bits,
counter high 64 bits, key; stateful_random_ops.py). Each draw of n values reads the state and
advances the counter by 256·n (`RngReadAndSkip`: the variable read, the skip op, the assign),
then computes the values from the key and the counter it read (runtime/ops/philox_dists.py).
`split(count)` draws `count` int64 keys (uniform_full_int) and starts a generator at counter 0 on
each; `make_seeds(count)` stacks such keys over zeros. ThreeFry: as TF 2.21 on CPU, a generator
can be made but its first draw raises UnimplementedError ("Non-XLA devices don't support the
ThreeFry algorithm").

A generator made under a strategy and drawn from in a replica (strategy.run) advances that replica's
copy of the state and mixes the replica id into the key, as TF's _preprocess_key:
key' = the first uint64 of Philox(key, counter = [replica id, 0]).

Deliberate difference: TF's `from_non_deterministic_state` (and so the global generator's first
state) draws OS entropy; simdist derives the state from the machine's root seed
(`simdist.configure(seed=...)`), the name "from_non_deterministic_state" and the number of such
generators made before in this program, so a run is reproducible (clause ops.random-generator).
"""

from __future__ import annotations

import enum
import zlib
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors, execution
from simdist.runtime.ops import dispatch, philox, philox_dists
from simdist.runtime.ops.args import dims
from simdist.runtime.ops.registry import NotDifferentiable, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["Algorithm", "Generator", "create_rng_state", "get_global_generator", "set_global_generator"]

_U64 = (1 << 64) - 1
_cur = execution._current


class Algorithm(enum.Enum):
    """`tf.random.Algorithm`."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_STATE_SIZE = {1: 3, 2: 2, 3: 3}   # AUTO_SELECT is managed as Philox (a 2-word counter and a key)


def _alg(alg: Any) -> int:
    """random_ops_util.convert_alg_to_int: an Algorithm, a name (canonicalised as TF does: stripped, lower-cased,
    without '-' and '_', so " Philox ", "auto-select" and "three_fry" are names), or any int, which TF keeps as it
    is: an unknown number fails where the state size is read (`_state_size`); any other type is TypeError (TF 2.21
    observed, names45)."""
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, (int, np.integer)):
        return int(alg)
    if isinstance(alg, str):
        names = {"philox": 1, "threefry": 2, "autoselect": 3}
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon in names:
            return names[canon]
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                         f"{[a.name.lower() for a in Algorithm]}.")
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int.")


def _state_size(alg: int) -> int:
    """stateful_random_ops._get_state_size: an algorithm number without a state size fails in TF 2.21 with the
    AttributeError of its missing message helper (`stateless_random_ops.unsupported_alg_error_msg`; observed for
    Generator.from_seed, from_state, from_key_counter, from_non_deterministic_state and create_rng_state)."""
    size = _STATE_SIZE.get(alg)
    if size is None:
        raise AttributeError("module 'tensorflow.python.ops.stateless_random_ops' has no attribute "
                             "'unsupported_alg_error_msg'")
    return size


def _to_int64(v: int) -> int:
    v = int(v)
    return v - (1 << 64) if v > (1 << 63) - 1 else v


def create_rng_state(seed: Any, alg: Any) -> Tensor:
    """`tf.random.create_rng_state`: a Python int (a bool too) chopped into 64-bit words (low first), anything else
    (a NumPy integer, a list, a tensor) a vector cast to int64; cut to the state size, zero-padded on the left
    (TF's _make_1d_state: `isinstance(seed, int)`; clause ops.random-generator)."""
    size = _state_size(_alg(alg))
    if isinstance(seed, int):
        s = int(seed)
        words = []
        for _ in range(size):
            words.append(s & _U64)
            s >>= 64
        vals = [_to_int64(w) for w in words]
    else:
        arr = seed.numpy() if isinstance(seed, Tensor) else np.asarray(seed)
        if arr.ndim > 1 or arr.dtype.kind not in "iu":
            arr = arr.reshape(-1)
        vals = [_to_int64(int(v) & _U64) if int(v) >= 0 else int(v) for v in arr.reshape(-1).tolist()][:size]
        vals = [0] * (size - len(vals)) + vals
    return convert_to_tensor(np.array(vals, np.int64))


# --- the ops --------------------------------------------------------------------------------------------
def _key_counter(state: np.ndarray) -> tuple[tuple[int, int], int]:
    s = [int(v) & _U64 for v in state.tolist()]
    return (s[2] & 0xFFFFFFFF, s[2] >> 32), s[0] | (s[1] << 64)


def _gen(state: np.ndarray) -> philox.Philox:
    """The Philox generator a Philox-algorithm state holds (counter words 0-1, key word 2)."""
    return philox.Philox(*_key_counter(state))


def _uniform_int(state: np.ndarray, shape: tuple[int, ...], lo: int, hi: int, np_dtype: Any) -> np.ndarray:
    """UniformDistribution of int32/int64/uint32/uint64 in [lo, hi) from the state's key and counter."""
    key, counter = _key_counter(state)
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    return philox._uniform_int_words(lambda blocks: philox.words_at(key, counter, blocks), n, lo, hi,
                                     np.dtype(np_dtype)).reshape(shape)


def _skip(state: np.ndarray, alg: int, delta: int) -> np.ndarray:
    if alg == 2:
        raise errors.UnimplementedError(None, None, "Non-XLA devices don't support the ThreeFry algorithm. "
                                        "[Op:RngReadAndSkip]")
    s = [int(v) & _U64 for v in state.tolist()]
    c = philox.skipped(s[0] | (s[1] << 64), 256 * int(delta))
    return np.array([_to_int64(c & _U64), _to_int64(c >> 64), _to_int64(s[2])], np.int64)


def _float_rule(name: str) -> Any:
    def rule(dts: Any, a: Any) -> dtypes.DType:
        dt = a["dtype"]
        if not dt.is_floating:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {dt.name} is not in the list of "
                                              f"allowed values: half, bfloat16, float, double [Op:{name}]")
        return dt
    return rule


def _int_rule(name: str, allowed: tuple[str, ...]) -> Any:
    def rule(dts: Any, a: Any) -> dtypes.DType:
        dt = a["dtype"]
        if dt.name not in allowed:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {dt.name} is not in the list of "
                                              f"allowed values: {', '.join(allowed)} [Op:{name}]")
        return dt
    return rule


def _n(out: Any) -> int:
    return int(np.asarray(out).size)


# FLOPs: one Philox block is 10 rounds of 2 multiplies and 4 xor/adds per 4 words (~15 per value);
# Box-Muller adds a log, a sqrt and a sincos per two values (~40 per value).
SKIP = register("RngReadAndSkip", lambda state, alg, delta: _skip(state, alg, delta), lambda dts, a: dtypes.int64,
                lambda arrays, out, a: 4.0, stateful=True, kind="random")
UNIFORM = register("StatefulUniform",
                   lambda state, shape, dtype: philox_dists.uniform(_gen(state), shape, dtype._np),
                   _float_rule("StatefulUniform"), lambda arrays, out, a: 15.0 * _n(out), kind="random")
NORMAL = register("StatefulStandardNormalV2",
                  lambda state, shape, dtype: philox_dists.normal(_gen(state), shape, dtype._np),
                  _float_rule("StatefulStandardNormalV2"), lambda arrays, out, a: 55.0 * _n(out), kind="random")
TRUNCATED = register("StatefulTruncatedNormal",
                     lambda state, shape, dtype: philox_dists.truncated_normal(_gen(state), shape, dtype._np),
                     _float_rule("StatefulTruncatedNormal"), lambda arrays, out, a: 60.0 * _n(out), kind="random")
UNIFORM_INT = register("StatefulUniformInt",
                       lambda state, shape, dtype, minval, maxval: _uniform_int(state, shape, minval, maxval, dtype._np),
                       _int_rule("StatefulUniformInt", ("int32", "int64", "uint32", "uint64")),
                       lambda arrays, out, a: 16.0 * _n(out), kind="random")
FULL_INT = register("StatefulUniformFullInt",
                    lambda state, shape, dtype: philox_dists.full_int(_gen(state), shape, dtype._np),
                    _int_rule("StatefulUniformFullInt", ("int32", "int64", "uint32", "uint64")),
                    lambda arrays, out, a: 15.0 * _n(out), kind="random")
for _name in ("RngReadAndSkip", "StatefulUniform", "StatefulStandardNormalV2", "StatefulTruncatedNormal",
              "StatefulUniformInt", "StatefulUniformFullInt"):
    NotDifferentiable(_name)


# --- the Generator ------------------------------------------------------------------------------------
def _nondeterministic_state(alg: int) -> np.ndarray:
    """The state simdist gives `from_non_deterministic_state`: from the root seed, by name and count."""
    rng = _cur.ctx.rng
    k = rng.get("nondeterministic", 0)
    rng["nondeterministic"] = k + 1
    ss = np.random.SeedSequence([int(rng.get("root", 0)) & _U64, zlib.crc32(b"from_non_deterministic_state"), k])
    return ss.generate_state(_state_size(alg), np.uint64).view(np.int64)


class Generator:
    """`tf.random.Generator`: a state variable and the draws that advance it."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    def __init__(self, copy_from: "Generator | None" = None, state: Any = None, alg: Any = None) -> None:
        from simdist.runtime.variables import Variable
        self._distribution_strategy = context.get_strategy() if context.has_strategy() else None
        if copy_from is not None:
            if alg is not None or state is not None:
                raise ValueError("Generator(copy_from=...) takes no `state` or `alg`")
            value, self._alg = copy_from.state.read_value(), copy_from.algorithm
        else:
            if alg is None or state is None:
                raise ValueError("Generator needs `copy_from`, or `state` and `alg` together (got "
                                 f"state={state!r}, alg={alg!r})")
            self._alg = _alg(alg)
            if isinstance(state, Variable):
                self._check_shape(state.shape.as_list())
                self._state_var = state
                return
            value = state if isinstance(state, Tensor) else convert_to_tensor(np.asarray(state).astype(np.int64))
            if value.dtype != dtypes.int64:
                from simdist.runtime.ops import cast
                value = cast(value, dtypes.int64)
            self._check_shape(value.shape.as_list())
        self._state_var = Variable(value, dtype=dtypes.int64, trainable=False, name="random_generator/StateVar")

    def _checkpoint_children(self) -> dict:
        """What a tf.train.Checkpoint saves of it: its state variable, as TF's `_state_var`."""
        return {"_state_var": self._state_var}

    def _check_shape(self, shape: list) -> None:
        size = _state_size(self._alg)
        if shape != [size]:
            raise ValueError(f"Shapes {shape} and [{size}] are incompatible (the state of algorithm "
                             f"{Algorithm(self._alg).name} has {size} int64 elements)")

    @classmethod
    def from_state(cls, state: Any, alg: Any) -> "Generator":
        return cls(state=state, alg=alg)

    @classmethod
    def from_seed(cls, seed: Any, alg: Any = None) -> "Generator":
        a = _alg(Algorithm.PHILOX if alg is None else alg)
        return cls(state=create_rng_state(seed, a), alg=a)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> "Generator":
        """A state derived from simdist's root seed (TF: OS entropy); see the module docstring.
        Under op determinism TF's RuntimeError (clause config.runtime-settings)."""
        from simdist.runtime.ops import random as _random
        if _random.determinism_required():
            raise RuntimeError('"from_non_deterministic_state" cannot be called when determinism is enabled.')
        a = _alg(Algorithm.PHILOX if alg is None else alg)
        return cls(state=_nondeterministic_state(a), alg=a)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any) -> "Generator":
        a = _alg(alg)
        c = np.asarray(counter.numpy() if isinstance(counter, Tensor) else counter).astype(np.int64).reshape(-1)
        k = np.asarray(key.numpy() if isinstance(key, Tensor) else key).astype(np.int64)
        if c.shape != (_state_size(a) - 1,) or k.shape != ():
            raise ValueError(f"from_key_counter: counter must have shape [{_STATE_SIZE[a] - 1}] and key shape [] "
                             f"(got {list(c.shape)} and {list(k.shape)})")
        return cls(state=np.concatenate([c, k.reshape(1)]), alg=a)

    @property
    def state(self) -> Any:
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self) -> Tensor:
        return self._state_var.read_value()[-1]

    def reset(self, state: Any) -> None:
        t = state if isinstance(state, Tensor) else convert_to_tensor(np.asarray(state).astype(np.int64))
        self._check_shape(t.shape.as_list())
        self._state_var.assign(t)

    def reset_from_seed(self, seed: Any) -> None:
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key: Any, counter: Any) -> None:
        self._state_var.assign(Generator.from_key_counter(key, counter, self._alg).state.read_value())

    def skip(self, delta: Any) -> Tensor:
        """RngReadAndSkip: the state before, the counter advanced by 256·delta."""
        var = self._state_var
        if self._replica_id() is not None and "CentralStorage" in type(self._distribution_strategy).__name__:
            # (TF's Generator.skip updates through strategy.extended.update under CentralStorageStrategy, in replica
            # context too: one merge_call skips the one state once for the replicas, each reads the same old state;
            # vsweep58's v-gen-traced program)
            rc = context.get_replica_context()
            return rc.merge_call(lambda strategy: strategy.extended.update(
                var, lambda v: self._skip_var(v, delta)))
        if self._replica_id() is not None:   # TF's raw op on the handle: the replica's own copy
            var = getattr(var, "_local", lambda: var)()
        return self._skip_var(var, delta)

    def _skip_var(self, var: Any, delta: Any) -> Tensor:
        context.note_stateful_op("RngReadAndSkip")   # (TF's op reads the handle itself: no ReadVariableOp first)
        old = var.read_value()
        var.assign(dispatch.execute(SKIP, (old,), {"alg": self._alg, "delta": int(delta)}))
        return old

    def _replica_id(self) -> int | None:
        """The replica id TF's _preprocess_key mixes into the key: only for a generator made under a
        strategy, drawn from inside that strategy's replica context."""
        if self._distribution_strategy is None or context.get_strategy() is not self._distribution_strategy:
            return None   # (TF enters the generator's strategy first: outside its run, a cross-replica draw)
        rc = context.get_replica_context()
        if rc is None or getattr(rc, "replica_id_in_sync_group", None) is None:
            return None
        rid = rc.replica_id_in_sync_group
        return int(dispatch.static_value(rid)) if isinstance(rid, Tensor) else int(rid)

    def _prepare(self, shape: Any, opname: str) -> tuple[tuple[int, ...], Tensor]:
        """(the draw's shape, the state it reads: the key mixed with the replica id in a replica) for the
        `shape` argument of a draw by the stateless V2 kernel `opname`, in TF 2.21's order
        (stateful_random_ops.py): `_shape_tensor` converts the shape (`_draw_shape`), `_prepare_key_counter`
        skips the counter by its product (RngReadAndSkip: a scalar's value, a float's truncated, a negative
        dimension's product too), then the kernel refuses a shape dtype other than int32/int64 (the NodeDef's
        Tshape), a shape that is no vector and a negative dimension; a traced function's shape function
        raises the first two at trace time, where the skip never runs (clause ops.random-generator)."""
        from simdist.runtime.ops import concat, constant, reshape, stack
        from simdist.runtime.ops.array_more import bitcast
        values, dt = _draw_shape(shape)
        if dt.is_bool or dt == dtypes.string:   # (Prod's T, before the skip: `math_ops.reduce_prod(shape)`)
            from simdist.runtime.ops import trace_errors
            err = trace_errors.attr_not_allowed("Prod", "T", dt, _PROD_TYPES)
            raise trace_errors.static(err, TypeError, f"Value passed to parameter 'input' has DataType {dt.name} not "
                                                      "in list of allowed values: float32, float64, int32, uint8, "
                                                      "int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
                                                      "qint16, quint16, uint16, complex128, float16, uint32, uint64")
        # TF skips first (RngReadAndSkip by the product of a shape with a negative dimension too: a ThreeFry
        # generator's UnimplementedError comes first, and a Philox one's counter moves before the draw fails)
        old = self.skip(int(np.prod(values, dtype=np.float64 if values.dtype.kind == "f" else np.int64)))
        shp = _draw_vector(values, dt, opname, "Tshape")
        for d in shp:
            if d < 0:
                raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 [Op:{opname}]")
        rid = self._replica_id()
        if rid is None:
            return shp, old
        # StatelessRandomUniformFullIntV2(shape=[1], key, counter=[replica id, 0], uint64): the replica's key
        kc = stack([constant(rid, dtype=dtypes.int64), constant(0, dtype=dtypes.int64), old[2]])
        key = bitcast(dispatch.execute(FULL_INT, (kc,), {"shape": (1,), "dtype": dtypes.uint64}), dtypes.int64)
        return shp, concat([old[0:2], reshape(key, [1])], 0)

    def normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
               name: str | None = None) -> Tensor:
        from simdist.runtime.ops import add, multiply
        dt = dtypes.as_dtype(dtype)
        m, s = convert_to_tensor(mean, dtype=dt), convert_to_tensor(stddev, dtype=dt)
        shp, state = self._prepare(shape, "StatelessRandomNormalV2")
        rnd = dispatch.execute(NORMAL, (state,), {"shape": shp, "dtype": dt})
        return add(multiply(rnd, s), m)

    def truncated_normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
                         name: str | None = None) -> Tensor:
        from simdist.runtime.ops import add, multiply
        dt = dtypes.as_dtype(dtype)
        m, s = convert_to_tensor(mean, dtype=dt), convert_to_tensor(stddev, dtype=dt)
        shp, state = self._prepare(shape, "StatelessTruncatedNormalV2")
        rnd = dispatch.execute(TRUNCATED, (state,), {"shape": shp, "dtype": dt})
        return add(multiply(rnd, s), m)

    def uniform(self, shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32,
                name: str | None = None) -> Tensor:
        from simdist.runtime.ops import add, multiply, subtract
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dt!r}, minval and maxval must be both `None` or both "
                                 f"non-`None`; got minval={minval} and maxval={maxval}")
        elif maxval is None:
            maxval = 1
        if dt.is_integer and minval is None:
            return self.uniform_full_int(shape, dt)
        lo, hi = convert_to_tensor(minval, dtype=dt), convert_to_tensor(maxval, dtype=dt)
        if dt in (dtypes.uint32, dtypes.uint64):
            # StatelessRandomUniformIntV2 has CPU kernels for int32 and int64 only: TF skips the counter
            # (_prepare_key_counter), then finds no kernel — NotFoundError eagerly, InvalidArgumentError in a
            # tf.function (trace_errors), where the graph fails to place and no op of it runs, the skip neither —
            # before any range check (clause ops.random-generator; zsweep60)
            _, ddt = _draw_shape(shape)
            if not context._function_depth:
                self._prepare(shape, "StatelessRandomUniformIntV2")
            raise errors.NotFoundError(None, None, "Could not find device for node: {{node StatelessRandomUniformIntV2}}"
                                       f" = StatelessRandomUniformIntV2[Tshape=DT_{ddt.name.upper()}, "
                                       f"dtype=DT_{dt.name.upper()}] [Op:StatelessRandomUniformIntV2]")
        if dt.is_integer:
            if lo.shape.ndims != 0 or hi.shape.ndims != 0:
                raise errors.InvalidArgumentError(None, None, f"minval must be 0-D, got shape {lo.shape} "
                                                  "[Op:StatelessRandomUniformIntV2]")
            a, b = int(lo.numpy()), int(hi.numpy())
            shp, old = self._prepare(shape, "StatelessRandomUniformIntV2")
            if a >= b:
                raise errors.InvalidArgumentError(None, None, f"Need minval < maxval, got {a} >= {b} "
                                                  "[Op:StatelessRandomUniformIntV2]")
            return dispatch.execute(UNIFORM_INT, (old,), {"shape": shp, "dtype": dt, "minval": a, "maxval": b})
        if not dt.is_floating:
            # StatelessRandomUniformV2's dtype attr (half, bfloat16, float, double): eagerly the counter is skipped
            # and the op refuses the attr (InvalidArgumentError); traced, op_def_library refuses it while the graph
            # is built (TypeError), so nothing runs (TF 2.21 observed, complex64; zsweep60)
            if context._function_depth:
                raise TypeError(f"Value passed to parameter 'dtype' has DataType {dt.name} not in list of allowed "
                                "values: float16, bfloat16, float32, float64")
            self._prepare(shape, "StatelessRandomUniformV2")
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {dt.name} is not in the list of "
                                              "allowed values: half, bfloat16, float, double\n\t; NodeDef: "
                                              "{{node StatelessRandomUniformV2}}; [Op:StatelessRandomUniformV2]")
        shp, state = self._prepare(shape, "StatelessRandomUniformV2")
        rnd = dispatch.execute(UNIFORM, (state,), {"shape": shp, "dtype": dt})
        return add(multiply(rnd, subtract(hi, lo)), lo)

    def uniform_full_int(self, shape: Any, dtype: Any = dtypes.uint64, name: str | None = None) -> Tensor:
        dt = dtypes.as_dtype(dtype)
        shp, state = self._prepare(shape, "StatelessRandomUniformFullIntV2")
        return dispatch.execute(FULL_INT, (state,), {"shape": shp, "dtype": dt})

    def make_seeds(self, count: int = 1) -> Tensor:
        """[2, count] int64: count keys (uniform_full_int) over zeros, for the stateless ops."""
        from simdist.runtime.ops import stack, zeros_like
        keys = self.uniform_full_int([int(count)], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count: int = 1) -> list["Generator"]:
        """count new generators: state [0, 0, key] for count int64 keys drawn from this one."""
        keys = self.uniform_full_int([int(count)], dtypes.int64).numpy()
        return [Generator(state=np.array([0] * (_STATE_SIZE[self._alg] - 1) + [int(k)], np.int64), alg=self._alg)
                for k in keys.tolist()]

    def binomial(self, shape: Any, counts: Any, probs: Any, dtype: Any = dtypes.int32, name: str | None = None) -> Tensor:
        """StatefulRandomBinomial: draws from the state read, which advances by 256 · the outputs the
        kernel reserves (runtime/ops/binomial.py)."""
        from simdist.runtime.ops import binomial as _binomial
        dt = dtypes.as_dtype(dtype)
        c = counts if isinstance(counts, Tensor) else convert_to_tensor(counts)
        p = probs if isinstance(probs, Tensor) else convert_to_tensor(probs)
        values, sdt = _draw_shape(shape)   # (no skip first: the kernel skips, after its checks)
        shp = _draw_vector(values, sdt, "StatefulRandomBinomial", "S")
        _binomial._check(shp, np.zeros(c.shape.as_list()), np.zeros(p.shape.as_list()), "StatefulRandomBinomial")
        _binomial.STATEFUL_BINOMIAL.dtype((dtypes.int64, c.dtype, p.dtype), {"dtype": dt})
        if self._alg != 1:
            raise errors.InvalidArgumentError(None, None, f"Unsupported algorithm id: {self._alg} "
                                              "[Op:StatefulRandomBinomial]")
        old = self.skip(_binomial.stateful_skip(shp, c, p))
        return dispatch.execute(_binomial.STATEFUL_BINOMIAL, (old, c, p), {"shape": shp, "dtype": dt})


_PROD_TYPES = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, "
               "quint16, uint16, complex128, half, uint32, uint64")


def _draw_shape(shape: Any) -> tuple[np.ndarray, dtypes.DType]:
    """A draw's shape argument as TF 2.21's `_shape_tensor` converts it (stateful_random_ops.py:
    `convert_to_tensor(shape)`, int64 for an empty list or tuple): its values and dtype. Any rank is
    taken here (a Python int is a scalar); the kernels refuse what is no int32/int64 vector."""
    if isinstance(shape, (list, tuple)) and not shape:
        return np.zeros((0,), np.int64), dtypes.int64
    t = shape if isinstance(shape, Tensor) else convert_to_tensor(shape)
    return np.asarray(t._v), t.dtype


def _draw_vector(values: np.ndarray, dt: dtypes.DType, opname: str, attr: str) -> tuple[int, ...]:
    """The draw's shape as a tuple, after the kernel's checks in TF 2.21's order: the NodeDef's shape type
    attr (`attr`: Tshape, or StatefulRandomBinomial's S) int32 or int64, then a vector (a scalar, a matrix:
    InvalidArgumentError eagerly, the shape function's ValueError in a traced function; observed)."""
    from simdist.runtime.ops import trace_errors
    if dt not in (dtypes.int32, dtypes.int64):
        err = trace_errors.attr_not_allowed(opname, attr, dt, "int32, int64")
        raise trace_errors.static(err, TypeError, f"Value passed to parameter 'shape' has DataType {dt.name} not in "
                                                  "list of allowed values: int32, int64")
    if values.ndim != 1:
        if opname == "StatefulRandomBinomial":
            ins = ([], [], list(values.shape), [], [])
            eager = f"Input shape should be a vector, got shape: {dims(values.shape)} [Op:{opname}]"
        else:
            ins = (list(values.shape), [1], [2], []) + (([], []) if opname == "StatelessRandomUniformIntV2" else ())
            eager = f"shape must be a vector of {{int32,int64}}, got shape {dims(values.shape)} [Op:{opname}]"
        raise trace_errors.shape_error(eager, f"Shape must be rank 1 but is rank {values.ndim}", opname, ins)
    return tuple(int(d) for d in values.tolist())


def get_global_generator() -> Generator:
    """`tf.random.get_global_generator`: one per program (client), made on first use from
    `from_non_deterministic_state` (simdist: derived from the root seed)."""
    rng = _cur.ctx.rng
    g = rng.get("global_generator")
    if g is None:
        from simdist.runtime.ops import random as _random
        if _random.determinism_required():
            raise RuntimeError('"get_global_generator" cannot be called if determinism is enabled, unless '
                               '"set_global_generator" has already been called. Please call "set_global_generator" first.')
        g = rng["global_generator"] = Generator.from_non_deterministic_state()
    return g


def set_global_generator(generator: Generator) -> None:
    """`tf.random.set_global_generator`."""
    if not isinstance(generator, Generator):
        raise TypeError(f"set_global_generator takes a tf.random.Generator, got {type(generator).__name__}")
    _cur.ctx.rng["global_generator"] = generator
