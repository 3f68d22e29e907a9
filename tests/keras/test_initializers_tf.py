"""Keras initializers on simdist vs TF 2.21 + Keras 3.15.1.

The random values are not TF's (simdist's stateless streams are not Philox; docs/spec.md,
keras.init.seeding), so the comparison is of everything else, each observed on both backends:
which class a name resolves to and its config; the distribution's moments and bounds on a
300x200 draw (within sampling error: mean within 0.02 and std within 3% of TF's, the same
support); repeatability (an int seed or an unseeded instance repeats its values, two unseeded
instances differ, a SeedGenerator seed advances); the errors of bad arguments.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

NAMES = ["glorot_uniform", "GlorotUniform", "glorot_normal", "he_normal", "he_uniform", "lecun_normal",
         "lecun_uniform", "random_normal", "random_uniform", "truncated_normal", "zeros", "ones", "zero", "one",
         "uniform", "normal", "variance_scaling", "identity"]

DISTS: list[tuple[str, str, dict]] = [
    ("glorot_uniform", "GlorotUniform", {}), ("glorot_normal", "GlorotNormal", {}), ("he_normal", "HeNormal", {}),
    ("he_uniform", "HeUniform", {}), ("lecun_normal", "LecunNormal", {}), ("lecun_uniform", "LecunUniform", {}),
    ("random_normal", "RandomNormal", {"mean": 0.5, "stddev": 2.0}),
    ("random_uniform", "RandomUniform", {"minval": -1.0, "maxval": 3.0}),
    ("truncated_normal", "TruncatedNormal", {"mean": 0.0, "stddev": 2.0}),
    ("zeros", "Zeros", {}), ("ones", "Ones", {}), ("constant", "Constant", {"value": 3.0}),
    ("vs_fan_out_uniform", "VarianceScaling", {"scale": 2.0, "mode": "fan_out", "distribution": "uniform"}),
    ("vs_untruncated", "VarianceScaling", {"scale": 1.0, "mode": "fan_avg", "distribution": "untruncated_normal"}),
]

ERRORS = [("VarianceScaling", {"scale": -1.0}), ("VarianceScaling", {"mode": "fan_sideways"}),
          ("VarianceScaling", {"distribution": "cauchy"}), ("RandomNormal", {"seed": "abc"}),
          ("Identity", {}, (2, 3, 4))]


def program(tf: Any) -> dict[str, Any]:
    """The same on both backends."""
    keras = tf.keras
    keras.backend.clear_session()
    out: dict[str, Any] = {"names": {}, "dists": {}, "errors": []}
    for name in NAMES:
        init = keras.initializers.get(name)
        cfg = dict(init.get_config())
        cfg.pop("seed", None)
        out["names"][name] = (type(init).__name__, cfg)
    for key, cls, kwargs in DISTS:
        init = getattr(keras.initializers, cls)(**kwargs)
        v = np.asarray(init((300, 200), dtype="float32"))
        out["dists"][key] = {"mean": float(v.mean()), "std": float(v.std()), "min": float(v.min()),
                             "max": float(v.max()), "dtype": str(v.dtype), "shape": v.shape}
    seeded = keras.initializers.GlorotUniform(seed=7)
    unseeded = keras.initializers.HeNormal()
    other = keras.initializers.HeNormal()
    gen = keras.initializers.RandomNormal(seed=keras.random.SeedGenerator(5))
    a, b = np.asarray(seeded((5, 4))), np.asarray(seeded((5, 4)))
    c, d, e = np.asarray(unseeded((5, 4))), np.asarray(unseeded((5, 4))), np.asarray(other((5, 4)))
    g1, g2 = np.asarray(gen((5, 4))), np.asarray(gen((5, 4)))
    out["repeat"] = {"int_seed_repeats": bool(np.array_equal(a, b)), "unseeded_repeats": bool(np.array_equal(c, d)),
                     "two_unseeded_differ": not np.array_equal(c, e), "generator_advances": not np.array_equal(g1, g2),
                     "seed_config": seeded.get_config()}
    for err in ERRORS:
        cls, kwargs = err[0], err[1]
        try:
            init = getattr(keras.initializers, cls)(**kwargs)
            if len(err) > 2:
                init(err[2])
            out["errors"].append(None)
        except Exception as ex:  # noqa: BLE001 - the error is the result
            out["errors"].append((type(ex).__name__, _sets_sorted(str(ex))))
    out["unknown"] = []
    for bad in ("nope", "constant"):   # (Keras: "constant" has no value to be made from)
        try:
            keras.initializers.get(bad)
            out["unknown"].append(None)
        except Exception as ex:  # noqa: BLE001
            out["unknown"].append((type(ex).__name__, str(ex)))
    layer = keras.layers.Dense(7)
    layer.build((None, 11))
    k = np.asarray(layer.kernel.numpy())
    out["dense_default"] = {"max_abs_le_limit": bool(np.max(np.abs(k)) <= np.sqrt(6 / (11 + 7))),
                            "bias_zero": bool(np.all(np.asarray(layer.bias.numpy()) == 0))}
    return out


def _sets_sorted(message: str) -> str:
    """Keras prints sets in hash order (it varies between processes): sort each {...} literal."""
    import re
    return re.sub(r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {0: program(tf)}


@pytest.fixture(scope="module")
def results() -> tuple[dict[str, Any], dict[str, Any]]:
    from simdist import tf
    return tf_workers.spawn(__file__, [0])[0], program(tf)


@pytest.mark.clause("keras.init.names")
def test_names_resolve_to_tf_classes_and_configs(results: tuple) -> None:
    want, got = results
    for name in NAMES:
        assert got["names"][name] == want["names"][name], \
            f"initializers.get({name!r}): {got['names'][name]} vs TF 2.21's {want['names'][name]}"
    assert got["unknown"] == want["unknown"], f"unknown name: {got['unknown']} vs TF's {want['unknown']}"


@pytest.mark.clause("keras.init.distributions")
@pytest.mark.parametrize("key", [d[0] for d in DISTS])
def test_distribution_matches_tf_in_law(key: str, results: tuple) -> None:
    want, got = results[0]["dists"][key], results[1]["dists"][key]
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), f"{key}: {got} vs TF's {want}"
    scale = max(want["std"], 1e-6)
    assert abs(got["mean"] - want["mean"]) <= 0.02 * max(scale, 1.0), f"{key}: mean {got['mean']} vs TF's {want}"
    assert abs(got["std"] - want["std"]) <= 0.03 * scale + 1e-7, f"{key}: std {got['std']} vs TF's {want['std']}"
    if want["std"] == 0:
        assert (got["min"], got["max"]) == (want["min"], want["max"]), f"{key}: {got} vs TF's {want}"
    else:   # the same support: bounded draws stay within TF's bounds widened by 2% of the range
        span = want["max"] - want["min"]
        assert got["min"] >= want["min"] - 0.02 * span - (10 * scale if "normal" in key or "vs_unt" in key else 0), \
            f"{key}: min {got['min']} vs TF's {want['min']}"
        assert got["max"] <= want["max"] + 0.02 * span + (10 * scale if "normal" in key or "vs_unt" in key else 0), \
            f"{key}: max {got['max']} vs TF's {want['max']}"


@pytest.mark.clause("keras.init.seeding")
def test_repeatability_matches_tf(results: tuple) -> None:
    want, got = results
    assert got["repeat"] == want["repeat"], f"simdist {got['repeat']} vs TF 2.21 {want['repeat']}"
    assert got["dense_default"] == want["dense_default"] == {"max_abs_le_limit": True, "bias_zero": True}, \
        f"Dense defaults: {got['dense_default']} vs TF's {want['dense_default']}"


@pytest.mark.clause("keras.init.names")
def test_bad_arguments_raise_as_tf(results: tuple) -> None:
    want, got = results
    for err, w, g in zip(ERRORS, want["errors"], got["errors"]):
        assert g == w, f"{err}: simdist {g} vs TF 2.21 {w}"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
