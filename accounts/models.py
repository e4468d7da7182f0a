from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person who plays; `display_name` is what the table shows beside their rolls."""

    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown at the table. Defaults to your username."
    )

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.shown_name
