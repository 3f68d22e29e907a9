"""Which options of the public training API does the conformance suite never exercise?

    python benchmarks/suite_options.py [-k EXPR] [--profile default|ci|thorough] [--json out.json]
                                       [--list uncovered|never-called|all] [--families a,b]

Runs the conformance suite against simdist (in this process, through pytest) with a recording
hook on the public training API, and reports every (API, parameter) pair the suite never sets to
a value other than the parameter's default. The surveyed API (docs/conformance.md, "Option
coverage of the suite"):

- `tf.nn.*` and `tf.math.*` functions (a function reachable under several names — `tf.matmul`,
  `tf.linalg.matmul` — is one API, named by its first namespace in that order);
- `tf.GradientTape`: the constructor, `watch`, `gradient`, `jacobian`, `batch_jacobian`, `reset`;
- `keras.layers.*`, `keras.losses.*`, `keras.metrics.*`, `keras.optimizers.*` (and
  `keras.optimizers.schedules.*`), `keras.callbacks.*`: the classes' constructors; the layers'
  `call` keyword arguments (through `Layer.__call__`); the metrics' `update_state`; the loss and
  metric functions;
- `keras.Model`: `compile`, `fit`, `evaluate`, `predict`, `train_on_batch`, `test_on_batch`,
  `predict_on_batch`.

Only calls made by the suite's own code count (the immediate caller's file is under
simdist/conformance/, or is one of the suite's `Program` sources, "<conformance program N>"): a Keras layer that calls `tf.nn.softmax(x, axis=...)` internally does not
cover `axis`. A parameter counts as covered when some call binds it to a value that is not its
default (strings compared case-insensitively, numbers by value; a tensor, array or object for a
scalar default counts as non-default). Required parameters, `self`, `*args` and `**kwargs` are not
options and are left out. The hook wraps the functions (functools.wraps, so signatures and
`__wrapped__` stay) and calls them unchanged: the suite's results are the same with or without it.
Left out as well: base classes the namespaces export but programs do not instantiate (Layer,
Loss, Metric, Optimizer, Callback, ...), and the LoRA/quantization options simdist refuses. The
report is sorted (by API, each API's parameters in signature order), so two runs over the same
suite give the same text.

Exit status: 0 (a report), 2 when the suite itself failed (the report is still printed: coverage of
a red suite is not meaningful, and is marked so).
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import re
import sys
import types
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from suite_options_rerun import TRIES, Sandbox, same  # noqa: E402  (a sibling script module)

FAMILIES = ("tf.nn", "tf.math", "tf.GradientTape", "keras.layers", "keras.losses", "keras.metrics",
            "keras.optimizers", "keras.callbacks", "keras.Model",
            # session 21: the rest of the training surface (suite_options_families.py)
            "keras.initializers", "tf.initializers", "keras.utils", "keras.models", "tf.data", "tf.io",
            "tf.train", "tf.random", "tf.image", "tf.raw_ops")
#: the pseudo-parameter of a raw op: a Python value passed beside a tensor input (converted to the
#: tensor's dtype by args_to_matching_eager); its "default" is every input a tensor of its own dtype
RAW_PYTHON = "python_value_beside_tensor"
_SKIP_PARAMS = frozenset({"self", "cls", "name",     # `name` only labels the object
                          # options simdist refuses (NotImplementedError): LoRA and quantization
                          "lora_rank", "lora_alpha", "quantization_config", "gptq_unpacked_column_size"})
#: base classes and machinery the public namespaces export but programs do not instantiate to train
_BASE_CLASSES = frozenset({"Layer", "InputLayer", "Loss", "LossFunctionWrapper", "Reduction", "Metric",
                           "MeanMetricWrapper", "Optimizer", "LearningRateSchedule", "Callback", "CallbackList",
                           "History", "ProgbarLogger"})
#: keras.losses / keras.metrics functions that are machinery, not losses or metrics
_HELPER = re.compile(r"^(get|serialize|deserialize|.*_keras_object|standardize_.*|reduce_weighted_values|"
                     r"squeeze_or_expand_to_same_rank|to_snake_case|accuracy_variant)$")


_NOTHING = object()
_UNDECIDED = {"timeout": "the re-run timed out", "lost": "the re-run was lost", "wrote": "writes files",
              "object": "the output is an object on one side only"}


def _is_tensor(v: Any) -> bool:
    return type(v).__module__.startswith("simdist.") and callable(getattr(v, "numpy", None))


def _is_python_value(v: Any) -> bool:
    """A Python number, bool or (nested) list of them: what a raw op converts itself."""
    if isinstance(v, (bool, int, float)):
        return True
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(_is_python_value(x) for x in v)


@functools.lru_cache(maxsize=None)
def _raw_opdefs() -> dict[str, Any]:
    return json.loads((ROOT / "simdist" / "runtime" / "ops" / "raw_opdefs.json").read_text(encoding="utf-8"))["ops"]


def _raw_shares_type_attr(op: str) -> bool:
    """Can a Python value of this raw op be converted to another input's dtype: two inputs share a
    type attr, or one is a list input of a type attr (args_to_matching_eager)? Only then does the
    pseudo-parameter exist."""
    args = [a for a in _raw_opdefs().get(op, {}).get("args", []) if "input" in a and a.get("type_attr")]
    attrs = [a["type_attr"] for a in args]
    return any(attrs.count(t) > 1 for t in attrs) or any(a.get("number_attr") for a in args)


def _raw_python_beside_tensor(sig: inspect.Signature, arguments: dict) -> bool:
    """Does a raw op's call pass a Python value for one input and a tensor for another (or a
    list input mixing both)?"""
    inputs = [v for n, v in arguments.items() if sig.parameters[n].default is inspect.Parameter.empty]
    flat: list[Any] = []
    for v in inputs:
        if isinstance(v, (list, tuple)) and any(_is_tensor(x) for x in v):
            flat.extend(v)
        else:
            flat.append(v)
    return any(_is_tensor(v) for v in flat) and any(_is_python_value(v) for v in flat)


def _suite_dir() -> str:
    import simdist.conformance
    return str(Path(simdist.conformance.__file__).resolve().parent)


class Recorder:
    """The (API, parameter) universe and what the suite's calls set."""

    def __init__(self) -> None:
        self.params: dict[str, list[str]] = {}                  # API -> its optional parameters, in order
        self.calls: dict[str, int] = defaultdict(int)           # API -> calls from the suite
        self.nondefault: dict[str, set[str]] = defaultdict(set)  # API -> parameters set to a non-default
        self.extra_kwargs: dict[str, set[str]] = defaultdict(set)  # API -> **kwargs keys passed
        # the stricter rule (suite_options_rerun.py): re-run with the default substituted
        self.strict = True
        self.sandbox = Sandbox()
        self.effective: dict[str, set[str]] = defaultdict(set)      # API -> parameters that changed an output
        self.neutral: dict[tuple[str, str], int] = defaultdict(int)  # re-runs whose output was the same
        self.undecided: dict[tuple[str, str], int] = defaultdict(int)  # forks that timed out or were lost
        self.no_rerun: dict[tuple[str, str], set[str]] = defaultdict(set)  # why a set pair was not re-run
        self.mode: dict[tuple[str, str], str] = {}                  # "value" or "test": how it was decided
        self.pseudo: dict[str, Callable[[inspect.Signature, tuple, dict], tuple[tuple, dict] | None]] = {}
        self._suite = _suite_dir()
        self._patched: list[tuple[Any, str, Any]] = []

    # -- recording ------------------------------------------------------------------------------
    def _from_suite(self, depth: int) -> bool:
        try:
            f = sys._getframe(depth + 1)
        except ValueError:
            return False
        name = f.f_code.co_filename
        return name.startswith(self._suite) or name.startswith("<conformance program")

    def register(self, api: str, sig: inspect.Signature) -> None:
        if api not in self.params:
            self.params[api] = [p.name for p in sig.parameters.values()
                                if p.default is not inspect.Parameter.empty and p.name not in _SKIP_PARAMS
                                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            if api.startswith("tf.raw_ops.") and _raw_shares_type_attr(api.rsplit(".", 1)[1]):
                self.params[api].append(RAW_PYTHON)

    def record(self, api: str, sig: inspect.Signature, args: tuple, kwargs: dict) -> list[str]:
        """Count the call; the parameters it sets to a non-default value (in signature order)."""
        self.calls[api] += 1
        try:
            bound = sig.bind_partial(*args, **kwargs)
        except TypeError:
            return []                   # the call itself raises; nothing was set
        out = []
        for name, value in bound.arguments.items():
            p = sig.parameters[name]
            if p.kind is p.VAR_KEYWORD:
                self.extra_kwargs[api].update(value)
            elif p.kind is p.VAR_POSITIONAL or p.default is inspect.Parameter.empty:
                continue
            elif not _same(value, p.default):
                self.nondefault[api].add(name)
                out.append(name)
        if api.startswith("tf.raw_ops.") and _raw_python_beside_tensor(sig, bound.arguments):
            self.nondefault[api].add(RAW_PYTHON)
            out.append(RAW_PYTHON)
        return out

    def _defaulted(self, sig: inspect.Signature, args: tuple, kwargs: dict, param: str) -> tuple[tuple, dict]:
        """The call's arguments with `param` at its default (or, for a raw op's pseudo-parameter,
        every Python input converted to a tensor on its own)."""
        bound = sig.bind_partial(*args, **kwargs)
        if param == RAW_PYTHON:
            from simdist import tf
            for n, v in list(bound.arguments.items()):
                if sig.parameters[n].default is inspect.Parameter.empty and _is_python_value(v):
                    bound.arguments[n] = tf.constant(v)
        else:
            bound.arguments[param] = sig.parameters[param].default
        return bound.args, bound.kwargs

    def call(self, api: str, sig: inspect.Signature, fn: Callable, args: tuple, kwargs: dict) -> Any:
        """A suite call: record it, re-run it with each non-default option at its default (the
        stricter rule), then make it. In a test-mode child the default's result is returned."""
        names = self.record(api, sig, args, kwargs)
        if self.strict:
            for param in names:
                got = self._probe(api, sig, fn, args, kwargs, param)
                if got is not _NOTHING:
                    return got          # the child of a test-mode re-run: the test goes on with the default
        return fn(*args, **kwargs)

    def _probe(self, api: str, sig: inspect.Signature, fn: Callable, args: tuple, kwargs: dict, param: str) -> Any:
        key = (api, param)
        if param in self.effective.get(api, ()) or self.neutral[key] >= TRIES[self.mode.get(key, "value")]:
            return _NOTHING
        if any(p[:2] == key for p in self.sandbox.pending):
            return _NOTHING
        why = self.sandbox.why_not(api)
        if why is not None:
            if why not in ("child", "outside a test's call phase"):
                self.no_rerun[key].add(why)
            return _NOTHING
        try:
            d_args, d_kwargs = self._defaulted(sig, args, kwargs, param)
        except Exception:                          # noqa: BLE001 - no default can be substituted
            self.no_rerun[key].add("the default cannot be bound")
            return _NOTHING
        mode = self.mode.get(key) or ("test" if api.endswith((".__init__", ".update_state")) else "value")
        if mode == "value":
            if not self.sandbox.spend("value"):
                self.no_rerun[key].add("the test's re-run budget was spent")
                return _NOTHING
            a = self.sandbox.value_run(lambda: fn(*d_args, **d_kwargs))
            if a[0] == "object":
                mode = "test"
            elif a[0] in ("timeout", "lost", "wrote"):
                self._decide(key, _UNDECIDED[a[0]])
                return _NOTHING
            else:
                b = self.sandbox.value_run(lambda: fn(*args, **kwargs))
                if b[0] in ("timeout", "lost", "wrote", "object"):
                    self._decide(key, _UNDECIDED[b[0]])
                    return _NOTHING
                self.mode[key] = "value"
                self._decide(key, not same(a, b))
                return _NOTHING
        self.mode[key] = "test"
        if not self.sandbox.spend("test"):
            self.no_rerun[key].add("the test's re-run budget was spent")
            return _NOTHING
        in_child, got = self.sandbox.test_run(lambda: fn(*d_args, **d_kwargs))
        if in_child:
            return got
        self.sandbox.pending.append((api, param, got[1] if got[0] == "test" else None))
        return _NOTHING

    def _decide(self, key: tuple[str, str], effective: bool | str) -> None:
        if isinstance(effective, str):           # undecided, for this reason
            self.undecided[key] += 1
            self.no_rerun[key].add(effective)
        elif effective:
            self.effective[key[0]].add(key[1])
        else:
            self.neutral[key] += 1

    def end_test(self, excinfo: Any) -> None:
        for api, param, eff in self.sandbox.end_test(excinfo):
            self._decide((api, param), eff)

    def status(self, api: str, param: str) -> str:
        """effective | neutral (n re-runs) | not re-run: why | undecided | never set."""
        key = (api, param)
        if param in self.effective.get(api, ()):
            return f"effective ({self.mode.get(key, 'value')})"
        if param not in self.nondefault.get(api, ()):
            return "never set"
        if self.neutral.get(key):
            return f"output-neutral ({self.neutral[key]} {self.mode.get(key, 'value')} re-runs)"
        if self.no_rerun.get(key):
            return "not re-run: " + ", ".join(sorted(self.no_rerun[key]))
        return "not re-run: no call in a test body"

    # -- patching -------------------------------------------------------------------------------
    def _set(self, owner: Any, attr: str, value: Any) -> None:
        self._patched.append((owner, attr, owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)))
        setattr(owner, attr, value)

    def wrap_function(self, fn: Callable, api: str) -> Callable:
        sig = _signature(fn)
        if sig is None:
            return fn
        self.register(api, sig)
        rec = self

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if rec._from_suite(1):
                return rec.call(api, sig, fn, args, kwargs)
            return fn(*args, **kwargs)
        return wrapper

    def wrap_method(self, cls: type, attr: str, api_of: Callable[[Any], str | None], api: str) -> None:
        """Wrap cls.attr (defined in cls itself); calls are recorded under api_of(self) or `api`.
        A staticmethod (Dataset.range, a namedtuple's __new__) is wrapped as a function."""
        fn = cls.__dict__.get(attr)
        if isinstance(fn, staticmethod):
            w = self.wrap_function(fn.__func__, api)
            if w is not fn.__func__:
                self._set(cls, attr, staticmethod(w))
            return
        if not isinstance(fn, types.FunctionType):
            return
        sig = _signature(fn)
        if sig is None:
            return
        self.register(api, sig)
        rec = self

        @functools.wraps(fn)
        def wrapper(self_: Any, *args: Any, **kwargs: Any) -> Any:
            if rec._from_suite(1):
                name = api_of(self_) or api
                rec.register(name, sig)
                return rec.call(name, sig, fn, (self_,) + args, kwargs)
            return fn(self_, *args, **kwargs)
        self._set(cls, attr, wrapper)

    def restore(self) -> None:
        for owner, attr, old in reversed(self._patched):
            if getattr(old, "survey_absent", False):     # made while the survey ran: remove the wrapper
                delattr(owner, attr)
            else:
                setattr(owner, attr, old)
        self._patched.clear()

    # -- the report -----------------------------------------------------------------------------
    def report(self, families: Iterable[str] = FAMILIES) -> dict[str, Any]:
        fams = tuple(families)
        apis = sorted(a for a in self.params if a.startswith(fams))
        never = [a for a in apis if not self.calls.get(a)]
        covered = self.effective if self.strict else self.nondefault
        uncovered = [(a, p) for a in apis for p in self.params[a] if p not in covered.get(a, set())]
        called_uncovered = [(a, p) for a, p in uncovered if self.calls.get(a)]
        total = sum(len(self.params[a]) for a in apis)
        set_ = sum(len(set(self.params[a]) & self.nondefault.get(a, set())) for a in apis)
        return {"rule": "strict" if self.strict else "set", "apis": len(apis), "apis_called": len(apis) - len(never),
                "pairs": total, "pairs_set": set_,
                "pairs_covered": total - len(uncovered), "pairs_uncovered": len(uncovered),
                "pairs_uncovered_of_called_apis": len(called_uncovered),
                "never_called": never, "uncovered": [f"{a}({p})" for a, p in uncovered],
                "status": {f"{a}({p})": self.status(a, p) for a, p in uncovered if self.calls.get(a)},
                "by_family": {f: _family_counts(self, f) for f in fams}}


def _family_counts(r: Recorder, family: str) -> dict[str, int]:
    apis = [a for a in r.params if a.startswith(family + ".") or a == family]
    total = sum(len(r.params[a]) for a in apis)
    set_ = sum(len(set(r.params[a]) & r.nondefault.get(a, set())) for a in apis)
    eff = sum(len(set(r.params[a]) & r.effective.get(a, set())) for a in apis)
    return {"apis": len(apis), "called": sum(1 for a in apis if r.calls.get(a)), "pairs": total,
            "set": set_, "effective": eff, "covered": eff if r.strict else set_}


def _signature(fn: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _same(value: Any, default: Any) -> bool:
    """Is `value` the parameter's default? (strings case-insensitively, numbers by value)"""
    if value is default:
        return True
    if isinstance(default, str) and isinstance(value, str):
        return value.lower() == default.lower()
    scalar = (bool, int, float, type(None))
    if isinstance(default, scalar) and isinstance(value, scalar):
        if isinstance(default, bool) or isinstance(value, bool):   # True is not 1 here
            return type(value) is type(default) and value == default
        return value == default
    if isinstance(default, (tuple, list)) and isinstance(value, (tuple, list)):
        return len(value) == len(default) and all(_same(v, d) for v, d in zip(value, default))
    return False


# -- which objects are the public training API ------------------------------------------------------
def _public(mod: Any) -> list[tuple[str, Any]]:
    return [(n, getattr(mod, n)) for n in sorted(dir(mod)) if not n.startswith("_")]


def install(rec: Recorder) -> None:
    """Wrap the surveyed API in place (module attributes and class attributes)."""
    from simdist import tf
    from simdist.keras.layers.layer import Layer
    from simdist.keras.metrics.metric import Metric
    from simdist.keras.trainers.trainer import Trainer

    keras = tf.keras
    # tf.nn / tf.math functions, one API per function object, replaced in every namespace that has it
    namespaces = [("tf.nn", tf.nn), ("tf.math", tf.math), ("tf", tf), ("tf.linalg", tf.linalg)]
    canonical: dict[int, tuple[str, Any]] = {}
    for prefix, mod in namespaces[:2]:
        for n, obj in _public(mod):
            if isinstance(obj, types.FunctionType) and id(obj) not in canonical:
                canonical[id(obj)] = (f"{prefix}.{n}", obj)
    wrappers = {k: rec.wrap_function(obj, api) for k, (api, obj) in sorted(canonical.items(), key=lambda kv: kv[1][0])}
    for _, mod in namespaces:
        for n, obj in _public(mod):
            w = wrappers.get(id(obj))
            if w is not None and w is not obj:
                rec._set(mod, n, w)

    # tf.GradientTape
    gt = tf.GradientTape
    for attr in ("__init__", "watch", "gradient", "jacobian", "batch_jacobian", "reset"):
        rec.wrap_method(gt, attr, lambda s: None, f"tf.GradientTape.{attr.strip('_') if attr != '__init__' else '__init__'}")

    # Keras classes: constructors (recorded under the instantiated public class); the loss and
    # metric functions (one API per function object, named by its longest alias: mean_squared_error,
    # not mse)
    from simdist.keras.callbacks.callback import Callback
    from simdist.keras.losses.loss import Loss
    from simdist.keras.optimizers import Optimizer
    from simdist.keras.optimizers.schedules import LearningRateSchedule
    bases = (Layer, Loss, Metric, Optimizer, LearningRateSchedule, Callback)
    public_classes: dict[type, str] = {}
    for prefix, mod in (("keras.layers", keras.layers), ("keras.losses", keras.losses),
                        ("keras.metrics", keras.metrics), ("keras.optimizers", keras.optimizers),
                        ("keras.optimizers.schedules", keras.optimizers.schedules),
                        ("keras.callbacks", keras.callbacks)):
        funcs: dict[int, list[str]] = defaultdict(list)
        for n, obj in _public(mod):
            if isinstance(obj, type) and issubclass(obj, bases) and n not in _BASE_CLASSES:
                if obj not in public_classes or len(n) > len(public_classes[obj].rsplit(".", 1)[1]):
                    public_classes[obj] = f"{prefix}.{n}"
            elif (isinstance(obj, types.FunctionType) and prefix in ("keras.losses", "keras.metrics")
                  and not _HELPER.match(n)):
                funcs[id(obj)].append(n)
        for names in funcs.values():
            obj = getattr(mod, names[0])
            w = rec.wrap_function(obj, f"{prefix}.{max(names, key=lambda x: (len(x), x))}")
            for n in names:
                rec._set(mod, n, w)
    # every public class gets its own entry with the signature its constructor has
    for cls, name in sorted(public_classes.items(), key=lambda kv: kv[1]):
        init = _init_of(cls)
        if init is not None and (sig := _signature(init)) is not None:
            rec.register(f"{name}.__init__", sig)
        if issubclass(cls, Layer) and (sig := _signature(getattr(cls, "call", None))) is not None:
            rec.register(f"{name}.call", sig)
        if issubclass(cls, Metric) and (sig := _signature(getattr(cls, "update_state", None))) is not None:
            rec.register(f"{name}.update_state", sig)

    def api_of(suffix: str) -> Callable[[Any], str | None]:
        def name(self_: Any) -> str | None:
            n = public_classes.get(type(self_))
            return None if n is None else f"{n}.{suffix}"
        return name

    defining = sorted({c for cls in public_classes for c in cls.__mro__ if "__init__" in c.__dict__
                       and c.__module__.startswith("simdist.")}, key=lambda c: (c.__module__, c.__qualname__))
    for c in defining:
        rec.wrap_method(c, "__init__", _init_api(public_classes), f"{c.__module__}.{c.__qualname__}.__init__")
    for c in sorted({c for cls in public_classes if issubclass(cls, Metric) for c in cls.__mro__
                     if "update_state" in c.__dict__}, key=lambda c: (c.__module__, c.__qualname__)):
        rec.wrap_method(c, "update_state", api_of("update_state"), f"{c.__module__}.{c.__qualname__}.update_state")
    _wrap_layer_call(rec, Layer, public_classes)

    for attr in ("compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch", "predict_on_batch"):
        rec.wrap_method(Trainer, attr, lambda s: None, f"keras.Model.{attr}")
    from suite_options_families import install_more
    install_more(rec)


def _init_of(cls: type) -> Any:
    for c in cls.__mro__:
        if "__init__" in c.__dict__:
            return c.__dict__["__init__"]
    return None


def _init_api(public: dict[type, str]) -> Callable[[Any], str | None]:
    """A constructor call is recorded under the public class being made, if it is one; a
    subclass the suite defines records under the class whose constructor it reaches."""
    def name(self_: Any) -> str | None:
        n = public.get(type(self_))
        return None if n is None else f"{n}.__init__"
    return name


def _wrap_layer_call(rec: Recorder, layer_cls: type, public: dict[type, str]) -> None:
    """`layer(x, training=..., mask=...)`: Layer.__call__ records the call's arguments against the
    signature of the class's `call`."""
    orig = layer_cls.__dict__["__call__"]

    @functools.wraps(orig)
    def __call__(self_: Any, *args: Any, **kwargs: Any) -> Any:
        if rec._from_suite(1):
            n = public.get(type(self_))
            sig = _signature(type(self_).call) if n is not None else None
            if sig is not None:
                rec.register(f"{n}.call", sig)
                return rec.call(f"{n}.call", sig, orig, (self_,) + args, kwargs)
        return orig(self_, *args, **kwargs)
    rec._set(layer_cls, "__call__", __call__)


# -- running the suite ----------------------------------------------------------------------------------
class _Plugin:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def pytest_configure(self, config: Any) -> None:
        install(self.rec)

    def pytest_unconfigure(self, config: Any) -> None:
        self.rec.restore()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Any:
        """Marks a test's call phase; at its end a test-mode child reports and exits, the
        parent compares the outcomes."""
        self.rec.sandbox.begin_test(getattr(item, "fixturenames", ()))
        outcome = yield
        self.rec.end_test(outcome.excinfo)


def run_suite(keyword: str | None, profile: str, extra: list[str], strict: bool = True) -> tuple[Recorder, int]:
    from simdist.conformance.cli import run_on_simdist
    rec = Recorder()
    rec.strict = strict
    return rec, run_on_simdist(_Plugin(rec), keyword, profile, extra)


def format_report(r: dict[str, Any], which: str, suite_code: int) -> str:
    lines = []
    if suite_code != 0:
        lines.append(f"WARNING: the suite exited {suite_code} (not green): the coverage below is of a failing run")
    lines.append(f"surveyed APIs: {r['apis']} ({r['apis_called']} called by the suite); optional parameters: "
                 f"{r['pairs']}, set to a non-default value: {r['pairs_set']}, covered ({r['rule']} rule): "
                 f"{r['pairs_covered']}, uncovered: {r['pairs_uncovered']} "
                 f"({r['pairs_uncovered_of_called_apis']} of them in APIs the suite calls)")
    for fam, c in sorted(r["by_family"].items()):
        lines.append(f"  {fam:28s} APIs {c['called']:4d}/{c['apis']:<4d} parameters set {c['set']:4d}, "
                     f"output-changing {c['effective']:4d} of {c['pairs']}")
    if which in ("never-called", "all"):
        lines.append("never called:")
        lines += [f"  {a}" for a in r["never_called"]]
    if which in ("uncovered", "all"):
        lines.append("uncovered (never set to a non-default value, or set without changing the output):")
        lines += [f"  {u}" + (f"   [{r['status'][u]}]" if u in r["status"] else "") for u in r["uncovered"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="keyword", help="only suite tests matching EXPR (pytest -k)")
    ap.add_argument("--profile", default="default", choices=("default", "ci", "thorough"))
    ap.add_argument("--json", help="write the report (with the per-API parameter lists) here")
    ap.add_argument("--list", default="uncovered", choices=("uncovered", "never-called", "all", "none"))
    ap.add_argument("--families", help=f"comma-separated API families (default: all of {', '.join(FAMILIES)})")
    ap.add_argument("--set-only", action="store_true",
                    help="the earlier rule: a parameter set to a non-default value is covered (no re-runs)")
    ap.add_argument("pytest_args", nargs="*", help="further pytest arguments after --")
    args = ap.parse_args(argv)
    families = tuple(args.families.split(",")) if args.families else FAMILIES
    rec, code = run_suite(args.keyword, args.profile, args.pytest_args, strict=not args.set_only)
    r = rec.report(families)
    print(format_report(r, args.list, code))
    if args.json:
        r["suite_exit"] = code
        r["nondefault"] = {a: sorted(v) for a, v in sorted(rec.nondefault.items()) if a.startswith(families)}
        r["effective"] = {a: sorted(v) for a, v in sorted(rec.effective.items()) if a.startswith(families)}
        r["parameters"] = {a: rec.params[a] for a in sorted(rec.params) if a.startswith(families)}
        r["calls"] = {a: rec.calls[a] for a in sorted(rec.calls) if a.startswith(families)}
        Path(args.json).write_text(json.dumps(r, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0 if code == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
