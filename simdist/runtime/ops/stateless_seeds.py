"""Seed arithmetic of the stateless random ops: `tf.random.split`/`fold_in` (and their
`tf.random.experimental.stateless_split`/`stateless_fold_in` names), composed as TF's
stateless_random_ops.py composes them from full-range stateless uniform draws (Philox, bit for
bit; clause ops.random-generator):

- split(seed, num): stateless_uniform([num, 2], seed, dtype=seed.dtype, minval=None, maxval=None);
- fold_in(seed, data): stack([stateless_uniform([], seed, dtype=data.dtype, minval=None,
  maxval=None), data]).

and `tf.random.experimental.stateless_shuffle` (StatelessShuffle: the key and counter of the seed,
Fisher-Yates over the first axis as shuffle_common.h, one Philox word per swap). FLOPs: 0.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import random as _random
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["split", "fold_in", "stateless_shuffle", "fisher_yates"]


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


# --- StatelessShuffle -----------------------------------------------------------------------------------
def _shuffle(value: "np.ndarray", seed: "np.ndarray") -> "np.ndarray":
    """shuffle_common.h's RandomShuffle: Fisher-Yates over the first axis, the swap partner of i
    one Philox word mod (size − i) (SingleSampleAdapter: the words in order)."""
    import numpy as np
    from simdist.runtime.ops import philox
    s = [int(v) for v in np.asarray(seed).reshape(-1)]
    return fisher_yates(value, lambda blocks: philox.words(s, blocks))


def fisher_yates(value: "np.ndarray", words_of: Any) -> "np.ndarray":
    """The rows of `value` shuffled by the Philox words `words_of(blocks)` (four per block), as
    StatelessShuffle's kernel shuffles them (also its raw form's, from a key and counter)."""
    import numpy as np
    if value.size <= 1 or value.ndim == 0 or value.shape[0] <= 1:
        return value.copy()
    size = value.shape[0]
    words = words_of(-(-(size - 1) // 4)).tolist()
    perm = list(range(size))
    for i in range(size - 1):
        j = i + words[i] % ((size - i) & 0xFFFFFFFF)
        perm[i], perm[j] = perm[j], perm[i]
    return value[np.array(perm)]


def _shuffle_rule(dts: Any, attrs: Any) -> Any:
    from simdist.runtime.ops.random import _seed_rule
    return _seed_rule("StatelessShuffle", lambda d, a: d[0])(dts, attrs)


from simdist.runtime.ops.registry import register as _register  # noqa: E402

STATELESS_SHUFFLE = _register("StatelessShuffle", _shuffle, _shuffle_rule, lambda a, out, at: 0.0, kind="random")
no_tf_gradient("StatelessShuffle")   # (TF 2.21 registers none: LookupError; observed, fz27a)


def stateless_shuffle(value: Any, seed: Any, alg: Any = "auto_select", name: str | None = None) -> Tensor:
    """`tf.random.experimental.stateless_shuffle`: the rows in the seed's Fisher-Yates order."""
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.args import t as _t
    from simdist.runtime.ops import rng_alg
    s = rng_alg.seed_for(seed, alg, "StatelessShuffle")
    return dispatch.execute(STATELESS_SHUFFLE, (_t(value), s))
