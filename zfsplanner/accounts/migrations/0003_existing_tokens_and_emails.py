"""Carry existing accounts over to sign-up with verified email and to named API tokens.

- Every account made before sign-up existed was made by an administrator: its email address
  counts as verified (unless another account already holds it verified), so it can still log in.
- Keys of the former single, never-expiring token per user (rest_framework.authtoken) become
  named tokens ("token from before token names") that keep working until revoked.
"""

import hashlib
from datetime import UTC, datetime

from django.conf import settings
from django.db import migrations
from django.utils.dateparse import parse_datetime


def aware(value):
    if isinstance(value, str):
        value = parse_datetime(value)
    if not isinstance(value, datetime):
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def forward(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("account", "EmailAddress")
    ApiToken = apps.get_model("accounts", "ApiToken")
    for user in User.objects.exclude(email="").filter(emailaddress__isnull=True):
        email = user.email.lower()
        taken = EmailAddress.objects.filter(email=email, verified=True).exists()
        EmailAddress.objects.create(user=user, email=email, verified=not taken, primary=True)

    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token = ApiToken.objects.create(
            user_id=user_id,
            name="token from before token names",
            prefix=key[:8],
            key_digest=hashlib.sha256(key.encode()).hexdigest(),
        )
        if aware(created):
            ApiToken.objects.filter(pk=token.pk).update(created=aware(created))
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_invitation_apitoken"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
