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
            return None, f"{' '.join(step[:4])} failed: {pip_reason(proc.stdout)}"
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
