"""Settings come from the environment; production refuses to start without its secrets."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_check(env_extra, *args):
    unset = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_production_settings_pass_check_deploy():
    r = run_check(
        {"DEBUG": "false", "SECRET_KEY": "x" * 60 + "-Production-Key-1234567890", "ALLOWED_HOSTS": "zfs.example.com"},
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_production_without_secret_key_fails_loudly():
    r = run_check({"DEBUG": "false", "ALLOWED_HOSTS": "zfs.example.com"})
    assert r.returncode != 0 and "SECRET_KEY must be set" in r.stderr


def test_production_without_allowed_hosts_fails_loudly():
    r = run_check({"DEBUG": "false", "SECRET_KEY": "y" * 64})
    assert r.returncode != 0 and "ALLOWED_HOSTS must be set" in r.stderr


def documented_production_settings():
    """The ``KEY=value`` lines of .env.example's "Production behind a reverse proxy" block."""
    text = (ROOT / ".env.example").read_text()
    block = text.split("# --- Production behind a reverse proxy", 1)[1]
    import re

    return dict(re.findall(r"^#\s+([A-Z_]+)=(\S+)", block, flags=re.M))


def test_the_documented_proxy_settings_pass_the_deploy_checks():
    env = documented_production_settings()
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECURE_SSL_REDIRECT"} <= set(env)
    env["SECRET_KEY"] = "Zq" * 30 + "-documented-production-key"
    env.pop("CACHE_URL")  # no Redis needed for the checks
    r = run_check(env, "--deploy", "--tag", "security", "--fail-level", "WARNING")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout
