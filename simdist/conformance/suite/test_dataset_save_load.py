"""Dataset.save / Dataset.load (and tf.data.experimental.save / load) — clause dataset.save-load (TF 2.21).

save writes the dataset in TF's snapshot format (every element to shard 0 without a shard_func, to
shard shard_func(x) with one) and load reads it back: the element spec from dataset_spec.pb, the
cardinality the number of elements saved, the shards read by reader_func (default: interleave of the
shards, cycle_length the CPU count). Expected values were observed with TF 2.21 (tests/runtime/
test_data_save_load_tf.py crosses the directories between TF and simdist).
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _values(ds) -> list:
    out = []
    for x in ds:
        if isinstance(x, dict):
            out.append({k: np.asarray(v).tolist() for k, v in sorted(x.items())})
        elif isinstance(x, tuple):
            out.append(tuple(np.asarray(v).tolist() for v in x))
        else:
            out.append(np.asarray(x).tolist())
    return out


@clause("dataset.save-load", ref="tf221")
def test_a_saved_dataset_loads_back(tf):
    D = tf.data.Dataset
    with tempfile.TemporaryDirectory() as d:
        cases = [
            ("range(5)", lambda: D.range(5), {}, [0, 1, 2, 3, 4]),
            ("range(4).map((x, as_string(x)))", lambda: D.range(4).map(lambda x: (x, tf.strings.as_string(x))), {},
             [(0, b"0"), (1, b"1"), (2, b"2"), (3, b"3")]),
            ("from_tensors({'f': ones([2]), 's': ['ab', 'c']}).repeat(2)",
             lambda: D.from_tensors({"f": tf.ones([2]), "s": tf.constant([b"ab", b"c"])}).repeat(2), {},
             [{"f": [1.0, 1.0], "s": [b"ab", b"c"]}] * 2),
            ("range(5).batch(2)", lambda: D.range(5).batch(2), {}, [[0, 1], [2, 3], [4]]),
            ("range(6).map(x / 4), GZIP", lambda: D.range(6).map(lambda x: tf.cast(x, tf.float32) / 4),
             {"compression": "GZIP"}, [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]),
            ("range(9).filter(even)", lambda: D.range(9).filter(lambda x: x % 2 == 0), {}, [0, 2, 4, 6, 8]),
            ("range(0)", lambda: D.range(0), {}, []),
        ]
        for i, (call, make, kw, want) in enumerate(cases):
            path = os.path.join(d, str(i))
            source = make()
            source.save(path, **kw)
            ds = D.load(path, compression=kw.get("compression"))
            assert_same(_values(ds), want, call=f"{call}.save(); load()")
            assert_same(int(ds.cardinality()), len(want), call=f"load() of {call}: cardinality, the elements saved")
            assert_same(repr(ds.element_spec) if not isinstance(ds.element_spec, dict) else
                        sorted(ds.element_spec.items()) == sorted(source.element_spec.items()),
                        repr(source.element_spec) if not isinstance(ds.element_spec, dict) else True,
                        call=f"load() of {call}: the saved element spec")
        assert_same(sorted(n for n in os.listdir(os.path.join(d, "0")) if not n[0].isdigit()),
                    ["dataset_spec.pb", "snapshot.metadata"], call="save(): the directory's files")
        runs = [n for n in os.listdir(os.path.join(d, "0")) if n[0].isdigit()]
        assert_same(sorted(os.listdir(os.path.join(d, "0", runs[0]))), ["00000000.shard"],
                    call="range(5).save(): every element in shard 0")


@clause("dataset.save-load", ref="tf221")
def test_shard_func_and_reader_func(tf):
    D = tf.data.Dataset
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s")
        D.range(6).save(path, shard_func=lambda x: x % 2)
        run = [n for n in os.listdir(path) if n[0].isdigit()][0]
        assert_same(sorted(os.listdir(os.path.join(path, run))), ["00000000.shard", "00000001.shard"],
                    call="range(6).save(shard_func=x % 2): two shards")
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        want = [0, 1, 2, 3, 4, 5] if cpus >= 2 else [0, 2, 4, 1, 3, 5]
        assert_same(_values(D.load(path)), want,
                    call=f"load(): the shards [0, 2, 4] and [1, 3, 5] interleaved, cycle_length {cpus} (the CPUs)")
        assert_same(_values(D.load(path, reader_func=lambda ds: ds.flat_map(lambda x: x))), [0, 2, 4, 1, 3, 5],
                    call="load(reader_func=flat_map(identity)): shard after shard")
        tf.data.experimental.save(D.range(3), os.path.join(d, "e"))
        assert_same(_values(tf.data.experimental.load(os.path.join(d, "e"), tf.TensorSpec([], tf.int64))), [0, 1, 2],
                    call="experimental.save / experimental.load(element_spec=...)")


@clause("dataset.save-load", ref="tf221")
def test_save_load_errors(tf):
    D = tf.data.Dataset
    with tempfile.TemporaryDirectory() as d:
        with raises(tf.errors.InvalidArgumentError, call="save(shard_func returning int32)",
                    match="`shard_func` must return a scalar int64"):
            D.range(3).save(os.path.join(d, "a"), shard_func=lambda x: tf.cast(x, tf.int32))
        with raises(tf.errors.NotFoundError, call="load() of a directory without a save",
                    match="tf.data snapshot element_spec file not found"):
            D.load(os.path.join(d, "nothing"))
        D.range(3).save(os.path.join(d, "b"))
        with raises(tf.errors.InvalidArgumentError, call="load(element_spec=int32) of int64 elements",
                    match="Data type mismatch at component 0: expected int32 but got int64"):
            _values(D.load(os.path.join(d, "b"), element_spec=tf.TensorSpec([], tf.int32)))
        D.range(3).save(os.path.join(d, "g"), compression="GZIP")
        with raises(tf.errors.DataLossError, call="load() of a GZIP save without compression",
                    match="corrupted record at 0"):
            _values(D.load(os.path.join(d, "g")))
        os.remove(os.path.join(d, "b", "snapshot.metadata"))
        with raises(tf.errors.NotFoundError, call="load() without snapshot.metadata", match="Could not find metadata file"):
            _values(D.load(os.path.join(d, "b")))


@clause("dataset.save-load", ref="tf221")
def test_snapshot_writes_a_first_pass_and_reads_it_after(tf):
    D = tf.data.Dataset
    with tempfile.TemporaryDirectory() as d:
        ds = D.range(6).snapshot(os.path.join(d, "a"))
        assert_same((_values(ds), _values(ds), int(ds.cardinality())), ([0, 1, 2, 3, 4, 5],) * 2 + (6,),
                    call="range(6).snapshot(path): two passes (shard i % CPUs: the re-read keeps the order)")
        keys = os.listdir(os.path.join(d, "a"))
        assert_same((len(keys), "snapshot.metadata" in os.listdir(os.path.join(d, "a", keys[0]))), (1, True),
                    call="snapshot(path): one fingerprint directory holding snapshot.metadata")
        ds = D.range(6).snapshot(os.path.join(d, "c"), reader_func=lambda shards: shards.flat_map(lambda x: x))
        assert_same((_values(ds), _values(ds)), ([0, 1, 2, 3, 4, 5], [0, 2, 4, 1, 3, 5]),
                    call="range(6).snapshot(path, reader_func=flat_map): the second pass reads the 2 shards in turn")
        ds = D.range(6).snapshot(os.path.join(d, "b"), shard_func=lambda x: x % 3,
                                 reader_func=lambda shards: shards.flat_map(lambda x: x))
        assert_same((_values(ds), _values(ds)), ([0, 1, 2, 3, 4, 5], [0, 3, 1, 4, 2, 5]),
                    call="range(6).snapshot(shard_func=x % 3, reader_func=flat_map): shard after shard on re-read")
        it = iter(D.range(4).snapshot(os.path.join(d, "p"), reader_func=lambda s: s.flat_map(lambda x: x)))
        next(it)
        del it
        assert_same(_values(D.range(4).snapshot(os.path.join(d, "p"))), [0, 1, 2, 3],
                    call="snapshot after an iteration stopped early: the input again (nothing was finalized)")
        gz = D.range(4).apply(tf.data.experimental.snapshot(os.path.join(d, "g"), compression="GZIP"))
        assert_same((_values(gz), _values(gz)), ([0, 1, 2, 3],) * 2, call="experimental.snapshot(compression='GZIP')")
