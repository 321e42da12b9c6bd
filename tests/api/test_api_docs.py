"""The API docs page: a summary for every operation, the site's header and a way back."""

import pytest
import yaml

from zfsplanner.web.api_docs import SUMMARIES

pytestmark = pytest.mark.django_db

METHODS = ("get", "put", "post", "patch", "delete")


@pytest.fixture
def schema(alice, client_for):
    return yaml.safe_load(client_for(alice).get("/api/schema/").content)


def test_every_operation_has_a_summary(schema):
    missing = [
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in METHODS and not operation.get("summary")
    ]
    assert missing == []
    assert schema["paths"]["/api/designs/{id}/commands/"]["get"]["summary"] == (
        "The zpool create and zfs create commands of a design"
    )


def test_no_summary_is_left_for_an_operation_that_is_gone(schema):
    ids = {op["operationId"] for ops in schema["paths"].values() for m, op in ops.items() if m in METHODS}
    assert set(SUMMARIES) - ids == set()


def test_the_docs_page_has_the_sites_header_and_a_way_back(alice, web):
    html = web(alice).get("/api/docs/").content.decode()
    assert '<header class="topbar">' in html and 'class="brand" href="/">zfsplanner</a>' in html
    assert '<a href="/" id="api-back">← Back to the planner</a>' in html
    assert '<a href="/accounts/profile/">your profile</a>' in html
    assert "<title>API · zfsplanner</title>" in html
