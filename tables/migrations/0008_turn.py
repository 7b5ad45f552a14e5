from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_social")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="awaited_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
