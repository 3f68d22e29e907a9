"""`Dataset.window`: windows of the input's elements as datasets (TF 2.21's data/ops/window_op.py
and WindowDatasetOp; clause dataset.window).

Window i starts at input element i * shift and holds the elements start, start + stride, ...,
`size` of them at most; a window cut short by the input's end is kept unless `drop_remainder`
(then the iteration ends there). Each element is the input's structure with a dataset in place of
each component (TF's DatasetSpec), meant to be read by `flat_map` / `interleave`
(`ds.window(n).flat_map(lambda w: w.batch(n))`) or iterated. Cardinality (CardinalityInternal):
the input's when infinite or unknown; with drop_remainder max(0, (n - ((size - 1) * stride + 1))
// shift + 1), else ceil(n / shift). Non-positive size, shift or stride is InvalidArgumentError
at build; the arguments convert as int64 tensors.

Not supported in simdist: a `map` / `filter` / `scan` function over windows (TF passes it the
datasets; simdist's traced functions take tensors only): NotImplementedError at build.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.resumable import Steps
from simdist.runtime.data.dataset import DatasetV2, _UnaryDataset
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.runtime.spec import TensorSpec, flatten, map_structure, pack_as
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["DatasetSpec", "_WindowDataset", "nested_leaf", "window"]


class DatasetSpec:
    """`tf.data.DatasetSpec`: the type of a dataset-valued element (its element spec)."""

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    def __eq__(self, other: object) -> bool:
        return type(other) is DatasetSpec and other._element_spec == self._element_spec

    def __hash__(self) -> int:
        return hash(repr(self._element_spec))

    def __repr__(self) -> str:
        return f"DatasetSpec({self._element_spec!r}, TensorShape([]))"


class _VariantDataset(DatasetV2):
    """A dataset-valued element: its elements (flat lists of arrays) as a dataset (TF's
    _VariantDataset): one component of a window, or group_by_window's window."""

    _KIND = "VariantDataset"

    def __init__(self, elements: list[list[np.ndarray]], spec: Any) -> None:
        super().__init__((), {}, spec)
        self._elements = elements

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        yield from self._elements

    def _card(self) -> int:
        return len(self._elements)


def nested_leaf(arrays: list[np.ndarray], spec: DatasetSpec) -> "_VariantDataset":
    """A dataset-valued component of an element (a window's, as a transformation after `window` passes it on):
    the component's arrays as the dataset of its elements."""
    return _VariantDataset([[a] for a in arrays], spec.element_spec)


def _int64(value: Any) -> int:
    return int(convert_to_tensor(value, dtype=dtypes.int64).numpy())


def window(dataset: DatasetV2, size: Any, shift: Any = None, stride: Any = 1,
           drop_remainder: Any = False) -> "_WindowDataset":
    """window_op._window: `shift` defaults to `size`."""
    return _WindowDataset(dataset, _int64(size), _int64(size if shift is None else shift), _int64(stride),
                          bool(convert_to_tensor(drop_remainder, dtype=dtypes.bool_).numpy()))


class _WindowDataset(_UnaryDataset):
    _KIND = "WindowDataset"

    def __init__(self, input_dataset: DatasetV2, size: int, shift: int, stride: int, drop_remainder: bool) -> None:
        for what, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise errors.InvalidArgumentError(None, None, f"Window {what} must be greater than zero. "
                                                  "[Op:WindowDataset]")
        self._component_specs = flatten(input_dataset.element_spec)
        spec = map_structure(DatasetSpec, input_dataset.element_spec)
        super().__init__((input_dataset,), {"size": size, "shift": shift, "stride": stride,
                                            "drop_remainder": drop_remainder}, spec)

    def _iter_flat(self) -> Iterator[list[Any]]:
        """The windows; an input's error takes its element's place in the buffer and a window holding
        it raises it (the window is lost, its elements read; the windows after it go on), as
        WindowDataset's kernel keeps a status per buffered element (observed: window(2) of [0, 1,
        error, 3, 4, 5] is [0, 1], error, [4, 5])."""
        p = self._params
        size, shift, stride, drop = p["size"], p["shift"], p["stride"], p["drop_remainder"]
        n_comp = len(self._component_specs)
        st: dict[str, Any] = {"source": None, "base": 0, "ended": False, "start": 0, "done": False}
        buffer: list[Any] = []   # elements base, base + 1, ... read so far (a failed one: its error)

        def step() -> list[Any]:
            if st["done"]:
                raise StopIteration
            if st["source"] is None:
                st["source"] = self._input._iter_flat()
            start = st["start"]
            last = start + (size - 1) * stride
            while not st["ended"] and st["base"] + len(buffer) <= last:
                try:
                    buffer.append(next(st["source"]))
                except StopIteration:
                    st["ended"] = True
                except errors.OpError as e:
                    buffer.append(e)
            base = st["base"]
            n_read = base + len(buffer)
            rows = [buffer[i - base] for i in range(start, min(last + 1, n_read), stride)]
            if start >= n_read or (len(rows) < size and drop):
                st["done"] = True
                raise StopIteration
            st["start"] = start + shift
            drop_n = min(st["start"] - base, len(buffer))
            del buffer[:drop_n]
            st["base"] = base + drop_n
            for r in rows:
                if isinstance(r, Exception):
                    raise r
            return [[r[c] for r in rows] for c in range(n_comp)]
        return Steps(step)

    def _pack(self, flat: list[Any], device: str | None = None) -> Any:
        return pack_as(self._input.element_spec,
                       [_VariantDataset([[a] for a in arrays], s) for arrays, s in zip(flat, self._component_specs)])

    def _probe_flat(self, size: int, fill: int) -> list[Any]:
        """A window of `size` probe elements (the input's `_probe_flat` repeated)."""
        rows = [self._input._probe_flat(size, fill) for _ in range(size)]
        return [[r[c] for r in rows] for c in range(len(self._component_specs))]

    def _card(self) -> int:
        n = self._input._card()
        if n in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY):
            return n
        p = self._params
        if p["drop_remainder"]:
            rest = n - ((p["size"] - 1) * p["stride"] + 1)
            return 0 if rest < 0 else rest // p["shift"] + 1
        return n // p["shift"] + (0 if n % p["shift"] == 0 else 1)



