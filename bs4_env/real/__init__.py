"""``real``: an evaluation set of labelled real web pages from two public benchmarks.

The package ships the rows (request, accepted answers, the page's sha256 and its upstream
repository, commit and path), never the pages: ``bs4-env real fetch`` downloads them into the
page cache. An evaluation set only: never train on it. See docs/real-pages.md.
"""
