"""Q, K, V and the float64-exact O of the base-2 softmax attention (scale
log2(e) / sqrt(128)), and the same O with one element off by 0.1."""
import math
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(1)
q, k, v = (rng.uniform(-1, 1, (512, 128)).astype(np.float32) for _ in range(3))
scale = float(np.float32(math.log2(math.e) / math.sqrt(128)))
s = (q.astype(np.float64) @ k.T.astype(np.float64)) * scale
e = np.exp2(s - s.max(axis=1, keepdims=True))
o = ((e @ v) / e.sum(axis=1, keepdims=True)).astype(np.float32)
for name, a in zip("qkvo", (q, k, v, o)):
    np.save(f"{out}/{name}.npy", a)
o[3, 5] += 0.1
np.save(f"{out}/bad.npy", o)
