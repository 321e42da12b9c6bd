import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("plans", "0003_share_link"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="DesignRevision",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveIntegerField()),
                ("document", models.JSONField()),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("edit", "edit"),
                            ("fix", "fix applied"),
                            ("undo", "undo"),
                            ("redo", "redo"),
                            ("create", "created"),
                        ],
                        default="edit",
                        max_length=8,
                    ),
                ),
                ("summary", models.CharField(blank=True, max_length=200)),
                ("undo_to", models.PositiveIntegerField(blank=True, null=True)),
                ("redo_to", models.PositiveIntegerField(blank=True, null=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "design",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="revisions", to="plans.pooldesign"
                    ),
                ),
            ],
            options={
                "ordering": ["design", "-number"],
                "constraints": [
                    models.UniqueConstraint(fields=("design", "number"), name="unique_designrevision_number")
                ],
            },
        ),
    ]
