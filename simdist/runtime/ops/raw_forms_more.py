"""Raw forms of registered ops whose forward takes the raw op's arguments otherwise (clause ops.raw-ops):
the ones session 19 left unbound (a TF call disagreed with the default binding, or a type attr
such as `Tout` the forward does not take), each bound here to the public function or op that
computes it, with the raw op's own checks (session 20).

A type attr the caller gives (Real's `Tout`, RFFT's `Tcomplex`) is checked against the one the
input implies, as TF's kernel registry or kernel does: no kernel for the pair (NotFoundError
"Could not find device for node"), or the kernel's own InvalidArgumentError. Kept apart from
raw_forms.py (another session's fuzzer edits that one); runtime/ops/raw_ops.py calls `declare()`
after raw_forms.declare(), so a declaration here replaces a reason given there.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "FIXED"]

# (the raw ops session 19 listed as bound wrongly or not at all, bound here)
FIXED = ("Angle", "Complex", "ComplexAbs", "Eig", "FFT", "FFT2D", "FFT3D", "IFFT", "IFFT2D", "IFFT3D", "IRFFT",
         "IRFFT2D", "IRFFT3D", "Imag", "MatrixLogarithm", "RFFT", "RFFT2D", "RFFT3D", "Real", "StridedSliceGrad")

_PART = {"complex64": dtypes.float32, "complex128": dtypes.float64}
_WHOLE = {"float32": dtypes.complex64, "float64": dtypes.complex128}


def _enum(dt: dtypes.DType) -> str:
    return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE"}.get(dt.name, dt.name.upper())


def _no_kernel(op: str, attrs: dict[str, dtypes.DType]) -> errors.NotFoundError:
    """TF's eager error for a type-attr combination no kernel is registered for."""
    text = ", ".join(f"{k}={_enum(v)}" for k, v in attrs.items())
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[{text}] "
                                f"[Op:{op}]")


def _part(op: str) -> Any:
    """Real, Imag, Angle: a kernel per (T, Tout) with Tout T's part type."""
    def run(input: Any, Tout: dtypes.DType) -> Any:  # noqa: A002, N803 - TF's names
        from simdist.runtime.ops import complex_math, dispatch
        if _PART.get(input.dtype.name) != Tout:
            raise _no_kernel(op, {"T": input.dtype, "Tout": Tout})
        return dispatch.execute({"Real": complex_math.REAL, "Imag": complex_math.IMAG,
                                 "Angle": complex_math.ANGLE}[op], (input,))
    return run


def _complex_abs(x: Any, Tout: dtypes.DType) -> Any:  # noqa: N803 - TF's name
    from simdist.runtime.ops import complex_math
    want = _PART[x.dtype.name]
    if Tout != want:   # (one kernel per T: its output signature is checked)
        from simdist.runtime.ops import args as _args
        raise errors.InvalidArgumentError(None, None, f"Signature mismatch, have: {_args.tf_name(x.dtype)}->"
                                          f"{_args.tf_name(Tout)} expected: {_args.tf_name(x.dtype)}->"
                                          f"{_args.tf_name(want)} [Op:ComplexAbs]")
    return complex_math.complex_abs(x)


def _complex(real: Any, imag: Any, Tout: dtypes.DType) -> Any:  # noqa: N803 - TF's name
    from simdist.runtime.ops import complex_math
    if _WHOLE.get(real.dtype.name) != Tout:
        raise _no_kernel("Complex", {"T": real.dtype, "Tout": Tout})
    return complex_math.complex_(real, imag)


def _c2c(op: str) -> Any:
    def run(input: Any) -> Any:  # noqa: A002 - TF's name
        from simdist.runtime.ops import fft
        return getattr(fft, op.lower())(input)
    return run


def _real_fft(op: str) -> Any:
    """RFFT*: Tcomplex is the input's complex type; IRFFT*: Treal is the input's part type (the
    kernel's "Wrong types for forward/backward real FFT: in=1 out=18", DataType enums)."""
    forward = op.startswith("RFFT")

    def run(input: Any, fft_length: Any, **kw: Any) -> Any:  # noqa: A002 - TF's name
        from simdist.runtime.ops import fft
        (attr, given), = kw.items()
        want = _WHOLE.get(input.dtype.name) if forward else _PART.get(input.dtype.name)
        if given != want:
            ins, outs = input.dtype.as_datatype_enum, given.as_datatype_enum
            raise errors.InvalidArgumentError(None, None, f"Wrong types for {'forward' if forward else 'backward'} "
                                              f"real FFT: in={ins} out={outs} [Op:{op}]")
        return fft.real_kernel(op, input, fft._length_values(fft_length))
    return run


def _eig(input: Any, Tout: dtypes.DType, compute_v: bool) -> Any:  # noqa: A002, N803 - TF's names
    from simdist.runtime.ops import eig
    want = eig._OUT[input.dtype.name]
    if Tout != want:
        raise errors.InvalidArgumentError(None, None, f"Invalid output dtype {Tout.as_datatype_enum} vs "
                                          f"{want.as_datatype_enum} [Op:Eig]")
    if not compute_v:   # (TF's v is then an uninitialised scalar: not modelled)
        raise errors.UnimplementedError(None, None, "simdist computes Eig with compute_v in [True] only, not False "
                                        "[Op:Eig]")
    return eig.eig(input)


def _logm(input: Any) -> Any:  # noqa: A002 - TF's name
    from simdist.runtime.ops import logm
    return logm.logm(input)


def declare() -> None:
    """Set the raw forms of FIXED (idempotent)."""
    from simdist.runtime.ops import raw_compositions
    for op in ("Real", "Imag", "Angle"):
        registry.set_raw_args(op, RawArgs(via=_part(op)))
    registry.set_raw_args("ComplexAbs", RawArgs(via=_complex_abs))
    registry.set_raw_args("Complex", RawArgs(via=_complex))
    for op in ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D"):
        registry.set_raw_args(op, RawArgs(via=_c2c(op)))
    for op in ("RFFT", "IRFFT", "RFFT2D", "IRFFT2D", "RFFT3D", "IRFFT3D"):
        registry.set_raw_args(op, RawArgs(via=_real_fft(op)))
    registry.set_raw_args("Eig", RawArgs(via=_eig))
    registry.set_raw_args("MatrixLogarithm", RawArgs(via=_logm))
    registry.set_raw_args("StridedSliceGrad", RawArgs(via=raw_compositions.strided_slice_grad))
