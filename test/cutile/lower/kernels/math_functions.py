"""The float functions cuTile has beyond exp, log, sqrt, tanh, sin and cos,
on 32 x 64 tiles: a Cartesian-to-polar conversion (sqrt and atan2), tan,
sinh and cosh, ceil and floor, a power with a tile exponent, and Python's
`%` on floats (cuTile writes it as remf with the sign fixed to the
divisor's).

  X, Y: M x N f32; R, Theta, Hyp, Rounded, Power, Mod: M x N f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 32, 64


@ct.kernel
def math_functions(X, Y, R, Theta, Hyp, Rounded, Power, Mod, tm: ct.Constant[int],
                   tn: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    x = ct.load(X, index=(bm, bn), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(Y, index=(bm, bn), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(R, index=(bm, bn), tile=ct.sqrt(x * x + y * y))
    ct.store(Theta, index=(bm, bn), tile=ct.atan2(y, x))
    ct.store(Hyp, index=(bm, bn), tile=ct.tan(x * 0.5) + ct.sinh(x) - ct.cosh(y))
    ct.store(Rounded, index=(bm, bn), tile=ct.ceil(x * 3.0) * 10.0 + ct.floor(y * 3.0))
    ct.store(Power, index=(bm, bn), tile=ct.pow(ct.abs(x) + 0.5, y))
    ct.store(Mod, index=(bm, bn), tile=x * 4.0 % (ct.abs(y) + 0.25))


KERNEL = math_functions


def kernel_signature():
    f32 = ct.float32
    return signature("math_functions", [array(f32, 2)] * 8 + [TM, TN])
