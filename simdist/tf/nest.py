"""`tf.nest`: TF 2.21's structure utilities, computed by simdist/runtime/nest.py (this module binds
only TF's names: clause api.namespaces)."""

from simdist.runtime.nest import assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as  # noqa: F401
