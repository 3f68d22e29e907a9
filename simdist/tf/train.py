"""`tf.train`: cluster specs, checkpoints, and the Example protocol messages (Example, Features,
Feature, BytesList, FloatList, Int64List, FeatureList, FeatureLists, SequenceExample: protobuf
classes built on first use, simdist/runtime/example_proto.py)."""

from simdist.runtime import example_proto as _example_proto
from simdist.strategies.checkpoint import (Checkpoint, CheckpointManager, CheckpointOptions,  # noqa: F401
                                          latest_checkpoint)
from simdist.strategies.checkpoint_reader import (checkpoints_iterator, get_checkpoint_state,  # noqa: F401
                                                 list_variables, load_checkpoint, load_variable)
from simdist.strategies.cluster_resolver import ClusterSpec  # noqa: F401
from simdist.tf._moving_averages import ExponentialMovingAverage  # noqa: F401
from simdist.tf._coordinator import Coordinator  # noqa: F401  (names44)

# simdist's own hook (no TF name): Keras's weight files cost the copies a checkpoint costs
from simdist.strategies.checkpoint import charge_storage_io as _simdist_charge_storage_io  # noqa: E402,F401


def __getattr__(name: str) -> type:
    """The Example messages, built when first asked for (protobuf's import is not free)."""
    if name in _example_proto.MESSAGES:
        cls = _example_proto.message_class(name)
        globals()[name] = cls
        return cls
    raise AttributeError(f"module 'simdist.tf.train' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_example_proto.MESSAGES))
