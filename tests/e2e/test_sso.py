"""Log-in with an identity provider in Chromium: the whole OpenID Connect code flow against a real
provider process, then the team its group gives."""

from __future__ import annotations

import pytest

from tests.accounts.oidc_server import oidc_provider, set_user, use_provider


@pytest.fixture(scope="module")
def issuer():
    with oidc_provider() as url:
        yield url


@pytest.fixture
def corp(settings, issuer):
    use_provider(settings, issuer)
    return issuer


def test_log_in_with_the_provider_and_find_the_team_its_group_gives(page, corp, live_server):
    set_user(corp, "dana-7", email="dana7@example.com", email_verified=True, preferred_username="dana7",
             groups=["storage-admins"])
    page.goto("/accounts/login/")
    page.click("text=Log in with Corp SSO")
    page.wait_for_url(f"{corp}/oauth2/authorize*")
    page.fill("input[name=sub]", "dana-7")
    page.click("button:has-text('Authorize')")
    page.wait_for_load_state("networkidle")
    assert page.url.startswith(live_server.url) and "/accounts/login" not in page.url  # back, logged in
    page.goto("/teams/storage/")
    assert page.locator("#members").inner_text().count("dana7") == 1
    assert "from Corp SSO" in page.locator("#members").inner_text()
    assert not page.js_errors
