"""The training fuzzer's generator: fresh random whole training programs (issue 29, docs/spec.md `train.reference-grid`, kfuzz40).

A program is drawn from one root seed and its index (``np.random.default_rng([seed, index])``: no wall clock,
no global state) as a full random configuration over the union of the training grid's factors
(simdist/conformance/grid/programs.py: ARCHS, LOSSES, OPTIMIZERS, COMMON, STRATEGIES, CALLBACK_SRC, POLICIES,
MODES, PERSIST, METRIC_SETS) and this fuzzer's wider vocabulary (ftr_vocab.py), not the grid's pairwise
covering. Its source is the grid's templates (PRELUDE, FIT, CTL, PERSIST_SRC), imported, with the drawn
model, losses (one or two outputs with loss_weights, reductions), optimizer (schedules, wrappers), fit
arguments (sample/class weights, validation_split or validation_data, initial_epoch, steps_per_execution,
shuffle, partial batches) and callbacks filled in; the result is a grid :class:`Case`, so the grid's
runner runs it and the grid's :func:`reference.compare` compares its observables with TF 2.21's.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

from ftr_vocab import (ACTIVITY_REGULARIZERS, ARCHS as V_ARCHS, ARCHS5, ARCHS6, CONFIG_ROUNDTRIP_SRC, CUSTOM_LAYER,
                       CUSTOM_LAYER_LINE, CUSTOM_MODEL_COMPILED, CUSTOM_MODEL_TRACKERS, DROPOUT_CALL_SRC,
                       EVAL_LIST_SRC, HEAD_EXTRAS, CSV_POST, CSV_PRE, EVAL_STEPS_SRC,
                       CTL_PSS, GENERATOR_SRC, NESTED_ARCHS, OPT_EXTRAS, PYDATASET_SRC, WEIGHTS_H5_SRC, BN_ARCHS, CALLBACKS as V_CALLBACKS, CHECKPOINT_CB,
                       CHECKPOINT_POST, CHECKPOINT_PRE, CUSTOM_MODEL, CUSTOM_TEST_STEP, KERAS_FILE_SRC, LAMBDA_LINE,
                       LOGS_CALLBACK, LOSS_STRINGS, LOSSES as V_LOSSES, OPTIMIZERS as V_OPTIMIZERS, PREDICT_ODD_SRC,
                       RANDOM_ARCHS, REDUCTIONS, SCHEDULES, SETS_LR, TEXT2_ARCHS, TEXT_ARCHS, TRAINING_CALL_SRC,
                       VAL_CALLBACKS)
from ftr_vocab import (ARCH_ADAPT, ARCHS7, BATCH_API_SRC, BN_ARCHS7, CHECKPOINT_KERAS_CB, CHECKPOINT_KERAS_POST,
                       CHECKPOINT_KERAS_PRE, METRIC_STRINGS, RANDOM_ARCHS7)
from ftr_vocab import ARCH_ADAPT8, ARCHS8, STRING_INPUTS, STRING_INPUTS_SRC, SW_FORMS, SW_PER_OUTPUT_SRC
from ftr_vocab import ARCHS9, BACKUP_SRC, CTL_CLIPS, OPT_CLIPS, PADSEQ_STEPS
from ftr_vocab import (ARCHS10, BN_ARCHS10, CKPT_MANAGER_POST, CKPT_MANAGER_PRE, CKPT_MANAGER_SAVE, COMPUTE_LOSS_MODEL,
                       RANDOM_ARCHS10, SCHEDULES10, VAL_SW_SRC, WD_EXCLUDE_LINE)
from ftr_vocab import (ARCHS11, BACKUP_BATCHES_SRC, CALLBACKS11, CSV_APPEND_POST, CSV_APPEND_PRE, METRICS11,
                       OPT_OPTIONS11, VAL_BATCH_KW)
from ftr_vocab import (CLONE_SRC, CTL_MIXED_OPT, OPTS12, PIPELINES12, TRANSFER_RECOMPILE, TRANSFER_SRC)
from ftr_vocab import (ARCHS13, CUSTOM_LOSS13, CUSTOM_METRIC13, RANDOM_ARCHS13, STATEFUL_LAYER13,
                       STATEFUL_LAYER13_LINE)
from ftr_vocab import ARCHS14, CALLBACKS14, RANDOM_ARCHS14
from ftr_vocab import ARCHS15, LOSS_FN15, METRIC_FN15, OPT_STRINGS15, WARMUP15
from simdist.conformance.grid import programs as grid
from simdist.conformance.grid import reference

ARCHS = {**grid.ARCHS, **V_ARCHS, **TEXT_ARCHS, **TEXT2_ARCHS, **ARCHS5, **ARCHS6, **ARCHS7, **ARCHS8, **ARCHS9, **ARCHS10,
         **ARCHS11, **ARCHS13, **ARCHS14, **ARCHS15}
LOSSES = {**grid.LOSSES, **V_LOSSES}
OPTIMIZERS = {**grid.OPTIMIZERS, **V_OPTIMIZERS}
COMMON = {**grid.COMMON, **{k: {"schedule": v} for k, v in SCHEDULES.items()}}
CALLBACKS = {**grid.CALLBACK_SRC, **V_CALLBACKS}
assert not set(ARCHS14) & (set(grid.ARCHS) | set(V_ARCHS) | set(TEXT_ARCHS) | set(TEXT2_ARCHS) | set(ARCHS5)
                           | set(ARCHS6) | set(ARCHS7) | set(ARCHS8) | set(ARCHS9) | set(ARCHS10) | set(ARCHS11)
                           | set(ARCHS13)), "an ARCHS14 name replaces an earlier model (and moves the old draws)"
assert not set(ARCHS15) & (set(grid.ARCHS) | set(V_ARCHS) | set(TEXT_ARCHS) | set(TEXT2_ARCHS) | set(ARCHS5)
                           | set(ARCHS6) | set(ARCHS7) | set(ARCHS8) | set(ARCHS9) | set(ARCHS10) | set(ARCHS11)
                           | set(ARCHS13) | set(ARCHS14)), "an ARCHS15 name replaces an earlier model"
ONE_INPUT = tuple(k for k, v in ARCHS.items() if v[0] != "float2" and k not in TEXT_ARCHS and k not in TEXT2_ARCHS
                  and k not in ARCHS5 and k not in ARCHS6 and k not in ARCHS7 and k not in ARCHS8
                  and k not in ARCHS9 and k not in ARCHS10 and k not in ARCHS11 and k not in ARCHS13
                  and k not in ARCHS14 and k not in ARCHS15)
TWO_INPUTS = tuple(k for k, v in ARCHS.items() if v[0] == "float2" and k not in ARCHS5 and k not in ARCHS6
                   and k not in ARCHS7)
SCHEDULED = tuple(k for k, v in COMMON.items() if "schedule" in v)
#: strategy -> weight (MirroredStrategy(3) programs take TF the longest)
STRATEGY_WEIGHTS = {"default": 3, "one_device": 2, "mirrored2": 3, "mirrored3": 1, "central2": 1}
_ADAPTIVE_VOCAB = ("adadelta", "adamax", "nadam", "ftrl", "ftrl_shrinkage", "lion", "lamb", "adafactor",
                   "loss_scale_adam")


def _pick(rng: np.random.Generator, options: Any, weights: Any = None) -> Any:
    options = list(options)
    if weights is None:
        return options[int(rng.integers(len(options)))]
    p = np.asarray(weights, dtype=np.float64)
    return options[int(rng.choice(len(options), p=p / p.sum()))]


def valid(cfg: dict[str, str]) -> bool:
    """The grid's rules (simdist/conformance/grid/programs.py `valid`) plus this vocabulary's."""
    target = LOSSES[cfg["loss"]][0]
    gridcfg = {k: cfg[k] for k in ("mode", "callbacks", "persist", "policy", "metrics", "loss", "arch", "strategy",
                                   "common") if k in cfg}
    gridcfg["feed"] = "partial_batch" if cfg.get("partial") == "yes" else "plain"
    if cfg["mode"] != "fit" and cfg.get("fitopts", "") != "":
        return False
    if not grid.valid(gridcfg):
        return False
    if cfg["mode"] != "fit" and (cfg["outputs"] != "1" or ARCHS[cfg["arch"]][0] == "float2"):
        return False
    if cfg["common"] in SCHEDULED and cfg["callbacks"] in SETS_LR:
        return False   # a schedule's learning rate cannot be set
    if cfg["arch"] in TEXT2_ARCHS and cfg["arch"] in BN_ARCHS and (
            cfg["strategy"] == "central2" or cfg["strategy"] == "mirrored3" and cfg.get("partial") == "yes"):
        return False   # the grid's batchnorm rules (ftr_vocab.BN_ARCHS)
    if cfg["strategy"] == "central2" and (cfg["arch"] in RANDOM_ARCHS or cfg["arch"] == "dense_bn_dropout"):
        return False   # TF 2.21 raises ValueError (a replica-context update of an AggregatingVariable)
    if cfg["policy"] == "mixed_float16" and cfg["metrics"] == "m0" and target in ("onehot", "sparse"):
        return False   # in_top_k of float16 predictions raises TypeError (the ops.in-top-k-dtype rule)
    if "class_weight" in cfg.get("fitopts", "") and (cfg["outputs"] != "1" or target not in ("bin", "onehot", "sparse")
                                                      or LOSSES[cfg["loss"]][1] == 2 and target == "bin"):
        return False   # class weights need one output of class labels
    if "steps_per_execution" in cfg.get("fitopts", "") and cfg["strategy"] in ("mirrored2", "mirrored3"):
        return False   # TF 2.21 fails such a fit (InvalidArgumentError "You must feed a value for placeholder tensor
        #                'while/cond/Placeholder'": the grid's and simdist's rule), so nothing is trained
    if cfg["mode"] != "fit" and cfg["loss"] in ("dice", "tversky"):
        return False   # reduction="none" of an axis=None loss is a scalar: compute_average_loss's ValueError
    if cfg["strategy"] != "default" and cfg["strategy"] != "one_device" and cfg["mode"] != "ctl_eager" \
            and cfg["common"] in ("grad_accum", "ema_overwrite"):
        return False   # the optimizer's cond merge_calls in a traced replica context: RuntimeError (the grid's rule)
    if "class_weight" in cfg.get("fitopts", "") and "sample_weight" in cfg.get("fitopts", ""):
        return False   # fit raises ValueError "You cannot `class_weight` and `sample_weight` at the same time."
    return True


def draw_config(rng: np.random.Generator) -> dict[str, str]:
    """A random valid configuration (redrawn until valid)."""
    while True:
        cfg = {
            "mode": _pick(rng, grid.MODES, [6, 1, 1]),
            "arch": _pick(rng, ONE_INPUT),
            "loss": _pick(rng, LOSSES),
            "optimizer": _pick(rng, OPTIMIZERS),
            "common": _pick(rng, COMMON) if rng.random() < 0.6 else "none",
            "strategy": _pick(rng, STRATEGY_WEIGHTS, list(STRATEGY_WEIGHTS.values())),
            "callbacks": _pick(rng, CALLBACKS) if rng.random() < 0.5 else "none",
            "policy": "mixed_float16" if rng.random() < 0.15 else "float32",
            "persist": _pick(rng, grid.PERSIST, [6, 1, 1]),
            "metrics": _pick(rng, grid.METRICS),
            "outputs": "2" if rng.random() < 0.25 else "1",
            "reduction": str(_pick(rng, REDUCTIONS)),
            "partial": "yes" if rng.random() < 0.5 else "no",
        }
        if cfg["mode"] != "fit":
            cfg.update(callbacks="none", persist="none", policy="float32", metrics="m0", outputs="1", partial="no")
        opts = []
        if cfg["mode"] == "fit":
            for name, p in (("sample_weight", 0.25), ("class_weight", 0.15), ("validation_split", 0.2),
                            ("validation_data", 0.15), ("initial_epoch", 0.15), ("steps_per_execution", 0.25),
                            ("shuffle", 0.1)):
                if rng.random() < p:
                    opts.append(name)
            if "validation_split" in opts and "validation_data" in opts:
                opts.remove("validation_data")
        cfg["fitopts"] = ",".join(opts)
        if cfg["outputs"] == "2":
            target, units = LOSSES[cfg["loss"]][:2]
            cfg["loss2"] = _pick(rng, sorted(k for k, v in LOSSES.items() if v[:2] == (target, units)))
        if valid(cfg):
            return cfg


def _target(kind: str, units: int, rng: np.random.Generator, n: int) -> np.ndarray:
    if kind == "reg":
        return rng.uniform(-1.0, 1.0, (n, units)).astype(np.float32)
    if kind == "pos":
        return rng.uniform(0.05, 2.0, (n, units)).astype(np.float32)
    if kind == "bin":
        return rng.integers(0, 2, (n, units)).astype(np.float32)
    if kind == "onehot":
        return np.eye(units, dtype=np.float32)[rng.integers(0, units, n)]
    return rng.integers(0, units, (n,)).astype(np.int32)


def _data(cfg: dict[str, str], rng: np.random.Generator, n: int) -> tuple[np.ndarray, Any]:
    kind, shape, _ = ARCHS[cfg["arch"]]
    if kind == "float2":
        x: Any = [rng.uniform(-1.0, 1.0, (n, *s)).astype(np.float32) for s in shape]
    else:
        x = (rng.integers(0, 6, (n, *shape)).astype(np.int32) if kind in ("int", "words", "text")
             else rng.uniform(-1.0, 1.0, (n, *shape)).astype(np.float32))
    if kind == "padseq":   # (kfuzz49: each row's last steps zeroed, as padded sequences are)
        for row, pad in enumerate(rng.choice(PADSEQ_STEPS, n)):
            if pad:
                x[row, shape[0] - int(pad):] = 0.0
    target, units = LOSSES[cfg["loss"]][:2]
    y = _target(target, units, rng, n)
    if cfg["outputs"] == "2":
        return x, [y, _target(target, units, rng, n)]
    return x, y


def _widen(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz41's vocabulary, drawn from a generator of its own (so that the programs drawn before it stay what
    they were, with the same configuration keys): a text model (TEXT_ARCHS) for one program in eight, a
    subclassed model with the Keras guide's own train_step (``model=custom_train_step``) for one fit program
    of one output in six, the loss by its string name (``loss_form=string``) for one in four of the losses that have one
    and no options; each kept only when the configuration stays valid."""
    a, b, c = side.random(3)
    text = _pick(side, TEXT_ARCHS)
    if a < 0.125 and ARCHS[cfg["arch"]][0] != "float2" and valid({**cfg, "arch": text}):
        cfg = {**cfg, "arch": text}
    if b < 1 / 6 and cfg["mode"] == "fit" and cfg["outputs"] == "1":   # (two outputs add per-output loss
        #                                            trackers the guide's metric loop does not expect: TypeError)
        cfg = {**cfg, "model": "custom_train_step"}
    if c < 0.25 and cfg["mode"] == "fit" and cfg["reduction"] == "None" and cfg["loss"] in LOSS_STRINGS \
            and cfg.get("loss2", cfg["loss"]) in LOSS_STRINGS:
        cfg = {**cfg, "loss_form": "string"}
    return cfg


_SEQ_LINE = re.compile(r"^h = (.+)\(h\)$")


def _layer_exprs(arch: str) -> list[str] | None:
    """The hidden layers of a one-input architecture whose every line maps h to the next h by one layer
    (``h = Layer(...)(h)``), as the layers' sources; None when some line does more (branches, two inputs)."""
    kind, _, lines = ARCHS[arch]
    if kind == "float2":
        return None
    out = []
    for ln in lines:
        m = _SEQ_LINE.match(ln)
        if m is None:
            return None
        out.append(m.group(1))
    return out


def _widen2(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz42's vocabulary, drawn from a generator of its own (``[seed, index, 4]``), so the programs it leaves
    alone keep their configuration, source and hash: for fit programs of one output, the model as a
    ``tf.keras.Sequential`` list of its layers (``model_form=sequential``) or as a subclassed Model whose
    ``__init__`` makes the layers and ``call`` applies them (``model_form=subclassed``) for one in six each when
    every hidden line is one layer; fit fed a ``tf.data.Dataset`` of batches (``feed=dataset``: the weights in the
    dataset, validation_data a dataset too; not with validation_split, which TF refuses for datasets) for one fit
    program in five; an L2 or L1 kernel regularizer on the head (``regularizer``) for one program in six;
    ``weighted_metrics`` (``weighted_metrics=yes``: the metric set weighted by the sample or class weights) for
    one fit program with weights in three."""
    a, b, c, d = side.random(4)
    form = "sequential" if a < 1 / 6 else "subclassed" if a < 1 / 3 else None
    if form and cfg["mode"] == "fit" and cfg["outputs"] == "1" and _layer_exprs(cfg["arch"]) is not None \
            and not (form == "sequential" and cfg.get("model") == "custom_train_step"):
        cfg = {**cfg, "model_form": form}
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if b < 0.2 and cfg["mode"] == "fit" and "validation_split" not in opts:
        cfg = {**cfg, "feed": "dataset"}
    if c < 1 / 6:
        cfg = {**cfg, "regularizer": _pick(side, ("l2", "l1"))}
    if d < 1 / 3 and cfg["mode"] == "fit" and ("sample_weight" in opts or "class_weight" in opts):
        cfg = {**cfg, "weighted_metrics": "yes"}
    return cfg


def _widen3(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz43's vocabulary, drawn from a generator of its own (``[seed, index, 5]``), so the programs it leaves
    alone keep their configuration, source and hash: a recurrent text model or the Dense + BatchNormalization +
    Dropout block (TEXT2_ARCHS) for one one-input program in ten; for fit programs of two outputs of a functional
    model, the losses, loss weights, metrics and targets as dicts keyed by the output names
    (``outputs_form=dict``, one in two); ``model.save`` to a .keras file, ``tf.keras.models.load_model`` under
    the strategy and one more epoch of fit (``save=keras_file``, one fit program in four without another
    persistence; not the subclassed models, which load_model cannot rebuild unregistered); a ModelCheckpoint
    keeping the best epoch's weights, loaded into a fresh model after fit (``checkpoint_cb=best``, one fit
    program in seven); EarlyStopping or ReduceLROnPlateau on the validation loss (``val_callbacks``, one in three
    fit programs with validation data and no callbacks); the model called in training mode after everything
    (``training_call=yes``, one fit program in five without random layers); the inputs of a two-input model
    named and fed as a dict keyed by the names (``inputs_form=dict``, one two-input fit program in two)."""
    a, b, c, d, e, f = side.random(6)
    text2 = _pick(side, TEXT2_ARCHS)
    val_cb = _pick(side, VAL_CALLBACKS)
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if e < 0.1 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and valid({**cfg, "arch": text2}):
        cfg = {**cfg, "arch": text2}
    fit = cfg["mode"] == "fit"
    custom = cfg.get("model") == "custom_train_step" or cfg.get("model_form") == "subclassed"
    if a < 0.5 and fit and cfg["outputs"] == "2":
        cfg = {**cfg, "outputs_form": "dict"}
    if b < 0.25 and fit and cfg["persist"] == "none" and not custom:
        cfg = {**cfg, "save": "keras_file"}
    if c < 1 / 7 and fit:
        cfg = {**cfg, "checkpoint_cb": "best"}
    if d < 1 / 3 and fit and cfg["callbacks"] == "none" and ("validation_split" in opts or "validation_data" in opts) \
            and not (val_cb == "reduce_lr_val" and cfg["common"] in SCHEDULED):
        cfg = {**cfg, "val_callbacks": val_cb}
    random_layers = cfg["arch"] in RANDOM_ARCHS or cfg["arch"] == "dense_bn_dropout"
    if f < 0.2 and fit and not random_layers and ARCHS[cfg["arch"]][0] != "float2":
        cfg = {**cfg, "training_call": "yes"}
    if side.random() < 0.5 and fit and ARCHS[cfg["arch"]][0] == "float2":   # (drawn last: the draws above stay)
        cfg = {**cfg, "inputs_form": "dict"}
    return cfg


def _widen4(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz44's vocabulary, drawn from a generator of its own (``[seed, index, 6]``), so the programs it leaves
    alone keep their configuration, source and hash: a MultiWorkerMirroredStrategy (one worker, in process: one
    replica, TF's CollectiveAllReduceStrategy) in place of the default or one-device strategy
    (``strategy_form=mwms``, one such program in four, not where the grid's rule refuses gradient accumulation and
    EMA overwrites in a traced replica context); a Lambda layer of TF ops before the heads
    (``lambda_layer=yes``, one program in six; not with a .keras file, whose loading refuses a lambda); an L2 or L1
    activity regularizer on the head of one-output programs (``activity_regularizer``, one in six); the guide's test_step beside the
    custom train_step (``test_step=yes``, one such program in two); a user callback reading each epoch's logs,
    fit's params and the learning rate (``logs_callback=yes``, one fit program in four); predict of 7 rows by 5s
    (``predict_odd=yes``, one fit program in four); a repeated dataset fed with steps_per_epoch (``steps_per_epoch
    =repeat``, one dataset program in two: the epochs cut the repeated batches at the full batches' count, so
    an epoch after the first starts where the last one stopped); a custom loop applying the gradients with
    ``optimizer.apply`` in a ``tf.function(jit_compile=False)`` (``ctl_form=apply``, one custom loop in two)."""
    a, b, c, d, e, f, g, h = side.random(8)
    act = _pick(side, sorted(ACTIVITY_REGULARIZERS))
    fit = cfg["mode"] == "fit"
    if a < 0.25 and cfg["strategy"] in ("default", "one_device") and not (
            cfg["mode"] != "ctl_eager" and cfg["common"] in ("grad_accum", "ema_overwrite")):
        # (the grid's rule for every strategy but the default and one-device ones: the optimizer's cond
        # merge_calls in a traced replica context, RuntimeError on TF 2.21 and simdist alike, seed 4420261202 #28)
        cfg = {**cfg, "strategy_form": "mwms"}
    if b < 1 / 6 and cfg.get("save") != "keras_file":
        cfg = {**cfg, "lambda_layer": "yes"}
    if c < 1 / 6 and cfg["outputs"] == "1":   # (two outputs' np.float64 loss weights beside a regularizer's
        #                                         float32 loss: TF's TypeError, kfuzz42's rule, whatever the regularizer)
        cfg = {**cfg, "activity_regularizer": act}
    if d < 0.5 and cfg.get("model") == "custom_train_step":
        cfg = {**cfg, "test_step": "yes"}
    if e < 0.25 and fit:
        cfg = {**cfg, "logs_callback": "yes"}
    if f < 0.25 and fit:
        cfg = {**cfg, "predict_odd": "yes"}
    if g < 0.5 and cfg.get("feed") == "dataset":
        cfg = {**cfg, "steps_per_epoch": "repeat"}
    if h < 0.5 and not fit:
        cfg = {**cfg, "ctl_form": "apply"}
    return cfg


def _widen5(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz45's vocabulary, drawn from a generator of its own (``[seed, index, 7]``), so the programs it leaves
    alone keep their configuration, source and hash: a model nested as a layer (a Sequential or a functional
    Model, ``arch=nested_*``, one one-input program in ten) or a shared layer over two inputs
    (``arch=shared_two_inputs``, one fit program in ten); fit fed by a Python generator with steps_per_epoch or
    a keras.utils.PyDataset (``feed=generator`` / ``feed=pydataset``, one fit program in five without a
    dataset or validation_split); compile with ``run_eagerly=True`` (one fit program in six) or
    ``jit_compile=False`` (one in ten); evaluate and predict with ``steps`` (``eval_steps=yes``, one fit program
    in four); a CSVLogger read back (``csv_logger=yes``, one in five); the weights saved to a .weights.h5 file,
    loaded into a fresh compiled model and fit continued (``weights_h5=continue``, one fit program in five without
    another persistence); clipping beside EMA or weight decay on the optimizer (``opt_extra``, one program in
    five without a common option); the mixed_bfloat16 policy with float32 heads, as the Keras guide writes mixed
    precision (``policy=mixed_bfloat16``, one float32 fit program in eight, not CentralStorage's)."""
    a, b, c, d, e, f, g, h, i = side.random(9)
    nested = _pick(side, NESTED_ARCHS)
    feed = _pick(side, ("generator", "pydataset"))
    extra = _pick(side, sorted(OPT_EXTRAS))
    fit = cfg["mode"] == "fit"
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if a < 0.1 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and valid({**cfg, "arch": nested}):
        cfg = {**cfg, "arch": nested}
    elif b < 0.1 and fit and cfg.get("model_form") is None and valid({**cfg, "arch": "shared_two_inputs"}):
        cfg = {**cfg, "arch": "shared_two_inputs"}
    if c < 0.2 and fit and cfg.get("feed") is None and "validation_split" not in opts \
            and cfg["strategy"] == "default" and cfg.get("strategy_form") is None:
        # (only under the default strategy: with a strategy captured, Keras's symbolic build takes a batch from a
        # first iterator whose prefetch thread pulls from the same Python generator or PyDataset iteration, so TF
        # 2.21's batches after it depend on the thread's timing, kfuzz45: seed 4520261202 #0 and #32, a generator,
        # and 4520261203 #36, a PyDataset, under MirroredStrategy(2): two TF runs of one program differed)
        cfg = {**cfg, "feed": feed}
    if d < 1 / 6 and fit:
        cfg = {**cfg, "compile_kw": "run_eagerly"}
    elif d < 1 / 6 + 0.1 and fit:
        cfg = {**cfg, "compile_kw": "jit_compile_false"}
    if e < 0.25 and fit:
        cfg = {**cfg, "eval_steps": "yes"}
    if f < 0.2 and fit:
        cfg = {**cfg, "csv_logger": "yes"}
    if g < 0.2 and fit and cfg["persist"] == "none" and cfg.get("save") is None:
        cfg = {**cfg, "weights_h5": "continue"}
    if h < 0.2 and cfg["common"] == "none":
        cfg = {**cfg, "opt_extra": extra}
    if i < 0.125 and fit and cfg["policy"] == "float32" and cfg["strategy"] != "central2":
        cfg = {**cfg, "policy": "mixed_bfloat16"}
    if side.random() < 0.5 and cfg["mode"] != "fit" and cfg["strategy"] in ("default", "one_device") \
            and cfg.get("strategy_form") is None and cfg["common"] not in ("grad_accum", "ema_overwrite"):
        # (drawn last: the draws above stay; not the optimizer's cond merge_calls in a traced replica context)
        cfg = {**cfg, "strategy_form": "pss"}
    return cfg


def _widen6(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz46's vocabulary, drawn from a generator of its own (``[seed, index, 8]``), so the programs it leaves
    alone keep their configuration, source and hash: an image or sequence model of the Keras guides (ARCHS6:
    Conv1D + MaxPooling1D, a channels_last Conv2D + AveragePooling2D, LSTM sequences into a GRU, Embedding +
    GlobalAveragePooling1D + Dense; one one-input program in ten without a model_form); the Sequential built by
    ``add()`` after an Input (``model_form=sequential_add``, one fit program of one output in six whose hidden
    lines are one layer each); constraints and bias regularizers on the heads (``head_extra``, one program in six;
    the bias regularizers on one output only); a user layer with add_weight and add_loss before the heads
    (``custom_layer=yes``, one program of one output in eight, not with a .keras file); the custom train_step as
    Keras 2 code writes it, by ``self.compiled_loss`` and ``self.compiled_metrics``, or with metrics of its own
    listed by a ``metrics`` property (``step_form=compiled|trackers``, one custom step in two); the summary, the
    parameter count and a get_config/from_config round trip with the trained weights (``config_roundtrip=yes``,
    one fit program in five of functional or Sequential models without a Lambda or user layer); a model with
    random layers called in inference mode and twice in training mode after fit (``dropout_call=yes``, one such
    fit program in three); evaluate's list form and ``metrics_names`` (``eval_list=yes``, one fit program in five)."""
    a, b, c, d, e, f, g, h = side.random(8)
    arch6 = _pick(side, ARCHS6)
    extra = _pick(side, sorted(HEAD_EXTRAS))
    step = _pick(side, ("compiled", "trackers"))
    fit = cfg["mode"] == "fit"
    if a < 0.1 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and valid({**cfg, "arch": arch6}):
        cfg = {**cfg, "arch": arch6}
    if b < 1 / 6 and fit and cfg["outputs"] == "1" and cfg.get("model_form") is None \
            and _layer_exprs(cfg["arch"]) is not None and cfg.get("model") != "custom_train_step":
        cfg = {**cfg, "model_form": "sequential_add"}
    if c < 1 / 6 and (cfg["outputs"] == "1" or "bias" not in extra):
        cfg = {**cfg, "head_extra": extra}
    if d < 0.125 and cfg["outputs"] == "1" and cfg.get("save") != "keras_file":
        cfg = {**cfg, "custom_layer": "yes"}
    if e < 0.5 and cfg.get("model") == "custom_train_step":
        cfg = {**cfg, "step_form": step}
    if f < 0.2 and fit and cfg.get("model") != "custom_train_step" \
            and cfg.get("model_form") in (None, "sequential", "sequential_add") \
            and cfg.get("lambda_layer") != "yes" and cfg.get("custom_layer") != "yes":
        cfg = {**cfg, "config_roundtrip": "yes"}
    if g < 1 / 3 and fit and (cfg["arch"] in RANDOM_ARCHS or cfg["arch"] == "dense_bn_dropout"):
        cfg = {**cfg, "dropout_call": "yes"}
    if h < 0.2 and fit:
        cfg = {**cfg, "eval_list": "yes"}
    return cfg


def _valid7(cfg: dict[str, str]) -> bool:
    """valid() plus the grid's rules for kfuzz47's models with BatchNormalization or random layers."""
    if not valid(cfg):
        return False
    if cfg["arch"] in BN_ARCHS7 and (cfg["strategy"] == "central2"
                                     or cfg["strategy"] == "mirrored3" and cfg.get("partial") == "yes"):
        return False   # (ftr_vocab.BN_ARCHS: TF refuses BatchNormalization under CentralStorage; NaN moments)
    if cfg["arch"] in RANDOM_ARCHS7 and (cfg["strategy"] == "central2" or cfg.get("training_call") == "yes"):
        return False   # (the rules of RANDOM_ARCHS: an AggregatingVariable's replica-context update)
    if cfg["arch"] in ARCH_ADAPT and cfg.get("strategy_form") == "pss":
        return False   # (adapt's assignments in a ParameterServerStrategy scope: not this widening's subject)
    return True


def _widen7(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz47's vocabulary, drawn from a generator of its own (``[seed, index, 9]``), so the programs it leaves
    alone keep their configuration, source and hash: a model with Keras preprocessing or normalization layers or
    recurrent dropout (ARCHS7: Normalization adapted on data, Rescaling + LayerNormalization, IntegerLookup into
    an Embedding, Conv2D + BatchNormalization, Conv1D + GroupNormalization, a stacked LSTM and Bidirectional GRU
    with dropout and recurrent dropout; one one-input program in eight without a model_form); train_on_batch,
    test_on_batch and predict_on_batch after fit (``batch_api=yes``, one fit program in five); the metrics by their
    string names as one flat list over every output (``metrics_form=strings``, one fit program in five); a
    ModelCheckpoint of the whole model to a .keras file, the best epoch only, loaded by load_model after fit
    (``checkpoint_cb=keras``, one fit program in eight without another checkpoint callback or a model load_model
    cannot rebuild)."""
    a, b, c, d = side.random(4)
    arch7 = _pick(side, ARCHS7)
    fit = cfg["mode"] == "fit"
    if a < 0.125 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid7({**cfg, "arch": arch7}):
        cfg = {**cfg, "arch": arch7}
    if b < 0.2 and fit:
        cfg = {**cfg, "batch_api": "yes"}
    if c < 0.2 and fit and cfg.get("model") != "custom_train_step":
        cfg = {**cfg, "metrics_form": "strings"}
    custom = (cfg.get("model") == "custom_train_step" or cfg.get("model_form") == "subclassed"
              or cfg.get("custom_layer") == "yes" or cfg.get("lambda_layer") == "yes")
    if d < 0.125 and fit and cfg.get("checkpoint_cb") is None and not custom:
        cfg = {**cfg, "checkpoint_cb": "keras"}
    return cfg


def _valid8(cfg: dict[str, str]) -> bool:
    """_valid7() plus kfuzz48's: the string models are fit programs (the custom loops feed x as it is drawn)."""
    if not _valid7(cfg):
        return False
    return cfg["mode"] == "fit" or ARCHS[cfg["arch"]][0] not in STRING_INPUTS


def _widen8(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz48's vocabulary, drawn from a generator of its own (``[seed, index, 10]``), so the programs it leaves
    alone keep their configuration, source and hash: a model with Keras preprocessing layers inside it (ARCHS8:
    StringLookup and TextVectorization over string inputs into an Embedding, Discretization, CategoryEncoding,
    Hashing; one one-input program in six without a model_form, the string models fit programs only); the sample
    weights of a two-output fit given per output (``sw_form=list|dict``, one such program with sample weights in
    two, fed as arrays)."""
    a, b = side.random(2)
    arch8 = _pick(side, ARCHS8)
    form = _pick(side, ("list", "list", "dict"))
    if a < 1 / 6 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid8({**cfg, "arch": arch8}):
        cfg = {**cfg, "arch": arch8}
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if b < 0.5 and cfg["mode"] == "fit" and cfg["outputs"] == "2" and "sample_weight" in opts \
            and cfg.get("feed") is None:
        cfg = {**cfg, "sw_form": form}
    return cfg


def _widen9(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz49's vocabulary, drawn from a generator of its own (``[seed, index, 11]``), so the programs it leaves
    alone keep their configuration, source and hash: recurrent models (ARCHS9: padded float sequences behind a
    Masking layer into an LSTM or a GRU's sequences, a SimpleRNN, a GRU with reset_after=False, a Conv1D into an
    LSTM, a masked Embedding into a SimpleRNN's sequences; one one-input program in eight without a model_form); a
    custom loop's gradients clipped by global norm, by norm or by value before they are applied (``ctl_clip``, one
    custom loop in three); gradient clipping alone on the optimizer of a mixed_float16 fit, under the LossScaleOptimizer
    Keras wraps around it (``opt_clip``, one such program without another optimizer option in two);
    ``validation_freq=2`` (one fit program with validation data in three); fit interrupted after its first epoch and
    resumed by BackupAndRestore in a fresh model (``backup=interrupt``, one fit program in six)."""
    a, b, c, d, e = side.random(5)
    arch9 = _pick(side, ARCHS9)
    clip = _pick(side, CTL_CLIPS)
    oclip = _pick(side, OPT_CLIPS)
    fit = cfg["mode"] == "fit"
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if a < 0.125 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid8({**cfg, "arch": arch9}):
        cfg = {**cfg, "arch": arch9}
    if b < 1 / 3 and not fit:
        cfg = {**cfg, "ctl_clip": clip}
    if c < 0.5 and fit and cfg["policy"] == "mixed_float16" and cfg["common"] == "none" \
            and cfg.get("opt_extra") is None:
        cfg = {**cfg, "opt_clip": oclip}
    if d < 1 / 3 and fit and ("validation_split" in opts or "validation_data" in opts):
        cfg = {**cfg, "validation_freq": "2"}
    if e < 1 / 6 and fit:
        cfg = {**cfg, "backup": "interrupt"}
    return cfg


def _valid10(cfg: dict[str, str]) -> bool:
    """_valid8() plus the grid's rules for kfuzz50's models with BatchNormalization or random layers."""
    if not _valid8(cfg):
        return False
    if cfg["arch"] in BN_ARCHS10 and (cfg["strategy"] == "central2"
                                      or cfg["strategy"] == "mirrored3" and cfg.get("partial") == "yes"):
        return False   # (ftr_vocab.BN_ARCHS: TF refuses BatchNormalization under CentralStorage; NaN moments)
    if cfg["arch"] in RANDOM_ARCHS10 and (cfg["strategy"] == "central2" or cfg.get("training_call") == "yes"):
        return False   # (the rules of RANDOM_ARCHS: an AggregatingVariable's replica-context update)
    return True


#: The optimizers with weight decay of their own, and the common options and extras that add it.
_WEIGHT_DECAY = ("adamw",)


def _has_weight_decay(cfg: dict[str, str]) -> bool:
    return (cfg["optimizer"] in _WEIGHT_DECAY or cfg["common"] == "weight_decay"
            or cfg.get("opt_extra") in ("wd_global_clipnorm", "clipvalue_wd"))


def _widen10(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz50's vocabulary, drawn from a generator of its own (``[seed, index, 12]``), so the programs it leaves
    alone keep their configuration, source and hash: the blocks people stack (ARCHS10: a Transformer encoder block of
    MultiHeadAttention and LayerNormalization residuals, Conv2D + BatchNormalization + MaxPooling2D + Dropout +
    GlobalAveragePooling2D, Conv1D + BatchNormalization + MaxPooling1D + GlobalAveragePooling1D, Embedding + Conv1D +
    MaxPooling1D + LSTM + Dense; one one-input program in eight without a model_form); a functional Model subclass
    overriding compute_loss (``model=compute_loss``, one fit program in six of a functional or subclassed model that
    load_model and from_config need not rebuild); smooth ExponentialDecay, CosineDecayRestarts or a three-boundary
    PiecewiseConstantDecay (``schedule10``, one program in five without another schedule or a callback setting the
    rate); the biases kept out of weight decay (``wd_exclude=bias``, one program with weight decay in two, not a
    wrapped optimizer); validation data with sample weights of their own (``val_sw=yes``, one one-output fit program
    with validation_data in two); a custom loop checkpointed by a CheckpointManager each epoch, the first epoch's
    checkpoint restored mid-run into a fresh model that trains one more epoch (``ckpt_manager=yes``, one custom loop
    in three, not under ParameterServerStrategy)."""
    a, b, c, d, e, f = side.random(6)
    arch10 = _pick(side, ARCHS10)
    sched = _pick(side, SCHEDULES10)
    fit = cfg["mode"] == "fit"
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if a < 0.125 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid10({**cfg, "arch": arch10}):
        cfg = {**cfg, "arch": arch10}
    if b < 1 / 6 and fit and cfg.get("model") is None and cfg.get("model_form") in (None, "subclassed") \
            and cfg.get("save") is None and cfg.get("checkpoint_cb") != "keras" and cfg.get("config_roundtrip") is None:
        cfg = {**cfg, "model": "compute_loss"}
    if c < 0.2 and cfg["common"] not in SCHEDULED and cfg["callbacks"] not in SETS_LR \
            and cfg.get("val_callbacks") != "reduce_lr_val":
        cfg = {**cfg, "schedule10": sched}
    if d < 0.5 and _has_weight_decay(cfg) and "wrap" not in OPTIMIZERS[cfg["optimizer"]][1]:
        cfg = {**cfg, "wd_exclude": "bias"}
    if e < 0.5 and fit and cfg["outputs"] == "1" and "validation_data" in opts:
        cfg = {**cfg, "val_sw": "yes"}
    if f < 1 / 3 and not fit and cfg.get("strategy_form") != "pss":
        cfg = {**cfg, "ckpt_manager": "yes"}
    return cfg


def _valid11(cfg: dict[str, str]) -> bool:
    """_valid10() plus kfuzz51's: the SpectralNormalization model updates its power-iteration vector in training (a
    replica-context update CentralStorage refuses, as RANDOM_ARCHS)."""
    if not _valid10(cfg):
        return False
    return not (cfg["arch"] == "spectral_norm_dense" and cfg["strategy"] == "central2")


def _widen11(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz51's vocabulary, drawn from a generator of its own (``[seed, index, 13]``), so the programs it leaves
    alone keep their configuration, source and hash: the layers people stack that no earlier table held (ARCHS11:
    an UpSampling2D + Conv2DTranspose decoder, ZeroPadding2D + Cropping2D, ConvLSTM1D/2D, Permute + RepeatVector,
    residual Dense and Conv1D blocks, Average and Maximum merges, SpectralNormalization, a TimeDistributed Conv1D; one
    one-input program in six without a model_form); a metric set beside the grid's (``metrics11``: AUC by PR and
    multi-label, Precision/Recall with thresholds, top_k and class_id, F1Score/FBetaScore, the IoU family, R2Score,
    the regression and probabilistic metrics; one fit program in four without metrics by their string names, not the
    top-k sets under mixed_float16); the optimizer class's less common options (``opt11``: nesterov, epsilons,
    betas, Adafactor's decay and clipping, Ftrl's initial accumulator; one program in four, the drawn optimizer's own
    options win); a callback beside the drawn ones (``callbacks11``: a LambdaCallback, a verbose
    LearningRateScheduler of (epoch, lr) without a schedule, a CSVLogger appending a second fit to the first's file;
    one fit program in five); BackupAndRestore saving every two batches with double_checkpoint, interrupted at the
    second epoch's first batch (``backup=interrupt_batches``, one interrupted program in two); validation in batches
    of its own (``val_batch``: validation_batch_size, with validation_steps; one fit program fed arrays with
    validation data in three)."""
    a, b, c, d, e, f = side.random(6)
    arch11 = _pick(side, ARCHS11)
    fit = cfg["mode"] == "fit"
    target = LOSSES[cfg["loss"]][0]
    mset = int(side.integers(len(METRICS11[target])))
    cb11 = _pick(side, CALLBACKS11)
    vb = _pick(side, VAL_BATCH_KW)
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if a < 1 / 6 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid11({**cfg, "arch": arch11}):
        cfg = {**cfg, "arch": arch11}
    if b < 0.25 and fit and cfg.get("metrics_form") is None \
            and not (cfg["policy"] == "mixed_float16" and "TopK" in METRICS11[target][mset]):
        # (in_top_k of float16 predictions: TypeError, the grid's rule)
        cfg = {**cfg, "metrics11": str(mset)}
    if c < 0.25:
        cfg = {**cfg, "opt11": "yes"}
    scheduled = cfg["common"] in SCHEDULED or cfg.get("schedule10") is not None
    if d < 0.2 and fit and not (cb11 == "lr_scheduler_verbose" and scheduled):
        cfg = {**cfg, "callbacks11": cb11}
    if e < 0.5 and cfg.get("backup") == "interrupt":
        cfg = {**cfg, "backup": "interrupt_batches"}
    if f < 1 / 3 and fit and cfg.get("feed") is None and ("validation_split" in opts or "validation_data" in opts):
        cfg = {**cfg, "val_batch": vb}
    return cfg


def _widen12(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz52's vocabulary, drawn from a generator of its own (``[seed, index, 14]``), so the programs it leaves
    alone keep their configuration, source and hash: transfer learning after fit (``transfer=recompile``: the first
    layer with weights frozen, compiled again with a lower rate and fit, unfrozen, compiled and fit again;
    ``transfer=flip``: frozen without compiling again; three fit programs in ten); ``clone_model`` + ``set_weights``,
    compiled with an optimizer of its own and fit (``clone=yes``, one fit program in four of functional or Sequential
    models without a Lambda or user layer); the tf.data pipelines people write (``pipeline``: shuffle by an op seed,
    reshuffled or not, cache, prefetch, seeded noise in map on a float input; one dataset-fed program in two, and one
    array-fed fit program in five becomes dataset-fed by one); a custom loop under mixed_float16 with a
    LossScaleOptimizer and scale_loss (``ctl_mixed=yes``, one custom loop in two, not under
    ParameterServerStrategy nor with a CheckpointManager)."""
    a, b, c, d, e = side.random(5)
    variant = _pick(side, ("recompile", "recompile", "flip"))
    opt2 = _pick(side, OPTS12)
    opt3 = _pick(side, OPTS12)
    pipes = [k for k in PIPELINES12 if k != "map_noise" or ARCHS[cfg["arch"]][0] == "float"]
    pipe = _pick(side, pipes)
    fit = cfg["mode"] == "fit"
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if a < 0.3 and fit:
        cfg = {**cfg, "transfer": variant, "opt12": opt2, "opt12b": opt3}
    if b < 0.25 and fit and cfg.get("model") is None and cfg.get("model_form") in (None, "sequential", "sequential_add") \
            and cfg.get("lambda_layer") != "yes" and cfg.get("custom_layer") != "yes":
        cfg = {**cfg, "clone": "yes", "opt12": opt2}
    if c < 0.5 and fit and cfg.get("feed") == "dataset":
        cfg = {**cfg, "pipeline": pipe}
    elif d < 0.2 and fit and cfg.get("feed") is None and "validation_split" not in opts \
            and cfg.get("sw_form") is None and cfg.get("val_batch") is None:
        cfg = {**cfg, "feed": "dataset", "pipeline": pipe}
    if e < 0.5 and not fit and cfg.get("strategy_form") != "pss" and cfg.get("ckpt_manager") is None:
        cfg = {**cfg, "ctl_mixed": "yes", "policy": "mixed_float16"}
    return cfg


def _valid13(cfg: dict[str, str]) -> bool:
    """_valid11() plus kfuzz53's: ARCHS13's random layers under the rules of RANDOM_ARCHS (a seed generator's
    replica-context update CentralStorage refuses; no training-mode call after fit)."""
    if not _valid11(cfg):
        return False
    return not (cfg["arch"] in RANDOM_ARCHS13 and (cfg["strategy"] == "central2" or cfg.get("training_call") == "yes"))


#: configuration keys of programs that load_model or from_config must rebuild (a user class is not registered)
_REBUILT = (("save", "keras_file"), ("checkpoint_cb", "keras"), ("config_roundtrip", "yes"))


def _widen13(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz53's vocabulary, drawn from a generator of its own (``[seed, index, 15]``), so the programs it leaves
    alone keep their configuration, source and hash: the layers and blocks no earlier table held (ARCHS13: causal and
    masked self-attention, an LSTM's states into a second LSTM, StackedRNNCells, Bidirectional merge modes 'mul',
    'ave' and None, BatchNormalization called with training=False, seeded image augmentation layers, EinsumDense,
    Dot/Subtract + Softmax, UpSampling1D + Cropping1D, Conv3D + MaxPooling3D, GaussianDropout + AlphaDropout,
    ActivityRegularization; one one-input program in six without a model_form); a user Loss subclass for regression
    targets (``loss_form=subclass``, one such fit program in three without a loss by string); a user Metric subclass
    with add_variable, update_state with sample weights, result and reset_state beside the metrics
    (``custom_metric=yes``, one fit program of one output in five without metrics by their string names); a user
    layer with a regularized, constrained weight, a non-trainable weight assigned in call in training and a
    ``training`` branch (``stateful_layer=yes``, one program of one output in six, not under CentralStorage or
    ParameterServerStrategy). The user classes are not drawn where load_model or from_config must rebuild them."""
    a, b, c, d = side.random(4)
    arch13 = _pick(side, ARCHS13)
    fit = cfg["mode"] == "fit"
    rebuilt = any(cfg.get(k) == v for k, v in _REBUILT)
    if a < 1 / 6 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid13({**cfg, "arch": arch13}):
        cfg = {**cfg, "arch": arch13}
    if b < 1 / 3 and fit and not rebuilt and cfg.get("loss_form") is None and LOSSES[cfg["loss"]][0] == "reg" \
            and LOSSES[cfg.get("loss2", cfg["loss"])][0] == "reg":
        cfg = {**cfg, "loss_form": "subclass"}
    if c < 0.2 and fit and not rebuilt and cfg["outputs"] == "1" and cfg.get("metrics_form") is None:
        cfg = {**cfg, "custom_metric": "yes"}
    if d < 1 / 6 and not rebuilt and cfg["outputs"] == "1" and cfg["strategy"] != "central2" \
            and cfg.get("strategy_form") != "pss" and cfg.get("save") != "keras_file":
        cfg = {**cfg, "stateful_layer": "yes"}
    return cfg


def _valid14(cfg: dict[str, str]) -> bool:
    """_valid13() plus kfuzz54's: ARCHS14's random layers under the rules of RANDOM_ARCHS."""
    if not _valid13(cfg):
        return False
    return not (cfg["arch"] in RANDOM_ARCHS14 and (cfg["strategy"] == "central2" or cfg.get("training_call") == "yes"))


#: the sparse losses that take ignore_class (kfuzz54)
_IGNORE_CLASS = ("scce_logits", "scce_softmax")


def _widen14(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz54's vocabulary, drawn from a generator of its own (``[seed, index, 16]``), so the programs it leaves
    alone keep their configuration, source and hash: the layers no earlier table held (ARCHS14: the dot-product
    Attention layer scaled over a query, value and key of their own, by score_mode='concat' over a masked Embedding, with its scores returned and with a causal
    mask; a MultiHeadAttention behind Masking over padded sequences; Resizing + CenterCrop; a seeded RandomCrop; an
    Identity residual; one one-input program in six without a model_form); a Sequential of layers without an Input,
    built by ``model.build`` (``model_form=sequential_build``, one fit program of one output of float inputs in six
    whose hidden lines are layers); ``compile(jit_compile=True)`` (``compile_kw=jit_compile``, one fit program in six
    without another compile option: XLA on TF, which simdist need not model beyond the comparison's float slack);
    SparseCategoricalCrossentropy with ``ignore_class=0`` (``ignore_class=yes``, one such program in three without a
    loss by string); SwapEMAWeights beside an optimizer with use_ema (``callbacks14``, one such fit program in two)."""
    a, b, c, d, e = side.random(5)
    arch14 = _pick(side, ARCHS14)
    cb14 = _pick(side, CALLBACKS14)
    fit = cfg["mode"] == "fit"
    if a < 1 / 6 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid14({**cfg, "arch": arch14}):
        cfg = {**cfg, "arch": arch14}
    if b < 1 / 6 and fit and cfg["outputs"] == "1" and cfg.get("model_form") is None and cfg.get("model") is None \
            and ARCHS[cfg["arch"]][0] == "float" and _layer_exprs(cfg["arch"]) is not None \
            and cfg.get("clone") is None and not any(cfg.get(k) == v for k, v in _REBUILT):
        cfg = {**cfg, "model_form": "sequential_build"}
    if c < 1 / 6 and fit and cfg.get("compile_kw") is None:
        cfg = {**cfg, "compile_kw": "jit_compile"}
    if d < 1 / 3 and cfg["loss"] in _IGNORE_CLASS and cfg.get("loss2", cfg["loss"]) in _IGNORE_CLASS \
            and cfg.get("loss_form") is None:
        cfg = {**cfg, "ignore_class": "yes"}
    if e < 0.5 and fit and cfg["common"] in ("ema", "ema_overwrite"):
        cfg = {**cfg, "callbacks14": cb14}
    return cfg


#: the optimizer options a string name in compile would drop (kfuzz55's ``opt_form=string`` only without them)
_OPT_OPTION_KEYS = ("schedule10", "opt_extra", "opt_clip", "opt11", "wd_exclude", "callbacks14")


def _widen15(cfg: dict[str, str], side: np.random.Generator) -> dict[str, str]:
    """kfuzz55's vocabulary, drawn from a generator of its own (``[seed, index, 17]``), so the programs it leaves
    alone keep their configuration, source and hash: the layers and layer options no earlier table held (ARCHS15:
    recurrent layers' less common options, a Bidirectional with a backward layer, grouped dilated and transposed 1-D
    convolutions, DepthwiseConv1D, modern activations, a Minimum merge into a thresholded ReLU, CategoryEncoding
    multi_hot; one one-input program in six without a model_form); a loss as a plain Python function
    (``loss_form=function``, one fit program of regression targets in four without another loss form); a metric
    function beside the metrics (``metric_fn=yes``, one one-output fit program in five); the optimizer by its string
    name in compile (``opt_form=string``, one fit program in five whose optimizer has no option a name would drop); a
    user callback warming the learning rate up batch by batch (``warmup=yes``, one fit program in six without a
    schedule or another callback setting the rate); a subclassed model branching on ``training`` in call
    (``subclass_training=yes``, one subclassed model in two). None where load_model or from_config must rebuild a
    user function. A correction of the older draws for this generation: a reshuffling pipeline repeated with
    steps_per_epoch under a strategy becomes the fixed shuffle (ftr_known ``distributed-read-ahead-reshuffle``: TF's
    abandoned symbolic-build iterator reads ahead by a thread-timing-dependent depth)."""
    a, b, c, d, e, f = side.random(6)
    arch15 = _pick(side, ARCHS15)
    fit = cfg["mode"] == "fit"
    rebuilt = any(cfg.get(k) == v for k, v in _REBUILT)
    if a < 1 / 6 and ARCHS[cfg["arch"]][0] != "float2" and cfg.get("model_form") is None \
            and _valid14({**cfg, "arch": arch15}):
        cfg = {**cfg, "arch": arch15}
    if b < 0.25 and fit and not rebuilt and cfg.get("loss_form") is None and LOSSES[cfg["loss"]][0] == "reg" \
            and LOSSES[cfg.get("loss2", cfg["loss"])][0] == "reg":
        cfg = {**cfg, "loss_form": "function"}
    if c < 0.2 and fit and not rebuilt and cfg["outputs"] == "1" and cfg.get("metrics_form") is None:
        cfg = {**cfg, "metric_fn": "yes"}
    cls, opts = OPTIMIZERS[cfg["optimizer"]]
    if d < 0.2 and fit and cfg["common"] == "none" and "wrap" not in opts and cls in OPT_STRINGS15 \
            and not any(cfg.get(k) is not None for k in _OPT_OPTION_KEYS):
        cfg = {**cfg, "opt_form": "string"}
    scheduled = cfg["common"] in SCHEDULED or cfg.get("schedule10") is not None
    if e < 1 / 6 and fit and not scheduled and cfg["callbacks"] not in SETS_LR \
            and cfg.get("val_callbacks") != "reduce_lr_val" and cfg.get("callbacks11") != "lr_scheduler_verbose":
        cfg = {**cfg, "warmup": "yes"}
    if f < 0.5 and cfg.get("model_form") == "subclassed":
        cfg = {**cfg, "subclass_training": "yes"}
    if cfg.get("pipeline") == "shuffle_reshuffle" and cfg.get("steps_per_epoch") == "repeat" \
            and not (cfg["strategy"] == "default" and cfg.get("strategy_form") is None):
        cfg = {**cfg, "pipeline": "shuffle_fixed_cache"}
    return cfg


def _loss_source(name: str, reduction: str | None, force: bool = False, string: bool = False,
                 subclass: bool = False, ignore: bool = False, function: bool = False) -> str:
    """The loss's source; ``reduction`` replaces the loss's own one when ``force`` (a custom loop's "none"),
    else applies to losses without one; ``string``: the loss's string name (LOSS_STRINGS); ``subclass``: the user
    Loss subclass of ftr_vocab.CUSTOM_LOSS13 in its place (kfuzz53), with the reduction; ``ignore``: class 0 ignored
    (kfuzz54, a sparse loss's ignore_class)."""
    if string:
        return repr(LOSS_STRINGS[name])
    if function:   # (kfuzz55: a plain Python function, compile's default reduction)
        return "scaled_log_cosh"
    if subclass:
        return "PseudoHuber(delta=0.5" + (f", reduction={reduction!r})" if reduction is not None else ")")
    _, _, _, cls, opts = LOSSES[name]
    opts = dict(opts)
    if reduction is not None and (force or "reduction" not in opts):
        opts["reduction"] = reduction
    if ignore:   # (kfuzz54: the sparse losses' ignore_class)
        opts["ignore_class"] = 0
    return f"tf.keras.losses.{cls}({', '.join(f'{k}={v!r}' for k, v in opts.items())})"


def _opt_source(cfg: dict[str, str]) -> str:
    """The grid's optimizer source rule (the base option wins over a class option of the same name) over the
    union of both vocabularies, with a wrapper class around the inner optimizer."""
    cls, opts = OPTIMIZERS[cfg["optimizer"]]
    opts = dict(opts)
    wrap = opts.pop("wrap", None)
    common = dict(COMMON[cfg["common"]])
    lr = repr(opts.pop("lr"))
    if "schedule" in common:
        lr = common.pop("schedule").format(lr=lr)
    elif cfg.get("schedule10") is not None:   # (kfuzz50)
        lr = SCHEDULES10[cfg["schedule10"]].format(lr=lr)
    opts.update(common)
    for k, v in OPT_EXTRAS.get(cfg.get("opt_extra", ""), {}).items():   # (kfuzz45: the optimizer's own win)
        opts.setdefault(k, v)
    for k, v in OPT_CLIPS.get(cfg.get("opt_clip", ""), {}).items():   # (kfuzz49)
        opts.setdefault(k, v)
    if cfg.get("opt11") == "yes":   # (kfuzz51: the class's less common options, the drawn ones win)
        for k, v in OPT_OPTIONS11[cls].items():
            opts.setdefault(k, v)
    args = [f"learning_rate={lr}"] + [f"{k}={v!r}" for k, v in opts.items()]
    src = f"tf.keras.optimizers.{cls}({', '.join(args)})"
    return f"tf.keras.optimizers.{wrap.replace('OPT', src)}" if wrap else src


def _build_source(cfg: dict[str, str]) -> str:
    kind, shape, lines = ARCHS[cfg["arch"]]
    dtype = ", dtype='int32'" if kind == "int" else ""
    heads = [cfg["loss"]] + ([cfg["loss2"]] if cfg["outputs"] == "2" else [])
    if kind == "float2":
        named = ", name='in{i}'" if cfg.get("inputs_form") == "dict" else ""
        body = [f"in{i} = tf.keras.Input({s!r}{named.format(i=i)})" for i, s in enumerate(shape)] + \
            ["inp = [in0, in1]", *lines]
    else:
        inp = STRING_INPUTS.get(kind, f"tf.keras.Input({shape!r}{dtype})")   # (kfuzz48: string models)
        body = [f"inp = {inp}", "h = inp", *lines]
    reg = {"l2": ", kernel_regularizer=tf.keras.regularizers.L2(0.02)",
           "l1": ", kernel_regularizer=tf.keras.regularizers.L1(0.01)"}.get(cfg.get("regularizer", ""), "")
    reg += ACTIVITY_REGULARIZERS.get(cfg.get("activity_regularizer", ""), "")   # (kfuzz44)
    reg += HEAD_EXTRAS.get(cfg.get("head_extra", ""), "")   # (kfuzz46)
    lam = [LAMBDA_LINE] if cfg.get("lambda_layer") == "yes" else []
    lam += [CUSTOM_LAYER_LINE] if cfg.get("custom_layer") == "yes" else []   # (kfuzz46)
    lam += [STATEFUL_LAYER13_LINE] if cfg.get("stateful_layer") == "yes" else []   # (kfuzz53)
    body += lam
    heads_src = []
    for i, loss in enumerate(heads):
        _, units, act = LOSSES[loss][:3]
        f32 = ", dtype='float32'" if cfg["policy"] == "mixed_bfloat16" else ""   # (kfuzz45: the guide's float32 heads)
        heads_src.append(f"tf.keras.layers.Dense({units}, activation={act!r}{reg}, name='out{i}'{f32})")
        body.append(f"out{i} = {heads_src[-1]}(h)")
    outs = "out0" if len(heads) == 1 else "[out0, out1]"
    model_cls = {"custom_train_step": "CustomModel", "compute_loss": "LossModel"}.get(cfg.get("model", ""),
                                                                                    "tf.keras.Model")
    form = cfg.get("model_form")
    if form is not None:   # (kfuzz42: one input, one output, every hidden line one layer)
        layers = [*_layer_exprs(cfg["arch"]), *(_SEQ_LINE.match(ln).group(1) for ln in lam), heads_src[0]]
        if form == "sequential":
            body = [f"model = tf.keras.Sequential([tf.keras.Input({shape!r}{dtype}), " + ", ".join(layers) + "])"]
        elif form == "sequential_build":   # (kfuzz54: no Input, built by build's input shape)
            body = ["model = tf.keras.Sequential([" + ", ".join(layers) + "])", f"model.build((None,) + {shape!r})"]
        elif form == "sequential_add":   # (kfuzz46: built layer by layer after an Input)
            body = ["model = tf.keras.Sequential()", f"model.add(tf.keras.Input({shape!r}{dtype}))"]
            body += [f"model.add({src})" for src in layers]
        else:
            body = [f"class Net({model_cls}):", "    def __init__(self):", "        super().__init__()"]
            body += [f"        self.l{i} = {src}" for i, src in enumerate(layers)]
            if cfg.get("subclass_training") == "yes":   # (kfuzz55: a branch on training after the first layer)
                body += ["    def call(self, h, training=False):", "        h = self.l0(h)",
                         "        if training:", "            h = 0.9 * h + 0.05"]
                body += [f"        h = self.l{i}(h)" for i in range(1, len(layers))]
            else:
                body += ["    def call(self, h):"] + [f"        h = self.l{i}(h)" for i in range(len(layers))]
            body += ["        return h", "model = Net()",
                     f"model(np.zeros((1,) + {shape!r}, dtype={'np.int32' if kind == 'int' else 'np.float32'}))"]
    else:
        body.append(f"model = {model_cls}(inp, {outs})")
    body += ["init_weights(model, seed)"]
    if cfg["arch"] in ARCH_ADAPT:   # (kfuzz47: the layer adapted after init_weights)
        body.append(ARCH_ADAPT[cfg["arch"]])
    if cfg["arch"] in ARCH_ADAPT8:   # (kfuzz48)
        body.append(ARCH_ADAPT8[cfg["arch"]])
    if cfg.get("opt_form") == "string":   # (kfuzz55: compile's string name, the class's defaults)
        body += [f"opt = {OPT_STRINGS15[OPTIMIZERS[cfg['optimizer']][0]]!r}"]
    else:
        body += [f"opt = {_opt_source(cfg)}"]
    if cfg.get("wd_exclude") == "bias":   # (kfuzz50: before the optimizer is built)
        body.append(WD_EXCLUDE_LINE)
    body += ["return model, opt"]
    return "def build():\n" + "\n".join("    " + b for b in body) + "\n"


_DATASET = """\
fit_kwargs = dict(fit_kwargs)   # (the program's parameters stay as drawn: their hash names TF's answer)
def _slices(v):
    return tuple(v) if isinstance(v, list) else v
_parts = (_slices(x), _slices(y)) + ((fit_kwargs.pop("sample_weight"),) if "sample_weight" in fit_kwargs else ())
ds = tf.data.Dataset.from_tensor_slices(_parts).batch(batch_size)
if "validation_data" in fit_kwargs:
    fit_kwargs["validation_data"] = tf.data.Dataset.from_tensor_slices(
        tuple(_slices(v) for v in fit_kwargs["validation_data"])).batch(batch_size)
"""
_DICT_TARGETS = """\
y = {"out0": y[0], "out1": y[1]}   # (kfuzz43: targets keyed by the output names)
fit_kwargs = dict(fit_kwargs)
if "validation_data" in fit_kwargs:
    fit_kwargs["validation_data"] = (fit_kwargs["validation_data"][0],
                                     {"out0": fit_kwargs["validation_data"][1][0],
                                      "out1": fit_kwargs["validation_data"][1][1]})
"""
_DICT_INPUTS = """\
x = {"in0": x[0], "in1": x[1]}   # (kfuzz43: inputs keyed by the Input layers' names)
fit_kwargs = dict(fit_kwargs)
if "validation_data" in fit_kwargs:
    fit_kwargs["validation_data"] = ({"in0": fit_kwargs["validation_data"][0][0],
                                      "in1": fit_kwargs["validation_data"][0][1]},) + tuple(fit_kwargs["validation_data"][1:])
"""
_FIT_CALL = "hist = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False,"


#: The session of the newest widening (kfuzz55's `_widen15`); `make_program(..., upto=45)` draws a program as the
#: generator of the forty-fifth session did, `upto=43` as the forty-third's (to re-run an earlier session's seeds and
#: open classes; the sessions before the forty-first are not told apart).
LATEST = 55


def make_program(seed: int, index: int, cfg: dict[str, str] | None = None, upto: int = LATEST) -> grid.Case:
    """Program ``index`` of root seed ``seed`` (its configuration drawn unless given) by the generator of session
    ``upto`` (45: without kfuzz46's widening, 43: as kfuzz43 drew seed 4320261203 #46, ...)."""
    rng = np.random.default_rng([seed, index])
    if cfg is None:
        cfg = draw_config(rng)
        # a model of two inputs for one fit program in ten, drawn from a generator of its own so the other
        # programs of a seed stay what they were before two-input models were drawn
        side = np.random.default_rng([seed, index, 2])
        if side.random() < 0.1:
            two = {**cfg, "arch": _pick(side, TWO_INPUTS)}
            cfg = two if valid(two) else cfg
        for session, widen in ((41, _widen), (42, _widen2), (43, _widen3), (44, _widen4), (45, _widen5), (46, _widen6),
                                (47, _widen7), (48, _widen8), (49, _widen9), (50, _widen10), (51, _widen11),
                                (52, _widen12), (53, _widen13), (54, _widen14), (55, _widen15)):
            if upto >= session:   # (each widening's generator of its own: [seed, index, session - 38])
                cfg = widen(cfg, np.random.default_rng([seed, index, session - 38]))
    kind, replicas = grid.STRATEGIES[cfg["strategy"]]
    reduction = None if cfg["reduction"] == "None" else cfg["reduction"]
    make = ("tf.distribute.MultiWorkerMirroredStrategy()" if cfg.get("strategy_form") == "mwms"
            else "cluster.strategy" if cfg.get("strategy_form") == "pss"   # (kfuzz45: 2 workers, 1 ps)
            else f"backend.make_strategy({kind!r}, {replicas})")
    custom = ({"compiled": CUSTOM_MODEL_COMPILED, "trackers": CUSTOM_MODEL_TRACKERS}.get(cfg.get("step_form", ""),
                                                                                       CUSTOM_MODEL)
              + (CUSTOM_TEST_STEP if cfg.get("test_step") == "yes" else ""))
    pss = "cluster = backend.make_ps_cluster(workers=2, ps=1)\n" if cfg.get("strategy_form") == "pss" else ""
    lines = [f"{pss}strategy = {make}", grid.PRELUDE,
             custom if cfg.get("model") == "custom_train_step" else "",
             COMPUTE_LOSS_MODEL if cfg.get("model") == "compute_loss" else "",
             CUSTOM_LAYER if cfg.get("custom_layer") == "yes" else "",
             STATEFUL_LAYER13 if cfg.get("stateful_layer") == "yes" else "",
             CUSTOM_LOSS13 if cfg.get("loss_form") == "subclass" else "",
             CUSTOM_METRIC13 if cfg.get("custom_metric") == "yes" else "",
             LOSS_FN15 if cfg.get("loss_form") == "function" else "",
             METRIC_FN15 if cfg.get("metric_fn") == "yes" else "",
             WARMUP15 if cfg.get("warmup") == "yes" else "", _build_source(cfg)]
    params: dict[str, Any] = {"seed": int(rng.integers(1, 2 ** 31))}
    opts = [o for o in cfg.get("fitopts", "").split(",") if o]
    if cfg["mode"] == "fit":
        # a batch that does not split evenly over the replicas now and then (TF 2.21 refuses some: an AddN of the
        # replicas' unequal input gradients), most programs one that does
        even = {1: (3, 4, 6), 2: (4, 6), 3: (3, 6)}[replicas]
        bs = int(_pick(rng, even)) if rng.random() < 0.9 else int(_pick(rng, (3, 4, 5)))
        n = int(_pick(rng, (9, 10, 14)) if cfg["partial"] == "yes" else bs * int(_pick(rng, (2, 3))))
        x, y = _data(cfg, rng, n)
        fit_kwargs: dict[str, Any] = {}
        spe = int(_pick(rng, (2, 3))) if "steps_per_execution" in opts else 1
        if "validation_data" in opts:
            fit_kwargs["validation_data"] = _data(cfg, rng, int(_pick(rng, (4, 5))))
        if "validation_split" in opts:
            fit_kwargs["validation_split"] = float(_pick(rng, (0.2, 0.25, 0.5)))
        if "class_weight" in opts:
            units = LOSSES[cfg["loss"]][1]
            fit_kwargs["class_weight"] = {i: float(w) for i, w in
                                          enumerate(np.round(rng.uniform(0.25, 3.0, max(units, 2)), 2))}
        if "sample_weight" in opts:
            fit_kwargs["sample_weight"] = np.round(rng.uniform(0.0, 2.0, (n,)), 2).astype(np.float32)
        epochs = {"none": 2, "reduce_lr": 5, "reduce_lr_cooldown": 4}.get(cfg["callbacks"], 3)
        if "initial_epoch" in opts:
            fit_kwargs["initial_epoch"] = 1
            epochs += 1
        target = LOSSES[cfg["loss"]][0]
        metrics = grid.METRIC_SETS["reg" if target == "pos" else target][grid.METRICS.index(cfg["metrics"])]
        if cfg.get("metrics11") is not None:   # (kfuzz51)
            metrics = METRICS11[target][int(cfg["metrics11"])]
        string = cfg.get("loss_form") == "string"
        ignore = cfg.get("ignore_class") == "yes"
        function = cfg.get("loss_form") == "function"
        loss = _loss_source(cfg["loss"], reduction, string=string, subclass=cfg.get("loss_form") == "subclass",
                            ignore=ignore, function=function)
        if cfg.get("custom_metric") == "yes":   # (kfuzz53: one output's metric list, the user metric last)
            metrics = metrics[:-1] + (", " if metrics.strip("[] ") else "") + "PredAbsMean()]"
        if cfg.get("metric_fn") == "yes":   # (kfuzz55: a metric function, last of one output's list)
            metrics = metrics[:-1] + (", " if metrics.strip("[] ") else "") + "max_abs_pred]"
        if cfg["outputs"] == "2":
            w = np.round(rng.uniform(0.2, 1.5, 2), 2)
            loss2 = _loss_source(cfg['loss2'], reduction, string=string, subclass=cfg.get("loss_form") == "subclass",
                                 ignore=ignore, function=function)
            if cfg.get("outputs_form") == "dict":   # (kfuzz43: keyed by the output layers' names)
                loss = f"{{'out0': {loss}, 'out1': {loss2}}}, loss_weights={{'out0': {w[0]!r}, 'out1': {w[1]!r}}}"
                metrics = f"{{'out0': {metrics}, 'out1': {metrics}}}"
            else:
                loss = f"[{loss}, {loss2}], loss_weights=[{w[0]!r}, {w[1]!r}]"
                metrics = f"[{metrics}, {metrics}]"
        if cfg.get("metrics_form") == "strings":   # (kfuzz47: one flat list of names over every output)
            metrics = repr(METRIC_STRINGS[target])
        fit = grid.FIT
        callbacks = CALLBACKS[cfg["callbacks"]]
        if "val_callbacks" in cfg:
            callbacks = VAL_CALLBACKS[cfg["val_callbacks"]]
        if cfg.get("checkpoint_cb") == "best":
            monitor = "val_loss" if "validation_split" in opts or "validation_data" in opts else "loss"
            callbacks += f" + [{CHECKPOINT_CB.replace('MONITOR', repr(monitor))}]"
            fit = CHECKPOINT_PRE + fit
        if cfg.get("checkpoint_cb") == "keras":   # (kfuzz47: the whole model, the best epoch)
            monitor = "val_loss" if "validation_split" in opts or "validation_data" in opts else "loss"
            callbacks += f" + [{CHECKPOINT_KERAS_CB.replace('MONITOR', repr(monitor))}]"
            fit = CHECKPOINT_KERAS_PRE + fit
        if cfg.get("warmup") == "yes":   # (kfuzz55)
            callbacks += " + [Warmup()]"
        if cfg.get("callbacks14") is not None:   # (kfuzz54)
            callbacks += f" + [{CALLBACKS14[cfg['callbacks14']]}]"
        if cfg.get("callbacks11") is not None:   # (kfuzz51)
            callbacks += f" + [{CALLBACKS11[cfg['callbacks11']]}]"
            if cfg["callbacks11"] == "csv_append":
                fit = CSV_APPEND_PRE + fit
        if cfg.get("logs_callback") == "yes":   # (kfuzz44)
            callbacks += " + [LogsReader()]"
            fit = LOGS_CALLBACK + fit
        if cfg.get("validation_freq") is not None:   # (kfuzz49)
            fit = fit.replace("CALLBACKS, **fit_kwargs)", f"CALLBACKS, validation_freq={cfg['validation_freq']}, **fit_kwargs)")
        if cfg.get("val_batch") is not None:   # (kfuzz51)
            fit = fit.replace("**fit_kwargs)", f"{VAL_BATCH_KW[cfg['val_batch']]}, **fit_kwargs)", 1)
        if cfg.get("weighted_metrics") == "yes":
            fit = fit.replace("metrics=METRICS,", "metrics=METRICS, weighted_metrics=METRICS,")
        if cfg.get("feed") == "dataset":   # (kfuzz42: the batches as a tf.data.Dataset, weights in it)
            feed = ("ds.repeat(), steps_per_epoch=%d" % (n // bs) if cfg.get("steps_per_epoch") == "repeat"
                    else "ds")   # (kfuzz44: a repeated dataset, epochs of the full batches' count)
            data_src = _DATASET
            if cfg.get("pipeline") is not None:   # (kfuzz52: the pipeline people write, under a global seed)
                data_src = data_src.replace("ds = tf.data.Dataset.from_tensor_slices(_parts).batch(batch_size)\n",
                                            "tf.keras.utils.set_random_seed(seed)\n"
                                            + PIPELINES12[cfg["pipeline"]] + "\n", 1)
            fit = data_src + fit.replace(_FIT_CALL, f"hist = model.fit({feed}, epochs=epochs,")
        if cfg.get("feed") in ("generator", "pydataset"):   # (kfuzz45)
            nb = -(-n // bs)
            feed = ("gen(), steps_per_epoch=%d" % nb if cfg["feed"] == "generator"   # (a PyDataset is shuffled by
                    else "Batches(), shuffle=%s" % ("shuffle" in opts))   # default: by Python's seeded random)
            fit = ({"generator": GENERATOR_SRC, "pydataset": PYDATASET_SRC}[cfg["feed"]]
                   + fit.replace(_FIT_CALL, f"hist = model.fit({feed}, epochs=epochs,"))
        if cfg.get("compile_kw") is not None:   # (kfuzz45)
            kw = {"run_eagerly": "run_eagerly=True", "jit_compile_false": "jit_compile=False",
                  "jit_compile": "jit_compile=True"}[cfg["compile_kw"]]   # (kfuzz54: XLA on TF)
            fit = fit.replace("steps_per_execution=SPE)", f"steps_per_execution=SPE, {kw})")
        if cfg.get("csv_logger") == "yes":   # (kfuzz45)
            callbacks += " + [tf.keras.callbacks.CSVLogger(csv_file)]"
            fit = CSV_PRE + fit
        if cfg.get("sw_form") is not None:   # (kfuzz48: the sample weights per output)
            fit = SW_PER_OUTPUT_SRC.replace("FORM", SW_FORMS[cfg["sw_form"]]) + fit
        if cfg.get("val_sw") == "yes":   # (kfuzz50: after the targets' dict, before the dataset's batches)
            fit = VAL_SW_SRC + fit
        if cfg.get("outputs_form") == "dict":
            fit = _DICT_TARGETS + fit
        if "shuffle" in opts:
            fit = "tf.keras.utils.set_random_seed(seed)\n" + fit.replace(_FIT_CALL, _FIT_CALL.replace("False", "True"))
        body = (fit.replace("LOSS", loss).replace("METRICS", metrics).replace("SPE", str(spe))
                .replace("CALLBACKS", callbacks))
        if cfg["persist"] != "none":
            body += grid.PERSIST_SRC[cfg["persist"]].replace("LOSS", loss).replace("SPE", str(spe))
        if cfg.get("checkpoint_cb") == "best":
            body += CHECKPOINT_POST
        if cfg.get("save") == "keras_file":
            body += KERAS_FILE_SRC
        if cfg.get("training_call") == "yes":
            body += TRAINING_CALL_SRC
        if cfg.get("predict_odd") == "yes":
            body += PREDICT_ODD_SRC
        if cfg.get("csv_logger") == "yes":
            body += CSV_POST
        if cfg.get("eval_steps") == "yes":
            body += EVAL_STEPS_SRC
        if cfg.get("weights_h5") == "continue":
            body += WEIGHTS_H5_SRC.replace("LOSS", loss).replace("METRICS", metrics)
        if cfg.get("config_roundtrip") == "yes":   # (kfuzz46)
            body += CONFIG_ROUNDTRIP_SRC
        if cfg.get("dropout_call") == "yes":
            body += DROPOUT_CALL_SRC
        if cfg.get("eval_list") == "yes":
            body += EVAL_LIST_SRC
        if cfg.get("checkpoint_cb") == "keras":
            body += CHECKPOINT_KERAS_POST
        if cfg.get("backup") == "interrupt":   # (kfuzz49)
            body += BACKUP_SRC.replace("LOSS", loss).replace("METRICS", metrics)
        if cfg.get("backup") == "interrupt_batches":   # (kfuzz51)
            body += BACKUP_BATCHES_SRC.replace("LOSS", loss).replace("METRICS", metrics)
        if cfg.get("batch_api") == "yes":   # (kfuzz47; a batch MirroredStrategy(3) splits evenly)
            body += BATCH_API_SRC.replace("ROWS", "6" if replicas == 3 else "4")
        if cfg.get("callbacks11") == "csv_append":   # (kfuzz51: a second fit appended to the file)
            body += CSV_APPEND_POST
        if cfg.get("clone") == "yes":   # (kfuzz52)
            body += CLONE_SRC.replace("OPT2", OPTS12[cfg["opt12"]]).replace("LOSS", loss).replace("METRICS", metrics)
        if cfg.get("transfer") is not None:   # (kfuzz52: last, it freezes layers of the model)
            recompile = TRANSFER_RECOMPILE if cfg["transfer"] == "recompile" else ""
            body += (TRANSFER_SRC.replace("RECOMPILE", recompile).replace("OPT2", OPTS12[cfg["opt12"]])
                     .replace("OPT3", OPTS12[cfg["opt12b"]]).replace("LOSS", loss).replace("METRICS", metrics))
        if cfg.get("inputs_form") == "dict":   # (kfuzz43: the inputs by their names)
            body = _DICT_INPUTS + re.sub(r"\bx\[:(\d)\]", r"{k: a[:\1] for k, a in x.items()}", body)
        elif ARCHS[cfg["arch"]][0] == "float2":   # the templates' first rows of x: of each input
            body = re.sub(r"\bx\[:(\d)\]", r"[a[:\1] for a in x]", body)
        if ARCHS[cfg["arch"]][0] in STRING_INPUTS:   # (kfuzz48: the tokens as words before anything reads x)
            body = STRING_INPUTS_SRC.replace("KIND", repr(ARCHS[cfg["arch"]][0])) + body
        params.update(x=x, y=y, batch_size=bs, epochs=epochs, fit_kwargs=fit_kwargs)
    else:
        x, y = _data(cfg, rng, int(_pick(rng, (8, 12))))
        ctl = CTL_PSS if cfg.get("strategy_form") == "pss" else grid.CTL
        body = (ctl.replace("LOSS_NONE", _loss_source(cfg["loss"], "none", force=True,
                                                            ignore=cfg.get("ignore_class") == "yes"))
                .replace("USE_FUNCTION", str(cfg["mode"] == "ctl_function")))
        if cfg.get("ctl_clip") is not None:   # (kfuzz49: the gradients clipped before they are applied)
            at = "    grads = tape.gradient(loss, model.trainable_variables)\n"
            body = body.replace(at, at + CTL_CLIPS[cfg["ctl_clip"]])
        if cfg.get("ckpt_manager") == "yes":   # (kfuzz50: saved at each epoch's end, restored mid-run after)
            body = (body.replace("GB = 4\n", CKPT_MANAGER_PRE + "GB = 4\n", 1)
                    .replace("for i, v in enumerate(opt_vars(opt)):\n",
                             CKPT_MANAGER_SAVE + "for i, v in enumerate(opt_vars(opt)):\n", 1)
                    + CKPT_MANAGER_POST.replace("USE_FUNCTION", str(cfg["mode"] == "ctl_function")))
        if cfg.get("ctl_mixed") == "yes":   # (kfuzz52: a LossScaleOptimizer, the loss scaled in the tape)
            at = "        loss = tf.nn.compute_average_loss(loss_obj(yb, pred), global_batch_size=GB)\n"
            body = (body.replace("    opt.build(model.trainable_variables)", CTL_MIXED_OPT
                                 + "    opt.build(model.trainable_variables)", 1)
                    .replace(at, at + "        scaled = opt.scale_loss(loss)\n", 1)
                    .replace("grads = tape.gradient(loss, model.trainable_variables)",
                             "grads = tape.gradient(scaled, model.trainable_variables)", 1))
        if cfg.get("ctl_form") == "apply":   # (kfuzz44: optimizer.apply, a tf.function without XLA)
            body = (body.replace("opt.apply_gradients(zip(grads, model.trainable_variables))",
                                 "opt.apply(grads, model.trainable_variables)")
                    .replace("tf.function(replicated)", "tf.function(replicated, jit_compile=False)"))
        params.update(x=x, y=y)
    if cfg["policy"] != "float32":
        body = ("tf.keras.mixed_precision.set_global_policy(%r)\ntry:\n" % cfg["policy"]
                + "\n".join("    " + ln for ln in body.splitlines())
                + "\nfinally:\n    tf.keras.mixed_precision.set_global_policy('float32')\n")
    lines.append(body)
    return grid.Case(index, dict(cfg), "\n".join(ln for ln in lines if ln), params)


def comparison_case(case: grid.Case) -> grid.Case:
    """The case as reference.compare should see it: this vocabulary's adaptive optimizers named as the grid's
    adaptive "adam", so compare's noise rule (reference.NOISE_PARAMS: the exactly-zero gradients of the bias
    before BatchNormalization and of MultiHeadAttention's key bias) applies to them as to the grid's."""
    if case.config["optimizer"] in _ADAPTIVE_VOCAB:
        return dataclasses.replace(case, config={**case.config, "optimizer": "adam"})
    return case


def program_hash(case: grid.Case) -> str:
    return grid.case_hash(case)


def compare(case: grid.Case, got: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    return reference.compare(comparison_case(case), got, recorded)
