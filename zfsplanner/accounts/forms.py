"""Forms of the team and profile pages; the rules they feed are in ``services`` and ``tokens``."""

from __future__ import annotations

from typing import Any

from django import forms

from .models import Profile, Role

TOKEN_LIFETIMES = [("7", "7 days"), ("30", "30 days"), ("90", "90 days"), ("365", "1 year"), ("never", "Never")]


class InvitationForm(forms.Form):
    invitee = forms.CharField(
        label="Email address or user name",
        max_length=254,
        required=False,  # services.clean_invitee says what is missing
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "dana@example.com"}),
    )
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label="Display name", max_length=150, required=False, help_text="Shown to your teams next to your user name."
    )

    def clean_display_name(self) -> str:
        value: str = self.cleaned_data["display_name"].strip()
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise forms.ValidationError("must not contain control characters")
        return value


class TokenForm(forms.Form):
    name = forms.CharField(
        label="Name", max_length=100, help_text="What uses it, e.g. “backup host” or “CI”."
    )
    lifetime = forms.ChoiceField(label="Expires after", choices=TOKEN_LIFETIMES, initial="90")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        lifetime = data.get("lifetime")
        data["days"] = None if lifetime == "never" else int(lifetime) if lifetime else None
        return data


class UnitForm(forms.ModelForm):
    """The unit sizes are shown in (the profile's one preference so far)."""

    class Meta:
        model = Profile
        fields = ["size_unit"]
        widgets = {"size_unit": forms.RadioSelect}
