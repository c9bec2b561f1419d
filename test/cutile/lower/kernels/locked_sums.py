"""Column sums of row blocks added into a few partial rows under a spin
lock, as the dgamma step of cuTile's LayerNorm backward sample does (a
kernel tilepipe refuses, atomics.test): the lock is an `atomic_cas` in a
while loop, released by `atomic_xchg`.

  x: M x N f32 (blocks of 64 rows), partial: G x N f32, locks: G i32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, GROUPS = 64, 128, 4


@ct.kernel
def locked_sums(x, partial, locks, tm: ct.Constant[int], tn: ct.Constant[int],
                groups: ct.Constant[int]):
    bid = ct.bid(0)
    sums = ct.sum(ct.load(x, index=(bid, 0), shape=(tm, tn)), axis=0, keepdims=True)
    g = bid % groups
    while ct.atomic_cas(locks, g, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    row = ct.load(partial, index=(g, 0), shape=(1, tn))
    ct.store(partial, index=(g, 0), tile=row + sums)
    ct.atomic_xchg(locks, g, 0, memory_order=ct.MemoryOrder.RELEASE)


KERNEL = locked_sums


def kernel_signature():
    f32 = ct.float32
    return signature("locked_sums", [array(f32, 2), array(f32, 2), array(ct.int32, 1), TM, TN,
                                     GROUPS])
