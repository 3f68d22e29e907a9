"""`tf.math.special`: the special functions (TF 2.21's special_math_ops.py) simdist implements."""

from simdist.runtime.ops.special_funcs import (bessel_j0, bessel_j1, bessel_k0, bessel_k0e, bessel_k1,  # noqa: F401
                                               bessel_k1e, bessel_y0, bessel_y1, dawsn, expint, fresnel_cos,
                                               fresnel_sin, spence)
from simdist.runtime.ops.special_more import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "math.special.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)
