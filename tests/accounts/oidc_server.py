"""A real OpenID Connect provider for the tests: the ``oidc-provider-mock`` server in its own process."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import requests


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def oidc_provider() -> Iterator[str]:
    """Start the provider on a free port; yield its issuer URL once it answers its discovery document."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    issuer = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:  # wait for the server to answer, not for a fixed time
            if proc.poll() is not None:
                raise RuntimeError(f"the OpenID Connect provider exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                if requests.get(f"{issuer}/.well-known/openid-configuration", timeout=1).ok:
                    break
            except requests.ConnectionError:
                if time.monotonic() > deadline:
                    raise
        yield issuer
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def set_user(issuer: str, sub: str, **claims: object) -> None:
    """The provider's user ``sub`` with these claims (email, email_verified, groups …)."""
    requests.put(f"{issuer}/users/{sub}", json=claims, timeout=5).raise_for_status()


def authorize(location: str, sub: str) -> str:
    """Answer the provider's log-in form as ``sub``; the redirect back to the app."""
    r = requests.post(location, data={"sub": sub}, allow_redirects=False, timeout=5)
    assert r.status_code in (302, 303), r.text[:500]
    return r.headers["Location"]


def use_provider(settings, issuer: str) -> None:
    """Configure the app (pytest-django's ``settings``) as OIDC_* does for one provider, "Corp SSO" (id
    ``corp``), whose ``storage-admins`` group makes editors of the team ``storage``."""
    from zfsplanner.accounts import sso_config

    providers = [sso_config.OidcProvider("corp", "Corp SSO", issuer, "zfsplanner", "s3cret")]
    settings.OIDC_PROVIDERS = providers
    settings.SOCIALACCOUNT_PROVIDERS = sso_config.socialaccount_providers(providers, "openid profile email")
    settings.CSP_FORM_ACTION_ORIGINS = sso_config.origins(providers)
    settings.SSO_GROUP_TEAMS = sso_config.group_teams('{"storage-admins": {"team": "storage", "role": "editor"}}')
