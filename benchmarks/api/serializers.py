from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zfsplanner.accounts.models import Team
from zfsplanner.accounts.tokens import upload_only_team
from zfsplanner.plans.models import CatalogDisk, PoolDesign
from zfsplanner.web.api_fields import VisibleObjectField
from zfsplanner.web.api_parsers import load_json_field

from ..models import (
    CHECK_REASON_MAX_LENGTH,
    LABEL_MAX_LENGTH,
    NOTES_MAX_LENGTH,
    TARGET_MAX_LENGTH,
    BenchRun,
    BenchUpload,
    TargetKind,
)
from ..repeats import changes_of, comparable_runs, repeat_figures, repeats_of
from ..run_settings import clean_run_settings
from ..validity import api_item, run_validity


class RunSettingsField(serializers.JSONField):
    """Run settings as an object (or a JSON string in multipart forms), checked by clean_run_settings."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, str):
            if not data.strip():
                return {}
            data = load_json_field(data)  # the limits and text checks of a JSON body
        try:
            return clean_run_settings(data)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(
                [f"{k}: {m}" for k, msgs in exc.message_dict.items() for m in msgs]
            ) from exc


def visible_design_field() -> VisibleObjectField:
    """A run's design: an id among the designs of the user's teams (another team's is "no design")."""
    return VisibleObjectField(
        scope=PoolDesign.objects.for_user, model=PoolDesign, what="design", allow_null=True, required=False
    )


# What an upload is and how far it got: in the summary and in the full upload alike.
UPLOAD_STATE_FIELDS = [
    "original_name",
    "size",
    "sha256",
    "status",
    "progress",
    "error",
    "detected_format",
    "attempts",
    "created",
]


class UploadSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = BenchUpload
        fields = ["id", *UPLOAD_STATE_FIELDS, "finished"]
        read_only_fields = fields


class RunMetadataMixin(serializers.Serializer):
    """Validation shared by run edits and upload metadata: the design must be in the run's team."""

    def _check_design(self, design: PoolDesign | None, team: Team | None) -> None:
        if design is not None and team is not None and design.team_id != team.pk:
            raise serializers.ValidationError({"design": f"design {design.pk} belongs to another team"})


class ValidityItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    title = serializers.CharField()
    detail = serializers.CharField()


class ValidityCheckSerializer(serializers.Serializer):
    by = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()
    reason = serializers.CharField()


# One figure of one test of a run: the fields the repeat and change rows start with. (A comment, not a
# docstring: the API schema would give it to both rows as their description.)
class FigureRowSerializer(serializers.Serializer):
    test = serializers.CharField()
    figure = serializers.CharField()


class RepeatFigureSerializer(FigureRowSerializer):
    n = serializers.IntegerField()
    mean = serializers.FloatField()
    min = serializers.FloatField()
    max = serializers.FloatField()
    cv = serializers.FloatField(allow_null=True)


class RepeatsSerializer(serializers.Serializer):
    runs = serializers.ListField(child=serializers.IntegerField())
    figures = RepeatFigureSerializer(many=True)


class SettingDiffSerializer(serializers.Serializer):
    setting = serializers.CharField()
    before = serializers.CharField()
    after = serializers.CharField()


class ChangeSerializer(FigureRowSerializer):
    before_mean = serializers.FloatField()
    before_min = serializers.FloatField()
    before_max = serializers.FloatField()
    value = serializers.FloatField()
    change_percent = serializers.FloatField()
    verdict = serializers.ChoiceField(choices=["regression", "improvement"])


class ChangesSerializer(serializers.Serializer):
    against = serializers.ListField(child=serializers.IntegerField())
    settings_differ = SettingDiffSerializer(many=True)
    figures = ChangeSerializer(many=True)


class BenchRunSerializer(RunMetadataMixin, serializers.ModelSerializer):
    team = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    upload = UploadSummarySerializer(read_only=True)
    status = serializers.CharField(source="upload.status", read_only=True)
    display_label = serializers.CharField(read_only=True)
    settings = RunSettingsField(required=False)
    catalog_disk = serializers.PrimaryKeyRelatedField(
        queryset=CatalogDisk.objects.all(), allow_null=True, required=False
    )
    design = visible_design_field()
    label = serializers.CharField(required=False, allow_blank=True, max_length=LABEL_MAX_LENGTH)
    target = serializers.CharField(required=False, allow_blank=True, max_length=TARGET_MAX_LENGTH)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=NOTES_MAX_LENGTH)
    warnings = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="What a partly read log lacks (status 'partial'), in words.",
    )
    validity = serializers.SerializerMethodField(
        help_text=(
            "Why the figures may not measure the disks: one {code, title, detail} per warning. Codes: "
            "zero-data-compressed, compressible-data, file-fits-in-cache, buffered-writes, direct-io-ignored, "
            "safety-off, too-short, single-run."
        )
    )
    repeats = serializers.SerializerMethodField(
        help_text=(
            "Runs of the same tests on the same target (this one included) and each figure's spread across "
            "them: {runs: [ids], figures: [{test, figure, n, mean, min, max, cv}]}; figures in the units of "
            "the result fields, cv = sample standard deviation ÷ mean."
        )
    )
    changes = serializers.SerializerMethodField(
        help_text=(
            "This run's repeats against the latest earlier runs of the same tests on the same target: the "
            "settings that differ and each figure outside the earlier spread (min–max), as a regression or an "
            "improvement; null when there is no earlier run."
        )
    )
    validity_check = serializers.SerializerMethodField(
        help_text="Who marked the warnings as checked, when and why; null when nobody has."
    )

    class Meta:
        model = BenchRun
        fields = [
            "id",
            "team",
            "label",
            "display_label",
            "status",
            "warnings",
            "validity",
            "validity_check",
            "repeats",
            "changes",
            "catalog_disk",
            "design",
            "target_kind",
            "target",
            "settings",
            "notes",
            "tool",
            "tool_version",
            "meta",
            "upload",
            "result",
            "created",
            "updated",
        ]
        read_only_fields = ["tool", "tool_version", "meta", "result", "created", "updated"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        team = self.instance.team if self.instance else None
        self._check_design(attrs.get("design"), team)
        return attrs

    def _comparable(self, obj: BenchRun) -> list[BenchRun]:
        """The run's comparable runs, read once per run and response (validity, repeats, changes)."""
        cache: dict[int, list[BenchRun]] = self.context.setdefault("comparable_runs", {})
        if obj.pk not in cache:
            cache[obj.pk] = comparable_runs(obj)
        return cache[obj.pk]

    @extend_schema_field(ValidityItemSerializer(many=True))
    def get_validity(self, obj: BenchRun) -> list[dict[str, str]]:
        repeats = len(repeats_of(obj, self._comparable(obj)))
        return [api_item(f) for f in run_validity(obj, repeats=repeats).findings]

    @extend_schema_field(RepeatsSerializer())
    def get_repeats(self, obj: BenchRun) -> dict[str, Any]:
        runs = repeats_of(obj, self._comparable(obj))
        figures = repeat_figures(runs) if len(runs) > 1 else []
        return {
            "runs": [r.pk for r in runs],
            "figures": [
                {
                    "test": f.test,
                    "figure": f.field,
                    "n": f.spread.n,
                    "mean": f.spread.mean,
                    "min": f.spread.low,
                    "max": f.spread.high,
                    "cv": f.spread.cv,
                }
                for f in figures
            ],
        }

    @extend_schema_field(ChangesSerializer(allow_null=True))
    def get_changes(self, obj: BenchRun) -> dict[str, Any] | None:
        changes = changes_of(obj, self._comparable(obj))
        if changes is None:
            return None
        return {
            "against": [r.pk for r in changes.against],
            "settings_differ": [{"setting": n, "before": b, "after": a} for n, b, a in changes.settings_differ],
            "figures": [
                {
                    "test": c.test,
                    "figure": c.field,
                    "before_mean": c.before.mean,
                    "before_min": c.before.low,
                    "before_max": c.before.high,
                    "value": c.value,
                    "change_percent": c.percent,
                    "verdict": str(c.verdict),
                }
                for c in changes.figures
            ],
        }

    @extend_schema_field(ValidityCheckSerializer(allow_null=True))
    def get_validity_check(self, obj: BenchRun) -> dict[str, Any] | None:
        if not obj.validity_checked:
            return None
        by = obj.validity_checked_by
        return {
            "by": by.get_username() if by is not None else None,
            "at": obj.validity_checked_at,
            "reason": obj.validity_check_reason,
        }


class ValidityCheckInputSerializer(serializers.Serializer):
    """POST …/validity-check/: mark the run's validity warnings as checked, saying why."""

    reason = serializers.CharField(max_length=CHECK_REASON_MAX_LENGTH, allow_blank=False, trim_whitespace=True)


class UploadCreateSerializer(RunMetadataMixin, serializers.Serializer):
    """POST /api/benchmark-uploads/: files (one or many) + team + optional run metadata.

    Files come as multipart parts named ``files`` or ``file``, each name as often as needed:
    every part is stored (not only the last one of a name)."""

    team = serializers.CharField(required=False, help_text="Team slug or id; optional if you can write to one team.")
    files = serializers.ListField(child=serializers.FileField(allow_empty_file=False), required=False)
    file = serializers.FileField(required=False, allow_empty_file=False, help_text="May be repeated, like 'files'.")
    label = serializers.CharField(required=False, allow_blank=True, max_length=LABEL_MAX_LENGTH)
    catalog_disk = serializers.PrimaryKeyRelatedField(
        queryset=CatalogDisk.objects.all(), allow_null=True, required=False
    )
    design = visible_design_field()
    target_kind = serializers.ChoiceField(choices=TargetKind.choices, required=False, allow_blank=True)
    target = serializers.CharField(required=False, allow_blank=True, max_length=TARGET_MAX_LENGTH)
    settings = RunSettingsField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=NOTES_MAX_LENGTH)

    def validate_team(self, value: str) -> Team:
        user = self.context["request"].user
        lookup = Q(slug=value) | (Q(pk=int(value)) if value.isdigit() else Q())
        team = Team.objects.for_user(user).filter(lookup).first()
        if team is None:
            raise serializers.ValidationError(f"you are not a member of a team {value!r}")
        if not team.can_write(user):
            raise serializers.ValidationError(f"your role in {team.slug!r} may not upload (owners and editors may)")
        return team

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        files = list(attrs.pop("files", []) or [])
        attrs.pop("file", None)
        files.extend(self._file_parts())
        if not files:
            raise serializers.ValidationError(
                {"files": "send one or more files as multipart field 'files' (or 'file')"}
            )
        attrs["files"] = files
        scoped = upload_only_team(self.context["request"])  # an upload-only token sends to its own team
        if scoped is not None:
            if attrs.setdefault("team", scoped).pk != scoped.pk:
                raise serializers.ValidationError({"team": "this token uploads to its own team only"})
            if not scoped.can_write(self.context["request"].user):
                raise serializers.ValidationError({"team": "your role in this team may not upload any more"})
        if "team" not in attrs:
            teams = list(Team.objects.writable_by(self.context["request"].user)[:2])
            if len(teams) != 1:
                raise serializers.ValidationError({"team": "say which team (slug or id) the upload belongs to"})
            attrs["team"] = teams[0]
        self._check_design(attrs.get("design"), attrs["team"])
        return attrs

    def _file_parts(self) -> list[Any]:
        """Every multipart part named ``file`` (a plain FileField would keep only the last one)."""
        data = self.initial_data
        parts = data.getlist("file") if hasattr(data, "getlist") else [data.get("file")]
        field = serializers.FileField(allow_empty_file=False)
        out = []
        for n, part in enumerate(p for p in parts if p not in (None, "")):
            try:
                out.append(field.run_validation(part))
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({"file": {n: exc.detail}}) from exc
        return out


class BenchUploadSerializer(serializers.ModelSerializer):
    team = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    run = serializers.PrimaryKeyRelatedField(read_only=True)
    status_url = serializers.SerializerMethodField()
    run_url = serializers.SerializerMethodField()

    class Meta:
        model = BenchUpload
        fields = ["id", "team", "run", *UPLOAD_STATE_FIELDS, "updated", "finished", "status_url", "run_url"]
        read_only_fields = fields

    def get_status_url(self, obj: BenchUpload) -> str:
        return reverse("benchmarks-api:upload-detail", args=[obj.pk])

    def get_run_url(self, obj: BenchUpload) -> str:
        return reverse("benchmarks-api:run-detail", args=[obj.run.pk])
