"""Spelling sweep 25 (issue 29): one derivative asked of the GradientTape every way a user asks it.

- jacobians: `tape.jacobian` and `tape.batch_jacobian` of targets of rank 2 and 3, on a persistent and a
  non-persistent tape, with experimental_use_pfor True and False, asked inside the `with` block and after it,
  against a loop of `tape.gradient` over the target's elements and the NumPy jacobian;
- what is watched: `tape.watch` of a tensor, a list, a tuple, a dict and a nested structure, and
  `tape.gradient` of sources in each structure (the result comes back in the sources' structure);
- gathered rows: tf.gather, tf.nn.embedding_lookup and keras.layers.Embedding of a variable or a watched
  tensor, with 1-D and 2-D indices, alone and together with a dense use of the same value, against NumPy's
  scatter-add (the IndexedSlices' indices are flat, as TF's _GatherGrad reshapes them), and the variable an
  SGD step updates from them.

Expected values are NumPy float64 transcriptions of the functions' derivatives.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)

_X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)                 # (b=2, n=3)
_A = np.array([[1.0, -2.0, 0.5, 3.0], [0.0, 1.5, -1.0, 2.0], [2.5, 0.5, 1.0, -0.5]], np.float32)   # (3, 4)


def _f(tf, x):
    """y = (x * x) @ A reshaped to (b, 2, 2): dy[b, j] / dx[b, i] = 2 x[b, i] A[i, j]."""
    return tf.reshape(tf.matmul(x * x, tf.constant(_A)), [2, 2, 2])


def _batch_jac() -> np.ndarray:
    """(b, 2, 2, n): d y[b, j] / d x[b, i] = 2 x[b, i] A[i, j], j laid out (2, 2)."""
    j = 2.0 * _X[:, None, :].astype(np.float64) * _A.T[None, :, :].astype(np.float64)   # (b, 4, n)
    return j.reshape(2, 2, 2, 3)


def _full_jac() -> np.ndarray:
    """(b, 2, 2, b, n): the batch jacobian on the diagonal blocks, zeros elsewhere."""
    out = np.zeros((2, 2, 2, 2, 3))
    bj = _batch_jac()
    for b in range(2):
        out[b, :, :, b, :] = bj[b]
    return out


@clause("autodiff.jacobian")
def test_spell25a_jacobians_every_spelling_agree_with_numpy(tf):
    """batch_jacobian(y, x) of a rank-3 target (2, 2, 2) and of its rank-2 reshape (2, 4), jacobian(y, x) and
    jacobian of x given as a list and a dict, and a loop of tape.gradient over y's elements: on a non-persistent
    tape (pfor) after and inside the `with` block, on a persistent one with experimental_use_pfor False inside it
    and True after it, equal to the NumPy jacobian 2 x[b, i] A[i, j] (zero across examples)."""
    bj, fj = _batch_jac(), _full_jac()
    # (persistent, experimental_use_pfor, asked inside the with block): four of the six meaningful modes, every
    # spelling in the first, three in the others (TF's pfor traces are slow)
    modes = ((False, True, False), (False, True, True), (True, False, True), (True, True, False))
    for persistent, pfor, inside in modes:
        how = f"persistent={persistent}, experimental_use_pfor={pfor}, {'inside' if inside else 'after'} the with"
        asks = ("batch_jacobian rank 3", "batch_jacobian rank 2", "jacobian", "jacobian of [x]", "jacobian of {'x': x}")
        for ask in (asks if not persistent and not inside else asks[::2]):
            x = tf.constant(_X)
            with tf.GradientTape(persistent=persistent) as tape:
                tape.watch(x)
                y = _f(tf, x)
                y2 = tf.reshape(y, [2, 4])
                if inside:
                    got = _ask(tape, ask, y, y2, x, pfor)
            if not inside:
                got = _ask(tape, ask, y, y2, x, pfor)
            want = {"batch_jacobian rank 3": bj, "batch_jacobian rank 2": bj.reshape(2, 4, 3)}.get(ask, fj)
            assert_close(got, want, tolerance=TOL, call=f"tape.{ask}(y, x), {how}")
    x = tf.constant(_X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = _f(tf, x)
        parts = [y[b, j, k] for b in range(2) for j in range(2) for k in range(2)]
    rows = [to_numpy(tape.gradient(p, x)) for p in parts]
    assert_close(np.stack(rows).reshape(2, 2, 2, 2, 3), fj, tolerance=TOL,
                 call="a loop of tape.gradient(y[b, j, k], x) on a persistent tape")


def _ask(tape, ask, y, y2, x, pfor):
    if ask == "batch_jacobian rank 3":
        return tape.batch_jacobian(y, x, experimental_use_pfor=pfor)
    if ask == "batch_jacobian rank 2":
        return tape.batch_jacobian(y2, x, experimental_use_pfor=pfor)
    if ask == "jacobian":
        return tape.jacobian(y, x, experimental_use_pfor=pfor)
    if ask == "jacobian of [x]":
        out = tape.jacobian(y, [x], experimental_use_pfor=pfor)
        assert_true(isinstance(out, list) and len(out) == 1, f"jacobian of [x] should be a list of one, got {out!r}",
                    call="tape.jacobian(y, [x])")
        return out[0]
    out = tape.jacobian(y, {"x": x}, experimental_use_pfor=pfor)
    assert_true(isinstance(out, dict) and list(out) == ["x"], f"jacobian of {{'x': x}} should be a dict, got {out!r}",
                call="tape.jacobian(y, {'x': x})")
    return out["x"]


@clause("autodiff.watch")
def test_spell25a_watch_and_sources_in_every_structure(tf):
    """loss = sum(a * a * b) + sum(c): tape.watch(a, b, c) spelled as three calls, a list, a tuple, a dict, a
    nested dict of a list and a tuple; tape.gradient of the sources as a list, a tuple, a dict and a nested
    dict gives 2ab, a^2 and ones (NumPy) in the sources' structure."""
    av = np.array([1.0, -2.0, 0.5], np.float32)
    bv = np.array([3.0, 0.5, -1.0], np.float32)
    cv = np.array([[2.0, -1.0]], np.float32)
    want = {"a": 2 * av * bv, "b": av * av, "c": np.ones_like(cv)}

    def watchers(t, a, b, c):
        return {"three calls": lambda: [t.watch(a), t.watch(b), t.watch(c)], "list": lambda: t.watch([a, b, c]),
                "tuple": lambda: t.watch((a, b, c)), "dict": lambda: t.watch({"z": a, "b": b, "c": c}),
                "nested": lambda: t.watch({"ab": [a, (b,)], "c": {"c": c}})}

    for wname in ("three calls", "list", "tuple", "dict", "nested"):
        for sname in ("list", "tuple", "dict", "nested"):
            a, b, c = tf.constant(av), tf.constant(bv), tf.constant(cv)
            with tf.GradientTape() as tape:
                watchers(tape, a, b, c)[wname]()
                loss = tf.reduce_sum(a * a * b) + tf.reduce_sum(c)
            call = f"tape.watch({wname}); tape.gradient(loss, sources as a {sname})"
            if sname == "list":
                got = tape.gradient(loss, [a, b, c])
                assert_true(isinstance(got, list), f"gradient should be a list, got {type(got).__name__}", call=call)
                got = dict(zip("abc", got))
            elif sname == "tuple":
                got = tape.gradient(loss, (a, b, c))
                assert_true(isinstance(got, tuple), f"gradient should be a tuple, got {type(got).__name__}", call=call)
                got = dict(zip("abc", got))
            elif sname == "dict":
                got = tape.gradient(loss, {"c": c, "a": a, "b": b})
                assert_true(isinstance(got, dict) and list(got) == ["c", "a", "b"],
                            f"gradient should be a dict keyed c, a, b, got {got!r}", call=call)
            else:
                g = tape.gradient(loss, {"x": [a, {"b": b}], "c": (c,)})
                got = {"a": g["x"][0], "b": g["x"][1]["b"], "c": g["c"][0]}
            for k in "abc":
                assert_true(got[k] is not None, f"d loss / d {k} is None, but should be {want[k]}", call=call)
                assert_close(got[k], want[k], tolerance=TOL, what=f"d loss / d {k}", call=call)


_P = np.arange(15, dtype=np.float32).reshape(5, 3) / 4.0 - 1.0
_IDX2 = np.array([[4, 0], [1, 4], [0, 0]], np.int32)
_IDX1 = np.array([3, 1, 3, 0], np.int32)


def _upstream(shape):
    return (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 5 - 2.0) / 2.0


def _scatter(idx, up):
    out = np.zeros(_P.shape)
    np.add.at(out, idx.reshape(-1), up.reshape(-1, _P.shape[1]))
    return out


@clause("autodiff.indexed-slices")
@clause("ops.gather-gradient-indexed-slices")
def test_spell25a_gathered_rows_gradient_every_spelling(tf, keras):
    """d/dp sum(R * rows) for rows = tf.gather(p, idx), tf.nn.embedding_lookup(p, idx), p used by a Keras
    Embedding, with p a variable or a watched tensor, idx 1-D (4,) and 2-D (3, 2), alone and plus a dense use
    sum(W * p): the gradient densified (tf.convert_to_tensor) equals NumPy's scatter-add of R's rows (plus W),
    an IndexedSlices' indices are flat (rank 1, one per row), and an SGD(1.0) step moves a variable by it."""
    w = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
    lookups = {"tf.gather": lambda p, i: tf.gather(p, i),
               "tf.nn.embedding_lookup": lambda p, i: tf.nn.embedding_lookup(p, i)}
    for idx in (_IDX1, _IDX2):
        up = _upstream(idx.shape + (3,))
        for lname in ("tf.gather", "tf.nn.embedding_lookup", "keras.layers.Embedding"):
            for kind in ("variable", "tensor"):
                if lname == "keras.layers.Embedding" and kind == "tensor":
                    continue
                for dense in (False, True):
                    call = f"{lname}(p {kind}, indices of shape {idx.shape}){' + sum(W * p)' if dense else ''}"
                    if lname == "keras.layers.Embedding":
                        emb = keras.layers.Embedding(5, 3)
                        emb.build((None,))
                        emb.embeddings.assign(_P)
                        p = emb.embeddings
                        look = lambda p, i: emb(i)   # noqa: E731
                    else:
                        p = tf.Variable(_P) if kind == "variable" else tf.constant(_P)
                        look = lookups[lname]
                    with tf.GradientTape() as tape:
                        if kind == "tensor":
                            tape.watch(p)
                        loss = tf.reduce_sum(tf.constant(up) * look(p, tf.constant(idx)))
                        if dense:
                            loss += tf.reduce_sum(tf.constant(w) * p)
                    g = tape.gradient(loss, p)
                    want = _scatter(idx, up) + (w if dense else 0.0)
                    if type(g).__name__ == "IndexedSlices":
                        ind = to_numpy(g.indices)
                        assert_equal(ind.shape, (idx.size,), what="gradient.indices.shape", call=call)
                    assert_close(tf.convert_to_tensor(g), want, tolerance=TOL, what="gradient", call=call)
                    if kind == "variable":
                        before = to_numpy(p).astype(np.float64)
                        keras.optimizers.SGD(1.0).apply_gradients([(g, p)])
                        assert_close(p, before - want, tolerance=TOL, what="variable after SGD(1.0)", call=call)
