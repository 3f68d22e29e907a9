"""The programs of test_ksweep64.py: checkpoints and weight files restored by a side in another build state than the
saving side. A compiled Keras model trained by fit is saved by tf.train.Checkpoint (model alone, model and
optimizer), save_weights (.weights.h5) and model.save (.keras), and restored into a fresh model that is built and
compiled with its optimizer unbuilt, compiled with the optimizer built, a Sequential without an input shape (its
layers built after the restore), uncompiled (compiled after the restore), or driven by a custom loop; then trained
one more step: weights, iterations, slots and learning rate after the restore and after the step, every status
assertion. Partial restores, mismatched variables, read/restore/write, CheckpointManager with the optimizer's
iterations as step counter, list_variables keys of Keras 3 models and optimizers, and strategies crossed. Floats
are the hex of their values, errors "raised <class>", paths relative to each program's temporary directory."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "ksweep64_reference.json.gz")

REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: where simdist and TF 2.21 disagree, left out of the recording: (program name pattern, path of the result left
#: out, the evidence); `_add` replaces them before the result is recorded or compared (docs/conformance.md ksweep64)
OPEN: tuple[tuple[str, str, str], ...] = (
    ("k-restore-*-ck_*", "seq_unbuilt/after",
     "a Sequential without an input shape restored from a tf.train.Checkpoint before it is built, its layers then "
     "built inside fit's first traced step: TF 2.21's step equals the uninterrupted one; simdist's first step's "
     "gradients differ in their last bits (restored values, slots and loss are TF's; building before fit, by a "
     "call or build(), or run_eagerly gives TF's / eager bits: the deferred assignment inside the trace changes "
     "the traced step)"),
    ("k-restore-*-ck_*", "seq_unbuilt/same_as_uninterrupted", "(the same)"),
    ("k-restore-*-ck_*", "seq_unbuilt/loss", "(the same: the epoch's second step's loss)"),
    ("k-dist-mirrored-default", "seq_unbuilt/after", "(the same, under the default strategy)"),
    ("k-dist-mirrored-default", "seq_unbuilt/copies", "(the same)"),
    ("k-dist-*-one", "seq_unbuilt/after", "the state a failed first-batch build leaves (the RuntimeError itself is "
     "recorded): TF 2.21's layers keep the variables the scratch-graph build made (initial values, unbound: "
     "assert_existing_objects_matched then fails), the model unbuilt; simdist refuses before making any"),
    ("k-dist-*-one", "seq_unbuilt/st_after", "(the same)"),
    ("k-dist-*-mirrored", "seq_unbuilt/after", "(the same)"),
    ("k-dist-*-mirrored", "seq_unbuilt/st_after", "(the same)"),
)


def _drop(out: Any, path: list[str]) -> None:
    import fnmatch
    if not path or not isinstance(out, dict):
        return
    for key in list(out):
        if fnmatch.fnmatch(key, path[0]):
            if len(path) == 1:
                out[key] = "left out (OPEN)"
            else:
                _drop(out[key], path[1:])


def _add(name: str, fn: Callable[[Any, Any], Any]) -> None:
    import fnmatch

    def run(tf: Any, mk: Any) -> Any:
        out = fn(tf, mk)
        for pat, key, _why in OPEN:
            if fnmatch.fnmatch(name, pat):
                _drop(out, key.split("/"))
        return out
    REF.add(name, run)

#: the optimizers crossed (named slots: momentum; two moments; a centered average with momentum)
OPTIMIZERS: dict[str, Callable[[Any], Any]] = {
    "sgdm": lambda k: k.optimizers.SGD(0.1, momentum=0.9),
    "adam": lambda k: k.optimizers.Adam(0.01),
    "rmsc": lambda k: k.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
}
#: how the trained model is saved
SAVES = ("ck_model", "ck_both", "weights_h5", "keras_file")
#: the restoring side's build state
STATES = ("compiled_unbuilt", "compiled_built", "seq_unbuilt", "uncompiled", "custom_loop")


class _Dir:
    """A temporary directory; `rel(path)` gives a path relative to it (what is recorded)."""

    def __enter__(self) -> "_Dir":
        self.path = tempfile.mkdtemp(prefix="ksweep64_")
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


def _unnumbered(name: str) -> str:
    return re.sub(r"_[0-9]+(?=/|$)", "", name)


def _fixed(seed: str) -> Callable[..., Any]:
    """A kernel initializer drawing from rng(seed) (a layer built after a restore must not take unseeded values)."""
    def init(shape: Any, dtype: Any = None) -> np.ndarray:
        return (rng(f"{seed}/{tuple(shape)}").standard_normal(tuple(shape)) * 0.5).astype(np.float32)
    return init


def _model(tf: Any, built: bool = True, extra: bool = False, fixed: bool = True) -> Any:
    """The Sequential every program trains; `fixed`: kernels drawn from rng (a side whose layers may be built by
    fit), else the default initializer (the saving side, whose weights `_init` sets: its config saves plainly)."""
    k = tf.keras

    def ki(name: str) -> Any:
        return _fixed(name) if fixed else "glorot_uniform"
    layers = [k.layers.Dense(3, activation="tanh", kernel_initializer=ki("d1"), name="d1"),
              k.layers.Dense(2, kernel_initializer=ki("d2"), name="d2")]
    if extra:
        layers.append(k.layers.Dense(2, kernel_initializer=ki("d3"), name="d3"))
    return k.Sequential(([k.Input((4,))] if built else []) + layers, name="m")


def _init(model: Any, name: str) -> None:
    r = rng(name)
    for w in model.weights:
        w.assign((r.standard_normal(tuple(w.shape)) * 0.5).astype(np.float32))


def _data(name: str, n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    r = rng(name)
    return r.standard_normal((n, 4)).astype(np.float32), r.standard_normal((n, 2)).astype(np.float32)


def _obs(model: Any) -> Any:
    out: dict[str, Any] = {"w": [[w.path, bits(w)] for w in model.weights]}
    opt = getattr(model, "optimizer", None)
    if opt is not None:
        out["opt"] = [[_unnumbered(v.path if hasattr(v, "path") else v.name), bits(v)] for v in opt.variables]
        out["built"] = bool(opt.built)
    return out


def _keys(tf: Any, path: str) -> Any:
    return [[n, list(s)] for n, s in tf.train.list_variables(path) if n != "_CHECKPOINTABLE_OBJECT_GRAPH"]


def _assertions(status: Any) -> Any:
    def one(m: str) -> Any:
        return error(lambda: (getattr(status, m)(), "ok")[1])
    return {m: one(m) for m in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match")}


def _fit(model: Any, x: np.ndarray, y: np.ndarray) -> Any:
    h = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return [float(v).hex() for v in h.history["loss"]]


def _trained(tf: Any, opt_name: str, name: str) -> tuple[Any, Any, Any]:
    m = _model(tf, fixed=False)
    _init(m, f"{name}/w")
    m.compile(optimizer=OPTIMIZERS[opt_name](tf.keras), loss="mse")
    x, y = _data(f"{name}/d")
    _fit(m, x, y)
    return m, x, y


def _save(tf: Any, d: _Dir, model: Any, how: str) -> str:
    if how == "ck_model":
        return tf.train.Checkpoint(model=model).save(d("ck", "c"))
    if how == "ck_both":
        return tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(d("ck", "c"))
    if how == "weights_h5":
        model.save_weights(d("w.weights.h5"))
        return d("w.weights.h5")
    model.save(d("m.keras"))
    return d("m.keras")


def _restore_program(opt_name: str, how: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        name = f"k-restore-{opt_name}-{how}"
        k = tf.keras
        out: dict[str, Any] = {}
        m, x, y = _trained(tf, opt_name, name)
        with _Dir() as d:
            path = _save(tf, d, m, how)
            out["saved"] = _obs(m)
            if how.startswith("ck"):
                out["keys"] = _keys(tf, path)
            x2, y2 = _data(f"{name}/next")
            out["want_loss"] = _fit(m, x2, y2)
            out["want"] = _obs(m)
            for state in STATES:
                res: dict[str, Any] = {}
                m2 = _model(tf, built=(state != "seq_unbuilt"))
                if state != "seq_unbuilt":
                    _init(m2, f"{name}/other")
                opt = OPTIMIZERS[opt_name](k)
                if state not in ("uncompiled", "custom_loop"):
                    m2.compile(optimizer=opt, loss="mse")
                if state == "compiled_built":
                    opt.build(m2.trainable_variables)
                st = None
                if how == "ck_model":
                    st = error(lambda: tf.train.Checkpoint(model=m2).restore(path))
                elif how == "ck_both":
                    st = error(lambda: tf.train.Checkpoint(model=m2, optimizer=opt).restore(path))
                else:
                    res["load"] = error(lambda: (m2.load_weights(path), "ok")[1])
                if st is not None and not isinstance(st, str):
                    res["st"] = _assertions(st)
                elif st is not None:
                    res["st"] = st
                res["restored"] = error(lambda: _obs(m2))
                if state == "uncompiled":
                    m2.compile(optimizer=opt, loss="mse")
                if state == "custom_loop":
                    gs = [tf.constant((rng(f"{name}/g{i}").standard_normal(tuple(v.shape)) * 0.1).astype(np.float32))
                          for i, v in enumerate(m2.trainable_variables)]
                    opt.apply_gradients(list(zip(gs, m2.trainable_variables)))
                    res["after"] = {"w": _obs(m2)["w"], "opt": [[_unnumbered(v.path), bits(v)] for v in opt.variables]}
                else:
                    res["loss"] = error(lambda: _fit(m2, x2, y2))
                    res["after"] = _obs(m2)
                    res["same_as_uninterrupted"] = res["after"] == out["want"]
                if st is not None and not isinstance(st, str):
                    res["st_after"] = _assertions(st)
                out[state] = res
        return out
    return prog


for _o in OPTIMIZERS:
    for _h in SAVES:
        _add(f"k-restore-{_o}-{_h}", _restore_program(_o, _h))


# -- partial restores, mismatches, read / restore / write ------------------------------------------------------
def _partial(tf: Any, mk: Any) -> Any:
    name = "k-partial"
    k = tf.keras
    out: dict[str, Any] = {}
    m, x, y = _trained(tf, "adam", name)
    with _Dir() as d:
        p_both = tf.train.Checkpoint(model=m, optimizer=m.optimizer).save(d("both", "c"))
        m_plain = _model(tf)
        _init(m_plain, f"{name}/plain")
        p_model = tf.train.Checkpoint(model=m_plain).write(d("model_only"))
        out["keys_model_only"] = _keys(tf, p_model)
        out["keys_both"] = _keys(tf, p_both)

        def fresh(compiled: bool, built_opt: bool, extra: bool = False) -> Any:
            m2 = _model(tf, extra=extra)
            _init(m2, f"{name}/fresh")
            if compiled:
                m2.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
                if built_opt:
                    m2.optimizer.build(m2.trainable_variables)
            return m2
        cases = {
            # checkpoint of model and optimizer into a model alone (uncompiled): the optimizer's values unused
            "both_into_model": lambda: (fresh(False, False), lambda m2: tf.train.Checkpoint(model=m2), p_both),
            # model-only checkpoint into a compiled model whose optimizer is built: the optimizer is unmatched
            "model_into_built_opt": lambda: (fresh(True, True), lambda m2: tf.train.Checkpoint(
                model=m2, optimizer=m2.optimizer), p_model),
            "model_into_unbuilt_opt": lambda: (fresh(True, False), lambda m2: tf.train.Checkpoint(
                model=m2, optimizer=m2.optimizer), p_model),
            # an extra layer on the restoring side
            "both_into_extra_layer": lambda: (fresh(True, False, extra=True), lambda m2: tf.train.Checkpoint(
                model=m2, optimizer=m2.optimizer), p_both),
            "model_into_extra_layer": lambda: (fresh(False, False, extra=True), lambda m2: tf.train.Checkpoint(
                model=m2), p_model),
            # the optimizer alone restored from a checkpoint of both
            "both_into_opt_only": lambda: (fresh(True, False), lambda m2: tf.train.Checkpoint(
                optimizer=m2.optimizer), p_both),
        }
        for case, make in cases.items():
            for fn in ("restore", "read"):
                m2, ckf, p = make()
                ck2 = ckf(m2)
                st = error(lambda: getattr(ck2, fn)(p))
                if isinstance(st, str):
                    out[f"{case}-{fn}"] = st
                    continue
                res = {"st": _assertions(st), "obs": _obs(m2),
                       "counter": error(lambda: int(ck2.save_counter.numpy()))}
                res["partial"] = error(lambda: (st.expect_partial(), "ok")[1])
                if getattr(m2, "optimizer", None) is not None:
                    x2, y2 = _data(f"{name}/next")
                    res["loss"] = error(lambda: _fit(m2, x2, y2))
                    res["st_after"] = _assertions(st)
                    res["after"] = _obs(m2)
                out[f"{case}-{fn}"] = res
        # mismatched variables: another dtype, another shape, a scalar for a vector
        r = rng(f"{name}/vars")
        v64 = tf.Variable(r.standard_normal(3))
        vshape = tf.Variable(r.standard_normal((2, 3)).astype(np.float32))
        vint = tf.Variable(np.int64(5))
        pv = tf.train.Checkpoint(a=v64, b=vshape, c=vint).write(d("vars"))
        for case, target in (("f64_into_f32", {"a": tf.Variable(np.zeros(3, np.float32))}),
                             ("f64_into_f16", {"a": tf.Variable(np.zeros(3, np.float16))}),
                             ("shape_23_into_32", {"b": tf.Variable(np.zeros((3, 2), np.float32))}),
                             ("shape_23_into_6", {"b": tf.Variable(np.zeros(6, np.float32))}),
                             ("int64_into_int32", {"c": tf.Variable(np.int32(0))}),
                             ("int64_into_f32", {"c": tf.Variable(np.float32(0))}),
                             ("f32_into_f64", {"b": tf.Variable(np.zeros((2, 3), np.float64))})):
            def go(target: dict[str, Any] = target) -> Any:
                st = tf.train.Checkpoint(**target).restore(pv)
                return {"st": _assertions(st), "v": [bits(v) for v in target.values()]}
            out[f"mismatch-{case}"] = error(go)
            out[f"mismatch-{case}-value"] = [bits(v) for v in target.values()]
        # a layer's kernel of another shape in a Keras model
        big = k.Sequential([k.Input((4,)), k.layers.Dense(5, activation="tanh", name="d1"), k.layers.Dense(2, name="d2")],
                           name="m")
        m3 = _model(tf)
        _init(m3, f"{name}/m3")
        out["dense_units_mismatch"] = error(lambda: _assertions(tf.train.Checkpoint(model=big).restore(p_model)))
        out["dense_units_mismatch_w"] = _obs(m3)
        # deferred: a layer built after the restore takes the saved kernel
        m4 = _model(tf, built=False)
        st4 = tf.train.Checkpoint(model=m4).restore(p_model)
        out["deferred_before"] = _assertions(st4)
        m4.build((None, 4))
        out["deferred_after"] = {"st": _assertions(st4), "w": _obs(m4)}
        m4b = _model(tf, built=False)
        st4b = tf.train.Checkpoint(model=m4b).restore(p_model)
        out["deferred_by_call"] = {"y": bits(m4b(tf.constant(x[:2]))), "st": _assertions(st4b)}
        # read vs restore of save_counter; write does not count
        ck5 = tf.train.Checkpoint(model=m)
        out["write_counter"] = [d.rel(ck5.write(d("w5"))), int(ck5.save_counter.numpy()),
                                d.rel(ck5.save(d("s5", "c"))), d.rel(ck5.save(d("s5", "c"))),
                                int(ck5.save_counter.numpy())]
        for fn in ("read", "restore"):
            ck6 = tf.train.Checkpoint(model=fresh(True, False))
            st6 = getattr(ck6, fn)(d("s5", "c-2"))
            out[f"counter_{fn}"] = [int(ck6.save_counter.numpy()), _assertions(st6)]
        out["latest"] = [d.rel(tf.train.latest_checkpoint(d("s5"))), d.rel(tf.train.latest_checkpoint(d("both"))),
                         d.rel(tf.train.latest_checkpoint(d("nowhere")))]
    return out


_add("k-partial", _partial)


# -- CheckpointManager of a compiled model: the optimizer's iterations as step counter -------------------------
def _manager(tf: Any, mk: Any) -> Any:
    name = "k-manager"
    k = tf.keras
    out: dict[str, Any] = {}
    m = _model(tf)
    _init(m, f"{name}/w")
    m.compile(optimizer=k.optimizers.SGD(0.05, momentum=0.8), loss="mse")
    x, y = _data(f"{name}/d", 4)
    with _Dir() as d:
        ck = tf.train.Checkpoint(model=m, optimizer=m.optimizer)
        opts = {"interval": dict(max_to_keep=3, step_counter=None, checkpoint_interval=2),
                "hours": dict(max_to_keep=2, keep_checkpoint_every_n_hours=1e6),
                "named": dict(max_to_keep=None, checkpoint_name="model.ckpt")}
        mgrs: dict[str, Any] = {}
        for kind, o in opts.items():
            if "step_counter" in o:
                o = dict(o, step_counter=m.optimizer.iterations)
            mgrs[kind] = error(lambda o=o, kind=kind: tf.train.CheckpointManager(ck, d(kind), **o))
        saves: dict[str, list[Any]] = {kind: [] for kind in opts}
        for epoch in range(5):
            _fit(m, x, y)
            for kind, mgr in mgrs.items():
                saves[kind].append(error(lambda mgr=mgr: d.rel(mgr.save())))
        out["saves"] = saves
        for kind, mgr in mgrs.items():
            out[kind] = {"list": d.rel(mgr.checkpoints), "latest": d.rel(mgr.latest_checkpoint),
                         "tf_latest": d.rel(tf.train.latest_checkpoint(d(kind))),
                         "prefixes": sorted({re.sub(r"\.(index|data-[0-9]+-of-[0-9]+|npz)$", "", f)
                                             for f in os.listdir(d(kind)) if f != "checkpoint"})}
        out["want"] = _obs(m)
        # a fresh compiled model (optimizer unbuilt) restored from the manager's latest and trained on
        m2 = _model(tf)
        _init(m2, f"{name}/other")
        m2.compile(optimizer=k.optimizers.SGD(0.05, momentum=0.8), loss="mse")
        ck2 = tf.train.Checkpoint(model=m2, optimizer=m2.optimizer)
        mgr2 = tf.train.CheckpointManager(ck2, d("interval"), max_to_keep=3, step_counter=m2.optimizer.iterations,
                                          checkpoint_interval=2)
        out["rinit"] = d.rel(mgr2.restore_or_initialize())
        out["restored"] = _obs(m2)
        out["iter_restored"] = int(m2.optimizer.iterations.numpy())
        out["loss"] = _fit(m2, x, y)
        out["after"] = _obs(m2)
        out["save_after"] = [d.rel(mgr2.save()), d.rel(mgr2.save()), d.rel(mgr2.save(check_interval=False))]
        out["list_after"] = d.rel(mgr2.checkpoints)
    return out


_add("k-manager", _manager)


# -- keys of Keras 3 models and optimizers; load_variable ---------------------------------------------------------
def _keys_program(tf: Any, mk: Any) -> Any:
    name = "k-keys"
    k = tf.keras
    out: dict[str, Any] = {}
    with _Dir() as d:
        inp = k.Input((4,), name="x")
        h = k.layers.Dense(3, name="fa")(inp)
        h = k.layers.BatchNormalization(name="bn")(h)
        o = k.layers.Dense(2, name="fb")(h)
        fm = k.Model(inp, o, name="fm")
        inner = k.Sequential([k.Input((4,)), k.layers.Dense(3, name="ia")], name="inner")
        outer = k.Sequential([k.Input((4,)), inner, k.layers.Dense(2, name="ob")], name="outer")
        emb = k.Sequential([k.Input((3,), dtype="int32"), k.layers.Embedding(5, 2, name="e"),
                            k.layers.GlobalAveragePooling1D(name="gp")], name="emb")
        for mdl in (fm, outer, emb):
            _init(mdl, f"{name}/{mdl.name}")
            out[f"{mdl.name}-model"] = _keys(tf, tf.train.Checkpoint(model=mdl).write(d(mdl.name, "a")))
            out[f"{mdl.name}-root"] = _keys(tf, tf.train.Checkpoint(mdl).write(d(mdl.name, "r")))
        fm.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
        out["fm-compiled-unbuilt"] = _keys(tf, tf.train.Checkpoint(model=fm).write(d("fm", "c")))
        x, y = _data(f"{name}/d")
        _fit(fm, x, y)
        p = tf.train.Checkpoint(model=fm, opt=fm.optimizer).write(d("fm", "t"))
        out["fm-trained"] = _keys(tf, p)
        out["fm-values"] = {n: bits(tf.train.load_variable(p, n)) for n, _ in tf.train.list_variables(p)
                            if n != "_CHECKPOINTABLE_OBJECT_GRAPH"}
        out["fm-obs"] = _obs(fm)
        # restore into a fresh functional model compiled but unbuilt optimizer; BatchNormalization's moving stats
        inp2 = k.Input((4,), name="x")
        h2 = k.layers.Dense(3, name="fa")(inp2)
        h2 = k.layers.BatchNormalization(name="bn")(h2)
        fm2 = k.Model(inp2, k.layers.Dense(2, name="fb")(h2), name="fm")
        fm2.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
        st = tf.train.Checkpoint(model=fm2, opt=fm2.optimizer).restore(p)
        out["fm2-st"] = _assertions(st)
        out["fm2-restored"] = _obs(fm2)
        out["fm2-loss"] = _fit(fm2, x, y)
        out["fm2-st-after"] = _assertions(st)
        _fit(fm, x, y)
        out["fm2-same"] = _obs(fm2) == _obs(fm)
        out["fm2-after"] = _obs(fm2)
    return out


_add("k-keys", _keys_program)


# -- strategies crossed: saved under one, restored under another into a compiled model, fit on --------------------
def _dist_program(save_kind: str, load_kind: str) -> Callable[[Any, Any], Any]:
    def strat(tf: Any, mk: Any, kind: str) -> Any:
        if kind == "mirrored":
            return mk()
        if kind == "one":
            return tf.distribute.OneDeviceStrategy("/cpu:0")
        return tf.distribute.get_strategy()

    def prog(tf: Any, mk: Any) -> Any:
        name = f"k-dist-{save_kind}-{load_kind}"
        k = tf.keras
        out: dict[str, Any] = {}
        x, y = _data(f"{name}/d")
        with strat(tf, mk, save_kind).scope():
            m = _model(tf)
            _init(m, f"{name}/w")
            m.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
        _fit(m, x, y)
        with _Dir() as d:
            p = tf.train.Checkpoint(model=m).save(d("c"))
            out["keys"] = _keys(tf, p)
            out["saved"] = _obs(m)
            s2 = strat(tf, mk, load_kind)
            for mode in ("unbuilt_opt", "seq_unbuilt"):
                with s2.scope():
                    m2 = _model(tf, built=(mode != "seq_unbuilt"))
                    if mode != "seq_unbuilt":
                        _init(m2, f"{name}/other")
                    m2.compile(optimizer=k.optimizers.Adam(0.01), loss="mse")
                st = tf.train.Checkpoint(model=m2).restore(p)
                res: dict[str, Any] = {"st": _assertions(st), "restored": error(lambda: _obs(m2))}
                res["loss"] = error(lambda: _fit(m2, x, y))
                res["after"] = _obs(m2)
                res["st_after"] = _assertions(st)
                res["copies"] = [[bits(c) for c in s2.experimental_local_results(v)] for v in m2.optimizer.variables]
                out[mode] = res
        return out
    return prog


for _sk, _lk in (("mirrored", "one"), ("one", "mirrored"), ("default", "mirrored"), ("mirrored", "default")):
    _add(f"k-dist-{_sk}-{_lk}", _dist_program(_sk, _lk))
