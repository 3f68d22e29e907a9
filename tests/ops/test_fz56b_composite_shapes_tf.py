"""Static shapes of composite results inside a tf.function (clause function.composite-static-shapes; fz55b's open
class 1, 80 of 95 differences at seeds 55210-55211), each case observed on TF 2.21.

TF gives a SparseTensor built in a graph the dense shape tensor_util.constant_value_as_shape(dense_shape): known
for a constant, a Shape of a known shape, the Python's own constants (sparse.reorder, add, concat, reshape); unknown
for an op's output or a function argument's component. The sparse, set, string-split and ragged kernels' outputs
whose sizes depend on values are [?] to their shape functions (indices [?, rank], values [?]), the dense results
read their shape tensors (SparseToDense, SparseTensorDenseMatMul, the sparse segment reductions, SparseReduceSum),
and a SparseTensor / RaggedTensor argument is its type spec's placeholders. simdist reported the concrete shapes.

- sparse_argument: a SparseTensor argument, every tf.sparse / tf.sets function on it.
- sparse_constants: the same functions on captured constants and on sparse.from_dense of an argument.
- strings_ragged: tf.strings.split / bytes_split / unicode_* / ngrams and the ragged constructors, gather,
  boolean_mask, range, to_tensor, value_rowids on constants and on arguments.
- segment_ids: tf.ragged.segment_ids_to_row_splits of argument ids ([?]: bincount's size), of constants (known),
  tf.signal.frame of a segment_sum result (its unknown outer dimension kept, the frame count unknown with the axis).
- seed_56203: rot90 of k = 0 (the switch's merged shape), unicode_split of an argument, row_splits_to_segment_ids
  ([?]), and RaggedTensor.to_tensor with a shape of another rank (the kernel's InvalidArgumentError eagerly).
- ragged_reduce_axis0: a ragged reduction over the outer dimension of an argument is [?] (the longest row's length;
  of a constant, known), keepdims [1, ?].
Each case: a list of [label, description] (the static shapes the traced Python reads, as text, or an error class);
and the eager outcome after the call (concrete shapes).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _desc(tf: Any, r: Any) -> str:
    if isinstance(r, (list, tuple)):
        return "[" + ", ".join(_desc(tf, x) for x in r) + "]"
    if isinstance(r, tf.SparseTensor):
        return f"SP {r.shape} ind {r.indices.shape} val {r.values.shape} ds {r.dense_shape.shape}"
    if isinstance(r, tf.RaggedTensor):
        return f"RT {r.shape} fv {r.flat_values.shape} " + " ".join(str(s.shape) for s in r.nested_row_splits)
    return f"T {r.shape}"


def _sparse_fns(tf: Any) -> dict[str, Callable[[Any], Any]]:
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5., 6.]])
    sp2 = tf.SparseTensor([[0, 1], [1, 0]], [5.0, -1.0], [2, 3])
    return {
        "itself": lambda sp: sp,
        "map_values": lambda sp: tf.sparse.map_values(tf.abs, sp),
        "expand_dims": lambda sp: tf.sparse.expand_dims(sp, 1),
        "slice": lambda sp: tf.sparse.slice(sp, [0, 0], [1, 2]),
        "reorder": lambda sp: tf.sparse.reorder(sp),
        "maximum": lambda sp: tf.sparse.maximum(sp, sp),
        "minimum": lambda sp: tf.sparse.minimum(sp, sp2),
        "softmax": lambda sp: tf.sparse.softmax(sp),
        "retain": lambda sp: tf.sparse.retain(sp, tf.ones_like(sp.values, tf.bool)),
        "fill_empty_rows": lambda sp: tf.sparse.fill_empty_rows(sp, 0.0),
        "reset_shape": lambda sp: tf.sparse.reset_shape(sp),
        "reset_shape [4, 5]": lambda sp: tf.sparse.reset_shape(sp, [4, 5]),
        "split": lambda sp: tf.sparse.split(sp_input=sp, num_split=3, axis=1),
        "reduce_sum sparse": lambda sp: tf.sparse.reduce_sum(sp, 1, output_is_sparse=True),
        "reduce_max sparse": lambda sp: tf.sparse.reduce_max(sp, 0, output_is_sparse=True),
        "reduce_sum sparse keepdims": lambda sp: tf.sparse.reduce_sum(sp, 1, keepdims=True, output_is_sparse=True),
        "reduce_sum": lambda sp: tf.sparse.reduce_sum(sp, 1),
        "reduce_sum all": lambda sp: tf.sparse.reduce_sum(sp),
        "to_dense": lambda sp: tf.sparse.to_dense(sp),
        "to_indicator": lambda sp: tf.sparse.to_indicator(tf.cast(sp, tf.int64), 4),
        "sparse_dense_matmul": lambda sp: tf.sparse.sparse_dense_matmul(sp, x),
        "sparse_dense_matmul adjoint_a": lambda sp: tf.sparse.sparse_dense_matmul(sp, tf.transpose(x), adjoint_a=True),
        "add": lambda sp: tf.sparse.add(sp, sp2),
        "concat": lambda sp: tf.sparse.concat(1, [sp, sp2]),
        "concat expand": lambda sp: tf.sparse.concat(0, [sp, sp2], expand_nonconcat_dims=True),
        "reshape": lambda sp: tf.sparse.reshape(sp, [3, 2]),
        "reshape -1": lambda sp: tf.sparse.reshape(sp, [-1, 2]),
        "transpose": lambda sp: tf.sparse.transpose(sp),
        "times dense": lambda sp: sp * x[:2, :1],
        "bincount": lambda sp: tf.sparse.bincount(tf.cast(sp, tf.int64)),
        "set_shape": lambda sp: (lambda r: (r.set_shape([2, None]), r)[1])(tf.sparse.map_values(tf.abs, sp)),
        "sets.union": lambda sp: tf.sets.union(tf.cast(tf.sparse.to_dense(sp), tf.int32), [[1, 2, 3], [3, 4, 5]]),
        "sets.size": lambda sp: tf.sets.size(sp2 if sp is None else tf.cast(sp, tf.int32)),
    }


def _consts(tf: Any) -> dict[str, Callable[[], Any]]:
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5., 6.]])
    a, b = tf.constant([[1, 2], [3, 4]]), tf.constant([[2, 5], [3, 3]])
    return {
        "segment_sum": lambda: tf.sparse.segment_sum(x, [0, 2], [0, 1]),
        "segment_mean num_segments": lambda: tf.sparse.segment_mean(x, [0, 2], [0, 1], num_segments=4),
        "from_dense": lambda: tf.sparse.from_dense(x),
        "SparseTensor of constants": lambda: tf.SparseTensor([[0, 0]], [1.0], [2, 3]),
        "SparseTensor of a shape": lambda: tf.SparseTensor([[0, 0]], [1.0], tf.shape(x, out_type=tf.int64)),
        "cross": lambda: tf.sparse.cross([tf.constant([["a"], ["b"]]), tf.constant([["c"], ["d"]])]),
        "eye": lambda: tf.sparse.eye(3),
        "sets.union": lambda: tf.sets.union(a, b),
        "sets.intersection": lambda: tf.sets.intersection(a, b),
        "sets.difference": lambda: tf.sets.difference(a, b),
        "sets.size": lambda: tf.sets.size(tf.sets.union(a, b)),
        "sets.union sparse": lambda: tf.sets.union(a, tf.sparse.from_dense(b)),
    }


def _strings_ragged(tf: Any) -> dict[str, Callable[[Any], Any]]:
    s = tf.constant(["a b", "c d e", ""])
    rt = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5., 6.]])
    return {
        "split": lambda a: tf.strings.split(s, sep=" "),
        "split argument": lambda a: tf.strings.split(a, sep=" "),
        "split scalar": lambda a: tf.strings.split(tf.constant("a b c")),
        "bytes_split": lambda a: tf.strings.bytes_split(s),
        "bytes_split argument": lambda a: tf.strings.bytes_split(a),
        "unicode_decode": lambda a: tf.strings.unicode_decode(a, "UTF-8"),
        "unicode_split": lambda a: tf.strings.unicode_split(s, "UTF-8"),
        "unicode_decode_with_offsets": lambda a: tf.strings.unicode_decode_with_offsets(s, "UTF-8"),
        "ngrams": lambda a: tf.strings.ngrams(tf.strings.split(s), 2),
        "ngrams dense": lambda a: tf.strings.ngrams(tf.constant([["a", "b", "c"]]), 2),
        "segment_ids_to_row_splits": lambda a: tf.ragged.segment_ids_to_row_splits([0, 0, 2]),
        "to_tensor shape [4, None]": lambda a: tf.ragged.constant([[1, 2], [3]]).to_tensor(shape=[4, None]),
        "to_tensor": lambda a: tf.ragged.constant([[1, 2], [3]]).to_tensor(),
        "from_row_lengths": lambda a: tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]),
        "from_value_rowids nrows": lambda a: tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4),
        "boolean_mask": lambda a: tf.ragged.boolean_mask(x, x > 2),
        "boolean_mask 1-D": lambda a: tf.ragged.boolean_mask(rt, [True, False, True]),
        "stack": lambda a: tf.ragged.stack([rt, rt]),
        "range": lambda a: tf.ragged.range([1, 2]),
        "gather": lambda a: tf.gather(rt, [0, 2]),
        "map_flat_values": lambda a: tf.ragged.map_flat_values(tf.abs, rt),
        "to_sparse": lambda a: rt.to_sparse(),
        "from_tensor": lambda a: tf.RaggedTensor.from_tensor(x),
        "cumsum": lambda a: tf.math.cumsum(rt, axis=1),
    }


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []

    def traced(label: str, fn: Callable[[Any], Any], arg: Any) -> None:
        try:
            got = tf.function(lambda a: tf.constant(_desc(tf, fn(a))))(arg).numpy().decode()
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            got = type(e).__name__
        out.append([label, got])

    sp = tf.sparse.from_dense(tf.constant([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
    if case["name"] == "sparse_argument":
        for label, fn in _sparse_fns(tf).items():
            traced(label, fn, sp)
        for label in ("map_values", "add", "split"):   # (the values after the call: eager, concrete shapes)
            fn = _sparse_fns(tf)[label]
            r = tf.function(fn)(sp)
            out.append([label + " returned", _desc(tf, r)])
    elif case["name"] == "sparse_constants":
        for label, fn in _consts(tf).items():
            traced(label, lambda a, fn=fn: fn(), sp)
        for label, fn in _sparse_fns(tf).items():
            traced("from_dense argument " + label, lambda a, fn=fn: fn(tf.sparse.from_dense(a)),
                   tf.constant([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
    elif case["name"] == "strings_ragged":
        for label, fn in _strings_ragged(tf).items():
            traced(label, fn, tf.constant(["x y", "z"]))
        rt = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
        traced("ragged argument", lambda a: a, rt)
        traced("ragged argument map_flat_values", lambda a: tf.ragged.map_flat_values(tf.abs, a), rt)
        traced("ragged argument to_tensor", lambda a: a.to_tensor(), rt)
        traced("ragged argument gather", lambda a: tf.gather(a, [1]), rt)
        traced("ragged argument value_rowids", lambda a: a.value_rowids(), rt)
        traced("constant value_rowids", lambda a: rt.value_rowids(), tf.constant(1))
        traced("ragged argument row_lengths", lambda a: a.row_lengths(), rt)
    elif case["name"] == "segment_ids":
        ids = tf.constant([0, 0, 2], tf.int64)
        for label, fn in [
                ("segment_ids_to_row_splits", lambda a: tf.ragged.segment_ids_to_row_splits(a)),
                ("segment_ids_to_row_splits num_segments 4", lambda a: tf.ragged.segment_ids_to_row_splits(a, 4)),
                ("segment_ids_to_row_splits of a constant", lambda a: tf.ragged.segment_ids_to_row_splits(
                    tf.constant([0, 1, 1]))),
                ("segment_ids_to_row_splits num_segments of the argument", lambda a: tf.ragged.segment_ids_to_row_splits(
                    tf.constant([0, 1, 1], tf.int64), tf.reduce_max(a) + 2)),
                ("frame pad_end after segment_sum", lambda a: tf.signal.frame(
                    tf.math.segment_sum(tf.ones([3, 1, 1]), a), 2, 4, pad_end=True)),
                ("frame after segment_sum", lambda a: tf.signal.frame(tf.math.segment_sum(tf.ones([3, 5]), a), 2, 1)),
                ("frame axis 0", lambda a: tf.signal.frame(tf.ones([3, 5]), 2, 1, axis=0)),
                ("frame axis 0 after segment_sum", lambda a: tf.signal.frame(
                    tf.math.segment_sum(tf.ones([3, 5]), a), 2, 1, axis=0))]:
            traced(label, fn, ids)
    elif case["name"] == "seed_56203":
        x, y, z = tf.zeros([2, 5, 3, 3]), tf.zeros([2, 4, 4, 3]), tf.zeros([5, 3, 3])
        for k in (0, 1, 2, 3):
            for label, img in (("4-D", x), ("square", y), ("3-D", z)):
                traced(f"rot90 k={k} {label}", lambda a, k=k: tf.image.rot90(a, k=k), img)
        traced("unicode_split of a scalar argument", lambda a: tf.strings.unicode_split(a, "UTF-8"), tf.constant("tf"))
        traced("unicode_split of a vector argument", lambda a: tf.strings.unicode_split(a, "UTF-8"),
               tf.constant(["tf", "a"]))
        traced("row_splits_to_segment_ids", lambda a: tf.ragged.row_splits_to_segment_ids(a),
               tf.constant([0, 2, 3], tf.int64))
        traced("row_splits_to_segment_ids of a constant", lambda a: tf.ragged.row_splits_to_segment_ids(
            tf.constant([0, 2, 3], tf.int64)), tf.constant(1))
        rt = tf.ragged.constant([[], [[6, -1], [11, -1]], [[-8, -1]]], dtype=tf.int64, ragged_rank=1)
        for shape in ([None, 2], [None, 2, 2, 2]):
            try:
                got = _desc(tf, rt.to_tensor(default_value=-1, shape=shape))
            except Exception as e:  # noqa: BLE001 - the class and message are what is compared
                got = f"{type(e).__name__}: {str(e).split(' [Op:')[0].split('}} ')[-1]}"
            out.append([f"eager to_tensor shape {shape}", got])
            traced(f"to_tensor shape {shape}", lambda a, shape=shape: a.to_tensor(default_value=-1, shape=shape), rt)
    elif case["name"] == "ragged_reduce_axis0":
        const = tf.ragged.constant([[1.0, 2.0], [], [3.0, 4.0, 5.0]])
        arg = tf.ragged.constant([[1.0, 2.0], [], [3.0, 4.0, 5.0]])
        r3 = tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1)
        rr = tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]]])
        for label, fn, a in [
                ("reduce_sum axis 0 of a constant", lambda a: tf.reduce_sum(const, 0), arg),
                ("reduce_sum axis 0", lambda a: tf.reduce_sum(a, 0), arg),
                ("reduce_max axis 0 uniform inner", lambda a: tf.reduce_max(a, 0), r3),
                ("reduce_mean axis 1", lambda a: tf.reduce_mean(a, 1), arg),
                ("reduce_sum axis 1 uniform inner", lambda a: tf.reduce_sum(a, 1), r3),
                ("reduce_sum axes 0, 1", lambda a: tf.reduce_sum(a, [0, 1]), r3),
                ("reduce_std axis 0", lambda a: tf.math.reduce_std(a, 0), arg),
                ("reduce_any axis 0", lambda a: tf.reduce_any(a > 1, 0), arg),
                ("reduce_sum axis 0 keepdims", lambda a: tf.reduce_sum(a, 0, keepdims=True), arg),
                ("reduce_sum axis 0 ragged_rank 2", lambda a: tf.reduce_sum(a, 0), rr),
                ("reduce_min axis -2", lambda a: tf.reduce_min(a, -2), arg),
                ("reduce_variance axis -1 keepdims of a gather", lambda a: tf.math.reduce_variance(
                    tf.gather(a, [1, 2, 0]), axis=-1, keepdims=True), arg),
                ("reduce_sum axis 1 of a gather", lambda a: tf.reduce_sum(tf.gather(a, [1, 2, 0]), 1), arg),
                ("reduce_max axis 1", lambda a: tf.reduce_max(a, 1), arg)]:
            traced(label, fn, a)
        # (SparseCountSparseOutput: static rank the input's, 3 for a rank-3 input whose counts have rank 2)
        for i, v in enumerate([tf.SparseTensor(tf.constant(np.zeros([0, 3], np.int64)), np.array([], np.int64),
                                               [3, 2, 1]),
                               tf.SparseTensor([[0, 0, 0], [1, 1, 0]], np.array([3, 1], np.int64), [3, 2, 1]),
                               tf.SparseTensor([[0, 0], [1, 1]], np.array([3, 1], np.int64), [3, 2])]):
            for ax in (0, -1):   # (the dense shape only: its components' static lengths are not modelled)
                out.append([f"sparse.bincount {i} axis {ax}", tf.function(lambda a, ax=ax: tf.constant(str(
                    tf.sparse.bincount(a, axis=ax).shape)))(v).numpy().decode()])
    return out


NAMES = ["sparse_argument", "sparse_constants", "strings_ragged", "segment_ids", "seed_56203", "ragged_reduce_axis0"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.composite-static-shapes")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_composite_static_shapes(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]!r}, TF 2.21 gives {w[1]!r}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} of {len(want)} differ:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
