"""Writes a tiny llama-architecture GGUF with seeded random weights and a real SPM tokenizer.

No model hub is reachable, so LLMBench's real-engine tests run llama-server on this: its text is
gibberish, but its serving (SSE framing, usage, slots, queueing, /metrics) is the real engine's.
Byte-identical for the same arguments.
"""
import argparse

import gguf
import numpy as np

args = argparse.ArgumentParser()
args.add_argument("path")
args.add_argument("--embd", type=int, default=256)
args.add_argument("--layers", type=int, default=4)
args.add_argument("--ff", type=int, default=768)
args.add_argument("--f16", action="store_true", help="store weights as F16 (half the file)")
a = args.parse_args()
path = a.path
n_embd, n_layer, n_head, n_head_kv, n_ff, ctx = a.embd, a.layers, 4, 4, a.ff, 4096
dtype = np.float16 if a.f16 else np.float32
rng = np.random.default_rng(1234)

words = ("the a of to and in is it that for on with as was at by be this are from or an which have not "
         "model token server request batch cache latency throughput paris france capital python prime "
         "def return if else while for number true false").split()
tokens, scores, types = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"], [0.0] * 5, [2, 3, 3, 3, 3]
for b in range(256):
    tokens.append("<0x%02X>" % b); scores.append(0.0); types.append(6)
pieces = list(dict.fromkeys(["\u2581" + w for w in words] + list("abcdefghijklmnopqrstuvwxyz") + ["\u2581"]))
for i, p in enumerate(pieces):
    tokens.append(p); scores.append(-float(i)); types.append(1)
n_vocab = len(tokens)

w = gguf.GGUFWriter(path, "llama")
w.add_name("llmbench-tiny")
w.add_context_length(ctx)
w.add_embedding_length(n_embd)
w.add_block_count(n_layer)
w.add_feed_forward_length(n_ff)
w.add_head_count(n_head)
w.add_head_count_kv(n_head_kv)
w.add_layer_norm_rms_eps(1e-5)
w.add_rope_dimension_count(n_embd // n_head)
w.add_file_type(1 if a.f16 else 0)  # mostly F16, or all F32
w.add_tokenizer_model("llama")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(types)
w.add_bos_token_id(1)
w.add_eos_token_id(2)
w.add_unk_token_id(0)
w.add_add_bos_token(True)
w.add_add_eos_token(False)
w.add_chat_template(
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def t(*shape):
    return (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(dtype)


w.add_tensor("token_embd.weight", t(n_vocab, n_embd))
w.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
w.add_tensor("output.weight", t(n_vocab, n_embd))
for i in range(n_layer):
    w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
    w.add_tensor(f"blk.{i}.attn_q.weight", t(n_embd, n_embd))
    w.add_tensor(f"blk.{i}.attn_k.weight", t(n_embd * n_head_kv // n_head, n_embd))
    w.add_tensor(f"blk.{i}.attn_v.weight", t(n_embd * n_head_kv // n_head, n_embd))
    w.add_tensor(f"blk.{i}.attn_output.weight", t(n_embd, n_embd))
    w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
    w.add_tensor(f"blk.{i}.ffn_gate.weight", t(n_ff, n_embd))
    w.add_tensor(f"blk.{i}.ffn_up.weight", t(n_ff, n_embd))
    w.add_tensor(f"blk.{i}.ffn_down.weight", t(n_embd, n_ff))
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(f"wrote {path}: vocab {n_vocab}, {n_layer} layers, n_embd {n_embd}, {dtype.__name__}")
