"""The host CPU model (clause ops.host-cpu): reading /proc/cpuinfo, TF 2.21's rule for which
dtypes run through oneDNN (tensorflow/core/util/util.cc `IsDataTypeSupportedByOneDNNOnThisCPU`),
choosing a model, and what the choice changes."""

from __future__ import annotations

import numpy as np
import pytest

from simdist import tf
from simdist.runtime import host_cpu

pytestmark = pytest.mark.clause("ops.host-cpu")

_AMD_ZEN5 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 26
model\t\t: 2
flags\t\t: fpu sse2 avx f16c avx2 avx512f avx512dq avx512bw avx512vl avx512_bf16 avx512_vp2intersect
processor\t: 1
vendor_id\t: AuthenticAMD
flags\t\t: fpu
"""


def _cpu(*flags: str, vendor: str = "GenuineIntel") -> host_cpu.CPUModel:
    return host_cpu.CPUModel("t", vendor, tuple(sorted(flags)))


def test_cpuinfo_gives_the_first_processors_vendor_and_flags() -> None:
    m = host_cpu.parse_cpuinfo(_AMD_ZEN5)
    assert m.vendor == "AuthenticAMD", f"vendor={m.vendor!r}, but should be 'AuthenticAMD' [parse_cpuinfo]"
    assert m.has("avx512_vp2intersect") and not m.has("avx512_fp16"), f"flags={m.flags} [parse_cpuinfo]"
    assert m.estimates == "amd", f"estimates={m.estimates!r}, but should be 'amd' [an AMD CPU's vrcpps tables]"


@pytest.mark.parametrize("flags, dtype, want", [
    ((), "float32", True),                                      # float32: always oneDNN
    ((), "float64", False),                                     # never
    (("avx512f",), "bfloat16", True), (("avx_ne_convert",), "bfloat16", True), (("avx2",), "bfloat16", False),
    (("avx512bw", "avx512_fp16"), "float16", True), (("avx512bw", "amx_fp16"), "float16", True),
    (("avx_ne_convert",), "float16", True),
    (("avx512f", "avx512bw", "avx512_bf16"), "float16", False),  # this session's AMD EPYC: Eigen's float16 kernels
    (("avx512_fp16",), "float16", False),                       # AVX512-FP16 without AVX512BW
])
def test_onednn_dtypes_follow_tfs_cpu_feature_rule(flags: tuple, dtype: str, want: bool) -> None:
    got = _cpu(*flags).onednn_supports(dtype)
    assert got == want, f"onednn_supports({dtype!r}) with flags {flags} is {got}, but should be {want} " \
        "[TF 2.21 IsDataTypeSupportedByOneDNNOnThisCPU]"


@pytest.mark.parametrize("flags, env, want", [
    (("avx2", "fma"), None, False),                                 # an AVX2-only AMD EPYC (Zen 3): Eigen's kernels
    (("avx512f", "avx512bw", "avx512_fp16"), None, False),           # no neural-network feature
    (("avx512_vnni",), None, True), (("avx512_bf16",), None, True), (("avx_vnni",), None, True),
    (("amx_tile",), None, True), (("amx_int8",), None, True), (("amx_bf16",), None, True),
    (("avx2",), True, True), (("avx512_vnni",), False, False),      # TF_ENABLE_ONEDNN_OPTS decides where set
])
def test_onednn_is_on_by_tfs_default_policy(flags: tuple, env: object, want: bool) -> None:
    cpu = host_cpu.CPUModel("t", "GenuineIntel", tuple(sorted(flags)), env)
    assert cpu.onednn_enabled == want, f"onednn_enabled with flags {flags}, TF_ENABLE_ONEDNN_OPTS {env} is " \
        f"{cpu.onednn_enabled}, but should be {want} [TF 2.21 IsMklEnabled, DefaultOneDnnPolicy]"
    assert cpu.onednn("float32", ("float32",)) == want, f"float32 through oneDNN with flags {flags}: " \
        f"{cpu.onednn('float32', ('float32',))}, but should be {want} [IsMklEnabled first]"


def test_tf_enable_onednn_opts_is_read_as_tf_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, want in (("1", True), ("TRUE", True), ("0", False), ("false", False), ("yes", None)):
        monkeypatch.setenv("TF_ENABLE_ONEDNN_OPTS", value)
        got = host_cpu._onednn_env()
        assert got is want, f"TF_ENABLE_ONEDNN_OPTS={value!r} read as {got}, but should be {want} [ReadBoolFromEnvVar]"


def test_the_reference_model_is_the_goldens_host() -> None:
    ref = host_cpu.REFERENCE
    assert ref.onednn_enabled and ref.onednn_supports("float16") and ref.estimates == "intel", \
        f"reference: float16 oneDNN {ref.onednn_supports('float16')}, estimates {ref.estimates!r}; the goldens were " \
        "recorded on an Intel host whose float16 ran through oneDNN"


def test_an_unknown_model_name_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="'intel' is not one of host, reference"):
        host_cpu.use("intel")


def test_using_restores_the_previous_model() -> None:
    before = host_cpu.current()
    with host_cpu.using(_cpu(vendor="AuthenticAMD")) as m:
        assert host_cpu.current() is m
    assert host_cpu.current() == before, f"after the block the model is {host_cpu.current()}, not {before}"


def test_the_model_decides_float16_softmax_and_the_reciprocal_tables() -> None:
    """The same program, two CPUs: float16 Softmax of a row with NaN (oneDNN: NaN only there;
    Eigen: NaN across the row) and a float32 reciprocal packet (Intel's and AMD's vrcpps)."""
    row = np.array([np.nan, 1.0], np.float16)
    x = np.full(8, 3.0, np.float32)
    with host_cpu.using(_cpu("avx512bw", "avx512_fp16", "avx512_vnni")):
        onednn = tf.nn.softmax(tf.constant(row)).numpy()
        intel = tf.math.reciprocal(tf.constant(x)).numpy()
    with host_cpu.using(_cpu("avx512bw", vendor="AuthenticAMD")):
        eigen = tf.nn.softmax(tf.constant(row)).numpy()
        amd = tf.math.reciprocal(tf.constant(x)).numpy()
    assert onednn[1] == 0 and np.isnan(eigen).all(), f"softmax([nan, 1]) float16: oneDNN {onednn}, Eigen {eigen}; " \
        "should be [nan, 0] and [nan, nan]"
    # observed: TF's float32 packet 1/3 is 0.3333333 on the Intel reference host and 0.33333334 on this
    # session's Zen 5 (fuzz4 seed 23 #111); their vrcpps(3.0) are 0x3eaaa000 (rcp.py's table) and
    # 0x3eaaa800 (_mm256_rcp_ps on the Zen 5)
    assert (intel[0], amd[0]) == (np.float32(0.3333333), np.float32(0.33333334)), \
        f"reciprocal(3) packets: Intel {intel[0]!r}, AMD {amd[0]!r}; should be 0.3333333 and 0.33333334"
