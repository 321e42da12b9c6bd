"""Faults against the real stack: a Celery worker process, Redis and PostgreSQL.

Each test breaks one piece the way production breaks it — the pool process killed in the
middle of a parse (the OOM killer), the broker stopped when the file is uploaded, the
database gone for longer than the task's retries last — and then waits, with no human
action, until every upload is parsed, exactly once.

The broker is a private redis-server on a free loopback port (so stopping it disturbs no
one), and the worker reaches PostgreSQL through a loopback TCP proxy (so the outage is the
worker's alone: the test's own connection stays up to watch).
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from benchmarks.models import BENCHMARK_LOGS, BenchResult, BenchRun, BenchSeries, BenchUpload, UploadStatus
from tests.benchmarks.conftest import CDM_CRUCIAL, CDM_WD, FIO_JSON
from tests.benchmarks.faults import RedisServer, TcpProxy, Worker, database_url, wait_for
from zfsplanner.celery import app

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

URL = "/api/benchmark-uploads/"


@pytest.fixture
def broker(tmp_path, monkeypatch):
    """A private Redis; the test process publishes to it too."""
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is not set: the services suite needs PostgreSQL (see .ci/run)")
    redis = RedisServer(tmp_path)
    redis.start()
    old_url, old_eager = app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER
    monkeypatch.setenv("CELERY_BROKER_URL", redis.url)  # Celery reads the variable before its settings
    app.conf.CELERY_BROKER_URL = redis.url
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app._after_fork()  # forget pooled connections to any other broker
    assert app.connection_for_write().as_uri() == redis.url
    yield redis
    app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER = old_url, old_eager
    app._after_fork()
    redis.stop()


@pytest.fixture
def db_proxy():
    d = connection.settings_dict
    proxy = TcpProxy(d["HOST"] or "127.0.0.1", int(d["PORT"] or 5432))
    proxy.start()
    yield proxy
    proxy.stop()


@pytest.fixture
def start_worker(broker, tmp_path, settings):
    started: list[Worker] = []

    def start(db_port: int | None = None, **env_extra: str) -> Worker:
        env = dict(os.environ)
        env.update(
            {
                "CELERY_BROKER_URL": broker.url,
                "DATABASE_URL": database_url(connection.settings_dict, port=db_port),
                "MEDIA_ROOT": str(settings.MEDIA_ROOT),
                "BENCHMARK_SWEEP_INTERVAL": "1",
            }
        )
        env.update(env_extra)
        worker = Worker(tmp_path / f"worker-{len(started)}.log", env, f"faults-{os.getpid()}-{len(started)}@%h")
        started.append(worker)
        worker.start(app)
        return worker

    yield start
    for worker in started:
        worker.stop()


def _upload(client, *files):
    r = client.post(URL, {"team": "alpha", "files": list(files)}, format="multipart")
    assert r.status_code == 201, r.content
    return [u["id"] for u in r.json()["uploads"]]


def _all_done(ids, timeout):
    def done():
        statuses = dict(BenchUpload.objects.filter(pk__in=ids).values_list("pk", "status"))
        failed = {pk: s for pk, s in statuses.items() if s == UploadStatus.FAILED}
        assert not failed, BenchUpload.objects.filter(pk__in=failed).values_list("error", flat=True)
        return all(s == UploadStatus.DONE for s in statuses.values())

    wait_for(done, timeout, f"uploads {ids} parsed", interval=0.25)


def _assert_parsed_exactly_once(ids, attempts=1):
    for upload in BenchUpload.objects.filter(pk__in=ids):
        assert upload.status == UploadStatus.DONE and upload.error == ""
        assert upload.attempts == attempts, (upload.pk, upload.attempts)
        assert BenchRun.objects.filter(upload=upload).count() == 1
        results = BenchResult.objects.filter(run__upload=upload)
        assert results.values("index").distinct().count() == results.count() > 0


def _big_fio_log(lines: int) -> bytes:
    return "".join(f"{t}, {1000 + t % 7}, 0, 4096\n" for t in range(0, lines * 500, 500)).encode()


def test_a_pool_process_killed_mid_parse_is_redelivered_and_parses_once(start_worker, client_for, alice):
    worker = start_worker()
    client = client_for(alice)
    data = _big_fio_log(3_000_000)
    [upload_id] = _upload(client, SimpleUploadedFile("big_bw.1.log", data))

    def mid_parse():
        u = BenchUpload.objects.get(pk=upload_id)
        return u if u.status == UploadStatus.PARSING and u.progress >= 10 else None

    claimed = wait_for(mid_parse, 120, "the parse under way", interval=0.05)
    active = app.control.inspect(timeout=2).active() or {}
    [child_pid] = [t["worker_pid"] for tasks in active.values() for t in tasks if t["id"] == claimed.task_id]
    os.kill(child_pid, signal.SIGKILL)  # what the OOM killer does

    _all_done([upload_id], timeout=180)
    upload = BenchUpload.objects.get(pk=upload_id)
    assert upload.task_id == claimed.task_id  # the same message, delivered again
    assert upload.attempts == 2  # started twice, finished once
    [series] = BenchSeries.objects.filter(run__upload=upload)
    assert series.point_count == 3_000_000
    assert "WorkerLostError" in worker.output() or "exited with 'signal 9" in worker.output()


def test_the_whole_worker_killed_mid_parse_is_parsed_within_two_minutes_of_its_return(
    start_worker, client_for, alice
):
    # The sweep interval and claim timeout are the production defaults, not the suite's 1 s.
    worker = start_worker(BENCHMARK_SWEEP_INTERVAL=str(settings.BENCHMARK_SWEEP_INTERVAL))
    client = client_for(alice)
    [upload_id] = _upload(client, SimpleUploadedFile("big_bw.1.log", _big_fio_log(3_000_000)))

    def mid_parse():
        u = BenchUpload.objects.get(pk=upload_id)
        return u if u.status == UploadStatus.PARSING and u.progress >= 10 else None

    claimed = wait_for(mid_parse, 120, "the parse under way", interval=0.05)
    os.killpg(worker.proc.pid, signal.SIGKILL)  # the worker, its pool and its beat: the machine died
    worker.proc.wait(timeout=10)
    assert BenchUpload.objects.get(pk=upload_id).status == UploadStatus.PARSING  # held by a dead claim

    started = time.monotonic()
    start_worker(BENCHMARK_SWEEP_INTERVAL=str(settings.BENCHMARK_SWEEP_INTERVAL))
    _all_done([upload_id], timeout=120)
    took = time.monotonic() - started
    upload = BenchUpload.objects.get(pk=upload_id)
    assert upload.task_id != claimed.task_id  # taken back from the dead claim and queued anew
    assert upload.attempts == 2 and took < 120, took
    [series] = BenchSeries.objects.filter(run__upload=upload)
    assert series.point_count == 3_000_000
    print(f"parsed {took:.1f} s after the worker's return")


def test_uploads_while_the_broker_is_down_are_parsed_once_it_is_back(broker, start_worker, client_for, alice):
    start_worker(BENCHMARK_PENDING_TIMEOUT="3600")  # only the "not sent" note can bring them back this fast
    client = client_for(alice)
    broker.stop()
    files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in (CDM_WD, CDM_CRUCIAL)]
    ids = _upload(client, *files)  # 201, not 500: the bytes and rows are kept
    for upload in BenchUpload.objects.filter(pk__in=ids):
        assert upload.status == UploadStatus.PENDING and upload.error == BENCHMARK_LOGS.queue_down_note
    assert client.get(f"{URL}{ids[0]}/").json()["error"] == BENCHMARK_LOGS.queue_down_note
    broker.start()  # empty: whatever it held is gone, as after a restart without persistence
    _all_done(ids, timeout=120)
    _assert_parsed_exactly_once(ids)


def test_uploads_while_the_one_redis_of_broker_and_cache_is_down_are_kept_and_parsed_once(
    broker, start_worker, client_for, alice, team, settings
):
    """docker-compose.yml's stack: one Redis is the broker (db 0) and the cache (db 1), sessions
    included. Stopped while files arrive, then started again empty: no upload is refused, and
    each is parsed exactly once with no one clicking anything."""
    from tests.factories import PoolDesignFactory, design_document
    from zfsplanner.imports.models import FILE_LISTINGS, HistogramStatus, HistogramUpload

    cache_url = broker.url.rsplit("/", 1)[0] + "/1"
    settings.CACHES = {"default": {"BACKEND": "zfsplanner.web.cache.RedisCache", "LOCATION": cache_url,
                                   "KEY_PREFIX": "faults"}}
    settings.SESSION_ENGINE = "zfsplanner.web.sessions"
    design = PoolDesignFactory(team=team, name="tank", document=design_document("tank"))
    start_worker(BENCHMARK_PENDING_TIMEOUT="3600", CACHE_URL=cache_url)
    client = client_for(alice)  # logged in while Redis answered: the session is in both stores
    broker.stop()

    ids = []
    for path in (CDM_WD, CDM_CRUCIAL, FIO_JSON):  # one request each, as a browser sends them
        ids += _upload(client, SimpleUploadedFile(path.name, path.read_bytes()))  # 201, not 503
    listing = client.post("/api/histogram-uploads/", {"design": design.pk, "dataset": "tank/data",
                                                      "text": "4096\n131072\n"}, format="json")
    assert listing.status_code == 202, listing.content
    for upload in BenchUpload.objects.filter(pk__in=ids):
        assert upload.status == UploadStatus.PENDING and upload.error == BENCHMARK_LOGS.queue_down_note
    assert HistogramUpload.objects.get().error == FILE_LISTINGS.queue_down_note

    broker.start()  # empty: the queue and the cache are gone, as after a restart without persistence
    _all_done(ids, timeout=120)
    _assert_parsed_exactly_once(ids)
    wait_for(lambda: HistogramUpload.objects.get().status == HistogramStatus.DONE, 60, "the listing bucketed")
    assert HistogramUpload.objects.get().attempts == 1


def test_a_database_outage_longer_than_the_retries_ends_with_every_upload_parsed(
    db_proxy, start_worker, client_for, alice
):
    retries = 3
    worker = start_worker(
        db_port=db_proxy.port,
        BENCHMARK_PARSE_RETRIES=str(retries),
        BENCHMARK_PARSE_RETRY_BACKOFF="0.5",
        BENCHMARK_PARSE_RETRY_BACKOFF_MAX="1",
        BENCHMARK_PENDING_TIMEOUT="3",
    )
    client = client_for(alice)
    db_proxy.stop()  # the worker's database is gone; the test still sees it directly
    files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in (CDM_WD, CDM_CRUCIAL, FIO_JSON)]
    ids = _upload(client, *files)
    # Every task spends its whole retry budget while the outage lasts ...
    wait_for(
        lambda: worker.output().count(f"still unreachable after {retries} retries") >= len(ids),
        90,
        "every task giving up on the database",
    )
    assert set(BenchUpload.objects.filter(pk__in=ids).values_list("status", flat=True)) == {UploadStatus.PENDING}
    # ... and once the database is back, the sweeper queues them again, with no one clicking Retry.
    db_proxy.start()
    _all_done(ids, timeout=120)
    _assert_parsed_exactly_once(ids)


def test_the_services_suite_runs_on_postgresql():
    assert settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
