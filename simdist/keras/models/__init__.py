"""`keras.models`: Model, Sequential and functional models."""

from __future__ import annotations

from simdist.keras.models.functional import Functional  # noqa: F401
from simdist.keras.models.model import Model  # noqa: F401
from simdist.keras.models.sequential import Sequential  # noqa: F401
