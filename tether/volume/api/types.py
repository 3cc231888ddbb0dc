"""Volume types and their extra specs: business rules, in the API process."""

import dataclasses
import datetime

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db.volume import volume_type as db_types
from tether import exception

CONF = cfg.CONF

SORT_KEYS = db_types.SORT_KEYS

# Extra specs every reader of a type may see (Cinder's list since Xena);
# the others describe the deployment and are for administrators.
USER_VISIBLE_EXTRA_SPECS = ('RESKEY:availability_zones', 'multiattach',
                            'replication_enabled')


@dataclasses.dataclass(frozen=True)
class VolumeType:
    id: str
    name: str
    description: str | None
    is_public: bool
    extra_specs: dict
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None

    @classmethod
    def from_db(cls, row):
        return cls(id=row.id, name=row.name, description=row.description,
                   is_public=row.is_public,
                   extra_specs={s.key: s.value for s in row.extra_specs},
                   created_at=row.created_at, updated_at=row.updated_at)


def _visible(context, row):
    # tether has no type-access table yet: a private type is for admins.
    return context.is_admin or row.is_public


def _lookup(context, name_or_id):
    row = db_types.get_by_name_or_id(context, name_or_id)
    if not _visible(context, row):
        raise exception.VolumeTypeNotFound(volume_type_id=name_or_id)
    return row


def get(context, name_or_id):
    return VolumeType.from_db(_lookup(context, name_or_id))


def get_default(context):
    """The type a volume gets when its create names none."""
    try:
        return VolumeType.from_db(
            db_types.get_by_name_or_id(context, CONF.default_volume_type))
    except exception.VolumeTypeNotFound:
        raise exception.VolumeTypeNotFound(
            message='The default volume type %s (option '
                    'default_volume_type) does not exist.'
                    % CONF.default_volume_type)


def get_all(context, is_public=True, marker=None, limit=None, offset=None,
            sort_keys=None, sort_dirs=None):
    """One page of types. Non-admins see public types only.

    ``is_public``: True public, False private, None both (admins).
    """
    if not context.is_admin:
        is_public = True
    rows = db_types.get_page(
        context, is_public=is_public, marker=marker, limit=limit,
        offset=offset, sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'))
    return [VolumeType.from_db(r) for r in rows]


def create(context, name, description=None, is_public=True,
           extra_specs=None):
    row = db_types.create(
        context, {'id': uuidutils.generate_uuid(), 'name': name,
                  'description': description, 'is_public': is_public},
        extra_specs)
    return VolumeType.from_db(row)


def update(context, name_or_id, values):
    """Change ``name``, ``description`` or ``is_public`` (given keys only)."""
    if not values:
        raise exception.InvalidInput(
            reason='specify the volume type name, description, is_public '
                   'or a combination of them')
    row = _lookup(context, name_or_id)
    return VolumeType.from_db(db_types.update(
        context, row.id, values, protected_name=CONF.default_volume_type))


def delete(context, name_or_id):
    """Delete a type that is neither the default nor used by a volume."""
    row = _lookup(context, name_or_id)
    db_types.destroy(context, row.id, CONF.default_volume_type)


def get_extra_specs(context, name_or_id):
    return get(context, name_or_id).extra_specs


def update_extra_specs(context, name_or_id, specs):
    """Create or replace some extra specs; refused while volumes use it."""
    row = _lookup(context, name_or_id)
    db_types.update_extra_specs(context, row.id, specs)
    return dict(specs)


def delete_extra_spec(context, name_or_id, key):
    row = _lookup(context, name_or_id)
    db_types.delete_extra_spec(context, row.id, key)


def user_visible(extra_specs):
    """The extra specs a reader without read_sensitive may see."""
    return {k: v for k, v in extra_specs.items()
            if k in USER_VISIBLE_EXTRA_SPECS}
