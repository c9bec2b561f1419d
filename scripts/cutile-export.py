#!/usr/bin/env python3
"""Exports the cuTile kernels of test/cutile/kernels/ as CUDA Tile IR
bytecode with NVIDIA's cuda-tile package, reproducibly (docs/cuda-tile.md):

    python3 scripts/cutile-export.py [--build build] [--out DIR] [--check DIR]
                                     [--version 13.4 ...] [KERNEL.py ...]

Without --version each kernel is written at the fixture matrix (every
kernel at 13.4, the two GEMMs also at 13.1, 13.2 and 13.3) as
NAME-VERSION.tileirbc. --check DIR exports to a temporary folder and
compares byte for byte with DIR (test/cutile/fixtures), exiting non-zero
with the files that differ, are missing or are extra.

Run by a python without cuda.tile it re-runs itself in the environment
`scripts/testvenv.py BUILD cutile` makes under the build folder (pinned
cuda-tile, so the bytes are those the fixtures were made with).

cuTile records the kernel's source file in the bytecode's debug info, as
absolute paths: a DIFile holds the file's name and its directory, a DILoc
the full path, all three as entries of the string table (a table of byte
strings indexed by id; the debug attributes refer to them by id). The
inlined library functions (ct.astype, ...) bring the package's own paths.
The export rewrites those entries after the writer is done: a path under
the repository becomes repository-relative, a path under cuda.tile's
site-packages becomes package-relative (cuda/tile/_stub.py), so the bytes
do not depend on where the repository or the environment lies."""
import argparse
import filecmp
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "test", "cutile", "kernels")
FIXTURES = os.path.join(ROOT, "test", "cutile", "fixtures")
VERSIONS = ["13.1", "13.2", "13.3", "13.4"]
# The GEMMs exercise every bytecode version the package writes; the other
# kernels the newest.
ALL_VERSIONS = {"matmul", "matmul_bias_act"}
DEFAULT_VERSION = "13.4"
# Before 13.3 the bytecode names its target; from 13.3 on it is exported
# architecture-independent, as a user ships it.
FIRST_PORTABLE = (13, 3)


# -- The bytecode container (facts from cuda-tile's _bytecode/writer.py) ---
#
# A 12-byte header (magic "\x7fTileIR\x00", major, minor, a 16-bit tag),
# then sections until the end marker 0x00. A section is an id byte (bit 7
# set when an alignment follows), a varint length, the alignment as a varint
# and 0xcb padding up to it (counted from the file's start), then the
# contents. The string table (section 0x01) is a varint count, padding to 4
# (counted from the contents' start), a 32-bit little-endian start offset
# per string, then the strings' bytes back to back.

MAGIC = b"\x7fTileIR\x00"
HEADER = 12
STRING_SECTION = 0x01
END = 0x00
PAD = 0xCB


class BytecodeError(Exception):
    pass


def read_varint(data, at):
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise BytecodeError(f"varint runs past the end at byte {at}")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7


def write_varint(value, out):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def pad(out, alignment, base=0):
    out.extend(bytes([PAD]) * (-(len(out) - base) % alignment))


def split_sections(data):
    """[(id, alignment, contents)] in file order, the end marker excluded."""
    if data[:len(MAGIC)] != MAGIC or len(data) < HEADER:
        raise BytecodeError("not CUDA Tile IR bytecode (no magic number)")
    sections, at = [], HEADER
    while True:
        if at >= len(data):
            raise BytecodeError(f"no end-of-bytecode marker (file ends at byte {at})")
        tag = data[at]
        at += 1
        if tag == END:
            if at != len(data):
                raise BytecodeError(f"{len(data) - at} bytes after the end marker")
            return sections
        length, at = read_varint(data, at)
        alignment = 1
        if tag & 0x80:
            alignment, at = read_varint(data, at)
            at += -at % alignment
        if at + length > len(data):
            raise BytecodeError(f"section 0x{tag & 0x7F:02x} at byte {at} runs past the end")
        sections.append((tag & 0x7F, alignment, bytes(data[at:at + length])))
        at += length


def join_sections(header, sections):
    out = bytearray(header)
    for ident, alignment, contents in sections:
        out.append(ident | (0x80 if alignment > 1 else 0))
        write_varint(len(contents), out)
        if alignment > 1:
            write_varint(alignment, out)
            pad(out, alignment)
        out.extend(contents)
    out.append(END)
    return bytes(out)


def read_strings(contents):
    count, at = read_varint(contents, 0)
    at += -at % 4
    starts = [int.from_bytes(contents[at + 4 * i:at + 4 * i + 4], "little") for i in range(count)]
    data = contents[at + 4 * count:]
    ends = starts[1:] + [len(data)]
    return [data[s:e] for s, e in zip(starts, ends)]


def write_strings(strings):
    out = bytearray()
    write_varint(len(strings), out)
    pad(out, 4)
    offset = 0
    for s in strings:
        out.extend(offset.to_bytes(4, "little"))
        offset += len(s)
    for s in strings:
        out.extend(s)
    return bytes(out)


def relocate_paths(data, prefixes):
    """The bytecode with every string-table entry that is a path under one
    of `prefixes` (absolute folder -> replacement) rewritten; the longest
    prefix wins. Returns (bytes, absolute paths left)."""
    ordered = sorted(prefixes.items(), key=lambda kv: -len(kv[0]))

    def relocate(text):
        for folder, replacement in ordered:
            if text == folder:
                return replacement or "."
            if text.startswith(folder + "/"):
                return os.path.join(replacement, text[len(folder) + 1:]) if replacement \
                    else text[len(folder) + 1:]
        return text

    sections, left = [], []
    for ident, alignment, contents in split_sections(data):
        if ident == STRING_SECTION:
            strings = []
            for raw in read_strings(contents):
                text = raw.decode("utf-8", "surrogateescape")
                moved = relocate(text) if text.startswith("/") else text
                if moved.startswith("/"):
                    left.append(moved)
                strings.append(moved.encode("utf-8", "surrogateescape"))
            contents = write_strings(strings)
        sections.append((ident, alignment, contents))
    return join_sections(data[:HEADER], sections), left


# -- Export ---------------------------------------------------------------

def load_kernel_module(path):
    """The kernel module at `path` (it imports constraints.py beside it)."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(f"cutile_kernel_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return name, module


def export(path, version, out_path):
    """Writes kernel `path` at bytecode `version` to out_path,
    reproducibly; returns the absolute paths the debug info still holds."""
    import io

    import cuda.tile
    from cuda.tile.compilation import export_kernel
    _, module = load_kernel_module(path)
    portable = tuple(int(p) for p in version.split(".")) >= FIRST_PORTABLE
    buf = io.BytesIO()
    export_kernel(module.KERNEL, [module.kernel_signature()], buf, output_format="tileir_bytecode",
                  bytecode_version=version, gpu_code=None if portable else "sm_100")
    package = os.path.dirname(os.path.abspath(cuda.tile.__file__))
    site = os.path.dirname(os.path.dirname(package))
    data, left = relocate_paths(buf.getvalue(), {os.path.realpath(ROOT): "", ROOT: "",
                                                 os.path.realpath(site): "", site: ""})
    with open(out_path, "wb") as f:
        f.write(data)
    return left


def plan(kernels, versions):
    """[(kernel path, version, file name)] to write."""
    jobs = []
    for path in kernels:
        name = os.path.splitext(os.path.basename(path))[0]
        wanted = versions or (VERSIONS if name in ALL_VERSIONS else [DEFAULT_VERSION])
        jobs.extend((path, v, f"{name}-{v}.tileirbc") for v in wanted)
    return jobs


def default_kernels():
    return sorted(os.path.join(KERNELS, f) for f in os.listdir(KERNELS)
                  if f.endswith(".py") and f != "constraints.py")


def check(jobs, out, fixtures, complete):
    """Compares the export in `out` with `fixtures`; returns the problems.
    `complete`: the whole matrix was exported, so a fixture no job made is
    one no kernel exports any more."""
    made = {name for _, _, name in jobs}
    problems = []
    for name in sorted(made):
        fixture = os.path.join(fixtures, name)
        if not os.path.exists(fixture):
            problems.append(f"{name}: no checked-in fixture")
        elif not filecmp.cmp(os.path.join(out, name), fixture, shallow=False):
            problems.append(f"{name}: differs from the fixture")
    for name in sorted(os.listdir(fixtures)) if complete else []:
        if name.endswith(".tileirbc") and name not in made:
            problems.append(f"{name}: a fixture no kernel exports")
    return problems


def rerun_in_environment(build):
    """Runs this script again with the cutile environment's python."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import testvenv
    python, reason = testvenv.ensure(build, "cutile")
    if not python:
        print(f"cutile-export: no cuTile environment ({reason})", file=sys.stderr)
        return 2
    return subprocess.run([python, os.path.abspath(__file__)] + sys.argv[1:]).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="*", help="kernel modules (default: test/cutile/kernels/*.py)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the build folder whose cutile environment to use")
    ap.add_argument("--out", help="folder to write to (default: test/cutile/fixtures)")
    ap.add_argument("--check", metavar="DIR", help="export to a temporary folder and compare with DIR")
    ap.add_argument("--version", action="append", choices=VERSIONS, help="bytecode version(s)")
    args = ap.parse_args()
    if importlib.util.find_spec("cuda") is None or importlib.util.find_spec("cuda.tile") is None:
        return rerun_in_environment(args.build)
    jobs = plan([os.path.abspath(k) for k in args.kernels] or default_kernels(), args.version)
    with tempfile.TemporaryDirectory() as tmp:
        out = tmp if args.check else os.path.abspath(args.out or FIXTURES)
        os.makedirs(out, exist_ok=True)
        for path, version, name in jobs:
            left = export(path, version, os.path.join(out, name))
            for p in left:
                print(f"cutile-export: {name}: absolute path left in the debug info: {p}", file=sys.stderr)
            if not args.check:
                print(f"cutile-export: wrote {os.path.join(out, name)}")
        if args.check:
            complete = not args.kernels and not args.version
            problems = check(jobs, out, os.path.abspath(args.check), complete)
            for p in problems:
                print(f"cutile-export: {p}")
            wrong = sum(1 for p in problems if "a fixture no kernel exports" not in p)
            print(f"cutile-export: {len(jobs) - wrong} of {len(jobs)} fixtures reproduced byte for byte")
            return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
