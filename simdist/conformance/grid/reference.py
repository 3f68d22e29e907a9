"""The training grid's reference data: TF 2.21's observables, stored bit-exact, and the
comparison of a backend's observables with them.

Stored as gzip'd JSON beside this module (``train_grid_reference.json.gz``): the versions of
TF and Keras that recorded it, the generator's hash, and per case its program hash and every
observable as dtype, shape and the base64 of its bytes (or the error TF raised). Nothing here
imports TensorFlow.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from simdist.conformance.grid import programs

PATH = os.path.join(os.path.dirname(__file__), "train_grid_reference.json.gz")
RECORD_COMMAND = "python -m simdist.conformance.grid.record"


def encode(value: Any) -> dict[str, Any]:
    a = np.asarray(value)
    return {"dtype": a.dtype.str, "shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode()}


def decode(d: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(d["data"]), dtype=np.dtype(d["dtype"])).reshape(d["shape"])


def generator_hash(cases: list[programs.Case]) -> str:
    import hashlib  # noqa: PLC0415

    return hashlib.sha256("".join(programs.case_hash(c) for c in cases).encode()).hexdigest()


def save(meta: dict[str, Any], results: dict[str, dict[str, Any]], path: str = PATH) -> None:
    payload = {"meta": meta, "cases": results}
    tmp = path + ".part"
    with gzip.GzipFile(tmp, "wb", mtime=0) as raw:   # mtime 0: the same data gives the same bytes
        raw.write(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
    os.replace(tmp, path)   # atomic: a reader never sees half a file


_CACHE: dict[str, Any] = {}


def load(path: str = PATH) -> dict[str, Any]:
    """The recorded reference (cached per path); raises FileNotFoundError naming the command."""
    if path not in _CACHE:
        if not os.path.exists(path):
            raise FileNotFoundError(f"no training-grid reference at {path}: record it with `{RECORD_COMMAND}`")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            _CACHE[path] = json.load(f)
    return _CACHE[path]


@dataclass(frozen=True)
class Tol:
    """Tolerance of one observable: |got - want| <= atol + rtol * |want| elementwise."""

    rtol: float
    atol: float


#: Per observable kind (the key's first segment); float16 values get FLOAT16 instead.
#: simdist matches TF 2.21 bit for bit on most observables; the slack covers summation order
#: in reductions (TF's Eigen trees vs NumPy's pairwise sums) that moves the last bit or two.
_W = Tol(1e-5, 4e-6)   # weights and optimizer variables: centered RMSprop's v - m^2 cancellation amplifies a
#                        summation-order difference of one gradient to ~1.3e-6 on a weight of 0.02 (program 007)
TOLERANCES: dict[str, Tol] = {
    "batch_loss": Tol(1e-5, 1e-6), "batch_weights": _W, "history": Tol(1e-5, 1e-6),
    "final_weights": _W, "optimizer_var": _W, "predict": Tol(1e-5, 1e-6),
    "evaluate": Tol(1e-5, 1e-6), "loaded_weights": _W, "loaded_predict": Tol(1e-5, 1e-6),
    "restored_weights": _W, "restored_optimizer_var": _W,
    "continued_weights": _W, "restored_continued_weights": _W,
    "step_loss": Tol(1e-5, 1e-6), "step_grad": Tol(1e-5, 1e-6), "step_weights": _W,
}
FLOAT16 = Tol(2e-3, 1e-3)
#: Every float observable of a mixed_float16 program. TF 2.21 runs fit's step as a graph whose
#: grappler remapper fuses MatMul + BiasAdd (+ Relu) into one float16 kernel that rounds once,
#: where eager TF (and simdist, eager or in tf.function) rounds after each op: TF's own eager
#: and traced outputs of one float16 Dense model differ by a float16 ulp (2.4e-4 at 0.1), and fit's
#: losses by ~1e-4 relative, and Adam-family steps (lr-sized whatever the gradient) turn a
#: gradient near 0 into weight differences up to ~lr/2. So: four float16 ulps relative, 5e-3
#: absolute (half a step at lr 0.01); float32 programs keep TOLERANCES.
MIXED = Tol(4e-3, 5e-3)


def tolerance(key: str, dtype: np.dtype, policy: str = "float32") -> Tol:
    if dtype == np.float16:
        return FLOAT16
    if policy != "float32":
        return MIXED
    return TOLERANCES.get(key.split("/")[0], Tol(1e-5, 1e-6))


_UNIQUIFIED = re.compile(r"^((?:history|evaluate)/.*?)_\d+$")


def canonical_key(key: str) -> str:
    """A History/evaluate key without Keras's name-uniquifying suffix (``auc_2`` -> ``auc``): an
    unnamed metric's name counts the metrics of its class made earlier in the process, so it
    depends on which programs ran before (on TF as on simdist), not on the program."""
    m = _UNIQUIFIED.match(key)
    return m.group(1) if m else key


#: Configurations whose values are compared by shape and dtype only, with the reason (integer
#: values too: the loss scale's counters follow the non-finite float16 gradients of each mask).
STRUCTURE_ONLY: dict[tuple[str, str], str] = {}   # (none left: Dropout's masks are TF's Philox draws, nn.dropout-seeding)


def structure_only(case: programs.Case) -> str | None:
    for (factor, level), why in STRUCTURE_ONLY.items():
        if case.config.get(factor) == level:
            return why
    return None


#: Parameters whose gradient is 0 in exact arithmetic, so TF and simdist both compute round-off
#: noise for it (in different orders): the bias of the Dense before BatchNormalization (the batch
#: mean removes it; flat indices 16-19 of the weights vector, and the moving mean 28-31 that
#: averages it) and MultiHeadAttention's key bias (softmax is invariant to it; 36-39). Adam,
#: AdamW, Adagrad and RMSprop normalise that noise into lr-sized steps of arbitrary sign, so under
#: them these elements of weight vectors are not compared, nor the optimizer's float variables
#: (their slots); losses, predictions, metrics and every other weight still are.
NOISE_PARAMS: dict[str, tuple[range, ...]] = {"batchnorm": (range(16, 20), range(28, 32)), "mha": (range(36, 40),)}
ADAPTIVE = ("adam", "adam_amsgrad", "adamw", "adagrad", "rmsprop", "rmsprop_centered_momentum")
_WEIGHT_VECTORS = ("batch_weights", "step_weights", "final_weights", "loaded_weights", "restored_weights",
                   "continued_weights", "restored_continued_weights")


def _noise_mask(case: programs.Case, key: str, shape: tuple[int, ...]) -> np.ndarray | None:
    """Elements not to compare (True), or None when all are compared."""
    ranges = NOISE_PARAMS.get(case.config.get("arch", ""))
    if not ranges or case.config.get("optimizer") not in ADAPTIVE:
        return None
    kind = key.split("/")[0]
    mask = np.zeros(shape, dtype=bool)
    if kind in ("optimizer_var", "restored_optimizer_var"):
        mask[...] = True
    elif kind in _WEIGHT_VECTORS and len(shape) == 1:
        for r in ranges:
            mask[[i for i in r if i < shape[0]]] = True
    return mask


def _inference_noise(case: programs.Case, key: str) -> bool:
    """Inference-mode values of a BatchNormalization program under an adaptive optimizer: they
    read the moving mean, which averages the noise-driven bias (NOISE_PARAMS)."""
    if case.config.get("arch") != "batchnorm" or case.config.get("optimizer") not in ADAPTIVE:
        return False
    return key.startswith(("predict", "loaded_predict", "evaluate/", "history/val_"))


def compare(case: programs.Case, got: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    """Every disagreement between ``got`` (a backend's ``obs``) and the recorded observables,
    one line each naming the observable, the expected and the received value."""
    want = {canonical_key(k): decode(v) for k, v in recorded["obs"].items()}
    got = {canonical_key(k): v for k, v in got.items()}
    values = structure_only(case) is None
    problems: list[str] = []
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing:
        problems.append(f"observables missing: {missing} (TF 2.21 has them)")
    if extra:
        problems.append(f"observables TF 2.21 does not have: {extra}")
    for key in sorted(set(want) & set(got)):
        w = want[key]
        g = np.asarray(got[key])
        if g.shape != w.shape:
            problems.append(f"{key}: shape {g.shape}, but should be {w.shape}")
            continue
        if g.dtype != w.dtype:
            problems.append(f"{key}: dtype {g.dtype}, but should be {w.dtype}")
            continue
        if not values or _inference_noise(case, key):
            continue
        if w.dtype.kind in "fc":
            t = tolerance(key, w.dtype, case.config.get("policy", "float32"))
            gw, ww = g.astype(np.float64), w.astype(np.float64)
            same_nan = np.isnan(gw) & np.isnan(ww)
            ok = same_nan | (np.abs(gw - ww) <= t.atol + t.rtol * np.abs(ww)) | (gw == ww)
            noise = _noise_mask(case, key, w.shape)
            if noise is not None:
                ok |= noise
            if not ok.all():
                bad = np.flatnonzero(~ok.ravel())
                i = int(bad[0])
                problems.append(
                    f"{key}: {bad.size} of {w.size} elements off (rtol={t.rtol}, atol={t.atol}); first at flat index "
                    f"{i}: got {gw.ravel()[i]!r}, but should be {ww.ravel()[i]!r}; got {_short(g)}, expected {_short(w)}")
        elif not np.array_equal(g, w):
            problems.append(f"{key}: got {_short(g)}, but should be {_short(w)}")
    return problems


def _short(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a).ravel(), threshold=8, separator=", ", precision=8).replace("\n", "")
