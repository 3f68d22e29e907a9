"""tf.experimental.numpy.experimental_enable_numpy_behavior is refused (the forty-third session, clause
ops.experimental-numpy): TF 2.21's switches the process irreversibly to NumPy-style conversion, slicing and
tensor methods, none of which simdist models, so it must not run as a silent no-op."""

from __future__ import annotations

import pytest

from simdist import tf


@pytest.mark.clause("ops.experimental-numpy")
@pytest.mark.parametrize("kwargs", [{}, {"prefer_float32": True}, {"dtype_conversion_mode": "all"}])
def test_enable_numpy_behavior_is_refused(kwargs: dict) -> None:
    with pytest.raises(NotImplementedError) as e:
        tf.experimental.numpy.experimental_enable_numpy_behavior(**kwargs)
    assert "experimental_enable_numpy_behavior" in str(e.value) and "NumPy" in str(e.value), \
        f"expected the refusal to name the function and what it would change, got {e.value}"
    assert not hasattr(tf.constant([1.0, 2.0]), "ravel"), "a refused call must leave tensors without NumPy methods"
