"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-sixth: the fused RNN kernels
(LSTMBlockCell, LSTMBlockCellGrad, BlockLSTM, BlockLSTMV2, BlockLSTMGrad, BlockLSTMGradV2, GRUBlockCell,
GRUBlockCellGrad; clause ops.rnn-block) and the audio features (AudioSpectrogram, Mfcc; clause
ops.audio-features), ParseExample (V1), ParseSingleExample, ParseSequenceExample (V1), ParseSingleSequenceExample,
SparseBincount, ShardedFilename, ShardedFilespec, Fact and the fast path's fixed-dtype inputs (clause ops.raw-ops),
each against real TensorFlow 2.21: the same raw call on both backends
gives the same dtype and values bit for bit, or raises the same exception class; eagerly, inside a tf.function (the
shape functions' trace-time refusals) and under a GradientTape (TF's registered gradient, or its LookupError where
it registers none). Needs the `tf` extra.

Host independence: the kernels' matrix products are Eigen contractions whose summation order may depend on the
CPU's kernel; the inputs here make every sum order-free — the state and input matrices of multiples of 1/8
(exact products and sums), or weights with one power of two in each row and column ("permutation" weights: one
product per entry, in both the forward and the backward products) — so the recorded answers hold on any host.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import sig as _s, tape as _t
from raw_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RB = "ops.rnn-block"


def _sig(expr: str, spec: tuple, arg: str) -> Any:
    return _s(expr.replace("R.", "tf.raw_ops."), spec, arg)


def _tape(expr: str, src: str) -> Any:
    return _t(expr.replace("R.", "tf.raw_ops."), src)


def _dy(shape: tuple, seed: int, dt: str = "float32", top: int = 8) -> str:
    """Multiples of 1/8 in [-top/8, top/8] (seeded): exact products and sums."""
    return f"tf.constant(np.random.default_rng({seed}).integers(-{top}, {top + 1}, size={shape!r}) / 8, tf.{dt})"


def _rn(shape: tuple, seed: int, dt: str = "float32", scale: float = 1.0) -> str:
    """Seeded normal values (for elementwise inputs only)."""
    return f"tf.constant(np.random.default_rng({seed}).normal(size={shape!r}) * {scale}, tf.{dt})"


def _perm(rows: int, cols: int, seed: int, dt: str = "float32") -> str:
    """A [rows, cols] weight with one power of two (±0.5, ±1, ±2) at column 3r mod cols of row r (cols not a
    multiple of 3, rows <= cols: one entry per row and per column)."""
    return (f"tf.constant(np.where(np.arange({rows})[:, None] * 3 % {cols} == np.arange({cols})[None, :], "
            f"np.random.default_rng({seed}).choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], size=({rows}, 1)), 0.0), "
            f"tf.{dt})")


def _cell(b: int, n: int, c: int, seed: int = 0, dt: str = "float32", peep: bool = False, clip: float = 3.0,
          fb: float = 1.0, w: str | None = None) -> str:
    """An LSTMBlockCell call on dyadic x, h_prev, w, b and normal cs_prev and peepholes."""
    w = w or _dy((n + c, 4 * c), seed + 3, dt)
    return (f"R.LSTMBlockCell(x={_dy((b, n), seed, dt)}, cs_prev={_rn((b, c), seed + 1, dt)}, "
            f"h_prev={_dy((b, c), seed + 2, dt)}, w={w}, wci={_rn((c,), seed + 4, dt)}, wcf={_rn((c,), seed + 5, dt)}, "
            f"wco={_rn((c,), seed + 6, dt)}, b={_dy((4 * c,), seed + 7, dt)}, forget_bias={fb}, cell_clip={clip}, "
            f"use_peephole={peep})")


def _cell_grad(b: int, n: int, c: int, seed: int = 0, dt: str = "float32", peep: bool = False) -> str:
    """LSTMBlockCellGrad on a forward step's outputs (permutation weights: the backward product is order-free)."""
    c4 = 4 * c
    ins = (f"x={_dy((b, n), seed, dt, 2)}, cs_prev={_rn((b, c), seed + 1, dt)}, h_prev={_dy((b, c), seed + 2, dt, 2)}, "
           f"w={_perm(n + c, c4, seed + 3, dt)}, wci={_rn((c,), seed + 4, dt)}, wcf={_rn((c,), seed + 5, dt)}, "
           f"wco={_rn((c,), seed + 6, dt)}, b={_dy((c4,), seed + 7, dt)}")
    return (f"(lambda a, o: R.LSTMBlockCellGrad(**a, i=o[0], cs=o[1], f=o[2], o=o[3], ci=o[4], co=o[5], "
            f"cs_grad={_rn((b, c), seed + 8, dt)}, h_grad={_rn((b, c), seed + 9, dt)}, use_peephole={peep}))"
            f"(*(lambda a: (a, R.LSTMBlockCell(**a, use_peephole={peep})))(dict({ins})))")


def _block_ins(t: int, b: int, n: int, c: int, seed: int, dt: str, x: str | None = None) -> str:
    """BlockLSTM's tensors: x and h_prev of 0 and ±1/8, ±1/4 (powers of two: exact products), permutation weights
    (one product per gate and per backward entry)."""
    return (f"x={x or _dy((t, b, n), seed, dt, 2)}, cs_prev={_rn((b, c), seed + 1, dt)}, "
            f"h_prev={_dy((b, c), seed + 2, dt, 2)}, w={_perm(n + c, 4 * c, seed + 3, dt)}, "
            f"wci={_rn((c,), seed + 4, dt)}, wcf={_rn((c,), seed + 5, dt)}, wco={_rn((c,), seed + 6, dt)}, "
            f"b={_rn((4 * c,), seed + 7, dt)}")


def _block(op: str, t: int, b: int, n: int, c: int, seq: int | None = None, seed: int = 0, dt: str = "float32",
           peep: bool = False, clip: float = 3.0, fb: float | None = None) -> str:
    attrs = f"cell_clip={clip}, use_peephole={peep}" + (f", forget_bias={fb}" if fb is not None else "")
    return f"R.{op}(seq_len_max=tf.constant({t if seq is None else seq}, tf.int64), {_block_ins(t, b, n, c, seed, dt)}, {attrs})"


def _block_grad(op: str, t: int, b: int, n: int, c: int, seq: int | None = None, seed: int = 0,
                dt: str = "float32", peep: bool = False) -> str:
    """BlockLSTMGrad(V2) on the forward op's outputs (their cs and h; i, f, o, ci and co past seq_len_max are
    memory TF never writes, so the forward runs the whole sequence and the gradient's seq_len_max is cut)."""
    fwd = op.replace("Grad", "")
    s = t if seq is None else seq
    return (f"(lambda a, o: R.{op}(seq_len_max=tf.constant({s}, tf.int64), **a, i=o[0], cs=o[1], f=o[2], o=o[3], "
            f"ci=o[4], co=o[5], h=o[6], cs_grad={_rn((t, b, c), seed + 8, dt)}, h_grad={_rn((t, b, c), seed + 9, dt)}, "
            f"use_peephole={peep}))(*(lambda a: (a, R.{fwd}(seq_len_max=tf.constant({t}, tf.int64), **a, "
            f"use_peephole={peep})))(dict({_block_ins(t, b, n, c, seed, dt)})))")


def _gru(b: int, n: int, c: int, seed: int = 0) -> str:
    """GRUBlockCell: w_ru dyadic over dyadic [x, h_prev]; w_c zero on x's rows and half the identity on h's."""
    wc = f"tf.constant(np.concatenate([np.zeros(({n}, {c})), np.eye({c}) / 2]), tf.float32)"
    return (f"R.GRUBlockCell(x={_dy((b, n), seed)}, h_prev={_dy((b, c), seed + 1)}, w_ru={_dy((n + c, 2 * c), seed + 2)}, "
            f"w_c={wc}, b_ru={_dy((2 * c,), seed + 3)}, b_c={_rn((c,), seed + 4)})")


def _gru_grad(b: int, n: int, c: int, seed: int = 0) -> str:
    """GRUBlockCellGrad: permutation w_ru and w_c (n <= c), on normal r, u, c and d_h."""
    wc = f"tf.constant(np.where(np.arange({n + c})[:, None] % {c} == np.arange({c})[None, :], 0.5, 0.0), tf.float32)"
    return (f"R.GRUBlockCellGrad(x={_dy((b, n), seed)}, h_prev={_rn((b, c), seed + 1)}, "
            f"w_ru={_perm(n + c, 2 * c, seed + 2)}, w_c={wc}, b_ru={_rn((2 * c,), seed + 3)}, b_c={_rn((c,), seed + 4)}, "
            f"r=tf.sigmoid({_rn((b, c), seed + 5)}), u=tf.sigmoid({_rn((b, c), seed + 6)}), "
            f"c=tf.tanh({_rn((b, c), seed + 7)}), d_h={_rn((b, c), seed + 8)})")


_Z2, _Z1 = "tf.zeros([2, 2])", "tf.zeros([2])"
_CELL_ARGS = (f"x=tf.zeros([2, 3]), cs_prev={_Z2}, h_prev={_Z2}, w=tf.zeros([5, 8]), wci={_Z1}, wcf={_Z1}, "
              f"wco={_Z1}, b=tf.zeros([8])")

_CELL_CASES: list[tuple[str, str, Any]] = [
    ('LSTMBlockCell 2x3, cell 4', _RB, _eager(_cell(2, 3, 4))),
    ('LSTMBlockCell 3x5, cell 7, peephole', _RB, _eager(_cell(3, 5, 7, seed=10, peep=True))),
    ('LSTMBlockCell 8x16, cell 16, peephole, clip 0.5', _RB, _eager(_cell(8, 16, 16, seed=20, peep=True, clip=0.5))),
    ('LSTMBlockCell 5x9, cell 11, no clip, forget bias -2', _RB, _eager(_cell(5, 9, 11, seed=30, clip=0.0, fb=-2.0))),
    ('LSTMBlockCell 1x2, cell 3 (a 1-row product)', _RB, _eager(_cell(1, 2, 3, seed=40, peep=True))),
    ('LSTMBlockCell float16 2x3, cell 8', _RB, _eager(_cell(2, 3, 8, seed=50, dt="float16", peep=True))),
    ('LSTMBlockCell default attrs', _RB, _eager(f'R.LSTMBlockCell({_CELL_ARGS})')),
    ('LSTMBlockCell cs_prev batch', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace(f'cs_prev={_Z2}', 'cs_prev=tf.zeros([3, 2])'))),
    ('LSTMBlockCell h_prev cells', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace(f'h_prev={_Z2}', 'h_prev=tf.zeros([2, 3])'))),
    ('LSTMBlockCell w rows', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('w=tf.zeros([5, 8])', 'w=tf.zeros([4, 8])'))),
    ('LSTMBlockCell w columns', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('w=tf.zeros([5, 8])', 'w=tf.zeros([5, 6])'))),
    ('LSTMBlockCell b length', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('b=tf.zeros([8])', 'b=tf.zeros([6])'))),
    ('LSTMBlockCell wci rank', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace(f'wci={_Z1}', 'wci=tf.zeros([1, 2])'))),
    ('LSTMBlockCell b rank', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('b=tf.zeros([8])', 'b=tf.zeros([1, 8])'))),
    ('LSTMBlockCell empty batch', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('x=tf.zeros([2, 3])', 'x=tf.zeros([0, 3])').replace(f'cs_prev={_Z2}, h_prev={_Z2}', 'cs_prev=tf.zeros([0, 2]), h_prev=tf.zeros([0, 2])'))),
    ('LSTMBlockCell float64 refused', _RB, _eager(_cell(2, 3, 4, dt="float64"))),
    ('LSTMBlockCell dtypes differ', _RB, _eager(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('b=tf.zeros([8])', 'b=tf.zeros([8], tf.float16)'))),
    ('LSTMBlockCell in a tf.function', _RB, _traced(_cell(3, 5, 7, seed=60, peep=True))),
    ('LSTMBlockCell x rank in a tf.function', _RB, _traced(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('x=tf.zeros([2, 3])', 'x=tf.zeros([2, 3, 1])'))),
    ('LSTMBlockCell cs_prev rank in a tf.function', _RB, _traced(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace(f'cs_prev={_Z2}', 'cs_prev=tf.zeros([4])'))),
    ('LSTMBlockCell w columns in a tf.function', _RB, _traced(_CELL_ARGS.join(('R.LSTMBlockCell(', ')')).replace('w=tf.zeros([5, 8])', 'w=tf.zeros([5, 6])'))),
    ('LSTMBlockCell of unknown batch', _RB, _sig('R.LSTMBlockCell(x=x, cs_prev=tf.zeros([2, 2]) + x[:, :2], h_prev=tf.zeros([2, 2]), w=tf.ones([5, 8]) / 8, wci=tf.zeros([2]), wcf=tf.zeros([2]), wco=tf.zeros([2]), b=tf.zeros([8]))', ([None, 3], "float32"), 'tf.ones([2, 3]) / 4')),
    ('LSTMBlockCell under a tape (no gradient)', _RB, _tape(f'R.LSTMBlockCell(x=x, cs_prev={_Z2}, h_prev={_Z2}, w=tf.ones([5, 8]) / 8, wci={_Z1}, wcf={_Z1}, wco={_Z1}, b=tf.zeros([8]))[6]', 'tf.ones([2, 3]) / 4')),
    ('LSTMBlockCellGrad 2x3, cell 4', _RB, _eager(_cell_grad(2, 3, 4))),
    ('LSTMBlockCellGrad 1x5, cell 7, peephole', _RB, _eager(_cell_grad(1, 5, 7, seed=10, peep=True))),
    ('LSTMBlockCellGrad 4x6, cell 8, peephole', _RB, _eager(_cell_grad(4, 6, 8, seed=20, peep=True))),
    ('LSTMBlockCellGrad float16 3x2, cell 5, peephole', _RB, _eager(_cell_grad(3, 2, 5, seed=30, dt="float16", peep=True))),
    ('LSTMBlockCellGrad i batch', _RB, _eager(f'R.LSTMBlockCellGrad({_CELL_ARGS}, i=tf.zeros([3, 2]), cs={_Z2}, f={_Z2}, o={_Z2}, ci={_Z2}, co={_Z2}, cs_grad={_Z2}, h_grad={_Z2}, use_peephole=False)')),
    ('LSTMBlockCellGrad f cells', _RB, _eager(f'R.LSTMBlockCellGrad({_CELL_ARGS}, i={_Z2}, cs={_Z2}, f=tf.zeros([2, 3]), o={_Z2}, ci={_Z2}, co={_Z2}, cs_grad={_Z2}, h_grad={_Z2}, use_peephole=False)')),
    ('LSTMBlockCellGrad h_grad batch', _RB, _eager(f'R.LSTMBlockCellGrad({_CELL_ARGS}, i={_Z2}, cs={_Z2}, f={_Z2}, o={_Z2}, ci={_Z2}, co={_Z2}, cs_grad={_Z2}, h_grad=tf.zeros([1, 2]), use_peephole=True)')),
    ('LSTMBlockCellGrad in a tf.function', _RB, _traced(_cell_grad(2, 3, 4, seed=40, peep=True))),
    ('LSTMBlockCellGrad under a tape (no gradient)', _RB, _tape(f'R.LSTMBlockCellGrad(x=tf.zeros([2, 3]), cs_prev={_Z2}, h_prev={_Z2}, w=tf.zeros([5, 8]), wci={_Z1}, wcf={_Z1}, wco={_Z1}, b=tf.zeros([8]), i={_Z2}, cs={_Z2}, f={_Z2}, o={_Z2}, ci={_Z2}, co={_Z2}, cs_grad=x, h_grad={_Z2}, use_peephole=False)[0]', 'tf.ones([2, 2])')),
]

_BLK_ARGS = (f"x=tf.zeros([3, 2, 3]), cs_prev={_Z2}, h_prev={_Z2}, w=tf.zeros([5, 8]), wci={_Z1}, wcf={_Z1}, "
             f"wco={_Z1}, b=tf.zeros([8])")


def _blk(op: str, seq: str = "3", **swap: str) -> str:
    args = _BLK_ARGS
    for k, v in swap.items():
        args = args.replace(k.replace("_eq_", "="), v)
    return f"R.{op}(seq_len_max=tf.constant({seq}, tf.int64), {args})"


_BLOCK_CASES: list[tuple[str, str, Any]] = [
    ('BlockLSTM 3 steps, 2x3, cell 4', _RB, _eager(_block("BlockLSTM", 3, 2, 3, 4, fb=1.0))),
    ('BlockLSTM 4 steps, 1x5, cell 7, peephole, clip 1', _RB, _eager(_block("BlockLSTM", 4, 1, 5, 7, seed=10, peep=True, clip=1.0, fb=0.5))),
    ('BlockLSTM default attrs', _RB, _eager(f'R.BlockLSTM(seq_len_max=tf.constant(3, tf.int64), {_block_ins(3, 2, 3, 4, 15, "float32")})')),
    ('BlockLSTM seq_len_max 2 of 4 (cs, h)', _RB, _eager(f'(lambda o: (o[1], o[6]))({_block("BlockLSTM", 4, 3, 2, 5, seq=2, seed=20, peep=True)})')),
    ('BlockLSTM seq_len_max 0 (cs, h)', _RB, _eager(f'(lambda o: (o[1], o[6]))({_block("BlockLSTM", 2, 2, 3, 4, seq=0, seed=25)})')),
    ('BlockLSTM float16, peephole', _RB, _eager(_block("BlockLSTM", 3, 2, 3, 5, seed=30, dt="float16", peep=True))),
    ('BlockLSTMV2 3 steps, 2x3, cell 4', _RB, _eager(_block("BlockLSTMV2", 3, 2, 3, 4, seed=40))),
    ('BlockLSTMV2 5 steps, 3x2, cell 5, peephole, clip 0.75', _RB, _eager(_block("BlockLSTMV2", 5, 3, 2, 5, seed=50, peep=True, clip=0.75))),
    ('BlockLSTMV2 default attrs (no clip)', _RB, _eager(f'R.BlockLSTMV2(seq_len_max=tf.constant(2, tf.int64), {_block_ins(2, 2, 3, 4, 55, "float32")})')),
    ('BlockLSTM seq_len_max of rank 1', _RB, _eager(_blk("BlockLSTM", "[3]"))),
    ('BlockLSTM x of rank 2', _RB, _eager(_blk("BlockLSTM", **{"x_eq_tf.zeros([3, 2, 3])": "x=tf.zeros([2, 3])"}))),
    ('BlockLSTM cs_prev batch', _RB, _eager(_blk("BlockLSTM", **{f"cs_prev_eq_{_Z2}": "cs_prev=tf.zeros([3, 2])"}))),
    ('BlockLSTM h_prev cells', _RB, _eager(_blk("BlockLSTMV2", **{f"h_prev_eq_{_Z2}": "h_prev=tf.zeros([2, 3])"}))),
    ('BlockLSTM w rows', _RB, _eager(_blk("BlockLSTM", **{"w_eq_tf.zeros([5, 8])": "w=tf.zeros([6, 8])"}))),
    ('BlockLSTM wcf length', _RB, _eager(_blk("BlockLSTM", **{f"wcf_eq_{_Z1}": "wcf=tf.zeros([3])"}))),
    ('BlockLSTM b length', _RB, _eager(_blk("BlockLSTMV2", **{"b_eq_tf.zeros([8])": "b=tf.zeros([12])"}))),
    ('BlockLSTM seq_len_max a Python int', _RB, _eager(f'(lambda o: o[6])({_blk("BlockLSTM").replace("tf.constant(3, tf.int64)", "2")})')),
    ('BlockLSTM in a tf.function', _RB, _traced(_block("BlockLSTM", 3, 2, 3, 4, seed=60, peep=True, fb=1.0))),
    ('BlockLSTM x rank in a tf.function', _RB, _traced(_blk("BlockLSTM", **{"x_eq_tf.zeros([3, 2, 3])": "x=tf.zeros([2, 3])"}))),
    ('BlockLSTM b not of 4 in a tf.function', _RB, _traced(_blk("BlockLSTMV2", **{"b_eq_tf.zeros([8])": "b=tf.zeros([6])"}))),
    ('BlockLSTM b rank in a tf.function', _RB, _traced(_blk("BlockLSTM", **{"b_eq_tf.zeros([8])": "b=tf.zeros([2, 4])"}))),
    ('BlockLSTMGrad 3 steps, 1x3, cell 4', _RB, _eager(_block_grad("BlockLSTMGrad", 3, 1, 3, 4))),
    ('BlockLSTMGrad 1 step, 2x3, cell 4', _RB, _eager(_block_grad("BlockLSTMGrad", 1, 2, 3, 4, seed=5))),
    ('BlockLSTMGrad 4 steps, 1x2, cell 5, peephole', _RB, _eager(_block_grad("BlockLSTMGrad", 4, 1, 2, 5, seed=10, peep=True))),
    ('BlockLSTMGrad seq_len_max 2 of 4', _RB, _eager(_block_grad("BlockLSTMGrad", 4, 1, 3, 4, seq=2, seed=20, peep=True))),
    ('BlockLSTMGradV2 3 steps, 1x3, cell 4, peephole', _RB, _eager(_block_grad("BlockLSTMGradV2", 3, 1, 3, 4, seed=30, peep=True))),
    ('BlockLSTMGrad float16', _RB, _eager(_block_grad("BlockLSTMGrad", 2, 1, 2, 4, seed=40, dt="float16", peep=True))),
    ('BlockLSTMGrad w columns', _RB, _eager(f'R.BlockLSTMGrad(seq_len_max=tf.constant(3, tf.int64), {_BLK_ARGS.replace("w=tf.zeros([5, 8])", "w=tf.zeros([5, 6])")}, i=tf.zeros([3, 2, 2]), cs=tf.zeros([3, 2, 2]), f=tf.zeros([3, 2, 2]), o=tf.zeros([3, 2, 2]), ci=tf.zeros([3, 2, 2]), co=tf.zeros([3, 2, 2]), h=tf.zeros([3, 2, 2]), cs_grad=tf.zeros([3, 2, 2]), h_grad=tf.zeros([3, 2, 2]), use_peephole=False)')),
    ('BlockLSTMGrad h of rank 2', _RB, _eager(f'R.BlockLSTMGradV2(seq_len_max=tf.constant(3, tf.int64), {_BLK_ARGS}, i=tf.zeros([3, 2, 2]), cs=tf.zeros([3, 2, 2]), f=tf.zeros([3, 2, 2]), o=tf.zeros([3, 2, 2]), ci=tf.zeros([3, 2, 2]), co=tf.zeros([3, 2, 2]), h=tf.zeros([2, 2]), cs_grad=tf.zeros([3, 2, 2]), h_grad=tf.zeros([3, 2, 2]), use_peephole=False)')),
    ('BlockLSTMGrad in a tf.function', _RB, _traced(_block_grad("BlockLSTMGrad", 3, 1, 3, 4, seed=50))),
    ('BlockLSTMGrad wco rank in a tf.function', _RB, _traced(f'R.BlockLSTMGrad(seq_len_max=tf.constant(3, tf.int64), {_BLK_ARGS.replace(f"wco={_Z1}", "wco=tf.zeros([1, 2])")}, i=tf.zeros([3, 2, 2]), cs=tf.zeros([3, 2, 2]), f=tf.zeros([3, 2, 2]), o=tf.zeros([3, 2, 2]), ci=tf.zeros([3, 2, 2]), co=tf.zeros([3, 2, 2]), h=tf.zeros([3, 2, 2]), cs_grad=tf.zeros([3, 2, 2]), h_grad=tf.zeros([3, 2, 2]), use_peephole=False)')),
    ('BlockLSTM under a tape (of x)', _RB, _tape(f'R.BlockLSTM(seq_len_max=tf.constant(3, tf.int64), {_block_ins(3, 1, 3, 4, 70, "float32", "x")}, use_peephole=True)', _dy((3, 1, 3), 70, "float32", 2))),
    ('BlockLSTM under a tape (h only)', _RB, _tape(f'R.BlockLSTM(seq_len_max=tf.constant(2, tf.int64), {_block_ins(3, 1, 3, 4, 75, "float32", "x")})[6]', _dy((3, 1, 3), 75, "float32", 2))),
    ('BlockLSTMV2 under a tape (V1 gradient kernel)', _RB, _tape(f'R.BlockLSTMV2(seq_len_max=tf.constant(3, tf.int64), {_block_ins(3, 1, 3, 4, 80, "float32", "x")}, use_peephole=True)[6]', _dy((3, 1, 3), 80, "float32", 2))),
    ('BlockLSTMGrad under a tape (no gradient)', _RB, _tape(f'R.BlockLSTMGrad(seq_len_max=tf.constant(1, tf.int64), x=tf.zeros([1, 2, 3]), cs_prev={_Z2}, h_prev={_Z2}, w=tf.zeros([5, 8]), wci={_Z1}, wcf={_Z1}, wco={_Z1}, b=tf.zeros([8]), i=tf.zeros([1, 2, 2]), cs=tf.zeros([1, 2, 2]), f=tf.zeros([1, 2, 2]), o=tf.zeros([1, 2, 2]), ci=tf.zeros([1, 2, 2]), co=tf.zeros([1, 2, 2]), h=tf.zeros([1, 2, 2]), cs_grad=x, h_grad=tf.zeros([1, 2, 2]), use_peephole=False)[0]', 'tf.ones([1, 2, 2])')),
]

_GRU_ARGS = "x=tf.zeros([2, 3]), h_prev=tf.zeros([2, 2]), w_ru=tf.zeros([5, 4]), w_c=tf.zeros([5, 2]), b_ru=tf.zeros([4]), b_c=tf.zeros([2])"
_GRU_GRAD_ARGS = _GRU_ARGS + ", r=tf.zeros([2, 2]), u=tf.zeros([2, 2]), c=tf.zeros([2, 2]), d_h=tf.zeros([2, 2])"

_GRU_CASES: list[tuple[str, str, Any]] = [
    ('GRUBlockCell 2x3, cell 4', _RB, _eager(_gru(2, 3, 4))),
    ('GRUBlockCell 5x7, cell 9', _RB, _eager(_gru(5, 7, 9, seed=10))),
    ('GRUBlockCell 1x2, cell 3', _RB, _eager(_gru(1, 2, 3, seed=20))),
    ('GRUBlockCell x rank', _RB, _eager(f'R.GRUBlockCell({_GRU_ARGS.replace("x=tf.zeros([2, 3])", "x=tf.zeros([2, 3, 1])")})')),
    ('GRUBlockCell w_ru columns', _RB, _eager(f'R.GRUBlockCell({_GRU_ARGS.replace("w_ru=tf.zeros([5, 4])", "w_ru=tf.zeros([5, 3])")})')),
    ('GRUBlockCell w_c rank', _RB, _eager(f'R.GRUBlockCell({_GRU_ARGS.replace("w_c=tf.zeros([5, 2])", "w_c=tf.zeros([10])")})')),
    ('GRUBlockCell b_c length', _RB, _eager(f'R.GRUBlockCell({_GRU_ARGS.replace("b_c=tf.zeros([2])", "b_c=tf.zeros([3])")})')),
    ('GRUBlockCell float16 refused', _RB, _eager(f'R.GRUBlockCell({_GRU_ARGS})'.replace("])", "], tf.float16)"))),
    ('GRUBlockCell in a tf.function', _RB, _traced(_gru(2, 3, 4, seed=30))),
    ('GRUBlockCell h_prev rank in a tf.function', _RB, _traced(f'R.GRUBlockCell({_GRU_ARGS.replace("h_prev=tf.zeros([2, 2])", "h_prev=tf.zeros([4])")})')),
    ('GRUBlockCell under a tape (no gradient)', _RB, _tape(f'R.GRUBlockCell({_GRU_ARGS.replace("x=tf.zeros([2, 3])", "x=x")})[3]', 'tf.ones([2, 3])')),
    ('GRUBlockCellGrad 2x3, cell 4', _RB, _eager(_gru_grad(2, 3, 4))),
    ('GRUBlockCellGrad 3x5, cell 7', _RB, _eager(_gru_grad(3, 5, 7, seed=10))),
    ('GRUBlockCellGrad c rank', _RB, _eager(f'R.GRUBlockCellGrad({_GRU_GRAD_ARGS.replace("c=tf.zeros([2, 2])", "c=tf.zeros([4])")})')),
    ('GRUBlockCellGrad d_h cells', _RB, _eager(f'R.GRUBlockCellGrad({_GRU_GRAD_ARGS.replace("d_h=tf.zeros([2, 2])", "d_h=tf.zeros([2, 3])")})')),
    ('GRUBlockCellGrad in a tf.function', _RB, _traced(_gru_grad(2, 3, 4, seed=20))),
    ('GRUBlockCellGrad w_ru rank in a tf.function', _RB, _traced(f'R.GRUBlockCellGrad({_GRU_GRAD_ARGS.replace("w_ru=tf.zeros([5, 4])", "w_ru=tf.zeros([20])")})')),
    ('GRUBlockCellGrad under a tape (no gradient)', _RB, _tape(f'R.GRUBlockCellGrad({_GRU_GRAD_ARGS.replace("d_h=tf.zeros([2, 2])", "d_h=x")})[0]', 'tf.ones([2, 2])')),
]

_AF = "ops.audio-features"


def _audio(n: int, ch: int, seed: int) -> str:
    """Seeded audio in [-1, 1), [samples, channels]."""
    return f"tf.constant(np.random.default_rng({seed}).uniform(-1, 1, size=({n}, {ch})), tf.float32)"


def _spec(n: int, ch: int, win: int, stride: int, seed: int, sq: bool = True) -> str:
    return f"R.AudioSpectrogram(input={_audio(n, ch, seed)}, window_size={win}, stride={stride}, magnitude_squared={sq})"


def _mfcc(spec: str, rate: str = "16000", **attrs: Any) -> str:
    extra = "".join(f", {k}={v}" for k, v in attrs.items())
    return f"R.Mfcc(spectrogram={spec}, sample_rate={rate}{extra})"


_AUDIO_CASES: list[tuple[str, str, Any]] = [
    ('AudioSpectrogram window 16 stride 8, squared', _AF, _eager(_spec(100, 1, 16, 8, 0))),
    ('AudioSpectrogram window 25 stride 10, 2 channels', _AF, _eager(_spec(257, 2, 25, 10, 1, False))),
    ('AudioSpectrogram window 200 stride 80 (fft 256)', _AF, _eager(_spec(1600, 1, 200, 80, 2, False))),
    ('AudioSpectrogram window 7 stride 3, 3 channels', _AF, _eager(_spec(50, 3, 7, 3, 3))),
    ('AudioSpectrogram shorter than the window', _AF, _eager(_spec(10, 2, 16, 4, 4, False))),
    ('AudioSpectrogram of silence', _AF, _eager('R.AudioSpectrogram(input=tf.zeros([40, 1]), window_size=8, stride=8)')),
    ('AudioSpectrogram input rank', _AF, _eager('R.AudioSpectrogram(input=tf.ones([9]), window_size=1, stride=2)')),
    ('AudioSpectrogram window of 1', _AF, _eager('R.AudioSpectrogram(input=tf.ones([9, 1]), window_size=1, stride=2)')),
    ('AudioSpectrogram stride 0', _AF, _eager('R.AudioSpectrogram(input=tf.ones([9, 1]), window_size=4, stride=0)')),
    ('AudioSpectrogram float64 refused', _AF, _eager('R.AudioSpectrogram(input=tf.ones([9, 1], tf.float64), window_size=4, stride=1)')),
    ('AudioSpectrogram in a tf.function', _AF, _traced(_spec(64, 2, 16, 5, 5, False))),
    ('AudioSpectrogram input rank in a tf.function', _AF, _traced('R.AudioSpectrogram(input=tf.ones([9]), window_size=1, stride=1)')),
    ('AudioSpectrogram window of 1 in a tf.function', _AF, _traced('R.AudioSpectrogram(input=tf.ones([9, 1]), window_size=1, stride=0)')),
    ('AudioSpectrogram stride 0 in a tf.function', _AF, _traced('R.AudioSpectrogram(input=tf.ones([9, 1]), window_size=4, stride=0)')),
    ('AudioSpectrogram under a tape (no gradient)', _AF, _tape('R.AudioSpectrogram(input=x, window_size=4, stride=2)', 'tf.ones([9, 1])')),
    ('Mfcc defaults', _AF, _eager(_mfcc(_spec(1000, 2, 64, 32, 6)))),
    ('Mfcc 20 bands, 10 coefficients, 50-2000 Hz', _AF, _eager(_mfcc(_spec(1600, 1, 200, 80, 7), upper_frequency_limit=2000.0, lower_frequency_limit=50.0, filterbank_channel_count=20, dct_coefficient_count=10))),
    ('Mfcc few bins for the bands', _AF, _eager(_mfcc(_spec(50, 2, 7, 3, 8)))),
    ('Mfcc upper limit past the last bin (zeros)', _AF, _eager(_mfcc(_spec(100, 1, 16, 8, 9), "3000"))),
    ('Mfcc of a spectrogram with zeros and negatives', _AF, _eager(_mfcc('tf.constant([[[0.0, 1.0, -1.0, 4.0, 0.5, 0.0, 2.0, 3.0, 1e-20]]])', "8000", filterbank_channel_count=4, dct_coefficient_count=3))),
    ('Mfcc sample rate a tensor', _AF, _eager(_mfcc('tf.ones([1, 2, 9])', 'tf.constant(16000)'))),
    ('Mfcc spectrogram rank', _AF, _eager(_mfcc('tf.ones([2, 9])'))),
    ('Mfcc sample rate of rank 1', _AF, _eager(_mfcc('tf.ones([1, 2, 9])', '[16000]'))),
    ('Mfcc more coefficients than bands', _AF, _eager(_mfcc('tf.ones([1, 2, 9])', dct_coefficient_count=50))),
    ('Mfcc one bin', _AF, _eager(_mfcc('tf.ones([1, 2, 1])'))),
    ('Mfcc sample rate 0', _AF, _eager(_mfcc('tf.ones([1, 2, 129])', '0'))),
    ('Mfcc lower limit above the upper', _AF, _eager(_mfcc('tf.ones([1, 2, 129])', lower_frequency_limit=5000.0))),
    ('Mfcc in a tf.function', _AF, _traced(_mfcc(_spec(300, 1, 32, 16, 10), filterbank_channel_count=12, dct_coefficient_count=6))),
    ('Mfcc sample rate of rank 1 in a tf.function', _AF, _traced(_mfcc('tf.ones([1, 2, 9])', '[16000]'))),
    ('Mfcc spectrogram rank in a tf.function', _AF, _traced(_mfcc('tf.ones([2, 9])'))),
    ('Mfcc under a tape (no gradient)', _AF, _tape(_mfcc('x'), 'tf.ones([1, 2, 9])')),
]

_RO = "ops.raw-ops"
# three serialized tf.train.Examples (made by TF 2.21's protos): {a: [1., 2.], b: [3], c: [b"x"]},
# {a: [4., 5.], c: [b"y", b"z"]}, {a: [0.5, -1.5, 2.25], b: [7, 8]}
_EX = (repr(b'\n+\n\n\n\x01b\x12\x05\x1a\x03\n\x01\x03\n\x11\n\x01a\x12\x0c\x12\n\n\x08\x00\x00\x80?\x00\x00\x00@\n\n\n\x01c'
            b'\x12\x05\n\x03\n\x01x'),
       repr(b'\n"\n\x11\n\x01a\x12\x0c\x12\n\n\x08\x00\x00\x80@\x00\x00\xa0@\n\r\n\x01c\x12\x08\n\x06\n\x01y\n\x01z'),
       repr(b'\n$\n\x0b\n\x01b\x12\x06\x1a\x04\n\x02\x07\x08\n\x15\n\x01a\x12\x10\x12\x0e\n\x0c\x00\x00\x00?\x00\x00\xc0\xbf'
            b'\x00\x00\x10@'))
_S01 = f"[{_EX[0]}, {_EX[1]}]"
# a serialized tf.train.SequenceExample: context {c: int64 [5, 6], d: float [1.5]}, feature lists
# f: float [[1, 2], [3, 4], [5, 6]], g: bytes [[a], [b, c]]
_SEQ = repr(b'\n\x1c\n\r\n\x01d\x12\x08\x12\x06\n\x04\x00\x00\xc0?\n\x0b\n\x01c\x12\x06\x1a\x04\n\x02\x05\x06\x12I\n\x16\n\x01g'
            b'\x12\x11\n\x05\n\x03\n\x01a\n\x08\n\x06\n\x01b\n\x01c\n/\n\x01f\x12*\n\x0c\x12\n\n\x08\x00\x00\x80?\x00\x00\x00@'
            b'\n\x0c\x12\n\n\x08\x00\x00@@\x00\x00\x80@\n\x0c\x12\n\n\x08\x00\x00\xa0@\x00\x00\xc0@')


def _pseq(serialized: str, missing: str = "['h']", fl_dense: tuple = ("f", "h")) -> str:
    types = "[" + ", ".join("tf.float32" if k == "f" else "tf.int64" for k in fl_dense) + "]"
    shapes = "[" + ", ".join("[2]" if k == "f" else "[1]" for k in fl_dense) + "]"
    return (f"R.ParseSequenceExample(serialized={serialized}, debug_name=[], context_dense_defaults=[tf.zeros([1])], "
            f"feature_list_dense_missing_assumed_empty={missing}, context_sparse_keys=['c'], context_dense_keys=['d'], "
            f"feature_list_sparse_keys=['g'], feature_list_dense_keys={list(fl_dense)!r}, Ncontext_sparse=1, "
            f"Ncontext_dense=1, Nfeature_list_sparse=1, Nfeature_list_dense={len(fl_dense)}, "
            f"context_sparse_types=[tf.int64], feature_list_dense_types={types}, context_dense_shapes=[[1]], "
            f"feature_list_sparse_types=[tf.string], feature_list_dense_shapes={shapes})")


def _sbc(ind: str, vals: str, shape: str, size: str, weights: str = "tf.constant([], tf.float32)",
         tidx: str = "tf.int32", binary: bool = False) -> str:
    return (f"R.SparseBincount(indices=tf.constant({ind}, tf.int64), values=tf.constant({vals}, {tidx}), "
            f"dense_shape=tf.constant({shape}, tf.int64), size=tf.constant({size}, {tidx}), weights={weights}, "
            f"binary_output={binary})")


def _psseq(serialized: str, missing: str = "['h']") -> str:
    return (f"R.ParseSingleSequenceExample(serialized={serialized}, feature_list_dense_missing_assumed_empty={missing}, "
            "context_sparse_keys=['c'], context_dense_keys=['d'], feature_list_sparse_keys=['g'], "
            "feature_list_dense_keys=['f', 'h'], context_dense_defaults=[tf.zeros([1])], debug_name='', "
            "context_sparse_types=[tf.int64], feature_list_dense_types=[tf.float32, tf.int64], "
            "context_dense_shapes=[[1]], feature_list_sparse_types=[tf.string], feature_list_dense_shapes=[[2], [1]])")


def _pe(serialized: str = _S01, names: str = "[]", sparse: str = "['c']", dense: str = "['a']",
        defaults: str = "[tf.zeros([2])]", types: str = "[tf.string]", shapes: str = "[[2]]") -> str:
    return (f"R.ParseExample(serialized={serialized}, names={names}, sparse_keys={sparse}, dense_keys={dense}, "
            f"dense_defaults={defaults}, sparse_types={types}, dense_shapes={shapes})")


def _pse(serialized: str = _EX[1], defaults: str = "[tf.zeros([2])]", n: int = 1, sparse: str = "['c']",
         dense: str = "['a']", types: str = "[tf.string]", shapes: str = "[[2]]") -> str:
    return (f"R.ParseSingleExample(serialized={serialized}, dense_defaults={defaults}, num_sparse={n}, "
            f"sparse_keys={sparse}, dense_keys={dense}, sparse_types={types}, dense_shapes={shapes})")


_PARSE_CASES: list[tuple[str, str, Any]] = [
    ('ParseExample sparse strings, dense floats', _RO, _eager(_pe())),
    ('ParseExample names given', _RO, _eager(_pe(names="[b'first', b'second']"))),
    ('ParseExample int64 default used', _RO, _eager(_pe(f"[{_EX[1]}, {_EX[0]}]", sparse="[]", dense="['b']", defaults="[tf.constant([9], tf.int64)]", types="[]", shapes="[[1]]"))),
    ('ParseExample variable length, padded', _RO, _eager(_pe(f"[{_EX[0]}, {_EX[2]}]", sparse="['b']", dense="['a']", defaults="[tf.constant(-1.0)]", types="[tf.int64]", shapes="[[None]]"))),
    ('ParseExample no keys', _RO, _eager(_pe(sparse="[]", dense="[]", defaults="[]", types="[]", shapes="[]"))),
    ('ParseExample serialized a scalar', _RO, _eager(_pe(_EX[0]))),
    ('ParseExample names of another length', _RO, _eager(_pe(names="[b'n1']"))),
    ('ParseExample required feature missing', _RO, _eager(_pe(sparse="[]", dense="['b']", defaults="[tf.constant([], tf.int64)]", types="[]", shapes="[[1]]"))),
    ('ParseExample default of another shape', _RO, _eager(_pe(f"[{_EX[1]}]", sparse="[]", dense="['z']", defaults="[tf.zeros([2])]", types="[]", shapes="[[3]]"))),
    ('ParseExample not an Example', _RO, _eager(_pe("[b'garbage']", dense="[]", defaults="[]", shapes="[]"))),
    ('ParseExample dtypes differ', _RO, _eager(_pe(f"[{_EX[0]}]", sparse="['b']", dense="[]", defaults="[]", types="[tf.float32]", shapes="[]"))),
    ('ParseExample in a tf.function', _RO, _traced(_pe())),
    ('ParseExample serialized a scalar in a tf.function', _RO, _traced(_pe(_EX[0]))),
    ('ParseExample under a tape (no gradient)', _RO, _tape(_pe(f"[{_EX[1]}]", sparse="[]", dense="['z']", defaults="[x]", types="[]", shapes="[[2]]") + '[0]', 'tf.ones([2])')),
    ('ParseSingleExample sparse and dense', _RO, _eager(_pse())),
    ('ParseSingleExample default used', _RO, _eager(_pse(_EX[1], defaults="[tf.constant([7], tf.int64)]", n=0, sparse="[]", dense="['b']", types="[]", shapes="[[1]]"))),
    ('ParseSingleExample variable length', _RO, _eager(_pse(_EX[2], defaults="[tf.constant(0.0)]", n=1, sparse="['b']", dense="['a']", types="[tf.int64]", shapes="[[None]]"))),
    ('ParseSingleExample serialized a vector', _RO, _eager(_pse(_S01))),
    ('ParseSingleExample num_sparse', _RO, _eager(_pse(n=2))),
    ('ParseSingleExample more dense keys than defaults', _RO, _eager(_pse(defaults="[tf.zeros([2])]", n=0, sparse="[]", dense="['a', 'b']", types="[]", shapes="[[2]]"))),
    ('ParseSingleExample required feature missing', _RO, _eager(_pse(_EX[1], defaults="[tf.constant([], tf.int64)]", n=0, sparse="[]", dense="['b']", types="[]", shapes="[[1]]"))),
    ('ParseSingleExample not an Example', _RO, _eager(_pse("b'garbage'"))),
    ('ParseSingleExample in a tf.function', _RO, _traced(_pse(_EX[0]))),
    ('ParseSingleExample serialized a vector in a tf.function', _RO, _traced(_pse(_S01))),
    ('ParseSingleExample num_sparse in a tf.function', _RO, _traced(_pse(n=2))),
    ('ParseSequenceExample two SequenceExamples', _RO, _eager(_pseq(f"[{_SEQ}, {_SEQ}]"))),
    ('ParseSequenceExample a scalar', _RO, _eager(_pseq(_SEQ))),
    ('ParseSequenceExample feature list required', _RO, _eager(_pseq(f"[{_SEQ}]", missing="[]"))),
    ('ParseSequenceExample in a tf.function', _RO, _traced(_pseq(f"[{_SEQ}]"))),
    ('ParseSequenceExample serialized of rank 2 in a tf.function', _RO, _traced(_pseq(f"[[{_SEQ}]]"))),
    ('ParseSingleSequenceExample', _RO, _eager(_psseq(_SEQ))),
    ('ParseSingleSequenceExample serialized a vector', _RO, _eager(_psseq(f"[{_SEQ}]"))),
    ('ParseSingleSequenceExample feature list required', _RO, _eager(_psseq(_SEQ, "[]"))),
    ('ParseSingleSequenceExample in a tf.function', _RO, _traced(_psseq(_SEQ))),
    ('ParseSingleSequenceExample serialized a vector in a tf.function', _RO, _traced(_psseq(f"[{_SEQ}]"))),
    ('SparseBincount 1-D, counts', _RO, _eager(_sbc("[[0], [2], [3]]", "[1, 1, 4]", "[5]", "5"))),
    ('SparseBincount 2-D, weights, int64 values', _RO, _eager(_sbc("[[0, 0], [0, 2], [1, 1]]", "[1, 1, 4]", "[2, 5]", "3", "tf.constant([0.5, 2.0, 3.0])", tidx="tf.int64"))),
    ('SparseBincount 2-D, binary output, int32', _RO, _eager(_sbc("[[0, 0], [0, 2], [1, 1]]", "[1, 1, 4]", "[2, 5]", "3", "tf.constant([], tf.int32)", binary=True))),
    ('SparseBincount 2-D, a negative value skipped', _RO, _eager(_sbc("[[0, 0], [1, 2]]", "[1, -1]", "[2, 5]", "5"))),
    ('SparseBincount 3-D dense shape (rows by the first index)', _RO, _eager(_sbc("[[0, 0, 0], [1, 1, 1]]", "[1, 3]", "[2, 2, 2]", "5", "tf.constant([1.5, 2.5], tf.float64)"))),
    ('SparseBincount 1-D negative value', _RO, _eager(_sbc("[[0], [2]]", "[1, -1]", "[5]", "5"))),
    ('SparseBincount negative size', _RO, _eager(_sbc("[[0], [2]]", "[1, 1]", "[5]", "-1"))),
    ('SparseBincount size a vector', _RO, _eager(_sbc("[[0], [2]]", "[1, 1]", "[5]", "[5]"))),
    ('SparseBincount indices and values counts', _RO, _eager(_sbc("[[0], [2]]", "[1, 1, 2]", "[5]", "5"))),
    ('SparseBincount index and shape ranks', _RO, _eager(_sbc("[[0, 0], [1, 2]]", "[1, 1]", "[5]", "5"))),
    ('SparseBincount index out of bounds', _RO, _eager(_sbc("[[0, 0], [1, 9]]", "[1, 1]", "[2, 5]", "5"))),
    ('SparseBincount weights of another size', _RO, _eager(_sbc("[[0], [2]]", "[1, 1]", "[5]", "5", "tf.constant([1.0])"))),
    ('SparseBincount in a tf.function', _RO, _traced(_sbc("[[0, 0], [0, 2], [1, 1]]", "[1, 1, 4]", "[2, 5]", "3"))),
    ('SparseBincount size a vector in a tf.function', _RO, _traced(_sbc("[[0], [2]]", "[1, 1]", "[5]", "[5]"))),
    ('SparseBincount indices a vector in a tf.function', _RO, _traced(_sbc("[0, 2]", "[1, 1]", "[5]", "5"))),
    ('SparseBincount under a tape (no gradient)', _RO, _tape("R.SparseBincount(indices=tf.constant([[0], [2]], tf.int64), values=tf.constant([1, 1]), dense_shape=tf.constant([5], tf.int64), size=tf.constant(5), weights=x)", "tf.constant([1.0, 2.0])")),
    ('ShardedFilename', _RO, _eager("R.ShardedFilename(basename='a/b', shard=3, num_shards=10)")),
    ('ShardedFilename negative shard, six digits', _RO, _eager("R.ShardedFilename(basename='x', shard=-3, num_shards=123456)")),
    ('ShardedFilename basename read up to a NUL', _RO, _eager("R.ShardedFilename(basename=b'ab\\x00cd', shard=1, num_shards=2)")),
    ('ShardedFilename basename a vector', _RO, _eager("R.ShardedFilename(basename=['x', 'y'], shard=[1, 2], num_shards=5)")),
    ('ShardedFilename shard a vector', _RO, _eager("R.ShardedFilename(basename='x', shard=[1], num_shards=5)")),
    ('ShardedFilename basename a vector in a tf.function', _RO, _traced("R.ShardedFilename(basename=['x', 'y'], shard=1, num_shards=5)")),
    ('ShardedFilespec', _RO, _eager("R.ShardedFilespec(basename='dir/f', num_shards=7)")),
    ('ShardedFilespec num_shards a vector', _RO, _eager("R.ShardedFilespec(basename='dir/f', num_shards=[7])")),
    ('ShardedFilespec in a tf.function', _RO, _traced("R.ShardedFilespec(basename='q', num_shards=3)")),
    ('fixed int64 input given int32, float attr by its int default (fallback: ValueError)', _RO, _eager(_blk("BlockLSTMV2").replace("tf.int64", "tf.int32"))),
    ('fixed int64 input given int32, float attr a Python float (fast path: kernel error)', _RO, _eager(_blk("BlockLSTMV2").replace("tf.int64", "tf.int32")[:-1] + ", cell_clip=0.0)")),
    ('fixed int64 input given int32, float attr a NumPy float32 (fallback)', _RO, _eager(_blk("BlockLSTMV2").replace("tf.int64", "tf.int32")[:-1] + ", cell_clip=np.float32(0.0))")),
    ('fixed int32 input given int64 beside a Python string (fallback)', _RO, _eager("R.ShardedFilename(basename='x', shard=tf.constant(1, tf.int64), num_shards=5)")),
    ('fixed int32 input given int64 beside tensors (fast path)', _RO, _eager("R.ShardedFilename(basename=tf.constant('x'), shard=tf.constant(1, tf.int64), num_shards=tf.constant(5))")),
    ('Fact', _RO, _eager('R.Fact()')),
    ('Fact in a tf.function', _RO, _traced('R.Fact()')),
]

CASES: list[tuple[str, str, Any]] = _CELL_CASES + _BLOCK_CASES + _GRU_CASES + _AUDIO_CASES + _PARSE_CASES

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.rnn-block")
@EDGES.parametrize("ops.rnn-block")
def test_rnn_block_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.audio-features")
@EDGES.parametrize("ops.audio-features")
def test_audio_features(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_example_parsers_v1_and_fact(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops36_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
