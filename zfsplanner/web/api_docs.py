"""The API docs page's words: a one-line summary for every operation, in the order of the paths.

drf-spectacular gives an operation a summary only when its view declares one; the viewsets here
share one docstring per resource (the description), so the line Swagger UI shows next to each path
comes from this table, applied by :func:`add_summaries` (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``).
A new operation without a line here fails ``tests/api/test_api_docs.py``.
"""

from __future__ import annotations

from typing import Any

SUMMARIES: dict[str, str] = {
    "advisor_create": "Which layout to buy: every sensible layout of candidate disks, ranked",
    "auth_me_retrieve": "Your account",
    "auth_me_update": "Change your display name",
    "auth_me_partial_update": "Change your display name (partial)",
    "auth_token_create": "Exchange a user name and password for an API token",
    "auth_tokens_list": "Your API tokens",
    "auth_tokens_create": "Create an API token",
    "auth_tokens_retrieve": "One of your API tokens",
    "auth_tokens_destroy": "Revoke an API token",
    "benchmark_uploads_list": "Benchmark uploads and their status",
    "benchmark_uploads_create": "Upload benchmark logs",
    "benchmark_uploads_retrieve": "One benchmark upload and its status",
    "benchmark_uploads_retry_create": "Parse a benchmark upload again",
    "benchmarks_list": "Benchmark runs",
    "benchmarks_retrieve": "One benchmark run",
    "benchmarks_update": "Change a benchmark run's name, notes or disk",
    "benchmarks_partial_update": "Change a benchmark run (partial)",
    "benchmarks_destroy": "Delete a benchmark run",
    "benchmarks_series_retrieve": "Time series of a run's fio logs",
    "benchmarks_validity_check_create": "Mark a run's measurement as checked by a person, with the reason",
    "benchmarks_validity_check_destroy": "Take back a run's checked mark",
    "benchmarks_charts_retrieve": "Runs compared, as chart data",
    "benchmarks_charts.csv_retrieve": "Runs compared, as CSV",
    "benchmarks_series_compare": "Time series of several runs on one scale",
    "compression_measure_create": "Measure how ZFS would compress sample files",
    "compression_samples_list": "Your compression samples",
    "compression_samples_retrieve": "One compression sample and its measurements",
    "compression_samples_destroy": "Delete a compression sample",
    "designs_list": "Pool designs of your teams",
    "designs_create": "Create a design",
    "designs_retrieve": "One design",
    "designs_update": "Replace a design's document (a new revision)",
    "designs_destroy": "Delete a design",
    "designs_commands_retrieve": "The zpool create and zfs create commands of a design",
    "designs_duplicate_create": "Duplicate a design as a variant",
    "designs_estimate_retrieve": "What zpool list and zfs list will print for a design",
    "designs_estimate.csv_retrieve": "A design's estimate as CSV",
    "designs_export_retrieve": "Download a design's document",
    "designs_fixes_list": "Risks a design change can fix",
    "designs_fixes_apply_create": "Apply a risk's fix",
    "designs_measured_retrieve": "Attached benchmark runs against the predicted range",
    "designs_redo_create": "Redo what the last undo took back",
    "designs_report_retrieve": "The design report (Markdown or CSV by Accept)",
    "designs_report.md_retrieve": "The design report as Markdown",
    "designs_revisions_list": "A design's revisions",
    "designs_share_links_list": "A design's share links",
    "designs_share_links_create": "Create a share link",
    "designs_share_links_revoke_by_id": "Revoke a share link named in the body",
    "designs_share_links_revoke": "Revoke a share link",
    "designs_undo_create": "Undo the last change to a design",
    "designs_import_create": "Create a design from a document",
    "disks_list": "The disk catalog",
    "disks_create": "Add a disk to the catalog (staff)",
    "disks_retrieve": "One catalog disk",
    "disks_update": "Change a catalog disk (staff)",
    "disks_partial_update": "Change a catalog disk, partial (staff)",
    "disks_destroy": "Remove a disk from the catalog (staff)",
    "estimate_create": "Estimate a design document without saving it",
    "histogram_uploads_list": "File listings and zdb dumps sent for datasets",
    "histogram_uploads_create": "Send a file listing or zdb dump for a dataset",
    "histogram_uploads_retrieve": "One listing upload and its result",
    "histogram_uploads_retry_create": "Read a listing upload again",
    "invitations_accept_create": "Accept a team invitation",
    "pool_imports_list": "Your pool imports",
    "pool_imports_create": "Import a pool from zpool status and other outputs",
    "pool_imports_retrieve": "One pool import: the preview and its questions",
    "pool_imports_retry_create": "Read a pool import's outputs again",
    "pool_imports_save_create": "Save a pool import as a design",
    "pool_imports_sizes_create": "Answer a pool import's questions (disk sizes, ashift)",
    "teams_list": "Your teams",
    "teams_create": "Create a team",
    "teams_retrieve": "One team",
    "teams_update": "Rename a team",
    "teams_partial_update": "Rename a team (partial)",
    "teams_destroy": "Delete a team",
    "teams_invitations_list": "A team's invitations",
    "teams_invitations_create": "Invite someone to a team",
    "teams_invitations_retrieve": "One invitation",
    "teams_invitations_destroy": "Revoke an invitation",
    "teams_members_list": "A team's members",
    "teams_members_create": "Add a member to a team",
    "teams_members_update": "Change a member's role",
    "teams_members_partial_update": "Change a member's role (partial)",
    "teams_members_destroy": "Remove a member from a team",
}

METHODS = ("get", "put", "post", "patch", "delete")


def add_summaries(result: dict[str, Any], **context: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (called with ``generator``, ``request`` and ``public`` besides):
    each operation's summary from :data:`SUMMARIES`, unless its view declared one."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method in METHODS and not operation.get("summary"):
                summary = SUMMARIES.get(operation.get("operationId", ""))
                if summary:
                    operation["summary"] = summary
    return result
