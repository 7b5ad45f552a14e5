import secrets

from django.db import migrations, models

import tables.models


def give_each_table_its_own_token(apps, schema_editor):
    """AddField computes a callable default once: every existing table would share one token."""
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.only("pk").iterator():
        Table.objects.filter(pk=table.pk).update(invite_token=secrets.token_urlsafe(16))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0002_clocks_and_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="invite_token",
            field=models.CharField(default=tables.models.new_invite_token, editable=False, max_length=32),
        ),
        migrations.RunPython(give_each_table_its_own_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="private",
            field=models.BooleanField(
                default=False,
                help_text="Reachable only by its players, its creator and through its invite link (invite_token).",
            ),
        ),
    ]
