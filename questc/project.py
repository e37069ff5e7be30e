"""The project's own addresses, read from its package metadata (`[project.urls]` in pyproject.toml).

pyproject.toml is the one place they are written: the SARIF log's `informationUri`,
each rule's `helpUri` (the code's section of docs/diagnostics.md) and the docs all
follow it. An installed questc (wheel or editable) carries the URLs in its metadata;
a bare source checkout run without installing has none, and the outputs then leave
the addresses out rather than invent one.
"""

from __future__ import annotations

from functools import cache


@cache
def project_urls() -> dict[str, str]:
    """`[project.urls]` as installed: label (lower case) -> URL; empty when questc is not installed."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("questc")
    except PackageNotFoundError:
        return {}
    urls = {}
    for entry in meta.get_all("Project-URL") or ():
        label, _, url = entry.partition(",")
        urls[label.strip().lower()] = url.strip()
    return urls


def home_page() -> str | None:
    urls = project_urls()
    return urls.get("homepage") or urls.get("repository")


def repository() -> str | None:
    return project_urls().get("repository")


def diagnostic_page(code: str) -> str | None:
    """The address of a code's section of docs/diagnostics.md on the project's main branch."""
    base = repository()
    return f"{base}/blob/main/docs/diagnostics.md#{code.lower()}" if base else None
