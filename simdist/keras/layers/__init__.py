"""`keras.layers`: the base Layer and the layers simdist implements."""

from __future__ import annotations

from simdist.keras.layers.core import Dense  # noqa: F401
from simdist.keras.layers.input_spec import InputSpec  # noqa: F401
from simdist.keras.layers.layer import Layer  # noqa: F401
