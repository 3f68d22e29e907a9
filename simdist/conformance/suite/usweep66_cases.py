"""Size-1 and size-0 dimensions through every op family, crossed by rule (sixty-sixth session, usweep66;
test_usweep66.py).

What is crossed (batch 89's survivor norm-squeeze-all-unit-dims: tf.norm squeezing every size-1 dimension, not only
the reduced ones; the suite rarely fed size-1 dimensions where a squeeze, broadcast or keepdims rule matters): each op
family of the facade — tf.norm/linalg.norm by ord × axis form × keepdims; tf.math reductions, argmax/argmin,
euclidean_norm, moments, l2_normalize, normalize_moments, softmax/log_softmax, top_k/sort/argsort, the scans;
matmul/einsum/tensordot/matvec with size-1 batch and contraction dimensions; squeeze/expand_dims/reshape/
broadcast_to/tile/transpose/reverse/pad, gather/gather_nd/scatter, concat/stack/split/unstack, one_hot depth 1 and 0,
where/boolean_mask; conv/pool 1x1 on 1x1 images, segment ops of one segment; linalg on 1x1, batches of 1 and 0x0;
fft of length 1; image ops on 1x1 images — × shapes placing a 1 (and a 0) first, in the middle and last, ranks 0-4.

Each case observes, as one list: the eager result (dtype, shape and values — floats as the hex of their value — per
output, or "raised <class>"), the result of a tf.function traced on the same tensors with the static shapes of its
outputs, and the static output shapes of get_concrete_function(TensorSpec) with every dimension None (or its
refusal's class). `grad` cases add the GradientTape gradient of the sum of the outputs. Every program is
host-dependent (`u-`: reductions' packet order). `python -m simdist.conformance.suite.test_usweep66 --record`
rewrites usweep66_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "usweep66_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("u-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-sixth session ... usweep66"; /work/wt/usweep66_logs/cmp9.txt, ref2.json against sim9.json). One class, the
#: static shapes of a get_concrete_function traced on all-None TensorSpecs, where simdist's dry run on placeholders
#: reports what its probe values gave for ops whose shape functions it does not model:
#: (1) u-linalg (167): every decomposition/solver (cholesky, cholesky_solve, det, logdet, slogdet, eig, eigh,
#:     eigvalsh, expm, sqrtm, inv, lu, lstsq, pinv, solve, triangular_solve, qr-free svd, tensor_diag_part) under
#:     None specs gives the probe's [1, 1] where TF's shape functions keep None; inv/det/logdet/slogdet/lu/pinv/
#:     lstsq/expm of the zero-filled probe also meet the kernel's "not invertible" and leave no outputs at all
#:     (structured_outputs None, the traced column too): MatrixSolve's stand-in is fixed here, the others need
#:     stand-ins (OpDef.standin) of their own;
#: (2) u-shape scatter_nd into tf.shape(x[:1]) (17): the shape tensor's values are the probe's, TF's
#:     partial value of Shape(StridedSlice) leaves them None; reshape of an empty input to [-1, 0]/[0, -1] (12):
#:     SetOutputShapeForReshape leaves the -1 unknown when the other sizes multiply to 0 (marking it made the
#:     traced replay of a 0x0 input reshape to [1, 0]: reverted, not analysed in the time);
#: (3) u-image (22): central_crop's computed bounds, image_gradients' slices (the probe's 1s), and
#:     grayscale_to_rgb/rgb_to_hsv, whose last dimension TF sets to 3 (set_shape, RGBToHSV's shape function) where
#:     simdist keeps the input's None.
OPEN: dict[str, tuple[str, ...]] = {
    'u-image': (
        'central_crop 1x1x1 0.5', 'central_crop 1x1x1x3 0.5', 'central_crop 1x1x2x1 0.5', 'central_crop 1x1x3 0.5',
        'central_crop 1x2x1x3 0.5', 'central_crop 2x1x1x3 0.5', 'grayscale_to_rgb 1x1x1', 'grayscale_to_rgb 1x1x1x3',
        'grayscale_to_rgb 1x1x2x1', 'grayscale_to_rgb 1x1x3', 'grayscale_to_rgb 1x2x1x3', 'grayscale_to_rgb 2x1x1x3',
        'image_gradients 1x1x1x3', 'image_gradients 1x1x2x1', 'image_gradients 1x2x1x3', 'image_gradients 2x1x1x3',
        'rgb_to_hsv 1x1x1', 'rgb_to_hsv 1x1x1x3', 'rgb_to_hsv 1x1x2x1', 'rgb_to_hsv 1x1x3', 'rgb_to_hsv 1x2x1x3',
        'rgb_to_hsv 2x1x1x3',
    ),
    'u-linalg': (
        'cholesky 0x0', 'cholesky 0x1x1', 'cholesky 1x0x0', 'cholesky 1x1', 'cholesky 1x1x1', 'cholesky 1x1x3',
        'cholesky 1x2x2', 'cholesky 1x3x1', 'cholesky 2x1x1', 'cholesky_solve 0x0', 'cholesky_solve 0x1x1',
        'cholesky_solve 1x0x0', 'cholesky_solve 1x1', 'cholesky_solve 1x1x1', 'cholesky_solve 1x1x3',
        'cholesky_solve 1x2x2', 'cholesky_solve 1x3x1', 'cholesky_solve 2x1x1', 'det 0x1x1', 'det 1x0x0', 'det 1x1x1',
        'det 1x1x3', 'det 1x2x2', 'det 1x3x1', 'det 2x1x1', 'eig 0x0', 'eig 0x1x1', 'eig 1x0x0', 'eig 1x1',
        'eig 1x1x1', 'eig 1x1x3', 'eig 1x2x2', 'eig 1x3x1', 'eig 2x1x1', 'eigh 0x0', 'eigh 0x1x1', 'eigh 1x0x0',
        'eigh 1x1', 'eigh 1x1x1', 'eigh 1x1x3', 'eigh 1x2x2', 'eigh 1x3x1', 'eigh 2x1x1', 'eigvalsh 0x0',
        'eigvalsh 0x1x1', 'eigvalsh 1x0x0', 'eigvalsh 1x1', 'eigvalsh 1x1x1', 'eigvalsh 1x1x3', 'eigvalsh 1x2x2',
        'eigvalsh 1x3x1', 'eigvalsh 2x1x1', 'expm 0x0', 'expm 0x1x1', 'expm 1x0x0', 'expm 1x1', 'expm 1x1x1',
        'expm 1x1x3', 'expm 1x2x2', 'expm 1x3x1', 'expm 2x1x1', 'inv 0x0', 'inv 0x1x1', 'inv 1x0x0', 'inv 1x1',
        'inv 1x1x1', 'inv 1x1x3', 'inv 1x2x2', 'inv 1x3x1', 'inv 2x1x1', 'logdet 0x1x1', 'logdet 1x0x0',
        'logdet 1x1x1', 'logdet 1x1x3', 'logdet 1x2x2', 'logdet 1x3x1', 'logdet 2x1x1', 'lstsq 0x0', 'lstsq 0x1x1',
        'lstsq 1x0x0', 'lstsq 1x1', 'lstsq 1x1x1', 'lstsq 1x1x3', 'lstsq 1x2x2', 'lstsq 1x3x1', 'lstsq 2x1x1',
        'lu 0x0', 'lu 0x1x1', 'lu 1x0x0', 'lu 1x1', 'lu 1x1x1', 'lu 1x1x3', 'lu 1x2x2', 'lu 1x3x1', 'lu 2x1x1',
        'pinv 0x0', 'pinv 0x1x1', 'pinv 1x0x0', 'pinv 1x1', 'pinv 1x1x1', 'pinv 1x1x3', 'pinv 1x2x2', 'pinv 1x3x1',
        'pinv 2x1x1', 'slogdet 0x1x1', 'slogdet 1x0x0', 'slogdet 1x1x1', 'slogdet 1x1x3', 'slogdet 1x2x2',
        'slogdet 1x3x1', 'slogdet 2x1x1', 'solve 0x0', 'solve 0x1x1', 'solve 1x0x0', 'solve 1x1', 'solve 1x1x1',
        'solve 1x1x3', 'solve 1x2x2', 'solve 1x3x1', 'solve 2x1x1', 'sqrtm 0x0', 'sqrtm 0x1x1', 'sqrtm 1x0x0',
        'sqrtm 1x1', 'sqrtm 1x1x1', 'sqrtm 1x1x3', 'sqrtm 1x2x2', 'sqrtm 1x3x1', 'sqrtm 2x1x1',
        'svd 0x0 compute_uv=False', 'svd 0x0 full_matrices=False', 'svd 0x0 full_matrices=True',
        'svd 0x1x1 compute_uv=False', 'svd 0x1x1 full_matrices=False', 'svd 0x1x1 full_matrices=True',
        'svd 1x0x0 compute_uv=False', 'svd 1x0x0 full_matrices=False', 'svd 1x0x0 full_matrices=True',
        'svd 1x1 compute_uv=False', 'svd 1x1 full_matrices=False', 'svd 1x1 full_matrices=True',
        'svd 1x1x1 compute_uv=False', 'svd 1x1x1 full_matrices=False', 'svd 1x1x1 full_matrices=True',
        'svd 1x1x3 compute_uv=False', 'svd 1x1x3 full_matrices=False', 'svd 1x1x3 full_matrices=True',
        'svd 1x2x2 compute_uv=False', 'svd 1x2x2 full_matrices=False', 'svd 1x2x2 full_matrices=True',
        'svd 1x3x1 compute_uv=False', 'svd 1x3x1 full_matrices=False', 'svd 1x3x1 full_matrices=True',
        'svd 2x1x1 compute_uv=False', 'svd 2x1x1 full_matrices=False', 'svd 2x1x1 full_matrices=True',
        'tensor_diag_part 0x0', 'tensor_diag_part 1x1', 'triangular_solve 0x0', 'triangular_solve 0x1x1',
        'triangular_solve 1x0x0', 'triangular_solve 1x1', 'triangular_solve 1x1x1', 'triangular_solve 1x1x3',
        'triangular_solve 1x2x2', 'triangular_solve 1x3x1', 'triangular_solve 2x1x1',
    ),
    'u-shape': (
        'reshape 0 to [-1, 0]', 'reshape 0 to [0, -1]', 'reshape 0x0 to [-1, 0]', 'reshape 0x0 to [0, -1]',
        'reshape 0x1 to [-1, 0]', 'reshape 0x1 to [0, -1]', 'reshape 1x0 to [-1, 0]', 'reshape 1x0 to [0, -1]',
        'reshape 1x0x3 to [-1, 0]', 'reshape 1x0x3 to [0, -1]', 'reshape 2x0x1 to [-1, 0]',
        'reshape 2x0x1 to [0, -1]', 'scatter_nd 0 [[0]] into [1]+shape[1:]',
        'scatter_nd 0x0 [[0]] into [1]+shape[1:]', 'scatter_nd 0x1 [[0]] into [1]+shape[1:]',
        'scatter_nd 1 [[0]] into [1]+shape[1:]', 'scatter_nd 1x0 [[0]] into [1]+shape[1:]',
        'scatter_nd 1x0x3 [[0]] into [1]+shape[1:]', 'scatter_nd 1x1 [[0]] into [1]+shape[1:]',
        'scatter_nd 1x1x1 [[0]] into [1]+shape[1:]', 'scatter_nd 1x2x1 [[0]] into [1]+shape[1:]',
        'scatter_nd 1x2x3 [[0]] into [1]+shape[1:]', 'scatter_nd 1x3 [[0]] into [1]+shape[1:]',
        'scatter_nd 2x0x1 [[0]] into [1]+shape[1:]', 'scatter_nd 2x1x1x3 [[0]] into [1]+shape[1:]',
        'scatter_nd 2x1x3 [[0]] into [1]+shape[1:]', 'scatter_nd 2x3x1 [[0]] into [1]+shape[1:]',
        'scatter_nd 3 [[0]] into [1]+shape[1:]', 'scatter_nd 3x1 [[0]] into [1]+shape[1:]',
    ),
}

program = registrar(REF, OPEN)

Maker = Callable[[Any], Callable[..., Any]]
#: program -> [(case key, op maker(tf) -> f(*tensors), inputs, options)]
CASES: dict[str, list[tuple[str, Maker, tuple[np.ndarray, ...], dict[str, Any]]]] = {}


def _cls(e: BaseException) -> str:
    return type(e).__name__


def _flat(tf: Any, v: Any) -> list[Any]:
    return tf.nest.flatten(v)


def _value(x: Any) -> Any:
    """One output: [dtype, shape, values] (floats and complex parts as the hex of their value); None as None."""
    if x is None:
        return None
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "c":
        vals: Any = [[float(v.real).hex(), float(v.imag).hex()] for v in a.ravel()]
    elif a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        vals = [float(v).hex() for v in a.astype(np.float64).ravel()]
    elif a.dtype.kind in "SO":
        vals = [str(v) for v in a.ravel()]
    else:
        vals = a.ravel().tolist()
    return [a.dtype.name, list(a.shape), vals]


def _static(tf: Any, v: Any) -> Any:
    """Static shapes (None: unknown rank) and dtypes of a nest of symbolic outputs."""
    out = []
    for t in _flat(tf, v):
        shape = getattr(t, "shape", None)
        dims = None if shape is None or shape.rank is None else shape.as_list()
        out.append([dims, getattr(getattr(t, "dtype", None), "name", None)])
    return out


def observe(tf: Any, f: Callable[..., Any], inputs: tuple[np.ndarray, ...], grad: bool = False,
            traced: bool = True, unknown: bool = True) -> Any:
    """[eager, traced (values and static shapes), static shapes under all-None specs (unless not `unknown`),
    (gradient)]."""
    ts = [tf.constant(a) for a in inputs]
    obs: list[Any] = []
    try:
        obs.append([_value(x) for x in _flat(tf, f(*ts))])
    except Exception as e:  # noqa: BLE001 - the class is the observation
        obs.append(f"raised {_cls(e)}")
    if traced:
        tfn = tf.function(f, autograph=False)
        try:
            vals = [_value(x) for x in _flat(tf, tfn(*ts))]
            obs.append([vals, _static(tf, tfn.get_concrete_function(*ts).structured_outputs)])
        except Exception as e:  # noqa: BLE001
            obs.append(f"raised {_cls(e)}")
    if traced and unknown:
        try:
            specs = [tf.TensorSpec([None] * a.ndim, tf.as_dtype(a.dtype)) for a in inputs]
            obs.append(_static(tf, tf.function(f, autograph=False).get_concrete_function(*specs).structured_outputs))
        except Exception as e:  # noqa: BLE001
            obs.append(f"raised {_cls(e)}")
    if grad:
        try:
            xs = [tf.constant(a) for a in inputs]
            with tf.GradientTape() as tape:
                for x in xs:
                    tape.watch(x)
                y = f(*xs)
                s = tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32)) for t in _flat(tf, y)])
            gs = tape.gradient(s, xs)
            obs.append([None if g is None else _value(tf.convert_to_tensor(g)) for g in gs])
        except Exception as e:  # noqa: BLE001
            obs.append(f"raised {_cls(e)}")
    return obs


_KEYS: set[tuple[str, str]] = set()


def case(prog: str, key: str, make: Maker, *inputs: np.ndarray, **opts: Any) -> None:
    """Register one case of program `prog`."""
    assert (prog, key) not in _KEYS, f"{prog}: case {key!r} twice"
    _KEYS.add((prog, key))
    CASES.setdefault(prog, []).append((key, make, tuple(inputs), opts))


def run_program(name: str, tf: Any, mk: Any) -> dict[str, Any]:
    """Every case of program `name`, by key."""
    return {key: observe(tf, make(tf), inputs, **opts) for key, make, inputs, opts in CASES[name]}


def u(shape: tuple[int, ...], dt: str = "float32", name: str = "x", lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    """Seeded uniform values of `shape` (integers: in [lo, hi))."""
    r = rng(f"{name}{shape}{dt}")
    if dt.startswith("int"):
        return r.randint(int(lo), int(hi), shape).astype(dt)
    if dt == "bool":
        return r.uniform(0, 1, shape) < 0.5
    if dt.startswith("complex"):
        return (r.uniform(lo, hi, shape) + 1j * r.uniform(lo, hi, shape)).astype(dt)
    return r.uniform(lo, hi, shape).astype(dt)


def _sh(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape)) if shape else "scalar"


#: shapes placing a 1 (and a 0) first, in the middle and last, ranks 0-4
SHAPES_1: tuple[tuple[int, ...], ...] = ((), (1,), (3,), (1, 3), (3, 1), (1, 1), (2, 1, 3), (1, 2, 3), (2, 3, 1),
                                         (1, 1, 1), (1, 2, 1), (2, 1, 1, 3))
SHAPES_0: tuple[tuple[int, ...], ...] = ((0,), (0, 1), (1, 0), (2, 0, 1), (1, 0, 3), (0, 0))
SHAPES = SHAPES_1 + SHAPES_0


def _axes(rank: int) -> list[Any]:
    """Axis forms of a rank: None, each axis, -1, [], a pair, a list of all."""
    forms: list[Any] = [None]
    forms += list(range(rank))
    if rank:
        forms += [-1, []]
    if rank >= 2:
        forms += [(0, rank - 1), [rank - 1, 0]]
    if rank >= 3:
        forms += [[0, 1, 2][:rank]]
    return forms


# -- u-norm: tf.norm / tf.linalg.norm by ord × axis form × keepdims ------------------------------------------------
NORM_ORDS: tuple[Any, ...] = ("euclidean", "fro", 1, 2, np.inf, 0.5)
for _s in SHAPES:
    _r = len(_s)
    _forms: list[Any] = [None, -1] + list(range(_r))
    if _r >= 2:
        _forms += [(0, 1), [-1, -2]] + ([(_r - 2, _r - 1)] if _r > 2 else [])
    for _o in NORM_ORDS:
        for _a in _forms[:2] if _r == 0 else _forms:
            for _k in (False, True):
                _trace = _k is True or _a is None or (isinstance(_a, (tuple, list)) and _o == 2)
                case("u-norm", f"norm {_sh(_s)} ord={_o} axis={_a} keepdims={_k}",
                     lambda tf, o=_o, a=_a, k=_k: (lambda x: tf.norm(x, ord=o, axis=a, keepdims=k)),
                     u(_s), traced=_trace)
    for _a in (None, -1, (0, 1) if _r >= 2 else 0):
        case("u-norm", f"linalg.norm {_sh(_s)} axis={_a} keepdims=True",
             lambda tf, a=_a: (lambda x: tf.linalg.norm(x, axis=a, keepdims=True)), u(_s))
        case("u-norm", f"euclidean_norm {_sh(_s)} axis={_a} keepdims=True",
             lambda tf, a=_a: (lambda x: tf.math.reduce_euclidean_norm(x, axis=a, keepdims=True)), u(_s))
        case("u-norm", f"normalize {_sh(_s)} axis={_a}",
             lambda tf, a=_a: (lambda x: tf.linalg.normalize(x, axis=a)), u(_s))
for _s in ((1,), (1, 1), (2, 1), (1, 3), (1, 2, 1), (1, 1, 1)):
    for _o in ("euclidean", 1, 2, np.inf):
        for _a in (None, -1, (0, 1) if len(_s) >= 2 else 0):
            case("u-norm", f"grad norm {_sh(_s)} ord={_o} axis={_a}",
                 lambda tf, o=_o, a=_a: (lambda x: tf.norm(x, ord=o, axis=a, keepdims=True)), u(_s, name="g"),
                 grad=True, traced=False)



# -- u-reduce: tf.math reductions by axis form × keepdims, argmax/argmin, count_nonzero ---------------------------
REDUCERS: tuple[tuple[str, str], ...] = (
    ("reduce_sum", "float32"), ("reduce_mean", "float32"), ("reduce_max", "float32"), ("reduce_prod", "float32"),
    ("reduce_logsumexp", "float32"), ("reduce_std", "float32"), ("reduce_euclidean_norm", "float32"),
    ("reduce_sum", "int32"), ("reduce_mean", "int32"), ("reduce_any", "bool"), ("count_nonzero", "float32"),
)
for _s in SHAPES:
    for _fn, _dt in REDUCERS:
        for _a in _axes(len(_s)):
            for _k in (False, True):
                case("u-reduce", f"{_fn} {_dt} {_sh(_s)} axis={_a} keepdims={_k}",
                     lambda tf, fn=_fn, a=_a, k=_k: (lambda x: getattr(tf.math, fn)(x, axis=a, keepdims=k)),
                     u(_s, _dt, lo=-3, hi=3), traced=_k or _a is None or _a == -1)
    for _fn in ("argmax", "argmin"):
        for _a in ([None] + list(range(len(_s))) + [-1]) if _s else [None, 0]:
            case("u-reduce", f"{_fn} {_sh(_s)} axis={_a}",
                 lambda tf, fn=_fn, a=_a: (lambda x: getattr(tf.math, fn)(x, axis=a)), u(_s))
for _s in ((1,), (1, 3), (3, 1), (1, 1), (2, 1, 3), (1, 0), (0, 1)):
    for _fn in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_prod", "reduce_logsumexp", "reduce_std",
                "reduce_euclidean_norm"):
        for _a in (None, 0, -1):
            case("u-reduce", f"grad {_fn} {_sh(_s)} axis={_a}",
                 lambda tf, fn=_fn, a=_a: (lambda x: getattr(tf.math, fn)(x, axis=a, keepdims=True)),
                 u(_s, name="g"), grad=True, traced=False)


# -- u-stats: moments, l2_normalize, normalize_moments, softmaxes, top_k/sort/argsort, scans ------------------------
for _s in SHAPES:
    _r = len(_s)
    _ax = list(range(_r)) + ([-1] if _r else [])
    for _a in _ax + ([[0, _r - 1]] if _r >= 2 else []):
        _axl = _a if isinstance(_a, list) else [_a]
        for _k in (False, True):
            case("u-stats", f"moments {_sh(_s)} axes={_axl} keepdims={_k}",
                 lambda tf, a=_axl, k=_k: (lambda x: tf.nn.moments(x, axes=a, keepdims=k)), u(_s))
        case("u-stats", f"l2_normalize {_sh(_s)} axis={_a}",
             lambda tf, a=_a: (lambda x: tf.math.l2_normalize(x, axis=a)), u(_s))
    case("u-stats", f"l2_normalize {_sh(_s)} axis=None",
         lambda tf: (lambda x: tf.math.l2_normalize(x)), u(_s))
    for _a in _ax or [-1]:
        for _fn in ("softmax", "log_softmax"):
            case("u-stats", f"{_fn} {_sh(_s)} axis={_a}",
                 lambda tf, fn=_fn, a=_a: (lambda x: getattr(tf.nn, fn)(x, axis=a)), u(_s), grad=_r <= 3)
        for _fn, _kw in (("cumsum", {}), ("cumsum", {"exclusive": True}), ("cumsum", {"reverse": True}),
                         ("cumprod", {}), ("cumprod", {"exclusive": True, "reverse": True}),
                         ("cumulative_logsumexp", {}), ("cumulative_logsumexp", {"exclusive": True})):
            case("u-stats", f"{_fn} {_sh(_s)} axis={_a} {sorted(_kw)}",
                 lambda tf, fn=_fn, a=_a, kw=_kw: (lambda x: getattr(tf.math, fn)(x, axis=a, **kw)), u(_s),
                 grad=_r <= 2 and _fn != "cumulative_logsumexp")
        for _d in ("ASCENDING", "DESCENDING"):
            case("u-stats", f"sort {_sh(_s)} axis={_a} {_d}",
                 lambda tf, a=_a, d=_d: (lambda x: tf.sort(x, axis=a, direction=d)), u(_s))
            case("u-stats", f"argsort {_sh(_s)} axis={_a} {_d}",
                 lambda tf, a=_a, d=_d: (lambda x: tf.argsort(x, axis=a, direction=d, stable=True)), u(_s))
    for _k in (0, 1, 2):
        case("u-stats", f"top_k {_sh(_s)} k={_k}",
             lambda tf, k=_k: (lambda x: tf.math.top_k(x, k=k)), u(_s), grad=_r in (1, 2))
for _s, _ax in (((1,), [0]), ((1, 3), [0]), ((3, 1), [1]), ((1, 1), [0, 1]), ((2, 1, 3), [1]), ((0, 1), [0])):
    for _shift in (False, True):
        case("u-stats", f"normalize_moments {_sh(_s)} axes={_ax} shift={_shift}",
             lambda tf, a=_ax, sh=_shift: (lambda x: tf.nn.normalize_moments(
                 *tf.nn.sufficient_statistics(x, a, shift=(0.5 if sh else None))[:3], shift=(0.5 if sh else None))),
             u(_s))
        case("u-stats", f"sufficient_statistics {_sh(_s)} axes={_ax} shift={_shift} keepdims",
             lambda tf, a=_ax, sh=_shift: (lambda x: tf.nn.sufficient_statistics(
                 x, a, shift=(0.5 if sh else None), keepdims=True)), u(_s))
for _s in ((1,), (1, 1), (2, 1), (1, 3), (1, 2, 1)):
    for _a in (0, -1):
        case("u-stats", f"grad moments {_sh(_s)} axes=[{_a}]",
             lambda tf, a=_a: (lambda x: tf.nn.moments(x, axes=[a], keepdims=True)), u(_s, name="g"),
             grad=True, traced=False)
        case("u-stats", f"grad l2_normalize {_sh(_s)} axis={_a}",
             lambda tf, a=_a: (lambda x: tf.math.l2_normalize(x, axis=a)), u(_s, name="g"), grad=True,
             traced=False)


# -- u-matmul: matmul/matvec/einsum/tensordot with size-1 (and 0) batch and contraction dimensions ----------------
MATMULS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    ((1, 1), (1, 1)), ((1, 3), (3, 1)), ((3, 1), (1, 3)), ((1, 3), (3, 2)), ((2, 1), (1, 1)),
    ((1, 1, 3), (3, 2)), ((1, 2, 3), (3, 1)), ((2, 3), (1, 3, 2)), ((1, 2, 3), (4, 3, 2)), ((4, 2, 3), (1, 3, 2)),
    ((1, 1, 2, 3), (5, 3, 1)), ((2, 1, 2, 3), (1, 3, 3, 2)), ((1, 2, 1, 3), (2, 1, 3, 1)),
    ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((1, 0, 3), (3, 2)), ((0, 2, 3), (1, 3, 2)), ((1, 2, 3), (0, 3, 2)),
    ((3,), (3, 1)), ((1,), (1, 1)),
)
for _a, _b in MATMULS:
    for _ta, _tb in ((False, False), (True, False), (False, True)):
        def _mm(tf: Any, ta: bool = _ta, tb: bool = _tb) -> Callable[..., Any]:
            def f(x: Any, y: Any) -> Any:
                return tf.linalg.matmul(tf.linalg.matrix_transpose(x) if ta and len(x.shape) >= 2 else x,
                                        tf.linalg.matrix_transpose(y) if tb and len(y.shape) >= 2 else y,
                                        transpose_a=ta, transpose_b=tb)
            return f
        case("u-matmul", f"matmul {_sh(_a)} @ {_sh(_b)} ta={_ta} tb={_tb}", _mm, u(_a, name="a"),
             u(_b, name="b"), grad=_ta is False and _tb is False)
    case("u-matmul", f"einsum ...ij,...jk {_sh(_a)} {_sh(_b)}",
         lambda tf: (lambda x, y: tf.einsum("...ij,...jk->...ik", x, y)), u(_a, name="a"), u(_b, name="b"),
         grad=True)
    case("u-matmul", f"operator @ {_sh(_a)} {_sh(_b)}", lambda tf: (lambda x, y: x @ y), u(_a, name="a"),
         u(_b, name="b"))
for _m, _v in (((1, 1), (1,)), ((3, 1), (1,)), ((1, 3), (3,)), ((1, 1, 3), (3,)), ((2, 1, 3), (1, 3)),
               ((1, 2, 3), (4, 3)), ((2, 3), (1, 3)), ((0, 3), (3,)), ((2, 0), (0,)), ((1, 2, 3), (0, 3))):
    for _adj in (False, True):
        case("u-matmul", f"matvec {_sh(_m)} {_sh(_v)} adjoint={_adj}",
             lambda tf, adj=_adj: (lambda x, y: tf.linalg.matvec(tf.linalg.adjoint(x) if adj else x, y,
                                                                 adjoint_a=adj)),
             u(_m, name="m"), u(_v, name="v"), grad=not _adj)
EINSUMS: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...] = (
    ("ij,jk->ik", (1, 1), (1, 1)), ("ij,jk->ik", (1, 3), (3, 1)), ("ij,jk->ik", (2, 0), (0, 3)),
    ("bij,bjk->bik", (1, 2, 3), (1, 3, 1)), ("bij,bjk->bik", (1, 1, 1), (1, 1, 1)), ("i,i->", (1,), (1,)),
    ("i,i->", (0,), (0,)), ("i,j->ij", (1,), (3,)), ("ij,j->i", (1, 3), (3,)), ("ij,ij->", (1, 1), (1, 1)),
    ("ij->ji", (1, 3), None), ("ij->", (1, 1), None), ("ij->j", (1, 3), None), ("ii->i", (1, 1), None),
    ("ii->", (1, 1), None), ("...i,...i->...", (1, 2, 1), (2, 1)), ("bi,bi->b", (1, 3), (1, 3)),
    ("abc,cd->abd", (1, 1, 3), (3, 1)), ("b...,b...->b", (1, 2, 1), (1, 2, 1)), ("ij,kj->ik", (1, 0), (2, 0)),
)
for _eq, _a, _b in EINSUMS:
    if _b is None:
        case("u-matmul", f"einsum {_eq} {_sh(_a)}", lambda tf, eq=_eq: (lambda x: tf.einsum(eq, x)),
             u(_a, name="a"), grad=True)
    else:
        case("u-matmul", f"einsum {_eq} {_sh(_a)} {_sh(_b)}", lambda tf, eq=_eq: (lambda x, y: tf.einsum(eq, x, y)),
             u(_a, name="a"), u(_b, name="b"), grad=True)
TENSORDOTS: tuple[tuple[Any, tuple[int, ...], tuple[int, ...]], ...] = (
    (1, (1, 1), (1, 1)), (1, (2, 1), (1, 3)), (0, (1,), (1,)), (0, (1, 2), (3, 1)), (2, (1, 2, 1), (2, 1, 3)),
    ([[0], [1]], (1, 3), (2, 1)), ([[1, 0], [0, 1]], (1, 3), (3, 1)), (1, (0, 1), (1, 2)), (1, (2, 0), (0, 3)),
    ([[0], [0]], (1,), (1, 4)),
)
for _ax, _a, _b in TENSORDOTS:
    case("u-matmul", f"tensordot axes={_ax} {_sh(_a)} {_sh(_b)}",
         lambda tf, ax=_ax: (lambda x, y: tf.tensordot(x, y, axes=ax)), u(_a, name="a"), u(_b, name="b"), grad=True)



# -- u-shape: squeeze/expand_dims/reshape/broadcast_to/tile/transpose/reverse/pad, gather/scatter, concat/stack/split,
#    one_hot, where/boolean_mask -----------------------------------------------------------------------------------
for _s in SHAPES:
    _r = len(_s)
    _x = u(_s)
    case("u-shape", f"squeeze {_sh(_s)}", lambda tf: (lambda x: tf.squeeze(x)), _x, grad=True)
    for _a in range(-_r, _r):
        case("u-shape", f"squeeze {_sh(_s)} axis={_a}", lambda tf, a=_a: (lambda x: tf.squeeze(x, axis=a)), _x)
    if _r >= 2:
        case("u-shape", f"squeeze {_sh(_s)} axis=[0,-1]", lambda tf: (lambda x: tf.squeeze(x, axis=[0, -1])), _x)
    for _a in dict.fromkeys((0, -1, _r, -_r - 1, _r + 1)):
        case("u-shape", f"expand_dims {_sh(_s)} axis={_a}", lambda tf, a=_a: (lambda x: tf.expand_dims(x, a)), _x)
    for _to in dict.fromkeys(map(tuple, ([-1], [1, -1], [-1, 1], [1, 1, -1], [0, -1], [-1, 0], list(_s) + [1],
                                         [1] + list(_s)))):
        _to = list(_to)
        case("u-shape", f"reshape {_sh(_s)} to {_to}", lambda tf, to=_to: (lambda x: tf.reshape(x, to)), _x,
             grad=_to == [-1])
    for _to in dict.fromkeys(((1,) + _s, _s, (2,) + _s, tuple(2 if d == 1 else d for d in _s),
                              tuple(0 if d == 1 else d for d in _s))):
        case("u-shape", f"broadcast_to {_sh(_s)} to {list(_to)}",
             lambda tf, to=_to: (lambda x: tf.broadcast_to(x, list(to))), _x, grad=True)
    for _m in dict.fromkeys(map(tuple, ([1] * _r, [2] * _r, [0] + [1] * (_r - 1) if _r else []))):
        _m = list(_m)
        case("u-shape", f"tile {_sh(_s)} multiples={_m}", lambda tf, m=_m: (lambda x: tf.tile(x, m)), _x, grad=True)
    if _r >= 1:
        case("u-shape", f"transpose {_sh(_s)}", lambda tf: (lambda x: tf.transpose(x)), _x)
        case("u-shape", f"reverse {_sh(_s)} axis=[-1]", lambda tf: (lambda x: tf.reverse(x, [-1])), _x)
        case("u-shape", f"reverse {_sh(_s)} axis=[0]", lambda tf: (lambda x: tf.reverse(x, [0])), _x)
        case("u-shape", f"pad {_sh(_s)} [[0,1]..]", lambda tf, r=_r: (lambda x: tf.pad(x, [[0, 1]] * r)), _x, grad=True)
        case("u-shape", f"pad {_sh(_s)} [[1,0]..] REFLECT",
             lambda tf, r=_r: (lambda x: tf.pad(x, [[1, 0]] * r, mode="REFLECT")), _x)
        case("u-shape", f"pad {_sh(_s)} [[1,1]..] SYMMETRIC",
             lambda tf, r=_r: (lambda x: tf.pad(x, [[1, 1]] * r, mode="SYMMETRIC")), _x)
        for _a in (0, -1):
            case("u-shape", f"gather {_sh(_s)} [0] axis={_a}", lambda tf, a=_a: (lambda x: tf.gather(x, [0], axis=a)),
                 _x, grad=True)
            case("u-shape", f"gather {_sh(_s)} [[0]] axis={_a}",
                 lambda tf, a=_a: (lambda x: tf.gather(x, [[0]], axis=a)), _x)
            case("u-shape", f"gather {_sh(_s)} 0 axis={_a}", lambda tf, a=_a: (lambda x: tf.gather(x, 0, axis=a)), _x)
            case("u-shape", f"gather {_sh(_s)} [] axis={_a}",
                 lambda tf, a=_a: (lambda x: tf.gather(x, tf.zeros([0], tf.int32), axis=a)), _x)
        case("u-shape", f"gather_nd {_sh(_s)} [[0]]", lambda tf: (lambda x: tf.gather_nd(x, [[0]])), _x, grad=True)
        case("u-shape", f"gather_nd {_sh(_s)} [[0]*rank]", lambda tf, r=_r: (lambda x: tf.gather_nd(x, [[0] * r])), _x)
        case("u-shape", f"gather_nd {_sh(_s)} zeros [0,1]",
             lambda tf: (lambda x: tf.gather_nd(x, tf.zeros([0, 1], tf.int32))), _x)
        case("u-shape", f"tensor_scatter_nd_update {_sh(_s)} [[0]]",
             lambda tf: (lambda x: tf.tensor_scatter_nd_update(x, [[0]], x[:1])), _x, grad=True)
        case("u-shape", f"scatter_nd {_sh(_s)} [[0]] into [1]+shape[1:]",
             lambda tf: (lambda x: tf.scatter_nd([[0]], x[:1], tf.shape(x[:1]))), _x)
        for _a in range(_r):
            for _pieces in (1, 2):
                case("u-shape", f"concat {_pieces} {_sh(_s)} axis={_a}",
                     lambda tf, a=_a, n=_pieces: (lambda x: tf.concat([x] * n, axis=a)), _x, grad=_pieces == 2)
            case("u-shape", f"split {_sh(_s)} 1 axis={_a}",
                 lambda tf, a=_a: (lambda x: tf.split(x, 1, axis=a)), _x)
            case("u-shape", f"split {_sh(_s)} sizes [-1] axis={_a}",
                 lambda tf, a=_a: (lambda x: tf.split(x, [-1], axis=a)), _x)
            case("u-shape", f"split {_sh(_s)} sizes [0,-1] axis={_a}",
                 lambda tf, a=_a: (lambda x: tf.split(x, [0, -1], axis=a)), _x)
            case("u-shape", f"unstack {_sh(_s)} axis={_a}", lambda tf, a=_a: (lambda x: tf.unstack(x, axis=a)), _x)
        _m = u(_s, "bool", name="m")
        case("u-shape", f"boolean_mask {_sh(_s)} full", lambda tf: (lambda x, m: tf.boolean_mask(x, m)), _x, _m)
        case("u-shape", f"boolean_mask {_sh(_s)} axis0",
             lambda tf: (lambda x, m: tf.boolean_mask(x, m[(slice(None),) + (0,) * (len(m.shape) - 1)])), _x, _m)
        case("u-shape", f"where {_sh(_s)} 1-arg", lambda tf: (lambda m: tf.where(m)), _m)
        case("u-shape", f"where {_sh(_s)} 3-arg broadcast",
             lambda tf: (lambda x, m: tf.where(m[..., :1], x, tf.zeros([1], x.dtype))), _x, _m)
    for _n in (1, 2):
        case("u-shape", f"stack {_n} {_sh(_s)} axis=0", lambda tf, n=_n: (lambda x: tf.stack([x] * n)), _x)
        case("u-shape", f"stack {_n} {_sh(_s)} axis=-1", lambda tf, n=_n: (lambda x: tf.stack([x] * n, axis=-1)), _x)
    _i = u(_s, "int32", name="i", lo=-1, hi=2)
    for _d in (0, 1, 2):
        case("u-shape", f"one_hot {_sh(_s)} depth={_d}", lambda tf, d=_d: (lambda i: tf.one_hot(i, d)), _i)
        case("u-shape", f"one_hot {_sh(_s)} depth={_d} axis=0", lambda tf, d=_d: (lambda i: tf.one_hot(i, d, axis=0)),
             _i)
    case("u-shape", f"shape/size/rank {_sh(_s)}",
         lambda tf: (lambda x: (tf.shape(x), tf.size(x), tf.rank(x), tf.shape_n([x, x])[1])), _x)
    case("u-shape", f"where 3-arg scalar cond {_sh(_s)}",
         lambda tf: (lambda x: tf.where(tf.constant(True), x, tf.zeros([1], x.dtype))), _x)


# -- u-nn: conv/pool with 1x1 windows on 1x1 images, segment ops of one segment, bias_add ---------------------------
for _img in ((1, 1, 1, 1), (1, 1, 1, 3), (2, 1, 1, 2), (1, 2, 1, 1), (1, 1, 3, 2), (0, 1, 1, 2), (1, 0, 1, 2)):
    _cin = _img[-1]
    for _k in ((1, 1), (2, 2)):
        for _pad in ("SAME", "VALID"):
            for _st in (1, 2):
                _w = u(_k + (_cin, 2), name="w")
                if _pad == "VALID" and (_k[0] > _img[1] or _k[1] > _img[2]):
                    continue   # (TF 2.21's oneDNN Conv2D of a VALID window larger than the image returns a [.., 1, 1, ..]
                    # output of uninitialized memory: not observable)
                case("u-nn", f"conv2d {_sh(_img)} k={_k} {_pad} s={_st}",
                     lambda tf, p=_pad, st=_st: (lambda x, w: tf.nn.conv2d(x, w, st, p)), u(_img), _w,
                     grad=_k == (1, 1) and _st == 1)
                if _pad == "VALID" and (_k[0] > _img[1] or _k[1] > _img[2]):
                    continue   # (TF 2.21's eager MaxPool of a VALID window larger than the image ends the process: SIGFPE)
                case("u-nn", f"max_pool2d {_sh(_img)} k={_k} {_pad} s={_st}",
                     lambda tf, k=_k, p=_pad, st=_st: (lambda x: tf.nn.max_pool2d(x, k, st, p)), u(_img),
                     grad=_k == (1, 1))
                case("u-nn", f"avg_pool2d {_sh(_img)} k={_k} {_pad} s={_st}",
                     lambda tf, k=_k, p=_pad, st=_st: (lambda x: tf.nn.avg_pool2d(x, k, st, p)), u(_img),
                     grad=_k == (1, 1))
        case("u-nn", f"depthwise_conv2d {_sh(_img)} k={_k}",
             lambda tf: (lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME")), u(_img),
             u(_k + (_cin, 1), name="dw"))
    case("u-nn", f"bias_add {_sh(_img)}", lambda tf: (lambda x, b: tf.nn.bias_add(x, b)), u(_img),
         u((_cin,), name="b"), grad=True)
for _seq in ((1, 1, 1), (2, 1, 3), (1, 3, 1), (0, 1, 1)):
    for _k in (1, 2):
        case("u-nn", f"conv1d {_sh(_seq)} k={_k}", lambda tf: (lambda x, w: tf.nn.conv1d(x, w, 1, "SAME")), u(_seq),
             u((_k, _seq[-1], 1), name="w1"), grad=True)
        if _k > _seq[1]:
            continue   # (the SIGFPE of a VALID window larger than the input, as max_pool2d's)
        case("u-nn", f"max_pool1d {_sh(_seq)} k={_k}", lambda tf, k=_k: (lambda x: tf.nn.max_pool1d(x, k, 1, "VALID")),
             u(_seq))
for _s in ((1,), (1, 3), (1, 1), (1, 2, 1), (3,), (3, 1), (0,), (0, 2)):
    _ids = np.zeros((_s[0],), np.int32)
    for _fn in ("segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"):
        case("u-nn", f"{_fn} {_sh(_s)} one segment", lambda tf, fn=_fn: (lambda x, i: getattr(tf.math, fn)(x, i)),
             u(_s), _ids, grad=_fn in ("segment_sum", "segment_mean"))
    for _fn in ("unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_sqrt_n"):
        for _n in (1, 2):
            case("u-nn", f"{_fn} {_sh(_s)} num_segments={_n}",
                 lambda tf, fn=_fn, n=_n: (lambda x, i: getattr(tf.math, fn)(x, i, n)), u(_s), _ids,
                 grad=_fn == "unsorted_segment_sum")


# -- u-linalg: det/inv/cholesky/qr/svd/eig on 1x1, batches of 1 and 0x0 ---------------------------------------------
for _s in ((1, 1), (1, 1, 1), (2, 1, 1), (1, 2, 2), (0, 0), (1, 0, 0), (0, 1, 1), (1, 3, 1), (1, 1, 3)):
    _spd = np.asarray(u(_s, name="L"))
    _sq = _s[-1] == _s[-2]
    if _sq:
        _spd = (_spd @ np.swapaxes(_spd, -1, -2) + np.eye(_s[-1], dtype=np.float32) * 2).astype(np.float32)
    for _fn in ("det", "slogdet", "inv", "cholesky", "logdet", "trace", "diag_part", "matrix_transpose", "eigh",
                "eigvalsh", "adjoint", "expm", "sqrtm", "lu", "pinv", "tensor_diag_part"):
        case("u-linalg", f"{_fn} {_sh(_s)}", lambda tf, fn=_fn: (lambda x: getattr(tf.linalg, fn)(x)), _spd,
             grad=_fn in ("det", "inv", "cholesky", "trace", "logdet") and _sq)
    for _fm in (False, True):
        case("u-linalg", f"qr {_sh(_s)} full_matrices={_fm}",
             lambda tf, fm=_fm: (lambda x: tf.linalg.qr(x, full_matrices=fm)), _spd)
        case("u-linalg", f"svd {_sh(_s)} full_matrices={_fm}",
             lambda tf, fm=_fm: (lambda x: tf.linalg.svd(x, full_matrices=fm)), _spd)
    case("u-linalg", f"eig {_sh(_s)}", lambda tf: (lambda x: tf.linalg.eig(x)), _spd)
    case("u-linalg", f"svd {_sh(_s)} compute_uv=False", lambda tf: (lambda x: tf.linalg.svd(x, compute_uv=False)),
         _spd, grad=_s[-1] >= 1)
    case("u-linalg", f"solve {_sh(_s)}", lambda tf: (lambda x, b: tf.linalg.solve(x, b)), _spd,
         u(_s[:-1] + (1,), name="rhs"), grad=_sq)
    case("u-linalg", f"solve {_sh(_s)} known shapes", lambda tf: (lambda x, b: tf.linalg.solve(x, b)), _spd,
         u(_s[:-1] + (1,), name="rhs"), unknown=False)   # (get_concrete_function's outputs past a dry run's probe)
    case("u-linalg", f"triangular_solve {_sh(_s)}",
         lambda tf: (lambda x, b: tf.linalg.triangular_solve(tf.linalg.band_part(x, -1, 0), b)), _spd,
         u(_s[:-1] + (1,), name="rhs"))
    case("u-linalg", f"cholesky_solve {_sh(_s)}",
         lambda tf: (lambda x, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(x), b)), _spd,
         u(_s[:-1] + (1,), name="rhs"))
    case("u-linalg", f"lstsq {_sh(_s)}", lambda tf: (lambda x, b: tf.linalg.lstsq(x, b)), _spd,
         u(_s[:-1] + (1,), name="rhs"))
    case("u-linalg", f"diag of diag_part {_sh(_s)}", lambda tf: (lambda x: tf.linalg.diag(tf.linalg.diag_part(x))),
         _spd)


# -- u-fft: fft/ifft/rfft/irfft of length 1 (and 0), fft2d of 1x1 ---------------------------------------------------
for _s in ((1,), (1, 1), (2, 1), (1, 1, 1), (3, 1, 1), (1, 2), (0, 1), (1, 0)):
    _c = u(_s, "complex64", name="c")
    for _fn in ("fft", "ifft"):
        case("u-fft", f"{_fn} {_sh(_s)}", lambda tf, fn=_fn: (lambda x: getattr(tf.signal, fn)(x)), _c)
    if len(_s) >= 2:
        for _fn in ("fft2d", "ifft2d"):
            case("u-fft", f"{_fn} {_sh(_s)}", lambda tf, fn=_fn: (lambda x: getattr(tf.signal, fn)(x)), _c)
        case("u-fft", f"rfft2d {_sh(_s)}", lambda tf: (lambda x: tf.signal.rfft2d(x)), u(_s, name="r"))
    case("u-fft", f"rfft {_sh(_s)}", lambda tf: (lambda x: tf.signal.rfft(x)), u(_s, name="r"), grad=True)
    for _n in (1, 2) if _s[-1] else ():   # (an empty last axis with an fft_length: TF 2.21 reads uninitialized memory)
        case("u-fft", f"rfft {_sh(_s)} fft_length={_n}", lambda tf, n=_n: (lambda x: tf.signal.rfft(x, [n])),
             u(_s, name="r"))
        case("u-fft", f"irfft {_sh(_s)} fft_length={_n}", lambda tf, n=_n: (lambda x: tf.signal.irfft(x, [n])), _c)
    if _s[-1] >= 2:   # (irfft's default fft_length 2 * (n - 1) is 0 for n = 1: TF 2.21 aborts, "no zero-sized FFTs")
        case("u-fft", f"irfft {_sh(_s)}", lambda tf: (lambda x: tf.signal.irfft(x)), _c)
    case("u-fft", f"fftshift {_sh(_s)}", lambda tf: (lambda x: tf.signal.fftshift(x)), u(_s, name="r"))


# -- u-image: image ops on 1x1 images --------------------------------------------------------------------------------
for _img in ((1, 1, 1), (1, 1, 3), (1, 1, 1, 3), (2, 1, 1, 3), (1, 2, 1, 3), (1, 1, 2, 1)):
    _x = u(_img, lo=0.0, hi=1.0)
    for _size in ((1, 1), (2, 2), (1, 3)):
        for _m in ("bilinear", "nearest", "bicubic", "area", "lanczos3"):
            case("u-image", f"resize {_sh(_img)} to {_size} {_m}",
                 lambda tf, sz=_size, m=_m: (lambda x: tf.image.resize(x, sz, method=m)), _x,
                 grad=_m == "bilinear" and _size == (2, 2))
    for _fn in ("flip_left_right", "flip_up_down", "rot90", "transpose", "per_image_standardization",
                "rgb_to_grayscale", "rgb_to_hsv", "grayscale_to_rgb", "adjust_gamma"):
        case("u-image", f"{_fn} {_sh(_img)}", lambda tf, fn=_fn: (lambda x: getattr(tf.image, fn)(x)), _x)
    case("u-image", f"adjust_brightness {_sh(_img)}", lambda tf: (lambda x: tf.image.adjust_brightness(x, 0.25)), _x)
    case("u-image", f"adjust_contrast {_sh(_img)}", lambda tf: (lambda x: tf.image.adjust_contrast(x, 2.0)), _x)
    case("u-image", f"adjust_saturation {_sh(_img)}", lambda tf: (lambda x: tf.image.adjust_saturation(x, 2.0)), _x)
    case("u-image", f"central_crop {_sh(_img)} 0.5", lambda tf: (lambda x: tf.image.central_crop(x, 0.5)), _x)
    case("u-image", f"crop_to_bounding_box {_sh(_img)}",
         lambda tf: (lambda x: tf.image.crop_to_bounding_box(x, 0, 0, 1, 1)), _x)
    case("u-image", f"pad_to_bounding_box {_sh(_img)}",
         lambda tf: (lambda x: tf.image.pad_to_bounding_box(x, 1, 0, 2, 1)), _x)
    case("u-image", f"resize_with_crop_or_pad {_sh(_img)} 2x2",
         lambda tf: (lambda x: tf.image.resize_with_crop_or_pad(x, 2, 2)), _x)
    case("u-image", f"total_variation {_sh(_img)}", lambda tf: (lambda x: tf.image.total_variation(x)), _x)
    case("u-image", f"sobel_edges {_sh(_img)}", lambda tf: (lambda x: tf.image.sobel_edges(x)), _x)
    case("u-image", f"image_gradients {_sh(_img)}", lambda tf: (lambda x: tf.image.image_gradients(x)), _x)
    case("u-image", f"psnr/ssim-free {_sh(_img)}", lambda tf: (lambda x: tf.image.psnr(x, x * 0.5, 1.0)), _x)


for _name in CASES:
    program(_name, lambda tf, mk, name=_name: run_program(name, tf, mk))
