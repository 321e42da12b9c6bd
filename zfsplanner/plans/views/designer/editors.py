"""The designer's forms filled from the design and the estimate: a vdev group's (with the defaults of
its role and what a blank ashift means), a dataset's (saying what it inherits) and the host form's."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.urls import reverse

from zfsplanner.core.design.types import Design, Role
from zfsplanner.core.geometry.ashift import automatic
from zfsplanner.core.geometry.vdev_shape import fault_tolerance
from zfsplanner.core.properties.resolve import DEFAULT_RECORDSIZE
from zfsplanner.core.risk.common import dedup_on
from zfsplanner.core.units import format_zfs_size

from ...forms.designer import DatasetForm
from ...forms.host import HostPlanningForm, inherited
from ...forms.vdevs import FLASH_ROLES, VdevGroupForm, flash_disks, role_defaults
from ...models import PoolDesign
from ...presentation.summary import DesignSummary
from ...services.disk_inputs import design_inputs
from ...services.estimates import estimate_or_error


def _auto_ashift_help(spec: Design, index: int | None, pool_ashift: int | None) -> str:
    """What the blank ashift of an existing group means, and what zpool would choose from its sectors."""
    if index is None or not 0 <= index < len(spec.vdevs):
        return ""
    auto, source = automatic(spec.vdevs[index], spec.release)
    alone = f"zpool alone would choose {auto} here ({source})."
    if pool_ashift is None:
        return f"Blank: auto, {alone[0].lower()}{alone[1:]}"
    return f"Blank: the pool's ashift ({pool_ashift}); {alone}"


def vdev_form(
    spec: Design,
    index: int | None,
    catalog: Any = None,
    *,
    role: str | None = None,
    typed: Mapping[str, Any] | None = None,
    design: PoolDesign | None = None,
    switched: bool = False,
) -> VdevGroupForm:
    """A vdev group's form: an existing group's values, or a new group with the defaults of its role.

    ``role`` with ``typed`` (the form's current values): the role was just changed, so the group
    takes that role's defaults (:func:`role_defaults`) over what was typed. ``switched`` with ``typed``:
    the layout was just changed, and ``typed`` already has the same disks in it. ``design``: the role
    and layout selects ask the server for those (:func:`wire_vdev_form`).
    """
    like = next((g for g in spec.vdevs if g.role == Role.DATA), None)
    tolerance = min((fault_tolerance(g) for g in spec.vdevs if g.role == Role.DATA), default=1)
    if index is None:
        prefix, initial = "vnew", {}
    else:
        prefix, initial = f"v{index}", VdevGroupForm.initial_from(spec.vdevs[index])
    if typed is not None:
        initial.update(typed)
    if (role is not None or index is None) and not switched:
        initial.update(role_defaults(role or "data", like, tolerance))
    if catalog is None and initial.get("role") in FLASH_ROLES:
        catalog = flash_disks()
    ashift = spec.ashift
    form = VdevGroupForm(
        initial=initial,
        catalog=catalog,
        prefix=prefix,
        pool_ashift=ashift,
        ashift_help=_auto_ashift_help(spec, index, ashift),
    )
    if design is not None:
        wire_vdev_form(form, design, index)
    return form


def form_url(design: PoolDesign, index: int | None, why: str) -> str:
    """Where a vdev group's form asks to be drawn again: ``defaults`` (its role changed) or ``relayout``."""
    where = "new" if index is None else str(index)
    return reverse("plans:designer-form", args=[design.pk]) + f"?section=vdevs&index={where}&{why}=1"


def defaults_url(design: PoolDesign, index: int | None) -> str:
    return form_url(design, index, "defaults")


def wire_vdev_form(form: VdevGroupForm, design: PoolDesign, index: int | None) -> None:
    """The role select brings that role's defaults; the layout select the same disks in the new layout
    (it sends the layout the form shows, ``from_layout``). Both redraw the form in place."""
    swap = {"hx-trigger": "change", "hx-include": "closest form", "hx-target": "closest form", "hx-swap": "outerHTML"}
    form.fields["role"].widget.attrs.update({"hx-get": defaults_url(design, index), **swap})
    shown = json.dumps({"from_layout": str(form["layout"].value() or "")})
    form.fields["layout"].widget.attrs.update({"hx-get": form_url(design, index, "relayout"), "hx-vals": shown, **swap})


def typed_vdev(data: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """The values of a vdev form as typed (a role change keeps what its defaults do not set)."""
    typed: dict[str, Any] = {}
    for name in VdevGroupForm.base_fields:
        key = f"{prefix}-{name}"
        if key in data:
            typed[name] = data[key]
    typed["custom_plp"] = f"{prefix}-custom_plp" in data
    return typed


def dataset_applies(spec: Design, index: int | None) -> dict[str, bool]:
    """Which fields of a dataset's form apply to it: "data written before the expansion" where the pool
    has a widened RAIDZ vdev, the dedup ratio where dedup is on for the dataset (a new one: anywhere in
    the pool); either one also where the dataset already sets it, so it can be changed or cleared."""
    contents = spec.datasets[index].contents if index is not None and index < len(spec.datasets) else None
    expanded = any(g.expanded_from_width for g in spec.vdevs)
    dedup = False
    if index is None or index < len(spec.datasets):
        chosen = spec.datasets if index is None else spec.datasets[index : index + 1]
        dedup = any(dedup_on(spec, ds) for ds in chosen)
    return {
        "expanded": expanded or (contents is not None and contents.logical_bytes_written_before is not None),
        "dedup": dedup or (contents is not None and contents.dedup_ratio is not None),
    }


def dataset_form(spec: Design, index: int | None, summary: DesignSummary | None) -> DatasetForm:
    """A dataset's form; "inherit" says what the dataset gets (from the estimate)."""
    applies = dataset_applies(spec, index)
    if index is None:
        return DatasetForm(prefix="dnew", initial={"name": f"{spec.name}/"}, **applies)
    ds = spec.datasets[index]
    form = DatasetForm(initial=DatasetForm.initial_from(ds), prefix=f"d{index}", **applies)
    lines = {d.name: d for d in summary.datasets} if summary else {}
    line = lines.get(ds.name)
    if line is not None:
        recordsize, compression = form.fields["recordsize"], form.fields["compression"]
        block = line.block or format_zfs_size(DEFAULT_RECORDSIZE)
        recordsize.choices = [("", f"inherit ({block})"), *recordsize.choices[1:]]
        compression.choices = [("", f"inherit ({line.compression or 'default'})"), *compression.choices[1:]]
    return form


def host_form(design: PoolDesign, data: Any = None) -> HostPlanningForm:
    """The "Host and planning" form of a design, each field saying what it inherits and from where."""
    spec = design.to_spec()
    estimate, _ = estimate_or_error(design)
    planned = bool(estimate and estimate.pool.zfs_used_bytes)
    defaults = inherited(spec, design_inputs(design, spec), planned)
    initial = HostPlanningForm.initial_from(spec)
    return HostPlanningForm(data, initial=initial, spec=spec, defaults=defaults, prefix="host")
