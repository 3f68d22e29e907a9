"""Fact c: Keras 3.15 model APIs under a 2-worker MultiWorkerMirroredStrategy (TF 2.21).

    python docs/tools/mwms_facts/keras_mwms.py [--workers 2]
    python docs/tools/mwms_facts/keras_mwms.py --local     (this process, no TF_CONFIG)

Each worker builds and compiles a Dense(1) model (kernel 0.5, bias 0) inside the strategy's
scope, then calls, in this order: predict, a custom training loop step (strategy.run of a
GradientTape step with the Keras model and an SGD(0.1) optimizer), fit, evaluate, train_on_batch,
test_on_batch. One ``CALL name -> result`` or ``CALL name -> ErrorClass: message`` line each.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _msg(e: BaseException) -> str:
    return " | ".join(ln.strip() for ln in str(e).splitlines() if ln.strip())[:700]


def worker() -> None:
    import numpy as np
    import tensorflow as tf
    import keras

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
            1, kernel_initializer=keras.initializers.Constant(0.5), bias_initializer="zeros")])
        opt = keras.optimizers.SGD(0.1)
        model.compile(optimizer=opt, loss="mse")
    x = np.arange(16, dtype="float32").reshape(8, 2) / 10.0
    y = np.ones((8, 1), dtype="float32")

    def call(name, fn):
        try:
            out = fn()
            print(f"CALL {name} -> {out}", flush=True)
        except Exception as e:  # noqa: BLE001 - the observation
            print(f"CALL {name} -> {type(e).__name__}: {_msg(e)}", flush=True)

    call("predict", lambda: model.predict(x, batch_size=4, verbose=0).ravel().round(4).tolist())

    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))

    @tf.function
    def train_step(xb, yb):
        def fn(xr, yr):
            with tf.GradientTape() as tape:
                pred = model(xr, training=True)
                per = tf.reduce_mean(tf.square(pred - yr), axis=-1)
                loss = tf.nn.compute_average_loss(per, global_batch_size=4)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        return strategy.reduce("SUM", strategy.run(fn, args=(xb, yb)), axis=None)

    def loop():
        losses = [round(float(train_step(xb, yb)), 6) for xb, yb in ds]
        return {"losses": losses, "kernel": model.layers[0].kernel.numpy().ravel().round(6).tolist()}

    call("custom_loop", loop)
    call("fit", lambda: model.fit(x, y, batch_size=4, epochs=1, verbose=0).history)
    call("evaluate", lambda: model.evaluate(x, y, batch_size=4, verbose=0))
    call("train_on_batch", lambda: model.train_on_batch(x[:4], y[:4]))
    call("test_on_batch", lambda: model.test_on_batch(x[:4], y[:4]))


def main() -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--local", action="store_true", help="run one client here, without TF_CONFIG")
    a = p.parse_args()
    if "TF_CONFIG" in os.environ or a.local:
        if a.local:
            os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
            os.environ["CUDA_VISIBLE_DEVICES"] = ""
        worker()
        return
    sys.path.insert(0, HERE)
    import cluster

    cluster.run(os.path.abspath(__file__), a.workers, False, [], timeout=240, grep=("CALL", "Traceback"))


if __name__ == "__main__":
    main()
