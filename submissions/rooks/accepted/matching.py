# rooks, accepted (Python 3): maximum bipartite matching, Hopcroft-Karp.
#
# A rook occupies one maximal run of empty cells in its row and one in its
# column, and two rooks attack exactly when they share such a run. So a
# placement is a matching between row runs and column runs (an empty cell is
# the edge joining its two runs) and the answer is a maximum matching.
# Hopcroft-Karp keeps the number of phases near sqrt(V), which Python needs
# for n = 100; the augmenting search is iterative because a path can be
# longer than Python's recursion limit.
import sys


def max_matching(adj, right_count):
    left_count = len(adj)
    match_left = [-1] * left_count
    match_right = [-1] * right_count
    size = 0
    # A greedy start leaves few augmenting paths for the phases below.
    for u in range(left_count):
        for v in adj[u]:
            if match_right[v] < 0:
                match_left[u] = v
                match_right[v] = u
                size += 1
                break
    INF = 1 << 30
    while True:
        # BFS from every free left vertex, layering the graph.
        dist = [INF] * left_count
        queue = [u for u in range(left_count) if match_left[u] < 0]
        for u in queue:
            dist[u] = 0
        found = False
        head = 0
        while head < len(queue):
            u = queue[head]
            head += 1
            for v in adj[u]:
                w = match_right[v]
                if w < 0:
                    found = True
                elif dist[w] == INF:
                    dist[w] = dist[u] + 1
                    queue.append(w)
        if not found:
            return size
        # DFS along the layers, one vertex-disjoint augmenting path per root.
        pos = [0] * left_count
        for root in range(left_count):
            if match_left[root] >= 0:
                continue
            stack = [root]
            while stack:
                u = stack[-1]
                edges = adj[u]
                advanced = False
                while pos[u] < len(edges):
                    v = edges[pos[u]]
                    pos[u] += 1
                    w = match_right[v]
                    if w < 0:
                        # Augment along the stack: each vertex takes the edge
                        # it last tried.
                        for x in reversed(stack):
                            target = adj[x][pos[x] - 1]
                            match_left[x] = target
                            match_right[target] = x
                        size += 1
                        stack = []
                        advanced = True
                        break
                    if dist[w] == dist[u] + 1:
                        stack.append(w)
                        advanced = True
                        break
                if not advanced:
                    dist[u] = INF  # dead end for the rest of this phase
                    stack.pop()


def main():
    tokens = sys.stdin.read().split()
    pos = 0
    out = []
    while pos < len(tokens):
        n = int(tokens[pos])
        pos += 1
        if n == 0:
            break
        board = tokens[pos:pos + n]
        pos += n
        row_run = [[-1] * n for _ in range(n)]
        col_run = [[-1] * n for _ in range(n)]
        rows = cols = 0
        for r in range(n):
            line = board[r]
            for c in range(n):
                if line[c] == '.':
                    if c > 0 and line[c - 1] == '.':
                        row_run[r][c] = row_run[r][c - 1]
                    else:
                        row_run[r][c] = rows
                        rows += 1
                    if r > 0 and board[r - 1][c] == '.':
                        col_run[r][c] = col_run[r - 1][c]
                    else:
                        col_run[r][c] = cols
                        cols += 1
        adj = [[] for _ in range(rows)]
        for r in range(n):
            for c in range(n):
                if board[r][c] == '.':
                    adj[row_run[r][c]].append(col_run[r][c])
        out.append(str(max_matching(adj, cols)))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
