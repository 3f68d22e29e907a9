"""The worker program of tests/strategies/test_multi_worker.py: every MWMS rule it checks, printed
as `key: value` lines, run by each worker (real TF 2.21 processes, or simdist's launch). `tf` is
the backend's module; `index` the worker's TF_CONFIG index."""

import json
import os

import numpy as np


def run(tf):
    out = []

    def show(key, value):
        out.append(f"{key}: {value}")

    index = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
    s = tf.distribute.MultiWorkerMirroredStrategy()
    e = s.extended
    show("worker_devices", e.worker_devices)
    show("num_replicas_in_sync", s.num_replicas_in_sync)
    show("should_checkpoint/save_summary/experimental_should_init",
         (e.should_checkpoint, e.should_save_summary, e.experimental_should_init))
    show("task", (e._task_type, e._task_id, s.cluster_resolver.task_type, s.cluster_resolver.task_id))
    show("between_graph", e.experimental_between_graph)
    with s.scope():
        v = tf.Variable(float(index + 10))
    show("variable", (type(v).__name__, float(v.numpy()), v.device))

    def fn():
        ctx = tf.distribute.get_replica_context()
        rid = ctx.replica_id_in_sync_group
        x = tf.cast(rid, tf.float32) + 1.0 + 10.0 * index
        return ctx.all_reduce("SUM", x), ctx.all_gather(tf.reshape(x, [1]), 0), rid, x

    total, gathered, rid, x = s.run(fn)
    show("run all_reduce", float(total))
    show("run all_gather", gathered.numpy().tolist())
    show("replica_id_in_sync_group", int(rid))
    show("reduce SUM", float(s.reduce("SUM", x, axis=None)))
    show("reduce MEAN", float(s.reduce("MEAN", x, axis=None)))
    show("reduce SUM of a plain value", float(s.reduce("SUM", tf.constant(float(index + 1)), axis=None)))
    ones = s.run(lambda: tf.fill([2], tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                               tf.float32)))
    show("gather", s.gather(ones, axis=0).numpy().tolist())
    dist = s.experimental_distribute_dataset(tf.data.Dataset.range(12).batch(4))
    show("experimental_distribute_dataset", [s.experimental_local_results(b)[0].numpy().tolist() for b in dist])
    contexts = []

    def dataset_fn(ctx):
        contexts.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                         ctx.get_per_replica_batch_size(8)))
        return tf.data.Dataset.range(10).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(2)

    dist2 = s.distribute_datasets_from_function(dataset_fn)
    show("distribute_datasets_from_function", [s.experimental_local_results(b)[0].numpy().tolist() for b in dist2])
    show("InputContext", contexts)
    # a custom training step on a Keras model: the all-reduced gradients, the metric over all workers
    with s.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        model.set_weights([np.full((3, 2), 0.1 * (index + 1), np.float32), np.zeros(2, np.float32)])
        opt = tf.keras.optimizers.SGD(0.5)
        acc = tf.keras.metrics.Mean()
    data = tf.data.Dataset.from_tensor_slices(
        (np.arange(24, dtype=np.float32).reshape(8, 3) / 10, np.arange(16, dtype=np.float32).reshape(8, 2) / 8)
    ).batch(4)

    @tf.function
    def step(batch):
        def replica(xy):
            xb, yb = xy
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(tf.reduce_sum((model(xb) - yb) ** 2, axis=1), global_batch_size=4)
            opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            acc.update_state(loss)
            return loss
        return s.reduce("SUM", s.run(replica, args=(batch,)), axis=None)

    losses = [float(step(b)) for b in s.experimental_distribute_dataset(data)]
    show("custom loop losses", [round(x, 6) for x in losses])
    show("custom loop kernel", np.round(model.get_weights()[0], 6).tolist())
    show("metric over workers", round(float(acc.result()), 6))
    x8 = np.ones((8, 3), np.float32)
    show("predict shape", tuple(model.predict(x8, verbose=0).shape))
    model.compile(optimizer="sgd", loss="mse")
    for name, call in [("fit", lambda: model.fit(x8, np.ones((8, 2), np.float32), epochs=1, verbose=0)),
                       ("train_on_batch", lambda: model.train_on_batch(x8, np.ones((8, 2), np.float32)))]:
        try:
            call()
            show(name, "ok")
        except Exception as exc:  # noqa: BLE001 - the class is the observation
            show(name, type(exc).__name__)
    return out


if __name__ == "__main__":   # a real TF 2.21 worker: TF_CONFIG comes from the environment
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow
    tensorflow.get_logger().setLevel("ERROR")
    print("RESULT " + json.dumps(run(tensorflow)), flush=True)
