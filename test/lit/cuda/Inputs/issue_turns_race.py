"""Seeded bug for issue turns (docs/cuda.md, "Issue turns"): the CUDA of a
two-warpgroup attention kernel whose warpgroups release the K ring's slots
each on its own, with the ring's empty barriers counting one arrival
instead of two, so that the first warpgroup done with a slot frees it
while the other may still read it. The CPU emulator, which runs the warps
in an order its seed picks, must see the race: some seed's output differs
from the correct kernel's, which every seed reproduces bit for bit (K and
V of 8 blocks, so that the 3-slot ring wraps).

    issue_turns_race.py KERNEL.cu BUILD INCLUDE TMP

Exit 0 when both hold; 1 otherwise.
"""
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "scripts"))
import kernelcache  # noqa: E402
from numcheck import CPU_FLAGS, CXX  # noqa: E402

SEEDS = range(1, 5)


def bugged(text):
    # The K ring's empty barriers count one arrival: the first warpgroup to
    # release a slot frees it while the other may still be reading it.
    out, n = re.subn(r"(tp::mbar_init\(&S\.empty0\[i\]), 2\)", r"\1, 1)", text)
    if n != 1:
        sys.exit("no empty barrier counting two warpgroups: the kernel's structure changed")
    return out


def build(cu, exe, build_dir, include):
    cmd = [CXX] + CPU_FLAGS[:4] + ["-x", "c++"] + CPU_FLAGS[4:] + ["-I", include, cu, "-o", exe]
    r = kernelcache.compile(cmd, cu, exe, build_dir, pch_flags=CPU_FLAGS)
    if r.returncode:
        sys.exit(f"{cu}: compile failed\n{r.stdout[-2000:]}")


def run(exe, tmp, seed, tag):
    out = os.path.join(tmp, f"O-{tag}-{seed}.npy")
    args = [exe] + [f"{x}={os.path.join(tmp, x + '.npy')}" for x in "QKV"] + [
        "scale=0.12751743", "nKV=8", "--out", f"O={out}", "--shape", "O=512,128",
        "--grid", "4,1,1", "--seed", str(seed)]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return np.load(out) if r.returncode == 0 else r.stdout[-300:]


def main():
    cu, build_dir, include, tmp = sys.argv[1:5]
    os.makedirs(tmp, exist_ok=True)
    rng = np.random.default_rng(3)
    for x, rows in (("Q", 512), ("K", 1024), ("V", 1024)):
        v = rng.uniform(-2, 2, (rows, 128)).astype(np.float32)
        np.save(os.path.join(tmp, x + ".npy"), v)
    text = open(cu).read()
    bad_cu = os.path.join(tmp, "bugged.cu")
    open(bad_cu, "w").write(bugged(text))
    good, bad = os.path.join(tmp, "good"), os.path.join(tmp, "bugged")
    build(cu, good, build_dir, include)
    build(bad_cu, bad, build_dir, include)
    ref = run(good, tmp, 1, "good")
    if isinstance(ref, str):
        sys.exit(f"the correct kernel failed: {ref}")
    ok = True
    for seed in SEEDS:
        o = run(good, tmp, seed, "good")
        same = not isinstance(o, str) and np.array_equal(o, ref)
        print(f"correct kernel, seed {seed}: {'same output' if same else 'DIFFERENT'}")
        ok &= same
    seen = []
    for seed in SEEDS:
        o = run(bad, tmp, seed, "bugged")
        if isinstance(o, str) or not np.array_equal(o, ref):
            seen.append(seed)
    print(f"bugged kernel: race seen with seeds {seen}" if seen else "bugged kernel: race NOT seen")
    return 0 if ok and seen else 1


if __name__ == "__main__":
    sys.exit(main())
