"""The `alg` argument of the stateless random ops (`stateless_normal`, `stateless_uniform`,
`stateless_truncated_normal`, `random.split`, `random.fold_in`, `stateless_shuffle`), as TF 2.21's
random_ops_util.get_key_counter_alg reads it on a CPU (clause ops.stateless-random):

- convert_alg_to_int: None and "auto_select" are 3, "philox" 1, "threefry" 2 (a string is
  stripped, lower-cased, '-' and '_' dropped), a Python int (or bool) or a tf.random.Algorithm is
  its value, a tensor is kept; another string or int is ValueError ("Argument `alg` got
  unsupported value ..."), anything else (a float, a NumPy integer) TypeError;
- auto_select: StatelessRandomGetKeyCounter scrambles the seed (an int32/int64 vector of 2);
- philox: _philox_scramble_seed, the same scramble in Python ops: the seed is cast to uint64
  (so a float seed is truncated, and only a vector of at least one element is refused), its
  first two words giving the same draws as auto_select;
- threefry: the seed is cast to uint32 and its words 0 and 1 sliced (StridedSlice's errors for
  a scalar or a one-element seed), then every CPU kernel refuses the one-word counter
  (InvalidArgumentError "counter must be a vector with length at least 2").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import dims
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["alg_to_int", "seed_for"]

_NAMES = {"philox": 1, "threefry": 2, "autoselect": 3}


def _unsupported(alg: Any) -> ValueError:
    """random_ops_util.unsupported_alg_error_msg: the choices named as `alg` was given."""
    if isinstance(alg, int):
        names = ("1", "2", "3")
    elif isinstance(alg, str):
        names = ("philox", "threefry", "auto_select")
    else:
        names = ("Algorithm.PHILOX", "Algorithm.THREEFRY", "Algorithm.AUTO_SELECT")
    return ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are {names[0]} for the Philox "
                      f"algorithm, {names[1]} for the ThreeFry algorithm, and {names[2]} for auto-selection.")


def alg_to_int(alg: Any) -> int:
    """convert_alg_to_int (None: auto_select, as get_key_counter_alg), then _get_key_counter's
    check of the value: 1, 2 or 3, or TF's ValueError/TypeError."""
    from simdist.runtime.ops.random_generator import Algorithm
    if alg is None:
        return 3
    if isinstance(alg, int):
        value: Any = alg
    elif isinstance(alg, Algorithm):
        value = alg.value
    elif isinstance(alg, Tensor):
        value = int(np.asarray(alg.numpy()).reshape(-1)[0]) if alg.shape.num_elements() == 1 else alg
        if isinstance(value, int) and value not in (1, 2, 3):
            raise _unsupported(alg)
    elif isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon not in _NAMES:
            raise _unsupported(alg)
        value = _NAMES[canon]
    else:
        raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int.")
    if value not in (1, 2, 3):
        raise _unsupported(alg)
    return int(value)


def _counter_error(opname: str, shape: list, at_least: int) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"counter must be a vector with length at least {at_least}; got "
                                                   f"shape: {dims(shape)}. (Note that batched counters are not "
                                                   f"supported yet.) [Op:{opname}]")


def seed_for(seed: Any, alg: Any, opname: str) -> Tensor:
    """The int32/int64 seed pair op `opname` draws from under `alg` (auto_select and philox give
    the same draws), or TF's error: the alg's, the seed's (StatelessRandomGetKeyCounter's for
    auto_select, the Philox key draw's for philox, StridedSlice's for threefry), then threefry's
    kernel error."""
    from simdist.runtime.ops import random as _random
    a = alg_to_int(alg)
    if a == 3:
        return _random._seed(seed, opname)
    s = seed if isinstance(seed, Tensor) else convert_to_tensor(seed)
    shape = s.shape.as_list()
    if a == 2:
        if not (s.dtype.is_integer or s.dtype.is_floating or s.dtype.is_bool):
            from simdist.runtime.ops import math
            math.cast(s, dtypes.uint32)      # (the cast's own error)
        if len(shape) == 0:
            raise errors.InvalidArgumentError(None, None, "Attempting to slice scalar input. [Op:StridedSlice]")
        if shape[0] < 2:
            raise errors.InvalidArgumentError(None, None, f"slice index {shape[0]} of dimension 0 out of bounds. "
                                                          "[Op:StridedSlice]")
        # (the kernels' run-time check: a dry run of a tf.function goes on past it with a stand-in seed, so
        # a later op's trace-time error comes first, `tf.random.split([0, 0], alg='threefry') ** nan`'s
        # TypeError; fz35b, fourteenth generator seed 1420353003 #83)
        return dispatch.refused(_counter_error(opname, [1], 2), dtypes.int64, [2], pruned=True)
    if len(shape) != 1:     # (the Philox key draw: StatelessRandomUniformFullIntV2; traced, its shape function)
        from simdist.runtime.ops import trace_errors
        raise trace_errors.mark_shape(_counter_error("StatelessRandomUniformFullIntV2", shape, 1),
                                      f"Shape must be rank 1 but is rank {len(shape)}",
                                      "StatelessRandomUniformFullIntV2", [[1], shape])
    if shape[0] < 1:
        return dispatch.refused(_counter_error("StatelessRandomUniformFullIntV2", shape, 1), dtypes.int64, [2],
                                pruned=True)
    if s.dtype in (dtypes.int32, dtypes.int64) and shape[0] == 2:
        return s
    from simdist.runtime.ops import math, slicing
    wide = math.cast(s, dtypes.uint64)
    return math.cast(slicing.slice_(wide, [0], [2]) if shape[0] > 2 else wide, dtypes.int64)
