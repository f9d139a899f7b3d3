# rooks, wrong answer (Python 3): ignores walls.
#
# Treats every X as if rooks could see through it: two rooks in the same row
# or column always attack. It still places rooks on empty cells only, so the
# answer becomes a matching between whole rows and whole columns (at most n)
# instead of between wall-delimited runs. Fast, and right on boards without a
# wall that matters, but WA on board 1 of the sample: `.X.. / .... / XX.. /
# ....` holds 5 rooks (the X in row 0 separates two), this prints 4.
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
        board = tokens[pos:pos + n]
        pos += n
        match_col = [-1] * n  # column -> row holding its rook

        def augment(r, seen):
            for c in range(n):
                if board[r][c] == '.' and not seen[c]:
                    seen[c] = True
                    if match_col[c] < 0 or augment(match_col[c], seen):
                        match_col[c] = r
                        return True
            return False

        count = sum(1 for r in range(n) if augment(r, [False] * n))
        out.append(str(count))
    print("\n".join(out))


main()
