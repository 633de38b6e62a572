"""The product's URLs plus the bare view the benchmarks compare against."""

from django.http import JsonResponse
from django.urls import path

from muster.urls import urlpatterns as product

CONSTANT = {"status": "ok", "items": [1, 2, 3]}


def constant(request):
    """A Django view doing nothing: the floor every figure is compared with."""
    return JsonResponse(CONSTANT)


urlpatterns = [path("bench/constant/", constant), *product]
