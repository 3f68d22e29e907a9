"""`tf.distribute.RunOptions`: options of `Strategy.run` (TF's distribute_lib.RunOptions, clause
strategy.run-options). Its three fields apply to TPUStrategy only; every strategy simdist models
accepts and ignores them, as TF's do (and ignores any other `options` value too)."""

from __future__ import annotations

import collections
from typing import Any


class RunOptions(collections.namedtuple("RunOptions", ["experimental_enable_dynamic_batch_size",
                                                       "experimental_bucketizing_dynamic_shape",
                                                       "experimental_xla_options"])):
    """A namedtuple with TF's defaults: dynamic batch size on, bucketizing off, no XLA options."""

    def __new__(cls, experimental_enable_dynamic_batch_size: Any = True,
                experimental_bucketizing_dynamic_shape: Any = False,
                experimental_xla_options: Any = None) -> "RunOptions":
        return super().__new__(cls, experimental_enable_dynamic_batch_size, experimental_bucketizing_dynamic_shape,
                               experimental_xla_options)
