"""The quota engine: limits with their defaults, usage, checks and
reservations, which the volumes and their actions count against
(tether.volume.api.quota_sets sets and reverts a project's limits,
tether.volume.api.quota_class_sets a quota class's).

Beside the resources of every project, each volume type has three, as
in Cinder: ``volumes_<type name>``, ``gigabytes_<type name>`` and
``snapshots_<type name>``, unlimited (-1) unless set, counted and
checked with the totals. A limit is, first found: the project's, the
``default`` quota class's, the option (-1 for a type's).
"""

from oslo_config import cfg

from tether.db.volume import quota as db_quotas
from tether.db.volume import volume_type as db_types
from tether.volume import exception

CONF = cfg.CONF

RESOURCES = tuple(db_quotas.RESOURCES)
# The resources a volume type has of its own, each "<kind>_<type name>".
TYPE_KINDS = ('volumes', 'gigabytes', 'snapshots')
DEFAULT_CLASS = 'default'


def type_resources(type_name):
    return ['%s_%s' % (kind, type_name) for kind in TYPE_KINDS]


def resources(context):
    """Every resource: the project's, then each volume type's."""
    out = list(RESOURCES)
    for name in db_types.names(context):
        out += type_resources(name)
    return out


def _option_defaults(context):
    limits = {resource: CONF[option]
              for resource, option in db_quotas.RESOURCES.items()}
    for name in db_types.names(context):
        limits.update(dict.fromkeys(type_resources(name), -1))
    return limits


def _known(limits, rows):
    limits.update({r: v for r, v in rows.items() if r in limits})
    return limits


def default_limits(context):
    """The limits a project has until it is given its own: the
    ``default`` quota class's, else the options."""
    return _known(_option_defaults(context),
                  db_quotas.get_class_limits(context, DEFAULT_CLASS))


def class_limits(context, class_name):
    """The limits of a quota class: its own, else the defaults (as
    Cinder, for any class)."""
    return _known(default_limits(context),
                  db_quotas.get_class_limits(context, class_name))


def get_limits(context, project_id):
    """Every limit of a project: its own where set, else the default."""
    return _known(default_limits(context),
                  db_quotas.get_project_limits(context, project_id))


def get_usages(context, project_id):
    """{resource: {'limit', 'in_use', 'reserved'}} (Cinder's usage; its
    "allocated", of nested quotas, it no longer has)."""
    limits = get_limits(context, project_id)
    usages = db_quotas.get_usages(context, project_id)
    return {r: {'limit': limit,
                'in_use': usages.get(r, (0, 0))[0],
                'reserved': usages.get(r, (0, 0))[1]}
            for r, limit in limits.items()}


def with_type(deltas, type_name):
    """``deltas`` ({'volumes': n, 'gigabytes': n, ...}) with the same for
    the volume type ``type_name`` (if it has one), as Cinder counts them."""
    out = dict(deltas)
    if type_name:
        for kind in TYPE_KINDS:
            if kind in deltas:
                out['%s_%s' % (kind, type_name)] = deltas[kind]
    return out


def volume_type_name(context, volume):
    """The name of the type of ``volume`` (an object): as read with it,
    else from the database."""
    if volume.obj_attr_is_set('volume_type_name') and \
            volume.volume_type_name:
        return volume.volume_type_name
    return db_types.name_of_volume(context, volume.id)


def check_per_volume_size(context, project_id, size):
    """Raise VolumeSizeExceedsLimit; return the project's limits."""
    limits = get_limits(context, project_id)
    limit = limits['per_volume_gigabytes']
    if 0 <= limit < size:
        raise exception.VolumeSizeExceedsLimit(size=size, limit=limit)
    return limits


def reserve(context, project_id, deltas, limits=None, resource_id=None):
    if limits is None:
        limits = get_limits(context, project_id)
    return db_quotas.reserve(context, project_id, deltas, limits,
                             CONF.reservation_expire, resource_id=resource_id)
