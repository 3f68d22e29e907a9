"""The dense training raw ops over resource handles (clause ops.training-kernels): ResourceApplyGradientDescent,
ResourceApplyMomentum, ResourceApplyKerasMomentum, ResourceApplyAdam, ResourceApplyAdamWithAmsgrad,
ResourceApplyAdagrad, ResourceApplyAdagradV2, ResourceApplyRMSProp, ResourceApplyCenteredRMSProp,
ResourceApplyAdadelta, ResourceApplyAdaMax, ResourceApplyFtrl, ResourceApplyFtrlV2,
ResourceApplyProximalGradientDescent, ResourceApplyProximalAdagrad, ResourceApplyAddSign, ResourceApplyPowerSign and
ResourceApplyAdagradDA, as TF 2.21's CPU kernels compute them (tensorflow/core/kernels/training_ops.cc, the
functor::Apply* CPU functors): every operation in the kernel's dtype T and in the functor's order (`var -= grad * lr`
is var - (grad * lr); half and bfloat16 round after each operation, as Eigen's half arithmetic does; Eigen's scalar
rsqrt is 1 / sqrt), so a variable of fewer elements than a SIMD packet holds TF's bits exactly. Eigen's vectorized
rsqrt (Adagrad, Adadelta, ProximalAdagrad) and pow/exp (Ftrl's lr_power other than -0.5, PowerSign) are not bit
for bit libm's: on longer variables those ops agree to rounding.

The kernels' checks, observed on TF 2.21 (texts with the wrapped function's prefix): each handle's lookup
(InternalError "Invalid variable reference." for a VarHandleOp handle without a variable); the scalar inputs in input
order ("lr is not a scalar: [1]"; RMSProp's, CenteredRMSProp's, Adam's, AdamWithAmsgrad's and AdaMax's "lr is not a
scalar : [1]"; dense Ftrl's and FtrlV2's "lr_power is not a scalar[1]", FtrlV2's before l2_shrinkage's; AddSign
and PowerSign check alpha's or logbase's shape in sign_decay's place, so sign_decay of one element in any shape is
taken; l1 and l2 "l1
regularization strength is not a scalar: [1]"; ProximalAdagrad's "lr is not a positive scalar: []" and "l1
regularization strength is not a non-negative scalar: []", values checked too) and the slots' and gradient's shapes
against var's ("var and accum do not have the same shape[3,2] [3,3]"), in the kernel's order: AdagradDA, Ftrl,
FtrlV2 and ProximalAdagrad check the shapes first. Adadelta does not check accum_update's shape, AdamWithAmsgrad not
vhat's; AdagradDA names both accumulators "accum". A variable whose dtype is not T aborts TF 2.21's process (a CHECK
in Tensor::CheckType); simdist raises InvalidArgumentError "Trying to read variable with wrong dtype".
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import args as _args, dispatch, resource_manager
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.resource_manager import kernel_error
from simdist.runtime.tensor import Tensor

__all__ = ["NAMES", "forms"]


def _sign(x: np.ndarray) -> np.ndarray:
    """Eigen's scalar_sign_op for a real T: (x > 0) - (x < 0), so NaN's sign is 0."""
    return ((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)).astype(x.dtype)


def _pow(x: np.ndarray, p: Any) -> np.ndarray:
    return (x.astype(np.float64) ** np.float64(p)).astype(x.dtype) if x.dtype == np.float32 else np.power(x, p)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    """Eigen's `.rsqrt()` inside a functor's fused expression: per element exactly the Rsqrt op's kernel (float32:
    prsqrt, vrsqrtps and a Newton step, on the flat array's packets of 8, 1/sqrt on the tail; unary._rsqrt), not
    a correctly rounded 1/sqrt (ApplyAdagrad's var an ulp or four off TF 2.21 on 4 of 40 float32 elements;
    clause ops.training-kernels)."""
    from simdist.runtime.ops.unary import _rsqrt as rsqrt_kernel
    with np.errstate(divide="ignore", invalid="ignore"):
        return rsqrt_kernel(np.asarray(x)).astype(x.dtype, copy=False)


# --- the CPU functors (training_ops.cc), on arrays and scalars of T -------------------------------------------------
# s: the scalar inputs by name (0-d arrays' items of T); v: var and the slots by name; g: the gradient; a: the attrs.
# Each returns the new arrays by name.

def _gd(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    return {"var": v["var"] - g * s["alpha"]}


def _momentum(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    accum = v["accum"] * s["momentum"] + g
    if a["use_nesterov"]:
        var = v["var"] - (g * s["lr"] + accum * s["momentum"] * s["lr"])
    else:
        var = v["var"] - accum * s["lr"]
    return {"accum": accum, "var": var}


def _keras_momentum(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    accum = v["accum"] * s["momentum"] - g * s["lr"]
    if a["use_nesterov"]:
        var = v["var"] + (accum * s["momentum"] - g * s["lr"])
    else:
        var = v["var"] + accum
    return {"accum": accum, "var": var}


def _adam_alpha(s: dict, one: Any) -> Any:
    return s["lr"] * np.sqrt(one - s["beta2_power"]) / (one - s["beta1_power"])


def _adam(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    alpha = _adam_alpha(s, one)
    m = v["m"] + (g - v["m"]) * (one - s["beta1"])
    vv = v["v"] + (g * g - v["v"]) * (one - s["beta2"])
    if a["use_nesterov"]:
        var = v["var"] - ((g * (one - s["beta1"]) + s["beta1"] * m) * alpha) / (np.sqrt(vv) + s["epsilon"])
    else:
        var = v["var"] - (m * alpha) / (np.sqrt(vv) + s["epsilon"])
    return {"m": m, "v": vv, "var": var}


def _amsgrad(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    alpha = _adam_alpha(s, one)
    m = v["m"] + (g - v["m"]) * (one - s["beta1"])
    vv = v["v"] + (g * g - v["v"]) * (one - s["beta2"])
    vhat = np.maximum(v["vhat"], vv)
    return {"m": m, "v": vv, "vhat": vhat, "var": v["var"] - (m * alpha) / (np.sqrt(vhat) + s["epsilon"])}


def _adamax(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    m = v["m"] + (g - v["m"]) * (one - s["beta1"])
    vv = np.maximum(s["beta2"] * v["v"], np.abs(g))
    return {"m": m, "v": vv, "var": v["var"] - s["lr"] / (one - s["beta1_power"]) * (m / (vv + s["epsilon"]))}


def _adagrad(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    accum = v["accum"] + g * g if a["update_slots"] else v["accum"]
    return {"accum": accum, "var": v["var"] - g * s["lr"] * _rsqrt(accum)}


def _adagrad_v2(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    accum = v["accum"] + g * g if a["update_slots"] else v["accum"]
    return {"accum": accum, "var": v["var"] - g * s["lr"] / (np.sqrt(accum) + s["epsilon"])}


def _rmsprop(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    ms = v["ms"] + (g * g - v["ms"]) * (one - s["rho"])
    mom = v["mom"] * s["momentum"] + (g * s["lr"]) / np.sqrt(ms + s["epsilon"])
    return {"ms": ms, "mom": mom, "var": v["var"] - mom}


def _centered_rmsprop(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    ms = v["ms"] + (g * g - v["ms"]) * (one - s["rho"])
    mg = v["mg"] + (g - v["mg"]) * (one - s["rho"])
    denom = (ms - mg * mg) + s["epsilon"]
    mom = v["mom"] * s["momentum"] + (g * s["lr"]) / np.sqrt(denom)
    return {"ms": ms, "mg": mg, "mom": mom, "var": v["var"] - mom}


def _adadelta(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    accum = v["accum"] * s["rho"] + g * g * (one - s["rho"])
    update = np.sqrt(v["accum_update"] + s["epsilon"]) * _rsqrt(accum + s["epsilon"]) * g
    var = v["var"] - update * s["lr"]
    accum_update = v["accum_update"] * s["rho"] + update * update * (one - s["rho"])
    return {"accum": accum, "accum_update": accum_update, "var": var}


def _ftrl_linear(v: dict, s: dict, g: np.ndarray, new_accum: np.ndarray, by_lr: bool, shrunk: np.ndarray) -> Any:
    half = s["lr_power"] == g.dtype.type(-0.5)
    if half:
        step = np.sqrt(new_accum) - np.sqrt(v["accum"])
    else:
        step = _pow(new_accum, -s["lr_power"]) - _pow(v["accum"], -s["lr_power"])
    if by_lr:
        return v["linear"] + (shrunk * s["lr"] - step * v["var"])
    return v["linear"] + (shrunk - step / s["lr"] * v["var"])


def _ftrl(v2: bool) -> Callable[..., dict]:
    def run(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
        two, zero = g.dtype.type(2), g.dtype.type(0)
        by_lr = a["multiply_linear_by_lr"]
        shrunk = g + two * s["l2_shrinkage"] * v["var"] if v2 else g
        new_accum = v["accum"] + g * g
        linear = _ftrl_linear(v, s, g, new_accum, by_lr, shrunk)
        root = np.sqrt(new_accum) if s["lr_power"] == g.dtype.type(-0.5) else _pow(new_accum, -s["lr_power"])
        if by_lr:
            l1 = s["l1"] * s["lr"]
            y = root + two * s["l2"] * s["lr"]
        else:
            l1 = s["l1"]
            y = root / s["lr"] + two * s["l2"]
        x = l1 * _sign(linear) - linear
        var = np.where(np.abs(linear) > l1, x / y, zero)
        return {"linear": linear, "var": var, "accum": v["accum"] + g * g}
    return run


def _proximal_gd(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one, zero = g.dtype.type(1), g.dtype.type(0)
    prox = v["var"] - g * s["alpha"]
    if s["l1"] > 0:
        var = _sign(prox) * np.maximum(np.abs(prox) - s["alpha"] * s["l1"], zero) / (one + s["l2"] * s["alpha"])
    else:
        var = prox / (one + s["l2"] * s["alpha"])
    return {"var": var}


def _proximal_adagrad(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one, zero = g.dtype.type(1), g.dtype.type(0)
    accum = v["accum"] + g * g
    rate = s["lr"] * _rsqrt(accum)
    prox = v["var"] - g * rate
    if s["l1"] > 0:
        var = _sign(prox) * np.maximum(np.abs(prox) - rate * s["l1"], zero) / (one + s["l2"] * rate)
    else:
        var = prox / (one + s["l2"] * rate)
    return {"accum": accum, "var": var}


def _add_sign(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    m = v["m"] * s["beta"] + g * (one - s["beta"])
    sign_gm = _sign(g) * _sign(m)
    return {"m": m, "var": v["var"] - s["lr"] * (s["alpha"] + s["sign_decay"] * sign_gm) * g}


def _power_sign(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    one = g.dtype.type(1)
    m = v["m"] * s["beta"] + g * (one - s["beta"])
    sign_gm = _sign(g) * _sign(m)
    scale = np.exp(s["logbase"] * s["sign_decay"] * sign_gm)
    return {"m": m, "var": v["var"] - s["lr"] * scale * g}


def _adagrad_da(v: dict, s: dict, g: np.ndarray, a: dict) -> dict:
    t = g.dtype.type
    ga = v["gradient_accumulator"] + g
    gsa = v["gradient_squared_accumulator"] + g * g
    step = t(np.float32(s["global_step"]))   # (static_cast<float>(global_step), then T)
    denom = s["l2"] * (step * s["lr"]) + np.sqrt(gsa)
    if s["l1"] > 0:
        var = s["lr"] * t(-1) * _sign(ga) * np.maximum(np.abs(ga) - step * s["l1"], t(0)) / denom
    else:
        var = s["lr"] * ga * t(-1) / denom
    return {"gradient_accumulator": ga, "gradient_squared_accumulator": gsa, "var": var}


class _Spec:
    """One dense training op: its handle inputs (var first), the slots whose shape the kernel checks (with the name
    its message gives each), its scalar inputs (with their message and value rule), its gradient input, whether the
    shapes are checked before the scalars, and its functor."""

    __slots__ = ("handles", "checked", "scalars", "grad", "shapes_first", "fn", "attrs")

    def __init__(self, handles: tuple, checked: dict, scalars: dict, grad: str, fn: Callable[..., dict],
                 shapes_first: bool = False, attrs: tuple = ()) -> None:
        self.handles, self.checked, self.scalars, self.grad = handles, checked, scalars, grad
        self.fn, self.shapes_first, self.attrs = fn, shapes_first, attrs


def _plain(*names: str, lr_text: str = "lr is not a scalar: ", **rules: tuple) -> dict:
    """The scalar inputs `names` in the kernel's order, each (its message, its rule): TF's words, or `rules[name]`."""
    out = {}
    for n in names:
        if n in rules:
            out[n] = rules[n]
        elif n == "lr":
            out[n] = (lr_text, None)
        elif n in ("l1", "l2"):
            out[n] = (f"{n} regularization strength is not a scalar: ", None)
        elif n == "l2_shrinkage":
            out[n] = ("l2 shrinkage regularization strength is not a scalar: ", None)
        else:
            out[n] = (f"{n} is not a scalar: ", None)
    return out


# (the kernels that word lr's check "lr is not a scalar : ": RMSProp, CenteredRMSProp, Adam, AdamWithAmsgrad, AdaMax)
_SPACED_LR = "lr is not a scalar : "
# (dense Ftrl and FtrlV2: StrCat("lr_power is not a scalar", shape), no separator)
_FTRL_LR_POWER = ("lr_power is not a scalar", None)
# (AddSign checks alpha's shape where sign_decay's belongs, PowerSign logbase's: sign_decay's shape is never checked,
# and the functor reads its one element, sign_decay.scalar<T>())
_UNCHECKED = ("", "one element")
_SPECS: dict[str, _Spec] = {
    "ResourceApplyGradientDescent": _Spec(("var",), {}, _plain("alpha"), "delta", _gd),
    "ResourceApplyMomentum": _Spec(("var", "accum"), {"accum": "accum"}, _plain("lr", "momentum"), "grad", _momentum,
                                   attrs=("use_nesterov",)),
    "ResourceApplyKerasMomentum": _Spec(("var", "accum"), {"accum": "accum"}, _plain("lr", "momentum"), "grad",
                                        _keras_momentum, attrs=("use_nesterov",)),
    "ResourceApplyAdam": _Spec(("var", "m", "v"), {"m": "m", "v": "v"},
                               _plain("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
                                      lr_text=_SPACED_LR), "grad", _adam,
                               attrs=("use_nesterov",)),
    "ResourceApplyAdamWithAmsgrad": _Spec(("var", "m", "v", "vhat"), {"m": "m", "v": "v"},
                                          _plain("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
                                                 lr_text=_SPACED_LR), "grad", _amsgrad),
    "ResourceApplyAdaMax": _Spec(("var", "m", "v"), {"m": "m", "v": "v"},
                                 _plain("beta1_power", "lr", "beta1", "beta2", "epsilon", lr_text=_SPACED_LR), "grad",
                                 _adamax),
    "ResourceApplyAdagrad": _Spec(("var", "accum"), {"accum": "accum"}, _plain("lr"), "grad", _adagrad,
                                  attrs=("update_slots",)),
    "ResourceApplyAdagradV2": _Spec(("var", "accum"), {"accum": "accum"}, _plain("lr", "epsilon"), "grad",
                                    _adagrad_v2, attrs=("update_slots",)),
    "ResourceApplyRMSProp": _Spec(("var", "ms", "mom"), {"ms": "ms", "mom": "mom"},
                                  _plain("lr", "rho", "momentum", "epsilon", lr_text=_SPACED_LR), "grad", _rmsprop),
    "ResourceApplyCenteredRMSProp": _Spec(("var", "mg", "ms", "mom"), {"mg": "mg", "ms": "ms", "mom": "mom"},
                                          _plain("lr", "rho", "momentum", "epsilon", lr_text=_SPACED_LR), "grad",
                                          _centered_rmsprop),
    "ResourceApplyAdadelta": _Spec(("var", "accum", "accum_update"), {"accum": "accum"},
                                   _plain("lr", "rho", "epsilon"), "grad", _adadelta),
    "ResourceApplyFtrl": _Spec(("var", "accum", "linear"), {"accum": "accum", "linear": "linear"},
                               _plain("lr", "l1", "l2", "lr_power", lr_power=_FTRL_LR_POWER), "grad", _ftrl(False),
                               shapes_first=True,
                               attrs=("multiply_linear_by_lr",)),
    "ResourceApplyFtrlV2": _Spec(("var", "accum", "linear"), {"accum": "accum", "linear": "linear"},
                                 _plain("lr", "l1", "l2", "lr_power", "l2_shrinkage", lr_power=_FTRL_LR_POWER), "grad",
                                 _ftrl(True),
                                 shapes_first=True, attrs=("multiply_linear_by_lr",)),
    "ResourceApplyProximalGradientDescent": _Spec(("var",), {}, _plain("alpha", "l1", "l2"), "delta", _proximal_gd),
    "ResourceApplyProximalAdagrad": _Spec(
        ("var", "accum"), {"accum": "accum"},
        {"lr": ("lr is not a positive scalar: ", "positive"),
         "l1": ("l1 regularization strength is not a non-negative scalar: ", "non-negative"),
         "l2": ("l2 regularization strength is not a non-negative scalar: ", "non-negative")},
        "grad", _proximal_adagrad, shapes_first=True),
    "ResourceApplyAddSign": _Spec(("var", "m"), {"m": "m"},
                                  _plain("lr", "alpha", "sign_decay", "beta", sign_decay=_UNCHECKED), "grad",
                                  _add_sign),
    "ResourceApplyPowerSign": _Spec(("var", "m"), {"m": "m"},
                                    _plain("lr", "logbase", "sign_decay", "beta", sign_decay=_UNCHECKED), "grad",
                                    _power_sign),
    "ResourceApplyAdagradDA": _Spec(
        ("var", "gradient_accumulator", "gradient_squared_accumulator"),
        {"gradient_accumulator": "accum", "gradient_squared_accumulator": "accum"},
        _plain("lr", "l1", "l2", "global_step"), "grad", _adagrad_da, shapes_first=True),
}

NAMES = tuple(sorted(_SPECS))


def _lookup(op: str, t: Tensor) -> Any:
    from simdist.runtime import resource_handle
    h = resource_handle.handle_in(t)
    if h.var is not None:
        return h.var
    found = resource_manager.lookup(h.container, h.name)
    if found is None:
        raise kernel_error(op, "Invalid variable reference.", errors.InternalError, True)
    return found


def _apply(op: str, spec: _Spec, every: dict[str, Any]) -> None:
    dispatch.unrecordable(f"it runs the training op {op}")
    grad_t: Tensor = every[spec.grad]
    T = grad_t.dtype
    held = {n: _lookup(op, every[n]) for n in spec.handles}
    for n, var in held.items():
        if var._dtype != T:   # (TF 2.21 aborts: a CHECK in Tensor::CheckType)
            raise kernel_error(op, f"Trying to read variable with wrong dtype. Expected {_args.tf_name(T)} got "
                                   f"{_args.tf_name(var._dtype)}", name_tail=True)
    arrays = {n: var._read_array() for n, var in held.items()}
    g = dispatch.raw(grad_t)

    def shapes() -> None:
        want = arrays["var"].shape
        for n, label in spec.checked.items():
            if arrays[n].shape != want:
                raise kernel_error(op, f"var and {label} do not have the same shape{_args.dims(want)} "
                                       f"{_args.dims(arrays[n].shape)}", name_tail=True)
        if g.shape != want:
            raise kernel_error(op, f"var and {spec.grad} do not have the same shape{_args.dims(want)} "
                                   f"{_args.dims(g.shape)}", name_tail=True)

    def scalars() -> dict[str, Any]:
        out = {}
        for n, (text, rule) in spec.scalars.items():
            arr = dispatch.raw(every[n])
            if rule == "one element":   # (not checked; Tensor::scalar's CHECK of one element aborts TF 2.21)
                if arr.size != 1:
                    raise kernel_error(op, f"Must have a one element tensor: {n} of shape{_args.dims(arr.shape)}",
                                       name_tail=True)
                out[n] = arr.reshape(())[()]
                continue
            ok = arr.ndim == 0
            if ok and rule == "positive":
                ok = bool(arr > 0)
            elif ok and rule == "non-negative":
                ok = bool(arr >= 0)
            if not ok:
                raise kernel_error(op, f"{text}{_args.dims(arr.shape)}", name_tail=True)
            out[n] = arr[()]
        return out

    if spec.shapes_first:
        shapes()
        s = scalars()
    else:
        s = scalars()
        shapes()
    attrs = {k: every[k] for k in spec.attrs}
    with np.errstate(all="ignore"):   # (NaN and inf as the kernel makes them, silently)
        new = spec.fn(arrays, s, g, attrs)
    for n in spec.handles:   # (each written once, var last: the functor's results)
        if n in new and n != "var":
            held[n]._write("assign", np.asarray(new[n], dtype=arrays[n].dtype))
    held["var"]._write("assign", np.asarray(new["var"], dtype=arrays["var"].dtype))
    return None


def forms() -> dict[str, RawArgs]:
    """The raw form of each op of NAMES (raw_ops.binding, through raw_resource_ops)."""
    out = {}
    for name, spec in _SPECS.items():
        out[name] = RawArgs(via=lambda _name=name, _spec=spec, **every: _apply(_name, _spec, every))
    return out
