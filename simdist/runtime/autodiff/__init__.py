"""Automatic differentiation: tapes (observers of the op dispatch), the reverse walk, and
user-defined gradients. Gradients of the ops themselves live beside the ops (runtime/ops/)."""

from simdist.runtime.autodiff.custom_gradient import custom_gradient  # noqa: F401
from simdist.runtime.autodiff.tape import GradientTape, UnconnectedGradients  # noqa: F401
