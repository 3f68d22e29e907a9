"""SparseTensor elements and sparse batching, simdist against TF 2.21 (clauses dataset.sparse-elements,
dataset.sparse-batch): the same pipeline programs run on both, and every element's indices, values,
dense shape (or dense value) and the element spec must agree. Needs the `tf` extra."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

pytestmark = [pytest.mark.tf]

real_tf = pytest.importorskip("tensorflow")

from simdist import tf as sim_tf  # noqa: E402


def _norm(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in sorted(x.items())}
    if isinstance(x, tuple):
        return tuple(_norm(v) for v in x)
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return ("sparse", x.indices.numpy().tolist(), x.values.numpy().tolist(), x.dense_shape.numpy().tolist(),
                x.dtype.name)
    return (np.asarray(x).tolist(), x.dtype.name)


def _spec(s: Any) -> Any:
    if isinstance(s, dict):
        return {k: _spec(v) for k, v in sorted(s.items())}
    if isinstance(s, tuple):
        return tuple(_spec(v) for v in s)
    return (type(s).__name__, s.shape.as_list() if s.shape.rank is not None else None, s.dtype.name)


def _sp(tf: Any) -> Any:
    return tf.SparseTensor([[0, 1], [1, 0], [1, 2], [3, 3]], [1.5, -2.0, 3.0, 4.0], [4, 5])


def _ragged_rows(tf: Any) -> Any:
    """range(6) -> a [i % 3 + 1, 2] sparse of ones on its diagonal-ish entries."""
    return tf.data.Dataset.range(6).map(
        lambda i: tf.sparse.from_dense(tf.reshape(tf.range(2 * (i % 3 + 1)) % 3 + i, [i % 3 + 1, 2])))


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "slices": lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf)),
    "slices.batch3": lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf)).batch(3),
    "slices.batch2.drop.unbatch": lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf)).batch(2, True).unbatch(),
    "slices.repeat.take.batch": lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf)).repeat(3).skip(2).take(7)
    .batch(4),
    "tuple.slices.batch": lambda tf: tf.data.Dataset.from_tensor_slices((_sp(tf), tf.range(4))).batch(3),
    "dict.slices.map": lambda tf: tf.data.Dataset.from_tensor_slices({"s": _sp(tf), "x": [1, 2, 3, 4]})
    .map(lambda d: {"s": tf.sparse.map_values(tf.square, d["s"]), "n": tf.size(d["s"].values) + d["x"]}),
    "map.rows.batch": lambda tf: _ragged_rows(tf).batch(4),
    "map.rows.unbatch": lambda tf: _ragged_rows(tf).unbatch(),
    "map.rows.batch.unbatch": lambda tf: _ragged_rows(tf).batch(4).unbatch(),
    "map.to_dense": lambda tf: _ragged_rows(tf).map(lambda s: tf.sparse.to_dense(s)),
    "map.reduce_sum": lambda tf: _ragged_rows(tf).batch(2).map(lambda s: tf.reshape(tf.sparse.reduce_sum(s, axis=0),
                                                                                     [-1])),
    "zip.concat": lambda tf: tf.data.Dataset.zip((_ragged_rows(tf), tf.data.Dataset.range(6)))
    .concatenate(tf.data.Dataset.zip((_ragged_rows(tf).take(1), tf.data.Dataset.range(1)))).batch(5),
    "from_tensors.batch": lambda tf: tf.data.Dataset.from_tensors(_sp(tf)).repeat(3).batch(2),
    "cache.prefetch": lambda tf: _ragged_rows(tf).cache().prefetch(2).batch(3),
    "sparse_batch.known": lambda tf: tf.data.Dataset.range(7).map(lambda i: tf.range(i % 4)).sparse_batch(3, [5]),
    "sparse_batch.unknown": lambda tf: tf.data.Dataset.range(7).map(lambda i: tf.reshape(tf.range(2 * (i % 3)),
                                                                                          [i % 3, 2]))
    .sparse_batch(2, [None, 2]),
    "sparse_batch.float.map": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.cast(tf.range(i), tf.float32) / 2)
    .sparse_batch(2, [None]).map(lambda s: tf.sparse.to_dense(s)),
    "dense_to_sparse_batch": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.fill([i], i))
    .apply(tf.data.experimental.dense_to_sparse_batch(4, [4])),
}


def _run(tf: Any, name: str) -> tuple[Any, list[Any]]:
    ds = PROGRAMS[name](tf)
    return _spec(ds.element_spec), [_norm(e) for e in ds]


def _sliced(names: list[str]) -> list[Any]:
    """Every other program in the default run (the module's tests near 10 s); `-m slow` runs them all."""
    return [pytest.param(n, marks=() if i % 2 == 0 else pytest.mark.slow) for i, n in enumerate(names)]


@pytest.mark.parametrize("name", _sliced(sorted(PROGRAMS)))
def test_sparse_pipelines_match_tf(name: str) -> None:
    want_spec, want = _run(real_tf, name)
    got_spec, got = _run(sim_tf, name)
    assert got_spec == want_spec, f"element_spec={got_spec}, but should be {want_spec} [{name}]"
    assert got == want, f"elements={got}, but should be {want} [{name}]"


@pytest.mark.parametrize("name", ["slices", "map.rows.batch", "sparse_batch.unknown"])
def test_sparse_numpy_iterator_matches_tf(name: str) -> None:
    want = [np.asarray(e).tolist() for e in PROGRAMS[name](real_tf).as_numpy_iterator()]
    got = [np.asarray(e).tolist() for e in PROGRAMS[name](sim_tf).as_numpy_iterator()]
    assert got == want, f"as_numpy_iterator()={got}, but should be {want} [{name}]"


def _parsed_records(tf: Any, path: str) -> list[Any]:
    """A TFRecord file of Examples parsed with a VarLenFeature (SparseTensor) per record and per batch."""
    spec = {"ids": tf.io.VarLenFeature(tf.int64), "y": tf.io.FixedLenFeature([], tf.float32)}
    per_record = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, spec))
    per_batch = tf.data.TFRecordDataset(path).batch(3).map(lambda r: tf.io.parse_example(r, spec))
    out = []
    for ds in (per_record.batch(2), per_batch, per_batch.unbatch(),
               per_record.map(lambda d: (tf.sparse.to_dense(d["ids"]), d["y"])).padded_batch(2)):
        out.append((_spec(ds.element_spec), [_norm(e) for e in ds]))
    return out


def test_parsed_varlen_features_in_a_pipeline_match_tf(tmp_path) -> None:
    path = str(tmp_path / "examples.tfr")
    with real_tf.io.TFRecordWriter(path) as w:
        for i in range(5):
            ex = real_tf.train.Example(features=real_tf.train.Features(feature={
                "ids": real_tf.train.Feature(int64_list=real_tf.train.Int64List(value=list(range(i)))),
                "y": real_tf.train.Feature(float_list=real_tf.train.FloatList(value=[i * 0.5]))}))
            w.write(ex.SerializeToString())
    want, got = _parsed_records(real_tf, path), _parsed_records(sim_tf, path)
    names = ["map(parse_single_example).batch(2)", "batch(3).map(parse_example)", "batch(3).map(parse_example)"
             ".unbatch()", "map(to_dense).padded_batch(2)"]
    for name, g, w_ in zip(names, got, want):
        assert g == w_, f"(spec, elements)={g}, but should be {w_} [TFRecordDataset.{name}]"


def _rt(r: Any) -> Any:
    if hasattr(r, "nested_row_splits"):
        return ("ragged", r.to_list(), [s.numpy().tolist() for s in r.nested_row_splits], r.dtype.name,
                r.row_splits.dtype.name)
    return _norm(r)


def _rspec(s: Any) -> Any:
    if isinstance(s, tuple):
        return tuple(_rspec(v) for v in s)
    return repr(s)


RAGGED: dict[str, Callable[[Any], Any]] = {
    "vectors": lambda tf: tf.data.Dataset.range(7).map(lambda i: tf.range(i % 4)).ragged_batch(3),
    "vectors.int32.drop": lambda tf: tf.data.Dataset.range(7).map(lambda i: tf.range(i % 4))
    .ragged_batch(2, True, tf.int32),
    "rows_of_2": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.reshape(tf.range(2 * i), [i, 2])).ragged_batch(2),
    "squares": lambda tf: tf.data.Dataset.range(4).map(lambda i: tf.fill([i, i + 1], tf.cast(i, tf.float32)))
    .ragged_batch(3),
    "mixed": lambda tf: tf.data.Dataset.range(5).map(lambda i: (tf.range(i), tf.fill([3], i), i)).ragged_batch(2),
    "unbatch": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.range(i)).ragged_batch(2).unbatch(),
    "two_levels.unbatch": lambda tf: tf.data.Dataset.range(4).map(lambda i: tf.fill([i, i], i)).ragged_batch(3)
    .unbatch(),
    "take.skip.zip": lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(6).map(lambda i: tf.range(i))
                                                     .ragged_batch(2).skip(1), tf.data.Dataset.range(3))),
    "to_tensor": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.range(i)).ragged_batch(3)
    .map(lambda r: r.to_tensor(-1)),
    "experimental": lambda tf: tf.data.Dataset.range(5).map(lambda i: tf.range(i))
    .apply(tf.data.experimental.dense_to_ragged_batch(4)),
}


@pytest.mark.parametrize("name", _sliced(sorted(RAGGED)))
def test_ragged_batch_pipelines_match_tf(name: str) -> None:
    runs = []
    for tf in (real_tf, sim_tf):
        ds = RAGGED[name](tf)
        runs.append((_rspec(ds.element_spec), [real_tf.nest.map_structure(_rt, e) if tf is real_tf else
                                               sim_tf.nest.map_structure(_rt, e) for e in ds]))
    assert runs[1] == runs[0], f"(spec, elements)={runs[1]}, but should be {runs[0]} [{name}]"
