"""Queries on volume transfers. A transfer is seen by its volume's
project (``source_project_id``) and by administrators; its key's salt
and hash are read here alone. Transfers leave this module as Transfer
records."""

import sqlalchemy as sa

from tether.db import cas
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects.volume import transfer as transfer_obj
from tether.volume import exception

db = session.VOLUME
SORT_KEYS = ('id', 'name', 'volume_id', 'created_at', 'updated_at',
             'source_project_id')


def _query(project_id=None):
    q = sa.select(models.Transfer)
    if project_id is not None:
        q = q.where(models.Transfer.source_project_id == project_id)
    return q


def _get(context, transfer_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(models.Transfer.id == transfer_id)).first()
    if row is None:
        raise exception.TransferNotFound(transfer_id=transfer_id)
    return row


@db.reader
def get(context, transfer_id, project_id=None):
    """The transfer, or TransferNotFound (also when another project
    offers it)."""
    return transfer_obj.Transfer.from_db(
        _get(context, transfer_id, project_id))


@db.reader
def get_key_hash(context, transfer_id):
    """(salt, crypt_hash) of any project's transfer (an accept comes
    from another project), or TransferNotFound."""
    row = _get(context, transfer_id)
    return row.salt, row.crypt_hash


def create_in_transaction(context, values):
    row = models.Transfer(**values)
    context.session.add(row)
    context.session.flush()
    return transfer_obj.Transfer.from_db(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        q = q.where(getattr(models.Transfer, key) == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('asc', 'asc'),
            offset=None):
    """One page of transfers, in a stable order (keyset pagination)."""
    q = _apply_filters(_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, models.Transfer, sort_keys, sort_dirs,
        marker=marker, marker_query=_query(project_id),
        not_found=lambda m: exception.TransferMarkerNotFound(marker=m),
        limit=limit, offset=offset)
    return [transfer_obj.Transfer.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(
        sa.select(sa.func.count(models.Transfer.id))
        .select_from(models.Transfer), filters or {})
    if project_id is not None:
        q = q.where(models.Transfer.source_project_id == project_id)
    return int(context.session.scalar(q))


def destroy_in_transaction(context, transfer_id, project_id=None):
    """Delete the row (of ``project_id``'s, if given); the transfer it
    was, or TransferNotFound if another caller took it first."""
    row = _get(context, transfer_id, project_id)
    transfer = transfer_obj.Transfer.from_db(row)
    if not cas.delete(context, models.Transfer,
                      [models.Transfer.id == transfer_id]):
        raise exception.TransferNotFound(transfer_id=transfer_id)
    return transfer
