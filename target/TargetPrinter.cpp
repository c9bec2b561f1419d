//===- TargetPrinter.cpp - TargetModel::print: the table for people -------===//
//
// `tilepipe target --dump`: the model as aligned tables, op classes by name.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tilepipe::target;
using llvm::StringRef;

namespace {
std::string quantityText(const Quantity &q) {
  std::string text;
  llvm::raw_string_ostream os(text);
  q.print(os);
  return text;
}

template <typename T, typename F>
size_t widest(const std::vector<T> &items, size_t least, F width) {
  size_t w = least;
  for (const T &item : items)
    w = std::max(w, width(item));
  return w;
}

using llvm::left_justify;
using llvm::right_justify;

/// "index name" of a pool, "?" for an unknown one.
std::string poolLabel(const TargetModel &m, unsigned index) {
  const PoolInfo *pool = m.getPool(index);
  return (llvm::Twine(index) + " " + (pool ? pool->name : "?")).str();
}

void printSlots(llvm::raw_ostream &os, const TargetModel &m) {
  const std::vector<SlotInfo> &slots = m.slots;
  os << "\nslots: " << slots.size() << " (RRT bit = id - 1)\n";
  size_t nameW =
      widest(slots, 4, [](const SlotInfo &s) { return s.name.size(); });
  size_t poolW = widest(slots, 4, [&](const SlotInfo &s) {
    return s.pool ? poolLabel(m, *s.pool).size() : 1;
  });
  os << "  " << right_justify("id", 3) << "  " << left_justify("name", nameW)
     << "  " << left_justify("kind", 6) << "  primary  "
     << left_justify("pool", poolW) << "  meaning\n";
  for (const SlotInfo &s : slots)
    os << "  " << right_justify(std::to_string(s.id), 3) << "  "
       << left_justify(s.name, nameW) << "  "
       << left_justify(stringifySlotKind(s.kind), 6) << "  "
       << left_justify(s.primary ? "yes" : "-", 7) << "  "
       << left_justify(s.pool ? poolLabel(m, *s.pool) : "-", poolW) << "  "
       << s.meaning << "\n";
}

void printPools(llvm::raw_ostream &os, const std::vector<PoolInfo> &pools) {
  os << "\npools: " << pools.size() << " (capacity per modulo cycle)\n";
  size_t poolNameW =
      widest(pools, 4, [](const PoolInfo &p) { return p.name.size(); });
  os << "  index  " << left_justify("name", poolNameW)
     << "  cap  binding  role\n";
  for (const PoolInfo &p : pools)
    os << "  " << right_justify(std::to_string(p.index), 5) << "  "
       << left_justify(p.name, poolNameW) << "  "
       << right_justify(std::to_string(p.capacity), 3) << "  "
       << left_justify(p.binding ? "yes" : "no", 7) << "  " << p.role << "\n";
}

void printCapsAndChip(llvm::raw_ostream &os, const GlobalCaps &caps,
                      const ChipInfo &chip) {
  os << "\ncaps (whole schedule)\n";
  const std::pair<const char *, int64_t> capRows[] = {
      {"smem_bytes", caps.smemBytes},
      {"tmem_columns", caps.tmemColumns},
      {"tmem_lanes", caps.tmemLanes},
      {"named_barriers", caps.namedBarriers},
      {"reserved_named_barriers", caps.reservedNamedBarriers},
      {"registers_per_sm", caps.registersPerSM}};
  for (auto [field, value] : capRows)
    os << "  " << left_justify(field, 24) << "  " << value << "\n";

  os << "\nchip (throughput and default L2 reuse)\n";
  const std::pair<const char *, int64_t> chipRows[] = {
      {"sm_count", chip.smCount},
      {"clock_mhz", chip.clockMHz},
      {"default_l2_reuse", chip.defaultL2Reuse}};
  for (auto [field, value] : chipRows)
    os << "  " << left_justify(field, 24) << "  " << value << "\n";
  if (!chip.source.empty())
    os << "  source: " << chip.source << "\n";
}

/// One op class: its flags, latency, footprint, pools and source.
void printOpClass(llvm::raw_ostream &os, const TargetModel &m,
                  const OpClassInfo *cls) {
  os << "  " << cls->name;
  llvm::SmallVector<StringRef, 3> flags;
  if (cls->async)
    flags.push_back("async");
  if (cls->tma)
    flags.push_back("tma");
  if (cls->mma)
    flags.push_back("mma");
  if (!flags.empty())
    os << "  [" << llvm::join(flags, ", ") << "]";
  os << "\n";
  auto row = [&](StringRef label) -> llvm::raw_ostream & {
    return os << "    " << left_justify(label, 13) << "  ";
  };
  row("latency") << quantityText(cls->latency) << "\n";
  if (cls->chainLatency)
    row("chain latency") << quantityText(*cls->chainLatency) << "\n";
  row("footprint");
  if (cls->footprint.empty())
    os << "-";
  llvm::interleave(
      cls->footprint, os,
      [&](const FootprintTriple &t) {
        const SlotInfo *slot = m.getSlot(t.slot);
        os << "(" << (slot ? slot->name : std::to_string(t.slot)) << ", "
           << quantityText(t.duration) << ", " << t.occupancy << ")";
      },
      " ");
  os << "\n";
  if (!cls->pools.empty()) {
    row("pools");
    llvm::interleave(
        cls->pools, os,
        [&](const PoolRequest &p) {
          os << poolLabel(m, p.pool) << " x" << p.amount;
        },
        ", ");
    os << "\n";
  }
  if (!cls->source.empty())
    row("source") << cls->source << "\n";
}

void printOpClasses(llvm::raw_ostream &os, const TargetModel &m) {
  std::vector<const OpClassInfo *> classes;
  for (const OpClassInfo &cls : m.opClasses)
    classes.push_back(&cls);
  llvm::stable_sort(classes, [](const OpClassInfo *a, const OpClassInfo *b) {
    return a->name < b->name;
  });
  os << "\nop classes: " << classes.size()
     << " (x/r: x divided by r, rounded up)\n";
  for (const OpClassInfo *cls : classes)
    printOpClass(os, m, cls);
}

} // namespace

void TargetModel::print(llvm::raw_ostream &os) const {
  os << "target " << name << "\n";
  if (!description.empty())
    os << "  " << description << "\n";
  printSlots(os, *this);
  printPools(os, pools);
  printCapsAndChip(os, caps, chip);
  printOpClasses(os, *this);
}
