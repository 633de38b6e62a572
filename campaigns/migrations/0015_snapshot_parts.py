"""Each side's private part of a stored snapshot in a row of its own (SnapshotPart, JSON text with
its digest): an append writes the parts it changed, not the whole state. Every stored snapshot is split here (and joined
again going back); on PostgreSQL the parts are compressed with lz4 like the snapshot (0012)."""

import json

import django.db.models.deletion
from django.db import migrations, models


def _encoded(value):
    # As campaigns.journal.state_digest encodes a part (a migration keeps its own copy): JSON with
    # its keys in their order, and the digest of those bytes.
    import hashlib

    import orjson

    try:
        text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    return text.decode(), hashlib.sha256(text).hexdigest()[:32]


def _sides(state):
    game = state.get("game") if isinstance(state, dict) else None
    sides = game.get("sides") if isinstance(game, dict) else None
    return sides if isinstance(sides, dict) else None


def _split(apps, schema_editor):
    Snapshot = apps.get_model("campaigns", "Snapshot")
    SnapshotPart = apps.get_model("campaigns", "SnapshotPart")
    for pk in list(Snapshot.objects.values_list("pk", flat=True)):
        snapshot = Snapshot.objects.get(pk=pk)
        sides = _sides(snapshot.state)
        if not sides:
            continue
        parts = []
        for n, (side, value) in enumerate(sides.items()):
            text, digest = _encoded(value)
            parts.append(
                SnapshotPart(
                    campaign_id=snapshot.campaign_id, side=side, position=n, value=text, digest=digest
                )
            )
        SnapshotPart.objects.bulk_create(parts)
        snapshot.state["game"]["sides"] = {}
        snapshot.save(update_fields=["state"])


def _join(apps, schema_editor):
    Snapshot = apps.get_model("campaigns", "Snapshot")
    SnapshotPart = apps.get_model("campaigns", "SnapshotPart")
    for pk in list(Snapshot.objects.values_list("pk", flat=True)):
        snapshot = Snapshot.objects.get(pk=pk)
        parts = SnapshotPart.objects.filter(campaign_id=snapshot.campaign_id).order_by("position")
        if _sides(snapshot.state) is not None and parts.exists():
            snapshot.state["game"]["sides"] = {p.side: json.loads(p.value) for p in parts}
            snapshot.save(update_fields=["state"])
    SnapshotPart.objects.all().delete()


def _lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is not None:
            cursor.execute("ALTER TABLE campaigns_snapshotpart ALTER COLUMN value SET COMPRESSION lz4")


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0014_campaigns_listed_index")]

    operations = [
        migrations.CreateModel(
            name="SnapshotPart",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("side", models.TextField()),
                ("position", models.PositiveIntegerField()),
                ("value", models.TextField()),
                ("digest", models.CharField(blank=True, max_length=64)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="snapshot_parts",
                        to="campaigns.campaign",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("campaign", "side"), name="one_snapshot_part_a_side"
                    )
                ],
            },
        ),
        migrations.RunPython(_lz4, migrations.RunPython.noop),
        migrations.RunPython(_split, _join),
    ]
