"""The snapshot's state compressed with lz4 on PostgreSQL (where the server has it): every append
writes the whole state again, and lz4 compresses it several times faster than PostgreSQL's
default (pglz). Values written before keep their compression until next written. Nothing on
SQLite."""

from django.db import migrations

COLUMNS = [("campaigns_snapshot", "state")]


def _lz4(apps, schema_editor, method="lz4"):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is None:
            return  # a server built without lz4: the default stays
        for table, column in COLUMNS:
            cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")


def _default(apps, schema_editor):
    _lz4(apps, schema_editor, method="DEFAULT")


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0011_campaign_archive")]

    operations = [migrations.RunPython(_lz4, _default)]
