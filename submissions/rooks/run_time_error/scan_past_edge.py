# rooks, run-time error (Python 3): backtracking whose attack check runs off
# the board.
#
# Looking right and down for a rook, it stops at a wall or at index n instead
# of n - 1 (`k <= n`), so the first scan that reaches the right or bottom edge
# reads board[r][n] and raises IndexError. Every board with a row or column
# that has no wall at its far end triggers it; board 1 of the sample does.
# The uncaught exception makes Python exit with status 1: RE.
import sys


def main():
    tokens = sys.stdin.read().split()
    pos = 0
    out = []
    while pos < len(tokens):
        n = int(tokens[pos])
        pos += 1
        if n == 0:
            break
        board = [list(row) for row in tokens[pos:pos + n]]
        pos += n

        def attacked(r, c):
            k = c - 1
            while k >= 0 and board[r][k] != 'X':
                if board[r][k] == 'R':
                    return True
                k -= 1
            k = c + 1
            while k <= n and board[r][k] != 'X':  # bug: k < n
                if board[r][k] == 'R':
                    return True
                k += 1
            k = r - 1
            while k >= 0 and board[k][c] != 'X':
                if board[k][c] == 'R':
                    return True
                k -= 1
            k = r + 1
            while k <= n and board[k][c] != 'X':  # bug: k < n
                if board[k][c] == 'R':
                    return True
                k += 1
            return False

        best = 0

        def search(cell, placed):
            nonlocal best
            if cell == n * n:
                best = max(best, placed)
                return
            r, c = divmod(cell, n)
            if board[r][c] == '.' and not attacked(r, c):
                board[r][c] = 'R'
                search(cell + 1, placed + 1)
                board[r][c] = '.'
            search(cell + 1, placed)

        search(0, 0)
        out.append(str(best))
    print("\n".join(out))


main()
