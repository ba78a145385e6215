"""Worker processes that play the games of a game written in Python (``stacktune.custom``).

Each worker is a fresh interpreter (``python -m stacktune._workers``) that is sent the game's
class by value (cloudpickle: a class of a notebook cell or ``python -c`` needs no module to be
found in), so it never imports the caller's script: a script needs no ``if __name__ ==
"__main__":`` guard. Workers run in a session of their own, so Ctrl-C at the terminal (SIGINT
to the process group) reaches only the caller, which stops them. A worker ends with the process
that started it, however that ends (SIGKILL too): on Linux the kernel kills it
(``PR_SET_PDEATHSIG``), and everywhere its reader thread ends it at the end of its standard input,
which the caller's death closes. The caller hears of a worker
that dies (a crash, ``os._exit``, the out-of-memory killer) as soon as its pipe closes, and of
a batch that runs past its time limit, and ends the call with a one-line ``GameError``.

Messages are pickles framed by their length, on the worker's standard input and a duplicate
of its standard output (its own standard output goes to standard error, so that a game's
``print`` cannot break the framing).
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import Any, BinaryIO, Callable, List, Optional, Sequence, Tuple

# The standard library only, up here: cloudpickle and the games' own code (``._greedy``, with
# numpy) are imported where they are used, so that a worker imports them once the caller's
# import path is set (``_serve``), from where the caller finds them.

_LENGTH = struct.Struct("<Q")

# How long the caller waits between two looks at the clock and for Ctrl-C.
_SLICE = 0.1


def _send(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    """The next message, or ``None`` at the end of the stream."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (length,) = _LENGTH.unpack(head)
    data = stream.read(length)
    if len(data) < length:
        return None
    return pickle.loads(data)


def _exit_reason(code: Optional[int]) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


# A chunk of games (candidates, (candidate, seed) index pairs, seeds, move cap), a game's
# trace ("trace", seed, moves) or a game's text frames ("frames", weights, seed, move cap).
Task = Tuple[Any, ...]


def _is_one_game(task: Task) -> bool:
    """Whether ``task`` is one game (a trace or frames), not a chunk of games."""
    return isinstance(task[0], str)


class Workers:
    """``count`` worker processes playing games made by ``make`` (the game named ``name``)."""

    def __init__(self, count: int, make: Callable[[], Any], name: str) -> None:
        import cloudpickle

        from ._greedy import GameError

        self.name = name
        try:
            payload = cloudpickle.dumps(make)
        except Exception as e:
            raise GameError(
                f"game {name}: the game cannot be sent to worker processes ({type(e).__name__}: "
                f"{e}); play with workers=1 and no time_limit"
            ) from None
        options: dict = {}
        if os.name == "posix":
            options["start_new_session"] = True
        else:  # pragma: no cover (Windows)
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        self.inbox: "queue.Queue[Tuple[int, Any]]" = queue.Queue()
        self.processes: List[subprocess.Popen] = []
        self.readers: List[threading.Thread] = []
        try:
            for index in range(count):
                process = subprocess.Popen(
                    [sys.executable, "-m", "stacktune._workers", str(os.getpid())],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    **options,
                )
                self.processes.append(process)
                reader = threading.Thread(target=self._read, args=(index,), daemon=True)
                reader.start()
                self.readers.append(reader)
                _send(process.stdin, (list(sys.path), payload))
        except BaseException:
            self.close()
            raise

    def _read(self, index: int) -> None:
        stream = self.processes[index].stdout
        while True:
            try:
                message = _receive(stream)
            except Exception:
                message = None
            self.inbox.put((index, message))
            if message is None:
                return

    def map(self, tasks: List[Task], time_limit: Optional[float]) -> List[Any]:
        """Every task's result, in order; a ``GameError`` naming the cause when a worker dies,
        a game breaks the protocol or the batch runs past ``time_limit`` seconds. Any error
        (Ctrl-C's KeyboardInterrupt too) stops the workers."""
        try:
            return self._map(tasks, time_limit)
        except BaseException:
            self.close()
            raise

    def _map(self, tasks: List[Task], time_limit: Optional[float]) -> List[Any]:
        from ._greedy import GameError

        results: List[Any] = [None] * len(tasks)
        idle = list(range(len(self.processes)))[::-1]
        busy: dict = {}
        sent = done = 0
        deadline = None if time_limit is None else time.monotonic() + time_limit
        while done < len(tasks):
            while idle and sent < len(tasks):
                worker = idle.pop()
                busy[worker] = sent
                try:
                    _send(self.processes[worker].stdin, tasks[sent])
                except OSError:
                    pass  # It died: its reader says so.
                sent += 1
            wait = _SLICE if deadline is None else max(0.0, min(_SLICE, deadline - time.monotonic()))
            try:
                worker, message = self.inbox.get(timeout=wait)
            except queue.Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    pairs = sum(1 if _is_one_game(task) else len(task[1]) for task in tasks)
                    raise GameError(
                        f"game {self.name}: a batch of {pairs} games ran past time_limit="
                        f"{time_limit:g} s (a play() that never returns, or a game whose done() "
                        f"is never true?); raise time_limit, or play one with play_game to see"
                    ) from None
                continue
            if message is None:
                raise GameError(self._died(worker, tasks[busy[worker]] if worker in busy else None))
            kind, value = message
            if kind == "ok":
                results[busy.pop(worker)] = value
                idle.append(worker)
                done += 1
            elif kind == "game":
                raise GameError(value)
            else:
                error, text = value
                if error is not None:
                    raise pickle.loads(error)
                raise GameError(f"game {self.name}: {text}")
        return results

    def _died(self, worker: int, task: Optional[Task]) -> str:
        process = self.processes[worker]
        try:
            code = process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        what = ""
        if task is not None and not _is_one_game(task):
            (candidate, seed), seeds = task[1][0], task[2]
            more = len(task[1]) - 1
            what = f" while it played candidate {candidate} on seed {seeds[seed]}" + (
                f" (and {more} more games)" if more else ""
            )
        return (
            f"game {self.name}: worker process {process.pid} died ({_exit_reason(code)}){what}; "
            f"play those games with workers=1 to see why (a crash in the game, os._exit, or the "
            f"out-of-memory killer)"
        )

    def close(self) -> None:
        """Stops every worker (those busy with a game too) and waits for them to end."""
        for process in self.processes:
            if process.poll() is None:
                process.kill()
        for process in self.processes:
            for stream in (process.stdin, process.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            process.wait()
        for reader in self.readers:
            reader.join(timeout=5)
        self.processes, self.readers = [], []


def _die_with(parent: int) -> None:
    """Asks Linux to kill this worker when its parent ends (a caller killed by SIGKILL cannot
    stop it), then checks that the parent did not end before the asking; elsewhere the reader
    thread of ``_serve`` does this at the end of standard input."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    PR_SET_PDEATHSIG = 1
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(0)


def _requests(stream: BinaryIO) -> "queue.Queue[Any]":
    """The caller's tasks, read by a thread of their own, which ends the worker at the end of
    the stream (the caller closed it, or ended, however): a worker busy with a game that never
    ends stops too."""
    tasks: "queue.Queue[Any]" = queue.Queue()

    def read() -> None:
        while True:
            task = _receive(stream)
            if task is None:
                os._exit(0)
            tasks.put(task)

    threading.Thread(target=read, daemon=True).start()
    return tasks


def _serve(parent: int) -> None:
    """A worker's life: the game's maker and the caller's import path, then tasks until the
    caller closes standard input or ends."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    setup = _receive(requests)
    if setup is None:
        return
    path, payload = setup
    sys.path[:] = path
    # Imported before the reader thread starts: its unpickling imports numpy too, and numpy
    # imported by two threads at once can fail half-initialised (a worker died so under load).
    import cloudpickle

    import numpy as np

    from ._greedy import GameError, _frames, _trace, play_game

    tasks = _requests(requests)

    def reply(kind: str, value: Any) -> None:
        _send(replies, (kind, value))

    try:
        make = cloudpickle.loads(payload)
    except Exception as e:
        reply("raise", (None, f"the game cannot be made in a worker process: {type(e).__name__}: {e}"))
        return
    while True:
        task = tasks.get()
        try:
            # A fresh game a task: the games do not depend on which worker plays them.
            game = make()
            kind = task[0] if _is_one_game(task) else "chunk"
            if kind == "trace":
                reply("ok", _trace(game, task[1], task[2]))
                continue
            if kind == "frames":
                _, weights, seed, max_moves = task
                reply("ok", _frames(game, np.asarray(weights, dtype=np.float64), seed, max_moves))
                continue
            candidates, pairs, seeds, max_moves = task
            reply("ok", [play_game(game, candidates[c], seeds[s], max_moves) for c, s in pairs])
        except GameError as e:
            reply("game", str(e))
        except Exception as e:
            try:
                error: Optional[bytes] = cloudpickle.dumps(e)
            except Exception:
                error = None
            reply("raise", (error, f"{type(e).__name__}: {e}"))


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
