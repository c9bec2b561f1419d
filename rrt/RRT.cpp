//===- RRT.cpp - the resource reservation table ---------------------------===//
//
// The scheduler probes millions of (op, start) pairs per loop, so probe,
// commit and release allocate nothing and walk only the folded footprint's
// flat arrays: one modulo reduction per call, then a row counter that wraps.
//
//===----------------------------------------------------------------------===//

#include "rrt/RRT.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <climits>

using namespace tilepipe::rrt;

RRT::RRT(const ResourceLayout &layout, unsigned ii) : layout(&layout) {
  reset(ii);
}

void RRT::reset(unsigned newII) {
  assert(newII > 0 && "II must be positive");
  ii = newII;
  // Re-read the layout: a caller may have grown it since the last reset.
  words = layout->numWords();
  numPools = layout->numPools();
  bits.assign(size_t(ii) * words, 0);
  usage.assign(size_t(ii) * numPools, 0);
  limits.resize(numPools);
  for (unsigned p = 0; p < numPools; ++p)
    limits[p] = layout->poolBinding[p] ? layout->poolCaps[p] : UINT64_MAX;
}

unsigned RRT::rowOf(int64_t start, unsigned k) const {
  int64_t r = (start % int64_t(ii) + int64_t(k % ii)) % int64_t(ii);
  return unsigned(r < 0 ? r + ii : r);
}

std::optional<Conflict> RRT::findConflict(const FoldedFootprint &fp,
                                          int64_t start) const {
  assert(fp.ii == ii && "footprint folded at another II");
  assert((fp.empty() || fp.numWords == words) && "layout mismatch");

  if (LLVM_UNLIKELY(fp.selfConflict)) {
    Conflict c;
    c.kind = Conflict::Kind::Self;
    c.row = rowOf(start, fp.selfRow);
    c.offset = fp.selfRow;
    c.resource = fp.selfResource;
    c.resourceKind = fp.selfKind;
    if (fp.selfKind == Use::Kind::Pool) {
      c.requested = unsigned(std::min<uint64_t>(fp.selfDemand, UINT_MAX));
      c.capacity = layout->poolCaps[fp.selfResource];
    }
    return c;
  }

  unsigned row = rowOf(start, 0);
  const uint64_t *want = fp.bits.data();
  for (unsigned k = 0; k < fp.numRows; ++k, want += words) {
    const uint64_t *have = bits.data() + size_t(row) * words;
    for (unsigned w = 0; w < words; ++w) {
      if (uint64_t clash = have[w] & want[w]) {
        Conflict c;
        c.kind = Conflict::Kind::Bit;
        c.row = row;
        c.offset = k;
        c.resource = w * 64 + llvm::countr_zero(clash);
        c.resourceKind = Use::Kind::Bit;
        return c;
      }
    }
    const unsigned *rowUsage = usage.data() + size_t(row) * numPools;
    for (unsigned i = fp.claimBegin[k], e = fp.claimBegin[k + 1]; i != e; ++i) {
      const PoolClaim &claim = fp.claims[i];
      if (uint64_t(rowUsage[claim.pool]) + claim.amount > limits[claim.pool]) {
        Conflict c;
        c.kind = Conflict::Kind::Pool;
        c.row = row;
        c.offset = k;
        c.resource = claim.pool;
        c.resourceKind = Use::Kind::Pool;
        c.requested = claim.amount;
        c.used = rowUsage[claim.pool];
        c.capacity = layout->poolCaps[claim.pool];
        return c;
      }
    }
    if (++row == ii)
      row = 0;
  }
  return std::nullopt;
}

void RRT::commit(const FoldedFootprint &fp, int64_t start) {
  assert(fp.ii == ii && "footprint folded at another II");
  assert((fp.empty() || fp.numWords == words) && "layout mismatch");
  unsigned row = rowOf(start, 0);
  const uint64_t *want = fp.bits.data();
  for (unsigned k = 0; k < fp.numRows; ++k, want += words) {
    uint64_t *have = bits.data() + size_t(row) * words;
    for (unsigned w = 0; w < words; ++w)
      have[w] |= want[w];
    unsigned *rowUsage = usage.data() + size_t(row) * numPools;
    for (unsigned i = fp.claimBegin[k], e = fp.claimBegin[k + 1]; i != e; ++i)
      rowUsage[fp.claims[i].pool] += fp.claims[i].amount;
    if (++row == ii)
      row = 0;
  }
}

void RRT::release(const FoldedFootprint &fp, int64_t start) {
  assert(fp.ii == ii && "footprint folded at another II");
  assert((fp.empty() || fp.numWords == words) && "layout mismatch");
  unsigned row = rowOf(start, 0);
  const uint64_t *want = fp.bits.data();
  for (unsigned k = 0; k < fp.numRows; ++k, want += words) {
    uint64_t *have = bits.data() + size_t(row) * words;
    for (unsigned w = 0; w < words; ++w) {
      assert((have[w] & want[w]) == want[w] &&
             "releasing bits that were not committed");
      have[w] &= ~want[w];
    }
    unsigned *rowUsage = usage.data() + size_t(row) * numPools;
    for (unsigned i = fp.claimBegin[k], e = fp.claimBegin[k + 1]; i != e; ++i) {
      assert(rowUsage[fp.claims[i].pool] >= fp.claims[i].amount &&
             "releasing pool units that were not committed");
      rowUsage[fp.claims[i].pool] -= fp.claims[i].amount;
    }
    if (++row == ii)
      row = 0;
  }
}
