"""`tf.nn.ctc_greedy_decoder`, `tf.nn.ctc_beam_search_decoder` (and v1's, with merge_repeated)
and `tf.nn.ctc_unique_labels` (clause ops.nn-ctc).

CTCGreedyDecoder (ctc_decoder_ops.cc): per example, for t < sequence_length[b], the first
maximal class of the frame (RowMax: strict >, so a leading NaN wins and a later one never),
emitted unless it is the blank (blank_index, negative from num_classes; default −1) or, with
merge_repeated, the class of the previous frame; log_probability[b, 0] accumulates −max in the
input's dtype, frame by frame. CTCBeamSearchDecoder (util/ctc/ctc_beam_search.h, default beam
scorer): the prefix-tree beam search over each frame's log-softmax (logit − (max +
log Σ exp(logit − max)), summed in class order with the C library's exp and log), blank the
last class, LogSumExp(a, b) = max + log1p(exp(min − max)) with kLogZero
= −inf; the beam (gtl::TopN of width beam_width) drops its lowest entry (its probabilities
reset) when a better child arrives; TopPaths takes the best top_paths entries (more than the
beam width: "requested more paths than the beam width."; more than the beam holds: "Less
leaves in the beam search than requested."), their label sequences (merge_repeated collapses
repeats at read-out) and total log probabilities. Both: inputs 3-D ("inputs is not a
3-Tensor"), not empty, float or double; sequence_length int32 [batch] ("len(sequence_length)
!= batch_size" and "sequence_length(b) <= max_time" are FailedPrecondition). Outputs: the
SparseTensor parts [n, 2] (batch, position), values, dense shape [batch, longest], int64.
Not differentiable. The beam is TF's gtl::TopN with libstdc++'s heap and sort steps
(gtl_top_n.py), so entries of equal probability come out in TF's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import dispatch, libm, trace_errors
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.gtl_top_n import TopN
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["ctc_greedy_decoder", "ctc_beam_search_decoder", "ctc_beam_search_decoder_v1", "ctc_unique_labels"]


def _validate(x: np.ndarray, seq: np.ndarray, op: str) -> None:
    """The kernel's checks; those TF's shape function also makes (ranks 3 and 1, equal batch
    dimensions) are marked with its ValueError for a tf.function being traced."""
    shapes = (list(x.shape), list(seq.shape))

    def bad(cls: Any, msg: str, traced: str | None = None) -> Exception:
        err = cls(None, None, f"{msg} [Op:{op}]")
        return trace_errors.mark_shape(err, traced, op, shapes) if traced else err
    if x.ndim != 3:
        raise bad(errors.InvalidArgumentError, "inputs is not a 3-Tensor", f"Shape must be rank 3 but is rank {x.ndim}")
    if x.size == 0 and not (context.in_function() and (seq.ndim != 1 or seq.shape[0] != x.shape[1])):
        # (ValidateInputsGenerateOutputs: before the sequence lengths, fuzz20 seed 3020261206 #63; a graph's
        # shape function refuses those first)
        raise bad(errors.InvalidArgumentError, "inputs must not be empty")
    if seq.ndim != 1:
        raise bad(errors.InvalidArgumentError, "sequence_length is not a vector",
                  f"Shape must be rank 1 but is rank {seq.ndim}")
    t_max, b = x.shape[0], x.shape[1]
    if seq.shape[0] != b:
        raise bad(errors.FailedPreconditionError, f"len(sequence_length) != batch_size.  len(sequence_length):  "
                                                  f"{seq.shape[0]} batch_size: {b}",
                  f"Dimensions must be equal, but are {b} and {seq.shape[0]}")
    if x.size == 0:
        raise bad(errors.InvalidArgumentError, "inputs must not be empty")
    for i in range(b):
        if not seq[i] <= t_max:
            raise bad(errors.FailedPreconditionError, f"sequence_length({i}) <= {t_max}")


def _decoder_sees(shapes: list, attrs: Any) -> bool:
    """Whether the decoders' shape function finds the error in the shapes a traced graph knows."""
    s0, s1 = shapes[0], shapes[1]
    if s0 is not None and len(s0) != 3 or s1 is not None and len(s1) != 1:
        return True
    return s0 is not None and s1 is not None and None not in (s0[1], s1[0]) and s0[1] != s1[0]


def _sparse_parts(seqs: list[list[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """StoreAllDecodedSequences for one path: indices [n, 2], values [n], shape [batch, longest]."""
    ind = [(b, t) for b, s in enumerate(seqs) for t in range(len(s))]
    vals = [v for s in seqs for v in s]
    longest = max((len(s) for s in seqs), default=0)
    return (np.array(ind, np.int64).reshape(-1, 2), np.array(vals, np.int64),
            np.array([len(seqs), longest], np.int64))


def _row_max(row: np.ndarray) -> tuple[Any, int]:
    """RowMax: the first class whose logit beats every earlier one (strict >)."""
    p, c = row[0], 0
    for i in range(1, row.shape[0]):
        if row[i] > p:
            p, c = row[i], i
    return p, c


def _greedy(x: np.ndarray, seq: np.ndarray, merge_repeated: bool = True, blank_index: int = -1) -> tuple:
    _validate(x, seq, "CTCGreedyDecoder")
    t_max, batch, n = x.shape
    blank = n + blank_index if blank_index < 0 else blank_index
    if not 0 <= blank < n:
        raise errors.InvalidArgumentError(None, None, f"blank_index expected to be between {-n} and {n - 1} but was "
                                                      f"{blank_index} [Op:CTCGreedyDecoder]")
    log_prob = np.zeros((batch, 1), x.dtype)
    seqs = []
    for b in range(batch):
        out, prev, acc = [], -1, x.dtype.type(0)
        for t in range(int(seq[b])):
            m, c = _row_max(x[t, b])
            acc = x.dtype.type(acc + (-m))
            if c != blank and not (merge_repeated and c == prev):
                out.append(c)
            prev = c
        log_prob[b, 0] = acc
        seqs.append(out)
    return (*_sparse_parts(seqs), log_prob)


class _Entry:
    """A BeamEntry: a prefix (parent, label), its children, its old and new probabilities
    (total, blank, label)."""

    __slots__ = ("parent", "label", "children", "old", "new", "id")

    def __init__(self, parent: "_Entry | None", label: int, zero: Any) -> None:
        self.parent, self.label, self.children = parent, label, {}
        self.old = [zero, zero, zero]
        self.new = [zero, zero, zero]

    def labels(self, merge_repeated: bool) -> list[int]:
        out, prev, c = [], -1, self
        while c.parent is not None:
            if not merge_repeated or c.label != prev:
                out.append(c.label)
            prev, c = c.label, c.parent
        return out[::-1]


class _Beam:
    """CTCBeamSearchDecoder with the default scorer, in the input's dtype; the beam is a
    gtl::TopN over entry ids (entries[i]), greater total probability first."""

    def __init__(self, num_classes: int, width: int, dtype: np.dtype) -> None:
        self.n, self.width, self.f = num_classes, width, dtype.type
        self.zero = self.f(-np.inf)
        suffix = "f" if dtype == np.float32 else ""
        self._c = {k: libm._function(k + suffix, np.dtype(dtype), 1) for k in ("exp", "log")}
        f32 = np.dtype(np.float32)
        self._lse_exp = libm._function("expf", f32, 1) or np.exp
        self._lse_log1p = libm._function("log1pf", f32, 1) or np.log1p
        self.entries: list[_Entry] = []
        root = self._add(None, -1)
        root.new[0] = root.new[1] = self.f(0)
        self.leaves = self._top(width)
        self.leaves.push(0)

    def _add(self, parent: "_Entry | None", label: int) -> _Entry:
        e = _Entry(parent, label, self.zero)
        e.id = len(self.entries)
        self.entries.append(e)
        return e

    def _top(self, limit: int) -> TopN:
        ents = self.entries
        return TopN(limit, lambda i, j: ents[i].new[0] > ents[j].new[0])

    def _fn(self, name: str, v: Any) -> Any:
        fn = self._c[name]
        return self.f(fn(v)) if fn else self.f(getattr(np, name)(v))

    def lse(self, a: Any, b: Any) -> Any:
        if a == self.zero:
            return b
        if b == self.zero:
            return a
        hi, lo = (a, b) if a > b else (b, a)
        # ctc_loss_util.h's LogSumExp<T> calls log1pf(expf(·)): float's functions, for doubles too
        e = self._lse_exp(np.float32(lo - hi))
        return self.f(hi + self.f(np.float32(self._lse_log1p(np.float32(e)))))

    def _candidate(self, p: list) -> bool:
        leaves = self.leaves
        return bool(p[0] > self.zero and (leaves.size() < self.width
                                          or p[0] > self.entries[leaves.peek_bottom()].new[0]))

    def step(self, row: np.ndarray) -> None:
        f, zero, ents = self.f, self.zero, self.entries
        mx = row.max()
        acc = f(0)
        for v in row:                    # the softmax's normalizer, summed in order
            acc = f(acc + self._fn("exp", f(v - mx)))
        norm = f(mx + self._fn("log", acc))
        blank = self.n - 1
        branches = [ents[i] for i in self.leaves.extract()]
        self.leaves = self._top(self.width)
        for b in branches:
            b.old = list(b.new)
        for b in branches:
            if b.parent is not None:
                if b.parent.new[0] != zero:
                    prev = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                    b.new[2] = self.lse(b.new[2], prev)
                b.new[2] = f(b.new[2] + f(row[b.label] - norm))
            b.new[1] = f(f(b.old[0] + row[blank]) - norm)
            b.new[0] = self.lse(b.new[1], b.new[2])
            self.leaves.push(b.id)
        for b in branches:
            if not self._candidate(b.old):
                continue
            for label in range(self.n - 1):
                c = b.children.get(label)
                if c is None:
                    c = b.children[label] = self._add(b, label)
                if c.new[0] != zero:
                    continue
                c.new[1] = zero
                prev = b.old[1] if c.label == b.label else b.old[0]
                c.new[2] = f(f(row[label] - norm) + prev)
                c.new[0] = c.new[2]
                if self._candidate(c.new):
                    if self.leaves.size() == self.width:
                        ents[self.leaves.peek_bottom()].new = [zero, zero, zero]
                    self.leaves.push(c.id)
                else:
                    c.old = [zero, zero, zero]
                    c.new = [zero, zero, zero]

    def top_paths(self, n: int, merge_repeated: bool) -> tuple[list[list[int]], list[Any]]:
        if n > self.width:
            raise errors.InvalidArgumentError(None, None, "requested more paths than the beam width. "
                                                          "[Op:CTCBeamSearchDecoder]")
        if n > self.leaves.size():
            raise errors.InvalidArgumentError(None, None, "Less leaves in the beam search than requested. "
                                                          "[Op:CTCBeamSearchDecoder]")
        top = self._top(n)
        for i in self.leaves.unsorted():
            top.push(i)
        best = [self.entries[i] for i in top.extract()[:n]]
        return [e.labels(merge_repeated) for e in best], [e.new[0] for e in best]


def _beam_search(x: np.ndarray, seq: np.ndarray, beam_width: int = 100, top_paths: int = 1,
                 merge_repeated: bool = True) -> tuple:
    _validate(x, seq, "CTCBeamSearchDecoder")
    t_max, batch, n = x.shape
    paths: list[list[list[int]]] = [[] for _ in range(top_paths)]
    log_prob = np.zeros((batch, top_paths), x.dtype)
    for b in range(batch):
        beam = _Beam(n, beam_width, x.dtype)
        for t in range(int(seq[b])):
            beam.step(x[t, b])
        seqs, lps = beam.top_paths(top_paths, merge_repeated)
        for p in range(top_paths):
            paths[p].append(seqs[p])
            log_prob[b, p] = lps[p]
    parts = [_sparse_parts(s) for s in paths]
    return (*[p[0] for p in parts], *[p[1] for p in parts], *[p[2] for p in parts], log_prob)


def _check_dtypes(dts: Any, op: str) -> dtypes.DType:
    if dts[0] not in (dtypes.float32, dtypes.float64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(dts[0])} is not in the list of "
                                                      f"allowed values: float, double [Op:{op}]")
    if dts[1] != dtypes.int32:
        raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #1(zero-based) was expected to be "
                                                      f"a int32 tensor but is a {tf_name(dts[1])} tensor [Op:{op}]")
    return dts[0]


def _greedy_rule(dts: Any, attrs: Any) -> tuple:
    t = _check_dtypes(dts, "CTCGreedyDecoder")
    return (dtypes.int64, dtypes.int64, dtypes.int64, t)


def _beam_rule(dts: Any, attrs: Any) -> tuple:
    t = _check_dtypes(dts, "CTCBeamSearchDecoder")
    k = attrs["top_paths"]
    return (dtypes.int64,) * (3 * k) + (t,)


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    return float(arrays[0].size * max(1, attrs.get("beam_width", 1)))


_WHY = lanes("a sequential decode per example with data-dependent output lengths: no stacked form written")
CTC_GREEDY_DECODER = register("CTCGreedyDecoder", _greedy, _greedy_rule, _flops, num_outputs=4, kind="nn",
                              fusion=_WHY)
CTC_BEAM_SEARCH_DECODER = register("CTCBeamSearchDecoder", _beam_search, _beam_rule, _flops, num_outputs=-1,
                                   kind="nn", fusion=_WHY)
CTC_GREEDY_DECODER.shape_fn = CTC_BEAM_SEARCH_DECODER.shape_fn = _decoder_sees
NotDifferentiable("CTCGreedyDecoder")
NotDifferentiable("CTCBeamSearchDecoder")


def _inputs(inputs: Any, sequence_length: Any) -> tuple[Tensor, Tensor]:
    """The op's inputs: a float64 NumPy array stays float64 (TF 2.21's eager fast path); any other
    non-tensor `inputs` (Python floats, float16 arrays) converts with the op's default T, float32."""
    from simdist.runtime.variables import Variable
    if isinstance(inputs, (Tensor, Variable)):
        x = _t(inputs)
    elif isinstance(inputs, np.ndarray) and inputs.dtype == np.float64:
        x = convert_to_tensor(inputs)
    elif isinstance(inputs, (list, tuple)):
        # (a list is no fast-path input: the eager fallback's args_to_matching_eager converts it on its
        # own first, keeps a float32/float64 result, and converts anything else again with T's default
        # float32 as the preferred dtype, dropped when it does not convert: a list mixing bools and
        # numbers is ValueError "mixed types" (fz14 seed 1420261218 #206), `[float64 tensor]` float64,
        # a tuple holding a complex128 ndarray complex128 and T's InvalidArgumentError (1420303007
        # #82). In a graph op_def_library converts once with the preferred float32, so autopacking
        # casts a uint32 tensor of the list to float32 (1420272703 #56); fz31b)
        x = None if context.in_function() else convert_to_tensor(inputs)
        if x is None or x.dtype not in (dtypes.float32, dtypes.float64):
            x = convert_to_tensor(inputs, dtype_hint=dtypes.float32)
    else:
        x = convert_to_tensor(np.asarray(inputs, np.float32))
    s = sequence_length if isinstance(sequence_length, Tensor) else convert_to_tensor(sequence_length,
                                                                                          dtype=dtypes.int32)
    return x, s


def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True,
                       blank_index: Any = None) -> tuple[list[SparseTensor], Tensor]:
    """`tf.nn.ctc_greedy_decoder`: ([SparseTensor of the best path's classes], −sum of frame maxima [B, 1])."""
    x, s = _inputs(inputs, sequence_length)
    attrs = {"merge_repeated": _make_bool(merge_repeated, "merge_repeated", CTC_GREEDY_DECODER.name),
             "blank_index": -1 if blank_index is None else int(blank_index)}
    ind, val, shp, lp = dispatch.execute(CTC_GREEDY_DECODER, (x, s), attrs)
    return [SparseTensor(ind, val, shp)], lp


def ctc_beam_search_decoder_v1(inputs: Any, sequence_length: Any, beam_width: int = 100, top_paths: int = 1,
                               merge_repeated: bool = True) -> tuple[list[SparseTensor], Tensor]:
    """`tf.compat.v1.nn.ctc_beam_search_decoder`: top_paths SparseTensors and their log probabilities [B, top_paths]."""
    x, s = _inputs(inputs, sequence_length)
    for name, v, least in (("beam_width", beam_width, 1), ("top_paths", top_paths, 1)):
        if int(v) < least:
            raise errors.InvalidArgumentError(None, None, f"Value for attr '{name}' of {int(v)} must be at least "
                                                          f"minimum {least} [Op:CTCBeamSearchDecoder]")
    attrs = {"beam_width": int(beam_width), "top_paths": int(top_paths), "merge_repeated": bool(merge_repeated)}
    outs = dispatch.execute(CTC_BEAM_SEARCH_DECODER, (x, s), attrs)
    k = int(top_paths)
    return [SparseTensor(outs[p], outs[k + p], outs[2 * k + p]) for p in range(k)], outs[3 * k]


def ctc_beam_search_decoder(inputs: Any, sequence_length: Any, beam_width: int = 100,
                            top_paths: int = 1) -> tuple[list[SparseTensor], Tensor]:
    """`tf.nn.ctc_beam_search_decoder` (TF2's: merge_repeated=False)."""
    return ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width, top_paths, merge_repeated=False)


def _dim(x: Tensor) -> Any:
    """_get_dim(x, 0): the static length, or the dynamic one while tracing."""
    d = x.shape[0]
    if d is not None:
        return int(d)
    from simdist.runtime.ops.array import shape
    return shape(x)[0]


def ctc_unique_labels(labels: Any, name: str | None = None) -> list[Tensor]:
    """`tf.nn.ctc_unique_labels`: TF's map_fn over rows of unique (values padded with 0, cast to
    int64) and its int32 indices."""
    from simdist.runtime.ops.slicing import pad
    from simdist.runtime.ops.control_flow import map_fn
    from simdist.runtime.ops.counting import unique
    from simdist.runtime.ops.math import cast
    lab = _t(labels)
    if context.in_function() and lab.ndim and int(lab.shape[0]) == 0:
        # (the graph builds map_fn's body once, whatever the row count: Unique's shape function
        # refuses a row that is not a vector at trace; fz20: fz14 seed 1420261219 #405)
        from simdist.runtime.ops.array import zeros
        unique(zeros(lab.shape.as_list()[1:], lab.dtype))
        # (a graph's map_fn stacks a TensorArray whose element shape is unique's, which a graph
        # never knows: zero rows cannot be stacked when the graph runs; fz7 ext seeds 81-83)
        raise errors.InvalidArgumentError(None, None, "Tried to stack elements of an empty list with "
                                          "non-fully-defined element_shape: [?]")

    def _unique(x: Tensor) -> list[Tensor]:
        y, idx = unique(x)
        y = pad(y, [[0, _dim(idx) - _dim(y)]])
        return [cast(y, dtypes.int64), idx]

    # (map_fn's result has the structure of its dtype: TF 2.21 returns a list)
    return list(map_fn(_unique, lab, dtype=[dtypes.int64, dtypes.int32]))
