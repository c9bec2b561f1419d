"""What an sm_100a binary says of its kernel, read the same way for a cubin
from tileiras and for one nvcc makes from tilepipe's CUDA
(bench/cutile/compare.py, docs/cuda-tile.md). Every figure comes from
cuobjdump (its -sass runs the nvdisasm beside it):

  registers, stack      cuobjdump -res-usage (REG, STACK)
  spills                STL and LDL instructions in the SASS (local memory
                        stores and loads: nothing else writes local memory
                        in these kernels)
  static SMEM           cuobjdump -res-usage (SHARED); the dynamic share is
                        not in the binary: the caller passes it
  threads               EIATTR_REQNTID, else EIATTR_MAX_THREADS (-elf)
  mbarriers             MBARRIER_INIT sites listed in
                        EIATTR_MBARRIER_INSTR_OFFSETS (-elf)
  TMEM columns          the tcgen05.alloc: UTCATOMSWS.FIND_AND_SET.ALIGN
                        takes the count in granules of 32 columns in a
                        uniform register set by the UMOV before it
  setmaxnreg            USETMAXREG's counts (a warp role's register budget)
  ring depths           the moduli the TMA loop takes its slot indices by:
                        `IMAD r, q, -N, i` (i - N q after a division by N,
                        for any N) or an AND (LOP3 LUT 0xc0) with a run of
                        ones, (N - 1) << s (a power-of-two N, the shift
                        folded into a slot's size); the distinct N
  loops                 address ranges of backward branches, as
                        bench/peers/sass.py finds them; the TMA loop is the
                        smallest holding the most UTMALDG, the MMA loop the
                        smallest holding the most tensor-core MMAs; counts
                        are static (each instruction in the range once)"""
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "peers"))
import sass  # noqa: E402

TMEM_GRANULE = 32


def classify(op, full):
    """One instruction's class in a loop's mix."""
    kind = sass.classify(op, full)
    if kind != "other":
        return kind
    if op in ("LDTM", "STTM"):
        return "tmem"
    if op == "MUFU":
        return "mufu"
    if op in ("STL", "LDL"):
        return "spill"
    if op in ("STG", "UTMASTG", "STS"):
        return "store"
    return "other"


def mix(insns, lo, hi):
    counts = collections.Counter(classify(op, full) for addr, op, full, _ in insns
                                 if lo <= addr <= hi and op != "NOP")
    counts["total"] = sum(counts.values())
    return dict(counts)


def steady_loop(insns, kind):
    """((lo, hi), mix) of the smallest loop holding the most `kind`, or
    None."""
    best = None
    hopper = sass.is_hopper(insns)  # the smallest loop holding any (sass.py)
    for lo, hi in sass.loops(insns):
        m = mix(insns, lo, hi)
        key = (0 if hopper else m.get(kind, 0), -(hi - lo))
        if m.get(kind, 0) and (best is None or key > best[0]):
            best = (key, (lo, hi), m)
    return (best[1], best[2]) if best else None


def innermost_loops(insns):
    """The loops that hold no other loop, each with its mix."""
    ranges = sass.loops(insns)
    inner = [r for r in ranges if not any(o != r and r[0] <= o[0] and o[1] <= r[1] for o in ranges)]
    return [(r, mix(insns, *r)) for r in sorted(set(inner))]


def tmem_columns(insns):
    """Columns the kernel allocates in TMEM (largest allocation), or 0."""
    columns = 0
    for k, (_, op, full, operands) in enumerate(insns):
        if not full.startswith("UTCATOMSWS.FIND_AND_SET"):
            continue
        count_reg = operands.split(",")[-1].strip()
        for _, op2, _, operands2 in reversed(insns[max(0, k - 16):k]):
            m = re.match(rf"\s*{re.escape(count_reg)},\s*(0x[0-9a-f]+|\d+)\s*$", operands2)
            if op2 == "UMOV" and m:
                columns = max(columns, int(m.group(1), 0) * TMEM_GRANULE)
                break
    return columns


MODULUS = re.compile(r"^\s*(U?R\w+), (U?R\w+), -(0x[0-9a-f]+|\d+), (U?R\w+)\s*$")
MASK = re.compile(r"^\s*(U?R\w+), (U?R\w+), (0x[0-9a-f]+), U?RZ, 0xc0, !U?PT\s*$")


def ring_depths(insns, lo, hi):
    """The moduli of the slot-index updates in the loop [lo, hi]."""
    depths = []
    for addr, op, full, operands in insns:
        if not lo <= addr <= hi:
            continue
        if full in ("IMAD", "UIMAD"):
            m = MODULUS.match(operands)
            if m:
                depths.append(int(m.group(3), 0))
        elif full in ("LOP3.LUT", "ULOP3.LUT"):
            m = MASK.match(operands)
            if m:
                run = int(m.group(3), 0)
                run >>= (run & -run).bit_length() - 1 if run else 0
                if run and not (run + 1) & run:
                    depths.append(run + 1)
    return sorted(set(depths))


def elf_facts(cuobjdump, path):
    """{kernel: {"threads": n, "mbarriers": n}} from the .nv.info sections."""
    text = sass.tool(cuobjdump, "-elf", path)
    facts, cur = {}, None
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"^\.nv\.info\.(\S+)", line)
        if m:
            cur = facts.setdefault(m.group(1), {"threads": None, "mbarriers": 0})
            continue
        if cur is None:
            continue
        if re.search(r"Attribute:\s+EIATTR_(REQNTID|MAX_THREADS)\b", line):
            value = next((v for v in lines[k + 1:k + 4] if "Value:" in v), "")
            dims = [int(x, 16) for x in re.findall(r"0x([0-9a-f]+)", value)]
            if dims and (cur["threads"] is None or "REQNTID" in line):
                cur["threads"] = dims[0] * (dims[1] if len(dims) > 1 else 1) * (dims[2] if len(dims) > 2 else 1)
        if "Instruction Kind : MBARRIER_INIT" in line:
            cur["mbarriers"] += 1
    return facts


def analyze(cuobjdump, path):
    """{kernel: facts} for every kernel in the cubin (or host executable)."""
    res = sass.resources(cuobjdump, path)
    elf = elf_facts(cuobjdump, path)
    result = {}
    for name, insns in sass.disassemble(cuobjdump, path).items():
        ops = collections.Counter(op for _, op, _, _ in insns)
        setmaxnreg = sorted({int(m.group(1), 0) for _, op, _, operands in insns if op == "USETMAXREG"
                             for m in [re.search(r"(0x[0-9a-f]+|\b\d+\b)", operands)] if m})
        tma = steady_loop(insns, "tma_load")
        mma = steady_loop(insns, "mma")
        r = res.get(name, {})
        result[name] = {
            "registers": r.get("REG"), "stack": r.get("STACK", 0), "local": r.get("LOCAL", 0),
            "spill_insns": ops.get("STL", 0) + ops.get("LDL", 0),
            "smem_static": r.get("SHARED", 0),
            "threads": elf.get(name, {}).get("threads"),
            "mbarriers": elf.get(name, {}).get("mbarriers", 0),
            "tmem_columns": tmem_columns(insns),
            "setmaxnreg": setmaxnreg,
            "instructions": sum(n for op, n in ops.items() if op != "NOP"),
            "tma_loop": tma[1] if tma else None,
            "ring_depths": ring_depths(insns, *tma[0]) if tma else [],
            "mma_loop": mma[1] if mma else None,
            "loops": [m for _, m in innermost_loops(insns)],
        }
    return result
