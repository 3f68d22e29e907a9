"""The training-throughput validation rows (simdist/validation/training.py): derivations from the
layer shapes, the bounds on simdist's error, and the fitted efficiency factors."""

from __future__ import annotations

import statistics

import pytest

from simdist.sim import hardware
from simdist.validation import training, workloads


def test_resnet50_forward_is_4_1_gmacs_per_image_from_its_conv_shapes():
    macs = workloads.resnet50_forward_macs()
    assert abs(macs / 4.1e9 - 1) <= 0.02, f"ResNet-50 v1.5 forward: expected ~4.1 G multiply-adds, got {macs:.4g}"
    params = workloads.resnet50(1, mixed=False).params
    assert abs(params / 25.6e6 - 1) <= 0.02, f"ResNet-50 has ~25.6M parameters, the derivation has {params}"


def test_bert_large_shapes():
    s = workloads.bert_large(1, 128, mixed=False, masked=20)
    assert abs(s.params / 335e6 - 1) <= 0.02, f"BERT-large has ~335M parameters, the derivation has {s.params}"
    # the encoder's forward matmuls: 24 layers x (24 H^2 + 4 S H) FLOPs per token, H = 1024, S = 128
    encoder = 24 * (24 * 1024**2 + 4 * 128 * 1024) * 128
    assert encoder < s.forward_matmul_flops < encoder * 1.1, (encoder, s.forward_matmul_flops)


def test_gpt2_shapes():
    for size, params in (("124M", 124e6), ("350M", 355e6), ("1558M", 1558e6)):
        s = workloads.gpt2(size, 1, 1024)
        assert abs(s.params / params - 1) <= 0.02, f"GPT-2 {size}: the derivation has {s.params} parameters"
    # forward matmul FLOPs per token: 2 x (12 d^2 per layer + d V for the head) + causal attention 2 S d per layer
    L, d = 12, 768
    want = 2 * (12 * d * d * L + d * 50304) + 2 * 1024 * d * L
    got = workloads.gpt2("124M", 1, 1024).forward_matmul_flops / 1024
    assert abs(got / want - 1) < 0.01, (got, want)


def test_resnext101_shapes():
    """ResNeXt-101 32x4d: ~7.8 G multiply-adds per 224x224 image and 44.2M parameters (Xie et al. 2017,
    Table 5); its 3x3 convolutions are grouped (32 groups): "grouped" kernels, the rest "matmul";
    SE-ResNeXt adds ~4.8M parameters (the SE blocks' fully connected layers) and few FLOPs."""
    s = workloads.resnext101(1, mixed=False)
    macs = s.forward_matmul_flops / 2
    assert abs(macs / 7.8e9 - 1) <= 0.03, f"ResNeXt-101 32x4d forward: expected ~7.8 G multiply-adds, got {macs:.4g}"
    assert abs(s.params / 44.2e6 - 1) <= 0.02, f"ResNeXt-101 32x4d has ~44.2M parameters, the derivation has {s.params}"
    grouped = [k for k in s.kernels if k.kind == "grouped"]
    assert len(grouped) == 33 * 3, f"33 blocks' grouped 3x3 convolutions (forward, dX, dW): {len(grouped)}"
    se = workloads.resnext101(1, mixed=False, se=True)
    assert 4.5e6 < se.params - s.params < 5.0e6, f"SE blocks add {se.params - s.params} parameters"
    assert se.forward_matmul_flops < s.forward_matmul_flops * 1.01


def test_mixed_precision_halves_activation_bytes_and_runs_on_tensor_cores():
    f32, f16 = workloads.resnet50(8, mixed=False), workloads.resnet50(8, mixed=True)
    conv32 = [k for k in f32.kernels if k.kind == "matmul"]
    conv16 = [k for k in f16.kernels if k.kind == "matmul"]
    assert {k.dtype for k in conv32} == {"float32"} and {k.dtype for k in conv16} == {"float16"}
    assert sum(k.bytes for k in conv16) == sum(k.bytes for k in conv32) / 2


def test_rows_are_cited_and_split():
    rows = training.measurements()
    assert len(rows) >= 10 and len({m.id for m in rows}) == len(rows)
    assert {m.split for m in rows} == {"fit", "holdout"} and {m.kind for m in rows} == {"training"}
    for m in rows:
        c = m.citation
        assert c.url.startswith("https://github.com/") and "/blob/" in c.url and c.date and "row:" in c.where
        if not m.id.startswith("gpt2"):   # (GPT-2's figure is tokens per step / seconds per step, both quoted)
            assert str(m.published).rstrip("0").rstrip(".") in c.where.replace(",", ""), (m.id, m.published, c.where)
        assert "GFLOP" in m.derivation


@pytest.fixture(scope="module")
def errors() -> dict[str, tuple[str, float]]:
    return {m.id: (m.split, abs(m.error(m.simulate()))) for m in training.measurements()}


def _split(errors: dict[str, tuple[str, float]], split: str | None) -> list[float]:
    return [e for s, e in errors.values() if split is None or s == split]


@pytest.mark.parametrize("split", ["fit", "holdout", None])
def test_max_error_within_the_issue_bound(errors, split):
    v = _split(errors, split)
    assert max(v) <= 0.25, f"{split or 'all'}: max |error| {max(v):.1%} > 25%: {errors}"


def test_median_error_within_the_issue_bound(errors):
    for split in ("fit", "holdout", None):
        v = _split(errors, split)
        assert statistics.median(v) <= 0.10, f"{split or 'all'}: median |error| {statistics.median(v):.1%} > 10%"


def _constants() -> tuple[float, ...]:
    return (hardware.TENSOR_EFFICIENCY, hardware.CUDA_EFFICIENCY, hardware.MEMORY_EFFICIENCY,
            hardware.GROUPED_EFFICIENCY, *(training.STACK_TENSOR_EFFICIENCY[k] for k in sorted(training.STACK_TENSOR_EFFICIENCY)))


def test_hardware_efficiencies_are_a_minimum_of_the_fit_on_the_fit_rows():
    """The constants in use are where `fit` stops: moving any one by the search's last step (0.005)
    does not lower the loss on the fit rows (the whole search is the slow test below)."""
    rows = [e for e in training.EXPERIMENTS if e.split == "fit"]
    x = _constants()
    best = training._loss(rows, x)
    for i in range(len(x)):
        for d in (-0.005, 0.005):
            y = list(x)
            y[i] = round(y[i] + d, 4)
            v = training._loss(rows, tuple(y))
            assert v >= best - 1e-12, f"factor {i} of {x} moved by {d:+}: loss {v:.6g} < {best:.6g} at the constants"


@pytest.mark.slow   # (the coordinate search: a few minutes of CPU, the 32-node row is 256 simulated GPUs)
def test_hardware_efficiencies_are_the_fit_on_the_fit_rows():
    want = training.fit()
    got = _constants()
    assert got == pytest.approx(want, abs=1e-9), f"hardware and the stacks have {got}, the fit gives {want}"


def test_fit_does_not_leave_the_factors_changed():
    before = (hardware.TENSOR_EFFICIENCY, hardware.CUDA_EFFICIENCY, hardware.MEMORY_EFFICIENCY,
              hardware.GROUPED_EFFICIENCY, dict(training.STACK_TENSOR_EFFICIENCY))
    with training.efficiencies(0.1, 0.2, 0.3, 0.25):
        assert hardware.TENSOR_EFFICIENCY == 0.1 and hardware.GROUPED_EFFICIENCY == 0.25
    training._loss([training.EXPERIMENTS[-1]], (0.1, 0.2, 0.3, 0.25, 0.4))
    after = (hardware.TENSOR_EFFICIENCY, hardware.CUDA_EFFICIENCY, hardware.MEMORY_EFFICIENCY,
             hardware.GROUPED_EFFICIENCY, dict(training.STACK_TENSOR_EFFICIENCY))
    assert after == before, f"after a fit evaluation the factors are {after}, but should be {before}"


def test_each_stack_runs_at_its_own_tensor_efficiency():
    """The llm.c rows run with llm.c's tensor efficiency and TensorFlow's rows with hardware's:
    raising llm.c's speeds up a GPT-2 row (tensor-bound) and leaves a ResNet-50 row as it was."""
    gpt2 = next(e for e in training.EXPERIMENTS if e.stack == "llm.c")
    rn50 = next(e for e in training.EXPERIMENTS if e.model == "resnet50")
    base = (training.simulate(gpt2), training.simulate(rn50))
    k = training.STACK_TENSOR_EFFICIENCY["llm.c"]
    with training._stacks({"llm.c": min(1.0, k * 1.2)}):
        faster = (training.simulate(gpt2), training.simulate(rn50))
    assert faster[0] > base[0] * 1.1, f"GPT-2 (llm.c) at 1.2x its stack's tensor efficiency: {faster[0]} vs {base[0]}"
    assert faster[1] == base[1], f"ResNet-50 (tensorflow) changed with llm.c's efficiency: {faster[1]} vs {base[1]}"
    assert {e.stack for e in training.EXPERIMENTS} == {"tensorflow", "llm.c"}


def test_multi_node_rows_run_on_a_cluster_whose_network_carries_the_all_reduce():
    """The multi-node rows build `hosts` nodes joined by their NICs: with one NIC per node instead
    of eight, the 32-node row (one micro-batch per all-reduce, NCCL's all-reduce across the nodes)
    is more than 10% slower."""
    import dataclasses

    e = next(x for x in training.EXPERIMENTS if x.hosts == 32)
    assert e.gpus == 256 and e.accumulation == 1 and e.nics == 8, e
    full = training.simulate(e)
    thin = training.simulate(dataclasses.replace(e, nics=1))
    assert thin < full * 0.9, f"32 nodes: 1 NIC per node gives {thin:.0f} sequences/s, 8 NICs {full:.0f}"
    assert "32 nodes of 8 GPUs, 8x infiniband_hdr per node" in training._derivation(e)


def test_float32_convolutions_on_tf32_tensor_cores_carry_layout_transposes():
    """TF's layout optimizer keeps a float32 training graph NCHW (its backward convolutions are
    float32); on TF32 tensor cores each convolution kernel transposes its activation operand in
    and its result out. Mixed precision (NHWC) and V100 float32 (CUDA cores, NCHW native) have none."""
    rows = {e.id: e for e in training.EXPERIMENTS}
    got = {i: training.tensor_layout_nchw(rows[i]) for i in
           ("rn50-a100-1gpu-tf32", "rn50-a100-1gpu-amp", "rn50-v100-1gpu-fp32", "resnext101-a100-1gpu-tf32")}
    assert got == {"rn50-a100-1gpu-tf32": True, "rn50-a100-1gpu-amp": False, "rn50-v100-1gpu-fp32": False,
                   "resnext101-a100-1gpu-tf32": True}, got
    plain, nchw = workloads.resnet50(4, mixed=False), workloads.resnet50(4, mixed=False, nchw=True)
    extra = [k for k in nchw.kernels if k.flops == 0.0]
    convs = [k for k in plain.kernels if k.kind == "matmul"]
    # every convolution kernel (forward, dX, dW; the first layer has no dX) gets one transpose kernel;
    # the classifier (a GEMM, 3 kernels) gets none
    assert len(extra) == len(convs) - 3, f"{len(extra)} transpose kernels for {len(convs) - 3} convolution kernels"
    assert nchw.flops == plain.flops and nchw.bytes > plain.bytes * 1.3, (nchw.bytes, plain.bytes)


def test_bert_dropout_materializes_its_random_tensor_and_mask():
    """Each of BERT's dropouts (embeddings; per layer the attention probabilities and two hidden
    states) adds an RNG kernel writing and the forward kernel reading a float32 random tensor (8
    bytes per element) and a keep mask in the activation dtype written forward and read backward
    (workloads docstring: XLA's auto-clustering leaves stateful RNG ops out of its clusters)."""
    batch, seq, H, A, L = 2, 128, 1024, 16, 24
    T = batch * seq
    elems = T * H + L * (batch * A * seq * seq + 2 * T * H)
    for mixed, e in ((False, 4), (True, 2)):
        s = workloads.bert_large(batch, seq, mixed=mixed, masked=20)
        moved = [k for k in s.kernels if k.flops == 0.0]   # (every other kernel of BERT's has FLOPs)
        assert len(moved) == 2 * (1 + 3 * L), f"mixed={mixed}: {len(moved)} dropout kernels, but should be {2 * (1 + 3 * L)}"
        got = sum(k.bytes for k in moved)
        assert got == (8.0 + 2.0 * e) * elems, f"mixed={mixed}: dropout bytes {got}, but should be {(8.0 + 2.0 * e) * elems}"
        if mixed:   # the RNG kernels are float32, the masks float16: 8 bytes per element, then 2 x 2
            rng = sum(k.bytes for k in moved if k.dtype == "float32")
            assert rng == 8.0 * elems, f"RNG kernels move {rng} bytes, but should be {8.0 * elems}"


def test_bert_programs_handle_each_micro_batchs_gradients_as_their_sources_do():
    """Per micro-batch and parameter: mixed precision unscales the float16 gradients into float32
    (2 + 4 bytes, both programs); the TF1 program also takes the global norm (4) and clips (4 + 4)
    every micro-batch; the TF2 program clips once per optimizer step (workloads.BERT_PROGRAMS)."""
    for mixed in (False, True):
        tf2 = workloads.bert_large(4, 128, mixed=mixed, masked=20)
        tf1 = workloads.bert_large(4, 128, mixed=mixed, masked=20, program="tf1")
        p = float(tf2.params)
        # (mixed: TF1's elementwise chains also run in float32, test_tf1_amp_keeps_bert_chains_in_float32)
        probs = 4 * 16 * 128 * 128   # (the attention probabilities' kernels stay float16)
        chains = sum(k.bytes for k in tf2.kernels if k.kind == "elementwise" and k.dtype == "float16"
                     and k.flops != 5.0 * probs and not (k.flops == 0.0 and k.bytes == 4.0 * probs))
        assert tf1.bytes - tf2.bytes == 12.0 * p + chains, (
            f"mixed={mixed}: tf1 - tf2 = {tf1.bytes - tf2.bytes} bytes, but should be {12.0 * p + chains} "
            "(norm + clip, and the float16 chains' bytes again in float32)")
        assert tf1.kernels[-1] == tf2.kernels[-1], "both end with the accumulation"
    unscale = workloads.bert_large(4, 128, mixed=True, masked=20).bytes - workloads.bert_large(
        4, 128, mixed=False, masked=20).bytes
    assert unscale < 0, f"mixed precision still moves fewer bytes in all (got {unscale:+})"
    with pytest.raises(ValueError, match="program='tf3'"):
        workloads.bert_large(1, 128, mixed=False, masked=20, program="tf3")


def test_tf1_amp_keeps_bert_chains_in_float32():
    """TF1's AMP graph rewrite (grappler auto_mixed_precision, TF 1.15 of the 20.06 container) runs
    its allow list (MatMul, BatchMatMul) in float16 and keeps its deny list (Mean: layer norm; Pow:
    GELU) and the gray ops downstream of them in float32; gray ops between two allow-list ops (the
    attention probabilities' scale, mask, Softmax and dropout) are float16 (workloads docstring).
    So the TF1 mixed-precision step's matmuls are the TF2 one's, its attention-probability kernels
    (B x heads x seq^2 elements: the elementwise chain forward and backward, the dropout mask) are
    unchanged, every other float16 elementwise kernel moves twice its bytes in float32, and the
    float32 kernels (dropout's random tensors) are unchanged."""
    batch, seq, A, L = 4, 128, 16, 24
    probs = batch * A * seq * seq
    tf2 = workloads.bert_large(batch, seq, mixed=True, masked=20)
    tf1 = workloads.bert_large(batch, seq, mixed=True, masked=20, program="tf1")
    body2, body1 = tf2.kernels[1:-2], tf1.kernels[1:-4]   # (the weight cast first; then the gradient passes)
    assert len(body1) == len(body2), f"{len(body1)} forward/backward kernels in TF1, but {len(body2)} in TF2"
    doubled = attention = 0
    for i, (k1, k2) in enumerate(zip(body1, body2)):
        is_probs = k2.kind == "elementwise" and k2.dtype == "float16" and (
            k2.flops == 5.0 * probs or (k2.flops == 0.0 and k2.bytes == 4.0 * probs))
        if k2.kind == "matmul" or k2.dtype == "float32" or is_probs:
            attention += is_probs
            assert k1 == k2, f"kernel {i}: TF1 {k1}, but should be TF2's {k2}"
        else:
            doubled += 1
            assert (k1.dtype, k1.bytes, k1.flops) == ("float32", 2.0 * k2.bytes, k2.flops), (
                f"kernel {i}: TF1 {k1.dtype} {k1.bytes} bytes, but should be float32 {2.0 * k2.bytes} (TF2: {k2})")
    assert attention == 3 * L, f"{attention} attention-probability kernels kept in float16, but should be {3 * L}"
    assert doubled > 100, f"only {doubled} float16 elementwise kernels moved to float32"


def test_hidden_tf1_rows_run_the_tf1_program():
    assert {e.program for e in training.HIDDEN_EXPERIMENTS} == {"tf1"}
    assert {e.program for e in training.EXPERIMENTS if e.model == "bert"} == {"tf2"}, "the table's BERT rows: TF2's README"


def test_tf1_bert_charges_its_per_variable_launches():
    """TF1 BERT's per-variable gradient handling launches kernels of its own beyond the workload's
    fused ones (`tf1_launches`, counted from its graph: test_tf1_launches_tf.py checks the
    per-variable counts on TF 2.21): each costs the GPU's launch overhead, every micro-batch and
    every optimizer step; the TF2 program has none."""
    from simdist.validation import tf1_launches

    assert tf1_launches.bert_variables(24) == 398
    for mixed, micro, update in ((False, 2 * 398 + 13 - 3, 5 * 398 + 26 - 1), (True, 3 * 398 + 13 - 4, 3 * 398 + 26 - 1)):
        s = workloads.bert_large(8, 128, mixed=mixed, masked=20, program="tf1")
        assert (s.launches, s.update_launches) == (micro, update), (
            f"mixed={mixed}: {s.launches} / {s.update_launches} launches per micro-batch / optimizer step, "
            f"but should be {micro} / {update}")
        tf2 = workloads.bert_large(8, 128, mixed=mixed, masked=20)
        assert (tf2.launches, tf2.update_launches) == (0, 0), "the TF2 program's per-variable ops: none counted"
    # the simulator charges them: one GPU, the same row without them is faster by exactly their launches
    e = next(x for x in training.HIDDEN_EXPERIMENTS if x.gpus == 1 and x.mixed and x.seq == 128)
    s = training.step_of(e)
    with_launches = training.simulate(e)
    saved = (s.launches, s.update_launches)
    try:
        s.launches = s.update_launches = 0
        without = training.simulate(e)
    finally:
        s.launches, s.update_launches = saved
    lo = hardware.GPUS[e.gpu].launch_overhead
    step = e.batch * e.accumulation
    extra = step / with_launches - step / without
    want = (saved[0] * e.accumulation + saved[1]) * lo
    assert abs(extra - want) <= 1e-9 * step / without, (
        f"{e.id}: the launches add {extra:.6f} s per optimizer step, but should add {want:.6f} s")
