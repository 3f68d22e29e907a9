"""The klayer3 layers and tf.lookup on simdist vs TF 2.21 + Keras 3.15: tf.lookup's StaticHashTable,
KeyValueTensorInitializer, TextFileInitializer and experimental.MutableHashTable (lookups, dtypes,
sizes, sparse keys, tf.function, the errors TF raises); StringLookup and IntegerLookup (given and
adapted vocabularies, OOV indices by floormod and FarmHash, masks, invert, every output mode, tf_idf
weights, get_vocabulary, config round trips, the errors Keras raises, symbolic calls, a tf.data map,
and a fit of IntegerLookup -> Embedding); tf.sparse.cross_hashed and HashedCrossing; the adaptive
pooling layers (1-3D, both data formats, shrinking and growing, gradients, configs, a fit); StackedRNNCells
(RNN of a list of cells: values, masks, initial and returned nested states, stateful, gradients, configs,
a fit with dropout); GroupQueryAttention (both attention paths, masks, causal and sliding windows, gate,
dropout, configs, gradients, a fit); SpectralNormalization (Dense, Conv2D, Embedding kernels, training
and inference, power iterations, a fit); ReversibleEmbedding (tied and untied reverse projections, soft cap,
reverse dtype, masks, gradients, a fit); keras.layers.serialize/deserialize, the initializer class names
IdentityInitializer/OrthogonalInitializer, Model.to_json, keras.models.model_from_json and
keras.utils.serialize_keras_object/deserialize_keras_object; ConvLSTM1D/2D/3D
(formats, strides, dilation, masks, states, dropout, gradients, configs, a fit). Values are integers or few float operations: each must
equal TF's answer (floats to 1e-6; the weights after a few SGD steps of a fit to 1e-5). Clauses ops.lookup, keras.layer.lookup, keras.layer.hashed-crossing,
keras.layer.adaptive-pooling, keras.layer.stacked-rnn-cells,
keras.layer.group-query-attention, keras.layer.spectral-normalization,
keras.layer.reversible-embedding, keras.saving.json-and-serialize,
keras.layer.conv-lstm. Its golden
(tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

VOC = ["a", "b", "c", "d"]
IVOC = [12, 36, 1138, 42]
S2 = [["a", "c", "d"], ["d", "z", "b"]]
I2 = [[12, 1138, 42], [42, 1000, 36]]


def _tables(c: dict[str, Callable[[Any], Any]]) -> None:
    def table(tf: Any, key_dtype: Any = None, value_dtype: Any = None) -> Any:
        init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3], key_dtype=key_dtype,
                                                   value_dtype=value_dtype)
        return tf.lookup.StaticHashTable(init, -1)
    c["table/lookup"] = lambda tf: table(tf, tf.string, tf.int64).lookup(tf.constant([["a", "z"], ["c", "b"]]))
    c["table/default_int32"] = lambda tf: table(tf).lookup(tf.constant(["b", "q"]))
    c["table/getitem"] = lambda tf: table(tf)[tf.constant(["c"])]
    c["table/scalar_key"] = lambda tf: table(tf).lookup(tf.constant("a"))
    c["table/size"] = lambda tf: table(tf).size()
    c["table/export_sorted"] = lambda tf: sorted(zip(*(x.numpy().tolist() for x in table(tf).export())))
    c["table/dtypes"] = lambda tf: [str(table(tf).key_dtype), str(table(tf).value_dtype), table(tf).default_value]
    c["table/float_values"] = lambda tf: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer([1, 2, 3], [1.5, 2.5, 3.5], key_dtype=tf.int64, value_dtype=tf.float64),
        0).lookup(tf.constant([[1, 5], [3, 3]], tf.int64))
    c["table/init_dtypes"] = lambda tf: [str(d) for d in (
        tf.lookup.KeyValueTensorInitializer([1, 2], [1.5, 2.5]).key_dtype,
        tf.lookup.KeyValueTensorInitializer([1, 2], [1.5, 2.5]).value_dtype)]
    c["table/sparse_keys"] = lambda tf: table(tf).lookup(tf.SparseTensor([[0, 1], [2, 0]], ["c", "x"], [3, 2])).values
    c["table/in_function"] = lambda tf: tf.function(lambda x, t=table(tf): t.lookup(x))(tf.constant(["c", "a", "?"]))
    c["table/duplicate_same_value"] = lambda tf: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 1]), 0).size()
    c["table/err_key_dtype"] = lambda tf: table(tf).lookup(tf.constant([1, 2]))
    c["table/err_list_keys"] = lambda tf: table(tf).lookup(["a"])
    c["table/err_duplicate"] = lambda tf: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    c["table/err_lengths"] = lambda tf: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b"], [1]), -1)
    c["table/err_default"] = lambda tf: tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a"], [1]), "x")

    def text_file(tf: Any) -> Any:
        import tempfile
        d = tempfile.mkdtemp()
        path = os.path.join(d, "vocab.txt")
        with open(path, "w") as f:
            f.write("emerson\nlake\npalmer\n")
        init = tf.lookup.TextFileInitializer(path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                             tf.lookup.TextFileIndex.LINE_NUMBER, value_index_offset=2)
        return tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["lake", "x", "emerson", "palmer"]))
    c["table/text_file"] = text_file

    def mutable(tf: Any) -> list:
        m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)
        m.insert(tf.constant(["x", "y"]), tf.constant([3, 4], tf.int64))
        out = [m.lookup(tf.constant(["x", "q"])), m.size()]
        m.insert(tf.constant(["x", "w"]), tf.constant([9, 1], tf.int64))
        out.append(sorted(zip(*(v.numpy().tolist() for v in m.export()))))
        m.remove(tf.constant(["x", "nope"]))
        out += [sorted(zip(*(v.numpy().tolist() for v in m.export()))), m.size(), m.lookup([["y", "x"]])]
        return out
    c["mutable/insert_lookup_remove"] = mutable
    c["mutable/int_float"] = lambda tf: (lambda m: (m.insert([1, 2], [1.0, 2.0]), m.lookup([2, 3]))[1])(
        tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, -1.0))
    c["mutable/err_shape"] = lambda tf: tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0).insert(
        tf.constant(["x"]), tf.constant([9, 1], tf.int64))
    c["mutable/err_value_dtype"] = lambda tf: tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0).insert(
        ["x"], [9.5])
    c["mutable/err_remove_dtype"] = lambda tf: tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0).remove(
        tf.constant([1]))


def _string_lookup(c: dict[str, Callable[[Any], Any]]) -> None:
    def sl(**kw: Any) -> Callable[[Any], Any]:
        return lambda tf: tf.keras.layers.StringLookup(**kw)
    c["sl/int"] = lambda tf: sl(vocabulary=VOC)(tf)(tf.constant(S2))
    c["sl/oov2"] = lambda tf: sl(vocabulary=VOC, num_oov_indices=2)(tf)(tf.constant([["a", "q", "d"], ["d", "z", "b"]]))
    c["sl/oov5_hash"] = lambda tf: sl(vocabulary=VOC, num_oov_indices=5)(tf)(
        tf.constant(["x", "yy", "zzz", "hello", "world", "a", "[UNK]"]))
    c["sl/mask"] = lambda tf: sl(vocabulary=VOC, mask_token="")(tf)(tf.constant([["a", "", "d"], ["d", "z", "b"]]))
    c["sl/mask_multi_hot"] = lambda tf: sl(vocabulary=VOC, mask_token="", output_mode="multi_hot")(tf)(
        tf.constant([["a", "", "d"], ["", "z", "b"]]))
    c["sl/one_hot"] = lambda tf: sl(vocabulary=VOC, output_mode="one_hot")(tf)(tf.constant(["a", "z", "d"]))
    c["sl/one_hot_col"] = lambda tf: sl(vocabulary=VOC, output_mode="one_hot")(tf)(tf.constant([["a"], ["z"], ["d"]]))
    c["sl/multi_hot"] = lambda tf: sl(vocabulary=VOC, output_mode="multi_hot")(tf)(tf.constant(S2))
    c["sl/binary"] = lambda tf: sl(vocabulary=VOC, output_mode="binary")(tf)(tf.constant(S2))
    c["sl/count_padded"] = lambda tf: sl(vocabulary=VOC, output_mode="count", pad_to_max_tokens=True, max_tokens=8)(tf)(
        tf.constant([["a", "a", "d"], ["d", "z", "z"]]))
    c["sl/tf_idf"] = lambda tf: sl(vocabulary=VOC, output_mode="tf_idf", idf_weights=[0.25, 0.75, 0.6, 0.4])(tf)(
        tf.constant([["a", "a", "d"], ["d", "z", "z"]]))
    c["sl/tf_idf_special"] = lambda tf: sl(vocabulary=["[UNK]"] + VOC, output_mode="tf_idf",
                                           idf_weights=[0.1, 0.25, 0.75, 0.6, 0.4])(tf)(tf.constant([["a", "q", "d"]]))
    c["sl/invert"] = lambda tf: sl(vocabulary=VOC, invert=True)(tf)(tf.constant([[1, 3, 4], [0, 9, 2]]))
    c["sl/invert_mask"] = lambda tf: sl(vocabulary=VOC, invert=True, mask_token="[M]")(tf)(tf.constant([0, 1, 2, 5, 7]))
    c["sl/special_tokens_given"] = lambda tf: sl(vocabulary=["", "[UNK]"] + VOC, mask_token="")(tf)(
        tf.constant(["", "b", "q"]))
    c["sl/scalar"] = lambda tf: sl(vocabulary=VOC)(tf)("b")
    c["sl/list"] = lambda tf: sl(vocabulary=VOC)(tf)(["b", "x"])
    c["sl/ndarray"] = lambda tf: sl(vocabulary=np.array(VOC))(tf)(np.array([["d", "c"]]))
    c["sl/tensor_vocab"] = lambda tf: sl(vocabulary=tf.constant(VOC))(tf)(tf.constant(["c"]))
    c["sl/sparse"] = lambda tf: sl(vocabulary=VOC)(tf)(tf.SparseTensor([[0, 0], [1, 2]], ["b", "q"], [2, 3])).values
    c["sl/vocabulary"] = lambda tf: [sl(vocabulary=VOC, mask_token="[M]")(tf).get_vocabulary(),
                                     sl(vocabulary=VOC)(tf).get_vocabulary(include_special_tokens=False),
                                     sl(vocabulary=VOC, num_oov_indices=3)(tf).vocabulary_size(),
                                     sl(vocabulary=VOC, mask_token="", output_mode="count")(tf).get_vocabulary()]

    def set_vocab(tf: Any) -> list:
        layer = tf.keras.layers.StringLookup()
        out = [layer.vocabulary_size()]
        layer.set_vocabulary(["x", "y"])
        return out + [layer.get_vocabulary(), layer(tf.constant(["y", "a"]))]
    c["sl/set_vocabulary"] = set_vocab

    def vocab_file(tf: Any) -> list:
        import tempfile
        path = os.path.join(tempfile.mkdtemp(), "v.txt")
        with open(path, "w") as f:
            f.write("\n".join(VOC) + "\n")
        layer = tf.keras.layers.StringLookup(vocabulary=path)
        inv = tf.keras.layers.StringLookup(vocabulary=path, invert=True)
        return [layer(tf.constant(["d", "a", "?"])), layer.get_vocabulary(), inv(tf.constant([4, 0, 1]))]
    c["sl/vocab_file"] = vocab_file

    def adapt(data: Any, **kw: Any) -> Callable[[Any], Any]:
        def f(tf: Any) -> list:
            layer = tf.keras.layers.StringLookup(**kw)
            layer.adapt(data(tf) if callable(data) else data)
            out = [layer.get_vocabulary(), layer.vocabulary_size()]
            if layer.output_mode == "tf_idf":
                out.append(layer.idf_weights)
            return out + [layer(tf.constant([["c", "b", "a"], ["y", "q", "e"]]))]
        return f
    A = [["a", "b", "b"], ["c", "c", "c"], ["d", "e", "a"], ["b", "z", "y"]]
    c["sl/adapt_ndarray"] = adapt(np.array(A))
    c["sl/adapt_max_tokens"] = adapt(np.array(A), max_tokens=5)
    c["sl/adapt_list_1d"] = adapt(["q", "e", "e", "q", "a"])
    c["sl/adapt_mask_oov_dropped"] = adapt(np.array([["", "[UNK]", "a"], ["", "a", "b"]]), mask_token="")
    c["sl/adapt_dataset"] = adapt(lambda tf: tf.data.Dataset.from_tensor_slices(A).batch(3))
    c["sl/adapt_dataset_steps"] = lambda tf: (lambda layer: (layer.adapt(
        tf.data.Dataset.from_tensor_slices(A).batch(1).repeat(), steps=2), layer.get_vocabulary())[1])(
        tf.keras.layers.StringLookup())
    c["sl/adapt_tf_idf"] = adapt(lambda tf: tf.data.Dataset.from_tensor_slices(A).batch(2), output_mode="tf_idf")
    c["sl/adapt_tf_idf_padded"] = adapt(np.array(A), output_mode="tf_idf", max_tokens=10, pad_to_max_tokens=True)
    c["sl/adapt_count"] = adapt(np.array(A), output_mode="count", num_oov_indices=2)

    def readapt(tf: Any) -> list:
        layer = tf.keras.layers.StringLookup()
        layer.adapt(["a", "b", "b"])
        first = layer.get_vocabulary()
        layer.adapt(["c"])
        return [first, layer.get_vocabulary()]
    c["sl/adapt_twice"] = readapt

    def config(tf: Any) -> list:
        layer = tf.keras.layers.StringLookup(vocabulary=VOC, mask_token="[M]", num_oov_indices=2, name="sl")
        cfg = layer.get_config()
        again = tf.keras.layers.StringLookup.from_config(cfg)
        return [sorted(cfg.items(), key=str), again.get_vocabulary(), again(tf.constant(["a", "[M]", "x"])),
                sorted(again.get_config().items(), key=str) == sorted(cfg.items(), key=str)]
    c["sl/config"] = config

    def adapted_config(tf: Any) -> list:
        layer = tf.keras.layers.StringLookup(output_mode="count", name="sc")
        layer.adapt(["a", "b", "b"])
        layer(tf.constant([["a"]]))
        return sorted(layer.get_config().items(), key=str)
    c["sl/adapted_config"] = adapted_config
    c["sl/symbolic"] = lambda tf: [(tuple(x.shape), x.dtype) for x in (
        sl(vocabulary=VOC)(tf)(tf.keras.Input(shape=(3,), dtype="string")),
        sl(vocabulary=VOC, output_mode="multi_hot")(tf)(tf.keras.Input(shape=(3,), dtype="string")),
        sl(vocabulary=VOC, output_mode="one_hot")(tf)(tf.keras.Input(shape=(1,), dtype="string")))]

    def model(tf: Any) -> Any:
        inp = tf.keras.Input(shape=(3,), dtype="string")
        out = tf.keras.layers.StringLookup(vocabulary=VOC, output_mode="count")(inp)
        m = tf.keras.Model(inp, out)
        return [m.predict(tf.constant(S2), verbose=0), m(tf.constant(S2))]
    c["sl/model_predict"] = model

    def model_numpy_strings(tf: Any) -> Any:
        inp = tf.keras.Input(shape=(3,), dtype="string")
        return tf.keras.Model(inp, tf.keras.layers.StringLookup(vocabulary=VOC)(inp)).predict(np.array(S2), verbose=0)
    c["sl/err_model_predict_numpy_strings"] = model_numpy_strings

    def data_map(tf: Any) -> list:
        layer = tf.keras.layers.StringLookup(vocabulary=VOC)
        ds = tf.data.Dataset.from_tensor_slices(S2).map(layer)
        return [x.numpy().tolist() for x in ds]
    c["sl/dataset_map"] = data_map
    c["sl/in_function"] = lambda tf: tf.function(lambda x, layer=sl(vocabulary=VOC, num_oov_indices=3)(tf): layer(x))(
        tf.constant(S2))

    c["sl/err_oov0"] = lambda tf: sl(vocabulary=VOC, num_oov_indices=0)(tf)(tf.constant([["a", "zz", "d"]]))
    c["sl/oov0_ok"] = lambda tf: sl(vocabulary=VOC, num_oov_indices=0)(tf)(tf.constant([["a", "b", "d"]]))
    c["sl/err_repeated"] = sl(vocabulary=["a", "b", "a"])
    c["sl/err_mask_in_vocab"] = sl(vocabulary=["a", "[M]"], mask_token="[M]")
    c["sl/err_oov_in_vocab_invert"] = sl(vocabulary=["a", "[UNK]"], invert=True)
    c["sl/oov_in_vocab_ok"] = lambda tf: sl(vocabulary=["a", "[UNK]"])(tf)(tf.constant(["[UNK]", "a"]))
    c["sl/err_too_many"] = sl(vocabulary=VOC, max_tokens=3)
    c["sl/err_unset_vocab"] = lambda tf: sl(output_mode="one_hot")(tf)(tf.constant(["a"]))
    c["sl/unset_vocab_int"] = lambda tf: sl()(tf)(tf.constant(["a", "b"]))
    c["sl/err_output_mode"] = sl(output_mode="bogus")
    c["sl/err_invert_mode"] = sl(invert=True, output_mode="count")
    c["sl/err_adapt_static"] = lambda tf: sl(vocabulary=VOC)(tf).adapt(["a"])
    c["sl/err_max_tokens"] = sl(max_tokens=1)
    c["sl/err_pad_no_max"] = sl(pad_to_max_tokens=True)
    c["sl/err_neg_oov"] = sl(num_oov_indices=-1)
    c["sl/err_sparse_int"] = sl(sparse=True)
    c["sl/err_idf_mode"] = sl(vocabulary=VOC, idf_weights=[1.0, 1.0, 1.0, 1.0])
    c["sl/err_tf_idf_no_weights"] = sl(vocabulary=VOC, output_mode="tf_idf")
    c["sl/err_idf_length"] = sl(vocabulary=VOC, output_mode="tf_idf", idf_weights=[1.0, 2.0])
    c["sl/err_empty"] = sl(vocabulary=[])
    c["sl/err_oov_method"] = sl(oov_method="md5")
    c["sl/err_missing_file"] = sl(vocabulary="/nonexistent/simdist/vocab.txt")
    c["sl/err_kwarg"] = sl(vocabulary=VOC, bogus=1)
    c["sl/err_int_input"] = lambda tf: sl(vocabulary=VOC)(tf)(tf.constant([1, 2]))


def _integer_lookup(c: dict[str, Callable[[Any], Any]]) -> None:
    def il(**kw: Any) -> Callable[[Any], Any]:
        return lambda tf: tf.keras.layers.IntegerLookup(**kw)
    c["il/int"] = lambda tf: il(vocabulary=IVOC)(tf)(tf.constant(I2))
    c["il/int32_input"] = lambda tf: il(vocabulary=IVOC)(tf)(tf.constant(I2, tf.int32))
    c["il/floormod3"] = lambda tf: il(vocabulary=IVOC, num_oov_indices=3)(tf)(tf.constant([[12, 1001, 42], [42, 1000, -7]]))
    c["il/farmhash3"] = lambda tf: il(vocabulary=IVOC, num_oov_indices=3, oov_method="farmhash")(tf)(
        tf.constant([[12, 1001, 42], [42, 1000, -7]]))
    c["il/mask"] = lambda tf: il(vocabulary=IVOC, mask_token=0)(tf)(tf.constant([[12, 0, 42], [42, 1000, 36]]))
    c["il/mask_multi_hot"] = lambda tf: il(vocabulary=IVOC, mask_token=0, output_mode="multi_hot")(tf)(
        tf.constant([[12, 0, 42], [42, 1000, 36]]))
    c["il/one_hot"] = lambda tf: il(vocabulary=IVOC, output_mode="one_hot")(tf)(tf.constant([12, 7, 42]))
    c["il/count"] = lambda tf: il(vocabulary=IVOC, output_mode="count")(tf)(tf.constant([[12, 12, 7], [7, 7, 42]]))
    c["il/tf_idf"] = lambda tf: il(vocabulary=IVOC, output_mode="tf_idf", idf_weights=[0.5, 0.25, 1.0, 2.0])(tf)(
        tf.constant([[12, 12, 7], [7, 7, 42]]))
    c["il/invert"] = lambda tf: il(vocabulary=IVOC, invert=True)(tf)(tf.constant([[1, 2, 0], [5, 4, 3]]))
    c["il/invert_mask"] = lambda tf: il(vocabulary=IVOC, invert=True, mask_token=0)(tf)(tf.constant([[1, 2, 0], [5, 4, 3]]))
    c["il/ndarray"] = lambda tf: il(vocabulary=np.array(IVOC))(tf)(np.array([36, 35]))
    c["il/vocabulary"] = lambda tf: [il(vocabulary=IVOC, mask_token=0)(tf).get_vocabulary(),
                                     il(vocabulary=IVOC, num_oov_indices=2)(tf).get_vocabulary()]

    def adapt(tf: Any) -> list:
        layer = tf.keras.layers.IntegerLookup()
        layer.adapt([[12, 1138, 42], [42, 1000, 36], [36, 42, 7]])
        return [layer.get_vocabulary(), layer(tf.constant([42, 36, 99])), sorted(layer.get_config().items(), key=str)]
    c["il/adapt"] = adapt

    def adapt_mask(tf: Any) -> list:
        layer = tf.keras.layers.IntegerLookup(mask_token=0, max_tokens=4)
        layer.adapt(tf.constant([[0, 5, 5], [0, -1, 7], [9, 9, 9]]))
        return [layer.get_vocabulary(), layer(tf.constant([[0, 5, 9, 7, 3]]))]
    c["il/adapt_mask_max"] = adapt_mask
    c["il/config"] = lambda tf: (lambda cfg: [sorted(cfg.items(), key=str), tf.keras.layers.IntegerLookup.from_config(
        cfg)(tf.constant([5, 0, 4]))])(tf.keras.layers.IntegerLookup(vocabulary=np.array([3, 5]), mask_token=0,
                                                                   name="il").get_config())
    c["il/err_vocab_dtype"] = il(vocabulary_dtype="int32")
    c["il/err_neg_oov"] = il(num_oov_indices=-1)
    c["il/err_max_tokens"] = il(max_tokens=0)
    c["il/err_salt_floormod"] = il(salt=3)
    c["il/err_string_input"] = lambda tf: il(vocabulary=IVOC)(tf)(tf.constant(["12"]))

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(7)
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,), dtype="int64"),
                                     tf.keras.layers.IntegerLookup(vocabulary=IVOC, mask_token=0),
                                     tf.keras.layers.Embedding(6, 2, mask_zero=True),
                                     tf.keras.layers.GlobalAveragePooling1D(),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        x = np.array([[12, 36, 0], [1138, 42, 42], [7, 12, 0], [36, 36, 36]], np.int64)
        y = np.array([[1.0], [0.0], [0.5], [2.0]], np.float32)
        hist = model.fit(x, y, epochs=3, batch_size=2, verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c["il/fit_embedding"] = fit


def _first_line(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The error class and the message's first sentence (Keras prints the received inputs after it,
    as TF converted them)."""
    def run(tf: Any) -> Any:
        try:
            return f(tf)
        except Exception as e:  # noqa: BLE001 - the error class and message are the result compared
            msg = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
            return ["raised", type(e).__name__, msg.split("Received")[0]]
    return run


def _crossing(c: dict[str, Callable[[Any], Any]]) -> None:
    def cross(tf: Any, inputs: list, **kw: Any) -> list:
        r = tf.sparse.cross_hashed(inputs, **kw)
        return [r.indices, r.values, r.dense_shape]
    c["cross/dense_buckets"] = lambda tf: cross(tf, [tf.constant([["a"], ["b"]]), tf.constant([[1], [2]])],
                                                num_buckets=10)
    c["cross/dense_unbucketed"] = lambda tf: cross(tf, [tf.constant([["a", "x"], ["b", "y"]]),
                                                        tf.constant([[1, 5, 6], [2, 7, 8]])])
    c["cross/sparse_int32_key"] = lambda tf: cross(tf, [tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["q", "r", "s"],
                                                                        [2, 2]), tf.constant([[-3], [2]], tf.int32)],
                                                   num_buckets=1000, hash_key=123)
    c["cross/float_cast"] = lambda tf: cross(tf, [tf.constant([[1.0]]), tf.constant([[1]])])
    c["cross/three"] = lambda tf: cross(tf, [tf.constant([["a"], ["b"]]), tf.constant([[4], [5]], tf.int64),
                                             tf.constant([["x"], ["y"]])], num_buckets=3)
    H = "hc/"
    c[H + "int"] = lambda tf: tf.keras.layers.HashedCrossing(5)((tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3])))
    c[H + "one_hot"] = lambda tf: tf.keras.layers.HashedCrossing(5, output_mode="one_hot")(
        (tf.constant([["a"], ["b"]]), tf.constant([[1], [2]])))
    c[H + "scalars"] = lambda tf: tf.keras.layers.HashedCrossing(7)((tf.constant("a"), tf.constant(4)))
    c[H + "three_ndarrays"] = lambda tf: tf.keras.layers.HashedCrossing(7)(
        [np.array(["a", "b"]), np.array([4, 5]), np.array(["x", "y"])])
    c[H + "config"] = lambda tf: (lambda cfg: [sorted(cfg.items(), key=str), tf.keras.layers.HashedCrossing.from_config(
        cfg)((tf.constant([3, 4]), tf.constant([5, 6])))])(tf.keras.layers.HashedCrossing(9, name="hc").get_config())
    c[H + "symbolic"] = lambda tf: [tuple(tf.keras.layers.HashedCrossing(7, output_mode="one_hot")(
        [tf.keras.Input(shape=(1,), dtype="int64"), tf.keras.Input(shape=(1,), dtype="string")]).shape)]

    def model(tf: Any) -> Any:
        a, b = tf.keras.Input(shape=(1,), dtype="int64"), tf.keras.Input(shape=(1,), dtype="string")
        out = tf.keras.layers.HashedCrossing(6, output_mode="one_hot")([a, b])
        return tf.keras.Model([a, b], out).predict([tf.constant([[1], [2], [3]], tf.int64),
                                                    tf.constant([["u"], ["v"], ["u"]])], verbose=0)
    c[H + "model_predict"] = model
    c[H + "err_not_list"] = _first_line(lambda tf: tf.keras.layers.HashedCrossing(7)(tf.constant([1])))
    c[H + "err_one_input"] = _first_line(lambda tf: tf.keras.layers.HashedCrossing(7)([tf.constant([1])]))
    c[H + "err_shape"] = _first_line(lambda tf: tf.keras.layers.HashedCrossing(7)([tf.constant([[1, 2]]),
                                                                                  tf.constant([[1, 2]])]))
    c[H + "err_float"] = _first_line(lambda tf: tf.keras.layers.HashedCrossing(7)([tf.constant([1.0]),
                                                                                  tf.constant([1])]))
    c[H + "err_unequal"] = _first_line(lambda tf: tf.keras.layers.HashedCrossing(7)([tf.constant([1, 2]),
                                                                                    tf.constant([1])]))
    c[H + "err_output_mode"] = lambda tf: tf.keras.layers.HashedCrossing(7, output_mode="count")


def _adaptive_pooling(c: dict[str, Callable[[Any], Any]]) -> None:
    x1 = portable_inputs.power(np.arange(2 * 7 * 3, dtype="float32").reshape(2, 7, 3), np.float32(1.3)) % 5
    x2 = portable_inputs.power(np.arange(2 * 7 * 5 * 3, dtype="float32").reshape(2, 7, 5, 3), np.float32(1.1)) % 7
    x3 = portable_inputs.power(np.arange(5 * 6 * 7 * 2, dtype="float32").reshape(1, 5, 6, 7, 2), np.float32(1.2)) % 9
    P = "ap/"
    for kind in ("Average", "Max"):
        for rank, x, sizes in ((1, x1, (3, 2, 7, 9)), (2, x2, ((3, 2), 3, (7, 5), (9, 6), (1, 1))),
                               (3, x3, ((2, 3, 4), 2, (5, 6, 7)))):
            name = f"Adaptive{kind}Pooling{rank}D"
            for size in sizes:
                if kind == "Max" and size == (1, 1):
                    continue   # (TF 2.21 dies of SIGFPE here: its 'big' max pool of window 6 over 5 is empty)
                for fmt in ("channels_last", "channels_first"):
                    c[f"{P}{name}/{size}/{fmt}"] = (lambda tf, n=name, sz=size, f=fmt, v=x:
                                                    getattr(tf.keras.layers, n)(sz, data_format=f)(v))

            def grad(tf: Any, n: str = name, v: np.ndarray = x, sz: Any = sizes[0]) -> Any:
                var = tf.Variable(v)
                layer = getattr(tf.keras.layers, n)(sz)
                with tf.GradientTape() as tape:
                    y = layer(var)
                    y = tf.reduce_sum(y * np.arange(int(np.prod(y.shape)), dtype="float32").reshape(y.shape))
                return tape.gradient(y, var)
            c[f"{P}{name}/gradient"] = grad
            c[f"{P}{name}/config"] = (lambda tf, n=name, sz=sizes[0]: (lambda cfg: [
                sorted(cfg.items(), key=str), sorted(getattr(tf.keras.layers, n).from_config(cfg).get_config().items(),
                                                     key=str)])(getattr(tf.keras.layers, n)(sz, name="p").get_config()))
            c[f"{P}{name}/symbolic"] = (lambda tf, n=name, sz=sizes[0], v=x: [tuple(getattr(tf.keras.layers, n)(sz)(
                tf.keras.Input(shape=v.shape[1:])).shape)])
    c[P + "ops_default_format"] = lambda tf: [tf.keras.ops.adaptive_average_pool(tf.constant(x2), (3, 2)),
                                              tf.keras.ops.adaptive_max_pool(tf.constant(x2), 4)]
    c[P + "ops_ndarray"] = lambda tf: tf.keras.ops.adaptive_average_pool(x2, (3, 2))   # (Keras reads .shape.as_list())
    c[P + "float64"] = lambda tf: tf.keras.layers.AdaptiveMaxPooling2D(2, dtype="float64")(x2.astype("float64"))
    c[P + "err_1d_tuple"] = lambda tf: tf.keras.layers.AdaptiveAveragePooling1D((1, 2))
    c[P + "err_1d_type"] = lambda tf: tf.keras.layers.AdaptiveMaxPooling1D("3")
    c[P + "err_2d_tuple"] = lambda tf: tf.keras.layers.AdaptiveAveragePooling2D((1, 2, 3))
    c[P + "err_3d_type"] = lambda tf: tf.keras.layers.AdaptiveMaxPooling3D("a")
    c[P + "err_data_format"] = lambda tf: tf.keras.layers.AdaptiveAveragePooling2D(2, data_format="nhwc")

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(11)
        model = tf.keras.Sequential([tf.keras.Input(shape=(7, 5, 3)), tf.keras.layers.Conv2D(4, 2),
                                     tf.keras.layers.AdaptiveMaxPooling2D((4, 3)),
                                     tf.keras.layers.AdaptiveAveragePooling2D(2), tf.keras.layers.Flatten(),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        y = np.array([[1.0], [-1.0]], np.float32)
        hist = model.fit(x2 / 7, y, epochs=3, batch_size=1, verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[P + "fit"] = fit


def _stacked(c: dict[str, Callable[[Any], Any]]) -> None:
    x = (np.arange(2 * 5 * 3, dtype="float32").reshape(2, 5, 3) % 7) / 7 - 0.4
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)

    def cells(tf: Any, seed: int = 1) -> list:
        tf.keras.utils.set_random_seed(seed)
        L = tf.keras.layers
        return [L.LSTMCell(4), L.GRUCell(3), L.SimpleRNNCell(2)]
    S = "st/"
    c[S + "list"] = lambda tf: tf.keras.layers.RNN(cells(tf))(x)
    c[S + "sequences_states"] = lambda tf: list(tf.keras.layers.RNN(
        tf.keras.layers.StackedRNNCells(cells(tf)), return_sequences=True, return_state=True)(x))
    c[S + "backwards_mask"] = lambda tf: tf.keras.layers.RNN(cells(tf), go_backwards=True)(x, mask=mask)
    c[S + "zero_output_mask"] = lambda tf: tf.keras.layers.RNN(cells(tf), return_sequences=True,
                                                               zero_output_for_mask=True)(x, mask=mask)
    c[S + "sizes"] = lambda tf: (lambda st: [st.state_size, st.output_size])(tf.keras.layers.StackedRNNCells(cells(tf)))
    c[S + "initial_state"] = lambda tf: tf.keras.layers.RNN(cells(tf))(
        x, initial_state=[[tf.ones((2, 4)), tf.zeros((2, 4))], tf.ones((2, 3)) * 0.5, tf.ones((2, 2))])
    c[S + "weights"] = lambda tf: (lambda layer: (layer(x), [(w.path, w.numpy()) for w in layer.weights])[1])(
        tf.keras.layers.RNN(cells(tf)))
    c[S + "simple_rnn_seeded_weights"] = lambda tf: (lambda layer: (layer(x), [w.numpy() for w in layer.weights])[1])(
        (tf.keras.utils.set_random_seed(5), tf.keras.layers.SimpleRNN(3))[1])

    def config(tf: Any) -> list:
        layer = tf.keras.layers.RNN(cells(tf), return_state=True, name="rnn")
        cfg = layer.get_config()
        text = json.dumps(cfg, sort_keys=True, default=str)   # (Keras's from_config pops entries of nested dicts)
        again = tf.keras.layers.RNN.from_config(dict(cfg))
        layer(x)
        again(x)
        again.set_weights(layer.get_weights())
        return [text,
                [a - b for a, b in zip(tf.nest.flatten(again(x)), tf.nest.flatten(layer(x)))]]
    c[S + "config"] = config

    def grad(tf: Any) -> list:
        layer = tf.keras.layers.RNN(cells(tf))
        v = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.reduce_sum(layer(v) ** 2)
        return tape.gradient(y, [v] + layer.trainable_weights)
    c[S + "gradients"] = grad

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(3)
        L = tf.keras.layers
        model = tf.keras.Sequential([tf.keras.Input((5, 3)), L.RNN([L.LSTMCell(4, dropout=0.2, seed=4), L.GRUCell(3),
                                                                     L.SimpleRNNCell(2, recurrent_dropout=0.3)]),
                                     L.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        hist = model.fit(x, np.array([[0.5], [-0.5]], np.float32), epochs=3, batch_size=1, verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[S + "fit"] = fit

    def stateful(tf: Any) -> list:
        layer = tf.keras.layers.RNN(cells(tf), stateful=True)
        out = [layer(x), layer(x)]
        try:
            layer.reset_state()   # (Keras assigns to each top-level state: a list of states has no assign)
        except AttributeError:
            out.append("reset_state: AttributeError")
        return out
    c[S + "stateful"] = stateful
    c[S + "symbolic"] = lambda tf: [tuple(o.shape) for o in tf.nest.flatten(
        tf.keras.layers.RNN(cells(tf), return_state=True)(tf.keras.Input((5, 3))))]
    c[S + "err_no_state_size"] = lambda tf: tf.keras.layers.StackedRNNCells([tf.keras.layers.Dense(3)])


def _gqa(c: dict[str, Callable[[Any], Any]]) -> None:
    rng = np.random.default_rng(0)
    q = rng.standard_normal((2, 4, 6)).astype("float32")
    v = rng.standard_normal((2, 5, 6)).astype("float32")
    k = rng.standard_normal((2, 5, 6)).astype("float32")

    def mk(tf: Any, **kw: Any) -> Any:
        tf.keras.utils.set_random_seed(2)
        return tf.keras.layers.GroupQueryAttention(head_dim=3, num_query_heads=4, num_key_value_heads=2, **kw)
    G = "gqa/"
    c[G + "plain"] = lambda tf: mk(tf)(q, v)
    c[G + "key"] = lambda tf: mk(tf)(q, v, key=k)
    c[G + "scores"] = lambda tf: list(mk(tf)(q, v, return_attention_scores=True))
    c[G + "causal"] = lambda tf: mk(tf)(q, q, use_causal_mask=True)
    c[G + "causal_scores"] = lambda tf: list(mk(tf)(q, q, use_causal_mask=True, return_attention_scores=True))
    c[G + "sliding_window"] = lambda tf: list(mk(tf, sliding_window=2)(q, q, use_causal_mask=True,
                                                                      return_attention_scores=True))
    c[G + "gate_no_bias_mask"] = lambda tf: mk(tf, use_gate=True, use_bias=False)(
        q, v, attention_mask=np.tril(np.ones((2, 4, 5), bool)))
    c[G + "one_kv_head"] = lambda tf: (tf.keras.utils.set_random_seed(4), tf.keras.layers.GroupQueryAttention(
        2, 6, 1)(q, v))[1]
    c[G + "dropout_training"] = lambda tf: mk(tf, dropout=0.5, seed=3)(q, v, training=True)
    c[G + "dropout_inference"] = lambda tf: mk(tf, dropout=0.5, seed=3)(q, v)

    def masked(tf: Any) -> Any:
        tf.keras.utils.set_random_seed(2)
        e = tf.keras.layers.Embedding(10, 6, mask_zero=True)
        a = e(np.array([[1, 2, 0, 0], [3, 4, 5, 0]]))
        b = e(np.array([[1, 2, 3, 0, 0], [3, 0, 0, 0, 0]]))
        out = mk(tf)(a, b)
        return [out, out._keras_mask]
    c[G + "keras_masks"] = masked
    c[G + "config"] = lambda tf: (lambda cfg: [json.dumps(cfg, sort_keys=True, default=str), json.dumps(
        tf.keras.layers.GroupQueryAttention.from_config(cfg).get_config(), sort_keys=True, default=str)])(
        mk(tf, sliding_window=3, use_gate=True, dropout=0.1, kernel_regularizer="l2", name="gqa").get_config())
    c[G + "weights"] = lambda tf: (lambda layer: (layer(q, v), [(w.path, w.numpy()) for w in layer.weights])[1])(
        mk(tf, use_gate=True))
    c[G + "symbolic"] = lambda tf: [tuple(t.shape) for t in tf.nest.flatten(mk(tf)(
        tf.keras.Input((4, 6)), tf.keras.Input((5, 6)), return_attention_scores=True))]
    c[G + "err_heads"] = lambda tf: tf.keras.layers.GroupQueryAttention(3, 4, 3)
    c[G + "err_window"] = lambda tf: tf.keras.layers.GroupQueryAttention(3, 4, 2, sliding_window=0)
    c[G + "err_feature_dims"] = _first_line(lambda tf: mk(tf)(tf.keras.Input((4, 6)), tf.keras.Input((5, 7))))

    def grad(tf: Any) -> list:
        layer = mk(tf, use_gate=True)
        x = tf.constant(q)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(layer(x, v, use_causal_mask=True) ** 2)
        return tape.gradient(y, [x] + layer.trainable_weights)
    c[G + "gradients"] = grad

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(6)
        inp = tf.keras.Input((4, 6))
        att = tf.keras.layers.GroupQueryAttention(3, 4, 2, dropout=0.1, seed=1)(inp, inp, use_causal_mask=True)
        out = tf.keras.layers.Dense(1)(tf.keras.layers.GlobalAveragePooling1D()(att))
        model = tf.keras.Model(inp, out)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        hist = model.fit(q, np.array([[0.5], [-0.5]], np.float32), epochs=3, batch_size=1, verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[G + "fit"] = fit


def _spectral(c: dict[str, Callable[[Any], Any]]) -> None:
    x = (np.arange(12, dtype="float32").reshape(3, 4) % 5) / 5 - 0.3

    def mk(tf: Any, layer: Any = None, **kw: Any) -> Any:
        tf.keras.utils.set_random_seed(1)
        return tf.keras.layers.SpectralNormalization(layer or tf.keras.layers.Dense(3), **kw)
    N = "sn/"
    c[N + "inference"] = lambda tf: (lambda layer: [layer(x), layer.layer.kernel.value, layer.vector_u.value])(mk(tf))
    c[N + "training"] = lambda tf: (lambda layer: [layer(x, training=True), layer.layer.kernel.value,
                                                   layer.vector_u.value, layer(x, training=True)])(
        mk(tf, power_iterations=3))
    c[N + "conv2d"] = lambda tf: (lambda layer: [layer(x.reshape(1, 3, 4, 1).repeat(2, -1), training=True),
                                                 layer.layer.kernel.value])(mk(tf, tf.keras.layers.Conv2D(2, 2)))
    c[N + "embedding"] = lambda tf: (lambda layer: [layer(np.array([[1, 2]]), training=True),
                                                    layer.layer.embeddings.value])(mk(tf, tf.keras.layers.Embedding(5, 3)))
    c[N + "zero_kernel"] = lambda tf: (lambda layer: [layer(x, training=True), layer.vector_u.value])(
        mk(tf, tf.keras.layers.Dense(3, kernel_initializer="zeros")))
    c[N + "in_function"] = lambda tf: (lambda layer: [tf.function(lambda v: layer(v, training=True))(x),
                                                      layer.layer.kernel.value])(mk(tf))
    c[N + "config"] = lambda tf: (lambda cfg: [cfg["power_iterations"], cfg["layer"]["class_name"], cfg["name"],
                                               type(tf.keras.layers.SpectralNormalization.from_config(cfg).layer).__name__])(
        mk(tf, power_iterations=2, name="sn").get_config())
    c[N + "weights"] = lambda tf: (lambda layer: (layer(x), [(w.path, tuple(w.shape), w.trainable)
                                                             for w in layer.weights])[1])(mk(tf))
    c[N + "err_iterations"] = lambda tf: mk(tf, power_iterations=0)
    c[N + "err_no_kernel"] = lambda tf: mk(tf, tf.keras.layers.Flatten())(x)

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(3)
        L = tf.keras.layers
        model = tf.keras.Sequential([tf.keras.Input((4,)), L.SpectralNormalization(L.Dense(3, activation="relu")),
                                     L.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        hist = model.fit(x, np.array([[1.0], [0.0], [-1.0]], np.float32), epochs=3, batch_size=1, verbose=0,
                         shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[N + "fit"] = fit


def _reversible(c: dict[str, Callable[[Any], Any]]) -> None:
    ids = np.array([[1, 4, 0], [2, 0, 0]])
    h = (np.arange(12, dtype="float32").reshape(2, 2, 3) % 5) / 5 - 0.3

    def mk(tf: Any, **kw: Any) -> Any:
        tf.keras.utils.set_random_seed(1)
        return tf.keras.layers.ReversibleEmbedding(6, 3, **kw)
    R = "re/"
    c[R + "forward"] = lambda tf: mk(tf)(ids)
    c[R + "mask"] = lambda tf: [mk(tf, mask_zero=True)(ids)._keras_mask]
    c[R + "reverse_tied"] = lambda tf: (lambda layer: (layer(ids), layer(h, reverse=True))[1])(mk(tf))
    c[R + "reverse_untied"] = lambda tf: (lambda layer: (layer(ids), [layer(h, reverse=True),
                                                                      [w.path for w in layer.weights]])[1])(
        mk(tf, tie_weights=False))
    c[R + "soft_cap"] = lambda tf: (lambda layer: (layer(ids), layer(h * 10, reverse=True))[1])(mk(tf, logit_soft_cap=2.0))
    c[R + "reverse_dtype"] = lambda tf: (lambda layer: (layer(ids), layer(h, reverse=True))[1])(
        mk(tf, reverse_dtype="float64"))
    c[R + "config"] = lambda tf: (lambda cfg: [json.dumps(cfg, sort_keys=True, default=str), json.dumps(
        tf.keras.layers.ReversibleEmbedding.from_config(cfg).get_config(), sort_keys=True, default=str)])(
        mk(tf, tie_weights=False, logit_soft_cap=1.5, name="re").get_config())
    c[R + "symbolic"] = lambda tf: [tuple(mk(tf)(tf.keras.Input((3,), dtype="int32")).shape),
                                    tuple(mk(tf)(tf.keras.Input((2, 3)), reverse=True).shape)]

    def grad(tf: Any) -> list:
        layer = mk(tf, tie_weights=False)
        layer(ids)
        x = tf.constant(h)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(layer(x, reverse=True) ** 2) + tf.reduce_sum(layer(ids) ** 3)
        return tape.gradient(y, [x] + layer.trainable_weights)
    c[R + "gradients"] = grad

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(3)
        L = tf.keras.layers
        emb = L.ReversibleEmbedding(6, 3)
        inp = tf.keras.Input((3,), dtype="int32")
        out = emb(L.Dense(3)(emb(inp)), reverse=True)
        model = tf.keras.Model(inp, out)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        hist = model.fit(np.array([[1, 2, 3], [4, 5, 1]]), np.array([[2, 3, 4], [5, 1, 2]]), epochs=3, batch_size=1,
                         verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[R + "fit"] = fit


def _serialization(c: dict[str, Callable[[Any], Any]]) -> None:
    x = (np.arange(20, dtype="float32").reshape(2, 5, 2) % 7) / 7

    def dumps(d: Any) -> str:
        return json.dumps(d, sort_keys=True, default=str)

    def conv(tf: Any, built: bool = False) -> Any:
        layer = tf.keras.layers.Conv1D(3, 2, name="c")
        if built:
            layer.build((None, 5, 2))
        return layer
    Z = "ser/"
    c[Z + "layer"] = lambda tf: dumps(tf.keras.layers.serialize(conv(tf)))
    c[Z + "layer_built"] = lambda tf: dumps(tf.keras.layers.serialize(conv(tf, built=True)))
    c[Z + "layer_round_trip"] = lambda tf: (lambda layer: [type(layer).__name__, layer.filters, layer.built, layer.name])(
        tf.keras.layers.deserialize(tf.keras.layers.serialize(conv(tf, built=True))))
    c[Z + "err_name"] = lambda tf: tf.keras.layers.deserialize("Conv1D")
    c[Z + "err_unknown"] = _first_line(lambda tf: tf.keras.layers.deserialize({"class_name": "Nope", "config": {}}))
    c[Z + "err_not_layer"] = lambda tf: tf.keras.layers.deserialize(tf.keras.initializers.serialize(
        tf.keras.initializers.Zeros()))
    c[Z + "initializer_names"] = lambda tf: [tf.keras.initializers.IdentityInitializer is tf.keras.initializers.Identity,
                                             tf.keras.initializers.OrthogonalInitializer is tf.keras.initializers.Orthogonal,
                                             tf.keras.initializers.OrthogonalInitializer(seed=1)((3, 3)),
                                             tf.keras.initializers.IdentityInitializer(gain=2.0)((2, 3))]

    def model(tf: Any) -> Any:
        tf.keras.utils.set_random_seed(1)
        return tf.keras.Sequential([tf.keras.Input((5, 2)), tf.keras.layers.Conv1D(3, 2, name="c"),
                                    tf.keras.layers.GlobalAveragePooling1D(name="g")], name="s")
    c[Z + "to_json"] = lambda tf: dumps(json.loads(model(tf).to_json()))
    c[Z + "to_json_indent"] = lambda tf: model(tf).to_json(indent=2).count("\n") > 10

    def from_json(tf: Any) -> list:
        m = model(tf)
        again = tf.keras.models.model_from_json(m.to_json())
        again.set_weights(m.get_weights())
        return [type(again).__name__, again.built, [tuple(w.shape) for w in again.weights], again(x) - m(x)]
    c[Z + "model_from_json"] = from_json

    def functional(tf: Any) -> list:
        tf.keras.utils.set_random_seed(1)
        inp = tf.keras.Input((5, 2))
        # (layers named: auto names count every Conv1D the process made before, in TF's worker and here)
        out = tf.keras.layers.GlobalMaxPooling1D(name="gmp")(tf.keras.layers.Conv1D(2, 3, name="c")(inp))
        m = tf.keras.Model(inp, out, name="f")
        m.compile(optimizer="sgd", loss="mse")
        again = tf.keras.models.model_from_json(m.to_json())
        return [type(again).__name__, len(again.layers), getattr(again, "compiled", None), dumps(json.loads(m.to_json()))]
    c[Z + "functional_compiled"] = functional

    def objects(tf: Any) -> dict[str, Any]:
        return {"initializer": tf.keras.initializers.GlorotUniform(seed=1), "regularizer": tf.keras.regularizers.L2(0.1),
                "constraint": tf.keras.constraints.MaxNorm(2.0), "optimizer": tf.keras.optimizers.Adam(0.01),
                "loss": tf.keras.losses.MeanSquaredError(), "metric": tf.keras.metrics.Mean(name="m"),
                "layer": tf.keras.layers.Conv1D(2, 2, name="c"), "activation": tf.keras.activations.relu,
                "policy": tf.keras.DTypePolicy("mixed_float16"), "plain": [1, "a", 2.5, None, True],
                "dict": {"a": 1, "b": (1, 2)}}
    for kind in ("initializer", "regularizer", "constraint", "optimizer", "loss", "metric", "layer", "activation",
                 "policy", "plain", "dict"):
        c[Z + f"utils_serialize/{kind}"] = (lambda tf, k=kind: dumps(
            tf.keras.utils.serialize_keras_object(objects(tf)[k])))
        c[Z + f"utils_round_trip/{kind}"] = (lambda tf, k=kind: (lambda o: [type(o).__name__, getattr(
            o, "__name__", None), dumps(tf.keras.utils.serialize_keras_object(o))])(
            tf.keras.utils.deserialize_keras_object(tf.keras.utils.serialize_keras_object(objects(tf)[k]))))
    c[Z + "utils_model_round_trip"] = lambda tf: type(tf.keras.utils.deserialize_keras_object(
        tf.keras.utils.serialize_keras_object(model(tf)))).__name__
    c[Z + "utils_name"] = lambda tf: tf.keras.utils.deserialize_keras_object("relu")
    c[Z + "utils_plain_types"] = lambda tf: repr(tf.keras.utils.serialize_keras_object({"a": (1, 2), "b": [None, "x"]}))
    c[Z + "utils_err_unknown"] = lambda tf: tf.keras.utils.deserialize_keras_object(
        {"class_name": "Nope", "config": {}, "module": "keras.layers"})


def _conv_lstm(c: dict[str, Callable[[Any], Any]]) -> None:
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((2, 3, 6, 2)).astype("float32")
    x2 = rng.standard_normal((2, 3, 5, 4, 2)).astype("float32")
    x3 = rng.standard_normal((1, 2, 4, 3, 3, 2)).astype("float32")

    def mk(tf: Any, cls: str, *a: Any, **kw: Any) -> Any:
        tf.keras.utils.set_random_seed(1)
        return getattr(tf.keras.layers, cls)(*a, **kw)
    C = "cl/"
    c[C + "1d"] = lambda tf: mk(tf, "ConvLSTM1D", 3, 2)(x1)
    c[C + "1d_same_seq_state"] = lambda tf: list(mk(tf, "ConvLSTM1D", 3, 3, padding="same", return_sequences=True,
                                                    return_state=True)(x1))
    c[C + "2d"] = lambda tf: mk(tf, "ConvLSTM2D", 2, (2, 3))(x2)
    c[C + "2d_channels_first_strides"] = lambda tf: mk(tf, "ConvLSTM2D", 2, 2, data_format="channels_first",
                                                       strides=(2, 1))(np.moveaxis(x2, -1, 2))
    c[C + "2d_dilation_backwards"] = lambda tf: mk(tf, "ConvLSTM2D", 2, 2, dilation_rate=2, go_backwards=True)(x2)
    c[C + "2d_mask"] = lambda tf: mk(tf, "ConvLSTM2D", 2, 2, return_sequences=True)(
        x2, mask=np.array([[True, True, False], [True, True, True]]))
    c[C + "3d"] = lambda tf: mk(tf, "ConvLSTM3D", 2, 2)(x3)
    c[C + "no_bias_no_forget"] = lambda tf: mk(tf, "ConvLSTM1D", 2, 2, use_bias=False, unit_forget_bias=False)(x1)
    c[C + "dropout_training"] = lambda tf: mk(tf, "ConvLSTM1D", 3, 2, dropout=0.3, recurrent_dropout=0.2, seed=5)(
        x1, training=True)
    c[C + "weights"] = lambda tf: (lambda layer: (layer(x2), [(w.path, w.numpy()) for w in layer.weights])[1])(
        mk(tf, "ConvLSTM2D", 2, 2))
    c[C + "output_shape"] = lambda tf: [mk(tf, "ConvLSTM2D", 2, 2, return_state=True,
                                           return_sequences=True).compute_output_shape((None, 3, 5, 4, 2))]
    c[C + "symbolic"] = lambda tf: [tuple(t.shape) for t in tf.nest.flatten(mk(tf, "ConvLSTM2D", 2, 2, return_state=True)(
        tf.keras.Input((3, 5, 4, 2))))]
    c[C + "config"] = lambda tf: (lambda cfg: [json.dumps(cfg, sort_keys=True, default=str), json.dumps(
        tf.keras.layers.ConvLSTM2D.from_config(cfg).get_config(), sort_keys=True, default=str)])(
        mk(tf, "ConvLSTM2D", 2, 2, dropout=0.1, name="cl").get_config())
    c[C + "err_strides_dilation"] = lambda tf: mk(tf, "ConvLSTM2D", 2, 2, strides=2, dilation_rate=2)
    c[C + "err_rank"] = _first_line(lambda tf: mk(tf, "ConvLSTM2D", 2, 2)(x1))

    def grad(tf: Any) -> list:
        layer = mk(tf, "ConvLSTM1D", 3, 2)
        v = tf.constant(x1)
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.reduce_sum(layer(v) ** 2)
        return tape.gradient(y, [v] + layer.trainable_weights)
    c[C + "gradients"] = grad

    def fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(3)
        L = tf.keras.layers
        model = tf.keras.Sequential([tf.keras.Input((3, 6, 2)), L.ConvLSTM1D(2, 2, dropout=0.2), L.Flatten(),
                                     L.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        hist = model.fit(x1, np.array([[0.5], [-0.5]], np.float32), epochs=3, batch_size=1, verbose=0, shuffle=False)
        return [np.array(hist.history["loss"], np.float32), [w.numpy() for w in model.weights]]
    c[C + "fit"] = fit


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    _tables(c)
    _string_lookup(c)
    _integer_lookup(c)
    _crossing(c)
    _adaptive_pooling(c)
    _stacked(c)
    _gqa(c)
    _spectral(c)
    _reversible(c)
    _serialization(c)
    _conv_lstm(c)
    return c


CASES = _cases()
LABELS = sorted(CASES)
_AUTO_NAME = re.compile(r"\b(string_lookup|integer_lookup|hashed_crossing|stacked_rnn_cells|rnn|lstm_cell|gru_cell|"
                        r"simple_rnn_cell|simple_rnn|dense|grouped_query_attention|embedding|spectral_normalization|flatten|reversible_embedding|input_layer|sgd|conv_lstm\dd|adam)(_\d+)?\b")


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _AUTO_NAME)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


def _tol(where: str) -> float:
    return 1e-5 if where.endswith("/fit") or "/fit[" in where else 1e-6   # (a few SGD steps amplify rounding)


def _diff(got: Any, want: Any, where: str) -> str | None:
    """None when simdist's result matches TF's, else what differs."""
    return case_results.diff(got, want, where, _tol)


@pytest.mark.clause("ops.lookup")
def test_lookup_tables_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("table/", "mutable/"))


@pytest.mark.clause("keras.layer.hashed-crossing")
def test_hashed_crossing_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("cross/", "hc/"))


@pytest.mark.clause("keras.layer.adaptive-pooling")
def test_adaptive_pooling_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("ap/",))


@pytest.mark.clause("keras.layer.stacked-rnn-cells")
def test_stacked_rnn_cells_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("st/",))


@pytest.mark.clause("keras.layer.group-query-attention")
def test_group_query_attention_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("gqa/",))


@pytest.mark.clause("keras.layer.spectral-normalization")
def test_spectral_normalization_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("sn/",))


@pytest.mark.clause("keras.layer.reversible-embedding")
def test_reversible_embedding_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("re/",))


@pytest.mark.clause("keras.saving.json-and-serialize")
def test_serialize_and_json_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("ser/",))


@pytest.mark.clause("keras.layer.conv-lstm")
def test_conv_lstm_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("cl/",))


@pytest.mark.clause("keras.layer.lookup")
@pytest.mark.parametrize("prefix", ["sl/", "il/"])
def test_lookup_layers_match_tf(prefix: str, tf_results: dict[int, Any]) -> None:
    _check(tf_results, (prefix,))


def _check(tf_results: dict[int, Any], prefixes: tuple[str, ...]) -> None:
    from simdist import tf
    bad = []
    labels = [(i, lab) for i, lab in enumerate(LABELS) if lab.startswith(prefixes)]
    assert labels, f"no cases with prefixes {prefixes}"
    for i, lab in labels:
        d = _diff(_run(tf, lab), tf_results[i], lab)
        if d:
            bad.append(d)
    assert not bad, f"{len(bad)} of {len(labels)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
