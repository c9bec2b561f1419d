"""Inputs rotated over several sets for the peers' timings
(peer_gemm_timing.py, peer_attention_timing.py): no launch finds its
operands in L2 from the launch before."""


def rotated(make, count):
    """A function returning the next of `count` sets made by `make`."""
    sets = [make() for _ in range(count)]
    state = {"i": 0}

    def next_set():
        state["i"] = (state["i"] + 1) % count
        return sets[state["i"]]
    return next_set
