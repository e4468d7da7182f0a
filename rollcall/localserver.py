"""Start-up helpers for servers that tests and benchmarks run on this machine."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 20) -> None:
    """Return once `process` listens on `port`; raise if it exits or never listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited early; see its log")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not listen on port {port}")


def start_redis(port: int, directory: str) -> subprocess.Popen:
    """A private redis-server on `port` that keeps nothing on disk, for tests that stop
    and restart Redis without touching a shared one."""
    server = shutil.which("redis-server")
    if server is None:
        raise RuntimeError("redis-server is not installed")
    process = subprocess.Popen(  # noqa: S603 - fixed arguments, no shell
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            directory,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, process)
    return process


def start_daphne(port: int, env: dict[str, str], log_path: str, cwd: str) -> subprocess.Popen:
    """`daphne rollcall.asgi:application` on `port` with `env`, its output in `log_path`."""
    daphne = str(Path(sys.executable).with_name("daphne"))
    with open(log_path, "ab") as log:
        process = subprocess.Popen(  # noqa: S603 - fixed arguments, no shell
            [
                daphne,
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "--access-log",
                os.devnull,
                "rollcall.asgi:application",
            ],
            cwd=cwd,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    return process


def stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if the process is still there after `timeout` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
