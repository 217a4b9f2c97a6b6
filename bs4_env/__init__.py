"""beautiful-soup-env: an RL environment for real-world HTML extraction with BeautifulSoup."""

__version__ = "0.1.0"
