//===- SVGText.cpp - writing the report's SVG files
//------------------------===//

#include "report/SVGText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace tilepipe;

std::string report::numberedPath(llvm::StringRef path, unsigned index,
                                 unsigned count) {
  if (count <= 1)
    return path.str();
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return (path.drop_back(ext.size()) + "-" + llvm::Twine(index) +
          (ext.empty() ? llvm::StringRef(".svg") : ext))
      .str();
}

llvm::Error
report::writeSVGFile(llvm::StringRef path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OpenFlags::OF_Text);
  if (!ec) {
    write(out.os());
    out.os().flush();
    if (!out.os().has_error()) {
      out.keep();
      return llvm::Error::success();
    }
    ec = out.os().error();
    out.os().clear_error();
  }
  return llvm::createStringError(ec, "cannot write the report '" + path +
                                         "': " + ec.message());
}
