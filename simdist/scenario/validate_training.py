"""Pass 2 of validation for training models (``model.zoo`` / ``model.function``): the model, its
options, the ``[data]`` table (the data file is read and checked here, so a bad file is a
scenario error with its key path) and the ``[training]`` keys that only training runs use.

Findings go to the validator's `err`; facts the runner needs go to its ``plan["training"]``:
the resolved data file, the data's shape and classes, and its content digest.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from .schema import FLOP_MODEL_KEYS

__all__ = ["check_training", "resolve_data_path", "DEFAULT_LR", "DEFAULT_BUCKETS", "EVALS_PER_RUN"]

DEFAULT_LR = {"sgd": 0.01, "adam": 0.001}   # Keras 3's defaults
DEFAULT_BUCKETS = 4096
EVALS_PER_RUN = 20
_FUNCTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$")
_OPTIONS = {"hidden": ("mlp", "wide_deep"), "filters": ("cnn",), "embedding_dim": ("wide_deep", "transformer"),
            "heads": ("transformer",), "blocks": ("transformer",), "ff_dim": ("transformer",),
            "tokens": ("transformer",)}


def resolve_data_path(path: str, scenario_file: str) -> Path:
    """A relative ``data.path`` is relative to the scenario file's directory (or the working
    directory when the scenario has no file)."""
    p = Path(path).expanduser()
    if p.is_absolute():
        return p
    base = Path(scenario_file).parent if scenario_file and not scenario_file.startswith("<") else Path(".")
    return base / p


def check_training(v: Any, c: dict, st: dict, topo: Any) -> None:
    """Check a training scenario as a whole; fill the defaults that depend on the model."""
    m = c["model"]
    raw_model = (getattr(v, "raw", {}) or {}).get("model") or {}
    if m.get("zoo") is not None and m.get("function") is not None:
        v.err("model.function", "give model.zoo or model.function, not both (rule: one model)")
    fn = m.get("function")
    fn_ok = fn is not None and _check_function(v, fn)
    for key in FLOP_MODEL_KEYS:
        if key in raw_model:
            v.err(f"model.{key}", "describes a FLOP-only model; a training model's sizes and FLOPs come from its layers "
                                  f"(rule: drop it{'; the batch size is data.batch_size' if key == 'global_batch' else ''})")
    zoo = m.get("zoo")
    for key, kinds in _OPTIONS.items():
        if m.get(key) is not None and zoo not in kinds:
            v.err(f"model.{key}", f"an option of the zoo model{'s' if len(kinds) > 1 else ''} {', '.join(kinds)} "
                                  f"(rule: this model is {zoo or fn!r})")
    kind = st["kind"]
    if "replica_full" in v.plan and kind != "multi_worker_mirrored":
        v.err("strategy.kind", "a training model runs mirrored on one host's devices (rule: cluster.preset = "
                               "\"gpu_cluster\" with several hosts is for FLOP-only models, or for a training model "
                               "under strategy.kind = \"multi_worker_mirrored\")")
        return
    tr = c.get("training")
    if isinstance(tr, dict):
        _check_training_table(v, tr)
    d = c.get("data")
    if not isinstance(d, dict):
        if d is None:
            v.err("data", "missing (rule: a training model needs a [data] table: dataset = \"digits\" or path = "
                          "\"file.npz\")")
        return
    checked = _check_data(v, d)
    if checked is None:
        return
    facts, x = checked
    b = d.get("batch_size")
    r = v.plan["replicas"]
    who = "workers" if kind == "parameter_server" else "replicas"
    if isinstance(b, int) and b % r:
        v.err("data.batch_size", f"{b} does not split evenly over {r} {who} (rule: batch_size % {who} == 0; e.g. "
                                 f"{max(r, (b // r) * r)} or {(b // r + 1) * r})")
    pipeline = (b // r if kind == "parameter_server" else b) if isinstance(b, int) and r and b % r == 0 else 0
    if pipeline > facts["train"]:
        each = "" if r == 1 or kind != "parameter_server" else f" ({b // r:,} per worker)"
        v.err("data.batch_size", f"{b:,}{each} is larger than the {facts['train']:,} training examples (rule: a "
                                 f"batch draws distinct examples: {'batch_size / workers' if kind == 'parameter_server' else 'batch_size'}"
                                 f" <= training examples; {pipeline:,} > {facts['train']:,})")
    if zoo == "wide_deep" and d.get("categorical_buckets") is None:
        d["categorical_buckets"] = DEFAULT_BUCKETS
    if zoo == "wide_deep" and d.get("categorical_buckets") == 0:
        v.err("data.categorical_buckets", "wide_deep learns from a categorical feature (rule: > 0, or omit it for "
                                          f"{DEFAULT_BUCKETS})")
    if zoo in ("mlp", "cnn", "transformer") and d.get("categorical_buckets"):
        v.err("data.categorical_buckets", f"the {zoo} model takes x only, not a categorical feature (rule: "
                                          "categorical_buckets is for model.zoo = \"wide_deep\" or a model.function "
                                          "taking (x, category id))")
    if zoo == "cnn" and len(facts["x_shape"]) not in (2, 3):
        v.err("model.zoo", f"cnn needs images: x of shape (examples, height, width[, channels]), the data's x has "
                           f"shape {tuple([facts['examples']] + facts['x_shape'])} (rule: image data)")
    if zoo == "transformer":
        _check_transformer(v, m, facts)
    if m.get("mixed_precision") == "mixed_float16" and kind == "parameter_server":
        v.err("model.mixed_precision", "mixed_float16 with parameter_server is not offered by scenarios yet: its "
                                       "LossScaleOptimizer runs in PS custom loops as on TF, but the scenario trainer's "
                                       "parameter_server step is not tested with it "
                                       "(rule: float32 or mixed_bfloat16 with parameter_server)")
    if m.get("mixed_precision") == "mixed_float16" and kind == "central_storage":
        v.err("model.mixed_precision", "mixed_float16's LossScaleOptimizer fails at its first finite step under "
                                       "CentralStorageStrategy, on TF 2.21 + Keras 3.15 as on simdist (its step "
                                       "counter is an AggregatingVariable updated in a replica context: ValueError) "
                                       "(rule: float32 or mixed_bfloat16 with central_storage)")
    v.plan["training"] = facts
    if fn_ok and not any(i.path.startswith(("data", "model")) for i in v.issues):
        _probe_function(v, fn, x, int(d.get("categorical_buckets") or 0), facts["classes"])


def _check_transformer(v: Any, m: dict, facts: dict) -> None:
    """The transformer's tokens must split x's features evenly; key_dim = embedding_dim / heads >= 1."""
    from .train.zoo import transformer_options
    o = transformer_options(m)
    features = math.prod(facts["x_shape"]) if facts["x_shape"] else 1
    if features % o["tokens"]:
        v.err("model.tokens", f"{o['tokens']} tokens do not split the data's {features} features evenly (rule: "
                              f"features % tokens == 0; e.g. a divisor of {features})")
    if o["heads"] > o["embedding_dim"]:
        v.err("model.heads", f"{o['heads']} heads of a {o['embedding_dim']}-wide embedding leave no key dimension "
                             "(rule: heads <= embedding_dim; key_dim = embedding_dim // heads)")


def _check_function(v: Any, fn: str) -> bool:
    if not _FUNCTION.match(fn):
        v.err("model.function", f"{fn!r} is not \"module:function\" (rule: a dotted module path, a colon, a function "
                                "name; e.g. \"mymodels:build\")")
        return False
    from .usercode import UserCodeError, resolve
    try:
        resolve(fn, "model.function", v.file)
    except UserCodeError as e:
        v.err(e.key, e.detail)
        return False
    return True


def _probe_function(v: Any, fn: str, x: Any, buckets: int, classes: int) -> None:
    """Build the model of ``model.function`` and call it on two examples (`train.zoo.probe_function`):
    what the user code does wrong is an error at model.function, before any run."""
    from .train.zoo import probe_function
    from .usercode import UserCodeError
    try:
        v.plan.setdefault("model_probe", {})["parameters"] = probe_function(fn, v.file, x, buckets, classes)
    except UserCodeError as e:
        v.err(e.key, e.detail)
    except MemoryError:
        v.err("model.function", f"{fn!r}: building the model ran out of memory (rule: a model that fits in memory)")


def _check_training_table(v: Any, tr: dict) -> None:
    if tr.get("compute_jitter"):
        v.err("training.compute_jitter", "a training model's compute is the FLOPs of its real ops (rule: jitter is for "
                                         "FLOP-only models; use faults.stragglers)")
    opt = tr.setdefault("optimizer", "sgd")
    tr.setdefault("learning_rate", DEFAULT_LR.get(opt, 0.01))
    steps = tr.get("steps")
    if isinstance(steps, int):
        tr.setdefault("eval_every", max(1, math.ceil(steps / EVALS_PER_RUN)))


def _check_data(v: Any, d: dict) -> tuple[dict[str, Any], Any] | None:
    from simdist import datasets
    given = [k for k in ("dataset", "path") if d.get(k) is not None]
    raw = (getattr(v, "raw", {}) or {}).get("data") or {}
    if not given and any(k in raw for k in ("dataset", "path")):
        return None   # the value given was refused already (pass 1 said why)
    if len(given) != 1:
        v.err("data", "give exactly one of data.dataset or data.path (rule: one source of data)" if given else
              "missing data.dataset or data.path (rule: a shipped data set, e.g. dataset = \"digits\", or an .npz file)")
        return None
    if d.get("dataset") is not None:
        x, y = datasets.load(d["dataset"])
        source = f"dataset {d['dataset']}"
        path = None
    else:
        path = resolve_data_path(d["path"], v.file)
        try:
            x, y = datasets.read_npz(path)
        except datasets.DatasetError as e:
            v.err("data.path", f"{e}")
            return None
        source = str(path)
    n = int(x.shape[0])
    frac = d.get("test_fraction", 0.2)
    n_test = min(n - 1, max(1, int(round(n * frac))))
    classes = int(y.max()) + 1
    if classes < 2:
        v.err("data.path" if path is not None else "data.dataset", f"{source}: every label is {int(y.max())} (rule: at "
                                                                    "least 2 classes)")
        return None
    return {"source": source, "path": str(path) if path is not None else None, "examples": n, "test": n_test,
            "train": n - n_test, "x_shape": [int(s) for s in x.shape[1:]], "classes": classes,
            "sha256": datasets.content_digest(x, y)}, x
