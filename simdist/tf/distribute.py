"""`tf.distribute`: strategies, values, contexts."""

from types import SimpleNamespace as _NS

from simdist.runtime.values import DistributedValues  # noqa: F401
from simdist.semantics.reduce import ReduceOp  # noqa: F401
from simdist.strategies.base import (ReplicaContext, Strategy, StrategyExtended, experimental_set_strategy,  # noqa: F401
                                     get_replica_context, get_strategy, has_strategy,
                                     in_cross_replica_context)
from simdist.strategies.central_storage import CentralStorageStrategy as _CentralStorageStrategy
from simdist.strategies.input import InputContext, InputOptions, InputReplicationMode  # noqa: F401
from simdist.strategies.input import ValueContext as _ValueContext
from simdist.strategies.cross_device_ops import (CrossDeviceOps, HierarchicalCopyAllReduce, NcclAllReduce,  # noqa: F401
                                                 ReductionToOneDevice)
from simdist.strategies.mirrored import MirroredStrategy  # noqa: F401
from simdist.strategies.one_device import OneDeviceStrategy  # noqa: F401
from simdist.strategies.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401

from simdist.strategies import cluster_resolver as _cr  # noqa: E402
from simdist.strategies import partitioners as _partitioners  # noqa: E402
from simdist.strategies.coordinator import ClusterCoordinator as _ClusterCoordinator  # noqa: E402
from simdist.strategies.coordinator import RemoteValue as _RemoteValue  # noqa: E402
from simdist.strategies.parameter_server import ParameterServerStrategy as _PSS  # noqa: E402
from simdist.strategies import preemption_handler as _pch  # noqa: E402
from simdist.strategies import collective_options as _co  # noqa: E402
from simdist.strategies.coordinator_context import get_current_worker_index as _worker_index  # noqa: E402
from simdist.strategies.input_types import DistributedDataset, DistributedIterator  # noqa: E402,F401
from simdist.strategies.per_worker import PerWorkerValues as _PerWorkerValues  # noqa: E402
from simdist.strategies.multi_worker_experimental import _CollectiveAllReduceStrategyExperimental as _ExpMWMS  # noqa: E402
from simdist.strategies.preemption_watcher import PreemptionWatcher as _PreemptionWatcher  # noqa: E402
from simdist.strategies.run_options import RunOptions  # noqa: E402,F401

from simdist.strategies.server import Server  # noqa: E402,F401

cluster_resolver = _NS(
    ClusterResolver=_cr.ClusterResolver,
    SimpleClusterResolver=_cr.SimpleClusterResolver,
    TFConfigClusterResolver=_cr.TFConfigClusterResolver,
)
coordinator = _NS(ClusterCoordinator=_ClusterCoordinator, PerWorkerValue=_PerWorkerValues, RemoteValue=_RemoteValue,
                  experimental_get_current_worker_index=_worker_index)
ParameterServerStrategy = _PSS   # TF 2.21 exports it beside experimental.ParameterServerStrategy (the same class)
experimental = _NS(
    CentralStorageStrategy=_CentralStorageStrategy,
    CollectiveHints=_co.CollectiveHints,
    CommunicationImplementation=_co.CommunicationImplementation,
    CommunicationOptions=_co.CommunicationOptions,
    CollectiveCommunication=_co.CommunicationImplementation,   # (TF 2.21's deprecated alias)
    MultiWorkerMirroredStrategy=_ExpMWMS,
    ParameterServerStrategy=_PSS,
    PreemptionCheckpointHandler=_pch.PreemptionCheckpointHandler,
    PreemptionWatcher=_PreemptionWatcher,
    TerminationConfig=_pch.TerminationConfig,
    ValueContext=_ValueContext,
    coordinator=_NS(ClusterCoordinator=_ClusterCoordinator, PerWorkerValues=_PerWorkerValues, RemoteValue=_RemoteValue),
    partitioners=_NS(
        Partitioner=_partitioners.Partitioner,
        FixedShardsPartitioner=_partitioners.FixedShardsPartitioner,
        MinSizePartitioner=_partitioners.MinSizePartitioner,
        MaxSizePartitioner=_partitioners.MaxSizePartitioner,
    ),
)
experimental_distribute_values_from_function = None  # not a tf.distribute module function
del experimental_distribute_values_from_function
