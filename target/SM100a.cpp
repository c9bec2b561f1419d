//===- SM100a.cpp - the built-in Blackwell sm_100a description ------------===//
//
// Every number here is data with its source beside it: "blackwell-facts
// §x" is the project's shared notes (docs/blackwell-facts.md beside the
// repository: public B200 measurements, CUTLASS; "SA" is the SemiAnalysis
// B200 microbenchmarks it cites), "tileiras-facts §x" likewise
// (tileiras-facts.md, the reverse-engineered TileAS book). Numbers without a
// public source say "assumption". docs/target.md explains each choice;
// target/sm_100a.json is
// this model as `tilepipe target --dump --json` writes it.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <tuple>

using namespace tilepipe::target;

namespace {

// Pool indices (tileiras-facts §2.7), named so the bindings below read as
// words.
enum Pool : unsigned {
  OptagTable = 0,
  AluFmaIssue = 1,
  DualAluFanout = 2,
  OptagTableBwd = 3,
  CoarseIssue = 4,
  SmemLock = 5,
  DualIssue = 6,
  AluFmaFanout = 7,
  RegbankPair = 8,
};

// Slot ids (tileiras-facts §2.1) used by the op classes.
enum Slot : unsigned {
  Issue = 1,
  Xu = 2,
  Fp32x2 = 4,
  AluOrFmaHeavy = 6,
  DualAlu = 7,
  Lsu = 8,
  TcAndMma = 11,
  Tma = 12,
  TpGnicRd = 13,
  TpSmemRd = 15,
  TpSmemWr = 16,
  TpTmemRd = 17,
  TpTmemWr = 18,
  TpMma = 19,
};

void addSlots(TargetModel &m) {
  struct Row {
    const char *name;
    SlotKind kind;
    std::optional<unsigned> pool;
    const char *meaning;
  };
  constexpr SlotKind C = SlotKind::Coarse, F = SlotKind::Fine,
                     T = SlotKind::Test;
  // tileiras-facts §2.1, in id order. The four bindings are the model decision
  // recorded in docs/target.md: the pools that the book names after a slot
  // family (ALU-or-FMA issue, dual-ALU fan-out, dual issue, coarse issue) count
  // that slot; every other slot is a singleton bit.
  const Row rows[] = {
      {"issue", C, CoarseIssue, "generic issue family"},
      {"xu", C, std::nullopt, "transcendental / special-function unit"},
      {"xu64", C, std::nullopt, "64-bit SFU variant"},
      {"fp32x2_fp16ultra", F, DualIssue, "paired FP32x2 / packed FP16 issue"},
      {"alu", C, std::nullopt, "scalar ALU"},
      {"alu_or_fmaheavy", F, AluFmaIssue, "ALU or FMA-heavy issue group"},
      {"dual_alu", F, DualAluFanout, "dual-ALU datapath"},
      {"lsu", C, std::nullopt, "load/store"},
      {"tmem", C, std::nullopt, "tensor-memory family"},
      {"mma", C, std::nullopt, "MMA family"},
      {"tc_and_mma", F, std::nullopt, "TensorCore + legacy MMA issue stage"},
      {"tma", C, std::nullopt, "TMA family"},
      {"tp_gnic_rd", F, std::nullopt, "generic-interconnect transport read"},
      {"tp_gnic_wr", F, std::nullopt, "generic-interconnect transport write"},
      {"tp_smem_rd", F, std::nullopt, "SMEM transport read"},
      {"tp_smem_wr", F, std::nullopt, "SMEM transport write"},
      {"tp_tmem_rd", F, std::nullopt, "TMEM transport read"},
      {"tp_tmem_wr", F, std::nullopt, "TMEM transport write"},
      {"tp_mma", F, std::nullopt, "MMA transport"},
      {"unknown", F, std::nullopt, "unclassified fallback"},
      {"omitted_simt", F, std::nullopt, "deliberately omitted SIMT op"},
      {"test_simt", F, std::nullopt, "scheduler self-test SIMT row"},
      {"test_mma", F, std::nullopt, "self-test MMA row"},
      {"test_dma", T, std::nullopt, "self-test DMA row"},
  };
  for (const Row &row : rows) {
    SlotInfo slot;
    slot.id = m.slots.size() + 1;
    slot.name = row.name;
    slot.kind = row.kind;
    // The 15 primary fine slots of tileiras-facts §2.1 are exactly the
    // fine-kind ids.
    slot.primary = row.kind == F;
    slot.pool = row.pool;
    slot.meaning = row.meaning;
    m.slots.push_back(std::move(slot));
  }
}

void addPools(TargetModel &m) {
  struct Row {
    const char *name;
    unsigned capacity;
    bool binding;
    const char *role;
  };
  // tileiras-facts §2.7: capacities {37, 4, 7, 37, 5, 1, 3, 6, 2}, roles from
  // the 15-slot page. Pools 0 and 3 are table widths (op tags), not resources:
  // kept for fidelity, never binding (design.md decision 5).
  const Row rows[] = {
      {"optag_table", 37, false,
       "op-tag -> latency table width, first 37 distinct op tags (a table "
       "size, not a resource)"},
      {"alu_fma_issue", 4, true, "ALU-or-FMA-heavy issue cap"},
      {"dual_alu_fanout", 7, true, "dual_alu fan-out"},
      {"optag_table_bwd", 37, false,
       "shadow of optag_table for the backward walk (a table size, not a "
       "resource)"},
      {"coarse_issue", 5, true, "per-slot issue width for coarse families"},
      {"smem_lock", 1, true, "singleton global lock for SMEM capacity"},
      {"dual_issue", 3, true, "dual-issue cap"},
      {"alu_fma_fanout", 6, true, "alu_or_fmaheavy fan-out"},
      {"regbank_pair", 2, true, "register-bank pairing"},
  };
  for (const Row &row : rows) {
    PoolInfo pool;
    pool.index = m.pools.size();
    pool.name = row.name;
    pool.capacity = row.capacity;
    pool.binding = row.binding;
    pool.role = row.role;
    m.pools.push_back(std::move(pool));
  }
}

Quantity perByte(int64_t base, int64_t bytesPerCycle) {
  Quantity q = Quantity::constant(base);
  q.bytesPerCycle = bytesPerCycle;
  return q;
}

Quantity perFlop(int64_t base, int64_t flopsPerCycle) {
  Quantity q = Quantity::constant(base);
  q.flopsPerCycle = flopsPerCycle;
  return q;
}

Quantity perElement(int64_t base, int64_t elementsPerCycle) {
  Quantity q = Quantity::constant(base);
  q.elementsPerCycle = elementsPerCycle;
  return q;
}

/// blackwell-facts §1.3 TMA 2D load: HBM source, L2 flushed, 1 CTA/SM, one load
/// in flight, median SM clocks at 1.965 GHz, tile sizes in KiB.
Quantity tmaLatencyTable() {
  Quantity q;
  q.bytesTable = {{1024, 1413},  {2048, 1606},  {4096, 1845},  {8192, 2088},
                  {16384, 3590}, {32768, 4586}, {65536, 5405}, {131072, 9559}};
  return q;
}

/// TMA load latency by byte source (assumption, docs/target.md "TMA load
/// latency by byte source"): a fixed L2-hit round trip (issue, L2 lookup,
/// return, mbarrier complete_tx) plus the bytes at the rates the footprint
/// charges: HBM bytes (fetched / l2_reuse) at the 25 B/clk/SM HBM share and
/// every fetched byte at the 64 B/clk/SM L2 -> SM share. The flushed-L2
/// table above stays the tma_store latency.
constexpr int64_t kTmaL2HitCycles = 800;
Quantity tmaLoadLatency() {
  Quantity q = Quantity::constant(kTmaL2HitCycles);
  q.hbmBytesPerCycle = 25;
  q.fetchedBytesPerCycle = 64;
  return q;
}

struct ClassBuilder {
  TargetModel &m;
  OpClassInfo &add(const char *name, Quantity latency, std::string source) {
    OpClassInfo cls;
    cls.name = name;
    cls.latency = std::move(latency);
    cls.source = std::move(source);
    m.opClasses.push_back(std::move(cls));
    return m.opClasses.back();
  }
};

FootprintTriple triple(unsigned slot, Quantity duration) {
  return {slot, std::move(duration), 1};
}

// The tile classes. Rates: TMA HBM share 25 B/clk/SM when every SM streams
// (blackwell-facts §1.2, derived), SMEM 128 B/clk/SM (blackwell-facts §1.2),
// UMMA 8192 dense BF16 FLOP/clk/SM (blackwell-facts §1.2), MUFU 16/clk/SM
// (blackwell-facts §1.2).

/// TMA loads and stores, and cp.async.
void addCopyClasses(ClassBuilder &b) {
  // TMA load: the bytes a CTA needs are split by where they come from
  // (docs/target.md, "Where TMA bytes come from"). `multicast` CTAs of a
  // cluster share one fetch; of the fetched bytes 1/l2_reuse come from HBM
  // (the first reader of a tile brings it in, the others hit in L2). HBM
  // bytes hold `tma` at the chip-saturated HBM share, every fetched byte
  // holds the L2 -> SM path (`tp_gnic_rd`), and the whole tile lands in
  // this CTA's SMEM (multicast writes every receiver's SMEM).
  {
    OpClassInfo &c =
        b.add("tma_load", tmaLoadLatency(),
              "latency: assumption, an L2-hit round trip of 800 clk plus the "
              "HBM bytes at 25 B/clk/SM and the fetched bytes at 64 "
              "B/clk/SM (docs/target.md, 'TMA load latency by byte "
              "source'); "
              "tma: HBM bytes (fetched / l2_reuse) at the 25 B/clk/SM HBM "
              "share (blackwell-facts 1.2, derived); "
              "tp_gnic_rd: fetched bytes (bytes / multicast) from L2 at 64 "
              "B/clk/SM (assumption: no B200 L2 bandwidth measurement was "
              "readable; FA4's 1613 TFLOP/s needs >= 21, docs/target.md); "
              "tp_smem_wr: SMEM 128 B/clk/SM (blackwell-facts 1.2)");
    Quantity hbm, fetched;
    hbm.hbmBytesPerCycle = 25;
    fetched.fetchedBytesPerCycle = 64;
    c.footprint = {triple(Tma, hbm), triple(TpGnicRd, fetched),
                   triple(TpSmemWr, perByte(0, 128))};
    c.async = c.tma = true;
  }
  {
    OpClassInfo &c =
        b.add("tma_store", tmaLatencyTable(),
              "latency: assumption, the TMA load table of blackwell-facts 1.3 "
              "(the store path "
              "was not measured, blackwell-facts 8); tma: 25 B/clk/SM "
              "(blackwell-facts 1.2, derived); "
              "tp_smem_rd: SMEM 128 B/clk/SM (blackwell-facts 1.2)");
    c.footprint = {triple(Tma, perByte(0, 25)),
                   triple(TpSmemRd, perByte(0, 128))};
    c.async = c.tma = true;
  }
  {
    OpClassInfo &c = b.add(
        "cp_async", Quantity::constant(1600),
        "latency: midpoint of the measured 1.1-2.1k clk LDGSTS latency "
        "(blackwell-facts 1.3, SA); lsu and tp_smem_wr: SMEM 128 B/clk/SM "
        "(blackwell-facts 1.2); "
        "tp_gnic_rd: HBM share 25 B/clk/SM (blackwell-facts 1.2, derived)");
    c.footprint = {triple(Lsu, perByte(0, 128)),
                   triple(TpGnicRd, perByte(0, 25)),
                   triple(TpSmemWr, perByte(0, 128))};
    c.async = true;
  }
}

/// UMMA of every operand kind and precision, and tcgen05.cp (SMEM ->
/// TMEM), all issued into the tensor core's in-order queue.
void addUmmaClasses(ClassBuilder &b) {
  // UMMA: latency = II + c with II = flops / 8192 (blackwell-facts 1.2) and c =
  // 136 for 1-CTA SS, 116 for TS (blackwell-facts 1.3). Back-to-back UMMAs on
  // one accumulator are ordered by the in-order tensor-core queue, so the chain
  // distance is the issue interval alone.
  const char *ummaRates = "II: 8192 dense BF16 FLOP/clk/SM (blackwell-facts "
                          "1.2, SA); tp_smem_rd: SS operand "
                          "reads at SMEM 128 B/clk/SM (blackwell-facts 1.2); "
                          "chain: in-order TC queue "
                          "(blackwell-facts 7.3 rule 5)";
  for (auto [name, c0, mode] :
       {std::tuple<const char *, int64_t, const char *>{
            "umma", 136,
            "latency: II + 136, 1-CTA SS fit (blackwell-facts 1.3, SA); "},
        {"umma_ts", 116,
         "latency: II + 116, TS fit (blackwell-facts 1.3, SA); "}}) {
    OpClassInfo &c =
        b.add(name, perFlop(c0, 8192), std::string(mode) + ummaRates);
    c.chainLatency = perFlop(0, 8192);
    c.footprint = {triple(TcAndMma, perFlop(0, 8192)),
                   triple(TpMma, perFlop(0, 8192)),
                   triple(TpSmemRd, perByte(0, 128))};
    c.async = c.mma = true;
  }
  // Narrow UMMA kinds. At equal M,N an instruction takes the cycles of a BF16
  // K=16 one with K=32 for FP8/FP6/INT8 (kind::f8f6f4, kind::mxf8f6f4,
  // kind::i8) and K=64 for block-scaled FP4 (kind::mxf4): 2x and 4x the
  // FLOP rate (blackwell-facts 1.2, SA fit_results.csv). The latency offset
  // is the BF16 one: SA measured E4M3 128x128x32 SS at 200 clk with II 64 and
  // F4 128x256x64 SS at 264 clk with II 128, both II + 136 (blackwell-facts
  // 1.3); the TS offset was measured for BF16 only (assumption).
  for (auto [name, rate, c0, source] :
       {std::tuple<const char *, int64_t, int64_t, const char *>{
            "umma_f8", 16384, 136,
            "latency: II + 136, 1-CTA SS fit, E4M3 128x128x32 measured 200 "
            "clk at II 64 (blackwell-facts 1.3, SA); II: FP8/FP6/INT8 K=32 "
            "in the cycles of BF16 K=16, 16384 FLOP/clk/SM (blackwell-facts "
            "1.2, SA); "},
        {"umma_ts_f8", 16384, 116,
         "latency: II + 116, the BF16 TS fit (assumption: TS not measured "
         "for FP8, blackwell-facts 1.3); II: FP8/FP6/INT8 K=32 in the cycles "
         "of BF16 K=16, 16384 FLOP/clk/SM (blackwell-facts 1.2, SA); "},
        {"umma_f4", 32768, 136,
         "latency: II + 136, 1-CTA SS fit, F4 128x256x64 measured 264 clk at "
         "II 128 (blackwell-facts 1.3, SA); II: block-scaled FP4 K=64 in the "
         "cycles of BF16 K=16, 32768 FLOP/clk/SM (blackwell-facts 1.2, SA); "},
        {"umma_ts_f4", 32768, 116,
         "latency: II + 116, the BF16 TS fit (assumption: TS not measured "
         "for FP4, blackwell-facts 1.3); II: block-scaled FP4 K=64 in the "
         "cycles of BF16 K=16, 32768 FLOP/clk/SM (blackwell-facts 1.2, "
         "SA); "}}) {
    OpClassInfo &c = b.add(
        name, perFlop(c0, rate),
        std::string(source) + "tp_smem_rd: SS operand reads at SMEM 128 "
                              "B/clk/SM (blackwell-facts 1.2); chain: "
                              "in-order TC queue (blackwell-facts 7.3 rule 5)");
    c.chainLatency = perFlop(0, rate);
    c.footprint = {triple(TcAndMma, perFlop(0, rate)),
                   triple(TpMma, perFlop(0, rate)),
                   triple(TpSmemRd, perByte(0, 128))};
    c.async = c.mma = true;
  }
  // tcgen05.cp (SMEM -> TMEM): one thread of the MMA issuer issues it into the
  // tensor core's in-order queue, ahead of the UMMAs that read the copied
  // tile (blackwell-facts 1.4), so it holds the UMMA issue stage and reads
  // SMEM at 128 B/clk/SM (blackwell-facts 1.2). A later tcgen05.mma of the
  // same thread is ordered after it without a wait (PTX tcgen05 pipelined
  // instruction pairs), so the latency is the copy's SMEM read time; its
  // completion latency was never measured (assumption).
  {
    OpClassInfo &c = b.add(
        "tmem_copy", perByte(0, 128),
        "latency: assumption, the SMEM read time at 128 B/clk/SM "
        "(blackwell-facts 1.2; tcgen05.cp -> tcgen05.mma of one thread is "
        "ordered without a wait, PTX tcgen05 pipelined pairs; completion "
        "latency not measured); tc_and_mma: issued by the MMA issuer into "
        "the in-order TC queue (blackwell-facts 1.4); tp_smem_rd: SMEM 128 "
        "B/clk/SM (blackwell-facts 1.2)");
    c.footprint = {triple(TcAndMma, perByte(0, 128)),
                   triple(TpSmemRd, perByte(0, 128))};
    c.async = c.mma = true;
  }
}

/// TMEM and SMEM loads and stores.
void addMemoryClasses(ClassBuilder &b) {
  {
    OpClassInfo &c = b.add("tmem_load", perByte(50, 512),
                           "assumption: ~50 clk tcgen05.ld (blackwell-facts "
                           "1.3 suggested default, not "
                           "measured) + bytes at 512 B/clk (assumption)");
    c.footprint = {triple(TpTmemRd, perByte(0, 512))};
  }
  {
    OpClassInfo &c = b.add("tmem_store", perByte(50, 512),
                           "assumption: ~50 clk tcgen05.st (blackwell-facts "
                           "1.3 suggested default, not "
                           "measured) + bytes at 512 B/clk (assumption)");
    c.footprint = {triple(TpTmemWr, perByte(0, 512))};
  }
  {
    OpClassInfo &c = b.add(
        "smem_load", perByte(30, 128),
        "latency: ~30 clk (assumption, blackwell-facts 7.2) + bytes at SMEM "
        "128 B/clk/SM (blackwell-facts 1.2)");
    c.footprint = {triple(TpSmemRd, perByte(0, 128))};
  }
  {
    OpClassInfo &c = b.add(
        "smem_store", perByte(30, 128),
        "latency: ~30 clk (assumption, blackwell-facts 7.2) + bytes at SMEM "
        "128 B/clk/SM (blackwell-facts 1.2)");
    c.footprint = {triple(TpSmemWr, perByte(0, 128))};
  }
}

/// The SM's math: MUFU, FMA, conversions, reductions, and the generic
/// fallback.
void addMathClasses(ClassBuilder &b) {
  {
    OpClassInfo &c = b.add("exp2", perElement(20, 16),
                           "MUFU 16 ex2/clk/SM (blackwell-facts 1.2, FA4 "
                           "paper) + ~20 clk (blackwell-facts 7.2)");
    c.footprint = {triple(Xu, perElement(0, 16))};
  }
  {
    OpClassInfo &c =
        b.add("fma", perElement(4, 32),
              "one of 4 SMSP FMA pipes, 32 lanes/clk (assumption: standard SM "
              "spec, blackwell-facts 7.1) + 4 clk (tileiras-facts 2.3 "
              "FMA-heavy family)");
    c.footprint = {triple(AluOrFmaHeavy, perElement(0, 32))};
    c.pools = {{AluFmaFanout, 1}};
  }
  {
    OpClassInfo &c =
        b.add("cvt", perElement(4, 64),
              "paired FP32x2 conversion, 64 elements/clk (assumption) + 4 clk "
              "(tileiras-facts 2.3 FP32x2 family)");
    c.footprint = {triple(Fp32x2, perElement(0, 64))};
  }
  {
    OpClassInfo &c = b.add("reduce", perElement(14, 32),
                           "FMA pipe, 32 lanes/clk (assumption, "
                           "blackwell-facts 7.1) + 14 clk for the "
                           "shuffle tree (assumption)");
    c.footprint = {triple(AluOrFmaHeavy, perElement(0, 32))};
    c.pools = {{AluFmaFanout, 1}};
  }
  {
    OpClassInfo &c =
        b.add("generic", Quantity::constant(2),
              "tileiras-facts 2.3 dual-ALU family (2 clk); the fallback for "
              "ops no other class describes");
    c.footprint = {triple(DualAlu, Quantity::constant(1))};
  }
}

void addTileClasses(TargetModel &m) {
  ClassBuilder b{m};
  addCopyClasses(b);
  addUmmaClasses(b);
  addMemoryClasses(b);
  addMathClasses(b);
}

/// The book's per-instruction families (tileiras-facts §2.3, §2.5, §2.10,
/// §3.1), for hand-made problems that reproduce the book's examples.
void addBookClasses(TargetModel &m) {
  ClassBuilder b{m};
  auto fixed = [&](const char *name, int64_t latency,
                   std::initializer_list<std::pair<unsigned, int64_t>> rows,
                   const char *source) {
    OpClassInfo &c = b.add(name, Quantity::constant(latency), source);
    for (auto [slot, cycles] : rows)
      c.footprint.push_back(triple(slot, Quantity::constant(cycles)));
    return &c;
  };
  fixed("book.dual_alu", 2, {{DualAlu, 2}},
        "tileiras-facts 2.3/2.5 dual-ALU family");
  fixed("book.fma_heavy", 4, {{AluOrFmaHeavy, 4}},
        "tileiras-facts 2.3/2.5 ALU/FMA-heavy family");
  fixed("book.fp32x2", 4, {{Fp32x2, 4}},
        "tileiras-facts 2.3/2.5 FP32x2/FP16 family");
  fixed("book.smem_rd", 7, {{TpSmemRd, 7}},
        "tileiras-facts 2.3/2.5 SMEM read transport (async.smem_read, "
        "tileiras-facts 3.1)");
  fixed("book.smem_wr", 7, {{TpSmemWr, 7}},
        "tileiras-facts 2.3/2.5 SMEM write transport (async.smem_write, "
        "tileiras-facts 3.1)");
  fixed("book.tmem_rd", 7, {{TpTmemRd, 7}},
        "tileiras-facts 2.3/2.5 TMEM read transport");
  fixed("book.tmem_wr", 7, {{TpTmemWr, 7}},
        "tileiras-facts 2.3/2.5 TMEM write transport");
  OpClassInfo *tma = fixed("book.tma_load", 8, {{Tma, 8}, {TpSmemWr, 8}},
                           "tileiras-facts 2.10/3.1 async.tiled_tma_load: "
                           "(tma, 8, 1), (tp_smem_wr, 8, 1)");
  tma->async = tma->tma = true;
  OpClassInfo *mma =
      fixed("book.mma", 16, {{TcAndMma, 8}, {TpMma, 8}},
            "tileiras-facts 3.1 async.wgmma: 16-cycle accumulator latency, "
            "8-cycle issue "
            "window as occupancy (tileiras-facts 2.3/2.5 TC issue 8)");
  mma->async = mma->mma = true;
}

TargetModel buildSM100a() {
  TargetModel m;
  m.name = "sm_100a";
  m.description =
      "NVIDIA Blackwell sm_100a (B200), 1 CTA/SM: the 24-slot table and the "
      "9 pools of the TileAS 15-slot model, public B200 measurements for "
      "tile-level op classes";
  addPools(m);
  addSlots(m);
  // blackwell-facts §1.1: 232448 B SMEM per CTA (CUTLASS
  // sm100_smem_capacity_bytes), TMEM 512 columns x 128 lanes, 16 named barriers
  // with ids 0-7 reserved (CUTLASS; design.md decision 1), 64 K registers per
  // SM.
  m.caps.smemBytes = 232448;
  m.caps.tmemColumns = 512;
  m.caps.tmemLanes = 128;
  m.caps.namedBarriers = 16;
  m.caps.reservedNamedBarriers = 8;
  m.caps.registersPerSM = 65536;
  // blackwell-facts 1.1: 148 SMs (chipsandcheese), SM clock 1.965 GHz (SA's
  // B200_CLOCK_GHZ, the clock every measured cycle count here is in).
  // Default L2 reuse 4: a tile loop's operand tile is read by every CTA of
  // its grid row (or column); with 148 CTAs resident and a row-major raster
  // over a grid row of R tiles, a row tile is shared by ~min(R, 148) CTAs and
  // a column tile by ~148 / R, at least 4 for R <= 37 (an 8192-wide operand
  // in 256-wide tiles has R = 32). An assumption, stated per load with
  // l2_reuse = N where it is known (docs/target.md).
  m.chip.smCount = 148;
  m.chip.clockMHz = 1965;
  m.chip.defaultL2Reuse = 4;
  m.chip.source =
      "sm_count: 148 SMs (blackwell-facts 1.1, chipsandcheese B200); "
      "clock_mhz: 1965, the SM clock of the SA measurements (blackwell-facts "
      "1.1, SA B200_CLOCK_GHZ); default_l2_reuse: assumption, the co-resident "
      "CTAs (148) sharing a row-rastered operand tile, >= 4 for grid rows of "
      "up to 37 tiles (docs/target.md)";
  addTileClasses(m);
  addBookClasses(m);
  // The JSON loader sorts classes by name; do the same so the two agree on
  // order too, not only on content.
  llvm::stable_sort(m.opClasses,
                    [](const OpClassInfo &a, const OpClassInfo &b) {
                      return a.name < b.name;
                    });
  m.rebuildIndex();
  return m;
}

} // namespace

const TargetModel &TargetModel::sm100a() {
  static const TargetModel model = [] {
    TargetModel m = buildSM100a();
    // A bad built-in is a bug in this file, not a user error.
    if (llvm::Error err = m.validate())
      llvm::report_fatal_error(llvm::Twine("built-in sm_100a model: ") +
                               llvm::toString(std::move(err)));
    return m;
  }();
  return model;
}
