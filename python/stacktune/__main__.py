"""``python -m stacktune ARGS``: the ``stacktune`` command line, run inside this interpreter
(so a wheel install needs no separate binary). It behaves as the binary does: Ctrl-C and a
closed pipe end it as they end the binary, and its exit code is the binary's."""

from __future__ import annotations

import signal
import sys

from ._stacktune import cli


def main() -> int:
    # Python turns SIGINT into KeyboardInterrupt and ignores SIGPIPE; the command line expects
    # neither (a run stopped by Ctrl-C keeps its last checkpoint, `| head` ends it quietly).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    args = sys.argv[1:]
    try:
        args = _define_feature_files(args)
    except Exception as e:  # the file's own error, in the command line's one line
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    return cli(["stacktune", *args])


def _define_feature_files(args: list) -> list:
    """``--feature-file FILE.py`` (Python's alone): every function the file defines becomes a
    board feature of that name, which a run's ``[game] board_features`` may name (the page's
    downloaded run: run.toml and the .py beside it). The other arguments go to the command."""
    rest = []
    while args:
        arg, args = args[0], args[1:]
        if arg == "--feature-file" or arg.startswith("--feature-file="):
            if "=" in arg:
                path = arg.split("=", 1)[1]
            elif args:
                path, args = args[0], args[1:]
            else:
                raise ValueError("--feature-file needs a Python file: --feature-file FILE.py")
            _define_functions_of(path)
        else:
            rest.append(arg)
    return rest


def _define_functions_of(path: str) -> None:
    import inspect
    import os
    import runpy

    from ._stacktune import define_board_feature

    if not os.path.isfile(path):
        raise ValueError(f"--feature-file {path}: no such file")
    try:
        names = runpy.run_path(path)
    except Exception as e:
        raise ValueError(f"--feature-file {path}: {type(e).__name__}: {e}") from None
    here = os.path.abspath(path)
    for name, value in names.items():
        if inspect.isfunction(value) and os.path.abspath(value.__code__.co_filename) == here:
            define_board_feature(name, value)


if __name__ == "__main__":
    sys.exit(main())
