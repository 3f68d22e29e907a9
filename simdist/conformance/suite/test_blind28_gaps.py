"""Gaps the twenty-eighth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one option value or
one input only (ResizeBicubic's gradient under the default grid but never align_corners=True, Eig's gradient
through real eigenvalues but never complex ones, EinsumDense's bias on the last output axis only, CTC of float32
logits only, fit's data errors for arrays but not for a Dataset or a PyDataset, ...), so that a wrong
implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule, or central differences) or is a relation TF's rule implies between
two spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
EXACT = Tolerance(rtol=0.0, atol=0.0)
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)


def _np(x):
    return np.asarray(to_numpy(x))


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


# -- op gradients: a resize's gradient under every sampling grid ------------------------------------------------------
GRIDS = [("ResizeBicubic", True, False), ("ResizeBicubic", False, False), ("ResizeBicubic", False, True),
         ("ResizeBilinear", True, False), ("ResizeBilinear", False, True)]


@clause("ops.image-resize", ref="tf221")
@pytest.mark.parametrize("op,align_corners,half_pixel_centers", GRIDS)
def test_blind28_resize_gradient_is_the_adjoint_under_every_grid(tf, op, align_corners, half_pixel_centers):
    """ResizeBicubic and ResizeBilinear are linear in the image whatever their grid (align_corners,
    half_pixel_centers): the gradient of sum(R * resize(x)) is the adjoint applied to R, entry i being
    sum(R * resize(e_i)) for the basis image e_i (the gradient op must use the forward's grid)."""
    h, w, c, size = 3, 4, 2, [5, 7]
    rng = _rng(f"blind28-resize-{op}-{align_corners}-{half_pixel_centers}")
    fn = getattr(tf.raw_ops, op)

    def resize(images):
        return fn(images=images, size=size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)
    x = tf.constant(np.round(rng.uniform(-1, 1, (1, h, w, c)), 3), tf.float32)
    R = np.round(rng.uniform(-2.0, 2.0, (1, size[0], size[1], c)), 2)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = resize(x)
    g = tape.gradient(out, x, output_gradients=tf.constant(R, tf.float32))
    n = h * w * c
    basis = _np(resize(tf.constant(np.eye(n, dtype=np.float32).reshape(n, h, w, c)))).astype(np.float64)
    want = np.einsum("nyxc,yxc->n", basis, R[0]).reshape(1, h, w, c)
    assert_close(g, want, tolerance=TOL32, what="the gradient",
                 call=f"tape.gradient(sum(R * raw_ops.{op}(x, align_corners={align_corners}, "
                      f"half_pixel_centers={half_pixel_centers})), x) vs the adjoint")


# -- op gradients: Eig through complex eigenvalues and their eigenvectors --------------------------------------------
def _eig_objective(a: np.ndarray, w: np.ndarray) -> float:
    """sum_k real(e_k) * sum_i w_i |v_ik|^2 + sum_k imag(e_k)^2: unchanged by the eigenvectors' phases and by the
    order of the eigenpairs (the vectors have unit norm, as Eigen's and LAPACK's do)."""
    e, v = np.linalg.eig(a)
    return float(np.sum(e.real * (w @ np.abs(v) ** 2)) + np.sum(e.imag ** 2))


@clause("ops.linalg-spectral", ref="tf221")
def test_blind28_eig_gradient_through_complex_eigenvectors(tf):
    """tf.linalg.eig's gradient (linalg_grad._EigGrad) through the eigenvalues and the eigenvectors of real
    matrices whose eigenvalues are complex pairs: a phase- and order-invariant function of them, its gradient
    against central differences of NumPy's eig (float64)."""
    mats = [np.array([[1.0, -2.0, 0.5], [2.0, 1.0, 0.0], [0.0, 0.3, 3.0]]),
            np.array([[0.5, -1.5, 0.2, 0.0], [1.0, 0.25, 0.0, 0.3], [0.0, 0.1, 2.0, -0.8], [0.2, 0.0, 0.9, 2.5]])]
    for a in mats:
        n = a.shape[0]
        w = np.linspace(-1.0, 2.0, n)
        want = np.zeros_like(a)
        h = 1e-6
        for i in range(n):
            for j in range(n):
                d = np.zeros_like(a)
                d[i, j] = h
                want[i, j] = (_eig_objective(a + d, w) - _eig_objective(a - d, w)) / (2 * h)
        x = tf.Variable(a, dtype=tf.float64)
        with tf.GradientTape() as tape:
            e, v = tf.linalg.eig(x)
            mag = tf.math.real(v * tf.math.conj(v))
            loss = tf.reduce_sum(tf.math.real(e) * tf.linalg.matvec(mag, tf.constant(w), transpose_a=True)) + \
                tf.reduce_sum(tf.math.imag(e) ** 2)
        got = tape.gradient(loss, x)
        assert_close(got, want, tolerance=Tolerance(rtol=1e-5, atol=1e-6), what="the gradient",
                     call=f"tape.gradient(f(tf.linalg.eig(a)), a) for a {n}x{n} matrix with complex eigenvalues "
                          "vs central differences")


# -- Keras layers: argument and shape checks at their bounds ----------------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
def test_blind28_cropping_must_leave_every_spatial_axis_nonempty(tf):
    """Cropping1D/2D/3D refuse (ValueError) a cropping whose two ends add up to the axis' length or more; one
    step less leaves one step, the middle of the axis."""
    keras = tf.keras
    cases = [("Cropping2D(((2, 2), (0, 0)))", keras.layers.Cropping2D(((2, 2), (0, 0))), (1, 4, 3, 1), True),
             ("Cropping2D(((0, 0), (1, 2)))", keras.layers.Cropping2D(((0, 0), (1, 2))), (1, 4, 3, 1), True),
             ("Cropping2D(((2, 1), (1, 1)))", keras.layers.Cropping2D(((2, 1), (1, 1))), (1, 4, 3, 1), False),
             ("Cropping3D(((1, 1), (0, 0), (0, 0)))", keras.layers.Cropping3D(((1, 1), (0, 0), (0, 0))),
              (1, 2, 3, 3, 1), True),
             ("Cropping3D(((0, 0), (0, 0), (3, 0)))", keras.layers.Cropping3D(((0, 0), (0, 0), (3, 0))),
              (1, 2, 3, 3, 1), True),
             ("Cropping3D(((0, 1), (1, 1), (0, 2)))", keras.layers.Cropping3D(((0, 1), (1, 1), (0, 2))),
              (1, 2, 3, 3, 1), False),
             ("Cropping1D((2, 1))", keras.layers.Cropping1D((2, 1)), (1, 3, 2), True),
             ("Cropping1D((1, 1))", keras.layers.Cropping1D((1, 1)), (1, 3, 2), False)]
    for label, layer, shape, refused in cases:
        x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        call = f"keras.layers.{label}(x of shape {shape})"
        if refused:
            with raises(ValueError, match="cropping", call=call):
                layer(tf.constant(x))
            continue
        crop = layer.cropping if isinstance(layer.cropping[0], tuple) else (layer.cropping,)
        index = (slice(None),) + tuple(slice(a, d - b) for (a, b), d in zip(crop, shape[1:])) + (Ellipsis,)
        assert_equal(layer(tf.constant(x)), x[index], call=call)


@clause("keras.layer.arguments", ref="tf221")
def test_blind28_unit_normalization_output_shape_checks_axes_in_range(tf):
    """UnitNormalization.compute_output_shape refuses (ValueError) an axis outside [-rank, rank) and returns the
    input shape for any axis inside."""
    keras = tf.keras
    shape = (4, 3)
    for axis in (2, -3, [0, 2], 5):
        with raises(ValueError, match="out of bounds", call=f"UnitNormalization(axis={axis}).compute_output_shape"
                                                             f"({shape})"):
            keras.layers.UnitNormalization(axis=axis).compute_output_shape(shape)
    for axis in (1, -2, 0, [0, 1], -1):
        got = keras.layers.UnitNormalization(axis=axis).compute_output_shape(shape)
        assert_equal(tuple(got), shape, call=f"UnitNormalization(axis={axis}).compute_output_shape({shape})")


@clause("keras.layer.arguments", ref="tf221")
def test_blind28_category_encoding_takes_count_weights_in_count_mode_only(tf):
    """CategoryEncoding refuses count_weights (ValueError) unless output_mode="count", where each token adds its
    weight to its bin."""
    keras = tf.keras
    inputs = np.array([[0, 1, 1], [3, 3, 2]])
    weights = np.array([[0.5, 2.0, 1.0], [0.25, 4.0, 1.5]], np.float32)
    for mode in ("multi_hot", "one_hot", "binary"):
        layer = keras.layers.CategoryEncoding(num_tokens=4, output_mode=mode)
        with raises(ValueError, match="count_weights", call=f"CategoryEncoding(4, output_mode={mode!r})(x, "
                                                             "count_weights=w)"):
            layer(tf.constant(inputs if mode != "one_hot" else inputs[:, :1]), count_weights=tf.constant(
                weights if mode != "one_hot" else weights[:, :1]))
    want = np.zeros((2, 4), np.float32)
    for r in range(2):
        for tok, wt in zip(inputs[r], weights[r]):
            want[r, tok] += wt
    got = keras.layers.CategoryEncoding(num_tokens=4, output_mode="count")(tf.constant(inputs),
                                                                           count_weights=tf.constant(weights))
    assert_close(got, want, tolerance=EXACT, call="CategoryEncoding(4, output_mode='count')(x, count_weights=w)")


@clause("keras.layer.normalization-adapt", ref="tf221")
def test_blind28_discretization_adapt_reads_steps_batches(tf):
    """Discretization.adapt(data, steps=k) reads exactly the first k batches of a Dataset or of a Python
    iterable: its bins equal those adapted on those k batches alone."""
    keras = tf.keras
    batches = [np.array([0.0, 1.0, 2.0, 3.0], np.float32), np.array([10.0, 20.0, 30.0, 40.0], np.float32),
               np.array([-5.0, 100.0, 7.0, 8.0], np.float32)]
    for k in (1, 2):
        alone = keras.layers.Discretization(num_bins=3, epsilon=0.01)
        alone.adapt(tf.data.Dataset.from_tensor_slices(np.stack(batches[:k])))
        want = np.asarray(alone.bin_boundaries, np.float64)
        for label, data in (("iter(list)", lambda: iter(batches)),
                            ("tf.data.Dataset", lambda: tf.data.Dataset.from_tensor_slices(np.stack(batches)))):
            layer = keras.layers.Discretization(num_bins=3, epsilon=0.01)
            layer.adapt(data(), steps=k)
            assert_close(np.asarray(layer.bin_boundaries, np.float64), want, tolerance=EXACT, what="bin_boundaries",
                         call=f"Discretization(num_bins=3).adapt({label} of 3 batches, steps={k}) vs the first {k}")


@clause("keras.layer.option-coverage", ref="tf221")
def test_blind28_einsum_dense_bias_spans_the_output_from_its_first_axis(tf):
    """EinsumDense's bias has the output's sizes on bias_axes and 1 on the other output axes from the first bias
    axis on (Keras's _analyze_split_string), so it broadcasts along the right axes: output = einsum(x, kernel)
    + bias."""
    keras = tf.keras
    cases = [("ab,bcd->acd", (3, 4), "c", (3, 1)), ("ab,bcd->acd", (3, 4), "d", (4,)),
             ("ab,bcd->acd", (3, 4), "cd", (3, 4)), ("abc,cde->abde", (None, 2, 3), "d", (2, 1))]
    for eq, out_shape, axes, want_shape in cases:
        layer = keras.layers.EinsumDense(eq, output_shape=out_shape, bias_axes=axes, kernel_initializer="ones",
                                         bias_initializer="zeros")
        x_shape = (2, 5) if eq.startswith("ab,") else (2, 3, 5)
        x = np.round(_rng(eq + axes).uniform(-1, 1, x_shape), 3).astype(np.float32)
        layer.build(x_shape)
        call = f"EinsumDense({eq!r}, output_shape={out_shape}, bias_axes={axes!r})"
        assert_equal(tuple(layer.bias.shape), want_shape, call=call, what="bias.shape")
        bias = np.arange(1, 1 + int(np.prod(want_shape)), dtype=np.float32).reshape(want_shape)
        layer.bias.assign(bias)
        kernel = _np(layer.kernel)
        want = np.einsum(eq, x.astype(np.float64), kernel.astype(np.float64)) + bias
        assert_close(layer(tf.constant(x)), want, tolerance=TOL32, call=call, what="the output")


# -- losses and metrics ------------------------------------------------------------------------------------------------
@clause("keras.loss.dtype", ref="tf221")
def test_blind28_ctc_result_dtype_follows_the_logits(tf):
    """keras.losses.ctc returns the logits' float dtype promoted with float32 (float64 logits: a float64 loss,
    computed in float32 and cast back, so it equals the float32 logits' loss); the CTC loss object returns its own
    dtype (float32 by default) whatever the logits'."""
    keras = tf.keras
    y_true = tf.constant([[1, 2, 0], [2, 0, 0]])
    logits = np.linspace(-1, 1, 2 * 6 * 4).reshape(2, 6, 4)
    ref = keras.losses.ctc(y_true, tf.constant(logits, tf.float32))
    for dt in ("float32", "float64"):
        x = tf.constant(logits, getattr(tf, dt))
        for label, got, want_dt in (("keras.losses.ctc", keras.losses.ctc(y_true, x), dt),
                                    ("keras.losses.CTC()", keras.losses.CTC()(y_true, x), "float32")):
            call = f"{label}(y_true, {dt} logits)"
            assert_equal(got.dtype.name, want_dt, call=call, what="the loss' dtype")
        assert_close(keras.losses.ctc(y_true, x), _np(ref), tolerance=EXACT, call=f"keras.losses.ctc({dt} logits)",
                     what="the loss vs float32 logits'")


@clause("keras.metric.update-result-reset", ref="tf221")
def test_blind28_metric_without_super_init_is_told_to_call_it(tf):
    """A keras.metrics.Metric subclass whose __init__ forgets super().__init__() gets Keras's RuntimeError asking
    for it as soon as it adds a variable; with the call it works."""
    keras = tf.keras

    class Forgot(keras.metrics.Metric):
        def __init__(self):
            self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    class Called(keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="called")
            self.total = self.add_variable(shape=(), initializer="zeros", name="total")

        def update_state(self, x):
            self.total.assign_add(tf.reduce_sum(tf.cast(x, "float32")))

        def result(self):
            return self.total

    with raises(RuntimeError, match="super", call="a Metric subclass without super().__init__() adding a variable"):
        Forgot()
    m = Called()
    m.update_state([1.0, 2.5])
    assert_close(m.result(), 3.5, tolerance=EXACT, call="Called().update_state([1, 2.5])", what="result()")


# -- the fit loop: data arguments a Dataset or a PyDataset cannot take ------------------------------------------------
def _model(keras):
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    return m


@clause("keras.fit.data", ref="tf221")
def test_blind28_dataset_and_py_dataset_refuse_separate_targets_and_weights(tf):
    """fit/evaluate on a tf.data.Dataset or a PyDataset refuse y and sample_weight arguments (ValueError: the
    data carries them), and a PyDataset whose batches carry sample weights refuses class_weight (ValueError)."""
    keras = tf.keras
    x = np.ones((4, 2), np.float32)
    y = np.array([[0.0], [1.0], [0.0], [1.0]], np.float32)
    sw = np.array([1.0, 2.0, 1.0, 2.0], np.float32)

    class Batches(keras.utils.PyDataset):
        def __init__(self, weighted):
            super().__init__()
            self.weighted = weighted

        def __len__(self):
            return 2

        def __getitem__(self, i):
            s = slice(2 * i, 2 * i + 2)
            return (x[s], y[s], sw[s]) if self.weighted else (x[s], y[s])

    def ds():
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    cases = [("fit(Dataset, y=y)", lambda m: m.fit(ds(), y=y, verbose=0)),
             ("fit(Dataset, sample_weight=sw)", lambda m: m.fit(ds(), sample_weight=sw, verbose=0)),
             ("evaluate(Dataset, y=y)", lambda m: m.evaluate(ds(), y=y, verbose=0)),
             ("fit(PyDataset, y=y)", lambda m: m.fit(Batches(False), y=y, verbose=0)),
             ("fit(PyDataset, sample_weight=sw)", lambda m: m.fit(Batches(False), sample_weight=sw, verbose=0)),
             ("fit(weighted PyDataset, class_weight=cw)",
              lambda m: m.fit(Batches(True), class_weight={0: 1.0, 1: 3.0}, verbose=0))]
    for label, run in cases:
        with raises(ValueError, call=label):
            run(_model(keras))
    by_class, by_weight = _model(keras), _model(keras)
    a = by_class.fit(Batches(False), class_weight={0: 1.0, 1: 2.0}, epochs=1, verbose=0).history["loss"]
    b = by_weight.fit(Batches(True), epochs=1, verbose=0).history["loss"]
    assert_close(a, b, tolerance=EXACT, call="fit(PyDataset, class_weight={0: 1, 1: 2}) vs batches weighted 1, 2",
                 what="the loss")


# -- models: cloning a functional model that calls one layer twice -----------------------------------------------------
@clause("keras.models.clone", ref="tf221")
def test_blind28_clone_model_clones_a_shared_layer_once(tf):
    """keras.models.clone_model clones each layer once: a layer a functional model calls twice is one layer (one
    set of weights) in the clone, called twice; with the weights copied the clone computes the same output."""
    keras = tf.keras
    inp = keras.Input((3,))
    shared = keras.layers.Dense(3, kernel_initializer="ones")
    out = keras.layers.Dense(2)(shared(shared(inp)))
    model = keras.Model(inp, out)
    clone = keras.models.clone_model(model)
    call = "clone_model(Model(inp, Dense(2)(d(d(inp)))))"
    assert_equal(len(clone.weights), len(model.weights), call=call, what="len(clone.weights)")
    assert_equal(len(clone.layers), len(model.layers), call=call, what="len(clone.layers)")
    clone.set_weights(model.get_weights())
    x = np.round(_rng("blind28-clone").uniform(-1, 1, (2, 3)), 3).astype(np.float32)
    assert_close(clone(tf.constant(x)), _np(model(tf.constant(x))), tolerance=EXACT, call=call,
                 what="the clone's output with the model's weights")


# -- random ops: argument bounds and ranges ----------------------------------------------------------------------------
@clause("ops.image-random", ref="tf221")
def test_blind28_random_image_ops_accept_their_bounds(tf):
    """The random image ops' argument checks (image_ops_impl.py): random_hue takes 0 <= max_delta <= 0.5 (both
    bounds included), random_brightness max_delta >= 0, random_contrast and random_saturation 0 <= lower <
    upper; anything else is a ValueError before any draw. An accepted call keeps the image's shape and dtype."""
    img = tf.constant(np.linspace(0.0, 1.0, 2 * 3 * 3, dtype=np.float32).reshape(2, 3, 3))
    ok = [("random_hue(img, 0.5)", lambda: tf.image.random_hue(img, 0.5, seed=1)),
          ("random_hue(img, 0.0)", lambda: tf.image.random_hue(img, 0.0, seed=1)),
          ("random_brightness(img, 0.0)", lambda: tf.image.random_brightness(img, 0.0, seed=1)),
          ("random_contrast(img, 0.0, 0.5)", lambda: tf.image.random_contrast(img, 0.0, 0.5, seed=1)),
          ("random_saturation(img, 0.0, 2.0)", lambda: tf.image.random_saturation(img, 0.0, 2.0, seed=1))]
    for label, run in ok:
        out = run()
        assert_equal(tuple(out.shape), (2, 3, 3), call=f"tf.image.{label}", what="the shape")
        assert_equal(out.dtype.name, "float32", call=f"tf.image.{label}", what="the dtype")
    refused = [("random_hue(img, 0.51)", lambda: tf.image.random_hue(img, 0.51, seed=1)),
               ("random_hue(img, -0.1)", lambda: tf.image.random_hue(img, -0.1, seed=1)),
               ("random_brightness(img, -0.1)", lambda: tf.image.random_brightness(img, -0.1, seed=1)),
               ("random_contrast(img, 0.5, 0.5)", lambda: tf.image.random_contrast(img, 0.5, 0.5, seed=1)),
               ("random_contrast(img, -0.1, 0.5)", lambda: tf.image.random_contrast(img, -0.1, 0.5, seed=1)),
               ("random_saturation(img, 1.0, 0.5)", lambda: tf.image.random_saturation(img, 1.0, 0.5, seed=1))]
    for label, run in refused:
        with raises(ValueError, call=f"tf.image.{label}"):
            run()


@clause("ops.experimental-numpy", ref="tf221")
def test_blind28_tnp_randint_draws_from_the_half_open_range(tf):
    """tnp.random.randint(low, high) draws integers in [low, high), and randint(n) (no high) in [0, n): over 2000
    seeded draws every value of the range appears and none outside it."""
    tnp = tf.experimental.numpy
    for args, lo, hi in (((3,), 0, 3), ((2, 5), 2, 5), ((-2, 1), -2, 1), ((1,), 0, 1)):
        tnp.random.seed(7)
        got = _np(tnp.random.randint(*args, size=2000))
        call = f"tnp.random.randint({', '.join(map(str, args))}, size=2000)"
        assert_equal(sorted(set(got.tolist())), list(range(lo, hi)), call=call, what="the values drawn")
