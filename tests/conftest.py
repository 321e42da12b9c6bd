"""The fixed cast every access test uses.

Team "alpha": alice is the owner, erin an editor, bob a viewer.
Team "beta": charlie is the owner and has nothing to do with alpha.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tests.factories import MembershipFactory, TeamFactory, UserFactory
from zfsplanner.accounts.models import Role

SAMPLES = Path(__file__).resolve().parent / "parsers" / "samples"

# No property test depends on the machine's speed: no deadline per example, and no health check that
# fails a test because generating its inputs was slow on a busy machine (a test's own @settings may
# add to this).
hypothesis_settings.register_profile("zfsplanner", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("zfsplanner")


@pytest.fixture
def team(db):
    return TeamFactory(name="Alpha", slug="alpha")


@pytest.fixture
def other_team(db):
    return TeamFactory(name="Beta", slug="beta")


@pytest.fixture
def alice(team):
    return MembershipFactory(team=team, user=UserFactory(username="alice"), role=Role.OWNER).user


@pytest.fixture
def erin(team):
    return MembershipFactory(team=team, user=UserFactory(username="erin"), role=Role.EDITOR).user


@pytest.fixture
def bob(team):
    return MembershipFactory(team=team, user=UserFactory(username="bob"), role=Role.VIEWER).user


@pytest.fixture
def charlie(other_team):
    return MembershipFactory(team=other_team, user=UserFactory(username="charlie"), role=Role.OWNER).user


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def client_for():
    """client_for(user) -> an APIClient logged in (session) as that user."""

    def make(user):
        c = APIClient()
        c.force_login(user)
        return c

    return make


@pytest.fixture
def web():
    """web(user) -> a browser-like test Client logged in as that user; web() an anonymous one.
    Keyword arguments go to the Client (e.g. enforce_csrf_checks=True)."""
    from django.test import Client

    def make(user=None, **client_options):
        c = Client(**client_options)
        if user is not None:
            c.force_login(user)
        return c

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Passwords made in tests are hashed with MD5 (PBKDF2's million rounds cost a third of a second
    per user); the real hashers stay in the list, so their hashes still verify."""
    from django.conf import global_settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate limits (failed log-ins, API throttles) are counted in the cache: every test starts at zero."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _celery_mode(request):
    """Tasks run in-process except in tests marked ``services``, which use the real broker.

    The settings are read with the ``CELERY_`` namespace, so that is the key Celery consults.
    """
    from zfsplanner.celery import app

    old = app.conf.CELERY_TASK_ALWAYS_EAGER
    uses_broker = request.node.get_closest_marker("services") is not None
    app.conf.CELERY_TASK_ALWAYS_EAGER = not (uses_broker and settings.CELERY_BROKER_URL)
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = old


@pytest.fixture
def celery_worker_process(transactional_db):
    """A real ``celery worker`` process on the configured broker and the test database.

    Tests using it must be marked ``services`` and commit their data (transactional_db)
    so the worker, a separate process, sees it.
    """
    if not settings.CELERY_BROKER_URL:
        pytest.fail("CELERY_BROKER_URL is not set: the services suite needs Redis (see .ci/run)")
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        pytest.fail("DATABASE_URL is not set: the services suite needs PostgreSQL (see .ci/run)")
    from django.db import connection

    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env["MEDIA_ROOT"] = str(settings.MEDIA_ROOT)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "zfsplanner", "worker", "--pool=solo", "--loglevel=INFO",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"test-{os.getpid()}@%h"],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    from zfsplanner.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"celery worker exited early:\n{proc.stdout.read()}")
        replies = app.control.ping(timeout=1.0) or []
        if any(f"test-{os.getpid()}@" in name for reply in replies for name in reply):
            break
    else:
        proc.kill()
        pytest.fail("celery worker did not answer a ping within 60 s")
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
