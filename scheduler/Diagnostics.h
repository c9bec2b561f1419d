//===- Diagnostics.h - diagnostics of the core scheduler -------*- C++ -*-===//
//
// The core layers know ops only as dense ids, so they report problems as
// plain records; the MLIR adapter turns each into an mlir::Diagnostic at the
// op's location, with the notes attached.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_DIAGNOSTICS_H
#define TILEPIPE_SCHEDULER_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::sched {

using OpId = unsigned;

enum class Severity { Error, Warning, Remark, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::optional<OpId> op; ///< The op it is about; none: the whole loop.
  std::string message;
  std::vector<Diagnostic> notes;

  Diagnostic &attachNote(const llvm::Twine &msg,
                         std::optional<OpId> at = std::nullopt);
};

class DiagnosticList {
public:
  Diagnostic &emit(Severity severity, const llvm::Twine &msg,
                   std::optional<OpId> op = std::nullopt);
  Diagnostic &error(const llvm::Twine &msg,
                    std::optional<OpId> op = std::nullopt) {
    return emit(Severity::Error, msg, op);
  }
  Diagnostic &warning(const llvm::Twine &msg,
                      std::optional<OpId> op = std::nullopt) {
    return emit(Severity::Warning, msg, op);
  }
  Diagnostic &remark(const llvm::Twine &msg,
                     std::optional<OpId> op = std::nullopt) {
    return emit(Severity::Remark, msg, op);
  }

  bool hasErrors() const;
  const std::vector<Diagnostic> &all() const { return diags; }
  std::vector<Diagnostic> &all() { return diags; }
  void clear() { diags.clear(); }
  size_t size() const { return diags.size(); }

private:
  std::vector<Diagnostic> diags;
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_DIAGNOSTICS_H
