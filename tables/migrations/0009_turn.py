from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0008_cosplay_sudden_end")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="awaited_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
