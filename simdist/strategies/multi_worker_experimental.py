"""`tf.distribute.experimental.MultiWorkerMirroredStrategy(communication=AUTO, cluster_resolver=None)`,
TF 2.21's deprecated form (collective_all_reduce_strategy._CollectiveAllReduceStrategyExperimental,
clause mwms.communication-options): it takes the implementation itself, not a CommunicationOptions
(`communication_options=` is TypeError), logs TF's deprecation notice once, and is
MultiWorkerMirroredStrategy otherwise; every MultiWorkerMirroredStrategy is an instance of it
(TF's metaclass), and both classes print one name."""

from __future__ import annotations

from typing import Any

from simdist.runtime.deprecation import log_deprecated
from simdist.strategies.collective_options import CommunicationImplementation, Options
from simdist.strategies.multi_worker import MultiWorkerMirroredStrategy


class _InstanceOfEveryMultiWorker(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, MultiWorkerMirroredStrategy)


class _CollectiveAllReduceStrategyExperimental(MultiWorkerMirroredStrategy, metaclass=_InstanceOfEveryMultiWorker):
    """The deprecated experimental MultiWorkerMirroredStrategy: `communication` is its implementation."""

    def __init__(self, communication: Any = CommunicationImplementation.AUTO, cluster_resolver: Any = None) -> None:
        log_deprecated("_CollectiveAllReduceStrategyExperimental.__init__",
                       "tensorflow.python.distribute.collective_all_reduce_strategy",
                       "use distribute.MultiWorkerMirroredStrategy instead")
        super().__init__(cluster_resolver, Options(implementation=communication))


_CollectiveAllReduceStrategyExperimental.__name__ = MultiWorkerMirroredStrategy.__name__
_CollectiveAllReduceStrategyExperimental.__qualname__ = MultiWorkerMirroredStrategy.__qualname__
