"""tf.nn.silu beside another Sigmoid of the same x in a tf.function (clause function.onednn-swish, fz60: fz54b seed
60102 #4, `tf.nn.sigmoid(v3)` and later `tf.nn.silu(v3, beta=1.0)`). silu's Sigmoid reads `beta * x`, which constant
folding simplifies to an Identity of x and the dependency optimizer removes after the remapper's first pass; the second
iteration's common subgraph elimination then merges it with the other Sigmoid(x), whose two consumers keep the
remapper from fusing: TF 2.21 keeps Sigmoid and Mul where a lone silu becomes one _MklSwish (run metadata's optimized
graphs, /work/wt/fz60_logs/q_silu2.py, q_silu3.py, q_silu4.py). The other Sigmoid counts in either order, written
as `sigmoid(x * 1.0)` or `sigmoid(x + 0.0)` too, and with any consumer the first iteration leaves standing (a
scale, a sum, a Cast, Erf, two consumers); not when the first iteration absorbs it: a sole consumer that the
arithmetic optimizer's UnaryOpsComposition chains it into (Exp, Log, Tanh, ... in float32, fewer in float16, none
in bfloat16), or a hand-written `x * sigmoid(x)` the first remapper pass fuses; not a Sigmoid of another tensor, nor
a second silu (one after CSE). Float results compared as bit patterns. Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

def _taped(tf: Any, x: Any, sigmoid_too: bool) -> list:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.silu(x)
        loss = tf.reduce_sum(y * x)
    return [y, tape.gradient(loss, x)] + ([tf.nn.sigmoid(x)] if sigmoid_too else [])


_FORMS: dict[str, Callable[..., Any]] = {
    # (unfused in TF 2.21: a Sigmoid of x stands beside silu's after the first iteration)
    "sig_then_silu": lambda tf, x, z: [tf.nn.sigmoid(x), tf.nn.silu(x)],
    "silu_then_sig": lambda tf, x, z: [tf.nn.silu(x), tf.nn.sigmoid(x)],
    "silu_beta1_then_sig": lambda tf, x, z: [tf.nn.silu(x, beta=1.0), tf.nn.sigmoid(x)],
    "swish_sig": lambda tf, x, z: [tf.nn.swish(x), tf.math.sigmoid(x)],
    "sig_times_one": lambda tf, x, z: [tf.nn.sigmoid(x * 1.0), tf.nn.silu(x)],
    "sig_plus_zero": lambda tf, x, z: [tf.nn.sigmoid(x + 0.0), tf.nn.silu(x)],
    "sig_scaled": lambda tf, x, z: [2.0 * tf.nn.sigmoid(x), tf.nn.silu(x)],
    "sig_summed": lambda tf, x, z: [tf.reduce_sum(tf.nn.sigmoid(x)), tf.nn.silu(x)],
    "sig_cast": lambda tf, x, z: [tf.cast(tf.nn.sigmoid(x), tf.float64), tf.nn.silu(x)],
    "sig_erf": lambda tf, x, z: [tf.math.erf(tf.nn.sigmoid(x)), tf.nn.silu(x)],
    "sig_two_readers": lambda tf, x, z: [tf.abs(tf.nn.sigmoid(x)) + tf.nn.sigmoid(x), tf.nn.silu(x)],
    "silu_times_sig": lambda tf, x, z: [tf.nn.silu(x) * tf.nn.sigmoid(x)],
    "taped": lambda tf, x, z: _taped(tf, x, False),   # (the gradient's sigmoid(beta * x): CSE in the first iteration)
    "taped_sig": lambda tf, x, z: _taped(tf, x, True),
    # (unfused in float16 and bfloat16 only: no UnaryOpsComposition of these there)
    "sig_tan": lambda tf, x, z: [tf.tan(tf.nn.sigmoid(x)), tf.nn.silu(x)],
    # (unfused in bfloat16 only)
    "sig_exp": lambda tf, x, z: [tf.exp(tf.nn.sigmoid(x)), tf.nn.silu(x)],
    "sig_log": lambda tf, x, z: [tf.math.log(tf.nn.sigmoid(x)), tf.nn.silu(x)],
    "sig_neg": lambda tf, x, z: [-tf.nn.sigmoid(x), tf.nn.silu(x)],
    # (fused in TF 2.21)
    "hand_then_silu": lambda tf, x, z: [x * tf.nn.sigmoid(x), tf.nn.silu(x)],
    "silu_then_hand": lambda tf, x, z: [tf.nn.silu(x), tf.nn.sigmoid(x) * x],
    "sig_of_other": lambda tf, x, z: [tf.nn.sigmoid(z), tf.nn.silu(x)],
    "silu_twice": lambda tf, x, z: [tf.nn.silu(x), tf.nn.silu(x)],
    "silu_beta2_sig2x": lambda tf, x, z: [tf.nn.silu(x), tf.nn.sigmoid(2.0 * x)],
    "plain": lambda tf, x, z: [tf.nn.silu(x)],
}


def _case(form: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = tf.cast(tf.constant((r.randint(-3000, 3000, (64,)) / 373.0).astype(np.float32)), dtype)
        z = tf.cast(tf.constant((r.randint(-3000, 3000, (64,)) / 211.0).astype(np.float32)), dtype)
        outs = tf.function(lambda x, z: _FORMS[form](tf, x, z))(x, z)
        return [np.asarray(tf.cast(o, tf.float32).numpy(), np.float32).view(np.uint32).ravel().tolist() for o in outs]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dtype}/{seed}": _case(form, dtype, seed)
            for form in _FORMS for dtype in ("float32", "bfloat16", "float16") for seed in (1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz60_silu_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.onednn-swish")
def test_silu_beside_a_sigmoid_of_its_input_stays_unfused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
