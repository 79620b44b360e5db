"""``fichaflow play`` as a real process with a scripted keyboard: the same partida as the
in-process table, clean exits on Ctrl-D, Ctrl-C and ``q``, and one-line errors for bad options."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fichaflow.core.rules import Rules
from tests.tui.scripted import play_scripted


def command() -> list[str]:
    script = Path(sys.executable).with_name("fichaflow")
    found = str(script) if script.exists() else shutil.which("fichaflow")
    assert found, "the fichaflow command is installed with the package"
    return [found]


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        command() + args, input=stdin, capture_output=True, text=True, env=env, timeout=300
    )


def screen_lines(text: str) -> list[str]:
    """What the table printed, without the prompts (and the answers echoed after them)."""
    return [line.rstrip() for line in text.splitlines() if line.strip() and " › " not in line]


def test_the_real_command_plays_the_same_partida_as_the_table():
    played = play_scripted(Rules.make("mano_a_mano", target=60), seed="1v1-3")
    typed = "\n".join(played.person.plan.typed) + "\n"
    args = ["play", "--rules", "mano_a_mano", "--set", "target=60", "--bot", "tirapuntos"]
    done = run([*args, "--seed", "1v1-3"], typed)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert screen_lines(done.stdout) == screen_lines(played.output)
    # and what a person reads there: the prompts, a refusal, an end question, the winner
    assert "Ficha (número o 6-4), p paso, r robar, ? ayuda › " in done.stdout
    assert "pega por los dos lados: ¿i izquierda" in done.stdout
    assert "(pasar agachado no se permite)" in done.stdout
    assert "Robaste " in done.stdout
    assert "Gana la partida:" in done.stdout


def test_ctrl_d_leaves_cleanly():
    done = run(["play", "--bot", "tirapuntos", "--seed", "x"], "hola\n")
    assert done.returncode == 0
    assert "No entiendo «hola»" in done.stdout
    assert done.stdout.rstrip().endswith("Partida abandonada.")
    assert "Traceback" not in done.stderr + done.stdout


def test_q_leaves_cleanly():
    done = run(["play", "--rules", "tres", "--bot", "tirafichas", "--seed", "x"], "q\n")
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("Partida abandonada.")


def waiting_for_answer(pid: int) -> None:
    """Wait until the process sleeps reading its stdin. Between printing the question and reading,
    a signal only sets a flag that the blocked read never looks at, and the end of input that
    communicate() gives comes first (a person cannot press Ctrl-C inside that microsecond; a test
    on a loaded machine did). Where /proc does not tell, a pause does."""
    wchan = Path(f"/proc/{pid}/wchan")
    if not wchan.exists():
        time.sleep(1)
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sleeping_in = wchan.read_text()  # e.g. anon_pipe_read, pipe_read, pipe_wait
        if "pipe" in sleeping_in and "write" not in sleeping_in:
            return
        time.sleep(0.01)


def as_from_a_shell() -> None:
    """In the child, before the command starts: Ctrl-C as a shell leaves it (caught by default,
    not blocked), whatever the test worker that starts it has set for itself."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def signal_state(pid: int) -> str:
    """The signal lines of /proc/PID/status, to tell why a signal went unanswered."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return "(no /proc)"
    return " ".join(line for line in status.read_text().splitlines() if line.startswith("Sig"))


def test_ctrl_c_leaves_cleanly():
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [*command(), "play", "--bot", "tirapuntos", "--seed", "x"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=as_from_a_shell,
    )
    assert process.stdout and process.stdin and process.stderr
    seen = b""
    while "›".encode() not in seen:  # wait for the first question
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, "the command ended before asking anything"
        seen += chunk
    waiting_for_answer(process.pid)
    process.send_signal(signal.SIGINT)
    # stdin stays open until the command has answered the Ctrl-C: closing it at once would race
    # the end of input against the signal, which a person at a keyboard never does
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        state = signal_state(process.pid)
        process.kill()
        pytest.fail(f"the command did not answer Ctrl-C within 60 s ({state})")
    process.stdin.close()
    out, err = process.stdout.read(), process.stderr.read()
    assert process.returncode == 130
    assert "Partida abandonada." in (seen + out).decode()
    assert b"Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--seat", "4"], "Error: --seat debe ser un asiento de 0 a 3 (no 4)"),
        (["play", "--rules", "tres", "--seat", "3"], "Error: --seat debe ser un asiento de 0 a 2"),
        (["play", "--bot", "nadie"], "Error: No existe el bot «nadie»; los bots son: "),
        (["play", "--rules", "cuba"], "Error: No existe el reglamento «cuba»"),
        (["play", "--set", "target=5"], "Error: La meta (la opción target) debe ser"),
        (["--lang", "en", "play", "--seat", "9"], "Error: --seat must be a seat from 0 to 3"),
    ],
)
def test_bad_options_get_one_line_and_nothing_starts(args: list[str], message: str) -> None:
    done = run(args, "")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message)
    assert done.stderr.count("\n") == 1


def test_in_english():
    done = run(["--lang", "en", "play", "--bot", "tirapuntos", "--seed", "x"], "?\n")
    assert "Tile (number or 6-4), p pass, r draw, ? help › " in done.stdout
    assert "p or pass: pass (only when nothing fits)" in done.stdout
    assert done.stdout.rstrip().endswith("Partida abandoned.")
