"""daphne under cProfile, every thread of it (the event loop's and Django's database
thread): the profiling wrapper bench/table_load.py runs with BENCH_DAPHNE.

    BENCH_DAPHNE=bench/profile_server.py PROFILE_OUT=/tmp/roll.prof \
        .venv/bin/python bench/table_load.py --campaigns 125 --rate 1 --duration 20

The profile leaves out the start-up (sockets opening, the warm-up rolls): table_load
sends SIGUSR1 when its measured window starts, which clears what was gathered so far;
the stats of all threads, merged, are written to PROFILE_OUT when the server stops. Read them with
`python -m pstats /tmp/roll.prof` or bench/profile_server.py --report /tmp/roll.prof.
"""

from __future__ import annotations

import atexit
import cProfile
import os
import pstats
import signal
import sys
import threading
import time

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _start_here() -> cProfile.Profile:
    profile = cProfile.Profile(time.thread_time)  # CPU time: waits for the GIL are not counted
    with _lock:
        _profiles.append(profile)
    profile.enable()
    return profile


def _in_new_thread(frame, event, arg):  # threading.setprofile: first call in a thread
    sys.setprofile(None)
    _start_here()


def _clear(signum, frame) -> None:
    with _lock:
        for profile in _profiles:
            profile.clear()


def _dump() -> None:
    with _lock:
        for profile in _profiles:
            profile.disable()
        stats = pstats.Stats(_profiles[0])
        for profile in _profiles[1:]:
            try:
                stats.add(profile)
            except TypeError:  # a thread that never ran anything
                pass
    stats.dump_stats(os.environ.get("PROFILE_OUT", "server.prof"))


def report(path: str, limit: int = 45) -> None:
    stats = pstats.Stats(path)
    stats.sort_stats("cumulative").print_stats(limit)
    stats.sort_stats("tottime").print_stats(limit)


def main() -> None:
    if sys.argv[1:2] == ["--report"]:
        report(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 45)
        return
    from daphne.cli import CommandLineInterface

    threading.setprofile(_in_new_thread)
    signal.signal(signal.SIGUSR1, _clear)
    atexit.register(_dump)  # daphne stops on SIGTERM and exits
    _start_here()
    sys.argv[0] = "daphne"
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
