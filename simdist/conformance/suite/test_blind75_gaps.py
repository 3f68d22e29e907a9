"""The classes around the seventy-fifth blind batch's mutants (tests/mutants.py TRAINING_BATCH75) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant: the length of a floating tf.range
whose quotient (limit - start) / delta, computed in the range's dtype, rounds across an integer, ...

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind75_gaps --record`, which rewrites blind75_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind75_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. ops: the lengths of floating ranges ----------------------------------------------------------------------------
#: (start, limit, delta) whose quotient in float32 (or float16, bfloat16) rounds to the other side of an integer than
#: the float64 quotient of the Python numbers: 0.3f / 0.01f is 30.000002, so float32's range has 31 elements
_RANGES = ((0.0, 0.3, 0.01), (0.0, 0.6, 0.02), (0.0, 0.3, 0.03), (0.0, 0.3, 0.06), (0.1, 0.7, 0.2),
           (0.3, 0.0, -0.01), (-0.6, 0.0, 0.02), (1.0, 1.3, 0.1), (2.5, 0.4, -0.3), (0.0, 0.7, 0.1),
           (0.0, 1.2, 0.4), (0.2, 0.9, 0.07))


def _float_range_lengths(tf: Any, mk: Any) -> Any:
    """tf.range of float32, float64, float16 and bfloat16 (and the dtype inferred from Python floats) whose length,
    ceil(|(limit - start) / delta|) computed in the range's dtype (TF's RangeOp), differs from the float64 quotient's:
    the values (so the length), eagerly, from tensors, and the static and run shapes inside a tf.function."""
    out = {}
    for start, limit, delta in _RANGES:
        key = f"{start} {limit} {delta}"
        for dt in ("float32", "float64", "float16", "bfloat16"):
            out[f"{dt} {key}"] = _error(lambda: _bits(tf.range(start, limit, delta, dtype=dt)))
            out[f"{dt} tensors {key}"] = _error(lambda: _bits(tf.range(
                tf.constant(start, dt), tf.constant(limit, dt), tf.constant(delta, dt))))
        out[f"inferred {key}"] = _bits(tf.range(start, limit, delta))
        f = tf.function(lambda a, b, c: tf.range(a, b, c))
        out[f"traced arguments {key}"] = _bits(f(tf.constant(start), tf.constant(limit), tf.constant(delta)))

        @tf.function
        def g() -> Any:
            r = tf.range(start, limit, delta)
            return r, tf.constant(-1 if r.shape[0] is None else r.shape[0])
        r, static = g()
        out[f"traced constants {key}"] = [_bits(r), int(static)]
    return out


_program("op-float-range-lengths", _float_range_lengths)


# -- 2. tf.function: Grappler's rewrites of Pow by a constant exponent (bits follow the CPU's kernels) -------------------
def _pow_rewrites(tf: Any, mk: Any) -> Any:
    """x ** c inside a tf.function for every exponent TF's arithmetic optimizer rewrites (2 Square, 3 x·Square(x),
    0.5 Sqrt, -0.5 Rsqrt, -1 Reciprocal, 1 Identity) and some it keeps (1.5, 4, -2), as a Python number, a constant
    tensor and a constant vector of equal entries, in float16, bfloat16, float32 and float64, over 37 positive values
    (whole packets and a scalar tail); and the same powers eagerly."""
    r = _rng("powrewrites")
    base = r.uniform(0.05, 40.0, 37)
    out = {}
    for dt in ("float16", "bfloat16", "float32", "float64"):
        x = tf.cast(tf.constant(base), dt)
        for c in (2.0, 3.0, 0.5, -0.5, -1.0, 1.0, 1.5, 4.0, -2.0):
            out[f"{dt} ** {c} traced"] = _bits(tf.function(lambda t: t ** c)(x))
            out[f"{dt} pow constant {c} traced"] = _bits(tf.function(lambda t: tf.pow(t, tf.constant(c, dt)))(x))
            out[f"{dt} pow vector {c} traced"] = _bits(tf.function(
                lambda t: tf.pow(t, tf.fill([37], tf.constant(c, dt))))(x))
            out[f"{dt} ** {c} eager"] = _bits(x ** c)
    return out


_program("kernel-function-pow-rewrites", _pow_rewrites)


def _monotonic_hoisting(tf: Any, mk: Any) -> Any:
    """reduce_max, reduce_min, argmax and argmin of f(x) inside a tf.function, f elementwise monotonic, which TF's
    arithmetic optimizer hoists (f of the reduction of x; a non-increasing f swaps Max/Min and ArgMax/ArgMin): f
    non-decreasing (Exp, Tanh, Sqrt, Relu, Floor, Sigmoid, Log1p) and non-increasing (Neg, Rsqrt, Acos, Erfc), over an
    axis, all axes and with keepdims; rows with ties and with NaN; and the same reductions eagerly."""
    r = _rng("monotonic")
    x = r.uniform(0.1, 0.9, (4, 6)).astype("float32")
    x[1, 2] = x[1, 4]   # (a tie)
    x[2, 3] = float("nan")
    t = tf.constant(x)
    fs = {"exp": tf.exp, "tanh": tf.tanh, "sqrt": tf.sqrt, "relu": tf.nn.relu, "floor": lambda v: tf.floor(v * 4.0),
          "sigmoid": tf.sigmoid, "log1p": tf.math.log1p, "neg": tf.negative, "rsqrt": tf.math.rsqrt, "acos": tf.acos,
          "erfc": tf.math.erfc}
    out = {}
    for name, f in fs.items():
        for red, g in (("max", lambda v: tf.reduce_max(v, axis=1)), ("min", lambda v: tf.reduce_min(v, axis=0)),
                       ("max all", tf.reduce_max), ("min keepdims", lambda v: tf.reduce_min(v, axis=1, keepdims=True)),
                       ("argmax", lambda v: tf.argmax(v, axis=1)), ("argmin", lambda v: tf.argmin(v, axis=0))):
            out[f"{red} of {name} traced"] = _bits(tf.function(lambda v: g(f(v)))(t))
            out[f"{red} of {name} eager"] = _bits(g(f(t)))
    return out


_program("kernel-function-monotonic-hoisting", _monotonic_hoisting)


def _mul_groups_with_shared_products(tf: Any, mk: Any) -> Any:
    """Chains of Muls of vectors and scalars inside a tf.function, which TF's arithmetic optimizer regroups
    (MinimizeBroadcasts) only through Muls with one consumer: an inner product also returned, also added to, also
    multiplied twice, read by a tape gradient; and the same chains with no shared product; float32 and float64 over
    4,000 elements (a different order is a last-bit difference in about half of them)."""
    r = _rng("mulgroups")
    out = {}
    for dt in ("float32", "float64"):
        a, b, c = (tf.constant(r.uniform(0.5, 2.0, 4000), dt) for _ in range(3))
        s_ = tf.constant(r.uniform(0.5, 2.0), dt)
        forms = {
            "(a*b)*s": lambda a, b, c, s: (a * b) * s,
            "p=a*b; p*s, p": lambda a, b, c, s: ((a * b) * s, a * b),
            "p=a*b; p*s and p returned": None,
            "p=a*b; p*s + p": None,
            "p=a*s; (p*b)*c, p*c": None,
            "((a*b)*c)*s": lambda a, b, c, s: ((a * b) * c) * s,
            "q=b*c; (a*q)*s, q+1": None,
        }

        def shared_returned(a: Any, b: Any, c: Any, s: Any) -> Any:
            p = a * b
            return p * s, p

        def shared_added(a: Any, b: Any, c: Any, s: Any) -> Any:
            p = a * b
            return p * s + p

        def shared_twice(a: Any, b: Any, c: Any, s: Any) -> Any:
            p = a * s
            return (p * b) * c, p * c

        def shared_inner(a: Any, b: Any, c: Any, s: Any) -> Any:
            q = b * c
            return (a * q) * s, q + 1.0

        forms["p=a*b; p*s and p returned"] = shared_returned
        forms["p=a*b; p*s + p"] = shared_added
        forms["p=a*s; (p*b)*c, p*c"] = shared_twice
        forms["q=b*c; (a*q)*s, q+1"] = shared_inner
        for name, fn in forms.items():
            got = tf.function(fn)(a, b, c, s_)
            out[f"{dt} {name}"] = [_bits(v) for v in (got if isinstance(got, tuple) else (got,))]

        @tf.function
        def with_tape(a: Any, b: Any, s: Any) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(a)
                p = a * b
                y = tf.reduce_sum(p * s)
            return p * s, tape.gradient(y, a)
        out[f"{dt} tape reads p"] = [_bits(v) for v in with_tape(a, b, s_)]
    return out


_program("function-mul-groups-with-shared-products", _mul_groups_with_shared_products)


# -- 3. the tape: variables watched explicitly whatever their trainability -------------------------------------------
def _watched_variables(tf: Any, mk: Any) -> Any:
    """Gradients of variables the program watches itself: non-trainable variables (tape.watch), with
    watch_accessed_variables True and False, a trainable one unwatched under watch_accessed_variables=False, an
    int32 variable's read, a non-trainable variable under MirroredStrategy in a replica; the gradients (None shown as
    None) and the tape's watched_variables names."""
    out = {}
    nt = tf.Variable([2.0, -1.5], trainable=False, name="nt")
    tr = tf.Variable([3.0, 0.5], name="tr")
    iv = tf.Variable(4, trainable=False, name="iv")
    for accessed in (True, False):
        with tf.GradientTape(watch_accessed_variables=accessed, persistent=True) as tape:
            tape.watch(nt)
            y = tf.reduce_sum(nt * nt * tr) + tf.reduce_sum(tf.sin(nt))
        grads = tape.gradient(y, [nt, tr])
        out[f"non-trainable watched, accessed={accessed}"] = [None if g is None else _bits(g) for g in grads]
        out[f"watched names, accessed={accessed}"] = sorted(v.name for v in tape.watched_variables())
        with tf.GradientTape(watch_accessed_variables=accessed) as tape:
            tape.watch(iv)
            z = iv * 1
        g = tape.gradient(z, iv)
        out[f"int32 watched, accessed={accessed}"] = None if g is None else _bits(g)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(nt * tr)
    out["non-trainable unwatched"] = [None if g is None else _bits(g) for g in tape.gradient(y, [nt, tr])]
    s = mk()
    with s.scope():
        mv = tf.Variable([1.5, 2.5], trainable=False)

    def step() -> Any:
        with tf.GradientTape() as tape:
            tape.watch(mv)
            y = tf.reduce_sum(mv * mv)
        g = tape.gradient(y, mv)
        return tf.constant([-1.0, -1.0]) if g is None else g
    out["mirrored non-trainable watched"] = [_bits(v) for v in s.experimental_local_results(s.run(step))]
    return out


_program("tape-watched-variables", _watched_variables)


@pytest.mark.clause("ops.gradient-none-or-zeros")
@pytest.mark.parametrize("name", _ids("tape-"))
def test_blind75_tape_watches(backend: Any, name: str) -> None:
    """A variable watched by the program has a gradient whatever its trainability."""
    _check(backend, name)


# -- 4. distribution: gradients through a replica context's all-reduce -------------------------------------------------
def _all_reduce_gradients(tf: Any, mk: Any) -> Any:
    """A tape inside strategy.run around ReplicaContext.all_reduce (SUM and MEAN, a tensor and a nested structure),
    eagerly and in a tf.function: each replica's gradient of the reduced value with respect to its own input
    (TF's all-reduce has a gradient, the same all-reduce of the upstream gradients)."""
    s = mk()
    out = {}
    for op in ("SUM", "MEAN"):
        def step() -> Any:
            ctx = tf.distribute.get_replica_context()
            w = tf.constant([2.0, -1.0])
            x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.5
            with tf.GradientTape(persistent=True) as tape:
                tape.watch(w)
                y = ctx.all_reduce(op, w * x)
                nested = ctx.all_reduce(op, {"a": w * w, "b": [w * 3.0]})
                z = tf.reduce_sum(y * y) + tf.reduce_sum(nested["a"]) + tf.reduce_sum(nested["b"][0])
            g1, g2 = tape.gradient(y, w), tape.gradient(z, w)
            none = tf.constant([-7.0, -7.0])
            return none if g1 is None else g1, none if g2 is None else g2
        for mode, fn in (("eager", step), ("traced", tf.function(step))):
            got = s.run(fn)
            out[f"{op} {mode}"] = [[_bits(v) for v in s.experimental_local_results(part)] for part in got]
    return out


_program("dist-all-reduce-gradients", _all_reduce_gradients)


@pytest.mark.clause("replica.all-reduce-gradient")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind75_all_reduce_gradients(backend: Any, name: str) -> None:
    """A replica context's all_reduce is differentiable: its gradient is the all-reduce of the upstream gradients."""
    _check(backend, name)


# -- 5. checkpoints: deferred restoration and the load status's assertions -------------------------------------------
def _deferred_restorations(tf: Any, mk: Any) -> Any:
    """Checkpoint.restore into an empty Checkpoint, then attributes assigned afterwards (a variable, a second one, a
    tf.Module holding two): the values they take, and after each assignment the status's assert_consumed,
    assert_existing_objects_matched and assert_nontrivial_match (the error's class or the status's class)."""
    import os
    import tempfile
    d = tempfile.mkdtemp()

    class Holder(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.u = tf.Variable([0.0, 0.0, 0.0])
            self.k = tf.Variable(0)

    src_holder = Holder()
    src_holder.u.assign([1.0, 2.0, 3.0])
    src_holder.k.assign(7)
    ck = tf.train.Checkpoint(x=tf.Variable([1.5, -2.5]), y=tf.Variable(4.0), m=src_holder)
    path = ck.save(os.path.join(d, "ck"))
    out = {}

    def asserts(st: Any) -> Any:
        return [_error(lambda: type(st.assert_consumed()).__name__),
                _error(lambda: type(st.assert_existing_objects_matched()).__name__),
                _error(lambda: type(st.assert_nontrivial_match()).__name__)]
    ck2 = tf.train.Checkpoint()
    st = ck2.restore(path)
    out["nothing assigned"] = asserts(st)
    ck2.x = tf.Variable([0.0, 0.0])
    out["x assigned"] = [_bits(ck2.x), asserts(st)]
    ck2.y = tf.Variable(0.0)
    out["x, y assigned"] = [_bits(ck2.y), asserts(st)]
    ck2.m = Holder()
    out["x, y, m assigned"] = [_bits(ck2.m.u), _bits(ck2.m.k), asserts(st)]
    ck3 = tf.train.Checkpoint(x=tf.Variable([0.0, 0.0]))
    st3 = ck3.restore(path)
    ck3.m = Holder()
    out["x at restore, m later"] = [_bits(ck3.x), _bits(ck3.m.u), asserts(st3)]
    return out


_program("ckpt-deferred-restorations", _deferred_restorations)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("ckpt-"))
def test_blind75_deferred_restorations(backend: Any, name: str) -> None:
    """Values a deferred restoration takes are consumed: the status's assertions see them."""
    _check(backend, name)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind75_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """Grappler's Pow rewrites inside a tf.function, bit for bit against TF 2.21 on an AVX-512 oneDNN host."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("function-"))
def test_blind75_grappler_rewrites(backend: Any, name: str) -> None:
    """Grappler's regrouping of Mul chains inside a tf.function, where a product has other consumers."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind75_ops_values(backend: Any, name: str) -> None:
    """Floating ranges whose length follows the quotient in the range's dtype."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
