"""tf.data iterators going on after an element's error through batch, shuffle, zip, interleave and the
other nodes — clause dataset.ignore-errors (TF 2.21).

`bad(n, at)` is range(n) mapped through a CheckNumerics that fails at the positions `at`. Walking an
iterator records each element, or the error's class name where next() raised, until the end. TF's
kernels (observed): BatchDataset loses the elements it took for a batch before the error and starts
the next batch after it; a map followed by a batch runs as one MapAndBatchDataset (a default static
optimization) that loses the whole batch holding the error, unless the pipeline's options turn
map_and_batch_fusion off; zip takes an element of every input before raising (they stay aligned);
interleave raises without moving its cursor or counting the block; a window holding an error raises it;
repeat, flat_map, unbatch, cache,
shard (the error not counted), scan and take_while go on. Expected values observed with TF 2.21.
"""

from __future__ import annotations

import pytest

clause = pytest.mark.clause


def _bad(tf, n: int, at: list[int]):
    return tf.data.Dataset.range(n).map(
        lambda x: tf.debugging.check_numerics(
            1.0 / tf.cast(tf.logical_not(tf.reduce_any(tf.equal(x, at))), tf.float32), "bad") * 0
        + tf.cast(x, tf.float32))


def _walk(tf, ds, limit: int = 30) -> list:
    out: list = []
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


def _check(tf, cases) -> None:
    for what, make, want in cases:
        got = _walk(tf, make())
        assert got == want, f"walk={got}, but should be {want} [{what}]"


ERR = "InvalidArgumentError"


@clause("dataset.ignore-errors", ref="tf221")
def test_batch_after_an_element_error(tf):
    nofuse = tf.data.Options()
    nofuse.experimental_optimization.map_and_batch_fusion = False
    b = lambda n, at: _bad(tf, n, at)  # noqa: E731
    _check(tf, [
        ("map(bad@2).batch(2) (fused: the batch is lost)", lambda: b(6, [2]).batch(2),
         [[0.0, 1.0], ERR, [4.0, 5.0], "END"]),
        ("map(bad@4,5).batch(3) (fused)", lambda: b(6, [4, 5]).batch(3), [[0.0, 1.0, 2.0], ERR, "END"]),
        ("map(bad@6).batch(2, drop_remainder=True) (fused: the short batch's error)",
         lambda: b(7, [6]).batch(2, drop_remainder=True), [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], ERR, "END"]),
        ("map(bad@1,2).batch(4) (fused)", lambda: b(7, [1, 2]).batch(4), [ERR, [4.0, 5.0, 6.0], "END"]),
        ("map(bad@2).batch(2).with_options(no map_and_batch_fusion)",
         lambda: b(6, [2]).batch(2).with_options(nofuse), [[0.0, 1.0], ERR, [3.0, 4.0], [5.0], "END"]),
        ("map(bad@4,5).batch(3), no fusion", lambda: b(6, [4, 5]).batch(3).with_options(nofuse),
         [[0.0, 1.0, 2.0], ERR, ERR, "END"]),
        ("map(bad@2).prefetch(1).batch(2)", lambda: b(6, [2]).prefetch(1).batch(2),
         [[0.0, 1.0], ERR, [3.0, 4.0], [5.0], "END"]),
        ("map(bad@4).prefetch(1).batch(2, drop_remainder=True)",
         lambda: b(5, [4]).prefetch(1).batch(2, drop_remainder=True), [[0.0, 1.0], [2.0, 3.0], ERR, "END"]),
        ("map(bad@2).filter(True).batch(2)", lambda: b(6, [2]).filter(lambda x: True).batch(2),
         [[0.0, 1.0], ERR, [3.0, 4.0], [5.0], "END"]),
        ("map(bad@2).batch(2).ignore_errors()", lambda: b(6, [2]).batch(2).ignore_errors(),
         [[0.0, 1.0], [4.0, 5.0], "END"]),
        ("map(bad@2).batch(2).ignore_errors(), no fusion", lambda: b(6, [2]).batch(2).ignore_errors()
         .with_options(nofuse), [[0.0, 1.0], [3.0, 4.0], [5.0], "END"]),
        ("map(bad@1).padded_batch(2)", lambda: b(6, [1]).padded_batch(2), [ERR, [2.0, 3.0], [4.0, 5.0], "END"]),
        ("map(bad@2).padded_batch(2)", lambda: b(6, [2]).padded_batch(2),
         [[0.0, 1.0], ERR, [3.0, 4.0], [5.0], "END"]),
        ("map(bad@5).padded_batch(2)", lambda: b(6, [5]).padded_batch(2), [[0.0, 1.0], [2.0, 3.0], ERR, "END"]),
        ("map(bad@2).batch(1).unbatch()", lambda: b(6, [2]).batch(1).unbatch(),
         [0.0, 1.0, ERR, 3.0, 4.0, 5.0, "END"]),
    ])


@clause("dataset.ignore-errors", ref="tf221")
def test_other_nodes_after_an_element_error(tf):
    D = tf.data.Dataset
    b = lambda n, at: _bad(tf, n, at)  # noqa: E731
    _check(tf, [
        ("zip((map(bad@2), range))", lambda: D.zip((b(6, [2]), D.range(6))),
         [(0.0, 0), (1.0, 1), ERR, (3.0, 3), (4.0, 4), (5.0, 5), "END"]),
        ("zip((range, map(bad@2)))", lambda: D.zip((D.range(6), b(6, [2]))),
         [(0, 0.0), (1, 1.0), ERR, (3, 3.0), (4, 4.0), (5, 5.0), "END"]),
        ("map(bad@1).repeat(2)", lambda: b(3, [1]).repeat(2), [0.0, ERR, 2.0, 0.0, ERR, 2.0, "END"]),
        ("map(bad@1).concatenate(range(2) as float)",
         lambda: b(3, [1]).concatenate(D.range(2).map(lambda x: tf.cast(x, tf.float32))),
         [0.0, ERR, 2.0, 0.0, 1.0, "END"]),
        ("range(3).interleave(map(bad@1) + 10i, cycle 2, block 1)",
         lambda: D.range(3).interleave(lambda i: b(3, [1]).map(lambda x: x + 10. * tf.cast(i, tf.float32)),
                                       cycle_length=2, block_length=1),
         [0.0, 10.0, ERR, 2.0, ERR, 12.0, 20.0, ERR, 22.0, "END"]),
        ("range(2).interleave(map(bad@1) + 10i, cycle 2, block 2)",
         lambda: D.range(2).interleave(lambda i: b(4, [1]).map(lambda x: x + 10. * tf.cast(i, tf.float32)),
                                       cycle_length=2, block_length=2),
         [0.0, ERR, 2.0, 10.0, ERR, 12.0, 3.0, 13.0, "END"]),
        ("range(2).flat_map(map(bad@1))", lambda: D.range(2).flat_map(lambda i: b(3, [1])),
         [0.0, ERR, 2.0, 0.0, ERR, 2.0, "END"]),
        ("map(bad@1).cache()", lambda: b(4, [1]).cache(), [0.0, ERR, 2.0, 3.0, "END"]),
        ("map(bad@2).window(2) (the window holding the error is lost)",
         lambda: b(6, [2]).window(2).flat_map(lambda w: w.batch(2)), [[0.0, 1.0], ERR, [4.0, 5.0], "END"]),
        ("map(bad@1).enumerate()", lambda: b(4, [1]).enumerate(), [(0, 0.0), ERR, (2, 2.0), (3, 3.0), "END"]),
        ("map(bad@2).shard(2, 0) (the error not counted)", lambda: b(6, [2]).shard(2, 0), [0.0, ERR, 3.0, 5.0, "END"]),
        ("map(bad@1).scan(0, s + x)", lambda: b(4, [1]).scan(0., lambda s, x: (s + x, s + x)),
         [0.0, ERR, 2.0, 5.0, "END"]),
        ("map(bad@1).take_while(x < 10)", lambda: b(4, [1]).take_while(lambda x: x < 10), [0.0, ERR, 2.0, 3.0, "END"]),
        ("map(bad@2).shuffle(10, seed=1) (every other element comes out)",
         lambda: b(6, [2]).shuffle(10, seed=1).map(lambda x: x * 0 + 1), [ERR, 1.0, 1.0, 1.0, 1.0, 1.0, "END"]),
    ])
    got = sorted(x for x in _walk(tf, b(8, [3]).shuffle(2, seed=5).ignore_errors()) if x != "END")
    want = [0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 7.0]
    assert got == want, f"sorted elements={got}, but should be {want} [map(bad@3).shuffle(2).ignore_errors()]"
