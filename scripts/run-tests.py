#!/usr/bin/env python3
"""Runs every tilepipe test suite (GoogleTest binaries, then lit) and ends with
one line `N passed, M failed` summing them all; exits non-zero when M > 0."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"


def run_gtest(binary, tmp):
    out = os.path.join(tmp, os.path.basename(binary) + ".json")
    proc = subprocess.run([binary, "--gtest_brief=1", f"--gtest_output=json:{out}"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(out):
        sys.stdout.write(proc.stdout)
        print(f"{os.path.basename(binary)}: crashed (exit {proc.returncode})")
        return 0, 1
    with open(out) as f:
        report = json.load(f)
    total = report.get("tests", 0) - report.get("disabled", 0)
    failed = report.get("failures", 0) + report.get("errors", 0)
    # A skipped test (a GPU test without a GPU) is neither passed nor failed;
    # the first reason is shown.
    skipped, reason = 0, ""
    for suite in report.get("testsuites", []):
        for case in suite.get("testsuite", []):
            if case.get("result") == "SKIPPED":
                skipped += 1
    lines = proc.stdout.splitlines()
    for k, line in enumerate(lines[:-1]):
        if line.endswith(": Skipped"):
            reason = lines[k + 1].strip()
            break
    if failed or proc.returncode:
        sys.stdout.write(proc.stdout)
        failed = max(failed, 1 if proc.returncode else 0)
    passed = total - failed - skipped
    note = f", {skipped} skipped ({reason})" if skipped else ""
    print(f"{os.path.basename(binary)}: {passed} passed, {failed} failed{note}")
    return passed, failed


def run_lit(build, tmp):
    xml = os.path.join(tmp, "lit.xml")
    jobs = str(os.cpu_count() or 2)
    proc = subprocess.run([sys.executable, LIT, "-q", "-j", jobs, f"--xunit-xml-output={xml}",
                           os.path.join(build, "test", "lit")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout)
    if not os.path.exists(xml):
        print(f"lit: did not run (exit {proc.returncode})")
        return 0, 1
    passed = failed = 0
    skipped = []
    for case in ET.parse(xml).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            skipped.append(case.get("name", "?"))
            continue
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        else:
            passed += 1
    note = ""
    if skipped:
        note = (f", {len(skipped)} skipped (unsupported here, e.g. no nvcc: "
                f"{', '.join(sorted(skipped)[:3])})")
    print(f"lit: {passed} passed, {failed} failed{note}")
    return passed, failed


def run_consumer(build, tmp):
    """Installs tilepipe to a temporary prefix, then configures, builds and
    runs the out-of-tree consumer in examples/consumer against it: the CMake
    package as a compiler would use it (docs/adopting.md)."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = os.path.join(tmp, "prefix")
    cbuild = os.path.join(tmp, "consumer")
    # The consumer is compiled as the installed libraries were (a sanitizer
    # build's libraries need the sanitizer runtimes at link time).
    flags = []
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                for var in ("CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS"):
                    if line.startswith(var + ":") and line.split("=", 1)[1].strip():
                        flags.append(f"-D{var}={line.split('=', 1)[1].strip()}")
    steps = [
        ["cmake", "--install", build, "--prefix", prefix],
        ["cmake", "-G", "Ninja", "-S", os.path.join(src, "examples", "consumer"),
         "-B", cbuild, f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"] + flags,
        ["cmake", "--build", cbuild],
        [os.path.join(cbuild, "tilepipe-consumer")],
    ]
    for step in steps:
        proc = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode:
            sys.stdout.write(proc.stdout)
            print(f"consumer: 0 passed, 1 failed ({' '.join(step[:2])} exited {proc.returncode})")
            return 0, 1
    print("consumer: 1 passed, 0 failed")
    return 1, 0


def run_fuzz():
    """The fuzz smoke run (scripts/fuzz-smoke.sh, docs/fuzzing.md): each
    fuzzer that ran is one test; nothing counts when it skipped."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz-smoke.sh")
    # Streamed, so the build's progress lines show while it runs.
    proc = subprocess.Popen([script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line.rstrip("\n"))
    proc.wait()
    passed = failed = 0
    for line in lines:
        m = re.match(r"fuzz-\S+: (passed|failed)", line)
        if m:
            if m.group(1) == "passed":
                passed += 1
            else:
                failed += 1
    if proc.returncode and not failed:
        failed = 1  # the build failed, or the script did
    if passed or failed:
        print(f"fuzz: {passed} passed, {failed} failed")
    return passed, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--fuzz", action="store_true",
                        help="also run the fuzz smoke run (scripts/fuzz-smoke.sh)")
    args = parser.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for binary in sorted(glob.glob(os.path.join(args.build, "unittests", "*"))):
            if os.access(binary, os.X_OK) and os.path.isfile(binary):
                p, f = run_gtest(binary, tmp)
                passed += p
                failed += f
        # The numeric checks' numpy lives in a virtual environment under the
        # build folder; lit reports those tests unsupported without it.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import testvenv
        _, reason = testvenv.ensure(args.build)
        if reason:
            print(f"numeric tests: skipped ({reason})")
        # The peer comparison's Triton and cuobjdump (bench/peers/peers.py):
        # test/lit/peers is unsupported ("skipped") without them.
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        peers = subprocess.run([sys.executable, os.path.join(root, "bench", "peers", "peers.py"),
                                "--build", args.build, "--env-only"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if peers.returncode:
            print("peer comparison tests: " + (peers.stdout.strip().splitlines() or ["skipped"])[-1])
        p, f = run_lit(args.build, tmp)
        passed += p
        failed += f
        p, f = run_consumer(args.build, tmp)
        passed += p
        failed += f
    if args.fuzz:
        p, f = run_fuzz()
        passed += p
        failed += f
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
