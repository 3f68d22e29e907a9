"""`Sequential.from_config(model.get_config())` and `Model.from_config` (functional models: a
chain, and two inputs through a shared layer) as Keras 3.15 (issue 28 item 5): the same probe runs on simdist in-process and on real Keras 3.15 in a subprocess, and
the results (layer classes and names, built state, weight shapes, the errors) must be equal."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from typing import Any

import pytest

pytestmark = [pytest.mark.tf, pytest.mark.clause("keras.model.call"), pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                                 reason="real Keras is not installed (pip install -e .[tf])")]


def _outcome(fn: Any) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the error is the observation
        return {"error": type(e).__name__}


def _describe(m: Any) -> dict[str, Any]:
    return {"class": type(m).__name__, "name": m.name, "built": bool(m.built),
            "layers": [[type(l).__name__, l.name] for l in m.layers],
            "weights": [list(w.shape) for w in m.weights] if m.built else None,
            "paths": [w.path for w in m.weights] if m.built else None}


def probe(keras: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    keras.backend.clear_session()
    built = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dropout(0.1),
                              keras.layers.Dense(2, name="head")], name="net")
    cfg = built.get_config()
    out["config_keys"] = sorted(cfg)
    out["layer_entry_keys"] = sorted(cfg["layers"][0])
    out["roundtrip_built"] = _outcome(lambda: _describe(keras.Sequential.from_config(cfg)))
    deferred = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)], name="lazy")
    out["roundtrip_deferred"] = _outcome(lambda: _describe(keras.Sequential.from_config(deferred.get_config())))
    stacked = keras.Sequential(name="stack")
    stacked.add(keras.layers.Dense(4))
    stacked.build((None, 5))
    out["roundtrip_build"] = _outcome(lambda: _describe(keras.Sequential.from_config(stacked.get_config())))
    out["model_from_sequential_config"] = _outcome(lambda: _describe(keras.Model.from_config(cfg)))
    out["no_name"] = _outcome(lambda: _describe(keras.Sequential.from_config({"layers": []})))
    inp = keras.Input((4,), name="x")
    h = keras.layers.Dense(3, activation="relu", name="hidden")(inp)
    chain = keras.Model(inp, keras.layers.Dense(2, name="out")(h), name="chain")
    out["functional_keys"] = sorted(chain.get_config())
    out["functional_roundtrip"] = _outcome(lambda: _describe(keras.Model.from_config(chain.get_config())))
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    shared = keras.layers.Dense(2, name="shared")
    two = keras.Model([a, b], keras.layers.Add(name="sum")([shared(a), shared(b)]), name="two")
    out["shared_roundtrip"] = _outcome(lambda: _describe(keras.Model.from_config(two.get_config())))
    return out


def _tf_probe() -> dict[str, Any]:
    p = subprocess.run([sys.executable, __file__, "--keras"], capture_output=True, text=True, timeout=300,
                       env={**__import__("os").environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_from_config_matches_keras() -> None:
    import simdist
    from simdist import tf
    simdist.configure(seed=0)
    mine = json.loads(json.dumps(probe(tf.keras)))
    theirs = _tf_probe()
    diff = {k: (mine.get(k), theirs.get(k)) for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k)}
    assert not diff, "simdist vs Keras 3.15 (simdist, keras):\n" + "\n".join(f"  {k}: {a} != {b}"
                                                                          for k, (a, b) in diff.items())


if __name__ == "__main__" and sys.argv[1:] == ["--keras"]:
    import keras as _keras
    print(json.dumps(probe(_keras)))
