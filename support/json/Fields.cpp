//===- Fields.cpp ---------------------------------------------------------===//

#include "support/json/Fields.h"

using namespace tilepipe::support::json;

char FieldError::ID = 0;

void FieldError::log(llvm::raw_ostream &os) const {
  if (!path.empty())
    os << path << ": ";
  os << message;
}
