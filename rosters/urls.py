"""Pages of the rosters app (sheets, print jobs)."""

urlpatterns: list = []
