"""``bs4-env report``: a real eval's results JSON as one self-contained, inert HTML page.

The results come from a real ``bs4-env eval`` (reference policy); one transcript is then given
hostile HTML (as pages and models can produce) and one error row is added, as the runner
writes them. The static checks parse the page with BeautifulSoup; the browser test opens it
in headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by selenium).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from bs4_env.cli.main import main
from bs4_env.evaluation.html_report import render_report
from bs4_env.evaluation.report import error_record
from bs4_env.evaluation.report_input import check_results
from bs4_env.tasks.splits import Row

HOSTILE = (
    '<script>window.__pwned = "script";</script>'
    '<img src="x" onerror="window.__pwned = \'img\'">'
    "</pre></details></div><script>window.__pwned = 'breakout';</script>"
)
ERROR_TEXT = "<b>endpoint</b> & co went away"


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real eval's results, plus a hostile tool reply and an error row."""
    root = tmp_path_factory.mktemp("report")
    path = root / "results.json"
    assert main(["eval", "-n", "6", "-o", str(path), "--quiet", "--no-resume"]) == 0
    results = json.loads(path.read_text(encoding="utf-8"))
    hostile = results["rollouts"][0]
    hostile["transcript"].append({"role": "tool", "tool_call_id": "x", "content": HOSTILE})
    hostile["final"] = HOSTILE
    row = Row(results["rollouts"][1]["archetype"], 99, "bench")
    results["rollouts"].append(error_record(row, RuntimeError(ERROR_TEXT), None))
    path.write_text(json.dumps(results), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report_file(results_file: Path) -> Path:
    output = results_file.with_name("report.html")
    assert main(["report", str(results_file), "--out", str(output)]) == 0
    return output


@pytest.fixture(scope="module")
def page(report_file: Path) -> BeautifulSoup:
    return BeautifulSoup(report_file.read_text(encoding="utf-8"), "html.parser")


def test_tables_match_the_rollouts(page: BeautifulSoup, results_file: Path) -> None:
    results = json.loads(results_file.read_text(encoding="utf-8"))
    rollouts = results["rollouts"]
    for key in ("archetype", "difficulty", "category"):
        body_rows = page.select(f"table#by-{key} > tbody > tr")
        assert len(body_rows) == len({r[key] for r in rollouts}) + 1  # groups + "all"
        all_cells = [td.get_text() for td in body_rows[-1].find_all("td")]
        assert all_cells[:3] == ["all", str(len(rollouts)), "1"]  # n and the one error row
    completed = [r["reward"] for r in rollouts if r["error"] is None]
    mean = page.select("table#by-category > tbody > tr")[-1]
    assert mean.find_all("td")[3].get_text() == f"{sum(completed) / len(completed):.3f}"


def test_every_rollout_is_one_click_from_its_transcript(
    page: BeautifulSoup, results_file: Path
) -> None:
    rollouts = json.loads(results_file.read_text(encoding="utf-8"))["rollouts"]
    details = page.select("div.rollouts > details.rollout")
    assert len(details) == len(rollouts)
    for item in details:
        assert item.find("summary") is not None and not item.has_attr("open")
    first = details[0]
    code = first.select_one(".m-assistant .call pre")
    assert code is not None and "make_soup" in code.get_text()  # run_python code, unescaped text
    links = {a["href"] for a in page.select("#by-archetype a")}
    assert links <= {f"#{d['id']}" for d in details}


def test_hostile_text_stays_text(page: BeautifulSoup, report_file: Path) -> None:
    raw = report_file.read_text(encoding="utf-8")
    assert page.find("script") is None and "<script" not in raw
    assert not page.select("[onerror]")
    shown = [pre.get_text() for pre in page.select("details pre")]
    assert HOSTILE in shown  # as the model saw it: the reply and the final answer
    error_row = page.select_one("p.error-text")
    assert error_row is not None and f"RuntimeError: {ERROR_TEXT}" in error_row.get_text()


def test_page_is_self_contained(page: BeautifulSoup) -> None:
    """No script, no stylesheet or image from anywhere: every load is inline or a data: URI."""
    assert page.find(["script", "link", "iframe", "object", "embed"]) is None
    for element in page.find_all(src=True):
        assert str(element["src"]).startswith("data:image/svg+xml;base64,"), element.name
    for element in page.find_all(href=True):
        assert str(element["href"]).startswith("#")
    csp = page.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert csp is not None and "default-src 'none'" in csp["content"]
    assert len(page.select("img.histogram")) == 3


def test_report_is_deterministic(results_file: Path) -> None:
    results = check_results(json.loads(results_file.read_text(encoding="utf-8")))
    assert render_report(copy.deepcopy(results)) == render_report(copy.deepcopy(results))


def test_default_output_is_beside_the_results(results_file: Path, tmp_path: Path) -> None:
    copied = tmp_path / "run.json"
    shutil.copy(results_file, copied)
    assert main(["report", str(copied)]) == 0
    assert (tmp_path / "run.html").is_file()


def _bad_input(tmp_path: Path, name: str, content: str | bytes | None) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    return path


def _one_rollout(results_file: Path, **changes: Any) -> str:
    results = json.loads(results_file.read_text(encoding="utf-8"))
    results["rollouts"] = [dict(results["rollouts"][0], **changes)]
    return json.dumps(results)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.json", None, "no such file"),
        ("binary.json", b"\xff\xfe\x00junk", "not UTF-8"),
        ("broken.json", '{"rollouts": [', "not JSON (Expecting value at line 1"),
        ("list.json", "[1, 2]", "expected a JSON object"),
        ("journal.json", '{"archetype": "text_by_id"}', "no 'rollouts' list"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: str | bytes | None,
    message: str,
) -> None:
    path = _bad_input(tmp_path, name, content)
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and "Traceback" not in err
    assert not (tmp_path / (path.stem + ".html")).exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reward": "high"}, "rollouts[0].reward: expected a number or null, got 'high'"),
        ({"reward": None}, "rollouts[0].reward: null, but the rollout has no error"),
        ({"seed": "7"}, "rollouts[0].seed: expected an integer"),
        ({"transcript": [{"content": "hi"}]}, "rollouts[0].transcript[0].role"),
        ({"archetype": None}, "rollouts[0].archetype: expected a string"),
    ],
)
def test_wrong_shape_names_the_field(
    tmp_path: Path,
    results_file: Path,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, Any],
    message: str,
) -> None:
    path = _bad_input(tmp_path, "shape.json", _one_rollout(results_file, **changes))
    assert main(["report", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_unwritable_output_and_self_overwrite(
    tmp_path: Path, results_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(results_file), "--out", str(tmp_path / "no" / "r.html")]) == 2
    assert "cannot write the report" in capsys.readouterr().err
    assert main(["report", str(results_file), "--out", str(results_file)]) == 2
    assert "would overwrite its own input" in capsys.readouterr().err


# --- in a real browser ---------------------------------------------------------------------

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")


def _browser() -> tuple[str, str]:
    """Chromium and its driver; their absence fails the run (``make test`` installs them)."""
    if CHROMIUM and CHROMEDRIVER:
        return CHROMIUM, CHROMEDRIVER
    missing = "chromium" if not CHROMIUM else "chromedriver"
    pytest.fail(
        f"{missing} not found; install it with: "
        "sudo apt-get install -y chromium chromium-driver (make test does this as root)"
    )


@pytest.mark.integration
def test_report_in_headless_chromium(report_file: Path, results_file: Path) -> None:
    """Tables and histograms render, a click opens a transcript, hostile text does not run,
    and the console has no error (a CSP refusal would be one)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    chromium, chromedriver = _browser()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        driver.get(report_file.as_uri())
        tables = driver.find_elements(By.CSS_SELECTOR, "table.breakdown")
        assert len(tables) == 3 and all(t.is_displayed() for t in tables)
        assert tables[0].find_elements(By.CSS_SELECTOR, "tbody tr")[0].size["height"] > 0
        images = driver.find_elements(By.CSS_SELECTOR, "img.histogram")
        assert images, "no histogram"
        for image in images:
            width = driver.execute_script("return arguments[0].naturalWidth", image)
            assert image.is_displayed() and width > 0, image.get_attribute("id")
        rollouts = driver.find_elements(By.CSS_SELECTOR, "details.rollout")
        hostile = rollouts[0]
        transcript = hostile.find_element(By.CSS_SELECTOR, ".transcript")
        assert not transcript.is_displayed()
        hostile.find_element(By.TAG_NAME, "summary").click()
        assert hostile.get_attribute("open") is not None and transcript.is_displayed()
        assert "<script>window.__pwned" in transcript.text
        assert driver.execute_script("return window.__pwned === undefined")
        assert driver.execute_script("return document.scripts.length") == 0
        log = driver.get_log("browser")  # type: ignore[no-untyped-call]
        errors = [entry for entry in log if entry["level"] == "SEVERE"]
        assert errors == []
    finally:
        driver.quit()
