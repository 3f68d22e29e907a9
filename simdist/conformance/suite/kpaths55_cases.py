"""The op-path sweep's AVX-512 counterpart (fifty-fifth session, host55): the kpaths54 programs whose TF 2.21 bits
differ between an AVX2 CPU without oneDNN and an AVX-512 CPU with oneDNN on, recorded on the latter.

kpaths54's answers were recorded on an AMD EPYC (AVX2, oneDNN off); on the simdist backend they run under that host's
model (recorded_programs.emulating), so the default run checks TF's own (Eigen) kernels and AMD's vrcpps/vrsqrtps
tables. The tests' reference model is an AVX-512 Intel CPU with oneDNN on, whose paths are others: oneDNN's
FusedBatchNormV3, pooling, MatMul, Conv2D and Softmax kernels (float32; bfloat16 and float16 where the CPU takes them)
and Intel's estimate tables under Eigen's float32 reciprocal, rsqrt and log packets. Of kpaths54's 259 programs, 21
answer otherwise on TF 2.21 on an Intel Xeon with AVX-512, AVX512-FP16 and AMX (2026-12-06, the same portable
inputs): they are this module's programs, run as kpaths54 defines them, recorded on that Xeon
(`python -m simdist.conformance.suite.test_kpaths55 --record` on such a host writes kpaths55_reference.json.gz).
They are host-dependent with `recording_host=avx512_with_onednn`: on the simdist backend they run under its
reference model, the default run's, and on any other CPU kind TF skips them.

OPEN lists, per program, the cases simdist's reference model does not reproduce on that Xeon (docs/conformance.md,
"Fifty-fifth session"): each an open finding with its reproducer, left out of the comparison (kpaths54's own OPEN is
not applied here: its cases are the AVX2 host's)."""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

from simdist.conformance.suite import kpaths54_cases as k54
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "kpaths55_reference.json.gz")

#: kpaths54's programs whose TF 2.21 answers differ between the two hosts (the AVX-512 paths they cross: oneDNN's
#: batch norm, Conv2D, MatMul, pooling and softmax; Intel's vrcpps/vrsqrtps under reciprocal, rsqrt, log, log1p,
#: gelu, the second-order reciprocal gradient, Adagrad/Adadelta/ProximalAdagrad's rsqrt and the cross-entropy's log)
PROGRAMS = ("k-batchnorm-bfloat16", "k-batchnorm-float16", "k-batchnorm-float32", "k-conv2d-float16",
            "k-conv2d-float32", "k-grad2-float32", "k-matmul-bfloat16", "k-matmul-float32", "k-pool-float32",
            "k-softmax-bfloat16", "k-softmax-float16", "k-softmax-float32", "k-train-Adadelta-float32",
            "k-train-Adagrad-float32", "k-train-ProximalAdagrad-float32", "k-unary-gelu-float32",
            "k-unary-log-float32", "k-unary-log1p-float32", "k-unary-reciprocal-float32", "k-unary-rsqrt-float32",
            "k-xent-float32")

#: simdist's disagreements on the AVX-512 host (program -> "case" or "case/field" left out): oneDNN's jit batch-norm
#: scale gradient and float16 batch norm, oneDNN's float32 Conv2DBackpropInput (the `grads` of four Conv2D cases),
#: ReciprocalGrad's gradient (kpaths54's too)
OPEN: dict[str, tuple[str, ...]] = {
    'k-batchnorm-float16': (
        '(1, 3, 11, 17)True/grads',
        '(2, 3, 3, 1)False/grads',
        '(2, 3, 3, 8)True/grads',
        '(3, 2, 3, 9)True/grads',
    ),
    'k-batchnorm-float32': (
        '(2, 3, 3, 8)False/grads',
        '(2, 3, 3, 8)True/grads',
    ),
    'k-conv2d-float32': (
        '(1, 5, 5, 1)(3, 3, 1, 1)1SAME1/grads',
        '(1, 9, 9, 5)(5, 5, 5, 3)3VALID1/grads',
        '(2, 6, 7, 3)(3, 2, 3, 8)1VALID1/grads',
        '(2, 8, 8, 2)(3, 3, 2, 17)1SAME2/grads',
    ),
    'k-grad2-float32': (
        'reciprocal17/g2',
        'reciprocal7/g2',
        'reciprocal9/g2',
    ),
}

REF = RecordedPrograms(PATH, host_dependent=("k-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)


@contextlib.contextmanager
def _open_cases() -> Iterator[None]:
    """kpaths54's programs leave out the cases of its module-level OPEN when they run: within this block, ours."""
    saved = dict(k54.OPEN)
    k54.OPEN.clear()
    k54.OPEN.update(OPEN)
    try:
        yield
    finally:
        k54.OPEN.clear()
        k54.OPEN.update(saved)


def _program(name: str) -> Any:
    program = k54.REF.programs[name]

    def run(tf: Any, mk: Any) -> Any:
        with _open_cases():
            return program(tf, mk)
    return run


for _name in PROGRAMS:
    REF.add(_name, _program(_name))
