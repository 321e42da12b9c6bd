"""At most THROTTLE_SIGNUP accounts (5 an hour unless set) are made from one client address.

The count is a fixed window per hour (zfsplanner/web/throttling.py); the clock is stopped half-way
through one, so each test sees one window and Retry-After is exact.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.settings import api_settings

pytestmark = pytest.mark.django_db

PW = "Quiet-Harbor-71"
MID_WINDOW = datetime(2026, 3, 2, 12, 30, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _frozen(time_machine):
    time_machine.move_to(MID_WINDOW, tick=False)
    return time_machine


@pytest.fixture
def rate(settings):
    def set_rate(value: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "signup": value},
        }
        api_settings.reload()

    yield set_rate
    api_settings.reload()


def sign_up(n: int, address: str = "203.0.113.7", password: str = PW):
    return Client(REMOTE_ADDR=address).post(
        "/accounts/signup/",
        {"email": f"user{n}@example.com", "username": f"user{n}", "password1": password, "password2": password},
    )


def accounts() -> int:
    return get_user_model().objects.filter(username__startswith="user").count()


def test_five_accounts_an_hour_from_one_address_by_default():
    assert all(sign_up(n).status_code == 302 for n in range(5))
    r = sign_up(5)
    assert r.status_code == 429
    assert r["Retry-After"] == str(30 * 60 + 1)  # to the end of the hour
    assert "Too many accounts were created from your address" in r.content.decode()
    assert accounts() == 5


def test_another_address_is_counted_apart():
    for n in range(5):
        sign_up(n)
    assert sign_up(5, address="198.51.100.2").status_code == 302
    assert accounts() == 6


def test_the_next_hour_opens_again(_frozen):
    for n in range(5):
        sign_up(n)
    _frozen.move_to(MID_WINDOW + timedelta(minutes=30), tick=False)
    assert sign_up(5).status_code == 302


def test_a_refused_form_does_not_count(rate):
    rate("2/hour")
    for n in range(4):
        assert sign_up(n, password="short").status_code == 200  # the form again, with the error
    assert sign_up(10).status_code == 302 and sign_up(11).status_code == 302
    assert sign_up(12).status_code == 429
    assert accounts() == 2


def test_the_limit_is_the_setting(rate):
    rate("1/hour")
    assert sign_up(0).status_code == 302
    assert sign_up(1).status_code == 429


def test_showing_the_page_is_not_counted():
    c = Client(REMOTE_ADDR="203.0.113.7")
    assert all(c.get("/accounts/signup/").status_code == 200 for _ in range(10))
    assert sign_up(0).status_code == 302
