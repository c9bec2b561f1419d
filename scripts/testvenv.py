#!/usr/bin/env python3
"""The tests' Python environments: virtual environments under the build
folder, one per package set, never used by the core build or `make run`.

  numpy   BUILD/venv          numpy, for the numeric checks' references and
                              .npy files (made by `make test`)
  cutile  BUILD/cutile-venv   NVIDIA's cuTile Python (cuda-tile), tileiras and
                              tileirdisasm, cuobjdump and nvdisasm, numpy: the
                              CUDA Tile IR front end's tests and its tileiras
                              comparison (made when a test run or
                              bench/cutile asks for it)

    python3 scripts/testvenv.py BUILD [numpy|cutile]

Quick when present; when the package index cannot be reached it says why,
and the tests that need it are reported unsupported ("skipped")."""
import json
import os
import subprocess
import sys


class Environment:
    """A package set and the virtual environment that holds it. `pinned`:
    the versions are recorded in a stamp file, and a change reinstalls
    (the cutile fixtures are byte-compared with what cuda-tile writes)."""

    def __init__(self, folder, packages, modules, tools=(), pinned=False):
        self.folder = folder
        self.packages = packages
        self.modules = modules
        self.tools = tools
        self.pinned = pinned


ENVIRONMENTS = {
    "numpy": Environment("venv", ["numpy"], ["numpy"]),
    # tileiras 13.5 brings its own nvcc/nvvm; the binaries below are in
    # site-packages/nvidia/cu13/bin.
    "cutile": Environment("cutile-venv",
                          ["cuda-tile==1.7.0", "nvidia-cuda-tileiras==13.5.37",
                           "nvidia-cuda-cuobjdump==13.5.37", "nvidia-cuda-nvdisasm==13.5.37", "numpy"],
                          ["cuda.tile", "numpy"],
                          tools=["tileiras", "tileirdisasm", "cuobjdump", "nvdisasm"], pinned=True),
}
PACKAGES = ENVIRONMENTS["numpy"].packages
STAMP = "tilepipe-packages.json"


def venv_root(build, kind="numpy"):
    return os.path.join(os.path.abspath(build), ENVIRONMENTS[kind].folder)


def venv_python(build, kind="numpy"):
    return os.path.join(venv_root(build, kind), "bin", "python")


def tool_path(build, name, kind="cutile"):
    """A binary a wheel installs under site-packages/nvidia/cu13/bin
    (tileiras, tileirdisasm, cuobjdump, nvdisasm)."""
    lib = os.path.join(venv_root(build, kind), "lib")
    for entry in sorted(os.listdir(lib)) if os.path.isdir(lib) else []:
        path = os.path.join(lib, entry, "site-packages", "nvidia", "cu13", "bin", name)
        if os.path.exists(path):
            return path
    return None


def recorded_packages(build, kind):
    """The package list the stamp file records, or None."""
    try:
        with open(os.path.join(venv_root(build, kind), STAMP)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def has_packages(build, kind="numpy"):
    env = ENVIRONMENTS[kind]
    python = venv_python(build, kind)
    if not os.path.exists(python):
        return False
    if env.pinned and recorded_packages(build, kind) != env.packages:
        return False
    if any(tool_path(build, t, kind) is None for t in env.tools):
        return False
    probe = subprocess.run([python, "-c", "import " + ", ".join(env.modules)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


# pip's last line is usually the consequence ("No matching distribution
# found for numpy"); the cause is an earlier line. The first line matching
# one of these, in this order, is the reason shown.
PIP_CAUSES = [
    r"CERTIFICATE_VERIFY_FAILED|SSLError|SSL: |certificate",
    r"ProxyError|Tunnel connection failed|407 Proxy",
    r"Temporary failure in name resolution|Name or service not known|"
    r"Failed to establish a new connection|Network is unreachable|"
    r"Connection refused|timed out|ConnectionError|NewConnectionError",
    r"HTTP error \d+|40[13] Client Error",
    r"No space left on device|Permission denied|externally-managed-environment",
    r"ensurepip is not available|No module named",
    r"^ERROR: (?!No matching distribution|Could not find a version)",
]


def pip_reason(output):
    """The line of pip's (or venv's) output that says why it failed."""
    import re
    lines = [l.strip() for l in output.strip().splitlines() if l.strip()]
    if not lines:
        return "no output"
    for pattern in PIP_CAUSES:
        for line in lines:
            if re.search(pattern, line):
                # pip's retry warnings wrap the cause in a repr; keep the
                # cause ("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify
                # failed: ...", "Failed to establish a new connection: ...").
                inner = re.search(r"\[SSL[^\]]*\][^\"'()]*|Failed to establish a new connection:"
                                  r"[^\"'()]*|Temporary failure in name resolution", line)
                text = inner.group(0).strip() if inner else re.sub(r"^(WARNING|ERROR): ", "", line)
                return text if len(text) <= 300 else text[:297] + "..."
    return lines[-1]


def ensure(build, kind="numpy"):
    """Returns (python, None) when ready, (None, reason) when not."""
    env = ENVIRONMENTS[kind]
    python = venv_python(build, kind)
    if has_packages(build, kind):
        return python, None
    root = os.path.dirname(os.path.dirname(python))
    steps = []
    if not os.path.exists(python):
        steps.append([sys.executable, "-m", "venv", root])
    steps.append([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
                 + env.packages)
    for step in steps:
        try:
            proc = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=600)
        except subprocess.TimeoutExpired:
            return None, f"{' '.join(step[:4])} took over 600 s"
        if proc.returncode:
            return None, f"{' '.join(step[:4])} failed: {pip_reason(proc.stdout)}"
    if env.pinned:
        with open(os.path.join(root, STAMP), "w") as f:
            json.dump(env.packages, f)
    if not has_packages(build, kind):
        missing = [t for t in env.tools if tool_path(build, t, kind) is None]
        what = (f"{', '.join(missing)} not installed" if missing
                else f"{', '.join(env.modules)} does not import")
        return None, f"{what} in {root}"
    return python, None


if __name__ == "__main__":
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    kind = sys.argv[2] if len(sys.argv) > 2 else "numpy"
    if kind not in ENVIRONMENTS:
        sys.exit(f"testvenv: unknown package set '{kind}' (known: {', '.join(ENVIRONMENTS)})")
    python, reason = ensure(build, kind)
    if python:
        print(python)
        sys.exit(0)
    what = "numeric tests" if kind == "numpy" else f"tests that need {kind}"
    print(f"tilepipe: test environment '{kind}' not available ({reason}); {what} skipped")
    sys.exit(1)
