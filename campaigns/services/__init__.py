"""Service functions: every change and every read of a campaign goes through
here, whether it comes from a page, the API, a task or a management command."""
