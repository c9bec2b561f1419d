#!/usr/bin/env python3
"""Held-out HLS-kind loops in HatScheT format, grafted from the shipped instances.

The shipped HatScheT suite (../shared/data/hatschet-msp) holds loops of at most 576 ops. The CHStone loops of the
same tool flow (Nymble CDFGs, Bambu latencies) reach thousands of ops and are not shipped. This script makes
loops of that kind and size from a seed: it takes shipped loops at random, joins them (ids renumbered), links
consecutive ones with forward edges (distance 0), and with a given probability closes recurrences across them
(back edges of distance 1-3). Every op, edge and resource keeps its shipped latency, delay and limit; resources
of one name are one pool, so the joined loop competes for the memory ports and FP units the way a large CDFG
does.

    python3 bench/hls-graft.py --seed 11 --count 40 --out /tmp/graft
    python3 bench/run-suite.py --data /tmp/graft --extra-args=--prove-optimal

Writes OUT/graft-sSEED/gN.graphml with gN_RM.xml beside it (the MachSuite layout), and OUT/graft-sSEED/SOURCES.tsv
naming the shipped loops each one was made of. The same seed gives the same files.
"""

import argparse
import math
import os
import random
import sys
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NS = "{http://graphml.graphdrawing.org/xmlns}"


def shipped(data):
    """[(name, graphml path, RM path)] for every shipped instance, sorted."""
    out = []
    ms = os.path.join(data, "MachSuite")
    for app in sorted(os.listdir(ms)):
        folder = os.path.join(ms, app)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".graphml"):
                continue
            stem = name.split(".")[0]
            out.append((f"MachSuite/{app}/{name[:-8]}", os.path.join(folder, name),
                        os.path.join(folder, stem + "_RM.xml")))
    og = os.path.join(data, "origami")
    for name in sorted(os.listdir(og)):
        if name.endswith(".graphml"):
            stem = name[:-8]
            out.append((f"origami/{stem}", os.path.join(og, name), os.path.join(og, stem + "RM.xml")))
    return out


def read_graph(path):
    root = ET.parse(path).getroot()
    graph = root.find(NS + "graph")
    if graph is None:
        graph = root.find("graph")
    nodes, edges = [], []
    for el in graph:
        tag = el.tag.replace(NS, "")
        data = {d.get("key"): (d.text or "").strip() for d in el if d.tag.replace(NS, "") == "data"}
        if tag == "node":
            nodes.append((el.get("id"), data.get("uses_resource", "")))
        elif tag == "edge":
            edges.append((el.get("source"), el.get("target"), int(data.get("delay", "0")),
                          int(data.get("distance", "0"))))
    return nodes, edges


def read_resources(path):
    root = ET.parse(path).getroot()
    return {r.get("name"): dict(r.attrib) for r in root.iter("Resource")}


def graft(rng, pool, target_ops, recurrence_p, joined=None):
    """One loop: (nodes [(id, resource)], edges [(src, dst, delay, distance)], resources, source names).

    `joined`, when given, names the loops to join in order instead of drawing them from `pool`."""
    nodes, edges, resources, names = [], [], {}, []
    parts = []  # per joined loop: list of its new node ids
    queue = list(joined or [])
    while (queue if joined else len(nodes) < target_ops):
        name, gpath, rmpath = queue.pop(0) if joined else rng.choice(pool)
        gnodes, gedges = read_graph(gpath)
        res = read_resources(rmpath)
        for rname, attrs in res.items():
            # One name is one unit kind in Bambu's library; keep the first definition.
            resources.setdefault(rname, attrs)
        base = len(nodes)
        remap = {old: base + i for i, (old, _) in enumerate(gnodes)}
        nodes.extend((remap[old], r) for old, r in gnodes)
        edges.extend((remap[s], remap[t], d, k) for s, t, d, k in gedges)
        parts.append([remap[old] for old, _ in gnodes])
        names.append(name)
    for a in range(1, len(parts)):
        # Forward links keep the join acyclic at distance 0: values flow from one loop body into the next.
        for _ in range(rng.randint(1, 3)):
            edges.append((rng.choice(parts[a - 1]), rng.choice(parts[a]), rng.choice((0, 0, 1)), 0))
        if rng.random() < recurrence_p:
            back = rng.randrange(0, a)
            edges.append((rng.choice(parts[a]), rng.choice(parts[back]), rng.choice((0, 1)),
                          rng.randint(1, 3)))
    return nodes, edges, resources, names


def write_graph(path, nodes, edges):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n')
        f.write("  <graph>\n")
        for nid, res in nodes:
            f.write(f'    <node id="{nid}">\n      <data key="name">node_{nid}</data>\n'
                    f'      <data key="uses_resource">{escape(res)}</data>\n    </node>\n')
        for i, (s, t, d, k) in enumerate(edges):
            f.write(f'    <edge id="e{i}" source="{s}" target="{t}">\n      <data key="delay">{d}</data>\n'
                    f'      <data key="distance">{k}</data>\n    </edge>\n')
        f.write("  </graph>\n</graphml>\n")


def write_resources(path, resources):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?><ModelInformation Version="1.0">\n  <Resources>\n')
        for name in sorted(resources):
            a = resources[name]
            f.write(f'    <Resource blockingTime="{a.get("blockingTime", "0")}" latency="{a.get("latency", "0")}" '
                    f'limit="{a.get("limit", "-1")}" name={quoteattr(name, {chr(10): "&#xA;"})} '
                    f'physicalDelay="{a.get("physicalDelay", "0.0")}"/>\n')
        f.write("  </Resources>\n</ModelInformation>\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--out", required=True, help="folder; the loops go to OUT/graft-sSEED")
    p.add_argument("--min-ops", type=int, default=100)
    p.add_argument("--max-ops", type=int, default=3000)
    p.add_argument("--recurrence", type=float, default=0.3,
                   help="probability that a joined loop closes a recurrence with an earlier one (default 0.3)")
    p.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data", "hatschet-msp"))
    p.add_argument("--join", nargs="+", metavar="GRAPH.graphml:RM.xml",
                   help="join these loops, in this order, into one (OUT/graft-sSEED/g0), instead of drawing")
    args = p.parse_args()
    if args.join:
        joined = []
        for item in args.join:
            gpath, _, rmpath = item.rpartition(":")
            joined.append((os.path.basename(gpath)[:-len(".graphml")], gpath, rmpath))
        rng = random.Random(args.seed)
        folder = os.path.join(args.out, f"graft-s{args.seed}")
        os.makedirs(folder, exist_ok=True)
        nodes, edges, resources, _ = graft(rng, [], 0, args.recurrence, joined)
        write_graph(os.path.join(folder, "g0.graphml"), nodes, edges)
        write_resources(os.path.join(folder, "g0_RM.xml"), resources)
        print(f"wrote {folder}/g0.graphml: {len(nodes)} ops, {len(edges)} edges")
        return 0
    pool = shipped(args.data)
    if not pool:
        print(f"hls-graft: no instances under {args.data}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    folder = os.path.join(args.out, f"graft-s{args.seed}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "SOURCES.tsv"), "w") as src:
        src.write("instance\tops\tedges\tjoined\n")
        for n in range(args.count):
            # Log-uniform sizes: as many small loops as large ones per decade, as in CHStone.
            target = int(math.exp(rng.uniform(math.log(args.min_ops), math.log(args.max_ops))))
            nodes, edges, resources, names = graft(rng, pool, target, args.recurrence)
            write_graph(os.path.join(folder, f"g{n}.graphml"), nodes, edges)
            write_resources(os.path.join(folder, f"g{n}_RM.xml"), resources)
            src.write(f"g{n}\t{len(nodes)}\t{len(edges)}\t{','.join(names)}\n")
    print(f"wrote {args.count} loops to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
