"""What the quick planner hands to the designer: the plan itself, kept with the account from sign-up
(whichever device confirms the e-mail), the unit it was read in, and one cost rule on both pages."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from zfsplanner.accounts.models import preferred_unit
from zfsplanner.plans.models import PoolDesign

pytestmark = pytest.mark.django_db
PW = "Quiet-Harbor-71"
REFERENCE = "layout=raidz2&disks=8&vdevs=1&size=16TB&special=1TB&slog=16GB&recordsize=1M&compression=zstd&data=20TB"
SAVE = f"/plan/save/?{REFERENCE}&unit=TB"


def sign_up(client: Client, next_url: str | None = SAVE, username: str = "rosa"):
    data = {"email": f"{username}@example.com", "username": username, "password1": PW, "password2": PW}
    if next_url:
        data["next"] = next_url
    return client.post("/accounts/signup/?" + urlencode({"next": next_url or ""}), data)


def confirm_link(mail) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", mail.body).group(1)


def cost_figure(html: str) -> str:
    """The #cost figure's text, tags and white space out."""
    block = html[html.index('id="cost"'):]
    block = block[: block.index('id="risk-counts"')]
    return " ".join(re.sub(r"<[^>]+>", " ", block.split(">", 1)[1].rsplit("<", 1)[0]).split())


def test_signing_up_keeps_the_plan_before_the_address_is_confirmed(mailoutbox):
    assert sign_up(Client()).status_code == 302
    design = PoolDesign.objects.get()
    assert design.created_by.username == "rosa"
    assert design.team.personal_for == design.created_by  # the new account's own team
    assert [v.role for v in design.vdevs.order_by("position")] == ["data", "special", "log"]
    assert preferred_unit(design.created_by) == "TB"  # the unit the plan was read in


def test_confirming_on_another_device_then_logging_in_finds_the_plan(mailoutbox):
    sign_up(Client())
    phone = Client()
    confirmed = phone.post(confirm_link(mailoutbox[0]))
    assert confirmed.status_code == 302 and confirmed["Location"].startswith("/accounts/login/")
    logged_in = phone.post("/accounts/login/", {"login": "rosa", "password": PW})
    assert logged_in.status_code == 302
    design = PoolDesign.objects.get()
    listing = phone.get(logged_in["Location"]).content.decode()
    assert f"/designs/{design.pk}/" in listing
    assert phone.get(f"/designs/{design.pk}/designer/").status_code == 200


def test_confirming_in_the_same_browser_opens_the_saved_plan_without_saving_it_twice(mailoutbox):
    browser = Client()
    sign_up(browser)
    confirmed = browser.post(confirm_link(mailoutbox[0]))
    assert confirmed.status_code == 302 and confirmed["Location"] == SAVE
    opened = browser.get(confirmed["Location"])
    design = PoolDesign.objects.get()
    assert opened.status_code == 302 and opened["Location"] == f"/designs/{design.pk}/designer/"


def test_a_sign_up_without_a_plan_saves_nothing(mailoutbox):
    sign_up(Client(), next_url=None)
    sign_up(Client(), next_url="/plan/save/?layout=raidz2&disks=2", username="tom")  # not a valid pool
    assert PoolDesign.objects.count() == 0


def test_tb_chosen_in_the_planner_is_the_unit_of_the_designer_and_the_design_page(web, alice):
    client = web(alice)
    assert preferred_unit(alice) is None
    client.post("/plan/save/", {k: v for k, v in (p.split("=") for p in f"{REFERENCE}&unit=TB".split("&"))})
    design = PoolDesign.objects.get()
    for url in (f"/designs/{design.pk}/designer/", f"/designs/{design.pk}/"):
        html = client.get(url).content.decode()
        assert re.search(r'id="usable".*?<div class="value"[^>]*>[\d.]+ TB<', html, re.S), url


def test_both_pages_cost_a_pool_by_one_rule_ssds_named_when_they_have_no_price(web, alice):
    query = f"{REFERENCE}&price=280"
    planner = cost_figure(Client().get(f"/plan/?{query}").content.decode())
    assert "for the 8 of 13 disks with a price" in planner
    assert "the special mirror (group 2: 3-way mirror), 3 disks; the log mirror (group 3), 2 disks" in planner
    client = web(alice)
    client.post("/plan/save/", {k: v for k, v in (p.split("=") for p in query.split("&"))})
    design = PoolDesign.objects.get()
    assert cost_figure(client.get(f"/designs/{design.pk}/").content.decode()) == planner
    assert cost_figure(client.get(f"/designs/{design.pk}/designer/").content.decode()) == planner


def test_ssd_prices_given_in_the_designer_are_counted_like_the_data_disks(web, alice):
    client = web(alice)
    client.post("/plan/save/", {k: v for k, v in (p.split("=") for p in f"{REFERENCE}&price=280".split("&"))})
    design = PoolDesign.objects.get()
    design.vdevs.filter(role="special").update(price_per_disk=150)
    design.vdevs.filter(role="log").update(price_per_disk=60)
    design = PoolDesign.objects.get()
    shown = cost_figure(client.get(f"/designs/{design.pk}/").content.decode())
    assert "2810.00 for 13 disks" in shown  # 8 × 280 + 3 × 150 + 2 × 60
