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
    (("avx512_vnni",), "float32", True),                        # float32: always oneDNN (where it is on)
    (("avx512_vnni",), "float64", False),                       # never
    (("avx512f", "avx512_vnni"), "bfloat16", True), (("avx_ne_convert", "amx_tile"), "bfloat16", True),
    (("avx2", "avx_vnni"), "bfloat16", False),
    (("avx512bw", "avx512_fp16", "avx512_vnni"), "float16", True),
    (("avx512bw", "amx_fp16", "amx_tile"), "float16", True),
    (("avx_ne_convert", "avx_vnni"), "float16", True),
    (("avx512f", "avx512bw", "avx512_bf16"), "float16", False),  # this session's AMD EPYC: Eigen's float16 kernels
    (("avx512_fp16", "avx512_vnni"), "float16", False),         # AVX512-FP16 without AVX512BW
    ((), "float32", False), (("avx2", "fma", "f16c"), "float32", False),   # no NN features: oneDNN off (port.cc)
    (("avx512f", "avx512bw", "avx512_fp16"), "float16", False),
])
def test_onednn_dtypes_follow_tfs_cpu_feature_rule(flags: tuple, dtype: str, want: bool,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TF_ENABLE_ONEDNN_OPTS", raising=False)
    got = _cpu(*flags).onednn_supports(dtype)
    assert got == want, f"onednn_supports({dtype!r}) with flags {flags} is {got}, but should be {want} " \
        "[TF 2.21 IsDataTypeSupportedByOneDNNOnThisCPU, where DefaultOneDnnPolicy turns oneDNN on]"


@pytest.mark.parametrize("env, want", [("1", True), ("true", True), ("0", False), ("false", False), ("", False)])
def test_tf_enable_onednn_opts_overrides_the_cpu_policy(env: str, want: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses
    monkeypatch.setenv("TF_ENABLE_ONEDNN_OPTS", env)   # (as detection reads it: host_cpu._onednn_opts)
    got = dataclasses.replace(_cpu("avx2"), onednn_opts=host_cpu._onednn_opts(env)).onednn_enabled
    assert got == want, f"onednn_enabled with TF_ENABLE_ONEDNN_OPTS={env!r} on an AVX2 CPU is {got}, but should be " \
        f"{want} [TF 2.21 IsMklEnabled]"


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
    with host_cpu.using(_cpu("avx512bw", "avx512_vnni", vendor="AuthenticAMD")):
        eigen = tf.nn.softmax(tf.constant(row)).numpy()
        amd = tf.math.reciprocal(tf.constant(x)).numpy()
    assert onednn[1] == 0 and np.isnan(eigen).all(), f"softmax([nan, 1]) float16: oneDNN {onednn}, Eigen {eigen}; " \
        "should be [nan, 0] and [nan, nan]"
    # observed: TF's float32 packet 1/3 is 0.3333333 on the Intel reference host and 0.33333334 on this
    # session's Zen 5 (fuzz4 seed 23 #111); their vrcpps(3.0) are 0x3eaaa000 (rcp.py's table) and
    # 0x3eaaa800 (_mm256_rcp_ps on the Zen 5)
    assert (intel[0], amd[0]) == (np.float32(0.3333333), np.float32(0.33333334)), \
        f"reciprocal(3) packets: Intel {intel[0]!r}, AMD {amd[0]!r}; should be 0.3333333 and 0.33333334"


@pytest.mark.parametrize("flags, opts, want", [
    (("avx2", "fma"), None, False),                                # this session's AMD EPYC (AVX2 only)
    (("avx512bw", "avx512f", "avx512_fp16"), None, False),         # AVX-512 without a neural-network feature
    (("avx512f", "avx512_vnni"), None, True),                      # Cascade Lake and newer, Zen 4/5
    (("avx2", "avx_vnni"), None, True),                            # Alder Lake
    (("avx2", "amx_tile"), None, True),
    (("avx2", "fma"), True, True),                                 # TF_ENABLE_ONEDNN_OPTS=1
    (("avx512f", "avx512_vnni"), False, False),                    # TF_ENABLE_ONEDNN_OPTS=0
])
def test_onednn_is_on_by_tfs_default_policy(flags, opts, want) -> None:
    """TF 2.21's IsMKLEnabled on Linux x86 (util.cc): oneDNN only with AVX512_VNNI, AVX512_BF16, AVX_VNNI
    or AMX, unless TF_ENABLE_ONEDNN_OPTS says otherwise; without it float32 Softmax is Eigen's."""
    import dataclasses
    m = dataclasses.replace(_cpu(*flags), onednn_opts=opts)
    assert m.onednn_enabled is want, f"onednn_enabled={m.onednn_enabled} for {flags}, TF_ENABLE_ONEDNN_OPTS={opts}, " \
        f"but should be {want} [host_cpu.CPUModel.onednn_enabled]"
    assert m.onednn("float32", ("float32",)) is want, f"onednn(float32)={m.onednn('float32', ('float32',))}, " \
        f"but should be {want}"
    with host_cpu.using(m):
        got = tf.nn.softmax(tf.constant(np.array([[np.nan, 1.0, 2.0]], np.float32))).numpy()
    nan_row = bool(np.isnan(got).all())
    assert nan_row is not want, f"float32 softmax([nan, 1, 2]) = {got} on {flags}: oneDNN's kernel keeps the finite " \
        "entries' zeros, Eigen's makes the row NaN"


def test_onednn_opts_read_as_tf_reads_it() -> None:
    got = [host_cpu._onednn_opts(v) for v in (None, "1", "true", "TRUE", "0", "false", "maybe")]
    assert got == [None, True, True, True, False, False, None], f"_onednn_opts={got}, but should be " \
        "[None, True, True, True, False, False, None] (ReadBoolFromEnvVar: an unreadable value keeps the default)"
