"""Cosplay's end option changes with the rulings of 2026-11-26: the round played out is now the rule and the
sudden end the house rule ``sudden_end``. A stored table keeps meaning what it meant: ``finish_round: true``
(the round played out) becomes ``sudden_end: false``; ``finish_round: false``, or no option at all (the
sudden end was then the default), becomes ``sudden_end: true``. The stored states (``Table.state``) hold
their options as they were, and the engine reads the former option there (rules.cosplay.moves.sudden_end)."""

from django.db import migrations


def to_sudden_end(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(game="cosplay").only("pk", "options").iterator():
        options = dict(table.options or {})
        if "sudden_end" in options:
            continue
        options["sudden_end"] = not options.pop("finish_round", False)
        Table.objects.filter(pk=table.pk).update(options=options)


def to_finish_round(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(game="cosplay").only("pk", "options").iterator():
        options = dict(table.options or {})
        if "sudden_end" not in options:
            continue
        options["finish_round"] = not options.pop("sudden_end")
        Table.objects.filter(pk=table.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_social")]

    operations = [migrations.RunPython(to_sudden_end, to_finish_round)]
