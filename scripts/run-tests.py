#!/usr/bin/env python3
"""Runs every tilepipe test suite (GoogleTest binaries, then lit) and ends with
one line `N passed, M failed` summing them all; exits non-zero when M > 0."""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"
# Seconds without a line before a step says it is still running: CI logs
# (and `make test | tee`) must show progress while a slow test runs.
HEARTBEAT = 30


class Heartbeat:
    """Prints `what()` every HEARTBEAT seconds in which nothing else was
    printed, until stopped."""

    def __init__(self, what):
        self.what = what
        self.last = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        return False

    def printed(self):
        self.last = time.monotonic()

    def _beat(self):
        while not self.done.wait(1):
            if time.monotonic() - self.last >= HEARTBEAT:
                print(self.what(), flush=True)
                self.last = time.monotonic()


def run_quietly(cmd, label):
    """subprocess.run with captured output, saying every HEARTBEAT seconds
    that `label` is still running."""
    start = time.monotonic()
    with Heartbeat(lambda: f"{label}: still running ({time.monotonic() - start:.0f} s)"):
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def run_gtest(binary, tmp):
    """(passed, failed, what to print) of one GoogleTest binary."""
    out = os.path.join(tmp, os.path.basename(binary) + ".json")
    proc = run_quietly([binary, "--gtest_brief=1", f"--gtest_output=json:{out}"],
                       os.path.basename(binary))
    if not os.path.exists(out):
        return 0, 1, proc.stdout + f"{os.path.basename(binary)}: crashed (exit {proc.returncode})\n"
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
    text = ""
    if failed or proc.returncode:
        text = proc.stdout
        failed = max(failed, 1 if proc.returncode else 0)
    passed = total - failed - skipped
    note = f", {skipped} skipped ({reason})" if skipped else ""
    text += f"{os.path.basename(binary)}: {passed} passed, {failed} failed{note}\n"
    return passed, failed, text


# The GoogleTest binaries that take the most CPU (about 30 s and 9 s of the
# 47 s they all take), started first.
SLOW_GTESTS = ("ExactTests", "GausTests")


def run_gtests(build, tmp):
    """Every GoogleTest binary, one per core side by side (each runs on one
    core, and ExactTests alone takes half a minute of CPU), printed in name
    order as each is done."""
    binaries = [b for b in sorted(glob.glob(os.path.join(build, "unittests", "*")))
                if os.access(b, os.X_OK) and os.path.isfile(b)]
    passed = failed = 0
    if not binaries:
        return passed, failed
    jobs = min(len(binaries), os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        # The slowest first, so that no core waits for it at the end.
        order = sorted(binaries, key=lambda b: os.path.basename(b) not in SLOW_GTESTS)
        futures = {b: pool.submit(run_gtest, b, tmp) for b in order}
        for binary in binaries:
            p, f, text = futures[binary].result()
            sys.stdout.write(text)
            sys.stdout.flush()
            passed += p
            failed += f
    return passed, failed


def stream_lit(cmd):
    """Runs lit, printing what is not a plain pass as it comes and, every
    HEARTBEAT seconds, how many tests are done (lit prints nothing while
    its slowest tests run)."""
    start = time.monotonic()
    state = {"done": 0, "failed": 0, "total": "?"}

    def progress():
        return (f"lit: {state['done']} of {state['total']} tests done, "
                f"{state['failed']} failed, {time.monotonic() - start:.0f} s")

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with Heartbeat(progress) as beat:
        for line in proc.stdout:
            m = re.match(r"(\w+): .* \((\d+) of (\d+)\)$", line.rstrip("\n"))
            if m:
                state["done"], state["total"] = int(m.group(2)), m.group(3)
                if m.group(1) in ("PASS", "UNSUPPORTED", "XFAIL"):
                    continue
                state["failed"] += 1
            elif line.startswith("-- Testing:"):
                m = re.match(r"-- Testing: (\d+) tests", line)
                state["total"] = m.group(1) if m else "?"
            sys.stdout.write(line)
            sys.stdout.flush()
            beat.printed()
    return proc.wait()


def skip_note(skipped, reasons):
    """`, N skipped (...)`: the skipped tests grouped by what they miss,
    each group with the reason that feature is missing here."""
    if not skipped:
        return ""
    groups = {}
    for name, message in skipped:
        m = re.match(r"Missing required feature\(s\): (.*)", message)
        key = ("need " + m.group(1)) if m else message
        groups.setdefault(key, []).append(name)
    parts = []
    for what, names in sorted(groups.items()):
        features = re.split(r",\s*", what[5:]) if what.startswith("need ") else []
        why = "; ".join(reasons[f] for f in features if f in reasons)
        parts.append(f"{len(names)} {what}" + (f": {why}" if why else "") +
                     f" ({', '.join(sorted(names)[:3])}{', ...' if len(names) > 3 else ''})")
    return f", {len(skipped)} skipped ({'; '.join(parts)})"


def run_lit(build, tmp, reasons):
    """The lit suites, -j one per core. reasons: feature -> why it is
    missing here, for the skipped tests' summary."""
    xml = os.path.join(tmp, "lit.xml")
    jobs = str(os.cpu_count() or 2)
    rc = stream_lit([sys.executable, LIT, "-v", "-j", jobs, f"--xunit-xml-output={xml}",
                     os.path.join(build, "test", "lit")])
    if not os.path.exists(xml):
        print(f"lit: did not run (exit {rc})")
        return 0, 1
    passed = failed = 0
    skipped, times = [], []
    for case in ET.parse(xml).getroot().iter("testcase"):
        name = case.get("classname", "").split(".", 1)[-1] + "/" + case.get("name", "?")
        skip = case.find("skipped")
        if skip is not None:
            # Tests left out by LIT_FILTER are not this run's.
            if not skip.get("message", "").startswith("Test not selected"):
                skipped.append((name, skip.get("message", "")))
            continue
        times.append((float(case.get("time", 0)), name))
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        else:
            passed += 1
    slowest = ", ".join(f"{n} {t:.0f} s" for t, n in sorted(times, reverse=True)[:5])
    print(f"lit: slowest: {slowest}")
    print(f"lit: {passed} passed, {failed} failed{skip_note(skipped, reasons)}")
    LIT_SKIPPED[0] = len(skipped)
    return passed, failed


# Skipped lit tests of this run, for the summary file.
LIT_SKIPPED = [0]


def write_summary(path, passed, failed, seconds):
    """The run's figures as JSON (scripts/readme-figures.py writes the
    README's from them)."""
    summary = {"date": time.strftime("%Y-%m-%d"), "passed": passed, "failed": failed,
               "lit_skipped": LIT_SKIPPED[0], "seconds": round(seconds)}
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")


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
        proc = run_quietly(step, f"consumer ({' '.join(step[:2])})")
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


def nvcc_reason(build):
    """Why the nvcc tests cannot run here (lit.cfg.py's condition)."""
    nvcc = "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        return f"no CUDA Toolkit ({nvcc} not found)"
    site = os.path.join(build, "test", "lit", "lit.site.cfg.py")
    if os.path.exists(site) and 'tilepipe_have_cuda = "ON"' not in open(site).read():
        return "the build was configured without the CUDA Toolkit"
    return "unsupported here"


def make_environments(build):
    """(lines to print, reasons): the numeric tests' numpy environment and
    the CUDA Tile IR tests' cutile environment (scripts/testvenv.py), the
    peer comparison's Triton and cuobjdump (bench/peers/peers.py), each
    under the build folder; reasons maps a lit feature whose environment
    could not be made to why. A test environment made with pip belongs
    here: main makes them all while the build and the unit tests run, the
    three side by side (pip waits on the network and the disk)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import testvenv
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def peers_env():
        # test/lit/bench/peers is unsupported ("skipped") without them.
        peers = subprocess.run([sys.executable, os.path.join(root, "bench", "peers", "peers.py"),
                                "--build", build, "--env-only"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not peers.returncode:
            return None
        last = (peers.stdout.strip().splitlines() or ["skipped"])[-1]
        return re.sub(r"^peers: (skipped: )?", "", last), last

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        numpy_env = pool.submit(testvenv.ensure, build)
        # cuTile, tileiras and tileirdisasm for the CUDA Tile IR front end's
        # tests (docs/cuda-tile.md), in their own environment.
        cutile_env = pool.submit(testvenv.ensure, build, "cutile")
        peers = pool.submit(peers_env)
        lines = []
        reasons = {"nvcc": nvcc_reason(build)}
        _, reason = numpy_env.result()
        if reason:
            reasons["numpy"] = reason
            lines.append(f"numeric tests: skipped ({reason})")
        _, reason = cutile_env.result()
        if reason:
            reasons["cutile"] = reason
            lines.append(f"cuTile tests: skipped ({reason})")
        if peers.result():
            reasons["peers"], last = peers.result()
            lines.append("peer comparison tests: " + last)
    return lines, reasons


def main():
    # Line by line even into a pipe or a log: CI shows progress as it comes.
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--fuzz", action="store_true",
                        help="also run the fuzz smoke run (scripts/fuzz-smoke.sh)")
    parser.add_argument("--build-first", metavar="JOBS", type=int,
                        help="build BUILD first (cmake --build -j JOBS) while the test "
                        "environments are made: make test's way, so that pip's wait on the "
                        "network is not added to the build's")
    parser.add_argument("--summary", help="write the run's figures to this JSON file "
                        "(default BUILD/test-summary.json)")
    args = parser.parse_args()
    run_start = time.monotonic()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The test environments are made while the build (--build-first) and
        # the unit tests run: pip waits mostly on the network and the disk,
        # the compiler and the unit tests on the CPU.
        environments = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        made = environments.submit(make_environments, args.build)
        if args.build_first is not None:
            built = subprocess.run(["cmake", "--build", args.build, "-j", str(args.build_first)])
            if built.returncode:
                print("build failed; the environments are left as they are", flush=True)
                made.result()
                return built.returncode
        p, f = run_gtests(args.build, tmp)
        passed += p
        failed += f
        start = time.monotonic()
        with Heartbeat(lambda: f"test environments: still being made "
                               f"({time.monotonic() - start:.0f} s)"):
            lines, reasons = made.result()
        environments.shutdown()
        for line in lines:
            print(line, flush=True)
        p, f = run_lit(args.build, tmp, reasons)
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
    write_summary(args.summary or os.path.join(args.build, "test-summary.json"),
                  passed, failed, time.monotonic() - run_start)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
