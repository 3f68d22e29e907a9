"""Does the suite kill bugs planted in keras.ops' and tf.keras.backend's code (simdist/keras/ops/,
simdist/keras/legacy_backend.py), the largest blind spot of the suite's coverage at main 670eaa67?
Plant each (one of KOPS23_OWN below, not in the catalogue; or a catalogue id) in a private copy of
the committed package and run a slice of the conformance suite against it (simdist backend), every
failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/kops23_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (all OWN), baseline

`--targeted` (the default) runs the suite modules that call the mutant's API and the suite's
keras.ops / tf.keras.backend modules (TARGETS below; the suite before kops23); `--new` only the
kops23 modules (test_kops23_*.py, the recorded keras.ops table).

KOPS23_OWN was written (2026-12-02, session 23) before the kops23 modules' first run, each bug in
lines the whole suite never ran at main 670eaa67 (/work/wt/cov23_report.txt), each checked
observable on a program TF 2.21 + Keras 3.15 runs (the kops23 table's calls) — but one:
squareplus-default-b-2 was first planted in tf_nn.py, whose default no caller reads (an equivalent
mutant; it survived the kops23 modules) and was moved to op_nn.py's public signature.
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_O = "simdist/keras/ops/"
_LB = "simdist/keras/legacy_backend.py"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Ten bugs of the kinds the brief names (< vs <=, off-by-one, swapped argument, wrong default,
#: dropped keepdims, wrong dtype promotion), in code the suite never ran.
KOPS23_OWN = {m.id: m for m in [
    _m("heaviside-zero-below-or-equal", "boundary", _O + "tf_numpy.py",
       "    return tf.where(\n        x1 < 0,\n        tf.zeros_like(x1),\n        tf.where(x1 > 0, tf.ones_like(x1), x2),",
       "    return tf.where(\n        x1 <= 0,\n        tf.zeros_like(x1),\n        tf.where(x1 > 0, tf.ones_like(x1), x2),",
       "keras.ops.heaviside gives 0 at x1 == 0 instead of x2 (< vs <=)"),
    _m("nanvar-divides-by-count-minus-one", "formula", _O + "tf_numpy.py",
       "    var = tf.reduce_sum(centered, axis=axis, keepdims=keepdims) / count",
       "    var = tf.reduce_sum(centered, axis=axis, keepdims=keepdims) / (count - 1)",
       "keras.ops.nanvar (and nanstd) divide by the count of non-NaN values minus one (ddof off by one)"),
    _m("ptp-drops-keepdims-of-min", "axis", _O + "tf_numpy.py",
       "    return tf.reduce_max(x, axis=axis, keepdims=keepdims) - tf.reduce_min(\n        x, axis=axis, keepdims=keepdims\n    )",
       "    return tf.reduce_max(x, axis=axis, keepdims=keepdims) - tf.reduce_min(\n        x, axis=axis\n    )",
       "keras.ops.ptp(keepdims=True) subtracts a minimum without the kept axis (broadcast to the wrong shape)"),
    _m("vander-powers-off-by-one", "boundary", _O + "tf_numpy.py",
       "        powers = tf.range(N - 1, -1, -1)",
       "        powers = tf.range(N, 0, -1)",
       "keras.ops.vander's decreasing powers run N..1 instead of N-1..0"),
    _m("diagflat-negates-k", "sign", _O + "tf_numpy.py",
       "    return diag(tf.reshape(x, [-1]), k)",
       "    return diag(tf.reshape(x, [-1]), -k)",
       "keras.ops.diagflat puts the values on diagonal -k (below for k > 0)"),
    _m("soft-shrink-negative-side-subtracts", "formula", _O + "tf_nn.py",
       "        tf.where(x < -threshold, x + threshold, tf.zeros_like(x)),",
       "        tf.where(x < -threshold, x - threshold, tf.zeros_like(x)),",
       "keras.ops.soft_shrink moves values below -threshold away from 0 instead of towards it"),
    _m("squareplus-default-b-2", "default", _O + "op_nn.py",
       "def squareplus(x, b=4):",
       "def squareplus(x, b=2):",
       "keras.ops.squareplus's b defaults to 2, not 4 (first planted in tf_nn.py's squareplus, whose default "
       "no caller uses: op_nn passes b, an equivalent mutant; moved to op_nn's signature)"),
    _m("hypot-int16-not-promoted", "dtype", _O + "tf_numpy.py",
       '    dtype = dtypes.result_type(x1.dtype, x2.dtype)\n    if dtype in ["int8", "int16", "int32", "uint8", "uint16", "uint32"]:\n'
       '        dtype = config.floatx()\n    elif dtype in ["int64"]:\n        dtype = "float64"\n\n    x1 = tf.cast(x1, dtype)\n'
       '    x2 = tf.cast(x2, dtype)\n\n    x1_abs',
       '    dtype = dtypes.result_type(x1.dtype, x2.dtype)\n    if dtype in ["int8", "int32", "uint8", "uint16", "uint32"]:\n'
       '        dtype = config.floatx()\n    elif dtype in ["int64"]:\n        dtype = "float64"\n\n    x1 = tf.cast(x1, dtype)\n'
       '    x2 = tf.cast(x2, dtype)\n\n    x1_abs',
       "keras.ops.hypot of operands promoting to int16 (uint8 with int8) stays integer instead of floatx"),
    _m("temporal-padding-sides-swapped", "swap", _LB,
       "    pattern = [[0, 0], [padding[0], padding[1]], [0, 0]]",
       "    pattern = [[0, 0], [padding[1], padding[0]], [0, 0]]",
       "tf.keras.backend.temporal_padding pads padding[1] steps before and padding[0] after"),
    _m("legacy-categorical-crossentropy-default-axis-0", "default", _LB,
       "def categorical_crossentropy(target, output, from_logits=False, axis=-1):",
       "def categorical_crossentropy(target, output, from_logits=False, axis=0):",
       "tf.keras.backend.categorical_crossentropy reduces over axis 0 by default, not -1"),
]}

_BASE = "test_keras_ops or test_compat_v1_and_legacy_backend"

#: The targeted modules per mutant (the first-contact method of the blind batches): the suite's
#: keras.ops and tf.keras.backend modules, and those that call the mutant's API (grep of the suite).
TARGETS = {mid: _BASE for mid in KOPS23_OWN}
TARGETS["ptp-drops-keepdims-of-min"] = _BASE + " or test_keras_image_preprocessing"
TARGETS["soft-shrink-negative-side-subtracts"] = _BASE + " or test_harden19_defaults_layers or test_harden20_edges or test_keras_layers_more2"
TARGETS["squareplus-default-b-2"] = _BASE + " or test_harden19_defaults_layers or test_harden20_edges or test_keras_layers_more2"
TARGETS["legacy-categorical-crossentropy-default-axis-0"] = _BASE + " or test_keras_losses_metrics or test_keras_losses_more"


def find(mid: str) -> mutants.Mutant:
    return _find(mid, KOPS23_OWN)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the kops23 modules, --targeted (the default) the modules that call `m`'s API (the baseline: all
    targeted modules together)."""
    if how == "--new":
        k = "kops23"
    else:
        k = TARGETS[m.id] if m is not None else " or ".join(sorted(set(" or ".join(TARGETS.values()).split(" or "))))
    return _run(m, k, every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in KOPS23_OWN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)
