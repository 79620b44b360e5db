"""Run ``fichaflow`` as a real process, the way a user does, and read what it says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Result:
    status: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    @property
    def error_line(self) -> str:
        """The one line a refusal prints; fails unless there is exactly one and nothing else."""
        lines = self.err.splitlines()
        assert self.status == 2, (self.status, self.out, self.err)
        assert len(lines) == 1, self.err
        assert "Traceback" not in self.err
        assert self.out == ""
        return lines[0]


def fichaflow(*args: str, cwd: Path | None = None, timeout: float = 60) -> Result:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "fichaflow", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )
    return Result(done.returncode, done.stdout, done.stderr)


def write(path: Path, data: Any) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)
