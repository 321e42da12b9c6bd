"""docker-compose.yml is checked by reading it: no Docker engine runs where the tests do."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def load():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_it_defines_the_five_services():
    assert set(load()["services"]) == {"proxy", "web", "worker", "db", "redis"}


def test_web_serves_with_gunicorn_after_migrating_and_only_the_proxy_reaches_it():
    web = load()["services"]["web"]
    assert "manage.py migrate" in web["command"]
    assert "gunicorn zfsplanner.wsgi:application -c python:zfsplanner.server.gunicorn_config" in web["command"]
    assert "ports" not in web and web["expose"] == ["8000"]
    assert web["environment"]["TRUSTED_PROXY_COUNT"] == "1"


def test_the_proxy_serves_the_site_and_static_files_web_writes_for_it():
    services = load()["services"]
    proxy, web = services["proxy"], services["web"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["ports"] == ["${HTTP_PORT:-8000}:80", "${HTTPS_PORT:-8443}:443"]
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    assert "--output /srv/proxy/default.conf --upstream web:8000 --static-root /srv/static" in web["command"]
    assert {"proxy-conf:/srv/proxy", "static:/srv/static"} <= set(web["volumes"])
    assert {"proxy-conf:/etc/nginx/conf.d:ro", "static:/srv/static:ro"} <= set(proxy["volumes"])


def test_worker_runs_celery_for_the_project():
    assert load()["services"]["worker"]["command"].startswith("celery -A zfsplanner worker")


def test_app_services_point_at_db_and_redis_and_share_the_upload_volume():
    services = load()["services"]
    for name in ("web", "worker"):
        svc = services[name]
        env = svc["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"] == "redis://redis:6379/0"
        assert env["DEBUG"] == "false"
        assert "uploads:/data/media" in svc["volumes"] and env["MEDIA_ROOT"] == "/data/media"
        assert svc["depends_on"]["db"]["condition"] == "service_healthy"
        assert svc["depends_on"]["redis"]["condition"] == "service_healthy"


def test_database_credentials_match_between_db_and_app():
    services = load()["services"]
    db_env = services["db"]["environment"]
    url = services["web"]["environment"]["DATABASE_URL"]
    assert f"{db_env['POSTGRES_USER']}:{db_env['POSTGRES_PASSWORD']}@db:5432/{db_env['POSTGRES_DB']}" in url


def test_every_service_has_a_healthcheck():
    for name, svc in load()["services"].items():
        assert svc.get("healthcheck", {}).get("test"), name


def test_volumes_are_declared():
    assert set(load()["volumes"]) >= {"uploads", "pgdata"}


def test_healthcheck_url_exists(client, db):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_the_worker_runs_the_upload_sweeper_and_gets_time_to_finish_a_parse():
    worker = load()["services"]["worker"]
    assert "--beat" in worker["command"].split()
    assert "--pool=solo" not in worker["command"]  # prefork: a killed parse is redelivered
    assert worker["stop_grace_period"] == "60s"


def test_web_and_worker_share_one_cache_for_estimates_and_rate_limits():
    for name in ("web", "worker"):
        assert load()["services"][name]["environment"]["CACHE_URL"] == "redis://redis:6379/1"


def test_redis_evicts_only_expiring_cache_entries_never_the_broker_queue():
    command = load()["services"]["redis"]["command"]
    assert command[command.index("--maxmemory-policy") + 1] == "volatile-lru"
    assert command[command.index("--maxmemory") + 1].endswith("mb")
