#!/usr/bin/env python3
"""Extends the precolouring of a Sudoku graph that sudokit exported, with networkx reading it.

Usage: python3 models/tools/colour_graph.py FILE > ANSWER
  FILE: a GraphML file (`sudokit export --to graphml`), an edge list (`--to edges`, with its
  `.given` file beside it), a DIMACS `.col` file (`--to col`) or an hMETIS hypergraph (`--to hgr`:
  the vertices of a hyperedge must differ).
ANSWER: `s col K` and one `l VERTEX COLOUR` line per vertex, or `s UNSATISFIABLE`; read it back
with `sudokit decode PUZZLE --from col ANSWER`.

networkx parses the GraphML and the edge list (the `.col` and `.hgr` files are read here:
networkx has no reader for them). The colouring uses K = sqrt(vertices) colours, given vertices
keep theirs: propagation of single colours (a vertex with one colour left, a colour with one place
left in a K-clique: networkx finds the cliques) and DSATUR-ordered backtracking (the vertex with
the fewest colours left first), everything in vertex order, so the search is the same whatever the
form of the graph and the order of its lines. It shares no code
with sudokit, so a round trip through it checks the exports against an independent reader.
"""
import math
import sys

import networkx as nx


def read(path):
    """The graph (1-based integer vertices) and the precolouring {vertex: colour}."""
    if path.endswith(".graphml"):
        g = nx.read_graphml(path)
        graph = nx.Graph()
        given = {}
        for node, data in g.nodes(data=True):
            v = int(node.lstrip("n"))
            graph.add_node(v)
            if "given" in data:
                given[v] = int(data["given"])
        graph.add_edges_from((int(u.lstrip("n")), int(w.lstrip("n"))) for u, w in g.edges())
        return graph, given
    if path.endswith(".edges"):
        graph = nx.read_edgelist(path, nodetype=int)
        given = {}
        with open(path[: -len(".edges")] + ".given") as f:
            for line in f:
                if line.strip():
                    v, c = map(int, line.split())
                    given[v] = c
        return graph, given
    if path.endswith(".hgr"):
        # hMETIS: '% given V C' comments, the line 'HYPEREDGES VERTICES', then one line of
        # vertices per hyperedge (a unit); vertices sharing a hyperedge must differ.
        graph = nx.Graph()
        given = {}
        header = None
        with open(path) as f:
            for line in f:
                words = line.split()
                if words[:2] == ["%", "given"]:
                    given[int(words[2])] = int(words[3])
                elif not words or words[0].startswith("%"):
                    continue
                elif header is None:
                    header = words
                    graph.add_nodes_from(range(1, int(words[1]) + 1))
                else:
                    vertices = list(map(int, words))
                    graph.add_edges_from(
                        (u, w) for i, u in enumerate(vertices) for w in vertices[i + 1:]
                    )
        return graph, given
    graph = nx.Graph()
    given = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:2] == ["c", "given"]:
                given[int(words[2])] = int(words[3])
            elif words[:1] == ["p"]:
                graph.add_nodes_from(range(1, int(words[2]) + 1))
            elif words[:1] == ["e"]:
                graph.add_edge(int(words[1]), int(words[2]))
    return graph, given


def colour(graph, given):
    """A proper colouring extending `given` with K = sqrt(|V|) colours, or None.

    The K-cliques of the graph (found by networkx: the rows, columns and boxes of a Sudoku graph)
    are where each colour must appear once. Propagation to a fixpoint: a vertex with one colour
    left takes it, and a colour with one vertex left in a K-clique goes there; then DSATUR: branch
    on a vertex with the fewest colours left (ties: the smallest), each colour in turn. Everything
    is ordered by vertex number, so every form of the same graph gets the same search.
    """
    k = math.isqrt(graph.number_of_nodes())
    colours = dict(given)
    for v, c in given.items():
        if any(colours.get(w) == c for w in graph[v]):
            return None
    cliques = sorted(sorted(c) for c in nx.find_cliques(graph) if len(c) == k)
    options = {
        v: set(range(1, k + 1)) - {colours[w] for w in graph[v] if w in colours}
        for v in sorted(graph)
        if v not in colours
    }

    def place(colours, options, v, c):
        colours[v] = c
        del options[v]
        for w in graph[v]:
            if w in options:
                options[w].discard(c)

    def propagate(colours, options):
        """Singles to a fixpoint; False when a vertex or a clique's colour has no place."""
        changed = True
        while changed:
            changed = False
            for v in sorted(options):
                if v not in options:
                    continue
                if not options[v]:
                    return False
                if len(options[v]) == 1:
                    place(colours, options, v, next(iter(options[v])))
                    changed = True
            for clique in cliques:
                placed = {colours[v] for v in clique if v in colours}
                for c in range(1, k + 1):
                    if c in placed:
                        continue
                    spots = [v for v in clique if v in options and c in options[v]]
                    if not spots:
                        return False
                    if len(spots) == 1:
                        place(colours, options, spots[0], c)
                        placed.add(c)
                        changed = True
        return True

    def search(colours, options):
        if not propagate(colours, options):
            return None
        if not options:
            return colours
        v = min(options, key=lambda u: (len(options[u]), u))
        for c in sorted(options[v]):
            branch_colours = dict(colours)
            branch_options = {u: set(s) for u, s in options.items()}
            place(branch_colours, branch_options, v, c)
            found = search(branch_colours, branch_options)
            if found is not None:
                return found
        return None

    return search(colours, options)


def main():
    graph, given = read(sys.argv[1])
    colours = colour(graph, given)
    if colours is None:
        print("s UNSATISFIABLE")
        return
    print(f"s col {math.isqrt(graph.number_of_nodes())}")
    for v in sorted(colours):
        print(f"l {v} {colours[v]}")


if __name__ == "__main__":
    main()
