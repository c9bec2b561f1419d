//===- Values.cpp - symbolic tile terms -----------------------------------===//

#include "materialize/exec/Values.h"

#include "materialize/exec/Random.h"

using namespace tilepipe::exec;

uint64_t tilepipe::exec::hashString(llvm::StringRef s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return mix64(h);
}

uint64_t TermTable::intern(uint64_t hash, std::string head,
                           llvm::ArrayRef<uint64_t> args) {
  // A 64-bit collision would make two different tiles look equal; it is
  // astronomically unlikely and only weakens the differential check.
  nodes.try_emplace(hash, Node{std::move(head), args.vec()});
  return hash;
}

uint64_t TermTable::intLeaf(int64_t value) {
  return intern(mix64(0x1a7 ^ mix64(uint64_t(value))), std::to_string(value),
                {});
}

uint64_t TermTable::leaf(llvm::StringRef kind, uint64_t payload) {
  uint64_t h = mix64(hashString(kind) ^ mix64(payload + 0x1eaf));
  std::string head = kind.str();
  if (kind == "arg" || kind == "slot")
    head += std::to_string(payload);
  return intern(h, head, {});
}

uint64_t TermTable::apply(llvm::StringRef name, uint64_t attrHash,
                          llvm::ArrayRef<uint64_t> args) {
  uint64_t h = mix64(hashString(name) ^ mix64(attrHash));
  for (uint64_t a : args)
    h = mix64(h ^ mix64(a + 0x9e37));
  return intern(h, name.str(), args);
}

std::string TermTable::render(uint64_t term, unsigned depth) const {
  auto it = nodes.find(term);
  if (it == nodes.end())
    return "?";
  const Node &n = it->second;
  if (n.args.empty())
    return n.head;
  if (depth == 0)
    return n.head + "(...)";
  std::string s = n.head + "(";
  for (auto [i, a] : llvm::enumerate(n.args)) {
    if (i)
      s += ", ";
    s += render(a, depth - 1);
  }
  return s + ")";
}
