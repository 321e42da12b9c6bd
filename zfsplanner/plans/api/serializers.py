"""DRF serializers: validation and conversion only; the design itself is validated by the core.

A design travels as its document with ``id``/``team``/``revision``/``created``/``updated``
beside the document keys. Every error about a design comes back in one shape::

    {"detail": "vdevs[0].width: ...", "errors": [{"field": "vdevs[0].width", "message": "..."}]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.text import slugify
from rest_framework import serializers, status
from rest_framework.exceptions import APIException

from zfsplanner.accounts.models import Membership, Role, Team
from zfsplanner.core.design import FORMAT, InvalidDesign

from ..choices import OpenZFSVersion, Partitioning
from ..models import CatalogDisk, PoolDesign
from ..services import META_KEYS, save_design_document, validate_document, writable_teams


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
    openzfs_version = serializers.ChoiceField(choices=OpenZFSVersion.choices, required=False)
    disk_partitioning = serializers.ChoiceField(choices=Partitioning.choices, required=False)
    vdevs = serializers.ListField(child=serializers.DictField(), help_text="Vdev groups (see the design format).")
    datasets = serializers.ListField(child=serializers.DictField(), required=False)

    def to_representation(self, instance: PoolDesign) -> dict[str, Any]:
        meta = {
            "id": instance.pk,
            "team": instance.team_id,
            "revision": instance.revision,
            "created": instance.created.isoformat(),
            "updated": instance.updated.isoformat(),
        }
        return {**meta, **instance.to_document()}

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
        elif not writable_teams(user).filter(pk=team.pk).exists():
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


class CatalogDiskSerializer(serializers.ModelSerializer):
    sector_format = serializers.CharField(read_only=True, help_text="512e, 4Kn or 512n.")

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
            "price_note",
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


class TeamSerializer(serializers.ModelSerializer):
    slug = serializers.SlugField(required=False, help_text="Defaults to the slugified name.")
    role = serializers.SerializerMethodField(help_text="Your role in this team.")

    class Meta:
        model = Team
        fields = ["id", "name", "slug", "role", "created"]

    def get_role(self, team: Team) -> str | None:
        return team.role_of(self.context["request"].user)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None and not attrs.get("slug"):
            attrs["slug"] = slugify(attrs["name"])[:100]
        slug = attrs.get("slug")
        if slug and Team.objects.filter(slug=slug).exclude(pk=getattr(self.instance, "pk", None)).exists():
            raise serializers.ValidationError({"slug": f"a team with slug {slug!r} already exists"})
        if slug == "":
            raise serializers.ValidationError({"name": "needs at least one letter or digit"})
        return attrs


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.SlugRelatedField(
        source="user", slug_field="username", queryset=get_user_model().objects.all()
    )
    user_id = serializers.IntegerField(source="user.pk", read_only=True)
    role = serializers.ChoiceField(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["user_id", "username", "role", "created"]
        read_only_fields = ["created"]
