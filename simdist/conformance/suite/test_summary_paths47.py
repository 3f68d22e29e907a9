"""model.summary() on the paths the suite had not run (a coverage run of the whole suite on simdist, forty-sixth
session: summary.py 79%): `layer_range` (Keras 3.15's get_layer_index_bound_by_layer_name: each name a regex matched
at the start of layer names, both must match, the span runs from the first match of one to the last match of the
other, in either order), its checks, a console too narrow, unbuilt layers' "0 (unbuilt)" and "?" shape, and
show_trainable's column with a frozen layer and a long name wrapped (clause keras.model.summary).

Expected layer lists, messages and lines were observed on TF 2.21 + Keras 3.15 (forty-seventh session,
/work/wt/lead47_logs/probe/summary_probe.py run beside simdist).
"""

from __future__ import annotations

import re

import pytest

from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause


def _text(model, **kwargs) -> str:
    lines: list[str] = []
    model.summary(print_fn=lambda s, **_: lines.append(s), **kwargs)
    return "\n".join(lines)


def _five(keras):
    L = keras.layers
    return keras.Sequential([keras.Input((4,))] + [L.Dense(4, name=n) for n in ("d_a", "x_b", "d_c", "x_d", "d_e")],
                            name="five")


#: layer_range -> the Dense layers summary() shows (TF 2.21), or (class, message)
_RANGES = [
    (["d_", "x_b"], ["d_a", "x_b"]),
    (["x_", "d_a"], ["d_a", "x_b", "d_c", "x_d"]),
    (["d_c", "d_c"], ["d_c"]),
    (["x_d", "d_a"], ["d_a", "x_b", "d_c", "x_d"]),
    ([".*_c", "x_"], ["d_c", "x_d"]),
    (["d_a", "nope"], ("ValueError", "Passed layer_names do not match the layer names in the model. Received: "
                                     "['d_a', 'nope']")),
    (["nope", "d_a"], ("ValueError", "Passed layer_names do not match the layer names in the model.")),
    (["d_a"], ("ValueError", "layer_range must be a list or tuple of length 2. Received: layer_range = ['d_a'] of "
                             "length 1")),
    ([1, "d_a"], ("ValueError", "layer_range should contain string type only. Received: [1, 'd_a']")),
]


@clause("keras.model.summary", ref="tf221")
@pytest.mark.parametrize("layer_range,want", _RANGES, ids=[str(r) for r, _ in _RANGES])
def test_summary_layer_range(keras, layer_range, want):
    """summary(layer_range=[a, b]) shows the layers Keras 3.15's bounds select, or refuses as it does."""
    if isinstance(want, tuple):
        check(f"summary(layer_range={layer_range})", lambda: _text(_five(keras), layer_range=layer_range), *want)
        return
    shown = re.findall(r"│ (\w+) \(Dense\)", _text(_five(keras), layer_range=layer_range))
    assert shown == want, f"summary(layer_range={layer_range}) shows {shown}, but should show {want} (TF 2.21)"


@clause("keras.model.summary", ref="tf221")
def test_summary_narrow_unbuilt_and_trainable(keras):
    """A console narrower than 4 characters is refused; unbuilt layers show '?' and '0 (unbuilt)'; show_trainable adds
    a 'Trai…' column (N for a frozen layer, - for one without weights) and a long name wraps its type to a second
    line."""
    L = keras.layers

    def seq():
        return keras.Sequential([keras.Input((8,)), L.Dense(16, name="a_rather_long_dense_layer_name_that_wraps_around"),
                                 L.Dropout(0.1, name="drop"), L.Dense(2, name="out")], name="seq_model")

    check("summary(line_length=3)", lambda: _text(seq(), line_length=3), "ValueError",
          "Insufficient console width to print summary.")
    text = _text(keras.Sequential([L.Dense(3, name="u1"), L.Dense(2, name="u2")], name="unbuilt_seq"))
    for line in ("│ u1 (Dense)                      │ ?                      │   0 (unbuilt) │",
                 "│ u2 (Dense)                      │ ?                      │   0 (unbuilt) │", " Total params: 0 (0.00 B)"):
        assert line in text.splitlines(), f"summary of an unbuilt Sequential lacks the line {line!r}:\n{text}"
    model = seq()
    model.layers[0].trainable = False
    text = _text(model, show_trainable=True)
    want = ["┃ Layer (type)                ┃ Output Shape          ┃    Param # ┃ Trai… ┃",
            "│ a_rather_long_dense_layer_… │ (None, 16)            │        144 │   N   │",
            "│ (Dense)                     │                       │            │       │",
            "│ drop (Dropout)              │ (None, 16)            │          0 │   -   │",
            "│ out (Dense)                 │ (None, 2)             │         34 │   Y   │",
            " Trainable params: 34 (136.00 B)", " Non-trainable params: 144 (576.00 B)"]
    missing = [line for line in want if line not in text.splitlines()]
    assert not missing, f"summary(show_trainable=True) with the first Dense frozen lacks {missing}:\n{text}"
