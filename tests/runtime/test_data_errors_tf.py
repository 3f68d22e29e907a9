"""Iterators after an element's error, simdist against TF 2.21 (clause dataset.ignore-errors): pipelines of
batch (fused after a map, or not), padded_batch, unbatch, zip, repeat, interleave, flat_map, shard,
scan, take_while, cache, window over an input failing at chosen positions, walked element by element (an error
recorded by class, the walk going on) and with ignore_errors. Needs the `tf` extra."""

from __future__ import annotations

import itertools
from typing import Any, Callable

import pytest

pytestmark = [pytest.mark.tf]

real_tf = pytest.importorskip("tensorflow")

from simdist import tf as sim_tf  # noqa: E402


def _bad(tf: Any, n: int, at: tuple[int, ...]) -> Any:
    return tf.data.Dataset.range(n).map(
        lambda x: tf.debugging.check_numerics(
            1.0 / tf.cast(tf.logical_not(tf.reduce_any(tf.equal(x, list(at) or [-1]))), tf.float32), "bad") * 0
        + tf.cast(x, tf.float32))


def _nofuse(tf: Any) -> Any:
    o = tf.data.Options()
    o.experimental_optimization.map_and_batch_fusion = False
    return o


NODES: dict[str, Callable[[Any, Any], Any]] = {
    "batch3": lambda tf, d: d.batch(3),
    "batch3.drop": lambda tf, d: d.batch(3, drop_remainder=True),
    "batch3.nofuse": lambda tf, d: d.batch(3).with_options(_nofuse(tf)),
    "prefetch.batch2": lambda tf, d: d.prefetch(2).batch(2),
    "padded_batch2": lambda tf, d: d.padded_batch(2),
    "batch2.unbatch": lambda tf, d: d.batch(2).unbatch(),
    "zip": lambda tf, d: tf.data.Dataset.zip((d, tf.data.Dataset.range(100), d.map(lambda x: -x))),
    "repeat2": lambda tf, d: d.repeat(2),
    "interleave": lambda tf, d: tf.data.Dataset.range(2).interleave(
        lambda i: d.map(lambda x: x + 100. * tf.cast(i, tf.float32)), cycle_length=2, block_length=2),
    "flat_map": lambda tf, d: tf.data.Dataset.range(2).flat_map(lambda i: d),
    "shard3.1": lambda tf, d: d.shard(3, 1),
    "scan": lambda tf, d: d.scan(0., lambda s, x: (s + x, s * 2)),
    "take_while": lambda tf, d: d.take_while(lambda x: x < 6.),
    "cache.repeat": lambda tf, d: d.cache().repeat(2),
    "filter.batch2": lambda tf, d: d.filter(lambda x: x > 0).batch(2),
    "window2": lambda tf, d: d.window(2).flat_map(lambda w: w.batch(2)),
    "window3.shift2": lambda tf, d: d.window(3, 2).flat_map(lambda w: w.batch(3)),
    "window2.shift1.stride2.drop": lambda tf, d: d.window(2, 1, 2, drop_remainder=True).flat_map(lambda w: w.batch(2)),
}
ERRORS = [(0,), (2,), (3, 4), (6,)]
CASES = [(n, e) for n, e in itertools.product(sorted(NODES), ERRORS)]
# The default run keeps the two-error set for every node (the module under ~10 s of tests); `-m slow` runs all.
DEFAULT_ERRORS = (3, 4)


def _walk(tf: Any, ds: Any, limit: int = 40) -> list[Any]:
    out: list[Any] = []
    it = iter(ds)
    for _ in range(limit):
        try:
            e = next(it)
        except StopIteration:
            out.append("END")
            break
        except tf.errors.OpError as ex:
            out.append(type(ex).__name__)
            continue
        out.append(tf.nest.map_structure(lambda t: t.numpy().tolist(), e))
    return out


@pytest.mark.parametrize("node,at", [pytest.param(n, e, id=f"{n}-err{'_'.join(map(str, e))}",
                                                  marks=() if e == DEFAULT_ERRORS else pytest.mark.slow)
                                     for n, e in CASES])
def test_walk_after_errors_matches_tf(node: str, at: tuple[int, ...]) -> None:
    want = _walk(real_tf, NODES[node](real_tf, _bad(real_tf, 7, at)))
    got = _walk(sim_tf, NODES[node](sim_tf, _bad(sim_tf, 7, at)))
    assert got == want, f"walk={got}, but should be {want} [{node} over range(7) failing at {at}]"
    want = _walk(real_tf, NODES[node](real_tf, _bad(real_tf, 7, at)).ignore_errors())
    got = _walk(sim_tf, NODES[node](sim_tf, _bad(sim_tf, 7, at)).ignore_errors())
    assert got == want, f"walk={got}, but should be {want} [{node}.ignore_errors() over range(7) failing at {at}]"
