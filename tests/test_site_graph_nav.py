"""Issue 13 items 3, 4, 5 and 7: a graph that fits and reads, navigation for an ADR-only
site, drift left to the CLI, and no request to another origin.

Every site here is a real ``mkdocs build`` of an ADR-only project (``docs/`` holds only
``adr/``, no home page) in both themes. The log is written the way a small team writes
Nygard records with frontmatter relations: a supersession in effect, one only proposed,
a partial supersession, and two amendments that cross when the records are laid out in
id order.
"""

from __future__ import annotations

import re
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mkdocs_adr.config import from_options
from mkdocs_adr.log import load
from mkdocs_adr.views import dot, graphdata, mermaid, svg

from .conftest import REPO, run_cli
from .test_site_kit import build

THEMES = ("material", "mkdocs")

RECORDS: dict[str, str] = {
    "0001-record-architecture-decisions.md": """\
        # 1. Record architecture decisions

        Date: 2025-01-06

        ## Status

        Accepted

        ## Context

        We want to remember why we built things the way we did.

        ## Decision

        We keep Nygard-style records in docs/adr.
        """,
    "0002-store-orders-in-mysql.md": """\
        ---
        status: superseded
        date: 2025-01-20
        superseded-by: [ADR-0004]
        ---
        # 2. Store orders in MySQL

        ## Context

        The order service needs a relational store.

        ## Decision

        MySQL 8, managed by the hosting provider.
        """,
    "0003-write-logs-as-json-lines-to-standard-output.md": """\
        ---
        status: accepted
        date: 2025-02-03
        ---
        # 3. Write logs as JSON lines to standard output

        ## Context

        Log shipping differs per cluster.

        ## Decision

        Every service writes one JSON object per line to stdout.
        """,
    "0004-store-orders-in-postgresql.md": """\
        ---
        status: accepted
        date: 2025-03-10
        supersedes: [ADR-0002]
        ---
        # 4. Store orders in PostgreSQL

        ## Context

        MySQL's JSON support held us back.

        ## Decision

        PostgreSQL 16 for orders.
        """,
    "0005-ship-logs-with-opentelemetry-collector-agents.md": """\
        ---
        status: proposed
        date: 2025-04-01
        supersedes: [ADR-0003]
        ---
        # 5. Ship logs with OpenTelemetry collector agents on every node of every cluster

        ## Context

        Teams want traces and logs in one pipeline.

        ## Decision

        A collector agent per node reads stdout and ships OTLP.
        """,
    "0006-keep-invoices-in-a-separate-schema.md": """\
        ---
        status: accepted
        date: 2025-04-15
        partially-supersedes: [ADR-0004]
        ---
        # 6. Keep invoices in a separate schema

        ## Context

        Invoices have a retention rule of their own.

        ## Decision

        Invoices move to their own schema; orders stay as ADR-0004 says.
        """,
    "0007-queue-jobs-with-rabbitmq.md": """\
        ---
        status: accepted
        date: 2025-05-05
        ---
        # 7. Queue jobs with RabbitMQ

        ## Context

        Background jobs need a broker.

        ## Decision

        RabbitMQ with quorum queues.
        """,
    "0008-deploy-on-kubernetes.md": """\
        ---
        status: accepted
        date: 2025-05-06
        ---
        # 8. Deploy on Kubernetes

        ## Context

        We run on three clusters.

        ## Decision

        Every service ships as a Helm chart.
        """,
    "0009-autoscale-workers-on-cpu.md": """\
        ---
        status: accepted
        date: 2025-06-02
        amends: [ADR-0008]
        ---
        # 9. Autoscale workers on CPU

        ## Context

        Night batches starve the day traffic.

        ## Decision

        A horizontal pod autoscaler per worker deployment.
        """,
    "0010-dead-letter-queues-for-failed-jobs.md": """\
        ---
        status: accepted
        date: 2025-06-20
        amends: [ADR-0007]
        depends-on: [ADR-0008]
        ---
        # 10. Dead-letter queues for failed jobs

        ## Context

        Failed jobs vanish.

        ## Decision

        Every queue gets a dead-letter queue, run as a Kubernetes job.
        """,
}

LONG_TITLE = "Ship logs with OpenTelemetry collector agents on every node of every cluster"


def write_log(docs: Path) -> None:
    adr = docs / "adr"
    adr.mkdir(parents=True, exist_ok=True)
    for name, text in RECORDS.items():
        (adr / name).write_text(textwrap.dedent(text), encoding="utf-8")


def adr_only_site(
    folder: Path, theme: str, *, roots: str = "", extra: str = "", log: bool = True
) -> Path:
    """An ADR-only project: ``docs/adr`` and nothing else in ``docs``."""
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    if log:
        write_log(docs)
    theme_block = f"theme:\n  name: {theme}\n"
    options = f"\n      roots: {roots}" if roots else ""
    (folder / "mkdocs.yml").write_text(
        f"site_name: Shop decisions\n{theme_block}{extra}"
        f"plugins:\n  - search\n  - adr:{options or ' {}'}\n",
        encoding="utf-8",
    )
    return folder


def built(folder: Path, *, strict: bool = True) -> Path:
    proc = build(folder, strict=strict)
    assert proc.returncode == 0, proc.stderr
    return folder / "site"


@pytest.fixture(scope="module", params=THEMES)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = adr_only_site(tmp_path_factory.mktemp(f"site-{request.param}"), request.param)
    return built(folder)


def engine_graph(folder: Path) -> graphdata.GraphData:
    config = from_options(
        {}, project_dir=folder, docs_dir=folder / "docs", config_file=folder / "mkdocs.yml"
    )
    return graphdata.build(load(config))
