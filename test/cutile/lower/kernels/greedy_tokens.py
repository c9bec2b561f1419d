"""Greedy decoding's next token: the argmax of each row of bf16 logits
(8 rows a block, each row over 16 threads, -inf past the vocabulary) and
the winning logit, its row maximum reduced across the row's lanes in
bf16.

  L: M x V bf16 (V <= 1024), Tok: M i32, Best: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TV = 8, 1024


@ct.kernel
def greedy_tokens(L, Tok, Best, tm: ct.Constant[int], tv: ct.Constant[int]):
    block = ct.bid(0)
    logits = ct.load(L, index=(block, 0), shape=(tm, tv), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(Tok, index=(block,), tile=ct.argmax(logits, axis=1).astype(ct.int32))
    ct.store(Best, index=(block,), tile=ct.max(logits, axis=1).astype(ct.float32))


KERNEL = greedy_tokens


def kernel_signature():
    return signature("greedy_tokens", [array(ct.bfloat16, 2), array(ct.int32, 1), array(ct.float32, 1), TM, TV])
