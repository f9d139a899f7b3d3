# mayan, time limit exceeded (Python 3): plain depth-first search.
#
# Tries every move (x, then y, then g = 1 before -1) to depth n and checks
# the board at the end: correct, and it returns the smallest solution, but
# with no pruning and no memo it visits every sequence of n moves. A dense
# n = 5 board has ~25 blocks, so ~50 moves a level and ~3 * 10^8 sequences
# when there is no solution: hours in Python against a limit of seconds.
# TLE on the `hard` profile (small n and sparse boards pass).
import sys

W, H = 5, 7


def simulate(columns, x, y, g):
    """The board after dragging (x, y) by g, as a new list of columns."""
    columns = [list(column) for column in columns]
    target = columns[x + g]
    if y < len(target):
        columns[x][y], target[y] = target[y], columns[x][y]
    else:
        target.append(columns[x].pop(y))
    while True:
        grid = [[columns[i][j] if j < len(columns[i]) else 0 for j in range(H)] for i in range(W)]
        gone = set()
        for i in range(W):
            for j in range(H):
                c = grid[i][j]
                if c and i + 2 < W and grid[i + 1][j] == c and grid[i + 2][j] == c:
                    gone |= {(i, j), (i + 1, j), (i + 2, j)}
                if c and j + 2 < H and grid[i][j + 1] == c and grid[i][j + 2] == c:
                    gone |= {(i, j), (i, j + 1), (i, j + 2)}
        if not gone:
            return columns
        columns = [[grid[i][j] for j in range(len(columns[i])) if (i, j) not in gone] for i in range(W)]


def search(columns, left, path):
    if left == 0:
        return not any(columns)
    for x in range(W):
        for y in range(len(columns[x])):
            for g in (1, -1):
                if 0 <= x + g < W:
                    path.append((x, y, g))
                    if search(simulate(columns, x, y, g), left - 1, path):
                        return True
                    path.pop()
    return False


def main():
    tokens = list(map(int, sys.stdin.read().split()))
    n = tokens[0]
    columns = []
    pos = 1
    for _ in range(W):
        end = tokens.index(0, pos)
        columns.append(tokens[pos:end])
        pos = end + 1
    path = []
    if search(columns, n, path):
        print("\n".join("%d %d %d" % move for move in path))
    else:
        print(-1)


main()
