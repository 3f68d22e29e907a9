"""`tf.train`: cluster specs and checkpoints."""

from simdist.strategies.checkpoint import Checkpoint, CheckpointManager, latest_checkpoint  # noqa: F401
from simdist.strategies.cluster_resolver import ClusterSpec  # noqa: F401

# simdist's own hook (no TF name): Keras's weight files cost the copies a checkpoint costs
from simdist.strategies.checkpoint import charge_storage_io as _simdist_charge_storage_io  # noqa: E402,F401
