"""Domain errors as HTTP answers: 400 with field errors, 403, 404, 409."""

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from campaigns.errors import Conflict, DiceNeeded, DomainError, Forbidden, NotFound


def exception_handler(exc, context):
    if isinstance(exc, DiceNeeded):
        return Response({**exc.as_dict(), "dice_needed": exc.needs}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, NotFound):
        return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, Forbidden):
        return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, Conflict):
        return Response(
            {"detail": exc.message, "current_version": exc.current_version}, status=status.HTTP_409_CONFLICT
        )
    return drf_handler(exc, context)
