"""oneDNN's fused Swish inside a tf.function (fifty-sixth session, fz56; clause function.onednn-swish): on a CPU where
TF's oneDNN is on, Grappler's remapper makes `x * sigmoid(x)` (tf.nn.silu, either operand order) one _MklSwish whose
Sigmoid has no other consumer, another last bit than the graph as written; float64, a Sigmoid read elsewhere and a
tape whose backward reads the Sigmoid stay unfused. Recorded on TF 2.21 on an AVX-512 Xeon with oneDNN
(`python -m simdist.conformance.suite.test_swish56 --record` there); on the simdist backend the programs run under
its reference model, on TF only on such a CPU."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.kpaths54_cases import packed
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "swish56_reference.json.gz")
REF = RecordedPrograms(PATH, host_dependent=("s-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

_EDGES = [0.0, -0.0, 1e-39, -1e-39, np.inf, -np.inf, 88.7, -88.7, -104.0, 16.6, -16.6, 1e-8]


def _x(name: str, n: int = 300) -> np.ndarray:
    return np.concatenate([rng(name).randn(n) * 4, _EDGES]).astype(np.float32)


def _swish_values(dt: str) -> Any:
    def fn(tf: Any, mk: Any) -> Any:
        x = tf.cast(tf.constant(_x(f"s-swish-{dt}")), dt)
        forms = {"silu": tf.nn.silu, "x*sigmoid(x)": lambda v: v * tf.sigmoid(v),
                 "sigmoid(x)*x": lambda v: tf.sigmoid(v) * v}
        return packed({k: bits(tf.function(f)(x)) for k, f in forms.items()})
    return fn


def _unfused(tf: Any, mk: Any) -> Any:
    x = tf.constant(_x("s-unfused", 60))
    y = tf.constant(_x("s-unfused/y", 60))
    sig = tf.sigmoid
    out = {
        "float64 silu": bits(tf.function(lambda v: tf.nn.silu(tf.cast(v, tf.float64)))(x)),
        "x*sigmoid(y)": bits(tf.function(lambda v, w: v * sig(w))(x, y)),
        "sigmoid returned too": [bits(t) for t in tf.function(lambda v: [v * sig(v), sig(v)])(x)],
        "two products of one sigmoid": [bits(t) for t in tf.function(lambda v: (lambda s: [v * s, s * v])(sig(v)))(x)],
    }

    def taped(form: Any) -> Any:
        def body(v):
            with tf.GradientTape() as t:
                t.watch(v)
                z = form(v)
            return [z, t.gradient(z, v)]
        return body
    out["tape inside: x*sigmoid(x)"] = [bits(t) for t in tf.function(taped(lambda v: v * sig(v)))(x)]
    out["tape inside: silu"] = [bits(t) for t in tf.function(taped(tf.nn.silu))(x)]
    f = tf.function(lambda v: v * sig(v))
    out["outer tape: untaped call"] = bits(f(x))
    with tf.GradientTape() as t:
        t.watch(x)
        z = f(x)
    out["outer tape: taped call"] = [bits(z), bits(t.gradient(z, x))]
    return packed(out)


def _mirrored(tf: Any, mk: Any) -> Any:
    strategy = mk()
    x = tf.constant(_x("s-mirrored", 40).reshape(2, -1))
    dist = strategy.experimental_distribute_values_from_function(lambda ctx: x[ctx.replica_id_in_sync_group])

    @tf.function
    def step(d):
        return strategy.run(lambda v: [tf.nn.silu(v), v * tf.sigmoid(v)], args=(d,))
    return packed([[bits(t) for t in strategy.experimental_local_results(r)] for r in step(dist)])


for _dt in ("float32", "bfloat16", "float16"):
    REF.add(f"s-swish-{_dt}", _swish_values(_dt))
REF.add("s-unfused", _unfused)
REF.add("s-mirrored", _mirrored)


@pytest.mark.clause("function.onednn-swish")
@pytest.mark.parametrize("name", REF.ids("s-"))
def test_swish56_fused_in_a_function(backend: Any, name: str) -> None:
    """tf.nn.silu and x * sigmoid(x) in a tf.function, fused and not, values and gradients: TF 2.21's bits on an
    AVX-512 oneDNN CPU."""
    REF.check(backend, name)


assert len(REF.programs) == len(REF.ids("s-")) == 5

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
