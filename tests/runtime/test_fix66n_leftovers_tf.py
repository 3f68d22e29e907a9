"""The sixty-fifth session's leftovers against TF 2.21 (fix66n; docs/conformance.md "Sixty-sixth session ... fix66n"):

- traced complex products with a Python operand: the Const is `mul/y` (`Mul/y` for tf.multiply), which Grappler's
  canonical order sorts before an argument, so `x * 2` runs as 2 · x (NaN parts: ops.complex); complex `x / 2` as
  ReduceDivToReciprocalMul's 0.5 · x (graph_names.name_literal, grappler `_recip_mul`);
- complex DivNoNan's packets: the x.im product takes y's operand first (complex_div `_pdiv`); complex Add/Sub of
  a broadcast scalar: Add the scalar's NaN in packets of 4 complex64 or 2 complex128, Sub the first operand's
  (math `_parts_daz`);
- full sums past the thread split: FullReducer<ThreadPoolDevice>'s blocks (sum_order `_threaded_plan`), and
  AUC(num_thresholds=10**6), whose result sums 999,999 areas;
- oneDNN's float32 Conv3D: an in-order FMA over the taps (conv3d `_conv3d`);
- conv1d_transpose's concat and conv3d_transpose's Tshape with a float output_shape; `t[...]` keys with Python bools
  (array `_packed_bool`);
- Keras's automatic config of layers and models without get_config (keras/auto_config.py);
- the `__name__` of TF's public functions (tf/_function_names.py).
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers
from portable_inputs import log_uniform

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_F32 = [1.5, -2.0, 0.0, -0.0, np.inf, -np.inf] + [float(np.array([u], np.uint32).view(np.float32)[0])
                                                  for u in (0x7fc01234, 0xffc05678, 0x7f800001)]


def _hex(t: Any) -> str:
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return f"{a.dtype.name}{list(a.shape)}:{np.ascontiguousarray(a).tobytes().hex()}"


def _cls(fn: Callable[[], Any]) -> Any:
    """fn()'s bits, or the refusal's class (a traced refusal's message is the trace's)."""
    try:
        return _hex(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _refusal(e: Exception) -> str:
    """An eager refusal's class and message, without the ` name: <op name>` TF's eager errors end with."""
    return f"raised {type(e).__name__}: {re.sub(r' name:( [^ ]*)?$', '', str(e).strip())}"


def _complex_vector(tf: Any, dt: str) -> Any:
    parts = np.array(_F32, np.float32)   # (every pair of parts once a rotation: NaN + NaN j of two payloads too)
    re_ = np.concatenate([parts] * 3)
    im = np.concatenate([np.roll(parts, 1), np.roll(parts, 2), np.roll(parts, 3)])
    v = np.empty(re_.size, dt)
    v.real, v.imag = re_, im
    return tf.constant(v)


def _products(dt: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        x = _complex_vector(tf, dt)
        fns = {"x*2": lambda x: x * 2, "2*x": lambda x: 2 * x, "mul(x,2)": lambda x: tf.multiply(x, 2),
               "x*2.5": lambda x: x * 2.5, "x/2": lambda x: x / 2}
        out = {}
        for name, f in fns.items():
            out[name] = _cls(lambda f=f: tf.function(f)(x))

            def g(a: Any, f: Any = f) -> Any:   # (an argument named `a` sorts before `mul/y`: x · 2 stays)
                return f(a)
            out[name + " a"] = _cls(lambda g=g: tf.function(g)(x))
        return out
    return case


def _div_no_nan(dt: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        combos = list(itertools.product(range(len(_F32)), repeat=4))
        pick = np.random.default_rng(66).choice(len(combos), 512, replace=False)
        x, y = np.empty(512, dt), np.empty(512, dt)
        for k, i in enumerate(pick):
            a, b, c, d = combos[i]
            x.real[k], x.imag[k] = np.float32(_F32[a]), np.float32(_F32[b])
            y.real[k], y.imag[k] = np.float32(_F32[c]), np.float32(_F32[d])
        return _hex(tf.math.divide_no_nan(tf.constant(x), tf.constant(y)))
    return case


def _scalar_add_sub(dt: str) -> Callable[[Any], Any]:
    """Complex Add/Sub of a tensor and a broadcast 0-d tensor, both NaN in both parts: Add takes the scalar's NaN in
    packets of 4 complex64 or 2 complex128 and the tensor's in the tail; Sub the first operand's everywhere."""
    def case(tf: Any) -> Any:
        parts = [np.float32(v) for v in _F32[6:8]] + [np.array([0x7fc0abcd, 0x7fc00ef0], np.uint32).view(np.float32)]
        s = np.empty((), dt)
        s.real, s.imag = parts[2][0], parts[2][1]
        out = {}
        for n in (1, 2, 3, 5, 9):
            v = np.empty(n, dt)
            v.real, v.imag = parts[0], parts[1]
            x, st = tf.constant(v), tf.constant(s)
            out[n] = [_hex(x + st), _hex(st + x), _hex(x - st), _hex(st - x), _hex(tf.add(x, st))]
        return out
    return case


def _sums(dt: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        r = np.random.default_rng(6601)
        out = {}
        for n in (108387, 108388, 216777, 999999):
            v = r.uniform(-1, 1, n) * log_uniform(r, -3, 3, n)   # (the C library's pow: the same inputs on any CPU)
            if dt.startswith("complex"):
                v = v + 1j * r.uniform(-1, 1, n)
            x = tf.constant(v.astype(dt))
            out[n] = [_hex(tf.reduce_sum(x)), _hex(tf.reduce_mean(x))]
        return out
    return case


def _auc(tf: Any) -> Any:
    r = np.random.default_rng(6602)
    yp = r.uniform(0.05, 0.95, (6, 4)).astype(np.float32)
    yt = (r.uniform(0, 1, (6, 4)) > 0.5).astype(np.float32)
    m = tf.keras.metrics.AUC(num_thresholds=10 ** 6)
    m.update_state(yt, yp)
    m.update_state(yt[:3], yp[3:])
    return _hex(m.result())


def _conv3d(tf: Any) -> Any:
    """oneDNN's float32 Conv3D: an in-order FMA over the taps (kd, kh, kw, in channel), any filter count or layout."""
    r = np.random.default_rng(6603)
    out = {}
    for cin, nf, ks, st, pad in ((2, 1, 2, 1, "VALID"), (5, 1, 3, 1, "VALID"), (17, 1, 2, 1, "VALID"),
                                 (33, 2, 2, 1, "VALID"), (3, 5, 3, 2, "SAME"), (20, 3, 3, 1, "VALID")):
        x = r.uniform(-1, 1, (1, 5, 5, 5, cin)).astype(np.float32)
        k = r.uniform(-1, 1, (ks, ks, ks, cin, nf)).astype(np.float32)
        key = f"{cin}x{nf} k{ks} s{st} {pad}"
        out[key] = _hex(tf.nn.conv3d(x, k, [1, st, st, st, 1], pad))
        xc = np.ascontiguousarray(x.transpose(0, 4, 1, 2, 3))
        out[key + " NCDHW"] = _hex(tf.nn.conv3d(xc, k, [1, 1, st, st, st], pad, data_format="NCDHW"))
    tf.keras.utils.set_random_seed(5)
    layer = tf.keras.layers.Conv3D(True, 2)
    out["Conv3D(filters=True)"] = _hex(layer(r.uniform(-1, 1, (2, 4, 4, 4, 2)).astype(np.float32)))
    return out


def _transposes(tf: Any) -> Any:
    x1, w1 = tf.ones((2, 4, 3)), tf.ones((2, 5, 3))
    x3, w3 = tf.ones((1, 3, 3, 3, 2)), tf.ones((2, 2, 2, 4, 2))
    d1, d3 = tf.ones((2, 4, 3), tf.float64), tf.ones((2, 5, 3), tf.float64)
    cases = {"1d [2, 5.0, 5]": lambda: tf.nn.conv1d_transpose(x1, w1, [2, 5.0, 5], 1, "VALID"),
             "1d [2.0, 5.0, 5.0]": lambda: tf.nn.conv1d_transpose(x1, w1, [2.0, 5.0, 5.0], 1, "VALID"),
             "1d float64 [2.0, 5.0, 5]": lambda: tf.nn.conv1d_transpose(d1, d3, [2.0, 5.0, 5], 1, "VALID"),
             "1d numpy": lambda: tf.nn.conv1d_transpose(x1, w1, np.array([2, 5.0, 5]), 1, "VALID"),
             "1d ints": lambda: tf.nn.conv1d_transpose(x1, w1, [2, 5, 5], 1, "VALID"),
             "1d NCW": lambda: tf.nn.conv1d_transpose(tf.ones((2, 3, 4)), tf.ones((2, 5, 4)), [2, 5, 5.0], 1, "VALID",
                                                      data_format="NCW"),
             "3d [1, 4.0, 4, 4, 4]": lambda: tf.nn.conv3d_transpose(x3, w3, [1, 4.0, 4, 4, 4], 1, "VALID"),
             "3d tuple": lambda: tf.nn.conv3d_transpose(x3, w3, (1, 4, 4.0, 4, 4), 1, "VALID"),
             "3d numpy": lambda: tf.nn.conv3d_transpose(x3, w3, np.array([1, 4.0, 4, 4, 4]), 1, "VALID")}
    out: dict[str, Any] = {}
    for name, f in cases.items():
        try:
            out[name] = _hex(f())
        except Exception as e:  # noqa: BLE001 - class and message compared
            out[name] = _refusal(e)
        out[name + " traced"] = _cls(lambda f=f: tf.function(f)())
    return out


def _bool_keys(tf: Any) -> Any:
    t = tf.reshape(tf.range(24), [2, 3, 4])
    v = tf.Variable(tf.reshape(tf.range(24.0), [2, 3, 4]))
    keys = {"T,F": (True, False), "(T,)": (True,), "[T,F]": [True, False], "F,F": (False, False),
            "T,0": (True, 0), "0,T": (0, True), "T,...": (True, Ellipsis), "...,T,None": (Ellipsis, True, None),
            "T,1:2": (True, slice(1, 2)), "T,None": (True, None), "T,tensor0": (True, tf.constant(0)),
            "[T]": [True], "np.T,np.F": (np.bool_(True), np.bool_(False))}
    out: dict[str, Any] = {}
    for name, key in keys.items():
        for which, obj in (("t", t), ("v", v)):
            try:
                out[f"{which} {name}"] = _hex(obj[key])
            except Exception as e:  # noqa: BLE001 - class and message compared
                out[f"{which} {name}"] = _refusal(e)
            out[f"{which} {name} traced"] = _cls(lambda obj=obj, key=key: tf.function(lambda: obj[key])())
    return out


def _configs(tf: Any) -> Any:
    k = tf.keras

    class A(k.layers.Layer):
        def __init__(self, units: Any = 3, act: Any = "relu", **kw: Any) -> None:
            super().__init__(**kw)
            self.units = units

    class B(k.layers.Layer):
        def __init__(self, units: Any, rate: float = 0.5, name: Any = None) -> None:
            super().__init__(name=name)

    class C(k.layers.Layer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(**kwargs)

    class M(k.Model):
        def __init__(self, inner: Any = None, units: int = 2, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.d = inner or k.layers.Dense(units)

        def call(self, x: Any) -> Any:
            return self.d(x)

    class N(k.Model):
        def __init__(self, units: int, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.d = k.layers.Dense(units)

    made = {"M(units=5)": lambda: M(units=5), "M(inner layer)": lambda: M(k.layers.Dense(3)), "N(3)": lambda: N(3),
            "A()": lambda: A(), "A(5, name)": lambda: A(5, name="a5"), "A(np.float32)": lambda: A(np.float32(2)),
            "A(list)": lambda: A([1, 2]), "A(fn)": lambda: A(act=tf.nn.relu), "A(dtype)": lambda: A(dtype="float64"),
            "B(3)": lambda: B(3), "B(np)": lambda: B(np.float32(1)), "C(1, 2)": lambda: C(1, 2), "C()": lambda: C(),
            "M()": lambda: M(), "ELU(np)": lambda: k.layers.ELU(np.float32(0.5)), "ELU(0.3)": lambda: k.layers.ELU(0.3),
            "Add()": lambda: k.layers.Add(), "Identity()": lambda: k.layers.Identity()}
    out: dict[str, Any] = {}
    for name, f in made.items():
        try:
            cfg = f().get_config()
            out[name] = [[key, repr(val)] for key, val in cfg.items() if key != "name"] + [["name" in cfg]]
        except Exception as e:  # noqa: BLE001 - the class is the observation
            out[name] = f"raised {type(e).__name__}"
        try:
            obj = f()
            back = type(obj).from_config(obj.get_config())
            out[name + " rt"] = sorted(back.get_config()) == sorted(obj.get_config())
        except Exception as e:  # noqa: BLE001 - the class is the observation
            out[name + " rt"] = f"raised {type(e).__name__}"
    return out


def _table() -> dict[str, str]:
    """simdist/tf/_function_names.py's TF_NAMES, read as a file (the TF worker imports no simdist package)."""
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "simdist", "tf", "_function_names.py")
    spec = importlib.util.spec_from_file_location("_fix66n_function_names", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.TF_NAMES   # type: ignore[no-any-return]


def _names(tf: Any) -> Any:
    TF_NAMES = _table()   # noqa: N806 - the table's own name
    out = {}
    for path in sorted(TF_NAMES):
        obj = tf
        for part in path.split("."):
            obj = getattr(obj, part)
        out[path] = [obj.__name__, obj.__qualname__]
    return out


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for dt in ("complex64", "complex128"):
        out[f"names/products {dt}"] = _products(dt)
        out[f"packets/div_no_nan {dt}"] = _div_no_nan(dt)
        out[f"packets/scalar add sub {dt}"] = _scalar_add_sub(dt)
    for dt in ("float32", "float64", "complex64", "complex128"):
        out[f"sums/threads {dt}"] = _sums(dt)
    out["sums/auc 10**6"] = _auc
    out["conv3d/onednn"] = _conv3d
    out["refusals/conv transposes"] = _transposes
    out["refusals/bool keys"] = _bool_keys
    out["keras/auto config"] = _configs
    out["names/functions"] = _names
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(\b_NONE_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex")
def test_traced_complex_products_sort_a_python_operand_by_its_const_name(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("names/products"))


@pytest.mark.clause("ops.complex")
def test_complex_div_no_nan_and_scalar_add_sub_packets_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("packets/"))


@pytest.mark.clause("ops.sum-order")
def test_full_sums_past_the_thread_split_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sums/"))


@pytest.mark.clause("ops.conv-generic")
def test_onednn_conv3d_taps_in_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("conv3d/"))


@pytest.mark.clause("ops.argument-errors")
def test_float_output_shapes_and_bool_keys_refused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("refusals/"))


@pytest.mark.clause("keras.layer.arguments")
def test_keras_automatic_config_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("keras/"))


@pytest.mark.clause("keras.layer.arguments")
def test_tf_public_function_names(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab == "names/functions")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
