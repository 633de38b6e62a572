from django.urls import include, path

urlpatterns = [
    path("v1/", include("rosters.api_urls")),
]
