"""Models of flavors and their access lists, and of key pairs."""

import sqlalchemy as sa

from tether.db import base
from tether.db.compute.models.common import Base


class Flavor(base.TimestampMixin, Base):
    __tablename__ = 'flavors'
    __table_args__ = (
        sa.UniqueConstraint('flavorid', name='uniq_flavors0flavorid'),
        sa.UniqueConstraint('name', name='uniq_flavors0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavorid = sa.Column(sa.String(255), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    memory_mb = sa.Column(sa.Integer, nullable=False)
    vcpus = sa.Column(sa.Integer, nullable=False)
    root_gb = sa.Column(sa.Integer, nullable=False, default=0)
    ephemeral_gb = sa.Column(sa.Integer, nullable=False, default=0)
    swap = sa.Column(sa.Integer, nullable=False, default=0)
    rxtx_factor = sa.Column(sa.Float, nullable=False, default=1.0)
    is_public = sa.Column(sa.Boolean, nullable=False, default=True)
    disabled = sa.Column(sa.Boolean, nullable=False, default=False)
    description = sa.Column(sa.Text)
    # JSON object of the flavor's extra specs.
    extra_specs = sa.Column(sa.Text)


class FlavorProject(base.TimestampMixin, Base):
    """A project given access to a private flavor (Nova's
    ``flavor_projects``); the flavor's rows go with it."""
    __tablename__ = 'flavor_projects'
    __table_args__ = (
        # Of two adds of one project, the second loses here (409).
        sa.UniqueConstraint('flavor_id', 'project_id',
                            name='uniq_flavor_projects0flavor_id0project_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavor_id = sa.Column(sa.Integer,
                          sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                          nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)


class KeyPair(base.TimestampMixin, Base):
    """A user's key pair (``/os-keypairs``): names are per user, as in
    Nova; a key pair belongs to no project."""
    __tablename__ = 'key_pairs'
    __table_args__ = (
        # Of two creates of one name, the second loses here (409).
        sa.UniqueConstraint('user_id', 'name',
                            name='uniq_key_pairs0user_id0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    name = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    fingerprint = sa.Column(sa.String(255), nullable=False)
    public_key = sa.Column(sa.Text, nullable=False)
    # ssh or x509 (fields.KeyPairType).
    type = sa.Column(sa.String(16), nullable=False, default='ssh',
                     server_default='ssh')
