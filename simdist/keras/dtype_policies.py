"""Keras dtypes and dtype policies (keras/src/backend/common/variables.py, dtype_policies/):
string dtype names, the global float type, `DTypePolicy` (compute and variable dtypes; "float32"
by default, "mixed_float16" computes in float16 with float32 variables) and the autocast scope
under which float variables read as the compute dtype."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.keras.config import floatx, set_floatx  # noqa: F401 - (keras.config owns floatx)


ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
                  "int64", "bfloat16", "bool", "string", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128")
PYTHON_DTYPES_MAP: dict[Any, str] = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64",
                                     complex: "complex128"}

_config: dict[str, Any] = {"policy": None, "autocast": None}


def standardize_dtype(dtype: Any) -> str:
    """A dtype's Keras name ("float32"); None is floatx; Python `int` is "int64" on TF."""
    if dtype is None:
        return floatx()
    if isinstance(dtype, DTypePolicy):   # (Keras's PYTHON_DTYPES_MAP.get of a policy, unhashable there: TypeError;
        raise TypeError(f"unhashable type: '{type(dtype).__name__}'")   # keras.mixed-precision.policy)
    dtype = PYTHON_DTYPES_MAP.get(dtype, dtype)
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    elif isinstance(dtype, np.dtype):
        dtype = dtype.name
    if dtype not in ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return str(dtype)


def is_float_dtype(dtype: Any) -> bool:
    d = standardize_dtype(dtype)
    return d.startswith("float") or d.startswith("bfloat")


def is_int_dtype(dtype: Any) -> bool:
    d = standardize_dtype(dtype)
    return d.startswith("int") or d.startswith("uint")


class DTypePolicy:
    """A layer's compute and variable dtypes, from a name: a dtype ("float32", "float64") or
    "mixed_float16" / "mixed_bfloat16" (compute in 16 bits, variables in float32)."""

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = dtype_policy().name
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)

    @staticmethod
    def _parse_name(name: Any) -> tuple[str, str]:
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        if name == "mixed_float16":
            return "float16", "float32"
        if name == "mixed_bfloat16":
            return "bfloat16", "float32"
        try:
            d = standardize_dtype(name)
        except ValueError:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                             "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                             "'float32'.") from None
        return d, d

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        return self._compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self._variable_dtype

    @property
    def quantization_mode(self) -> None:
        return None

    def convert_input(self, x: Any, autocast: bool, dtype: str) -> Any:
        """A layer's input: arrays become tensors, floats are cast to `dtype` when autocasting;
        integer inputs are left alone (Keras's DTypePolicy.convert_input)."""
        from simdist import tf
        dtype = standardize_dtype(dtype)
        if isinstance(x, tf.Tensor) or getattr(x, "_keras_symbolic", False):
            if autocast and is_float_dtype(x.dtype) and standardize_dtype(x.dtype) != dtype:
                return tf.cast(x, dtype) if isinstance(x, tf.Tensor) else x._cast(dtype)
            return x
        if hasattr(x, "__array__") or hasattr(x, "_as_tensor"):
            t = tf.convert_to_tensor(x)
            if autocast and is_float_dtype(t.dtype) and standardize_dtype(t.dtype) != dtype:
                t = tf.cast(t, dtype)
            return t
        return x

    def get_config(self) -> dict[str, Any]:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "DTypePolicy":
        """The policy `get_config()` describes (Keras: `cls(**config)`)."""
        return cls(**config)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.name == self._name   # type: ignore[attr-defined]

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f'<DTypePolicy "{self._name}">'


class FloatDTypePolicy(DTypePolicy):
    """Keras 3.15's alias of DTypePolicy (`keras.FloatDTypePolicy`), kept for configs that name it."""


_CLASSES = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy}


def dtype_policy() -> DTypePolicy:
    """The global policy (`keras.config.dtype_policy()`): floatx unless set."""
    policy = _config["policy"]
    if policy is None:
        policy = DTypePolicy(floatx())
        _config["policy"] = policy
    return policy


def set_dtype_policy(policy: Any) -> None:
    if not isinstance(policy, DTypePolicy):
        if isinstance(policy, str):
            policy = DTypePolicy(policy)
        else:
            raise ValueError(f"Invalid `policy` argument. Expected the string name of a policy (such as "
                             f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy} "
                             f"(of type {type(policy)})")
    _config["policy"] = policy


def get(identifier: Any) -> DTypePolicy:
    """A policy from None (the global one), a name, a config dict or a policy."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError(f"Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


def serialize(policy: DTypePolicy) -> dict[str, Any]:
    """Keras's serialize_keras_object of a policy: its class's name and its name."""
    return {"module": "keras", "class_name": type(policy).__name__, "config": {"name": policy.name},
            "registered_name": None}


def deserialize(config: dict[str, Any], custom_objects: Any = None) -> Any:
    """`keras.dtype_policies.deserialize`: the policy of the config's class (DTypePolicy or
    FloatDTypePolicy) and name. Keras 3.15's deserialize_keras_object gives back the class name
    itself for a class it does not know (observed); so does this."""
    cls = _CLASSES.get(config.get("class_name"))
    if cls is None:
        return config.get("class_name")
    return cls(config.get("config", {}).get("name"))


def get_autocast_scope() -> "AutocastScope | None":
    return _config["autocast"]


class AutocastScope:
    """Inside, float variables with `autocast=True` read as `dtype` (None: no casting)."""

    def __init__(self, dtype: Any) -> None:
        if dtype is not None:
            dtype = standardize_dtype(dtype)
            if not is_float_dtype(dtype):
                raise ValueError("`AutocastScope` can only be used with a floating-point target dtype, such as "
                                 f"'float16'. Received: dtype={dtype}")
        self.dtype = dtype
        self.original_scope: AutocastScope | None = None

    def maybe_cast(self, value: Any) -> Any:
        from simdist import tf
        if self.dtype is not None and is_float_dtype(value.dtype):
            return tf.cast(value, self.dtype)
        return value

    def __enter__(self) -> "AutocastScope":
        self.original_scope = _config["autocast"]
        _config["autocast"] = self
        return self

    def __exit__(self, *exc: object) -> None:
        _config["autocast"] = self.original_scope


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.dtype_policies names simdist has (one a line; clause api.namespaces)
    "DTypePolicy",
    "FloatDTypePolicy",
    "deserialize",
    "get",
    "serialize",
]
__dir__ = _api.dir_of(__name__)
