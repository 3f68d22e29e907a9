"""oneDNN's float32 eltwise post-ops as TF 2.21's oneDNN fused contractions apply them (clause
function.onednn-fused-contraction; the rewrite is grappler.py's `_contraction_fusion`).

The kernels are the eltwise injector's AVX-512 forward paths (oneDNN src/cpu/x64/injectors/
jit_uni_eltwise_injector.cpp), applied to the float32 accumulator plus bias, every arithmetic step flushed to
zero (FTZ, inputs read under DAZ); vmin/vmax return their second operand (the constant) where the value is NaN:

- **tanh** (`tanh_compute_vector_fwd`): |x| below 0x39ddb3d7 (~4.2e-4) is x itself; from 0x41102cb3 (~9.01)
  up (and NaN: no comparison holds) +-1; between, a degree-6 polynomial of r = |x| - (|x| & 0xffc00000) with
  the coefficients of interval ((bits(|x|) - 0x39800000) >> 22) & 31 (32 per degree, the table below), in
  Horner form of fused multiply-adds, and x's sign bit put back;
- **logistic** (`logistic_compute_vector_fwd`): onednn_swish's `_logistic` (exp of -|x|, e / (e + 1), 1 - y
  where x's sign bit is clear);
- **elu** (alpha 1): x where x > 0, else exp(x) - 1 (the injector's exp);
- **gelu_tanh**: 0.5-scaled x(1 + tanh(sqrt(2/pi) x (1 + 0.044715 x^2))) in the injector's order;
- relu, relu6 (clip to [0, 6]) and leaky relu (x > 0 ? x : alpha x) are exact, as Eigen's."""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import onednn_softmax, onednn_swish

__all__ = ["elu", "gelu_tanh", "logistic", "relu", "relu6", "relu_alpha0", "tanh"]

_F32 = np.float32
_ftz = onednn_softmax._ftz
_fma32 = onednn_softmax.fma32


def _bits(v: int) -> np.float32:
    return np.uint32(v).view(_F32)


_TANH_IDX_BIAS = np.uint32(0x39800000)
_TANH_IDX_MASK = np.uint32(0xFFC00000)
_TANH_LINEAR_UBOUND = _bits(0x39DDB3D7)
_TANH_SATURATION_LBOUND = _bits(0x41102CB3)
_TANH_TABLE = np.array([
    0x00000000, 0x39bfffff, 0x39ffffff, 0x3a3ffffe, 0x3a7ffffb, 0x3abffff7, 0x3affffeb, 0x3b3fffdc,
    0x3b7fffab, 0x3bbfff70, 0x3bfffeab, 0x3c3ffdc0, 0x3c7ffaab, 0x3cbff701, 0x3cffeaad, 0x3d3fdc08,
    0x3d7faacd, 0x3dbf7081, 0x3dfeacc9, 0x3e3dc7fd, 0x3e7acbf5, 0x3eb77a9f, 0x3eec9a9f, 0x3f22991f,
    0x3f42f7d6, 0x3f67b7cc, 0x3f76ca83, 0x3f7ebbe9, 0x3f7fd40c, 0x3f7fff32, 0x3f7ffffc, 0x3f800000,
    0x3f800000, 0x3f800018, 0x3f7fffe8, 0x3f7fffda, 0x3f7fffdc, 0x3f7fffdc, 0x3f7fffac, 0x3f7fff70,
    0x3f7ffeec, 0x3f7ffdc0, 0x3f7ffbed, 0x3f7ff704, 0x3f7feff5, 0x3f7fdbca, 0x3f7fbfff, 0x3f7f7041,
    0x3f7f009b, 0x3f7dc36c, 0x3f7c0aa8, 0x3f7734b8, 0x3f70a4de, 0x3f5f1fd8, 0x3f495493, 0x3f18b9ec,
    0x3ed706cb, 0x3e390b06, 0x3d90b11f, 0x3c21a053, 0x3aaf7fdb, 0x37ccc1a3, 0x355c6733, 0x00000000,
    0x00000000, 0xbe4e0ff1, 0x3d25b1b1, 0x3d6b6dab, 0x3c9fb1d5, 0xbabff06f, 0x3c07b3f6, 0xbb3fc1bc,
    0x3a9f5921, 0xbbbf06f2, 0xbbb0f402, 0xbc47db9e, 0xbc73d5e7, 0xbca25bda, 0xbcfca780, 0xbd40e07c,
    0xbd7dab03, 0xbdbe4a0f, 0xbdfb14a5, 0xbe36cc8d, 0xbe6bd102, 0xbe9fe7c5, 0xbeba0f10, 0xbec206a8,
    0xbea3c388, 0xbe277d62, 0xbd8b7960, 0xbc209f49, 0xbaad44ca, 0xb7c6eeac, 0xb663aa41, 0x00000000,
    0x00000000, 0x45b3ae96, 0xc414eb20, 0xc450e02e, 0xc3152b4e, 0xbead2f56, 0xc2162e02, 0xbeb4bd5a,
    0xc11a59a4, 0xbed2f507, 0xc020d32c, 0x3dd0f506, 0xbf2a75e2, 0xbff950e3, 0xbed47334, 0xbe809b8c,
    0xbeb64532, 0xbe961a5b, 0xbe9b63ac, 0xbea0d4b2, 0xbe828a77, 0xbe378612, 0xbdc20908, 0x3d2d3957,
    0x3dd46e89, 0x3db3f629, 0x3d2c5e7b, 0x3bd20403, 0x3a59dfae, 0x3770af45, 0x372cc014, 0x00000000,
    0x00000000, 0xcc981a1b, 0x4a7edd3d, 0x4ab1007c, 0x48fedd9c, 0x41a557b5, 0x477ee32a, 0x422557f5,
    0x45ff3ce4, 0x42a55641, 0x446e0867, 0xc33dc19a, 0x42915214, 0x43af4fad, 0x4110fe88, 0xc1099b75,
    0x3fc8a8dc, 0xbfbeaef5, 0xbe365aad, 0x3f4d9652, 0x3ddfa08f, 0x3e34e9b8, 0x3e2d07a6, 0x3dc63567,
    0x3cdaeb78, 0xbcd17537, 0xbc92829c, 0xbb43ab99, 0xb9b471dd, 0xb6baad5a, 0xb78bafc7, 0x00000000,
    0x00000000, 0x52f688d5, 0xd0505c72, 0xd08f98e3, 0xce505cc9, 0xc7162b8a, 0xcc5061d6, 0xc7162bdf,
    0xca50b37f, 0xc7162a3a, 0xc8422086, 0x471a714e, 0xc5ece1f1, 0xc70e3d90, 0xc3eba94a, 0x43e0c424,
    0xc21f4552, 0x42217cc8, 0x405e7dc4, 0xc10dd401, 0x3e96b602, 0xbd1a6d2f, 0xbd393883, 0xbd674682,
    0xbd310016, 0xb961e269, 0x3ba32495, 0x3a7680d5, 0x38b3173c, 0x35a9deea, 0x375c3f2a, 0x00000000,
    0x00000000, 0xd8995ed1, 0x558285ea, 0x55b2cd69, 0x53028625, 0x4bc9991f, 0x5082898a, 0x4b4999b3,
    0x4e02c07c, 0x4ac99764, 0x4b72c822, 0xca40c0e1, 0x489413e4, 0x49b12224, 0x46134c4e, 0xc60c2d57,
    0x43c83910, 0xc3c872d1, 0xc186bc9e, 0x42325bc3, 0xbf2ffa4a, 0x3d9a203c, 0xbc545a43, 0xbae08fee,
    0x3c80225d, 0x3b1fd1df, 0xba36b9d1, 0xb91de544, 0xb71f100f, 0xb408e2ed, 0xb685fec8, 0x00000000,
], np.uint32).view(_F32).reshape(7, 32)   # coefficients of degree 0..6, 32 intervals each
_GELU_TANH_FITTING = _bits(0x3D372713)
_GELU_TANH_SQRT_TWO_OVER_PI = _bits(0x3F4C422A)


_DEFAULT_NAN = np.uint32(0xFFC00000).view(_F32)


def relu(a: np.ndarray) -> np.ndarray:
    """vmaxps(x, 0) (`relu_zero_ns_compute_vector_fwd`): x where x > 0, else +0, so 0 for a NaN (TF 2.21
    observed; Eigen's Relu gives the NaN)."""
    x = np.asarray(a, _F32)
    with np.errstate(invalid="ignore"):
        return np.where(x > _F32(0), x, _F32(0)).astype(_F32)


def relu_alpha0(a: np.ndarray) -> np.ndarray:
    """`relu_compute_vector_fwd` with alpha 0: x where x > 0, else x · 0 (-0 for a negative x): the float16
    fused MatMul's Relu (TF 2.21 observed: -0 where float32's and bfloat16's give +0)."""
    x = np.asarray(a, _F32)
    with np.errstate(invalid="ignore"):
        return np.where(x > _F32(0), x, x * _F32(0)).astype(_F32)


def relu6(a: np.ndarray) -> np.ndarray:
    """The clip post-op min(max(x, 0), 6): 0 for a NaN."""
    return np.minimum(relu(a), _F32(6)).astype(_F32)


def _daz(a: np.ndarray) -> np.ndarray:
    return _ftz(np.asarray(a, _F32))


def tanh(a: np.ndarray) -> np.ndarray:
    """The injector's tanh of float32 a (`tanh_compute_vector_fwd`)."""
    x = np.asarray(a, _F32)
    bits = x.view(np.uint32)
    mag_bits = bits & np.uint32(0x7FFFFFFF)
    sign = bits & np.uint32(0x80000000)
    mag = mag_bits.view(_F32)
    idx = (((mag_bits - _TANH_IDX_BIAS) & _TANH_IDX_MASK) >> np.uint32(22)) & np.uint32(31)
    shift = (mag_bits & _TANH_IDX_MASK).view(_F32)
    with np.errstate(invalid="ignore", over="ignore"):
        r = _daz(_daz(mag) - _daz(shift))
        pol = _TANH_TABLE[6][idx]
        for deg in range(5, -1, -1):
            pol = _ftz(_fma32(pol, r, _TANH_TABLE[deg][idx]))
        magd = _daz(mag)
        out = np.where(_TANH_SATURATION_LBOUND > magd, pol, _F32(1))
        out = np.where(_TANH_LINEAR_UBOUND > magd, mag, out).astype(_F32)
    out = (out.view(np.uint32) ^ sign).view(_F32)
    return np.where(np.isnan(x), x, out).astype(_F32)   # (TF 2.21 observed: a NaN comes back as it came)


def logistic(a: np.ndarray) -> np.ndarray:
    """The injector's logistic of float32 a (onednn_swish's, NaN as the injector gives it)."""
    x = _daz(a)
    nan = np.isnan(x)
    out = onednn_swish._logistic(np.where(nan, _F32(0), x))
    # (TF 2.21 observed: a NaN of either sign comes back as the default NaN, 0xffc00000)
    return np.where(nan, _DEFAULT_NAN, out).astype(_F32)


def elu(a: np.ndarray) -> np.ndarray:
    """The injector's elu, alpha 1: x where x > 0, else exp(x) - 1."""
    x = _daz(a)
    with np.errstate(invalid="ignore", over="ignore"):
        neg = _ftz(onednn_softmax.exp(np.where(np.isnan(x), _F32(0), x)) - _F32(1))
        return np.where((x > _F32(0)) | np.isnan(x), x, neg).astype(_F32)   # (a NaN as it came: observed)


def gelu_tanh(a: np.ndarray) -> np.ndarray:
    """The injector's gelu_tanh: g = ((x·x)·c + 1 fused)·x·sqrt(2/pi), 0.5·(tanh(g) + 1)·x."""
    x = _daz(a)
    with np.errstate(invalid="ignore", over="ignore"):
        g = _ftz(x * x)
        g = _ftz(_fma32(g, np.full(g.shape, _GELU_TANH_FITTING, _F32), np.ones(g.shape, _F32)))
        g = _ftz(_ftz(g * x) * _GELU_TANH_SQRT_TWO_OVER_PI)
        t = tanh(g)
        return _ftz(_ftz(_ftz(t + _F32(1)) * _F32(0.5)) * x)
