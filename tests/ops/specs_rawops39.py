"""The op table's entries for the ops the thirty-ninth session added (clause io.image-codecs): DecodeGif, a raw op
and tf.io.decode_gif, compared with TF 2.21 in tests/ops/test_rawops39_tf.py. (The function-calling raw ops are
compositions, not registered op types: no entry.)"""

import simdist.tf  # noqa: F401 - registers the ops below

UNTESTED_OPS: dict[str, str] = {
    "DecodeGif": ("a decoder of string contents to uint8 frames: TF registers no gradient and a uint8 output is not "
                  "trainable, so no tape records it (simdist declares it not differentiable, as its other "
                  "decoders); against TF's kernel: tests/ops/test_rawops39_tf.py (io.image-codecs)"),
}
