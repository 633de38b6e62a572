from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("rosters", "0002_print_job")]

    operations = [
        migrations.AddField(
            model_name="printjob",
            name="heartbeat_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
