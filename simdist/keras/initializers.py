"""`keras.initializers` (keras/src/initializers/): Keras 3.15's formulas, seeds and names.

Random initializers draw with `simdist.keras.random` (stateless ops of a seed pair): an integer
seed gives the same values at every call; an unseeded initializer takes a seed when it is made
(`random.make_default_seed`, derived from the session's root seed), so it too repeats its values,
as Keras's does; a `SeedGenerator` seed advances per call. Which distribution and scale each one
draws from is Keras's; a seeded uniform initializer's values are TF's (stateless_uniform is TF's
Philox), a normal one's are simdist's, not TF's (docs/spec.md, keras.init.seeding).
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np

from simdist.keras.serialization import deserialize_with_module_objects, serialize_keras_object
from simdist import tf
from simdist.keras import dtype_policies as dtypes
from simdist.keras import random
from simdist.keras.naming import to_snake_case



class Initializer:
    """Base class: `initializer(shape, dtype=None)` -> a tensor."""

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        raise NotImplementedError("Initializer subclasses must implement the `__call__()` method.")

    def get_config(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Initializer":
        return cls(**config)

    def clone(self) -> "Initializer":
        return type(self).from_config(self.get_config())


class Constant(Initializer):
    """Every element `value` (a scalar)."""

    def __init__(self, value: Any = 0.0) -> None:
        self.value = value

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dtype = dtypes.standardize_dtype(dtype)
        return tf.cast(self.value, dtype) * tf.ones(list(shape), dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"value": self.value}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Constant":
        return cls(config["value"])   # (KeyError for get("constant"), as Keras)


class Zeros(Initializer):
    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return tf.zeros(list(shape), dtype=dtypes.standardize_dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return tf.ones(list(shape), dtype=dtypes.standardize_dtype(dtype))


class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        dtype = dtypes.standardize_dtype(dtype)
        return self.gain * tf.eye(shape[0], shape[1], dtype=dtype)   # (Keras: `gain * ops.eye`, a weak Python gain)


class RandomInitializer(Initializer):
    """Holds the seed: an int, a SeedGenerator, or None (a seed made now)."""

    def __init__(self, seed: Any = None) -> None:
        self._init_seed = seed
        if seed is None:
            seed = random.make_default_seed()
        elif not isinstance(seed, (int, random.SeedGenerator)):   # (Keras 3.15: no NumPy integer; a bool passes
            # here and fails at the draw, random.draw_seed)
            raise ValueError("`seed` argument should be an instance of `keras.random.SeedGenerator()` or an integer. "
                             f"Received: seed={seed}")
        self.seed = seed

    def get_config(self) -> dict[str, Any]:
        return {"seed": self._init_seed}


class RandomNormal(RandomInitializer):
    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return random.normal(shape, mean=self.mean, stddev=self.stddev, seed=self.seed, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomInitializer):
    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return random.truncated_normal(shape, mean=self.mean, stddev=self.stddev, seed=self.seed, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class RandomUniform(RandomInitializer):
    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: Any = None) -> None:
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return random.uniform(shape, minval=self.minval, maxval=self.maxval, seed=self.seed, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "minval": self.minval, "maxval": self.maxval}


class Orthogonal(RandomInitializer):
    """`keras.initializers.Orthogonal(gain=1.0, seed=None)`: a normal matrix, flattened to
    (rows = prod(shape[:-1]), cols = shape[-1]), made orthogonal by its QR factorization in the
    dtype (Q with the signs of diag(R), transposed when rows < cols), times gain. As Keras's:
    `ops.qr` in the requested dtype (no bfloat16 kernel: TF's refusal), and `gain * q` with gain
    a weak Python number, so a float64 Q is scaled by the float64 gain, not by gain through
    float32 (docs/spec.md keras.init.distributions, psweep64)."""

    def __init__(self, gain: float = 1.0, seed: Any = None) -> None:
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        num_rows = int(np.prod([int(d) for d in shape[:-1]]))
        num_cols = int(shape[-1])
        flat_shape = (max(num_cols, num_rows), min(num_cols, num_rows))
        a = random.normal(flat_shape, seed=self.seed, dtype=dtype)
        q, r = tf.linalg.qr(a)
        q = q * tf.sign(tf.linalg.diag_part(r))
        if num_rows < num_cols:
            q = tf.transpose(q)
        q = tf.reshape(q, [int(d) for d in shape])
        return tf.multiply(q, tf.constant(self.gain, dtype=q.dtype))   # the weak gain, in Q's dtype

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "gain": self.gain}


def _set_text(items: tuple) -> str:
    """A set literal in sorted order (Keras formats a set, whose order varies between processes)."""
    return "{" + ", ".join(repr(i) for i in sorted(items)) + "}"


def compute_fans(shape: Any, input_axes: Any = None, output_axes: Any = None) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight shape (convolution kernels: receptive field times depth)."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return int(math.prod(shape[a] for a in input_axes)), int(math.prod(shape[a] for a in output_axes))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive = math.prod(shape[:-2])
    return int(shape[-2] * receptive), int(shape[-1] * receptive)


class VarianceScaling(RandomInitializer):
    """Samples scaled by the fans: stddev sqrt(scale / n) (truncated: divided by .8796...), or
    uniform in +-sqrt(3 scale / n); n is fan_in, fan_out or their mean."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: Any = None, input_axes: Any = None, output_axes: Any = None) -> None:
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        allowed_modes = ("fan_avg", "fan_in", "fan_out")
        if mode not in allowed_modes:   # (Keras prints a set, in hash order; simdist sorts it)
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of {_set_text(allowed_modes)}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        allowed = ("truncated_normal", "uniform", "untruncated_normal")
        if distribution not in allowed:
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Please use one of {_set_text(allowed)}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.input_axes = input_axes
        self.output_axes = output_axes
        super().__init__(seed=seed)

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        scale = self.scale
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random.truncated_normal(shape, mean=0.0, stddev=stddev, dtype=dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random.normal(shape, mean=0.0, stddev=math.sqrt(scale), dtype=dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random.uniform(shape, minval=-limit, maxval=limit, dtype=dtype, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes, "output_axes": self.output_axes}


class _Preset(VarianceScaling):
    """A VarianceScaling with fixed scale, mode and distribution (Glorot, He, LeCun)."""

    _preset: tuple[float, str, str] = (1.0, "fan_avg", "uniform")

    def __init__(self, seed: Any = None, input_axes: Any = None, output_axes: Any = None) -> None:
        scale, mode, distribution = self._preset
        super().__init__(scale=scale, mode=mode, distribution=distribution, seed=seed, input_axes=input_axes,
                         output_axes=output_axes)

    def get_config(self) -> dict[str, Any]:
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class GlorotUniform(_Preset):
    """Uniform in +-sqrt(6 / (fan_in + fan_out))."""
    _preset = (1.0, "fan_avg", "uniform")


class GlorotNormal(_Preset):
    """Truncated normal, stddev sqrt(2 / (fan_in + fan_out))."""
    _preset = (1.0, "fan_avg", "truncated_normal")


class LecunNormal(_Preset):
    _preset = (1.0, "fan_in", "truncated_normal")


class LecunUniform(_Preset):
    _preset = (1.0, "fan_in", "uniform")


class HeNormal(_Preset):
    """Truncated normal, stddev sqrt(2 / fan_in)."""
    _preset = (2.0, "fan_in", "truncated_normal")


class HeUniform(_Preset):
    """Uniform in +-sqrt(6 / fan_in)."""
    _preset = (2.0, "fan_in", "uniform")


class STFT(Initializer):
    """`keras.initializers.STFT(side="real", window="hann", scaling="density", periodic=False)`
    (Keras 3.15's constant_initializers.py): a (frame_length, channels, bins) kernel of
    cos (real) or sin (imag) of -2 pi t f / (2 (bins - 1)), times the window (SciPy's
    `get_window(window, frame_length, periodic)` in the dtype) and divided by its scaling (density:
    sqrt(sum w^2); spectrum: sum |w|); the STFTSpectrogram layer's kernels."""

    def __init__(self, side: str = "real", window: Any = "hann", scaling: str | None = "density",
                 periodic: bool = False) -> None:
        if side not in ["real", "imag"]:
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _scipy_window(window, 1)   # raises for an unknown window, as Keras
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side = side
        self.window = window
        self.scaling = scaling
        self.periodic = periodic

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        from simdist.keras.ops import tf_numpy as knp
        dtype = dtypes.standardize_dtype(dtype)
        frame_length, _, fft_length = shape
        win = None
        scaling: Any = 1
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _scipy_window(win, frame_length, self.periodic)
            win = tf.convert_to_tensor(np.asarray(win) if not isinstance(win, tf.Tensor) else win, dtype=dtype)
            if len(win.shape) != 1 or win.shape[-1] != frame_length:
                raise ValueError("The shape of `window` must be equal to [frame_length]."
                                 f"Received: window shape={win.shape}")
            win = knp.reshape(win, [frame_length, 1, 1])
            if self.scaling == "density":
                scaling = knp.sqrt(knp.sum(knp.square(win)))
            elif self.scaling == "spectrum":
                scaling = knp.sum(knp.abs(win))
        freq = knp.divide(knp.reshape(knp.arange(fft_length, dtype=dtype), (1, 1, fft_length)), (fft_length - 1) * 2)
        time = knp.reshape(knp.arange(frame_length, dtype=dtype), (frame_length, 1, 1))
        args = knp.multiply(knp.multiply(-2, time), freq) * knp.arccos(tf.cast(-1, dtype))
        kernel = tf.cast(knp.cos(args) if self.side == "real" else knp.sin(args), dtype)
        if win is not None:
            kernel = knp.divide(knp.multiply(kernel, win), scaling)
        return kernel

    def get_config(self) -> dict[str, Any]:
        return {"side": self.side, "window": self.window, "periodic": self.periodic, "scaling": self.scaling}


def _scipy_window(window: Any, length: int, periodic: bool = True) -> np.ndarray:
    """SciPy's `signal.get_window(window, length, fftbins=periodic)` (Keras's window source)."""
    from scipy import signal
    return signal.get_window(window, length, periodic)


_CLASSES = [Initializer, Constant, Identity, Ones, Zeros, GlorotNormal, GlorotUniform, HeNormal, HeUniform,
            LecunNormal, LecunUniform, Orthogonal, RandomNormal, RandomUniform, STFT, TruncatedNormal, VarianceScaling]
ALL_OBJECTS_DICT: dict[str, type] = {c.__name__: c for c in _CLASSES}
ALL_OBJECTS_DICT.update({to_snake_case(c.__name__): c for c in _CLASSES})
ALL_OBJECTS_DICT.update({"IdentityInitializer": Identity, "normal": RandomNormal, "one": Ones,
                         "uniform": RandomUniform, "zero": Zeros, "OrthogonalInitializer": Orthogonal,
                         "STFTInitializer": STFT})

# Keras's lower-case aliases of the classes (keras.initializers.glorot_uniform, ...)
constant, zeros, ones, identity = Constant, Zeros, Ones, Identity
glorot_normal, glorot_uniform, he_normal, he_uniform = GlorotNormal, GlorotUniform, HeNormal, HeUniform
lecun_normal, lecun_uniform, variance_scaling = LecunNormal, LecunUniform, VarianceScaling
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
orthogonal = Orthogonal
STFTInitializer = stft = STFT
IdentityInitializer, OrthogonalInitializer = Identity, Orthogonal   # (Keras's class names; the others alias them)


def serialize(initializer: Any) -> Any:
    """Keras's serialization_lib.serialize_keras_object of an initializer (keras.saving.json-and-serialize): its
    {"module", "class_name", "config", "registered_name"} dict; None for None; a plain function as Keras writes any
    function (`{"module": "builtins", "class_name": "function", ...}`)."""
    if isinstance(initializer, Initializer):
        return serialize_keras_object(initializer, "keras.initializers")
    from simdist.keras.utils.keras_object_serialization import serialize_keras_object as serialize_any
    return serialize_any(initializer)


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The initializer a `serialize` dict (or a name) describes (Keras's deserialize_keras_object with
    module_objects: an unknown name comes back as a str)."""
    decided, out = deserialize_with_module_objects(config, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    if isinstance(config, str):
        return ALL_OBJECTS_DICT[config].from_config({})
    name = config.get("class_name")
    cls = (custom_objects or {}).get(name) or ALL_OBJECTS_DICT.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret initializer identifier: {name}")
    return cls.from_config(config.get("config") or {})


def get(identifier: Any) -> Any:
    """An initializer from a name ("glorot_uniform", "GlorotUniform"), a config dict, a class,
    a callable, or a tensor/array (its value, for that shape only)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj: Any = deserialize(identifier)
    elif isinstance(identifier, str):
        if identifier not in ALL_OBJECTS_DICT:
            raise ValueError(f"Could not interpret initializer identifier: {identifier}")
        obj = ALL_OBJECTS_DICT[identifier].from_config({})
    elif isinstance(identifier, (tf.Tensor, np.ndarray, np.generic)):
        value = identifier

        def initialize_fn(shape: Any, dtype: Any = None) -> Any:
            dtype = dtypes.standardize_dtype(dtype)
            if tuple(shape) != tuple(np.shape(value)):
                raise ValueError(f"Expected `shape` to be {tuple(np.shape(value))} for direct tensor as initializer. "
                                 f"Received shape={shape}")
            return tf.cast(value, dtype)

        obj = initialize_fn
    else:
        obj = identifier
    if callable(obj):
        if inspect.isclass(obj):
            obj = obj()
        return obj
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.initializers names simdist has (one a line; clause api.namespaces)
    "Constant",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "IdentityInitializer",
    "Initializer",
    "LecunNormal",
    "LecunUniform",
    "Ones",
    "Orthogonal",
    "OrthogonalInitializer",
    "RandomNormal",
    "RandomUniform",
    "STFT",
    "STFTInitializer",
    "TruncatedNormal",
    "VarianceScaling",
    "Zeros",
    "constant",
    "deserialize",
    "get",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "serialize",
    "stft",
    "truncated_normal",
    "variance_scaling",
    "zeros",
]
__dir__ = _api.dir_of(__name__)
