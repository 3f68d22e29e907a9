"""`tf.keras` for simdist: Keras 3.15's API (TensorFlow backend) written against `simdist.tf`,
as Keras's TF backend is written against `tensorflow`. Never imports simdist's internals."""

from __future__ import annotations

from simdist.keras import optimizers  # noqa: F401
from simdist.keras import config  # noqa: F401
from simdist.keras import losses  # noqa: F401
