def bumps(board):
    """How uneven the surface is: the height differences of neighbouring columns, summed.
    board: rows top first; 0 empty, colours 1 to 5, nuisance 6."""
    rows, columns = len(board), len(board[0])
    heights = []
    for c in range(columns):
        height = 0
        for r in range(rows):
            if board[r][c] != 0:
                height = rows - r
                break
        heights.append(height)
    return sum(abs(heights[c + 1] - heights[c]) for c in range(columns - 1))
