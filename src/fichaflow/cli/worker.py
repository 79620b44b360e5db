"""``fichaflow worker``: processes that think the bots' moves, and do the Repaso's reviews, for
every ``fichaflow serve --redis`` using the same Redis, so that the CPU for them is added apart
from the WebSocket servers."""

from __future__ import annotations

import logging
import os

import click

from fichaflow import i18n
from fichaflow.cli.app import app, checked_redis, lang_of


@app.command()
@click.option(
    "--redis",
    "redis_url",
    required=True,
    metavar="URL",
    help="El Redis de los servidores (p. ej. redis://10.0.0.7:6379/0).",
)
@click.option(
    "--processes",
    default=0,
    type=click.IntRange(min=0),
    help="Procesos que piensan a la vez (0: uno por núcleo).",
)
@click.option(
    "--claim-after",
    default=5.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Segundos sin respuesta tras los que otro proceso retoma la jugada de uno perdido.",
)
def worker(redis_url: str, processes: int, claim_after: float) -> None:
    """Piensa las jugadas de los bots (y los Repasos) de los servidores que usan el mismo Redis."""
    from fichaflow.http.jobs import run_workers, shown_url
    from fichaflow.review.router import WORKER_JOBS as REVIEW_JOBS
    from fichaflow.server.botpool import WORKER_JOBS as GAME_JOBS
    from fichaflow.server.botpool import warm_up

    redis_url = checked_redis(redis_url)
    processes = processes or max(1, os.cpu_count() or 1)
    url = shown_url(redis_url)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    click.echo(i18n.text("cli.worker.start", lang_of(), processes=processes, url=url))
    jobs = {**GAME_JOBS, **REVIEW_JOBS}
    run_workers(redis_url, jobs, processes, claim_after=claim_after, warm_up=warm_up)
