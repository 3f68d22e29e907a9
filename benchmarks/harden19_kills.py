"""Show that the harden19 suite family kills mutants: plant each (a catalogue id, or one of
OWN below, which are not in the catalogue) in a private copy of the committed package and run only
``-k harden19`` of the conformance suite against it (simdist backend).

    python benchmarks/harden19_kills.py ID [ID ...]     # catalogue ids, own:NAME, or baseline

Prints one line per mutant: killed (with every failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import find as _find, mutants, run as _run

_K = "simdist/keras/"
#: Eight bugs written for this check (defaults, epsilons, fans, an optimizer default), not in the catalogue.
OWN = {
    "layernorm-default-epsilon-1e-5": mutants.Mutant(
        "layernorm-default-epsilon-1e-5", "formula", _K + "layers/normalization.py",
        "    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,",
        "    def __init__(self, axis: Any = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,",
        "LayerNormalization's default epsilon is PyTorch's 1e-5, not Keras's 1e-3", layer="training"),
    "batchnorm-default-momentum-0.9": mutants.Mutant(
        "batchnorm-default-momentum-0.9", "formula", _K + "layers/normalization.py",
        "    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,",
        "    def __init__(self, axis: int = -1, momentum: float = 0.9, epsilon: float = 1e-3,",
        "BatchNormalization's default momentum is 0.9, not 0.99", layer="training"),
    "groupnorm-default-epsilon-1e-5": mutants.Mutant(
        "groupnorm-default-epsilon-1e-5", "formula", _K + "layers/group_normalization.py",
        "    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-3,",
        "    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-5,",
        "GroupNormalization's default epsilon is 1e-5, not 1e-3", layer="training"),
    "leaky-relu-default-slope-0.2": mutants.Mutant(
        "leaky-relu-default-slope-0.2", "formula", _K + "layers/activation_layers.py",
        "    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:",
        "    def __init__(self, negative_slope: float = 0.2, **kwargs: Any) -> None:",
        "the LeakyReLU layer's default slope is the function's 0.2, not the layer's 0.3", layer="training"),
    "adam-default-epsilon-1e-8": mutants.Mutant(
        "adam-default-epsilon-1e-8", "formula", _K + "optimizers/adam.py",
        "                 epsilon: float = 1e-7, amsgrad: bool = False,",
        "                 epsilon: float = 1e-8, amsgrad: bool = False,",
        "Adam's default epsilon is the paper's 1e-8, not Keras's 1e-7", layer="training"),
    "fans-without-receptive-field": mutants.Mutant(
        "fans-without-receptive-field", "formula", _K + "initializers.py",
        "    return int(shape[-2] * receptive), int(shape[-1] * receptive)",
        "    return int(shape[-2]), int(shape[-1])",
        "a convolution kernel's fans leave out the receptive field (fan_in = in_channels)", layer="training"),
    "cce-clip-epsilon-1e-6": mutants.Mutant(
        "cce-clip-epsilon-1e-6", "formula", _K + "ops/tf_nn.py",
        "    # Compute cross entropy from probabilities.\n    output = tf.clip_by_value(\n        output, backend.epsilon(), 1.0 - backend.epsilon()\n    )\n    return -tf.reduce_sum(",
        "    # Compute cross entropy from probabilities.\n    output = tf.clip_by_value(\n        output, 1e-6, 1.0 - 1e-6\n    )\n    return -tf.reduce_sum(",
        "categorical_crossentropy clips probabilities to [1e-6, 1 - 1e-6], not the backend epsilon 1e-7",
        layer="training"),
    "mape-epsilon-added": mutants.Mutant(
        "mape-epsilon-added", "formula", _K + "losses/regression_losses.py",
        "    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), epsilon))",
        "    diff = tf.abs((y_true - y_pred) / (tf.abs(y_true) + epsilon))",
        "MAPE divides by |y_true| + epsilon instead of max(|y_true|, epsilon)", layer="training"),
}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family."""
    return _run(m, "harden19", every_failure=True)


if __name__ == "__main__":
    for mid in sys.argv[1:]:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
