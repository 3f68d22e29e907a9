"""Every code example of the seed documents, run as a program (docs/examples/*.py), and three
TensorFlow tutorials (tutorial_*.py: custom training, parameter server training, Keras), and the
Keras guides' model patterns (guide_*.py).

Each example prints its results; the expected stdout below is what TensorFlow 2.21 printed
(tensorflow-cpu, logical CPUs standing in for GPUs, an in-process gRPC cluster for
ParameterServerStrategy). Where the document's values are right they equal these; where the
document is wrong or incomplete, the comment above the entry says what the document claims
and what TF 2.21 does, and the example's header explains it.

* ``test_example_on_simdist`` runs each example in this process with ``from simdist import tf``
  (runpy, on a fresh simulated machine) and compares its stdout. Known differences between
  simdist and TF 2.21 are strict xfails: the entry's ``simdist_deviation`` says what differs,
  and the test starts failing as soon as simdist prints what TF prints.
* ``test_example_on_tensorflow`` (marker ``tf``) runs each example under real TensorFlow, one
  subprocess per example, a few at a time, and compares against the same expected output, so
  the expectations are observed, not invented. The default run keeps the first example of each
  family of short examples (``tf_slice``); ``-m slow`` runs the rest.
* ``test_inventory`` checks that every example of every seed document has its program.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib.util
import io
import os
import runpy
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "docs" / "examples"


@dataclass(frozen=True)
class Example:
    file: str
    sources: str                       # where the example comes from (doc and section)
    expected: str = ""                 # TF 2.21's stdout
    same_as: str | None = None         # translated page: a mangled copy of this CSS24 example
    simdist_deviation: str | None = None


_ENTRIES = [
    # no output documented; `experimental_run_v2` is gone in TF 2.21 (AttributeError)
    Example('css20_class_example.py', 'CSS20 class docstring', """\
1. as documented (experimental_run_v2):
   error: AttributeError ['experimental_run_v2' in message]
2. with run:
   tf.Tensor([1 2], shape=(2,), dtype=int64)
   tf.Tensor([3 4], shape=(2,), dtype=int64)
   tf.Tensor([5], shape=(1,), dtype=int64)
"""),
    # no output documented (undefined names filled in); `experimental_run_v2` is gone in TF 2.21 (AttributeError)
    Example('css20_datasets_from_function.py', 'CSS20 experimental_distribute_datasets_from_function', """\
1. as documented (experimental_run_v2):
   error: AttributeError ['experimental_run_v2' in message]
2. with run, 2 steps:
   batch shapes: [(2, 1, 1), (2, 1, 1)]
   replica results: [2.0, 2.0]
   batch shapes: [(2, 1, 1), (2, 1, 1)]
   replica results: [2.0, 2.0]
   dataset_fn calls (num_input_pipelines, input_pipeline_id, num_replicas_in_sync): [(1, 0, 2)]
   per-replica batch size: 2
   get_per_replica_batch_size(5) over 2 replicas: ValueError ['is not divisible by' in message]
"""),
    # no output documented; TF 2.21 v2 strategies have no experimental_make_numpy_dataset (AttributeError)
    Example('css20_make_numpy_dataset.py', 'CSS20 experimental_make_numpy_dataset', """\
1. as documented:
   error: AttributeError ['experimental_make_numpy_dataset' in message]
2. tf.data.Dataset.from_tensor_slices:
   [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""),
    # doc: [4, 6, 8, 10] and 28; TF 2.21: IndexError for the unbatched range(10) (clause reduce.doc-example-loop); the documented values come from one global batch of 8
    Example('css20_reduce.py', 'CSS20 reduce', """\
1. as documented:
   error from experimental_distribute_dataset: IndexError
2. with run and range(8).batch(8):
   SUM axis=None: [ 4  6  8 10]
   SUM axis=0: 28
"""),
    # no output documented; one replica on the default host: plain tensors
    Example('css24_class_example.py', 'CSS24 class docstring', """\
tf.Tensor([1 2], shape=(2,), dtype=int64)
tf.Tensor([3 4], shape=(2,), dtype=int64)
tf.Tensor([5], shape=(1,), dtype=int64)
num_replicas_in_sync: 1
"""),
    # no output documented; the snippet is not valid Python (IndentationError); MultiWorkerMirroredStrategy replaced by TFConfigClusterResolver
    Example('css24_cluster_resolver.py', 'CSS24 cluster_resolver, PSS cluster_resolver', """\
1. as documented:
   IndentationError at line 18: elif strategy.cluster_resolver.task_type == 'ps':
2. the same TF_CONFIG through TFConfigClusterResolver:
   task_type: worker task_id: 0
   cluster_spec: {'worker': ['localhost:12345', 'localhost:23456'], 'ps': ['localhost:34567']}
   this task runs the 'worker' branch
3. single-worker strategy:
   CentralStorageStrategy().cluster_resolver: None
"""),
    # doc: `tf.distribute.CentralStorageStrategy()` with 1 CPU + 1 GPU prints PerReplica values [0, 1], [2, 3], ...; TF 2.21: that name raises AttributeError, and one compute device gives plain tensors (PerReplica only with CPU:0 + GPU:0)
    Example('css24_distribute_dataset.py', 'CSS24 experimental_distribute_dataset, CSS20 experimental_distribute_dataset', """\
1. as documented: tf.distribute.CentralStorageStrategy()
   error: AttributeError
2. tf.distribute.experimental.CentralStorageStrategy()
   num_replicas_in_sync = 1
tf.Tensor([0 1], shape=(2,), dtype=int64)
tf.Tensor([2 3], shape=(2,), dtype=int64)
tf.Tensor([4 5], shape=(2,), dtype=int64)
tf.Tensor([6 7], shape=(2,), dtype=int64)
tf.Tensor([8 9], shape=(2,), dtype=int64)
3. compute_devices=['CPU:0', 'GPU:0']: two replicas
   num_replicas_in_sync = 2
PerReplica:{
  0: tf.Tensor([0], shape=(1,), dtype=int64),
  1: tf.Tensor([1], shape=(1,), dtype=int64)
}
PerReplica:{
  0: tf.Tensor([2], shape=(1,), dtype=int64),
  1: tf.Tensor([3], shape=(1,), dtype=int64)
}
PerReplica:{
  0: tf.Tensor([4], shape=(1,), dtype=int64),
  1: tf.Tensor([5], shape=(1,), dtype=int64)
}
PerReplica:{
  0: tf.Tensor([6], shape=(1,), dtype=int64),
  1: tf.Tensor([7], shape=(1,), dtype=int64)
}
PerReplica:{
  0: tf.Tensor([8], shape=(1,), dtype=int64),
  1: tf.Tensor([9], shape=(1,), dtype=int64)
}
"""),
    # doc == TF 2.21
    Example('css24_gather.py', 'CSS24 gather, PSS gather', """\
<tf.Tensor: shape=(4, 1), dtype=int32, numpy=
array([[1],
       [2],
       [1],
       [2]], dtype=int32)>
"""),
    # doc == TF 2.21 (values; NumPy's blank lines between blocks not rendered in the doc)
    Example('css24_gather_axes.py', 'CSS24 gather, PSS gather', """\
<tf.Tensor: shape=(4, 2, 3), dtype=int32, numpy=
array([[[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]]], dtype=int32)>
<tf.Tensor: shape=(1, 8, 3), dtype=int32, numpy=
array([[[0, 1, 2],
        [3, 4, 5],
        [0, 1, 2],
        [3, 4, 5],
        [0, 1, 2],
        [3, 4, 5],
        [0, 1, 2],
        [3, 4, 5]]], dtype=int32)>
<tf.Tensor: shape=(1, 2, 12), dtype=int32, numpy=
array([[[0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2],
        [3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5]]], dtype=int32)>
"""),
    # doc: [4, 6, 8, 10] and 28; TF 2.21: IndexError for the unbatched range(10); .batch(8) keeps the last step [8]/[9] -> [17] and 34 (the doc reduces its own NumPy result again, which is broadcast to both replicas); one batch of 8 gives [4 6 8 10] and 28, chained 56
    Example('css24_reduce.py', 'CSS24 reduce', """\
1. as documented: Dataset.range(10)
   error: IndexError
2. Dataset.range(10).batch(8), reduced as documented
   last step: [[8], [9]]
   SUM axis=None: [17]
   SUM axis=0 of that array: 34
3. corrected: Dataset.range(8).batch(8)
   step: [[0, 1, 2, 3], [4, 5, 6, 7]]
   SUM axis=None: [ 4  6  8 10]
   SUM axis=0: 28
   SUM axis=0 of the axis=None array (as chained in the document): 56
"""),
    # doc == TF 2.21
    Example('css24_scope.py', 'CSS24 scope, ODS scope, PSS scope', """\
in scope: get_strategy() is strategy: True
in scope: in_cross_replica_context(): True
MirroredVariable:{
  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,
  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>
}
<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>
outside: get_strategy() is strategy: False
outside: in_cross_replica_context(): False
after assign(5.) outside the scope: [5.0, 5.0]
"""),
    # doc == TF 2.21 (one line instead of two)
    Example('css24_values_from_function_constant.py', 'CSS24 / PSS experimental_distribute_values_from_function 1', """\
(<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(), dtype=float32, numpy=1.0>)
"""),
    # doc == TF 2.21
    Example('css24_values_from_function_num_replicas.py', 'CSS24 / PSS experimental_distribute_values_from_function 3', """\
(2, 2)
"""),
    # no output documented; the snippet is not valid Python and needs a TPU: run on MirroredStrategy
    Example('css24_values_from_function_placed.py', 'CSS24 / PSS experimental_distribute_values_from_function 4', """\
1. as documented:
   SyntaxError at line 12: distributed_values = strategy.
2. corrected, on MirroredStrategy(['GPU:0', 'GPU:1']):
   <tf.Tensor: shape=(), dtype=float32, numpy=1.0> /job:localhost/replica:0/task:0/device:GPU:0
   <tf.Tensor: shape=(), dtype=float32, numpy=1.0> /job:localhost/replica:0/task:0/device:GPU:1
"""),
    # doc: (3.0, 2.0); TF 2.21 keeps the NumPy scalars, whose repr with NumPy 2 is np.float64(3.0)
    Example('css24_values_from_function_replica_id.py', 'CSS24 / PSS experimental_distribute_values_from_function 2', """\
(np.float64(3.0), np.float64(2.0))
(3.0, 2.0)
['float64', 'float64']
"""),
    # doc: GPU:0 and 90; TF 2.21: `tf.enable_eager_execution` raises AttributeError, the rest as documented
    Example('ods_class_example.py', 'ODS class docstring', """\
1. as documented: tf.enable_eager_execution()
   error: AttributeError ['enable_eager_execution' in message]
2. without it:
/job:localhost/replica:0/task:0/device:GPU:0
90
type: int num_replicas_in_sync: 1
run on a tensor: <tf.Tensor: shape=(), dtype=int32, numpy=6> /job:localhost/replica:0/task:0/device:GPU:0
"""),
    # doc == TF 2.21 (PSS layout; the ODS page lost the line breaks)
    Example('ods_distribute_dataset.py', 'ODS experimental_distribute_dataset, PSS experimental_distribute_dataset', """\
[PerReplica:{
  0: <tf.Tensor: shape=(1,), dtype=int64, numpy=array([0])>,
  1: <tf.Tensor: shape=(1,), dtype=int64, numpy=array([2])>
}, PerReplica:{
  0: <tf.Tensor: shape=(1,), dtype=int64, numpy=array([4])>,
  1: <tf.Tensor: shape=(1,), dtype=int64, numpy=array([6])>
}]
"""),
    # no output documented (undefined names filled in)
    Example('ods_make_input_fn_iterator.py', 'ODS make_input_fn_iterator', """\
1. tf.compat.v1.distribute.OneDeviceStrategy:
   replica_results: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
   next step: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
   input_fn contexts: [(1, 0, 1)]
2. tf.distribute.OneDeviceStrategy:
   replica_results: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
   next step: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
   input_fn contexts: [(1, 0, 1)]
"""),
    # no output documented; only tf.compat.v1 strategies have experimental_make_numpy_dataset in TF 2.21
    Example('ods_make_numpy_dataset.py', 'ODS experimental_make_numpy_dataset', """\
1. tf.compat.v1.distribute.OneDeviceStrategy:
   [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
2. tf.distribute.OneDeviceStrategy:
   experimental_make_numpy_dataset: AttributeError ['experimental_make_numpy_dataset' in message]
   from_tensor_slices: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
   on /job:localhost/replica:0/task:0/device:GPU:0
"""),
    # doc == TF 2.21
    Example('ods_reduce.py', 'ODS reduce 1, PSS reduce 1', """\
<tf.Tensor: shape=(), dtype=int32, numpy=1>
"""),
    # doc: a last batch of 6 'divided into [0, 1, 2, 3] and [4, 5]'; TF 2.21 splits it that way only with AutoShardPolicy.OFF (AUTO: [8,9,10]/[11,12,13]); values as documented
    Example('ods_reduce_axis.py', "ODS reduce 'What should axis be?', PSS reduce, CSS24/CSS20 reduce prose", """\
1. global batch of 8:
   replicas: [[0, 1, 2, 3], [4, 5, 6, 7]]
   sum axis=None: [ 4  6  8 10]
   sum axis=0: 28
2. partial batch of 6 divided into [0, 1, 2, 3] and [4, 5]:
   sum axis=None: InvalidArgumentError
   MEAN axis=0: 2.5
   MEAN of per-replica means: 3.0
3. range(14).batch(8), last step:
   OFF: [[8, 9, 10, 11], [12, 13]] MEAN axis=0: 10.5
   AUTO: [[8, 9, 10], [11, 12, 13]] MEAN axis=0: 10.5
"""),
    # doc == TF 2.21
    Example('ods_reduce_devices.py', 'ODS reduce 2, PSS reduce 2', """\
/job:localhost/replica:0/task:0/device:GPU:0
/job:localhost/replica:0/task:0/device:GPU:1
/job:localhost/replica:0/task:0/device:CPU:0
"""),
    # doc == TF 2.21
    Example('ods_run_all_reduce.py', 'ODS run 3, PSS run 3', """\
PerReplica:{
  0: <tf.Tensor: shape=(), dtype=int32, numpy=1>,
  1: <tf.Tensor: shape=(), dtype=int32, numpy=1>
}
"""),
    # doc == TF 2.21
    Example('ods_run_constant.py', 'ODS run 1, PSS run 1', """\
PerReplica:{
  0: <tf.Tensor: shape=(), dtype=float32, numpy=6.0>,
  1: <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
}
"""),
    # doc == TF 2.21
    Example('ods_run_distributed_values.py', 'ODS run 2, PSS run 2', """\
<tf.Tensor: shape=(), dtype=int32, numpy=4>
"""),
    # no output documented; task ps:1 of 1 chief, 2 ps, 3 workers as the text says
    Example('pss_cluster_setup.py', 'PSS cluster setup (TF_CONFIG)', """\
task_type: 'ps' task_id: 1
jobs: ['chief', 'ps', 'worker']
  chief: 1 task(s) ['chief.example.com:2222']
  ps: 2 task(s) ['ps0.example.com:2222', 'ps1.example.com:2222']
  worker: 3 task(s) ['worker0.example.com:2222', 'worker1.example.com:2222', 'worker2.example.com:2222']
this task's address: ps1.example.com:2222
master(): 'ps1.example.com:2222'
"""),
    # no output documented (skeleton filled in); values computed by hand, TF 2.21 agrees
    Example('pss_coordinator_example.py', 'PSS example code for coordinator', """\
initial_epoch: 0
epoch 0: losses [10.0, 2.5, 0.625], Metric result: 4.375, w = 1.75
epoch 1: losses [0.15625, 0.0390625, 0.009765625], Metric result: 0.068359375, w = 1.96875
checkpoints kept: ['ckpt-1', 'ckpt-2']
a restart would begin at epoch 2
variables on: ['/job:ps/replica:0/task:0/device:CPU:0']
"""),
    # no output documented; the snippet is not valid Python (`coordinator =` then a line break)
    Example('pss_dataset_fn.py', 'PSS dataset preparation', """\
1. as documented:
   SyntaxError at line 2: coordinator =
2. filled in:
   (4,) object ['a.tfrecord', 'b.tfrecord', 'c.tfrecord', 'd.tfrecord']
   (4,) object ['a.tfrecord', 'b.tfrecord', 'c.tfrecord', 'd.tfrecord']
   (4,) object ['a.tfrecord', 'b.tfrecord', 'c.tfrecord', 'd.tfrecord']
   (4,) object ['a.tfrecord', 'b.tfrecord', 'c.tfrecord', 'd.tfrecord']
"""),
    # no output documented
    Example('pss_same_binary.py', 'PSS cluster setup, same binary for all tasks', """\
TF_CONFIG task chief:0
  chief: ParameterServerStrategy over 2 workers and 1 ps, num_replicas_in_sync = 1
  chief: a variable in scope lives on /job:ps/replica:0/task:0/device:CPU:0
TF_CONFIG task worker:0
  worker: would start tf.distribute.Server(job_name='worker', task_index=0) and join it
TF_CONFIG task worker:1
  worker: would start tf.distribute.Server(job_name='worker', task_index=1) and join it
TF_CONFIG task ps:0
  ps: would start tf.distribute.Server(job_name='ps', task_index=0) and join it
"""),
    # doc: the asserts hold; TF 2.21: NameError as printed (unqualified ParameterServerStrategy, misspelt variable_partitioiner), and with the names fixed shard names are 'w/part_0:0', 'w/part_1:0' so the name asserts fail
    Example('pss_variable_partitioning.py', 'PSS variable partitioning (Dense)', """\
1. as documented:
   NameError: name 'ParameterServerStrategy' is not defined
2. names fixed:
   len(dense.variables) == 2: True
   isinstance(dense.variables[0], tf.Variable): True
   isinstance(dense.variables[1], tf.Variable): True
   dense.variables[0].name == "w/part_0": False
   dense.variables[1].name == "w/part_1": False
   w/part_0:0 (50, 10) /job:ps/replica:0/task:0/device:CPU:0
   w/part_1:0 (50, 10) /job:ps/replica:0/task:1/device:CPU:0
   dense(ones): (100, 10) equals the concatenated shards: True
   tf.convert_to_tensor(dense.w): (100, 10)
"""),
    # doc == TF 2.21 (v1 on the coordinator: /job:chief/... in TF 2.21)
    Example('pss_variable_placement.py', 'PSS variable creation with strategy.scope()', """\
asserts hold
v1 /job:chief/replica:0/task:0/device:CPU:0 0.0
v2 /job:ps/replica:0/task:0/device:CPU:0 1.0
v3 /job:ps/replica:0/task:1/device:CPU:0 2.0
v4 /job:ps/replica:0/task:2/device:CPU:0 3.0
v5 /job:ps/replica:0/task:0/device:CPU:0 4.0
num_replicas_in_sync: 1
"""),
    # no output documented; server.join() left out (it never returns)
    Example('pss_worker_server.py', 'PSS example code for worker and parameter servers', """\
server.target is grpc://<worker 0 address>: True
task: worker 0
"""),
    Example('translated_class_example.py', 'translated class docstring',
            '1. as documented: SyntaxError at line 3: ds =', same_as='css24_class_example.py'),
    Example('translated_cluster_resolver.py', 'translated cluster_resolver',
            "1. as documented: SyntaxError at line 2: 'cluster': {", same_as='css24_cluster_resolver.py'),
    Example('translated_distribute_dataset.py', 'translated experimental_distribute_dataset',
            '1. as documented: SyntaxError at line 2: dataset =', same_as='css24_distribute_dataset.py'),
    # doc (truncated by the translation) == TF 2.21
    Example('translated_gather.py', 'translated gather', """\
<tf.Tensor: shape=(4, 1), dtype=int32, numpy=
array([[1],
       [2],
       [1],
       [2]], dtype=int32)>
"""),
    # doc (axis 0 only) == TF 2.21
    Example('translated_gather_axes.py', 'translated gather, more combinations', """\
<tf.Tensor: shape=(4, 2, 3), dtype=int32, numpy=
array([[[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]],

       [[0, 1, 2],
        [3, 4, 5]]], dtype=int32)>
"""),
    Example('translated_values_from_function_constant.py', 'translated experimental_distribute_values_from_function 1',
            '1. as documented: SyntaxError at line 4: distributed_values = (', same_as='css24_values_from_function_constant.py'),
    Example('translated_values_from_function_num_replicas.py', 'translated experimental_distribute_values_from_function 3',
            '1. as documented: SyntaxError at line 4: distributed_values = (', same_as='css24_values_from_function_num_replicas.py'),
    Example('translated_values_from_function_placed.py', 'translated experimental_distribute_values_from_function 4',
            '1. as documented: IndentationError at line 7: def value_fn(ctx):', same_as='css24_values_from_function_placed.py'),
    Example('translated_values_from_function_replica_id.py', 'translated experimental_distribute_values_from_function 2',
            '1. as documented: SyntaxError at line 5: distributed_values = (', same_as='css24_values_from_function_replica_id.py'),
    # TF tutorials (tensorflow.org/tutorials/distribute): no comparable output documented (random
    # weights, downloaded data); the headers list what was changed so that both backends compute the
    # same numbers. Custom training: float64 (see its header); the iterator loop prints "Epoch 3"
    # three times, as the tutorial's code does.
    Example('tutorial_custom_training.py', 'TF tutorial Custom training with tf.distribute.Strategy', """\
Number of devices: 2
Epoch 1, Loss: 2.3080, Accuracy: 9.96, Test Loss: 2.2885, Test Accuracy: 12.50
Epoch 2, Loss: 2.2981, Accuracy: 13.09, Test Loss: 2.2873, Test Accuracy: 15.62
Epoch 3, Loss: 2.2930, Accuracy: 11.91, Test Loss: 2.2848, Test Accuracy: 15.62
Accuracy after restoring the saved model without strategy: 15.62
Epoch 3, Loss: 2.2867, Accuracy: 11.72
Epoch 3, Loss: 2.2837, Accuracy: 11.72
Epoch 3, Loss: 2.2796, Accuracy: 11.72
Epoch 1, Loss: 2.2823, Accuracy: 16.21
Epoch 2, Loss: 2.2731, Accuracy: 19.53
Epoch 3, Loss: 2.2621, Accuracy: 19.34
"""),
    # partitioned model at the end: TF 2.21 + Keras 3.15 cannot differentiate it (clause keras.variable.sharded)
    Example('tutorial_parameter_server_training.py', 'TF tutorial Parameter server training', """\
embedding/embeddings (8, 16384) /job:ps/replica:0/task:0/device:CPU:0
dense/kernel (16384, 1) /job:ps/replica:0/task:1/device:CPU:0
dense/bias (1,) /job:ps/replica:0/task:0/device:CPU:0
Finished epoch 0, accuracy is 0.5813.
Finished epoch 1, accuracy is 1.0000.
Finished epoch 2, accuracy is 1.0000.
Finished epoch 3, accuracy is 1.0000.
Final loss is 0.1565
Evaluation accuracy: 1.0000
Evaluation accuracy: 1.0000
embedding_1/embeddings (8, 16384) ['/job:ps/replica:0/task:0/device:CPU:0', '/job:ps/replica:0/task:1/device:CPU:0']
dense_1/kernel (16384, 1) /job:ps/replica:0/task:0/device:CPU:0
dense_1/bias (1,) /job:ps/replica:0/task:1/device:CPU:0
partitioned model, same weights, same predictions: True
tape.gradient(loss, partitioned_model.trainable_variables): AttributeError ["no attribute 'handle'" in message]
"""),
    Example('tutorial_keras_distributed.py', 'TF tutorial Distributed training with Keras', """\
Number of devices: 2

Learning rate for epoch 1 is 0.0010000000474974513

Learning rate for epoch 2 is 9.999999747378752e-05

Learning rate for epoch 3 is 9.999999747378752e-06
accuracy ['0.1035', '0.1875', '0.1855']
learning_rate ['0.001', '0.0001', '1e-05']
loss ['2.301', '2.277', '2.275']
checkpoints: ['ckpt_1.weights.h5', 'ckpt_2.weights.h5', 'ckpt_3.weights.h5']
Eval loss: 2.2708, Eval accuracy: 0.2188
"""),
    # Keras guides (keras.io/guides), as TF 2.21's tf.keras runs them: synthetic data of the guides'
    # shapes, seeded initial weights, shuffle=False; each header lists what was changed.
    Example('guide_customizing_fit.py', 'Keras guide Customizing what happens in fit()', """\
1. A first simple example
  class: CustomModel functional base: Functional layers: ['input_layer', 'dense']
  loss ['0.55859', '0.40065', '0.28317']
  mae ['0.67115', '0.54998', '0.45274']
2. Going lower-level
  loss ['1.62574', '1.31457', '1.04577']
  mae ['1.22768', '1.09435', '0.96439']
3. Supporting sample_weight & class_weight
  loss ['0.14039', '0.09781', '0.07342']
  mae ['0.43736', '0.35948', '0.31622']
4. Providing your own evaluation step
  evaluate: ['0.12883', '0.29711']
"""),
    # the ticket model encodes text with Embedding + GlobalAveragePooling1D (the guide: LSTM)
    Example('guide_functional_api.py', 'Keras guide The Functional API', """\
1. Training, evaluation, and inference
   mnist_model params: 55050 layers: ['input_layer', 'dense', 'dense_1', 'dense_2']
  loss ['2.4009', '2.1750']
  sparse_categorical_accuracy ['0.1667', '0.2917']
  val_loss ['2.4429', '2.5018']
  val_sparse_categorical_accuracy ['0.0000', '0.0625']
  Test loss: 1.9681
  Test accuracy: 0.3125
2. All models are callable, just like layers
   autoencoder output: (None, 28, 28, 1) params: 18682 layers: ['img', 'encoder', 'decoder']
  encoded sum: 13.3849 decoded shape: (4, 28, 28, 1)
  ensemble: ['-0.5561', '-0.5347', '-0.6746']
3. Models with multiple inputs and outputs
  params: 1280705 outputs: ['department', 'priority']
  department_loss ['2.6587', '2.6462']
  loss ['1.2420', '1.2353']
  priority_loss ['0.7102', '0.7060']
4. A toy ResNet model
   toy_resnet params: 223242
  evaluate: 2.3003
5. Shared layers
  shared weights: 1 same vectors: True
"""),
    Example('guide_subclassing.py', 'Keras guide Making new layers and models via subclassing', """\
1. The Layer class: the combination of state (weights) and some computation
   ['-0.28561', '-0.03299', '-0.05835', '-0.01179', '-0.23586', '-0.02249', '-0.12028', '-0.06928']
   weights: 2 [(2, 4), (4,)]
2. Layers can have non-trainable weights
   ['2.00000', '2.00000']
   ['4.00000', '4.00000']
   weights: 1 non-trainable weights: 1 trainable_weights: []
3. Deferring weight creation until the shape of the inputs is known
   built: True sum after set_weights: 0.85627
4. Layers are recursively composable
   weights: 6
   trainable weights: 6
   ['-0.09684', '-0.08840', '-0.04573']
5. The add_loss() method
   losses after two calls: 1
   regularization loss: ['0.00025']
   step loss: 0.20128 extra losses: 1
   step loss: 0.24329 extra losses: 1
   step loss: 0.19190 extra losses: 1
   step loss: 0.23735 extra losses: 1
6. You can optionally enable serialization on your layers
   {'dtype': {'module': 'keras', 'class_name': 'DTypePolicy', 'config': {'name': 'float32'}, 'registered_name': None}, 'trainable': True, 'units': 64}
   from_config units: 64
7. Privileged training argument in the call() method
   inference: ['0.62924', '0.31650', '0.02236', '0.38523', '0.86033', '0.52172']
   training, rate 0: ['0.62924', '0.31650', '0.02236', '0.38523', '0.86033', '0.52172']
8. The Model class
   weights: 8 ['mlp/mlp_block_1/linear_6/variable_11', 'mlp/mlp_block_1/linear_6/variable_12', 'mlp/mlp_block_1/linear_7/variable_13']
   loss ['0.22108', '0.21698']
"""),
    Example('guide_training_loop.py', 'Keras guide Writing a training loop from scratch', """\
1. Using the GradientTape: a first end-to-end example
Start of epoch 0
Training loss (for 1 batch) at step 0: 2.30190
Seen so far: 64 samples
Training loss (for 1 batch) at step 2: 2.30599
Seen so far: 192 samples
Start of epoch 1
Training loss (for 1 batch) at step 0: 2.30183
Seen so far: 64 samples
Training loss (for 1 batch) at step 2: 2.30590
Seen so far: 192 samples
2. Low-level handling of metrics, speeding-up with tf.function
Start of epoch 0
Training loss (for 1 batch) at step 0: 2.30618
Training loss (for 1 batch) at step 2: 2.31967
Training acc over epoch: 0.0859
Validation acc: 0.1250
Start of epoch 1
Training loss (for 1 batch) at step 0: 2.30605
Training loss (for 1 batch) at step 2: 2.31945
Training acc over epoch: 0.0898
Validation acc: 0.1250
3. Low-level handling of losses tracked by the model
Training loss (for 1 batch) at step 0: 14.17727
Training loss (for 1 batch) at step 1: 12.63754
Training loss (for 1 batch) at step 2: 10.61816
Training loss (for 1 batch) at step 3: 9.42497
Training acc: 0.1172
"""),
    # guide: unfrozen BatchNormalization called with training=False keeps its statistics; TF 2.21 + Keras 3.15: fit's training=True overrides it (clause keras.functional.training-override)
    Example('guide_transfer_learning.py', 'Keras guide Transfer learning & fine-tuning', """\
1. Layers & models have three weight attributes
   weights: 2
   trainable_weights: 2
   non_trainable_weights: 0
   weights: 4
   trainable_weights: 2
   non_trainable_weights: 2
2. Set layer.trainable to False to freeze it
   weights: 2
   trainable_weights: 0
   non_trainable_weights: 2
   layer2 kernel after one step: ['-2.3260', '-0.2178', '-1.2469']
3. Recursive setting of the trainable attribute
   frozen: False False 0
4. The typical transfer-learning workflow
   trainable weights: 2 non-trainable: 11
   binary_accuracy ['0.4375', '0.4375']
   loss ['0.6881', '0.6879']
   base unchanged (moving statistics included): True
5. Fine-tuning
   trainable weights: 9 non-trainable: 4
   binary_accuracy ['0.4375', '0.4375']
   loss ['0.6901', '0.6901']
   moving statistics unchanged: False kernels changed: True
   predictions: ['0.1255', '0.1272', '0.1260', '0.1205']
"""),
]

EXAMPLES: dict[str, Example] = {e.file: e for e in _ENTRIES}


def expected_output(name: str) -> str:
    """A translated-page example prints its snippet check, then runs the intact CSS24 one."""
    e = EXAMPLES[name]
    if e.same_as is None:
        return e.expected
    return f"{e.expected}\n2. the intact CSS24 example ({e.same_as}):\n{expected_output(e.same_as)}"


def deviation(name: str) -> str | None:
    e = EXAMPLES[name]
    return e.simdist_deviation or (deviation(e.same_as) if e.same_as else None)


# Every code example of the seed documents -> the program that runs it. A snippet repeated
# verbatim in several documents has one program (its header names every place).
INVENTORY: list[tuple[str, str, str]] = [
    ("CSS24", "class docstring: For Example", "css24_class_example.py"),
    ("CSS24", "cluster_resolver", "css24_cluster_resolver.py"),
    ("CSS24", "experimental_distribute_dataset", "css24_distribute_dataset.py"),
    ("CSS24", "experimental_distribute_values_from_function 1", "css24_values_from_function_constant.py"),
    ("CSS24", "experimental_distribute_values_from_function 2", "css24_values_from_function_replica_id.py"),
    ("CSS24", "experimental_distribute_values_from_function 3", "css24_values_from_function_num_replicas.py"),
    ("CSS24", "experimental_distribute_values_from_function 4", "css24_values_from_function_placed.py"),
    ("CSS24", "gather 1", "css24_gather.py"),
    ("CSS24", "gather 2", "css24_gather_axes.py"),
    ("CSS24", "reduce", "css24_reduce.py"),
    ("CSS24", "scope", "css24_scope.py"),
    ("CSS20", "class docstring: For Example", "css20_class_example.py"),
    ("CSS20", "experimental_distribute_dataset", "css24_distribute_dataset.py"),
    ("CSS20", "experimental_distribute_datasets_from_function", "css20_datasets_from_function.py"),
    ("CSS20", "experimental_make_numpy_dataset", "css20_make_numpy_dataset.py"),
    ("CSS20", "reduce", "css20_reduce.py"),
    ("translated", "class docstring: For Example", "translated_class_example.py"),
    ("translated", "cluster_resolver", "translated_cluster_resolver.py"),
    ("translated", "experimental_distribute_dataset", "translated_distribute_dataset.py"),
    ("translated", "experimental_distribute_values_from_function 1", "translated_values_from_function_constant.py"),
    ("translated", "experimental_distribute_values_from_function 2", "translated_values_from_function_replica_id.py"),
    ("translated", "experimental_distribute_values_from_function 3", "translated_values_from_function_num_replicas.py"),
    ("translated", "experimental_distribute_values_from_function 4", "translated_values_from_function_placed.py"),
    ("translated", "gather 1", "translated_gather.py"),
    ("translated", "gather 2", "translated_gather_axes.py"),
    ("ODS", "class docstring: For example", "ods_class_example.py"),
    ("ODS", "experimental_distribute_dataset", "ods_distribute_dataset.py"),
    ("ODS", "experimental_make_numpy_dataset", "ods_make_numpy_dataset.py"),
    ("ODS", "make_input_fn_iterator", "ods_make_input_fn_iterator.py"),
    ("ODS", "reduce 1", "ods_reduce.py"),
    ("ODS", "reduce 2 (devices)", "ods_reduce_devices.py"),
    ("ODS", "reduce: What should axis be?", "ods_reduce_axis.py"),
    ("ODS", "run 1: constant tensor input", "ods_run_constant.py"),
    ("ODS", "run 2: DistributedValues input", "ods_run_distributed_values.py"),
    ("ODS", "run 3: all_reduce", "ods_run_all_reduce.py"),
    ("ODS", "scope", "css24_scope.py"),
    ("PSS", "example code for coordinator", "pss_coordinator_example.py"),
    ("PSS", "example code for worker and parameter servers", "pss_worker_server.py"),
    ("PSS", "cluster setup: TF_CONFIG", "pss_cluster_setup.py"),
    ("PSS", "cluster setup: same binary", "pss_same_binary.py"),
    ("PSS", "variable creation with strategy.scope()", "pss_variable_placement.py"),
    ("PSS", "variable partitioning: Dense", "pss_variable_partitioning.py"),
    ("PSS", "dataset preparation", "pss_dataset_fn.py"),
    ("PSS", "cluster_resolver", "css24_cluster_resolver.py"),
    ("PSS", "experimental_distribute_dataset", "ods_distribute_dataset.py"),
    ("PSS", "experimental_distribute_values_from_function 1", "css24_values_from_function_constant.py"),
    ("PSS", "experimental_distribute_values_from_function 2", "css24_values_from_function_replica_id.py"),
    ("PSS", "experimental_distribute_values_from_function 3", "css24_values_from_function_num_replicas.py"),
    ("PSS", "experimental_distribute_values_from_function 4", "css24_values_from_function_placed.py"),
    ("PSS", "gather 1", "css24_gather.py"),
    ("PSS", "gather 2", "css24_gather_axes.py"),
    ("PSS", "reduce 1", "ods_reduce.py"),
    ("PSS", "reduce 2 (devices)", "ods_reduce_devices.py"),
    ("PSS", "reduce: What should axis be?", "ods_reduce_axis.py"),
    ("PSS", "run 1: constant tensor input", "ods_run_constant.py"),
    ("PSS", "run 2: DistributedValues input", "ods_run_distributed_values.py"),
    ("PSS", "run 3: all_reduce", "ods_run_all_reduce.py"),
    ("PSS", "scope", "css24_scope.py"),
    ("tutorial", "Custom training with tf.distribute.Strategy", "tutorial_custom_training.py"),
    ("tutorial", "Parameter server training with ParameterServerStrategy", "tutorial_parameter_server_training.py"),
    ("tutorial", "Distributed training with Keras", "tutorial_keras_distributed.py"),
    ("guide", "Customizing what happens in fit()", "guide_customizing_fit.py"),
    ("guide", "The Functional API", "guide_functional_api.py"),
    ("guide", "Making new layers and models via subclassing", "guide_subclassing.py"),
    ("guide", "Writing a training loop from scratch", "guide_training_loop.py"),
    ("guide", "Transfer learning & fine-tuning", "guide_transfer_learning.py"),
]

_DOC_LABEL = {"CSS24": "CSS24", "CSS20": "CSS20", "ODS": "ODS", "PSS": "PSS r2.4", "translated": "translated",
              "tutorial": "TF tutorial", "guide": "Keras guide"}


def tf_slice(names) -> list[str]:
    """The examples the default run also runs under real TF: the first of each family of short
    examples (css20, css24, guide, ods, pss, translated; the tutorials train for a minute or more
    under TF). Every example's expected output was observed on TF 2.21; the whole set, tutorials
    included, re-runs under TF with `-m slow` (each one is a TF process of 5-15 s of CPU or more)."""
    first: dict[str, str] = {}
    for name in sorted(names):
        if not name.startswith("tutorial_"):
            first.setdefault(name.split("_", 1)[0], name)
    return sorted(first.values())


def _params(backend_mark=None):
    out = []
    live = set(tf_slice(EXAMPLES))
    for name in EXAMPLES:
        marks = []
        if backend_mark == "simdist" and deviation(name):
            marks.append(pytest.mark.xfail(strict=True, reason="simdist deviates from TF 2.21: " + deviation(name)))
        if backend_mark == "tensorflow" and name not in live:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(name, id=name[:-3], marks=marks))
    return out


def _diff(name: str, got: str, want: str) -> str:
    import difflib
    return f"{name}: output differs from TF 2.21's\n" + "".join(
        difflib.unified_diff(want.splitlines(True), got.splitlines(True), "expected (TF 2.21)", "got"))


# -- inventory -----------------------------------------------------------------------------------

# Worker programs of multi-worker tutorials: one process cannot run them alone (each worker needs
# its TF_CONFIG and its peers), so their differential tests launch them (simdist launch / two TF
# worker processes) in the module named here.
MULTI_WORKER = {"tutorial_multi_worker_ctl.py": "tests/strategies/test_multi_worker_tutorial.py"}


def test_inventory():
    """Every program is listed, every listed program exists, and its header names its sources."""
    on_disk = {p.name for p in EXAMPLES_DIR.glob("*.py") if not p.name.startswith("_")} - set(MULTI_WORKER)
    for name, test in MULTI_WORKER.items():
        header = (EXAMPLES_DIR / name).read_text().split("\nfrom _backend import", 1)[0]
        assert header.startswith("# Source: TF tutorial") and "Documented output" in header and test in header, \
            f"{name}: header must name its TF tutorial, its documented output and its test {test}"
        assert (ROOT / test).is_file(), f"{name}: its test {test} does not exist"
    assert on_disk == set(EXAMPLES), f"unlisted: {sorted(on_disk - set(EXAMPLES))}, " \
                                     f"missing: {sorted(set(EXAMPLES) - on_disk)}"
    assert {f for _, _, f in INVENTORY} == set(EXAMPLES)
    for doc, section, f in INVENTORY:
        header = (EXAMPLES_DIR / f).read_text().split("\nfrom _backend import", 1)[0]
        assert header.startswith("# Source:"), f"{f}: header must start with '# Source:'"
        assert "Documented output" in header, f"{f}: header must quote the documented output"
        assert _DOC_LABEL[doc] in header, f"{f}: header does not name {doc} ({section})"
    for name, e in EXAMPLES.items():
        text = (EXAMPLES_DIR / name).read_text()
        assert "from _backend import tf, B" in text, f"{name}: must start with the shared prelude"
        assert e.same_as is None or e.same_as in EXAMPLES


# -- simdist ---------------------------------------------------------------------------------------

def run_in_process(name: str) -> str:
    """Run docs/examples/<name> with simdist in this process; return its stdout (and the
    traceback, if it raised)."""
    import simdist
    simdist.reset()
    _reset_keras()
    saved_env, saved_path, saved_argv = dict(os.environ), list(sys.path), list(sys.argv)
    sys.modules.pop("_backend", None)
    os.environ["SIMDIST_EXAMPLE_BACKEND"] = "simdist"
    sys.path.insert(0, str(EXAMPLES_DIR))
    sys.argv = [str(EXAMPLES_DIR / name)]
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            try:
                runpy.run_path(str(EXAMPLES_DIR / name), run_name="__main__")
            except BaseException:  # noqa: BLE001 - the traceback becomes part of the output
                print(traceback.format_exc())
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        sys.path[:] = saved_path
        sys.argv = saved_argv
        sys.modules.pop("_backend", None)
        simdist.reset()
        _reset_keras()
    return buf.getvalue()


def _reset_keras() -> None:
    """Keras's process-wide state as a fresh process has it (an example runs in a process of its
    own on TF): names counted from "dense" again, floatx float32, no cached dtype policy."""
    if "simdist.keras" not in sys.modules:
        return
    from simdist.keras import backend, config
    config.set_floatx("float32")
    config.set_epsilon(1e-7)
    backend.clear_session()


@pytest.mark.parametrize("name", _params("simdist"))
def test_example_on_simdist(name):
    got, want = run_in_process(name), expected_output(name)
    assert got == want, _diff(name, got, want)


GUIDES = [f for doc, _, f in INVENTORY if doc == "guide"]


@pytest.mark.clause("keras.model.call")
def test_the_five_keras_guides_run_on_simdist_as_on_tf():
    """The Keras guides' patterns (clause keras.model.call, its "Keras guides" paragraph): every guide example prints TF 2.21's output."""
    assert len(GUIDES) == 5, f"expected the five Keras guides of issue 27, found {GUIDES}"
    failures = [_diff(name, got, expected_output(name)) for name in GUIDES
                if (got := run_in_process(name)) != expected_output(name)]
    assert not failures, "\n".join(failures)


# -- TensorFlow 2.21 -------------------------------------------------------------------------------

_HAVE_TF = importlib.util.find_spec("tensorflow") is not None
TF_TIMEOUT_S = 600


def run_subprocess(name: str, backend: str = "tensorflow") -> subprocess.CompletedProcess:
    env = dict(os.environ, SIMDIST_EXAMPLE_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    return subprocess.run([sys.executable, str(EXAMPLES_DIR / name)], cwd=str(EXAMPLES_DIR), env=env,
                          capture_output=True, text=True, timeout=TF_TIMEOUT_S)


@pytest.fixture(scope="session")
def tf_runs(request):
    """Start every selected TF example at once (a few processes at a time); tests wait for theirs."""
    selected = [item.callspec.params["name"] for item in request.session.items
                if getattr(item, "originalname", None) == "test_example_on_tensorflow"
                and hasattr(item, "callspec")]
    workers = max(1, min(4, (os.cpu_count() or 2) + 1))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)
    futures = {name: pool.submit(run_subprocess, name) for name in dict.fromkeys(selected)}
    yield futures
    pool.shutdown(wait=False, cancel_futures=True)


@pytest.mark.tf
@pytest.mark.skipif(not _HAVE_TF, reason="needs the `tf` extra (tensorflow-cpu 2.21)")
@pytest.mark.parametrize("name", _params("tensorflow"))
def test_example_on_tensorflow(name, tf_runs):
    proc = tf_runs[name].result() if name in tf_runs else run_subprocess(name)
    assert proc.returncode == 0, f"{name} exited with {proc.returncode}:\n{proc.stderr[-3000:]}"
    want = expected_output(name)
    assert proc.stdout == want, _diff(name, proc.stdout, want)
