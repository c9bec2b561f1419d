//===- ProblemFile.cpp ----------------------------------------------------===//

#include "scheduler/io/ProblemFile.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilepipe::io;

char ReadError::ID = 0;

std::string ReadError::location() const {
  std::string out = file;
  if (line) {
    out += ":" + std::to_string(line);
    if (column)
      out += ":" + std::to_string(column);
  }
  return out;
}

void ReadError::log(llvm::raw_ostream &os) const {
  os << location() << ": " << message;
}

llvm::Error tilepipe::io::makeReadError(llvm::StringRef file, unsigned line,
                                        unsigned column,
                                        const llvm::Twine &message) {
  return llvm::make_error<ReadError>(file.str(), line, column, message.str());
}
