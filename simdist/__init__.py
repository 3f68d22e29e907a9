"""simdist: a deterministic simulator and conformance suite for the tf.distribute Strategy API.

`from simdist import tf` gives TensorFlow's names computed by simdist; `simdist.configure`
sets the simulated machine; `simdist.now()` reads its simulated clock.
"""

from __future__ import annotations

__version__ = "0.1.0"

from simdist.session import configure, cost_model, now, reset  # noqa: E402,F401
from simdist.runtime import malloc as _malloc  # noqa: E402
from simdist.runtime import threads as _threads  # noqa: E402

_malloc.tune()   # stable NumPy temporaries: see simdist/runtime/malloc.py
_threads.apply_default()   # one BLAS thread (SIMDIST_BLAS_THREADS raises it): simdist/runtime/threads.py

__all__ = ["configure", "cost_model", "now", "reset", "__version__"]
