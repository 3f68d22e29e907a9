"""The classes around the sixty-ninth blind batch's mutants (tests/mutants.py TRAINING_BATCH69), each checked as a
class: oneDNN's float32 softmax over rows of 5 to 300 classes (its unrolled accumulators, the lane tree, the
reciprocal), Eigen's float64 softmax and log-softmax (packet exp, row sums), float32 sigmoid's scalar tail, the half
types' rsqrt at packet and tail sizes, relu of signed zeros, cumsum/cumprod (exclusive, reverse, long float32 runs),
reduce_variance/std, float64 -> float32 casts below the normal range, add_n's shape check, tensor_scatter_nd_* with
repeated indices, pooling and convolution geometry (strides other than the window, SAME padding's odd row), unary
gradients (reciprocal, sign, ...), gradients of mirrored variables in a replica and through a tf.function under a
tape, tf.function's trace reuse across calls that differ in one parameter, a map function's list output,
Dataset.repeat's default, a distributed dataset's per-replica batches, strategy.reduce's result device, a mirrored
variable's aggregated assign results, InputOptions' fetch_to_device, Philox draws of Generators and stateless ops
(keys, counters, word counts: shuffles and categorical draws of every small size) and a checkpoint's variable list.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind69_gaps --record`, which rewrites blind69_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels run on simdist elsewhere under its reference model of such a host.
Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind69_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): oneDNN's softmax, Eigen's packets
#: (exp, sigmoid, rsqrt, relu's signed zeros), sum orders (variance), the reciprocal's estimate, oneDNN's pooling
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. kernels: softmax, sigmoid, rsqrt, relu, scans, variance (bits follow the CPU) ---------------------------------
def _softmax32(tf: Any, mk: Any) -> Any:
    r = _rng("softmax32")
    out = {}
    for rows, cols in ((1, 5), (3, 16), (2, 17), (4, 37), (5, 64), (3, 65), (2, 100), (16, 130), (4, 200), (2, 300)):
        x = (r.randn(rows, cols) * r.choice([0.5, 2.0, 6.0])).astype(np.float32)
        out[f"{rows}x{cols}"] = _bits(tf.nn.softmax(tf.constant(x)))
    return out


_program("kernel-softmax-float32", _softmax32)


def _softmax64(tf: Any, mk: Any) -> Any:
    r = _rng("softmax64")
    out = {}
    for rows, cols in ((2, 3), (3, 8), (4, 16), (2, 21), (8, 32), (3, 40), (2, 64)):
        x = r.randn(rows, cols) * 4
        out[f"softmax {rows}x{cols}"] = _bits(tf.nn.softmax(tf.constant(x)))
        out[f"log_softmax {rows}x{cols}"] = _bits(tf.nn.log_softmax(tf.constant(x)))
    x = (r.randn(4, 24) * 4).astype(np.float32)
    out["log_softmax float32"] = _bits(tf.nn.log_softmax(tf.constant(x)))
    return out


_program("kernel-softmax-float64", _softmax64)


def _sigmoid_rsqrt_relu(tf: Any, mk: Any) -> Any:
    r = _rng("sigrsqrt")
    out = {}
    for n in (3, 8, 13, 21):
        x = (np.linspace(-20.0, 20.0, n) + r.rand(n) * 0.3)
        out[f"sigmoid {n}"] = _bits(tf.sigmoid(tf.constant(x.astype(np.float32))))
        pos = r.rand(n) * 50 + 0.01
        out[f"rsqrt float16 {n}"] = _bits(tf.math.rsqrt(tf.constant(pos.astype(np.float16))))
        out[f"rsqrt bfloat16 {n}"] = _bits(tf.math.rsqrt(tf.constant(pos, tf.bfloat16)))
    for n in (9, 19, 33):
        z = np.linspace(-3, 3, n).astype(np.float32)
        z[::4] = -0.0
        out[f"relu -0.0 {n}"] = _bits(tf.nn.relu(tf.constant(z)))
        out[f"relu6 -0.0 {n}"] = _bits(tf.nn.relu6(tf.constant(z)))
    return out


_program("kernel-sigmoid-rsqrt-relu", _sigmoid_rsqrt_relu)


def _scans_and_moments(tf: Any, mk: Any) -> Any:
    r = _rng("scans")
    out = {}
    x = (r.rand(300) * 2 - 1).astype(np.float32)
    for ex in (False, True):
        for rev in (False, True):
            out[f"cumsum ex={ex} rev={rev}"] = _bits(tf.math.cumsum(tf.constant(x), exclusive=ex, reverse=rev))
            out[f"cumprod ex={ex} rev={rev}"] = _bits(tf.math.cumprod(tf.constant(1 + x[:40] * 0.1), exclusive=ex,
                                                                      reverse=rev))
    m = (r.rand(6, 5) * 3).astype(np.float32)
    out["cumsum axis 1 exclusive reverse"] = _bits(tf.math.cumsum(tf.constant(m), axis=1, exclusive=True, reverse=True))
    out["cumsum int32 exclusive"] = _bits(tf.math.cumsum(tf.range(1, 6), exclusive=True))
    big = (1000 + r.rand(50)).astype(np.float32)
    out["variance"] = _bits(tf.math.reduce_variance(tf.constant(big)))
    out["std"] = _bits(tf.math.reduce_std(tf.constant(big)))
    out["variance axis 0"] = _bits(tf.math.reduce_variance(tf.constant(m * 100 + 50), axis=0))
    out["variance float64 axis 1"] = _bits(tf.math.reduce_variance(tf.constant(m.astype(np.float64) + 1e6), axis=1))
    return out


_program("kernel-scans-and-moments", _scans_and_moments)


def _pool_geometry(tf: Any, mk: Any) -> Any:
    out = {}
    for h, w in ((7, 7), (5, 4), (6, 6)):
        x = tf.constant(np.arange(h * w, dtype=np.float32).reshape(1, h, w, 1))
        for k, s in ((2, 2), (3, 2), (3, 1), (2, 3)):
            for pad in ("VALID", "SAME"):
                out[f"max {h}x{w} k{k} s{s} {pad}"] = _error(lambda: _bits(tf.nn.max_pool2d(x, k, s, pad)))
                out[f"avg {h}x{w} k{k} s{s} {pad}"] = _error(lambda: _bits(tf.nn.avg_pool2d(x, k, s, pad)))
        wt = tf.constant(np.ones((3, 3, 1, 1), np.float32))
        for s in (1, 2, 3):
            out[f"conv {h}x{w} s{s} SAME"] = _bits(tf.nn.conv2d(x, wt, s, "SAME"))
        out[f"conv {h}x{w} k2 s2 SAME"] = _bits(tf.nn.conv2d(x, tf.constant(np.ones((2, 2, 1, 1), np.float32)), 2,
                                                              "SAME"))
    return out


_program("kernel-pool-conv-geometry", _pool_geometry)


def _unary_grads(tf: Any, mk: Any) -> Any:
    out = {}
    x = tf.constant([2.0, 3.0, 0.5, -4.0, 0.25])
    for name, f in (("reciprocal", tf.math.reciprocal), ("sign", tf.sign), ("negative", tf.negative),
                    ("square", tf.square), ("abs", tf.abs), ("inv_div", lambda v: 1.0 / v)):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(f(x) * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
        g = t.gradient(y, x)
        out[name] = "None" if g is None else _bits(g)
    return out


_program("kernel-unary-gradients", _unary_grads)


# -- 2. ops whose results do not depend on the CPU -----------------------------------------------------------------
def _ops(tf: Any, mk: Any) -> Any:
    out = {}
    out["cast f64->f32 small"] = _bits(tf.cast(tf.constant([1e-40, -3e-39, 1.1754942e-38, 1.2e-38, -1e-45, 1.0],
                                                           tf.float64), tf.float32))
    out["cast f64->f16 small"] = _bits(tf.cast(tf.constant([1e-8, -3e-6, 6e-5, 1.0], tf.float64), tf.float16))
    out["cast f32->bf16 small"] = _bits(tf.cast(tf.constant([1e-39, 1e-30, -1.0], tf.float32), tf.bfloat16))
    a, b = tf.ones([2, 3]), tf.ones([3, 2])
    out["add_n transposed shapes"] = _error(lambda: _bits(tf.add_n([a, b])))
    out["add_n [6] and [2,3]"] = _error(lambda: _bits(tf.add_n([tf.ones([6]), a])))
    out["add_n three"] = _bits(tf.add_n([a, a * 2, a * 3]))
    idx = [[1], [1], [2], [1]]
    upd = [1.0, 2.0, 3.0, 4.0]
    out["scatter add repeated"] = _bits(tf.tensor_scatter_nd_add(tf.zeros([4]), idx, upd))
    out["scatter sub repeated"] = _bits(tf.tensor_scatter_nd_sub(tf.ones([4]), idx, upd))
    out["scatter max repeated"] = _bits(tf.tensor_scatter_nd_max(tf.zeros([4]), idx, upd))
    out["scatter add rows"] = _bits(tf.tensor_scatter_nd_add(tf.zeros([3, 2]), [[0], [0], [2]],
                                                             tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])))
    out["logsumexp -inf row"] = _bits(tf.reduce_logsumexp(tf.constant([[-np.inf, -np.inf], [1.0, 2.0]]), axis=1))
    return out


_program("op-casts-add-n-scatter", _ops)


# -- 3. the tape and tf.function -----------------------------------------------------------------------------------
def _tape(tf: Any, mk: Any) -> Any:
    out = {}
    s = mk()
    with s.scope():
        v = tf.Variable(2.0)
        w = tf.Variable([1.0, -1.0])

    def step() -> Any:
        with tf.GradientTape() as t:
            y = v * v + tf.reduce_sum(w * w) * 3.0
        g = t.gradient(y, [v, w])
        return [tf.constant(-1.0) if x is None else x for x in g]
    res = s.run(step)
    out["replica gradients"] = [[_bits(r) for r in s.experimental_local_results(x)] for x in res]
    out["replica gradients traced"] = [[_bits(r) for r in s.experimental_local_results(x)]
                                       for x in tf.function(lambda: s.run(step))()]
    f = tf.function(lambda x: x * x * 3.0)
    g2 = tf.function(lambda x, y: tf.reduce_sum(x * y))
    x = tf.constant(2.0)
    grads = []
    for _ in range(3):
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x) + g2(tf.stack([x, x]), tf.constant([1.0, 2.0]))
        g = t.gradient(y, x)
        grads.append("None" if g is None else _bits(g))
    out["through tf.functions under a tape"] = grads
    u = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = f(u)
    out["variable through a tf.function"] = _bits(t.gradient(y, u))
    return out


_program("tape-gradients", _tape)


def _traces(tf: Any, mk: Any) -> Any:
    out = {}
    f = tf.function(lambda a, b: tf.reduce_sum(a) + tf.cast(tf.shape(b)[0], tf.float32) + tf.reduce_sum(b))
    calls = [(2, 3), (2, 5), (4, 5), (2, 3), (4, 3)]
    out["two parameters"] = [_bits(f(tf.ones([m]), tf.ones([n]))) for m, n in calls] + \
        [f.experimental_get_tracing_count()]
    h = tf.function(lambda xs: tf.add_n(xs))
    out["list arity"] = [_bits(h([tf.ones([2])] * n)) for n in (2, 3, 2, 4)] + [h.experimental_get_tracing_count()]
    k = tf.function(lambda p, q=1.0: p[0] * 2.0 + p[1] * q)
    out["tuple argument"] = [_bits(k((tf.constant(1.0), tf.constant(2.0)))),
                             _bits(k((tf.constant(3.0), tf.constant(4.0)))),
                             _bits(k((tf.constant(3.0), tf.constant(4.0)), q=2.0)),
                             _bits(k((tf.constant([3.0]), tf.constant(4.0)))), k.experimental_get_tracing_count()]
    r = tf.function(lambda a, b: a + b, reduce_retracing=True)
    out["relaxed"] = [_bits(r(tf.ones([m]), tf.ones([m]))) for m in (1, 2, 3, 4)] + [r.experimental_get_tracing_count()]
    return out


_program("function-trace-reuse", _traces)


# -- 4. tf.data ------------------------------------------------------------------------------------------------------
def _data(tf: Any, mk: Any) -> Any:
    out = {}

    def els(ds: Any) -> Any:
        return [[type(e).__name__, np.asarray(e).tolist()] if not isinstance(e, dict) else
                ["dict", {k: np.asarray(x).tolist() for k, x in sorted(e.items())}] for e in ds.as_numpy_iterator()]
    out["map list"] = els(tf.data.Dataset.range(3).map(lambda x: [x, x * 2]))
    out["map list spec"] = str(tf.data.Dataset.range(3).map(lambda x: [x, x * 2]).element_spec)
    out["map nested list"] = els(tf.data.Dataset.range(2).map(lambda x: ([x, x], x)).map(lambda a, b: a[1] + b))
    out["map dict"] = els(tf.data.Dataset.range(2).map(lambda x: {"a": x, "b": [x, x + 1]}))
    out["repeat default"] = [int(x) for x in tf.data.Dataset.range(3).repeat().take(7).as_numpy_iterator()]
    out["repeat None"] = [int(x) for x in tf.data.Dataset.range(2).repeat(None).take(5).as_numpy_iterator()]
    out["repeat -1 cardinality"] = int(tf.data.Dataset.range(2).repeat().cardinality())
    out["repeat 2"] = [int(x) for x in tf.data.Dataset.range(2).repeat(2).as_numpy_iterator()]
    out["repeat 0"] = [int(x) for x in tf.data.Dataset.range(2).repeat(0).as_numpy_iterator()]
    return out


_program("data-maps-and-repeats", _data)


def _dist_batches(tf: Any, mk: Any) -> Any:
    s = mk()
    out = {}
    for n, b in ((8, 2), (9, 2), (7, 4), (5, 1), (12, 4), (3, 4)):
        d = s.experimental_distribute_dataset(tf.data.Dataset.range(n).batch(b))
        out[f"range {n} batch {b}"] = [[np.asarray(x).tolist() for x in s.experimental_local_results(e)] for e in d]
    d = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4).repeat(2))
    out["repeated"] = [[np.asarray(x).tolist() for x in s.experimental_local_results(e)] for e in d]
    return out


_program("data-distributed-batches", _dist_batches)


# -- 5. distribution -------------------------------------------------------------------------------------------------
def _dist(tf: Any, mk: Any) -> Any:
    s = mk()
    out = {}
    pr = s.run(lambda: tf.constant([1.0, 2.0]))
    for dev in ("/cpu:0", "/cpu:1"):
        with tf.device(dev):
            out[f"reduce under {dev}"] = [s.reduce(op, pr, axis=ax).device for op in ("SUM", "MEAN") for ax in (None, 0)]
    out["reduce no scope"] = s.reduce("SUM", pr, axis=None).device
    for agg in ("MEAN", "SUM", "ONLY_FIRST_REPLICA"):
        with s.scope():
            v = tf.Variable(1.0, aggregation=getattr(tf.VariableAggregation, agg))
        r = _error(lambda: s.run(lambda: v.assign(3.0)))
        r2 = _error(lambda: s.run(lambda: v.assign_add(1.0)))
        v.assign(10.0)
        out[f"assign {agg}"] = r if isinstance(r, str) else [_bits(x) for x in s.experimental_local_results(r)]
        out[f"assign_add {agg}"] = r2 if isinstance(r2, str) else [_bits(x) for x in s.experimental_local_results(r2)]
        out[f"values {agg}"] = [_bits(x) for x in s.experimental_local_results(v)]
    ds = tf.data.Dataset.range(4).batch(2)
    for fetch in (True, False):
        d = s.experimental_distribute_dataset(ds, tf.distribute.InputOptions(experimental_fetch_to_device=fetch))
        out[f"fetch_to_device {fetch}"] = [x.device for x in s.experimental_local_results(next(iter(d)))]
        d2 = s.distribute_datasets_from_function(lambda ctx: ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id),
                                                 tf.distribute.InputOptions(experimental_fetch_to_device=fetch))
        out[f"from function fetch_to_device {fetch}"] = [x.device for x in
                                                         s.experimental_local_results(next(iter(d2)))]
    return out


_program("dist-devices-and-updates", _dist)


# -- 6. random ops ---------------------------------------------------------------------------------------------------
def _random(tf: Any, mk: Any) -> Any:
    out = {}
    for seed in (0, 1234, 2**40 + 17):
        g = tf.random.Generator.from_seed(seed)
        out[f"from_seed {seed}"] = [_bits(g.uniform([5])), _bits(g.normal([3])), _bits(g.uniform([2], dtype=tf.float64)),
                                    _bits(g.uniform([3], maxval=100, dtype=tf.int32)), _bits(g.state)]
    for state in ([5, 0, 0x123456789], [0, 1, 7], [2**32 - 1, 0, 2**33 + 5]):
        g = tf.random.Generator.from_state(state, "philox")
        out[f"from_state {state}"] = [_bits(g.uniform([4])), _bits(g.normal([2], dtype=tf.float64))]
    for seed in ([1, 2], [0, 0], [7, 2**31 - 1]):
        out[f"stateless {seed}"] = [_bits(tf.random.stateless_uniform([10], seed=seed)),
                                    _bits(tf.random.stateless_normal([6], seed=seed)),
                                    _bits(tf.random.stateless_uniform([5], seed=seed, dtype=tf.float64)),
                                    _bits(tf.random.stateless_normal([5], seed=seed, dtype=tf.float64)),
                                    _bits(tf.random.stateless_truncated_normal([4], seed=seed))]
    tf.random.set_seed(1)
    out["shuffles"] = [_error(lambda: _bits(tf.random.shuffle(tf.range(n), seed=5))) for n in range(1, 10)]
    out["categorical"] = [_error(lambda: _bits(tf.random.stateless_categorical(
        tf.constant([[1.0, 2.0, 3.0]] * r), n, seed=[1, 2]))) for r in (1, 2) for n in (1, 2, 3, 5)]
    out["seeded uniform"] = _bits(tf.random.uniform([5], seed=3))
    return out


_program("random-philox-streams", _random)


# -- 7. checkpoints --------------------------------------------------------------------------------------------------
def _ckpt(tf: Any, mk: Any) -> Any:
    d = tempfile.mkdtemp()
    ck = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), step=tf.Variable(3, dtype=tf.int64))
    p = ck.save(os.path.join(d, "ck"))
    r = tf.train.load_checkpoint(p)
    return {"list_variables": [[n, s] for n, s in tf.train.list_variables(p)],
            "shape map": sorted([k, v] for k, v in r.get_variable_to_shape_map().items()),
            "dtype map": sorted([k, v.name] for k, v in r.get_variable_to_dtype_map().items())}


_program("checkpoint-variable-list", _ckpt)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind69_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """oneDNN/Eigen softmax, sigmoid's tail, half rsqrt, relu's signed zeros, scans, variance, pooling and
    convolution geometry and unary gradients, bit for bit against TF 2.21 on an AVX-512 oneDNN host."""
    _check(backend, name)


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind69_casts_add_n_and_scatters(backend: Any, name: str) -> None:
    """Narrowing casts below the normal range, add_n's shape check, tensor_scatter_nd_* with repeated indices,
    logsumexp of a row of -inf."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("tape-"))
def test_blind69_tape_gradients(backend: Any, name: str) -> None:
    """A mirrored variable's gradient in each replica (eager and traced) and gradients through tf.functions
    called under a tape."""
    _check(backend, name)


@pytest.mark.clause("function.tracing-count")
@pytest.mark.parametrize("name", _ids("function-"))
def test_blind69_trace_reuse(backend: Any, name: str) -> None:
    """Calls that differ in one parameter's shape, a list's arity or a tuple's values: results and trace counts."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind69_maps_repeats_and_distributed_batches(backend: Any, name: str) -> None:
    """A map function's list outputs, Dataset.repeat's default and counts, a distributed dataset's per-replica
    batches over sizes that leave partial and empty batches."""
    _check(backend, name)


@pytest.mark.clause("reduce.result-device")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind69_devices_and_updates(backend: Any, name: str) -> None:
    """strategy.reduce's device under device scopes, aggregated assigns' per-replica results after a later write,
    InputOptions(experimental_fetch_to_device) for both distribution calls."""
    _check(backend, name)


@pytest.mark.clause("ops.random-ranges")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind69_philox_streams(backend: Any, name: str) -> None:
    """Generators from seeds and states (keys with both words set, counters near a word's end), stateless draws in
    both float types, shuffles of 1..9 elements and categorical draws (their word counts)."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("checkpoint-"))
def test_blind69_checkpoint_variable_list(backend: Any, name: str) -> None:
    """tf.train.list_variables and a reader's shape and dtype maps (the object graph's entry too)."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
