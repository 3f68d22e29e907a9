"""harden19a (issue 29): compile, fit, evaluate and predict at their DEFAULTS, as TF 2.21's.

After ``keras.utils.set_random_seed(1919)`` (so the default initializers and fit's default shuffle
are TF's), a Dense 3 -> 2 (relu) -> 1 model is compiled with only ``loss="mse"`` (the default
optimizer, "rmsprop", at its defaults) and run through ``fit(x, y)``, ``evaluate(x, y)`` and
``predict(x)`` on 70 rows with no other argument (verbose=0): batch_size 32 (two full batches and
a partial one), epochs 1, shuffle True for fit; the optimizer's class and config, History and its
params, the batches a callback sees, the trained weights, evaluate's loss and predict's outputs must
be TF 2.21 + Keras 3.15's (harden19_reference.json.gz, harden19_reference's tolerance).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference as reference
from simdist.conformance.suite import harden19_training as training

clause = pytest.mark.clause


@clause("keras.fit.data", ref="tf221")
def test_harden19_defaults_compile_fit_evaluate_predict(tf):
    """compile(loss="mse"), fit(x, y), evaluate(x, y), predict(x) with every other argument at its default."""
    got = training.observe_fit_defaults(tf)
    problems = reference.differences(got, reference.load()["fit"])
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]),
                call=f"Sequential(Dense(2, relu), Dense(1)).compile(loss='mse'); fit/evaluate/predict on "
                     f"{training.FIT_ROWS} rows at their defaults")
