"""tf.random.Generator's Philox stream and the stateless seed helpers — clause
ops.random-generator (TF 2.21 only).

Runs on the backend's `tf` alone. The reference is the clause's rule written out here: a
generator from an integer seed s has state [s, 0, 0] (counter s, key 0); a draw of n float32
uniforms takes the mantissa bits of Philox4x32-10 blocks counter, counter + 1, ... and advances
the counter by 256·n; tf.random.fold_in(seed, data) is [the first full-range int32 word of
tf.random.split(seed)'s stream, data]. The case-by-case comparison with TF 2.21 is
tests/ops/test_random_generator_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy
from simdist.conformance.philox_ref import block

clause = pytest.mark.clause



def _uniforms(counter: int, n: int) -> np.ndarray:
    words: list[int] = []
    for g in range(-(-n // 4)):
        c = counter + g
        words += block(c, [0, 0])
    bits = np.array([(127 << 23) | (w & 0x7FFFFF) for w in words[:n]], np.uint32)
    return bits.view(np.float32) - np.float32(1.0)


@clause("ops.random-generator", ref="tf221")
def test_generator_uniform_is_philox_of_its_state(tf):
    for seed, n in ((1, 6), (2**40 + 3, 9)):
        g = tf.random.Generator.from_seed(seed)
        got = to_numpy(g.uniform([n]))
        want = _uniforms(seed, n)
        assert_true(np.array_equal(got, want), f"Generator.from_seed({seed}).uniform([{n}])={got}, but should be "
                    f"{want} bit for bit", call="Generator.uniform")
        state = to_numpy(g.state).tolist()
        assert_true(state == [seed + 256 * n, 0, 0], f"state after {n} draws is {state}, but should be "
                    f"{[seed + 256 * n, 0, 0]} (the counter advances by 256 per value)", call="Generator.uniform")


@clause("ops.random-generator", ref="tf221")
def test_fold_in_is_the_first_split_word(tf):
    folded = to_numpy(tf.random.fold_in([3, 4], 17)).tolist()
    first = int(to_numpy(tf.random.split([3, 4], 1))[0, 0])
    assert_true(folded == [first, 17], f"fold_in([3, 4], 17)={folded}, but should be [{first}, 17] (the first "
                "full-range int32 draw of the seed, then the data)", call="fold_in")


@clause("ops.list-diff", ref="tf221")
def test_setdiff1d_keeps_order_and_repeats(tf):
    out, idx = tf.compat.v1.setdiff1d([4, 1, 2, 1, 9, 2], [2, 7])
    got = (to_numpy(out).tolist(), to_numpy(idx).tolist())
    assert_true(got == ([4, 1, 1, 9], [0, 1, 3, 4]), f"setdiff1d([4, 1, 2, 1, 9, 2], [2, 7]) gives {got}, but should "
                "be ([4, 1, 1, 9], [0, 1, 3, 4]) (x's order, repeats kept, positions in x)", call="setdiff1d")
