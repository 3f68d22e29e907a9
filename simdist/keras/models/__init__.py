"""`keras.models`: Model, Sequential and functional models; `.keras` files (save_model, load_model)."""

from __future__ import annotations

from simdist.keras.models.functional import Functional  # noqa: F401
from simdist.keras.models.model import Model  # noqa: F401
from simdist.keras.models.sequential import Sequential  # noqa: F401
from simdist.keras.models.keras_file import load_model  # noqa: F401
from simdist.keras.models.keras_file import save_model  # noqa: F401
from simdist.keras.models.cloning import clone_model  # noqa: F401
