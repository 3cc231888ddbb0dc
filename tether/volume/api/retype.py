"""os-retype in the API process: a volume takes another volume type.

tether retypes without migration: the volume stays on its backend, which
must satisfy the new type's extra specs (whatever ``migration_policy``
says; a retype that needs another backend is refused, where Cinder's
scheduler would migrate the volume or, with ``never``, put it back).
Nothing changes on the backend's storage, so the retype is one
transaction, as Cinder's conditional update of the volume is:

- the volume is ``available`` or ``in-use``, still of the type the
  caller read, and (attached) keeps the QoS specs its compute host
  applies; a change of ``multiattach`` only of an ``available`` volume;
- its type and multiattach flag change;
- the per-type usage of its project (Cinder's ``volumes_<type>``,
  ``gigabytes_<type>``), where the project has it, moves from the old
  type to the new one, within the new type's limits.
"""

from oslo_log import log as logging

from tether.db import session
from tether.db.volume import qos_specs as db_qos
from tether.db.volume import quota as db_quotas
from tether.db.volume import service as db_services
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import types as volume_types
from tether.volume import exception
from tether.volume import quota
from tether.volume import scheduler

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
RETYPE_STATUSES = (S.AVAILABLE, S.IN_USE)
MIGRATION_POLICIES = ('never', 'on-demand')


def _backend_satisfies(context, volume, vtype):
    """Whether the volume's pool (as its backend last reported it)
    satisfies the type's extra specs."""
    backend, _, pool_name = (volume.host or '').partition('#')
    for service in db_services.get_all(
            context, binary=fields.ServiceBinary.VOLUME, host=backend):
        caps = service.capabilities
        for pool in caps.get('pools', [caps]):
            if pool.get('pool_name', 'default') == pool_name:
                return scheduler.satisfies(
                    scheduler.pool_capabilities(caps, pool),
                    vtype.extra_specs)
    return False


def per_type(type_name, volume):
    """Cinder's per-type usage of one volume of type ``type_name``."""
    return {'volumes_%s' % type_name: 1,
            'gigabytes_%s' % type_name: volume.size}


def _move_usage(context, volume, old_name, new_name, limits):
    """The volume's per-type usage from the old type to the new (only if
    its project counts usage per type: it has the old type's rows)."""
    if not volume.use_quota:
        return
    old = per_type(old_name, volume)
    counted = db_quotas.get_usages(context, volume.project_id,
                                   for_update=True)
    if not all(resource in counted for resource in old):
        return
    db_quotas.consume_in_transaction(context, volume.project_id,
                                     per_type(new_name, volume), limits)
    db_quotas.release_in_transaction(context, volume.project_id, old)


def _lost(context, volume, vtype):
    """Why the retype's conditional update found nothing to change."""
    current = db_volumes.get(context, volume.id)
    if current.status not in RETYPE_STATUSES:
        return exception.InvalidVolumeStatus(
            volume_id=volume.id, status=current.status,
            expected=' or '.join(RETYPE_STATUSES))
    if current.volume_type_id != volume.volume_type_id:
        return exception.InvalidVolume(
            reason='the type of volume %s changed while this request was '
                   'handled; retry it' % volume.id)
    if current.multiattach != vtype.multiattach:
        return exception.InvalidVolume(
            reason='a retype that changes multiattach is only allowed of an '
                   'available volume; volume %s is %s'
                   % (volume.id, current.status))
    return exception.InvalidVolume(
        reason='volume %s is attached and type %s has other QoS specs for '
               'its compute host than its type; detach it first'
               % (volume.id, vtype.name))


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _retype(context, volume, old_name, vtype, limits):
    statuses = RETYPE_STATUSES
    if vtype.multiattach != volume.multiattach:
        statuses = (S.AVAILABLE,)
    won = db_volumes.conditional_update(
        context, volume.id,
        {'volume_type_id': vtype.id, 'multiattach': vtype.multiattach},
        statuses, extra=(
            db_volumes.type_is(volume.volume_type_id),
            db_qos.front_end_unchanged(vtype.id)))
    if not won:
        raise _lost(context, volume, vtype)
    _move_usage(context, volume, old_name, vtype.name, limits)


def retype(context, volume, new_type, migration_policy='never'):
    """Give ``volume`` the type ``new_type`` (a name or an ID)."""
    if migration_policy not in MIGRATION_POLICIES:
        raise exception.InvalidInput(
            reason='migration_policy must be never or on-demand')
    vtype = volume_types.get(context, new_type)
    if vtype.id == volume.volume_type_id:
        raise exception.InvalidInput(
            reason='volume %s is of type %s already; a retype needs another '
                   'type' % (volume.id, vtype.name))
    if volume.status not in RETYPE_STATUSES:
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=volume.status,
            expected=' or '.join(RETYPE_STATUSES))
    if vtype.multiattach != volume.multiattach and \
            volume.status != S.AVAILABLE:
        raise exception.InvalidInput(
            reason='retypes affecting multiattach are only allowed on '
                   'available volumes; volume %s is %s'
                   % (volume.id, volume.status))
    if not _backend_satisfies(context, volume, vtype):
        raise exception.RetypeNeedsMigration(
            volume_id=volume.id, type=vtype.name, policy=migration_policy)
    limits = quota.get_limits(context, volume.project_id)
    _retype(context, volume, volume.volume_type_name, vtype, limits)
    LOG.info('Volume %s retyped from %s to %s', volume.id,
             volume.volume_type_name, vtype.name)
