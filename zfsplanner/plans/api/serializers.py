"""DRF serializers: validation and conversion only; the design itself is validated by the core.

A design travels as its document with ``id``/``team``/``revision``/``created``/``updated``
beside the document keys. Every error about a design comes back in one shape::

    {"detail": "vdevs[0].width: ...", "errors": [{"field": "vdevs[0].width", "message": "..."}]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.core.validators import URLValidator
from django.urls import reverse
from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.exceptions import APIException
from rest_framework.fields import empty

from zfsplanner.accounts.models import Team
from zfsplanner.core.design.types import FORMAT, InvalidDesign
from zfsplanner.core.versions import unknown_version_message

from ..choices import Partitioning
from ..models import CatalogDisk, PoolDesign, ShareLink
from ..services.designs import META_KEYS, save_design_document, validate_document


class InvalidDesignError(APIException):
    """400 with ``errors`` naming each bad field and a one-line ``detail``."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, errors: Sequence[tuple[str, str]]):
        items = [{"field": f, "message": m} for f, m in errors]
        summary = "; ".join(f"{f}: {m}" if f else m for f, m in errors)
        super().__init__({"detail": f"Invalid design: {summary}", "errors": items})


class RevisionConflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="Path of the field, e.g. vdevs[0].width ('' for the whole document).")
    message = serializers.CharField()


class DesignErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = ErrorItemSerializer(many=True)


class DesignSummarySerializer(serializers.Serializer):
    """One design in a list: what it is and where to read it, never its whole document."""

    id = serializers.IntegerField(read_only=True)
    team = serializers.IntegerField(source="team_id", read_only=True)
    name = serializers.CharField(read_only=True, help_text="Pool name.")
    description = serializers.SerializerMethodField(help_text="The first 200 characters.")
    openzfs_version = serializers.CharField(read_only=True)
    revision = serializers.IntegerField(read_only=True)
    created = serializers.DateTimeField(read_only=True)
    updated = serializers.DateTimeField(read_only=True)
    vdev_groups = serializers.IntegerField(source="vdev_group_count", read_only=True)
    datasets = serializers.IntegerField(source="dataset_count", read_only=True)
    url = serializers.SerializerMethodField(help_text="The design with its document.")
    estimate_url = serializers.SerializerMethodField()

    def get_description(self, design: PoolDesign) -> str:
        return design.description[:200]

    def get_url(self, design: PoolDesign) -> str:
        return self._absolute(reverse("plans-api:design-detail", args=[design.pk]))

    def get_estimate_url(self, design: PoolDesign) -> str:
        return self._absolute(reverse("plans-api:design-estimate", args=[design.pk]))

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class DesignSerializer(serializers.Serializer):
    """A pool design: the ``zfsplanner.design/1`` document plus ``team`` (and read-only metadata).

    Unknown document keys are kept. A PUT replaces the whole document; sending the
    ``revision`` you read makes the PUT fail with 409 if someone changed it since.
    """

    id = serializers.IntegerField(read_only=True)
    team = serializers.IntegerField(help_text="Id of one of your teams in which you are an owner or editor.")
    revision = serializers.IntegerField(required=False, help_text="Incremented on every change.")
    created = serializers.DateTimeField(read_only=True)
    updated = serializers.DateTimeField(read_only=True)
    format = serializers.CharField(required=False, default=FORMAT)
    name = serializers.CharField(help_text="Pool name.")
    description = serializers.CharField(required=False)
    openzfs_version = serializers.CharField(
        required=False,
        max_length=8,
        help_text="A series (2.4: its newest release the planner knows) or a release (2.4.4, 2.3.2).",
    )
    disk_partitioning = serializers.ChoiceField(choices=Partitioning.choices, required=False)
    vdevs = serializers.ListField(child=serializers.DictField(), help_text="Vdev groups (see the design format).")
    datasets = serializers.ListField(child=serializers.DictField(), required=False)

    def validate_openzfs_version(self, value: str) -> str:
        problem = unknown_version_message(value)
        if problem is not None:
            raise serializers.ValidationError(problem)
        return value

    def to_representation(self, instance: PoolDesign) -> dict[str, Any]:
        meta = {
            "id": instance.pk,
            "team": instance.team_id,
            "revision": instance.revision,
            "created": instance.created.isoformat(),
            "updated": instance.updated.isoformat(),
        }
        return {**meta, **instance.to_document()}

    def run_validation(self, data: Any = empty) -> Any:
        if data is empty or data is None:  # no body, or JSON null: DRF would answer {"non_field_errors": ...}
            raise InvalidDesignError([("", "the body must be a JSON object: a design document with a team")])
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise InvalidDesignError([("", "the body must be a JSON object: a design document with a team")])
        errors: list[tuple[str, str]] = []
        team = self._team(data.get("team"), errors)
        doc = {k: v for k, v in data.items() if k not in META_KEYS}
        try:
            validate_document(doc)
        except InvalidDesign as exc:
            errors.extend(exc.errors)
        if errors:
            raise InvalidDesignError(errors)
        return {"team": team, "document": doc, "revision": data.get("revision")}

    def _team(self, value: Any, errors: list[tuple[str, str]]) -> Team | None:
        user = self.context["request"].user
        if value is None:
            if self.instance is not None:
                return self.instance.team
            errors.append(("team", "is required: the id of one of your teams"))
            return None
        if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).isdigit():
            errors.append(("team", f"must be a team id (an integer), not {value!r}"))
            return None
        team = Team.objects.for_user(user).filter(pk=int(value)).first()
        if team is None:
            errors.append(("team", f"you are not a member of a team with id {value}"))
        elif not Team.objects.writable_by(user).filter(pk=team.pk).exists():
            errors.append(("team", f"you are a viewer in team {team.name!r}; only owners and editors change designs"))
            return None
        return team

    def create(self, validated: dict[str, Any]) -> PoolDesign:
        try:
            return save_design_document(validated["team"], validated["document"], self.context["request"].user)
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc

    def update(self, instance: PoolDesign, validated: dict[str, Any]) -> PoolDesign:
        expected = validated.get("revision")
        if expected is not None and str(expected) != str(instance.revision):
            raise RevisionConflict(
                f"revision {expected} is stale: the design is at revision {instance.revision}; reload and retry"
            )
        try:
            return save_design_document(
                validated["team"], validated["document"], self.context["request"].user, instance=instance
            )
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc


class DesignImportSerializer(serializers.Serializer):
    """For the schema: either ``file`` (multipart) or ``document`` (JSON), plus ``team``."""

    team = serializers.IntegerField()
    file = serializers.FileField(required=False, help_text="A design JSON file (multipart/form-data).")
    document = serializers.DictField(required=False, help_text="The design document (application/json).")


def _check_url(value: str) -> None:
    """The model's URL check, as a plain callable so the schema doesn't claim every value is a URI."""
    URLValidator()(value)


def optional_url_field() -> serializers.CharField:
    """A URL or "": the model field is blank=True, so "" is stored and read back."""
    return serializers.CharField(
        required=False, allow_blank=True, max_length=200, validators=[_check_url], help_text="A URL, or empty."
    )


class CatalogDiskSerializer(serializers.ModelSerializer):
    sector_format = serializers.CharField(read_only=True, help_text="512e, 4Kn or 512n.")
    datasheet_url = optional_url_field()

    class Meta:
        model = CatalogDisk
        fields = [
            "id",
            "vendor",
            "model",
            "name",
            "capacity_bytes",
            "logical_sector_bytes",
            "physical_sector_bytes",
            "sector_format",
            "media",
            "rpm",
            "plp",
            "price",
            "price_currency",
            "price_date",
            "price_source",
            "price_note",
            "afr",
            "afr_source",
            "seq_read_bytes_per_s",
            "seq_write_bytes_per_s",
            "random_read_iops",
            "random_write_iops",
            "watts",
            "datasheet_url",
            "notes",
        ]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        logical = attrs.get("logical_sector_bytes", getattr(self.instance, "logical_sector_bytes", 512))
        physical = attrs.get("physical_sector_bytes", getattr(self.instance, "physical_sector_bytes", 4096))
        for name, value in (("logical_sector_bytes", logical), ("physical_sector_bytes", physical)):
            if value < 512 or value & (value - 1):
                raise serializers.ValidationError({name: "must be a power of two of at least 512"})
        if physical < logical:
            raise serializers.ValidationError({"physical_sector_bytes": "cannot be smaller than logical_sector_bytes"})
        if attrs.get("capacity_bytes", 1) <= 0:
            raise serializers.ValidationError({"capacity_bytes": "must be a positive number of bytes"})
        return attrs


class ShareLinkSerializer(serializers.ModelSerializer):
    """A read-only link to a design. ``url`` opens it without login; ``export_url`` downloads its JSON."""

    url = serializers.SerializerMethodField()
    export_url = serializers.SerializerMethodField()
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    active = serializers.BooleanField(source="is_active", read_only=True)
    expires_in_days = serializers.IntegerField(
        write_only=True, required=False, min_value=1, max_value=3650, help_text="Instead of expires: days from now."
    )

    class Meta:
        model = ShareLink
        fields = [
            "id",
            "token",
            "url",
            "export_url",
            "created",
            "created_by",
            "expires",
            "expires_in_days",
            "revoked",
            "active",
        ]
        read_only_fields = ["token", "created", "revoked"]

    def get_url(self, link: ShareLink) -> str:
        return self._absolute(reverse("plans:share-detail", args=[link.token]))

    def get_export_url(self, link: ShareLink) -> str:
        return self._absolute(reverse("plans:share-export", args=[link.token]))

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        days = attrs.pop("expires_in_days", None)
        if days is not None and attrs.get("expires") is not None:
            raise serializers.ValidationError({"expires_in_days": "give expires or expires_in_days, not both"})
        if days is not None:
            attrs["expires"] = timezone.now() + timedelta(days=days)
        if attrs.get("expires") is not None and attrs["expires"] <= timezone.now():
            raise serializers.ValidationError({"expires": "must be in the future"})
        return attrs


class CommandsSerializer(serializers.Serializer):
    commands = serializers.ListField(
        child=serializers.CharField(), help_text="Every command, in the order to run them."
    )
    zpool_create = serializers.CharField()
    zpool_add = serializers.ListField(child=serializers.CharField())
    zpool_attach = serializers.ListField(child=serializers.CharField())
    zfs_create = serializers.ListField(child=serializers.CharField())
