"""The training fuzzer against real TensorFlow 2.21 (docs/spec.md `train.reference-grid`, kfuzz40, issue 29): seeded random whole
training programs (tests/fuzz_train/ftr_progs.py: the training grid's templates and factors with a wider
vocabulary, full random configurations) run on simdist and compared observable by observable with TF's answers
(the grid's reference.compare). A bounded slice runs by default against TF's answers kept in
tests/goldens/fuzz_train-slice/ (no TensorFlow needed); `-m slow` runs 120 programs of seed SEED + 1 against
live TF (answers kept under .cache/fuzz_train-answers).
"""

from __future__ import annotations

import importlib.util
import io
import os

import numpy as np
import pytest

from ftr_known import KNOWN_OPEN
from ftr_progs import ARCHS, LOSSES, OPTIMIZERS, make_program
from ftr_vocab import (ARCHS7, ARCHS10, ARCHS11, ARCHS13, ARCHS14, ARCHS15, CALLBACKS14, CALLBACKS11, METRICS11, OPT_OPTIONS11, PIPELINES12,
                       VAL_BATCH_KW)
from fz_train_campaign import ANSWERS_DIR, campaign, load_answer

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause
SEED = 40_20261204
SLICE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goldens", "fuzz_train-slice")
SLICE_SEED = SEED * 10
SLICE = list(range(12))


@clause("train.reference-grid")
@pytest.mark.parametrize("index", SLICE)
def test_fuzz_train_slice(index: int) -> None:
    """Program `index` of the slice seed: every observable as TF 2.21's kept answer (or TF's error class)."""
    case = make_program(SLICE_SEED, index)
    if load_answer(SLICE_DIR, case, SLICE_SEED) is None:
        pytest.fail(f"no current TF answer for slice program {index} in {SLICE_DIR}: record it with "
                    f"`python tests/fuzz_train/fz_train_campaign.py {SLICE_SEED} {index} 1 --answers {SLICE_DIR} "
                    f"--no-simdist` (needs TF 2.21)")
    failures, known = campaign(SLICE_SEED, [index], SLICE_DIR, out=io.StringIO())
    assert not failures, f"slice program {index} disagrees with TF 2.21 (open classes seen: {known}):\n" + failures[0]


@needs_tf
@pytest.mark.tf
@pytest.mark.slow
@clause("train.reference-grid")
@pytest.mark.parametrize("chunk", range(3))
def test_fuzz_train_long(chunk: int) -> None:
    """120 programs of seed SEED + 1 in 3 chunks of 40 against live TF (answers kept under .cache/)."""
    failures, known = campaign(SEED + 1, list(range(chunk * 40, chunk * 40 + 40)), ANSWERS_DIR, out=io.StringIO())
    assert not failures, f"{len(failures)} of 40 programs disagree with TF 2.21 (open classes seen: {known}):\n" + \
        "\n\n".join(failures[:3])


def test_generation_is_deterministic() -> None:
    """A program depends only on (seed, index): drawn twice, the same source, configuration and data."""
    for i in range(20):
        a, b = make_program(SEED, i), make_program(SEED, i)
        assert a.source == b.source and a.config == b.config, f"program {i} differs between two draws"
        for k in a.params:
            assert repr(a.params[k]) == repr(b.params[k]), f"program {i}'s parameter {k} differs between two draws"


def test_programs_reach_the_vocabulary() -> None:
    """600 programs of one seed reach every architecture (the text models too), loss and optimizer of both
    vocabularies, every mode, strategy, fit option, two outputs, mixed_float16, the subclassed model with its own
    train_step and losses by string, the Sequential and subclassed model forms, datasets fed to fit, kernel
    regularizers and weighted metrics, dict losses and targets, .keras files saved and loaded, ModelCheckpoint,
    callbacks on the validation loss and the model called in training mode (kfuzz43), the one-worker
    MultiWorkerMirroredStrategy, Lambda layers, activity regularizers, the custom test_step, a callback reading the logs,
    predict by odd batches, a repeated dataset with steps_per_epoch and a custom loop's optimizer.apply (kfuzz44); nested
    models, a shared layer over two inputs, generator and PyDataset feeds, run_eagerly and jit_compile=False,
    evaluate/predict with steps, a CSVLogger, .weights.h5 continued training, optimizer extras, mixed_bfloat16 and
    custom loops under ParameterServerStrategy (kfuzz45); the guides' image and sequence models, the Sequential built by
    add(), constraints and bias regularizers on the heads, a user layer with add_weight and add_loss, Keras 2's
    compiled_loss/compiled_metrics step and a step with metrics of its own, the summary with a get_config/from_config
    round trip, random layers called after fit and evaluate's list form (kfuzz46); preprocessing and normalization
    layers and recurrent dropout, train_on_batch/test_on_batch/predict_on_batch, metrics by their string names over
    every output and a ModelCheckpoint of the whole model to a .keras file (kfuzz47); kfuzz50's and kfuzz51's draws (the
    decoders, padding, ConvLSTM, residual and merge models, metric sets, optimizer options, callbacks, batch-level
    BackupAndRestore, validation batches); kfuzz52's (transfer learning by freezing and compiling again or not,
    clone_model + set_weights, tf.data pipelines, a mixed_float16 custom loop with a LossScaleOptimizer); kfuzz53's
    (ARCHS13's layers over SEED's 600 + 300 of SEED + 1, user Loss and Metric subclasses, a user layer with a
    non-trainable weight assigned in training); kfuzz54's (ARCHS14's attention, masking, resizing and residual layers,
    a Sequential built by build(), jit_compile=True, ignore_class, SwapEMAWeights); kfuzz55's (ARCHS15's recurrent
    options, backward layers, grouped and transposed 1-D convolutions, activations and merges, a loss and a metric as
    functions, optimizers by string, a warmup callback, a subclassed model's training branch)."""
    cs = [make_program(SEED, i) for i in range(600)]
    for factor, levels in (("arch", set(ARCHS) - set(ARCHS11) - set(ARCHS13) - set(ARCHS14)), ("loss", LOSSES),
                           ("optimizer", OPTIMIZERS)):
        drawn = {c.config[factor] for c in cs} - set(ARCHS11) - set(ARCHS13) - set(ARCHS14)
        assert drawn == set(levels), f"600 programs never draw {factor} {sorted(set(levels) - drawn)}"
    for factor, want in (("mode", {"fit", "ctl_eager", "ctl_function"}),
                         ("strategy", {"default", "one_device", "mirrored2", "mirrored3", "central2"}),
                         ("outputs", {"1", "2"}), ("policy", {"float32", "mixed_float16", "mixed_bfloat16"}),
                         ("persist", {"none", "weights_file", "checkpoint"})):
        drawn = {c.config[factor] for c in cs}
        assert drawn == want, f"600 programs draw {factor} {sorted(drawn)}, but should draw {sorted(want)}"
    opts = {o for c in cs for o in c.config["fitopts"].split(",") if o}
    want = {"sample_weight", "class_weight", "validation_split", "validation_data", "initial_epoch",
            "steps_per_execution", "shuffle"}
    assert opts == want, f"600 programs use fit options {sorted(opts)}, but should use {sorted(want)}"
    assert any(c.params.get("x") is not None and len(c.params["x"]) % c.params.get("batch_size", 1) for c in cs), \
        "no partial last batch in 600 programs"
    for factor, want in (("model", {"custom_train_step", "compute_loss"}),   # (kfuzz41's, 50's)
                         ("loss_form", {"string", "subclass", "function"}),   # (kfuzz41's, 53's, 55's)
                         ("custom_metric", {"yes"}), ("stateful_layer", {"yes"}),   # (kfuzz53's)
                         ("model_form", {"sequential", "subclassed", "sequential_add", "sequential_build"}),   # (kfuzz42's, 46's, 54's)
                         ("feed", {"dataset", "generator", "pydataset"}),
                         ("regularizer", {"l1", "l2"}), ("weighted_metrics", {"yes"}),
                         ("outputs_form", {"dict"}), ("save", {"keras_file"}),   # (kfuzz43's)
                         ("checkpoint_cb", {"best", "keras"}), ("val_callbacks", {"early_stopping_val", "reduce_lr_val"}),
                         ("training_call", {"yes"}),
                         ("strategy_form", {"mwms", "pss"}), ("lambda_layer", {"yes"}),   # (kfuzz44's, kfuzz45's pss)
                         ("activity_regularizer", {"l1", "l2"}), ("test_step", {"yes"}), ("logs_callback", {"yes"}),
                         ("predict_odd", {"yes"}), ("steps_per_epoch", {"repeat"}), ("ctl_form", {"apply"}),
                         ("compile_kw", {"run_eagerly", "jit_compile_false", "jit_compile"}), ("eval_steps", {"yes"}),   # (kfuzz45's)
                         ("csv_logger", {"yes"}), ("weights_h5", {"continue"}),
                         ("opt_extra", {"clipnorm_ema", "wd_global_clipnorm", "clipvalue_wd"}),
                         ("head_extra", {"max_norm", "non_neg", "unit_norm_bias_l2", "min_max_bias_l1"}),   # (kfuzz46's)
                         ("custom_layer", {"yes"}), ("step_form", {"compiled", "trackers"}),
                         ("config_roundtrip", {"yes"}), ("dropout_call", {"yes"}), ("eval_list", {"yes"}),
                         ("batch_api", {"yes"}), ("metrics_form", {"strings"}),   # (kfuzz47's)
                         ("schedule10", {"exp_decay_smooth", "cosine_restarts", "piecewise3"}),   # (kfuzz50's)
                         ("wd_exclude", {"bias"}), ("val_sw", {"yes"}), ("ckpt_manager", {"yes"}),
                         ("metrics11", {"0", "1", "2", "3"}), ("opt11", {"yes"}),   # (kfuzz51's)
                         ("callbacks11", set(CALLBACKS11)), ("val_batch", set(VAL_BATCH_KW)),
                         ("backup", {"interrupt", "interrupt_batches"}),
                         ("transfer", {"recompile", "flip"}), ("clone", {"yes"}),   # (kfuzz52's)
                         ("pipeline", set(PIPELINES12)), ("ctl_mixed", {"yes"}),
                         ("ignore_class", {"yes"}), ("callbacks14", set(CALLBACKS14)),   # (kfuzz54's)
                         ("metric_fn", {"yes"}), ("opt_form", {"string"}), ("warmup", {"yes"}),   # (kfuzz55's)
                         ("subclass_training", {"yes"})):
        drawn = {c.config[factor] for c in cs if factor in c.config}
        assert drawn == want, f"600 programs draw {factor} {sorted(drawn)}, but should draw {sorted(want)}"
    steps = {"compiled": "self.compiled_metrics.update_state(y, y_pred, sample_weight)",
             "trackers": "self.loss_tracker.update_state(loss)"}
    for c in cs:
        step = c.config.get("step_form")
        assert step is None or steps[step] in c.source, f"program {c.index} (step_form={step}) lacks its step"
    arch6 = {c.config["arch"] for c in cs} & {"conv1d_maxpool", "conv2d_same_avgpool", "lstm_seq_gru", "embed_gap_dense"}
    assert len(arch6) == 4, f"600 programs draw only {sorted(arch6)} of kfuzz46's models"
    arch7 = {c.config["arch"] for c in cs} & set(ARCHS7)
    assert arch7 == set(ARCHS7), f"600 programs draw only {sorted(arch7)} of kfuzz47's models"
    arch10 = {c.config["arch"] for c in cs} & set(ARCHS10)
    assert arch10 == set(ARCHS10), f"600 programs draw only {sorted(arch10)} of kfuzz50's models"
    more = [make_program(SEED + 1, i) for i in range(300)]
    arch11 = {c.config["arch"] for c in cs + more} & set(ARCHS11)
    assert arch11 == set(ARCHS11), f"900 programs draw only {sorted(arch11)} of kfuzz51's models"   # (SEED's 600 draw
    #   9 of the 10: 1 of its ~100 widened programs drew zeropad_conv_crop, a Sequential one that keeps its model)
    arch13 = {c.config["arch"] for c in cs + more} & set(ARCHS13)
    assert arch13 == set(ARCHS13), f"900 programs draw only {sorted(arch13)} of kfuzz53's models"
    arch14 = {c.config["arch"] for c in cs + more} & set(ARCHS14)
    assert arch14 == set(ARCHS14), f"900 programs draw only {sorted(arch14)} of kfuzz54's models"
    arch15 = {c.config["arch"] for c in cs} & set(ARCHS15)
    assert arch15 == set(ARCHS15), f"600 programs draw only {sorted(arch15)} of kfuzz55's models"
    for c in cs:   # (kfuzz51's draws reach the source)
        target = LOSSES[c.config["loss"]][0]
        assert "metrics11" not in c.config or METRICS11[target][int(c.config["metrics11"])][:-1] in c.source, \
            f"program {c.index} (metrics11={c.config.get('metrics11')}) does not compile its metric set"
        assert "callbacks11" not in c.config or CALLBACKS11[c.config["callbacks11"]] in c.source, \
            f"program {c.index} (callbacks11={c.config.get('callbacks11')}) does not pass its callback"
        assert "val_batch" not in c.config or VAL_BATCH_KW[c.config["val_batch"]] + ", **fit_kwargs)" in c.source, \
            f"program {c.index} (val_batch={c.config.get('val_batch')}) does not fit with its validation batches"
        assert c.config.get("backup") != "interrupt_batches" or "save_freq=2, double_checkpoint=True" in c.source, \
            f"program {c.index} (backup=interrupt_batches) does not back up every two batches"
        cls = OPTIMIZERS[c.config["optimizer"]][0]
        assert "opt11" not in c.config or all(f"{k}=" in c.source for k in OPT_OPTIONS11[cls]), \
            f"program {c.index} (opt11) lacks {cls}'s options {sorted(OPT_OPTIONS11[cls])}"
    for c in cs:
        assert c.config.get("model") != "compute_loss" or ("class LossModel(tf.keras.Model)" in c.source and (
            "model = LossModel(" in c.source or "class Net(LossModel)" in c.source)), \
            f"program {c.index} (model=compute_loss) does not build its model from LossModel"
    customs = [c for c in cs if c.config.get("model") == "custom_train_step"]
    assert all("class CustomModel(tf.keras.Model)" in c.source
               and ("model = CustomModel(" in c.source or "class Net(CustomModel)" in c.source)
               for c in customs), "a custom_train_step program does not build its model from CustomModel"
    checks = {"outputs_form": "loss={'out0': ", "save": "tf.keras.models.load_model(keras_path)",
              "checkpoint_cb": "ModelCheckpoint(ckpt_", "training_call": "model(x[:4], training=True)",
              "strategy_form": "strategy = tf.distribute.MultiWorkerMirroredStrategy()",
              "lambda_layer": "layers.Lambda(lambda t:", "activity_regularizer": "activity_regularizer=tf.keras.",
              "test_step": "    def test_step(self, data):", "logs_callback": "+ [LogsReader()]",
              "predict_odd": 'obs["predict/odd"] = np.asarray(model.predict(', "steps_per_epoch": "model.fit(ds.repeat(), steps_per_epoch=",
              "ctl_form": "opt.apply(grads, model.trainable_variables)",
              "compile_kw": "steps_per_execution=", "eval_steps": "model.evaluate(x, y, batch_size=batch_size, steps=2,",
              "csv_logger": "+ [tf.keras.callbacks.CSVLogger(csv_file)]", "weights_h5": "model_w.load_weights(wpath)",
              "head_extra": "_constraint=tf.keras.constraints.", "custom_layer": "ScaleShift()",
              "config_roundtrip": "model_rt = type(model).from_config(_cfg)", "dropout_call": 'obs[f"predict/dropout_call{_k}"]',
              "eval_list": "ev_l = model.evaluate(x, y, batch_size=batch_size, verbose=0)",
              "batch_api": "model.train_on_batch(", "metrics_form": "metrics=['",
              "schedule10": "learning_rate=tf.keras.optimizers.schedules.",   # (kfuzz50's)
              "wd_exclude": "opt.exclude_from_weight_decay(var_names=['bias'])",
              "val_sw": 'fit_kwargs["validation_data"] = (_vx, _vy, np.round(',
              "ckpt_manager": "tf.train.Checkpoint(model=model_r, optimizer=opt_r).restore(ckm.checkpoints[0])",
              "transfer": "    _l12.trainable = False", "clone": "tf.keras.models.clone_model(model)",   # (kfuzz52's)
              "ctl_mixed": "grads = tape.gradient(scaled, model.trainable_variables)",
              "custom_metric": "PredAbsMean()", "stateful_layer": "RunningCenter()",   # (kfuzz53's)
              "ignore_class": "ignore_class=0", "callbacks14": "SwapEMAWeights(",   # (kfuzz54's)
              "metric_fn": "max_abs_pred]", "warmup": "+ [Warmup()]",   # (kfuzz55's)
              "subclass_training": "if training:\n                h = 0.9 * h + 0.05"}
    for c in cs:   # (kfuzz53's user loss: every output's loss the subclass)
        heads = 2 if c.config["outputs"] == "2" else 1
        assert c.config.get("loss_form") != "subclass" or (
            "class PseudoHuber(tf.keras.losses.Loss)" in c.source
            and c.source.split("model.compile(", 1)[1].split("metrics=", 1)[0].count("PseudoHuber(delta=0.5") == heads), \
            f"program {c.index} (loss_form=subclass) does not compile the user loss on every output"
    for c in cs:   # (kfuzz55's: the function loss on every output, the optimizer by its string name)
        heads = 2 if c.config["outputs"] == "2" else 1
        assert c.config.get("loss_form") != "function" or (
            c.source.split("model.compile(", 1)[1].split("metrics=", 1)[0].count("scaled_log_cosh") == heads), \
            f"program {c.index} (loss_form=function) does not compile the function on every output"
        assert c.config.get("opt_form") != "string" or "    opt = '" in c.source, \
            f"program {c.index} (opt_form=string) does not name its optimizer by a string"
        assert not (c.config.get("pipeline") == "shuffle_reshuffle" and c.config.get("steps_per_epoch") == "repeat"
                    and (c.config["strategy"] != "default" or "strategy_form" in c.config)), \
            f"program {c.index} repeats a reshuffling pipeline under a strategy (distributed-read-ahead-reshuffle)"
    for c in cs:   # (kfuzz52's pipelines: under a global seed)
        assert "pipeline" not in c.config or ("tf.keras.utils.set_random_seed(seed)" in c.source
                                              and PIPELINES12[c.config["pipeline"]] in c.source), \
            f"program {c.index} (pipeline={c.config.get('pipeline')}) does not feed fit its pipeline"
    for c in cs:
        for factor, text in checks.items():
            if factor == "strategy_form" and c.config.get(factor) == "pss":
                continue   # (checked below)
            if factor == "training_call" and c.config["arch"] == "shared_two_inputs":
                text = "model([a[:4] for a in x], training=True)"   # (kfuzz45's two-input swap: each input's rows)
            assert factor not in c.config or text in c.source, f"program {c.index} ({factor}) has no {text!r}"
    forms = {"sequential": "model = tf.keras.Sequential([", "subclassed": "    def call(self, h",
             "sequential_add": "model = tf.keras.Sequential()\n    model.add(tf.keras.Input(",
             "sequential_build": "])\n    model.build((None,) + ("}
    for c in cs:
        form = c.config.get("model_form")
        assert form is None or forms[form] in c.source, f"program {c.index} ({form}) does not build its model so"
        feed = c.config.get("feed")
        assert feed != "generator" or ("hist = model.fit(gen(), steps_per_epoch=" in c.source
                                       and c.config["strategy"] == "default" and "strategy_form" not in c.config), \
            f"program {c.index} (feed=generator) does not fit on the generator under the default strategy"
        assert feed != "pydataset" or "hist = model.fit(Batches(), shuffle=" in c.source, \
            f"program {c.index} (feed=pydataset) does not fit on the PyDataset"
        assert c.config.get("strategy_form") != "pss" or "cluster.coordinator.schedule(replicated" in c.source, \
            f"program {c.index} (strategy_form=pss) does not schedule its steps"
        assert c.config.get("feed") != "dataset" or "hist = model.fit(ds, epochs=epochs," in c.source or \
            "hist = model.fit(ds.repeat(), steps_per_epoch=" in c.source, \
            f"program {c.index} (feed=dataset) does not fit on the dataset"


def test_known_classes_say_what_each_side_does() -> None:
    for key, (_levels, _fragment, text) in KNOWN_OPEN.items():
        assert "TF" in text and "simdist" in text, f"open class {key} does not say what TF and simdist do: {text}"
