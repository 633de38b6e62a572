"""The release running (tagged ``v<version>`` in git, CHANGELOG.md): journal files and stored
campaigns record the release they were written or upgraded under (campaigns.versions). A module
of its own, so that reading it imports nothing else (muster/__init__.py starts the Celery app)."""

__version__ = "0.2.0.dev0"
