"""`Model.summary()` as Keras 3.15 prints it (keras/src/utils/summary_utils.py), without `rich`.

Keras renders a `rich` table (heavy-head box, a rule between rows) captured without colours;
this module draws the same characters: the line length is min(88, terminal columns - 4) for a
sequential-like model (min(108, ...) with a "Connected to" column otherwise), the columns get
Keras's positions, then rich's fitting (column width + 2 padding, reduced evenly with
`ratio_reduce` when the table would be wider than the line) and rich's word wrapping (a word
too long for its cell is cut with "…"); a table wider than the console (an explicit
`line_length` above the terminal's columns) is cropped at the console's width, as rich does.
"""

from __future__ import annotations

import math
import re
import shutil
from typing import Any, Callable

import numpy as np

from simdist.keras import dtype_policies

__all__ = ["print_summary", "format_layer_shape", "count_params", "weight_memory_size", "readable_memory_size"]

_WORD = re.compile(r"\s*\S+\s*")


def count_params(weights: list[Any]) -> int:
    return int(sum(math.prod(w.shape.as_list()) for w in weights))


def _dtype_bits(dtype: str) -> int:
    dtype = dtype_policies.standardize_dtype(dtype)
    if dtype == "bool":
        return 1
    if dtype == "string":
        return 0
    return int(np.dtype(dtype).itemsize * 8) if dtype != "bfloat16" else 16


def weight_memory_size(weights: list[Any]) -> float:
    """Bytes of the distinct weights."""
    unique = {id(w): w for w in weights}.values()
    return sum(math.prod(w.shape.as_list()) * _dtype_bits(w.dtype) for w in unique) / 8


def readable_memory_size(size: float) -> str:
    for unit in ["B", "KB", "MB", "GB", "TB", "PB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def format_layer_shape(layer: Any) -> str:
    """The output shape(s) of a layer: from its last call node, else from its build shapes, else "?"."""
    if not layer._inbound_nodes and not getattr(layer, "_build_shapes_dict", None):
        return "?"

    def fmt(shape: Any) -> str:
        return f"({', '.join(str(x) for x in shape)})"

    if layer._inbound_nodes:
        outputs = layer._inbound_nodes[-1].output_tensors
        shapes = [fmt(x.shape) for x in outputs]
        if len(shapes) == 1:
            return shapes[0]
        return str(shapes).replace("'", "")
    try:
        if hasattr(type(layer), "output_shape"):
            try:
                return fmt(layer.output_shape)
            except AttributeError:
                pass
        out = layer.compute_output_shape(**layer._build_shapes_dict)
    except NotImplementedError:
        return "?"
    if isinstance(out, tuple) and all(isinstance(d, (int, type(None))) for d in out):
        return fmt(out)
    return str([fmt(s) for s in out]).replace("'", "")


# --- rich's table layout, for the cases a summary needs -----------------------------------------------
def _ratio_reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining = total
    out = []
    for ratio, maximum, value in zip(ratios, maximums, values):
        if ratio and total_ratio > 0:
            distributed = min(maximum, round(ratio * remaining / total_ratio))
            out.append(value - distributed)
            remaining -= distributed
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _ratio_distribute(total: int, ratios: list[int]) -> list[int]:
    """rich's ratio_distribute (no minimums): `total` split in proportion to `ratios`, rounding up as it goes."""
    total_ratio = sum(ratios)
    remaining = total
    out = []
    for ratio in ratios:
        distributed = math.ceil(ratio * remaining / total_ratio) if total_ratio > 0 else remaining
        out.append(distributed)
        total_ratio -= ratio
        remaining -= distributed
    return out


def _divide_line(text: str, width: int) -> list[int]:
    """rich's divide_line without folding: where to break `text` so words fit in `width`."""
    breaks: list[int] = []
    offset = 0
    for m in _WORD.finditer(text):
        start, word = m.start(), m.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            if start:
                breaks.append(start)
            offset = len(word)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    return breaks


def _wrap(text: str, width: int, justify: str) -> list[str]:
    """rich's Text.wrap with overflow "ellipsis": each line exactly `width` cells, justified left,
    right or center (rich's rule: the odd space of a centred cell goes to the right)."""
    lines: list[str] = []
    for raw in text.split("\n"):
        cuts = [0] + _divide_line(raw, width) + [len(raw)]
        pieces = [raw[a:b] for a, b in zip(cuts, cuts[1:])] or [""]
        for piece in pieces:
            if len(piece) > width:   # rstrip_end: trailing spaces beyond the width go
                stripped = piece.rstrip()
                piece = stripped if len(stripped) >= width else stripped + " " * (width - len(stripped))
            if justify in ("right", "center"):
                piece = piece.rstrip()
            if len(piece) > width:
                piece = piece[: width - 1] + "…"
            if justify == "center":   # rich: pad_left((width - len) // 2), the rest on the right
                piece = " " * ((width - len(piece)) // 2) + piece
            lines.append(piece.rjust(width) if justify == "right" else piece.ljust(width))
    return lines


def _render_table(header: list[str], rows: list[list[str]], widths: list[int], justify: list[str]) -> list[str]:
    inner = [w - 2 for w in widths]

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * w for w in widths) + right

    def render_row(cells: list[str], bar: str, bottom: bool = False) -> list[str]:
        wrapped = [_wrap(c, w, j) for c, w, j in zip(cells, inner, justify)]
        height = max(len(c) for c in wrapped)
        if bottom:   # rich aligns a header row's cells to the bottom (Table._render's align_cell), others to the top
            wrapped = [[" " * w] * (height - len(c)) + c for c, w in zip(wrapped, inner)]
        out = []
        for i in range(height):
            parts = [(c[i] if i < len(c) else " " * w) for c, w in zip(wrapped, inner)]
            out.append(bar + bar.join(f" {p} " for p in parts) + bar)
        return out

    lines = [rule("┏", "━", "┳", "┓")]
    lines += render_row(header, "┃", bottom=True)
    lines.append(rule("┡", "━", "╇", "┩"))
    for i, row in enumerate(rows):
        if i:
            lines.append(rule("├", "─", "┼", "┤"))
        lines += render_row(row, "│")
    lines.append(rule("└", "─", "┴", "┘"))
    return lines


def _layer_range(layers: list[Any], layer_range: Any) -> tuple[int, int]:
    if layer_range is None:
        return 0, len(layers)
    if len(layer_range) != 2:
        raise ValueError(f"layer_range must be a list or tuple of length 2. Received: layer_range = {layer_range} "
                         f"of length {len(layer_range)}")
    if not isinstance(layer_range[0], str) or not isinstance(layer_range[1], str):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    # (Keras 3.15's get_layer_index_bound_by_layer_name: each name a regex matched at the start of layer names; both
    # must match some layer; the span runs from the first match of one to the last match of the other)
    lower = [i for i, l in enumerate(layers) if re.match(layer_range[0], l.name)]
    upper = [i for i, l in enumerate(layers) if re.match(layer_range[1], l.name)]
    if not lower or not upper:
        raise ValueError(f"Passed layer_names do not match the layer names in the model. Received: {layer_range}")
    if min(lower) > max(upper):
        return min(upper), max(lower) + 1
    return min(lower), max(upper) + 1


def print_summary(model: Any, line_length: int | None = None, positions: Any = None,
                  print_fn: Callable[..., Any] | None = None, expand_nested: bool = False,
                  show_trainable: bool = False, layer_range: Any = None) -> None:
    """Keras's print_summary (see the module docstring); `print_fn` gets the whole text at once."""
    from simdist.keras.models.functional import Functional
    from simdist.keras.models.sequential import Sequential

    relevant_nodes: list[Any] = []
    if isinstance(model, Sequential) or not isinstance(model, Functional):
        sequential_like = True
        layers = model.layers
    else:
        layers = model._operations
        sequential_like = True
        nodes: list[Any] = []
        for v in model._nodes_by_depth.values():
            if len(v) > 1 or (len(v) == 1 and len(v[0].input_tensors) > 1):
                sequential_like = False
                break
            nodes += v
        if sequential_like:
            node_ids = {id(n) for n in nodes}
            for layer in model.layers:
                seen = False
                for node in layer._inbound_nodes:
                    if id(node) in node_ids:
                        if seen:
                            sequential_like = False
                            break
                        seen = True
                if not sequential_like:
                    break
    if sequential_like:
        default_length = 88
        positions = positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        justify = ["left", "left", "right"]
    else:
        default_length = 108
        positions = positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        justify = ["left", "left", "right", "left"]
        for v in model._nodes_by_depth.values():
            relevant_nodes += v
    if show_trainable:
        default_length += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        justify.append("center")
    default_length = min(default_length, shutil.get_terminal_size().columns - 4)
    line_length = line_length or default_length
    column_widths = []
    current = 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        column_widths.append(width)
        current += width
    if len(column_widths) < len(header):   # (Keras reads positions[i] for each header column: IndexError)
        raise IndexError("list index out of range")
    # Keras makes one rich column per header name (widths of positions past the header's are unused); rich's
    # Table(width=line_length) measures each fixed-width column (width + 2 of padding) at most as wide as the
    # table's inside, reduces them evenly to fit, and, since a table given a width expands, spreads what is left
    # over in proportion to the widths (rich's Table._calculate_column_widths, ratio_distribute)
    max_width = line_length - (min(len(header), len(column_widths)) + 1)
    widths = [min(w + 2, max_width) for w in column_widths[:len(header)]]
    if sum(widths) > max_width:
        widths = _ratio_reduce(sum(widths) - max_width, [1] * len(widths), widths, widths)
    if 0 < sum(widths) < max_width:
        widths = [w + pad for w, pad in zip(widths, _ratio_distribute(max_width - sum(widths), widths))]
    relevant_ids = {id(n) for n in relevant_nodes}

    def connections(layer: Any) -> str:
        out = ""
        for node in layer._inbound_nodes:
            if relevant_ids and id(node) not in relevant_ids:
                continue
            for kt in node.input_tensors:
                hist = kt._keras_history
                if out:
                    out += ", "
                out += f"{hist.operation.name}[{hist.node_index}][{hist.tensor_index}]"
        return out or "-"

    def fields(layer: Any, prefix: str = "") -> list[str]:
        name = f"{prefix}{layer.name} ({type(layer).__name__})"
        if not hasattr(layer, "built"):
            params = "0"
        elif not layer.built:
            params = "0 (unbuilt)"
        else:
            params = f"{layer.count_params():,}"
        row = [name, format_layer_shape(layer), params]
        if not sequential_like:
            row.append(connections(layer))
        if show_trainable:
            row.append(("Y" if layer.trainable else "N") if getattr(layer, "weights", None) else "-")
        return row

    def layer_rows(layer: Any, level: int = 0) -> list[list[str]]:
        prefix = "   " * level + "└ " if level else ""
        rows = [fields(layer, prefix)]
        if expand_nested and getattr(layer, "layers", None):
            for sub in layer.layers:
                rows.extend(layer_rows(sub, level + 1))
        return rows

    lo, hi = _layer_range(layers, layer_range)
    rows: list[list[str]] = []
    for layer in layers[lo:hi]:
        rows.extend(layer_rows(layer))

    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    t_count, t_size = count_params(trainable), weight_memory_size(trainable)
    n_count, n_size = count_params(non_trainable), weight_memory_size(non_trainable)
    optimizer = getattr(model, "optimizer", None) if getattr(model, "compiled", False) else None
    opt_built = optimizer is not None and getattr(optimizer, "built", False)
    o_count = count_params(optimizer.variables) if opt_built else 0
    o_size = weight_memory_size(optimizer.variables) if opt_built else 0
    lines = [f'Model: "{model.name}"']
    # rich prints on a console as wide as the terminal (COLUMNS, else the terminal, else 80) and
    # crops every line of a wider table at that width (an explicit line_length can exceed it)
    console_width = shutil.get_terminal_size().columns
    lines += [line[:console_width] for line in _render_table(header, rows, widths, justify)]
    lines.append(f" Total params: {t_count + n_count + o_count:,} ({readable_memory_size(t_size + n_size + o_size)})")
    lines.append(f" Trainable params: {t_count:,} ({readable_memory_size(t_size)})")
    lines.append(f" Non-trainable params: {n_count:,} ({readable_memory_size(n_size)})")
    if opt_built:
        lines.append(f" Optimizer params: {o_count:,} ({readable_memory_size(o_size)})")
    text = "\n".join(lines) + "\n"
    from simdist.keras import io_utils
    if print_fn is None and not io_utils.is_interactive_logging_enabled():
        print_fn = io_utils.print_msg   # (Keras: the captured text to absl's logger, keras.config.globals)
    if print_fn is io_utils.print_msg:
        print_fn(text, line_break=False)
    elif print_fn is not None:
        print_fn(text)
    else:
        print(text, end="")
