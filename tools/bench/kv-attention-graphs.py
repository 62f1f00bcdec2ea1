"""Two one-layer attention graphs at jina-ocr-v1's width, for bench-kv-attention.mjs: the decoder's
attention as exported today (the past, [1, past, heads, dim], joined to the new row by `Concat`,
then `MultiHeadAttention`) and contrib `GroupQueryAttention` reading a fixed-capacity cache
[1, heads, capacity, dim] whose present output is bound to the same buffer, so a step writes only
its new row. Usage: python3 kv-attention-graphs.py OUT_DIR"""
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper

HEADS, DIM = 10, 128
HIDDEN = HEADS * DIM
F = TensorProto.FLOAT


def save(graph: onnx.GraphProto, path: Path) -> None:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    onnx.save(model, path)


def concat_mha() -> onnx.GraphProto:
    row = helper.make_tensor("rows", TensorProto.INT64, [3], [1, -1, HIDDEN])
    heads = helper.make_tensor("heads", TensorProto.INT64, [4], [1, -1, HEADS, DIM])
    nodes = [
        helper.make_node("Reshape", ["past_key", "rows"], ["past_keys"]),
        helper.make_node("Reshape", ["past_value", "rows"], ["past_values"]),
        helper.make_node("Concat", ["past_keys", "key"], ["keys"], axis=1),
        helper.make_node("Concat", ["past_values", "value"], ["values"], axis=1),
        helper.make_node("MultiHeadAttention", ["query", "keys", "values", "", "", "bias"], ["output"],
                         domain="com.microsoft", num_heads=HEADS),
        helper.make_node("Reshape", ["key", "heads"], ["present_key"]),
        helper.make_node("Reshape", ["value", "heads"], ["present_value"]),
    ]
    inputs = [helper.make_tensor_value_info(n, F, [1, "s", HIDDEN]) for n in ("query", "key", "value")]
    inputs += [helper.make_tensor_value_info(n, F, [1, "past", HEADS, DIM]) for n in ("past_key", "past_value")]
    inputs += [helper.make_tensor_value_info("bias", F, [1, 1, "s", "total"])]
    outputs = [helper.make_tensor_value_info("output", F, [1, "s", HIDDEN])]
    outputs += [helper.make_tensor_value_info(n, F, [1, "s", HEADS, DIM]) for n in ("present_key", "present_value")]
    return helper.make_graph(nodes, "concat_mha", inputs, outputs, initializer=[row, heads])


def shared_gqa() -> onnx.GraphProto:
    nodes = [helper.make_node("GroupQueryAttention",
                              ["query", "key", "value", "past_key", "past_value", "seqlens_k", "total_sequence_length"],
                              ["output", "present_key", "present_value"], domain="com.microsoft",
                              num_heads=HEADS, kv_num_heads=HEADS)]
    inputs = [helper.make_tensor_value_info(n, F, [1, "s", HIDDEN]) for n in ("query", "key", "value")]
    inputs += [helper.make_tensor_value_info(n, F, [1, HEADS, "capacity", DIM]) for n in ("past_key", "past_value")]
    inputs += [helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, [1]),
               helper.make_tensor_value_info("total_sequence_length", TensorProto.INT32, [])]
    outputs = [helper.make_tensor_value_info("output", F, [1, "s", HIDDEN])]
    outputs += [helper.make_tensor_value_info(n, F, [1, HEADS, "capacity", DIM]) for n in ("present_key", "present_value")]
    return helper.make_graph(nodes, "shared_gqa", inputs, outputs)


def capacity_matmul() -> onnx.GraphProto:
    """The MTP head's `CapacityAttention`: keys [1, heads, dim, capacity] and values [1, heads,
    capacity, dim] read in place by MatMul, a bias hiding the empty slots, the new rows beside."""
    shape = helper.make_tensor("heads", TensorProto.INT64, [4], [1, -1, HEADS, DIM])
    rows = helper.make_tensor("rows", TensorProto.INT64, [3], [1, -1, HIDDEN])
    scale = helper.make_tensor("scale", F, [], [DIM ** -0.5])
    zero = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
    end = helper.make_tensor("end", TensorProto.INT64, [1], [2 ** 62])
    axis = helper.make_tensor("axis", TensorProto.INT64, [1], [3])
    nodes = [
        helper.make_node("Reshape", ["query", "heads"], ["q_rows"]),
        helper.make_node("Transpose", ["q_rows"], ["q"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["key", "heads"], ["present_key"]),
        helper.make_node("Transpose", ["present_key"], ["k"], perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["value", "heads"], ["present_value"]),
        helper.make_node("Transpose", ["present_value"], ["v"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["q", "past_key"], ["scores_past"]),
        helper.make_node("MatMul", ["q", "k"], ["scores_new"]),
        helper.make_node("Concat", ["scores_past", "scores_new"], ["scores"], axis=-1),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"]),
        helper.make_node("Add", ["scaled", "attention_bias"], ["biased"]),
        helper.make_node("Softmax", ["biased"], ["probs"], axis=-1),
        helper.make_node("Shape", ["past_key"], ["capacity"], start=3, end=4),
        helper.make_node("Slice", ["probs", "zero", "capacity", "axis"], ["probs_past"]),
        helper.make_node("Slice", ["probs", "capacity", "end", "axis"], ["probs_new"]),
        helper.make_node("MatMul", ["probs_past", "past_value"], ["out_past"]),
        helper.make_node("MatMul", ["probs_new", "v"], ["out_new"]),
        helper.make_node("Add", ["out_past", "out_new"], ["out"]),
        helper.make_node("Transpose", ["out"], ["out_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["out_t", "rows"], ["output"]),
    ]
    inputs = [helper.make_tensor_value_info(n, F, [1, "s", HIDDEN]) for n in ("query", "key", "value")]
    inputs += [helper.make_tensor_value_info("past_key", F, [1, HEADS, DIM, "capacity"]),
               helper.make_tensor_value_info("past_value", F, [1, HEADS, "capacity", DIM]),
               helper.make_tensor_value_info("attention_bias", F, [1, 1, "s", "total"])]
    outputs = [helper.make_tensor_value_info("output", F, [1, "s", HIDDEN])]
    outputs += [helper.make_tensor_value_info(n, F, [1, "s", HEADS, DIM]) for n in ("present_key", "present_value")]
    return helper.make_graph(nodes, "capacity_matmul", inputs, outputs, initializer=[shape, rows, scale, zero, end, axis])


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    save(concat_mha(), out / "concat-mha.onnx")
    save(shared_gqa(), out / "shared-gqa.onnx")
    save(capacity_matmul(), out / "capacity-matmul.onnx")
