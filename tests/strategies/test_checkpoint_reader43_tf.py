"""tf.train's checkpoint readers over a program's own checkpoints against TF 2.21 (the forty-third session,
clause checkpoint.latest): load_checkpoint (a CheckpointReader: get_variable_to_shape_map /
get_variable_to_dtype_map / get_tensor / has_tensor / debug_string), list_variables, load_variable,
get_checkpoint_state (a CheckpointState message), checkpoints_iterator with a timeout, and the keys TF gives the
variables of a tf.train.Checkpoint's object graph (Keras 3 Sequential / Functional / subclassed models, a
compiled model's optimizer, containers, nested checkpoints, tf.Module, tf.random.Generator, a variable
reached twice).

Each case is one program, the same on both backends, returning plain Python values (a raised error is its
class and message, the work directory shown as "WD"); TF runs it in a worker process (live or from the golden).
Saved floating values after training are compared with a tolerance (`values` entries: rtol 1e-3, atol 1e-4;
BatchNormalization's moving mean after 4 steps amplifies float32 last-bit differences of the kernels to ~5e-5),
all else exactly.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any], wd: str = "") -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e).replace(wd, "WD") if wd else str(e)]


def _keys(tf: Any, wd: str, tag: str, **objects: Any) -> list:
    path = tf.train.Checkpoint(**objects).write(os.path.join(wd, tag))
    return [[k, s] for k, s in tf.train.list_variables(path)]


def _trained(tf: Any) -> Any:
    keras = tf.keras
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, use_bias=False),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(0.01)
    model.compile(opt, "mse", metrics=["mae"])
    x = (np.arange(12, dtype=np.float32).reshape(4, 3) / 8).astype(np.float32)
    model.fit(x, np.ones((4, 1), np.float32), verbose=0, epochs=2, batch_size=2)
    return model, opt


def reader_of_a_training_checkpoint(tf: Any, wd: str) -> Any:
    model, opt = _trained(tf)
    ck = tf.train.Checkpoint(model=model, optimizer=opt, v=tf.Variable([1.0, 2.0]), lst=[tf.Variable(3)],
                             dct={"a": tf.Variable(4.0, dtype=tf.float64), "b": tf.Variable([True, False])},
                             h=tf.Variable([1.5, -2.0], dtype=tf.float16))
    path = ck.save(os.path.join(wd, "ck"))
    r = tf.train.load_checkpoint(path)
    shapes, dts = r.get_variable_to_shape_map(), r.get_variable_to_dtype_map()
    out: dict[str, Any] = {"reader": type(r).__name__, "keys": sorted(shapes),
                           "shapes": {k: list(v) for k, v in shapes.items()},
                           "dtypes": {k: d.name for k, d in dts.items()}}
    got = {k: r.get_tensor(k) for k in sorted(shapes)}
    out["types"] = {k: type(v).__name__ for k, v in got.items()}
    out["values"] = {k: np.asarray(v, np.float64).tolist() for k, v in got.items()
                     if k != "_CHECKPOINTABLE_OBJECT_GRAPH"}
    out["list_variables"] = [[k, s] for k, s in tf.train.list_variables(wd)]
    out["load_variable"] = [repr(tf.train.load_variable(wd, "v/.ATTRIBUTES/VARIABLE_VALUE:0")),
                            repr(tf.train.load_variable(path, "save_counter/.ATTRIBUTES/VARIABLE_VALUE"))]
    out["debug_string"] = r.debug_string().decode()
    return out


def object_graph_keys(tf: Any, wd: str) -> Any:
    keras = tf.keras
    model, opt = _trained(tf)
    out: dict[str, Any] = {"compiled model": _keys(tf, wd, "a", model=model),
                           "model and optimizer": _keys(tf, wd, "b", model=model, optimizer=opt)}

    class Sub(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.d1 = keras.layers.Dense(2)
            self.blocks = [keras.layers.Dense(3), keras.layers.Dense(1)]

        def call(self, x: Any) -> Any:
            return self.blocks[1](self.blocks[0](self.d1(x)))
    m = Sub()
    m(np.ones((1, 3), np.float32))
    out["subclassed, a list of layers"] = _keys(tf, wd, "c", m=m)
    i = keras.Input((3,))
    x = keras.layers.LayerNormalization()(keras.layers.Dense(2)(i))
    o = keras.layers.Embedding(5, 2)(keras.ops.cast(x, "int32"))
    out["functional"] = _keys(tf, wd, "d", f=keras.Model(i, o))
    out["nested checkpoint"] = _keys(tf, wd, "e", z=tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable([1, 2])),
                                     y=tf.Variable(2.0))
    out["generator"] = _keys(tf, wd, "f", g=tf.random.Generator.from_seed(1))
    v = tf.Variable(1.0)
    out["shared, escaped names"] = _keys(tf, wd, "g", a=[v], b=v, c={"x": v, "y.z/w": tf.Variable(2)})

    class Mod(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = tf.Variable(tf.zeros([2, 2]))
            self.sub = [tf.Variable(1.0)]
            self.d = {"k": tf.Variable(3)}
    out["tf.Module"] = _keys(tf, wd, "h", mod=Mod())
    return out


def layer_zoo_keys(tf: Any, wd: str) -> Any:
    """The keys of a Sequential holding one layer of each kind (TF's names are Keras 3's attribute names:
    `_kernel`, `bias`, `cell`, `forward_layer`, ...), a Functional with Dropout, and a MultiHeadAttention."""
    keras = tf.keras
    L = keras.layers
    zoo = {"conv2d": (lambda: L.Conv2D(2, 3), (1, 5, 5, 2)), "conv1d": (lambda: L.Conv1D(2, 2), (1, 4, 3)),
           "depthwise": (lambda: L.DepthwiseConv2D(3), (1, 5, 5, 2)), "batchnorm": (lambda: L.BatchNormalization(), (2, 3)),
           "layernorm": (lambda: L.LayerNormalization(), (2, 3)), "embedding": (lambda: L.Embedding(4, 2), None),
           "lstm": (lambda: L.LSTM(2), (1, 3, 2)), "gru": (lambda: L.GRU(2), (1, 3, 2)),
           "simplernn": (lambda: L.SimpleRNN(2), (1, 3, 2)), "bidirectional": (lambda: L.Bidirectional(L.LSTM(2)), (1, 3, 2)),
           "dense without bias": (lambda: L.Dense(2, use_bias=False), (1, 3)), "prelu": (lambda: L.PReLU(), (1, 3)),
           "conv2dtranspose": (lambda: L.Conv2DTranspose(2, 3), (1, 4, 4, 2)),
           "separable": (lambda: L.SeparableConv2D(2, 3), (1, 5, 5, 2)),
           "groupnorm": (lambda: L.GroupNormalization(groups=1), (2, 4)),
           "einsumdense": (lambda: L.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"), (1, 3))}
    out: dict[str, Any] = {}
    for name, (make, shape) in zoo.items():
        keras.backend.clear_session()
        inp = keras.Input((2,), dtype="int32") if shape is None else keras.Input(shape[1:])
        out[name] = attempt(lambda: _keys(tf, wd, name.replace(" ", "_"), model=keras.Sequential([inp, make()])))
    i = keras.Input((3,))
    o = L.Dense(1)(L.Dropout(0.5)(L.Dense(4)(i)))
    out["functional with dropout"] = _keys(tf, wd, "functional", model=keras.Model(i, o))
    mha = L.MultiHeadAttention(num_heads=2, key_dim=2)
    q = np.ones((1, 2, 3), np.float32)
    mha(q, q)
    out["multi-head attention"] = _keys(tf, wd, "mha", layer=mha)
    return out


def reader_errors_and_state(tf: Any, wd: str) -> Any:
    ck = tf.train.Checkpoint(s=tf.Variable(2.5))
    out: dict[str, Any] = {"no state yet": tf.train.get_checkpoint_state(wd) is None,
                           "empty directory": attempt(lambda: tf.train.load_checkpoint(wd), wd),
                           "no file": attempt(lambda: tf.train.load_checkpoint(os.path.join(wd, "nofile")), wd),
                           "load_variable of nothing": attempt(lambda: tf.train.list_variables(wd), wd)}
    path = ck.save(os.path.join(wd, "x"))
    r = tf.train.load_checkpoint(wd)
    out["missing key"] = attempt(lambda: r.get_tensor("nope"))
    out["int key"] = attempt(lambda: r.get_tensor(5))
    out["bytes key"] = attempt(lambda: repr(r.get_tensor(b"s/.ATTRIBUTES/VARIABLE_VALUE")))
    out["has_tensor"] = [r.has_tensor("s/.ATTRIBUTES/VARIABLE_VALUE"), r.has_tensor(b"s/.ATTRIBUTES/VARIABLE_VALUE"),
                         r.has_tensor("s/.ATTRIBUTES/VARIABLE_VALUE:0"), r.has_tensor("nope")]
    out["has_tensor(int)"] = attempt(lambda: r.has_tensor(5))
    st = tf.train.get_checkpoint_state(wd)
    out["state"] = [type(st).__name__, str(st).replace(wd, "WD"), st.model_checkpoint_path == path,
                    [p.replace(wd, "WD") for p in st.all_model_checkpoint_paths],
                    list(st.all_model_checkpoint_timestamps), st.last_preserved_timestamp]
    out["state, other file name"] = tf.train.get_checkpoint_state(wd, "other") is None
    with open(os.path.join(wd, "checkpoint"), "w") as f:
        f.write("all_model_checkpoint_paths: \"x-1\"\n")
    out["state without a model path"] = attempt(lambda: tf.train.get_checkpoint_state(wd), wd)
    with open(os.path.join(wd, "checkpoint"), "w") as f:
        f.write("this is not a state\n")
    out["unparsable state"] = tf.train.get_checkpoint_state(wd) is None
    d2 = tempfile.mkdtemp(dir=wd)
    ck2 = tf.train.Checkpoint(s=tf.Variable(1.0))
    mgr = tf.train.CheckpointManager(ck2, d2, max_to_keep=2)
    for _ in range(3):
        mgr.save()
    st2 = tf.train.get_checkpoint_state(d2)
    out["manager state"] = [st2.model_checkpoint_path.replace(d2, "D2"),
                            [p.replace(d2, "D2") for p in st2.all_model_checkpoint_paths]]
    return out


def iterate_checkpoints(tf: Any, wd: str) -> Any:
    ck = tf.train.Checkpoint(s=tf.Variable(2.5))
    prefix = os.path.join(wd, "x")
    out: dict[str, Any] = {"none yet": list(tf.train.checkpoints_iterator(wd, timeout=0))}
    ck.save(prefix)
    it = tf.train.checkpoints_iterator(wd, timeout=0)
    first = next(it).replace(wd, "WD")
    ck.save(prefix)
    second = next(it).replace(wd, "WD")
    out["one at a time"] = [first, second, list(it)]
    calls: list[int] = []

    def saves_once() -> bool:
        calls.append(1)
        if len(calls) <= 2:
            ck.s.assign_add(1.0)
            ck.save(prefix)
            return False
        return True
    seen = [(p.replace(wd, "WD"), float(tf.train.load_variable(p, "s/.ATTRIBUTES/VARIABLE_VALUE")))
            for p in tf.train.checkpoints_iterator(wd, timeout=0, timeout_fn=saves_once, min_interval_secs=0)]
    out["timeout_fn"] = [seen, len(calls)]
    return out


PROGRAMS: dict[str, Callable[[Any, str], Any]] = {
    "reader-training-checkpoint": reader_of_a_training_checkpoint, "object-graph-keys": object_graph_keys,
    "layer-zoo-keys": layer_zoo_keys,
    "reader-errors-state": reader_errors_and_state, "checkpoints-iterator": iterate_checkpoints}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf, workdir)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("checkpoint.latest")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_checkpoint_reader_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    if "values" in want:
        assert sorted(got["values"]) == sorted(want["values"]), \
            f"{name}: simdist saved {sorted(got['values'])}, TF 2.21 {sorted(want['values'])}"
        for k, w in want["values"].items():
            tf_programs.close(got["values"][k], w, f"{name}: {k}", rtol=1e-3, atol=1e-4)
    bad = [k for k in want if k != "values" and got[k] != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
