# matchsticks, accepted (Python 3): full game-tree search with memoisation.
#
# A position is won for the player to move iff some legal placement leaves a
# lost position; no legal placement means lost (no passing). The board has
# 12 cells, so positions fit in two 12-bit masks (horizontal, vertical) and
# the memo, shared by all k positions of a test, stays within the few
# hundred thousand positions reachable on a 3 x 4 board. It prints a winning
# move when there is one and otherwise any legal move, which the statement
# accepts ("if every move loses against perfect play, every legal move is
# accepted").
import sys

ROWS, COLS = 3, 4


def legal_moves(h, v):
    """Placements as (row, col, char, new_h, new_v), row-major, '-' first."""
    occupied = h | v
    moves = []
    for r in range(ROWS):
        for c in range(COLS):
            bit = 1 << (r * COLS + c)
            if occupied & bit:
                continue
            # Horizontal: the nearest stick on each side in the row must not
            # be horizontal (a vertical one in between breaks the link).
            ok = True
            for step in (-1, 1):
                k = c + step
                while 0 <= k < COLS:
                    b = 1 << (r * COLS + k)
                    if h & b:
                        ok = False
                        break
                    if v & b:
                        break
                    k += step
                if not ok:
                    break
            if ok:
                moves.append((r, c, '-', h | bit, v))
            ok = True
            for step in (-1, 1):
                k = r + step
                while 0 <= k < ROWS:
                    b = 1 << (k * COLS + c)
                    if v & b:
                        ok = False
                        break
                    if h & b:
                        break
                    k += step
                if not ok:
                    break
            if ok:
                moves.append((r, c, '1', h, v | bit))
    return moves


memo = {}


def wins(h, v):
    key = (h << 12) | v
    result = memo.get(key)
    if result is None:
        result = False
        for move in legal_moves(h, v):
            if not wins(move[3], move[4]):
                result = True
                break
        memo[key] = result
    return result


def main():
    tokens = sys.stdin.read().split()
    k = int(tokens[0])
    out = []
    for i in range(k):
        rows = tokens[1 + 3 * i: 4 + 3 * i]
        h = v = 0
        for r in range(ROWS):
            for c in range(COLS):
                if rows[r][c] == '-':
                    h |= 1 << (r * COLS + c)
                elif rows[r][c] == '1':
                    v |= 1 << (r * COLS + c)
        moves = legal_moves(h, v)
        chosen = moves[0]
        for move in moves:
            if not wins(move[3], move[4]):
                chosen = move
                break
        out.append("%d%d%s" % chosen[:3])
    print("\n".join(out))


main()
