"""{% viewcache "name" [unless var] %}…{% endviewcache %}: a page fragment kept per audience position;
{% live "template" %}: a part of a page kept whole drawn again for every request.

The view puts `view_key` (campaigns.kept_answers.viewcache.key: campaign, the audience's position, the
audience, organizer or not) in the context; the fragment is drawn once per key and then served
from the cache, and the lazy context values inside it are never computed. Without a key (no
position yet), or when `var` is true, it is drawn every time. Never around a form: forms carry
a per-render idempotency key and CSRF token (`unless` names when a fragment would hold one).
"""

from typing import cast

from django import template
from django.template import Engine
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

from campaigns.kept_answers import pages, viewcache

register = template.Library()


class ViewCacheNode(template.Node):
    def __init__(
        self, nodelist: NodeList, name: str, unless: FilterExpression | None = None
    ) -> None:
        self.nodelist, self.name, self.unless = nodelist, name, unless

    def render(self, context: Context) -> SafeString:
        base = context.get("view_key")
        if not base or (self.unless is not None and self.unless.resolve(context)):
            return self.nodelist.render(context)
        key = f"{base}:fragment:{self.name}"
        found = viewcache.get(key)
        if found is not viewcache.MISSING:
            return mark_safe(cast(str, found))  # the cache keeps what `put` was given: a str
        html = self.nodelist.render(context)
        if "<form" not in html:  # a form is drawn for each request, never served from the cache
            viewcache.put(key, str(html))
        return html


@register.tag("viewcache")
def do_viewcache(parser: Parser, token: Token) -> ViewCacheNode:
    bits = token.split_contents()
    named = len(bits) in (2, 4) and bits[1][0] in "\"'" and bits[1][0] == bits[1][-1]
    if not named or (len(bits) == 4 and bits[2] != "unless"):
        raise template.TemplateSyntaxError(
            'Usage: {% viewcache "name" [unless var] %}…{% endviewcache %}'
        )
    nodelist = parser.parse(("endviewcache",))
    parser.delete_first_token()
    unless = parser.compile_filter(bits[3]) if len(bits) == 4 else None
    return ViewCacheNode(nodelist, bits[1][1:-1], unless)


class LiveNode(template.Node):
    def __init__(self, name: str) -> None:
        self.name = name

    def render(self, context: Context) -> SafeString:
        if context.get(pages.KEEPING):  # a page drawn to keep: its mark, drawn at every serve
            return mark_safe(pages.live_mark(self.name))
        engine = context.template.engine if context.template else Engine.get_default()
        drawn = engine.get_template(self.name)
        with context.push():
            return drawn.render(context)


@register.tag("live")
def do_live(parser: Parser, token: Token) -> LiveNode:
    """{% live "template" %}: the template included, or in a page kept whole
    (campaigns.kept_answers.pages) a mark where each request draws it (pages.LIVE names them)."""
    bits = token.split_contents()
    name = bits[1][1:-1] if len(bits) == 2 and bits[1][0] in "\"'" else ""
    if name not in pages.LIVE:
        raise template.TemplateSyntaxError(f'Usage: {{% live "template" %}} of {pages.LIVE}')
    return LiveNode(name)
