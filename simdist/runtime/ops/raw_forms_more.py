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
from simdist.runtime.ops.raw_compositions import _invalid   # (the raw forms' shared texts)

__all__ = ["declare", "FIXED", "sparse_of_rows"]

# (the raw ops session 19 listed as bound wrongly or not at all, bound here)
FIXED = ("Angle", "Complex", "ComplexAbs", "Eig", "ExtractGlimpseV2", "FFT", "FFT2D", "FFT3D", "IFFT", "IFFT2D",
         "IFFT3D", "IRFFT", "IRFFT2D", "IRFFT3D", "Imag", "MatrixLogarithm", "Multinomial", "RFFT", "RFFT2D",
         "RFFT3D", "RandomStandardNormal", "RandomUniform", "Real", "ReduceJoin", "SerializeTensor",
         "StatelessMultinomial", "StatelessRandomNormalV2", "StatelessRandomUniformV2",
         "StatelessTruncatedNormalV2", "StaticRegexFullMatch", "StaticRegexReplace", "StridedSliceGrad",
         "StringJoin", "StringSplitV2", "StringToNumber", "TruncatedNormal", "UnicodeDecode",
         "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnsortedSegmentJoin")

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
        return fft.real_kernel(op, input, fft._length_values(fft_length), fft_length)
    return run


def _eig(input: Any, Tout: dtypes.DType, compute_v: bool) -> Any:  # noqa: A002, N803 - TF's names
    """Eig: LinearAlgebraOp's input checks (rank >= 2, square) before the kernel's output dtype, then the
    decomposition. With compute_v False TF's v is an uninitialised scalar (not modelled: UnimplementedError), but
    the decomposition's refusal of a non-finite input comes first (fz31a, sig seed 3120261202 #124)."""
    from simdist.runtime.ops import eig
    eig._square(input, "Eig")
    want = eig._OUT[input.dtype.name]
    if Tout != want:
        raise errors.InvalidArgumentError(None, None, f"Invalid output dtype {Tout.as_datatype_enum} vs "
                                          f"{want.as_datatype_enum} [Op:Eig]")
    if not compute_v:
        eig.eigvals(input)
        raise errors.UnimplementedError(None, None, "simdist computes Eig with compute_v in [True] only, not False "
                                        "[Op:Eig]")
    return eig.eig(input)


def _logm(input: Any) -> Any:  # noqa: A002 - TF's name
    from simdist.runtime.ops import logm
    return logm.logm(input)


def _unicode_decode(op: str) -> Any:
    """UnicodeDecode(WithOffsets): the op on the flat strings; the row splits of type Tsplits."""
    def run(input: Any, input_encoding: str, errors: str, replacement_char: int,  # noqa: A002 - TF's names
            replace_control_characters: bool, Tsplits: dtypes.DType) -> Any:  # noqa: N803
        from simdist.runtime.ops import dispatch, math, string_ragged, unicode_codec
        err, rc, _ = unicode_codec.check_attrs(op, errors, replacement_char)
        unicode_codec.codec_name(input_encoding, op)
        attrs = {"input_encoding": input_encoding, "errors": err, "replacement_char": rc,
                 "replace_control_characters": replace_control_characters}
        outs = list(dispatch.execute(string_ragged.DECODE if op == "UnicodeDecode" else string_ragged.DECODE_OFFSETS,
                                     (input,), attrs))
        if Tsplits != outs[0].dtype:
            outs[0] = math.cast(outs[0], Tsplits)
        return tuple(outs)
    return run


def _unicode_encode(input_values: Any, input_splits: Any, output_encoding: str, errors: str,
                    replacement_char: int) -> Any:
    """UnicodeEncode: each row of the ragged code points (values, row splits) as one string, after
    the kernel's attr checks and its checks of the splits, in unicode_ops.cc's order (observed on TF
    2.21: both of rank 1, some splits, the first 0, the last the values' length, then ascending; fuzz20
    tape seed 2920261202 #0)."""
    from simdist.runtime.ops import dispatch, unicode_codec, unicode_ops
    from simdist.runtime.ragged_tensor import RaggedTensor
    unicode_codec.check_attrs("UnicodeEncode", errors, replacement_char, output_encoding)
    if input_values.ndim != 1 or input_splits.ndim != 1:
        raise _invalid("UnicodeEncode", "Both the input_tensor and input_splits should be of rank 1. ")
    sp = [int(v) for v in dispatch.static_value(input_splits).tolist()]
    n = int(input_values.shape[0])
    if not sp:
        raise _invalid("UnicodeEncode", f"Input_splits should contain elements, but given input_values has {len(sp)} "
                                        "elements")
    if sp[0] != 0:
        raise _invalid("UnicodeEncode", "First value in input_splits must be zero.")
    if sp[-1] != n:
        raise _invalid("UnicodeEncode", "Last value in input_splits must be equal to length of input_tensor.")
    if any(b < a for a, b in zip(sp, sp[1:])):
        raise _invalid("UnicodeEncode", "Values in input_splits must be equal or in ascending order.")
    rt = RaggedTensor.from_row_splits(input_values, input_splits, validate=False)
    return unicode_ops.unicode_encode(rt, output_encoding, errors, replacement_char)


def _string_join(inputs: list, separator: str) -> Any:
    from simdist.runtime.ops import string_join
    return string_join.join(inputs, separator)


def _extract_glimpse(input: Any, size: Any, offsets: Any, centered: bool, normalized: bool,  # noqa: A002
                     uniform_noise: bool, noise: str) -> Any:
    """ExtractGlimpseV2: `uniform_noise` (the raw op's default True; tf.image.extract_glimpse passes
    False) is uniform noise, and refuses a `noise` other than "" or "uniform" (attention_ops.cc)."""
    from simdist.runtime.ops import dispatch, image_glimpse
    if uniform_noise and noise not in ("", "uniform"):
        raise errors.InvalidArgumentError(None, None, "The uniform_noise and noise could not be specified at the same "
                                          "time [Op:ExtractGlimpseV2]")
    image_glimpse._static_checks(input, size, offsets)
    return dispatch.execute(image_glimpse.EXTRACT_GLIMPSE, (input, size, offsets),
                            {"centered": centered, "normalized": normalized,
                             "noise": "uniform" if uniform_noise else noise})


def _stateful(op: str) -> Any:
    """RandomStandardNormal, RandomUniform, TruncatedNormal: the op's standard draw from the kernel
    cached for (op, seed, seed2, dtype, the shape's type T), whose stream a tf.random.* call of the same seeds shares
    (seed = seed2 = 0: TF seeds the kernel at random; simdist's stream of (0, 0))."""
    def run(shape: Any, dtype: dtypes.DType, seed: int, seed2: int) -> Any:
        from simdist.runtime.ops import dispatch, random, random_graphs
        from simdist.runtime.ops.args import dims, shape_arg
        if shape.ndim != 1:   # (MakeShape: the shape input is a vector)
            raise errors.InvalidArgumentError(None, None, "shape must be a vector of {int32,int64}, got shape "
                                              f"{dims(shape.shape.as_list())} [Op:{op}]")
        shp = random._check_shape(shape_arg(shape), op)
        attrs = {"shape": shp, "dtype": dtype, "seed": seed, "seed2": seed2, "kernel": random_graphs.instance(),
                 **random.shape_type(shape)}   # (an int64 shape is another kernel: attr T)
        if op == "RandomUniform":
            attrs.update(minval=None, maxval=None)
        else:
            attrs.update(mean=0.0, stddev=1.0)
        return dispatch.execute({"RandomStandardNormal": random.NORMAL, "RandomUniform": random.UNIFORM,
                                 "TruncatedNormal": random.TRUNCATED}[op], (), attrs)
    return run


def _samples(num_samples: Any, op: str) -> int:
    """The num_samples input: a scalar (MultinomialOp's "num_samples should be a scalar")."""
    from simdist.runtime.ops import dispatch
    if num_samples.ndim != 0:
        from simdist.runtime.ops.args import dims
        raise errors.InvalidArgumentError(None, None, f"num_samples should be a scalar, got shape "
                                          f"{dims(num_samples.shape.as_list())} [Op:{op}]")
    return int(dispatch.static_value(num_samples))


def _multinomial(logits: Any, num_samples: Any, seed: int, seed2: int, output_dtype: dtypes.DType) -> Any:
    """Multinomial: tf.random.categorical's op, its kernel cached per (seed, seed2, dtypes)."""
    from simdist.runtime.ops import dispatch, random, random_graphs
    n = _samples(num_samples, "Multinomial")
    random._check_logits(logits, "Multinomial", n)
    return dispatch.execute(random.MULTINOMIAL, (logits,), {"num_samples": n, "dtype": output_dtype, "seed": seed,
                                                            "seed2": seed2, "kernel": random_graphs.instance()})


def _stateless_multinomial(logits: Any, num_samples: Any, seed: Any, output_dtype: dtypes.DType) -> Any:
    """StatelessMultinomial: tf.random.stateless_categorical's op on the seed pair."""
    from simdist.runtime.ops import dispatch, random
    n = _samples(num_samples, "StatelessMultinomial")
    random._check_logits(logits, "StatelessMultinomial", n)
    s = random._seed(seed, "StatelessMultinomial")
    return dispatch.execute(random.STATELESS_CATEGORICAL, (logits, s), {"num_samples": n, "dtype": output_dtype})


def _string_split_v2(input: Any, sep: Any, maxsplit: int) -> Any:  # noqa: A002 - TF's name
    """StringSplitV2: the pieces of each string of a vector as a sparse [rows, longest] matrix
    (indices, values, dense shape), from the op's (pieces, row splits)."""
    from simdist.runtime.ops import dispatch, string_ragged
    if input.ndim != 1:
        from simdist.runtime.ops.args import dims
        raise errors.InvalidArgumentError(None, None, f"input must be a vector, got shape: "
                                          f"{dims(input.shape.as_list())} [Op:StringSplitV2]")
    if sep.ndim != 0:
        from simdist.runtime.ops.args import dims
        raise errors.InvalidArgumentError(None, None, f"sep must be a scalar, got shape: {dims(sep.shape.as_list())} "
                                          "[Op:StringSplitV2]")
    from simdist.runtime.ops.string_args import as_bytes
    values, splits = dispatch.execute(string_ragged.SPLIT, (input,),
                                      {"sep": as_bytes(dispatch.static_value(sep).item()), "maxsplit": maxsplit})
    return sparse_of_rows(values, splits)


def sparse_of_rows(values: Any, splits: Any) -> tuple[Any, Any, Any]:
    """The pieces of each row (values, row splits) as a sparse [rows, longest] matrix (indices,
    values, dense shape), as StringSplit and StringSplitV2 return them."""
    import numpy as np
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.array import constant
    bounds = np.asarray(dispatch.static_value(splits), np.int64)
    lengths = np.diff(bounds)
    rows = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    cols = np.arange(int(bounds[-1]), dtype=np.int64) - np.repeat(bounds[:-1], lengths)
    indices = np.stack([rows, cols], axis=1).reshape(-1, 2)
    shape = np.array([len(lengths), int(lengths.max(initial=0))], np.int64)
    return constant(indices), values, constant(shape)


def _string_forms() -> dict[str, Any]:
    """The string ops whose string attrs TF's wrapper gives as bytes (execute.make_str) and
    simdist's public functions read: the raw form is the public function."""
    from simdist.runtime.ops import string_join, string_regex, string_to_number, tensor_codec
    return {
        # (the op's `enum` attr, the serialized dtype, is the input's: tf.io.serialize_tensor sets it)
        "SerializeTensor": lambda tensor: tensor_codec.serialize_tensor(tensor),
        "StaticRegexFullMatch": lambda input, pattern: string_regex.regex_full_match(input, pattern),  # noqa: A006
        "StaticRegexReplace": lambda input, pattern, rewrite, replace_global:  # noqa: A006
        string_regex.regex_replace(input, pattern, rewrite, replace_global),
        "ReduceJoin": lambda inputs, reduction_indices, keep_dims, separator:
        string_join.reduce_join(inputs, reduction_indices, keep_dims, separator),
        "StringToNumber": lambda string_tensor, out_type: string_to_number.to_number(string_tensor, out_type),
        "UnsortedSegmentJoin": lambda inputs, segment_ids, num_segments, separator:
        string_join.unsorted_segment_join(inputs, segment_ids, num_segments, separator),
        "StringSplitV2": _string_split_v2,
    }


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
    # (registered ops since grad_edges, sqrt_grads.py; the raw call keeps the composition's shape check and
    # its gradients in y's shape)
    for op in ("SqrtGrad", "RsqrtGrad", "ReciprocalGrad"):   # (ReciprocalGrad since gsweep67)
        registry.set_raw_args(op, raw_compositions.forms()[op])
    # (SigmoidGrad and TanhGrad: the kernel, differentiated with the op's inputs as given; fz31a)
    from simdist.runtime.ops import activations, dispatch
    for op, kernel in (("SigmoidGrad", activations.SIGMOID_GRAD), ("TanhGrad", activations.TANH_GRAD)):
        registry.set_raw_args(op, RawArgs(via=raw_compositions.cwise_grad(
            op, lambda a, b, k=kernel: dispatch.execute(k, (a, b)))))
    for op in ("UnicodeDecode", "UnicodeDecodeWithOffsets"):
        registry.set_raw_args(op, RawArgs(via=_unicode_decode(op)))
    registry.set_raw_args("UnicodeEncode", RawArgs(via=_unicode_encode))
    registry.set_raw_args("StringJoin", RawArgs(via=_string_join))
    registry.set_raw_args("ExtractGlimpseV2", RawArgs(via=_extract_glimpse))
    for op in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal"):
        registry.set_raw_args(op, RawArgs(via=_stateful(op)))
    for op, fn in _string_forms().items():
        registry.set_raw_args(op, RawArgs(via=fn))
    from simdist.runtime.ops import raw_stateless
    registry.set_raw_args("StatelessRandomUniformV2", RawArgs(via=raw_stateless.uniform))
    registry.set_raw_args("StatelessRandomNormalV2", RawArgs(via=raw_stateless.normal))
    registry.set_raw_args("StatelessTruncatedNormalV2", RawArgs(via=raw_stateless.truncated_normal))
    registry.set_raw_args("Multinomial", RawArgs(via=_multinomial))
    registry.set_raw_args("StatelessMultinomial", RawArgs(via=_stateless_multinomial))
