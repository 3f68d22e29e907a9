"""Keras's scratch FuncGraph (keras/src/backend/tensorflow/core.py `compute_output_spec`, clause
keras.reg.scratch-graph-constant): Keras 3.15 infers a call's outputs, and builds a layer without a build() of its own
by running its call, inside a fresh `tf.__internal__.FuncGraph("scratch_graph")`. A tensor made there is a constant of
that graph: used after the graph is left (eagerly, in a tf.function, in another scratch graph that is not inside it),
TF 2.21 raises TypeError "<tf.Tensor '<scope>/Const:0' shape=() dtype=float32> is out of scope and cannot be used
here". simdist runs those calls eagerly (keras_tensor.py); this module keeps the graphs as scopes, so that the objects
that keep such a tensor (the L1 and Orthogonal regularizers' factors) can refuse a use outside them."""

from __future__ import annotations

from typing import Any

__all__ = ["scratch_graph", "mark", "check"]

_open: list[int] = []
_made = [0]


class scratch_graph:
    """A scratch FuncGraph's scope (nested ones see their enclosing graphs' tensors, as a FuncGraph captures them)."""

    def __enter__(self) -> "scratch_graph":
        _made[0] += 1
        _open.append(_made[0])
        return self

    def __exit__(self, *exc: object) -> None:
        _open.pop()


def mark() -> tuple[int, str] | None:
    """Where a tensor made now lives: (the innermost scratch graph, its TF name) inside one, else None (eager)."""
    if not _open:
        return None
    from simdist.keras.naming import current_path
    scope = current_path().split("/")[-1]   # (a FuncGraph's names start afresh: the innermost scope, the layer's)
    return _open[-1], (f"{scope}/Const:0" if scope else "Const:0")


def check(marked: Any, dtype: str = "float32") -> None:
    """Raise TF 2.21's TypeError when a tensor `mark` gave is used outside its scratch graph (and the graphs inside it)."""
    if marked is None or marked[0] in _open:
        return
    raise TypeError(f"<tf.Tensor '{marked[1]}' shape=() dtype={dtype}> is out of scope and cannot be used here. Use "
                    "return values, explicit Python locals or TensorFlow collections to access it.\nPlease see "
                    "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values for "
                    "more information.")
