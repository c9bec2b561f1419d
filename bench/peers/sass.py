"""What a kernel's SASS says (bench/peers/peers.py): per kernel, the
instruction mix of its steady-state loops, registers and spills.

A loop is the address range of a backward branch. The MMA loop is the
smallest loop holding the most tcgen05.mma instructions (UTC*MMA), the load
loop the smallest holding the most TMA loads (UTMALDG): a one-trip loop
around one elected instruction holds one, the steady-state loop all of an
iteration's, and an outer loop (persistent tiles) no more than that. Counts
are static: instructions in the range, each once."""
import collections
import os
import re
import subprocess


def tool(cuobjdump, *args):
    """cuobjdump's output; it runs nvdisasm, which pip puts beside it."""
    env = dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run([cuobjdump, *args], capture_output=True, text=True, check=True, env=env).stdout

INSN = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)([^;]*);")
FUNC = re.compile(r"^\s+Function : (\S+)")
RES_FUNC = re.compile(r"^\s*Function (\S+):\s*$")
RES_KV = re.compile(r"([A-Z_]+(?:\[\d+\])?):(\d+)")
TARGET = re.compile(r"`?\(?\.?(?:L_x_\d+)?\)?\s*0x([0-9a-f]+)|\s0x([0-9a-f]+)")


def disassemble(cuobjdump, path):
    """{kernel: [(address, opcode, full mnemonic, operands)]} in address order."""
    out = tool(cuobjdump, "-sass", path)
    kernels, cur = collections.OrderedDict(), None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = kernels.setdefault(m.group(1), [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(3), m.group(3) + m.group(4), m.group(5)))
    return kernels


def resources(cuobjdump, path):
    """{kernel: {REG, STACK, SHARED, LOCAL, ...}} from cuobjdump -res-usage."""
    out = tool(cuobjdump, "-res-usage", path)
    res, cur = {}, None
    for line in out.splitlines():
        m = RES_FUNC.match(line)
        if m:
            cur = m.group(1)
        elif cur and "REG:" in line:
            res[cur] = {k: int(v) for k, v in RES_KV.findall(line)}
            cur = None
    return res


def classify(op, full):
    # tcgen05.mma (UTC*MMA); Hopper's wgmma (HGMMA, QGMMA for fp8, IGMMA).
    if re.fullmatch(r"UTC[A-Z]?MMA|[HQI]GMMA", op):
        return "mma"
    if op == "UTMALDG":
        return "tma_load"
    # mbarrier waits; wgmma.wait_group (WARPGROUP.DEPBAR).
    if full.startswith("SYNCS.PHASECHK") or full.startswith("WARPGROUP.DEPBAR"):
        return "wait"
    if full.startswith("SYNCS.ARRIVE"):
        return "arrive"
    if op == "UTCBAR":
        return "commit"
    if op in ("BRA", "BRX", "JMP"):
        return "branch"
    return "other"


def loops(insns):
    """(start, end) address ranges of backward branches. A range holding an
    EXIT is not a loop: ptxas puts a barrier wait's retry path after the
    kernel's exit, and it branches back to the wait."""
    exits = [addr for addr, op, _, _ in insns if op in ("EXIT", "RET")]
    out = []
    for addr, op, _, operands in insns:
        if op != "BRA":
            continue
        m = re.search(r"0x([0-9a-f]+)", operands)
        if not m or int(m.group(1), 16) > addr:
            continue
        lo = int(m.group(1), 16)
        if not any(lo <= e <= addr for e in exits):
            out.append((lo, addr))
    return out


def mix(insns, lo, hi):
    counts = collections.Counter(classify(op, full) for addr, op, full, _ in insns
                                 if lo <= addr <= hi and op != "NOP")
    counts["total"] = sum(counts.values())
    return dict(counts)


def is_hopper(insns):
    return any(re.fullmatch(r"[HQI]GMMA", op) for _, op, _, _ in insns)


def steady_loop(insns, kind):
    """The smallest loop holding the most instructions of `kind`, and its
    mix. In a Hopper kernel (wgmma), the smallest loop holding any: its
    compilers peel the first k-block's wgmma (scale-d off) out of the
    k-loop, so the tile loop around it holds more wgmma than the steady
    state does (docs/peers.md, "Hopper")."""
    best = None
    hopper = is_hopper(insns)
    for lo, hi in loops(insns):
        m = mix(insns, lo, hi)
        key = (0 if hopper else m.get(kind, 0), -(hi - lo))
        if m.get(kind, 0) and (best is None or key > best[0]):
            best = (key, m)
    return best[1] if best else None


def analyze(cuobjdump, path):
    res = resources(cuobjdump, path)
    result = {}
    for name, insns in disassemble(cuobjdump, path).items():
        total = mix(insns, 0, insns[-1][0]) if insns else {}
        result[name] = {"total": total, "mma_loop": steady_loop(insns, "mma"),
                        "load_loop": steady_loop(insns, "tma_load"), "res": res.get(name, {})}
    return result
