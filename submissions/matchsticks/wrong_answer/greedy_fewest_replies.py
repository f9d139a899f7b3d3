# matchsticks, wrong answer (Python 3): the popular greedy player.
#
# For every legal placement it counts the opponent's legal replies and plays
# the placement that leaves the fewest (the first such in row-major order,
# '-' before '1'); zero replies is an immediate win, so it never misses a
# one-move win. It looks only one move ahead, though: in won positions where
# every move that keeps the win leaves the opponent more replies than some
# losing move does, it plays the losing move. The `tricky` profile is made of
# such positions, and the checker says "position P: ... leaves the opponent
# a win: ...": WA.
import sys

ROWS, COLS = 3, 4


def legal(grid, r, c, d):
    if grid[r][c] != '0':
        return False
    dr, dc = (0, 1) if d == '-' else (1, 0)
    for s in (-1, 1):
        y, x = r + s * dr, c + s * dc
        while 0 <= y < ROWS and 0 <= x < COLS:
            if grid[y][x] == d:
                return False
            if grid[y][x] != '0':
                break
            y, x = y + s * dr, x + s * dc
    return True


def moves(grid):
    return [(r, c, d) for r in range(ROWS) for c in range(COLS) for d in '-1'
            if legal(grid, r, c, d)]


def main():
    tokens = sys.stdin.read().split()
    k = int(tokens[0])
    out = []
    for i in range(k):
        grid = [list(row) for row in tokens[1 + 3 * i: 4 + 3 * i]]
        best, best_replies = None, None
        for r, c, d in moves(grid):
            grid[r][c] = d
            replies = len(moves(grid))
            grid[r][c] = '0'
            if best is None or replies < best_replies:
                best, best_replies = (r, c, d), replies
        out.append("%d%d%s" % best)
    print("\n".join(out))


main()
