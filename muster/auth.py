"""Django's model backend, reading the signed-in user with a prepared statement.

Every signed-in request reads the user's row (django.contrib.auth.get_user); through the ORM
building that one query costs several times running it. Sessions signed in with Django's own
backend (before this one was listed) keep working: it stays listed after this one.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from campaigns.kept_answers import prepared

_SQL: list[str] = []


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id: object) -> User | None:
        User = get_user_model()
        if not _SQL:
            # A concrete field is one with a column: the filter only says so to the type checker.
            columns = ", ".join(f.column for f in User._meta.concrete_fields if f.column)
            _SQL.append(
                f"SELECT {columns} FROM {User._meta.db_table} WHERE {User._meta.pk.column} = %s"
            )
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = prepared.one(User, _SQL[0], [pk], ())
        return user if user is not None and self.user_can_authenticate(user) else None
