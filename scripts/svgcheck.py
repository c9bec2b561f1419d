#!/usr/bin/env python3
"""Checks the pictures tilepipe writes (docs/report.md): every label lies
inside its picture, overlaps no other label, is either clear of or wholly
inside each filled shape (a bar, a heat-map cell, an agent's box: never cut
by one), and no line or arrow crosses it unless it sits on a white ground;
labels are measured with the font's own advance widths. The file must also
render with rsvg-convert.

  scripts/svgcheck.py FILE.svg... [--no-render]

The pictures set their text in DejaVu Sans Mono, whose every glyph advances
1233/2048 em, with an ascent of 1901/2048 and a descent of 483/2048 (the
font's hmtx and hhea tables; report/TextMetrics.h). A label in any other
font is an error: its width would be a guess. Nested <svg x y> (the stacked
report) are placed where their x and y put them.

Exit status: 0 every file passes; 1 a label leaves its picture, two labels
overlap, a label's font is not the measured one, or rsvg-convert fails.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
ADVANCE, ASCENT, DESCENT = 1233 / 2048, 1901 / 2048, 483 / 2048
FONT = "DejaVu Sans Mono"


def shapes(root):
    """Filled rects (x0, y0, x1, y1, fill) and line segments, in root units;
    the full-canvas background is not a shape."""
    rects, segments = [], []

    def walk(node, dx, dy):
        tag = node.tag.replace(NS, "")
        if tag == "svg":
            dx += float(node.get("x", 0))
            dy += float(node.get("y", 0))
        if tag == "rect" and "%" not in node.get("width", ""):
            x, y = dx + float(node.get("x", 0)), dy + float(node.get("y", 0))
            rects.append((x, y, x + float(node.get("width")), y + float(node.get("height")),
                          node.get("fill", "black").lower()))
        if tag == "line":
            segments.append((dx + float(node.get("x1")), dy + float(node.get("y1")),
                             dx + float(node.get("x2")), dy + float(node.get("y2"))))
        if tag == "path":
            words = node.get("d", "").replace(",", " ").split()
            if words and all(w in "ML" or w.replace(".", "").replace("-", "").isdigit() for w in words):
                pts, i = [], 0
                while i < len(words):
                    if words[i] in "ML":
                        pts.append((words[i], float(words[i + 1]), float(words[i + 2])))
                        i += 3
                    else:
                        break
                for (_, ax, ay), (c, bx, by) in zip(pts, pts[1:]):
                    if c == "L":
                        segments.append((dx + ax, dy + ay, dx + bx, dy + by))
        for child in node:
            walk(child, dx, dy)

    walk(root, 0.0, 0.0)
    return rects, segments


def crosses(seg, box):
    """Whether an axis-parallel or general segment meets the box's inside."""
    x0, y0, x1, y1 = box[:4]
    ax, ay, bx, by = seg
    # Clip the segment to the box (Liang-Barsky), strictly inside.
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 < t1


def boxes(root):
    """(x0, y0, x1, y1, text, picture box) of every <text>, in root units."""
    out = []

    def walk(node, dx, dy, size, family, anchor, frame):
        tag = node.tag.replace(NS, "")
        size = float(node.get("font-size", size))
        family = node.get("font-family", family)
        anchor = node.get("text-anchor", anchor)
        if tag == "svg":
            dx += float(node.get("x", 0))
            dy += float(node.get("y", 0))
            frame = (dx, dy, dx + float(node.get("width")), dy + float(node.get("height")))
        if tag == "text":
            body = "".join(node.itertext())
            if FONT not in family:
                raise ValueError(f"label {body!r} is set in {family!r}, not {FONT}")
            w = len(body) * ADVANCE * size
            x = dx + float(node.get("x", 0))
            y = dy + float(node.get("y", 0))
            x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
            out.append((x0, y - ASCENT * size, x0 + w, y + DESCENT * size, body, frame))
            return
        for child in node:
            walk(child, dx, dy, size, family, anchor, frame)

    walk(root, 0.0, 0.0, 16.0, "", "start", None)
    return out


def check(path):
    problems = []
    root = ET.parse(path).getroot()
    labels = boxes(root)
    rects, segments = shapes(root)
    eps = 0.01
    white = ("white", "#fff", "#ffffff", "none")

    def inside(a, r):
        return r[0] - eps <= a[0] and r[1] - eps <= a[1] and a[2] <= r[2] + eps and a[3] <= r[3] + eps

    def meets(a, r):
        return a[0] < r[2] - eps and r[0] < a[2] - eps and a[1] < r[3] - eps and r[1] < a[3] - eps

    for a in labels:
        for r in rects:
            if r[4] not in white and meets(a, r) and not inside(a, r):
                problems.append(f"label {a[4]!r} is cut by a filled shape at ({r[0]:.1f}, {r[1]:.1f})")
                break
        grounded = any(r[4] in white and inside(a, r) for r in rects)
        if not grounded:
            for seg in segments:
                if crosses(seg, a):
                    problems.append(f"a line from ({seg[0]:.1f}, {seg[1]:.1f}) to ({seg[2]:.1f}, "
                                    f"{seg[3]:.1f}) crosses label {a[4]!r}")
                    break
    for x0, y0, x1, y1, body, (fx0, fy0, fx1, fy1) in labels:
        if x0 < fx0 - eps or y0 < fy0 - eps or x1 > fx1 + eps or y1 > fy1 + eps:
            problems.append(f"label {body!r} at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f}) "
                            f"leaves its picture ({fx0:.0f}, {fy0:.0f})-({fx1:.0f}, {fy1:.0f})")
    ordered = sorted(labels, key=lambda b: b[1])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b[1] >= a[3] - eps:
                break
            if a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps:
                problems.append(f"labels {a[4]!r} and {b[4]!r} overlap")
    return len(labels), problems


def main():
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    render = "--no-render" not in sys.argv
    if not files:
        print(__doc__)
        return 2
    bad = 0
    for path in files:
        try:
            n, problems = check(path)
        except (ValueError, ET.ParseError) as e:
            print(f"{path}: {e}")
            bad = 1
            continue
        for p in problems[:20]:
            print(f"{path}: {p}")
        if render:
            tool = shutil.which("rsvg-convert")
            if not tool:
                print(f"{path}: rsvg-convert not found")
                bad = 1
                continue
            with tempfile.TemporaryDirectory() as tmp:
                r = subprocess.run([tool, "-f", "png", "-o", os.path.join(tmp, "out.png"), path],
                                   capture_output=True, text=True)
            if r.returncode:
                problems.append("rsvg-convert failed: " + r.stderr.strip())
                print(f"{path}: {problems[-1]}")
        print(f"{path}: {n} labels, {len(problems)} problems")
        bad |= bool(problems)
    return bad


if __name__ == "__main__":
    sys.exit(main())
