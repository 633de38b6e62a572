from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("rosters.urls")),
    path("", include("campaigns.urls")),
]

handler400 = "muster.error_pages.bad_request"
handler403 = "muster.error_pages.permission_denied"
handler404 = "muster.error_pages.page_not_found"
handler500 = "muster.error_pages.server_error"
