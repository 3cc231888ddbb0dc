"""Queries on volume attachments; every status change is conditional.
Attachments leave this module as Attachment objects (and a locked volume
as a Volume object without its relations)."""

import collections
import functools

import sqlalchemy as sa

from tether.db import cas
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.db.volume import volume as db_volumes
from tether.db.volume import volume_rows
from tether.objects import fields
from tether.objects.volume import attachment as attachment_obj
from tether.objects.volume import volume as volume_obj
from tether.volume import exception

db = session.VOLUME
A = models.VolumeAttachment
V = models.Volume

# Keys an attachment list may be sorted by (none of them is nullable).
SORT_KEYS = ('id', 'created_at', 'attach_status', 'volume_id')


def _query(project_id=None):
    q = sa.select(A)
    if project_id is not None:
        # The project of its volume, copied into the row at the insert.
        q = q.where(A.project_id == project_id)
    return q


def _obj(row):
    return attachment_obj.Attachment.from_db(row)


def _objs(rows):
    return [attachment_obj.Attachment.from_db(row) for row in rows]


def _get(context, attachment_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(A.id == attachment_id)).first()
    if row is None:
        raise exception.AttachmentNotFound(attachment_id=attachment_id)
    return row


# The reads of one attachment, of one in a project, and of a volume's.
_Reads = collections.namedtuple('_Reads', 'by_id in_project of_volume')


@functools.cache
def _reads():
    """The statements of the reads of one attachment and of a volume's,
    plain Core over the table and built once (each value a bound
    parameter): through an ORM session, the read of one attachment cost
    the volume API more CPU than all its other steps (an attachment's
    update, complete and delete each read it first)."""
    table = A.__table__
    by_id = sa.select(table).where(table.c.id == sa.bindparam('id'))
    return _Reads(
        by_id=by_id,
        in_project=by_id.where(table.c.project_id == sa.bindparam('project')),
        of_volume=(sa.select(table)
                   .where(table.c.volume_id == sa.bindparam('volume_id'))
                   .order_by(table.c.created_at, table.c.id)))


@db.reader_connection
def get(context, attachment_id, project_id=None):
    """The attachment, or AttachmentNotFound (also for another project's)."""
    if project_id is None:
        row = context.connection.execute(
            _reads().by_id, {'id': attachment_id}).first()
    else:
        row = context.connection.execute(
            _reads().in_project,
            {'id': attachment_id, 'project': project_id}).first()
    if row is None:
        raise exception.AttachmentNotFound(attachment_id=attachment_id)
    return _obj(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        column = getattr(A, key)
        if isinstance(value, (list, tuple, set)):
            q = q.where(column.in_(value))
        else:
            q = q.where(column == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of attachments in a stable order (``id`` breaks ties)."""
    q = _apply_filters(_query(project_id), filters or {})
    return _objs(keyset.page(
        context.session, q, A, sort_keys, sort_dirs,
        marker=marker, marker_query=_query(project_id),
        not_found=lambda m: exception.InvalidInput(
            reason='marker %s was not found' % m),
        limit=limit, offset=offset))


@db.reader_connection
def get_for_volume(context, volume_id):
    """Every attachment of one volume, oldest first."""
    return _objs(context.connection.execute(_reads().of_volume,
                                            {'volume_id': volume_id}))


@db.reader_connection
def sharing(context, attachment, volume, live_statuses):
    """The other attachments in ``live_statuses`` on ``attachment``'s host
    to the same share.

    They share the consumer host's connection to the share (for NFS, its
    mount): same ``attached_host``, and a volume of the same backend pool
    on the same share.
    """
    if not attachment.attached_host or not volume.provider_location:
        return []
    return _objs(context.connection.execute(_sharing(), {
        'id': attachment.id, 'host': attachment.attached_host,
        'statuses': list(live_statuses), 'volume_host': volume.host,
        'location': volume.provider_location}))


@functools.cache
def _sharing():
    table, volumes = A.__table__, V.__table__
    return (sa.select(table)
            .join(volumes, volumes.c.id == table.c.volume_id)
            .where(table.c.id != sa.bindparam('id'),
                   table.c.attached_host == sa.bindparam('host'),
                   table.c.attach_status.in_(
                       sa.bindparam('statuses', expanding=True)),
                   volumes.c.host == sa.bindparam('volume_host'),
                   volumes.c.provider_location
                   == sa.bindparam('location'))
            .order_by(table.c.created_at, table.c.id))


@db.reader
def get_all_on_backend(context, host, statuses):
    """Attachments in ``statuses`` of the volumes of one backend."""
    q = (sa.select(A).join(V, V.id == A.volume_id)
         .where(sa.or_(V.host == host,
                       V.host.startswith(host + '#', autoescape=True)),
                A.attach_status.in_(statuses)))
    return _objs(context.session.scalars(q))


# Inside a writer transaction ----------------------------------------------

def lock_volume(context, volume_id, project_id=None):
    """Lock the volume's row until the transaction ends; return the volume
    (without its metadata and attachments, which the lock does not read).

    Every change of a volume's attachments takes this lock first, so the
    rules over several attachment rows (multiattach, the volume's status)
    see the rows of the transactions before them. (A Core read built
    once, on the transaction's connection, as a show's: through the ORM
    it cost more CPU than the rest of an attachment's transition.)
    """
    row = volume_rows.locked_row(session.core_connection(context), volume_id,
                                 project_id)
    return volume_obj.Volume.from_row(row, None)


@functools.cache
def _statuses_of_volume():
    table = A.__table__
    return sa.select(table.c.attach_status).where(
        table.c.volume_id == sa.bindparam('volume_id'))


def statuses_of_volume(context, volume_id):
    return [s for (s,) in session.core_connection(context).execute(
        _statuses_of_volume(), {'volume_id': volume_id})]


def not_connected():
    """A clause on attachments: no connection info recorded (yet)."""
    return A.connection_info.is_(None)


def connected():
    return A.connection_info.isnot(None)


def never_connected():
    """A clause on attachments: no connector was ever given."""
    return A.connector.is_(None)


def insert(context, values):
    # An attachment belongs to the project of its volume (the caller
    # holds the volume's row lock).
    project_id = context.session.scalar(
        sa.select(V.project_id).where(V.id == values['volume_id']))
    row = A(project_id=project_id, **values)
    context.session.add(row)
    context.session.flush()
    return _obj(row)


def legacy_reservation(context, volume_id):
    """The oldest attachment of the volume that os-reserve recorded
    (``attaching`` and never given a connector), or None."""
    row = context.session.scalars(
        sa.select(A).where(A.volume_id == volume_id,
                           A.attach_status == fields.VolumeAttachStatus
                           .ATTACHING,
                           A.connector.is_(None))
        .order_by(A.created_at, A.id)).first()
    return _obj(row) if row is not None else None


def legacy_pending(context, volume_id):
    """The oldest ``attaching`` attachment of the volume without an
    instance that os-attach may take: not connected at all, or with its
    connection recorded (not one whose connect is under way); or None."""
    row = context.session.scalars(
        sa.select(A).where(A.volume_id == volume_id, *pending())
        .order_by(A.created_at, A.id)).first()
    return _obj(row) if row is not None else None


def pending():
    """Clauses on attachments: what :func:`legacy_pending` takes."""
    return (A.attach_status == fields.VolumeAttachStatus.ATTACHING,
            A.instance_uuid.is_(None),
            sa.or_(A.connector.is_(None), A.connection_info.isnot(None)))


def none_in(statuses):
    """A clause on volumes: no attachment of the volume in ``statuses``."""
    return ~sa.exists().where(A.volume_id == V.id,
                              A.attach_status.in_(statuses))


def no_attachments():
    """A clause on volumes: the volume has no attachment at all."""
    return ~sa.exists().where(A.volume_id == V.id)


def has_attachment_for(instance_uuid, statuses):
    """A clause on volumes: an attachment in ``statuses`` to the instance."""
    return sa.exists().where(A.volume_id == V.id,
                             A.instance_uuid == instance_uuid,
                             A.attach_status.in_(statuses))


@db.writer
def conditional_update(context, attachment_id, values, expected_statuses,
                       extra=()):
    """UPDATE … WHERE attach_status IN expected; True if this caller won."""
    return cas.update(context, A, [A.id == attachment_id,
                                   A.attach_status.in_(expected_statuses),
                                   *extra], values)


@db.writer
def destroy(context, attachment_id, expected_statuses, extra=()):
    """Delete the row if its status is still expected; True if deleted."""
    return cas.delete(context, A, [A.id == attachment_id,
                                   A.attach_status.in_(expected_statuses),
                                   *extra])


def destroy_all_for_volume(context, volume_id):
    """Delete every attachment of the volume; how many there were."""
    result = context.session.execute(
        sa.delete(A).where(A.volume_id == volume_id)
        .execution_options(synchronize_session=False))
    return result.rowcount


def first_of_volume(context, volume_id):
    row = context.session.scalars(
        sa.select(A).where(A.volume_id == volume_id)
        .order_by(A.created_at, A.id)).first()
    return _obj(row) if row is not None else None


@db.writer
def transition_without_attachments(context, volume_id, values,
                                   expected_statuses, project_id=None):
    """A volume transition that also needs the volume to have no attachment.

    One conditional UPDATE; the loser learns the status, or the attachment
    that is in the way.
    """
    if db_volumes.conditional_update(context, volume_id, values,
                                     expected_statuses, project_id,
                                     extra=(no_attachments(),)):
        return db_volumes.get(context, volume_id)
    current = db_volumes.get(context, volume_id, project_id)
    first = first_of_volume(context, volume_id)
    if current.status in expected_statuses and first is not None:
        raise exception.VolumeHasAttachments(
            volume_id=volume_id, attachment_id=first.id,
            status=first.attach_status)
    raise exception.InvalidVolumeStatus(
        volume_id=volume_id, status=current.status,
        expected=' or '.join(expected_statuses))
