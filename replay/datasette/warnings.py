"""A Datasette plugin of ``rinklog serve``: the warning of a database that does not check
out (issue 33: a stream's events against their hash chain, a stored read model against
its events), found when the server starts and kept in its metadata as
``rinklog_warnings``, shown at the top of every page by templates/base.html (which extends
Datasette's own, its ``messages`` block)."""

from __future__ import annotations

from typing import Any

from datasette import hookimpl


@hookimpl
def extra_template_vars(datasette: Any) -> dict[str, Any]:
    return {"rinklog_warnings": datasette.metadata("rinklog_warnings") or []}
