"""Options of cross-device collectives (TF 2.21's collective_util.py, clause
mwms.communication-options): `CommunicationImplementation`, the options object `Options`, and the
two public names that make one. `tf.distribute.experimental.CommunicationOptions(...)` and the
deprecated `CollectiveHints(...)` (which logs TF's deprecation notice once) each return an `Options`:
neither name is the class of what it returns, so `isinstance(CommunicationOptions(), CommunicationOptions)`
is False, as in TF, where the exported class is a factory (`_OptionsExported`)."""

from __future__ import annotations

import enum
from typing import Any

from simdist.runtime.deprecation import log_deprecated


class CommunicationImplementation(enum.Enum):
    """`tf.distribute.experimental.CommunicationImplementation`."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class Options:
    """Collective options (TF's collective_util.Options). bytes_per_pack < 0 is a ValueError; an
    implementation given as a string is looked up by its upper-cased name; timeout_seconds is kept
    as given."""

    def __init__(self, bytes_per_pack: int = 0, timeout_seconds: float | None = None,
                 implementation: Any = CommunicationImplementation.AUTO) -> None:
        if bytes_per_pack < 0:
            raise ValueError(f"Argument `bytes_per_pack` must be >=0, Received {bytes_per_pack}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError("Argument `implementation` must be instance of "
                             "`tf.distribute.experimental.CommunicationImplementation`.")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def merge(self, options: "Options | None") -> "Options":
        """These options with every field `options` sets to a non-default value replaced (TF's merge)."""
        if options is None:
            return self
        out = Options(self.bytes_per_pack, self.timeout_seconds, self.implementation)
        if options.bytes_per_pack != 0:
            out.bytes_per_pack = options.bytes_per_pack
        if options.timeout_seconds is not None:
            out.timeout_seconds = options.timeout_seconds
        if options.implementation != CommunicationImplementation.AUTO:
            out.implementation = options.implementation
        return out

    def __str__(self) -> str:
        return (f"Options(bytes_per_pack={self.bytes_per_pack},timeout_seconds={self.timeout_seconds}, "
                f"implementation={self.implementation})")


class CommunicationOptions:
    """`tf.distribute.experimental.CommunicationOptions(bytes_per_pack=0, timeout_seconds=None,
    implementation=AUTO)`: an `Options` (TF's _OptionsExported.__new__)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Options:  # type: ignore[misc]
        return Options(*args, **kwargs)


class CollectiveHints:
    """`tf.distribute.experimental.CollectiveHints(bytes_per_pack=0, timeout_seconds=None)`, deprecated:
    an `Options` of its two arguments (TF's collective_util.Hints.__new__)."""

    def __new__(cls, bytes_per_pack: int = 0, timeout_seconds: Any = None) -> Options:  # type: ignore[misc]
        log_deprecated("Hints.__new__", "tensorflow.python.distribute.collective_util",
                       "use distribute.experimental.CommunicationOptions instead")
        return Options(bytes_per_pack=bytes_per_pack, timeout_seconds=timeout_seconds)
