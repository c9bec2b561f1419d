//===- Diagnostics.cpp ----------------------------------------------------===//

#include "scheduler/Diagnostics.h"

using namespace tilepipe::sched;

Diagnostic &Diagnostic::attachNote(const llvm::Twine &msg,
                                   std::optional<OpId> at) {
  Diagnostic note;
  note.severity = Severity::Note;
  note.op = at;
  note.message = msg.str();
  notes.push_back(std::move(note));
  return notes.back();
}

Diagnostic &DiagnosticList::emit(Severity severity, const llvm::Twine &msg,
                                 std::optional<OpId> op) {
  Diagnostic d;
  d.severity = severity;
  d.op = op;
  d.message = msg.str();
  diags.push_back(std::move(d));
  return diags.back();
}

bool DiagnosticList::hasErrors() const {
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error)
      return true;
  return false;
}
