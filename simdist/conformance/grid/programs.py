"""The training grid's programs: a seeded pairwise enumeration of small training programs.

Each :class:`Case` is a program written against the TF API (``tf``, ``np``, ``backend`` bound,
as :class:`simdist.conformance.repro.Program` runs it) that trains a tiny model for 2-3 epochs
or steps and fills the dict ``obs`` with what a user can observe: the loss and every weight
after each step, fit's History, predict and evaluate, the optimizer's variables (iterations,
slots, EMA copies, accumulators), gradients from a tape, weights restored from files.

The configurations come from factors (model, loss, optimizer, a base optimizer option,
strategy, how data is fed, callbacks, dtype policy, training mode, persistence, metrics)
combined so that every pair of levels of two factors that can meet appears in some program
(a greedy covering with a fixed seed: the enumeration is computed, never drawn at run time).
:func:`cases` is the grid; :func:`case_hash` identifies a case's program and data, so the
recorded reference says when it is stale.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Bumped when the program template changes meaning without changing its text.
TEMPLATE_VERSION = 1

# name -> (input kind, input shape, hidden layer lines; each line maps `h` to the next `h`)
ARCHS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "dense_relu": ("float", (4,), ("h = tf.keras.layers.Dense(5, activation='relu')(h)",)),
    "dense_tanh_sigmoid": ("float", (4,), ("h = tf.keras.layers.Dense(4, activation='tanh')(h)",
                                           "h = tf.keras.layers.Dense(3, activation='sigmoid')(h)")),
    "conv1d_same_gap": ("float", (6, 2), ("h = tf.keras.layers.Conv1D(3, 3, padding='same', activation='relu')(h)",
                                          "h = tf.keras.layers.GlobalAveragePooling1D()(h)")),
    "conv2d_maxpool": ("float", (4, 4, 1), ("h = tf.keras.layers.Conv2D(2, 2, activation='relu')(h)",
                                            "h = tf.keras.layers.MaxPooling2D(2)(h)",
                                            "h = tf.keras.layers.Flatten()(h)")),
    "conv2d_stride_avgpool": ("float", (5, 5, 2), ("h = tf.keras.layers.Conv2D(3, 3, strides=2, padding='same')(h)",
                                                   "h = tf.keras.layers.AveragePooling2D(2, padding='same')(h)",
                                                   "h = tf.keras.layers.Flatten()(h)")),
    "batchnorm": ("float", (4,), ("h = tf.keras.layers.Dense(4)(h)",
                                  "h = tf.keras.layers.BatchNormalization(momentum=0.5)(h)",
                                  "h = tf.keras.layers.Activation('relu')(h)")),
    "layernorm": ("float", (4,), ("h = tf.keras.layers.Dense(4)(h)",
                                  "h = tf.keras.layers.LayerNormalization(epsilon=0.01)(h)")),
    "dropout": ("float", (4,), ("h = tf.keras.layers.Dense(6, activation='relu')(h)",
                                "h = tf.keras.layers.Dropout(0.5, seed=7)(h)")),
    "embedding": ("int", (3,), ("h = tf.keras.layers.Embedding(6, 3)(h)",
                                "h = tf.keras.layers.Flatten()(h)")),
    "simple_rnn": ("float", (3, 2), ("h = tf.keras.layers.SimpleRNN(3)(h)",)),
    "lstm": ("float", (3, 2), ("h = tf.keras.layers.LSTM(3)(h)",)),
    "lstm_seq_backwards": ("float", (3, 2), ("h = tf.keras.layers.LSTM(2, return_sequences=True, go_backwards=True)(h)",
                                             "h = tf.keras.layers.Flatten()(h)")),
    "gru": ("float", (3, 2), ("h = tf.keras.layers.GRU(3)(h)",)),
    "gru_v1_seq": ("float", (3, 2), ("h = tf.keras.layers.GRU(3, reset_after=False, return_sequences=True)(h)",
                                     "h = tf.keras.layers.GlobalMaxPooling1D()(h)")),
    "mha": ("float", (3, 4), ("h = tf.keras.layers.MultiHeadAttention(2, 2)(h, h)",
                              "h = tf.keras.layers.Flatten()(h)")),
    "reshape_conv1d": ("float", (6,), ("h = tf.keras.layers.Reshape((3, 2))(h)",
                                       "h = tf.keras.layers.Conv1D(2, 2)(h)",
                                       "h = tf.keras.layers.Flatten()(h)")),
}

# name -> (target kind, head units, head activation, loss class, loss options)
LOSSES: dict[str, tuple[str, int, str | None, str, dict[str, Any]]] = {
    "mse": ("reg", 2, None, "MeanSquaredError", {}),
    "mse_sum": ("reg", 2, None, "MeanSquaredError", {"reduction": "sum"}),
    "mae": ("reg", 2, None, "MeanAbsoluteError", {}),
    "bce_logits": ("bin", 1, None, "BinaryCrossentropy", {"from_logits": True}),
    "bce_sigmoid_smooth": ("bin", 2, "sigmoid", "BinaryCrossentropy", {"label_smoothing": 0.2}),
    "cce_logits_smooth": ("onehot", 3, None, "CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.1}),
    "cce_softmax": ("onehot", 3, "softmax", "CategoricalCrossentropy", {}),
    "cce_mean_with_sw": ("onehot", 3, None, "CategoricalCrossentropy",
                         {"from_logits": True, "reduction": "mean_with_sample_weight"}),
    "scce_logits": ("sparse", 3, None, "SparseCategoricalCrossentropy", {"from_logits": True}),
    "scce_softmax": ("sparse", 3, "softmax", "SparseCategoricalCrossentropy", {}),
}

# name -> (class, options); the learning rate is the `lr` option
OPTIMIZERS: dict[str, tuple[str, dict[str, Any]]] = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}),
    "sgd_nesterov": ("SGD", {"lr": 0.05, "momentum": 0.5, "nesterov": True}),
    "adam": ("Adam", {"lr": 0.01}),
    "adam_amsgrad": ("Adam", {"lr": 0.02, "beta_1": 0.8, "amsgrad": True}),
    "adamw": ("AdamW", {"lr": 0.01, "weight_decay": 0.1}),
    "adagrad": ("Adagrad", {"lr": 0.1, "initial_accumulator_value": 0.2}),
    "rmsprop": ("RMSprop", {"lr": 0.01}),
    "rmsprop_centered_momentum": ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
}

# base-optimizer options, applied to any optimizer
COMMON: dict[str, dict[str, Any]] = {
    "none": {},
    "clipnorm": {"clipnorm": 0.5},
    "clipvalue": {"clipvalue": 0.1},
    "global_clipnorm": {"global_clipnorm": 0.5},
    "weight_decay": {"weight_decay": 0.05},
    "ema": {"use_ema": True, "ema_momentum": 0.5},
    "ema_overwrite": {"use_ema": True, "ema_momentum": 0.8, "ema_overwrite_frequency": 2},
    "grad_accum": {"gradient_accumulation_steps": 2},
    "exp_decay": {"schedule": "tf.keras.optimizers.schedules.ExponentialDecay({lr}, 2, 0.5)"},
    "piecewise": {"schedule": "tf.keras.optimizers.schedules.PiecewiseConstantDecay([1, 3], [{lr}, {lr} / 2, {lr} / 4])"},
}

#: name -> (backend.make_strategy kind, replicas)
STRATEGIES: dict[str, tuple[str, int]] = {
    "default": ("default", 1), "one_device": ("one_device", 1), "mirrored2": ("mirrored", 2),
    "mirrored3": ("mirrored", 3), "central2": ("central_storage", 2),
}

# how fit is fed: (examples, batch size, extra fit arguments)
FEEDS = ("plain", "partial_batch", "steps_per_execution", "validation", "class_weight", "sample_weight")
CALLBACKS = ("none", "early_stopping_restore", "reduce_lr", "lr_scheduler")
POLICIES = ("float32", "mixed_float16")
MODES = ("fit", "ctl_eager", "ctl_function")
PERSIST = ("none", "weights_file", "checkpoint")
METRICS = ("m0", "m1")

METRIC_SETS: dict[str, tuple[str, str]] = {
    "reg": ("['mae', tf.keras.metrics.RootMeanSquaredError()]", "['mse']"),
    "bin": ("['accuracy', tf.keras.metrics.AUC(num_thresholds=5)]", "[tf.keras.metrics.Precision(), tf.keras.metrics.Recall()]"),
    "onehot": ("['accuracy', tf.keras.metrics.TopKCategoricalAccuracy(k=2)]", "['categorical_accuracy']"),
    "sparse": ("['accuracy', tf.keras.metrics.SparseTopKCategoricalAccuracy(k=2)]", "['sparse_categorical_accuracy']"),
}

_TOPK_LOSSES = tuple(k for k, v in LOSSES.items() if v[0] in ("onehot", "sparse"))

FACTORS: dict[str, tuple[str, ...]] = {
    "arch": tuple(ARCHS), "common": tuple(COMMON), "optimizer": tuple(OPTIMIZERS), "loss": tuple(LOSSES),
    "feed": FEEDS, "strategy": tuple(STRATEGIES), "callbacks": CALLBACKS, "mode": MODES,
    "persist": PERSIST, "policy": POLICIES, "metrics": METRICS,
}


def valid(cfg: dict[str, str]) -> bool:
    """Whether a (partial) configuration is a program TF runs and that observes something.

    Keys absent from ``cfg`` are unconstrained."""
    g = cfg.get
    if g("mode", "fit") != "fit":
        # custom loops: no fit arguments, callbacks or files; float32 only
        if g("feed", "plain") != "plain" or g("callbacks", "none") != "none" or g("persist", "none") != "none":
            return False
        if g("policy", "float32") != "float32" or g("metrics", "m0") != "m0":
            return False
        if g("loss") == "cce_mean_with_sw":
            return False
    if g("callbacks", "none") in ("reduce_lr", "lr_scheduler") and g("common") in ("exp_decay", "piecewise"):
        return False   # a schedule's learning rate cannot be set
    if g("feed") == "class_weight" and g("loss") in ("mse", "mse_sum", "mae", "bce_sigmoid_smooth"):
        return False   # class weights need class labels
    if g("arch") == "batchnorm" and g("strategy") == "central2":
        return False   # keras.batchnorm.central-storage: TF raises ValueError (another clause)
    if g("arch") == "batchnorm" and g("feed") == "partial_batch" and g("strategy") == "mirrored3":
        return False   # an empty replica batch makes the batch moments NaN
    if g("strategy") == "central2" and (g("mode") == "ctl_function" or g("policy") == "mixed_float16"
                                        or g("arch") == "dropout"):
        return False   # TF 2.21 raises ValueError (a replica-context update of an AggregatingVariable)
    if g("policy") == "mixed_float16" and g("metrics") == "m0" and g("loss") in _TOPK_LOSSES:
        return False   # TF 2.21: in_top_k of float16 predictions raises TypeError (the ops.in-top-k-dtype rule)
    return True


def _pairs(row: dict[str, str]) -> set[tuple[str, str, str, str]]:
    names = sorted(row)
    return {(a, row[a], b, row[b]) for a, b in itertools.combinations(names, 2)}


def _complete(row: dict[str, str], factors: dict[str, tuple[str, ...]], names: list[str],
              rng: np.random.Generator) -> dict[str, str] | None:
    """``row`` completed factor by factor (in a random order) with random levels that keep it
    valid; None when some factor has no level left."""
    row = dict(row)
    for i in rng.permutation(len(names)):
        n = names[int(i)]
        if n in row:
            continue
        ok = [v for v in factors[n] if valid({**row, n: v})]
        if not ok:
            return None
        row[n] = ok[int(rng.integers(len(ok)))]
    return row if valid(row) else None


def pairwise(factors: dict[str, tuple[str, ...]], seed: int = 29, tries: int = 60) -> list[dict[str, str]]:
    """A greedy pairwise covering of ``factors`` under :func:`valid` (deterministic: one
    seeded generator, factors and levels in their given order)."""
    rng = np.random.default_rng(seed)
    names = list(factors)
    uncovered: list[tuple[str, str, str, str]] = []
    for a, b in itertools.combinations(sorted(names), 2):
        for va in factors[a]:
            for vb in factors[b]:
                if valid({a: va, b: vb}):
                    uncovered.append((a, va, b, vb))
    left = set(uncovered)
    rows: list[dict[str, str]] = []
    while left:
        target = next(p for p in uncovered if p in left)
        best: dict[str, str] | None = None
        best_gain = 0
        for _ in range(tries):
            row = _complete({target[0]: target[1], target[2]: target[3]}, factors, names, rng)
            if row is None:
                continue
            gain = len(_pairs(row) & left)
            if gain > best_gain:
                best, best_gain = row, gain
        if best is None:
            left.discard(target)   # no valid program holds this pair
            continue
        rows.append(best)
        left -= _pairs(best)
    return rows


# -- program text ------------------------------------------------------------------------------
def _opt_source(cfg: dict[str, str]) -> str:
    cls, opts = OPTIMIZERS[cfg["optimizer"]]
    common = dict(COMMON[cfg["common"]])
    lr = repr(opts["lr"])
    if "schedule" in common:
        lr = common.pop("schedule").format(lr=lr)
    merged = {k: v for k, v in opts.items() if k != "lr"}
    merged.update(common)   # a base option given twice (AdamW's weight_decay): the base option's value
    args = [f"learning_rate={lr}"] + [f"{k}={v!r}" for k, v in merged.items()]
    return f"tf.keras.optimizers.{cls}({', '.join(args)})"


def _loss_source(cfg: dict[str, str], reduction: str | None = None) -> str:
    _, _, _, cls, opts = LOSSES[cfg["loss"]]
    opts = dict(opts)
    if reduction is not None:
        opts["reduction"] = reduction
    return f"tf.keras.losses.{cls}({', '.join(f'{k}={v!r}' for k, v in opts.items())})"


def _build_source(cfg: dict[str, str]) -> str:
    kind, shape, lines = ARCHS[cfg["arch"]]
    target, units, act, _, _ = LOSSES[cfg["loss"]]
    dtype = ", dtype='int32'" if kind == "int" else ""
    body = [f"inp = tf.keras.Input({shape!r}{dtype})", "h = inp", *lines,
            f"out = tf.keras.layers.Dense({units}, activation={act!r})(h)",
            "model = tf.keras.Model(inp, out)",
            "init_weights(model, seed)",
            f"opt = {_opt_source(cfg)}",
            "return model, opt"]
    return "def build():\n" + "\n".join("    " + b for b in body) + "\n"


PRELUDE = '''\
obs = {}
def init_weights(model, seed):
    r = np.random.default_rng(seed)
    for v in model.weights:
        val = r.uniform(-0.6, 0.6, tuple(v.shape))
        if "variance" in v.name:
            val = 0.5 + np.abs(val)
        v.assign(val.astype(np.float32))
def flat(model):
    return np.concatenate([np.ravel(w) for w in model.get_weights()]).astype(np.float32)
def opt_vars(opt):
    return [np.asarray(backend.to_numpy(v)) for v in opt.variables]
'''

FIT = '''\
class Recorder(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        n = len([k for k in obs if k.startswith("batch_loss/")])
        obs[f"batch_loss/{n}"] = np.float32(logs["loss"])
        obs[f"batch_weights/{n}"] = flat(self.model)
with strategy.scope():
    model, opt = build()
    model.compile(optimizer=opt, loss=LOSS, metrics=METRICS, steps_per_execution=SPE)
hist = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0,
                 callbacks=[Recorder()] + CALLBACKS, **fit_kwargs)
for key in sorted(hist.history):
    obs[f"history/{key}"] = np.asarray(hist.history[key], dtype=np.float64)
obs["final_weights"] = flat(model)
for i, v in enumerate(opt_vars(model.optimizer)):
    obs[f"optimizer_var/{i}"] = v
obs["predict"] = np.asarray(model.predict(x[:5], batch_size=3, verbose=0))
ev = model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True)
for key in sorted(ev):
    obs[f"evaluate/{key}"] = np.float64(ev[key])
'''

PERSIST_SRC = {
    "weights_file": '''\
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "grid.weights.h5")
model.save_weights(path)
with strategy.scope():
    model2, _ = build()
model2.load_weights(path)
obs["loaded_weights"] = flat(model2)
obs["loaded_predict"] = np.asarray(model2.predict(x[:4], verbose=0))
''',
    "checkpoint": '''\
import os, tempfile
ckpt_path = tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(os.path.join(tempfile.mkdtemp(), "ck"))
with strategy.scope():
    model2, opt2 = build()
    model2.compile(optimizer=opt2, loss=LOSS, steps_per_execution=SPE)
    model2.optimizer.build(model2.trainable_variables)
tf.train.Checkpoint(model=model2, optimizer=model2.optimizer).restore(ckpt_path)
obs["restored_weights"] = flat(model2)
for i, v in enumerate(opt_vars(model2.optimizer)):
    obs[f"restored_optimizer_var/{i}"] = v
model.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
model2.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
obs["continued_weights"] = flat(model)
obs["restored_continued_weights"] = flat(model2)
''',
}

CTL = '''\
with strategy.scope():
    model, opt = build()
    opt.build(model.trainable_variables)   # slots before any tf.function (optim.build-in-function)
    loss_obj = LOSS_NONE
GB = 4
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GB))
def step(xb, yb):
    with tf.GradientTape() as tape:
        pred = model(xb, training=True)
        loss = tf.nn.compute_average_loss(loss_obj(yb, pred), global_batch_size=GB)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss, [tf.convert_to_tensor(g) for g in grads]
def replicated(xb, yb):
    return strategy.run(step, args=(xb, yb))
if USE_FUNCTION:
    replicated = tf.function(replicated)
for epoch in range(2):
    for xb, yb in dist:
        loss, grads = replicated(xb, yb)
        n = len([k for k in obs if k.startswith("step_loss/")])
        obs[f"step_loss/{n}"] = backend.to_numpy(strategy.reduce("SUM", loss, axis=None))
        for j, g in enumerate(grads):
            obs[f"step_grad/{n}/{j}"] = backend.to_numpy(strategy.reduce("SUM", g, axis=None))
        obs[f"step_weights/{n}"] = flat(model)
for i, v in enumerate(opt_vars(opt)):
    obs[f"optimizer_var/{i}"] = v
obs["predict"] = np.asarray(model.predict(x[:5], batch_size=3, verbose=0))
'''

CALLBACK_SRC = {
    "none": "[]",
    "early_stopping_restore": "[tf.keras.callbacks.EarlyStopping(monitor='loss', patience=1, min_delta=10.0, restore_best_weights=True)]",
    "reduce_lr": "[tf.keras.callbacks.ReduceLROnPlateau(monitor='loss', factor=0.5, patience=0, min_delta=10.0)]",
    "lr_scheduler": "[tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)]",
}


@dataclass(frozen=True)
class Case:
    """One grid program: its configuration, source and parameters (data as NumPy arrays)."""

    index: int
    config: dict[str, str]
    source: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        c = self.config
        return f"{self.index:03d}-{c['mode']}-{c['arch']}-{c['loss']}-{c['optimizer']}-{c['common']}-{c['strategy']}"

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.config.items())


def _data(cfg: dict[str, str], rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    kind, shape, _ = ARCHS[cfg["arch"]]
    target, units, _, _, _ = LOSSES[cfg["loss"]]
    if kind == "int":
        x = rng.integers(0, 6, (n, *shape)).astype(np.int32)
    else:
        x = rng.uniform(-1.0, 1.0, (n, *shape)).astype(np.float32)
    if target == "reg":
        y = rng.uniform(-1.0, 1.0, (n, units)).astype(np.float32)
    elif target == "bin":
        y = rng.integers(0, 2, (n, units)).astype(np.float32)
    elif target == "onehot":
        y = np.eye(units, dtype=np.float32)[rng.integers(0, units, n)]
    else:
        y = rng.integers(0, units, (n,)).astype(np.int32)
    return x, y


def make_case(index: int, cfg: dict[str, str]) -> Case:
    rng = np.random.default_rng(1000 + index)
    kind, replicas = STRATEGIES[cfg["strategy"]]
    policy = cfg["policy"]
    lines = [f"strategy = backend.make_strategy({kind!r}, {replicas})", PRELUDE, _build_source(cfg)]
    params: dict[str, Any] = {"seed": 2900 + index}
    if cfg["mode"] == "fit":
        feed = cfg["feed"]
        n, bs, spe = {"partial_batch": (9, 6, 1), "steps_per_execution": (18, 6, 2)}.get(feed, (12, 6, 1))
        x, y = _data(cfg, rng, n)
        fit_kwargs: dict[str, Any] = {}
        if feed == "validation":
            xv, yv = _data(cfg, rng, 6)
            fit_kwargs["validation_data"] = (xv, yv)
        elif feed == "class_weight":
            units = LOSSES[cfg["loss"]][1]
            fit_kwargs["class_weight"] = {i: [1.0, 2.5, 0.5][i] for i in range(max(units, 2))}
        elif feed == "sample_weight":
            fit_kwargs["sample_weight"] = rng.uniform(0.25, 2.0, (n,)).astype(np.float32)
        epochs = 2 if cfg["callbacks"] == "none" else 3
        target = LOSSES[cfg["loss"]][0]
        metrics = METRIC_SETS[target][METRICS.index(cfg["metrics"])]
        body = (FIT.replace("LOSS", _loss_source(cfg)).replace("METRICS", metrics)
                .replace("SPE", str(spe)).replace("CALLBACKS", CALLBACK_SRC[cfg["callbacks"]]))
        if cfg["persist"] != "none":
            body += PERSIST_SRC[cfg["persist"]].replace("LOSS", _loss_source(cfg)).replace("SPE", str(spe))
        params.update(x=x, y=y, batch_size=bs, epochs=epochs, fit_kwargs=fit_kwargs)
    else:
        x, y = _data(cfg, rng, 8)
        body = (CTL.replace("LOSS_NONE", _loss_source(cfg, reduction="none"))
                .replace("USE_FUNCTION", str(cfg["mode"] == "ctl_function")))
        params.update(x=x, y=y)
    if policy != "float32":
        body = ("tf.keras.mixed_precision.set_global_policy(%r)\ntry:\n" % policy
                + "\n".join("    " + ln for ln in body.splitlines())
                + "\nfinally:\n    tf.keras.mixed_precision.set_global_policy('float32')\n")
    lines.append(body)
    return Case(index, dict(cfg), "\n".join(ln for ln in lines if ln), params)


def generate() -> list[Case]:
    """The grid, ordered by strategy (a TF context serves one MirroredStrategy at a time)."""
    rows = pairwise(FACTORS)
    order = list(STRATEGIES)
    rows.sort(key=lambda r: order.index(r["strategy"]))
    return [make_case(i, r) for i, r in enumerate(rows)]


def _canon(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return [str(value.dtype), list(value.shape), hashlib.sha256(value.tobytes()).hexdigest()]
    if isinstance(value, dict):
        return {str(k): _canon(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    return repr(value)


def case_hash(case: Case) -> str:
    """SHA-256 of the case's source and parameters (bits of every array included)."""
    text = json.dumps([TEMPLATE_VERSION, case.source, _canon(case.params)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


_CASES: list[Case] = []


def cases() -> list[Case]:
    """The grid (generated once per process)."""
    if not _CASES:
        _CASES.extend(generate())
    return _CASES
