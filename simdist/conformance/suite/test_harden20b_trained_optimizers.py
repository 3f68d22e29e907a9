"""harden20b (issue 29): every optimizer over a PAIRWISE grid of its options, trained — as TF 2.21's.

For each optimizer class of tf.keras, the options of its constructor (Keras 3.15's signature:
learning_rate, weight_decay, clipnorm/clipvalue/global_clipnorm as one factor, use_ema,
ema_momentum, ema_overwrite_frequency, loss_scale_factor, gradient_accumulation_steps and the
class's own: amsgrad, nesterov, centered, momentum, betas, epsilons, ...) each at two values
(harden20b_tables) are combined into a pairwise covering set (harden20b_pairwise: every pair of
values of two options in some case). Each case trains a linear model for four steps on fixed rows
(GradientTape, apply_gradients): the loss, the gradients, the kernel and bias and every optimizer
variable (slots, accumulators, EMA copies) after each step must be TF 2.21 + Keras 3.15's
(harden20b_reference.json.gz; harden19's tolerance, 1e-5 relative).
"""

from __future__ import annotations

import pytest

from simdist.conformance.suite import harden20b_check as check
from simdist.conformance.suite import harden20b_programs as programs

clause = pytest.mark.clause
#: Two tests of seven classes each (a failure names fewer cases to read).
HALVES = {"first": check.names_of("optimizers")[:7], "second": check.names_of("optimizers")[7:]}


@clause("optim.update-rules", ref="tf221")
@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("half", list(HALVES))
def test_harden20b_trained_optimizer_option_pairs(tf, half, budget):
    """Each optimizer's pairwise option grid: four trained steps' variables and slots as TF's."""
    check.check("optimizers", HALVES[half], lambda n, c: programs.observe_optimizer(tf, n, c), budget)
