"""The scenario file schema: every table, key, type, unit, default and rule, declared once.

The validator (`simdist.scenario.validate`) checks a parsed TOML document against `SCHEMA` and
fills in defaults; docs/scenarios.md is the prose reference and `reference_rows()` lists every
key path (a test checks the two agree).

Kinds of values:
  int, float, bool, str          TOML scalars (an int is accepted where a float is expected)
  time, bandwidth, bytes         a number in SI base units, or a unit string ("50us", "25Gbps", "16GiB")
  flops                          a FLOP count: a number or a string such as "2GFLOP" / "1.5TFLOPs"
  list                           a TOML array of ``item`` values
  map                            a table of name -> ``item`` values (names are free)
  table                          a sub-table with its own fields
  tables                         an array of tables (``[[a.b]]``), each with the same fields
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

__all__ = ["Field", "REQUIRED", "KIND_RANGE", "SCHEMA", "STRATEGIES", "PRESETS", "DTYPES", "GPU_MODELS", "ZOO",
           "SHIPPED_DATASETS", "OPTIMIZERS", "FLOP_MODEL_KEYS", "is_training_model",
           "MAX_GPUS_PER_HOST", "reference_rows", "walk", "lookup"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

STRATEGIES = ("one_device", "mirrored", "central_storage", "parameter_server", "multi_worker_mirrored")
PRECISIONS = ("float32", "mixed_float16", "mixed_bfloat16")   # simdist.scenario.train.zoo.PRECISIONS
PRESETS = ("gpu_host", "cpu_cluster", "gpu_cluster")
DTYPES = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int32": 4, "int64": 8}
GPU_MODELS = ("A100", "A100-40GB", "A100-80GB", "H100", "H200", "V100")  # simdist.sim.hardware.GPUS (kept here so validation imports nothing)
MAX_GPUS_PER_HOST = 16   # simdist.sim.topology.MAX_GPUS_PER_HOST (likewise; a test checks they agree)
PARTITIONERS = ("none", "fixed", "min_size", "max_size")
ZOO = ("mlp", "cnn", "wide_deep", "transformer")   # simdist.scenario.train.zoo.ZOO (a test checks they agree)
SHIPPED_DATASETS = ("digits",)             # simdist.datasets.DATASETS (likewise)
OPTIMIZERS = ("sgd", "adam")
#: keys of [model] that describe a FLOP-only model (a training model's sizes and FLOPs come from its layers)
FLOP_MODEL_KEYS = ("flops_per_example", "global_batch", "example_bytes", "input_flops_per_example",
                   "update_flops_per_param", "optimizer_slots", "variables")
_TRAINING_MODEL = ("zoo", "function")
RECOVERY = ("fail", "restore_checkpoint")
RESTART_WORKERS = ("all", "lost")


#: Every quantity of a kind lies in this range unless its Field says otherwise: wide enough for any
#: real cluster, narrow enough that the simulator's arithmetic stays finite (a 1e-300 B/s link
#: would make a checkpoint take forever; 1e300 seconds cannot be added to the clock).
KIND_RANGE: dict[str, tuple[float, float, str]] = {
    "time": (0.0, 1e9, "durations are at most 1e9 s (about 31 years)"),
    "bandwidth": (1.0, 1e15, "bandwidths are 1 B/s .. 1e15 B/s (1 PB/s)"),
    "bytes": (0, 2**60, "sizes are at most 2^60 bytes (1 EiB)"),
    "flops": (0.0, 1e21, "FLOP counts and rates are at most 1e21 (1 ZFLOP)"),
    "int": (-(2**63), 2**63 - 1, "integers are 64-bit"),
    "float": (-1e15, 1e15, "numbers are at most 1e15 in size"),
}


@dataclass(frozen=True)
class Field:
    kind: str
    doc: str
    default: Any = None            # REQUIRED, None (absent unless given), or a value (SI units)
    choices: tuple | None = None
    minimum: float | None = None   # inclusive
    above: float | None = None     # exclusive
    maximum: float | None = None   # inclusive (unset: the kind's range in KIND_RANGE)
    item: "Field | None" = None    # list / map items
    fields: dict[str, "Field"] = field(default_factory=dict)  # table / tables
    min_items: int = 0
    example: str = ""
    required_unless: tuple[str, ...] = ()   # REQUIRED, except when one of these keys of the same table is given


def _link(doc: str) -> Field:
    return Field("table", doc, fields={
        "bandwidth": Field("bandwidth", "bandwidth per direction", REQUIRED, above=0, example='"600GB/s"'),
        "latency": Field("time", "latency of one crossing", 0.0, example='"2us"'),
    })


_INT0 = dict(minimum=0)

SCHEMA: dict[str, Field] = {
    "scenario": Field("table", "what this scenario is", REQUIRED, fields={
        "name": Field("str", "short identifier (used in outputs and tables)", REQUIRED, example='"cs-gpus"'),
        "description": Field("str", "one paragraph: the question this scenario answers", ""),
        "seed": Field("int", "root seed of every random stream (`--seed` overrides)", 0, minimum=0),
    }),
    "cluster": Field("table", "the simulated machines", REQUIRED, fields={
        "preset": Field("str", "ready topology; omit to list `[[cluster.hosts]]` yourself", None, choices=PRESETS),
        "gpus": Field("int", "gpu_host: GPUs on the host (at most 16, or max_gpus_per_host)", None, minimum=0,
                      example="4", maximum=64),
        "hosts": Field("int", "gpu_cluster: GPU hosts (job worker; localhost for one)", None, minimum=1,
                       maximum=65536, example="512"),
        "gpus_per_host": Field("int", "gpu_cluster: GPUs per host, on NVLink (default 8)", None, minimum=1, maximum=64),
        "pod_size": Field("int", "gpu_cluster: hosts per pod, each pod's switch on one uplink to a spine "
                                 "(omit: one switch)", None, minimum=1, maximum=65536, example="32"),
        "oversubscription": Field("float", "gpu_cluster: a pod uplink carries pod_size x NIC bandwidth / this "
                                           "(default 1)", None, minimum=1, maximum=1e6),
        "max_gpus_per_host": Field("int", "raise the 16-GPU limit of one host (a hypothetical machine)", None,
                                   minimum=1, maximum=64),
        "gpu": Field("str", "GPU model of every GPU", "A100", choices=GPU_MODELS),
        "cpus": Field("int", "gpu_host / gpu_cluster: CPU devices per host", None, minimum=1, maximum=256),
        "jobs": Field("map", "cpu_cluster: tasks per job, e.g. {chief = 1, worker = 4, ps = 2}", None,
                      item=Field("int", "task count", minimum=0, maximum=4096), example="{chief = 1, worker = 4, ps = 2}"),
        "cpus_per_host": Field("int", "cpu_cluster: CPU devices per host", None, minimum=1, maximum=256),
        "network": Field("bandwidth", "host-to-host bandwidth per NIC per direction (default 25Gbps; "
                                      "gpu_cluster: 100Gbps)", None, above=0, example='"25Gbps"'),
        "latency": Field("time", "host-to-host latency (default 50us: kernel TCP; gpu_cluster: 2us RDMA)", None,
                         example='"50us"'),
        "gpu_flops": Field("flops", "override: sustained FLOP/s of every GPU", None, minimum=1,
                           example='"150TFLOPS"'),
        "cpu_flops": Field("flops", "override: sustained FLOP/s of every CPU device", None, minimum=1),
        "gpu_memory": Field("bytes", "override: memory of every GPU", None, above=0, example='"40GiB"'),
        "cost_model": Field("str", "how compute is timed: roofline (per-precision peaks and memory bandwidth of "
                                   "the GPU model, validated in docs/validation.md) or flops (every kernel at the "
                                   "GPU's FLOP/s); default roofline on GPUs with their model's rates, flops on a "
                                   "CPU-only cluster or with gpu_flops",
                            None, choices=("flops", "roofline")),
        "pcie": _link("override: the per-GPU PCIe link"),
        "nvlink": _link("override: the per-GPU NVLink port"),
        "host": Field("tables", "custom hosts instead of a preset (`[[cluster.host]]`, one entry per job)", None, fields={
            "job": Field("str", "job name (letters, digits, _)", REQUIRED, example='"worker"'),
            "tasks": Field("int", "how many hosts of this job", 1, minimum=1, maximum=4096),
            "cpus": Field("int", "CPU devices per host", 1, minimum=1, maximum=256),
            "gpus": Field("int", "GPUs per host", 0, minimum=0, maximum=64),
        }),
    }),
    "strategy": Field("table", "the tf.distribute strategy", REQUIRED, fields={
        "kind": Field("str", "which strategy", REQUIRED, choices=STRATEGIES),
        "devices": Field("list", "one_device/mirrored: devices of the local host (default: every GPU, else CPU:0)",
                         None, item=Field("str", "device, e.g. \"GPU:0\""), min_items=1,
                         example='["GPU:0", "GPU:1"]'),
        "all_reduce": Field("str", "mirrored / multi_worker_mirrored: cross-device ops (ring = NcclAllReduce, "
                                   "reduce_to_one = "
                                   "ReductionToOneDevice; tree, hierarchical: NCCL's tree and 2D algorithms; "
                                   "nccl: timed by NCCL's own tuning model, see docs/validation.md); default "
                                   "nccl when every replica is a GPU and no link is degraded, else ring", None,
                            choices=("ring", "reduce_to_one", "tree", "hierarchical", "nccl")),
        "collectives": Field("str", "mirrored / multi_worker_mirrored: collective fidelity (auto: chunked up to "
                                    "20,000 transfers, then "
                                    "analytic)", None, choices=("auto", "chunked", "analytic")),
        "timeout_seconds": Field("time", "multi_worker_mirrored: CommunicationOptions(timeout_seconds): a gradient "
                                         "all-reduce whose last replica arrives more than this after the first fails "
                                         "the step on every worker (DeadlineExceededError) and the job restarts; also "
                                         "stops the job this long after a lost worker's peers reach the collective, "
                                         "when restart.detection is not shorter (0 or omitted: no timeout)", None,
                                 example='"30s"'),
        "restart": Field("table", "multi_worker_mirrored: what the cluster manager does when a worker is lost "
                                  "(docs/faults.md, synchronous jobs)", None, fields={
            "delay": Field("time", "platform restart delay: from the job stopping (or the lost worker's replacement "
                                   "being ready) to the restarted workers running again", 0.0, example='"90s"'),
            "workers": Field("str", "all: every worker is restarted once the replacement is ready (the job "
                                    "resumes delay after it); lost: only the lost worker is, on its replacement (the "
                                    "job resumes when it is ready + delay)", "all", choices=RESTART_WORKERS),
            "max_restarts": Field("int", "more restarts than this fail the run", 100, minimum=0, maximum=10**6),
            "detection": Field("time", "from a worker's loss reaching the collective to the job stopping (the "
                                       "collective's timeout or the coordination service's heartbeat)", 0.0,
                               example='"10s"'),
        }),
        "parameter_device": Field("str", "central_storage: where variables live (default: CPU:0 with several "
                                         "GPUs, else the one GPU)", None, example='"CPU:0"'),
        "partitioner": Field("table", "parameter_server: the variable_partitioner", None, fields={
            "kind": Field("str", "FixedShardsPartitioner, MinSizePartitioner, MaxSizePartitioner or none",
                          REQUIRED, choices=PARTITIONERS),
            "num_shards": Field("int", "fixed: shards per variable", None, minimum=1, maximum=4096),
            "min_shard_bytes": Field("bytes", "min_size: smallest shard", None, above=0, example='"256KiB"'),
            "max_shard_bytes": Field("bytes", "max_size: largest shard", None, above=0, example='"64MiB"'),
            "max_shards": Field("int", "min_size / max_size: at most this many shards", None, minimum=1, maximum=4096),
        }),
    }),
    "model": Field("table", "what is trained: a FLOP-only model (its sizes and FLOPs, for scale runs) or a real "
                            "Keras model (`zoo` or `function`) trained on `[data]`", REQUIRED, fields={
        "zoo": Field("str", "a built-in Keras model trained for real on [data]: mlp, cnn (small CNN), wide_deep "
                            "(wide-and-deep; its embedding is partitioned under parameter_server) or transformer "
                            "(a small attention encoder over the rows of x)", None, choices=ZOO,
                     example='"mlp"'),
        "function": Field("str", "\"module:function\" returning a Keras model (called as function(input_shape, "
                                 "num_classes)), trained for real on [data]", None, example='"mymodels:build"'),
        "hidden": Field("list", "zoo mlp / wide_deep: widths of the hidden dense layers (default [64])", None,
                        item=Field("int", "units", minimum=1, maximum=65536), min_items=1, example="[64, 32]"),
        "filters": Field("list", "zoo cnn: filters of each conv + pooling block (default [16, 32])", None,
                         item=Field("int", "filters", minimum=1, maximum=4096), min_items=1, example="[16, 32]"),
        "embedding_dim": Field("int", "zoo wide_deep: width of the categorical feature's embedding (default 8); "
                                      "zoo transformer: width of the token embeddings (default 32)",
                               None, minimum=1, maximum=4096),
        "heads": Field("int", "zoo transformer: attention heads (key_dim = embedding_dim / heads; default 2)", None,
                       minimum=1, maximum=256),
        "blocks": Field("int", "zoo transformer: encoder blocks (default 1)", None, minimum=1, maximum=64),
        "ff_dim": Field("int", "zoo transformer: width of each block's feed-forward layer (default 2 x "
                               "embedding_dim)", None, minimum=1, maximum=65536),
        "tokens": Field("int", "zoo transformer: tokens per example; x's features are split into this many equal "
                               "tokens (default 8: the digits' rows)", None, minimum=1, maximum=65536),
        "mixed_precision": Field("str", "training models: the Keras global dtype policy the model is built under "
                                        "(mixed_float16: float16 compute with dynamic loss scaling; mixed_bfloat16; "
                                        "float32, the default); under the roofline cost model (the GPU default) "
                                        "16-bit matmuls run at the GPU's tensor-core rate", None, choices=PRECISIONS,
                                 example='"mixed_float16"'),
        "flops_per_example": Field("flops", "FLOP-only model: training FLOPs (forward + backward) per example",
                                   REQUIRED, minimum=0, example='"24GFLOP"', required_unless=_TRAINING_MODEL),
        "global_batch": Field("int", "FLOP-only model: examples per step, split evenly over replicas (or workers); "
                                     "a training model's is data.batch_size", REQUIRED,
                              minimum=1, maximum=2**40, required_unless=_TRAINING_MODEL),
        "example_bytes": Field("bytes", "input bytes per example, copied host -> device", 0, minimum=0,
                               example='"600KiB"'),
        "input_flops_per_example": Field("flops", "host CPU work per example in the input pipeline", 0.0, minimum=0),
        "update_flops_per_param": Field("float", "optimizer FLOPs per parameter per step (SGD 2, Adam ~10)", 2.0,
                                        minimum=0, maximum=1e6),
        "optimizer_slots": Field("int", "optimizer state copies per variable (momentum 1, Adam 2): memory only",
                                 0, minimum=0, maximum=16),
        "variables": Field("tables", "FLOP-only model: its variables (`[[model.variables]]`)", REQUIRED, min_items=1,
                           required_unless=_TRAINING_MODEL, fields={
            "name": Field("str", "variable name (unique)", REQUIRED, example='"dense_1/kernel"'),
            "shape": Field("list", "dimensions", REQUIRED, item=Field("int", "dimension", minimum=1, maximum=2**40), min_items=1,
                           example="[4096, 4096]"),
            "dtype": Field("str", "element type", "float32", choices=tuple(DTYPES)),
            "count": Field("int", "repeat this variable `count` times (name_0 ... name_{count-1})", 1, minimum=1, maximum=10000),
            "trainable": Field("bool", "gets gradients and updates", True),
            "rows_read_per_example": Field("int", "parameter_server: an embedding table; each example looks up "
                                                  "this many rows, so a step reads/writes only those rows, not the "
                                                  "whole table (0: dense)", 0, minimum=0, maximum=2**40),
        }),
    }),
    "data": Field("table", "training models: the data they learn from (a shipped data set or an .npz file)", None,
                  fields={
        "dataset": Field("str", "a data set shipped with simdist: digits (8x8 handwritten digits, 1797 images, "
                                "10 classes)", None, choices=SHIPPED_DATASETS, example='"digits"'),
        "path": Field("str", ".npz file with arrays x (features, one row per example) and y (integer labels "
                             "0..K-1); relative to the scenario file", None, example='"mydata.npz"'),
        "test_fraction": Field("float", "share of the examples held out for evaluation (seeded split, stream "
                                        "'data/split')", 0.2, above=0, maximum=0.9),
        "batch_size": Field("int", "examples per step, split evenly over replicas (parameter_server: each scheduled "
                                   "function takes batch_size / workers)", 64, minimum=1, maximum=2**20),
        "normalize": Field("bool", "scale features by the largest absolute value in the training split", True),
        "categorical_buckets": Field("int", "derive a categorical feature: the features binarised in 16 groups, "
                                            "hashed into this many ids (0: none; wide_deep: default 4096)", None,
                                     minimum=0, maximum=2**24),
    }),
    "training": Field("table", "how long to train", REQUIRED, fields={
        "steps": Field("int", "synchronous strategies: training steps; parameter_server: scheduled functions "
                              "(closures)", REQUIRED, minimum=1, maximum=10**9),
        "optimizer": Field("str", "training models: tf.keras.optimizers SGD or Adam (default sgd)", None,
                           choices=OPTIMIZERS),
        "learning_rate": Field("float", "training models: the optimizer's learning rate (default Keras's: SGD "
                                        "0.01, Adam 0.001)", None, above=0, maximum=100.0),
        "eval_every": Field("int", "training models: evaluate on the held-out split every N steps (default: "
                                   "about 20 evaluations per run)", None, minimum=1, maximum=10**9),
        "target_accuracy": Field("float", "training models: time_to_accuracy_s is the first evaluation at or above "
                                          "this held-out accuracy", None, above=0, maximum=1.0, example="0.9"),
        "target_loss": Field("float", "training models: time_to_loss_s is the first evaluation at or below this "
                                      "held-out loss", None, above=0, example="0.5"),
        "checkpoint_every": Field("int", "save a checkpoint every N steps / closures (0: never)", 0, minimum=0, maximum=10**9),
        "checkpoint_bandwidth": Field("bandwidth", "storage write/read bandwidth for checkpoints", 2e9, above=0,
                                      example='"2GB/s"'),
        "checkpoint_interval": Field("time", "multi_worker_mirrored: also save a checkpoint after the first step that "
                                             "ends this long after the last checkpoint or (re)start", None, above=0,
                                     example='"10min"'),
        "grace_period": Field("time", "multi_worker_mirrored: PreemptionCheckpointHandler with "
                                      "TerminationConfig(grace_period): a preemption is noticed this long before the "
                                      "worker is killed, and the job saves a checkpoint after the step running then "
                                      "and exits (omit or 0: killed without notice)", None, minimum=0, example='"30s"'),
        "compute_jitter": Field("float", "sigma of a log-normal factor on each step's compute (seeded stream "
                                         "'scenario/jitter'); 0 = none", 0.0, minimum=0, maximum=3.0),
    }),
    "faults": Field("table", "what goes wrong", None, fields={
        "preemptions": Field("tables", "parameter_server / multi_worker_mirrored: scheduled worker preemptions", None,
                             fields={
            "worker": Field("int", "worker task index (multi_worker_mirrored: the host)", REQUIRED, minimum=0),
            "at_time": Field("time", "preempt at this simulated time (multi_worker_mirrored: the notice) ...", None),
            "at_closure": Field("int", "... or during the N-th function started (1-based; parameter_server)", None,
                                minimum=1, maximum=10**9),
            "downtime": Field("time", "how long the worker stays down", REQUIRED),
        }),
        "preemption_process": Field("table", "parameter_server / multi_worker_mirrored: random preemptions (spot "
                                             "instances)", None, fields={
            "mtbf": Field("time", "mean time between preemptions of one worker (exponential); at least one function's "
                                  "compute, and 1 s for FLOP-only models (1 ms for training models, whose runs are "
                                  "short)", REQUIRED, minimum=1e-3, example='"30min"'),
            "downtime": Field("time", "time to get a replacement worker", REQUIRED, example='"2min"'),
            "random_downtime": Field("bool", "draw downtime from an exponential with that mean", False),
            "workers": Field("list", "which workers (default: all)", None, item=Field("int", "worker", minimum=0)),
            "worker_fraction": Field("float", "instead of `workers`: the first round(fraction x workers) workers, e.g. "
                                              "0.3 of 10 workers: 0, 1, 2", None, minimum=0, maximum=1.0),
            "start": Field("time", "first possible preemption", 0.0),
        }),
        "ps_failures": Field("tables", "parameter_server: a ps task fails (its variables are lost)", None, fields={
            "ps": Field("int", "ps task index", REQUIRED, minimum=0),
            "at_time": Field("time", "when", REQUIRED),
            "downtime": Field("time", "until it restarts (empty variables); omit: never", None),
        }),
        "stragglers": Field("tables", "a worker (parameter_server) or replica (synchronous) computes slower", None,
                            fields={
            "worker": Field("int", "worker task / replica index", REQUIRED, minimum=0),
            "slowdown": Field("float", "compute takes this many times longer", REQUIRED, minimum=1.0, maximum=1e6),
            "start": Field("time", "from", 0.0),
            "end": Field("time", "until (omit: the end of the run)", None),
        }),
        "links": Field("tables", "degraded links", None, fields={
            "link": Field("str", "a link of the cluster: its full name or a unique suffix, e.g. \"nvlink:GPU:3\" "
                                 "or \"ps/replica:0/task:0/nic\"", REQUIRED),
            "bandwidth_factor": Field("float", "bandwidth multiplier", 1.0, minimum=1e-6, maximum=1e6),
            "latency_factor": Field("float", "latency multiplier", 1.0, minimum=1e-6, maximum=1e6),
            "start": Field("time", "from", 0.0),
            "end": Field("time", "until (omit: the end of the run)", None),
        }),
        "recovery": Field("table", "parameter_server: what the runner does when a ps fails", None, fields={
            "on_ps_failure": Field("str", "fail: the run ends with UnavailableError; restore_checkpoint: wait for "
                                          "the ps, restore the last checkpoint, redo the lost functions",
                                   "fail", choices=RECOVERY),
            "restart_delay": Field("time", "extra time to rebuild the strategy before restoring", 0.0),
        }),
    }),
    "outputs": Field("table", "default outputs of `simdist run` (flags add to these)", None, fields={
        "trace": Field("bool", "write trace.json (Chrome trace)", False),
        "plot": Field("bool", "write timeline.png and utilisation.png", False),
    }),
    "quick": Field("map", "the short variant `--quick` runs (smoke tests, CI): key path -> value", None,
                   example='{"training.steps" = 5}'),
    "sweep": Field("table", "defaults for `simdist sweep` (flags override)", None, fields={
        "seeds": Field("str", "seed range, e.g. \"0..99\" or \"1,2,3\"", None, example='"0..99"'),
        "params": Field("map", "key path -> list of values, e.g. {\"training.steps\" = [10, 20]}", None,
                        item=Field("list", "values", min_items=1), example='{"faults.preemption_process.mtbf" = '
                                                                           '["10min", "30min"]}'),
    }),
    "explore": Field("table", "defaults for `simdist explore`: random fault plans and the invariants they must "
                              "keep (flags override; see docs/failure-injection.md)", None, fields={
        "plans": Field("int", "fault plans to draw and run (`--plans`)", 200, minimum=1),
        "seed": Field("int", "root seed of the plan draws (`--seed`); plan i draws from stream 'explore/plan/i'",
                      0, minimum=0),
        "window": Field("list", "[from, to]: fault times are drawn in this window (default: 0 to the "
                                "fault-free run's simulated time)", None, item=Field("time", "time"),
                        min_items=2, example='["0s", "300s"]'),
        "max_events": Field("int", "at most this many fault events per plan", 4, minimum=1),
        "base_faults": Field("str", "keep: the file's [[faults.*]] entries stay and plans add to them; drop: "
                                    "plans replace them (the preemption process and recovery stay)", "keep",
                             choices=("keep", "drop")),
        "metric": Field("str", "summary metric drawn as a histogram over the plans (default examples_per_s)", None),
        "invariants": Field("list", "metric predicates every run must keep, e.g. \"retries <= 50\", "
                                    "\"simulated_time_s <= 1.5 * baseline\"", None, item=Field("str", "predicate"),
                            example='["redone_closures <= 150"]'),
        "checks": Field("list", "Python checks \"module:function\", called with (metrics, variables)", None,
                        item=Field("str", "module:function"), example='["mychecks:no_lost_steps"]'),
        "determinism_sample": Field("int", "plans re-run in a fresh process with another PYTHONHASHSEED", 4,
                                    minimum=0),
        "max_simulated_time": Field("time", "a run must end before this simulated time (default: 10 x the "
                                            "fault-free run's, at least the window's end)", None, above=0),
        "max_wall_time": Field("time", "a run must end within this wall-clock time", 60.0, above=0),
        "preemptions": Field("table", "parameter_server: worker preemptions to draw", None, fields={
            "rate": Field("float", "expected events per plan (default 1)", None, minimum=0),
            "max": Field("int", "at most this many per plan (default: max_events)", None, minimum=0),
            "downtime": Field("list", "[min, max] downtime (default: 1% to 20% of the window)", None,
                              item=Field("time", "time"), min_items=2),
            "at_closure": Field("float", "share triggered during the N-th function started instead of at a time "
                                          "(parameter_server; multi_worker_mirrored draws every one at a time)",
                                0.3, minimum=0),
        }),
        "ps_failures": Field("table", "parameter_server: ps failures to draw", None, fields={
            "rate": Field("float", "expected events per plan (default 0.3)", None, minimum=0),
            "max": Field("int", "at most this many per plan (default: max_events)", None, minimum=0),
            "downtime": Field("list", "[min, max] downtime (default: 1% to 20% of the window)", None,
                              item=Field("time", "time"), min_items=2),
        }),
        "stragglers": Field("table", "stragglers to draw", None, fields={
            "rate": Field("float", "expected events per plan (default 0.5; synchronous: 1)", None, minimum=0),
            "max": Field("int", "at most this many per plan (default: max_events)", None, minimum=0),
            "slowdown": Field("list", "[min, max] slowdown factor", [1.5, 4.0], item=Field("float", "factor",
                                                                                            minimum=1.0, maximum=1e6),
                              min_items=2),
            "duration": Field("list", "[min, max] length of the window (default: 5% to 50% of the window)", None,
                              item=Field("time", "time"), min_items=2),
        }),
        "links": Field("table", "link degradations to draw", None, fields={
            "rate": Field("float", "expected events per plan (default 0.5; synchronous: 1)", None, minimum=0),
            "max": Field("int", "at most this many per plan (default: max_events)", None, minimum=0),
            "names": Field("list", "candidate links: full names or unique suffixes (default: every NIC; on one "
                                   "host every link)", None, item=Field("str", "link"), min_items=1),
            "bandwidth_factor": Field("list", "[min, max] bandwidth multiplier", [0.05, 0.5],
                                      item=Field("float", "factor", above=0), min_items=2),
            "latency_factor": Field("list", "[min, max] latency multiplier", [1.0, 1.0],
                                    item=Field("float", "factor", above=0), min_items=2),
            "duration": Field("list", "[min, max] length of the window (default: 5% to 50% of the window)", None,
                              item=Field("time", "time"), min_items=2),
        }),
    }),
}


def is_training_model(model: Any) -> bool:
    """Whether a [model] table names a real model (zoo or function) rather than a FLOP-only one."""
    return isinstance(model, dict) and any(model.get(k) is not None for k in _TRAINING_MODEL)


def walk(schema: dict[str, Field] | None = None, prefix: str = "") -> Iterator[tuple[str, Field]]:
    """Every (key path, Field) of the schema, depth first; array tables are written ``a.b[]``."""
    for name, f in (schema if schema is not None else SCHEMA).items():
        path = f"{prefix}{name}"
        yield path, f
        if f.kind == "table":
            yield from walk(f.fields, path + ".")
        elif f.kind == "tables":
            yield from walk(f.fields, path + "[].")


def lookup(path: str) -> Field | None:
    """The Field of a key path (``model.variables[0].shape`` or ``model.variables[].shape``)."""
    import re
    parts = [p for p in re.sub(r"\[\d*\]", "", path).split(".") if p]
    fields = SCHEMA
    f: Field | None = None
    for p in parts:
        f = fields.get(p)
        if f is None:
            return None
        fields = f.fields
    return f


def _default_text(f: Field) -> str:
    if f.default is REQUIRED and f.required_unless:
        return "required (FLOP-only model)"
    if f.default is REQUIRED:
        return "required"
    if f.default is None:
        return "—"
    if isinstance(f.default, bool):
        return "true" if f.default else "false"
    return repr(f.default) if isinstance(f.default, str) else f"{f.default:g}" if isinstance(f.default, float) \
        else str(f.default)


def _num(x: float) -> str:
    return f"2^{int(x).bit_length() - 1}" if isinstance(x, int) and x > 4096 and x & (x - 1) == 0 else f"{x:g}"


def _type_text(f: Field) -> str:
    t = f.kind
    if f.kind in ("list", "map") and f.item is not None:
        t = f"{f.kind} of {f.item.kind}"
    if f.choices:
        t += ": " + " \\| ".join(f"`{c}`" for c in f.choices)
    lo = []
    if f.minimum is not None:
        lo.append(f">= {f.minimum:g}")
    if f.above is not None:
        lo.append(f"> {f.above:g}")
    if f.maximum is not None:
        lo.append(f"<= {_num(f.maximum)}")
    if f.item is not None and f.item.minimum is not None:
        lo.append(f"items >= {f.item.minimum:g}")
    if lo:
        t += " (" + ", ".join(lo) + ")"
    return t


def reference_rows() -> list[tuple[str, str, str, str]]:
    """(key path, type, default, description) for every key: the table in docs/scenarios.md."""
    return [(p, _type_text(f), _default_text(f), f.doc) for p, f in walk()]


if __name__ == "__main__":  # python -m simdist.scenario.schema: print the reference table (markdown)
    print("| key | type | default | meaning |")
    print("|---|---|---|---|")
    for row in reference_rows():
        print("| `" + row[0] + "` | " + " | ".join(row[1:]) + " |")
