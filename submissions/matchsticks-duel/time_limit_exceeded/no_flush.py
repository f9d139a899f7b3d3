# matchsticks-duel, time limit exceeded (Python 3): the right moves, but
# never flushed. They go to a block buffer of its own (64 KiB, which no
# Python implementation flushes when the program reads: PyPy flushes
# sys.stdout before a read of sys.stdin), so the judge waits for the move
# and the program waits for the judge's answer.
import io
import sys

out = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 1 << 16))

ROWS, COLS = 3, 4


def legal_moves(h, v):
    occupied = h | v
    moves = []
    for r in range(ROWS):
        for c in range(COLS):
            bit = 1 << (r * COLS + c)
            if occupied & bit:
                continue
            for char, own, other, line in (('-', h, v, [(r, k) for k in range(COLS)]),
                                           ('1', v, h, [(k, c) for k in range(ROWS)])):
                at = c if char == '-' else r
                ok = True
                for step in (-1, 1):
                    k = at + step
                    while 0 <= k < len(line):
                        b = 1 << (line[k][0] * COLS + line[k][1])
                        if own & b:
                            ok = False
                            break
                        if other & b:
                            break
                        k += step
                    if not ok:
                        break
                if ok:
                    if char == '-':
                        moves.append((r, c, char, h | bit, v))
                    else:
                        moves.append((r, c, char, h, v | bit))
    return moves


memo = {}


def wins(h, v):
    key = (h << 12) | v
    result = memo.get(key)
    if result is None:
        result = any(not wins(m[3], m[4]) for m in legal_moves(h, v))
        memo[key] = result
    return result


def apply(h, v, r, c, d):
    bit = 1 << (r * COLS + c)
    return (h | bit, v) if d == '-' else (h, v | bit)


def main():
    k = int(sys.stdin.readline())
    boards = []
    for _ in range(k):
        h = v = 0
        for r in range(ROWS):
            row = sys.stdin.readline().strip()
            for c in range(COLS):
                if row[c] == '-':
                    h |= 1 << (r * COLS + c)
                elif row[c] == '1':
                    v |= 1 << (r * COLS + c)
        boards.append((h, v))
    for h, v in boards:
        while True:
            moves = legal_moves(h, v)
            chosen = next((m for m in moves if not wins(m[3], m[4])), moves[0])
            out.write("%d %d %s\n" % chosen[:3])
            h, v = chosen[3], chosen[4]
            reply = sys.stdin.readline().split()
            if not reply or reply[0] in ("win", "lose"):
                break
            h, v = apply(h, v, int(reply[0]), int(reply[1]), reply[2])


main()
