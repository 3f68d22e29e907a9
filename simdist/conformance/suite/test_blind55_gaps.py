"""Gaps the fifty-fifth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, op gradients, tf.function, tf.data, checkpoints, distribution,
random ops) that the suite stated for one spelling, one structure or one input only, or never, so that a wrong
implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or plain
Python, or is a relation TF's rule implies (a gradient against the forward op's own values, a draw against the
standard draw of the same seed), or was observed on TF 2.21 (the observations are in /work/wt/blind48b_logs/ probes
and gaps outputs).
"""

from __future__ import annotations

import itertools
import os
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


def _close(got, want, what, tol=1e-5):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True), \
        f"{what}: got {got.tolist()}, want {want.tolist()}"


# -- op gradients: the special functions' gradients against their forward values ------------------------------------
def _grads(tf, f, *xs):
    xs = [tf.constant(np.asarray(x, np.float32)) for x in xs]
    with tf.GradientTape() as t:
        for x in xs:
            t.watch(x)
        y = f(*xs)
    return t.gradient(y, xs)


_XS = [-2.0, -0.5, 0.5, 1.0, 2.5]


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op", ["asin", "acos", "bessel_i0e", "bessel_i1e", "bessel_i1", "bessel_j1", "spence"])
def test_blind55_special_gradients_follow_the_derivative_of_the_op(tf, op):
    """Each gradient is TF's math_grad formula in the forward ops' own values: asin' = 1/sqrt(1 - x^2),
    acos' = -1/sqrt(1 - x^2), i0e' = i1e(x) - sign(x) i0e(x), i1e' = i0e(x) - i1e(x) (sign(x) + 1/x) (0.5 at 0),
    i1' = i0(x) - i1(x)/x (TF's 1.0 at 0), j1' = j0(x) - j1(x)/x (0.5 at 0), spence' = log(x)/(1 - x) (-1 at 1):
    negative arguments and the points each formula treats apart included."""
    s = tf.math.special
    xs = {"asin": [-0.5, 0.0, 0.3, 0.9], "acos": [-0.5, 0.0, 0.3, 0.9], "spence": [0.5, 1.0, 2.0, 3.0]}.get(
        op, _XS + [0.0])
    x = np.asarray(xs, np.float32)
    f = {"asin": tf.asin, "acos": tf.acos, "bessel_i0e": s.bessel_i0e, "bessel_i1e": s.bessel_i1e,
         "bessel_i1": tf.math.bessel_i1, "bessel_j1": s.bessel_j1, "spence": s.spence}[op]
    (g,) = _grads(tf, f, x)
    v = lambda fn: _np(fn(tf.constant(x))).astype(np.float64)   # noqa: E731
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if op == "asin":
            want = 1 / np.sqrt(1 - xd ** 2)
        elif op == "acos":
            want = -1 / np.sqrt(1 - xd ** 2)
        elif op == "bessel_i0e":
            want = v(s.bessel_i1e) - np.sign(xd) * v(s.bessel_i0e)
        elif op == "bessel_i1e":
            want = np.where(xd == 0, 0.5, v(s.bessel_i0e) - v(s.bessel_i1e) * (np.sign(xd) + 1 / xd))
        elif op == "bessel_i1":
            want = np.where(xd == 0, 1.0, v(tf.math.bessel_i0) - v(tf.math.bessel_i1) / xd)
        elif op == "bessel_j1":
            want = np.where(xd == 0, 0.5, v(s.bessel_j0) - v(s.bessel_j1) / xd)
        else:
            want = np.where(xd == 1, -1.0, np.log(xd) / (1 - xd))
    _close(_np(g), want, f"d {op}(x)/dx at {xs}", tol=2e-5)


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("case", ["zeta", "nextafter", "nextafter broadcast"])
def test_blind55_two_argument_gradients_go_to_the_right_argument(tf, case):
    """zeta(x, q): no gradient in x (None), -x zeta(x + 1, q) in q; nextafter(x1, x2): the upstream gradient to x1
    (summed over a broadcast), zeros to x2."""
    if case == "zeta":
        x, q = [2.0, 3.0, 4.0], [1.5, 2.0, 0.5]
        gx, gq = _grads(tf, tf.math.zeta, x, q)
        assert gx is None, f"zeta's gradient in x: {gx}, want None"
        want = -np.asarray(x) * _np(tf.math.zeta(tf.constant(np.asarray(x, np.float32) + 1),
                                                 tf.constant(np.asarray(q, np.float32))))
        _close(_np(gq), want, "d zeta(x, q)/dq", tol=2e-5)
        return
    x1 = [[1.0, 2.0], [3.0, -1.0]]
    x2 = [[3.0, 0.0], [1.0, 5.0]] if case == "nextafter" else [3.0, 0.0]
    g1, g2 = _grads(tf, lambda a, b: tf.math.nextafter(a, b) * tf.constant([[1.0, 2.0], [3.0, 4.0]]), x1, x2)
    _close(_np(g1), [[1.0, 2.0], [3.0, 4.0]], "d nextafter/dx1")
    _close(_np(g2), np.zeros(np.shape(x2)), "d nextafter/dx2")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op", ["sqrt", "rsqrt"])
@pytest.mark.parametrize("weighted", [False, True], ids=["plain", "upstream depends on x"])
def test_blind55_second_derivatives_of_sqrt_and_rsqrt(tf, op, weighted):
    """Nested tapes through SqrtGrad and RsqrtGrad, whose own gradients (both inputs: the output y and the upstream
    gradient) TF defines: d2/dx2 of sqrt(x) is -x^-3/2 / 4, of rsqrt(x) 3/4 x^-5/2; of sqrt(x) * x (the upstream
    gradient x) 3/(4 sqrt(x)), of rsqrt(x) * x -x^-3/2 / 4."""
    x = tf.constant([4.0, 0.25, 9.0])
    xd = np.array([4.0, 0.25, 9.0])
    fn = tf.sqrt if op == "sqrt" else tf.math.rsqrt
    with tf.GradientTape() as t1:
        t1.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            y = fn(x) * x if weighted else fn(x)
        g = t2.gradient(y, x)
    gg = _np(t1.gradient(g, x))
    p = 1.5 if weighted and op == "sqrt" else (0.5 if op == "sqrt" or weighted else -0.5)
    # d/dx x^p = p x^(p-1); d2 = p (p - 1) x^(p-2)
    _close(_np(g), p * xd ** (p - 1), f"d/dx of {op}(x){' * x' if weighted else ''}")
    _close(gg, p * (p - 1) * xd ** (p - 2), f"d2/dx2 of {op}(x){' * x' if weighted else ''}")


@clause("function.graph-gradients", ref="tf221")
def test_blind55_gradients_through_a_while_loop_give_zeros_for_unreached_float_inputs(tf):
    """tf.gradients through a tf.while_loop in a tf.function (TF's while_v2 gradient): a float loop variable the
    target does not depend on, and every input of a loop that runs no iteration, get zeros, not None; a reached
    one its gradient (observed on TF 2.21)."""
    @tf.function
    def f(a, b):
        r = tf.while_loop(lambda i, p, q: i < 3, lambda i, p, q: (i + 1, p * 2.0, q), [0, a, b])
        r0 = tf.while_loop(lambda i, p: i < 0, lambda i, p: (i + 1, p * b), [0, a])
        r2 = tf.while_loop(lambda i, p, q: i < 2, lambda i, p, q: (i + 1, p * q, q), [0, a, b])
        gs = tf.gradients(r[1], [a, b]) + tf.gradients(r0[1], [a, b]) + tf.gradients(r2[1], [a, b])
        return [tf.constant(-99.0) if g is None else g for g in gs]
    got = [float(_np(g)) for g in f(tf.constant(1.5), tf.constant(2.0))]
    # r: p = 8a; r0: p = a (b unused in a loop that never runs); r2: p = a b^2
    want = [8.0, 0.0, 1.0, 0.0, 4.0, 2 * 1.5 * 2.0]
    _close(got, want, "tf.gradients through three while loops (-99: None)")


# -- tf.function: the concrete function's signature text ---------------------------------------------------------
@clause("function.input-signature", ref="tf221")
@pytest.mark.parametrize("kind", ["kwargs", "keyword-only", "positional only"])
def test_blind55_signature_text_separates_keyword_only_parameters(tf, kind):
    """A concrete function's `pretty_printed_signature(verbose=False)` lists the positional parameters, then `*`
    and the keyword-only ones (a `**kwargs` entry is one), then the output type (observed on TF 2.21)."""
    spec = tf.TensorSpec([2])
    if kind == "kwargs":
        @tf.function
        def g(x, **kw):
            return x + kw["k"]
        cf = g.get_concrete_function(spec, k=spec)
    elif kind == "keyword-only":
        @tf.function
        def g(x, y):
            return x + y
        cf = g.get_concrete_function(spec, y=spec)
    else:
        @tf.function
        def g(x, y):
            return x + y
        cf = g.get_concrete_function(spec, spec)
    t = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    want = {"kwargs": f"(x: {t}, *, k: {t}) -> {t}", "keyword-only": f"(x: {t}, y: {t}) -> {t}",
            "positional only": f"(x: {t}, y: {t}) -> {t}"}[kind]
    assert cf.pretty_printed_signature(verbose=False) == want, \
        f"signature text {cf.pretty_printed_signature(verbose=False)!r}, want {want!r}"


# -- tf.data -------------------------------------------------------------------------------------------------------
@clause("dataset.readers", ref="tf221")
@pytest.mark.parametrize("data", [b"ab\r\ncd\r\nef", b"ab\ncd\n", b"ab\r\n\r\ncd\r\n", b"a\rb\nc\r", b"\r\n"],
                         ids=["crlf", "lf", "blank crlf line", "inner cr", "one crlf"])
def test_blind55_text_lines_drop_the_line_ends(tf, tmp_path, data):
    """TextLineDataset splits on '\\n' and appends no '\\r' to a line, wherever it is (a CRLF file reads as a LF one,
    'a\\rb' as 'ab'; TF's InputBuffer::ReadLine, observed on TF 2.21); a final line without '\\n' is a line."""
    p = tmp_path / "f.txt"
    p.write_bytes(data)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    want = [ln.replace(b"\r", b"") for ln in lines]
    got = [bytes(_np(x).item()) for x in tf.data.TextLineDataset(str(p))]
    assert got == want, f"TextLineDataset of {data!r}: {got}, want {want}"


@clause("dataset.sample-choose", ref="tf221")
@pytest.mark.parametrize("how", ["experimental default", "experimental stop", "method default", "method skip"])
def test_blind55_choose_from_datasets_defaults(tf, how):
    """choose_from_datasets: tf.data.experimental's stop_on_empty_dataset defaults to False (an exhausted input is
    skipped), the Dataset method's to True (the first choice of an exhausted input ends it)."""
    ds = [tf.data.Dataset.from_tensor_slices([1]), tf.data.Dataset.from_tensor_slices([10, 20, 30])]
    c = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 0, 1, 1], tf.int64))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {"experimental default": lambda: tf.data.experimental.choose_from_datasets(ds, c),
               "experimental stop": lambda: tf.data.experimental.choose_from_datasets(ds, c, True),
               "method default": lambda: tf.data.Dataset.choose_from_datasets(ds, c),
               "method skip": lambda: tf.data.Dataset.choose_from_datasets(ds, c, stop_on_empty_dataset=False)}[how]()
    got = [int(_np(x)) for x in out]
    want = [1, 10, 20, 30] if how in ("experimental default", "method skip") else [1, 10]
    assert got == want, f"choose_from_datasets ({how}): {got}, want {want}"


@clause("dataset.api-surface", ref="tf221")
def test_blind55_options_merge_lets_the_argument_win(tf):
    """Options.merge(other): a new Options with self's settings overridden by those set in `other`; a setting only
    one of them made survives, nested options merged field by field."""
    a, b = tf.data.Options(), tf.data.Options()
    a.deterministic = True
    b.deterministic = False
    a.experimental_slack = True
    b.experimental_optimization.map_parallelization = False
    a.experimental_optimization.apply_default_optimizations = False
    ab, ba = a.merge(b), b.merge(a)
    got = (ab.deterministic, ba.deterministic, ab.experimental_slack, ba.experimental_slack,
           ab.experimental_optimization.map_parallelization, ab.experimental_optimization.apply_default_optimizations,
           ba.experimental_optimization.map_parallelization)
    want = (False, True, True, True, False, False, False)
    assert got == want, f"Options.merge: {got}, want {want}"


def _rows(tf, ds):
    out = []
    for e in ds:
        out.append([_np(tf.sparse.to_dense(x)).tolist() if isinstance(x, tf.sparse.SparseTensor) else
                    (_np(x.to_tensor()).tolist() if hasattr(x, "to_tensor") else _np(x).tolist()) for x in e])
    return out


@clause("dataset.sparse-elements", ref="tf221")
@pytest.mark.parametrize("case", ["sparse 3, dense 2", "dense 2, sparse 3", "ragged 3, dense 2", "dense 2, ragged 3",
                                  "sparse 3, ragged 3", "sparse 3, dense 3", "ragged 3, sparse 3, dense 2",
                                  "unknown: sparse 3, dense 2", "unknown: dense 3, sparse 2"])
def test_blind55_unbatch_of_composite_components(tf, case):
    """unbatch of elements with SparseTensor or RaggedTensor components: TF compares only the dense components' static
    rows when it builds (a composite's flat component is a variant of unknown shape), so components of different
    row counts build and fail when iterated (InvalidArgumentError "Input element must have the same batch size in
    each component"), in either order; equal row counts give the rows; the cardinality is the element count times
    the first known row count of a dense or ragged component (a SparseTensor gives none). Observed on TF 2.21."""
    sp = tf.sparse.SparseTensor([[0, 0], [2, 1]], [1.0, 2.0], [3, 2])
    rg = tf.ragged.constant([[1.0], [2.0, 3.0], []])
    d2 = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    d3 = tf.constant([[1.0], [2.0], [3.0]])
    if case.startswith("unknown"):
        a3 = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 2.0]], np.float32)
        a2 = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
        first_sparse = case == "unknown: sparse 3, dense 2"

        def gen():
            yield (a3, a2) if first_sparse else (a3, a2)
        base = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([None, 2], tf.float32),
                                                                     tf.TensorSpec([None, 2], tf.float32)))
        ds = base.map((lambda a, b: (tf.sparse.from_dense(a), b)) if first_sparse else
                      (lambda a, b: (a, tf.sparse.from_dense(b))))
        card, rows = -2, None
    else:
        parts = {"sparse 3": sp, "dense 2": d2, "ragged 3": rg, "dense 3": d3}
        ds = tf.data.Dataset.from_tensors(tuple(parts[p] for p in case.split(", ")))
        card = {"sparse 3, dense 2": 2, "dense 2, sparse 3": 2, "ragged 3, dense 2": 3, "dense 2, ragged 3": 2,
                "sparse 3, ragged 3": 3, "sparse 3, dense 3": 3, "ragged 3, sparse 3, dense 2": 3}[case]
        rows = {"sparse 3, ragged 3": [[[1.0, 0.0], [1.0]], [[0.0, 0.0], [2.0, 3.0]], [[0.0, 2.0], []]],
                "sparse 3, dense 3": [[[1.0, 0.0], [1.0]], [[0.0, 0.0], [2.0]], [[0.0, 2.0], [3.0]]]}.get(case)
    u = ds.unbatch()
    got_card = int(_np(u.cardinality()))
    assert got_card == card, f"unbatch ({case}) cardinality {got_card}, want {card}"
    if rows is not None:
        got = _rows(tf, u)
        assert got == rows, f"unbatch ({case}) rows {got}, want {rows}"
        return
    with pytest.raises(tf.errors.InvalidArgumentError, match="same batch size in each component"):
        _rows(tf, u)


@clause("dataset.batching", ref="tf221")
@pytest.mark.parametrize("n, size", [(5, 2), (4, 2), (1, 2), (7, 3)])
@pytest.mark.parametrize("source", ["slices", "range", "slices of rows"])
def test_blind55_padded_batch_drops_the_partial_batch_on_every_path(tf, n, size, source):
    """padded_batch(size, drop_remainder=True) drops the short last batch whatever made the elements (tensor slices
    that need no padding take a path of their own), and keeps it without drop_remainder."""
    if source == "slices":
        ds = tf.data.Dataset.from_tensor_slices(np.arange(n))
    elif source == "range":
        ds = tf.data.Dataset.range(n)
    else:
        ds = tf.data.Dataset.from_tensor_slices(np.arange(2 * n).reshape(n, 2))
    vals = [np.arange(n).tolist()] if source != "slices of rows" else [np.arange(2 * n).reshape(n, 2).tolist()]
    rows = vals[0]
    for drop in (True, False):
        got = [_np(b).tolist() for b in ds.padded_batch(size, drop_remainder=drop)]
        want = [rows[i:i + size] for i in range(0, n, size) if not drop or i + size <= n]
        assert got == want, f"padded_batch({size}, drop_remainder={drop}) of {n} {source}: {got}, want {want}"


@clause("dataset.function-trace", ref="tf221")
@pytest.mark.parametrize("op", ["boolean_mask", "where", "unique", "boolean_mask of slices", "tile"])
def test_blind55_map_output_dims_that_depend_on_values_are_unknown(tf, op):
    """A map function's output dimension that its graph cannot know (a boolean_mask, a where, a unique: it depends on
    the element's values) is None in the element_spec, even when every input dimension is known and the values the
    build probes would see give one size (observed on TF 2.21); a known one stays."""
    d3 = tf.constant([[1.0], [2.0], [3.0]])
    base = tf.data.Dataset.from_tensors(d3)
    if op == "boolean_mask of slices":
        ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 0.0]])).map(
            lambda a: tf.boolean_mask(a, a > 1.5))
        want, values = [None], [[2.0], [3.0]]
    else:
        fn = {"boolean_mask": lambda a: tf.boolean_mask(a, a[:, 0] > 1.5),
              "where": lambda a: tf.where(a > 1.5),
              "unique": lambda a: tf.unique(tf.reshape(a, [-1]))[0],
              "tile": lambda a: tf.tile(a, [2, 1])}[op]
        ds = base.map(fn)
        want = {"boolean_mask": [None, 1], "where": [None, 2], "unique": [None], "tile": [6, 1]}[op]
        values = {"boolean_mask": [[[2.0], [3.0]]], "where": [[[1, 0], [2, 0]]], "unique": [[1.0, 2.0, 3.0]],
                  "tile": [[[1.0], [2.0], [3.0], [1.0], [2.0], [3.0]]]}[op]
    got = ds.element_spec.shape.as_list()
    assert got == want, f"map({op}) element_spec shape {got}, want {want}"
    got_v = [_np(x).tolist() for x in ds]
    assert got_v == values, f"map({op}) elements {got_v}, want {values}"


# -- checkpoints ---------------------------------------------------------------------------------------------------
def _escape(name):
    return name.replace(".", "..").replace("/", ".S")   # TF's trackable_utils.escape_local_name


def _keys(tf, path):
    return sorted(n for n, _ in tf.train.list_variables(path) if "OBJECT_GRAPH" not in n and "save_counter" not in n)


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("names", [("x/y", "p.q"), ("a./b", "c/.d"), ("plain", "a..b//c")],
                         ids=["slash and dot", "dot then slash", "doubled"])
def test_blind55_checkpoint_keys_escape_dots_then_slashes(tf, tmp_path, names):
    """A Checkpoint's keyword names are escaped in its keys as TF's escape_local_name: every '.' doubled, then every
    '/' written '.S'."""
    c = tf.train.Checkpoint(**{n: tf.Variable(float(i)) for i, n in enumerate(names)})
    got = _keys(tf, c.save(str(tmp_path / "c")))
    want = sorted(_escape(n) + "/.ATTRIBUTES/VARIABLE_VALUE" for n in names)
    assert got == want, f"checkpoint keys of {names}: {got}, want {want}"


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("container", ["tuple", "list", "nested tuple", "dict"])
def test_blind55_checkpoint_tracks_container_attributes(tf, tmp_path, container):
    """A tf.Module's tuple, list or dict attribute of variables is a checkpoint dependency: its items saved under
    the attribute's name and their index (a dict: key)."""
    m = tf.Module()
    v = [tf.Variable(1.0), tf.Variable(2.0)]
    if container == "tuple":
        m.t = (v[0], v[1])
        want = ["m/t/0", "m/t/1"]
    elif container == "list":
        m.t = [v[0], v[1]]
        want = ["m/t/0", "m/t/1"]
    elif container == "nested tuple":
        m.t = ((v[0],), v[1])
        want = ["m/t/0/0", "m/t/1"]
    else:
        m.t = {"b": v[0], "a": v[1]}
        want = ["m/t/a", "m/t/b"]
    got = _keys(tf, tf.train.Checkpoint(m=m).save(str(tmp_path / "c")))
    want = sorted(w + "/.ATTRIBUTES/VARIABLE_VALUE" for w in want)
    assert got == want, f"checkpoint keys of a {container} attribute: {got}, want {want}"


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("saves", [1, 2])
def test_blind55_checkpoints_iterator_yields_each_new_checkpoint_once(tf, tmp_path, saves):
    """tf.train.checkpoints_iterator(dir, timeout=0) yields the newest checkpoint, then, finding no newer one when the
    timeout passes, calls timeout_fn (False: wait again, True or no timeout_fn: stop); a checkpoint saved by
    timeout_fn is yielded next, once."""
    d = str(tmp_path)
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    ck.save(os.path.join(d, "c"))
    calls = []

    def timeout_fn():
        calls.append(1)
        if len(calls) < saves:
            ck.save(os.path.join(d, "c"))
            return False
        return True
    got = [os.path.basename(p) for p in itertools.islice(tf.train.checkpoints_iterator(
        d, timeout=0, timeout_fn=timeout_fn), 5)]
    want = [f"c-{i + 1}" for i in range(saves)]
    assert got == want and len(calls) == saves, f"checkpoints_iterator: {got} ({len(calls)} timeouts), want {want}"
    plain = [os.path.basename(p) for p in itertools.islice(tf.train.checkpoints_iterator(d, timeout=0), 5)]
    assert plain == [want[-1]], f"checkpoints_iterator without timeout_fn: {plain}, want {[want[-1]]}"


# -- distribution --------------------------------------------------------------------------------------------------
def _devs(tf, backend, n):
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    return [f"/cpu:{i}" for i in range(n)]


def _shape_of(x):
    if isinstance(x, (tuple, list)):
        return type(x).__name__ + "[" + ",".join(_shape_of(v) for v in x) + "]"
    return "value"


@clause("optim.update", ref="tf221")
@pytest.mark.parametrize("group", [True, False])
@pytest.mark.parametrize("where", ["replica", "cross-replica"])
def test_blind55_update_returns_each_device_result_with_group_false(tf, backend, group, where):
    """MirroredStrategy(2)'s extended.update(v, fn, args, group=...): group=False gives a tuple of the devices'
    results (2), group=True one value; from a replica context it is a merge_call updating once with the same group."""
    s = tf.distribute.MirroredStrategy(_devs(tf, backend, 2))
    with s.scope():
        v = tf.Variable(1.0)

    def upd():
        return s.extended.update(v, lambda var, d: var.assign_add(d), args=(1.0,), group=group)
    if where == "replica":
        def step():
            r = tf.distribute.get_replica_context().strategy.extended.update(
                v, lambda var, d: var.assign_add(d), args=(1.0,), group=group)
            return tf.constant(float(len(r)) if isinstance(r, (tuple, list)) else -1.0)
        out = s.run(step)
        got = [float(_np(t)) for t in s.experimental_local_results(out)]
        want = [2.0, 2.0] if not group else [-1.0, -1.0]
    else:
        r = upd()
        got = [float(len(r))] if isinstance(r, (tuple, list)) else [-1.0]
        want = [2.0] if not group else [-1.0]
    assert got == want, f"update(group={group}) from {where}: {got} (-1: one value), want {want}"
    _close(_np(v.read_value()), 2.0, "the variable after one update")


@clause("extended.v1-methods", ref="tf221")
@pytest.mark.parametrize("group", [True, False])
@pytest.mark.parametrize("strategy", ["default", "one device"])
def test_blind55_update_non_slot_of_the_single_device_strategies(tf, strategy, group):
    """update_non_slot(colocate_with, fn, group=...) of the default strategy (from its own default context, which
    counts as cross-replica) and of OneDeviceStrategy: fn once; group=False gives each leaf of its result as a
    1-tuple, group=True the result."""
    s = tf.distribute.get_strategy() if strategy == "default" else tf.distribute.OneDeviceStrategy("/cpu:0")
    r = s.extended.update_non_slot(None, lambda: (tf.constant(1.0), tf.constant(2.0)), group=group)
    got = _shape_of(r)
    want = "tuple[tuple[value],tuple[value]]" if not group else "tuple[value,value]"
    assert got == want, f"update_non_slot(group={group}) under {strategy}: {got}, want {want}"
    flat = [float(_np(x)) for x in (list(itertools.chain(*r)) if not group else r)]
    assert flat == [1.0, 2.0], f"its values {flat}"


@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
@pytest.mark.parametrize("how", ["reduce", "batch_reduce", "hierarchical batch_reduce", "central storage",
                                 "mirrored"])
def test_blind55_cross_device_ops_keep_a_plain_indexed_slices(tf, backend, op, how):
    """The cross-device ops' reduce and batch_reduce of a plain (non-distributed) IndexedSlices, and
    batch_reduce_to of CentralStorageStrategy and MirroredStrategy: one replica's value, kept IndexedSlices (SUM and
    MEAN alike; TF's _make_tensor_into_per_replica wraps it as it is), its dense value the slices' (observed on
    TF 2.21)."""
    sl = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    rop = getattr(tf.distribute.ReduceOp, op)
    if how in ("central storage", "mirrored"):
        devs = _devs(tf, backend, 2)
        s = tf.distribute.experimental.CentralStorageStrategy(devs) if how == "central storage" else \
            tf.distribute.MirroredStrategy(devs)
        r = s.extended.batch_reduce_to(rop, [(sl, "/cpu:0")])[0]
    else:
        ops = tf.distribute.HierarchicalCopyAllReduce() if how.startswith("hier") else \
            tf.distribute.ReductionToOneDevice()
        r = ops.reduce(rop, sl, "/cpu:0") if how == "reduce" else ops.batch_reduce(rop, [(sl, "/cpu:0")])[0]
    assert isinstance(r, tf.IndexedSlices), f"{how}({op}) of IndexedSlices: a {type(r).__name__}, want IndexedSlices"
    _close(_np(tf.convert_to_tensor(r)), [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]], f"{how}({op}) dense value")


# -- random ops ----------------------------------------------------------------------------------------------------
@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("lo, hi", [(2.0, 5.0), (-1.0, 1.0), (0.0, 3.0), (4.0, 4.5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_blind55_stateless_uniform_scales_by_the_range(tf, lo, hi, dtype):
    """stateless_uniform(minval, maxval) is the standard draw of the same seed times (maxval - minval) plus minval
    (random_ops: rnd * (maxval - minval) + minval, in the output dtype)."""
    dt = getattr(tf, dtype)
    u = _np(tf.random.stateless_uniform([6], seed=[1, 2], dtype=dt)).astype(np.float64)
    got = _np(tf.random.stateless_uniform([6], seed=[1, 2], minval=lo, maxval=hi, dtype=dt)).astype(np.float64)
    _close(got, u * (hi - lo) + lo, f"stateless_uniform([{lo}, {hi}))", tol=1e-6)


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("fn", ["stateless_normal", "stateless_truncated_normal"])
@pytest.mark.parametrize("moments", ["tensors", "numbers", "tensor mean", "tensor stddev"])
def test_blind55_stateless_normals_shift_by_the_mean_and_scale_by_the_stddev(tf, fn, moments):
    """A stateless normal with mean m and stddev s is m + s times the standard draw of the same seed, whether m and s
    are Python numbers or tensors."""
    f = getattr(tf.random, fn)
    z = _np(f([5], seed=[3, 4])).astype(np.float64)
    m, s = 10.0, 0.5
    mm = tf.constant(m) if moments in ("tensors", "tensor mean") else m
    ss = tf.constant(s) if moments in ("tensors", "tensor stddev") else s
    got = _np(f([5], seed=[3, 4], mean=mm, stddev=ss)).astype(np.float64)
    _close(got, m + s * z, f"{fn}(mean={m}, stddev={s}) ({moments})", tol=1e-5)


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("first", ["normal", "uniform", "truncated_normal"])
@pytest.mark.parametrize("then", ["truncated_normal", "normal", "uniform"])
def test_blind55_each_random_op_draws_from_its_own_kernel(tf, first, then):
    """Under one global seed the stateful random ops of the same op seed each have their own kernel: `then` after
    `first` draws what `then` draws alone (a different op) or continues `first`'s stream (the same op)."""
    ops = {"normal": tf.random.normal, "uniform": tf.random.uniform, "truncated_normal": tf.random.truncated_normal}
    tf.random.set_seed(3)
    alone = _np(ops[then]([4], seed=7))
    again = _np(ops[then]([4], seed=7))
    tf.random.set_seed(3)
    ops[first]([4], seed=7)
    got = _np(ops[then]([4], seed=7))
    want = again if first == then else alone
    _close(got, want, f"{then} after {first} under set_seed(3), seed=7")


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("shape", [[0], [0, 3], [2, 0]])
@pytest.mark.parametrize("param", [[1.0, 2.0], [[1.0], [2.0]]], ids=["vector", "column"])
@pytest.mark.parametrize("fn", ["gamma", "poisson"])
def test_blind55_empty_gamma_and_poisson_keep_the_parameter_dimensions(tf, fn, shape, param):
    """tf.random.gamma and tf.random.poisson of an empty shape: shape + the parameter's shape, no values."""
    f = tf.random.gamma if fn == "gamma" else tf.random.poisson
    got = f(shape, param, seed=1)
    want = list(shape) + list(np.shape(param))
    assert got.shape.as_list() == want and _np(got).size == 0, \
        f"{fn}({shape}, parameter of shape {list(np.shape(param))}): shape {got.shape.as_list()}, want {want}"


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("how", ["variable", "from_state variable", "tensor", "list"])
@pytest.mark.parametrize("size", [2, 3, 4])
def test_blind55_generator_checks_the_state_size(tf, how, size):
    """tf.random.Generator(state=..., alg='philox') and Generator.from_state: the state must have philox's 3 int64
    elements, a tf.Variable state as well as a tensor or list (ValueError otherwise)."""
    state = np.arange(1, size + 1, dtype=np.int64)
    make = {"variable": lambda: tf.random.Generator(state=tf.Variable(state), alg="philox"),
            "from_state variable": lambda: tf.random.Generator.from_state(tf.Variable(state), "philox"),
            "tensor": lambda: tf.random.Generator(state=tf.constant(state), alg="philox"),
            "list": lambda: tf.random.Generator(state=state.tolist(), alg="philox")}[how]
    if size == 3:
        assert make().state.shape.as_list() == [3]
        return
    with pytest.raises(ValueError):
        make()


# -- the trainer ---------------------------------------------------------------------------------------------------
X8 = np.arange(16, dtype=np.float32).reshape(8, 2) / 8
Y8 = np.arange(8, dtype=np.float32).reshape(8, 1) / 4


@clause("keras.compile.loss-weights", ref="tf221")
@pytest.mark.parametrize("loss", ["dict a only", "dict b None", "list second None", "list first None"])
def test_blind55_a_none_loss_leaves_its_output_out(tf, keras, loss):
    """A loss structure's None entry leaves that output without a loss (not an error): the total is the other
    output's loss, the mean squared error of a kernel of ones (a) or zeros (b)."""
    inp = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer="ones", name="a")(inp)
    b = keras.layers.Dense(1, kernel_initializer="zeros", name="b")(inp)
    if loss.startswith("dict"):
        m = keras.Model(inp, {"a": a, "b": b})
        spec = {"a": "mse"} if loss == "dict a only" else {"a": "mse", "b": None}
        y = {"a": Y8, "b": Y8}
    else:
        m = keras.Model(inp, [a, b])
        spec = ["mse", None] if loss == "list second None" else [None, "mse"]
        y = [Y8, Y8]
    m.compile("sgd", loss=spec)
    r = m.evaluate(X8, y, verbose=0, return_dict=True)
    pred = X8.sum(axis=1, keepdims=True) if loss != "list first None" else np.zeros((8, 1), np.float32)
    want = float(((pred - Y8) ** 2).mean())
    assert abs(float(r["loss"]) - want) < 1e-4, f"loss {loss}: {r}, want loss {want}"


@clause("mwms.keras", ref="tf221")
def test_blind55_fit_under_a_one_worker_multi_worker_strategy(tf, keras):
    """MultiWorkerMirroredStrategy() without a cluster is one worker: fit works (only several workers fail on TF 2.21
    + Keras 3.15) and gives the loss of the same fit without a strategy."""
    def fit(strategy):
        scope = strategy.scope() if strategy is not None else _Null()
        with scope:
            inp = keras.Input((2,))
            m = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones")(inp))
            m.compile(keras.optimizers.SGD(0.1), "mse")
        h = m.fit(X8, Y8, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return h.history["loss"]
    got = fit(tf.distribute.MultiWorkerMirroredStrategy())
    _close(got, fit(None), "fit losses under MultiWorkerMirroredStrategy() against no strategy", tol=1e-5)


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
