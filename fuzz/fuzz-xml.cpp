//===- fuzz-xml.cpp - libFuzzer target: the XML reader --------------------===//
//
// Feeds the bytes to xml::parse, the public entry point of scheduler/io/XML.h
// (whatever implements it). Any input may be rejected; none may crash.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/XML.h"

#include <cstddef>
#include <cstdint>

using namespace tilepipe::io;

// Walks the tree the reader returned so that ASan sees every string in it.
static size_t walk(const xml::Element &element) {
  size_t n = element.name.size() + element.text.size();
  for (const xml::Attribute &attribute : element.attributes)
    n += attribute.name.size() + attribute.value.size();
  for (const xml::Element &child : element.children)
    n += walk(child);
  return n;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<xml::Element> root = xml::parse(text, "fuzz.xml");
  if (!root) {
    llvm::consumeError(root.takeError());
    return 0;
  }
  volatile size_t sink = walk(*root);
  (void)sink;
  return 0;
}
