from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0004_event_seal"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tableevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("action", "Action"),
                    ("scene_start", "Scene started"),
                    ("scene_end", "Scene ended"),
                    ("session_start", "Session started"),
                    ("reveal", "Reveal"),
                    ("void", "Void"),
                    ("chat", "Chat"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="tableevent",
            name="visibility",
            field=models.CharField(
                choices=[
                    ("public", "Public"),
                    ("gm", "Secret (GMs only)"),
                    ("blind", "Blind (GMs only until revealed)"),
                    ("whisper", "Whisper (GMs and its author)"),
                ],
                default="public",
                max_length=10,
            ),
        ),
    ]
