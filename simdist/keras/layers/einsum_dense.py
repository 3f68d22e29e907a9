"""`keras.layers.EinsumDense` (keras/src/layers/core/einsum_dense.py) and Keras's `ops.einsum` on
its TensorFlow backend (keras/src/backend/tensorflow/numpy.py), which MultiHeadAttention's
projections and attention products go through.

Keras's TF `einsum` renames the equation's letters in order of first appearance ("BTNH,..."
becomes "abcd,..."), casts the operands to their result dtype and, for a fixed list of
equations, runs reshapes/transposes around one `tf.matmul` instead of `tf.einsum` (to reach the
BLAS kernels); simdist follows the same list, so the ops (and their float rounding) are TF's.
EinsumDense is the kernel (and bias) whose shapes the equation and the partial output shape
determine; a VarianceScaling kernel initializer gets the equation's input and output axes as
its fans, as in Keras.
"""

from __future__ import annotations

import re
import string
from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, dtype_policies, dtype_promotion, initializers, regularizers
from simdist.keras.layers import lora
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["EinsumDense", "einsum", "normalize_subscripts"]


def normalize_subscripts(subscripts: str) -> str:
    """Letters renamed a, b, c... in order of first appearance (Keras's _normalize_einsum_subscripts)."""
    mapping: dict[str, str] = {}
    out = ""
    for c in subscripts:
        if c in string.ascii_letters:
            if c not in mapping:
                mapping[c] = string.ascii_letters[len(mapping)]
            out += mapping[c]
        else:
            out += c
    return out


def _result_dtype(dtypes: list[str]) -> str:
    """Keras's result_type for einsum operands of these dtypes (simdist/keras/dtype_promotion.py)."""
    return dtype_promotion.result_type(*dtypes)


def _static(*dims: Any) -> bool:
    return all(d is not None for d in dims)


def _matmul_form(sub: str, x: Any, y: Any) -> Any:
    """The matmul Keras's TF einsum runs for `sub`, or None when `sub` is not on its list."""
    mm = tf.matmul
    if sub == "a,b->ab":
        return mm(tf.expand_dims(x, -1), tf.expand_dims(y, 0))
    if sub == "ab,b->a":
        return tf.squeeze(mm(x, tf.expand_dims(y, -1)), axis=-1)
    if sub in ("ab,bc->ac", "abc,cd->abd", "abcd,abde->abce"):
        return mm(x, y)
    if sub == "ab,cb->ac" or sub == "abc,dc->abd":
        return mm(x, tf.transpose(y, [1, 0]))
    if sub == "abcd,abed->abce":
        return mm(x, tf.transpose(y, [0, 1, 3, 2]))
    if sub == "abcd,acbe->adbe":
        return tf.transpose(mm(tf.transpose(x, [0, 1, 3, 2]), tf.transpose(y, [0, 2, 1, 3])), [0, 2, 1, 3])
    if sub == "abcd,adbe->acbe":
        return tf.transpose(mm(x, tf.transpose(y, [0, 2, 1, 3])), [0, 2, 1, 3])
    if sub == "abcd,aecd->acbe":
        return mm(tf.transpose(x, [0, 2, 1, 3]), tf.transpose(y, [0, 2, 3, 1]))
    if sub == "abcd,aecd->aceb":
        return tf.transpose(mm(tf.transpose(x, [0, 2, 1, 3]), tf.transpose(y, [0, 2, 3, 1])), [0, 1, 3, 2])
    if sub in ("abc,cde->abde", "abc,dce->abde", "abc,dec->abde"):
        b, c1 = x.shape[1], x.shape[2]
        perm = {"abc,cde->abde": None, "abc,dce->abde": [1, 0, 2], "abc,dec->abde": [2, 0, 1]}[sub]
        yy = y if perm is None else tf.transpose(y, perm)       # now (c, d, e)
        c, d, e = c1 or yy.shape[0], yy.shape[1], yy.shape[2]
        if not _static(b, c, d, e):
            return None
        return tf.reshape(mm(x, tf.reshape(yy, [c, -1])), [-1, b, d, e])
    if sub in ("abcd,cde->abe", "abcd,ced->abe", "abcd,ecd->abe"):
        b, c1, d1 = x.shape[1], x.shape[2], x.shape[3]
        perm = {"abcd,cde->abe": None, "abcd,ced->abe": [0, 2, 1], "abcd,ecd->abe": [1, 2, 0]}[sub]
        yy = y if perm is None else tf.transpose(y, perm)       # now (c, d, e)
        c, d, e = c1 or yy.shape[0], d1 or yy.shape[1], yy.shape[2]
        if not _static(b, c, d, e):
            return None
        return mm(tf.reshape(x, [-1, b, c * d]), tf.reshape(yy, [-1, e]))
    return None


def einsum(subscripts: str, *operands: Any) -> Any:
    """Keras's `ops.einsum` on TF: operands cast to their result dtype, the matmul forms of the
    listed equations, `tf.einsum` otherwise (integer operands computed in floatx, as Keras)."""
    ops = [tf.convert_to_tensor(o) for o in operands]
    sub = normalize_subscripts(subscripts)
    names = [dtype_policies.standardize_dtype(o.dtype) for o in ops]
    if len(set(names)) == 1 and names[0] == "int8":
        compute, result = "int8", "int32"
    else:
        compute = result = _result_dtype(names)
    if "int" in compute:
        compute = dtype_policies.floatx()
    ops = [o if dtype_policies.standardize_dtype(o.dtype) == compute else tf.cast(o, compute) for o in ops]
    out = _matmul_form(sub, *ops) if len(ops) == 2 else None
    if out is None:
        out = tf.einsum(sub, *ops)
    return out if dtype_policies.standardize_dtype(out.dtype) == result else tf.cast(out, result)


def analyze_einsum_string(equation: str, bias_axes: str | None, input_shape: Any,
                          output_shape: Any) -> tuple[list, list | None, list, list, list]:
    """(kernel shape, bias shape, full output shape, kernel input axes, kernel output axes) of
    an EinsumDense equation (Keras's _analyze_einsum_string, with its messages)."""
    dot_replaced = re.sub(r"\.\.\.", "0", equation)
    for pattern, left in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", False),
                          ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", True),
                          ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", False)):
        m = re.match(pattern, dot_replaced)
        if m:
            return _analyze_split(m.group(1), m.group(2), m.group(3), bias_axes, list(input_shape), output_shape, left)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
                     "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze_split(input_spec: str, weight_spec: str, output_spec: str, bias_axes: str | None, input_shape: list,
                   output_shape: Any, left_elided: bool) -> tuple[list, list | None, list, list, list]:
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        for i in range(len(input_shape) - elided, len(input_shape)):
            output_shape.append(input_shape[i])
    if left_elided:
        input_dim_map = {dim: (i + elided) - len(input_shape) for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: (i + elided) for i, dim in enumerate(output_spec)}
    else:
        input_dim_map = {dim: i for i, dim in enumerate(input_spec)}
        output_dim_map = {dim: i for i, dim in enumerate(output_spec)}
    for dim in input_spec:
        in_dim = input_shape[input_dim_map[dim]]
        if dim in output_dim_map:
            out_dim = output_shape[output_dim_map[dim]]
            if out_dim is not None and out_dim != in_dim:
                raise ValueError(f"Input shape and output shape do not match at shared dimension '{dim}'. Input shape "
                                 f"is {in_dim}, and output shape is {output_shape[output_dim_map[dim]]}.")
    for dim in output_spec:
        if dim not in input_spec and dim not in weight_spec:
            raise ValueError(f"Dimension '{dim}' was specified in the output '{output_spec}' but has no corresponding "
                             f"dim in the input spec '{input_spec}' or weight spec '{output_spec}'")
    weight_shape, input_axes, output_axes = [], [], []
    for i, dim in enumerate(weight_spec):
        if dim in output_dim_map:
            weight_shape.append(output_shape[output_dim_map[dim]])
            output_axes.append(i)
        elif dim in input_dim_map:
            weight_shape.append(input_shape[input_dim_map[dim]])
            input_axes.append(i)
        else:
            raise ValueError(f"Weight dimension '{dim}' did not have a match in either the input spec '{input_spec}' "
                             f"or the output spec '{output_spec}'. For this layer, the weight must be fully specified.")
    bias_shape: list | None = None
    if bias_axes is not None:
        num_left = elided if left_elided else 0
        idx_map = {char: output_shape[i + num_left] for i, char in enumerate(output_spec)}
        for char in bias_axes:
            if char not in output_spec:
                raise ValueError(f"Bias dimension '{char}' was requested, but is not part of the output spec "
                                 f"'{output_spec}'")
        first = min(output_spec.find(char) for char in bias_axes)
        bias_shape = [idx_map[char] if char in bias_axes else 1 for char in output_spec[first:]]
        if not left_elided:
            bias_shape += [1] * max(elided, 0)
    return weight_shape, bias_shape, output_shape, input_axes, output_axes


class EinsumDense(lora.KernelLoRA, Layer):
    """`keras.layers.EinsumDense(equation, output_shape, activation=None, bias_axes=None, ...)`:
    `activation(einsum(equation, inputs, kernel) + bias)`."""

    def __init__(self, equation: str, output_shape: Any, activation: Any = None, bias_axes: str | None = None,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, lora_rank: Any = None, lora_alpha: Any = None,
                 gptq_unpacked_column_size: Any = None, quantization_config: Any = None, **kwargs: Any) -> None:
        if quantization_config is not None or gptq_unpacked_column_size:
            raise NotImplementedError("EinsumDense(quantization_config=...): simdist's EinsumDense does not implement "
                                      "quantization")
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.quantization_config = None

    def build(self, input_shape: Any) -> None:
        kernel_shape, bias_shape, _, input_axes, output_axes = analyze_einsum_string(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        kernel_initializer = self.kernel_initializer
        if isinstance(kernel_initializer, initializers.VarianceScaling) and (
                kernel_initializer.input_axes is None or kernel_initializer.output_axes is None):
            config = kernel_initializer.get_config()
            config["seed"] = kernel_initializer.seed
            config["input_axes"], config["output_axes"] = input_axes, output_axes
            kernel_initializer = type(kernel_initializer).from_config(config)
        self._kernel = self.add_weight(name="kernel", shape=tuple(kernel_shape), initializer=kernel_initializer,
                                       regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                       dtype=self.dtype, trainable=True)
        if bias_shape is not None:
            self.bias = self.add_weight(name="bias", shape=tuple(bias_shape), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=self.dtype, trainable=True)
        else:
            self.bias = None
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return tuple(analyze_einsum_string(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2])

    def call(self, inputs: Any, training: Any = None) -> Any:
        x = einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = tf.add(x, tf.convert_to_tensor(self.bias))
        if self.activation is not None:
            x = self.activation(x)
        return x

    def get_config(self) -> dict[str, Any]:
        config = {**super().get_config(), "output_shape": self.partial_output_shape, "equation": self.equation,
                  "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
                  "kernel_initializer": initializers.serialize(self.kernel_initializer),
                  "bias_initializer": initializers.serialize(self.bias_initializer),
                  "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                  "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                  "kernel_constraint": constraints.serialize(self.kernel_constraint),
                  "bias_constraint": constraints.serialize(self.bias_constraint), "quantization_config": None}
        if self.lora_rank:
            config["lora_rank"], config["lora_alpha"] = self.lora_rank, self.lora_alpha
        return config

