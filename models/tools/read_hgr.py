#!/usr/bin/env python3
"""Reads an hMETIS hypergraph that sudokit exported (`sudokit export --to hgr`) with KaHyPar.

Usage: python3 models/tools/read_hgr.py FILE
Prints `VERTICES HYPEREDGES PINS` as KaHyPar's reader counts them (from PyPI: `pip install
kahypar`), and the size of every hyperedge on the next line. KaHyPar shares no code with
sudokit, so this checks the export against an independent reader of the format.
"""
import sys

import kahypar


def main(path):
    graph = kahypar.createHypergraphFromFile(path, 2)
    print(graph.numNodes(), graph.numEdges(), graph.numPins())
    print(" ".join(str(graph.edgeSize(e)) for e in range(graph.numEdges())))


if __name__ == "__main__":
    main(sys.argv[1])
