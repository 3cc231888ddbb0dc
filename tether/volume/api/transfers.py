"""Volume transfers (``/os-volume-transfer``, ``/volume-transfers``) in
the API process: offer a volume to another project, cancel the offer,
accept it.

A transfer is a change of the database alone, as in Cinder (no backend
keeps a volume's owner). Each step is one transaction:

- create: the volume ``available`` -> ``awaiting-transfer`` (without
  attachments; with its snapshots all ``available`` unless
  ``no_snapshots``), and the transfer inserted;
- delete: the transfer removed, the volume back to ``available``;
- accept: the transfer removed (of two accepts, one removes it; the
  other finds it gone), the volume ``available`` in the accepting
  project, its snapshots with it (unless ``no_snapshots``), their quota
  counted in the accepting project within its limits (else
  QuotaExceeded and nothing changed) and given back in the offering one.

The key is shown once, in the create's answer; the database holds a
random salt and the HMAC-SHA256 of the key under it, and an accept
compares hashes in constant time.
"""

import hashlib
import hmac
import secrets

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import transfer as db_transfers
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception
from tether.volume import quota
from tether.volume import snapshot_state

LOG = logging.getLogger(__name__)
VS = fields.VolumeStatus
SS = fields.SnapshotStatus
SORT_KEYS = db_transfers.SORT_KEYS

# Cinder's key: 16 hexadecimal digits (64 random bits), which a person
# can type; its salt, 16 random bytes here.
KEY_LENGTH = 16
SALT_BYTES = 16


def new_key():
    return secrets.token_hex(KEY_LENGTH // 2)


def key_hash(salt, auth_key):
    """The hex HMAC-SHA256 of ``auth_key`` (text, or a number as Cinder
    takes it) under ``salt`` (hex)."""
    return hmac.new(bytes.fromhex(salt), str(auth_key).encode('utf-8'),
                    hashlib.sha256).hexdigest()


def key_matches(salt, crypt_hash, auth_key):
    return hmac.compare_digest(key_hash(salt, auth_key), crypt_hash)


def get(context, transfer_id):
    return db_transfers.get(context, transfer_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_transfers.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('asc', 'asc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_transfers.count(
        context, context.list_scope(all_tenants, project_id), filters)


def _snapshots_of(context, volume_id, project_id):
    """The snapshots of a volume that go with it: those of its project
    (one left behind by an earlier transfer without its snapshots stays
    with the project that has it)."""
    return [s for s in db_snapshots.of_volume_in_transaction(context,
                                                             volume_id)
            if s.project_id == project_id]


def _move_snapshots(context, volume_id, source, destination, user_id):
    """Each of the volume's snapshots in ``source`` to ``destination``,
    if still ``available`` (InvalidSnapshotStatus names one that is
    not); the snapshots as moved."""
    return [db_snapshots.transition_in_transaction(
                context, snapshot.id,
                {'project_id': destination, 'user_id': user_id},
                [SS.AVAILABLE], source)
            for snapshot in _snapshots_of(context, volume_id, source)]


@session.VOLUME.writer
def _offer(context, volume, values):
    """Hold the volume (``awaiting-transfer``), check the snapshots that
    go with it, insert the transfer: one transaction."""
    db_attachments.transition_without_attachments(
        context, volume.id, {'status': VS.AWAITING_TRANSFER},
        [VS.AVAILABLE], context.project_scope)
    if not values['no_snapshots']:
        for snapshot in _snapshots_of(context, volume.id, volume.project_id):
            if snapshot.status != SS.AVAILABLE:
                raise exception.InvalidSnapshotStatus(
                    snapshot_id=snapshot.id, status=snapshot.status,
                    expected='%s (to go with its volume; or transfer '
                             'the volume with no_snapshots)' % SS.AVAILABLE)
    return db_transfers.create_in_transaction(context, values)


def create(context, volume, name=None, no_snapshots=False):
    """Offer ``volume`` (whose project the caller may act for); the
    transfer and its key, which is not kept."""
    if volume.status != VS.AVAILABLE:
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=volume.status, expected=VS.AVAILABLE)
    auth_key = new_key()
    salt = secrets.token_hex(SALT_BYTES)
    values = {
        'id': uuidutils.generate_uuid(), 'volume_id': volume.id,
        'source_project_id': volume.project_id, 'name': name,
        'salt': salt, 'crypt_hash': key_hash(salt, auth_key),
        'no_snapshots': no_snapshots,
    }
    transfer = _offer(context, volume, values)
    LOG.info('Volume %s offered for transfer (%s)', volume.id, transfer.id)
    return transfer, auth_key


@session.VOLUME.writer
def delete(context, transfer_id):
    """Cancel a transfer: its volume ``available`` again. As in Cinder,
    a volume no longer ``awaiting-transfer`` (an administrator reset its
    status) keeps its status, and the transfer goes all the same."""
    transfer = db_transfers.destroy_in_transaction(context, transfer_id,
                                                   context.project_scope)
    if not db_volumes.conditional_update(
            context, transfer.volume_id, {'status': VS.AVAILABLE},
            [VS.AWAITING_TRANSFER], transfer.source_project_id):
        LOG.warning('Transfer %s cancelled; its volume %s was no longer '
                    'awaiting-transfer', transfer_id, transfer.volume_id)
    return transfer


def _volume_quota(context, volume):
    if not volume.use_quota:
        return {}
    return quota.with_type({'volumes': 1, 'gigabytes': volume.size},
                           quota.volume_type_name(context, volume))


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _take(context, transfer_id, limits):
    """The accepting transaction: the transfer removed, the volume and
    its snapshots moved, the quota moved with them."""
    transfer = db_transfers.destroy_in_transaction(context, transfer_id)
    source, destination = transfer.source_project_id, context.project_id
    volume = db_volumes.transition(
        context, transfer.volume_id,
        {'status': VS.AVAILABLE, 'project_id': destination,
         'user_id': context.user_id},
        [VS.AWAITING_TRANSFER], source)
    deltas = _volume_quota(context, volume)
    if not transfer.no_snapshots:
        for snapshot in _move_snapshots(context, volume.id, source,
                                        destination, context.user_id):
            if snapshot.use_quota:
                counted = snapshot_state.quota_of(context, snapshot)
                for resource, n in counted.items():
                    deltas[resource] = deltas.get(resource, 0) + n
    if source != destination:
        db_quotas.consume_in_transaction(context, destination, deltas,
                                         limits)
        db_quotas.release_in_transaction(context, source, deltas)
    return transfer, volume


def accept(context, transfer_id, auth_key):
    """Take the volume of a transfer into the caller's project, with the
    key its creator was given."""
    salt, crypt_hash = db_transfers.get_key_hash(context, transfer_id)
    if not key_matches(salt, crypt_hash, auth_key):
        LOG.warning('Accept of transfer %s with a wrong key', transfer_id)
        raise exception.InvalidAuthKey(
            reason='the key does not open transfer %s' % transfer_id)
    transfer = db_transfers.get(context, transfer_id)
    volume = db_volumes.get(context, transfer.volume_id)
    limits = quota.check_per_volume_size(context, context.project_id,
                                         volume.size)
    transfer, volume = _take(context, transfer_id, limits)
    LOG.info('Volume %s transferred from project %s to project %s',
             volume.id, transfer.source_project_id, context.project_id)
    return transfer
