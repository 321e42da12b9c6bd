"""Single sign-on configured entirely from the environment, as a deployment sets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'apps': [a['provider_id'] for a in s.SOCIALACCOUNT_PROVIDERS['openid_connect']['APPS']], "
    "'form': list(s.CSP_FORM_ACTION_ORIGINS), 'ldap': s.AUTHENTICATION_BACKENDS[0], "
    "'uri': getattr(s, 'AUTH_LDAP_SERVER_URI', ''), 'header': s.REMOTE_AUTH_HEADER, "
    "'teams': {g: t.team for g, t in s.SSO_GROUP_TEAMS.items()}}))"
)


def start(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OIDC_", "LDAP_", "REMOTE_AUTH_", "SSO_"))}
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**base, "DJANGO_SETTINGS_MODULE": "zfsplanner.settings", **env},
    )


def test_every_provider_is_read_from_the_environment():
    done = start(
        OIDC_ISSUER="https://sso.example.com/realms/example", OIDC_CLIENT_ID="zfsplanner", OIDC_CLIENT_SECRET="x",
        OIDC_NAME="Example SSO", OIDC_ID="corp",
        LDAP_SERVER_URI="ldaps://dc1.example.com", LDAP_USER_SEARCH_BASE="OU=Staff,DC=example,DC=com",
        LDAP_GROUP_SEARCH_BASE="OU=Groups,DC=example,DC=com", LDAP_GROUP_TYPE="nestedActiveDirectory",
        REMOTE_AUTH_HEADER="Remote-User", REMOTE_AUTH_TRUSTED_PROXIES="10.0.0.5",
        SSO_GROUP_TEAMS='{"Storage": {"team": "storage", "role": "editor"}}',
    )
    assert done.returncode == 0, done.stderr[-2000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown == {
        "apps": ["corp"], "form": ["https://sso.example.com"], "ldap": "django_auth_ldap.backend.LDAPBackend",
        "uri": "ldaps://dc1.example.com", "header": "Remote-User", "teams": {"storage": "storage"},
    }


def test_nothing_is_on_by_default():
    done = start()
    assert done.returncode == 0, done.stderr[-2000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["apps"] == [] and shown["uri"] == "" and shown["header"] == "" and shown["teams"] == {}
    assert shown["ldap"] != "django_auth_ldap.backend.LDAPBackend"


def test_a_header_without_trusted_proxies_stops_start_up_naming_it():
    done = start(REMOTE_AUTH_HEADER="Remote-User")
    assert done.returncode != 0
    assert "REMOTE_AUTH_HEADER needs REMOTE_AUTH_TRUSTED_PROXIES" in done.stderr
