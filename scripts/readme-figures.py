#!/usr/bin/env python3
"""Rewrites the README's test figures (the paragraph between the
`<!-- test-figures -->` markers) from a test run's summary.

scripts/run-tests.py (make test) writes BUILD/test-summary.json: the date,
`passed`, `failed`, the skipped lit tests and the run's seconds. The README's
figures are that run's, plus what only the caller knows: where it ran, and
how long `make run` and the whole `make test` (package installation and
build included) took when timed from outside:

    python3 scripts/readme-figures.py --summary build/test-summary.json \\
        --machine "a debootstrap minbase bookworm chroot, 2 cores, clean clone" \\
        --run-seconds 394 --test-seconds 698

--passed/--failed/--skipped/--date override the summary's (a run recorded
elsewhere); --check exits 1 when the README would change.
"""
import argparse
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- test-figures: written by scripts/readme-figures.py -->"
END = "<!-- /test-figures -->"


def minutes(seconds):
    return f"{seconds / 60:.1f} min ({seconds} s)"


def paragraph(fig):
    """The figures as README text."""
    parts = [f"At the last recorded run ({fig['date']}, {fig['machine']}):"]
    timed = []
    if fig.get("run_seconds"):
        timed.append(f"`make run` took {minutes(fig['run_seconds'])}")
    test_seconds = fig.get("test_seconds") or fig.get("seconds")
    if test_seconds:
        timed.append(f"`make test` {minutes(test_seconds)}")
    if timed:
        parts.append(" and ".join(timed) + ",")
    parts.append(f"`{fig['passed']} passed, {fig['failed']} failed`")
    if fig.get("lit_skipped"):
        parts[-1] += f", {fig['lit_skipped']} lit tests skipped (each group with its reason)"
    return " ".join(parts) + "."


def rewrite(text, fig):
    block = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not block.search(text):
        raise SystemExit(f"readme-figures: no {BEGIN} ... {END} block in the README")
    return block.sub(lambda _: f"{BEGIN}\n{paragraph(fig)}\n{END}", text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summary", help="run-tests.py's summary (BUILD/test-summary.json)")
    ap.add_argument("--readme", default=os.path.join(REPO, "README.md"))
    ap.add_argument("--machine", required=True, help="where the run was made, in words")
    ap.add_argument("--run-seconds", type=int, help="`make run` timed from outside")
    ap.add_argument("--test-seconds", type=int,
                    help="the whole `make test` timed from outside (default: the summary's)")
    for name in ("passed", "failed", "skipped"):
        ap.add_argument(f"--{name}", type=int)
    ap.add_argument("--date")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    fig = {}
    if args.summary:
        with open(args.summary) as f:
            fig.update(json.load(f))
    for key, value in (("passed", args.passed), ("failed", args.failed),
                       ("lit_skipped", args.skipped), ("date", args.date),
                       ("run_seconds", args.run_seconds), ("test_seconds", args.test_seconds)):
        if value is not None:
            fig[key] = value
    fig["machine"] = args.machine
    missing = [k for k in ("date", "passed", "failed") if k not in fig]
    if missing:
        print(f"readme-figures: no {', '.join(missing)} (give --summary or the options)")
        return 2
    with open(args.readme) as f:
        old = f.read()
    new = rewrite(old, fig)
    if args.check:
        print("readme-figures: " + ("up to date" if new == old else "the README's figures differ"))
        return 0 if new == old else 1
    with open(args.readme, "w") as f:
        f.write(new)
    print(f"readme-figures: {paragraph(fig)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
