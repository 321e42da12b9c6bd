from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from zfsplanner.accounts.models import Team
from zfsplanner.plans.models import PoolDesign
from zfsplanner.web.api_fields import VisibleObjectField

from ..forms import read_files
from ..models import HistogramFormat, HistogramUpload, PoolImport
from ..presentation import preview


class SourceSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=255, required=False, default="pasted text")
    text = serializers.CharField(trim_whitespace=False)


class PoolImportRequestSerializer(serializers.Serializer):
    """Either ``text`` (one paste) or ``sources`` (several named texts), or multipart ``files``."""

    text = serializers.CharField(required=False, trim_whitespace=False)
    sources = SourceSerializer(many=True, required=False)
    files = serializers.ListField(child=serializers.FileField(), required=False)
    pool = serializers.CharField(required=False, allow_blank=True, max_length=255)
    design = VisibleObjectField(scope=PoolDesign.objects.for_user, model=PoolDesign, what="design", required=False,
                                help_text="Attach the import to this design (its team's owners and editors).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("text") and not attrs.get("sources") and not attrs.get("files"):
            raise serializers.ValidationError({"text": "give the outputs as text, sources or files"})
        return attrs

    def source_pairs(self) -> list[tuple[str, str]]:
        d = self.validated_data
        out = []
        if d.get("text"):
            out.append(("pasted text", d["text"]))
        out += [(s["name"], s["text"]) for s in d.get("sources") or []]
        return out + read_files(d.get("files") or [])


class PoolImportSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    comparison = serializers.SerializerMethodField()
    notes = serializers.SerializerMethodField()
    questions = serializers.SerializerMethodField()
    design = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = PoolImport
        fields = ("id", "url", "status", "pool", "document", "questions", "comparison", "notes", "error",
                  "error_line", "error_source", "error_format", "attempts", "design", "created", "finished")

    def get_url(self, obj: PoolImport) -> str:
        return reverse("imports:pool-import-detail", args=[obj.pk])

    def get_comparison(self, obj: PoolImport) -> list[dict[str, Any]]:
        return [r.to_dict() for r in preview(obj.document).rows] if obj.is_read else []

    def get_notes(self, obj: PoolImport) -> list[str]:
        return list((obj.document.get("imported") or {}).get("notes") or [])

    def get_questions(self, obj: PoolImport) -> list[dict[str, Any]]:
        """The sizes the preview asks (answer them with ``POST sizes/``); empty when none is open."""
        return list((obj.document.get("imported") or {}).get("questions") or [])


class PoolImportSizesSerializer(serializers.Serializer):
    """Answers to the preview's size questions, by question id: typed sizes or catalog models."""

    sizes = serializers.DictField(
        child=serializers.CharField(max_length=64), required=False,
        help_text='{"q1": "16 TB"}: a size as on the label (TB), as ZFS prints it (TiB), or bytes; '
                  '{"q2": "9"} for an ashift question (one of its choices).')
    catalog = serializers.DictField(
        child=serializers.CharField(max_length=255), required=False,
        help_text='{"q1": "ST16000NM001G"}: a whole disk of the catalog (its size, sectors and media).')

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("sizes") and not attrs.get("catalog"):
            raise serializers.ValidationError({"sizes": ["give at least one size (sizes or catalog)"]})
        return attrs

    def fields_data(self) -> dict[str, str]:
        """The answers as the preview page's fields name them (``size-q1``, ``catalog-q1``)."""
        d = self.validated_data
        return ({f"size-{q}": v for q, v in (d.get("sizes") or {}).items()}
                | {f"catalog-{q}": v for q, v in (d.get("catalog") or {}).items()})


class SaveImportSerializer(serializers.Serializer):
    team = VisibleObjectField(scope=Team.objects.for_user, model=Team, what="team")
    name = serializers.CharField(required=False, max_length=255)


class HistogramUploadSerializer(serializers.ModelSerializer):
    design = serializers.PrimaryKeyRelatedField(read_only=True)
    status_url = serializers.SerializerMethodField()

    class Meta:
        model = HistogramUpload
        fields = ("id", "design", "dataset", "original_name", "size", "sha256", "format", "detected_format", "status",
                  "progress", "error", "error_line", "result", "applied_revision", "attempts", "created", "started",
                  "finished", "status_url")
        read_only_fields = fields

    def get_status_url(self, obj: HistogramUpload) -> str:
        return reverse("imports-api:histogram-upload-detail", args=[obj.pk])


class HistogramUploadCreateSerializer(serializers.Serializer):
    design = VisibleObjectField(scope=PoolDesign.objects.for_user, model=PoolDesign, what="design")
    dataset = serializers.CharField(max_length=255)
    format = serializers.ChoiceField(choices=HistogramFormat.choices, default=HistogramFormat.AUTO)
    text = serializers.CharField(required=False, trim_whitespace=False)
    file = serializers.FileField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("text") and not attrs.get("file"):
            raise serializers.ValidationError({"file": "give a listing as a file (multipart) or as text"})
        return attrs
