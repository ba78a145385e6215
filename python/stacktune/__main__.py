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
    sys.stdout.flush()
    return cli(["stacktune", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
