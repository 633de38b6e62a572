"""Token authentication: trade a username and password for an API token."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .openapi import errors


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


@extend_schema(tags=["auth"])
class TokenObtainApi(APIView):
    authentication_classes: list = []  # credentials are the request itself; no CSRF dance
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token_obtain",
        request=AuthTokenSerializer,
        responses={200: TokenOutputSerializer, **errors(400)},
        auth=[],
        summary="Get an API token",
    )
    def post(self, request):
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response(TokenOutputSerializer({"token": token.key}).data)
