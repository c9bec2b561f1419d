"""cuTile's linear_fp8 with a seeded bug in its lowered IR: the MMA reads
the permuted weight tile MN-major, as if ct.transpose had been dropped
(numeric-transpose.test). Its tile is square, so no shape check can
notice; only the numbers can."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "numeric"))
from cutile_specs import LinearFp8  # noqa: E402


class TransposeDropped(LinearFp8):
    def prepare(self, build, tmp, log, register_mma=False):
        tileas = super().prepare(build, tmp, log, register_mma)
        text = open(tileas).read()
        seeded = text.replace("{accumulate} : !tileas.smem", "{accumulate, b_mn_major} : !tileas.smem")
        if seeded == text:
            log("seeded transpose-dropped: no site")
            return None
        open(tileas, "w").write(seeded)
        return tileas


SPECS = {"linear_fp8_transpose_dropped": TransposeDropped()}
