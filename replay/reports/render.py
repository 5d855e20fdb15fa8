"""The Jinja2 environment of the pages: the templates shipped in ``templates/``, HTML
autoescaped, undefined names an error (a template that asks for a field the view model
lacks fails loudly in the tests, not silently on a page)."""

from __future__ import annotations

import functools
from typing import Any

import jinja2


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("replay.reports", "templates"),
        autoescape=jinja2.select_autoescape(["html.j2"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["num"] = _num
    return env


def _num(value: float, digits: int = 1) -> str:
    """A coordinate or ratio for an SVG attribute: short and locale-free."""
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def render(template: str, **context: Any) -> str:
    """The page ``template`` (a file in templates/) filled with the view model."""
    return environment().get_template(template).render(**context)
