"""Seed arithmetic of the stateless random ops: `tf.random.split`/`fold_in` (and their
`tf.random.experimental.stateless_split`/`stateless_fold_in` names), composed as TF's
stateless_random_ops.py composes them from full-range stateless uniform draws (Philox, bit for
bit; clause ops.random-generator):

- split(seed, num): stateless_uniform([num, 2], seed, dtype=seed.dtype, minval=None, maxval=None);
- fold_in(seed, data): stack([stateless_uniform([], seed, dtype=data.dtype, minval=None,
  maxval=None), data]).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import random as _random
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["split", "fold_in"]


def split(seed: Any, num: int = 2, alg: Any = "auto_select") -> Tensor:
    """`tf.random.split`: [num, 2] new seeds of the seed's dtype."""
    s = seed if isinstance(seed, Tensor) else convert_to_tensor(seed)
    return _random.stateless_uniform([int(num), 2], seed=s, minval=None, maxval=None, dtype=s.dtype, alg=alg)


def fold_in(seed: Any, data: Any, alg: Any = "auto_select") -> Tensor:
    """`tf.random.fold_in`: [draw(seed), data], the draw of data's dtype."""
    from simdist.runtime.ops import stack
    d = data if isinstance(data, Tensor) else convert_to_tensor(data)
    s1 = _random.stateless_uniform([], seed=seed, minval=None, maxval=None, dtype=d.dtype, alg=alg)
    return stack([s1, d])
