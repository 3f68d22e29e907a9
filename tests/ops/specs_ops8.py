"""Op types of issue 29's eleventh-session batch (ops8) that the op table (op_specs.py: real-valued
matrices, finite differences) does not exercise; each is compared with TF 2.21 in a golden-backed
module of its own (tests/ops/test_ops8_*_tf.py). Kept out of op_specs.AREAS (that table's golden is
stamped with every area module)."""

from __future__ import annotations

_CTC = ("a CTC decoder (SparseTensor parts from a sequential search, not differentiable): paths, log probabilities, "
        "dtypes and errors against TF 2.21 in tests/ops/test_ops8_ctc_tf.py")

_POOL = ("a fractional pool or its gradient (windows drawn from TF's Philox seeds per call): sequences, values, dtypes, "
         "errors and both gradients against TF 2.21 in tests/ops/test_ops8_pool_tf.py")

UNTESTED_OPS: dict[str, str] = {
    **{op: _POOL for op in ("FractionalMaxPool", "FractionalAvgPool", "FractionalMaxPoolGrad",
                            "FractionalAvgPoolGrad")},
    "Fingerprint": "FarmHash64 of each row's bytes (uint8 output, not differentiable): bytes and errors against TF "
                   "2.21 in tests/ops/test_ops8_fingerprint_tf.py",
    "StringToHashBucketFast": "(klayer2) tf.strings.to_hash_bucket_fast: Fingerprint64 of strings modulo the buckets "
                              "(int64, not differentiable): against tf.fingerprint in "
                              "simdist/conformance/suite/test_keras_layers_more2.py, on both backends",
    "LookupTableFindV2": "(klayer3) a hash table's find (keys in, the table's values or the default out; int64, "
                         "float and string values, not differentiable): against TF 2.21 in "
                         "tests/keras/test_klayer3_tf.py and simdist/conformance/suite/test_keras_lookup.py",
    "SparseCross": "(klayer3) tf.sparse.cross_hashed's kernel (FingerprintCat64 of FarmHash / int64 features, int64, "
                   "not differentiable): against TF 2.21 in tests/keras/test_klayer3_tf.py",
    "CTCGreedyDecoder": _CTC,
    **{op: "sample_distorted_bounding_box's kernels (integer sizes, boxes and seeds in, a crop out; not "
           "differentiable): crops and errors against TF 2.21 in tests/ops/test_ops8_image_tf.py"
       for op in ("SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox")},
    "MatrixLogarithm": "tf.linalg.logm's op (complex only, no gradient in TF): values and errors against TF 2.21 "
                       "in tests/ops/test_ops8_linalg_tf.py",
    "CTCLoss": "ctc_loss's kernel for SparseTensor labels (three label tensors, its own gradient output): losses, "
               "gradients and errors against TF 2.21 in tests/ops/test_ops8_ctc_loss_tf.py",
    "PreventGradient": "an identity whose gradient raises LookupError (ctc_loss's second derivative): in "
                       "tests/ops/test_ops8_ctc_loss_tf.py",
    "CTCBeamSearchDecoder": _CTC,
}
