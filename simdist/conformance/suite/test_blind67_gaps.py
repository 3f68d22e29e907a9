"""The classes around the sixty-seventh blind batch's mutants (tests/mutants.py TRAINING_BATCH67), each checked as a
class: Softplus, Rsqrt (values and gradient) and Pow at packet and tail sizes in three dtypes, float sums over rows
and over columns (Eigen's inner-most reducer and its InnerMostDimPreserver: 15 to 64 rows, one or more packets of
columns), a Dense layer's kernel and bias gradients over batches of 15 to 32, small matmuls in Eigen's orders, the
half types' SqrtGrad, unary gradients (cos, lgamma, exp, cosh, sin, digamma; complex ones conjugated), AddN's
gradient to every input, AvgPool/MaxPool gradients over overlapping windows, a fit's losses and trained kernel,
shuffle orders across repeats and iterators, a map function's output spec, tf.data.Options' type errors,
reduce_retracing's relaxed traces, a checkpoint's restored dtypes, a mirrored variable's updates and assignments,
a distributed dataset's per-replica batches (partial ones, next() in a tf.function at the end), Philox draws in four
dtypes and Generator.skip across a word boundary, and the default seeds of unseeded Keras layers under a global seed.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind67_gaps --record`, which rewrites blind67_reference.json.gz).
Floats are compared by their bits (hex of the IEEE value): the batch's numerically subtle mutants move a value by an
ulp (a summation order, a Newton step's association, a tail formula), which any tolerance would hide."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import RecordedPrograms, bits as _bits, error as _error, rng as _rng

PATH = os.path.join(os.path.dirname(__file__), "blind67_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): packet widths (softplus, rsqrt, pow,
#: sums), the estimate tables, Eigen's matmul orders without oneDNN, oneDNN's pooling, the fits' products
HOST_DEPENDENT = ("kernel-", "sum-", "matmul-", "dense-", "pool-", "half-", "fit-")

REF = RecordedPrograms(PATH, HOST_DEPENDENT)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. Softplus, Rsqrt (and its gradient), Pow: the packets of 8 (4 for float64 Pow) and the scalar tail ------------
for _dt in ("float32", "float64", "float16"):
    def _softplus(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"softplus{dt}")
        out = {}
        for n in (1, 5, 8, 11, 17, 37):
            x = np.linspace(-20.0, 20.0, n) + r.rand(n) * 0.3
            out[str(n)] = _bits(tf.nn.softplus(tf.constant(x.astype(dt))))
        return out
    _program(f"kernel-softplus-{_dt}", _softplus)

    def _rsqrt(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"rsqrt{dt}")
        out = {}
        for n in (3, 8, 13, 29):
            x = (r.rand(n) * 50 + 1e-3).astype(dt)
            v = tf.constant(x)
            with tf.GradientTape() as t:
                t.watch(v)
                y = tf.math.rsqrt(v)
                s = tf.reduce_sum(y * tf.constant(r.rand(n).astype(dt)))
            out[str(n)] = {"rsqrt": _bits(y), "grad": _bits(t.gradient(s, v))}
        return out
    _program(f"kernel-rsqrt-{_dt}", _rsqrt)

for _dt in ("float32", "float64"):
    def _pow(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"pow{dt}")
        out = {}
        for n in (3, 4, 6, 9, 13):
            x = tf.constant((r.rand(n) * 4 + 0.1).astype(dt))
            out[str(n)] = {"scalar": _bits(tf.pow(x, tf.constant(np.array(1.7, dt)))),
                           "tensor": _bits(tf.pow(x, tf.constant((r.rand(n) * 3 - 1).astype(dt))))}
        return out
    _program(f"kernel-pow-{_dt}", _pow)


# -- 2. sums over rows and over columns, a Dense layer's gradients over a batch --------------------------------------
_SUM_SHAPES = (((16, 8), 0), ((32, 8), 0), ((17, 8), 0), ((64, 3), 0), ((20, 16), 0), ((24, 9), 0), ((5, 41), 1),
               ((2, 75), 1), ((3, 45), 1), ((100,), 0), ((3, 7, 8), 1))
for _dt in ("float32", "float64"):
    def _sums(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"sums{dt}")
        out = {}
        for shape, axis in _SUM_SHAPES:
            x = tf.constant((r.standard_normal(shape) * 7).astype(dt))
            out[f"{shape}/{axis}"] = {"sum": _bits(tf.reduce_sum(x, axis=axis)),
                                      "mean": _bits(tf.reduce_mean(x, axis=axis))}
        return out
    _program(f"sum-rows-and-columns-{_dt}", _sums)

for _batch, _units in ((16, 8), (32, 8), (16, 4), (15, 8)):
    def _dense(tf: Any, mk: Any, batch: int = _batch, units: int = _units) -> Any:
        r = _rng(f"dense{batch}x{units}")
        tf.keras.utils.set_random_seed(batch + units)
        d = tf.keras.layers.Dense(units)
        x = r.standard_normal((batch, 5)).astype("float32")
        with tf.GradientTape() as t:
            y = tf.reduce_mean(tf.square(d(x) - 0.25))
        gk, gb = t.gradient(y, [d.kernel, d.bias])
        return {"kernel": _bits(gk), "bias": _bits(gb)}
    _program(f"dense-grads-{_batch}x{_units}", _dense)


# -- 3. small matmuls (Eigen's two accumulators, rows in order, matrix-vector products) ------------------------------
_MM = ((1, 5, 3), (1, 40, 4), (2, 7, 3), (3, 2, 4), (8, 5, 2), (14, 3, 3), (7, 9, 1), (4, 3, 1))
for _dt in ("float32", "float64"):
    def _mm(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"mm{dt}")
        out = {}
        for m, k, n in _MM:
            a, b = r.standard_normal((m, k)).astype(dt), r.standard_normal((k, n)).astype(dt)
            out[f"{m}x{k}x{n}"] = _bits(tf.matmul(a, b))
        return out
    _program(f"matmul-small-{_dt}", _mm)


# -- 4. gradients -------------------------------------------------------------------------------------------------
for _dt in ("float16", "bfloat16"):
    def _half_sqrt(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"halfsqrt{dt}")
        out = {}
        for n in (5, 8, 11, 19):
            v = tf.Variable((r.rand(n) * 5 + 0.1).astype("float32"))
            with tf.GradientTape() as t:
                y = tf.reduce_sum(tf.sqrt(tf.cast(v, dt)) * tf.cast(tf.constant(r.rand(n).astype("float32")), dt))
            out[str(n)] = _bits(t.gradient(y, v))
        return out
    _program(f"half-sqrt-grad-{_dt}", _half_sqrt)

for _dt in ("float32", "float64"):
    def _unary(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"unary{dt}")
        x = tf.constant((r.rand(9) * 3 + 0.2).astype(dt))
        w = tf.constant(np.linspace(0.5, 1.5, 9).astype(dt))
        out = {}
        for name in ("cos", "lgamma", "exp", "cosh", "sin", "digamma"):
            f = {"cos": tf.cos, "lgamma": tf.math.lgamma, "exp": tf.exp, "cosh": tf.math.cosh, "sin": tf.sin,
                 "digamma": tf.math.digamma}[name]
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.reduce_sum(f(x) * w)
            out[name] = _bits(t.gradient(y, x))
        return out
    _program(f"grad-unary-{_dt}", _unary)


def _complex_grads(tf: Any, mk: Any) -> Any:
    out = {}
    for dt in ("complex64", "complex128"):
        z = tf.constant(np.array([0.5 + 1.0j, -0.3 + 0.2j, 1.1 - 0.7j]), dtype=dt)
        for name in ("exp", "cos", "cosh", "sin"):
            f = {"exp": tf.exp, "cos": tf.cos, "cosh": tf.math.cosh, "sin": tf.sin}[name]
            with tf.GradientTape() as t:
                t.watch(z)
                y = f(z)
            g = t.gradient(y, z)
            out[f"{dt}-{name}"] = _bits(tf.math.real(g)) + _bits(tf.math.imag(g))
    return out


_program("grad-complex", _complex_grads)


def _add_n(tf: Any, mk: Any) -> Any:
    r = _rng("addn")
    out = {}
    for k in (2, 3, 5):
        vs = [tf.Variable(r.rand(4).astype("float32")) for _ in range(k)]
        with tf.GradientTape() as t:
            y = tf.reduce_sum(tf.add_n([v * v * (i + 1.0) for i, v in enumerate(vs)]))
        out[str(k)] = [_bits(g) if g is not None else None for g in t.gradient(y, vs)]
    return out


_program("grad-add-n", _add_n)

for _dt in ("float32", "float64"):
    def _pool(tf: Any, mk: Any, dt: str = _dt) -> Any:
        r = _rng(f"pool{dt}")
        out = {}
        for k, s, pad in ((2, 2, "VALID"), (3, 1, "SAME"), (3, 2, "SAME"), (2, 1, "VALID")):
            x = tf.constant(r.rand(2, 5, 5, 3).astype(dt))
            for name, fn in (("avg", tf.nn.avg_pool2d), ("max", tf.nn.max_pool2d)):
                with tf.GradientTape() as t:
                    t.watch(x)
                    y = fn(x, k, s, pad)
                    y = tf.reduce_sum(y * tf.constant(r.rand(*y.shape).astype(dt)))
                out[f"{name}-{k}-{s}-{pad}"] = _bits(t.gradient(y, x))
        return out
    _program(f"pool-grads-{_dt}", _pool)


# -- 5. a fit: its losses and trained kernel (the forward pass under the tape) ---------------------------------------
def _fit(tf: Any, mk: Any) -> Any:
    tf.keras.utils.set_random_seed(4)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.arange(12, dtype="float32").reshape(4, 3) / 10
    h = _error(lambda: m.fit(x, x[:, :2], epochs=2, batch_size=4, verbose=0).history["loss"])
    return {"loss": h if isinstance(h, str) else [float(v).hex() for v in h], "kernel": _bits(m.layers[0].kernel)}


_program("fit-dense-sgd-two-epochs", _fit)


# -- 6. tf.data: shuffle orders, a map's spec, Options' type errors ------------------------------------------------
def _shuffles(tf: Any, mk: Any) -> Any:
    tf.random.set_seed(3)   # (a seeded shuffle's seeds pair the op seed with the global seed: fixed here)
    out = []
    for seed, buf, n, reshuffle in ((1, 4, 10, True), (7, 10, 10, True), (3, 3, 7, False), (5, 100, 12, True)):
        ds = tf.data.Dataset.range(n).shuffle(buf, seed=seed, reshuffle_each_iteration=reshuffle)
        out.append([int(v) for v in ds.repeat(2)])
        out.append([[int(v) for v in ds] for _ in range(2)])
    return out


_program("data-shuffle-orders", _shuffles)


def _map_specs(tf: Any, mk: Any) -> Any:
    ds = tf.data.Dataset.range(1, 6)
    fns = (lambda x: tf.range(x), lambda x: tf.zeros([x, 2]), lambda x: (x, tf.fill([3 - x % 2], x)),
           lambda x: tf.reshape(tf.range(x * 2), [x, 2]))
    return [str(ds.map(f).element_spec) for f in fns]


_program("data-map-specs", _map_specs)


def _options(tf: Any, mk: Any) -> Any:
    o = tf.data.Options()
    out = []
    for obj, name, v in ((o, "deterministic", 3), (o, "experimental_slack", "yes"), (o, "experimental_warm_start", 1.5),
                         (o.autotune, "enabled", "x"), (o.threading, "private_threadpool_size", "4"),
                         (o.experimental_optimization, "map_parallelization", 2),
                         (o.experimental_distribute, "auto_shard_policy", "DATA")):
        out.append(_error(lambda: setattr(obj, name, v) or "ok"))
    return out


_program("data-options-type-errors", _options)


# -- 7. tf.function: reduce_retracing's relaxed traces -------------------------------------------------------------
def _retrace(tf: Any, mk: Any) -> Any:
    out = []
    for shapes in (([3], [4], [5], [6]), ([2, 3], [2, 4], [3, 4], [2, 3]), ([3], [3], [4, 1], [5])):
        n = [0]

        @tf.function(reduce_retracing=True)
        def f(x: Any) -> Any:
            n[0] += 1
            return tf.reduce_sum(x)
        for s in shapes:
            f(tf.ones(s))
        out.append([n[0], f.experimental_get_tracing_count()])
    return out


_program("function-relaxed-traces", _retrace)


# -- 8. checkpoints: restored values of five dtypes, through a CheckpointManager too --------------------------------
def _restore(tf: Any, mk: Any) -> Any:
    d = tempfile.mkdtemp()
    vals = {"f64": np.array([0.1, 1 / 3, 2.0 ** 0.5]), "f32": np.array([0.1, 1 / 3], "float32"),
            "f16": np.array([0.1, 1 / 3], "float16"), "i64": np.array([2 ** 40 + 1], "int64"),
            "c128": np.array([0.1 + 1 / 3j])}
    vs = {k: tf.Variable(v) for k, v in vals.items()}
    p = tf.train.Checkpoint(**vs).save(d + "/c")
    ws = {k: tf.Variable(np.zeros_like(v)) for k, v in vals.items()}
    tf.train.Checkpoint(**ws).restore(p)
    out = {k: [ws[k].dtype.name, _bits(tf.math.real(ws[k]) if k == "c128" else ws[k])] for k in sorted(ws)}
    out["c128-imag"] = _bits(tf.math.imag(ws["c128"]))
    mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=vs["f64"]), d + "/m", max_to_keep=2)
    mgr.save()
    w = tf.Variable(np.zeros(3))
    tf.train.Checkpoint(v=w).restore(mgr.latest_checkpoint)
    out["manager"] = _bits(w)
    return out


_program("checkpoint-restored-dtypes", _restore)


# -- 9. distribution: updates and assignments of a mirrored variable, a distributed dataset's batches ---------------
def _updates(tf: Any, mk: Any) -> Any:
    s = mk()

    def local(r: Any) -> Any:
        return [type(r).__name__, [float(x) for x in tf.nest.flatten(s.experimental_local_results(r))]]
    with s.scope():
        v = tf.Variable(1.0)
        w = tf.Variable([1.0, 2.0])
    out = []
    for group in (True, False):
        out.append(local(s.extended.update(v, lambda a, b: a.assign_add(b), args=(2.0,), group=group)))
    r = s.extended.update(w, lambda a: a.assign(a * 2.0), group=False)
    out.append([type(r).__name__, len(r) if isinstance(r, (tuple, list)) else -1])
    for op in ("assign", "assign_add", "assign_sub"):
        out.append([op] + local(getattr(v, op)(3.0)))
    out.append(local(s.run(lambda: v.assign_add(1.0))))
    out.append(float(v.read_value()))
    return out


_program("dist-updates-and-assignments", _updates)


def _dist_batches(tf: Any, mk: Any) -> Any:
    s = mk()
    out = []
    for n, gb, drop in ((5, 4, False), (9, 4, False), (3, 2, False), (1, 2, False), (7, 3, False), (9, 4, True)):
        d = s.experimental_distribute_dataset(tf.data.Dataset.range(n).batch(gb, drop_remainder=drop))
        out.append([[x.numpy().tolist() for x in s.experimental_local_results(b)] for b in d])
    it = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4)))

    @tf.function
    def f() -> Any:
        return s.experimental_local_results(next(it))
    steps = []
    for _ in range(4):
        got = _error(lambda: [x.numpy().tolist() for x in f()])
        steps.append(got)
        if isinstance(got, str):
            break
    out.append(steps)
    it2 = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4)))
    out.append([bool(it2.get_next_as_optional().has_value()) for _ in range(3)])
    return out


_program("dist-dataset-batches", _dist_batches)


# -- 10. random: Philox draws of four dtypes, Generator.skip, default seeds under a global seed -------------------------
def _philox(tf: Any, mk: Any) -> Any:
    out = {}
    for dt in ("float32", "float64", "float16", "bfloat16"):
        out[f"stateless-{dt}"] = _bits(tf.random.stateless_uniform([7], seed=[1, 2], dtype=dt))
        out[f"generator-{dt}"] = _bits(tf.random.Generator.from_seed(9).uniform([5], dtype=dt))
    for state, delta in (([1234, 0, 0], -1), ([2 ** 32 - 5, 3, 0], 1), ([5, 2 ** 32 - 1, 0], -3), ([0, 0, 0], 2 ** 33)):
        g = tf.random.Generator.from_state(state, alg="philox")
        g.skip(delta)
        out[f"skip-{state}-{delta}"] = [g.state.numpy().tolist(), _bits(g.normal([2]))]
    return out


_program("random-philox-draws-and-skips", _philox)


def _default_seeds(tf: Any, mk: Any) -> Any:
    out = []
    for gseed in (1, 11, 12345):
        tf.keras.utils.set_random_seed(gseed)   # (also a fresh Keras global seed generator: no earlier draw counts)
        layer = tf.keras.layers.Dense(3)
        layer.build((None, 2))
        out.append({"dense": _bits(layer.kernel),
                    "dropout": _bits(tf.keras.layers.Dropout(0.5)(tf.ones([8]), training=True)),
                    "noise": _bits(tf.keras.layers.GaussianNoise(1.0)(tf.zeros([4]), training=True))})
    return out


_program("random-default-seeds", _default_seeds)


# -- the tests ------------------------------------------------------------------------------------------------------
@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("kernel-") + _ids("sum-") + _ids("matmul-"))
def test_blind67_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """Softplus and Rsqrt (with its gradient) of 1 to 37 elements in float32/float64/float16, Pow by a scalar and by
    a tensor of 3 to 13 elements, sums and means over rows (40 to 75 columns: the packets after the blocks of four)
    and over 15 to 64 rows of 3 to 16 columns, small matmuls of one to fourteen rows: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("dense-") + _ids("half-") + _ids("grad-") + _ids("pool-"))
def test_blind67_gradients_bit_for_bit(backend: Any, name: str) -> None:
    """A Dense layer's kernel and bias gradients over batches of 15, 16 and 32 (the bias: a sum over the rows), the
    half types' SqrtGrad, the cos/lgamma/exp/cosh/sin/digamma gradients (float32, float64, complex: conjugated),
    AddN's gradient to each of 2, 3 and 5 inputs, AvgPool and MaxPool gradients over overlapping windows."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.data")
@pytest.mark.parametrize("name", _ids("fit-"))
def test_blind67_fit_trains_through_the_forward_pass(backend: Any, name: str) -> None:
    """Two epochs of SGD on a Dense layer: each epoch's loss and the trained kernel, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind67_dataset_orders_specs_and_options(backend: Any, name: str) -> None:
    """Shuffle orders of four (seed, buffer, size, reshuffle) over a repeat and over two iterators, a map function's
    output spec where the output's size follows the element, tf.data.Options' TypeError for a value of the wrong
    type (top-level and nested options)."""
    _check(backend, name)


@pytest.mark.clause("function.tracing-count")
@pytest.mark.parametrize("name", _ids("function-"))
def test_blind67_relaxed_traces(backend: Any, name: str) -> None:
    """reduce_retracing over calls of other shapes: the relaxed trace serves them (Python runs and tracing counts)."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("checkpoint-"))
def test_blind67_checkpoint_restores_every_dtype_exactly(backend: Any, name: str) -> None:
    """float64, float32, float16, int64 and complex128 variables restored bit for bit, through a manager too."""
    _check(backend, name)


@pytest.mark.clause("optim.update")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind67_mirrored_updates_and_distributed_batches(backend: Any, name: str) -> None:
    """extended.update with group True/False, a mirrored variable's assign/assign_add/assign_sub results in
    cross-replica and replica context; a distributed dataset's per-replica batches with partial and empty replica
    batches, next() inside a tf.function past the end (OutOfRangeError), get_next_as_optional."""
    _check(backend, name)


@pytest.mark.clause("ops.random-ranges")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind67_philox_and_default_seeds(backend: Any, name: str) -> None:
    """Philox uniform draws of float32/float64/float16/bfloat16 (stateless and a Generator), Generator.skip across
    a 32-bit word of the counter and back, and the kernels, dropout masks and noise of unseeded Keras layers under
    three global seeds."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
