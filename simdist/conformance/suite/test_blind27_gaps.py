"""Gaps the twenty-seventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one option value or
one input only (a forward accumulator's JVPs of whole variables but never of gathered rows, LeakyReLU through
`negative_slope` but never its deprecated `alpha=`, xdivy's gradient away from x = 0, AUC of predictions inside
[0, 1], ...), so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
EXACT = Tolerance(rtol=0.0, atol=0.0)
TOL32 = Tolerance(rtol=2e-6, atol=1e-6)


def _np(x):
    return np.asarray(to_numpy(x))


# -- forward accumulators: rows read from a variable, and one accumulator entered once at a time --------------------
@clause("autodiff.jacobian", ref="tf221")
def test_blind27_forward_accumulator_tangents_of_variable_rows(tf, budget):
    """The JVP of rows read from a watched variable is those rows of its tangent, whichever spelling reads them
    (tf.gather of the variable or of its value, with 1-D or 2-D or repeated or empty indices, on a 1-D or 2-D
    variable; tf.nn.embedding_lookup), and it flows on through the ops after the read."""
    v1 = np.array([1.0, 2.0, 3.0, 4.0])
    t1 = np.array([1.0, 10.0, 100.0, 1000.0])
    v2 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    t2 = np.array([[0.5, -1.0], [2.0, 0.25], [-3.0, 8.0]])
    cases = [("tf.gather(v, [2, 0])", v1, t1, lambda tf, v: tf.gather(v, [2, 0]), lambda t: t[[2, 0]]),
             ("tf.gather(v, [[1], [3]]) * 2", v1, t1, lambda tf, v: tf.gather(v, [[1], [3]]) * 2.0,
              lambda t: 2.0 * t[[[1], [3]]]),
             ("tf.gather(v, [1, 1, 1])", v1, t1, lambda tf, v: tf.gather(v, [1, 1, 1]), lambda t: t[[1, 1, 1]]),
             ("tf.nn.embedding_lookup(v, [3, 0, 3])", v1, t1, lambda tf, v: tf.nn.embedding_lookup(v, [3, 0, 3]),
              lambda t: t[[3, 0, 3]]),
             ("tf.gather(v.read_value(), [2])", v1, t1, lambda tf, v: tf.gather(v.read_value(), [2]), lambda t: t[[2]]),
             ("tf.gather(v2d, [2, 0])", v2, t2, lambda tf, v: tf.gather(v, [2, 0]), lambda t: t[[2, 0]]),
             ("tf.nn.embedding_lookup(v2d, [[1, 2]])", v2, t2, lambda tf, v: tf.nn.embedding_lookup(v, [[1, 2]]),
              lambda t: t[[[1, 2]]]),
             ("reduce_sum(tf.gather(v2d, [1]) ** 2)", v2, t2, lambda tf, v: tf.reduce_sum(tf.gather(v, [1]) ** 2.0),
              lambda t: np.sum(2.0 * v2[1] * t[1])),
             ("tf.gather(v, [])", v1, t1, lambda tf, v: tf.gather(v, tf.constant([], tf.int32)),
              lambda t: t[np.array([], int)])]
    for label, value, tangent, read, want in budget(cases):
        v = tf.Variable(value)
        with tf.autodiff.ForwardAccumulator(v, tf.constant(tangent)) as acc:
            out = read(tf, v)
        call = f"ForwardAccumulator(v, t) over {label}"
        got = acc.jvp(out)
        assert_true(got is not None, f"acc.jvp(out) is None, but should be the rows' tangent {want(tangent)!r}",
                    call=call)
        assert_close(got, want(tangent), tolerance=EXACT, call=call, what="acc.jvp(out)")


@clause("autodiff.jacobian", ref="tf221")
def test_blind27_forward_accumulator_is_entered_once_at_a_time(tf):
    """Entering an accumulator that is recording raises ValueError("Accumulator is already recording.") and
    leaves it recording; once it has exited it may be entered again, and both stretches' JVPs are kept."""
    x = tf.constant(2.0, tf.float64)
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant(1.0, tf.float64))
    call = "with acc: with acc: (a recording ForwardAccumulator entered again)"
    with acc:
        with raises(ValueError, match="Accumulator is already recording", call=call):
            with acc:
                pass
        y = x * x * x
    assert_close(acc.jvp(y), 12.0, tolerance=EXACT, call=call, what="acc.jvp(x ** 3) after the refused entry")
    with acc:
        z = x * 5.0
    call = "with acc: ... then with acc: again (entered after it exited)"
    assert_close(acc.jvp(z), 5.0, tolerance=EXACT, call=call, what="acc.jvp(5 x) of the second stretch")
    assert_close(acc.jvp(y), 12.0, tolerance=EXACT, call=call, what="acc.jvp(x ** 3) of the first stretch")
    w = x * 7.0
    assert_true(acc.jvp(w) is None, f"acc.jvp(7 x computed outside)={acc.jvp(w)!r}, but should be None", call=call)


# -- LeakyReLU's slope, every spelling ---------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
def test_blind27_leaky_relu_slope_in_every_spelling(tf, budget):
    """x where x >= 0, else slope * x, whether the slope is given to the layer as `negative_slope` or by its
    deprecated name `alpha` (Keras 3.15 takes alpha's value, with a warning), to keras.activations.leaky_relu
    or to tf.nn.leaky_relu (`alpha`); the layer's attribute and config hold the slope given."""
    import warnings
    keras = tf.keras
    x = np.array([[-2.0, -0.5, 0.0, 0.5, 3.0]], np.float32)
    for slope in budget([0.1, 0.0, 0.5, 1.0]):
        want = np.where(x >= 0, x, np.float32(slope) * x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            by_alpha = keras.layers.LeakyReLU(alpha=slope)
        by_name = keras.layers.LeakyReLU(negative_slope=slope)
        spellings = [("keras.layers.LeakyReLU(alpha=s)", by_alpha(x)),
                     ("keras.layers.LeakyReLU(negative_slope=s)", by_name(x)),
                     ("LeakyReLU.from_config(LeakyReLU(alpha=s).get_config())",
                      keras.layers.LeakyReLU.from_config(by_alpha.get_config())(x)),
                     ("keras.activations.leaky_relu(x, negative_slope=s)",
                      keras.activations.leaky_relu(tf.constant(x), negative_slope=slope)),
                     ("tf.nn.leaky_relu(x, alpha=s)", tf.nn.leaky_relu(tf.constant(x), alpha=slope))]
        for label, got in spellings:
            assert_close(got, want, tolerance=EXACT, call=f"{label} with s={slope}")
        for label, layer in (("alpha", by_alpha), ("negative_slope", by_name)):
            call = f"keras.layers.LeakyReLU({label}={slope})"
            assert_close(layer.negative_slope, slope, tolerance=EXACT, call=call, what="layer.negative_slope")
            assert_close(layer.get_config()["negative_slope"], slope, tolerance=EXACT, call=call,
                         what="get_config()['negative_slope']")


# -- MonitorCallback's min_delta: its size counts, not its sign ---------------------------------------------------
def _early_stopping_run(values: list, mode: str, min_delta: float, patience: int) -> tuple:
    """Keras 3.15's EarlyStopping.on_epoch_end over a sequence of monitored values: wait += 1; an improvement
    (min: value + |min_delta| < best; max: value - |min_delta| > best; the first value always) sets best and
    wait = 0; else wait >= patience (after epoch 0) stops. Returns (stopped_epoch, best, wait, epochs run)."""
    d = abs(min_delta)
    best, wait, stopped = None, 0, 0
    for epoch, v in enumerate(values):
        wait += 1
        better = best is None or (v + d < best if mode == "min" else v - d > best)
        if better:
            best, wait = v, 0
            continue
        if wait >= patience and epoch > 0:
            return epoch, best, wait, epoch + 1
    return stopped, best, wait, len(values)


@clause("keras.callback.early-stopping", ref="tf221")
def test_blind27_min_delta_counts_by_its_size_not_its_sign(tf, budget):
    """EarlyStopping (and ReduceLROnPlateau, both Keras 3.15 MonitorCallbacks) take abs(min_delta): a negative
    min_delta given for a loss (or a maximized metric) demands the same margin as the positive one, so the
    stopping epoch, the best value kept and the learning rate cut are those of |min_delta|."""
    keras = tf.keras
    losses = [1.0, 0.8, 0.7, 0.65, 0.62, 0.61, 0.2, 0.19]
    scores = [0.1, 0.3, 0.35, 0.38, 0.39, 0.9, 0.91, 0.92]
    cases = [("loss", "min", losses, d, p) for d in (-0.15, 0.15, -0.05, 0.0) for p in (1, 2)] + \
            [("acc", "max", scores, d, p) for d in (-0.1, 0.1) for p in (1, 2)] + \
            [("loss", "auto", losses, -0.15, 1)]
    for monitor, mode, values, d, patience in budget(cases):
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        es = keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, min_delta=d, patience=patience)
        model.stop_training = False   # (fit sets it; a Keras 3.15 model has no such attribute before)
        es.set_model(model)
        es.on_train_begin()
        ran = 0
        for epoch, v in enumerate(values):
            es.on_epoch_end(epoch, {monitor: v})
            ran = epoch + 1
            if model.stop_training:
                break
        stopped, best, wait, want_ran = _early_stopping_run(values, "max" if mode == "max" else "min", d, patience)
        call = f"EarlyStopping(monitor={monitor!r}, mode={mode!r}, min_delta={d}, patience={patience}) over {values}"
        assert_equal(ran, want_ran, call=call, what="epochs run before stop_training")
        assert_equal(es.stopped_epoch, stopped, call=call, what="stopped_epoch")
        assert_close(es.best, best, tolerance=EXACT, call=call, what="best")
        assert_equal(es.wait, wait, call=call, what="wait")
    # ReduceLROnPlateau: min_delta=-0.15 cuts the rate exactly where min_delta=0.15 does
    lrs = {}
    for d in (0.15, -0.15):
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(1.0), loss="mse")
        cb = keras.callbacks.ReduceLROnPlateau(monitor="loss", min_delta=d, patience=1, factor=0.5, min_lr=0.0)
        cb.set_model(model)
        cb.on_train_begin()
        seen = []
        for epoch, v in enumerate(losses):
            cb.on_epoch_end(epoch, {"loss": v})
            seen.append(float(_np(model.optimizer.learning_rate)))
        lrs[d] = seen
    assert_close(lrs[-0.15], lrs[0.15], tolerance=EXACT,
                 call=f"ReduceLROnPlateau(min_delta=-0.15 vs 0.15, patience=1, factor=0.5) over {losses}",
                 what="the learning rate after each epoch")


# -- the x-functions' gradients where x = 0 --------------------------------------------------------------------
@clause("ops.xfunctions", ref="tf221")
def test_blind27_xfunction_gradients_vanish_where_x_is_zero(tf, budget):
    """TF's _XLogyGrad, _XLog1pyGrad and _XDivyGrad: the x-partial is f(x != 0, y) (0 where x = 0, also where
    y = 0), the y-partial x / y, x / (y + 1) and -x / y**2 through xdivy (0 where x = 0); upstream weights
    applied, broadcast inputs summed back."""
    x = np.array([0.0, 0.0, 2.0, -1.5, 3.0, 0.0])
    y = np.array([2.0, 0.0, 4.0, 0.5, 0.0, -1.0])
    g = np.array([1.0, 2.0, 3.0, -1.0, 0.5, 4.0])
    nz = (x != 0).astype(np.float64)

    def xdivy(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a == 0, 0.0, a / b)

    def xlogy(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a == 0, 0.0, a * np.log(b))

    def xlog1py(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a == 0, 0.0, a * np.log1p(b))
    cases = [("tf.math.xdivy", lambda tf: tf.math.xdivy, xdivy(nz, y), xdivy(-x, y ** 2)),
             ("tf.math.xlogy", lambda tf: tf.math.xlogy, xlogy(nz, y), xdivy(x, y)),
             ("tf.math.xlog1py", lambda tf: tf.math.xlog1py, xlog1py(nz, y), xdivy(x, y + 1.0))]
    for label, fn, want_x, want_y in budget(cases):
        xv, yv = tf.Variable(x), tf.Variable(y)
        with tf.GradientTape() as tape:
            out = fn(tf)(xv, yv)
        gx, gy = tape.gradient(out, [xv, yv], output_gradients=tf.constant(g))
        call = f"GradientTape gradient of {label}(x, y) at x={x.tolist()}, y={y.tolist()}"
        assert_close(gx, g * want_x, tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="d/dx")
        assert_close(gy, g * want_y, tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="d/dy")
        # a scalar y broadcast over x: its partials summed
        xs, ys = tf.Variable(np.array([0.0, 0.0, 1.5])), tf.Variable(2.0, dtype=tf.float64)
        with tf.GradientTape() as tape:
            out = fn(tf)(xs, ys)
        gx, gy = tape.gradient(out, [xs, ys])
        xn = np.array([0.0, 0.0, 1.5])
        wx = {"tf.math.xdivy": np.where(xn == 0, 0.0, 1 / 2.0), "tf.math.xlogy": np.where(xn == 0, 0.0, np.log(2.0)),
              "tf.math.xlog1py": np.where(xn == 0, 0.0, np.log1p(2.0))}[label]
        wy = {"tf.math.xdivy": np.sum(-xn / 4.0), "tf.math.xlogy": np.sum(xn / 2.0),
              "tf.math.xlog1py": np.sum(xn / 3.0)}[label]
        call = f"GradientTape gradient of {label}(x, scalar y) at x=[0, 0, 1.5], y=2"
        assert_close(gx, wx, tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="d/dx")
        assert_close(gy, wy, tolerance=Tolerance(rtol=1e-12, atol=0.0), call=call, what="d/dy (summed)")


# -- confusion-matrix metrics of predictions outside [0, 1] -----------------------------------------------------
def _confusion(y: np.ndarray, p: np.ndarray, thresholds: np.ndarray) -> dict:
    """Counts at each threshold of predictions clipped to [0, 1] (Keras 3.15: prediction > threshold is
    positive; the evenly spaced thresholds' fast path clips first, which the comparison with thresholds
    -eps ... 1 + eps makes equivalent for the explicit ones)."""
    pc = np.clip(p, 0.0, 1.0).astype(np.float32)
    pos = pc[None, :] > thresholds.astype(np.float32)[:, None]
    yt = (y > 0)[None, :]
    return {"true_positives": np.sum(pos & yt, 1), "false_positives": np.sum(pos & ~yt, 1),
            "true_negatives": np.sum(~pos & ~yt, 1), "false_negatives": np.sum(~pos & yt, 1)}


@clause("keras.metric.auc", ref="tf221")
def test_blind27_confusion_metrics_clip_predictions_outside_the_unit_interval(tf, budget):
    """AUC's confusion counts (evenly spaced thresholds: Keras's bucketed fast path, which clips predictions to
    [0, 1]) and explicit-threshold metrics count a prediction below 0 as 0 and one above 1 as 1 at every
    threshold, so AUC of the raw predictions equals AUC of the clipped ones."""
    keras = tf.keras
    eps = 1e-7
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0], np.float32)
    p = np.array([-0.5, 1.5, 0.37, 0.81, 2.0, -3.0, 0.52, 0.05], np.float32)
    for n in budget([200, 3, 7]):
        thresholds = np.array([-eps] + [i / (n - 1) for i in range(1, n - 1)] + [1.0 + eps])
        want = _confusion(y, p, thresholds)
        for curve in ("ROC", "PR"):
            m = keras.metrics.AUC(num_thresholds=n, curve=curve)
            m.update_state(y, p)
            call = f"AUC(num_thresholds={n}, curve={curve!r}).update_state(y, p) with p={p.tolist()}"
            for name, counts in want.items():
                assert_close(getattr(m, name), counts, tolerance=EXACT, call=call, what=name)
            clipped = keras.metrics.AUC(num_thresholds=n, curve=curve)
            clipped.update_state(y, np.clip(p, 0.0, 1.0))
            assert_close(m.result(), _np(clipped.result()), tolerance=EXACT, call=call,
                         what="AUC of the raw predictions (against AUC of the clipped ones)")
    explicit = [0.2, 0.5, 0.9]
    kinds = ((keras.metrics.TruePositives, "true_positives"), (keras.metrics.FalsePositives, "false_positives"),
             (keras.metrics.TrueNegatives, "true_negatives"), (keras.metrics.FalseNegatives, "false_negatives"))
    for cls, name in kinds:
        m = cls(thresholds=explicit)
        m.update_state(y, p)
        assert_close(m.result(), _confusion(y, p, np.array(explicit))[name], tolerance=EXACT,
                     call=f"keras.metrics.{cls.__name__}(thresholds={explicit}).update_state(y, p)", what="result()")


# -- check_numerics checks the gradient it passes back; assert_all_finite does not --------------------------------
@clause("ops.check-numerics-callback", ref="tf221")
def test_blind27_check_numerics_checks_its_gradient(tf, budget):
    """tf.debugging.check_numerics passes a finite gradient through unchanged and fails on a NaN or infinite
    one with InvalidArgumentError "Not a number (NaN) or infinity (Inf) values detected in gradient. <message>"
    (TF's _CheckNumericsGrad), however the bad value arises; tf.debugging.assert_all_finite runs the op for its
    check only and returns its input (with_dependencies), so the gradient through it is the plain one, NaN or
    infinite values included."""
    x0 = np.array([0.0, 4.0, 1.0])
    with np.errstate(divide="ignore"):
        cases = [("sqrt at 0 (an infinite upstream)", lambda tf, c: tf.sqrt(c), None, 0.5 / np.sqrt(x0)),
                 ("log at 0 (an infinite upstream)", lambda tf, c: tf.math.log(c + 0.0), None, 1.0 / x0),
                 ("a NaN output gradient", lambda tf, c: c * 2.0, [np.nan, 1.0, 1.0], np.array([np.nan, 2.0, 2.0])),
                 ("an infinite output gradient", lambda tf, c: c * 2.0, [1.0, -np.inf, 1.0],
                  np.array([2.0, -np.inf, 2.0])),
                 ("a finite output gradient", lambda tf, c: c * 2.0, [1.0, -3.0, 0.5], np.array([2.0, -6.0, 1.0])),
                 ("square (finite)", lambda tf, c: c * c, None, 2.0 * x0)]
    for label, f, og, want in budget(cases):
        for name in ("check_numerics", "assert_all_finite"):
            x = tf.Variable(x0)
            with tf.GradientTape() as tape:
                checked = getattr(tf.debugging, name)(x, "my message")
                out = f(tf, checked)
            call = f"gradient through tf.debugging.{name}(x, 'my message') of {label}"
            ogt = None if og is None else tf.constant(np.array(og))
            if name == "check_numerics" and not np.all(np.isfinite(want)):
                with raises(tf.errors.InvalidArgumentError, match=r"values detected in gradient\. .*my message",
                            call=call):
                    tape.gradient(out, x, output_gradients=ogt)
            else:
                assert_close(tape.gradient(out, x, output_gradients=ogt), want, tolerance=EXACT, call=call,
                             what="the gradient (passed through)")


# -- |z|'s gradient at z = 0 -------------------------------------------------------------------------------------
@clause("ops.complex", ref="tf221")
def test_blind27_abs_gradient_at_zero(tf, budget):
    """TF's _ComplexAbsGrad: d|z| passes g * z / |z| back as a complex gradient, div_no_nan making it 0 at
    z = 0 (complex64 and complex128, tf.abs and tf.math.abs); a real |x| has gradient sign(x) * g, 0 at 0."""
    z = np.array([0 + 0j, 3 + 4j, -1 + 0j, 0 - 2j, 0 + 0j])
    g = np.array([1.0, 2.0, -1.0, 0.5, 3.0])
    with np.errstate(invalid="ignore", divide="ignore"):
        want = np.where(z == 0, 0, g * z / np.abs(z))
    for dt, fn in budget([("complex64", "abs"), ("complex128", "abs"), ("complex128", "math.abs")]):
        v = tf.Variable(tf.constant(z, getattr(tf, dt)))
        with tf.GradientTape() as tape:
            out = (tf.abs if fn == "abs" else tf.math.abs)(v)
        got = _np(tape.gradient(out, v, output_gradients=tf.constant(g, out.dtype)))
        call = f"gradient of tf.{fn}(z) for {dt} z={z.tolist()}"
        tol = Tolerance(rtol=1e-6, atol=1e-7) if dt == "complex64" else Tolerance(rtol=1e-12, atol=0.0)
        assert_close(got.real, want.real, tolerance=tol, call=call, what="real part of the gradient")
        assert_close(got.imag, want.imag, tolerance=tol, call=call, what="imaginary part of the gradient")
    xr = tf.Variable(np.array([0.0, -2.0, 3.0]))
    with tf.GradientTape() as tape:
        out = tf.abs(xr)
    assert_close(tape.gradient(out, xr), [0.0, -1.0, 1.0], tolerance=EXACT, call="gradient of tf.abs(x), real x",
                 what="sign(x)")


# -- the fit loop: weights given twice, and the optimizer's loss_scale_factor ------------------------------------
def _model(keras, seed=1):
    keras.utils.set_random_seed(seed)
    return keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])


_X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.0]], np.float32)
_Y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)


@clause("keras.fit.data", ref="tf221")
def test_blind27_sample_weight_and_class_weight_together_are_refused(tf):
    """fit and train_on_batch refuse sample_weight and class_weight together (ValueError, Keras 3.15), and
    class_weight alone weighs each sample by its label's class, as the equivalent sample_weight does."""
    keras = tf.keras
    sw = np.array([1.0, 2.0, 1.0, 2.0], np.float32)
    cw = {0: 2.0, 1: 1.0}
    for label, run in (("train_on_batch", lambda m: m.train_on_batch(_X, _Y, sample_weight=sw, class_weight=cw)),
                       ("fit", lambda m: m.fit(_X, _Y, sample_weight=sw, class_weight=cw, epochs=1, verbose=0))):
        m = _model(keras)
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        with raises(ValueError, match="class_weight", call=f"{label}(x, y, sample_weight=sw, class_weight=cw)"):
            run(m)
    by_class, by_weight = _model(keras), _model(keras)
    for m in (by_class, by_weight):
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    a = by_class.train_on_batch(_X, _Y, class_weight=cw)
    b = by_weight.train_on_batch(_X, _Y, sample_weight=np.array([cw[int(c)] for c in _Y[:, 0]], np.float32))
    call = "train_on_batch(x, y, class_weight={0: 2, 1: 1}) against sample_weight by class"
    assert_close(a, b, tolerance=EXACT, call=call, what="the loss")
    assert_close(by_class.layers[0].kernel, _np(by_weight.layers[0].kernel), tolerance=EXACT, call=call,
                 what="the kernel after the step")


@clause("optim.option-coverage", ref="tf221")
def test_blind27_loss_scale_factor_cancels_in_every_training_spelling(tf, budget):
    """With loss_scale_factor f (a power of 2: exact in float32) the training step multiplies the loss by f
    before the gradient and the optimizer divides the gradients by f: fit, train_on_batch and a custom loop
    (optimizer.scale_loss, then apply_gradients) train exactly as without it, and fit logs the unscaled loss."""
    keras = tf.keras
    for f in budget([4.0, 0.5, 1024.0]):
        def make(scale):
            m = _model(keras)
            opt = keras.optimizers.SGD(0.1, loss_scale_factor=scale) if scale else keras.optimizers.SGD(0.1)
            m.compile(optimizer=opt, loss="mse")
            return m
        plain, scaled = make(None), make(f)
        hp = plain.fit(_X, _Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
        hs = scaled.fit(_X, _Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
        call = f"fit with SGD(0.1, loss_scale_factor={f}) against SGD(0.1)"
        for a, b, what in ((scaled.layers[0].kernel, plain.layers[0].kernel, "kernel"),
                           (scaled.layers[0].bias, plain.layers[0].bias, "bias")):
            assert_close(a, _np(b), tolerance=EXACT, call=call, what=what)
        assert_close(hs.history["loss"], hp.history["loss"], tolerance=EXACT, call=call, what="history['loss']")
        plain, scaled = make(None), make(f)
        for m in (plain, scaled):
            m.train_on_batch(_X, _Y)
        assert_close(scaled.layers[0].kernel, _np(plain.layers[0].kernel), tolerance=EXACT,
                     call=f"train_on_batch with loss_scale_factor={f}", what="kernel")
        v_plain, v_scaled = tf.Variable([1.0, -2.0]), tf.Variable([1.0, -2.0])
        for v, opt in ((v_plain, keras.optimizers.SGD(0.1)),
                       (v_scaled, keras.optimizers.SGD(0.1, loss_scale_factor=f))):
            with tf.GradientTape() as tape:
                loss = opt.scale_loss(tf.reduce_sum(v * v * tf.constant([3.0, 0.5])))
            opt.apply_gradients([(tape.gradient(loss, v), v)])
        assert_close(v_scaled, _np(v_plain), tolerance=EXACT,
                     call=f"custom loop: opt.scale_loss(loss), apply_gradients, loss_scale_factor={f}", what="v")


# -- keras.random at the edges: dropout at rate 1, shuffle along any axis ----------------------------------------
@clause("keras.random.distributions", ref="tf221")
def test_blind27_keras_random_dropout_and_shuffle_edges(tf, budget):
    """keras.random.dropout at rate 1 returns zeros of the input's shape (at rate 0 the input), and the Dropout
    layer at rate 1 in training too; keras.random.shuffle(x, axis=k) permutes x along axis k only: every slice
    along k is moved whole, the result is a permutation of the slices, the same seed gives the same order."""
    keras = tf.keras
    x = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
    assert_close(keras.random.dropout(tf.constant(x), 1.0, seed=1), np.zeros_like(x), tolerance=EXACT,
                 call="keras.random.dropout(x, rate=1.0, seed=1)")
    assert_close(keras.random.dropout(tf.constant(x), 0.0, seed=1), x, tolerance=EXACT,
                 call="keras.random.dropout(x, rate=0.0, seed=1)")
    assert_close(keras.layers.Dropout(1.0, seed=3)(x, training=True), np.zeros_like(x), tolerance=EXACT,
                 call="keras.layers.Dropout(1.0)(x, training=True)")
    cube = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    for axis in budget([1, 2, 0, -1]):
        out = _np(keras.random.shuffle(cube, axis=axis, seed=5))
        call = f"keras.random.shuffle(x of shape (2, 3, 4), axis={axis}, seed=5)"
        assert_equal(out.shape, cube.shape, call=call, what="out.shape")
        ax = axis % 3
        moved = np.moveaxis(cube, ax, 0)
        got = np.moveaxis(out, ax, 0)
        order = []
        for s in got:
            hits = [i for i, c in enumerate(moved) if np.array_equal(c, s)]
            assert_true(len(hits) == 1, f"a slice along axis {axis} of the output, {s.tolist()}, is not a slice of "
                        "the input along that axis (only whole slices may move)", call=call)
            order.append(hits[0])
        assert_equal(sorted(order), list(range(cube.shape[ax])), call=call, what="the slices' source positions")
        again = _np(keras.random.shuffle(cube, axis=axis, seed=5))
        assert_close(again, out, tolerance=EXACT, call=call + " twice", what="the second shuffle")


# -- tf.Module collects variables in sorted attribute and key order, its own before its submodules' ---------------
@clause("keras.layer.tracking", ref="tf221")
def test_blind27_module_variables_follow_sorted_keys(tf):
    """tf.Module.variables (and trainable_variables, submodules), TF's _flatten_module: a module's own leaves
    first, its attributes in sorted name order, each flattened as tf.nest does (a dict's values by sorted key,
    whatever order they were set in; a list in its order), then each submodule met among them, in that order,
    the same way, at every depth."""
    class Inner(tf.Module):
        def __init__(self, name, deeper=None):
            super().__init__(name=name)
            self.w = tf.Variable(0.0, name=name + "_w")
            if deeper is not None:
                self.a_deeper = deeper

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.zeta = tf.Variable(1.0, name="zeta")
            self.table = {"b": tf.Variable(2.0, name="b"), "a": tf.Variable(3.0, name="a"),
                          "c": tf.Variable(4.0, name="c", trainable=False)}
            self.alpha = [tf.Variable(5.0, name="l1"), tf.Variable(6.0, name="l0")]
            self.mods = {"y": Inner("y", Inner("yy")), "x": Inner("x")}
    m = M()
    names = lambda vs: [v.name.split(":")[0] for v in vs]  # noqa: E731
    call = ("tf.Module with attributes zeta, table={'b', 'a', 'c'}, alpha=[l1, l0], mods={'y': y (holding yy), "
            "'x': x} set in that order")
    # own leaves: alpha (l1, l0), mods (modules x, y: queued), table (a, b, c), zeta; then x, then y (y_w, then yy)
    assert_equal(names(m.variables), ["l1", "l0", "a", "b", "c", "zeta", "x_w", "y_w", "yy_w"], call=call,
                 what="variables")
    assert_equal(names(m.trainable_variables), ["l1", "l0", "a", "b", "zeta", "x_w", "y_w", "yy_w"], call=call,
                 what="trainable_variables")
    assert_equal([s.name for s in m.submodules], ["x", "y", "yy"], call=call, what="submodules' names")


# -- tf.function's trace count of variable arguments -------------------------------------------------------------
@clause("function.tracing-count", ref="tf221")
def test_blind27_tracing_count_of_variable_arguments(tf):
    """A tf.function traces once per variable spec (dtype, shape and trainable: TF's VariableSpec), not per
    variable object: two float32 scalars share a trace, as do two vectors or two non-trainable scalars; a float64
    scalar and a tensor of the first spec each take their own."""
    f = tf.function(lambda v: v * 2)
    steps = [("a float32 scalar variable", lambda: tf.Variable(1.0), 1),
             ("another float32 scalar variable", lambda: tf.Variable(2.0, name="other"), 1),
             ("a float32 vector variable", lambda: tf.Variable([1.0, 2.0]), 2),
             ("another float32 vector variable", lambda: tf.Variable([3.0, 4.0]), 2),
             ("a float32 scalar variable, trainable=False", lambda: tf.Variable(3.0, trainable=False), 3),
             ("another one, trainable=False", lambda: tf.Variable(4.0, trainable=False), 3),
             ("a float64 scalar variable", lambda: tf.Variable(1.0, dtype=tf.float64), 4),
             ("a float32 scalar tensor", lambda: tf.constant(1.0), 5)]
    done = []
    for label, make, want in steps:
        f(make())
        done.append(label)
        assert_equal(int(f.experimental_get_tracing_count()), want, call="f = tf.function(lambda v: v * 2) called on "
                     + ", then ".join(done), what="f.experimental_get_tracing_count()")


# -- safe_embedding_lookup_sparse's empty rows -------------------------------------------------------------------
@clause("nn.embedding-max-norm", ref="tf221")
def test_blind27_safe_embedding_lookup_empty_rows(tf, budget):
    """tf.nn.safe_embedding_lookup_sparse: a row with no (valid) id is zeros without default_id, and
    default_id's embedding with it; ids < 0 are dropped first (a row of them only is empty), weights <= 0 too
    unless the combiner is "sum"; each combiner over the rest (NumPy below)."""
    w = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [-1.0, 0.5]])
    rows = [[1, 3], [], [2], [-1], [0, 0, 2]]
    wts = [[0.5, 2.0], [], [1.5], [1.0], [1.0, -1.0, 3.0]]
    idx = [[r, k] for r, ids in enumerate(rows) for k in range(len(ids))]
    flat = [i for ids in rows for i in ids]
    flat_w = [x for ws in wts for x in ws]

    def want(combiner, weighted, default_id):
        out = []
        for ids, ws in zip(rows, wts):
            ws = ws if weighted else [1.0] * len(ids)
            keep = [(i, x) for i, x in zip(ids, ws) if i >= 0 and (combiner == "sum" or not weighted or x > 0)]
            if not keep:
                out.append(w[default_id] if default_id is not None else np.zeros(2))
                continue
            vec = sum(x * w[i] for i, x in keep)
            den = {"sum": 1.0, "mean": sum(x for _, x in keep), "sqrtn": np.sqrt(sum(x * x for _, x in keep))}[combiner]
            out.append(vec / den)
        return np.array(out)
    for combiner, weighted, default_id in budget([("mean", False, None), ("sum", True, None), ("sqrtn", True, None),
                                                  ("mean", True, 3), ("sum", False, 0)]):
        sp = tf.SparseTensor(idx, tf.constant(flat, tf.int64), [len(rows), 3])
        spw = tf.SparseTensor(idx, tf.constant(flat_w, tf.float64), [len(rows), 3]) if weighted else None
        got = tf.nn.safe_embedding_lookup_sparse(tf.constant(w), sp, spw, combiner=combiner, default_id=default_id)
        call = (f"tf.nn.safe_embedding_lookup_sparse(w, ids={rows}, weights={wts if weighted else None}, "
                f"combiner={combiner!r}, default_id={default_id})")
        assert_close(got, want(combiner, weighted, default_id), tolerance=Tolerance(rtol=1e-12, atol=1e-12), call=call)
