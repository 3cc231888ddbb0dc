"""Alembic environment of the volume database: tether.migrations.alembic_env
with its models."""

from tether.db.volume import models
from tether.migrations import alembic_env

alembic_env.run(models.Base.metadata)
