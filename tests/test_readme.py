"""The README's example runs as written, and its commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    scope: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), scope)
    game = scope["game"]
    assert game.hand.contract == 4  # Obenabe, named by the partner after the chibre
    assert len(game.hand.trick) == 1


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) >= 2
    assert blocks[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
