"""Labelled pages as tasks: rows of a JSONL file (yours, or the shipped ``real`` set), each a
page, a request and its accepted answers, served through the same engine as generated tasks."""
