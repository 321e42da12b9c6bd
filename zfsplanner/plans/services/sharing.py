"""Read-only share links of a design: made by a team member, revoked but kept listed.

Who a link lets in is decided in ``zfsplanner.plans.access`` (``get_shared_design``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..models import PoolDesign, ShareLink


def create_share_link(design: PoolDesign, user: Any, expires: datetime | None = None) -> ShareLink:
    user = user if getattr(user, "is_authenticated", False) else None
    return ShareLink.objects.create(design=design, created_by=user, expires=expires)


def revoke_share_link(link: ShareLink) -> None:
    """Revoked links stay listed (who made them, when) but no longer open the design."""
    ShareLink.objects.filter(pk=link.pk).update(revoked=True)
    link.revoked = True
