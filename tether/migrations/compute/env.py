"""Alembic environment of the compute database: tether.migrations.alembic_env
with its models."""

from tether.db.compute import models
from tether.migrations import alembic_env

alembic_env.run(models.Base.metadata)
