"""The functional API (keras/src/models/functional.py and ops/function.py): `keras.Model(inputs,
outputs)` over the graph of layer calls recorded on KerasTensors.

The graph: from the outputs back to the inputs (depth-first over each tensor's `_keras_history`),
nodes get depths (an output node 0, its parents deeper) and operations the largest depth of
their nodes; `layers` (and so `weights` and `get_weights()`) follow operations by decreasing
depth, ties in traversal order, inputs first, as in Keras. A call runs the nodes by decreasing
depth, feeding each the tensors computed for its inputs; a layer called twice (shared) runs
once per node with the same weights. Inputs may be given as a list, a dict keyed by input
name, or a single tensor for a one-input model; they are converted to the inputs' dtypes, and a
trailing axis of size 1 is added or dropped to match an input's rank.
"""

from __future__ import annotations

import collections
from typing import Any, Callable

from simdist import tf
from simdist.keras.keras_tensor import KerasTensor, flatten, map_structure, pack_sequence_as
from simdist.keras.layers.core import InputLayer
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer, _is_tensor_or_symbolic
from simdist.keras.models.model import Model
from simdist.keras.tracking import no_tracking
from simdist.keras.ops.shim import convert_to_tensor

__all__ = ["Functional", "map_graph"]


def _map_refs(struct: Any, fn: Callable[[Any], Any]) -> Any:
    """``fn`` applied to each ``[layer name, node index, tensor index]`` of a nested structure."""
    if isinstance(struct, (list, tuple)) and len(struct) == 3 and isinstance(struct[0], str) \
            and all(isinstance(v, int) for v in struct[1:]):
        return fn(struct)
    if isinstance(struct, dict):
        return {k: _map_refs(v, fn) for k, v in struct.items()}
    if isinstance(struct, (list, tuple)):
        return [_map_refs(v, fn) for v in struct]
    return struct


def _refs(struct: Any, index: dict[int, int]) -> Any:
    """Call arguments as config: KerasTensors become Keras's ``__keras_tensor__`` references."""
    if isinstance(struct, KerasTensor):
        op, node_index, tensor_index = struct._keras_history
        return {"class_name": "__keras_tensor__",
                "config": {"shape": list(struct.shape), "dtype": struct.dtype,
                           "keras_history": [op.name, index.get(id(op._inbound_nodes[node_index]), 0), tensor_index]}}
    if isinstance(struct, dict):
        return {k: _refs(v, index) for k, v in struct.items()}
    if isinstance(struct, (list, tuple)):
        return [_refs(v, index) for v in struct]
    return struct


def _resolve(struct: Any, outputs: dict[tuple[str, int], list]) -> Any:
    """The inverse of `_refs` once the referenced tensors exist (KeyError while they do not)."""
    if isinstance(struct, dict) and struct.get("class_name") == "__keras_tensor__":
        name, node_index, tensor_index = struct["config"]["keras_history"]
        return outputs[(name, node_index)][tensor_index]
    if isinstance(struct, dict):
        return {k: _resolve(v, outputs) for k, v in struct.items()}
    if isinstance(struct, list):
        return [_resolve(v, outputs) for v in struct]
    return struct


def _build_map(inputs: list, outputs: list) -> tuple[list, dict]:
    finished: set[int] = set()
    in_progress: set[int] = set()
    ordered: list = []
    indices: dict[int, int] = {}
    ops: dict[int, Any] = {}
    input_ids = {id(x) for x in inputs}

    def visit(tensor: Any) -> None:
        operation, node_index, _ = tensor._keras_history
        if not operation:
            return
        node = operation._inbound_nodes[node_index]
        if id(node) in finished:
            return
        if not node.is_input and id(tensor) in input_ids:
            finished.add(id(node))
            return
        if id(node) in in_progress:
            raise ValueError(f"Tensor {tensor} from operation '{operation.name}' is part of a cycle.")
        if id(operation) not in indices:
            indices[id(operation)] = len(indices)
            ops[id(operation)] = operation
        in_progress.add(id(node))
        if not node.is_input:
            for t in node.input_tensors:
                visit(t)
        finished.add(id(node))
        in_progress.remove(id(node))
        ordered.append(node)

    for x in outputs:
        visit(x)
    return ordered, indices


def map_graph(inputs: list, outputs: list) -> tuple[list, dict, list, dict]:
    """(nodes, nodes_by_depth, operations, operations_by_depth) of the graph from inputs to outputs."""
    ordered, indices = _build_map(inputs, outputs)
    in_graph = {id(n) for n in ordered}
    node_depth: dict[int, int] = {}
    node_obj: dict[int, Any] = {}
    op_depth: dict[int, int] = {}
    op_obj: dict[int, Any] = {}
    for node in reversed(ordered):
        depth = node_depth.setdefault(id(node), 0)
        node_obj[id(node)] = node
        depth = max(depth, op_depth.get(id(node.operation), 0))
        op_depth[id(node.operation)] = depth
        op_obj[id(node.operation)] = node.operation
        node_depth[id(node)] = depth
        for parent in node.parent_nodes:
            if id(parent) not in in_graph:
                continue
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
            node_obj[id(parent)] = parent
    for x in inputs:
        op = x._keras_history[0]
        if op is not None and id(op) not in op_depth:
            node = op._inbound_nodes[x._keras_history.node_index]
            if node.is_input:
                op_depth[id(op)] = 0
                op_obj[id(op)] = op
                indices[id(op)] = -1
                node_depth[id(node)] = 0
                node_obj[id(node)] = node
    nodes_by_depth: dict[int, list] = collections.defaultdict(list)
    for key, depth in node_depth.items():
        nodes_by_depth[depth].append(node_obj[key])
    ops_by_depth: dict[int, list] = collections.defaultdict(list)
    for key, depth in op_depth.items():
        ops_by_depth[depth].append(op_obj[key])
    operations: list = []
    for depth in sorted(ops_by_depth, reverse=True):
        level = sorted(ops_by_depth[depth], key=lambda o: indices[id(o)])
        operations.extend(level)
    computable = {id(x) for x in inputs}
    seen_ops: list[str] = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            for x in node.input_tensors:
                if id(x) not in computable:
                    raise ValueError(f"Graph disconnected: cannot find parent for tensor {x} at operation "
                                     f"'{node.operation}'. The following previous operations were accessed without "
                                     f"issue: {seen_ops}")
                seen_ops.append(node.operation.name)
            for x in node.outputs:
                computable.add(id(x))
    names = [op.name for op in operations]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(f'The name "{name}" is used {names.count(name)} times in the model. All operation names '
                             "should be unique.")
    return ordered, dict(nodes_by_depth), operations, dict(ops_by_depth)


def _fill_in(node: Any, tensor_dict: dict[int, Any]) -> tuple[tuple, dict]:
    def fill(x: Any) -> Any:
        return tensor_dict.get(id(x), x) if isinstance(x, KerasTensor) else x
    return map_structure(fill, node.call_args), map_structure(fill, node.call_kwargs)


def _flat_path(struct: Any, i: int) -> str:
    """Keras's path (tree.flatten_with_path, joined by dots) of the i-th flat leaf of a structure: "" for a lone
    tensor, "1" in a list, "key" in a dict (keys sorted)."""
    def paths(struct: Any, prefix: tuple) -> list[tuple]:
        if isinstance(struct, dict):
            return [p for k in sorted(struct) for p in paths(struct[k], prefix + (k,))]
        if isinstance(struct, (list, tuple)):
            return [p for j, v in enumerate(struct) for p in paths(v, prefix + (j,))]
        return [prefix]
    return ".".join(str(p) for p in paths(struct, ())[i])


def _is_input_keras_tensor(x: KerasTensor) -> bool:
    operation, node_index, _ = x._keras_history
    return operation._inbound_nodes[node_index].is_input


def _clone_keras_tensor(x: KerasTensor) -> KerasTensor:
    return KerasTensor(shape=x.shape, dtype=x.dtype, sparse=x.sparse, name=f"{x.name}_clone")


def _clone_keras_tensors(tensors: Any, mapping: dict[int, KerasTensor]) -> Any:
    def swap(x: Any) -> Any:
        if not isinstance(x, KerasTensor):
            return x
        if id(x) not in mapping:
            mapping[id(x)] = _clone_keras_tensor(x)
        return mapping[id(x)]
    return map_structure(swap, tensors)


def clone_graph_nodes(inputs: Any, outputs: Any) -> tuple[Any, Any]:
    """Keras 3.15's clone_graph_nodes: a model from intermediate tensors. Each input that is not a keras.Input's gets
    a new Input (``<name>CLONE``, its batch shape, dtype and sparsity) and the nodes between inputs and outputs are
    called again on cloned tensors, so the original graph's `_keras_history` stays as it was; the layers are shared."""
    from simdist.keras.keras_tensor import Node
    from simdist.keras.layers.core import Input
    nodes_to_clone, _ = _build_map(flatten(inputs), flatten(outputs))
    mapping: dict[int, KerasTensor] = {}
    op_mapping: dict[int, Any] = {}
    cloned_inputs = []
    for kt in flatten(inputs):
        if _is_input_keras_tensor(kt):
            cloned_inputs.append(kt)
            mapping[id(kt)] = kt
            continue
        original = kt._keras_history.operation
        optional = original.optional if isinstance(original, InputLayer) else False
        clone = Input(batch_shape=kt.shape, dtype=kt.dtype, sparse=kt.sparse, name=f"{kt.name}CLONE",
                      optional=optional)
        cloned_inputs.append(clone)
        mapping[id(kt)] = clone
        op_mapping[id(original)] = clone._keras_history[0]
    cloned_outputs = []
    for kt in flatten(outputs):
        cpy = _clone_keras_tensor(kt)
        cpy._keras_history = kt._keras_history   # (the old history, until its node is cloned below)
        cloned_outputs.append(cpy)
        mapping[id(kt)] = cpy
    for node in nodes_to_clone:
        operation = op_mapping.get(id(node.operation), node.operation)
        outputs_copy = _clone_keras_tensors(node.output_tensors, mapping)
        if isinstance(operation, InputLayer):
            args, kwargs = (), {}
        else:
            args = _clone_keras_tensors(node.call_args, mapping)
            kwargs = _clone_keras_tensors(node.call_kwargs, mapping)
        Node(operation, call_args=args, call_kwargs=kwargs, outputs=outputs_copy)
    return pack_sequence_as(inputs, cloned_inputs), pack_sequence_as(outputs, cloned_outputs)


class Functional(Model):
    """A model defined by its input and output KerasTensors."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "Functional":
        return Layer.__new__(cls)   # type: ignore[return-value]

    def __init__(self, inputs: Any, outputs: Any, name: str | None = None, **kwargs: Any) -> None:
        trainable = kwargs.pop("trainable", None)
        for x in flatten(inputs):
            if not isinstance(x, KerasTensor):
                raise ValueError(f"All `inputs` values must be KerasTensors. Received: inputs={inputs} including "
                                 f"invalid value {x} of type {type(x)}")
        for x in flatten(outputs):
            if not isinstance(x, KerasTensor):
                raise ValueError(f"All `outputs` values must be KerasTensors. Received: outputs={outputs} including "
                                 f"invalid value {x} of type {type(x)}")
        if not all(_is_input_keras_tensor(x) for x in flatten(inputs)):
            inputs, outputs = clone_graph_nodes(inputs, outputs)
        # (Keras 3.15: Functional.__init__ reads only `trainable` from **kwargs; every other keyword, dtype
        # and unknown names included, is dropped without a word)
        self._init_model(name=name)
        with no_tracking():
            self._inputs_struct = map_structure(lambda x: x, inputs)
            self._outputs_struct = map_structure(lambda x: x, outputs)
            self._inputs = flatten(inputs)
            self._outputs = flatten(outputs)
            if not self._inputs:
                raise ValueError(f"`inputs` argument cannot be empty. Received:\ninputs={inputs}\noutputs={outputs}")
            if not self._outputs:
                raise ValueError(f"`outputs` argument cannot be empty. Received:\ninputs={inputs}\noutputs={outputs}")
            nodes, nodes_by_depth, operations, operations_by_depth = map_graph(self._inputs, self._outputs)
            self._nodes = nodes
            self._nodes_by_depth = nodes_by_depth
            self._operations = operations
            self._operations_by_depth = operations_by_depth
            self._check_connected()
        if trainable is not None:
            self.trainable = trainable
        for layer in self.layers:
            self._tracker.track(layer)
        self.build(None)
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True
        self.output_names = [x._keras_history[0].name for x in self._outputs]

    def _lock_state(self) -> None:
        pass

    def _obj_type(self) -> str:
        return "Functional"

    def build(self, input_shape: Any = None) -> None:
        self.built = True

    @property
    def layers(self) -> list[Layer]:   # type: ignore[override]
        """The graph's layers (input layers included), by decreasing depth."""
        return [op for op in self._operations if isinstance(op, Layer)]

    @layers.setter
    def layers(self, _: Any) -> None:
        raise AttributeError("`Model.layers` attribute is reserved and should not be used. Please use another name.")

    @property
    def operations(self) -> list[Any]:
        return self._operations[:]

    @property
    def inputs(self) -> list[KerasTensor]:
        return self._inputs

    @property
    def outputs(self) -> list[KerasTensor]:
        return self._outputs

    @property
    def input(self) -> Any:
        return self._inputs_struct

    @property
    def output(self) -> Any:
        return self._outputs_struct

    @property
    def input_shape(self) -> Any:
        """The flat inputs' shapes (Keras's Functional.input_shape reads `inputs`, the flattened list: a dict
        of inputs gives a list in flat order), one input's shape alone."""
        shapes = [x.shape for x in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self) -> Any:
        """The flat outputs' shapes (from `outputs`, as Keras's), one output's shape alone."""
        shapes = [x.shape for x in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def input_spec(self) -> Any:
        if "_manual_input_spec" in self.__dict__:
            return self._manual_input_spec

        def spec(x: KerasTensor, name: str | None = None) -> InputSpec:
            shape = list(x.shape)
            if shape:
                shape[0] = None
            layer = x._keras_history[0]
            return InputSpec(shape=tuple(shape), allow_last_axis_squeeze=True,
                             name=layer.name if name is None else name,
                             optional=bool(getattr(layer, "optional", False)))

        if isinstance(self._inputs_struct, dict):
            if all(isinstance(x, KerasTensor) for x in self._inputs_struct.values()):
                return [spec(self._inputs_struct[n], name=n) for n in sorted(self._inputs_struct)]
            return None
        return [spec(x) for x in self._inputs]

    @input_spec.setter
    def input_spec(self, value: Any) -> None:
        self.__dict__["_manual_input_spec"] = value

    def add_loss(self, loss: Any) -> None:
        raise NotImplementedError

    # --- running the graph -----------------------------------------------------------------------
    def _output_path(self, i: int) -> str:
        """Keras's path of the i-th flat output in the outputs' structure ("", "1", "key")."""
        return _flat_path(self._outputs_struct, i)

    def _check_connected(self) -> None:
        """Every output must be computable from the inputs (Keras's dry run of the graph)."""
        known = {id(x) for x in self._inputs}
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input or any(id(x) not in known for x in node.input_tensors):
                    continue
                known.update(id(x) for x in node.outputs)
        for i, x in enumerate(self._outputs):
            if id(x) not in known:
                raise ValueError(f"Output with path `{self._output_path(i)}` is not connected to `inputs`")

    def _run_through_graph(self, inputs: list, operation_fn: Callable[[Any], Any]) -> Any:
        tensor_dict: dict[int, Any] = {}
        for x, y in zip(self._inputs, inputs):
            tensor_dict[id(x)] = y
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if not node.operation or node.is_input:
                    continue
                if any(id(x) not in tensor_dict for x in node.input_tensors):
                    continue
                args, kwargs = _fill_in(node, tensor_dict)
                outputs = operation_fn(node.operation)(*args, **kwargs)
                for x, y in zip(node.outputs, flatten(outputs)):
                    tensor_dict[id(x)] = y
        out = []
        for i, x in enumerate(self._outputs):
            if id(x) not in tensor_dict:
                raise ValueError(f"Output with path `{self._output_path(i)}` is not connected to `inputs`")
            out.append(tensor_dict[id(x)])
        return pack_sequence_as(self._outputs_struct, out)

    def _standardize_inputs(self, inputs: Any) -> list:
        struct = self._inputs_struct
        if isinstance(struct, list) and len(struct) == 1 and _is_tensor_or_symbolic(inputs):
            inputs = [inputs]
        elif isinstance(inputs, dict) and not isinstance(struct, dict):
            keys = set(inputs)
            flat = struct if isinstance(struct, (list, tuple)) else [struct]
            if all(isinstance(i, KerasTensor) for i in flat) and {i.name for i in flat} <= keys:
                inputs = [inputs[i.name] for i in flat]
            else:
                self._raise_structure(inputs)
        flat_inputs = flatten(inputs)
        if len(flat_inputs) != len(self._inputs):
            self._raise_structure(inputs)
        converted = []
        for x, ref in zip(flat_inputs, self._inputs):
            if x is None:
                layer = ref._keras_history.operation
                if isinstance(layer, InputLayer) and not layer.optional:
                    raise ValueError(f"The input '{ref.name}' is not optional, but None was passed. Please provide a "
                                     "valid tensor.")
                converted.append(x)
            elif isinstance(x, KerasTensor):
                converted.append(x)
            else:
                # (the backend's: a SparseTensor is densified unless its Input is sparse, a RaggedTensor kept)
                converted.append(convert_to_tensor(x, dtype=ref.dtype, sparse=ref.sparse))
        return self._adjust_input_rank(converted)

    def _raise_structure(self, inputs: Any) -> None:
        expected = map_structure(lambda x: "None" if x is None else x.name, self._inputs_struct)
        got = map_structure(lambda x: "None" if x is None else f"Tensor(shape={tuple(x.shape)})", inputs)
        raise ValueError(f"The structure of `inputs` doesn't match the expected structure.\nExpected: {expected}\n"
                         f"Received: inputs={got}")

    def _adjust_input_rank(self, flat_inputs: list) -> list:
        adjusted = []
        for i, x in enumerate(flat_inputs):
            ref_shape = self._inputs[i].shape
            if x is None:
                adjusted.append(x)
                continue
            x_rank, ref_rank = len(x.shape), len(ref_shape)
            if x_rank == ref_rank:
                adjusted.append(x)
                continue
            if x_rank == ref_rank + 1 and x.shape[-1] == 1:
                adjusted.append(tf.squeeze(x, axis=-1) if isinstance(x, tf.Tensor) else x)
                continue
            if x_rank == ref_rank - 1 and ref_shape[-1] == 1:
                adjusted.append(tf.expand_dims(x, axis=-1) if isinstance(x, tf.Tensor) else x)
                continue
            raise ValueError(f"Invalid input shape for input {x} with name '{self._inputs[i].name}' and path "
                             f"'{_flat_path(self._inputs_struct, i)}'. "
                             f"Expected shape {ref_shape}, but input has incompatible shape {tuple(x.shape)}")
        return adjusted

    def call(self, inputs: Any, training: Any = None, mask: Any = None, **kwargs: Any) -> Any:
        """Run the graph on `inputs`, passing `training` to the layers that take it; a `mask`
        is attached to the inputs (clause keras.mask.propagation)."""
        flat = self._standardize_inputs(inputs)
        if mask is not None:
            from simdist.keras.tensor_attributes import set_keras_mask
            for x, m in zip(flat, flatten(mask)):
                if m is not None and isinstance(x, tf.Tensor):
                    set_keras_mask(x, m)

        def operation_fn(op: Any) -> Callable[..., Any]:
            def run(*args: Any, **kw: Any) -> Any:
                if training is not None and "training" in getattr(op, "_call_context_args", ()):
                    kw["training"] = training
                return op(*args, **kw)
            return run

        outputs = self._run_through_graph(flat, operation_fn)
        return outputs[0] if isinstance(outputs, (list, tuple)) and len(outputs) == 1 else outputs

    def compute_output_spec(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:   # type: ignore[override]
        from simdist.keras.keras_tensor import any_symbolic_tensors
        if not any_symbolic_tensors((inputs,)):
            raise NotImplementedError("the output spec of a model for concrete inputs: run it")
        flat = self._standardize_inputs(inputs)
        if all(tuple(x.shape) == tuple(ref.shape) for x, ref in zip(flat, self._inputs)):
            return map_structure(lambda x: KerasTensor(shape=x.shape, dtype=x.dtype), self._outputs_struct)
        outputs = self._run_through_graph(flat, lambda op: op.compute_output_spec)
        return outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        """Keras 3.15's Function.compute_output_shape: each shape of the structure `input_shape` (a tuple or a
        list of ints and None: tree.map_shape_structure) is one input's, flattened in Keras's tree order (a dict
        by sorted key) against the model's inputs, whose dtypes they take (spec `keras.model.call`)."""
        from simdist.keras import tree
        specs = tree.flatten(tree.map_shape_structure(lambda s: KerasTensor(tuple(s)), input_shape))
        kts = [KerasTensor(s.shape, dtype=ref.dtype) for s, ref in zip(specs, self._inputs)]
        out = self.compute_output_spec(kts if len(kts) > 1 else kts[0])
        return map_structure(lambda x: x.shape, out)

    def _assert_input_compatibility(self, arg_0: Any) -> None:
        for x, ref in zip(flatten(arg_0), self._inputs):
            if x is None:
                layer = ref._keras_history.operation
                if isinstance(layer, InputLayer) and not layer.optional:
                    raise ValueError(f"The input '{ref.name}' is not optional, but None was passed. Please provide a "
                                     "valid tensor.")
        super()._assert_input_compatibility(arg_0)

    def get_config(self) -> dict[str, Any]:
        """Keras 3.15's functional config: every layer serialized with its name and the calls
        (inbound nodes) made in this model, each argument a KerasTensor reference
        ``[layer name, node index, tensor index]``; ``input_layers`` and ``output_layers``."""
        from simdist.keras.serialization import serialize_keras_object
        kept = {id(n) for n in self._nodes} if isinstance(self._nodes, (set, list, tuple)) else set(self._nodes)
        index: dict[int, int] = {}   # id(node) -> its index among the kept nodes of its layer
        layers = []
        for op in self._operations:
            nodes = [n for n in op._inbound_nodes if id(n) in kept or isinstance(op, InputLayer)]
            for i, n in enumerate(nodes):
                index[id(n)] = i
        for op in self._operations:
            if not hasattr(op, "get_config"):
                raise NotImplementedError(
                    f"get_config of functional model '{self.name}': its graph holds the operation '{op.name}' "
                    f"({type(op).__name__}, an op applied to a KerasTensor), which simdist cannot serialize; "
                    "use a layer for that step")
            entry = serialize_keras_object(op, "keras.layers")
            if type(op).__name__ in ("Functional", "Sequential"):   # a nested model: Keras's own module
                from simdist.keras.models.keras_file import model_identity
                entry["module"], entry["registered_name"] = model_identity(type(op))
            entry["name"] = op.name
            nodes = [n for n in op._inbound_nodes if id(n) in kept and not n.is_input]
            entry["inbound_nodes"] = [{"args": _refs(n.call_args, index), "kwargs": _refs(n.call_kwargs, index)}
                                      for n in nodes]
            layers.append(entry)

        def ref(x: Any) -> list:
            op, node_index, tensor_index = x._keras_history
            return [op.name, index.get(id(op._inbound_nodes[node_index]), 0), tensor_index]
        return {"name": self.name, "trainable": self.trainable, "layers": layers,
                "input_layers": map_structure(ref, self._inputs_struct),
                "output_layers": map_structure(ref, self._outputs_struct)}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "Functional":
        """The model `get_config()` describes (Keras 3.15's functional_from_config): each layer
        re-made from its config, then called on the tensors its inbound nodes name, in order.
        As Keras, it pops layers, input_layers, output_layers (and name, trainable) from `config`
        itself and passes the keys left to the constructor: the caller's dict is emptied."""
        fc = {k: config.pop(k) for k in ("layers", "input_layers", "output_layers")}
        for k in ("name", "trainable"):
            if k in config:
                fc[k] = config.pop(k)
        rest, config = config, fc
        from simdist.keras.layers.layer_serialization import layer_bindings
        from simdist.keras.serialization import deserialize_keras_object
        from simdist.keras.models.sequential import Sequential
        names = layer_bindings()
        names.update(Functional=Functional, Sequential=Sequential)   # models nested as layers
        made: dict[str, Any] = {}
        for lc in config["layers"]:
            try:
                made[lc["name"]] = deserialize_keras_object(lc, names, "layer", custom_objects, base=Layer)
            except ValueError as e:   # (Keras's serialization_lib: an unknown class is a TypeError here)
                if not str(e).startswith("Could not interpret layer identifier"):
                    raise
                raise TypeError(f"Could not locate class '{lc.get('class_name')}'. Make sure custom classes are "
                                "decorated with `@keras.saving.register_keras_serializable()`, or pass them in "
                                f"custom_objects. Full object config: {lc}") from e
        outputs: dict[tuple[str, int], list] = {}
        for name, layer in made.items():
            if isinstance(layer, InputLayer):
                outputs[(name, 0)] = [layer.output]
        pending = [(lc["name"], i, node) for lc in config["layers"] for i, node in enumerate(lc.get("inbound_nodes", []))]
        while pending:
            progressed, later = False, []
            for name, i, node in pending:
                try:
                    args = _resolve(node.get("args", []), outputs)
                    kwargs = _resolve(node.get("kwargs", {}), outputs)
                except KeyError:
                    later.append((name, i, node))
                    continue
                out = made[name](*args, **kwargs)
                outputs[(name, i)] = flatten(out)
                progressed = True
            if not progressed:
                raise ValueError(f"Functional config {config.get('name')!r}: the layers "
                                 f"{sorted({n for n, _, _ in later})} are called on tensors no layer makes")
            pending = later

        def get(r: Any) -> Any:
            return outputs[(r[0], r[1])][r[2]]
        ins = _map_refs(config["input_layers"], get)
        outs = _map_refs(config["output_layers"], get)
        return cls(ins, outs, name=config.get("name"), trainable=config.get("trainable", True), **rest)
