"""Open classic ``vf-eval`` outputs in ``vf-tui`` (verifiers 0.1.14, Textual) headless.

Runs inside the vf-tui venv (``python classic_tui_probe.py OUTPUTS_DIR SCREENSHOT.svg
[INDICES]``), not in the project's: it finds the runs the way ``vf-tui`` does
(``discover_results`` over ``OUTPUTS_DIR/evals``), starts the real app with Textual's test
pilot, opens each run's view and walks its rollouts with the ``n`` key. Prints one JSON
object: the runs found, and per run the rollout count and the text each rollout's view
showed (reward header, completion history, task and info tabs), for every rollout or only
those at the comma-separated ``INDICES`` (reading a view costs about 0.7 CPU-s); saves an SVG
screenshot of the first run's view.

vf-tui renders message bodies as Markdown by default, which (as CommonMark says) drops the
backslash of ``\"`` inside a JSON answer; each view's history is therefore read twice: as
shown (``history``) and after the ``m`` key switches to raw text (``raw_history``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from textual.widgets import OptionList, Static
from verifiers.scripts.tui import VerifiersTUI, ViewRunScreen, discover_results

PANES = ("#metadata-reward", "#history-summary", "#task-content", "#info-content")


def _text(widget: Static) -> str:
    return str(widget.render())


def _history(screen: ViewRunScreen) -> str:
    return "\n".join(_text(w) for w in screen.query("#completion-scroll Static"))


async def probe(outputs: Path, screenshot: Path, indices: set[int] | None) -> dict[str, Any]:
    runs = discover_results(str(outputs / "no-env-dir"), str(outputs))
    found = {env: {model: len(r) for model, r in models.items()} for env, models in runs.items()}
    report: dict[str, Any] = {"found": found, "runs": []}
    app = VerifiersTUI(runs)
    async with app.run_test(size=(220, 70)) as pilot:
        for models in runs.values():
            for run_list in models.values():
                for run in run_list:
                    screen = ViewRunScreen(run)
                    await app.push_screen(screen)
                    await pilot.pause()
                    count = screen.query_one("#rollout-list", OptionList).option_count
                    views = []
                    wanted = set(range(count)) if indices is None else indices & set(range(count))
                    for index in range(max(wanted, default=-1) + 1):
                        if index not in wanted:
                            await pilot.press("n")
                            await pilot.pause()
                            continue
                        history = _history(screen)
                        await pilot.press("m")  # raw text instead of Markdown
                        await pilot.pause()
                        raw_history = _history(screen)
                        await pilot.press("m")
                        await pilot.pause()
                        panes = {pane: _text(screen.query_one(pane, Static)) for pane in PANES}
                        views.append(
                            {"index": index, "history": history, "raw_history": raw_history} | panes
                        )
                        await pilot.press("n")
                        await pilot.pause()
                    if not report["runs"]:
                        app.save_screenshot(screenshot.name, str(screenshot.parent))
                    report["runs"].append({"path": str(run.path), "count": count, "views": views})
                    app.pop_screen()
                    await pilot.pause()
    return report


def main() -> None:
    outputs, screenshot = Path(sys.argv[1]), Path(sys.argv[2])
    indices = {int(i) for i in sys.argv[3].split(",")} if len(sys.argv) > 3 else None
    print(json.dumps(asyncio.run(probe(outputs, screenshot, indices))))


if __name__ == "__main__":
    main()
