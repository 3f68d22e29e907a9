"""copy_to_device / prefetch_to_device, simdist against TF 2.21 (clause dataset.copy-to-device): the
elements' devices (a device the machine lacks placed as TF's soft placement places it), values and
cardinality. Needs the `tf` extra."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.tf]

real_tf = pytest.importorskip("tensorflow")

from simdist import tf as sim_tf  # noqa: E402


def _observe(tf: Any, how: str, device: str) -> tuple[Any, ...]:
    ds = tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [[1, 2], [3, 4], [5, 6]]))
    if how == "copy":
        ds = ds.apply(tf.data.experimental.copy_to_device(device))
    else:
        ds = ds.apply(tf.data.experimental.prefetch_to_device(device, 1))
    elements = [(a.device, b.device, float(a), b.numpy().tolist()) for a, b in ds]
    return int(ds.cardinality()), repr(ds.element_spec), elements


@pytest.mark.parametrize("how", ["copy", "prefetch"])
@pytest.mark.parametrize("device", ["/cpu:0", "/device:CPU:0", "/gpu:0", "/cpu:63"])   # (cpu:63: absent even where
# another module of the run split TF's CPU into logical ones)
def test_copy_to_device_matches_tf(how: str, device: str) -> None:
    want, got = _observe(real_tf, how, device), _observe(sim_tf, how, device)
    assert got == want, f"(cardinality, spec, elements)={got}, but should be {want} [{how}_to_device({device!r})]"
