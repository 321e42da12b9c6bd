"""``{% term "slop" %}``: the word, linked to its glossary entry the first time the page uses it.

``{% term "slop" "Slop" %}`` shows other words for the same entry. Later uses on the same page are
plain text: one link per word is enough, and a page full of links reads as noise.
"""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.urls import reverse
from django.utils.html import format_html

from ..glossary import BY_SLUG, SEGMENT_TERMS, shape_term

register = template.Library()


@register.simple_tag(takes_context=True)
def segment_term(context: Context, key: str, label: str) -> str:
    """A capacity breakdown part's label, linked when the glossary explains it (``SEGMENT_TERMS``)."""
    slug = SEGMENT_TERMS.get(key)
    return term(context, slug, label) if slug else format_html("{}", label)


@register.simple_tag(takes_context=True)
def vdev_shape(context: Context, shape: str) -> str:
    """A vdev shape as zpool names it, a dRAID name linked to what its parts mean."""
    slug = shape_term(shape)
    return term(context, slug, shape) if slug else format_html("{}", shape)


@register.simple_tag(takes_context=True)
def term(context: Context, slug: str, text: str = "") -> str:
    entry = BY_SLUG[slug]  # an unknown word is a mistake in the template: fail where it is written
    words = text or entry.name
    seen: set[str] = context.render_context.dicts[0].setdefault("glossary_linked", set())
    if slug in seen:
        return format_html("{}", words)
    seen.add(slug)
    return format_html('<a class="term" href="{}#{}" title="{}">{}</a>', reverse("plans:glossary"), slug,
                       entry.name, words)
