#!/usr/bin/env python3
"""The tests' Python environment: a virtual environment under the build folder
with the packages the numeric checks use (numpy for the references and .npy
files). Never used by the core build or `make run`. Quick when present; when
the package index cannot be reached it says why, and the tests that need it
are reported unsupported ("skipped")."""
import os
import subprocess
import sys

PACKAGES = ["numpy"]


def venv_python(build):
    return os.path.join(os.path.abspath(build), "venv", "bin", "python")


def has_packages(python):
    if not os.path.exists(python):
        return False
    probe = subprocess.run([python, "-c", "import " + ", ".join(PACKAGES)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


def ensure(build):
    """Returns (python, None) when ready, (None, reason) when not."""
    python = venv_python(build)
    if has_packages(python):
        return python, None
    root = os.path.dirname(os.path.dirname(python))
    steps = []
    if not os.path.exists(python):
        steps.append([sys.executable, "-m", "venv", root])
    steps.append([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
                 + PACKAGES)
    for step in steps:
        proc = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=600)
        if proc.returncode:
            last = (proc.stdout.strip().splitlines() or ["no output"])[-1]
            return None, f"{' '.join(step[:4])} failed: {last}"
    if not has_packages(python):
        return None, "numpy does not import in " + python
    return python, None


if __name__ == "__main__":
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    python, reason = ensure(build)
    if python:
        print(python)
        sys.exit(0)
    print(f"tilepipe: test environment not available ({reason}); numeric tests skipped")
    sys.exit(1)
