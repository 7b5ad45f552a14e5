"""The move log as events (issue #12): ``Move.events`` replaces the prose of ``Move.narration``.

Existing moves get their events by replaying each table from its seed through the engine, as
``services.play_move`` now records them. A table whose log the rules no longer replay keeps empty events
from the first move refused on (its log shows no lines there) and is named in the migration's output.
Going back restores the field empty: prose in one language is not rebuilt.
"""

from django.db import migrations, models


def fill_events(apps, schema_editor):
    from rules import IllegalMove, registry

    Table = apps.get_model("tables", "Table")
    Move = apps.get_model("tables", "Move")
    played = Table.objects.filter(seed__isnull=False, moves__isnull=False).distinct()
    for table in played.only("pk", "game", "players", "seed", "options").iterator(chunk_size=200):
        engine = registry.get(table.game)
        state = engine.setup(players=table.players, seed=table.seed, options=table.options)
        moves = list(Move.objects.filter(table_id=table.pk).order_by("seq").only("pk", "seat", "move"))
        filled = []
        for move in moves:
            try:
                after = engine.apply(state, move.seat, move.move)
            except IllegalMove as exc:
                print(f"\n  table {table.pk}: move {move.pk} no longer replays ({exc}); its log stops there")
                break
            move.events = engine.events(state, move.seat, move.move, after)
            filled.append(move)
            state = after
        Move.objects.bulk_update(filled, ["events"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_ratings")]

    operations = [
        migrations.AddField(model_name="move", name="events", field=models.JSONField(default=list)),
        migrations.RunPython(fill_events, migrations.RunPython.noop, elidable=True),
        migrations.RemoveField(model_name="move", name="narration"),
    ]
