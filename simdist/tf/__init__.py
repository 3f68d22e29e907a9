"""`from simdist import tf`: TensorFlow's names and argument orders, computed by simdist.

The same program runs under `import tensorflow as tf` and `from simdist import tf`.
"""

from simdist.runtime.context import device_scope as _device_scope
from simdist.runtime.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, float16, float32, float64, half, double,  # noqa: A001
                                    int8, int16, resource, variant, int32, int64, string, uint8, uint16, uint32, uint64,
                                    complex64, complex128, qint8, quint8, qint16, quint16, qint32)
from simdist.runtime.dtypes import QUANTIZED as _QUANTIZED
from simdist.runtime.ops import (add, add_n, broadcast_to, cast, concat, constant,  # noqa: F401
                                 embedding_lookup as _embedding_lookup, equal, exp, expand_dims, fill, gather,
                                 greater, greater_equal, identity, less, less_equal, matmul, maximum, minimum,
                                 multiply, negative, not_equal, ones, ones_like, pow_ as pow, range_ as range,  # noqa: A001
                                 rank, reduce_max, reduce_mean, reduce_min, reduce_sum, reshape, shape, sign, size,
                                 split, sqrt, square, squeeze, stack, subtract, divide, transpose, unstack, where,
                                 zeros, zeros_like)
from simdist.runtime.ops import abs_ as abs, round_ as round, slice_ as slice  # noqa: A001
from simdist.runtime.ops.data_flow import dynamic_partition, dynamic_stitch
from simdist.runtime.ops.array import boolean_mask  # noqa: F401
from simdist.runtime.ops import (argmax, argmin, clip_by_global_norm, clip_by_norm, clip_by_value, cumsum,  # noqa: F401
                                 eye, floor, linspace, logical_and, logical_not, logical_or, meshgrid, one_hot, pad,
                                 reduce_all, reduce_any, reduce_logsumexp, reduce_prod, sequence_mask,
                                 strided_slice_fn as strided_slice, tile, truediv)
from simdist.runtime.ops import (argsort, einsum, gather_nd, norm, scatter_nd, sort,  # noqa: F401
                                 tensor_scatter_nd_add, tensor_scatter_nd_sub, tensor_scatter_nd_update, tensordot)
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor
from simdist.runtime.ops.tensor_array import TensorArray  # noqa: F401
from simdist.runtime.variables import Variable, VariableAggregation, VariableSynchronization
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.autodiff import GradientTape, UnconnectedGradients, custom_gradient
from simdist.runtime.autodiff import forwardprop as _forwardprop
from simdist.runtime.autodiff.graph_gradients import gradients, hessians  # noqa: F401,E402
from simdist.runtime.ops import stop_gradient
from simdist.runtime.ops.nn import sigmoid, tanh  # noqa: F401
from simdist.runtime.ops.special import asinh, atan, cos, cosh, sin, sinh, tan  # noqa: F401
from simdist.runtime.ops.slicing import reverse  # noqa: F401
from simdist.runtime.ops.repeat import repeat  # noqa: F401
# issue 29's ops (simdist/runtime/ops/{xfunctions,truncation,counting,diag}.py, special.py)
from simdist.runtime.ops.special import acos, acosh, asin, atanh  # noqa: F401,E402
from simdist.runtime.ops.xfunctions import atan2  # noqa: F401,E402
from simdist.runtime.ops.truncation import realdiv, saturate_cast, truncatediv, truncatemod  # noqa: F401,E402
from simdist.runtime.ops.counting import unique, unique_with_counts  # noqa: F401,E402
from simdist.runtime.ops.registry import RegisterGradient, NotDifferentiable as no_gradient
# issue 29's second batch (runtime/ops/{array_more,space_batch,math_more}.py; clauses ops.array-more, ops.space-batch)
from simdist.runtime.ops.array_more import (bitcast, broadcast_dynamic_shape, broadcast_static_shape,  # noqa: F401,E402
                                           ensure_shape, get_static_value, identity_n, parallel_stack,
                                           reverse_sequence, roll, searchsorted, shape_n, tensor_scatter_nd_max,
                                           tensor_scatter_nd_min, unravel_index)
from simdist.runtime.ops.space_batch import batch_to_space, space_to_batch, space_to_batch_nd  # noqa: F401,E402
from simdist.runtime.ops.nn_composites import required_space_to_batch_paddings  # noqa: F401,E402
from simdist.runtime.ops.control_more import case, grad_pass_through, inside_function, recompute_grad  # noqa: F401,E402,E501
from simdist.runtime.ops.py_func import numpy_function, py_function  # noqa: F401,E402
from simdist.runtime.ops.as_string import as_string  # noqa: F401,E402
from simdist.runtime.ops.volume_patches import extract_volume_patches  # noqa: F401,E402
from simdist.runtime.ops.sqrtm import sqrtm as matrix_square_root  # noqa: F401,E402
from simdist.runtime.ops.guarantee_const import guarantee_const  # noqa: F401,E402
from simdist.runtime.ops.conv_generic import conv  # noqa: F401,E402
from simdist.runtime.tensor_proto_message import make_ndarray, make_tensor_proto  # noqa: F401,E402
from simdist.runtime.ops.conv_v2_backprops import conv2d_backprop_filter_v2, conv2d_backprop_input_v2  # noqa: F401,E402
from simdist.runtime.ops.fingerprint import fingerprint  # noqa: F401,E402
from simdist.runtime.name_scopes import get_current_name_scope, init_scope, name_scope  # noqa: F401,E402
from simdist.runtime.symbolic import producer as _simdist_graph_op  # noqa: E402 - (not TF's: Keras's `output.op`)
from simdist.runtime.ops.static_shapes import unknown_batch as _simdist_unknown_batch  # noqa: E402 - (not TF's:
#   a Keras step's dataset element inside the traced step, its batch dimension unknown to the graph)
from simdist.runtime.ops.static_shapes import graph_only_batch as _simdist_graph_only_batch  # noqa: E402 - (not
#   TF's: Keras's own step's dataset element, its batch dimension unknown to Grappler only; kopen58)
from simdist.runtime import scratch_trace as _simdist_scratch_trace  # noqa: E402 - (not TF's: Keras's scratch
#   FuncGraph as a trace, keras/keras_tensor.py compute_output_spec; clause keras.reg.scratch-graph-trace)
from simdist.tf.config import _simdist_op_determinism_enabled  # noqa: E402,F401 - (not TF's: Keras's jit check)
from simdist.runtime.ops.static_shapes import known_shape as _simdist_known_shape  # noqa: E402 - (not TF's: a
#   tensor's shape as the graph being built knows it, None where it does not: Keras's TF backend `ops.shape`)
from simdist.runtime.ops.math_more import approx_top_k, scalar_mul  # noqa: F401,E402
from simdist.runtime.ops.control_flow import (Assert, cond, control_dependencies, foldl, foldr, group,  # noqa: F401,E402
                                             map_fn, no_op, scan, tuple_ as tuple, vectorized_map, while_loop)
from simdist.runtime.ops.complex_math import complex_ as complex  # noqa: F401,E402,A001
from simdist.runtime.ops.eig import eig, eigvals  # noqa: F401,E402  (tf.eig = tf.linalg.eig: clause ops.complex)
from simdist.runtime.ops.misc_more import histogram_fixed_width, histogram_fixed_width_bins, switch_case  # noqa: F401,E402
from simdist.tf import nest  # noqa: E402
from simdist.tf import audio, bitwise, compat, config, data, debugging, distribute, errors, image, io, linalg, math, nn, train
matmul = linalg.matmul   # (tf.matmul is tf.linalg.matmul: the LinearOperator-dispatching one; names44)
from simdist.tf._clock import timestamp  # noqa: E402  (the simulated clock: simdist/tf/_clock.py)
from simdist.tf._critical_section import CriticalSection  # noqa: E402,F401  (names44)
from simdist.runtime.conversion_registry import register as register_tensor_conversion_function  # noqa: E402,F401
from simdist.tf import _testing as _test  # noqa: E402  (tf.test: simdist/tf/_testing.py; names44)
from types import SimpleNamespace as _NS  # noqa: E402
test = _NS(TestCase=_test.TestCase, main=_test.main, compute_gradient=_test.compute_gradient,
           is_gpu_available=_test.is_gpu_available, gpu_device_name=_test.gpu_device_name,
           is_built_with_cuda=_test.is_built_with_cuda, is_built_with_rocm=_test.is_built_with_rocm,
           is_built_with_gpu_support=_test.is_built_with_gpu_support, is_built_with_xla=_test.is_built_with_xla,
           is_cpu_target_available=_test.is_cpu_target_available,
           disable_with_predicate=_test.disable_with_predicate,
           with_eager_op_as_function=_test.with_eager_op_as_function)
from simdist.tf import signal  # noqa: E402
from simdist.tf import quantization  # noqa: E402,F401  (clause ops.fake-quant)
from simdist.tf import raw_ops  # noqa: E402,F401  (functions made on first use: clause ops.raw-ops)
from simdist.tf._gen_wrappers import (AggregationMethod, ragged_fill_empty_rows,  # noqa: E402,F401
                                      ragged_fill_empty_rows_grad)
from simdist.tf._initializers import (Constant as constant_initializer, Ones as ones_initializer,  # noqa: E402
                                     RandomNormal as random_normal_initializer,
                                     RandomUniform as random_uniform_initializer, Zeros as zeros_initializer)
from simdist.runtime.ops.fft import (raw_fftnd as fftnd, raw_ifftnd as ifftnd, raw_irfftnd as irfftnd,  # noqa: F401,E402
                                     raw_rfftnd as rfftnd)
assert_equal, assert_greater, assert_less = debugging.assert_equal, debugging.assert_greater, debugging.assert_less
assert_rank = debugging.assert_rank
from simdist.tf._module import Module
from simdist.runtime.ops import random as _random_ops
from simdist.runtime.ops import random_gamma as _random_gamma
from simdist.runtime.ops import param_truncated_normal as _ptn
from simdist.runtime.ops import candidate_samplers as _samplers
from simdist.runtime.ops import random_generator as _generator, stateless_seeds as _seeds
from simdist.runtime.ops import index_shuffle as _index_shuffle
from simdist.runtime.ops import binomial as _binomial
from simdist.runtime.ops.index_shuffle import random_index_shuffle  # noqa: E402,F401
from simdist.tf._function import function
from simdist.runtime.spec import TensorSpec
from simdist.runtime.data import Optional as _Optional
from types import SimpleNamespace as _NS

from simdist.tf import _experimental_numpy  # noqa: E402  (tf.experimental.numpy: clause ops.experimental-numpy)
from simdist.runtime.ragged_shape import DynamicRaggedShape as _DynamicRaggedShape  # noqa: E402
from simdist.tf import _dlpack  # noqa: E402  (tf.experimental.dlpack: open46)
experimental = _NS(Optional=_Optional, numpy=_experimental_numpy, DynamicRaggedShape=_DynamicRaggedShape,
                   dlpack=_NS(to_dlpack=_dlpack.to_dlpack, from_dlpack=_dlpack.from_dlpack))
# TF 2.21's narrow dtypes: tf.dtypes.experimental's and tf.experimental's (the same objects; names44)
from simdist.runtime.dtypes import NARROW as _NARROW  # noqa: E402
for _d in _NARROW:
    setattr(experimental, _d.name, _d)
# `tf.dtypes`: the dtypes and their helpers, as the module TF programs spell them through
dtypes = _NS(DType=DType, as_dtype=as_dtype, cast=cast, saturate_cast=saturate_cast, bfloat16=bfloat16, bool=bool,
             float16=float16, float32=float32, float64=float64, half=half, double=double, int8=int8, int16=int16,
             int32=int32, int64=int64, string=string, uint8=uint8, uint16=uint16, uint32=uint32, uint64=uint64,
             complex64=complex64, complex128=complex128, resource=resource, variant=variant, qint8=qint8,
             quint8=quint8, qint16=qint16, quint16=quint16, qint32=qint32,
             # (TF's frozenset also holds the five _ref dtypes of TF1 reference variables, which simdist has not)
             QUANTIZED_DTYPES=frozenset(_QUANTIZED), experimental=_NS(**{_d.name: _d for _d in _NARROW}))
autodiff = _NS(GradientTape=GradientTape, ForwardAccumulator=_forwardprop.ForwardAccumulator)
from simdist.runtime.ops import image_projective as _image_projective  # noqa: E402,F401 (tf.raw_ops.ImageProjectiveTransformV3)
random = _NS(normal=_random_ops.normal, uniform=_random_ops.uniform, set_seed=_random_ops.set_seed,
             _simdist_python_seeded=_random_ops.python_seeded,   # (keras.utils.set_random_seed: keras/random.py)
             _simdist_default_seed=_random_ops.default_seed,   # (not TF's: Keras's unseeded objects, keras/random.py)
             _simdist_numpy_seed=_random_ops.numpy_seed,   # (not TF's: np.random.randint seeds in Keras code)
             truncated_normal=_random_ops.truncated_normal, categorical=_random_ops.categorical,
             shuffle=_random_ops.shuffle, stateless_normal=_random_ops.stateless_normal,
             stateless_uniform=_random_ops.stateless_uniform,
             stateless_truncated_normal=_random_ops.stateless_truncated_normal,
             stateless_categorical=_random_ops.stateless_categorical, gamma=_random_gamma.gamma,
             poisson=_random_gamma.poisson, stateless_gamma=_random_gamma.stateless_gamma,
             stateless_poisson=_random_gamma.stateless_poisson,
             uniform_candidate_sampler=_samplers.uniform_candidate_sampler,
             log_uniform_candidate_sampler=_samplers.log_uniform_candidate_sampler,
             all_candidate_sampler=_samplers.all_candidate_sampler,
             fixed_unigram_candidate_sampler=_samplers.fixed_unigram_candidate_sampler,
             learned_unigram_candidate_sampler=_samplers.learned_unigram_candidate_sampler,
             stateless_binomial=_binomial.stateless_binomial,
             stateless_parameterized_truncated_normal=_ptn.stateless_parameterized_truncated_normal,
             Generator=_generator.Generator, Algorithm=_generator.Algorithm,
             create_rng_state=_generator.create_rng_state, get_global_generator=_generator.get_global_generator,
             set_global_generator=_generator.set_global_generator, split=_seeds.split, fold_in=_seeds.fold_in,
             experimental=_NS(Generator=_generator.Generator, Algorithm=_generator.Algorithm,
                              create_rng_state=_generator.create_rng_state,
                              get_global_generator=_generator.get_global_generator,
                              set_global_generator=_generator.set_global_generator,
                              stateless_split=_seeds.split, stateless_fold_in=_seeds.fold_in,
                              index_shuffle=_index_shuffle.index_shuffle,
                              stateless_shuffle=_seeds.stateless_shuffle))

# tf.sparse, tf.sets and SparseTensor (clauses ops.sparse, ops.sparse-segments, ops.sets); TF's math
# functions that take a SparseTensor map its values (math_ops.py), tf.shape/size/rank read its dense_shape
from simdist.tf import lookup, ragged, sets, sparse, strings  # noqa: E402
from simdist.runtime.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: E402
from simdist.runtime.ops.printing import print_v2 as _print_v2  # noqa: E402
from simdist.runtime.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: E402
from simdist.runtime.ops import sparse_api as _sparse_api  # noqa: E402
(abs, asin, asinh, atan, atanh, negative, sign, sin, sqrt, square, tan, tanh, cast, identity,  # noqa: A001
 stop_gradient) = (_sparse_api.sparse_unary(_f) for _f in (abs, asin, asinh, atan, atanh, negative, sign, sin, sqrt,
                                                           square, tan, tanh, cast, identity, stop_gradient))
shape, size = _sparse_api.sparse_shape_query(shape, "shape"), _sparse_api.sparse_shape_query(size, "size")
rank = _sparse_api.sparse_shape_query(rank, "rank")
dtypes.cast = cast
dtypes.complex = complex   # (tf.dtypes.complex is tf.complex)
from simdist.runtime.ops.sparse_count import edit_distance  # noqa: E402,F401

from simdist.tf import version  # noqa: E402  (clause api.version)
__version__ = version.VERSION
newaxis = None

from simdist.tf._device_spec import DeviceSpecV2 as DeviceSpec  # noqa: E402
# tf.TypeSpec and the composite specs (spec api.namespaces, names43b); TensorSpec, SparseTensorSpec and
# RaggedTensorSpec are its virtual subclasses
from simdist.runtime import type_specs as _type_specs  # noqa: E402
from simdist.runtime.type_specs import (IndexedSlicesSpec, NoneTensorSpec, OptionalSpec,  # noqa: E402,F401
                                        TensorArraySpec, TypeSpec)
_type_specs.register_virtual(TensorSpec, SparseTensorSpec, RaggedTensorSpec)


import contextlib as _contextlib  # noqa: E402


@_contextlib.contextmanager
def variable_creator_scope(variable_creator: object) -> "_contextlib.AbstractContextManager":
    """`tf.variable_creator_scope(creator)`: inside, `tf.Variable(...)` calls `creator(next_creator, **kwargs)`
    with every argument (defaults filled), the innermost scope's creator first, down to the current
    strategy's creation; a creator may change the arguments or return anything. Scopes opened inside a
    strategy's scope see its variables (a MirroredVariable); replica threads inherit the open scopes.
    Exiting out of order is TF's RuntimeError "Exiting variable_creator_scope without proper nesting."
    (clause api.namespaces; simdist/runtime/context.py CreatorFrame, runtime/variables.py)."""
    from simdist.runtime import context as _ctx
    frame = _ctx.push_creator(variable_creator)
    try:
        yield
    finally:
        _ctx.pop_creator(frame)


def device(device_name: str) -> _device_scope:
    """`tf.device(name)`: ops inside default to that device, or to the device TF's placer picks
    for it when the machine does not have it (clause placement.soft-placement)."""
    from simdist import session
    from simdist.runtime import execution
    if isinstance(device_name, DeviceSpec):   # (TF's context.device: a DeviceSpec's to_string())
        device_name = device_name.to_string()
    if not device_name:
        return _device_scope(None)
    return _device_scope(session.placed(session.canonical(device_name), execution.current().client.soft_placement))

def get_logger() -> "logging.Logger":
    """`tf.get_logger`: Python's logger named "tensorflow" (the one TF's own logging writes to)."""
    import logging
    return logging.getLogger("tensorflow")

def is_tensor(x: object) -> bool:
    """`tf.is_tensor`: a tensor or a composite tensor (SparseTensor, IndexedSlices, RaggedTensor), or
    a variable (TF 2.21's variables subclass core.Tensor: `tf.is_tensor(tf.Variable(1))` is True;
    fz14 seed 1420261219 #1)."""
    return isinstance(x, (Tensor, SparseTensor, IndexedSlices, RaggedTensor, Variable))

def is_symbolic_tensor(tensor: object) -> bool:
    """`tf.is_symbolic_tensor`: whether `tensor` is a graph tensor of a tf.function being traced
    (simdist: one its trace records), not an eager tensor, a Variable, a composite or a Python value."""
    from simdist.runtime.tensor import _Traced
    return isinstance(tensor, _Traced)

def type_spec_from_value(value: object) -> object:
    """`tf.type_spec_from_value`: a SparseTensor's SparseTensorSpec, a RaggedTensor's RaggedTensorSpec, None's
    NoneTensorSpec, a TensorArray's, IndexedSlices' and Optional's specs, a tensor's TensorSpec (other
    values converted to a tensor first)."""
    return _type_specs.type_spec_from_value(value)

def executing_eagerly() -> bool:
    """False while a tf.function's or tf.data function's Python runs (clause function.executing-eagerly)."""
    from simdist.runtime import context
    return context.executing_eagerly()

def print(*inputs: object, **kwargs: object) -> None:  # noqa: A001
    """`tf.print`: TF's PrintV2 op at every run, eager or traced (simdist/runtime/ops/printing.py)."""
    return _print_v2(*inputs, **kwargs)

# TF 2.21's Keras namespaces at tf's top level (KerasLazyLoaders of keras._tf_keras.keras and its losses,
# metrics, optimizers and initializers modules: the same modules as tf.keras.X), imported on first use
_LAZY = ("keras", "initializers", "losses", "metrics", "optimizers")
# `tf.summary` (simdist/tf/summary, clause summary.event-files), imported on first use
_LAZY_MODULES = ("summary", "autograph")


def __getattr__(name: str) -> object:
    """`tf.keras` (simdist/keras) and its aliases, imported on first use: Keras is written against this facade;
    `tf.summary` likewise."""
    if name in _LAZY:
        import simdist.keras
        return simdist.keras if name == "keras" else getattr(simdist.keras, name)
    if name in _LAZY_MODULES:
        import importlib
        return importlib.import_module(f"simdist.tf.{name}")
    raise AttributeError(f"module 'simdist.tf' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The bound names and the lazy Keras ones (as dir(tf) lists keras)."""
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))

# TF's ragged dispatch of its elementwise APIs and RaggedTensor's operators (runtime/ops/ragged_dispatch.py,
# clause ops.ragged); the tf.math functions (already wrapped in simdist/tf/math.py) make the operators
from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "")
from simdist.runtime.ops import ragged_array as _ragged_array  # noqa: E402
_ragged_array.install(globals())
from simdist.runtime.ops import ragged_rows as _ragged_rows  # noqa: E402
_ragged_rows.install(globals(), "tf")
_ragged_dispatch.install(vars(dtypes), "dtypes.")
_ragged_dispatch.install_operators({n: getattr(math, n) for n in (
    "add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow", "less", "less_equal", "greater",
    "greater_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "negative",
    "abs")})

# Graph-build errors raised at the op's call inside a tracing tf.function (tf/_build_errors.py, clause
# function.trace-time-errors): the op functions of the facade's namespaces, one wrapper per function
from simdist.tf import _build_errors  # noqa: E402
import sys as _sys  # noqa: E402
# (first the name scopes TF's public functions open where simdist's do not: tf/_scopes.py, fz56)
from simdist.tf import _scopes  # noqa: E402
_scopes.install({_n: vars(_sys.modules[_n]) for _n in sorted(n for n in _sys.modules if n == __name__ or (
    n.startswith(__name__ + ".") and not n.rsplit(".", 1)[1].startswith("_")))})
# (then the `name=` TF's public functions give their op, where simdist's implementations name nothing: tf/_given_names.py)
from simdist.tf import _given_names  # noqa: E402
_given_names.install({_n: vars(_sys.modules[_n]) for _n in sorted(n for n in _sys.modules if n == __name__ or (
    n.startswith(__name__ + ".") and not n.rsplit(".", 1)[1].startswith("_")))})
for _name in sorted(n for n in _sys.modules if n == __name__ or (n.startswith(__name__ + ".") and
                                                                  not n.rsplit(".", 1)[1].startswith("_"))):
    _build_errors.wrap(vars(_sys.modules[_name]))
del _name
# (the Python names TF's functions carry where they differ from the export: tf/_function_names.py)
from simdist.tf import _function_names  # noqa: E402
_function_names.apply(_sys.modules[__name__])
from simdist.runtime.tensor import Tensor as _Tensor  # noqa: E402
_build_errors.wrap_operators(_Tensor)
