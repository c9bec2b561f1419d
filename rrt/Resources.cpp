//===- Resources.cpp - resource layout and per-op footprints --------------===//
//
// Folding happens once per (op, candidate II), off the probe path, so this
// file favours clarity over speed; the RRT's hot loops only read the flat
// arrays that fold() produces.
//
//===----------------------------------------------------------------------===//

#include "rrt/Resources.h"

#include <algorithm>
#include <cassert>
#include <climits>

using namespace tilepipe::rrt;

unsigned ResourceLayout::addBit(std::string name) {
  bitNames.push_back(std::move(name));
  return bitNames.size() - 1;
}

unsigned ResourceLayout::addPool(std::string name, unsigned cap, bool binding) {
  poolNames.push_back(std::move(name));
  poolCaps.push_back(cap);
  poolBinding.push_back(binding);
  return poolNames.size() - 1;
}

Footprint::Footprint(const ResourceLayout &layout, llvm::ArrayRef<Use> uses)
    : uses(uses.begin(), uses.end()) {
  for (const Use &u : uses) {
    assert((u.kind == Use::Kind::Bit ? u.index < layout.numBits()
                                     : u.index < layout.numPools()) &&
           "use names a resource the layout does not have");
    (void)layout;
    len = std::max(len, u.offset + u.duration);
  }
}

uint64_t Footprint::bitDemand(unsigned b) const {
  uint64_t sum = 0;
  for (const Use &u : uses)
    if (u.kind == Use::Kind::Bit && u.index == b)
      sum += u.duration;
  return sum;
}

uint64_t Footprint::poolDemand(unsigned p) const {
  uint64_t sum = 0;
  for (const Use &u : uses)
    if (u.kind == Use::Kind::Pool && u.index == p)
      sum += uint64_t(u.duration) * u.amount;
  return sum;
}

FoldedFootprint Footprint::fold(const ResourceLayout &layout,
                                unsigned ii) const {
  assert(ii > 0 && "II must be positive");
  FoldedFootprint f;
  f.ii = ii;
  f.numRows = std::min(len, ii);
  f.numWords = layout.numWords();
  f.bits.assign(size_t(f.numRows) * f.numWords, 0);
  f.claimBegin.assign(f.numRows + 1, 0);

  // Keep the lowest colliding row so the report does not depend on the order
  // in which uses were listed.
  auto noteSelf = [&f](Use::Kind kind, unsigned row, unsigned resource,
                       uint64_t demand) {
    if (f.selfConflict && f.selfRow <= row)
      return;
    f.selfConflict = true;
    f.selfKind = kind;
    f.selfRow = row;
    f.selfResource = resource;
    f.selfDemand = demand;
  };

  for (const Use &u : uses) {
    if (u.kind != Use::Kind::Bit || u.duration == 0)
      continue;
    const unsigned word = u.index / 64;
    const uint64_t mask = uint64_t(1) << (u.index % 64);
    unsigned row = u.offset % ii;
    // A run longer than II wraps onto its own first row; II cycles are
    // enough to mark every row it touches.
    if (u.duration > ii)
      noteSelf(Use::Kind::Bit, row, u.index, 0);
    const unsigned span = std::min(u.duration, ii);
    for (unsigned k = 0; k < span; ++k) {
      uint64_t &w = f.bits[size_t(row) * f.numWords + word];
      if (w & mask)
        noteSelf(Use::Kind::Bit, row, u.index, 0);
      w |= mask;
      if (++row == ii)
        row = 0;
    }
  }

  const unsigned numPools = layout.numPools();
  bool anyPool = false;
  for (const Use &u : uses)
    anyPool |= u.kind == Use::Kind::Pool && u.duration && u.amount;
  if (!anyPool || f.numRows == 0)
    return f;

  // Dense (row, pool) sums first, then the sparse CSR the probe walks.
  std::vector<uint64_t> sums(size_t(f.numRows) * numPools, 0);
  for (const Use &u : uses) {
    if (u.kind != Use::Kind::Pool || u.duration == 0 || u.amount == 0)
      continue;
    // d cycles wrap d / ii full times over every row, plus d % ii rows once
    // more starting at the run's first row. Only d >= ii reaches the full
    // case, and then numRows == ii.
    const uint64_t full = u.duration / ii;
    const unsigned rem = u.duration % ii;
    if (full)
      for (unsigned row = 0; row < f.numRows; ++row)
        sums[size_t(row) * numPools + u.index] += full * u.amount;
    unsigned row = u.offset % ii;
    for (unsigned k = 0; k < rem; ++k) {
      sums[size_t(row) * numPools + u.index] += u.amount;
      if (++row == ii)
        row = 0;
    }
  }

  for (unsigned row = 0; row < f.numRows; ++row) {
    f.claimBegin[row] = f.claims.size();
    for (unsigned p = 0; p < numPools; ++p) {
      uint64_t sum = sums[size_t(row) * numPools + p];
      if (!sum)
        continue;
      if (layout.poolBinding[p] && sum > layout.poolCaps[p])
        noteSelf(Use::Kind::Pool, row, p, sum);
      // A sum past UINT_MAX is over any binding cap already (flagged above);
      // saturating keeps non-binding bookkeeping monotone.
      f.claims.push_back({p, unsigned(std::min<uint64_t>(sum, UINT_MAX))});
    }
  }
  f.claimBegin[f.numRows] = f.claims.size();
  return f;
}
