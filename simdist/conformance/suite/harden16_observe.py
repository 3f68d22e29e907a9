"""What ``test_harden16_*.py`` observe of the training API, as plain JSON values: one function per
area, run on the backend under test by the suite and on real TF 2.21 + Keras 3.15 by the recorder
(``python -m simdist.conformance.suite.harden16_record``), whose results are the expected values.

Every program sets its weights from a seeded NumPy generator (never a backend's initializer), so
both runs compute the same numbers. Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The hooks of keras.callbacks.Callback a recording callback implements.
HOOKS = ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
         "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
         "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end")


def plain(value: Any) -> Any:
    """A value as JSON: numbers as float (ints stay int), arrays as nested lists, dicts with sorted keys."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    a = np.asarray(value)
    if a.dtype.kind in "iub":
        return a.tolist()
    return a.astype(np.float64).tolist()


def _f32(*shape: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _set_seeded_weights(model: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, np.shape(w)).astype(np.float32) for w in model.get_weights()])


# -- area 2: callback hooks and their logs --------------------------------------------------------------------
#: name -> (model kind, fit kwargs). Kinds: "one" (Dense 3->1, mse, metrics mae), "two" (dict outputs
#: a, b with per-output metrics), "cls" (softmax over 3 classes, sparse labels, accuracy).
HOOK_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "plain": ("one", dict(epochs=2, batch_size=4)),
    "validation_data": ("one", dict(epochs=2, batch_size=4, validation_data=True)),
    "validation_split": ("one", dict(epochs=2, batch_size=4, validation_split=0.3)),
    "validation_freq": ("one", dict(epochs=3, batch_size=5, validation_data=True, validation_freq=2)),
    "initial_epoch": ("one", dict(epochs=3, batch_size=4, initial_epoch=1)),
    "steps_per_epoch": ("one", dict(epochs=2, steps_per_epoch=2, dataset=True)),
    "two_outputs": ("two", dict(epochs=2, batch_size=4, validation_data=True)),
    "class_weight": ("cls", dict(epochs=2, batch_size=4, class_weight={0: 0.5, 1: 2.0, 2: 1.5})),
    "sample_weight": ("one", dict(epochs=1, batch_size=4, sample_weight=True, validation_data=True)),
    "steps_per_execution": ("one_spe2", dict(epochs=2, batch_size=3, validation_data=True)),
    "validation_steps": ("one", dict(epochs=2, batch_size=4, validation_data=True, validation_steps=1,
                                     validation_batch_size=2)),
}


def _hook_model(keras: Any, kind: str) -> tuple[Any, Any, Any]:
    """A compiled model of one kind with seeded weights, and its x, y (10 rows)."""
    x = _f32(10, 3, seed=1)
    if kind == "two":
        inp = keras.Input((3,), name="x")
        model = keras.Model(inp, {"a": keras.layers.Dense(2, name="a")(inp), "b": keras.layers.Dense(1, name="b")(inp)})
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss={"a": "mse", "b": "mae"},
                      loss_weights={"a": 0.3, "b": 0.7}, metrics={"a": ["mae"], "b": ["mse"]})
        y = {"a": _f32(10, 2, seed=2), "b": _f32(10, 1, seed=3)}
    elif kind == "cls":
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        y = (np.arange(10) % 3).astype(np.int64)
    else:   # "one", or "one_spe2": compiled with steps_per_execution=2
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"],
                      steps_per_execution=2 if kind == "one_spe2" else 1)
        y = _f32(10, 1, seed=2)
    _set_seeded_weights(model, 7)
    return model, x, y


def _recorder(keras: Any, events: list) -> Any:
    """A Callback that appends (hook, argument, logs) for every hook, and History's epochs seen at
    each epoch end (0 while History, which runs after the user's callbacks, has not run yet)."""

    class Recorder(keras.callbacks.Callback):
        pass

    def make(hook: str) -> Any:
        indexed = "epoch" in hook or "batch" in hook   # (epoch or batch, logs); the others (logs)

        def method(self: Any, *args: Any, logs: Any = None) -> None:
            arg = args[0] if indexed and args else None
            logs = args[-1] if args and (len(args) > 1 or not indexed) else logs
            entry = [hook, arg, plain(dict(logs)) if logs is not None else None]
            if hook == "on_epoch_end":
                entry.append(len(getattr(getattr(self.model, "history", None), "epoch", []) or []))
            events.append(entry)
        return method

    for hook in HOOKS:
        setattr(Recorder, hook, make(hook))
    return Recorder()


def case_tables_hash() -> str:
    """The SHA-256 of the case tables (a recording made from other tables is stale)."""
    import hashlib  # noqa: PLC0415

    text = repr((sorted(HOOK_CASES.items()), sorted(BOOK_CASES.items()), sorted(SHAPE_CASES.items()), HOOKS,
                 PROGBAR_VERBOSITY))
    return hashlib.sha256(text.encode()).hexdigest()


def observe_hooks(tf: Any, name: str) -> dict[str, Any]:
    """fit, then evaluate and predict, with a recording callback: every hook's argument and logs,
    History's history/epoch/params, and the params the callback was given."""
    keras = tf.keras
    kind, kw = HOOK_CASES[name]
    kw = dict(kw)
    model, x, y = _hook_model(keras, kind)
    events: list = []
    rec = _recorder(keras, events)
    if kw.pop("validation_data", False):
        kw["validation_data"] = (x[:6], {k: v[:6] for k, v in y.items()} if isinstance(y, dict) else y[:6])
    if kw.pop("sample_weight", False):
        kw["sample_weight"] = np.linspace(0.5, 1.5, 10).astype(np.float32)
    if kw.pop("dataset", False):
        ds = tf.data.Dataset.from_tensor_slices((x[:8], y[:8])).batch(4).repeat()   # cut by steps_per_epoch
        hist = model.fit(ds, epochs=kw["epochs"], steps_per_epoch=kw["steps_per_epoch"], verbose=0,
                         callbacks=[rec])
    else:
        hist = model.fit(x, y, verbose=0, callbacks=[rec], shuffle=False, **kw)
    fit_params = plain(rec.params)
    fit_events = list(events)
    events.clear()
    ev = model.evaluate(x, y, batch_size=4, verbose=0, callbacks=[rec], return_dict=True)
    eval_events = list(events)
    events.clear()
    model.predict(x[:5], batch_size=2, verbose=0, callbacks=[rec])
    return {"fit_events": fit_events, "fit_params": fit_params, "history": plain(hist.history),
            "epoch": plain(hist.epoch), "history_params": plain(hist.params), "evaluate": plain(ev),
            "evaluate_events": eval_events, "predict_events": plain(events)}


PROGBAR_VERBOSITY = (1, 2)


def observe_progbar_order(keras: Any, verbose: int) -> list[str]:
    """Where ProgbarLogger sits among the callbacks: fit(verbose=...) with a callback printing a mark
    at epoch begin/end and train end; the printed lines classified (a mark, the "Epoch i/n" header,
    a progress line), runs of one kind collapsed. ProgbarLogger is appended after the user's
    callbacks, so its header follows the user's epoch-begin mark and its summary the epoch-end mark."""
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415

    x = _f32(10, 3, seed=1)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")

    class Mark(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            print(f"MARK begin {epoch}")

        def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
            print(f"MARK end {epoch}")

        def on_train_end(self, logs: Any = None) -> None:
            print("MARK train_end")

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(x, x[:, :1], batch_size=4, epochs=2, verbose=verbose, shuffle=False, callbacks=[Mark()])
    kinds: list[str] = []
    for line in buf.getvalue().replace("\r", "\n").split("\n"):
        line = line.strip("\x08 ")
        if not line:
            continue
        kind = line if line.startswith("MARK") else "header" if line.startswith("Epoch") else \
            "progress" if ("loss" in line or "step" in line) else None
        if kind and (not kinds or kinds[-1] != kind):
            kinds.append(kind)
    return kinds


# -- area 3: metrics and losses bookkeeping -------------------------------------------------------------------
#: name -> the model: outputs ("list" or "dict" of n), compile kwargs (with output names o0, o1, ...),
#: and whether a layer adds a loss (scalar or vector).
BOOK_CASES: dict[str, dict[str, Any]] = {
    "one": dict(n=1, form="single", compile=dict(loss="mse", metrics=["mae"])),
    "one_weighted": dict(n=1, form="single", compile=dict(loss="mse", metrics=["mae"], weighted_metrics=["mse"])),
    "one_add_loss_vector": dict(n=1, form="single", compile=dict(loss="mse", metrics=["mae"]), add_loss="vector"),
    "one_add_loss_scalar_only": dict(n=1, form="single", compile=dict(loss=None), add_loss="scalar"),
    "two_list": dict(n=2, form="list", compile=dict(loss=["mse", "mae"], metrics=[["mae"], ["mse"]])),
    "two_list_weights": dict(n=2, form="list", compile=dict(loss=["mse", "mae"], loss_weights=[0.3, 1.7],
                                                            metrics=[["mae", "mse"], []])),
    "two_list_one_loss": dict(n=2, form="list", compile=dict(loss="mse", metrics=["mae"])),
    "two_dict": dict(n=2, form="dict", compile=dict(loss={"o0": "mse", "o1": "mae"}, metrics={"o1": ["mse"]})),
    "two_dict_weights": dict(n=2, form="dict", compile=dict(loss={"o0": "mse", "o1": "mae"},
                                                            loss_weights={"o0": 2.0, "o1": 0.5},
                                                            metrics={"o0": ["mae"], "o1": ["mae"]},
                                                            weighted_metrics={"o0": ["mse"]})),
    "two_dict_add_loss": dict(n=2, form="dict", compile=dict(loss={"o0": "mse", "o1": "mae"},
                                                             metrics={"o0": ["mae"]}), add_loss="vector"),
    "three_list": dict(n=3, form="list", compile=dict(loss=["mse", "mae", "mse"], loss_weights=[1.0, 0.5, 0.25],
                                                      metrics=[["mae"], [], ["mse", "mae"]])),
    "three_dict": dict(n=3, form="dict", compile=dict(loss={"o0": "mse", "o1": "mse", "o2": "mae"},
                                                      metrics={"o2": ["mse"], "o0": ["mae"]})),
    "one_named_metric_objects": dict(n=1, form="single", compile=dict(
        loss="mse", metrics=[("MeanSquaredError", {"name": "m_sq"}), "mae", ("MeanAbsoluteError", {})])),
    "two_dict_named_metrics_and_accuracy": dict(n=2, form="dict", compile=dict(
        loss={"o0": "mse", "o1": "mae"}, metrics={"o0": [("MeanAbsoluteError", {"name": "first_mae"}), "accuracy"],
                                                  "o1": [("RootMeanSquaredError", {"name": "rms"})]})),
    "three_list_add_loss": dict(n=3, form="list", compile=dict(loss=["mse", "mae", "mae"],
                                                               metrics=[["mse"], ["mse"], ["mse"]]),
                                add_loss="matrix"),
}


def _metric_objects(keras: Any, spec: Any) -> Any:
    """The compile kwargs with each ("ClassName", kwargs) pair made a keras.metrics object (the tables
    hold only plain values, so their hash is stable)."""
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict):
        return getattr(keras.metrics, spec[0])(**spec[1])
    if isinstance(spec, dict):
        return {k: _metric_objects(keras, v) for k, v in spec.items()}
    if isinstance(spec, list):
        return [_metric_objects(keras, v) for v in spec]
    return spec


def _book_model(keras: Any, case: dict[str, Any]) -> tuple[Any, Any, Any]:
    n, form = case["n"], case["form"]
    x = _f32(8, 3, seed=11)
    inp = keras.Input((3,), name="x")
    h = inp
    if case.get("add_loss"):
        kind = case["add_loss"]

        class Penalty(keras.layers.Layer):
            def call(self, t: Any) -> Any:
                sq = t * t
                if kind == "scalar":
                    self.add_loss(keras.ops.mean(sq) * 0.5)
                elif kind == "vector":
                    self.add_loss(keras.ops.mean(sq, axis=-1) * 0.5)   # one value per row
                else:
                    self.add_loss(sq * 0.25)   # (batch, 3)
                return t
        h = Penalty(name="penalty")(inp)
    outs = [keras.layers.Dense(k + 1, name=f"o{k}")(h) for k in range(n)]
    if form == "single":
        model = keras.Model(inp, outs[0])
        y = _f32(8, 1, seed=12)
    elif form == "list":
        model = keras.Model(inp, outs)
        y = [_f32(8, k + 1, seed=12 + k) for k in range(n)]
    else:
        model = keras.Model(inp, {f"o{k}": o for k, o in enumerate(outs)})
        y = {f"o{k}": _f32(8, k + 1, seed=12 + k) for k in range(n)}
    _set_seeded_weights(model, 5)
    model.compile(optimizer=keras.optimizers.SGD(0.05), **_metric_objects(keras, case["compile"]))
    return model, x, y


def observe_bookkeeping(keras: Any, name: str) -> dict[str, Any]:
    """metrics_names and [m.name for m in model.metrics] before and after fit, History's keys and values,
    evaluate's list and dict, and model.losses' shapes after a call."""
    case = BOOK_CASES[name]
    out: dict[str, Any] = {}
    try:
        model, x, y = _book_model(keras, case)
        out["metrics_names_before"] = list(model.metrics_names)
        out["metrics_before"] = [m.name for m in model.metrics]
        hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    except Exception as e:  # noqa: BLE001 - compile's or fit's refusal is the observation
        return {**out, "error": type(e).__name__}
    out["metrics_names"] = list(model.metrics_names)
    out["metrics"] = [m.name for m in model.metrics]
    out["history"] = plain(hist.history)
    out["evaluate_list"] = plain(model.evaluate(x, y, batch_size=4, verbose=0))
    out["evaluate_dict"] = plain(model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True))
    model(x[:2])
    out["losses_shapes"] = [list(np.shape(v)) for v in model.losses]
    return out


# -- area 4: static output shapes -----------------------------------------------------------------------------
def _shape_cases() -> dict[str, tuple[str, dict[str, Any], list]]:
    """name -> (layer class, kwargs, input shape without the batch): a grid per family."""
    cases: dict[str, tuple[str, dict[str, Any], list]] = {}
    spatial = {1: [11], 2: [9, 10], 3: [7, 8, 6]}
    for rank in (1, 2, 3):
        sp = spatial[rank]
        for fmt in ("channels_last", "channels_first"):
            shape = sp + [2] if fmt == "channels_last" else [2] + sp
            convs = [f"Conv{rank}D", f"Conv{rank}DTranspose"] + (["SeparableConv%dD" % rank, "DepthwiseConv%dD" % rank]
                                                                 if rank < 3 else [])
            for cls in convs:
                for pad in ("valid", "same"):
                    for s, d in ((1, 1), (2, 1), (1, 2), (3, 1)):
                        if d > 1 and "Transpose" in cls and s > 1:
                            continue
                        kw = dict(kernel_size=3, strides=s, dilation_rate=d, padding=pad, data_format=fmt)
                        if not cls.startswith("Depthwise"):
                            kw["filters"] = 4
                        cases[f"{cls}-{pad}-s{s}-d{d}-{fmt}"] = (cls, kw, shape)
                if rank == 1 and fmt == "channels_last" and cls == "Conv1D":
                    cases[f"Conv1D-causal-s1-d2-{fmt}"] = (cls, dict(filters=4, kernel_size=3, padding="causal",
                                                                    dilation_rate=2), shape)
                    cases[f"Conv1D-causal-s2-d1-{fmt}"] = (cls, dict(filters=4, kernel_size=3, padding="causal",
                                                                    strides=2), shape)
            for pool in (f"MaxPooling{rank}D", f"AveragePooling{rank}D"):
                for pad in ("valid", "same"):
                    for ps, s in ((2, None), (3, 2), (2, 3), (3, 1)):
                        cases[f"{pool}-{pad}-p{ps}-s{s}-{fmt}"] = (pool, dict(pool_size=ps, strides=s, padding=pad,
                                                                             data_format=fmt), shape)
            for glob in (f"GlobalMaxPooling{rank}D", f"GlobalAveragePooling{rank}D"):
                for keep in (False, True):
                    cases[f"{glob}-keepdims{keep}-{fmt}"] = (glob, dict(keepdims=keep, data_format=fmt), shape)
            if rank > 1:
                cases[f"UpSampling{rank}D-{fmt}"] = (f"UpSampling{rank}D", dict(size=[2, 3, 1][:rank],
                                                                               data_format=fmt), shape)
                # (per-axis totals all different, so amounts applied to the wrong axis change the shape)
                crop = [[1, 2], [0, 1], [2, 2]][:rank]
                cases[f"Cropping{rank}D-{fmt}"] = (f"Cropping{rank}D", dict(cropping=crop, data_format=fmt), shape)
                padd = [[1, 2], [0, 4], [3, 3]][:rank]
                cases[f"ZeroPadding{rank}D-{fmt}"] = (f"ZeroPadding{rank}D", dict(padding=padd, data_format=fmt), shape)
        if rank == 1:
            cases["UpSampling1D"] = ("UpSampling1D", dict(size=3), sp + [2])
            cases["Cropping1D"] = ("Cropping1D", dict(cropping=[1, 3]), sp + [2])
            cases["ZeroPadding1D"] = ("ZeroPadding1D", dict(padding=[2, 1]), sp + [2])
    for i, (target, shape) in enumerate([([3, 4], [12]), ([-1, 2], [3, 4]), ([2, -1, 3], [4, 3]), ([12], [2, 3, 2])]):
        cases[f"Reshape-{i}"] = ("Reshape", dict(target_shape=target), shape)
    cases["Flatten"] = ("Flatten", {}, [3, 4, 2])
    cases["Flatten-channels_first"] = ("Flatten", dict(data_format="channels_first"), [3, 4, 2])
    cases["Permute"] = ("Permute", dict(dims=[3, 1, 2]), [3, 4, 2])
    cases["RepeatVector"] = ("RepeatVector", dict(n=4), [3])
    return cases


SHAPE_CASES = _shape_cases()


def eager_depends_on_the_cpu(name: str) -> bool:
    """Cases whose eager call TF runs or refuses depending on the host's kernels (oneDNN is on by
    default only on CPUs with AVX-512 VNNI/BF16 or AMX): a channels_first Conv/ConvTranspose (NCHW;
    on this AMD host TF 2.21 raises UnimplementedError / InvalidArgumentError) and a dilated
    ConvTranspose (Eigen's Conv2DBackpropInput: "Current CPU implementations do not yet support
    dilation rates larger than 1"). Their eager shape is not recorded; the static ones are."""
    cls, kw, _ = SHAPE_CASES[name]
    if not cls.startswith("Conv"):
        return False
    return kw.get("data_format") == "channels_first" or ("Transpose" in cls and kw.get("dilation_rate", 1) != 1)


def observe_shape(keras: Any, name: str) -> dict[str, Any]:
    """A layer's compute_output_shape((None,) + shape), the shape of its output on keras.Input(shape)
    (both from compute_output_shape in Keras) and of its output on a batch of 2 zeros (from call)
    (or the class of the error raised)."""
    cls, kw, shape = SHAPE_CASES[name]
    out: dict[str, Any] = {}
    for what, run in (("compute_output_shape", lambda layer: layer.compute_output_shape(tuple([None] + shape))),
                      ("symbolic", lambda layer: layer(keras.Input(tuple(shape))).shape),
                      ("eager", lambda layer: layer(np.zeros([2] + shape, np.float32)).shape)):
        if what == "eager" and eager_depends_on_the_cpu(name):
            continue
        layer = getattr(keras.layers, cls)(**kw)
        try:
            out[what] = [None if d is None else int(d) for d in run(layer)]
        except Exception as e:  # noqa: BLE001 - TF's refusal is the observation
            out[what] = f"error: {type(e).__name__}"
    return out


def differences(got: Any, want: Any, path: str = "", rtol: float = 1e-5, atol: float = 1e-6) -> list[str]:
    """Where an observation differs from the recorded one: strings, ints, keys and lengths exactly,
    floats within rtol/atol (summation order moves the last bits); each as `path: got ..., want ...`."""
    if isinstance(want, dict) and isinstance(got, dict):
        if sorted(got) != sorted(want):
            return [f"{path or '/'}: keys {sorted(got)}, but should be {sorted(want)}"]
        return [d for k in sorted(want) for d in differences(got[k], want[k], f"{path}/{k}", rtol, atol)]
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{path}: length {len(got)} ({str(got)[:200]}), but should be {len(want)} ({str(want)[:200]})"]
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in differences(g, w, f"{path}[{i}]", rtol, atol)]
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if abs(got - want) <= atol + rtol * abs(want) or (np.isnan(got) and np.isnan(want)):
            return []
        return [f"{path}: {got!r}, but should be {want!r}"]
    if type(got) is not type(want) or got != want:
        return [f"{path}: {str(got)[:200]}, but should be {str(want)[:200]}"]
    return []
