"""`tf.nn.fractional_max_pool` and `tf.nn.fractional_avg_pool` (TF's FractionalMaxPool and
FractionalAvgPool kernels, fractional_pool_common.cc) and their gradients (clause
ops.nn-fractional-pool).

Output size floor(in / ratio) per dimension (float32 division); each spatial dimension's pooling
sequence comes from a GuardedPhiloxRandom: with a seed (deterministic=True) a fresh
PhiloxRandom(seed, seed2) each call (the seeds random_seed.get_seed gives: so one seed, one
sequence), the rows' sequence first, then the columns'; without (seed 0) TF seeds it at random
(simdist: a stream derived from the machine's root seed that moves on every call).
Random sequences: diff = [k + 1] * (in mod out) + [k] * …, shuffled by TF's RandomShuffle
(swap i with i + Philox word mod (n − i)); pseudo-random: a = ceil(alpha (i + u)) with
u = RandDouble · min((k + 2)/alpha − 1, (in + 1 − k)/alpha − (out − 1)). Each output cell pools
rows seq[i] … seq[i + 1] − 1 (overlapping: … seq[i + 1], clipped to the input) and likewise
columns: the max (std::max order: a NaN input never wins) or the mean (summed in row-major
order in the input's dtype, divided by the count; integers truncate). Gradients:
FractionalMaxPoolGrad sends each output's gradient to the first maximal input of its window;
FractionalAvgPoolGrad divides it evenly over the window in double and casts. float32, float64,
int32, int64 (others: the attr's InvalidArgumentError). The grads have no gradient (LookupError).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, philox, trace_errors
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.number_text import six_digits
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.ops.simple_philox import SimplePhilox
from simdist.runtime.tensor import Tensor

__all__ = ["fractional_max_pool", "fractional_avg_pool", "fractional_max_pool_v1", "fractional_avg_pool_v1",
           "pooling_sequence"]

_ALLOWED = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_M = 0xFFFFFFFF


def _reserve(gen: philox.Philox, samples32: int) -> philox.Philox:
    """GuardedPhiloxRandom::ReserveSamples32: a copy of the generator; it moves on by the outputs."""
    local = gen.copy()
    gen.skip((samples32 + 3) // 4)
    return local


def pooling_sequence(n_in: int, n_out: int, gen: philox.Philox, pseudo_random: bool) -> list[int]:
    """GeneratePoolingSequence: the cumulative sequence [0, …, n_in] of n_out + 1 entries."""
    k = n_in // n_out
    if pseudo_random:
        alpha = n_in / n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        u = SimplePhilox(_reserve(gen, 2)).rand_double() * max_u
        cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
        diff = [cum[i + 1] - cum[i] for i in range(n_out)]
    else:
        diff = [k + 1 if i < n_in % n_out else k for i in range(n_out)]
        words = SimplePhilox(_reserve(gen, n_out)).word
        for i in range(n_out - 1):          # RandomShuffle: swap i and i + uniform(n − i)
            j = i + words() % (n_out - i)
            diff[i], diff[j] = diff[j], diff[i]
    out = [0]
    for d in diff:
        out.append(out[-1] + d)
    return out


def _ratio_error(ratio: list[float]) -> str | None:
    """The shape function's and the kernel's complaint about pooling_ratio, if any."""
    if len(ratio) != 4:
        return "pooling_ratio field must specify 4 dimensions"
    for r in ratio:
        if r < 1:
            return f"pooling_ratio cannot be smaller than 1, got: {six_digits(np.float32(r))}"
    return None


def _check(x: np.ndarray, ratio: list[float], kind: str, deterministic: bool = False, seeds: tuple = (0, 0)) -> list[int]:
    """The kernel's checks in its order (pooling_ratio's and the seeds' at construction, then the
    input's); a tf.function being traced raises the shape function's first complaint instead (the
    rank, then pooling_ratio): ValueError."""
    op = f"Fractional{kind}Pool"
    shapes = (list(x.shape),)
    bad_ratio = _ratio_error(ratio)
    traced = f"Shape must be rank 4 but is rank {x.ndim}" if x.ndim != 4 else bad_ratio
    if bad_ratio:
        raise trace_errors.mark_shape(errors.InvalidArgumentError(None, None, f"{bad_ratio} [Op:{op}]"), traced, op,
                                      shapes)
    if ratio[0] != 1 or ratio[3] != 1:
        word = "max" if kind == "Max" else "average"
        err = errors.UnimplementedError(None, None, f"Fractional {word} pooling is not yet supported on the batch "
                                                    f"nor channel dimension. [Op:{op}]")
        raise trace_errors.mark_shape(err, traced, op, shapes) if x.ndim != 4 else err
    if not deterministic and tuple(seeds) != (0, 0):   # (the constructor's check after the ratio's: a raw
        # call's seed without deterministic; fuzz20 seed 2220261202 #87)
        err = errors.InvalidArgumentError(None, None, f"Both seed and seed2 should be 0 if deterministic is false. "
                                                      f"[Op:{op}]")
        raise trace_errors.mark_shape(err, traced, op, shapes) if x.ndim != 4 else err
    if x.ndim != 4:     # (traced: the shape function's WithRank(4))
        raise trace_errors.shape_error(f"tensor_in must be 4-dimensional [Op:{op}]", traced, op, shapes)
    out = []
    for i in range(4):
        o = int(np.floor(np.float32(x.shape[i]) / np.float32(ratio[i])))
        if o <= 0:
            raise errors.InvalidArgumentError(None, None, f"Pooling ratio is higher than input dimension size for "
                                                          f"dimension {i}. Input dim size: {x.shape[i]} pooling ratio: "
                                                          f"{six_digits(np.float32(ratio[i]))} [Op:{op}]")
        out.append(o)
    return out


def _sequences(x: np.ndarray, out: list[int], pseudo_random: bool, seed: int, seed2: int, key: Any) -> tuple:
    from simdist.runtime.ops import random as _random
    if seed == 0 and seed2 == 0:
        s1, s2 = _random.unseeded_pair()
        blocks = (out[1] + 3) // 4 + (out[2] + 3) // 4 if not pseudo_random else 2
        gen = _random._kernel(("FractionalPool", key), s1, s2, blocks)
    else:
        gen = philox.seeded(seed, seed2)
    rows = pooling_sequence(x.shape[1], out[1], gen, pseudo_random)
    cols = pooling_sequence(x.shape[2], out[2], gen, pseudo_random)
    return rows, cols


def _windows(seq: list[int], n: int, overlapping: bool) -> list[tuple[int, int]]:
    """(start, end) inclusive of each output cell along one dimension, clipped to n − 1."""
    return [(seq[i], min(seq[i + 1] if overlapping else seq[i + 1] - 1, n - 1)) for i in range(len(seq) - 1)]


def _max_forward(x: np.ndarray, pooling_ratio: tuple = (), pseudo_random: bool = False, overlapping: bool = False,
                 deterministic: bool = False, seed: int = 0, seed2: int = 0) -> tuple:
    out = _check(x, list(pooling_ratio), "Max", deterministic, (seed, seed2))
    rows, cols = _sequences(x, out, pseudo_random, seed, seed2, "Max")
    low = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    y = np.full(out, low, x.dtype)
    for i, (r0, r1) in enumerate(_windows(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_windows(cols, x.shape[2], overlapping)):
            acc = y[:, i, j, :]
            for h in range(r0, r1 + 1):
                for w in range(c0, c1 + 1):
                    v = x[:, h, w, :]
                    acc = np.where(acc < v, v, acc)      # std::max(acc, v): a NaN v never wins
            y[:, i, j, :] = acc
    return y, np.array(rows, np.int64), np.array(cols, np.int64)


def _avg_forward(x: np.ndarray, pooling_ratio: tuple = (), pseudo_random: bool = False, overlapping: bool = False,
                 deterministic: bool = False, seed: int = 0, seed2: int = 0) -> tuple:
    out = _check(x, list(pooling_ratio), "Avg", deterministic, (seed, seed2))
    rows, cols = _sequences(x, out, pseudo_random, seed, seed2, "Avg")
    y = np.zeros(out, x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for i, (r0, r1) in enumerate(_windows(rows, x.shape[1], overlapping)):
            for j, (c0, c1) in enumerate(_windows(cols, x.shape[2], overlapping)):
                acc = np.zeros((out[0], out[3]), x.dtype)
                count = 0
                for h in range(r0, r1 + 1):
                    for w in range(c0, c1 + 1):
                        acc = (acc + x[:, h, w, :]).astype(x.dtype)
                        count += 1
                if x.dtype.kind == "f":
                    y[:, i, j, :] = acc / x.dtype.type(count)
                else:                                  # C++ integer division: toward zero
                    y[:, i, j, :] = np.trunc(acc.astype(np.float64) / count).astype(x.dtype) \
                        if np.abs(acc).max(initial=0) < 2**52 else np.sign(acc) * (np.abs(acc) // count)
    return y, np.array(rows, np.int64), np.array(cols, np.int64)


def _debug(a: np.ndarray) -> str:
    """A tensor as TF's Tensor::DebugString heads it (the values elided)."""
    from simdist.runtime.ops.args import dims
    return f"Tensor<type: {tf_name(dtypes.as_dtype(a.dtype))} shape: {dims(a.shape)} values: ...>"


def _max_grad(x: np.ndarray, y: np.ndarray, dy: np.ndarray, rows: np.ndarray, cols: np.ndarray,
              overlapping: bool = False) -> np.ndarray:
    """FractionalMaxPoolGradOp (fractional_max_pool_op.cc), which a raw call reaches with any inputs:
    orig_input and orig_output of rank 4 and not empty, the sequences vectors; then the max of each
    window recomputed into a copy of orig_output's flat layout (a window beyond orig_output's cells
    writes nothing) and that copy compared with orig_output, `==` entry by entry ("tensor_out_dup is
    not the same as tensor_out": a NaN maximum, a wrong or a larger orig_output, too few or too many
    windows); then out_backprop's entries, read flat in order, each to its window's first maximum
    ("Invalid input backprop index" for an out_backprop larger than orig_output, whose extra entries
    TF reads past its index buffer). Observed on TF 2.21 (fuzz20 seed 2620261201 #67)."""
    op = "FractionalMaxPoolGrad"

    def bad(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    for a, what in ((x, "orig_input"), (y, "orig_output")):
        if a.ndim != 4:
            raise bad(f"{what} should be a tensor of rank 4, got {_debug(a)}")
        if a.size == 0:
            raise bad(f"{what} must not be empty, got {_debug(a)}")
    for seq, what in ((rows, "row_pooling_sequence"), (cols, "col_pooling_sequence")):
        if seq.ndim != 1:
            from simdist.runtime.ops.args import dims
            raise bad(f"{what} must be a vector, received shape {dims(seq.shape)}")
    n, hi, wi, di = x.shape
    _, ho, wo, do = y.shape
    low = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    dup = np.full(y.size, low, x.dtype)
    arg = np.full(y.size, -1, np.int64)
    xf = x.reshape(-1)
    rs, cs = _windows(rows.tolist(), hi, overlapping), _windows(cols.tolist(), wi, overlapping)
    for b in range(n):
        for i, (r0, r1) in enumerate(rs):
            for j, (c0, c1) in enumerate(cs):
                out_index = (b * ho + i) * wo + j
                for h in range(r0, r1 + 1):
                    for w in range(c0, c1 + 1):
                        in_index = (b * hi + h) * wi + w
                        for d in range(di):
                            k, src = out_index * do + d, in_index * di + d
                            if 0 <= k < y.size and 0 <= src < xf.size and (dup[k] < xf[src] or arg[k] == -1):
                                dup[k], arg[k] = xf[src], src
    with np.errstate(invalid="ignore"):
        if not np.all(dup == y.reshape(-1)):
            raise bad("tensor_out_dup is not the same as tensor_out")
    out = np.zeros(x.size, x.dtype)
    g = dy.reshape(-1)
    for index in range(g.size):
        src = int(arg[index]) if index < arg.size else -1
        if not 0 <= src < x.size:
            raise bad(f"Invalid input backprop index: {src}, {x.size}")
        out[src] += g[index]
    return out.reshape(x.shape)


def _avg_grad(shape: np.ndarray, dy: np.ndarray, rows: np.ndarray, cols: np.ndarray,
              overlapping: bool = False) -> np.ndarray:
    """FractionalAvgPoolGrad: each output's gradient spread evenly over its window (in double)."""
    if shape.ndim != 1 or shape.size != 4:
        raise errors.InvalidArgumentError(None, None, "original input tensor shape must be1-dimensional and 4 "
                                                      "elements [Op:FractionalAvgPoolGrad]")
    n_b, n_r, n_c, n_d = (int(v) for v in shape)
    if dy.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "out_backprop must be 4-dimensional [Op:FractionalAvgPoolGrad]")
    if dy.ndim == 4:   # (each sequence flat, at least one more element than out_backprop's rows or cols, the first
        # that many read: a [1, 2] row sequence of a 2-row gradient is refused, [0, 1, 2, 3, 4] takes [0, 1, 2];
        # fz32a, sig seed 3220261207 #99, observed on TF 2.21)
        dims = "[" + ",".join(str(d) for d in dy.shape) + "]"
        flat = []
        for what, seq, n in (("row", rows, dy.shape[1]), ("col", cols, dy.shape[2])):
            v = np.asarray(seq).reshape(-1)
            if v.size <= n:
                raise errors.InvalidArgumentError(None, None, f"Given out_backprop shape {dims}, {what}_seq_tensor must "
                                                              f"have at least {n + 1} elements, but got {v.size} "
                                                              "[Op:FractionalAvgPoolGrad]")
            flat.append(v[:n + 1])
        rows, cols = flat
    acc = np.zeros((n_b, n_r, n_c, n_d), np.float64)
    rs, cs = _windows(rows.tolist(), n_r, overlapping), _windows(cols.tolist(), n_c, overlapping)
    g = dy.astype(np.float64)
    for i, (r0, r1) in enumerate(rs):
        for j, (c0, c1) in enumerate(cs):
            n = (r1 - r0 + 1) * (c1 - c0 + 1)
            acc[:, r0:r1 + 1, c0:c1 + 1, :] += (g[:, i, j, :] / n)[:, None, None, :]
    return acc.astype(dy.dtype)


def _pool_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        if dts[0] not in _ALLOWED:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(dts[0])} is not in the list "
                                                          f"of allowed values: float, double, int32, int64 [Op:{op}]")
        return (dts[0], dtypes.int64, dtypes.int64)
    return rule


def _grad_rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dts[0] if len(dts) == 5 else dts[1]


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    return float(arrays[0].size * 2)


_WHY = lanes("pooling windows drawn from a Philox stream per call: no stacked form written")
FRACTIONAL_MAX_POOL = register("FractionalMaxPool", _max_forward, _pool_rule("FractionalMaxPool"), _flops,
                               num_outputs=3, kind="window", fusion=_WHY)
FRACTIONAL_AVG_POOL = register("FractionalAvgPool", _avg_forward, _pool_rule("FractionalAvgPool"), _flops,
                               num_outputs=3, kind="window", fusion=_WHY)
FRACTIONAL_MAX_POOL_GRAD = register("FractionalMaxPoolGrad", _max_grad, _grad_rule, _flops, kind="window",
                                    fusion=lanes("scatters to each window's first maximum: no stacked form written"))
FRACTIONAL_AVG_POOL_GRAD = register("FractionalAvgPoolGrad", _avg_grad, _grad_rule,
                                    lambda a, out, at: float(out.size), kind="window",
                                    fusion=lanes("spreads over windows from the sequences: no stacked form written"))
FRACTIONAL_MAX_POOL.shape_fn = FRACTIONAL_AVG_POOL.shape_fn = \
    lambda shapes, attrs: shapes[0] is not None or _ratio_error(list(attrs["pooling_ratio"])) is not None
no_tf_gradient("FractionalMaxPoolGrad")
no_tf_gradient("FractionalAvgPoolGrad")


@RegisterGradient("FractionalMaxPool")
def _fractional_max_pool_grad(op: Any, grad: Any, _g1: Any, _g2: Any) -> list:
    x, (y, rows, cols) = op.inputs[0], op.outputs
    return [dispatch.execute(FRACTIONAL_MAX_POOL_GRAD, (x, y, grad, rows, cols),
                             {"overlapping": op.get_attr("overlapping")})]


@RegisterGradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op: Any, grad: Any, _g1: Any, _g2: Any) -> list:
    from simdist.runtime.tensor import convert_to_tensor
    shape = convert_to_tensor(np.array(op.inputs[0].shape.as_list(), np.int64))
    _, rows, cols = op.outputs
    return [dispatch.execute(FRACTIONAL_AVG_POOL_GRAD, (shape, grad, rows, cols),
                             {"overlapping": op.get_attr("overlapping")})]


def _ratio_v2(pooling_ratio: Any) -> list[float]:
    """fractional_max_pool_v2's checks and _get_sequence(pooling_ratio, 2, 3)."""
    if isinstance(pooling_ratio, (list, tuple)):
        if pooling_ratio[0] != 1.0 or pooling_ratio[-1] != 1.0:
            raise ValueError("`pooling_ratio` should have first and last elements with value 1.0. "
                             f"Received: pooling_ratio={pooling_ratio}")
        for element in pooling_ratio:
            if element < 1.0:
                raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: pooling_ratio={pooling_ratio}")
        value = list(pooling_ratio)
    elif isinstance(pooling_ratio, (int, float)):
        if pooling_ratio < 1.0:
            raise ValueError(f"`pooling_ratio` should be >= 1.0. Received: pooling_ratio={pooling_ratio}")
        value = [pooling_ratio]
    else:
        raise ValueError("`pooling_ratio` should be an int or a list of ints. "
                         f"Received: pooling_ratio={pooling_ratio}")
    if len(value) == 4:
        return [float(v) for v in value]
    if len(value) == 1:
        value = value * 2
    elif len(value) != 2:
        raise ValueError(f"pooling_ratio should be of length 1, 2 or 4. Received: pooling_ratio={value} of length "
                         f"{len(value)}")
    return [1.0] + [float(v) for v in value] + [1.0]


def _ratio_attr(pooling_ratio: Any, op: str, value: Any) -> list[float]:
    """The raw op's pooling_ratio attr: a list of at least 4 floats. Eagerly, when TF's fast path
    takes the input `value`, pooling_ratio (the op's first attr) is read by SetOpAttrList: a 0-d
    ndarray or scalar tensor is MemoryError there (attr_rules.sized_list); else the fallback's
    list check."""
    if not context.in_function() and attr_rules.check_one_input(value):
        attr_rules.sized_list(pooling_ratio)
        if isinstance(pooling_ratio, np.ndarray) and pooling_ratio.ndim == 1 and pooling_ratio.dtype == np.float64:
            # (a float64 vector, whose np.float64 items are Python floats to the fast path's float-list reading: it
            # computes, where a tensor's rows, and an int or float32 vector's items, go to the fallback's list check;
            # observed on TF 2.21: fz50, fz14 seed 1420503003 #37)
            return [float(v) for v in pooling_ratio]
    if not isinstance(pooling_ratio, (list, tuple)):
        raise TypeError(f"Expected list for 'pooling_ratio' argument to '{op}' Op, not {pooling_ratio!r}.")
    return [attr_rules.make_float(v, "pooling_ratio") for v in pooling_ratio]


def _run(op: Any, value: Any, ratio: list[float], pseudo_random: bool, overlapping: bool, deterministic: bool,
         seed: int, seed2: int) -> tuple[Tensor, Tensor, Tensor]:
    if not deterministic and (seed != 0 or seed2 != 0):
        raise errors.InvalidArgumentError(None, None, "Both seed and seed2 should be 0 if deterministic is false. "
                                                      f"[Op:{op.name}]")
    if deterministic and seed == 0 and seed2 == 0:     # TF: random seeds; simdist: the root seed's pair
        from simdist.runtime.ops import random as _random
        seed, seed2 = _random.unseeded_pair()
    x = _t(value)

    def bools() -> dict:
        return {"pseudo_random": _make_bool(pseudo_random, "pseudo_random", op.name),
                "overlapping": _make_bool(overlapping, "overlapping", op.name),
                "deterministic": _make_bool(deterministic, "deterministic", op.name)}
    # (the generated wrapper's make_bool comes before the op runs, so an int `overlapping` is TypeError
    # before a bool value's T (fz31b, fz14 seed 1420313002 #58); in a graph too: gen_nn_ops makes the
    # bools before op_def_library checks the input's type, then the attrs in the op def's order,
    # pooling_ratio's length (fz46, fz14 seed 1420463003 #17: np.bool_(True) overlapping beside a
    # pooling_ratio of one in a tf.function is make_bool's TypeError))
    flags = bools()
    op.dtype((x.dtype,), None)                 # (the dtype first, then the attr's length, as TF checks them)
    if len(ratio) < 4:
        err = errors.InvalidArgumentError(None, None, f"Length for attr 'pooling_ratio' of {len(ratio)} must be at "
                                                      "least minimum 4")
        raise trace_errors.static(err, ValueError, f"Attr 'pooling_ratio' of '{op.name}' Op passed list of length "
                                                   f"{len(ratio)} less than minimum 4.")
    attrs = {"pooling_ratio": tuple(ratio), **flags, "seed": int(seed),
             "seed2": int(seed2)}
    return named_outputs(op.name, dispatch.execute(op, (x,), attrs))


def _v2(op: Any, value: Any, ratio: list[float], pseudo_random: bool, overlapping: bool, seed: int) -> tuple:
    if seed == 0:
        return _run(op, value, ratio, pseudo_random, overlapping, False, 0, 0)
    from simdist.runtime.ops.random_gamma import tf_seeds
    s1, s2 = tf_seeds(seed)
    return _run(op, value, ratio, pseudo_random, overlapping, True, s1, s2)


def fractional_max_pool(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        seed: int = 0, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.nn.fractional_max_pool`: (output, row_pooling_sequence, col_pooling_sequence)."""
    return _v2(FRACTIONAL_MAX_POOL, value, _ratio_v2(pooling_ratio), pseudo_random, overlapping, seed)


def fractional_avg_pool(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        seed: int = 0, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.nn.fractional_avg_pool`: (output, row_pooling_sequence, col_pooling_sequence); pooling_ratio
    goes to the op as given (a list of 4)."""
    return _v2(FRACTIONAL_AVG_POOL, value, _ratio_attr(pooling_ratio, "fractional_avg_pool", value), pseudo_random,
               overlapping, seed)


def fractional_max_pool_v1(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                           deterministic: bool = False, seed: int = 0, seed2: int = 0,
                           name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.compat.v1.nn.fractional_max_pool`: the raw op's seeds and `deterministic`."""
    return _run(FRACTIONAL_MAX_POOL, value, _ratio_attr(pooling_ratio, "fractional_max_pool", value), pseudo_random,
                overlapping, deterministic, seed, seed2)


def fractional_avg_pool_v1(value: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                           deterministic: bool = False, seed: int = 0, seed2: int = 0,
                           name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.compat.v1.nn.fractional_avg_pool`: the raw op's seeds and `deterministic`."""
    return _run(FRACTIONAL_AVG_POOL, value, _ratio_attr(pooling_ratio, "fractional_avg_pool", value), pseudo_random,
                overlapping, deterministic, seed, seed2)
