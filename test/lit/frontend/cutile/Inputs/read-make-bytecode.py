"""Writes small tileir bytecode files, good and bad, for read-errors.test.

The layout (docs/cuda-tile-reader.md): header, a function section with one
entry `k`, a type table (a function type), a string table, the end mark.
Each bad variant changes one thing, so the error's offset is known.
"""

import os
import sys


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def table(entries, width):
    """count, padding to `width` (the caller keeps the section aligned),
    offsets, data."""
    body = bytearray(varint(len(entries)))
    body += b"\xcb" * (-len(body) % width)
    offset = 0
    for entry in entries:
        body += offset.to_bytes(width, "little")
        offset += len(entry)
    for entry in entries:
        body += entry
    return bytes(body)


def section(out, ident, payload, alignment):
    out.append(ident | 0x80)
    out += varint(len(payload)) + varint(alignment)
    out += b"\xcb" * (-len(out) % alignment)
    out += payload


def bytecode(body, version=(13, 4), name_id=0, extra_section=None,
             body_length=None):
    out = bytearray(b"\x7fTileIR\x00" + bytes(version) + b"\x00\x00")
    function = (varint(1) + varint(name_id) + varint(0) + b"\x02" + varint(0) +
                varint(len(body) if body_length is None else body_length) + body)
    section(out, 0x02, function, 8)
    if extra_section is not None:
        section(out, extra_section, b"", 1)
    section(out, 0x05, table([b"\x10\x00\x00"], 4), 4)  # () -> ()
    section(out, 0x01, table([b"k"], 4), 4)
    out.append(0)
    return bytes(out)


RETURN = b"\x5c\x00\x00"  # return: no results, no operands


def nested_loops(depth):
    """`loop { loop { ... { break } ... break } break }`, `depth` deep,
    then `return`."""
    brk = b"\x0a\x00\x00"
    ops, count = brk, 1
    for _ in range(depth):
        loop = b"\x41\x00\x00" + varint(1) + b"\x01" + varint(0) + varint(count)
        ops, count = loop + ops, 1
        ops, count = ops + brk, 2
    # The outermost loop stands in the entry's body, which a return ends.
    return ops[: -len(brk)] + RETURN


FILES = {
    "good": bytecode(RETURN),
    "version": bytecode(RETURN, version=(13, 9)),
    "magic": b"\x7fTileIS\x00" + bytecode(RETURN)[8:],
    "opcode": bytecode(b"\x7f" + RETURN[1:]),
    "section": bytecode(RETURN, extra_section=0x09),
    "operand": bytecode(b"\x5c\x00\x01\x05"),
    "length": bytecode(RETURN, body_length=200),
    "string": bytecode(RETURN, name_id=3),
    "nested-ok": bytecode(nested_loops(8)),
    "terminator": bytecode(RETURN + RETURN),
    "nested-deep": bytecode(nested_loops(100)),
    "empty": b"",
    # The numbers of NVIDIA's own invalid files (cuda-tile's
    # test/Bytecode/invalid/invalid_structure.mlir): version 18.0, section 127.
    "version-18": bytecode(RETURN, version=(18, 0)),
    "section-127": bytecode(RETURN, extra_section=0x7f),
}

if __name__ == "__main__":
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name, data in FILES.items():
        with open(os.path.join(folder, name + ".tileirbc"), "wb") as f:
            f.write(data)
