"""Models of volume types, their access, extra specs and QoS specs,
and the projects' default types."""

import sqlalchemy as sa
from sqlalchemy import orm

from tether.db import base
from tether.db.volume.models.common import _KeyValueMixin, Base
from tether.db.volume.models.volumes import Volume


class VolumeType(base.TimestampMixin, Base):
    __tablename__ = 'volume_types'

    id = sa.Column(sa.String(36), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False, unique=True)
    description = sa.Column(sa.String(255))
    is_public = sa.Column(sa.Boolean, nullable=False, default=True)
    # The QoS specs of the type's volumes (at most one; a spec is not
    # deleted while a type has it, unless forced).
    qos_specs_id = sa.Column(
        sa.String(36),
        sa.ForeignKey('quality_of_service_specs.id', ondelete='RESTRICT',
                      name='volume_types_qos_specs_id_fkey'),
        index=True)

    extra_specs = orm.relationship(
        'VolumeTypeExtraSpec', lazy='selectin', cascade='all, delete-orphan',
        passive_deletes=True)


class VolumeTypeProject(base.TimestampMixin, Base):
    """A project that may use a private volume type (Cinder's
    volume_type_projects, the os-volume-type-access lists)."""
    __tablename__ = 'volume_type_projects'
    __table_args__ = (
        sa.UniqueConstraint(
            'volume_type_id', 'project_id',
            name='uniq_volume_type_projects0volume_type_id0project_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id', ondelete='CASCADE'),
        nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)


# The type's name, read in the same SELECT as the volume (a correlated
# subquery): responses show it, and a second query per request would cost
# more than the volume itself.
Volume.volume_type_name = orm.column_property(
    sa.select(VolumeType.name)
    .where(VolumeType.id == Volume.volume_type_id)
    .correlate_except(VolumeType)
    .scalar_subquery())


class VolumeTypeExtraSpec(_KeyValueMixin, Base):
    __tablename__ = 'volume_type_extra_specs'
    __table_args__ = (
        sa.UniqueConstraint('volume_type_id', 'key',
                            name='uniq_volume_type_extra_specs0type0key'),
    )
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id', ondelete='CASCADE'),
        nullable=False)


class DefaultVolumeType(base.TimestampMixin, Base):
    """The volume type of a project's volumes created without one
    (Cinder's default_volume_types, /default-types, 3.62): it comes
    before ``[DEFAULT] default_volume_type``. A type that is a project's
    default cannot be deleted (the foreign key backs the rule up)."""
    __tablename__ = 'default_volume_types'

    project_id = sa.Column(sa.String(255), primary_key=True)
    volume_type_id = sa.Column(
        sa.String(36), sa.ForeignKey('volume_types.id'), nullable=False,
        index=True)


class QualityOfServiceSpecs(base.TimestampMixin, Base):
    """QoS specs (Cinder's): limits that a volume type's volumes get, on
    the compute host (``consumer`` front-end), the backend (back-end) or
    both."""
    __tablename__ = 'quality_of_service_specs'

    id = sa.Column(sa.String(36), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False, unique=True)
    consumer = sa.Column(sa.String(255), nullable=False)

    items = orm.relationship(
        'QualityOfServiceSpecsItem', lazy='selectin',
        cascade='all, delete-orphan', passive_deletes=True)


class QualityOfServiceSpecsItem(_KeyValueMixin, Base):
    __tablename__ = 'quality_of_service_specs_items'
    __table_args__ = (
        sa.UniqueConstraint('qos_specs_id', 'key',
                            name='uniq_qos_specs_items0qos_specs_id0key'),
    )
    qos_specs_id = sa.Column(
        sa.String(36),
        sa.ForeignKey('quality_of_service_specs.id', ondelete='CASCADE'),
        nullable=False)
