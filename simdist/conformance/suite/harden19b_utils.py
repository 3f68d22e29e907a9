"""What ``test_harden19_utils.py`` observes of keras.utils' data tools, as plain JSON values, over
option grids: run on the backend under test by the suite and on real TF 2.21 + Keras 3.15 by the
recorder (``python -m simdist.conformance.suite.harden19b_record``), whose results are the expected
values. Inputs are exact (aranges, small integers); nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.conformance.suite.harden16_observe import plain

#: split_dataset: (data kind, left_size, right_size, shuffle, seed). Kinds: "array" (10 x 2),
#: "tuple" (x, y), "dict" ({"a", "b"}), "dataset" (tf.data of (x, y) slices), "dictds" (tf.data of {"a", "b"} slices),
#: "list" (a list of arrays).
SPLIT_SIZES: tuple[tuple[Any, Any], ...] = (
    (3, None), (None, 4), (3, 4), (7, 3), (0.3, None), (None, 0.4), (0.2, 0.5), (0.5, 0.5), (0.25, None),
    (None, 0.15), (0, 10), (10, None), (2, 0.3), (0.6, 2), (8, 5), (0.7, 0.5), (None, None), (11, None),
    (1.5, None), (-1, None))
SPLIT_KINDS = ("array", "tuple", "dict", "dataset", "list")
SPLIT_CASES: dict[str, tuple[str, Any, Any, bool, Any]] = {
    **{f"{kind}/{left}/{right}": (kind, left, right, False, None)
       for kind in SPLIT_KINDS for left, right in SPLIT_SIZES
       if kind in ("array", "tuple") or (left, right) in ((3, 4), (0.3, None), (None, 0.4), (8, 5))},
    **{f"{kind}/shuffle{seed}/{left}/{right}": (kind, left, right, True, seed)
       for kind in ("array", "tuple", "dictds") for seed in (3, 11) for left, right in ((4, None), (3, 5))},
    **{f"dictds/{left}/{right}": ("dictds", left, right, False, None) for left, right in ((3, 4), (None, 0.4))},
}

#: timeseries_dataset_from_array: keyword arguments over an arange of 20 rows (targets: "ahead"
#: are the data shifted by the sequence length, "none" is no targets).
TIMESERIES_CASES: dict[str, dict[str, Any]] = {
    "len3": dict(sequence_length=3, batch_size=4),
    "len5_stride2": dict(sequence_length=5, sequence_stride=2, batch_size=3),
    "len4_rate2": dict(sequence_length=4, sampling_rate=2, batch_size=5),
    "len3_stride3_rate2": dict(sequence_length=3, sequence_stride=3, sampling_rate=2, batch_size=2),
    "targets": dict(sequence_length=4, targets="ahead", batch_size=4),
    "targets_stride2_rate3": dict(sequence_length=3, sequence_stride=2, sampling_rate=3, targets="ahead", batch_size=3),
    "start5": dict(sequence_length=3, start_index=5, batch_size=4),
    "end12": dict(sequence_length=3, end_index=12, batch_size=4),
    "start2_end15_targets": dict(sequence_length=4, start_index=2, end_index=15, targets="ahead", batch_size=4),
    "start4_end18_stride2_rate2": dict(sequence_length=3, sequence_stride=2, sampling_rate=2, start_index=4,
                                       end_index=18, batch_size=2),
    "batch_none": dict(sequence_length=6, sequence_stride=4, batch_size=None),
    "batch_big": dict(sequence_length=2, batch_size=64),
    "whole": dict(sequence_length=20, batch_size=2),
    # (not here: sequence_length=21, no window -- TF gives an empty dataset, simdist's tf.data map
    # probe raises on positions[i] of an empty array: open, docs/conformance.md, Nineteenth session)
    "rows2d": dict(sequence_length=3, sequence_stride=5, batch_size=2, rows2d=True),
    "shuffle_false": dict(sequence_length=3, shuffle=False, batch_size=7),
}

#: pad_sequences grid: the options crossed over one ragged input (and a float input for dtype).
PAD_GRID: tuple[dict[str, Any], ...] = tuple(
    dict(maxlen=maxlen, padding=padding, truncating=truncating, value=value, dtype=dtype)
    for maxlen in (None, 3, 6) for padding in ("pre", "post") for truncating in ("pre", "post")
    for value, dtype in ((0.0, "int32"), (-1.0, "int32"), (2.5, "float32"), (0.0, "float64")))
PAD_SEQUENCES = ([1, 2, 3], [4, 5], [6, 7, 8, 9, 10], [], [11])

#: to_categorical: (labels, num_classes).
CATEGORICAL_CASES: dict[str, tuple[Any, Any]] = {
    "flat": ([0, 2, 1, 3], None), "flat_num6": ([0, 2, 1, 3], 6), "column": ([[1], [0], [2]], None),
    "matrix": ([[0, 1], [2, 1]], None), "matrix_num4": ([[0, 1], [2, 1]], 4), "scalar_list": ([2], 3),
    "float_labels": ([0.0, 2.0, 1.0], None),
}

#: normalize: (axis, order) over one 3 x 4 matrix with a zero row.
NORMALIZE_CASES: tuple[tuple[int, Any], ...] = ((-1, 2), (0, 2), (1, 1), (-1, 1), (0, 1), (-1, 3))


#: The public functions and classes of tf.keras.utils these programs call (observe_*).
ENUMERATED = ("split_dataset", "timeseries_dataset_from_array", "pad_sequences", "to_categorical", "normalize",
              "pack_x_y_sample_weight", "unpack_x_y_sample_weight", "standardize_dtype", "get_registered_name",
              "serialize_keras_object", "deserialize_keras_object", "is_keras_tensor", "get_source_inputs")
#: The others, each with where it is checked instead (tests/conformance/test_harden19b_coverage.py
#: fails on a name in neither list).
NOT_ENUMERATED = {
    "register_keras_serializable": "harden19b_roundtrip (the subclassed model's registration), keras.saving.keras-file",
    "get_registered_object": "harden19b_roundtrip (finds the registered model class)",
    "CustomObjectScope": "test_keras_utils_data.py::test_custom_object_scope_resolves_names_while_deserializing",
    "custom_object_scope": "test_keras_utils_data.py::test_custom_object_scope_resolves_names_while_deserializing",
    "get_custom_objects": "test_keras_utils_data.py (the scope's lookup order)",
    "Progbar": "harden19b_callbacks' progbar cases (ProgbarLogger's text) and test_harden16_hooks",
    "PyDataset": "a data source for fit, not a data transformation: the fit/data-adapter clauses",
    "Sequence": "PyDataset's alias",
    "clear_session": "every suite test's keras fixture",
    "set_random_seed": "seeds, not outputs: the random-seed clauses",
    "get_file": "a download cache, not a data transformation: tests/keras/test_applications_tf.py's files case "
                "(file:// origin, hash check, cache hit, tar extraction; clause keras.applications)",
    # (session 21, codecs21: files in, datasets and PIL images out; no suite program enumerates them yet)
    "image_dataset_from_directory": "test_codecs21.py::test_image_dataset_from_directory_order_labels_and_split "
                                    "(and tests/keras/test_dataset_from_directory_tf.py against live Keras)",
    "text_dataset_from_directory": "tests/keras/test_dataset_from_directory_tf.py against live Keras (not in the suite yet)",
    "load_img": "tests/keras/test_dataset_from_directory_tf.py against live Keras (not in the suite yet)",
    "img_to_array": "tests/keras/test_dataset_from_directory_tf.py against live Keras (not in the suite yet)",
    "array_to_img": "tests/keras/test_dataset_from_directory_tf.py against live Keras (not in the suite yet)",
    "save_img": "tests/keras/test_dataset_from_directory_tf.py against live Keras (not in the suite yet)",
    # (session 23, kconfig23: switches and a settings holder, not transformations)
    "Config": "test_keras_config.py::test_keras_utils_config_reads_writes_and_freezes",
    "audio_dataset_from_directory": "tests/keras/test_audio_dataset_tf.py against live Keras (not in the suite yet)",
    "disable_interactive_logging": "test_keras_config.py::test_keras_config_interactive_logging_chooses_stdout_or_absl",
    "enable_interactive_logging": "test_keras_config.py (each test's config fixture restores it)",
    "is_interactive_logging_enabled": "test_keras_config.py::test_keras_config_interactive_logging_chooses_stdout_or_absl",
    # (session 22, textvec22)
    "FeatureSpace": "test_textvec22.py::test_textvec22_feature_space_concat_and_dict "
                    "(and tests/keras/test_textvec22_tf.py against live Keras: kinds, crosses, config, save/load)",
}


def case_tables_hash() -> str:
    """The SHA-256 of the tables (a recording made from other tables is stale)."""
    import hashlib  # noqa: PLC0415

    text = repr((sorted(SPLIT_CASES.items()), sorted(TIMESERIES_CASES.items()), PAD_GRID, PAD_SEQUENCES,
                 sorted(CATEGORICAL_CASES.items()), NORMALIZE_CASES))
    return hashlib.sha256(text.encode()).hexdigest()


def _error(e: BaseException) -> dict[str, str]:
    return {"error": type(e).__name__}


def _elements(ds: Any) -> list[Any]:
    """A dataset's elements as plain values (dicts and tuples kept as dicts and lists)."""
    return [plain(e) for e in ds.as_numpy_iterator()]


def _split_data(tf: Any, kind: str) -> Any:
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10, dtype=np.int64) * 10
    if kind == "array":
        return x
    if kind == "tuple":
        return (x, y)
    if kind == "dict":
        return {"a": x, "b": y}
    if kind == "list":
        return [x, y]
    if kind == "dictds":
        return tf.data.Dataset.from_tensor_slices({"a": x, "b": y})
    return tf.data.Dataset.from_tensor_slices((x, y))


def observe_split(tf: Any, name: str) -> Any:
    """split_dataset's two parts, element by element, or the error's class."""
    kind, left, right, shuffle, seed = SPLIT_CASES[name]
    try:
        a, b = tf.keras.utils.split_dataset(_split_data(tf, kind), left_size=left, right_size=right,
                                            shuffle=shuffle, seed=seed)
    except Exception as e:  # noqa: BLE001 - the error's class is the observation
        return _error(e)
    return {"left": _elements(a), "right": _elements(b),
            "left_cardinality": int(a.cardinality()), "right_cardinality": int(b.cardinality())}


def observe_timeseries(tf: Any, name: str) -> Any:
    """timeseries_dataset_from_array's batches (inputs and targets), or the error's class."""
    kw = dict(TIMESERIES_CASES[name])
    data = np.arange(40 if kw.pop("rows2d", False) else 20, dtype=np.int64).reshape(20, -1)
    targets = None
    if kw.pop("targets", None) == "ahead":
        targets = np.arange(20, dtype=np.int64)[kw["sequence_length"]:] * 100
    try:
        ds = tf.keras.utils.timeseries_dataset_from_array(data, targets, **kw)
        return {"batches": _elements(ds)}
    except Exception as e:  # noqa: BLE001
        return _error(e)


def observe_pad(tf: Any) -> list[Any]:
    """pad_sequences over the grid: each output's dtype and values, or the error's class."""
    out = []
    floats = [[0.5, 1.5, 2.5], [3.25], [], [4.75, 5.5, 6.0, 7.0]]
    for kw in PAD_GRID:
        row = []
        for seqs in (PAD_SEQUENCES, floats):
            try:
                r = tf.keras.utils.pad_sequences([list(s) for s in seqs], **kw)
                row.append({"dtype": str(np.asarray(r).dtype), "value": plain(np.asarray(r))})
            except Exception as e:  # noqa: BLE001
                row.append(_error(e))
        out.append(row)
    return out


def observe_categorical(tf: Any) -> dict[str, Any]:
    """to_categorical of each case: dtype, shape and values."""
    out = {}
    for name, (labels, num) in sorted(CATEGORICAL_CASES.items()):
        try:
            r = np.asarray(tf.keras.utils.to_categorical(np.asarray(labels), num_classes=num))
            out[name] = {"dtype": str(r.dtype), "shape": list(r.shape), "value": plain(r)}
        except Exception as e:  # noqa: BLE001
            out[name] = _error(e)
    return out


def observe_normalize(tf: Any) -> list[Any]:
    """normalize of one matrix (a zero row included) over axes and orders."""
    x = np.array([[3.0, 4.0, 0.0, 12.0], [0.0, 0.0, 0.0, 0.0], [1.0, -2.0, 2.0, 4.0]], dtype=np.float32)
    out = []
    for axis, order in NORMALIZE_CASES:
        try:
            r = np.asarray(tf.keras.utils.normalize(x, axis=axis, order=order))
            out.append({"dtype": str(r.dtype), "value": plain(r)})
        except Exception as e:  # noqa: BLE001
            out.append(_error(e))
    return out


def observe_misc(tf: Any) -> dict[str, Any]:
    """The other keras.utils functions simdist ships: pack/unpack_x_y_sample_weight,
    standardize_dtype, get_registered_name, serialize_keras_object of a built-in,
    is_keras_tensor and get_source_inputs."""
    u = tf.keras.utils
    x, y, w = np.ones((2, 1), np.float32), np.zeros((2,), np.float32), np.full((2,), 0.5, np.float32)
    out: dict[str, Any] = {}

    def kinds(v: Any) -> Any:
        return [type(v).__name__, [None if e is None else "array" for e in v] if isinstance(v, tuple) else None]

    out["pack"] = [kinds(u.pack_x_y_sample_weight(x)), kinds(u.pack_x_y_sample_weight(x, y)),
                   kinds(u.pack_x_y_sample_weight(x, y, w)), kinds(u.pack_x_y_sample_weight((x, y)))]
    out["unpack"] = [kinds(u.unpack_x_y_sample_weight(v)) for v in (x, (x,), (x, y), (x, y, w))]
    try:
        u.unpack_x_y_sample_weight((x, y, w, w))
        out["unpack4"] = "no error"
    except Exception as e:  # noqa: BLE001
        out["unpack4"] = _error(e)
    out["standardize_dtype"] = []
    for d in ("float32", "float", "int", np.float64, "float16", "bfloat16", "bool", np.int8, "complex64", None):
        try:
            out["standardize_dtype"].append(u.standardize_dtype(d))
        except Exception as e:  # noqa: BLE001
            out["standardize_dtype"].append(_error(e))
    out["registered_name"] = [u.get_registered_name(tf.keras.layers.Dense),
                              u.get_registered_name(tf.keras.losses.MeanSquaredError)]
    ser = u.serialize_keras_object(tf.keras.losses.Huber(delta=2.0, name="h"))
    out["serialize"] = {k: ser[k] for k in sorted(ser) if k in ("class_name", "module", "config")}
    back = u.deserialize_keras_object(ser)
    out["deserialize"] = [type(back).__name__, plain(back.get_config())]
    inp = tf.keras.Input((3,), name="src")
    h = tf.keras.layers.Dense(2)(inp)
    out["is_keras_tensor"] = [bool(u.is_keras_tensor(inp)), bool(u.is_keras_tensor(h)),
                              bool(u.is_keras_tensor(np.ones(2)))]
    out["source_inputs"] = [t.name for t in u.get_source_inputs(h)]
    return out
