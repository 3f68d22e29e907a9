"""The op table's entries for the raw ops the thirty-sixth session added (clauses ops.rnn-block and
ops.audio-features): the fused RNN kernels and the audio features, each a raw op only, compared with TF 2.21 bit
for bit (values, errors, tf.function, tape) in tests/ops/test_rawops36_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_rawops36_tf.py"
_NO_GRAD = ("a raw op only, whose gradient TF does not register (a tape through it is LookupError); its values "
            f"against TF's kernel: {_WHERE} (ops.rnn-block)")
_GRAD = ("a raw op only, differentiated by TF's rnn_grad._block_lstm_grad (the BlockLSTMGrad kernel, V1's for V2 "
         f"too); its values and its gradient's under a tape against TF's kernels: {_WHERE} (ops.rnn-block)")
UNTESTED_OPS: dict[str, str] = {
    "LSTMBlockCell": _NO_GRAD,
    "LSTMBlockCellGrad": _NO_GRAD,
    "BlockLSTM": _GRAD,
    "BlockLSTMV2": _GRAD,
    "BlockLSTMGrad": _NO_GRAD,
    "BlockLSTMGradV2": _NO_GRAD,
    "GRUBlockCell": _NO_GRAD,
    "GRUBlockCellGrad": _NO_GRAD,
    "AudioSpectrogram": _NO_GRAD.replace("ops.rnn-block", "ops.audio-features"),
    "Mfcc": _NO_GRAD.replace("ops.rnn-block", "ops.audio-features"),
    "Fact": f"a raw op only, of no inputs (its constant string against TF's: {_WHERE}, ops.raw-ops)",
    "SparseBincount": f"a raw op only, whose gradient TF does not register (a tape: LookupError); against TF's "
                      f"kernel: {_WHERE} (ops.raw-ops)",
    "ShardedFilename": f"a raw op only, of string output, whose gradient TF does not register; against TF's kernel: "
                       f"{_WHERE} (ops.raw-ops)",
    "ShardedFilespec": f"a raw op only, of string output, whose gradient TF does not register; against TF's kernel: "
                       f"{_WHERE} (ops.raw-ops)",
}
