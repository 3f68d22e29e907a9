"""The programs of test_csweep65.py: a checkpoint's restore status and the values restored, crossed by what was saved,
the state of the restoring side and the status API; CheckpointManager by option value; the readers' keys.

Saved (tf.train.Checkpoint, written by `write` or `save`): nothing, a tf.Variable, a keras.Variable, a list and a
dict of variables, nested trackables (a tf.Module with a child and a nested Checkpoint), a built model alone, a
compiled model trained one step (its optimizer reached through it), an optimizer alone before and after a step, a
model and its optimizer before and after a step. Restoring: an empty Checkpoint, the same structure, a variable of
another shape, the same structure plus an extra variable, fewer variables, another name, the unbuilt form (a
Sequential without an input, an optimizer not built), and path None or missing; each by `restore` and `read`, then
every status method (assert_consumed, assert_existing_objects_matched, assert_nontrivial_match, expect_partial,
run_restore_ops, initialize_or_restore) and the status's class, the values restored, and after a later build
(deferred restoration) the values and the assertions again. Errors are "raised <class>" and, for an assertion, the
key phrase of TF's message. Floats are the hex of their values, paths relative to each program's directory."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, reference_cpu,
                                                         rng)

PATH = os.path.join(os.path.dirname(__file__), "csweep65_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: the key phrases of TF 2.21's status messages (checkpoint.py), the first found is recorded
_PHRASES = ("not bound to checkpointed values", "Unresolved object in checkpoint", "Unused attributes",
            "Nothing to load", "Nothing except the root object matched", "No checkpoint specified",
            "slot variables")

#: where simdist and TF 2.21 disagree, left out: (program, case key prefix, the evidence) (docs/conformance.md)
OPEN: tuple[tuple[str, str, str], ...] = ()


def err(fn: Callable[[], Any]) -> Any:
    """fn's result, or "raised <class>" with the key phrase of an AssertionError's message."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class (and the phrase) is the observation
        name = f"raised {type(e).__name__}"
        if isinstance(e, AssertionError):
            phrase = next((p for p in _PHRASES if p in str(e)), "other")
            return f"{name}: {phrase}"
        return name


class Dir:
    """A temporary directory; `rel(path)` gives a path relative to it (what is recorded)."""

    def __enter__(self) -> "Dir":
        self.path = tempfile.mkdtemp(prefix="csweep65_")
        return self

    def __exit__(self, *exc: Any) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def __call__(self, *parts: str) -> str:
        return os.path.join(self.path, *parts)

    def rel(self, p: Any) -> Any:
        if p is None:
            return None
        if isinstance(p, (list, tuple)):
            return [self.rel(q) for q in p]
        return os.path.relpath(str(p), self.path)


def _vals(name: str, shape: tuple[int, ...]) -> np.ndarray:
    return (rng(name).standard_normal(shape) * 0.5).astype(np.float32)


def _fixed(seed: str) -> Callable[..., Any]:
    def init(shape: Any, dtype: Any = None) -> np.ndarray:
        return _vals(f"{seed}/{tuple(shape)}", tuple(shape))
    return init


def _model(tf: Any, seed: str, built: bool = True, units: int = 2) -> Any:
    k = tf.keras
    layers = [k.layers.Dense(3, activation="tanh", kernel_initializer=_fixed(f"{seed}/d1"), name="d1"),
              k.layers.Dense(units, kernel_initializer=_fixed(f"{seed}/d2"), name="d2")]
    return k.Sequential(([k.Input((4,))] if built else []) + layers, name="m")


def _data(name: str) -> tuple[np.ndarray, np.ndarray]:
    r = rng(name)
    return r.standard_normal((4, 4)).astype(np.float32), r.standard_normal((4, 2)).astype(np.float32)


def _step(tf: Any, model: Any, opt: Any, name: str) -> None:
    """One custom-loop step of `opt` on `model` (mse)."""
    x, y = _data(name)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


def _module(tf: Any, seed: str) -> Any:
    outer = tf.Module(name="outer")
    outer.w = tf.Variable(_vals(f"{seed}/w", (2,)))
    outer.child = tf.Module(name="child")
    outer.child.v = tf.Variable(_vals(f"{seed}/v", (3,)))
    return outer


# -- what is saved: kind -> a function (tf, seed) giving the Checkpoint's keyword objects ----------------------------
def _saved_objects(tf: Any, kind: str, seed: str) -> dict[str, Any]:
    k = tf.keras
    if kind == "nothing":
        return {}
    if kind == "tf_var":
        return {"x": tf.Variable(_vals(f"{seed}/x", (2,)))}
    if kind == "keras_var":
        return {"x": k.Variable(_vals(f"{seed}/x", (2,)))}
    if kind == "list":
        return {"x": [tf.Variable(_vals(f"{seed}/a", (2,))), tf.Variable(_vals(f"{seed}/b", (3,)))]}
    if kind == "dict":
        return {"x": {"a": tf.Variable(_vals(f"{seed}/a", (2,))), "b": tf.Variable(_vals(f"{seed}/b", (3,)))}}
    if kind == "module":
        return {"x": _module(tf, seed)}
    if kind == "nested_ck":
        return {"x": tf.train.Checkpoint(w=tf.Variable(_vals(f"{seed}/w", (2,))),
                                         inner=tf.train.Checkpoint(v=tf.Variable(_vals(f"{seed}/v", (3,)))))}
    if kind == "model":
        return {"model": _model(tf, seed)}
    if kind == "model_fit":
        m = _model(tf, seed)
        m.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
        x, y = _data(f"{seed}/fit")
        m.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        return {"model": m}
    if kind in ("opt_built", "opt_stepped", "both_built", "both_stepped"):
        m = _model(tf, seed)
        opt = k.optimizers.Adam(0.01)
        if kind.endswith("built"):
            opt.build(m.trainable_variables)
        else:
            _step(tf, m, opt, f"{seed}/step")
        return {"optimizer": opt} if kind.startswith("opt") else {"model": m, "optimizer": opt}
    raise ValueError(kind)


SAVED = ("nothing", "tf_var", "keras_var", "list", "dict", "module", "nested_ck", "model", "model_fit", "opt_built",
         "opt_stepped", "both_built", "both_stepped")


# -- the restoring side: target -> (objects, the variables whose values are recorded, a later build or None) --------
def _target(tf: Any, kind: str, target: str, seed: str) -> tuple[dict[str, Any], Callable[[], list[Any]], Any]:
    k = tf.keras
    if target == "empty":
        return {}, lambda: [], None
    if target == "other_name":
        v = tf.Variable(np.zeros(2, np.float32))
        return {"y": v}, lambda: [v], None
    if target == "other_shape":   # every saved object's name, holding one variable of a shape nothing saved has
        v = tf.Variable(np.zeros(5, np.float32))
        name = "model" if kind.startswith(("model", "both")) else "optimizer" if kind.startswith("opt") else "x"
        return {name: v}, lambda: [v], None
    if kind in ("nothing", "tf_var", "keras_var", "list", "dict", "module", "nested_ck"):
        base = kind if kind != "nothing" else "tf_var"
        objs = _saved_objects(tf, base, f"{seed}/fresh")
        if target == "same":
            pass
        elif target == "extra":
            objs["extra"] = tf.Variable(np.zeros(2, np.float32))
        elif target == "fewer":
            x = objs["x"]
            if base == "list":
                objs["x"] = x[:1]
            elif base == "dict":
                objs["x"] = {"a": x["a"]}
            elif base == "module":
                objs["x"] = tf.Module(name="outer")
                objs["x"].w = x.w
            elif base == "nested_ck":
                objs["x"] = tf.train.Checkpoint(w=x.w)
            else:
                return {}, lambda: [], None
        elif target == "unbuilt":   # the object assigned to the Checkpoint after the restore (deferred restoration)
            held = objs.pop("x")
            holder: dict[str, Any] = {}

            def later(ck: Any) -> None:
                holder["v"] = held
                ck.x = held
            return dict(objs), lambda: _leaves(holder.get("v")), later
        return objs, lambda: _leaves(objs), None
    # models and optimizers
    built = target != "unbuilt"
    m = _model(tf, f"{seed}/fresh", built=built, units=(1 if target == "fewer" else 2))
    opt = k.optimizers.Adam(0.01)
    objs: dict[str, Any] = {}
    if kind in ("model", "model_fit", "both_built", "both_stepped"):
        objs["model"] = m
    if kind in ("opt_built", "opt_stepped", "both_built", "both_stepped"):
        objs["optimizer"] = opt
    if kind == "model_fit":
        m.compile(optimizer=opt, loss="mse")
    if target == "extra":
        objs["extra"] = tf.Variable(np.zeros(2, np.float32))
    if built and target != "fewer" and kind != "model":
        opt.build(m.trainable_variables)
    if target == "fewer" and kind != "model":
        opt.build(m.trainable_variables)

    def later(ck: Any) -> None:   # the unbuilt side built: a call, then one step's slots
        m(np.ones((1, 4), np.float32))
        if kind != "model":
            opt.build(m.trainable_variables)
    return objs, lambda: list(m.weights) + (list(opt.variables) if kind != "model" else []), \
        (later if not built else None)


def _leaves(obj: Any) -> list[Any]:
    if obj is None:
        return []
    if isinstance(obj, dict):
        return [v for key in sorted(obj) for v in _leaves(obj[key])]
    if isinstance(obj, (list, tuple)):
        return [v for o in obj for v in _leaves(o)]
    if hasattr(obj, "assign"):
        return [obj]
    if hasattr(obj, "trainable_variables") and not hasattr(obj, "_objects") and not hasattr(obj, "save_counter"):
        return sorted(obj.trainable_variables, key=lambda v: v.name)
    if hasattr(obj, "w"):   # a nested Checkpoint
        return [obj.w] + (_leaves(obj.inner.v) if hasattr(obj, "inner") else [])
    return []


TARGETS = ("empty", "other_name", "other_shape", "same", "extra", "fewer", "unbuilt")
CHECKS = ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match")


def _status(status: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"class": type(status).__name__}
    for m in CHECKS:
        out[m] = err(lambda: (getattr(status, m)(), "ok")[1])
    out["expect_partial"] = err(lambda: "self" if status.expect_partial() is status else type(
        status.expect_partial()).__name__)
    out["run_restore_ops"] = err(lambda: repr(status.run_restore_ops()))
    out["initialize_or_restore"] = err(lambda: repr(status.initialize_or_restore()))
    return out


def restore_program(kind: str) -> Callable[[Any, Any], Any]:
    """Program `c-restore-<kind>`: `kind` saved by write and save, restored into each target by restore and read."""
    def prog(tf: Any, mk: Any) -> Any:
        name = f"c-restore-{kind}"
        out: dict[str, Any] = {}
        with Dir() as d:
            saved = _saved_objects(tf, kind, name)
            ck = tf.train.Checkpoint(**saved)
            paths = {"write": ck.write(d("w", "ck")), "save": ck.save(d("s", "ck"))}
            out["paths"] = {w: d.rel(p) for w, p in paths.items()}
            out["keys"] = {w: [[n, list(s)] for n, s in tf.train.list_variables(p)
                               if n != "_CHECKPOINTABLE_OBJECT_GRAPH"] for w, p in paths.items()}
            for target in TARGETS:
                for wname in ("write", "save"):
                    for how in ("restore", "read"):
                        key = f"{target} {wname} {how}"
                        objs, values, later = _target(tf, kind, target, f"{name}/{key}")
                        res: dict[str, Any] = {}
                        ck2 = tf.train.Checkpoint(**objs)
                        st = err(lambda: getattr(ck2, how)(paths[wname]))
                        if isinstance(st, str):
                            res["restore"] = st
                        else:
                            res["status"] = _status(st)
                        res["values"] = err(lambda: [bits(v) for v in values()])
                        if later is not None and not isinstance(st, str):
                            res["later"] = err(lambda: (later(ck2), "ok")[1])
                            res["values_later"] = err(lambda: [bits(v) for v in values()])
                            res["status_later"] = {m: err(lambda: (getattr(st, m)(), "ok")[1]) for m in CHECKS}
                        if wname == "save" and how == "restore" and target == "same":
                            res["save_counter"] = err(lambda: int(ck2.save_counter.numpy()))
                        out[key] = res
        return out
    return prog


def nothing_program(tf: Any, mk: Any) -> Any:
    """Program `c-paths`: restore and read of None, a missing prefix, a directory and a directory's latest (None when
    it is empty) into an empty, a variable's and a model's Checkpoint; Model.load_weights of a missing .weights.h5,
    another suffix and a TF checkpoint prefix; tf.train.latest_checkpoint of an empty and a missing directory."""
    out: dict[str, Any] = {}
    with Dir() as d:
        os.makedirs(d("empty"))
        good = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(d("g", "ck"))
        where = {"none": lambda: None, "missing": lambda: d("nope", "ck"), "dir": lambda: d("g"),
                 "latest_empty": lambda: tf.train.latest_checkpoint(d("empty")),
                 "latest_missing": lambda: tf.train.latest_checkpoint(d("absent"))}
        for tname in ("empty", "var", "model"):
            for wname, path in where.items():
                for how in ("restore", "read"):
                    objs: dict[str, Any] = ({} if tname == "empty" else {"v": tf.Variable([0.0, 0.0])}
                                            if tname == "var" else {"model": _model(tf, "c-paths")})
                    ck = tf.train.Checkpoint(**objs)
                    st = err(lambda: getattr(ck, how)(path()))
                    out[f"{tname} {wname} {how}"] = st if isinstance(st, str) else _status(st)
        m = _model(tf, "c-paths/lw")
        m.save_weights(d("m.weights.h5"))
        for lname, p in (("missing_h5", d("nope.weights.h5")), ("other_suffix", d("m.ckpt")),
                         ("tf_prefix", good), ("h5_ok", d("m.weights.h5"))):
            m2 = _model(tf, "c-paths/lw2")
            out[f"load_weights {lname}"] = err(lambda: (m2.load_weights(p), bits(m2.weights[0]))[1])
        out["save_weights plain h5"] = err(lambda: (m.save_weights(d("m.h5")), "ok")[1])
        ck = tf.train.Checkpoint()
        ck.x = 3
        ck.x = tf.Variable([5.0, 6.0])
        out["attribute plain then variable"] = err(lambda: bits(ck.x))
        ck.y = tf.Variable(1.5)
        ck.y = 8   # (a plain value read back; the variable stays the dependency a save holds)
        p = ck.save(d("attr", "ck"))
        out["variable then plain"] = [err(lambda: ck.y), [[n, list(s)] for n, s in tf.train.list_variables(p)
                                                           if n != "_CHECKPOINTABLE_OBJECT_GRAPH"]]
        out["save_counter dtype"] = [ck.save_counter.dtype.name, int(ck.save_counter.numpy()),
                                     str(tf.train.load_variable(p, "save_counter/.ATTRIBUTES/VARIABLE_VALUE").dtype)]
        out["latest empty"] = d.rel(tf.train.latest_checkpoint(d("empty")))
        out["latest good"] = d.rel(tf.train.latest_checkpoint(d("g")))
    return out


def manager_program(option: str) -> Callable[[Any, Any], Any]:
    """Program `c-manager-<option>`: a CheckpointManager of one variable under one option, five saves (the variable
    and a step counter advancing by one each), its checkpoints, latest_checkpoint and the directory's latest after
    each, then a fresh manager on the directory: its lists, restore_or_initialize and the value restored."""
    def prog(tf: Any, mk: Any) -> Any:
        out: dict[str, Any] = {}
        with Dir() as d:
            v = tf.Variable(0.0)
            step = tf.Variable(0, dtype=tf.int64)
            ck = tf.train.Checkpoint(v=v, step=step)
            kw: dict[str, Any] = {"max_to_keep": 2}
            if option.startswith("keep"):
                kw["max_to_keep"] = {"keep_none": None, "keep_0": 0, "keep_1": 1, "keep_2": 2, "keep_neg": -1}[option]
            elif option == "hours":
                kw["keep_checkpoint_every_n_hours"] = 1e6
            elif option == "interval_no_counter":
                kw["checkpoint_interval"] = 2
            elif option.startswith("interval"):
                kw["step_counter"] = step
                kw["checkpoint_interval"] = int(option[-1])
            elif option == "name":
                kw["checkpoint_name"] = "model.ckpt"
            elif option == "init_fn":
                kw["init_fn"] = lambda: v.assign(7.0)
            mgr = err(lambda: tf.train.CheckpointManager(ck, d("m"), **kw))
            if isinstance(mgr, str):
                return {"make": mgr}
            out["init"] = [d.rel(mgr.checkpoints), d.rel(mgr.latest_checkpoint), mgr.checkpoint_interval,
                           d.rel(mgr.directory)]
            out["restore_or_initialize empty"] = [d.rel(err(mgr.restore_or_initialize)), bits(v)]
            for i in range(5):
                v.assign(float(i + 1) / 4)
                step.assign(i + 1 if not option.startswith("interval") else 2 * i)
                number = 10 + i if option == "numbered" else None
                check = not (option == "unchecked" and i == 2)
                p = err(lambda: mgr.save(checkpoint_number=number, check_interval=check))
                out[f"save {i}"] = [d.rel(p) if p is None or not str(p).startswith("raised") else p,
                                    d.rel(mgr.checkpoints), d.rel(mgr.latest_checkpoint),
                                    d.rel(tf.train.latest_checkpoint(d("m"))), int(ck.save_counter.numpy())]
            if option == "numbered":   # (the newest number again: listed once)
                v.assign(9.0)
                out["save again"] = [d.rel(mgr.save(checkpoint_number=14)), d.rel(mgr.checkpoints)]
            if option.startswith("interval") and "step_counter" in kw:   # (the step it last saved, unchecked)
                out["save same step"] = d.rel(mgr.save(check_interval=False))
            out["files"] = sorted({f.split(".")[0] for f in os.listdir(d("m")) if f != "checkpoint"})
            v2 = tf.Variable(-1.0)
            st2 = tf.Variable(0, dtype=tf.int64)
            kw2 = {k: val for k, val in kw.items() if k not in ("step_counter", "init_fn")}
            if "step_counter" in kw:
                kw2["step_counter"] = st2
            mgr2 = tf.train.CheckpointManager(tf.train.Checkpoint(v=v2, step=st2), d("m"), **kw2)
            out["reopen"] = [d.rel(mgr2.checkpoints), d.rel(mgr2.latest_checkpoint)]
            out["restore_or_initialize"] = [d.rel(mgr2.restore_or_initialize()), bits(v2), bits(st2)]
            if "step_counter" in kw2:
                st2.assign(st2 + 1)
                out["save after restore"] = d.rel(mgr2.save())
                st2.assign(st2 + 5)
                out["save later"] = d.rel(mgr2.save())
            newest = mgr2.latest_checkpoint
            for f in os.listdir(d("m")):   # (the newest checkpoint's files removed, its state entry kept)
                if newest is not None and os.path.join(d("m"), f).startswith(newest + "."):
                    os.remove(os.path.join(d("m"), f))
            out["latest after removal"] = d.rel(tf.train.latest_checkpoint(d("m")))
        return out
    return prog


MANAGER_OPTIONS = ("keep_none", "keep_0", "keep_1", "keep_2", "keep_neg", "hours", "interval_1", "interval_3",
                   "interval_no_counter", "name", "init_fn", "numbered", "unchecked")


def reader_program(tf: Any, mk: Any) -> Any:
    """Program `c-reader`: tf.train.list_variables (names, shapes, in TF's order) and load_variable of each saved
    kind's checkpoint, by prefix and by directory, and load_variable of a missing key."""
    out: dict[str, Any] = {}
    with Dir() as d:
        for kind in SAVED:
            p = tf.train.Checkpoint(**_saved_objects(tf, kind, f"c-reader/{kind}")).save(d(kind, "ck"))
            names = [[n, list(s)] for n, s in tf.train.list_variables(d(kind))]
            out[f"{kind} list"] = names
            out[f"{kind} values"] = {n: bits(tf.train.load_variable(p, n)) for n, _ in names
                                     if n != "_CHECKPOINTABLE_OBJECT_GRAPH"}
            out[f"{kind} missing"] = err(lambda: tf.train.load_variable(p, "nope"))
    return out


for _kind in SAVED:
    REF.add(f"c-restore-{_kind}", restore_program(_kind))
REF.add("c-paths", nothing_program)
for _opt in MANAGER_OPTIONS:
    REF.add(f"c-manager-{_opt}", manager_program(_opt))
REF.add("c-reader", reader_program)


def _fit_step(model: Any, name: str) -> None:
    x, y = _data(name)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)


def _weights(model: Any, opt: Any) -> list[Any]:
    return [bits(v) for v in list(model.weights) + list(opt.variables)]


def optimizer_paths_program(tf: Any, mk: Any) -> Any:
    """Program `c-optimizer-paths`: a compiled model trained by fit, saved by Checkpoint(model=m,
    optimizer=m.optimizer), by Checkpoint(model=m) and by Checkpoint(optimizer=m.optimizer), restored into:
    Checkpoint(model=uncompiled, optimizer=opt) driven by apply_gradients; Checkpoint(optimizer=compiled model's
    unbuilt optimizer) then fit; Checkpoint(model=compiled model, optimizer unbuilt) then fit; Checkpoint(optimizer=
    built optimizer) alone. Every assertion before and after the step, the values after the restore and the step."""
    k = tf.keras
    out: dict[str, Any] = {}
    with Dir() as d:
        m = _model(tf, "c-opt-paths/saved")
        m.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
        _fit_step(m, "c-opt-paths/fit")
        paths = {"both": tf.train.Checkpoint(model=m, optimizer=m.optimizer).save(d("both", "c")),
                 "model": tf.train.Checkpoint(model=m).save(d("model", "c")),
                 "opt": tf.train.Checkpoint(optimizer=m.optimizer).save(d("opt", "c"))}
        for sname, p in paths.items():
            for target in ("uncompiled_custom", "opt_of_compiled_fit", "compiled_fit", "opt_built_alone"):
                res: dict[str, Any] = {}
                m2 = _model(tf, f"c-opt-paths/{sname}/{target}")
                opt = k.optimizers.Adam(0.01)
                if target in ("opt_of_compiled_fit", "compiled_fit"):
                    m2.compile(optimizer=opt, loss="mse")
                if target == "opt_built_alone":
                    opt.build(m2.trainable_variables)
                objs = ({"model": m2, "optimizer": opt} if target == "uncompiled_custom" else
                        {"model": m2} if target == "compiled_fit" else {"optimizer": opt})
                st = err(lambda: tf.train.Checkpoint(**objs).restore(p))
                if isinstance(st, str):
                    out[f"{sname} {target}"] = st
                    continue
                res["status"] = _status(st)
                res["values"] = _weights(m2, opt)
                if target == "uncompiled_custom":
                    res["step"] = err(lambda: (_step(tf, m2, opt, "c-opt-paths/next"), "ok")[1])
                elif target != "opt_built_alone":
                    res["step"] = err(lambda: (_fit_step(m2, "c-opt-paths/next"), "ok")[1])
                res["after"] = {c: err(lambda: (getattr(st, c)(), "ok")[1]) for c in CHECKS}
                res["values_after"] = _weights(m2, opt)
                out[f"{sname} {target}"] = res
        # an optimizer saved before its build (SGD: no slots; Adam) or through a compiled model, read into a model
        # and a built optimizer, and into the built optimizer alone: its list of the model's variables is bound by
        # the model's path or by nothing
        for oname, make in (("sgd", lambda: k.optimizers.SGD(0.1)), ("adam", lambda: k.optimizers.Adam(0.1))):
            m = _model(tf, f"c-opt-paths/{oname}")
            opt = make()
            saved = {"both_unbuilt": tf.train.Checkpoint(model=m, optimizer=opt).write(d(oname, "u"))}
            opt.build(m.trainable_variables)
            saved["model_only"] = tf.train.Checkpoint(model=m).write(d(oname, "m"))
            for sname, p in saved.items():
                for target in ("model_and_built", "built_alone"):
                    m2 = _model(tf, f"c-opt-paths/{oname}/2")
                    o2 = make()
                    o2.build(m2.trainable_variables)
                    objs = {"model": m2, "optimizer": o2} if target == "model_and_built" else {"optimizer": o2}
                    out[f"{oname} {sname} {target}"] = _status(tf.train.Checkpoint(**objs).read(p))
    return out


def refusal_order_program(tf: Any, mk: Any) -> Any:
    """Program `c-refusal-order`: a checkpoint of several variables restored where one has another shape: TF
    assigns by sorted checkpoint key and stops at the refused one (the values before it restored, the rest not);
    names before and after the refused one, a list's element, a nested object, a model's second layer."""
    out: dict[str, Any] = {}
    with Dir() as d:
        cases = {"middle": ["a", "b*", "c"], "last_name_first": ["z", "b*", "a"], "first": ["a*", "b"],
                 "nested": ["n/x", "n/y*", "m", "o"], "listed": ["l/0", "l/1*", "l2", "k"]}
        for cname, names in cases.items():
            def build(shape_bad: int) -> tuple[dict[str, Any], dict[str, Any]]:
                leaves: dict[str, Any] = {}
                for i, n in enumerate(names):
                    bad = n.endswith("*")
                    leaves[n.rstrip("*")] = tf.Variable(np.full((3 if bad and shape_bad else 2,), float(i + 1),
                                                                np.float32))
                objs: dict[str, Any] = {}
                for n, v in leaves.items():
                    if n.startswith("n/"):
                        objs.setdefault("n", {})[n[2:]] = v
                    elif n.startswith("l/"):
                        objs.setdefault("l", []).append(v)
                    else:
                        objs[n] = v
                return objs, leaves
            saved, _ = build(0)
            p = tf.train.Checkpoint(**saved).write(d(cname))
            objs, leaves = build(1)
            for v in leaves.values():
                v.assign(tf.zeros_like(v))
            out[cname] = [err(lambda: (tf.train.Checkpoint(**objs).read(p), "ok")[1]),
                          {n: bits(v) for n, v in sorted(leaves.items())}]
        m = _model(tf, "c-refusal/m")
        p = tf.train.Checkpoint(model=m).write(d("model"))
        m2 = _model(tf, "c-refusal/m2", units=1)
        out["model"] = [err(lambda: (tf.train.Checkpoint(model=m2).read(p), "ok")[1]), [bits(w) for w in m2.weights]]
    return out


REF.add("c-optimizer-paths", optimizer_paths_program)
REF.add("c-refusal-order", refusal_order_program)
