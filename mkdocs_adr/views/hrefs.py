"""How a view asks for a link: the host (the plugin, a test) answers, views never build URLs.

Two questions, two names: a record's page by its id (relation lists, banners, the
pager, graph nodes) and a source file's page by its docs-relative path (CURRENT's
banner naming the changed file). ``None`` means there is no page to link to: the
view prints plain text.
"""

from __future__ import annotations

from collections.abc import Callable

#: The URL of the page of the record with this id, relative to the page being rendered.
RecordHref = Callable[[str], "str | None"]
#: The URL of the page built from this docs-relative source path, relative to the page
#: being rendered.
SourceHref = Callable[[str], "str | None"]
