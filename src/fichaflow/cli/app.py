"""The command group, the ``--lang`` option and the one way every command reports bad input."""

from __future__ import annotations

import importlib
import sys
from typing import Final, NoReturn

import click

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError

LANGS = i18n.LANGUAGES

COMMANDS: Final = {
    name: f"fichaflow.cli.{name}"
    for name in (
        "analyze",
        "bench",
        "duel",
        "engine",
        "play",
        "problemas",
        "replay",
        "score",
        "serve",
        "torneo",
        "verify",
        "worker",
    )
}
"""Each command and the module that defines it (and registers it on :data:`app` when imported)."""


class Commands(click.Group):
    """The group that imports a command's module only when that command is asked for, so that
    ``fichaflow score`` starts without loading the search engine, the server or the terminal
    table (``--help`` still lists them all)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name])
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in COMMANDS:  # a mistake: load them all, for "did you mean"
            for module in COMMANDS.values():
                importlib.import_module(module)
        return super().resolve_command(ctx, args)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--lang",
    type=click.Choice(LANGS),
    default="es",
    show_default=True,
    help="Idioma de los mensajes (es: español, en: English).",
)
@click.version_option(package_name="fichaflow")
@click.pass_context
def app(ctx: click.Context, lang: str) -> None:
    """FichaFlow: dominó venezolano y dominicano — jugar, anotar y aprender."""
    ctx.obj = {"lang": lang}


def lang_of(ctx: click.Context | None = None) -> str:
    """The language the user asked for (Spanish unless ``--lang en``)."""
    ctx = ctx or click.get_current_context(silent=True)
    while ctx is not None:
        if isinstance(ctx.obj, dict) and "lang" in ctx.obj:
            return str(ctx.obj["lang"])
        ctx = ctx.parent
    return "es"


def fail(error: FichaFlowError) -> NoReturn:
    """Report bad input in one line on stderr and exit with status 2; nothing was changed."""
    click.echo(f"Error: {error.message(lang_of())}", err=True)
    sys.exit(2)


def checked_redis(url: str) -> str:
    """``url`` if it is a Redis URL, else one clear line and exit status 2. Redis itself need
    not be up: the bots wait for it, and play once it is."""
    from fichaflow.http.jobs import check_url, shown_url

    try:
        return check_url(url)
    except ValueError:
        fail(FichaFlowError("server.redis", url=shown_url(url)))


def file_error(path: str, exc: OSError) -> FichaFlowError:
    """A file that cannot be read, in the user's language rather than the system's English."""
    if isinstance(exc, FileNotFoundError):
        return FichaFlowError("cli.file_missing", path=path)
    if isinstance(exc, IsADirectoryError):
        return FichaFlowError("cli.file_folder", path=path)
    if isinstance(exc, PermissionError):
        return FichaFlowError("cli.file_denied", path=path)
    return FichaFlowError("cli.file", path=path, detail=exc.strerror or str(exc))


def _usage_text(message: str, lang: str) -> str:
    """Click's usage message (always English) in ``lang``: each known fragment, by the
    catalogue's ``cli.click.*`` keys, is replaced with its words in that language (longest
    first, so that "extra arguments" is not read as "extra argument" and an "s")."""
    english = i18n.catalogue("en")
    fragments = [k for k in english if k.startswith("cli.click.")]
    for key in sorted(fragments, key=lambda k: -len(english[k])):
        message = message.replace(english[key], i18n.text(key, lang))
    return message


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the group, turning click's usage errors into one line and status 2."""
    args = sys.argv[1:] if argv is None else argv
    lang = "en" if "--lang=en" in args or ("--lang" in args and "en" in args) else "es"
    try:
        code = app.main(args=args, prog_name="fichaflow", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo(i18n.text("cli.aborted", lang), err=True)
        sys.exit(130)
    except click.ClickException as exc:
        text = _usage_text(exc.format_message(), lang)
        click.echo(i18n.text("cli.usage_error", lang, detail=text), err=True)
        sys.exit(2)
    except FichaFlowError as exc:
        click.echo(f"Error: {exc.message(lang)}", err=True)
        sys.exit(2)
    if isinstance(code, int) and code:
        sys.exit(code)
