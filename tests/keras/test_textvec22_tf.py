"""keras.layers.TextVectorization on simdist vs TF 2.21 + Keras 3.15: every standardize ("lower_and_strip_
punctuation", "lower", "strip_punctuation", None, a callable), split ("whitespace", "character", None, a
callable), ngrams (an int, a tuple), output mode ("int", "multi_hot", "count", "tf_idf", "one_hot"),
max_tokens, pad_to_max_tokens, output_sequence_length (cutting and padding), ragged, a given vocabulary (a
list, a file, with idf weights), adapt (arrays, lists, a Dataset with steps, a generator) with its
vocabulary order (by count, ties by the token, descending), get_vocabulary, set_vocabulary,
vocabulary_size, get_config / from_config, a .keras file round trip (the vocabulary asset), a tf.data map,
a model with a string Input, the text-classification tutorial's patterns (a registered standardize
function saved and loaded, an export Sequential, a tf.function), and the errors Keras raises; also the ops it adds to simdist
(RaggedTensor.to_tensor(shape=), tf.ragged.map_flat_values, tf.math.bincount of a RaggedTensor); and
keras.utils.FeatureSpace (every feature kind, crosses, adapt, calls on batches and scalars, a Dataset map,
dict and concat outputs, its inputs and encodings, a model fit and an inference model, configs, a .keras
file, errors); an adapted Normalization's weights loaded back (a weights file, a .keras file). The
corpus has punctuation, unicode, repeated tokens, ties and empty strings. Results are token indices,
counts and few float operations: each must equal TF's answer (floats to 1e-6). Clauses
keras.layer.text-vectorization, keras.utils.feature-space, keras.layer.normalization-adapt and
ops.strings-ragged. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CORPUS = ["The cat, the CAT!", "a dog... a Dög", "", "  spaced   out  ", "b a b a c", "Ünïcode ünïcode ÜNÏCODE"]
QUERY = ["the dog ate a cat", "ÜNÏCODE b, c; d", "", "zzz"]
VOCAB = ["the", "cat", "dög", "a"]


def _tv(tf: Any, **kw: Any) -> Any:
    return tf.keras.layers.TextVectorization(**kw)


def _adapted(corpus: Any = None, query: Any = None, **kw: Any) -> Callable[[Any], Any]:
    """A layer made with kw, adapted to the corpus: its vocabulary, size (idf weights), and its output on query."""
    def f(tf: Any) -> list:
        layer = _tv(tf, **kw)
        layer.adapt(CORPUS if corpus is None else corpus)
        out = [layer.get_vocabulary(), layer.vocabulary_size()]
        if layer.get_config()["output_mode"] == "tf_idf":
            out.append(layer._lookup_layer.idf_weights_const)
        return out + [layer(tf.constant(QUERY if query is None else query))]
    return f


def _standardize_split(c: dict[str, Callable[[Any], Any]]) -> None:
    c["tv/default"] = _adapted()
    c["tv/std_lower"] = _adapted(standardize="lower")
    c["tv/std_strip"] = _adapted(standardize="strip_punctuation")
    c["tv/std_none"] = _adapted(standardize=None)
    c["tv/std_callable"] = lambda tf: _adapted(standardize=lambda x: tf.strings.regex_replace(
        tf.strings.lower(x), "[aeiou]", ""))(tf)
    c["tv/split_character"] = _adapted(split="character", standardize="lower")
    c["tv/split_none"] = _adapted(split=None)
    c["tv/split_none_2d"] = _adapted(split=None, query=[[q] for q in QUERY])
    c["tv/split_callable"] = lambda tf: _adapted(split=lambda x: tf.strings.split(x, sep=","), standardize="lower")(tf)
    c["tv/input_2d"] = _adapted(query=[[q] for q in QUERY])
    c["tv/adapt_2d"] = _adapted(corpus=np.array([[s] for s in CORPUS]))
    c["tv/scalar_input"] = lambda tf: _tv(tf, vocabulary=VOCAB)(tf.constant("the cat  a"))
    c["tv/ragged"] = _adapted(ragged=True)
    c["tv/ragged_seq_len"] = _adapted(ragged=True, output_sequence_length=2)
    c["tv/err_std"] = lambda tf: _tv(tf, standardize="upper")
    c["tv/err_split"] = lambda tf: _tv(tf, split="comma")
    c["tv/err_split_shape"] = lambda tf: _tv(tf, vocabulary=VOCAB)(tf.constant([["a b", "c"]]))


def _ngrams(c: dict[str, Callable[[Any], Any]]) -> None:
    c["tv/ngrams_2"] = _adapted(ngrams=2)
    c["tv/ngrams_tuple"] = _adapted(ngrams=(1, 3))
    c["tv/ngrams_only_2"] = _adapted(ngrams=(2,), output_mode="count")
    c["tv/ngrams_split_none"] = _adapted(ngrams=2, split=None)
    c["tv/ngrams_character"] = _adapted(ngrams=2, split="character", output_mode="multi_hot", max_tokens=12)
    c["tv/err_ngrams_list"] = lambda tf: _tv(tf, ngrams=[1, 2])
    c["tv/err_ngrams_float"] = lambda tf: _tv(tf, ngrams=2.0)


def _modes(c: dict[str, Callable[[Any], Any]]) -> None:
    c["tv/multi_hot"] = _adapted(output_mode="multi_hot")
    c["tv/binary"] = _adapted(output_mode="binary")
    c["tv/count"] = _adapted(output_mode="count")
    c["tv/tf_idf"] = _adapted(output_mode="tf_idf")
    c["tv/tf-idf"] = _adapted(output_mode="tf-idf", max_tokens=6)
    c["tv/one_hot"] = _adapted(output_mode="one_hot", max_tokens=5)
    c["tv/one_hot_split_none"] = _adapted(output_mode="one_hot", split=None)
    c["tv/max_tokens_int"] = _adapted(max_tokens=5)
    c["tv/max_tokens_count"] = _adapted(max_tokens=5, output_mode="count")
    c["tv/pad_to_max_tokens"] = _adapted(max_tokens=20, pad_to_max_tokens=True, output_mode="multi_hot")
    c["tv/pad_to_max_tokens_tf_idf"] = _adapted(max_tokens=20, pad_to_max_tokens=True, output_mode="tf_idf")
    c["tv/seq_len_pad"] = _adapted(output_sequence_length=8)
    c["tv/seq_len_cut"] = _adapted(output_sequence_length=2)
    c["tv/seq_len_split_none"] = _adapted(output_sequence_length=3, split=None)
    c["tv/seq_len_split_none_2d"] = _adapted(output_sequence_length=3, split=None, query=[[q] for q in QUERY])
    c["tv/seq_len_scalar"] = lambda tf: _tv(tf, vocabulary=VOCAB, output_sequence_length=3)(tf.constant("a b"))
    c["tv/err_seq_len_scalar_empty"] = lambda tf: _tv(tf, vocabulary=VOCAB, output_sequence_length=3)(
        tf.constant(""))
    c["tv/err_mode"] = lambda tf: _tv(tf, output_mode="tfidf")
    c["tv/err_seq_len_mode"] = lambda tf: _tv(tf, output_mode="count", output_sequence_length=3)
    c["tv/err_seq_len_float"] = lambda tf: _tv(tf, output_sequence_length=3.0)
    c["tv/err_ragged_mode"] = lambda tf: _tv(tf, output_mode="count", ragged=True)
    c["tv/err_max_tokens"] = lambda tf: _tv(tf, max_tokens=1)
    c["tv/err_pad_no_max"] = lambda tf: _tv(tf, pad_to_max_tokens=True, output_mode="count")
    c["tv/err_count_no_vocab"] = lambda tf: _tv(tf, output_mode="count")(tf.constant(["a"]))
    c["tv/int_no_vocab"] = lambda tf: _tv(tf)(tf.constant(["a b"]))


def _vocabulary(c: dict[str, Callable[[Any], Any]]) -> None:
    c["tv/vocab_list"] = lambda tf: (lambda layer: [layer.get_vocabulary(), layer.get_vocabulary(False),
                                                    layer.vocabulary_size(), layer(tf.constant(QUERY))])(
        _tv(tf, vocabulary=VOCAB))
    c["tv/vocab_special_given"] = lambda tf: _tv(tf, vocabulary=["", "[UNK]"] + VOCAB)(tf.constant(QUERY))
    c["tv/vocab_ndarray_seq"] = lambda tf: _tv(tf, vocabulary=np.array(VOCAB), output_sequence_length=4)(
        tf.constant(QUERY))
    c["tv/vocab_tf_idf"] = lambda tf: _tv(tf, vocabulary=VOCAB, output_mode="tf_idf",
                                          idf_weights=[0.5, 0.25, 1.5, 0.75])(tf.constant(QUERY))
    c["tv/vocab_tf_idf_padded"] = lambda tf: _tv(tf, vocabulary=VOCAB, output_mode="tf_idf", max_tokens=8,
                                                 pad_to_max_tokens=True,
                                                 idf_weights=[0.5, 0.25, 1.5, 0.75])(tf.constant(QUERY))
    c["tv/err_vocab_tf_idf_no_weights"] = lambda tf: _tv(tf, vocabulary=VOCAB, output_mode="tf_idf")
    c["tv/err_weights_not_tf_idf"] = lambda tf: _tv(tf, vocabulary=VOCAB, idf_weights=[1.0, 1, 1, 1])
    c["tv/err_vocab_repeated"] = lambda tf: _tv(tf, vocabulary=["a", "b", "a"])
    c["tv/err_vocab_too_big"] = lambda tf: _tv(tf, vocabulary=VOCAB, max_tokens=4)
    c["tv/err_adapt_given_vocab"] = lambda tf: _tv(tf, vocabulary=VOCAB).adapt(["x y"])

    def vocab_file(tf: Any) -> list:
        import tempfile
        path = os.path.join(tempfile.mkdtemp(), "v.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(VOCAB) + "\n")
        layer = _tv(tf, vocabulary=path, output_sequence_length=5)
        return [layer.get_vocabulary(), layer(tf.constant(QUERY)), layer.get_config()["vocabulary"]]
    c["tv/vocab_file"] = vocab_file

    def set_vocab(tf: Any) -> list:
        layer = _tv(tf, output_mode="tf_idf")
        layer.set_vocabulary(["dog", "cat"], idf_weights=[0.5, 2.0])
        out = [layer.get_vocabulary(), layer(tf.constant(QUERY))]
        layer.set_vocabulary(["ate", "the", "a"], idf_weights=[1.0, 0.25, 3.0])
        return out + [layer.get_vocabulary(), layer.vocabulary_size()]
    c["tv/set_vocabulary"] = set_vocab

    def set_vocab_frozen(tf: Any) -> Any:
        layer = _tv(tf, output_mode="count")
        layer.set_vocabulary(["dog", "cat"])
        layer(tf.constant(QUERY))
        layer.set_vocabulary(["ate", "the", "a"])
    c["tv/err_set_vocabulary_after_call"] = set_vocab_frozen


def _adapt(c: dict[str, Callable[[Any], Any]]) -> None:
    ties = ["d c b a", "a b c d", "e e f", "f g"]
    c["tv/adapt_ties"] = _adapted(corpus=ties, query=["a b c d e f g h"])
    c["tv/adapt_ties_max_tokens"] = _adapted(corpus=ties, query=["a b c d e f g h"], max_tokens=5)
    c["tv/adapt_list"] = _adapted(corpus=list(CORPUS))
    c["tv/adapt_encoding_latin1"] = _adapted(encoding="latin-1")

    def adapt_batch_size(tf: Any) -> list:
        layer = _tv(tf)
        layer.adapt(CORPUS, batch_size=2)
        return layer.get_vocabulary()
    c["tv/adapt_batch_size"] = adapt_batch_size
    c["tv/adapt_tensor"] = lambda tf: _adapted(corpus=tf.constant(CORPUS))(tf)
    c["tv/adapt_dataset"] = lambda tf: _adapted(corpus=tf.data.Dataset.from_tensor_slices(CORPUS).batch(2))(tf)

    def adapt_dataset_steps(tf: Any) -> list:
        layer = _tv(tf)
        layer.adapt(tf.data.Dataset.from_tensor_slices(CORPUS).batch(2).repeat(), steps=2)
        return layer.get_vocabulary()
    c["tv/adapt_dataset_steps"] = adapt_dataset_steps
    c["tv/adapt_dataset_tf_idf"] = lambda tf: _adapted(corpus=tf.data.Dataset.from_tensor_slices(CORPUS).batch(4),
                                                       output_mode="tf_idf", ngrams=2)(tf)
    c["tv/adapt_generator"] = _adapted(corpus=(np.array(CORPUS[i:i + 2]) for i in range(0, 6, 2)))

    def adapt_generator_steps(tf: Any) -> list:
        layer = _tv(tf)
        layer.adapt((np.array(CORPUS[i:i + 2]) for i in range(0, 6, 2)), steps=1)
        return layer.get_vocabulary()
    c["tv/adapt_generator_steps"] = adapt_generator_steps

    def readapt(tf: Any) -> list:
        layer = _tv(tf)
        layer.adapt(["x y y"])
        first = layer.get_vocabulary()
        layer.adapt(["z"])
        return [first, layer.get_vocabulary()]
    c["tv/adapt_twice"] = readapt

    def adapt_empty(tf: Any) -> list:
        layer = _tv(tf)
        layer.adapt(["", "  "])
        return [layer.get_vocabulary(), layer(tf.constant(["a"]))]
    c["tv/adapt_only_empty"] = adapt_empty


def _config(c: dict[str, Callable[[Any], Any]]) -> None:
    def round_trip(**kw: Any) -> Callable[[Any], Any]:
        def f(tf: Any) -> list:
            layer = _tv(tf, name="tv", **kw)
            if "vocabulary" not in kw:
                layer.adapt(CORPUS)
            cfg = layer.get_config()
            again = tf.keras.layers.TextVectorization.from_config(cfg)
            return [sorted(cfg.items(), key=str), again.get_vocabulary(), again(tf.constant(QUERY)),
                    sorted(again.get_config().items(), key=str) == sorted(cfg.items(), key=str)]
        return f
    c["tv/config_vocab"] = round_trip(vocabulary=VOCAB, ngrams=(1, 2), output_sequence_length=6)
    c["tv/config_adapted"] = round_trip(max_tokens=7, output_mode="count")
    c["tv/config_tf_idf"] = round_trip(vocabulary=VOCAB, output_mode="tf_idf", idf_weights=[1.0, 2.0, 0.5, 0.25])
    c["tv/config_ngrams_int"] = round_trip(vocabulary=VOCAB, ngrams=3, split="character", standardize=None)
    c["tv/symbolic"] = lambda tf: [(tuple(x.shape), x.dtype) for x in (
        _tv(tf, vocabulary=VOCAB)(tf.keras.Input(shape=(1,), dtype="string")),
        _tv(tf, vocabulary=VOCAB, output_sequence_length=5)(tf.keras.Input(shape=(), dtype="string")),
        _tv(tf, vocabulary=VOCAB, output_mode="multi_hot")(tf.keras.Input(shape=(1,), dtype="string")),
        _tv(tf, vocabulary=VOCAB, output_mode="count", split=None)(tf.keras.Input(shape=(), dtype="string")),
        _tv(tf, vocabulary=VOCAB, output_mode="tf_idf", idf_weights=[1.0, 1, 1, 1], max_tokens=9,
            pad_to_max_tokens=True)(tf.keras.Input(shape=(1,), dtype="string")))]


def _integration(c: dict[str, Callable[[Any], Any]]) -> None:
    def data_map(tf: Any) -> list:
        layer = _tv(tf, vocabulary=VOCAB, output_sequence_length=4)
        ds = tf.data.Dataset.from_tensor_slices(QUERY).batch(2).map(layer)
        return [x.numpy().tolist() for x in ds]
    c["tv/dataset_map"] = data_map

    def data_map_pairs(tf: Any) -> list:
        layer = _tv(tf, max_tokens=6, output_mode="multi_hot")
        layer.adapt(tf.data.Dataset.from_tensor_slices(CORPUS).batch(3))
        ds = tf.data.Dataset.from_tensor_slices((CORPUS, list(range(6)))).batch(4).map(lambda x, y: (layer(x), y))
        return [[a.numpy().tolist(), b.numpy().tolist()] for a, b in ds]
    c["tv/dataset_map_pairs"] = data_map_pairs

    def model(tf: Any) -> list:
        layer = _tv(tf, output_sequence_length=5)
        layer.adapt(CORPUS)
        inp = tf.keras.Input(shape=(1,), dtype="string")
        m = tf.keras.Model(inp, layer(inp))
        return [m(tf.constant([[q] for q in QUERY])), m.predict(tf.constant([[q] for q in QUERY]), verbose=0)]
    c["tv/model"] = model

    def model_fit(tf: Any) -> list:
        tf.keras.utils.set_random_seed(3)
        layer = _tv(tf, max_tokens=8, output_mode="count")
        layer.adapt(CORPUS)
        inp = tf.keras.Input(shape=(1,), dtype="string")
        x = layer(inp)
        out = tf.keras.layers.Dense(1, kernel_initializer="ones")(x)
        m = tf.keras.Model(inp, out)
        m.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
        m.fit(tf.constant([[s] for s in CORPUS]), tf.constant([[1.0]] * 6), epochs=2, batch_size=3, verbose=0)
        return [m.layers[-1].kernel, m(tf.constant([[q] for q in QUERY]))]
    c["tv/model_fit"] = model_fit

    def keras_file(**kw: Any) -> Callable[[Any], Any]:
        def f(tf: Any) -> list:
            import tempfile
            import zipfile
            layer = _tv(tf, name="tv", **kw)
            if "vocabulary" not in kw:
                layer.adapt(CORPUS)
            inp = tf.keras.Input(shape=(1,), dtype="string")
            m = tf.keras.Model(inp, layer(inp))
            path = os.path.join(tempfile.mkdtemp(), "m.keras")
            m.save(path)
            with zipfile.ZipFile(path) as zf:
                names = sorted(n for n in zf.namelist() if n.startswith("assets/"))
                assets = [zf.read(n).decode("utf-8") for n in names]
            back = tf.keras.models.load_model(path)
            q = tf.constant([[s] for s in QUERY])
            return [names, assets, back.layers[-1].get_vocabulary(), back(q), m(q)]
        return f
    c["tv/keras_file_adapted"] = keras_file(output_sequence_length=6)
    c["tv/keras_file_tf_idf"] = keras_file(output_mode="tf_idf", ngrams=2)
    c["tv/keras_file_vocab"] = keras_file(vocabulary=VOCAB)


def _tutorial(c: dict[str, Callable[[Any], Any]]) -> None:
    """The text-classification tutorial's patterns: a registered standardize function, a .keras
    round trip of it, an export model (TextVectorization first in a Sequential), a tf.function."""
    def registered(tf: Any) -> Any:
        @tf.keras.utils.register_keras_serializable(package="textvec22")
        def custom_standardization(x: Any) -> Any:
            return tf.strings.regex_replace(tf.strings.lower(x), "<br />", " ")
        layer = _tv(tf, standardize=custom_standardization, max_tokens=10, output_sequence_length=4)
        layer.adapt(tf.data.Dataset.from_tensor_slices(["Good<br />movie", "bad movie<br />bad", "so-so"]).batch(2))
        return layer

    def registered_file(tf: Any) -> list:
        import tempfile
        layer = registered(tf)
        inp = tf.keras.Input(shape=(1,), dtype="string")
        m = tf.keras.Model(inp, layer(inp))
        path = os.path.join(tempfile.mkdtemp(), "m.keras")
        m.save(path)
        back = tf.keras.models.load_model(path)
        return [layer.get_vocabulary(), tf.keras.layers.serialize(layer)["config"]["standardize"],
                back(tf.constant([["bad<br />good"]])), back.layers[-1].get_config()["standardize"] is not None]
    c["tv/tutorial_registered_standardize"] = registered_file

    def export_model(tf: Any) -> list:
        layer = registered(tf)
        core = tf.keras.Sequential([tf.keras.layers.Embedding(10, 2, embeddings_initializer="ones"),
                                    tf.keras.layers.GlobalAveragePooling1D(),
                                    tf.keras.layers.Dense(1, kernel_initializer="ones")])
        core(tf.constant([[1, 2, 3, 0]]))
        export = tf.keras.Sequential([layer, core, tf.keras.layers.Activation("sigmoid")])
        export.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
        return [export.predict(tf.constant(["good movie", "bad"]), verbose=0),
                tf.function(lambda x: layer(x))(tf.constant(["good movie bad"]))]
    c["tv/tutorial_export_model"] = export_model


FS_DATA = {"age": [31.0, 45.0, 22.0, 60.0, 45.0, 38.0], "sex": [1, 0, 1, 1, 0, 0],
           "city": ["a", "b", "a", "c", "a", "b"], "thal": ["x", "y", "x", "x", "z", "y"],
           "score": [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]}


def _fs(tf: Any, output_mode: str = "concat", **kw: Any) -> Any:
    """The structured-data tutorial's FeatureSpace, adapted on FS_DATA."""
    FS = tf.keras.utils.FeatureSpace
    fs = FS(features={"age": FS.float_discretized(num_bins=3), "sex": FS.integer_categorical(num_oov_indices=0),
                      "city": "string_categorical", "thal": FS.string_hashed(num_bins=4), "score": "float_normalized"},
            crosses=[FS.cross(feature_names=("sex", "city"), crossing_dim=8)], output_mode=output_mode, name="fs", **kw)
    fs.adapt(tf.data.Dataset.from_tensor_slices(FS_DATA).batch(2))
    return fs


def _feature_space(c: dict[str, Callable[[Any], Any]]) -> None:
    """keras.utils.FeatureSpace: every feature kind, crosses, adapt, calls, inputs and encodings, a model."""
    FIRST3 = {k: v[:3] for k, v in FS_DATA.items()}
    c["fs/concat_call"] = lambda tf: _fs(tf)(FIRST3)
    c["fs/scalar_call"] = lambda tf: _fs(tf)({k: v[0] for k, v in FS_DATA.items()})
    c["fs/encoded_and_inputs"] = lambda tf: (lambda fs: [
        (tuple(fs.get_encoded_features().shape), fs.get_encoded_features().dtype),
        sorted((k, tuple(v.shape), v.dtype) for k, v in fs.get_inputs().items())])(_fs(tf))
    c["fs/dataset_map"] = lambda tf: (lambda fs: [b for b in tf.data.Dataset.from_tensor_slices(FS_DATA).batch(4).map(
        lambda x: fs(x))])(_fs(tf))
    c["fs/dict_mode"] = lambda tf: (lambda r: sorted(r.items()))(_fs(tf, output_mode="dict")(FIRST3))
    c["fs/dict_scalar"] = lambda tf: (lambda r: sorted(r.items()))(
        _fs(tf, output_mode="dict")({k: v[1] for k, v in FS_DATA.items()}))

    def kinds(tf: Any) -> Any:
        FS = tf.keras.utils.FeatureSpace
        fs = FS(features={"f": "float", "r": FS.float_rescaled(scale=2.0, offset=1.0), "n": "float_normalized",
                          "d": "float_discretized", "i": "integer_categorical", "s": "string_categorical",
                          "ih": "integer_hashed", "sh": "string_hashed",
                          "si": FS.string_categorical(output_mode="int", max_tokens=3)},
                crosses=[FS.cross(("i", "s"), crossing_dim=5, output_mode="int")], output_mode="dict",
                hashing_dim=6, num_discretization_bins=4)
        data = {"f": [0.5, 1.0, 2.0, 4.0], "r": [1.0, 2.0, 3.0, 4.0], "n": [2.0, 4.0, 6.0, 8.0],
                "d": [0.0, 1.0, 2.0, 3.0], "i": [7, 8, 7, 9], "s": ["u", "v", "u", "w"], "ih": [3, 4, 5, 3],
                "sh": ["p", "q", "r", "p"], "si": ["m", "m", "n", "o"]}
        fs.adapt(data)
        return sorted(fs(data).items())
    c["fs/every_kind_dict"] = kinds

    def model(tf: Any) -> list:
        # (the tutorial's Model(inputs=encoded_features, ...) takes intermediate tensors as inputs, which
        # simdist's functional models do not: the training model here has its own Input)
        tf.keras.utils.set_random_seed(4)
        fs = _fs(tf)
        dense = tf.keras.layers.Dense(1, kernel_initializer="ones")
        inp = tf.keras.Input(shape=tuple(fs.get_encoded_features().shape[1:]))
        training = tf.keras.Model(inp, dense(inp))
        training.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        ds = tf.data.Dataset.from_tensor_slices((FS_DATA, [1.0, 0, 1, 0, 1, 0])).batch(3)
        training.fit(ds.map(lambda x, y: (fs(x), y)), epochs=2, verbose=0)
        inference = tf.keras.Model(fs.get_inputs(), dense(fs.get_encoded_features()))
        return [dense.kernel, inference({k: tf.constant(np.array(v)[:, None]) for k, v in FS_DATA.items()})]
    c["fs/model_fit_and_inference"] = model

    def config(tf: Any) -> list:
        fs = _fs(tf)
        cfg = fs.get_config()
        again = tf.keras.utils.FeatureSpace.from_config(cfg)
        # (as JSON: simdist's serialized build configs hold shapes as lists where Keras keeps the tuple)
        return [json.dumps(cfg, sort_keys=True), json.dumps(again.get_config(), sort_keys=True) ==
                json.dumps(cfg, sort_keys=True)]
    c["fs/config"] = config
    c["fs/feature_config"] = lambda tf: repr(tf.keras.utils.FeatureSpace.float_rescaled(scale=3.0, name="q")
                                             .get_config())
    c["fs/cross_config"] = lambda tf: [repr(tf.keras.utils.FeatureSpace.cross(["a", "b"], 7).get_config()),
                                       tf.keras.utils.FeatureSpace.cross(["a", "b"], 7).name]
    def save_load(tf: Any) -> list:
        import tempfile
        import zipfile
        fs = _fs(tf)
        path = os.path.join(tempfile.mkdtemp(), "fs.keras")
        fs.save(path)
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            top = {k: v for k, v in json.loads(zf.read("config.json")).items() if k != "config"}
        back = tf.keras.models.load_model(path)
        return [names, json.dumps(top, sort_keys=True), type(back).__name__, back(FIRST3),
                back({k: v[4] for k, v in FS_DATA.items()})]
    c["fs/save_and_load_model"] = save_load
    FS_ERR = {"a": "float"}
    c["fs/err_feature_type"] = lambda tf: tf.keras.utils.FeatureSpace(features={"a": "foo"})
    c["fs/err_output_mode"] = lambda tf: tf.keras.utils.FeatureSpace(features=FS_ERR, output_mode="x")
    c["fs/err_empty"] = lambda tf: tf.keras.utils.FeatureSpace(features={})
    c["fs/err_not_adapted"] = lambda tf: tf.keras.utils.FeatureSpace(features={"a": "string_categorical"}).get_inputs()
    c["fs/err_cross_unknown"] = lambda tf: tf.keras.utils.FeatureSpace(features=FS_ERR, crosses=[("a", "b")])
    c["fs/err_cross_no_dim"] = lambda tf: tf.keras.utils.FeatureSpace(features=FS_ERR, crosses=[("a",)],
                                                                      crossing_dim=0)
    c["fs/err_call_not_dict"] = lambda tf: tf.keras.utils.FeatureSpace(features=FS_ERR)([1.0])
    c["fs/err_feature_mode"] = lambda tf: tf.keras.utils.FeatureSpace.string_categorical(output_mode="multi_hot")
    c["fs/err_cross_mode"] = lambda tf: tf.keras.utils.FeatureSpace.cross(["a", "b"], 4, output_mode="float")
    c["fs/err_one_hot_float"] = lambda tf: tf.keras.utils.FeatureSpace(features={"a": tf.keras.utils.FeatureSpace.feature(
        "float32", tf.keras.layers.Rescaling(2.0), "one_hot")}).get_inputs()
    c["fs/err_concat_int"] = lambda tf: tf.keras.utils.FeatureSpace(
        features={"a": tf.keras.utils.FeatureSpace.integer_hashed(4, output_mode="int")}).get_inputs()
    c["fs/err_adapt_list"] = lambda tf: tf.keras.utils.FeatureSpace(features=FS_ERR).adapt([1.0])


def _normalization_loaded(c: dict[str, Callable[[Any], Any]]) -> None:
    """An adapted Normalization's mean and variance come back with its variables (a weights file, a .keras file)."""
    def model(tf: Any) -> Any:
        norm = tf.keras.layers.Normalization(name="nz")
        norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 20.0]], np.float32))
        inp = tf.keras.Input(shape=(2,))
        return tf.keras.Model(inp, norm(inp))

    def weights(tf: Any) -> list:
        import tempfile
        path = os.path.join(tempfile.mkdtemp(), "m.weights.h5")
        model(tf).save_weights(path)
        fresh = model(tf)
        fresh.layers[-1].adapt(np.array([[0.0, 0.0], [1.0, 1.0]], np.float32))
        fresh.load_weights(path)
        return fresh(tf.constant([[2.0, 15.0]]))
    c["nz/weights_file"] = weights

    def keras_file(tf: Any) -> list:
        import tempfile
        path = os.path.join(tempfile.mkdtemp(), "m.keras")
        model(tf).save(path)
        back = tf.keras.models.load_model(path)
        return [back(tf.constant([[2.0, 15.0]])), back.layers[-1].mean, back.layers[-1].variance]
    c["nz/keras_file"] = keras_file


def _ragged_ops(c: dict[str, Callable[[Any], Any]]) -> None:
    def rt(tf: Any) -> Any:
        return tf.ragged.constant([[1, 2, 2], [], [5]])
    c["rg/to_tensor_cut"] = lambda tf: rt(tf).to_tensor(shape=[None, 2])
    c["rg/to_tensor_pad"] = lambda tf: rt(tf).to_tensor(default_value=7, shape=[4, 5])
    c["rg/to_tensor_fewer_rows"] = lambda tf: rt(tf).to_tensor(shape=[2, None])
    c["rg/map_flat_values"] = lambda tf: tf.ragged.map_flat_values(tf.one_hot, rt(tf), 3)
    c["rg/map_flat_values_dense"] = lambda tf: tf.ragged.map_flat_values(tf.add, tf.constant([1, 2]), 3)
    c["rg/map_flat_values_two"] = lambda tf: tf.ragged.map_flat_values(tf.multiply, rt(tf), rt(tf))
    c["rg/bincount_rows"] = lambda tf: tf.math.bincount(rt(tf), axis=-1, minlength=4, maxlength=4)
    c["rg/bincount_binary"] = lambda tf: tf.math.bincount(rt(tf), axis=-1, binary_output=True, dtype=tf.int64)
    c["rg/bincount_flat"] = lambda tf: tf.math.bincount(rt(tf))
    c["rg/err_bincount_negative"] = lambda tf: tf.math.bincount(tf.ragged.constant([[1, -2], [3]]), axis=-1)


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    _standardize_split(c)
    _ngrams(c)
    _modes(c)
    _vocabulary(c)
    _adapt(c)
    _config(c)
    _integration(c)
    _tutorial(c)
    _feature_space(c)
    _normalization_loaded(c)
    _ragged_ops(c)
    return c


CASES = _cases()
LABELS = sorted(CASES)
_AUTO_NAME = re.compile(r"\b(text_vectorization|string_lookup|input_layer|dense|functional|sgd|float|float_rescaled|"
                        r"float_normalized|float_discretized|integer_categorical|string_categorical|string_hashed|"
                        r"integer_hashed|integer_lookup|hashing|discretization|normalization|rescaling|"
                        r"hashed_crossing|category_encoding|tfd_identity|tfd_concat)(_\d+)?\b")


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _AUTO_NAME)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


def _diff(got: Any, want: Any, where: str) -> str | None:
    """None when simdist's result matches TF's, else what differs."""
    return case_results.diff(got, want, where)


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


@pytest.mark.clause("keras.layer.text-vectorization")
def test_text_vectorization_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("tv/",))


@pytest.mark.clause("keras.utils.feature-space")
def test_feature_space_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("fs/",))


@pytest.mark.clause("keras.layer.normalization-adapt")
def test_loaded_normalization_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("nz/",))


@pytest.mark.clause("ops.strings-ragged")
def test_ragged_ops_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("rg/",))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
