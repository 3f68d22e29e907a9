"""keras.utils.FeatureSpace on the code paths the suite ran least (feature_space.py 67% in the forty-sixth session's
coverage run): every feature kind by name and by its constructor (float, rescaled with scale/offset, normalized,
discretized by bins or boundaries, integer/string categorical with max_tokens, num_oov_indices and "int" output,
integer/string hashed), crosses (by tuple and FeatureSpace.cross, one-hot and int), both output modes, the
constructor's and call's refusals (unknown kind or output mode, no features, a cross of an unknown feature, a
concat cross without crossing_dim, a call before adapt, adapt of a dict, a missing key, a non-dict), the encoded
features and inputs, a model on them, a batch and a scalar call, get_config/from_config, and save/load (a path not
ending in .keras refused as Keras's saving_lib refuses it) (clause keras.utils.feature-space).

Every expected value, class and message fragment was observed on TF 2.21 + Keras 3.15 (forty-eighth session: the
probe /work/wt/cov48_logs/probe/fs_probe.py run beside simdist); the calls are the probe's own text.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.suite.paths48_compare import run_table

clause = pytest.mark.clause

#: TF 2.21's answers (see simdist/conformance/suite/ops_paths48_expected.py for the form)
nan = float("nan")
EXPECTED = {'adapt_not_dataset': ('ok', None),
 'bad_kind': ('ValueError', 'Invalid feature type: floaty'),
 'bad_output_mode': ('ValueError',
                     "Invalid value for argument `output_mode`. Expected one of {'dict', 'concat'}. Received: "
                     'output_mode=tuple'),
 'basic_concat': ('ok', ['float32', [1, 10], [[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]]]),
 'basic_dict': ('ok',
                {'f': ['float32', [1, 1], [[1.0]]],
                 'i': ['float32', [1, 5], [[0.0, 1.0, 0.0, 0.0, 0.0]]],
                 's': ['float32', [1, 4], [[0.0, 0.0, 1.0, 0.0]]]}),
 'batch_call': ('ok', ['float32', [2, 6], [[0.5, 0.0, 0.0, 1.0, 0.0, 0.0], [1.5, 0.0, 1.0, 0.0, 0.0, 0.0]]]),
 'call_before_adapt': ('ValueError',
                       'You need to call `.adapt(dataset)` on the FeatureSpace before you can start using it.'),
 'cross': ('KeyError', "'f'"),
 'cross_concat_no_dim': ('ok', 'FeatureSpace'),
 'cross_dict': ('KeyError', "'f'"),
 'cross_one_hot': ('KeyError', "'f'"),
 'cross_unknown': ('ValueError',
                   'All features referenced in the `crosses` argument should be present in the `features` dict. '
                   "Received unknown features: ('i', 'zz')"),
 'dataset_map': ('KeyError', None),
 'discretized': ('KeyError', "'i'"),
 'discretized_bins': ('KeyError', "'i'"),
 'encoded_features': ('ok',
                      [[['f', [None, 1], 'float32'], ['i', [None, 1], 'int32'], ['s', [None, 1], 'string']],
                       [None, 10],
                       'float32']),
 'encoded_features_dict': ('ok', [['f', [None, 1], 'float32'], ['i', [None, 5], 'float32']]),
 'fn_float': ('KeyError', "'i'"),
 'fn_float_discretized': ('KeyError', "'i'"),
 'fn_float_discretized_bounds': ('ValueError',
                                 'Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins=3` and '
                                 '`bin_boundaries=[0.0, 2.0]`'),
 'fn_float_normalized': ('KeyError', "'i'"),
 'fn_float_rescaled': ('KeyError', "'i'"),
 'fn_int_cat_int_mode': ('KeyError', "'f'"),
 'fn_int_cat_max_tokens': ('KeyError', "'f'"),
 'fn_int_cat_num_oov': ('KeyError', "'f'"),
 'fn_int_hashed_int': ('KeyError', "'f'"),
 'fn_str_cat_int_mode': ('KeyError', "'f'"),
 'fn_str_cat_max_tokens': ('KeyError', "'f'"),
 'fn_str_hashed': ('KeyError', "'f'"),
 'from_config_unadapted_call': ('ValueError',
                                'You need to call `.adapt(dataset)` on the FeatureSpace before you can start using '
                                'it.'),
 'get_config': ('ok',
                [['crosses', 'crossing_dim', 'features', 'hashing_dim', 'num_discretization_bins', 'output_mode'],
                 'dict',
                 ['f', 's']]),
 'int_hashed': ('KeyError', "'f'"),
 'int_hashed_default_dim': ('KeyError', "'f'"),
 'missing_key': ('KeyError', "'i'"),
 'model_on_encoded': ('ValueError', 'Invalid dtype: str32'),
 'no_features': ('ValueError', 'The `features` argument cannot be None or empty.'),
 'normalized': ('KeyError', "'i'"),
 'not_dict': ('ValueError',
              'A FeatureSpace can only be called with a dict. Received: data=[ 0.5  1.5  2.5  3.5 -1.   0. ] (of '
              "type <class 'numpy.ndarray'>"),
 'repr_feature': ('ok', ['dtype', 'output_mode', 'preprocessor']),
 'rescaled': ('KeyError', "'i'"),
 'save_bad_ext': ('ValueError', 'Invalid `filepath` argument: expected a `.keras` extension. Received: filepath='),
 'save_load': ('ok',
               [['float32', [1, 18], 'sum', 2.8902, 'abs-sum', 3.1098],
                ['float32', [1, 18], 'sum', 2.8902, 'abs-sum', 3.1098],
                'FeatureSpace']),
 'scalar_call': ('ok', ['float32', [6], [2.0, 0.0, 0.0, 0.0, 0.0, 1.0]]),
 'str_hashed': ('KeyError', "'f'")}


def _cases(keras, tf):
    R = {}

    def case(n, f):
        R[n] = f

    import os, tempfile
    FS = keras.utils.FeatureSpace
    data = {
        "f": np.asarray([0.5, 1.5, 2.5, 3.5, -1.0, 0.0], "float32"),
        "i": np.asarray([1, 2, 3, 1, 2, 7], "int64"),
        "s": np.asarray(["a", "b", "a", "c", "b", "a"]),
    }
    def ds():
        return tf.data.Dataset.from_tensor_slices(data).batch(3)
    one = {"f": np.asarray([1.0], "float32"), "i": np.asarray([2], "int64"), "s": np.asarray(["b"])}
    def run(feats, **kw):
        fs = FS(features=feats, **kw)
        fs.adapt(ds())
        out = fs(one)
        return out
    case("basic_concat", lambda: run({"f": "float", "i": "integer_categorical", "s": "string_categorical"}))
    case("basic_dict", lambda: run({"f": "float", "i": "integer_categorical", "s": "string_categorical"}, output_mode="dict"))
    case("rescaled", lambda: run({"f": "float_rescaled"}))
    case("normalized", lambda: run({"f": "float_normalized"}))
    case("discretized", lambda: run({"f": "float_discretized"}))
    case("discretized_bins", lambda: run({"f": "float_discretized"}, num_discretization_bins=3))
    case("int_hashed", lambda: run({"i": "integer_hashed"}, hashing_dim=8))
    case("str_hashed", lambda: run({"s": "string_hashed"}, hashing_dim=8))
    case("int_hashed_default_dim", lambda: run({"i": "integer_hashed"}))
    case("cross", lambda: run({"i": "integer_categorical", "s": "string_categorical"}, crosses=[("i", "s")], crossing_dim=16))
    case("cross_dict", lambda: run({"i": "integer_categorical", "s": "string_categorical"}, crosses=[FS.cross(("i", "s"), crossing_dim=4)], output_mode="dict"))
    case("cross_one_hot", lambda: run({"i": "integer_categorical", "s": "string_categorical"}, crosses=[FS.cross(("i", "s"), crossing_dim=4, output_mode="int")], output_mode="dict"))
    case("fn_float_rescaled", lambda: run({"f": FS.float_rescaled(scale=2.0, offset=1.0)}))
    case("fn_float_normalized", lambda: run({"f": FS.float_normalized()}, output_mode="dict"))
    case("fn_float_discretized", lambda: run({"f": FS.float_discretized(num_bins=4, bin_boundaries=None)}))
    case("fn_float_discretized_bounds", lambda: run({"f": FS.float_discretized(num_bins=3, bin_boundaries=[0.0, 2.0])}))
    case("fn_int_cat_int_mode", lambda: run({"i": FS.integer_categorical(output_mode="int")}, output_mode="dict"))
    case("fn_int_cat_max_tokens", lambda: run({"i": FS.integer_categorical(max_tokens=3)}))
    case("fn_int_cat_num_oov", lambda: run({"i": FS.integer_categorical(num_oov_indices=2)}))
    case("fn_str_cat_int_mode", lambda: run({"s": FS.string_categorical(output_mode="int")}, output_mode="dict"))
    case("fn_str_cat_max_tokens", lambda: run({"s": FS.string_categorical(max_tokens=2, num_oov_indices=1)}))
    case("fn_str_hashed", lambda: run({"s": FS.string_hashed(num_bins=5)}))
    case("fn_int_hashed_int", lambda: run({"i": FS.integer_hashed(num_bins=5, output_mode="int")}, output_mode="dict"))
    case("fn_float", lambda: run({"f": FS.float(name="ff")}))
    case("bad_kind", lambda: FS(features={"f": "floaty"}))
    case("bad_output_mode", lambda: FS(features={"f": "float"}, output_mode="tuple"))
    case("no_features", lambda: FS(features={}))
    case("cross_unknown", lambda: FS(features={"i": "integer_categorical"}, crosses=[("i", "zz")]))
    case("cross_concat_no_dim", lambda: type(FS(features={"i": "integer_categorical", "s": "string_categorical"}, crosses=[("i", "s")])).__name__)
    case("call_before_adapt", lambda: FS(features={"i": "integer_categorical"})(one))
    case("adapt_not_dataset", lambda: FS(features={"f": "float_normalized"}).adapt(data))
    def enc():
        fs = FS(features={"f": "float_normalized", "i": "integer_categorical", "s": "string_hashed"}, hashing_dim=4)
        fs.adapt(ds())
        e = fs.get_encoded_features()
        ins = fs.get_inputs()
        return [sorted((k, list(v.shape), str(v.dtype)) for k, v in ins.items()), list(e.shape), str(e.dtype)]
    case("encoded_features", enc)
    def enc_dict():
        fs = FS(features={"f": "float_normalized", "i": "integer_categorical"}, output_mode="dict")
        fs.adapt(ds())
        e = fs.get_encoded_features()
        return sorted((k, list(v.shape), str(v.dtype)) for k, v in e.items())
    case("encoded_features_dict", enc_dict)
    def model():
        fs = FS(features={"f": "float_normalized", "i": "integer_categorical", "s": "string_categorical"})
        fs.adapt(ds())
        x = fs.get_encoded_features()
        y = keras.layers.Dense(1, kernel_initializer="ones")(x)
        m = keras.Model(fs.get_inputs(), y)
        return m.predict({k: v[:2] for k, v in data.items()}, verbose=0)
    case("model_on_encoded", model)
    def mapped():
        fs = FS(features={"f": "float_rescaled", "s": "string_categorical"})
        fs.adapt(ds())
        d = ds().map(lambda x: fs(x))
        return [b for b in d]
    case("dataset_map", mapped)
    def cfg():
        fs = FS(features={"f": "float_normalized", "s": FS.string_categorical(max_tokens=3)}, crosses=[("f", "s")] if False else [], output_mode="dict")
        c = fs.get_config()
        return sorted(c.keys()), c["output_mode"], sorted(c["features"].keys())
    case("get_config", cfg)
    def roundtrip():
        fs = FS(features={"f": "float_normalized", "i": "integer_categorical", "s": "string_categorical"}, crosses=[("i", "s")], crossing_dim=8)
        fs.adapt(ds())
        path = os.path.join(tempfile.mkdtemp(), "fs.keras")
        fs.save(path)
        fs2 = keras.models.load_model(path)
        return [fs(one), fs2(one), type(fs2).__name__]
    case("save_load", roundtrip)
    def save_bad():
        fs = FS(features={"f": "float"}); fs.adapt(ds())
        fs.save(os.path.join(tempfile.mkdtemp(), "fs.h5"))
    case("save_bad_ext", save_bad)
    def from_cfg():
        fs = FS(features={"f": "float_normalized", "s": "string_categorical"}); fs.adapt(ds())
        fs2 = FS.from_config(fs.get_config())
        return [type(fs2).__name__, fs2(one)]
    case("from_config_unadapted_call", from_cfg)
    def batch_call():
        fs = FS(features={"f": "float", "i": "integer_categorical"}); fs.adapt(ds())
        return fs({"f": data["f"][:2], "i": data["i"][:2]})
    case("batch_call", batch_call)
    def scalar_call():
        fs = FS(features={"f": "float", "i": "integer_categorical"}); fs.adapt(ds())
        return fs({"f": np.float32(2.0), "i": np.int64(3)})
    case("scalar_call", scalar_call)
    def missing_key():
        fs = FS(features={"f": "float", "i": "integer_categorical"}); fs.adapt(ds())
        return fs({"f": data["f"][:2]})
    case("missing_key", missing_key)
    def not_dict():
        fs = FS(features={"f": "float"}); fs.adapt(ds())
        return fs(data["f"])
    case("not_dict", not_dict)
    case("repr_feature", lambda: sorted(FS.float_normalized().__dict__.keys()) if hasattr(FS.float_normalized(), "__dict__") else None)
    return R


@clause("keras.utils.feature-space", ref="tf221")
def test_feature_space_kinds_crosses_modes_and_refusals(keras, tf):
    """Each FeatureSpace call of the probe gives TF 2.21's value, or its error class and message."""
    run_table(_cases(keras, tf), EXPECTED, "FeatureSpace")
