//===- host/npy.h - reading and writing NumPy .npy files --------*- C++ -*-===//
//
// The format (NumPy's "NEP 1"): the magic "\x93NUMPY", a version byte pair,
// a little-endian header length (2 bytes in version 1.0, 4 in 2.0 and 3.0),
// then a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), } padded with spaces to a 64-byte boundary and ended by
// '\n', then the data, C order. Only what the generated main needs: reading
// any C-order array of fixed-size elements, writing float32.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HOST_NPY_H
#define TILEPIPE_HOST_NPY_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tilepipe/emulator/outline.h"

namespace tp::host {

struct NpyArray {
  std::string descr; ///< e.g. "<f4", "|u1"
  std::vector<int64_t> shape;
  std::vector<unsigned char> data; ///< C order
  size_t itemBytes = 0;
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

namespace detail {

TP_EMU_OUTLINE bool npyField(const std::string &h, const char *key,
                             std::string &out);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// The value of `key` in the header dict: the text after "'key':" up to
/// the next top-level ',' or '}' (a tuple's commas are inside parentheses).
TP_EMU_OUTLINE bool npyField(const std::string &h, const char *key,
                             std::string &out) {
  std::string k = std::string("'") + key + "'";
  size_t p = h.find(k);
  if (p == std::string::npos)
    return false;
  p = h.find(':', p + k.size());
  if (p == std::string::npos)
    return false;
  size_t e = ++p;
  int depth = 0;
  for (; e < h.size(); ++e) {
    char c = h[e];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  out = h.substr(p, e - p);
  size_t b = out.find_first_not_of(" \t"), f = out.find_last_not_of(" \t");
  out = b == std::string::npos ? "" : out.substr(b, f - b + 1);
  return true;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace detail

TP_EMU_OUTLINE bool readNpy(const std::string &path, NpyArray &out,
                            std::string &err);
TP_EMU_OUTLINE bool writeNpyF32(const std::string &path,
                                const std::vector<int64_t> &shape,
                                const float *data, std::string &err);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
/// Reads `path`; false with `err` set when it is not a C-order .npy file.
TP_EMU_OUTLINE bool readNpy(const std::string &path, NpyArray &out,
                            std::string &err) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    err = path + ": cannot open";
    return false;
  }
  auto fail = [&](const std::string &why) {
    std::fclose(f);
    err = path + ": " + why;
    return false;
  };
  unsigned char pre[8];
  if (std::fread(pre, 1, 8, f) != 8 || std::memcmp(pre, "\x93NUMPY", 6) != 0)
    return fail("not a .npy file (no \\x93NUMPY magic)");
  uint32_t headerLen = 0;
  if (pre[6] == 1) {
    unsigned char l[2];
    if (std::fread(l, 1, 2, f) != 2)
      return fail("truncated header");
    headerLen = l[0] | uint32_t(l[1]) << 8;
  } else if (pre[6] == 2 || pre[6] == 3) {
    unsigned char l[4];
    if (std::fread(l, 1, 4, f) != 4)
      return fail("truncated header");
    headerLen = l[0] | uint32_t(l[1]) << 8 | uint32_t(l[2]) << 16 |
                uint32_t(l[3]) << 24;
  } else {
    return fail("unknown .npy version " + std::to_string(pre[6]));
  }
  std::string h(headerLen, '\0');
  if (std::fread(&h[0], 1, headerLen, f) != headerLen)
    return fail("truncated header");
  std::string descr, order, shape;
  if (!detail::npyField(h, "descr", descr) ||
      !detail::npyField(h, "fortran_order", order) ||
      !detail::npyField(h, "shape", shape))
    return fail("header lacks descr, fortran_order or shape");
  if (order != "False")
    return fail("Fortran-order arrays are not read; save C order");
  if (descr.size() < 4 || (descr[0] != '\'' && descr[0] != '"'))
    return fail("unreadable descr " + descr);
  out.descr = descr.substr(1, descr.size() - 2);
  out.itemBytes = std::strtoul(out.descr.c_str() + 2, nullptr, 10);
  if (out.descr.size() < 3 || out.itemBytes == 0 || out.descr[0] == '>')
    return fail("element type " + out.descr +
                " is not a little-endian fixed-size number");
  out.shape.clear();
  for (size_t p = shape.find('(') + 1; p < shape.size();) {
    size_t e = shape.find_first_of(",)", p);
    std::string d = shape.substr(p, e - p);
    if (d.find_first_not_of(" ") != std::string::npos)
      out.shape.push_back(std::strtoll(d.c_str(), nullptr, 10));
    if (e == std::string::npos || shape[e] == ')')
      break;
    p = e + 1;
  }
  size_t bytes = size_t(out.count()) * out.itemBytes;
  out.data.resize(bytes);
  if (bytes && std::fread(out.data.data(), 1, bytes, f) != bytes)
    return fail("truncated data: wanted " + std::to_string(bytes) + " bytes");
  std::fclose(f);
  return true;
}

/// Writes a float32 array of `shape` (C order) to `path`.
TP_EMU_OUTLINE bool writeNpyF32(const std::string &path,
                                const std::vector<int64_t> &shape,
                                const float *data, std::string &err) {
  // Python's tuple syntax: (), (n,), (a, b, ...).
  std::string dims;
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    dims += (i ? ", " : "") + std::to_string(shape[i]);
    n *= shape[i];
  }
  if (shape.size() == 1)
    dims += ",";
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                  dims + "), }";
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    err = path + ": cannot create";
    return false;
  }
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                           (unsigned char)(h.size() & 0xFF),
                           (unsigned char)(h.size() >> 8)};
  bool ok = std::fwrite(pre, 1, 10, f) == 10 &&
            std::fwrite(h.data(), 1, h.size(), f) == h.size() &&
            std::fwrite(data, sizeof(float), size_t(n), f) == size_t(n);
  ok = std::fclose(f) == 0 && ok;
  if (!ok)
    err = path + ": write failed";
  return ok;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::host

#endif // TILEPIPE_HOST_NPY_H
