"""A softmax of 32 values a block, with its maximum and log-sum-exp: a vector
shorter than the agent's threads that no tile's rows hold (each value held
by 4 threads), reduced whole and stored.

  X, Y: B x N f32 (N <= 32), Stats: B x 2 f32"""
import _path  # noqa: F401

import cuda.tile as ct

from constraints import array, signature

N = 32


@ct.kernel
def short_softmax(X, Y, Stats, n: ct.Constant[int]):
    b = ct.bid(0)
    x = ct.load(X, index=(b, 0), shape=(1, n), padding_mode=ct.PaddingMode.NEG_INF)
    x = ct.reshape(x, (n,))
    m = ct.max(x)
    e = ct.exp(x - m)
    s = ct.sum(e)
    ct.store(Y, index=(b, 0), tile=ct.reshape(e / s, (1, n)))
    ct.scatter(Stats, (b, 0), m)
    ct.scatter(Stats, (b, 1), m + ct.log(s))


KERNEL = short_softmax


def kernel_signature():
    f32 = ct.float32
    return signature("short_softmax", [array(f32, 2), array(f32, 2), array(f32, 2), N])
