"""The "isolation layers inactive" warning: once per process, the details in ``doctor``."""

from __future__ import annotations

import logging

import pytest

from bs4_env.sandbox import local_backend
from bs4_env.sandbox.isolation import LayerStatus

LAYERS = [
    LayerStatus("seccomp", True, "filter loaded"),
    LayerStatus("landlock", False, "kernel 5.10 has no Landlock ABI; a long explanation"),
    LayerStatus("user namespaces", False, "unprivileged user namespaces are disabled"),
]


def test_inactive_layers_are_reported_once_per_process(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_backend, "_reported", set())
    with caplog.at_level(logging.WARNING, logger=local_backend.__name__):
        warned = [local_backend.warn_inactive_layers(LAYERS) for _ in range(5)]
    assert warned == [True, False, False, False, False]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "landlock, user namespaces" in lines[0] and "bs4-env doctor" in lines[0]
    assert "long explanation" not in lines[0], "the details are doctor's"
    assert not local_backend.warn_inactive_layers(LAYERS[:1]), "all active: silent"


def test_doctor_prints_every_layer_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    from bs4_env.cli.main import main

    status = main(["doctor"])
    out = capsys.readouterr().out
    assert status in (0, 1)
    for line in out.splitlines()[:-2]:
        if line.strip():
            assert line.startswith(("active  ", "INACTIVE", "WARNING", "all ")), line
