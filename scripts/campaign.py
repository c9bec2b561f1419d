#!/usr/bin/env python3
"""A seeded bad-input campaign over the tools, as a user's mistakes and a
fuzzer's mutations would feed them (issue 24; docs/fuzzing.md).

Each input is a valid bundled file mutated one to three times at random
(numbers made huge, zero or negative, or another small number; statements
without results dropped; lines deleted, duplicated or swapped; tokens
deleted, inserted or cut; shapes changed; bytes flipped), by kind:

  mlir     tile IR (examples/, test/lit/cuda/Inputs/) through
           tilepipe-opt --tileas-generate-schedule
           --tileas-materialize-schedule (either mode) -canonicalize -cse
  stage    materialized stage code (the same sources after the passes)
           through tilepipe-translate --tileas-to-cuda
  json     JSON problems (test/lit/) through tilepipe schedule
  target   target files (target/sm_100a.json, test/lit/target/Inputs/)
           through tilepipe-opt --tileas-generate-schedule=target=FILE
  graphml  HatScheT instances with their resource models through
           tilepipe schedule --resources
  options  unmutated tile IR under random pass options (huge, negative,
           unknown and empty values)

and every run is judged:

  crash        died of a signal, or printed a stack dump, an LLVM ERROR,
               a failed assertion or a sanitizer report (--build with a
               sanitizer build: UBSan's "runtime error:", AddressSanitizer)
  hang         ran past --timeout seconds (or past the memory limit)
  internal     printed "internal error" (reserved for bugs)
  silent       failed without an "error:" diagnostic
  partial      failed but left its -o file
  bad-cuda     the translation succeeded, but the CUDA it wrote does not
               compile (g++ -fsyntax-only against the CPU runtime)
  deadlock     the translation succeeded on stage code that
               --tileas-check-protocol rejects

    python3 scripts/campaign.py [--build build] [--seed S] [--count N]
                                [--kinds mlir,stage,...] [--jobs J]
                                [--keep DIR] [--memory-gb G]

Prints one line per finding (with the input kept under --keep), then a
summary per kind; exit 1 when anything was found, 0 otherwise. The same
seed gives the same inputs.
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ["mlir", "stage", "json", "target", "graphml", "options"]
CXX = os.environ.get("CXX", "g++")

NUMBERS = ["0", "-1", "1", "2", "3", "7", "255", "256", "65536", "2147483647",
           "2147483648", "4294967296", "9223372036854775807",
           "-9223372036854775808", "18446744073709551616",
           "99999999999999999999999", "1e308", "-0.0", "0.5", "nan"]
TOKENS = ["{", "}", "[", "]", "(", ")", ",", ":", "=", "\"", "%", "@", "->",
          "into", "{accumulate}", "tileas.umma", "tileas.tma_load",
          "scf.yield", "tileas.pipe.consumer_wait", "tileas.agent_yield",
          "index", "f32", "bf16", "null", "true", "[]", "{}", "\"\""]
SHAPES = ["0x64", "1x1", "129x64", "128x65536", "4294967296x64", "128x0",
          "128x64x2", "7x9"]


def mutate(text, rng):
    """`text` with 1 to 3 random mutations."""
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        lines = text.split("\n")
        # Half of them keep the text parseable more often than not (numbers
        # and shapes), so that inputs reach the passes, not just the parser.
        what = rng.choice([0, 0, 9, 9, 10, 10, 7, 1, 2, 3, 4, 5, 6, 8])
        if what == 0:  # a number replaced
            nums = list(re.finditer(r"-?\b\d+(\.\d+)?\b", text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
        elif what == 1 and len(lines) > 1:  # a line deleted
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif what == 2:  # a line duplicated
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif what == 3 and len(lines) > 1:  # two lines swapped
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif what == 4:  # a token deleted
            toks = list(re.finditer(r"[^\s]+", text))
            if toks:
                m = rng.choice(toks)
                text = text[:m.start()] + text[m.end():]
        elif what == 5:  # a token inserted
            at = rng.randrange(len(text) + 1)
            text = text[:at] + " " + rng.choice(TOKENS) + " " + text[at:]
        elif what == 6:  # cut short
            text = text[:rng.randrange(len(text) + 1)]
        elif what == 7:  # a shape changed
            shapes = list(re.finditer(r"\b\d+x\d+(?=x)", text))
            if shapes:
                m = rng.choice(shapes)
                text = text[:m.start()] + rng.choice(SHAPES) + text[m.end():]
        elif what == 9:  # a statement without results dropped (a wait, a
            # release, a commit, a fence: the text still parses)
            plain = [k for k, l in enumerate(lines)
                     if re.match(r"\s*[a-z_]+\.[a-z_.]+", l) and "{" not in l]
            if plain:
                del lines[rng.choice(plain)]
                text = "\n".join(lines)
        elif what == 10:  # a small number replaced by another
            nums = list(re.finditer(r"(?<![\w.%#])\d(?![\w.x])", text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + str(rng.randrange(10)) + text[m.end():]
        else:  # a byte changed
            if text:
                at = rng.randrange(len(text))
                text = text[:at] + chr(rng.choice([0x00, 0x7F, 0xE9, 0x22, 0x5C,
                                                   0x30, 0x7D, 0x5D])) + text[at + 1:]
    return text


def sources():
    def files(*patterns):
        out = set()
        for p in patterns:
            out.update(glob.glob(os.path.join(REPO, p), recursive=True))
        return sorted(out)

    def good(paths):  # the valid inputs: the bad-* ones are bad already
        return [f for f in paths if not os.path.basename(f).startswith("bad-")]

    mlir = files("examples/*.mlir", "test/lit/cuda/Inputs/*.mlir")
    json_ = good(f for f in files("test/lit/**/*.json") if "/target/" not in f)
    targets = good(files("target/sm_100a.json", "test/lit/target/Inputs/*.json"))
    graphml = [(g, g[:-len(".graphml")] + "_RM.xml") for g in files("test/lit/**/*.graphml")
               if os.path.exists(g[:-len(".graphml")] + "_RM.xml")]
    return mlir, json_, targets, graphml


MEMORY_GB = [6]


def limit_memory():
    # An AddressSanitizer build reserves terabytes of address space for its
    # shadow: run it with --memory-gb 0.
    if MEMORY_GB[0]:
        limit = MEMORY_GB[0] << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


ACCEPTED = set()


def run(cmd, timeout, cwd=None):
    """(returncode or None on timeout, output)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, preexec_fn=limit_memory, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, ""
    return p.returncode, p.stdout.decode("utf-8", "replace")


def judge(rc, out, out_file):
    """The finding for one run of a tool, or None."""
    if rc is None:
        return "hang"
    if rc < 0 or re.search(r"Stack dump|LLVM ERROR|Assertion .* failed|"
                           r"PLEASE submit a bug report|std::bad_alloc|"
                           r"runtime error:|AddressSanitizer|LeakSanitizer", out):
        return "crash"
    if "internal error" in out:
        return "internal"
    if rc != 0 and "error" not in out:
        return "silent"
    if rc != 0 and out_file and os.path.exists(out_file):
        return "partial"
    return None


class Campaign:
    def __init__(self, args):
        self.args = args
        b = os.path.abspath(args.build)
        self.opt = os.path.join(b, "bin", "tilepipe-opt")
        self.tr = os.path.join(b, "bin", "tilepipe-translate")
        self.tp = os.path.join(b, "bin", "tilepipe")
        self.mlir, self.json, self.targets, self.graphml = sources()
        self.tmp = tempfile.mkdtemp(prefix="campaign-")
        self.stage = self.stage_sources()

    def stage_sources(self):
        """The tile-IR sources after the passes, in both modes."""
        out = []
        for f in self.mlir:
            for mode in ["warp-specialized", "unspecialized"]:
                dst = os.path.join(self.tmp, "%s.%s.stage.mlir" % (os.path.basename(f), mode))
                rc, _ = run([self.opt, f, "--tileas-generate-schedule",
                             "--tileas-materialize-schedule=mode=" + mode,
                             "-canonicalize", "-cse", "-o", dst], 120)
                if rc == 0:
                    out.append(dst)
        return out

    def case(self, i):
        """(kind, input text or None, runner) for input i: the same seed
        gives the same inputs whatever the jobs' order."""
        rng = random.Random("%d/%d" % (self.args.seed, i))
        kinds = self.args.kinds
        kind = kinds[i % len(kinds)]
        work = os.path.join(self.tmp, "case%d" % i)
        os.makedirs(work, exist_ok=True)
        if kind == "options":
            src = rng.choice(self.mlir)
            return kind, src, None, self.options_case(rng, src, work, i)
        pool = {"mlir": self.mlir, "stage": self.stage, "json": self.json,
                "target": self.targets, "graphml": [g for g, _ in self.graphml]}[kind]
        src = rng.choice(pool)
        text = mutate(open(src, encoding="utf-8", errors="replace").read(), rng)
        ext = {"mlir": ".mlir", "stage": ".mlir", "json": ".json", "target": ".json",
               "graphml": ".graphml"}[kind]
        path = os.path.join(work, "input" + ext)
        with open(path, "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
        out = os.path.join(work, "out")
        t = self.args.timeout
        if kind == "mlir":
            mode = rng.choice(["warp-specialized", "unspecialized"])
            cmds = [[self.opt, path, "--tileas-generate-schedule",
                     "--tileas-materialize-schedule=mode=" + mode, "-canonicalize", "-cse", "-o", out]]
        elif kind == "stage":
            return kind, src, path, self.stage_case(path, work, i)
        elif kind == "json":
            cmds = [[self.tp, "schedule", path] + self.cli_options(rng)]
        elif kind == "target":
            cmds = [[self.opt, os.path.join(REPO, "examples", rng.choice(
                ["gemm_mainloop.mlir", "fa4_fwd.mlir", "attention_fwd.mlir"])),
                "--tileas-generate-schedule=target=" + path, "-o", out]]
        else:
            rm = dict(self.graphml)[src]
            cmds = [[self.tp, "schedule", path, "--resources", rm] + self.cli_options(rng)]

        def runner():
            for cmd in cmds:
                rc, text = run(cmd, t)
                finding = judge(rc, text, out)
                if finding:
                    return finding, cmd, text
                if rc == 0:
                    ACCEPTED.add(i)
                if os.path.exists(out):
                    os.remove(out)
            return None
        return kind, src, path, runner

    def cli_options(self, rng):
        """A few of `tilepipe schedule`'s options (it prints to stdout)."""
        opts = ["--generator=serial", "--generator=auto", "--stages=asap", "--stages=min-cut",
                "--stages=min-buffer", "--prove-optimal", "--emit-schedule", "--no-timings",
                "--seed=gaus", "--arms=permute", "--search=gallop", "--ii-cap=3",
                "--max-attempts=2", "--time-limit-ms=2000"]
        return rng.sample(opts, rng.randint(0, 2))

    def options_case(self, rng, src, work, i):
        gen = {"generator": ["serial", "cost-based", "auto", "", "x"],
               "stages": ["late", "asap", "min-cut", "min-buffer", "bogus"],
               "time-limit-ms": ["0", "1", "-1", "18446744073709551616", "abc"],
               "exact-timeout-ms": ["0", "1", "4294967296"],
               "prove-optimal": ["", "true", "false", "2"],
               "prove-timeout-ms": ["0", "1", "99999999999"],
               "ii-cap": ["0", "1", "4294967295", "4294967296"],
               "max-attempts": ["0", "1", "-5"],
               "arms": ["permute", "fuse,retry", "", "nonsense", ",,"],
               "seed": ["gaus", "none", "", "x"],
               "serial-threshold": ["0", "1", "4294967295"],
               "register-order": ["", "true"],
               "infer-warp-groups": ["", "false"]}
        mat = {"mode": ["warp-specialized", "unspecialized", "x"],
               "protocol-seeds": ["0", "1", "10000", "10001", "-1"],
               "persistent": ["", "true", "false", "7"],
               "join-pipes": ["", "false"],
               "print-plan": [""],
               "report": ["/nonexistent/dir/r.svg", os.path.join(work, "r.svg")]}

        def pick(table):
            keys = rng.sample(sorted(table), rng.randint(1, 3))
            parts = []
            for k in keys:
                v = rng.choice(table[k])
                parts.append(k if v == "" and rng.random() < 0.5 else "%s=%s" % (k, v))
            return " ".join(parts)
        out = os.path.join(work, "out")
        cmd = [self.opt, src, "--tileas-generate-schedule=" + pick(gen),
               "--tileas-materialize-schedule=" + pick(mat), "-o", out]

        def runner():
            rc, text = run(cmd, self.args.timeout)
            finding = judge(rc, text, out)
            if rc == 0:
                ACCEPTED.add(i)
            return (finding, cmd, text) if finding else None
        return runner

    def stage_case(self, path, work, i):
        out = os.path.join(work, "out.cu")

        def runner():
            cmd = [self.tr, "--tileas-to-cuda", path, "-o", out]
            rc, text = run(cmd, self.args.timeout)
            finding = judge(rc, text, out)
            if finding or rc != 0:
                return (finding, cmd, text) if finding else None
            ACCEPTED.add(i)
            # Translated: the protocol check must agree, and the CUDA must
            # compile.
            check = [self.opt, path, "--tileas-check-protocol"]
            crc, ctext = run(check, self.args.timeout)
            if crc != 0 and "error" in ctext:
                return "deadlock", check, ctext
            cxx = [CXX, "-std=c++17", "-fsyntax-only", "-x", "c++", "-DTILEPIPE_CPU",
                   "-I", os.path.join(REPO, "cuda", "include"), out]
            xrc, xtext = run(cxx, 300)
            if xrc != 0:
                return "bad-cuda", cxx, xtext
            return None
        return runner


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=30, help="seconds per run")
    ap.add_argument("--keep", help="copy each finding's input here")
    ap.add_argument("--memory-gb", type=int, default=6,
                    help="address-space limit per run (0: none, for sanitizer builds)")
    args = ap.parse_args()
    MEMORY_GB[0] = args.memory_gb
    args.kinds = [k for k in args.kinds.split(",") if k]
    if any(k not in KINDS for k in args.kinds):
        ap.error("kinds are " + ",".join(KINDS))
    camp = Campaign(args)
    pools = {"mlir": camp.mlir, "stage": camp.stage, "json": camp.json,
             "target": camp.targets, "graphml": camp.graphml, "options": camp.mlir}
    for k in [k for k in args.kinds if not pools[k]]:
        print("campaign: no %s inputs (none bundled, or none made it through the passes); "
              "that kind is left out" % k)
        args.kinds.remove(k)
    if not args.kinds:
        return 2
    cases = [camp.case(i) for i in range(args.count)]
    counts = {k: [0, 0, 0] for k in args.kinds}
    findings = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda c: c[3](), cases)
        for i, ((kind, src, path, _), result) in enumerate(zip(cases, results)):
            counts[kind][0] += 1
            counts[kind][2] += i in ACCEPTED
            if not result:
                continue
            counts[kind][1] += 1
            finding, cmd, text = result
            kept = path
            if args.keep and path:
                os.makedirs(args.keep, exist_ok=True)
                kept = os.path.join(args.keep, "case%d-%s%s" % (i, kind, os.path.splitext(path)[1]))
                shutil.copy(path, kept)
            first = next((l for l in text.splitlines() if l.strip()), "")
            findings.append("%s: case %d (%s from %s): %s\n  %s\n  %s" % (
                finding.upper(), i, kind, os.path.relpath(src, REPO), kept or "",
                " ".join(cmd), first[:300]))
    for f in findings:
        print(f)
    total = sum(c[0] for c in counts.values())
    print("campaign seed %d: %d inputs (%s; accepted by the tool: %d); %d findings" % (
        args.seed, total, ", ".join("%s %d" % (k, c[0]) for k, c in counts.items()),
        sum(c[2] for c in counts.values()), len(findings)))
    for k, c in counts.items():
        print("  %-8s %5d inputs, %5d accepted, %3d findings" % (k, c[0], c[2], c[1]))
    shutil.rmtree(camp.tmp, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
