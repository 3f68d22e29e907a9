"""Values: tensors, ops (one registry, one dispatch), variables, datasets, contexts."""

from simdist.runtime import ops as _ops  # noqa: F401  (installs Tensor's operators)
