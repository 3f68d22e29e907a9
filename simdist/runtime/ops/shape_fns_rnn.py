"""Shape functions of the fused RNN raw ops (tensorflow/core/ops/rnn_ops.cc), on infer_ctx's InferenceContext
(clauses ops.rnn-block, function.trace-time-errors): the rank checks a tf.function makes as it adds the node (a
ValueError at trace), before the kernels' own checks, which run when the graph does."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("GRUBlockCell")
def _gru_block_cell(c: Ctx) -> None:
    """x and h_prev of rank 2."""
    c.with_rank(c.input("x"), 2)
    c.with_rank(c.input("h_prev"), 2)


@register("GRUBlockCellGrad")
def _gru_block_cell_grad(c: Ctx) -> None:
    """x, h_prev and w_ru of rank 2."""
    for name in ("x", "h_prev", "w_ru"):
        c.with_rank(c.input(name), 2)


@register("LSTMBlockCell", "LSTMBlockCellGrad")
def _lstm_block_cell(c: Ctx) -> None:
    """x and cs_prev of rank 2."""
    c.with_rank(c.input("x"), 2)
    c.with_rank(c.input("cs_prev"), 2)


@register("BlockLSTM", "BlockLSTMV2")
def _block_lstm(c: Ctx) -> None:
    """x of rank 3, b of rank 1 and a length divisible by 4 (c->Divide(.., 4, evenly_divisible))."""
    c.with_rank(c.input("x"), 3)
    b = c.with_rank(c.input("b"), 1)
    if b[0] is not None and b[0] % 4:
        c.fail(f"Dimension size must be evenly divisible by 4 but is {b[0]}")


@register("BlockLSTMGrad", "BlockLSTMGradV2")
def _block_lstm_grad(c: Ctx) -> None:
    """x of rank 3; cs_prev, h_prev and w of rank 2; wci, wcf, wco and b of rank 1 (in the OpDef's order)."""
    for name, rank in (("x", 3), ("cs_prev", 2), ("h_prev", 2), ("w", 2), ("wci", 1), ("wcf", 1), ("wco", 1),
                       ("b", 1)):
        c.with_rank(c.input(name), rank)
