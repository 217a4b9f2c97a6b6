"""Executors that run model-written BeautifulSoup code over a task page."""
