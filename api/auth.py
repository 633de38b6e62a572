"""Token authentication: trade a username and password for an API token. Wrong passwords count
towards the sign-in lockout of the pages (muster.signin): 429 while locked out."""

from django.contrib.auth.signals import user_logged_in
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from muster.signin import locked_out_message

from .openapi import RESPONSES, errors


class TokenOutputSerializer(serializers.Serializer[dict[str, str]]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


@extend_schema(tags=["auth"])
class TokenObtainApi(APIView):
    authentication_classes: list[
        type[BaseAuthentication]
    ] = []  # credentials are the request itself; no CSRF dance
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token_obtain",
        request=AuthTokenSerializer,
        responses={200: TokenOutputSerializer, **errors(400), 429: RESPONSES[429]},
        auth=[],
        summary="Get an API token",
    )
    def post(self, request: Request) -> Response:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        valid = serializer.is_valid()
        if getattr(request, "axes_locked_out", False):  # set by django-axes (muster.signin)
            raise Throttled(detail=locked_out_message())
        if not valid:
            raise ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        # A sign-in like the pages': the failure count starts again (django-axes), last_login moves.
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        token, _ = Token.objects.get_or_create(user=user)
        return Response(TokenOutputSerializer({"token": token.key}).data)
