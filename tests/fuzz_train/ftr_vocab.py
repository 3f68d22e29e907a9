"""The training fuzzer's vocabulary beyond the training grid's (simdist/conformance/grid/programs.py).

The same formats as the grid's tables, so the generator (ftr_progs.py) draws from the union of both:

* ARCHS: name -> (input kind, input shape, hidden lines mapping ``h`` to the next ``h``; a line may bind
  other names for branches; kind ``float2``: two inputs ``in0`` and ``in1``, one shape each);
* LOSSES: name -> (target kind, head units, head activation, loss class, loss options); target kinds are
  the grid's (reg, bin, onehot, sparse) and ``pos`` (regression targets in (0, 2), for losses that take
  logarithms or divide by the target);
* OPTIMIZERS: name -> (class, options with the learning rate as ``lr``); ``wrap`` names an outer class
  built around the inner optimizer (LossScaleOptimizer);
* SCHEDULES: name -> a learning-rate schedule's source with ``{lr}`` for the optimizer's rate;
* CALLBACKS: name -> the source of a callbacks list (the grid's CALLBACK_SRC format).
"""

from __future__ import annotations

from typing import Any

_L = "tf.keras.layers."

ARCHS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "branch_add": ("float", (4,), (f"a = {_L}Dense(3, activation='relu')(h)",
                                   f"b = {_L}Dense(3, activation='tanh')(h)",
                                   f"h = {_L}Add()([a, b])")),
    "branch_concat_elu": ("float", (4,), (f"a = {_L}Dense(2)(h)",
                                          f"b = {_L}Dense(3, activation='elu')(h)",
                                          f"h = {_L}Concatenate()([a, b])")),
    "branch_multiply": ("float", (4,), (f"a = {_L}Dense(3, activation='sigmoid')(h)",
                                        f"b = {_L}Dense(3)(h)",
                                        f"h = {_L}Multiply()([a, b])")),
    "conv1d_causal_dilated": ("float", (8, 2), (f"h = {_L}Conv1D(3, 2, dilation_rate=2, padding='causal')(h)",
                                                f"h = {_L}Flatten()(h)")),
    "conv1d_valid_stride": ("float", (7, 2), (f"h = {_L}Conv1D(2, 3, strides=2, padding='valid', activation='relu')(h)",
                                              f"h = {_L}GlobalAveragePooling1D()(h)")),
    "conv2d_dilated": ("float", (6, 6, 1), (f"h = {_L}Conv2D(2, 2, dilation_rate=2, padding='valid')(h)",
                                            f"h = {_L}Flatten()(h)")),
    "conv2d_transpose": ("float", (3, 3, 2), (f"h = {_L}Conv2DTranspose(2, 2, strides=2)(h)",
                                              f"h = {_L}Flatten()(h)")),
    "separable_conv2d": ("float", (5, 5, 2), (f"h = {_L}SeparableConv2D(3, 2, depth_multiplier=2)(h)",
                                              f"h = {_L}GlobalMaxPooling2D()(h)")),
    "separable_conv1d": ("float", (6, 2), (f"h = {_L}SeparableConv1D(2, 3, padding='same')(h)",
                                           f"h = {_L}Flatten()(h)")),
    "depthwise_conv2d": ("float", (4, 4, 2), (f"h = {_L}DepthwiseConv2D(2, depth_multiplier=2, activation='relu')(h)",
                                              f"h = {_L}Flatten()(h)")),
    "group_norm": ("float", (4,), (f"h = {_L}Dense(4)(h)",
                                   f"h = {_L}GroupNormalization(groups=2, epsilon=0.01)(h)")),
    "unit_norm": ("float", (4,), (f"h = {_L}Dense(4)(h)",
                                  f"h = {_L}UnitNormalization()(h)")),
    "bidirectional_lstm": ("float", (3, 2), (f"h = {_L}Bidirectional({_L}LSTM(2))(h)",)),
    "bidirectional_gru_sum": ("float", (3, 2), (f"h = {_L}Bidirectional({_L}GRU(2, return_sequences=True), merge_mode='sum')(h)",
                                                f"h = {_L}Flatten()(h)")),
    "time_distributed": ("float", (3, 2), (f"h = {_L}TimeDistributed({_L}Dense(3, activation='relu'))(h)",
                                           f"h = {_L}Flatten()(h)")),
    "attention": ("float", (3, 4), (f"h = {_L}Attention()([h, h])",
                                    f"h = {_L}Flatten()(h)")),
    "attention_scaled": ("float", (3, 4), (f"q = {_L}Dense(4)(h)",
                                           f"h = {_L}Attention(use_scale=True, score_mode='concat')([q, h])",
                                           f"h = {_L}Flatten()(h)")),
    "additive_attention": ("float", (3, 4), (f"h = {_L}AdditiveAttention()([h, h])",
                                             f"h = {_L}GlobalAveragePooling1D()(h)")),
    "gaussian_noise": ("float", (4,), (f"h = {_L}Dense(4)(h)",
                                       f"h = {_L}GaussianNoise(0.3, seed=11)(h)")),
    "spatial_dropout": ("float", (5, 3), (f"h = {_L}Conv1D(4, 2, activation='relu')(h)",
                                          f"h = {_L}SpatialDropout1D(0.4, seed=5)(h)",
                                          f"h = {_L}Flatten()(h)")),
    "prelu": ("float", (4,), (f"h = {_L}Dense(4)(h)", f"h = {_L}PReLU()(h)")),
    "leaky_relu": ("float", (4,), (f"h = {_L}Dense(4)(h)", f"h = {_L}LeakyReLU(negative_slope=0.2)(h)")),
    "elu": ("float", (4,), (f"h = {_L}Dense(4)(h)", f"h = {_L}ELU(alpha=0.5)(h)")),
    "masked_lstm": ("int", (4,), (f"h = {_L}Embedding(6, 3, mask_zero=True)(h)",
                                  f"h = {_L}LSTM(3)(h)")),
    "masked_gru_seq": ("int", (4,), (f"h = {_L}Embedding(6, 2, mask_zero=True)(h)",
                                     f"h = {_L}GRU(2, return_sequences=True)(h)",
                                     f"h = {_L}GlobalAveragePooling1D()(h)")),
    # two inputs (input kind "float2", one shape per input; the lines read in0 and in1): fit programs only
    "two_inputs_concat": ("float2", ((4,), (3,)), (f"a = {_L}Dense(3)(in0)",
                                                   f"b = {_L}Dense(3, activation='relu')(in1)",
                                                   f"h = {_L}Concatenate()([a, b])")),
    "two_inputs_seq_add": ("float2", ((3, 2), (4,)), (f"a = {_L}GRU(2)(in0)",
                                                      f"b = {_L}Dense(2, activation='tanh')(in1)",
                                                      f"h = {_L}Add()([a, b])")),
}

#: Text models (kfuzz41): token ids into an Embedding, pooled over the sequence (a masked Embedding's
#: GlobalAveragePooling1D averages the unmasked steps only). Drawn by ftr_progs.make_program's side generator,
#: not by draw_config, so the programs drawn before them stay the same.
TEXT_ARCHS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "embed_avg_pool": ("int", (5,), (f"h = {_L}Embedding(6, 3)(h)",
                                     f"h = {_L}GlobalAveragePooling1D()(h)")),
    "embed_masked_avg_pool": ("int", (5,), (f"h = {_L}Embedding(6, 4, mask_zero=True)(h)",
                                            f"h = {_L}GlobalAveragePooling1D()(h)",
                                            f"h = {_L}Dense(3, activation='relu')(h)")),
    "embed_max_pool_dropout": ("int", (6,), (f"h = {_L}Embedding(6, 3)(h)",
                                             f"h = {_L}GlobalMaxPooling1D()(h)",
                                             f"h = {_L}Dropout(0.3, seed=3)(h)")),
    "embed_conv_pool": ("int", (6,), (f"h = {_L}Embedding(6, 3)(h)",
                                      f"h = {_L}Conv1D(4, 3, activation='relu')(h)",
                                      f"h = {_L}GlobalMaxPooling1D()(h)")),
}

#: A subclassed Model with its own train_step, as the Keras guide writes it (kfuzz41): the loss by
#: compute_loss, gradients by a GradientTape, apply_gradients, the metrics updated by hand and returned
#: by get_metrics_result (no loss scaling of its own, as the guide's step has none).
CUSTOM_MODEL = '''\
class CustomModel(tf.keras.Model):
    def train_step(self, data):
        x, y, sample_weight = tf.keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return self.get_metrics_result()
'''

#: Losses by their string names (kfuzz41; compile's `loss="mse"`): the grid's loss key -> the name.
LOSS_STRINGS: dict[str, str] = {
    "mse": "mse", "mae": "mae", "cce_softmax": "categorical_crossentropy",
    "scce_softmax": "sparse_categorical_crossentropy", "log_cosh": "log_cosh", "kld": "kld", "poisson": "poisson",
    "hinge": "hinge", "squared_hinge": "squared_hinge", "categorical_hinge": "categorical_hinge", "msle": "msle",
    "mape": "mape",
}

#: Layers that draw random numbers in training (a seed-generator state CentralStorage cannot update).
RANDOM_ARCHS = ("dropout", "gaussian_noise", "spatial_dropout", "embed_max_pool_dropout")

_K = "tf.keras.losses."
LOSSES: dict[str, tuple[str, int, str | None, str, dict[str, Any]]] = {
    "huber": ("reg", 2, None, "Huber", {"delta": 0.4}),
    "log_cosh": ("reg", 2, None, "LogCosh", {}),
    "kld": ("onehot", 3, "softmax", "KLDivergence", {}),
    "poisson": ("pos", 2, "softplus", "Poisson", {}),
    "hinge": ("bin", 1, "tanh", "Hinge", {}),
    "squared_hinge": ("bin", 2, None, "SquaredHinge", {}),
    "categorical_hinge": ("onehot", 3, None, "CategoricalHinge", {}),
    "cosine": ("reg", 2, None, "CosineSimilarity", {"axis": -1}),
    "msle": ("pos", 2, "softplus", "MeanSquaredLogarithmicError", {}),
    "mape": ("pos", 2, None, "MeanAbsolutePercentageError", {}),
    "binary_focal": ("bin", 1, None, "BinaryFocalCrossentropy",
                     {"from_logits": True, "apply_class_balancing": True, "alpha": 0.3, "gamma": 1.5}),
    "binary_focal_smooth": ("bin", 2, "sigmoid", "BinaryFocalCrossentropy", {"gamma": 2.0, "label_smoothing": 0.1}),
    "categorical_focal": ("onehot", 3, None, "CategoricalFocalCrossentropy", {"from_logits": True, "alpha": 0.4}),
    "dice": ("bin", 2, "sigmoid", "Dice", {}),
    "tversky": ("bin", 2, "sigmoid", "Tversky", {"alpha": 0.3, "beta": 0.7}),
}

#: Reductions drawn for a loss (the loss's own option wins when it has one).
REDUCTIONS = (None, None, "sum", "sum_over_batch_size", "mean_with_sample_weight")

OPTIMIZERS: dict[str, tuple[str, dict[str, Any]]] = {
    "adadelta": ("Adadelta", {"lr": 1.0, "rho": 0.8}),
    "adamax": ("Adamax", {"lr": 0.02}),
    "nadam": ("Nadam", {"lr": 0.01, "beta_1": 0.8}),
    "ftrl": ("Ftrl", {"lr": 0.1, "l1_regularization_strength": 0.01, "l2_regularization_strength": 0.02}),
    "ftrl_shrinkage": ("Ftrl", {"lr": 0.2, "learning_rate_power": -0.3, "l2_shrinkage_regularization_strength": 0.05,
                                "beta": 0.1}),
    "lion": ("Lion", {"lr": 0.005, "beta_1": 0.8}),
    "lamb": ("Lamb", {"lr": 0.01}),
    "adafactor": ("Adafactor", {"lr": 0.05}),
    "loss_scale_sgd": ("SGD", {"lr": 0.1, "wrap": "LossScaleOptimizer(OPT, initial_scale=64.0, dynamic_growth_steps=2)"}),
    "loss_scale_adam": ("Adam", {"lr": 0.01, "wrap": "LossScaleOptimizer(OPT, initial_scale=2.0 ** 20, dynamic_growth_steps=1)"}),
}

_S = "tf.keras.optimizers.schedules."
SCHEDULES: dict[str, str] = {
    "cosine_warmup": _S + "CosineDecay({lr} / 2, 4, alpha=0.1, warmup_target={lr}, warmup_steps=2)",
    "cosine": _S + "CosineDecay({lr}, 3, alpha=0.2)",
    "inverse_time": _S + "InverseTimeDecay({lr}, 2, 0.5)",
    "inverse_time_staircase": _S + "InverseTimeDecay({lr}, 2, 0.7, staircase=True)",
    "polynomial": _S + "PolynomialDecay({lr}, 4, end_learning_rate={lr} / 10, power=2.0)",
    "polynomial_cycle": _S + "PolynomialDecay({lr}, 2, end_learning_rate={lr} / 5, power=0.5, cycle=True)",
}

_C = "tf.keras.callbacks."
CALLBACKS: dict[str, str] = {
    "terminate_on_nan": f"[{_C}TerminateOnNaN()]",
    "early_stopping_min_delta": f"[{_C}EarlyStopping(monitor='loss', min_delta=0.5, patience=0, verbose=0)]",
    "early_stopping_baseline": f"[{_C}EarlyStopping(monitor='loss', baseline=0.01, patience=1, restore_best_weights=True, start_from_epoch=1)]",
    "reduce_lr_cooldown": f"[{_C}ReduceLROnPlateau(monitor='loss', factor=0.3, patience=0, cooldown=1, min_lr=0.002, min_delta=10.0)]",
    "lr_scheduler_epoch": f"[{_C}LearningRateScheduler(lambda epoch: 0.05 / (1 + epoch))]",
    "two": f"[{_C}TerminateOnNaN(), {_C}ReduceLROnPlateau(monitor='loss', factor=0.5, patience=1, min_delta=10.0)]",
}
#: Callbacks that set the learning rate (an optimizer with a schedule refuses them).
SETS_LR = ("reduce_lr", "lr_scheduler", "reduce_lr_cooldown", "lr_scheduler_epoch", "two")

#: kfuzz43's models, drawn by ftr_progs._widen3's generator of its own: text models with recurrent layers
#: (Embedding, masked or not, into LSTM and GRU layers, stacked or Bidirectional) and the Dense without bias +
#: BatchNormalization + Dropout block (the bias BatchNormalization would cancel is left out, as people write
#: it: no parameter whose gradient is 0 in exact arithmetic).
TEXT2_ARCHS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "embed_lstm_masked_seq": ("int", (5,), (f"h = {_L}Embedding(7, 3, mask_zero=True)(h)",
                                            f"h = {_L}LSTM(3, return_sequences=True)(h)",
                                            f"h = {_L}GlobalAveragePooling1D()(h)")),
    "embed_bigru": ("int", (5,), (f"h = {_L}Embedding(6, 3)(h)",
                                  f"h = {_L}Bidirectional({_L}GRU(2))(h)")),
    "embed_stacked_lstm_gru": ("int", (4,), (f"h = {_L}Embedding(6, 3, mask_zero=True)(h)",
                                             f"h = {_L}LSTM(3, return_sequences=True)(h)",
                                             f"h = {_L}GRU(2)(h)")),
    "dense_bn_dropout": ("float", (4,), (f"h = {_L}Dense(5, use_bias=False)(h)",
                                         f"h = {_L}BatchNormalization(momentum=0.8)(h)",
                                         f"h = {_L}Activation('relu')(h)",
                                         f"h = {_L}Dropout(0.25, seed=9)(h)")),
}
#: Models with BatchNormalization (TF 2.21 refuses it under CentralStorage; an empty replica batch of
#: MirroredStrategy(3) makes its batch moments NaN: the grid's rules for its own batchnorm model).
BN_ARCHS = ("batchnorm", "dense_bn_dropout")

#: Callbacks on the validation loss (kfuzz43): drawn for fit programs with validation data and no other callbacks.
VAL_CALLBACKS: dict[str, str] = {
    "early_stopping_val": f"[{_C}EarlyStopping(monitor='val_loss', patience=1, restore_best_weights=True)]",
    "reduce_lr_val": f"[{_C}ReduceLROnPlateau(monitor='val_loss', factor=0.5, patience=0, min_lr=0.001)]",
}

#: ModelCheckpoint keeping the best epoch's weights (kfuzz43), then loaded into a fresh model.
CHECKPOINT_CB = (f"{_C}ModelCheckpoint(ckpt_file, monitor=MONITOR, save_best_only=True, "
                 "save_weights_only=True)")
CHECKPOINT_PRE = '''\
import os, tempfile
ckpt_file = os.path.join(tempfile.mkdtemp(), "best.weights.h5")
'''
CHECKPOINT_POST = '''\
with strategy.scope():
    model_ck, _ = build()
model_ck.load_weights(ckpt_file)
obs["loaded_weights/checkpoint_cb"] = flat(model_ck)
'''

#: model.save to a .keras file, keras.models.load_model under the strategy, then fit continued (kfuzz43).
KERAS_FILE_SRC = '''\
import os, tempfile
keras_path = os.path.join(tempfile.mkdtemp(), "model.keras")
model.save(keras_path)
with strategy.scope():
    model_kf = tf.keras.models.load_model(keras_path)
obs["loaded_weights/keras_file"] = flat(model_kf)
obs["loaded_predict/keras_file"] = np.asarray(model_kf.predict(x[:4], verbose=0))
for i, v in enumerate(opt_vars(model_kf.optimizer)):
    obs[f"restored_optimizer_var/keras_file/{i}"] = v
model_kf.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
obs["continued_weights/keras_file"] = flat(model_kf)
'''

#: The model called in training mode after fit (BatchNormalization's batch statistics, kfuzz43).
TRAINING_CALL_SRC = '''\
obs["predict/training_call"] = np.stack([np.asarray(backend.to_numpy(t))
                                         for t in tf.nest.flatten(model(x[:4], training=True))])
obs["final_weights/after_training_call"] = flat(model)
'''

#: kfuzz44's vocabulary, drawn by ftr_progs._widen4's generator of its own.
#: A Lambda layer before the heads (``lambda_layer=yes``): TF ops on the hidden activations.
LAMBDA_LINE = f"h = {_L}Lambda(lambda t: tf.nn.relu6(3.0 * t) / 3.0 - 0.1 * t)(h)"
#: An activity regularizer on the heads (``activity_regularizer``): Keras adds the regularizer of each
#: output to the layer's losses on every call.
ACTIVITY_REGULARIZERS = {"l2": ", activity_regularizer=tf.keras.regularizers.L2(0.01)",
                         "l1": ", activity_regularizer=tf.keras.regularizers.L1(0.02)"}
#: The Keras guide's own test_step beside its train_step (``test_step=yes``, kfuzz44).
CUSTOM_TEST_STEP = '''\
    def test_step(self, data):
        x, y, sample_weight = tf.keras.utils.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return self.get_metrics_result()
'''
#: A user callback reading fit's logs, params and the optimizer's learning rate at each epoch's end
#: (``logs_callback=yes``): the logs' keys in their order (without Keras's name-uniquifying suffixes),
#: each value, the type names of the values, fit's params.
LOGS_CALLBACK = '''\
import re as _re
class LogsReader(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        logs = dict(logs or {})
        obs[f"cb_keys/e{epoch}"] = np.asarray([_re.sub(r"_\\d+$", "", k) for k in logs])
        obs[f"cb_types/e{epoch}"] = np.asarray(sorted({type(v).__name__ for v in logs.values()}))
        for k in logs:
            obs[f"history/e{epoch}_{k}"] = np.float64(logs[k])
        obs[f"history/e{epoch}_lr"] = np.float64(backend.to_numpy(self.model.optimizer.learning_rate))
        obs[f"cb_params/e{epoch}"] = np.asarray([-1 if self.params.get(k) is None else self.params[k]
                                                 for k in ("epochs", "steps", "verbose")], dtype=np.int64)
'''
#: predict on batches of an odd size (``predict_odd=yes``): 7 rows by 5s.
PREDICT_ODD_SRC = '''\
obs["predict/odd"] = np.asarray(model.predict(x[:7], batch_size=5, verbose=0))
'''

#: kfuzz45's vocabulary, drawn by ftr_progs._widen5's generator of its own.
#: A shared layer applied to two inputs (a siamese pair, ``arch=shared_two_inputs``) and a model nested in the
#: functional model as a layer (a Sequential or a functional Model, ``arch=nested_*``).
ARCHS5: dict[str, tuple[str, Any, tuple[str, ...]]] = {
    "shared_two_inputs": ("float2", ((4,), (4,)), (f"shared = {_L}Dense(3, activation='tanh', name='shared')",
                                                   "a = shared(in0)",
                                                   "b = shared(in1)",
                                                   f"h = {_L}Concatenate()([a, b, {_L}Subtract()([a, b])])")),
    "nested_sequential": ("float", (4,), (f"inner = tf.keras.Sequential([{_L}Dense(5, activation='relu'), "
                                          f"{_L}Dense(3)], name='inner')",
                                          "h = inner(h)")),
    "nested_functional": ("float", (4,), ("i2 = tf.keras.Input((4,))",
                                          f"inner = tf.keras.Model(i2, {_L}Dense(3, activation='elu')("
                                          f"{_L}Dense(4)(i2)), name='inner')",
                                          "h = inner(h)",
                                          f"h = {_L}Dense(3, activation='relu')(h)")),
}
NESTED_ARCHS = ("nested_sequential", "nested_functional")

#: fit fed by a Python generator of the batches (with steps_per_epoch) or a keras.utils.PyDataset of them
#: (``feed=generator`` / ``feed=pydataset``): the sample weights in the batches, validation data kept as arrays.
BATCHES_SRC = """\
fit_kwargs = dict(fit_kwargs)   # (the program's parameters stay as drawn: their hash names TF's answer)
def _tup(v):
    return tuple(v) if isinstance(v, list) else v
_sw = fit_kwargs.pop("sample_weight", None)
_nb = -(-len(tf.nest.flatten(x)[0]) // batch_size)
def _batch(i):
    s = slice(i * batch_size, (i + 1) * batch_size)
    xb = _tup(tf.nest.map_structure(lambda a: a[s], x))
    yb = _tup(tf.nest.map_structure(lambda a: a[s], y))
    return (xb, yb) if _sw is None else (xb, yb, _sw[s])
"""
GENERATOR_SRC = BATCHES_SRC + """\
def gen():
    while True:
        for i in range(_nb):
            yield _batch(i)
"""
PYDATASET_SRC = BATCHES_SRC + """\
class Batches(tf.keras.utils.PyDataset):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
    def __len__(self):
        return _nb
    def __getitem__(self, i):
        return _batch(i)
"""
#: A CSVLogger beside the other callbacks, its file read back after fit (``csv_logger=yes``).
CSV_PRE = '''\
import csv as _csv, os as _os, re as _re2, tempfile as _tempfile
csv_file = _os.path.join(_tempfile.mkdtemp(), "log.csv")
'''
CSV_POST = '''\
with open(csv_file, newline="") as _f:
    _rows = list(_csv.reader(_f))
obs["cb_keys/csv"] = np.asarray([_re2.sub(r"_\\d+$", "", k) for k in _rows[0]])
for _r, _row in enumerate(_rows[1:]):
    for _k, _v in zip(_rows[0], _row):
        obs[f"history/csv_e{_r}_{_k}"] = np.float64("nan" if _v == "NA" else _v)   # (a key an epoch lacks)
'''
#: evaluate and predict cut at two steps (``eval_steps=yes``).
EVAL_STEPS_SRC = '''\
ev_s = model.evaluate(x, y, batch_size=batch_size, steps=2, verbose=0, return_dict=True)
for key in sorted(ev_s):
    obs[f"evaluate/steps_{key}"] = np.float64(ev_s[key])
obs["predict/steps"] = np.stack([np.asarray(p) for p in tf.nest.flatten(
    model.predict(x, batch_size=batch_size, steps=2, verbose=0))])
'''
#: The weights saved to a .weights.h5 file, loaded into a fresh compiled model, and fit continued on both
#: (``weights_h5=continue``: the loaded model's optimizer starts afresh).
WEIGHTS_H5_SRC = '''\
import os, tempfile
wpath = os.path.join(tempfile.mkdtemp(), "cont.weights.h5")
model.save_weights(wpath)
with strategy.scope():
    model_w, opt_w = build()
    model_w.compile(optimizer=opt_w, loss=LOSS, metrics=METRICS)
model_w.load_weights(wpath)
obs["loaded_weights/weights_h5"] = flat(model_w)
hw = model_w.fit(x, y, batch_size=batch_size, epochs=2, shuffle=False, verbose=0)
obs["continued_weights/weights_h5"] = flat(model_w)
for key in sorted(hw.history):
    obs[f"history/weights_h5_{key}"] = np.asarray(hw.history[key], dtype=np.float64)
'''
#: Options added to the optimizer (``opt_extra``; the optimizer's own options win): clipping beside EMA or
#: weight decay, as people combine them.
OPT_EXTRAS: dict[str, dict[str, Any]] = {
    "clipnorm_ema": {"clipnorm": 1.0, "use_ema": True, "ema_momentum": 0.9},
    "wd_global_clipnorm": {"weight_decay": 0.02, "global_clipnorm": 1.0},
    "clipvalue_wd": {"clipvalue": 0.5, "weight_decay": 0.01},
}
#: A custom loop under ParameterServerStrategy (``strategy_form=pss``: 2 workers and 1 ps; TF: in-process
#: servers): Keras 3 has no ParameterServerStrategy fit (clause keras.fit.pss-refused), so PS training is a
#: loop of steps a ClusterCoordinator schedules on the workers, each joined and fetched before the next.
CTL_PSS = '''\
with strategy.scope():
    model, opt = build()
    opt.build(model.trainable_variables)   # slots before any tf.function (optim.build-in-function)
    loss_obj = LOSS_NONE
GB = 4
def step(xb, yb):
    with tf.GradientTape() as tape:
        pred = model(xb, training=True)
        loss = tf.nn.compute_average_loss(loss_obj(yb, pred), global_batch_size=GB)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss, [tf.convert_to_tensor(g) for g in grads]
def replicated(xb, yb):
    return strategy.run(step, args=(xb, yb))
replicated = tf.function(replicated)
for epoch in range(2):
    for k in range(0, len(y), GB):
        rv = cluster.coordinator.schedule(replicated, args=(tf.constant(x[k:k + GB]), tf.constant(y[k:k + GB])))
        cluster.coordinator.join()
        loss, grads = rv.fetch()
        n = len([k2 for k2 in obs if k2.startswith("step_loss/")])
        obs[f"step_loss/{n}"] = np.asarray(loss)
        for j, g in enumerate(grads):
            obs[f"step_grad/{n}/{j}"] = np.asarray(g)
        obs[f"step_weights/{n}"] = flat(model)
for i, v in enumerate(opt_vars(opt)):
    obs[f"optimizer_var/{i}"] = v
obs["predict"] = np.asarray(backend.to_numpy(model(x[:5], training=False)))
'''

#: kfuzz46's vocabulary, drawn by ftr_progs._widen6's generator of its own.
#: Image and sequence models as people write them (``arch`` from ARCHS6, one one-input program in ten): Conv1D
#: + MaxPooling1D, a channels_last Conv2D with "same" padding + AveragePooling2D, an LSTM's sequences into a GRU,
#: Embedding + GlobalAveragePooling1D + Dense (the text classifier of the Keras guides).
ARCHS6: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "conv1d_maxpool": ("float", (8, 2), (f"h = {_L}Conv1D(3, 3, activation='relu')(h)",
                                         f"h = {_L}MaxPooling1D(2)(h)",
                                         f"h = {_L}Flatten()(h)")),
    "conv2d_same_avgpool": ("float", (4, 4, 2), (f"h = {_L}Conv2D(3, 3, padding='same', activation='relu', "
                                                 "data_format='channels_last')(h)",
                                                 f"h = {_L}AveragePooling2D(2, data_format='channels_last')(h)",
                                                 f"h = {_L}Flatten()(h)")),
    "lstm_seq_gru": ("float", (4, 2), (f"h = {_L}LSTM(3, return_sequences=True)(h)",
                                       f"h = {_L}GRU(2)(h)")),
    "embed_gap_dense": ("int", (6,), (f"h = {_L}Embedding(6, 4)(h)",
                                      f"h = {_L}GlobalAveragePooling1D()(h)",
                                      f"h = {_L}Dense(4, activation='relu')(h)")),
}
#: The heads' constraints and bias regularizers (``head_extra``): a bias regularizer only on one output (two
#: outputs' np.float64 loss weights beside a float32 regularization loss are kfuzz42's TypeError on both).
HEAD_EXTRAS: dict[str, str] = {
    "max_norm": ", kernel_constraint=tf.keras.constraints.MaxNorm(0.8)",
    "non_neg": ", kernel_constraint=tf.keras.constraints.NonNeg()",
    "unit_norm_bias_l2": (", kernel_constraint=tf.keras.constraints.UnitNorm(axis=0), "
                          "bias_regularizer=tf.keras.regularizers.L2(0.05)"),
    "min_max_bias_l1": (", kernel_constraint=tf.keras.constraints.MinMaxNorm(0.2, 0.9, rate=0.5), "
                        "bias_constraint=tf.keras.constraints.NonNeg(), bias_regularizer=tf.keras.regularizers.L1(0.02)"),
}
#: A user layer with a weight of its own (add_weight in build) and a loss of its own (add_loss in call), before the
#: heads (``custom_layer=yes``).
CUSTOM_LAYER = '''\
class ScaleShift(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")
        self.shift = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="shift",
                                     regularizer=tf.keras.regularizers.L2(0.01))
    def call(self, t):
        self.add_loss(0.02 * tf.reduce_mean(tf.square(self.scale - 1.0)))
        return t * self.scale + self.shift
'''
CUSTOM_LAYER_LINE = "h = ScaleShift()(h)"
#: The custom train_step as Keras 2 code writes it (``step_form=compiled``): `self.compiled_loss` with the
#: regularization losses and `self.compiled_metrics.update_state`, the logs every metric's result (Keras 3.15's
#: shims: compiled_loss is compute_loss; compiled_metrics updates every metric of `self.metrics`, the loss tracker
#: with y_pred).
CUSTOM_MODEL_COMPILED = '''\
class CustomModel(tf.keras.Model):
    def train_step(self, data):
        x, y, sample_weight = tf.keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return {m.name: m.result() for m in self.metrics}
'''
#: The custom train_step with metrics of its own (``step_form=trackers``): a Mean loss tracker and a metric made in
#: `__init__`, listed by the `metrics` property (so fit and evaluate reset them), updated by hand.
CUSTOM_MODEL_TRACKERS = '''\
class CustomModel(tf.keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")
        self.err_metric = tf.keras.metrics.MeanSquaredError(name="err")
    @property
    def metrics(self):
        return [self.loss_tracker, self.err_metric]
    def train_step(self, data):
        x, y, sample_weight = tf.keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.err_metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}
'''
#: get_config/from_config round trip and the summary (``config_roundtrip=yes``): the summary's lines (a table row's
#: output shape and parameter count only, its continuation lines left out: its name and connections hold Keras's
#: process-wide uniquifying counters, and the table wraps or cuts a long cell, so their text and line count depend on
#: the programs run before; the model's name without its suffix), the parameter count, the rebuilt model's layer classes and its predictions with the
#: trained weights.
CONFIG_ROUNDTRIP_SRC = '''\
import re as _re3
_sum = []
model.summary(print_fn=lambda s, line_break=False: _sum.append(s))
_rows = [ln for s in _sum for ln in s.split("\\n")]
obs["summary/lines"] = np.asarray([" | ".join(c.strip() for c in ln.split("\\u2502")[2:4]) if ln.startswith("\\u2502")
                                   else _re3.sub(r"(\\w)_\\d+\\b", r"\\1", ln) for ln in _rows
                                   if not ln.startswith("\\u2502") or ln.split("\\u2502")[2].strip()])
obs["summary/count_params"] = np.int64(model.count_params())
_cfg = model.get_config()
with strategy.scope():
    model_rt = type(model).from_config(_cfg)
obs["summary/rebuilt_layers"] = np.asarray([type(l).__name__ for l in model_rt.layers])
model_rt.set_weights(model.get_weights())
obs["loaded_predict/config_roundtrip"] = np.stack([np.asarray(p) for p in tf.nest.flatten(
    model_rt.predict(x[:4], verbose=0))])
'''
#: A model with random layers called after fit in inference mode and twice in training mode (``dropout_call=yes``):
#: the masks drawn from the layers' seed generators as fit left them.
DROPOUT_CALL_SRC = '''\
obs["predict/inference_call"] = np.stack([np.asarray(backend.to_numpy(t))
                                          for t in tf.nest.flatten(model(x[:4], training=False))])
for _k in range(2):
    obs[f"predict/dropout_call{_k}"] = np.stack([np.asarray(backend.to_numpy(t))
                                                 for t in tf.nest.flatten(model(x[:4], training=True))])
'''
#: evaluate's list form and the model's metric names (``eval_list=yes``).
EVAL_LIST_SRC = '''\
import re as _re4
ev_l = model.evaluate(x, y, batch_size=batch_size, verbose=0)
obs["evaluate/list"] = np.atleast_1d(np.asarray(ev_l, dtype=np.float64))
obs["cb_keys/metrics_names"] = np.asarray([_re4.sub(r"_\\d+$", "", k) for k in model.metrics_names])
'''

#: kfuzz47's vocabulary, drawn by ftr_progs._widen7's generator of its own.
#: Models with Keras preprocessing and normalization layers and recurrent dropout, as people write them (``arch``
#: from ARCHS7, one one-input program in eight): a Normalization adapted on data (ARCH_ADAPT: after init_weights,
#: so the adapted statistics are the layer's), Rescaling + LayerNormalization, IntegerLookup into an Embedding, a
#: Conv2D without bias + BatchNormalization + ReLU, a Conv1D + GroupNormalization, a stacked LSTM and Bidirectional
#: GRU with dropout and recurrent dropout.
ARCHS7: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "normalization_adapt": ("float", (4,), (f"norm = {_L}Normalization()",
                                            "h = norm(h)",
                                            f"h = {_L}Dense(4, activation='relu')(h)")),
    "rescaling_layernorm": ("float", (4,), (f"h = {_L}Rescaling(0.5, offset=0.25)(h)",
                                            f"h = {_L}Dense(5)(h)",
                                            f"h = {_L}LayerNormalization()(h)",
                                            f"h = {_L}Activation('relu')(h)")),
    "integer_lookup_embed": ("int", (5,), (f"h = {_L}IntegerLookup(vocabulary=[1, 2, 3, 4])(h)",
                                           f"h = {_L}Embedding(5, 3)(h)",
                                           f"h = {_L}GlobalAveragePooling1D()(h)")),
    "conv_bn_relu": ("float", (5, 5, 1), (f"h = {_L}Conv2D(3, 3, use_bias=False)(h)",
                                          f"h = {_L}BatchNormalization()(h)",
                                          f"h = {_L}Activation('relu')(h)",
                                          f"h = {_L}GlobalAveragePooling2D()(h)")),
    "conv1d_group_norm": ("float", (6, 2), (f"h = {_L}Conv1D(4, 2)(h)",
                                            f"h = {_L}GroupNormalization(groups=2)(h)",
                                            f"h = {_L}Flatten()(h)")),
    "stacked_rnn_dropout": ("float", (4, 2), (f"h = {_L}LSTM(3, return_sequences=True, dropout=0.2, "
                                              "recurrent_dropout=0.2, seed=7)(h)",
                                              f"h = {_L}Bidirectional({_L}GRU(2, dropout=0.1, seed=3))(h)")),
}
#: Lines run after init_weights (the adapted statistics of the layer, not init_weights' draws).
ARCH_ADAPT: dict[str, str] = {
    "normalization_adapt": "norm.adapt(np.arange(24, dtype=np.float32).reshape(6, 4) / 8.0)",
}
#: ARCHS7's models with BatchNormalization or random layers (the grid's rules of its own such models).
BN_ARCHS7 = ("conv_bn_relu",)
RANDOM_ARCHS7 = ("stacked_rnn_dropout",)
#: Metrics by their string names, as a flat list over every output (``metrics_form=strings``), by target kind.
METRIC_STRINGS: dict[str, list[str]] = {
    "reg": ["mae", "mse"], "pos": ["mae", "mse"], "bin": ["accuracy", "binary_crossentropy"],
    "onehot": ["accuracy", "categorical_crossentropy"], "sparse": ["accuracy", "sparse_categorical_crossentropy"],
}
#: train_on_batch, test_on_batch and predict_on_batch after fit (``batch_api=yes``): ROWS rows of x and y.
BATCH_API_SRC = '''\
_yb = tf.nest.map_structure(lambda a: a[:ROWS], y)
obs["history/train_on_batch"] = np.atleast_1d(np.asarray(model.train_on_batch(x[:ROWS], _yb), dtype=np.float64))
obs["final_weights/after_train_on_batch"] = flat(model)
obs["history/train_on_batch_dict"] = np.asarray([v for _, v in sorted(
    model.train_on_batch(x[:ROWS], _yb, return_dict=True).items())], dtype=np.float64)
obs["evaluate/test_on_batch"] = np.atleast_1d(np.asarray(model.test_on_batch(x[:ROWS], _yb), dtype=np.float64))
obs["predict/on_batch"] = np.stack([np.asarray(p) for p in tf.nest.flatten(model.predict_on_batch(x[:5]))])
'''
#: ModelCheckpoint of the whole model to a .keras file, the best epoch only (``checkpoint_cb=keras``), loaded by
#: load_model under the strategy after fit: its weights and its optimizer's variables.
CHECKPOINT_KERAS_CB = f"{_C}ModelCheckpoint(ckpt_keras, monitor=MONITOR, save_best_only=True)"
CHECKPOINT_KERAS_PRE = '''\
import os, tempfile
ckpt_keras = os.path.join(tempfile.mkdtemp(), "best.keras")
'''
CHECKPOINT_KERAS_POST = '''\
with strategy.scope():
    model_ckk = tf.keras.models.load_model(ckpt_keras)
obs["loaded_weights/checkpoint_keras"] = flat(model_ckk)
for i, v in enumerate(opt_vars(model_ckk.optimizer)):
    obs[f"restored_optimizer_var/checkpoint_keras/{i}"] = v
'''
#: kfuzz48's vocabulary, drawn by ftr_progs._widen8's generator of its own.
#: Keras preprocessing layers inside the model as people write them (``arch`` from ARCHS8, one one-input fit program
#: in eight without a model_form): token strings through a StringLookup with a vocabulary into an Embedding; one
#: string per row through a TextVectorization adapted on a literal corpus (ARCH_ADAPT8) into an Embedding with
#: mask_zero and a masked GlobalAveragePooling1D; a float input bucketed by Discretization into an Embedding; integer
#: tokens counted by CategoryEncoding; integer tokens hashed by Hashing into an Embedding. The data of "words" and
#: "text" models are integer tokens 0-5 (the program's parameters stay numeric), turned into words in the program
#: (STRING_INPUTS_SRC: x and validation_data's x, as string tensors) before anything reads them.
ARCHS8: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "string_lookup_embed": ("words", (5,), (f"h = {_L}StringLookup(vocabulary=['one', 'two', 'three', 'four'])(h)",
                                            f"h = {_L}Embedding(5, 3)(h)",
                                            f"h = {_L}GlobalAveragePooling1D()(h)")),
    "text_vectorization_embed": ("text", (5,), (f"tv = {_L}TextVectorization(max_tokens=6, output_sequence_length=6)",
                                                "h = tv(h)",
                                                f"h = {_L}Embedding(6, 3, mask_zero=True)(h)",
                                                f"h = {_L}GlobalAveragePooling1D()(h)")),
    "discretization_embed": ("float", (4,), (f"h = {_L}Discretization(bin_boundaries=[-0.5, 0.0, 0.5])(h)",
                                             f"h = {_L}Embedding(4, 3)(h)",
                                             f"h = {_L}Flatten()(h)")),
    "category_encoding_count": ("int", (5,), (f"h = {_L}CategoryEncoding(num_tokens=6, output_mode='count')(h)",
                                              f"h = {_L}Dense(4, activation='relu')(h)")),
    "hashing_embed": ("int", (5,), (f"h = {_L}Hashing(num_bins=4)(h)",
                                    f"h = {_L}Embedding(4, 2)(h)",
                                    f"h = {_L}Flatten()(h)")),
}
#: Lines run after init_weights (the adapted vocabulary: counts 4, 3, 3, 2, 1, 1, ties among them).
ARCH_ADAPT8: dict[str, str] = {
    "text_vectorization_embed": "tv.adapt(['one two two three', 'three three four', 'five one zero two', 'four four four'])",
}
#: The input layer of a string model (``words``: one token per position; ``text``: one string per row).
STRING_INPUTS = {"words": "tf.keras.Input((5,), dtype='string')", "text": "tf.keras.Input((), dtype='string')"}
#: The integer tokens turned into words (a "words" model) or one space-joined string per row (a "text" model).
STRING_INPUTS_SRC = '''\
_WORDS = np.array(['zero', 'one', 'two', 'three', 'four', 'five'])
def _as_strings(a):
    w = _WORDS[np.asarray(a)]   # (a tensor: Keras 3.15's array adapter refuses NumPy string arrays, ValueError
    #                              "Invalid dtype: str160", on TF 2.21 and simdist alike)
    return tf.constant(w if KIND == "words" else [" ".join(r) for r in w])
x = _as_strings(x)
fit_kwargs = dict(fit_kwargs)
if "validation_data" in fit_kwargs:
    fit_kwargs["validation_data"] = (_as_strings(fit_kwargs["validation_data"][0]),) + tuple(fit_kwargs["validation_data"][1:])
'''
#: Sample weights of two outputs given per output (``sw_form``): a list in the outputs' order or a dict keyed by
#: the output names, the second output's weights derived from the drawn ones (the parameters stay as drawn).
SW_PER_OUTPUT_SRC = '''\
fit_kwargs = dict(fit_kwargs)
_sw = fit_kwargs["sample_weight"]
fit_kwargs["sample_weight"] = FORM
'''
SW_FORMS = {"list": "[_sw, np.float32(2.0) - _sw]", "dict": "{'out0': _sw, 'out1': np.float32(2.0) - _sw}"}

#: kfuzz49's vocabulary, drawn by ftr_progs._widen9's generator of its own.
#: Recurrent models as people write them beside the LSTM and GRU ones (``arch`` from ARCHS9, one one-input program in
#: eight without a model_form): padded float sequences (input kind ``padseq``: each row's last 0-2 steps zeroed,
#: PADSEQ_STEPS) behind a Masking layer into an LSTM, a SimpleRNN, a GRU with reset_after=False, a Conv1D's sequence
#: into an LSTM, a masked Embedding into a SimpleRNN's sequences pooled over the unmasked steps.
ARCHS9: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "masking_lstm": ("padseq", (4, 2), (f"h = {_L}Masking(mask_value=0.0)(h)",
                                        f"h = {_L}LSTM(3)(h)")),
    "masking_gru_seq": ("padseq", (5, 2), (f"h = {_L}Masking(mask_value=0.0)(h)",
                                           f"h = {_L}GRU(2, return_sequences=True)(h)",
                                           f"h = {_L}GlobalAveragePooling1D()(h)")),
    "simple_rnn": ("float", (4, 2), (f"h = {_L}SimpleRNN(3)(h)",)),
    "gru_reset_before": ("float", (4, 2), (f"h = {_L}GRU(3, reset_after=False)(h)",)),
    "conv1d_lstm": ("float", (6, 2), (f"h = {_L}Conv1D(4, 2, activation='relu')(h)",
                                      f"h = {_L}LSTM(2)(h)")),
    "embed_masked_simple_rnn_seq": ("int", (5,), (f"h = {_L}Embedding(6, 3, mask_zero=True)(h)",
                                                  f"h = {_L}SimpleRNN(2, return_sequences=True)(h)",
                                                  f"h = {_L}GlobalAveragePooling1D()(h)")),
}
#: The padded steps of a ``padseq`` row: how many of its last steps are zeroed, drawn per row.
PADSEQ_STEPS = (0, 1, 2)
#: A custom loop's gradients clipped before they are applied (``ctl_clip``), as the clipping guides write it.
CTL_CLIPS: dict[str, str] = {
    "global_norm": "    grads, _ = tf.clip_by_global_norm(grads, 0.5)\n",
    "norm": "    grads = [tf.clip_by_norm(g, 0.2) for g in grads]\n",
    "value": "    grads = [tf.clip_by_value(g, -0.05, 0.05) for g in grads]\n",
}
#: Gradient clipping alone on the optimizer of a mixed_float16 fit (``opt_clip``): the LossScaleOptimizer Keras wraps
#: around it unscales the gradients before the inner optimizer clips them.
OPT_CLIPS: dict[str, dict[str, Any]] = {
    "clipnorm": {"clipnorm": 0.5},
    "clipvalue": {"clipvalue": 0.1},
    "global_clipnorm": {"global_clipnorm": 0.5},
}
#: fit interrupted and resumed by BackupAndRestore (``backup=interrupt``): a fresh compiled model fit for three epochs
#: with a BackupAndRestore and a callback raising at the first epoch's end (a lost worker), then another fresh model
#: fit again with a BackupAndRestore of the same directory, which restores the weights, the optimizer and the epoch
#: saved before the interruption and trains the remaining epochs.
BACKUP_SRC = '''\
import os as _os9, tempfile as _tmp9
_backup_dir = _os9.path.join(_tmp9.mkdtemp(), "backup")
class _Interrupt(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            raise RuntimeError("interrupted")
with strategy.scope():
    model_b, opt_b = build()
    model_b.compile(optimizer=opt_b, loss=LOSS, metrics=METRICS)
try:
    model_b.fit(x, y, batch_size=batch_size, epochs=3, shuffle=False, verbose=0,
                callbacks=[tf.keras.callbacks.BackupAndRestore(_backup_dir), _Interrupt()])
    obs["history/backup_interrupted"] = np.float64(0.0)
except RuntimeError as _e:
    obs["history/backup_interrupted"] = np.float64(str(_e) == "interrupted")
obs["loaded_weights/backup_at_interrupt"] = flat(model_b)
with strategy.scope():
    model_b2, opt_b2 = build()
    model_b2.compile(optimizer=opt_b2, loss=LOSS, metrics=METRICS)
_hb = model_b2.fit(x, y, batch_size=batch_size, epochs=3, shuffle=False, verbose=0,
                   callbacks=[tf.keras.callbacks.BackupAndRestore(_backup_dir)])
for key in sorted(_hb.history):
    obs[f"history/backup_{key}"] = np.asarray(_hb.history[key], dtype=np.float64)
obs["continued_weights/backup"] = flat(model_b2)
for i, v in enumerate(opt_vars(model_b2.optimizer)):
    obs[f"restored_optimizer_var/backup/{i}"] = v
obs["history/backup_dir_left"] = np.float64(_os9.path.exists(_backup_dir))
'''

#: kfuzz50's vocabulary, drawn by ftr_progs._widen10's generator of its own.
#: The blocks people stack (``arch`` from ARCHS10, one one-input program in eight without a model_form): a
#: Transformer encoder block (MultiHeadAttention + residual Add + LayerNormalization, a Dense feed-forward + residual
#: Add + LayerNormalization, pooled; the attention without biases: its key bias has a gradient of 0 in exact
#: arithmetic, the grid's NOISE_PARAMS class), a Conv2D without bias + BatchNormalization + ReLU + MaxPooling2D +
#: Dropout + GlobalAveragePooling2D image block, a Conv1D + BatchNormalization + MaxPooling1D + GlobalAveragePooling1D
#: block, an Embedding + Conv1D + MaxPooling1D + LSTM + Dense text classifier.
ARCHS10: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "transformer_block": ("float", (3, 4), (f"a = {_L}MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h)",
                                            f"h = {_L}LayerNormalization(epsilon=1e-6)({_L}Add()([h, a]))",
                                            f"f = {_L}Dense(6, activation='relu')(h)",
                                            f"f = {_L}Dense(4)(f)",
                                            f"h = {_L}LayerNormalization(epsilon=1e-6)({_L}Add()([h, f]))",
                                            f"h = {_L}GlobalAveragePooling1D()(h)")),
    "conv2d_bn_pool_dropout_gap": ("float", (6, 6, 1), (f"h = {_L}Conv2D(4, 3, padding='same', use_bias=False)(h)",
                                                        f"h = {_L}BatchNormalization()(h)",
                                                        f"h = {_L}Activation('relu')(h)",
                                                        f"h = {_L}MaxPooling2D(2)(h)",
                                                        f"h = {_L}Dropout(0.25, seed=6)(h)",
                                                        f"h = {_L}GlobalAveragePooling2D()(h)")),
    "conv1d_bn_pool_gap": ("float", (8, 2), (f"h = {_L}Conv1D(4, 3, padding='same', use_bias=False)(h)",
                                             f"h = {_L}BatchNormalization(momentum=0.9)(h)",
                                             f"h = {_L}Activation('relu')(h)",
                                             f"h = {_L}MaxPooling1D(2)(h)",
                                             f"h = {_L}GlobalAveragePooling1D()(h)")),
    "embed_conv1d_lstm": ("int", (6,), (f"h = {_L}Embedding(6, 3)(h)",
                                        f"h = {_L}Conv1D(4, 2, activation='relu')(h)",
                                        f"h = {_L}MaxPooling1D(2)(h)",
                                        f"h = {_L}LSTM(3)(h)",
                                        f"h = {_L}Dense(3, activation='relu')(h)")),
}
#: ARCHS10's models with BatchNormalization or random layers (the grid's rules of its own such models).
BN_ARCHS10 = ("conv2d_bn_pool_dropout_gap", "conv1d_bn_pool_gap")
RANDOM_ARCHS10 = ("conv2d_bn_pool_dropout_gap",)
#: A functional Model subclass overriding compute_loss (``model=compute_loss``), as Keras's docstring of
#: Trainer.compute_loss invites: the compiled loss by super() plus a penalty on the predictions' size.
COMPUTE_LOSS_MODEL = '''\
class LossModel(tf.keras.Model):
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        loss = super().compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=training)
        penalty = tf.add_n([tf.reduce_mean(tf.square(tf.cast(p, "float32"))) for p in tf.nest.flatten(y_pred)])
        return loss + tf.cast(0.01 * penalty, loss.dtype)
'''
#: Learning-rate schedules beside the grid's (``schedule10``, for an optimizer without another schedule): smooth
#: ExponentialDecay, CosineDecayRestarts, a PiecewiseConstantDecay of three boundaries.
SCHEDULES10: dict[str, str] = {
    "exp_decay_smooth": _S + "ExponentialDecay({lr}, 3, 0.7)",
    "cosine_restarts": _S + "CosineDecayRestarts({lr}, 2, t_mul=2.0, m_mul=0.8, alpha=0.1)",
    "piecewise3": _S + "PiecewiseConstantDecay([2, 4, 6], [{lr}, {lr} * 0.5, {lr} * 0.25, {lr} * 0.1])",
}
#: The biases kept out of weight decay (``wd_exclude=bias``), as AdamW users write it: before the optimizer is built.
WD_EXCLUDE_LINE = "opt.exclude_from_weight_decay(var_names=['bias'])"
#: Validation data with sample weights of their own (``val_sw=yes``): the third element of validation_data.
VAL_SW_SRC = '''\
fit_kwargs = dict(fit_kwargs)
_vx, _vy = fit_kwargs["validation_data"][:2]
_vn = len(tf.nest.flatten(_vy)[0])
fit_kwargs["validation_data"] = (_vx, _vy, np.round(np.linspace(0.25, 1.75, _vn), 2).astype(np.float32))
'''
#: A custom loop checkpointed by a tf.train.CheckpointManager at each epoch's end (``ckpt_manager=yes``); after the
#: loop a fresh model and optimizer restore the first epoch's checkpoint (mid-run) and train one more epoch.
CKPT_MANAGER_SAVE = "    ckm.save()\n"
CKPT_MANAGER_PRE = '''\
import os as _os10, tempfile as _tmp10
ckm = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt),
                                 _os10.path.join(_tmp10.mkdtemp(), "ckm"), max_to_keep=2)
'''
CKPT_MANAGER_POST = '''\
obs["history/manager_checkpoints"] = np.float64(len(ckm.checkpoints))
with strategy.scope():
    model_r, opt_r = build()
    opt_r.build(model_r.trainable_variables)
tf.train.Checkpoint(model=model_r, optimizer=opt_r).restore(ckm.checkpoints[0])
obs["restored_weights/manager"] = flat(model_r)
for i, v in enumerate(opt_vars(opt_r)):
    obs[f"restored_optimizer_var/manager/{i}"] = v
def step_r(xb, yb):
    with tf.GradientTape() as tape:
        pred = model_r(xb, training=True)
        loss = tf.nn.compute_average_loss(loss_obj(yb, pred), global_batch_size=GB)
    grads = tape.gradient(loss, model_r.trainable_variables)
    opt_r.apply_gradients(zip(grads, model_r.trainable_variables))
    return loss
def replicated_r(xb, yb):
    return strategy.run(step_r, args=(xb, yb))
if USE_FUNCTION:
    replicated_r = tf.function(replicated_r)
for xb, yb in dist:
    loss_r = replicated_r(xb, yb)
    n = len([k for k in obs if k.startswith("step_loss/manager_")])
    obs[f"step_loss/manager_{n}"] = backend.to_numpy(strategy.reduce("SUM", loss_r, axis=None))
obs["continued_weights/manager"] = flat(model_r)
'''

#: kfuzz51's vocabulary, drawn by ftr_progs._widen11's generator of its own.
#: The layers people stack that no earlier table held (``arch`` from ARCHS11, one one-input program in eight without a
#: model_form): a Conv2D encoder into an UpSampling2D + Conv2DTranspose decoder, ZeroPadding2D + Conv2D + Cropping2D
#: into GlobalMaxPooling2D, a ConvLSTM1D and a ConvLSTM2D, Permute + Flatten + RepeatVector into an LSTM, a residual
#: Dense block and a residual Conv1D block (Add, then an activation), an Average and a Maximum of three branches, a
#: SpectralNormalization-wrapped Dense, a TimeDistributed Conv1D.
ARCHS11: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "conv_updecoder": ("float", (6, 6, 1), (f"h = {_L}Conv2D(2, 3, strides=2, padding='same', activation='relu')(h)",
                                            f"h = {_L}UpSampling2D(2)(h)",
                                            f"h = {_L}Conv2DTranspose(2, 3, padding='same', activation='relu')(h)",
                                            f"h = {_L}Flatten()(h)")),
    "zeropad_conv_crop": ("float", (4, 4, 2), (f"h = {_L}ZeroPadding2D(((1, 0), (1, 1)))(h)",
                                               f"h = {_L}Conv2D(3, 2)(h)",
                                               f"h = {_L}Cropping2D(((1, 0), (0, 1)))(h)",
                                               f"h = {_L}GlobalMaxPooling2D()(h)")),
    "conv_lstm1d": ("float", (3, 4, 2), (f"h = {_L}ConvLSTM1D(2, 2)(h)",
                                         f"h = {_L}Flatten()(h)")),
    "conv_lstm2d_seq": ("float", (2, 3, 3, 1), (f"h = {_L}ConvLSTM2D(2, 2, padding='same', return_sequences=True)(h)",
                                                f"h = {_L}GlobalAveragePooling3D()(h)")),
    "permute_repeat_lstm": ("float", (3, 2), (f"h = {_L}Permute((2, 1))(h)",
                                              f"h = {_L}Flatten()(h)",
                                              f"h = {_L}RepeatVector(3)(h)",
                                              f"h = {_L}LSTM(2)(h)")),
    "residual_dense": ("float", (4,), (f"h = {_L}Dense(4)(h)",
                                       f"r = {_L}Dense(4, activation='relu')(h)",
                                       f"r = {_L}Dense(4)(r)",
                                       f"h = {_L}Activation('relu')({_L}Add()([h, r]))")),
    "residual_conv1d": ("float", (6, 2), (f"h = {_L}Conv1D(3, 3, padding='same')(h)",
                                          f"r = {_L}Conv1D(3, 3, padding='same', activation='relu')(h)",
                                          f"h = {_L}Activation('tanh')({_L}Add()([h, r]))",
                                          f"h = {_L}GlobalMaxPooling1D()(h)")),
    "average_maximum": ("float", (4,), (f"a = {_L}Dense(3, activation='relu')(h)",
                                        f"b = {_L}Dense(3, activation='tanh')(h)",
                                        f"c = {_L}Dense(3)(h)",
                                        f"h = {_L}Concatenate()([{_L}Average()([a, b, c]), {_L}Maximum()([a, b, c])])")),
    "spectral_norm_dense": ("float", (4,), (f"h = {_L}SpectralNormalization({_L}Dense(4, activation='relu'))(h)",)),
    "time_distributed_conv": ("float", (2, 5, 2), (f"h = {_L}TimeDistributed({_L}Conv1D(2, 2, activation='relu'))(h)",
                                                   f"h = {_L}Flatten()(h)")),
}
#: Metric sets beside the grid's (``metrics11``: by target kind, one set drawn, on every output): AUC by the PR curve and
#: multi-label, Precision/Recall with thresholds, top_k and class_id, F1Score/FBetaScore, the IoU family,
#: TopKCategoricalAccuracy(k=1), R2Score (scalar results only: a per-class F1Score vector is no log value), the regression and probabilistic metrics, the confusion counts.
_M = "tf.keras.metrics."
METRICS11: dict[str, tuple[str, ...]] = {
    "bin": (f"[{_M}AUC(curve='PR', num_thresholds=7), {_M}F1Score(average='micro', threshold=0.5)]",
            f"[{_M}AUC(multi_label=True, num_thresholds=4), {_M}BinaryIoU(target_class_ids=[0, 1], threshold=0.4)]",
            f"[{_M}Precision(thresholds=0.3), {_M}Recall(thresholds=0.6), {_M}FBetaScore(beta=2.0, average='macro', threshold=0.5)]",
            f"[{_M}TruePositives(), {_M}FalseNegatives(thresholds=0.3), {_M}PrecisionAtRecall(0.5, num_thresholds=5)]"),
    "onehot": (f"[{_M}Precision(class_id=1), {_M}Recall(top_k=2)]",
               f"[{_M}F1Score(average='macro', threshold=0.4), {_M}OneHotMeanIoU(num_classes=3)]",
               f"[{_M}AUC(multi_label=True, num_labels=3, num_thresholds=6), {_M}TopKCategoricalAccuracy(k=1)]",
               f"[{_M}FBetaScore(beta=0.5, average='weighted'), {_M}Precision(top_k=2), {_M}OneHotIoU(num_classes=3, target_class_ids=[1])]"),
    "sparse": (f"[{_M}SparseTopKCategoricalAccuracy(k=1), {_M}SparseCategoricalCrossentropy(from_logits=True)]",
               f"[{_M}MeanIoU(num_classes=3, sparse_y_pred=False)]",
               f"[{_M}IoU(num_classes=3, target_class_ids=[0, 2], sparse_y_pred=False), 'accuracy']"),
    "reg": (f"[{_M}R2Score(), {_M}LogCoshError()]",
            f"[{_M}CosineSimilarity(axis=-1), {_M}MeanAbsolutePercentageError()]",
            f"[{_M}R2Score(class_aggregation='variance_weighted_average'), {_M}RootMeanSquaredError()]"),
    "pos": (f"[{_M}Poisson(), {_M}KLDivergence()]",
            f"[{_M}R2Score(), {_M}MeanSquaredLogarithmicError()]"),
}
#: Less common options of each optimizer class (``opt11``: the drawn optimizer's own options win).
OPT_OPTIONS11: dict[str, dict[str, Any]] = {
    "SGD": {"momentum": 0.3, "nesterov": True},
    "Adam": {"beta_2": 0.9, "epsilon": 1e-4},
    "AdamW": {"beta_2": 0.95, "amsgrad": True},
    "Adagrad": {"epsilon": 0.01},
    "RMSprop": {"rho": 0.8, "momentum": 0.3},
    "Adadelta": {"epsilon": 1e-3},
    "Adamax": {"beta_2": 0.9, "epsilon": 1e-4},
    "Nadam": {"beta_2": 0.99, "epsilon": 1e-5},
    "Ftrl": {"initial_accumulator_value": 0.5},
    "Lion": {"beta_2": 0.9},
    "Lamb": {"beta_2": 0.9, "epsilon": 1e-4},
    "Adafactor": {"beta_2_decay": -0.6, "epsilon_2": 1e-2, "clip_threshold": 0.5, "relative_step": False},
}
#: Callbacks added beside the drawn ones (``callbacks11``): a LambdaCallback recording each epoch's logs and the first
#: batch's, a LearningRateScheduler of (epoch, lr) with verbose=1, a CSVLogger appending two fits into one file (read
#: back after fit, ``csv_append``: the second fit's one epoch appended).
CALLBACKS11: dict[str, str] = {
    "lambda": (f"{_C}LambdaCallback(on_epoch_end=lambda epoch, logs: obs.__setitem__("
               "f'history/lambda_e{epoch}', np.asarray([logs[k] for k in sorted(logs)], dtype=np.float64)), "
               "on_train_batch_end=lambda batch, logs: obs.setdefault('history/lambda_b0', np.float64(logs['loss'])))"),
    "lr_scheduler_verbose": f"{_C}LearningRateScheduler(lambda epoch, lr: lr * 0.7 if epoch % 2 else lr, verbose=1)",
    "csv_append": f"{_C}CSVLogger(csv11_file, append=True)",
}
CSV_APPEND_PRE = '''\
import csv as _csv11, os as _os11, re as _re11, tempfile as _tmp11
csv11_file = _os11.path.join(_tmp11.mkdtemp(), "append.csv")
'''
CSV_APPEND_POST = '''\
model.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0,
          callbacks=[tf.keras.callbacks.CSVLogger(csv11_file, append=True)])
with open(csv11_file, newline="") as _f11:
    _rows11 = list(_csv11.reader(_f11))
obs["cb_keys/csv_append"] = np.asarray([_re11.sub(r"_\\d+$", "", k) for k in _rows11[0]])
obs["history/csv_append_rows"] = np.float64(len(_rows11))
for _r, _row in enumerate(_rows11[1:]):
    obs[f"history/csv_append_r{_r}"] = np.asarray([np.nan if v == "NA" else float(v) for v in _row], dtype=np.float64)
'''
#: BackupAndRestore saving every two batches (``backup=interrupt_batches``): the interruption at the second epoch's
#: first batch, after a save mid-epoch (double_checkpoint keeps the save before it too).
BACKUP_BATCHES_SRC = BACKUP_SRC.replace(
    "tf.keras.callbacks.BackupAndRestore(_backup_dir), _Interrupt()",
    "tf.keras.callbacks.BackupAndRestore(_backup_dir, save_freq=2, double_checkpoint=True), _Interrupt()").replace(
    '''    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            raise RuntimeError("interrupted")''',
    '''    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch
    def on_train_batch_end(self, batch, logs=None):
        if self.epoch == 1 and batch == 0:
            raise RuntimeError("interrupted")''').replace(
    "callbacks=[tf.keras.callbacks.BackupAndRestore(_backup_dir)])",
    "callbacks=[tf.keras.callbacks.BackupAndRestore(_backup_dir, save_freq=2, double_checkpoint=True)])")
#: validation in batches of its own (``val_batch``): validation_batch_size, with or without validation_steps.
VAL_BATCH_KW: dict[str, str] = {"size2": "validation_batch_size=2", "size3_steps1": "validation_batch_size=3, validation_steps=1"}

#: kfuzz52: the optimizers a second compile takes (transfer learning's lower rate, a clone's own optimizer).
OPTS12: dict[str, str] = {
    "sgd_momentum": "tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)",
    "adam_low": "tf.keras.optimizers.Adam(learning_rate=0.001)",
    "rmsprop_low": "tf.keras.optimizers.RMSprop(learning_rate=0.002)",
}
#: Transfer learning after fit (``transfer=recompile``, the Keras guide's pattern): the first layer with weights
#: frozen (a nested model as a whole), compiled again with a lower rate and fit one epoch; unfrozen, compiled again
#: and fit one more. ``transfer=flip``: frozen without compiling again (Keras 3.15's train function is traced once
#: per compile, its trainable variables read at trace time), then compiled and fit.
TRANSFER_SRC = '''\
_weighted12 = [l for l in model.layers if l.trainable_weights]
_frozen12 = _weighted12[:1] if len(_weighted12) > 1 else []
for _l12 in _frozen12:
    _l12.trainable = False
obs["transfer/trainable"] = np.int64(len(model.trainable_weights))
obs["transfer/non_trainable"] = np.int64(len(model.non_trainable_weights))
RECOMPILE_h12 = model.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
obs["transfer/loss1"] = np.asarray(_h12.history["loss"], dtype=np.float64)
obs["transfer/weights1"] = flat(model)
for _l12 in _frozen12:
    _l12.trainable = True
with strategy.scope():
    model.compile(optimizer=OPT3, loss=LOSS, metrics=METRICS)
_h12 = model.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
obs["transfer/loss2"] = np.asarray(_h12.history["loss"], dtype=np.float64)
obs["transfer/weights2"] = flat(model)
'''
TRANSFER_RECOMPILE = '''with strategy.scope():
    model.compile(optimizer=OPT2, loss=LOSS, metrics=METRICS)
'''
#: clone_model + set_weights (``clone=yes``): the trained model cloned under the strategy, its weights copied, compiled
#: with an optimizer of its own, its predictions, one epoch of fit and evaluate.
CLONE_SRC = '''\
with strategy.scope():
    _clone12 = tf.keras.models.clone_model(model)
    _clone12.set_weights(model.get_weights())
    _clone12.compile(optimizer=OPT2, loss=LOSS, metrics=METRICS)
obs["clone/predict"] = np.asarray(_clone12.predict(x[:4], verbose=0))
_hc12 = _clone12.fit(x, y, batch_size=batch_size, epochs=1, shuffle=False, verbose=0)
for _k12 in sorted(_hc12.history):
    obs[f"history/clone_{_k12}"] = np.asarray(_hc12.history[_k12], dtype=np.float64)   # (history/: compared
    #                                                     without Keras's uniquifying suffix, reference.canonical_key)
obs["clone/weights"] = flat(_clone12)
obs["clone/evaluate"] = np.asarray(_clone12.evaluate(x, y, batch_size=4, verbose=0), dtype=np.float64)
'''
#: tf.data pipelines people write (``pipeline``, for a fit fed a dataset): the rows shuffled by an op seed under
#: set_random_seed (reshuffled each epoch or not), cached, prefetched, a float input augmented by seeded noise in map.
PIPELINES12: dict[str, str] = {
    "shuffle_reshuffle": "ds = tf.data.Dataset.from_tensor_slices(_parts).shuffle(len(_parts[0]), seed=7).batch(batch_size)",
    "shuffle_fixed_cache": ("ds = tf.data.Dataset.from_tensor_slices(_parts).shuffle(4, seed=11, "
                            "reshuffle_each_iteration=False).cache().batch(batch_size).prefetch(tf.data.AUTOTUNE)"),
    "cache_prefetch": "ds = tf.data.Dataset.from_tensor_slices(_parts).cache().batch(batch_size).prefetch(2)",
    "map_noise": ("ds = tf.data.Dataset.from_tensor_slices(_parts).map(lambda a, *r: (a + tf.random.uniform("
                  "tf.shape(a), -0.05, 0.05, seed=3),) + tuple(r)).batch(batch_size)"),
}
#: A custom loop under mixed_float16 (``ctl_mixed=yes``): the optimizer in a LossScaleOptimizer (unless it is one),
#: the loss scaled by scale_loss in the tape (Keras 3's custom-loop idiom; apply unscales the gradients).
CTL_MIXED_OPT = ("    if not isinstance(opt, tf.keras.optimizers.LossScaleOptimizer):\n"
                 "        opt = tf.keras.optimizers.LossScaleOptimizer(opt, initial_scale=256.0, dynamic_growth_steps=2)\n")

#: kfuzz53's vocabulary, drawn by ftr_progs._widen13's generator of its own.
#: Layers and blocks no earlier table held (``arch`` from ARCHS13, one one-input program in six without a model_form):
#: a causal self-attention (MultiHeadAttention with use_causal_mask), a masked Embedding into a self-attention (the
#: mask propagated to the attention and the pooling), an LSTM's sequences and states into a second LSTM's
#: initial_state, an RNN of StackedRNNCells, Bidirectional with merge_mode 'mul', 'ave' and None, a BatchNormalization
#: called with training=False (the fine-tuning idiom), image augmentation layers with seeds (RandomFlip +
#: RandomContrast, RandomRotation + RandomZoom + RandomTranslation), EinsumDense, Dot/Subtract merges into a Softmax
#: layer, Reshape + UpSampling1D + Cropping1D, Conv3D + MaxPooling3D, GaussianDropout + AlphaDropout,
#: ActivityRegularization. (The Dense before the BatchNormalization has no bias, as in the other BN tables: Keras 3.15's
#: fit calls a functional model's layers with its own training=True, so the BatchNormalization normalizes by the
#: batch's moments on TF 2.21 and simdist alike and cancels a bias, whose gradient is then float32 round-off that an
#: adaptive optimizer turns into a step: seed 5120261401 #19, Lamb, the grid's NOISE_PARAMS class.)
ARCHS13: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "mha_causal": ("float", (3, 4), (f"h = {_L}MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h, "
                                     "use_causal_mask=True)",
                                     f"h = {_L}GlobalAveragePooling1D()(h)")),
    "embed_masked_mha": ("int", (5,), (f"h = {_L}Embedding(6, 4, mask_zero=True)(h)",
                                       f"h = {_L}MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h)",
                                       f"h = {_L}GlobalAveragePooling1D()(h)")),
    "lstm_state_chain": ("float", (4, 2), (f"s, sh, sc = {_L}LSTM(3, return_sequences=True, return_state=True)(h)",
                                           f"h = {_L}LSTM(3)(s, initial_state=[sh, sc])")),
    "stacked_cells_rnn": ("float", (4, 2), (f"h = {_L}RNN({_L}StackedRNNCells([{_L}SimpleRNNCell(3), {_L}GRUCell(2)]))(h)",)),
    "bidirectional_mul": ("float", (3, 2), (f"h = {_L}Bidirectional({_L}LSTM(2, return_sequences=True), merge_mode='mul')(h)",
                                            f"h = {_L}Flatten()(h)")),
    "bidirectional_ave": ("float", (3, 2), (f"h = {_L}Bidirectional({_L}GRU(2), merge_mode='ave')(h)",)),
    "bidirectional_none": ("float", (3, 2), (f"f, b = {_L}Bidirectional({_L}GRU(2), merge_mode=None)(h)",
                                             f"h = {_L}Subtract()([f, b])")),
    "bn_inference": ("float", (4,), (f"h = {_L}Dense(4, use_bias=False)(h)",
                                     f"h = {_L}BatchNormalization()(h, training=False)",
                                     f"h = {_L}Activation('relu')(h)")),
    "augment_flip_contrast": ("float", (5, 5, 1), (f"h = {_L}RandomFlip('horizontal', seed=1)(h)",
                                                   f"h = {_L}RandomContrast(0.3, seed=2)(h)",
                                                   f"h = {_L}Conv2D(2, 2)(h)",
                                                   f"h = {_L}GlobalAveragePooling2D()(h)")),
    "augment_geometric": ("float", (5, 5, 1), (f"h = {_L}RandomRotation(0.1, seed=3)(h)",
                                               f"h = {_L}RandomZoom(0.2, seed=4)(h)",
                                               f"h = {_L}RandomTranslation(0.1, 0.1, seed=5)(h)",
                                               f"h = {_L}Flatten()(h)")),
    "einsum_dense": ("float", (4,), (f"h = {_L}EinsumDense('ab,bc->ac', output_shape=4, bias_axes='c', activation='relu')(h)",)),
    "dot_subtract_softmax": ("float", (4,), (f"a = {_L}Dense(3)(h)",
                                             f"b = {_L}Dense(3, activation='tanh')(h)",
                                             f"h = {_L}Concatenate()([{_L}Dot(axes=1, normalize=True)([a, b]), {_L}Subtract()([a, b])])",
                                             f"h = {_L}Softmax()(h)")),
    "upsample1d_crop": ("float", (4,), (f"h = {_L}Reshape((4, 1))(h)",
                                        f"h = {_L}UpSampling1D(2)(h)",
                                        f"h = {_L}Conv1D(2, 3)(h)",
                                        f"h = {_L}Cropping1D((1, 1))(h)",
                                        f"h = {_L}Flatten()(h)")),
    "conv3d_pool": ("float", (2, 4, 4, 1), (f"h = {_L}Conv3D(2, 2, padding='same')(h)",
                                            f"h = {_L}MaxPooling3D((1, 2, 2))(h)",
                                            f"h = {_L}Flatten()(h)")),
    "gaussian_alpha_dropout": ("float", (4,), (f"h = {_L}Dense(4, activation='selu')(h)",
                                               f"h = {_L}GaussianDropout(0.3, seed=2)(h)",
                                               f"h = {_L}AlphaDropout(0.1, seed=4)(h)")),
    "activity_regularization": ("float", (4,), (f"h = {_L}Dense(4, activation='relu')(h)",
                                                f"h = {_L}ActivityRegularization(l1=0.01, l2=0.02)(h)")),
}
#: ARCHS13's models with random layers in training (the rules of RANDOM_ARCHS).
RANDOM_ARCHS13 = ("augment_flip_contrast", "augment_geometric", "gaussian_alpha_dropout")
#: A user Loss subclass (``loss_form=subclass``: a pseudo-Huber loss with an option of its own and get_config, for
#: regression targets), as the Keras guide writes custom losses; the drawn reduction is passed to the base class.
CUSTOM_LOSS13 = '''\
class PseudoHuber(tf.keras.losses.Loss):
    def __init__(self, delta=0.5, name="pseudo_huber", **kwargs):
        super().__init__(name=name, **kwargs)
        self.delta = delta
    def call(self, y_true, y_pred):
        d = y_pred - y_true
        return tf.reduce_mean(self.delta ** 2 * (tf.sqrt(1.0 + tf.square(d / self.delta)) - 1.0), axis=-1)
    def get_config(self):
        return {**super().get_config(), "delta": self.delta}
'''
#: A user Metric subclass (``custom_metric=yes``): state by add_variable, update_state with sample weights, result,
#: reset_state; the mean absolute prediction per row, weighted (any target kind: it reads y_pred only).
CUSTOM_METRIC13 = '''\
class PredAbsMean(tf.keras.metrics.Metric):
    def __init__(self, name="pred_abs_mean", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")
    def update_state(self, y_true, y_pred, sample_weight=None):
        v = tf.reduce_mean(tf.abs(tf.cast(y_pred, "float32")), axis=-1)
        w = tf.ones_like(v) if sample_weight is None else tf.reshape(tf.cast(sample_weight, "float32"), tf.shape(v))
        self.total.assign_add(tf.reduce_sum(v * w))
        self.count.assign_add(tf.reduce_sum(w))
    def result(self):
        return tf.math.divide_no_nan(self.total, self.count)
    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)
'''
#: A user layer with a trainable weight (a Constant initializer, an L1 regularizer, a NonNeg constraint), a
#: non-trainable weight updated in call in training (a running center), and a ``training`` branch
#: (``stateful_layer=yes``, before the heads).
STATEFUL_LAYER13 = '''\
class RunningCenter(tf.keras.layers.Layer):
    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
    def build(self, input_shape):
        self.gain = self.add_weight(shape=(input_shape[-1],), initializer=tf.keras.initializers.Constant(1.5),
                                    regularizer=tf.keras.regularizers.L1(0.01),
                                    constraint=tf.keras.constraints.NonNeg(), name="gain")
        self.center = self.add_weight(shape=(input_shape[-1],), initializer="zeros", trainable=False, name="center")
    def call(self, t, training=None):
        if training:
            self.center.assign(self.momentum * self.center + (1.0 - self.momentum) * tf.reduce_mean(t, axis=0))
            t = t + 0.05 * tf.sign(t)
        return (t - self.center) * self.gain
    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}
'''
STATEFUL_LAYER13_LINE = "h = RunningCenter()(h)"

#: kfuzz54's vocabulary, drawn by ftr_progs._widen14's generator of its own.
#: Layers no earlier table held (``arch`` from ARCHS14, one one-input program in six without a model_form): the
#: dot-product Attention layer (scaled, over a query, value and key of their own; score_mode='concat' over a masked
#: Embedding; a query against the sequence with its attention scores returned; a causal mask), a MultiHeadAttention over padded sequences behind a Masking
#: layer (the padding mask propagated into the attention), Resizing + CenterCrop, a seeded RandomCrop, an Identity
#: residual added to a Dense with LeakyReLU.
ARCHS14: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "attention_qvk_scaled": ("float", (4, 3), (f"q = {_L}Dense(3)(h)",
                                               f"k = {_L}Dense(3)(h)",
                                               f"h = {_L}Attention(use_scale=True)([q, h, k])",
                                               f"h = {_L}GlobalAveragePooling1D()(h)")),
    "attention_concat_masked": ("int", (5,), (f"h = {_L}Embedding(6, 4, mask_zero=True)(h)",
                                              f"h = {_L}Attention(score_mode='concat')([h, h])",
                                              f"h = {_L}GlobalAveragePooling1D()(h)")),
    "attention_scores_query": ("float", (4, 3), (f"q = {_L}Dense(3)(h)",
                                                 f"a, s = {_L}Attention()([q, h], return_attention_scores=True)",
                                                 f"h = {_L}Concatenate()([{_L}Flatten()(a), {_L}Flatten()(s)])")),
    "attention_causal": ("float", (4, 3), (f"h = {_L}Attention()([h, h], use_causal_mask=True)",
                                           f"h = {_L}Flatten()(h)")),
    "masking_mha": ("padseq", (5, 3), (f"h = {_L}Masking(0.0)(h)",
                                       f"h = {_L}MultiHeadAttention(num_heads=2, key_dim=2, use_bias=False)(h, h)",
                                       f"h = {_L}GlobalAveragePooling1D()(h)")),
    "resize_center_crop": ("float", (5, 5, 1), (f"h = {_L}Resizing(8, 8)(h)",
                                                f"h = {_L}Conv2D(2, 3)(h)",
                                                f"h = {_L}CenterCrop(4, 4)(h)",
                                                f"h = {_L}GlobalMaxPooling2D()(h)")),
    "random_crop": ("float", (6, 6, 1), (f"h = {_L}RandomCrop(4, 4, seed=6)(h)",
                                         f"h = {_L}Conv2D(2, 2)(h)",
                                         f"h = {_L}Flatten()(h)")),
    "identity_residual_leaky": ("float", (4,), (f"a = {_L}Dense(4)(h)",
                                                f"h = {_L}Add()([a, {_L}Identity()(h)])",
                                                f"h = {_L}LeakyReLU(negative_slope=0.2)(h)")),
}
#: ARCHS14's models with random layers in training (the rules of RANDOM_ARCHS).
RANDOM_ARCHS14 = ("random_crop",)
#: SwapEMAWeights beside an optimizer with use_ema (``callbacks14=swap_ema``): the EMA weights swapped in for
#: validation and at each epoch's end (swap_on_epoch), as the Keras docs pair them.
CALLBACKS14: dict[str, str] = {
    "swap_ema": f"{_C}SwapEMAWeights(swap_on_epoch=True)",
    "swap_ema_eval": f"{_C}SwapEMAWeights()",
}

#: kfuzz55's vocabulary, drawn by ftr_progs._widen15's generator of its own.
#: Layers and layer options no earlier table held (``arch`` from ARCHS15, one one-input program in six without a
#: model_form): recurrent layers' less common options (an LSTM with relu and hard_sigmoid and no unit forget bias, a
#: backward GRU of softsign sequences, an unrolled relu SimpleRNN), a Bidirectional with a backward layer of its own, a
#: grouped dilated Conv1D with "same" padding and a strided "same" MaxPooling1D, a Conv1DTranspose, a DepthwiseConv1D,
#: Dense layers with gelu/silu/mish/softsign/hard_silu activations, a Minimum merge into a thresholded ReLU, a
#: CategoryEncoding multi_hot input.
ARCHS15: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "lstm_options": ("float", (4, 2), (f"h = {_L}LSTM(3, activation='relu', recurrent_activation='hard_sigmoid', "
                                       "unit_forget_bias=False)(h)",)),
    "gru_backward_softsign_seq": ("float", (4, 2), (f"h = {_L}GRU(3, activation='softsign', return_sequences=True, "
                                                    "go_backwards=True)(h)",
                                                    f"h = {_L}GlobalMaxPooling1D()(h)")),
    "simple_rnn_unrolled_relu": ("float", (3, 2), (f"h = {_L}SimpleRNN(3, activation='relu', unroll=True, "
                                                   "return_sequences=True)(h)",
                                                   f"h = {_L}Flatten()(h)")),
    "bidirectional_backward_layer": ("float", (4, 2), (f"h = {_L}Bidirectional({_L}LSTM(2, return_sequences=True), "
                                                       f"backward_layer={_L}GRU(2, return_sequences=True, "
                                                       "go_backwards=True))(h)",
                                                       f"h = {_L}GlobalAveragePooling1D()(h)")),
    "conv1d_grouped_dilated": ("float", (8, 2), (f"h = {_L}Conv1D(4, 3, padding='same', dilation_rate=2, groups=2)(h)",
                                                 f"h = {_L}MaxPooling1D(3, strides=2, padding='same')(h)",
                                                 f"h = {_L}Flatten()(h)")),
    "conv1d_transpose": ("float", (4, 2), (f"h = {_L}Conv1DTranspose(2, 3, strides=2, activation='relu')(h)",
                                           f"h = {_L}Flatten()(h)")),
    "depthwise_conv1d": ("float", (6, 2), (f"h = {_L}DepthwiseConv1D(3, depth_multiplier=2, padding='same')(h)",
                                           f"h = {_L}GlobalAveragePooling1D()(h)")),
    "dense_modern_activations": ("float", (4,), (f"h = {_L}Dense(4, activation='gelu')(h)",
                                                 f"h = {_L}Dense(4, activation='silu')(h)",
                                                 f"h = {_L}Activation('mish')(h)",
                                                 f"h = {_L}Dense(3, activation='softsign')(h)",
                                                 f"h = {_L}Activation('hard_silu')(h)")),
    "minimum_relu_threshold": ("float", (4,), (f"a = {_L}Dense(3)(h)",
                                               f"b = {_L}Dense(3, activation='tanh')(h)",
                                               f"h = {_L}Minimum()([a, b])",
                                               f"h = {_L}ReLU(max_value=0.8, threshold=0.1, negative_slope=0.1)(h)")),
    "category_multi_hot": ("int", (5,), (f"h = {_L}CategoryEncoding(num_tokens=6, output_mode='multi_hot')(h)",
                                         f"h = {_L}Dense(4, activation='relu')(h)")),
}
#: A loss as a plain Python function (``loss_form=function``, for regression targets), as people write custom losses
#: without subclassing: Keras wraps it (LossFunctionWrapper) under the drawn reduction of compile's default.
LOSS_FN15 = '''\
def scaled_log_cosh(y_true, y_pred):
    d = tf.cast(y_pred, "float32") - tf.cast(y_true, "float32")
    return tf.reduce_mean(tf.math.log(tf.cosh(1.5 * d)), axis=-1)
'''
#: A metric as a plain Python function (``metric_fn=yes``), appended to one output's metric list.
METRIC_FN15 = '''\
def max_abs_pred(y_true, y_pred):
    return tf.reduce_max(tf.abs(tf.cast(y_pred, "float32")), axis=-1)
'''
#: A user callback warming the learning rate up batch by batch (``warmup=yes``), as people write warmup without a
#: schedule: the rate set at each batch's beginning by assigning the optimizer's learning_rate.
WARMUP15 = '''\
class Warmup(tf.keras.callbacks.Callback):
    def __init__(self, steps=3):
        super().__init__()
        self.steps = steps
        self.seen = 0
        self.base = None
    def on_train_begin(self, logs=None):
        self.base = float(backend.to_numpy(self.model.optimizer.learning_rate))
    def on_train_batch_begin(self, batch, logs=None):
        self.seen += 1
        self.model.optimizer.learning_rate = self.base * min(1.0, self.seen / self.steps)
'''
#: Optimizers by their string names in compile (``opt_form=string``: the class's defaults), by optimizer class.
OPT_STRINGS15: dict[str, str] = {"SGD": "sgd", "Adam": "adam", "AdamW": "adamw", "Adagrad": "adagrad",
                                 "RMSprop": "rmsprop", "Adadelta": "adadelta", "Adamax": "adamax", "Nadam": "nadam",
                                 "Ftrl": "ftrl", "Lion": "lion", "Adafactor": "adafactor"}
