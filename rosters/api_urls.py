"""API routes of the rosters app (print jobs), mounted under /api/v1/ by api.urls."""

urlpatterns: list = []
