//===- ProblemFile.h - a problem read from a file --------------*- C++ -*-===//
//
// What the readers of scheduler/io hand back: the problem, finalized and
// with its constraint groups frozen, plus the name to report it under. Op
// names are unique within a ProblemFile (both readers check it), so a
// schedule can be printed keyed by name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H
#define TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H

#include "scheduler/Problem.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tilepipe::io {

struct ProblemFile {
  std::string name;
  sched::Problem problem;
};

/// Largest cycle count, distance, limit or amount a problem file may give.
/// Far above any real latency, and low enough that the serial length (a
/// sum of per-op steps) and every II tried stay small enough to allocate a
/// reservation table for.
constexpr int64_t kMaxFileValue = int64_t(1) << 20;

/// Why a file could not be read: the file, where in it (line and column
/// when known, 0 otherwise) and what is wrong. Printed as
/// "file:line:column: message"; a JSON path, when there is one, starts the
/// message ("ops[3].resource: unknown resource 'mull'"). The command line
/// splits it to print "file:line: error: message".
class ReadError : public llvm::ErrorInfo<ReadError> {
public:
  static char ID;

  ReadError(std::string file, unsigned line, unsigned column,
            std::string message)
      : file(std::move(file)), line(line), column(column),
        message(std::move(message)) {}

  /// "file", "file:line" or "file:line:column".
  std::string location() const;
  const std::string &getFile() const { return file; }
  unsigned getLine() const { return line; }
  unsigned getColumn() const { return column; }
  const std::string &getMessage() const { return message; }

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string file;
  unsigned line;
  unsigned column;
  std::string message;
};

llvm::Error makeReadError(llvm::StringRef file, unsigned line, unsigned column,
                          const llvm::Twine &message);

} // namespace tilepipe::io

#endif // TILEPIPE_SCHEDULER_IO_PROBLEMFILE_H
