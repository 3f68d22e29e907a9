"""The classes around the seventy-ninth blind batch's mutants (tests/mutants.py TRAINING_BATCH79) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant: tf.nn.bias_add's data formats of
every rank, tf.slice's sizes and begins at and past their bounds, the scan ops' axis in every form, the windowed ops'
ksize/strides/dilations lists, grouped Conv2D's depths, tf.function with AutoGraph off, the multinomial kernel's rows
sharded over the intra-op threads, seeded random ops' streams per shape dtype, iterators at their end, the ring
all-reduce of three CPU replicas (each chunk's summation order, the chunks' aligned boundaries), colocate_vars_with's
checks of the variable it is given, and MirroredStrategy's all_reduce of nests with int32 leaves.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind79_gaps --record`, which rewrites blind79_reference.json.gz;
MirroredStrategy over three logical CPUs). Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on
(recorded_programs.avx512_with_onednn): the programs whose values follow the CPU (prefix `kernel-`: the multinomial's
shards follow the host's intra-op threads) run on simdist elsewhere under its reference model of such a host. Floats
are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind79_reference.json.gz")

#: programs whose TF 2.21 values follow the CPU (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=3)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. ops: bias_add's data formats, slice's bounds ------------------------------------------------------------------
def _bias_add_formats(tf: Any, mk: Any) -> Any:
    """tf.nn.bias_add of ranks 2 to 5 under every data_format spelling (None, the channels-last N...C forms, the
    channels-first NC... forms of every rank, and strings of neither form), eagerly and inside a tf.function: the
    values or the error's class."""
    r = _rng("biasaddformats")
    out = {}
    formats = (None, "NHWC", "NWC", "NDHWC", "NC", "NCW", "NCHW", "NCDHW", "NHC", "HWNC", "CHWN", "nchw")
    for rank in (2, 3, 4, 5):
        shape = (2, 3) + (2,) * (rank - 2)
        x = tf.constant(r.uniform(-2, 2, shape).astype("float32"))
        for fmt in formats:
            c = shape[1] if fmt is not None and fmt.startswith("NC") else shape[-1]
            b = tf.constant(r.uniform(-1, 1, c).astype("float32"))
            out[f"rank {rank} {fmt}"] = _error(lambda x=x, b=b, f=fmt: _bits(tf.nn.bias_add(x, b, data_format=f)))
            out[f"rank {rank} {fmt} traced"] = _error(lambda x=x, b=b, f=fmt: _bits(tf.function(
                lambda u, v: tf.nn.bias_add(u, v, data_format=f))(x, b)))
    return out


_program("op-bias-add-formats", _bias_add_formats)


def _slice_bounds(tf: Any, mk: Any) -> Any:
    """tf.slice of a [3, 4] tensor with sizes -1 (the rest), -2, -3, 0, exact and one past, begins 0 to 5 and -1,
    given as Python lists and as int32/int64 tensors, eagerly and inside a tf.function: the values or the error's
    class."""
    x = tf.reshape(tf.range(12), [3, 4])
    out = {}
    cases = [([0, 0], [-1, -1]), ([1, 1], [-1, 2]), ([1, 1], [-2, 2]), ([0, 0], [-3, -1]), ([0, 2], [3, -2]),
             ([0, 0], [0, 4]), ([0, 0], [3, 4]), ([0, 0], [4, 4]), ([2, 3], [1, 1]), ([3, 4], [0, 0]),
             ([3, 4], [-1, -1]), ([4, 0], [0, 1]), ([-1, 0], [1, 1]), ([0, 5], [1, -1]), ([1, 0], [3, 1])]
    for begin, size in cases:
        key = f"{begin} {size}"
        out[key] = _error(lambda b=begin, s=size: _bits(tf.slice(x, b, s)))
        out[key + " int64"] = _error(lambda b=begin, s=size: _bits(tf.slice(x, tf.constant(b, tf.int64),
                                                                            tf.constant(s, tf.int64))))
        out[key + " traced"] = _error(lambda b=begin, s=size: _bits(tf.function(lambda u: tf.slice(u, b, s))(x)))
    return out


_program("op-slice-bounds", _slice_bounds)


def _scan_axes(tf: Any, mk: Any) -> Any:
    """cumsum, cumprod and cumulative_logsumexp of a [2, 3] tensor with the axis as a Python int (in range, negative,
    out of range), a one-element list and tuple, an empty list, a nested list, a NumPy scalar and vector, an int32 and
    an int64 tensor of rank 0 and 1, a float and None; exclusive and reverse; eagerly and inside a tf.function: the
    values or the error's class."""
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    axes = {"1": 1, "-1": -1, "0": 0, "2": 2, "-3": -3, "[1]": [1], "(0,)": (0,), "[]": [], "[[1]]": [[1]],
            "np 1": np.int64(1), "np [1]": np.array([1]), "t32 1": "t32 1", "t64 0": "t64 0", "t32 [1]": "t32 [1]",
            "1.0": 1.0, "None": None}

    def axis_of(a: Any) -> Any:
        if a == "t32 1":
            return tf.constant(1)
        if a == "t64 0":
            return tf.constant(0, tf.int64)
        if a == "t32 [1]":
            return tf.constant([1])
        return a
    out = {}
    for fname, fn in (("cumsum", tf.math.cumsum), ("cumprod", tf.math.cumprod),
                      ("logsumexp", tf.math.cumulative_logsumexp)):
        for key, a in axes.items():
            out[f"{fname} {key}"] = _error(lambda f=fn, a=a: _bits(f(x, axis=axis_of(a))))
            if not isinstance(a, str):
                out[f"{fname} {key} traced"] = _error(lambda f=fn, a=a: _bits(tf.function(lambda u: f(u, axis=a))(x)))
        out[f"{fname} [1] exclusive reverse"] = _error(lambda f=fn: _bits(f(x, axis=[1], exclusive=True, reverse=True)))
    return out


_program("op-scan-axes", _scan_axes)


def _window_sequences(tf: Any, mk: Any) -> Any:
    """The windowed ops' ksize, strides and dilations as TF's _get_sequence takes them: an int, lists and tuples of
    length 1, 2, 3, 4 (N, spatial, C) and 5, for max_pool2d, avg_pool2d, conv2d (strides and dilations), max_pool1d
    and conv1d, channels last: the values or the error's class."""
    r = _rng("windowsequences")
    x = tf.constant(r.uniform(-1, 1, (1, 5, 5, 2)).astype("float32"))
    w = tf.constant(r.uniform(-1, 1, (2, 2, 2, 3)).astype("float32"))
    x1 = tf.constant(r.uniform(-1, 1, (1, 6, 2)).astype("float32"))
    w1 = tf.constant(r.uniform(-1, 1, (2, 2, 3)).astype("float32"))
    forms = {"int": 2, "[2]": [2], "[2, 2]": [2, 2], "(2, 2)": (2, 2), "[1, 2, 2]": [1, 2, 2],
             "[1, 2, 2, 1]": [1, 2, 2, 1], "[1, 2, 2, 1, 1]": [1, 2, 2, 1, 1], "[1, 1, 2, 2, 1]": [1, 1, 2, 2, 1],
             "[1, 2, 1]": [1, 2, 1], "[1, 2, 2, 2, 2, 1]": [1, 2, 2, 2, 2, 1]}
    out = {}
    for key, v in forms.items():
        out[f"max_pool2d ksize {key}"] = _error(lambda v=v: _bits(tf.nn.max_pool2d(x, v, 2, "VALID")))
        out[f"max_pool2d strides {key}"] = _error(lambda v=v: _bits(tf.nn.max_pool2d(x, 2, v, "VALID")))
        out[f"avg_pool2d ksize {key}"] = _error(lambda v=v: _bits(tf.nn.avg_pool2d(x, v, 1, "SAME")))
        out[f"conv2d strides {key}"] = _error(lambda v=v: _bits(tf.nn.conv2d(x, w, v, "SAME")))
        out[f"conv2d dilations {key}"] = _error(lambda v=v: _bits(tf.nn.conv2d(x, w, 1, "SAME", dilations=v)))
        out[f"max_pool1d ksize {key}"] = _error(lambda v=v: _bits(tf.nn.max_pool1d(x1, v, 2, "VALID")))
        out[f"conv1d stride {key}"] = _error(lambda v=v: _bits(tf.nn.conv1d(x1, w1, v, "SAME")))
    return out


_program("op-window-sequences", _window_sequences)


def _conv_groups(tf: Any, mk: Any) -> Any:
    """Conv2D with the filter's input depth dividing the input's (groups) or not, and the output depth a multiple of
    the groups or not: input depths 4 and 6, filter depths 1, 2, 3, 4 and 5, output depths 2 to 8; eagerly and inside
    a tf.function: the output's shape (grouped products' last bits follow oneDNN's order: not this program's class) or
    the error's class."""
    r = _rng("convgroups")
    out = {}
    for cin in (4, 6):
        x = tf.constant(r.uniform(-1, 1, (1, 4, 4, cin)).astype("float32"))
        for fin in (1, 2, 3, 4, 5):
            for cout in (2, 3, 4, 6, 8):
                w = tf.constant(r.uniform(-1, 1, (2, 2, fin, cout)).astype("float32"))
                key = f"in {cin} filter {fin} out {cout}"
                out[key] = _error(lambda x=x, w=w: tf.nn.conv2d(x, w, 1, "SAME").shape.as_list())
                out[key + " traced"] = _error(lambda x=x, w=w: tf.function(
                    lambda u, v: tf.nn.conv2d(u, v, 1, "VALID"))(x, w).shape.as_list())
    return out


_program("op-conv-groups", _conv_groups)


# -- 1b. tf.function: AutoGraph on and off ----------------------------------------------------------------------------
def _autograph_off(tf: Any, mk: Any) -> Any:
    """Python control flow over tensors (if, while, for over a tensor, `and`, a conditional expression, bool(), len()
    of a tensor) in tf.function with autograph=False, with AutoGraph on, and as plain tensor code with it off, and
    tf.autograph.experimental.do_not_convert inside an AutoGraph function: the value or the error's class. (An explicit
    bool() of a graph tensor inside an AutoGraph function is TF 2.21's OperatorNotAllowedInGraphError, where simdist
    computes: open, docs/conformance.md's sixtieth-session blind batch.)"""
    def branch(x):
        if x > 0:
            return x * 2.0
        return -x

    def loop(x):
        while x < 10.0:
            x = x * 2.0
        return x

    def over(x):
        total = tf.constant(0.0)
        for v in x:
            total += v
        return total

    def both(x):
        return x * 3.0 if (x > 0) and (x < 5) else x

    def truth(x):
        return tf.constant(1.0) if bool(x > 0) else tf.constant(0.0)

    def size(x):
        return tf.cast(len(x), tf.float32)

    def plain(x):
        return tf.where(x > 0, x * 2.0, -x)
    out = {}
    for name, fn in (("if", branch), ("while", loop), ("for", over), ("and", both), ("bool", truth), ("len", size),
                     ("plain", plain)):
        arg = tf.constant([1.0, -2.0, 3.0]) if name in ("for", "len", "plain") else tf.constant(1.5)
        for ag in ((False,) if name == "bool" else (False, True)):   # (bool() with AutoGraph on: open, below)
            out[f"{name} autograph={ag}"] = _error(lambda f=fn, a=arg, g=ag: _bits(tf.function(f, autograph=g)(a)))
    out["do_not_convert"] = _error(lambda: _bits(tf.function(
        lambda x: tf.autograph.experimental.do_not_convert(branch)(x))(tf.constant(1.5))))
    return out


_program("fn-autograph-off", _autograph_off)


# -- 2. random: the multinomial kernel's shards ----------------------------------------------------------------------
def _categorical_rows(tf: Any, mk: Any) -> Any:
    """tf.random.stateless_categorical and seeded tf.random.categorical over 1 to 1,000 rows (one shard to many: the
    kernel skips each shard's generator by its first row's share of the draws) of 3 and 10 classes, 1 to 7 samples:
    the samples."""
    r = _rng("categoricalrows")
    out = {}
    for rows, classes in ((1, 3), (60, 10), (400, 10), (1000, 3)):
        logits = tf.constant(r.uniform(-2, 2, (rows, classes)).astype("float32"))
        for n in (1, 2, 3, 5, 7):
            out[f"stateless {rows}x{classes} n{n}"] = _bits(tf.random.stateless_categorical(logits, n, seed=[3, n]))
        out[f"stateful {rows}x{classes}"] = _bits(tf.random.categorical(logits, 3, seed=11))
    return out


_program("kernel-random-categorical-rows", _categorical_rows)


def _random_shape_dtypes(tf: Any, mk: Any) -> Any:
    """Seeded stateful random ops (uniform, normal, truncated_normal, uniform of int32 and int64) called in turn with
    one op seed and the shape as a Python list, an int32 tensor, an int64 tensor, a NumPy int64 array and a TensorShape
    (TF's eager runtime keeps one kernel, one Philox stream, per op and attrs: the shape's dtype is an attr), after
    tf.random.set_seed: every draw's bits."""
    out = {}
    tf.random.set_seed(79)
    shapes = {"list": [3], "int32": "int32", "int64": "int64", "np int64": np.array([3], np.int64),
              "TensorShape": tf.TensorShape([3])}

    def shape_of(v: Any) -> Any:
        if isinstance(v, str):
            return tf.constant([3], v)
        return v
    for op, fn in (("uniform", lambda sh: tf.random.uniform(sh, seed=5)),
                   ("normal", lambda sh: tf.random.normal(sh, seed=6)),
                   ("truncated", lambda sh: tf.random.truncated_normal(sh, seed=7)),
                   ("int32", lambda sh: tf.random.uniform(sh, maxval=100, dtype=tf.int32, seed=8)),
                   ("int64", lambda sh: tf.random.uniform(sh, maxval=100, dtype=tf.int64, seed=9))):
        for rnd in range(2):
            for key, sh in shapes.items():
                out[f"{op} {key} {rnd}"] = _error(lambda f=fn, sh=sh: _bits(f(shape_of(sh))))
    return out


_program("random-shape-dtypes", _random_shape_dtypes)


# -- 2b. tf.data: iterators at their end -------------------------------------------------------------------------------
def _iterator_ends(tf: Any, mk: Any) -> Any:
    """Exhausted iterators: next() eagerly and inside a tf.function (taking the iterator or capturing it),
    get_next() eagerly and traced, get_next_as_optional's has_value, a for loop over a dataset inside a tf.function,
    and a distributed dataset's iterator (three replicas) eagerly and inside a tf.function: each call's value or the
    error's class, in turn."""
    out = {}
    it = iter(tf.data.Dataset.range(2))
    step = tf.function(lambda i: next(i))
    out["next in function"] = [_error(lambda: _bits(step(it))) for _ in range(3)]
    it2 = iter(tf.data.Dataset.range(1))
    out["next eagerly"] = [_error(lambda: _bits(next(it2))) for _ in range(2)]
    it3 = iter(tf.data.Dataset.range(1))
    out["get_next eagerly"] = [_error(lambda: _bits(it3.get_next())) for _ in range(2)]
    it4 = iter(tf.data.Dataset.range(1))
    gn = tf.function(lambda: it4.get_next())
    out["get_next captured"] = [_error(lambda: _bits(gn())) for _ in range(2)]
    it5 = iter(tf.data.Dataset.range(1))
    opt = tf.function(lambda i: i.get_next_as_optional().has_value())
    out["optional"] = [_error(lambda: _bits(opt(it5))) for _ in range(2)]

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += v
        return s
    out["for in function"] = _error(lambda: _bits(total(tf.data.Dataset.range(5))))
    s = mk()
    dist = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(6)))
    out["distributed eagerly"] = [_error(lambda: [_bits(t) for t in s.experimental_local_results(next(dist))])
                                  for _ in range(2)]
    dist2 = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(6)))
    dstep = tf.function(lambda i: s.run(lambda v: v * 2, args=(next(i),)))
    out["distributed in function"] = [_error(lambda: [_bits(t) for t in s.experimental_local_results(dstep(dist2))])
                                      for _ in range(2)]
    return out


_program("data-iterator-ends", _iterator_ends)


# -- 3. distribution: the ring all-reduce of three CPU replicas ------------------------------------------------------
def _ring_all_reduce(tf: Any, mk: Any) -> Any:
    """MirroredStrategy over three logical CPUs (TF's ring collective): the replica context's all_reduce SUM and MEAN
    of float32, float64 and float16 vectors of 1 to 100 elements (chunk sizes at and past the 64-byte alignment) whose
    elements mix magnitudes, so each element's order of addition shows; eagerly and inside a tf.function, and a nest of
    two leaves: replica 0's result bits."""
    s = mk()
    r = _rng("ringallreduce")
    out = {}
    for dt in ("float32", "float64", "float16"):
        for n in (1, 5, 15, 16, 17, 33, 47, 48, 49, 64, 96, 100):
            arrays = [(r.uniform(-1, 1, n) * np.array([1e-3, 1.0, 1e3])[r.randint(0, 3, n)]).astype(dt)
                      for _ in range(3)]
            vals = s.experimental_distribute_values_from_function(
                lambda ctx, a=arrays: tf.constant(a[ctx.replica_id_in_sync_group]))
            for op in ("SUM", "MEAN"):
                res = s.run(lambda v, o=op: tf.distribute.get_replica_context().all_reduce(o, v), args=(vals,))
                out[f"{dt} {n} {op}"] = _bits(s.experimental_local_results(res)[0])
            if dt == "float32":
                fn = tf.function(lambda v: tf.distribute.get_replica_context().all_reduce("SUM", v))
                res = s.run(fn, args=(vals,))
                out[f"{dt} {n} SUM traced"] = _bits(s.experimental_local_results(res)[0])
    arrays = [r.uniform(-1, 1, 40).astype("float32") * 1000 for _ in range(3)]
    vals = s.experimental_distribute_values_from_function(
        lambda ctx: (tf.constant(arrays[ctx.replica_id_in_sync_group][:24]),
                     tf.constant(arrays[ctx.replica_id_in_sync_group][24:])))
    res = s.run(lambda v: tf.distribute.get_replica_context().all_reduce("SUM", v), args=(vals,))
    out["nest"] = [_bits(t) for t in s.experimental_local_results(res)[0]]
    return out


_program("dist-ring-all-reduce", _ring_all_reduce)


def _colocate_validation(tf: Any, mk: Any) -> Any:
    """colocate_vars_with's checks: a variable made in this strategy's scope, in another MirroredStrategy's (two
    logical CPUs), outside any scope, a tensor, a NumPy value; under the three-replica strategy, the other one and the
    default strategy: each variable made under it, its value and components' devices, or the error's class."""
    s = mk()
    other = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        mine = tf.Variable([1.0, 2.0])
    with other.scope():
        theirs = tf.Variable([3.0, 4.0])
    plain = tf.Variable([5.0, 6.0])
    targets = {"mine": mine, "theirs": theirs, "plain": plain, "tensor": tf.constant([1.0]),
               "numpy": np.array([1.0], np.float32)}
    out = {}
    for sname, strat in (("three", s), ("other", other), ("default", tf.distribute.get_strategy())):
        for tname, target in targets.items():
            def make(st=strat, t=target) -> Any:
                with st.scope():
                    with st.extended.colocate_vars_with(t):
                        w = tf.Variable([7.0, 8.0])
                return [_bits(w.read_value()), len(st.experimental_local_results(w))]
            out[f"{sname} {tname}"] = _error(make)
    return out


_program("dist-colocate-validation", _colocate_validation)


def _int32_leaves(tf: Any, mk: Any) -> Any:
    """The replica context's all_reduce SUM of nests whose leaves are int32, int64 and float32 in every order
    MirroredStrategy takes (a lone int32 leaf, float leaves, int64 beside a float), then one it refuses (an int32 leaf
    first, then a float: each int32 leaf needs its own ReductionToOneDevice, TF's ValueError); last, since TF's
    collectives are aborted after an error: replica 0's values or the error's class."""
    s = mk()

    def run(make: Any) -> Any:
        res = s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", make()))
        got = s.experimental_local_results(res)[0]
        return [_bits(t) for t in got] if isinstance(got, (list, tuple)) else _bits(got)
    out = {"int32": _error(lambda: run(lambda: tf.constant([1, 2]))),
           "[int32]": _error(lambda: run(lambda: [tf.constant([3])])),
           "[float, float]": _error(lambda: run(lambda: [tf.constant(1.5), tf.constant([2.0, 0.25])])),
           "[int64, float]": _error(lambda: run(lambda: [tf.constant(4, tf.int64), tf.constant(0.5)])),
           "[float, int64]": _error(lambda: run(lambda: [tf.constant(0.5), tf.constant(4, tf.int64)])),
           "[int32, float]": _error(lambda: run(lambda: [tf.constant(1), tf.constant(2.0)]))}
    return out


_program("dist-int32-leaves", _int32_leaves)


@pytest.mark.clause("ops.array-more")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind79_ops_arguments(backend: Any, name: str) -> None:
    """bias_add's data formats of every rank, slice's begins and sizes at their bounds, the scan ops' axes, the windowed
    ops' sequences and grouped Conv2D's depths: values or error classes."""
    _check(backend, name)


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("name", _ids("fn-"))
def test_blind79_function_autograph(backend: Any, name: str) -> None:
    """tf.function's AutoGraph switched off and on over Python control flow on tensors, values or error classes."""
    _check(backend, name)


@pytest.mark.clause("ops.random-bits")
@pytest.mark.parametrize("name", _ids("kernel-random-"))
def test_blind79_random_kernels(backend: Any, name: str) -> None:
    """The multinomial kernel's samples over rows sharded by the host's intra-op threads."""
    _check(backend, name)


@pytest.mark.clause("ops.random-across-calls")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind79_random_streams(backend: Any, name: str) -> None:
    """Seeded stateful random ops' streams per shape dtype, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind79_data_iterators(backend: Any, name: str) -> None:
    """Iterators at their end, eagerly, traced and distributed: values or error classes."""
    _check(backend, name)


@pytest.mark.clause("reduce.ring-order")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind79_distribution(backend: Any, name: str) -> None:
    """The ring all-reduce's sums and means of three CPU replicas, bit for bit; colocate_vars_with's checks."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
