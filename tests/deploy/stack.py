"""The production processes on loopback for the serving tests: gunicorn with the app's settings,
Debian's nginx with the site ``zfsplanner.server.proxy`` writes, and moto's S3-compatible server.

Each listens on a free 127.0.0.1 port, runs in its own process group, and is stopped by its own id.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.benchmarks.faults import ROOT, free_port, wait_for

GUNICORN_TIMEOUT = 120
# Each request in gunicorn's access log: status, microseconds the worker spent on it, request line.
ACCESS_FORMAT = '%(s)s %(D)s "%(r)s"'


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:  # noqa: S310 (loopback)
            return bool(r.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def production_env(workdir: Path, **extra: str) -> dict[str, str]:
    """The environment of a production process: DEBUG off, behind one proxy, uploads under ``workdir``."""
    env = dict(os.environ)
    env.update(
        {
            "DEBUG": "false",
            "SECRET_KEY": "serving-tests-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "TRUSTED_PROXY_COUNT": "1",
            "MEDIA_ROOT": str(workdir / "media"),
            "PYTHONPATH": str(ROOT),
        }
    )
    env.update(extra)
    return env


def fio_log(path: Path, size: int) -> Path:
    """A fio bandwidth log of about ``size`` bytes (time, value, direction, block size)."""
    with open(path, "w") as out:
        t = written = 0
        while written < size:
            block = "".join(f"{t + i * 500}, {1000 + (t + i) % 7}, 0, 4096\n" for i in range(10_000))
            out.write(block)
            written += len(block)
            t += 10_000 * 500
    return path


def curl_upload(url: str, key: str, path: Path, out: Path, rate: str | None = None) -> dict[str, float]:
    """POST the file as a benchmark upload of team alpha (at ``rate`` bytes a second); curl's own timings."""
    result = subprocess.run(  # noqa: S603
        ["curl", "-sS", "-o", str(out), *(["--limit-rate", rate] if rate else []), "-H", f"Authorization: Token {key}",
         "-F", "team=alpha", "-F", f"files=@{path};filename=big_bw.1.log",
         "-w", "%{http_code} %{time_pretransfer} %{time_total} %{size_upload}", url],
        capture_output=True, text=True, check=True,
    )
    code, pretransfer, total, sent = result.stdout.split()
    # The answer is a few hundred bytes: nearly all of the time after the connection is the upload.
    return {"status": int(code), "upload_seconds": float(total) - float(pretransfer),
            "total_seconds": float(total), "sent_bytes": float(sent)}


class Gunicorn:
    """``gunicorn zfsplanner.wsgi`` as in docker-compose.yml (its hooks, sync workers), logging each request."""

    def __init__(self, workdir: Path, env: dict[str, str], workers: int = 1, timeout: int = GUNICORN_TIMEOUT):
        self.port = free_port()
        self.workdir = workdir
        self.env = env
        self.workers = workers
        self.timeout = timeout
        self.access_log = workdir / f"gunicorn-{self.port}-access.log"
        self.log = workdir / f"gunicorn-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Gunicorn:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "zfsplanner.wsgi:application",
                 "-c", "python:zfsplanner.server.gunicorn_config", "--bind", f"127.0.0.1:{self.port}",
                 "--workers", str(self.workers), "--timeout", str(self.timeout),
                 "--access-logfile", str(self.access_log), "--access-logformat", ACCESS_FORMAT],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )

        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"gunicorn exited early:\n{self.output()}")
            return _answers(f"{self.url}/healthz")

        wait_for(up, 60, "gunicorn answering /healthz")
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def requests(self) -> list[tuple[int, float, str]]:
        """(status, seconds the worker spent, request line) of every request answered so far."""
        rows = []
        text = self.access_log.read_text() if self.access_log.exists() else ""
        for line in text.splitlines():
            status, micros, request = line.split(" ", 2)
            rows.append((int(status), int(micros) / 1e6, request.strip('"')))
        return rows

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None


class Nginx:
    """Debian's nginx serving the site ``zfsplanner.server.proxy.nginx_site`` writes, in a main config of its own."""

    def __init__(self, workdir: Path, site: str, port: int) -> None:
        self.port = port
        self.workdir = workdir
        self.site = site
        self.proc: subprocess.Popen | None = None

    @staticmethod
    def binary() -> str:
        found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if found is None:
            raise AssertionError("nginx is not installed: apt-get install nginx (.ci/run and `make test` do)")
        return found

    def write_config(self) -> Path:
        (self.workdir / "logs").mkdir(parents=True, exist_ok=True)
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers read files under pytest's private tmp
        conf = self.workdir / "nginx.conf"
        conf.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {self.workdir}/nginx.pid;\n"
            f"error_log {self.workdir}/logs/error.log warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n    include /etc/nginx/mime.types;\n"
            f"    access_log {self.workdir}/logs/access.log;\n"
            f"    proxy_temp_path {self.workdir}/proxy_temp;\n"
            f"{self.site}\n}}\n"
        )
        return conf

    def check(self) -> subprocess.CompletedProcess[str]:
        conf = self.write_config()
        return subprocess.run(  # noqa: S603
            [self.binary(), "-t", "-p", str(self.workdir), "-c", str(conf), "-e", str(self.workdir / "logs/error.log")],
            capture_output=True, text=True, check=False,
        )

    def start(self) -> Nginx:
        conf = self.write_config()
        self.proc = subprocess.Popen(  # noqa: S603
            [self.binary(), "-p", str(self.workdir), "-c", str(conf), "-e", str(self.workdir / "logs/error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )

        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"nginx exited early:\n{(self.workdir / 'logs/error.log').read_text()}")
            return _answers(f"http://127.0.0.1:{self.port}/healthz")

        wait_for(up, 30, "nginx answering /healthz")
        return self

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None


class MotoServer:
    """moto's standalone S3-compatible server (``moto_server``), empty at start."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.log = workdir / f"moto-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MotoServer:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )

        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"moto_server exited early:\n{self.log.read_text()}")
            return _answers(f"{self.url}/moto-api/")

        wait_for(up, 30, "moto_server answering")
        return self

    def stop(self) -> None:
        _stop(self.proc)
        self.proc = None
