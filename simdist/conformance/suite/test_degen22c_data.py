"""degen22c (issue 29, session 22): tf.data off its degenerate points. The earlier programs ran
Dataset.window with shift == size or one shift/stride pair, interleave over inputs of one length (a
multiple of block_length), take/skip/shard/batch away from the input's size; a wrong rule agrees with
TF's there. Each case here sits where the rules differ; every expected value is computed in the test
from TF 2.21's rule (a Python transcription of the kernel named), never from the backend's own
implementation."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true

clause = pytest.mark.clause


def _ints(x) -> list:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x).tolist()


def _windows_ref(n: int, size: int, shift: int, stride: int, drop: bool) -> list[list[int]]:
    """WindowDatasetOp over range(n): window i starts at i * shift, holds start, start + stride, ...
    (size of them at most, below n); a short window is kept, or with drop_remainder ends the iteration."""
    out = []
    start = 0
    while start < n:
        rows = [start + k * stride for k in range(size) if start + k * stride < n]
        if drop and len(rows) < size:
            break
        out.append(rows)
        start += shift
    return out


@clause("dataset.window", ref="tf221")
def test_degen22c_window_shift_differs_from_size_and_stride(tf, budget):
    """Dataset.window(size, shift, stride, drop_remainder) over range(n) with shift < size, shift > size,
    stride > 1 and an odd n, read with flat_map(batch): each window's elements and the cardinality
    (drop_remainder: max(0, (n - ((size - 1) stride + 1)) // shift + 1), else ceil(n / shift))."""
    cases = [(7, 3, 2, 1, False), (7, 2, 3, 1, False), (9, 3, 1, 2, True), (10, 4, 3, 2, False),
             (11, 3, 2, 3, True), (8, 3, 5, 1, True), (6, 2, 4, 2, False)]
    for n, size, shift, stride, drop in budget(cases):
        ds = tf.data.Dataset.range(n).window(size, shift=shift, stride=stride, drop_remainder=drop)
        got = [_ints(w) for w in ds.flat_map(lambda w: w.batch(size))]
        want = _windows_ref(n, size, shift, stride, drop)
        call = f"range({n}).window({size}, shift={shift}, stride={stride}, drop_remainder={drop})"
        assert_equal(str(got), str(want), what="windows", call=call)
        if drop:
            rest = n - ((size - 1) * stride + 1)
            card = 0 if rest < 0 else rest // shift + 1
        else:
            card = -(-n // shift)
        assert_equal(int(ds.cardinality()), card, what="cardinality", call=call)


def _interleave_ref(lengths: list[int], cycle: int, block: int) -> list[int]:
    """InterleaveDatasetOp::GetNextInternal over inner datasets range(10 x, 10 x + x): a cycle of slots
    and a cursor; a slot gives `block` elements then the cursor moves on; a slot whose dataset ends is
    emptied and the cursor moves on with a fresh block count (AdvanceToNextInCycle); an empty slot is
    refilled from the input while it lasts."""
    src = iter(lengths)
    slots: list = [None] * cycle
    cursor = taken = n_open = 0
    spent = False
    out: list[int] = []
    while not spent or n_open:
        if slots[cursor] is not None:
            try:
                out.append(next(slots[cursor]))
            except StopIteration:
                slots[cursor] = None
                n_open -= 1
                cursor, taken = (cursor + 1) % cycle, 0
                continue
            taken += 1
            if taken == block:
                cursor, taken = (cursor + 1) % cycle, 0
            continue
        if not spent:
            try:
                x = next(src)
            except StopIteration:
                spent = True
                continue
            slots[cursor] = iter(range(10 * x, 10 * x + x))
            n_open += 1
        else:
            cursor, taken = (cursor + 1) % cycle, 0
    return out


@clause("dataset.interleave", ref="tf221")
def test_degen22c_interleave_inputs_of_uneven_lengths(tf, budget):
    """interleave(cycle_length, block_length) over inner datasets whose lengths are not multiples of
    block_length (and one empty): a dataset that ends in the middle of its block hands on to the next
    slot, which starts a whole block (TF's InterleaveDataset order, transcribed)."""
    cases = [([3, 1, 4, 0, 2, 5], 2, 2), ([5, 2, 4, 1, 3], 3, 2), ([4, 1, 5, 2], 2, 3), ([2, 5, 3], 1, 2)]
    for lengths, cycle, block in budget(cases):
        ds = tf.data.Dataset.from_tensor_slices(np.array(lengths, dtype=np.int64)).interleave(
            lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=cycle, block_length=block)
        got = [int(v) for v in ds]
        want = _interleave_ref(lengths, cycle, block)
        assert_equal(str(got), str(want), what="elements",
                     call=f"interleave(lengths {lengths}, cycle_length={cycle}, block_length={block})")


@clause("dataset.batching", ref="tf221")
def test_degen22c_counts_equal_to_the_size(tf, budget):
    """take, skip, shard and batch with a count equal to the input's size (and one either side):
    take(n) and skip(n) of n elements, shard(n, i), batch(n) with and without drop_remainder,
    padded_batch of rows longest first and longest last — elements and cardinalities by the rule."""
    n = 5
    base = list(range(n))
    cases = [("take(5)", lambda d: d.take(5), base[:5]), ("take(4)", lambda d: d.take(4), base[:4]),
             ("take(6)", lambda d: d.take(6), base[:6]), ("skip(5)", lambda d: d.skip(5), base[5:]),
             ("skip(4)", lambda d: d.skip(4), base[4:]), ("shard(5, 4)", lambda d: d.shard(5, 4), base[4::5]),
             ("shard(5, 0)", lambda d: d.shard(5, 0), base[0::5]),
             ("shard(6, 5)", lambda d: d.shard(6, 5), base[5::6]),
             ("batch(5, drop_remainder=True)", lambda d: d.batch(5, drop_remainder=True), [base]),
             ("batch(6, drop_remainder=True)", lambda d: d.batch(6, drop_remainder=True), []),
             ("batch(4, drop_remainder=True)", lambda d: d.batch(4, drop_remainder=True), [base[:4]]),
             ("batch(5)", lambda d: d.batch(5), [base])]
    for name, make, want in budget(cases):
        ds = make(tf.data.Dataset.range(n))
        got = [_ints(e) for e in ds]
        call = f"range({n}).{name}"
        assert_equal(str(got), str(want), what="elements", call=call)
        assert_equal(int(ds.cardinality()), len(want), what="cardinality", call=call)
    if budget([0, 1]) == [0]:
        return
    for lengths in ([3, 1, 2, 2], [1, 2, 3, 1], [2, 2, 2, 1]):
        ds = tf.data.Dataset.from_generator(lambda lengths=lengths: (np.arange(1, k + 1) for k in lengths),
                                            output_signature=tf.TensorSpec([None], tf.int64))
        got = [_ints(b) for b in ds.padded_batch(3, padding_values=np.int64(-1))]
        want = []
        for i in range(0, len(lengths), 3):
            rows = lengths[i:i + 3]
            want.append([list(range(1, k + 1)) + [-1] * (max(rows) - k) for k in rows])
        assert_true(got == want, f"padded_batch(3, padding_values=-1) of rows of lengths {lengths}: {got}, but "
                    f"should be {want} (each batch padded to its own longest row)")
