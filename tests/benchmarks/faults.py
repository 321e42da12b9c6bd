"""Real outages on loopback for the fault tests: a private Redis to stop and start, a TCP proxy in
front of PostgreSQL that cuts the worker off the database, and a Celery worker process.

Everything listens on 127.0.0.1 only, and every process started here is stopped by its own id.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{what}: not within {timeout} s")


class RedisServer:
    """A throw-away redis-server on a free loopback port (no persistence: a restart loses the queue)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._ping, 10, f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a target; ``stop()`` refuses new connections and cuts the open ones."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(64)
        self._listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                _close(sock)

    def stop(self) -> None:
        if self._listener is not None:
            _close(self._listener)
            self._listener = None
        with self._lock:
            for sock in self._conns:
                _close(sock)
            self._conns.clear()


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


def database_url(settings_dict: dict, host: str | None = None, port: int | None = None) -> str:
    d = settings_dict
    return (
        f"postgres://{d['USER']}:{d['PASSWORD'] or ''}@{host or d['HOST'] or '127.0.0.1'}:"
        f"{port or d['PORT'] or 5432}/{d['NAME']}"
    )


class Worker:
    """``celery worker`` (prefork pool, embedded beat) in its own process group, logging to a file."""

    def __init__(self, log: Path, env: dict[str, str], name: str) -> None:
        self.log = log
        self.env = env
        self.name = name
        self.proc: subprocess.Popen | None = None

    def start(self, app) -> None:
        schedule = self.log.with_suffix(".schedule")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "zfsplanner", "worker", "--pool=prefork", "--concurrency=1",
                 "--beat", f"--schedule={schedule}", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                 "-n", self.name],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def answers() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"celery worker exited early:\n{self.output()}")
            replies = app.control.ping(timeout=1.0) or []
            return any(self.name.split("@")[0] in name for reply in replies for name in reply)

        wait_for(answers, 60, "the celery worker answering a ping")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.proc = None
