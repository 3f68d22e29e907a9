"""`tf.compat.v1`: the v1 names the seed documents use (their strategies are the v2 ones, which
keep the v1 methods `make_input_fn_iterator`, `experimental_make_numpy_dataset`, `experimental_run`)."""

from types import SimpleNamespace as _NS
from typing import Any as _Any

from simdist.strategies.central_storage import CentralStorageStrategy as _CentralStorageStrategy
from simdist.strategies.mirrored import MirroredStrategy as _MirroredStrategy
from simdist.strategies.one_device import OneDeviceStrategy as _OneDeviceStrategy
from simdist.runtime import context as _context


class _ConfigProto:
    """`tf.compat.v1.ConfigProto`: session settings. Accepted and recorded; a simulated task has
    no session to configure, so nothing reads them."""

    def __init__(self, **fields: _Any) -> None:
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"ConfigProto({', '.join(f'{k}={v!r}' for k, v in sorted(self.__dict__.items()))})"


class _V1Methods:
    def experimental_make_numpy_dataset(self, numpy_input: _Any, session: _Any = None) -> _Any:
        """(TF v1 API, absent from the v2 classes) a Dataset of the rows of `numpy_input`."""
        from simdist.runtime.data import Dataset
        return Dataset.from_tensor_slices(numpy_input)


class _OneDeviceStrategyV1(_V1Methods, _OneDeviceStrategy):
    """`tf.compat.v1.distribute.OneDeviceStrategy`."""


class _MirroredStrategyV1(_V1Methods, _MirroredStrategy):
    """`tf.compat.v1.distribute.MirroredStrategy`."""


class _CentralStorageStrategyV1(_V1Methods, _CentralStorageStrategy):
    """`tf.compat.v1.distribute.experimental.CentralStorageStrategy`."""


def _enable_eager_execution(config: _Any = None, device_policy: _Any = None, execution_mode: _Any = None) -> None:
    """simdist always executes eagerly (as TF 2 does), so this has nothing to do."""


from simdist.runtime.ops.list_diff import setdiff1d as _setdiff1d  # noqa: E402
from simdist.runtime.ops.fused_batch_norm import fused_batch_norm_v1 as _fused_batch_norm_v1  # noqa: E402
from simdist.runtime.ops.ctc_decode import ctc_beam_search_decoder_v1 as _ctc_beam_v1  # noqa: E402
from simdist.runtime.ops.ctc_sparse import ctc_loss_v1 as _ctc_loss_v1  # noqa: E402
from simdist.runtime.ops.fractional_pool import fractional_avg_pool_v1 as _fap_v1, fractional_max_pool_v1 as _fmp_v1  # noqa: E402,E501

from simdist.runtime.dimension import Dimension as _Dimension, dimension_value as _dimension_value  # noqa: E402
from simdist.tf import _compat_v1_ops as _v1  # noqa: E402
from simdist.runtime.ops import embedding_v1 as _embedding_v1  # noqa: E402
from simdist.runtime.ops import batch_gather_v1 as _batch_gather_v1  # noqa: E402
from simdist.tf import _compat_v1_debugging as _v1_debugging  # noqa: E402
from simdist.tf import _compat_v1_image as _v1_image  # noqa: E402

from simdist.tf import _compat_v1_aliases  # noqa: E402

# (its own v1 forms; the names TF binds to TF2 objects resolve to simdist's on first use: _compat_v1_aliases)
from simdist.runtime.variables import VariableAggregationV1 as _VariableAggregationV1  # noqa: E402

v1 = _compat_v1_aliases.namespaces(dict(
    ConfigProto=_ConfigProto,
    VariableAggregation=_VariableAggregationV1,   # (TF's v1 enum, ONLY_FIRST_TOWER included; fz51d)
    Dimension=_Dimension,
    dimension_value=_dimension_value,
    enable_eager_execution=_enable_eager_execution,
    executing_eagerly=_context.executing_eagerly,
    setdiff1d=_setdiff1d,
    debugging=_v1_debugging.namespace(),
    verify_tensor_all_finite=_v1_debugging.verify_tensor_all_finite,
    assert_variables_initialized=_v1_debugging.assert_variables_initialized,
    **_v1_debugging.ASSERTS,
    nn=_NS(ctc_beam_search_decoder=_ctc_beam_v1, ctc_loss=_ctc_loss_v1, fractional_max_pool=_fmp_v1,
                       fractional_avg_pool=_fap_v1, convolution=_v1.convolution, max_pool=_v1.max_pool,
                       avg_pool=_v1.avg_pool, conv2d_transpose=_v1.conv2d_transpose,
                       fused_batch_norm=_fused_batch_norm_v1, embedding_lookup=_embedding_v1.embedding_lookup),
    math=_NS(in_top_k=_v1.in_top_k),
    image=_v1_image.namespace(),
    batch_gather=_batch_gather_v1.batch_gather,
    where=_v1.where, cond=_v1.cond, while_loop=_v1.while_loop, gather=_v1.gather, gather_nd=_v1.gather_nd,
    boolean_mask=_v1.boolean_mask, pad=_v1.pad, map_fn=_v1.map_fn, foldl=_v1.foldl, foldr=_v1.foldr, scan=_v1.scan,
    gradients=_v1.gradients, sparse_concat=_v1.sparse_concat, assign=_v1.assign, assign_add=_v1.assign_add,
    assign_sub=_v1.assign_sub, scatter_update=_v1.scatter_update, scatter_add=_v1.scatter_add,
    scatter_sub=_v1.scatter_sub, scatter_mul=_v1.scatter_mul, scatter_div=_v1.scatter_div, scatter_max=_v1.scatter_max,
    scatter_min=_v1.scatter_min, scatter_nd_update=_v1.scatter_nd_update, scatter_nd_add=_v1.scatter_nd_add,
    scatter_nd_sub=_v1.scatter_nd_sub, random_normal_initializer=_v1.random_normal_initializer,
    random_uniform_initializer=_v1.random_uniform_initializer,
    distribute=_NS(
        OneDeviceStrategy=_OneDeviceStrategyV1,
        MirroredStrategy=_MirroredStrategyV1,
        experimental=_NS(CentralStorageStrategy=_CentralStorageStrategyV1),
    ),
))

# (tf.compat's own helpers, TF 2.21's Python transcribed)
from simdist.tf._compat_utils import (as_bytes, as_str, as_str_any, as_text, bytes_or_text_types,  # noqa: E402,F401
                                      complex_types, dimension_at_index, dimension_value, forward_compatibility_horizon,
                                      forward_compatible, integral_types, path_to_str, real_types)


def __getattr__(name: str) -> _Any:
    """`tf.compat.v2`: the TF 2 API itself, `from simdist import tf` (reached lazily: this module is imported while
    simdist.tf is)."""
    if name == "v2":
        import simdist.tf
        return simdist.tf
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(n for n in globals() if not n.startswith("_")) + ["v2"]
