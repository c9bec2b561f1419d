"""Compiles the tests' translated kernels once per content (docs/testing.md,
"Test time").

The numeric, nvcc and shape tests compile many kernels, and several tests
compile the same translated kernel with the same command. `compile` keys each
compile by what decides its output and keeps the result under the build
folder (BUILD/kernel-cache), so a second compile of the same text is a copy:

  - the compiler: its resolved path and its `--version` text;
  - the command, with the source and output paths replaced by the source's
    base name (the compile runs in the source's folder on that base name, so
    no temporary folder ends up in the binary: the emulator's fault reports
    name the kernel's file as `NAME.cu:LINE`);
  - the source's text and the text of every file it includes: each `-I`
    folder by path and by the content of all its files (the translated
    kernels include nothing else but the system's headers, which come with
    the compiler);
  - for g++ against the CPU emulator, the precompiled runtime header's key
    and the emulator library's (the emulator's and the generated main's
    kernel-independent functions, compiled once per build folder and
    linked: emulator/outline.h).

A planted bug (scripts/numcheck.py --seed-bug) changes the kernel's text or
the headers' copy, so it never meets a binary or a precompiled header made
from other text. Only successful compiles are kept; a failing one runs every
time and prints its own diagnostics. TILEPIPE_KERNEL_CACHE=off compiles
everything afresh (no cache, no precompiled header)."""
import hashlib
import os
import shutil
import subprocess
import tempfile

# The runtime headers of this source tree: the only ones precompiled (a
# planted bug's patched copy is compiled from its text every time).
SOURCE_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "cuda", "include")
# Entries kept at most; the least recently used go first.
MAX_ENTRIES = 4000
MAX_PCHS = 4
# The define under which a kernel binary links the emulator's large functions
# from the emulator library instead of compiling them (emulator/outline.h).
EXTERN_DEFINE = "-DTILEPIPE_EMULATOR_EXTERN"

_tree_digests = {}
_compiler_ids = {}


def enabled():
    return os.environ.get("TILEPIPE_KERNEL_CACHE", "on") != "off"


def cache_root(build):
    """BUILD/kernel-cache, or None when the build folder does not exist."""
    if not build or not os.path.isdir(build) or not enabled():
        return None
    return os.path.join(os.path.abspath(build), "kernel-cache")


def tree_digest(folder):
    """The digest of every file under folder, by relative path and content."""
    folder = os.path.realpath(folder)
    if folder not in _tree_digests:
        h = hashlib.sha256()
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                h.update(os.path.relpath(path, folder).encode() + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read())
                h.update(b"\0")
        _tree_digests[folder] = h.hexdigest()
    return _tree_digests[folder]


def compiler_id(compiler):
    if compiler not in _compiler_ids:
        path = shutil.which(compiler) or compiler
        proc = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        _compiler_ids[compiler] = os.path.realpath(path) + "\n" + proc.stdout
    return _compiler_ids[compiler]


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _run(cmd, cwd=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, cwd=cwd)


def _key(parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() + b"\0")
    return h.hexdigest()


def _touch(path):
    try:
        os.utime(path)
    except OSError:
        pass


def _prune(folder, keep):
    """Removes all but the `keep` most recently used entries of folder."""
    try:
        entries = [os.path.join(folder, e) for e in os.listdir(folder)]
    except OSError:
        return
    # Another process may prune the same folder at once: an entry gone
    # between the listing and its stat is simply not there any more.
    dated = []
    for e in entries:
        try:
            if os.path.isdir(e):
                dated.append((os.stat(e).st_mtime, e))
        except OSError:
            pass
    if len(dated) <= keep:
        return
    dated.sort()
    for _, e in dated[:len(dated) - keep]:
        shutil.rmtree(e, ignore_errors=True)


def _publish(tmp_dir, final):
    """Moves a finished entry into place; another process may have won."""
    try:
        os.rename(tmp_dir, final)
    except OSError:
        shutil.rmtree(tmp_dir, ignore_errors=True)


def _includes(cmd):
    return [cmd[i + 1] for i, a in enumerate(cmd[:-1]) if a == "-I"]


def _made_once(final, product, make):
    """`product` (a file inside the cache entry `final`), made by `make()`
    when missing; None when it cannot be made. The test processes that start
    together on a clean build folder (lit's workers, numcheck's threads) need
    the same entry: one makes it under BuildLock while the others wait, then
    find it made."""
    if os.path.exists(product):
        _touch(final)
        return product
    os.makedirs(os.path.dirname(final), exist_ok=True)
    with BuildLock(final):
        if os.path.exists(product):
            return product
        return make()


def emulator_pch(root, compiler, flags, include):
    """A folder holding tilepipe/kernel.cuh.gch, the CPU emulator runtime
    precompiled with exactly `flags`, for `-I` ahead of `include`; None
    when it cannot be made. Keyed by the compiler, the flags and the
    headers' content: an edited header makes a new one (GCC itself does
    not notice that a header under a .gch changed)."""
    header = os.path.join(include, "tilepipe", "kernel.cuh")
    if not os.path.exists(header):
        return None
    key = _key(["pch", compiler_id(compiler), " ".join(flags), tree_digest(include)])
    pch_root = os.path.join(root, "pch")
    final = os.path.join(pch_root, key[:32])
    made = _made_once(final, os.path.join(final, "tilepipe", "kernel.cuh.gch"),
                      lambda: _make_pch(root, pch_root, final, compiler, flags, include, header))
    return final if made else None


def _make_pch(root, pch_root, final, compiler, flags, include, header):
    work = tempfile.mkdtemp(dir=pch_root, prefix=".tmp-")
    os.makedirs(os.path.join(work, "tilepipe"))
    # The header beside its .gch: GCC records where the precompiled header
    # came from, and a later `#include "tilepipe/kernel.cuh"` (the launcher
    # includes it again) must find a file there; its include guard makes
    # that include empty.
    shutil.copy(header, os.path.join(work, "tilepipe", "kernel.cuh"))
    with Slot(os.path.dirname(root)):
        proc = _run([compiler] + flags + ["-x", "c++-header", "-I", include, header,
                                          "-o", os.path.join(work, "tilepipe", "kernel.cuh.gch")])
    if proc.returncode:
        shutil.rmtree(work, ignore_errors=True)
        return None
    _publish(work, final)
    _prune(pch_root, MAX_PCHS)
    return final if os.path.isdir(final) else None


def emulator_lib(root, compiler, flags, include):
    """An object file holding the emulator's kernel-independent functions
    and the generated main's helpers (emulator/outline.h), compiled once
    with exactly `flags` (the kernels' code-deciding flags); None when it
    cannot be made. Keyed like the
    precompiled header: compiler, flags and the headers' content. Each
    kernel binary compiled with EXTERN_DEFINE links it instead of compiling
    the same functions again."""
    key = _key(["emulib", compiler_id(compiler), " ".join(flags), tree_digest(include)])
    lib_root = os.path.join(root, "emulib")
    final = os.path.join(lib_root, key[:32])
    obj = os.path.join(final, "emulator.o")
    return _made_once(final, obj,
                      lambda: _make_lib(root, lib_root, final, obj, compiler, flags, include))


def _make_lib(root, lib_root, final, obj, compiler, flags, include):
    work = tempfile.mkdtemp(dir=lib_root, prefix=".tmp-")
    src = os.path.join(work, "emulator.cpp")
    with open(src, "w") as f:
        f.write("// The emulator library: emulator/outline.h's functions, non-inline,\n"
                "// and the generated mains' helpers (host/).\n"
                "#include \"tilepipe/kernel.cuh\"\n"
                "#include \"tilepipe/emulator/emulator.h\"\n"
                "#include \"tilepipe/host/main.cuh\"\n"
                "#include \"tilepipe/host/cutile.cuh\"\n")
    with Slot(os.path.dirname(root)):
        proc = _run([compiler] + flags + ["-DTP_EMU_OUTLINE=", "-DTILEPIPE_EMULATOR_LIBRARY",
                                          "-I", include, "-c", src,
                                          "-o", os.path.join(work, "emulator.o")])
    if proc.returncode:
        shutil.rmtree(work, ignore_errors=True)
        return None
    _publish(work, final)
    _prune(lib_root, MAX_PCHS)
    return obj if os.path.exists(obj) else None


def compile(cmd, src, out, build, pch_flags=None, lib_include=None):
    """Runs cmd (a compiler command whose source is src and whose output is
    out, None for a check such as -fsyntax-only) through the cache under
    build; returns a CompletedProcess-like object (returncode, stdout).
    pch_flags: the command's flags that decide the code (for g++ against
    the CPU emulator), to use the precompiled runtime header.
    lib_include: for a command whose -I folder is a patched copy of the
    source tree's headers (a seeded bug in the kernel-side atoms, never in
    the emulator or the generated main's helpers), the source tree's folder:
    the kernel links the emulator library made from it, and is compiled
    from the copy without the precompiled header."""
    root = cache_root(build)
    if root is None:
        return _run(cmd)
    cmd = [os.path.abspath(a) if i and cmd[i - 1] == "-I" else a for i, a in enumerate(cmd)]
    src_dir, base = os.path.split(os.path.abspath(src))
    includes = _includes(cmd)
    pch = lib = None
    if (pch_flags is not None and len(includes) == 1 and out is not None and
            os.path.realpath(includes[0]) == os.path.realpath(SOURCE_INCLUDE)):
        lib = emulator_lib(root, cmd[0], pch_flags, includes[0])
        if lib:
            # The precompiled header must see the same defines as the
            # kernel: it is made with the define too.
            pch_flags = pch_flags + [EXTERN_DEFINE]
        pch = emulator_pch(root, cmd[0], pch_flags, includes[0])
    elif (pch_flags is not None and lib_include is not None and len(includes) == 1 and
          out is not None and os.path.realpath(lib_include) == os.path.realpath(SOURCE_INCLUDE)):
        lib = emulator_lib(root, cmd[0], pch_flags, lib_include)
    argv = [base if a == src else "OUT" if a == out else a for a in cmd]
    parts = ["exe", compiler_id(cmd[0]), "\n".join(argv[1:]), file_digest(src)]
    parts += [f"-I {os.path.realpath(i)} {tree_digest(i)}" for i in includes]
    parts.append(f"pch {pch is not None}")
    parts.append(f"emulib {lib and os.path.basename(os.path.dirname(lib))}")
    key = _key(parts)
    entry = os.path.join(root, "exe", key[:32])
    log = os.path.join(entry, "log")
    if os.path.exists(log):
        # Another process pruning a full cache may remove the entry between
        # the check and the copy (it listed it before this touch): then it
        # is a miss, built again below.
        try:
            _touch(entry)
            if out is not None:
                shutil.copy(os.path.join(entry, "out"), out)
            with open(log) as f:
                return subprocess.CompletedProcess(cmd, 0, f.read())
        except OSError:
            pass
    run_cmd = [base if a == src else os.path.abspath(out) if a == out else a for a in cmd]
    if lib:
        i = run_cmd.index("-I")
        run_cmd[i:i] = [EXTERN_DEFINE]
        run_cmd += ["-x", "none", lib]
    if pch:
        i = run_cmd.index("-I")
        run_cmd[i:i] = ["-I", pch]
    with Slot(build):
        proc = _run(run_cmd, cwd=src_dir)
    if proc.returncode == 0 and (out is None or os.path.exists(out)):
        os.makedirs(os.path.join(root, "exe"), exist_ok=True)
        work = tempfile.mkdtemp(dir=os.path.join(root, "exe"), prefix=".tmp-")
        if out is not None:
            shutil.copy(out, os.path.join(work, "out"))
        with open(os.path.join(work, "log"), "w") as f:
            f.write(proc.stdout)
        _publish(work, entry)
        _prune(os.path.join(root, "exe"), MAX_ENTRIES)
    return proc


class BuildLock:
    """An flock on FINAL.lock, held while one process makes a cache entry
    (`_made_once`)."""

    def __init__(self, final):
        self.path = final + ".lock"
        self.fd = None

    def __enter__(self):
        import fcntl
        self.fd = os.open(self.path, os.O_CREAT | os.O_RDWR)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        os.close(self.fd)
        self.fd = None
        return False


class Slot:
    """One of the machine's CPU slots, shared by every test process that
    uses the same build folder: lit runs tests side by side and a numeric
    test checks its kernels side by side, and the compilers and emulator
    runs would otherwise outnumber the cores (and stretch each run towards
    its timeout). A slot is an flock on BUILD/kernel-cache/slots/N; without
    a build folder no slot is taken."""

    def __init__(self, build):
        self.build = build
        self.fd = None

    def __enter__(self):
        import fcntl
        import time
        root = cache_root(self.build)
        if root is None:
            return self
        folder = os.path.join(root, "slots")
        os.makedirs(folder, exist_ok=True)
        count = max(1, int(os.environ.get("TILEPIPE_TEST_JOBS", os.cpu_count() or 1)))
        while True:
            for i in range(count):
                fd = os.open(os.path.join(folder, str(i)), os.O_CREAT | os.O_RDWR)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    self.fd = fd
                    return self
                except OSError:
                    os.close(fd)
            time.sleep(0.05)

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        return False
