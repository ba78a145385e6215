"""Reads positions, one JSON object a line on standard input ({"board", "mark", "rows",
"columns", "inarow", "depth", "endgame", "book"}, the board as Kaggle gives it, "endgame" 0
and "book" false when absent), and prints the column the exported agent picks at that fixed
depth with that endgame stage, and its opening book when "book" is true, for each, one a
line: what tests/integration/export.rs compares with stacktune's own choice.

    python3 tests/kaggle/same_column.py submission.py < positions.jsonl
"""

import importlib.util
import json
import sys


def load(path):
    spec = importlib.util.spec_from_file_location("submission", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    submission = load(sys.argv[1])
    out = []
    for line in sys.stdin:
        q = json.loads(line)
        column = submission.choose_column(
            q["board"],
            q["mark"],
            q["rows"],
            q["columns"],
            q["inarow"],
            q["depth"],
            q.get("endgame", 0),
            q.get("book", False),
        )
        out.append(str(column))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
