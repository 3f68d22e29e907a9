"""The classes around the seventy-eighth blind batch's mutants (tests/mutants.py TRAINING_BATCH78, the Keras areas)
that the suite did not catch on first contact, each checked as a class rather than as the one mutant; and the Keras
layers' own `load_own_variables` (a disagreement found on the way).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind78_gaps --record`, which rewrites blind78_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind78_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. Keras saving: the layers' own load_own_variables --------------------------------------------------------------
def _load_own_variables(tf: Any, mk: Any) -> Any:
    """`load_own_variables(store)` called directly on Dense (with and without a bias, frozen), EinsumDense, Conv1D,
    Conv2D, Embedding and a base Layer subclass (a trainable and a non-trainable weight), built and not built, from
    stores with as many values as the layer has variables, one more and one fewer: the weights after, or the error's
    class (Keras 3.15's count check, then the kernel and the bias by position)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("loadown")

    class Own(L.Layer):
        def build(self, shape: Any) -> None:
            self.k = self.add_weight(shape=(3, 2), initializer="zeros")
            self.s = self.add_weight(shape=(2,), initializer="zeros", trainable=False)

        def call(self, x: Any) -> Any:
            return x

    def frozen() -> Any:
        d = L.Dense(2)
        d.build((None, 3))
        d.trainable = False
        return d

    makers = {
        "dense": (lambda: L.Dense(2), (None, 3)),
        "dense-no-bias": (lambda: L.Dense(2, use_bias=False), (None, 3)),
        "dense-frozen": (frozen, None),
        "einsum": (lambda: L.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"), (None, 3)),
        "conv1d": (lambda: L.Conv1D(2, 2), (None, 5, 3)),
        "conv2d-no-bias": (lambda: L.Conv2D(2, 2, use_bias=False), (None, 4, 4, 3)),
        "embedding": (lambda: L.Embedding(4, 2), "embedding"),
        "base-layer": (lambda: Own(), (None, 3)),
    }
    out: dict[str, Any] = {}
    for name, (make, shape) in makers.items():
        for built in (True, False):
            for extra in (0, 1, -1):
                lay = make()
                if built and shape == "embedding":
                    lay.build()
                elif built and shape is not None:
                    lay.build(shape)
                elif not built and shape is None:
                    continue
                vals = [r.uniform(-1, 1, tuple(w.shape)).astype("float32") for w in lay.weights] if lay.built else \
                    [r.uniform(-1, 1, (2,)).astype("float32")]
                if not lay.built:
                    vals = vals * 2
                store = {str(i): v for i, v in enumerate(vals)}
                if extra == 1:
                    store[str(len(vals))] = r.uniform(-1, 1, (2,)).astype("float32")
                if extra == -1:
                    store.pop(str(len(vals) - 1))

                def load(lay: Any = lay, store: Any = store) -> Any:
                    lay.load_own_variables(store)
                    return [[w.path.split("/")[-1], _bits(w)] for w in lay.weights]
                out[f"{name} built={built} extra={extra}"] = _error(load)
    return out


_program("keras-load-own-variables", _load_own_variables)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", _ids("keras-load"))
def test_blind78_keras_load_own_variables(backend: Any, name: str) -> None:
    """Dense, EinsumDense, the convolutions, Embedding and a base Layer loading their own variables from stores of
    every count: the weights after, or TF 2.21's error class."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
